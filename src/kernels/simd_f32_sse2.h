/* SPDX-License-Identifier: Apache-2.0 */
/*
 * 4-lane f32 / int32 vector vocabulary for the kernel templates (SSE2, the
 * x86-64 baseline). Same names as simd_f32_avx2.h; see there for the update
 * rule. VF_SEL_GT(x, best) is _mm_max_ps(x, best) = "x > best ? x : best".
 * SSE2 has no blendv: selects are and/andnot/or.
 */
#include <emmintrin.h>

#define VW 4
#define VF __m128
#define VI __m128i
#define VF_LOAD(p) _mm_loadu_ps(p)
#define VF_STORE(p, v) _mm_storeu_ps((p), (v))
#define VF_SET1(x) _mm_set1_ps(x)
#define VI_LOAD(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define VI_STORE(p, v) _mm_storeu_si128((__m128i *)(void *)(p), (v))
#define VI_SET1(x) _mm_set1_epi32(x)
#define VI_ADD(a, b) _mm_add_epi32((a), (b))
#define VI_OR(a, b) _mm_or_si128((a), (b))
#define VI_SIGN(a) _mm_srai_epi32((a), 31)
#define VI_IOTA _mm_setr_epi32(0, 1, 2, 3)
#define VI_IOTA2 _mm_setr_epi32(0, 2, 4, 6)
#define VF_GT(a, b) _mm_cmpgt_ps((a), (b))
#define VF_ISNAN(a) _mm_cmpunord_ps((a), (a))
#define VF_MOR(a, b) _mm_or_ps((a), (b))
#define VF_BLEND simd_sse2_blend
#define VI_BLEND simd_sse2_blend_i
#define VI_BLEND_IM simd_sse2_blend_im
#define VF_SEL_GT(x, best) _mm_max_ps((x), (best)) /* x > best ? x : best */
#define VF_DEINTERLEAVE simd_sse2_deinterleave
#define VF_DEINT_INLANE(a, b, ev, od) simd_sse2_deinterleave((a), (b), (ev), (od))
#define VI_IOTA2_INLANE _mm_setr_epi32(0, 2, 4, 6)
#define VF_FIX(v) (v)
#define VI_FIX(v) (v)
#define VI_STORE_I64 simd_sse2_store_i64
#define VF_MASKLOAD simd_sse2_maskload
#define VF_MASKSTORE simd_sse2_maskstore
#define VF_GATHER simd_sse2_gather /* (const float *base, VI offsets) */
#define VI_ASF(a) _mm_castsi128_ps(a)

#ifndef SIMD_F32_SSE2_FUNCS
#define SIMD_F32_SSE2_FUNCS
static inline __attribute__((always_inline)) __m128 simd_sse2_blend(__m128 a, __m128 b, __m128 m)
{
    return _mm_or_ps(_mm_and_ps(m, b), _mm_andnot_ps(m, a));
}
static inline __attribute__((always_inline)) __m128i simd_sse2_blend_im(__m128i a, __m128i b, __m128i m)
{
    return _mm_or_si128(_mm_and_si128(m, b), _mm_andnot_si128(m, a));
}
static inline __attribute__((always_inline)) __m128i simd_sse2_blend_i(__m128i a, __m128i b, __m128 m)
{
    return simd_sse2_blend_im(a, b, _mm_castps_si128(m));
}
static inline __attribute__((always_inline)) void simd_sse2_deinterleave(__m128 a, __m128 b, __m128 *ev, __m128 *od)
{
    *ev = _mm_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0));
    *od = _mm_shuffle_ps(a, b, _MM_SHUFFLE(3, 1, 3, 1));
}
static inline __attribute__((always_inline)) void simd_sse2_store_i64(int64_t *p, __m128i v, int64_t base,
                                                                      int minus_one)
{
    const __m128i b = _mm_set1_epi64x(base);
    const __m128i s = _mm_srai_epi32(v, 31);
    __m128i lo = _mm_add_epi64(_mm_unpacklo_epi32(v, s), b);
    __m128i hi = _mm_add_epi64(_mm_unpackhi_epi32(v, s), b);
    if (minus_one) {
        lo = _mm_or_si128(lo, _mm_unpacklo_epi32(s, s));
        hi = _mm_or_si128(hi, _mm_unpackhi_epi32(s, s));
    }
    _mm_storeu_si128((__m128i *)(void *)p, lo);
    _mm_storeu_si128((__m128i *)(void *)(p + 2), hi);
}
static inline __attribute__((always_inline)) __m128 simd_sse2_maskload(const float *p, int64_t n)
{
    float t[4] = {0, 0, 0, 0};
    for (int64_t i = 0; i < n; ++i)
        t[i] = p[i];
    return _mm_loadu_ps(t);
}
static inline __attribute__((always_inline)) __m128 simd_sse2_gather(const float *b, __m128i o)
{
    int32_t t[4];
    _mm_storeu_si128((__m128i *)(void *)t, o);
    return _mm_setr_ps(b[t[0]], b[t[1]], b[t[2]], b[t[3]]);
}
static inline __attribute__((always_inline)) void simd_sse2_maskstore(float *p, int64_t n, __m128 v)
{
    float t[4];
    _mm_storeu_ps(t, v);
    for (int64_t i = 0; i < n; ++i)
        p[i] = t[i];
}
#endif
