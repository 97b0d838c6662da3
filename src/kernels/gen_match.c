/* SPDX-License-Identifier: Apache-2.0 */
/* Which plans the type-generic kernels (gen_impl.h, gen_<type>_<isa>.c)
 * take and how many tasks they split into (portable). Every kernel here gets
 * only plans with maxpool_plan.bounded (dispatch.c), so the window arrays
 * exist. Stack scratch per task, bounded by constants of gen_impl.h: the
 * window lines of one output row (ro[256]; rows of more lines take the
 * scalar scan), the taps of one window (tpos/toff[256]; windows of more taps
 * take the scalar scan, as do windows of more taps than a VI lane numbers
 * when indices are asked for), one vector of lanes, and without indices the
 * W-first form's strip of W results (GEN_FL_BYTES, 24 KiB, plus its line
 * NaN flags, 6 KiB). Offsets are int64
 * throughout; indices are formed as the reference forms them (row-major
 * only: column-major plans go to the reference). */
#include "kernels.h"

static int gen_match(const struct maxpool_plan *p, maxpool_dtype dt, maxpool_layout layout)
{
    if (p->desc.dtype != dt || p->desc.layout != layout || p->rank < 1 || p->rank > 3)
        return 0;
    return p->desc.index_type == MAXPOOL_INDEX_NONE || p->desc.index_order == MAXPOOL_INDEX_ROW_MAJOR;
}

#define GEN_MATCH(t, DT)                                                                                           \
    int maxpool_gen_##t##_nchw_match(const struct maxpool_plan *p) { return gen_match(p, DT, MAXPOOL_CHANNELS_FIRST); } \
    int maxpool_gen_##t##_nhwc_match(const struct maxpool_plan *p) { return gen_match(p, DT, MAXPOOL_CHANNELS_LAST); }
GEN_MATCH(f64, MAXPOOL_F64)
GEN_MATCH(f16, MAXPOOL_F16)
GEN_MATCH(bf16, MAXPOOL_BF16)
GEN_MATCH(i8, MAXPOOL_I8)
GEN_MATCH(u8, MAXPOOL_U8)
GEN_MATCH(i16, MAXPOOL_I16)
GEN_MATCH(u16, MAXPOOL_U16)
GEN_MATCH(i32, MAXPOOL_I32)
GEN_MATCH(i64, MAXPOOL_I64)

/* Output rows of one plane (every axis but the last). */
static int64_t gen_rows(const struct maxpool_plan *p)
{
    int64_t rows = 1;
    for (int i = 0; i < p->rank - 1; ++i)
        rows *= p->axis[i].out;
    return rows;
}

/* channels-first: one task is one output row of one (n, c) plane */
int64_t maxpool_gen_nchw_tasks(const struct maxpool_plan *p) { return p->n * p->c * gen_rows(p); }
/* channels-last: one task is one output row (n, o0, o1) of every channel */
int64_t maxpool_gen_nhwc_tasks(const struct maxpool_plan *p) { return p->n * gen_rows(p); }
