/* Which plans the f32 kernels take and how many tasks they split into
 * (portable: the ISA-specific files hold only the kernels). */
#include "kernels.h"

#include "f32_cf_geom.h"
#include "f32_cf_linesfirst.h"
#include "f32_nchw_s1_logstep_geom.h"

int maxpool_f32_nchw_rows_match(const struct maxpool_plan *p) { return cf_match(p); }
int maxpool_f32_nchw_largek_match(const struct maxpool_plan *p) { return cf_match_largek(p); }
int maxpool_f32_nchw_linesfirst_match(const struct maxpool_plan *p) { return cf_match_linesfirst(p); }
int64_t maxpool_f32_nchw_rows_tasks(const struct maxpool_plan *p) { return cf_tasks(p); }
int maxpool_f32_nchw_s1_logstep_match(const struct maxpool_plan *p) { return ls_match(p); }
int64_t maxpool_f32_nchw_s1_logstep_tasks(const struct maxpool_plan *p) { return ls_tasks(p); }

int maxpool_f32_nhwc_match(const struct maxpool_plan *p)
{
    if (p->desc.dtype != MAXPOOL_F32 || p->desc.layout != MAXPOOL_CHANNELS_LAST || p->rank < 1 || p->rank > 3)
        return 0;
    if (p->desc.index_type != MAXPOOL_INDEX_NONE &&
        (p->desc.index_order != MAXPOOL_INDEX_ROW_MAJOR || p->in_spatial > INT32_MAX || p->max_offset > INT32_MAX))
        return 0;
    return 1;
}

int64_t maxpool_f32_nhwc_tasks(const struct maxpool_plan *p)
{
    int64_t rows = 1;
    for (int i = 0; i < p->rank - 1; ++i)
        rows *= p->axis[i].out;
    return p->n * rows;
}
