/* SPDX-License-Identifier: Apache-2.0 */
/*
 * NCHW f32 max pooling, kernel 2x2, stride 2, no padding, every window full
 * (2*out <= in on both axes), AVX2. Direct (not separable): one output row
 * reads two input rows; the four taps of a window, in row-major order, are
 * the even and odd lanes of the top row, then of the bottom row. 8 outputs
 * per 256-bit group, 4 per 128-bit group (narrow rows), then scalar; rows
 * of exactly 8 (8x8 planes and the like) go two output rows per 256-bit
 * group (4 input rows, the same in-lane de-interleave); values only, with
 * every input row used (H = 2 * OH, OH even), the planes of a task range are
 * one run of those groups, unrolled by 2 (the tiny 1x16x8x8 call: 58 -> 31
 * ns, more than its 10 % fewer instructions explain: the one-group loop was
 * front-end bound on the Xeon). No per-row set-up: this is the low
 * per-call-cost path.
 * Update rule as everywhere: x > best, or x is NaN with propagation.
 * First-element start (MAXPOOL_INIT_FIRST_ELEMENT): best starts as the top
 * left tap with its position and the other three taps follow (the windows
 * are never empty, so the empty value and the empty-window index never show).
 */
#include "kernels.h"

#include <immintrin.h>
#include <stdalign.h>

#include "force_inline.h"
#define AI MAXPOOL_AI

AI void upd8(__m256 *best, __m256i *bi, __m256 x, __m256i xi, const int prop, const int wi)
{
    if (!wi) {
        __m256 r = _mm256_max_ps(x, *best); /* x > best ? x : best */
        if (prop)
            r = _mm256_blendv_ps(r, x, _mm256_cmp_ps(x, x, _CMP_UNORD_Q));
        *best = r;
    } else {
        __m256 m = _mm256_cmp_ps(x, *best, _CMP_GT_OQ);
        if (prop)
            m = _mm256_or_ps(m, _mm256_cmp_ps(x, x, _CMP_UNORD_Q));
        *best = _mm256_blendv_ps(*best, x, m);
        *bi = _mm256_castps_si256(_mm256_blendv_ps(_mm256_castsi256_ps(*bi), _mm256_castsi256_ps(xi), m));
    }
}

AI void upd4(__m128 *best, __m128i *bi, __m128 x, __m128i xi, const int prop, const int wi)
{
    if (!wi) {
        __m128 r = _mm_max_ps(x, *best);
        if (prop)
            r = _mm_blendv_ps(r, x, _mm_cmpunord_ps(x, x));
        *best = r;
    } else {
        __m128 m = _mm_cmpgt_ps(x, *best);
        if (prop)
            m = _mm_or_ps(m, _mm_cmpunord_ps(x, x));
        *best = _mm_blendv_ps(*best, x, m);
        *bi = _mm_castps_si128(_mm_blendv_ps(_mm_castsi128_ps(*bi), _mm_castsi128_ps(xi), m));
    }
}

/* final index of n lanes: base + s, or -1 / the first tap (ft) / the plane
 * start (first_tap == 2) where s < 0 (a window whose taps never beat the start value) */
AI void store_idx(void *ind, int64_t off, const int32_t *s, const int32_t *ft, int n, int64_t base, int first_tap,
                  const int ik)
{
    for (int q = 0; q < n; ++q) {
        const int64_t v = s[q] >= 0 ? base + s[q] : first_tap == 2 ? base : first_tap ? base + ft[q] : -1;
        if (ik == 1)
            ((int32_t *)ind)[off + q] = (int32_t)v;
        else
            ((int64_t *)ind)[off + q] = v;
    }
}

/* 8 windows from their taps in row-major order (top even, top odd, bottom
 * even, bottom odd; in-lane order, pv the top-left positions, W the row
 * stride): values to yo, and with indices the positions (ft: each window's
 * first tap, in output order) to the index output at ooff. */
AI void k2s2_out8(__m256 ea, __m256 oa, __m256 eb, __m256 ob, __m256i pv, __m256i ft, int32_t W, __m256 i8, float *yo,
                  void *ind, int64_t ooff, int64_t base, int first_tap, const int prop, const int ik, const int fe)
{
    const int wi = ik != 0;
    __m256 best = i8;
    __m256i bi = _mm256_set1_epi32(-1);
    if (fe) {
        best = ea;
        bi = pv;
    } else {
        upd8(&best, &bi, ea, pv, prop, wi);
    }
    upd8(&best, &bi, oa, _mm256_add_epi32(pv, _mm256_set1_epi32(1)), prop, wi);
    upd8(&best, &bi, eb, _mm256_add_epi32(pv, _mm256_set1_epi32(W)), prop, wi);
    upd8(&best, &bi, ob, _mm256_add_epi32(pv, _mm256_set1_epi32(W + 1)), prop, wi);
    best = _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(best), _MM_SHUFFLE(3, 1, 2, 0)));
    _mm256_storeu_ps(yo, best);
    if (wi) {
        alignas(32) int32_t s[8], f[8];
        bi = _mm256_castpd_si256(_mm256_permute4x64_pd(_mm256_castsi256_pd(bi), _MM_SHUFFLE(3, 1, 2, 0)));
        _mm256_store_si256((__m256i *)s, bi);
        _mm256_store_si256((__m256i *)f, ft);
        store_idx(ind, ooff, s, f, 8, base, first_tap, ik);
    }
}

/* Four input rows of 8 at a (two output rows): the taps of their 8 windows,
 * top even / top odd / bottom even / bottom odd; lanes: output (oh, 0 1),
 * (oh+1, 0 1), (oh, 2 3), (oh+1, 2 3) */
AI void k2s2_rows8(const float *a, __m256 *ea, __m256 *oa, __m256 *eb, __m256 *ob)
{
    const __m256 r0 = _mm256_loadu_ps(a), r1 = _mm256_loadu_ps(a + 8);
    const __m256 r2 = _mm256_loadu_ps(a + 16), r3 = _mm256_loadu_ps(a + 24);
    *ea = _mm256_shuffle_ps(r0, r2, _MM_SHUFFLE(2, 0, 2, 0));
    *oa = _mm256_shuffle_ps(r0, r2, _MM_SHUFFLE(3, 1, 3, 1));
    *eb = _mm256_shuffle_ps(r1, r3, _MM_SHUFFLE(2, 0, 2, 0));
    *ob = _mm256_shuffle_ps(r1, r3, _MM_SHUFFLE(3, 1, 3, 1));
}

AI void k2s2_impl(const struct maxpool_plan *p, const float *x, float *y, void *ind, int64_t t0, int64_t t1,
                  const int prop, const int ik, const int fe)
{
    const int wi = ik != 0;
    const int64_t W = p->axis[1].in, OH = p->axis[0].out, OW = p->axis[1].out;
    const int first_tap = p->desc.empty_index == MAXPOOL_EMPTY_INDEX_FIRST_TAP       ? 1
                          : p->desc.empty_index == MAXPOOL_EMPTY_INDEX_PLANE_START ? 2
                                                                                   : 0;
    const float init = p->init.f32;
    const __m256 i8 = _mm256_set1_ps(init);
    const __m128 i4 = _mm_set1_ps(init);
    const __m256i iota8 = _mm256_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14);
    const __m128i iota4 = _mm_setr_epi32(0, 2, 4, 6);
    if (!wi && W == 8 && OW == 4 && OH % 2 == 0 && p->axis[0].in == 2 * OH) {
        /* values only, rows of 8, every input row used: the planes t0 .. t1 are
         * one run of 4-row groups (32 floats in, 8 out), no per-plane work */
        const float *a = x + t0 * p->in_spatial;
        float *yo = y + t0 * p->out_spatial;
        const __m256i z = _mm256_setzero_si256();
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 2
#endif
        for (int64_t g = (t1 - t0) * (OH / 2); g > 0; --g, a += 32, yo += 8) {
            __m256 ea, oa, eb, ob;
            k2s2_rows8(a, &ea, &oa, &eb, &ob);
            k2s2_out8(ea, oa, eb, ob, z, z, 8, i8, yo, NULL, 0, 0, first_tap, prop, 0, fe);
        }
        return;
    }
    int64_t nn = t0 / p->c, cc = t0 % p->c;
    for (int64_t t = t0; t < t1; ++t) {
        const float *xp = x + t * p->in_spatial;
        float *yp = y + t * p->out_spatial;
        const int64_t base = nn * p->idx_n + cc * p->idx_c;
        if (++cc == p->c) {
            cc = 0;
            ++nn;
        }
        int64_t oh = 0;
        if (W == 8 && OW == 4) /* rows of 8 (e.g. 8x8 planes): two output rows per 256-bit group */
            for (; oh + 2 <= OH; oh += 2) {
                const float *a = xp + 2 * oh * 8;
                __m256 ea, oa, eb, ob;
                k2s2_rows8(a, &ea, &oa, &eb, &ob);
                const int32_t rs = (int32_t)(2 * oh * 8);
                const __m256i pv =
                    _mm256_add_epi32(_mm256_set1_epi32(rs), _mm256_setr_epi32(0, 2, 16, 18, 4, 6, 20, 22));
                const __m256i ft =
                    _mm256_add_epi32(_mm256_set1_epi32(rs), _mm256_setr_epi32(0, 2, 4, 6, 16, 18, 20, 22));
                k2s2_out8(ea, oa, eb, ob, pv, ft, 8, i8, yp + oh * 4, ind, t * p->out_spatial + oh * 4, base,
                          first_tap, prop, ik, fe);
            }
        for (; oh < OH; ++oh) {
            const float *a = xp + 2 * oh * W, *b = a + W;
            float *yo = yp + oh * OW;
            const int64_t ooff = t * p->out_spatial + oh * OW;
            const int32_t rs = (int32_t)(2 * oh * W);
            int64_t ow = 0;
            for (; ow + 8 <= OW; ow += 8) {
                const __m256 a0 = _mm256_loadu_ps(a + 2 * ow), a1 = _mm256_loadu_ps(a + 2 * ow + 8);
                const __m256 b0 = _mm256_loadu_ps(b + 2 * ow), b1 = _mm256_loadu_ps(b + 2 * ow + 8);
                /* in-lane de-interleave; lanes end up in the order 0 1 4 5 2 3 6 7 */
                const __m256 ea = _mm256_shuffle_ps(a0, a1, _MM_SHUFFLE(2, 0, 2, 0));
                const __m256 oa = _mm256_shuffle_ps(a0, a1, _MM_SHUFFLE(3, 1, 3, 1));
                const __m256 eb = _mm256_shuffle_ps(b0, b1, _MM_SHUFFLE(2, 0, 2, 0));
                const __m256 ob = _mm256_shuffle_ps(b0, b1, _MM_SHUFFLE(3, 1, 3, 1));
                const __m256i pv = _mm256_add_epi32(
                    _mm256_set1_epi32(rs + (int32_t)(2 * ow)),
                    _mm256_permutevar8x32_epi32(iota8, _mm256_setr_epi32(0, 1, 4, 5, 2, 3, 6, 7)));
                const __m256i ft = _mm256_add_epi32(_mm256_set1_epi32(rs + (int32_t)(2 * ow)), iota8);
                k2s2_out8(ea, oa, eb, ob, pv, ft, (int32_t)W, i8, yo + ow, ind, ooff + ow, base, first_tap, prop, ik,
                          fe);
            }
            for (; ow + 4 <= OW; ow += 4) {
                const __m128 a0 = _mm_loadu_ps(a + 2 * ow), a1 = _mm_loadu_ps(a + 2 * ow + 4);
                const __m128 b0 = _mm_loadu_ps(b + 2 * ow), b1 = _mm_loadu_ps(b + 2 * ow + 4);
                __m128 best = i4;
                __m128i bi = _mm_set1_epi32(-1);
                const __m128i pv = _mm_add_epi32(_mm_set1_epi32(rs + (int32_t)(2 * ow)), iota4);
                if (fe) {
                    best = _mm_shuffle_ps(a0, a1, _MM_SHUFFLE(2, 0, 2, 0));
                    bi = pv;
                } else {
                    upd4(&best, &bi, _mm_shuffle_ps(a0, a1, _MM_SHUFFLE(2, 0, 2, 0)), pv, prop, wi);
                }
                upd4(&best, &bi, _mm_shuffle_ps(a0, a1, _MM_SHUFFLE(3, 1, 3, 1)), _mm_add_epi32(pv, _mm_set1_epi32(1)),
                     prop, wi);
                upd4(&best, &bi, _mm_shuffle_ps(b0, b1, _MM_SHUFFLE(2, 0, 2, 0)),
                     _mm_add_epi32(pv, _mm_set1_epi32((int32_t)W)), prop, wi);
                upd4(&best, &bi, _mm_shuffle_ps(b0, b1, _MM_SHUFFLE(3, 1, 3, 1)),
                     _mm_add_epi32(pv, _mm_set1_epi32((int32_t)W + 1)), prop, wi);
                _mm_storeu_ps(yo + ow, best);
                if (wi) {
                    alignas(16) int32_t s[4], ft[4];
                    _mm_store_si128((__m128i *)s, bi);
                    _mm_store_si128((__m128i *)ft, pv);
                    store_idx(ind, ooff + ow, s, ft, 4, base, first_tap, ik);
                }
            }
            for (; ow < OW; ++ow) {
                const float tap[4] = {a[2 * ow], a[2 * ow + 1], b[2 * ow], b[2 * ow + 1]};
                const int32_t tp[4] = {rs + (int32_t)(2 * ow), rs + (int32_t)(2 * ow) + 1,
                                       rs + (int32_t)(2 * ow + W), rs + (int32_t)(2 * ow + W) + 1};
                float best = fe ? tap[0] : init;
                int32_t bs = fe ? tp[0] : -1;
                for (int j = fe; j < 4; ++j)
                    if (tap[j] > best || (prop && tap[j] != tap[j])) {
                        best = tap[j];
                        bs = tp[j];
                    }
                yo[ow] = best;
                if (wi)
                    store_idx(ind, ooff + ow, &bs, &tp[0], 1, base, first_tap, ik);
            }
        }
    }
}

/* Bounds: no scratch beyond one group's lanes (s/f[8], tap[4]). Every load
 * is a tap of a whole window inside the plane: kernel 2, stride 2, pad_begin
 * 0 and 2*out <= in on both axes (the 8-wide rows path: W == 8, OW == 4,
 * two output rows = input rows 2*oh .. 2*oh + 3 < 2*OH <= H). Positions are
 * int32, formed with or without index output (the scalar tail's tap
 * positions): in_spatial <= INT32_MAX (no empty window, so max_offset =
 * in_spatial - 1). */
int maxpool_f32_nchw_k2s2_match(const struct maxpool_plan *p)
{
    if (p->desc.dtype != MAXPOOL_F32 || p->desc.layout != MAXPOOL_CHANNELS_FIRST || p->rank != 2 ||
        p->desc.window != MAXPOOL_WINDOW_FIXED)
        return 0;
    if (p->in_spatial > INT32_MAX ||
        (p->desc.index_type != MAXPOOL_INDEX_NONE && p->desc.index_order != MAXPOOL_INDEX_ROW_MAJOR))
        return 0;
    for (int i = 0; i < 2; ++i) {
        const maxpool_axis *a = &p->axis[i];
        if (a->kernel != 2 || a->stride != 2 || a->dilation != 1 || a->pad_begin != 0 || 2 * a->out > a->in)
            return 0;
    }
    return 1;
}

int64_t maxpool_f32_nchw_k2s2_tasks(const struct maxpool_plan *p) { return p->n * p->c; }

/* the options as compile-time constants (f32_run_switch_impl.h) */
#define KFN(n) k2s2_##n
#define k2s2_run_impl k2s2_impl
#include "f32_run_switch_impl.h"

void maxpool_f32_nchw_k2s2_avx2(const struct maxpool_plan *p, const void *x, void *y, void *ind, int64_t t0,
                                int64_t t1)
{
    KFN(run)(p, x, y, ind, t0, t1);
}
