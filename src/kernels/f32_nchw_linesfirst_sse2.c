/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Channels-first (NCW, NCHW, NCDHW) f32 max pooling, SSE2, lines first: the
 * lines of each output row's window are combined element-wise along W, then
 * each W window of the combined row is reduced (see
 * f32_nchw_linesfirst_impl.h). For plans whose W windows have no vector W
 * pass in the row kernel (stride >= 3, uneven adaptive windows, ...).
 */
#include "kernels.h"

#include "simd_f32_sse2.h"
/* extra vocabulary */
#define LF_VF_ASI(a) _mm_castps_si128(a)
#define LF_VI_GT(a, b) _mm_cmpgt_epi32((a), (b))
#define LF_VI_AND(a, b) _mm_and_si128((a), (b))
#define LF_VF_AND(a, b) _mm_and_ps((a), (b))
#define LF_VF_EQ(a, b) _mm_cmpeq_ps((a), (b))
#define LF_BLEND VF_BLEND
#define LF_VI_GATHER lf_sse2_gather_i
static inline __attribute__((always_inline)) __m128i lf_sse2_gather_i(const int32_t *b, __m128i o)
{
    int32_t t[4];
    _mm_storeu_si128((__m128i *)(void *)t, o);
    return _mm_setr_epi32(b[t[0]], b[t[1]], b[t[2]], b[t[3]]);
}
#define KPREFIX cf_lf_sse2_
#include "f32_nchw_linesfirst_impl.h"

void maxpool_f32_nchw_linesfirst_sse2(const struct maxpool_plan *p, const void *x, void *y, void *ind, int64_t t0,
                                      int64_t t1)
{
    cf_lf_sse2_run(p, x, y, ind, t0, t1);
}
