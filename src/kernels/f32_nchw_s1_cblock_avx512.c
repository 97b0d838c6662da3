/* SPDX-License-Identifier: Apache-2.0 */
/*
 * NCHW (spatial rank 2) f32 max pooling of small planes with large stride-1
 * windows (YOLO's SPP), AVX-512: sixteen planes at a time, transposed so
 * that one vector holds one position of 16 planes, van Herk / Gil-Werman
 * running maxima along W and H (twice the work per instruction of the AVX2
 * instance), transposed back. The algorithm (and why it is bit-exact) is
 * f32_nchw_s1_cblock_impl.h, shared with the AVX2 instance: one template over
 * the lane count rather than a second copy, since the AVX2 instance compiles
 * to the same object code from it (callgrind instructions unchanged); this
 * file holds the 16-lane transposes and the match. The SPP shapes' compile-
 * time sizes are not compiled here (CB_SPP 0): the match leaves those shapes
 * to the AVX2 instance, which measured faster on them (a group's 25.6 KB of
 * row results beside its 16 planes in and out overflow L1,
 * docs/performance.md); on the other plans this instance took 0.56-0.83 x
 * the AVX2 instance's time.
 *
 * Transposes: per row chunk of 8 (then 4, then 1..3) positions. In, for 8
 * positions: per p < 4, the 256-bit rows of planes p and p + 4 joined into
 * one vector (vinsertf32x8 from memory), likewise p + 8 and p + 12, and one
 * vshuff32x4 each for positions 0-3 and 4-7 gives a[p] = [p | p+4 | p+8 |
 * p+12] per 128-bit lane; then the 4x4 shufps transpose of the AVX2 file in
 * all four lanes. Out, the inverse: the 4x4 transposes, then per p one
 * vpermt2ps each joining positions 0-3 and 4-7 of planes p, p + 4 and of
 * p + 8, p + 12, stored as 256-bit rows (4 positions: 128-bit stores of the
 * lanes, masked 1..3). Chosen by count, not measured against a 16x16
 * transpose of 16 positions (the same 8 shufps per 4x4 block plus two
 * vshuff32x4 rounds): fewer lane-crossing shuffles per element, all on the
 * one port 512-bit shuffles have here, and the AVX2 instance's chunking
 * (20 = 8 + 8 + 4). The transposes took 11 of the 95 us of a 16-lane
 * SPPF 20x20 call; the output stores most of the rest.
 */
#include "kernels.h"

#include "force_inline.h"

#ifdef MAXPOOL_SIMDE
#define SIMDE_ENABLE_NATIVE_ALIASES
#include <simde/x86/avx512.h>
#define CB_AI static inline /* (the emulation build: see simd_f32_avx512.h) */
/* the same lane moves from forms the packaged SIMDe (0.7.4) has */
#define CB_SHUF128(a, b, imm) \
    _mm512_castsi512_ps(_mm512_shuffle_i32x4(_mm512_castps_si512(a), _mm512_castps_si512(b), (imm)))
#define CB_HI256(v) _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(v), 1))
#else
#include <immintrin.h>
#define CB_AI MAXPOOL_AI
#define CB_SHUF128(a, b, imm) _mm512_shuffle_f32x4((a), (b), (imm)) /* 128-bit lanes: two of a, two of b */
#define CB_HI256(v) _mm512_extractf32x8_ps((v), 1)
#endif

#define CB_VW 16
#define CB_V __m512
#define CB_MAXPS(a, b) _mm512_max_ps((a), (b))
#define CB_SET1(f) _mm512_set1_ps(f)
#define CB_UN __mmask16
#define CB_UN_ZERO ((__mmask16)0)
#define CB_UN_ANY(un) ((un) != 0)
#define CB_RUN maxpool_f32_nchw_s1_cblock_avx512
#define CB_SPP 0
#define CB_GENERIC 1

#include "f32_nchw_s1_cblock_util.h"

/* 4x4 transposes, one per 128-bit lane: a[i] lane 4L + j <-> a[j] lane 4L + i */
CB_AI void cb_t4(__m512 a[4])
{
    const __m512 t0 = _mm512_shuffle_ps(a[0], a[1], _MM_SHUFFLE(1, 0, 1, 0));
    const __m512 t1 = _mm512_shuffle_ps(a[0], a[1], _MM_SHUFFLE(3, 2, 3, 2));
    const __m512 t2 = _mm512_shuffle_ps(a[2], a[3], _MM_SHUFFLE(1, 0, 1, 0));
    const __m512 t3 = _mm512_shuffle_ps(a[2], a[3], _MM_SHUFFLE(3, 2, 3, 2));
    a[0] = _mm512_shuffle_ps(t0, t2, _MM_SHUFFLE(2, 0, 2, 0));
    a[1] = _mm512_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 1, 3, 1));
    a[2] = _mm512_shuffle_ps(t1, t3, _MM_SHUFFLE(2, 0, 2, 0));
    a[3] = _mm512_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 1, 3, 1));
}

/* four positions (n of them: 4, or 1..3 masked, the rest 0.0f) of planes
 * p, p + 4, p + 8, p + 12 in one vector's 128-bit lanes */
CB_AI void cb_ld4(const float *x0, const int64_t ps, const int np, const int64_t off, const int n, __m512 a[4])
{
    const __m128i m = cb_tailmask4(n);
    for (int p = 0; p < 4; ++p) {
        __m128 q[4];
        for (int l = 0; l < 4; ++l)
            q[l] = n >= 4 ? _mm_loadu_ps(cb_plane(x0, ps, np, p + 4 * l) + off)
                          : _mm_maskload_ps(cb_plane(x0, ps, np, p + 4 * l) + off, m);
        __m512 v = _mm512_castps128_ps512(q[0]);
        v = _mm512_insertf32x4(v, q[1], 1);
        v = _mm512_insertf32x4(v, q[2], 2);
        a[p] = _mm512_insertf32x4(v, q[3], 3);
    }
}

CB_AI void cb_in_chunk(const float *x0, const int64_t ps, const int np, const int64_t off, const int n, __m512 *v,
                       const __m512 vs, __mmask16 *un, const int fe)
{
    __m512 a[4];
    if (n == 8) {
        __m512 b[4];
        for (int p = 0; p < 4; ++p) {
            const __m512 z = _mm512_insertf32x8(_mm512_castps256_ps512(_mm256_loadu_ps(cb_plane(x0, ps, np, p) + off)),
                                                _mm256_loadu_ps(cb_plane(x0, ps, np, p + 4) + off), 1);
            const __m512 w =
                _mm512_insertf32x8(_mm512_castps256_ps512(_mm256_loadu_ps(cb_plane(x0, ps, np, p + 8) + off)),
                                   _mm256_loadu_ps(cb_plane(x0, ps, np, p + 12) + off), 1);
            if (fe)
                *un |= _mm512_cmp_ps_mask(z, w, _CMP_UNORD_Q);
            a[p] = CB_SHUF128(z, w, _MM_SHUFFLE(2, 0, 2, 0));
            b[p] = CB_SHUF128(z, w, _MM_SHUFFLE(3, 1, 3, 1));
        }
        cb_t4(b);
        for (int i = 0; i < 4; ++i)
            v[4 + i] = _mm512_max_ps(b[i], vs);
    } else {
        cb_ld4(x0, ps, np, off, n, a);
        if (fe)
            *un |= _mm512_cmp_ps_mask(a[0], a[1], _CMP_UNORD_Q) | _mm512_cmp_ps_mask(a[2], a[3], _CMP_UNORD_Q);
    }
    cb_t4(a);
    for (int i = 0; i < 4 && i < n; ++i)
        v[i] = _mm512_max_ps(a[i], vs);
}

CB_AI void cb_out_chunk(const __m512 *v, const int64_t vst, float *y0, const int64_t ps, const int np,
                        const int64_t off, const int n)
{
    __m512 a[4];
    for (int i = 0; i < 4; ++i)
        a[i] = i < n ? v[i * vst] : _mm512_setzero_ps();
    cb_t4(a); /* a[p] lane L = plane p + 4 L, positions c..c+3 */
    if (n == 8) {
        __m512 b[4];
        for (int i = 0; i < 4; ++i)
            b[i] = v[(4 + i) * vst];
        cb_t4(b);
        const __m512i jl = _mm512_setr_epi32(0, 1, 2, 3, 16, 17, 18, 19, 4, 5, 6, 7, 20, 21, 22, 23);
        const __m512i jh = _mm512_setr_epi32(8, 9, 10, 11, 24, 25, 26, 27, 12, 13, 14, 15, 28, 29, 30, 31);
        for (int p = 0; p < 4; ++p) {
            const __m512 lo = _mm512_permutex2var_ps(a[p], jl, b[p]); /* [plane p | plane p + 4] */
            const __m512 hi = _mm512_permutex2var_ps(a[p], jh, b[p]); /* [plane p + 8 | plane p + 12] */
            if (p < np)
                _mm256_storeu_ps(y0 + p * ps + off, _mm512_castps512_ps256(lo));
            if (p + 4 < np)
                _mm256_storeu_ps(y0 + (p + 4) * ps + off, CB_HI256(lo));
            if (p + 8 < np)
                _mm256_storeu_ps(y0 + (p + 8) * ps + off, _mm512_castps512_ps256(hi));
            if (p + 12 < np)
                _mm256_storeu_ps(y0 + (p + 12) * ps + off, CB_HI256(hi));
        }
    } else {
        const __m128i m = cb_tailmask4(n);
        for (int p = 0; p < 4; ++p) {
            const __m128 q[4] = {_mm512_castps512_ps128(a[p]), _mm512_extractf32x4_ps(a[p], 1),
                                 _mm512_extractf32x4_ps(a[p], 2), _mm512_extractf32x4_ps(a[p], 3)};
            for (int l = 0; l < 4; ++l)
                if (p + 4 * l < np) {
                    if (n >= 4)
                        _mm_storeu_ps(y0 + (p + 4 * l) * ps + off, q[l]);
                    else
                        _mm_maskstore_ps(y0 + (p + 4 * l) * ps + off, m, q[l]);
                }
        }
    }
}

#include "f32_nchw_s1_cblock_impl.h"

/* The f32_nchw_s1_cblock_avx2 plans (its bounds: CB_MAX, CB_XMAX, CB_NARROW_W) but
 * YOLO's SPP shapes (20x20, "same" k5/k9/k13), where the AVX2 instance's
 * compile-time sizes measured faster (docs/performance.md: a group's 25.6 KB
 * of row results next to its 16 planes in and out overflow L1) */
int maxpool_f32_nchw_s1_cblock_avx512_match(const struct maxpool_plan *p)
{
    if (!maxpool_f32_nchw_s1_cblock_match(p))
        return 0;
    const maxpool_axis *h = &p->axis[0], *w = &p->axis[1];
    const int spp = h->in == 20 && w->in == 20 && h->out == 20 && w->out == 20 && h->kernel == w->kernel &&
                    h->pad_begin == w->pad_begin && h->pad_begin == h->kernel / 2 &&
                    (h->kernel == 5 || h->kernel == 9 || h->kernel == 13);
    return !spp;
}

int64_t maxpool_f32_nchw_s1_cblock_avx512_tasks(const struct maxpool_plan *p) { return (p->n * p->c + 15) / 16; }
