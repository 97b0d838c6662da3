/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The cblock kernel's 8-lane vocabulary and transposes (8 planes a group,
 * __m256), for f32_nchw_s1_cblock_avx2.c and f32_nchw_s1_cblock8_avx512.c
 * (the same code compiled with AVX-512's 32 vector registers, the SPP
 * shapes only). Included after the includer's CB_AI and intrinsics headers,
 * before f32_nchw_s1_cblock_impl.h. Transposes: per row chunk of 8 (then 4,
 * then 1..3) positions, the 128-bit halves of two planes loaded into one
 * vector and a 4x4 shufps transpose per half (vperm2f128 and unpcklps have
 * one port on this Xeon, shufps two); out, the inverse with vperm2f128
 * joining the halves (8 positions) or 128-bit stores (4, masked 1..3).
 */
#ifndef MAXPOOL_F32_NCHW_S1_CBLOCK_T8_H
#define MAXPOOL_F32_NCHW_S1_CBLOCK_T8_H

#define CB_VW 8
#define CB_V __m256
#define CB_MAXPS(a, b) _mm256_max_ps((a), (b))
#define CB_SET1(f) _mm256_set1_ps(f)
#define CB_UN __m256
#define CB_UN_ZERO _mm256_setzero_ps()
#define CB_UN_ANY(un) _mm256_movemask_ps(un)
#include "f32_nchw_s1_cblock_util.h"

/* 4x4 transposes, one per 128-bit half: a[i] lane j <-> a[j] lane i and
 * a[i] lane 4 + j <-> a[j] lane 4 + i; shufps only (two ports here, where
 * unpcklps and vperm2f128 have one) */
CB_AI void cb_t4(__m256 a[4])
{
    const __m256 t0 = _mm256_shuffle_ps(a[0], a[1], _MM_SHUFFLE(1, 0, 1, 0));
    const __m256 t1 = _mm256_shuffle_ps(a[0], a[1], _MM_SHUFFLE(3, 2, 3, 2));
    const __m256 t2 = _mm256_shuffle_ps(a[2], a[3], _MM_SHUFFLE(1, 0, 1, 0));
    const __m256 t3 = _mm256_shuffle_ps(a[2], a[3], _MM_SHUFFLE(3, 2, 3, 2));
    a[0] = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(2, 0, 2, 0));
    a[1] = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 1, 3, 1));
    a[2] = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(2, 0, 2, 0));
    a[3] = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 1, 3, 1));
}

/* four positions (n of them: 4, or 1..3 masked, the rest 0.0f) of planes
 * p and p + 4 in one vector: a[p] = [plane p | plane p + 4] at x0 + off */
CB_AI void cb_ld4(const float *x0, const int64_t ps, const int np, const int64_t off, const int n, __m256 a[4])
{
    if (n >= 4) {
        for (int p = 0; p < 4; ++p)
            a[p] = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(cb_plane(x0, ps, np, p) + off)),
                                        _mm_loadu_ps(cb_plane(x0, ps, np, p + 4) + off), 1);
    } else {
        const __m128i m = cb_tailmask4(n);
        for (int p = 0; p < 4; ++p)
            a[p] = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_maskload_ps(cb_plane(x0, ps, np, p) + off, m)),
                                        _mm_maskload_ps(cb_plane(x0, ps, np, p + 4) + off, m), 1);
    }
}

/*
 * Positions [off, off + n) of the group's planes (n = 8, 4, or 1..3; plane
 * stride ps), transposed and leafed: v[i] lane l = comb(s, plane l's
 * element off + i). The 128-bit halves are loaded into place (the
 * lane-crossing step of an 8x8 transpose costs no shuffle), then a 4x4
 * transpose per half. un |= NaN lanes (fe: masked-off positions load 0.0f).
 */
CB_AI void cb_in_chunk(const float *x0, const int64_t ps, const int np, const int64_t off, const int n, __m256 *v,
                       const __m256 vs, __m256 *un, const int fe)
{
    __m256 a[4];
    cb_ld4(x0, ps, np, off, n, a);
    if (n == 8) {
        __m256 b[4];
        cb_ld4(x0, ps, np, off + 4, 4, b);
        if (fe)
            for (int p = 0; p < 4; ++p)
                *un = _mm256_or_ps(*un, _mm256_cmp_ps(a[p], b[p], _CMP_UNORD_Q));
        cb_t4(b);
        for (int i = 0; i < 4; ++i)
            v[4 + i] = _mm256_max_ps(b[i], vs);
    } else if (fe)
        *un = _mm256_or_ps(*un, _mm256_or_ps(_mm256_cmp_ps(a[0], a[1], _CMP_UNORD_Q),
                                             _mm256_cmp_ps(a[2], a[3], _CMP_UNORD_Q)));
    cb_t4(a);
    for (int i = 0; i < 4 && i < n; ++i)
        v[i] = _mm256_max_ps(a[i], vs);
}

/* the inverse for the output: v[i * vst] lane l = plane l's element off + i
 * (i < n), stored for the np planes of the group (plane stride ps) */
CB_AI void cb_out_chunk(const __m256 *v, const int64_t vst, float *y0, const int64_t ps, const int np,
                        const int64_t off, const int n)
{
    __m256 a[4];
    for (int i = 0; i < 4; ++i)
        a[i] = i < n ? v[i * vst] : _mm256_setzero_ps();
    cb_t4(a); /* a[p] = [plane p | plane p + 4], positions c..c+3 */
    if (n == 8) {
        __m256 b[4];
        for (int i = 0; i < 4; ++i)
            b[i] = v[(4 + i) * vst];
        cb_t4(b);
        for (int p = 0; p < 4; ++p) {
            if (p < np)
                _mm256_storeu_ps(y0 + p * ps + off, _mm256_permute2f128_ps(a[p], b[p], 0x20));
            if (p + 4 < np)
                _mm256_storeu_ps(y0 + (p + 4) * ps + off, _mm256_permute2f128_ps(a[p], b[p], 0x31));
        }
    } else if (n == 4) {
        for (int p = 0; p < 4; ++p) {
            if (p < np)
                _mm_storeu_ps(y0 + p * ps + off, _mm256_castps256_ps128(a[p]));
            if (p + 4 < np)
                _mm_storeu_ps(y0 + (p + 4) * ps + off, _mm256_extractf128_ps(a[p], 1));
        }
    } else {
        const __m128i m = cb_tailmask4(n);
        for (int p = 0; p < 4; ++p) {
            if (p < np)
                _mm_maskstore_ps(y0 + p * ps + off, m, _mm256_castps256_ps128(a[p]));
            if (p + 4 < np)
                _mm_maskstore_ps(y0 + (p + 4) * ps + off, m, _mm256_extractf128_ps(a[p], 1));
        }
    }
}

#endif
