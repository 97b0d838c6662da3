/*
 * Channels-first (NCW, NCHW, NCDHW) f32 max pooling, SSE2, lines first: the
 * lines of each output row's window are combined element-wise along W, then
 * each W window of the combined row is reduced (see
 * f32_nchw_linesfirst_impl.h). For plans whose W windows have no vector W
 * pass in the row kernel (stride >= 3, uneven adaptive windows, ...).
 */
#include "kernels.h"

#include "simd_f32_sse2.h"
#define KPREFIX cf_lf_sse2_
#include "f32_nchw_linesfirst_impl.h"

void maxpool_f32_nchw_linesfirst_sse2(const struct maxpool_plan *p, const void *x, void *y, void *ind, int64_t t0,
                                      int64_t t1)
{
    cf_lf_sse2_run(p, x, y, ind, t0, t1);
}
