/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Channels-first (NCW, NCHW, NCDHW) f32 max pooling, AArch64 NEON, lines
 * first: the lines of each output row's window are combined element-wise
 * along W, then each W window of the combined row is reduced (see
 * f32_nchw_linesfirst_impl.h). For plans whose W windows have no vector W
 * pass in the row kernel (stride >= 3, uneven adaptive windows, ...).
 */
#include "kernels.h"

#include "simd_f32_neon.h"
/* extra vocabulary; every mask is full lanes (compares), so the bitwise
 * select is the x86 blendv */
#define LF_VF_ASI(a) vreinterpretq_s32_f32(a)
#define LF_VI_GT(a, b) vreinterpretq_s32_u32(vcgtq_s32((a), (b)))
#define LF_VI_AND(a, b) vandq_s32((a), (b))
#define LF_VF_AND(a, b) vreinterpretq_f32_u32(vandq_u32(vreinterpretq_u32_f32(a), vreinterpretq_u32_f32(b)))
#define LF_VF_EQ(a, b) vreinterpretq_f32_u32(vceqq_f32((a), (b))) /* false for NaN, like _CMP_EQ_OQ */
#define LF_BLEND VF_BLEND
#define LF_VI_GATHER lf_neon_gather_i
static inline __attribute__((always_inline)) int32x4_t lf_neon_gather_i(const int32_t *b, int32x4_t o)
{
    const int32_t t[4] = {b[vgetq_lane_s32(o, 0)], b[vgetq_lane_s32(o, 1)], b[vgetq_lane_s32(o, 2)],
                          b[vgetq_lane_s32(o, 3)]};
    return vld1q_s32(t);
}
#define KPREFIX cf_lf_neon_
#include "f32_nchw_linesfirst_impl.h"

void maxpool_f32_nchw_linesfirst_neon(const struct maxpool_plan *p, const void *x, void *y, void *ind, int64_t t0,
                                      int64_t t1)
{
    cf_lf_neon_run(p, x, y, ind, t0, t1);
}
