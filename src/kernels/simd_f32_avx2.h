/* SPDX-License-Identifier: Apache-2.0 */
/*
 * 8-lane f32 / int32 vector vocabulary for the kernel templates (AVX2).
 * Included by *_avx2.c files only (compiled with -mavx2 -mfma -mf16c).
 * The templates (f32_*_impl.h) are written against these names only.
 *
 * Update rule of the running max: x replaces best when x > best (ordered
 * compare: false for NaN), or, with NaN propagation, when x is NaN.
 * VF_SEL_GT(x, best) is _mm256_max_ps(x, best), which Intel defines as
 * "x > best ? x : best" (the second operand is returned for NaN and equal
 * values): exactly the IGNORE rule, one instruction. The operand order is the
 * whole point; GCC keeps it for the intrinsic (no -ffast-math here).
 */
#include <immintrin.h>

#define VW 8
#define VF __m256
#define VI __m256i
#define VF_LOAD(p) _mm256_loadu_ps(p)
#define VF_STORE(p, v) _mm256_storeu_ps((p), (v))
#define VF_SET1(x) _mm256_set1_ps(x)
#define VI_LOAD(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define VI_STORE(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), (v))
#define VI_SET1(x) _mm256_set1_epi32(x)
#define VI_ADD(a, b) _mm256_add_epi32((a), (b))
#define VI_OR(a, b) _mm256_or_si256((a), (b))
#define VI_SIGN(a) _mm256_srai_epi32((a), 31)
#define VI_IOTA _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)
#define VI_IOTA2 _mm256_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14)
#define VF_GT(a, b) _mm256_cmp_ps((a), (b), _CMP_GT_OQ)
#define VF_ISNAN(a) _mm256_cmp_ps((a), (a), _CMP_UNORD_Q)
#define VF_MOR(a, b) _mm256_or_ps((a), (b))
#define VF_BLEND(a, b, m) _mm256_blendv_ps((a), (b), (m)) /* m ? b : a */
#define VI_BLEND(a, b, m)                                                                                          \
    _mm256_castps_si256(_mm256_blendv_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b), (m)))
#define VI_BLEND_IM(a, b, mi) _mm256_blendv_epi8((a), (b), (mi)) /* mi (int mask) ? b : a */
#define VF_SEL_GT(x, best) _mm256_max_ps((x), (best))           /* x > best ? x : best */
/* max_u32(a, b where the mask m is set, else 0): f32_nhwc_impl.h's position update (positions + 1) */
#define VI_MAXU_MASKED(a, m, b) _mm256_max_epu32((a), _mm256_and_si256(_mm256_castps_si256(m), (b)))
#define VF_DEINTERLEAVE simd_avx2_deinterleave
/* In-lane de-interleave: the lanes come out in the order 0 1 4 5 2 3 6 7
 * (of the outputs); VF_FIX/VI_FIX restore the natural order afterwards. */
#define VF_DEINT_INLANE(a, b, ev, od)                                                                              \
    (*(ev) = _mm256_shuffle_ps((a), (b), _MM_SHUFFLE(2, 0, 2, 0)),                                              \
     *(od) = _mm256_shuffle_ps((a), (b), _MM_SHUFFLE(3, 1, 3, 1)))
#define VI_IOTA2_INLANE _mm256_setr_epi32(0, 2, 8, 10, 4, 6, 12, 14)
#define VF_FIX(v) _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(v), _MM_SHUFFLE(3, 1, 2, 0)))
#define VI_FIX(v) _mm256_castpd_si256(_mm256_permute4x64_pd(_mm256_castsi256_pd(v), _MM_SHUFFLE(3, 1, 2, 0)))
#define VI_STORE_I64 simd_avx2_store_i64
#define VF_MASKLOAD simd_avx2_maskload
#define VF_MASKSTORE simd_avx2_maskstore
#define VF_GATHER(b, o) _mm256_i32gather_ps((b), (o), 4) /* b[o[i]] */
#define VI_ASF(a) _mm256_castsi256_ps(a)

#ifndef SIMD_F32_AVX2_FUNCS
#define SIMD_F32_AVX2_FUNCS
/* a = x[0..7], b = x[8..15] -> *ev = x[0,2,..,14], *od = x[1,3,..,15] */
static inline __attribute__((always_inline)) void simd_avx2_deinterleave(__m256 a, __m256 b, __m256 *ev, __m256 *od)
{
    __m256 e = _mm256_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0)); /* 0 2 8 10 | 4 6 12 14 */
    __m256 o = _mm256_shuffle_ps(a, b, _MM_SHUFFLE(3, 1, 3, 1));
    *ev = _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(e), _MM_SHUFFLE(3, 1, 2, 0)));
    *od = _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(o), _MM_SHUFFLE(3, 1, 2, 0)));
}
/* p[i] = base + v[i] as int64, i < 8; lanes with v < 0 become -1 when minus_one. */
static inline __attribute__((always_inline)) void simd_avx2_store_i64(int64_t *p, __m256i v, int64_t base,
                                                                      int minus_one)
{
    const __m256i b = _mm256_set1_epi64x(base);
    __m256i lo = _mm256_add_epi64(_mm256_cvtepi32_epi64(_mm256_castsi256_si128(v)), b);
    __m256i hi = _mm256_add_epi64(_mm256_cvtepi32_epi64(_mm256_extracti128_si256(v, 1)), b);
    if (minus_one) {
        const __m256i s = _mm256_srai_epi32(v, 31);
        lo = _mm256_or_si256(lo, _mm256_cvtepi32_epi64(_mm256_castsi256_si128(s)));
        hi = _mm256_or_si256(hi, _mm256_cvtepi32_epi64(_mm256_extracti128_si256(s, 1)));
    }
    _mm256_storeu_si256((__m256i *)(void *)p, lo);
    _mm256_storeu_si256((__m256i *)(void *)(p + 4), hi);
}
static inline __attribute__((always_inline)) __m256i simd_avx2_tailmask(int64_t n)
{
    return _mm256_cmpgt_epi32(_mm256_set1_epi32((int)n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}
/* loads lanes < n (others 0), n in [0, 8] */
static inline __attribute__((always_inline)) __m256 simd_avx2_maskload(const float *p, int64_t n)
{
    return _mm256_maskload_ps(p, simd_avx2_tailmask(n));
}
static inline __attribute__((always_inline)) void simd_avx2_maskstore(float *p, int64_t n, __m256 v)
{
    _mm256_maskstore_ps(p, simd_avx2_tailmask(n), v);
}
#endif
