/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Channels-first (NCW, NCHW, NCDHW) f32 max pooling, AVX2, lines first: the
 * lines of each output row's window are combined element-wise along W, then
 * each W window of the combined row is reduced (see
 * f32_nchw_linesfirst_impl.h). For plans whose W windows have no vector W
 * pass in the row kernel (stride >= 3, uneven adaptive windows, ...).
 */
#include "kernels.h"

#include "simd_f32_avx2.h"
/* extra vocabulary */
#define LF_VF_ASI(a) _mm256_castps_si256(a)
#define LF_VI_GT(a, b) _mm256_cmpgt_epi32((a), (b))
#define LF_VI_AND(a, b) _mm256_and_si256((a), (b))
#define LF_VF_AND(a, b) _mm256_and_ps((a), (b))
#define LF_VF_EQ(a, b) _mm256_cmp_ps((a), (b), _CMP_EQ_OQ)
/* Blends of the line pass as plain vblendvps: GCC 12 folds _mm256_blendv_ps
 * into a select on "mask < 0" and emits an extra vpcmpgtd (and register
 * copies) per blend. m ? b : a. */
#define LF_BLEND(a, b, m) lf_avx2_blend((a), (b), (m))
static inline __attribute__((always_inline)) __m256 lf_avx2_blend(__m256 a, __m256 b, __m256 m)
{
    __asm__("vblendvps %2, %1, %0, %0" : "+x"(a) : "x"(b), "x"(m)); /* in place: no register copies */
    return a;
}
#define LF_VI_GATHER(b, o) _mm256_i32gather_epi32((const int *)(const void *)(b), (o), 4) /* b[o[i]] */
#define KPREFIX cf_lf_avx2_
#include "f32_nchw_linesfirst_impl.h"

void maxpool_f32_nchw_linesfirst_avx2(const struct maxpool_plan *p, const void *x, void *y, void *ind, int64_t t0,
                                      int64_t t1)
{
    cf_lf_avx2_run(p, x, y, ind, t0, t1);
}
