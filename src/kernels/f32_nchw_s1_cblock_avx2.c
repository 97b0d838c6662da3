/* SPDX-License-Identifier: Apache-2.0 */
/*
 * NCHW (spatial rank 2) f32 max pooling of small planes with large stride-1
 * windows (YOLO's SPP: 20x20, k5/k9/k13), values only, NaN ignored, either
 * start (the first element's: cb_fe_nan), AVX2: eight planes at a time, transposed so that
 * one vector holds one position of 8 planes, then van Herk / Gil-Werman
 * running maxima along W and along H, then transposed back.
 *
 * Why: a 20-wide row fills 8-lane vectors badly and a 13-tap window costs
 * 13 taps per output in the plane layout; with the planes across the lanes
 * every vector is full and the running maxima cost 3 combines per element
 * and axis, whatever the kernel size.
 *
 * One pass along an axis (input length n, pad_begin pb, kernel k, nout
 * outputs; position u of the padded axis is input u - pb, or the start
 * value s outside [0, n)): the padded axis is cut into blocks of k
 * positions from u = 0; g[u] = the running max from the start of u's block
 * to u, h[u] = from u to the end of u's block. The window of output o is
 * [o, o + k - 1] of the padded axis: one whole block when o % k == 0
 * (g[o + k - 1]), else the tail of o's block and the head of the next
 * (comb(h[o], g[o + k - 1])). The padding is never visited: g and h run
 * over each block's real elements only (cb_line), and a part with none is
 * s. Per line: one max per element for h, one for g, one per output; for
 * the SPP shapes (20x20, k5/k9/k13 "same") the sizes are compile-time
 * constants and the line passes unroll into register chains (memory
 * operands for the elements).
 *
 * Why this is bit-exact with the reference's row-major scan from s (x
 * replaces best when x > best; NaN never does):
 *  - The input is "leafed" first: each element becomes comb(s, x) =
 *    max_ps(x, s), which is x where x > s and s otherwise (NaN, smaller,
 *    or equal: an equal x does not replace s in the scan either, so s's
 *    bits stay, -0.0/+0.0 included). From there on every value is ordered.
 *  - comb(A, B) = max_ps(B, A) = "B replaces A where greater": for two
 *    ranges A, B of one ordered sequence, A before B, it gives the scan of
 *    A u B (ties keep A's element: the first occurrence). g is built left to
 *    right (g[u] = comb(g[u-1], x[u])), h right to left
 *    (h[u] = comb(x[u], h[u+1])), and the output combines h (earlier part)
 *    with g (later part): all are scans of their ranges.
 *  - W first, then H over the row results: the scan is row-major (rows in
 *    order, each left to right), so the first row holding the maximum M and
 *    in it the first M: the same element and bits.
 *  - Padding positions hold s and never replace anything: skipping them
 *    gives the same scan, and where a part has no real element its s
 *    replaces nothing in the combine (comb(s, g) = g and comb(h, s) = h:
 *    every value is above s, or s with s's bits).
 * Windows are never empty here (the match function declines such plans).
 *
 * Memory: the row results tr (CB_MAX vectors) and ob (CB_MAX vectors: one
 * transposed input row, then the H results of a chunk of up to 8 columns),
 * and one line's h and g (CB_XMAX vectors each) live on the task's stack
 * (32 KiB); nothing is allocated or shared.
 * Transposes: per row chunk of 8 (then 4, then 1..3) positions, the 128-bit
 * halves of two planes loaded into one vector and a 4x4 shufps transpose
 * per half (vperm2f128 and unpcklps have one port on this Xeon, shufps
 * two); out, the inverse with vperm2f128 joining the halves (8 positions)
 * or 128-bit stores (4, masked 1..3). The input transpose feeds the W pass
 * row by row and the output transpose takes each chunk's H results, so no
 * transposed copy of the planes is kept.
 * Tasks: one per group of 8 planes (the last group may hold fewer).
 */
#include "kernels.h"

#include "f32_cf_geom.h"

#include <immintrin.h>
#include <math.h>
#include <stdalign.h>
#include <stdint.h>

#define CB_MAX 448  /* most elements of a plane, of the row results and of the output */
#define CB_XMAX 64  /* longest padded axis (nout + k - 1): bounds n too */
#define CB_NARROW_W 32 /* widest input row taken */
#define CB_MIN_K 5      /* smallest max(kernel_h, kernel_w) taken for rows the strips fill */
#include "force_inline.h"
#define CB_AI MAXPOOL_AI

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

CB_AI __m128i cb_tailmask4(int n)
{
    return _mm_cmpgt_epi32(_mm_set1_epi32(n), _mm_setr_epi32(0, 1, 2, 3));
}

/* plane p of the group (planes past np: plane np - 1 again, whose lanes
 * are never stored) */
CB_AI const float *cb_plane(const float *x0, const int64_t ps, const int np, const int p)
{
    return x0 + (p < np ? p : np - 1) * ps;
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

/* the chunk width at column c of a row of w: 8, then 4, then the rest */
CB_AI int cb_chunk(const int64_t c, const int64_t w) { return w - c >= 8 ? 8 : w - c >= 4 ? 4 : (int)(w - c); }

/*
 * One running-max pass over one line: element r in [0, n) of the line is
 * x[r * es] (every value is s or above: leafed); output o in [0, nout) goes
 * to dst[o * ds]. The padded positions are not visited: they hold s, which
 * never replaces anything, so the scan of a block's part is the scan of its
 * real elements (or s where it has none: that s then replaces nothing in
 * the combine either). Block B covers padded [b0, b0 + k), real [lo, hi);
 * hs[r] = the scan of real [r, hi) (built right to left), gs[r] = the scan
 * of block B + 1's real [lo1, r] (left to right).
 */
CB_AI void cb_line(const __m256 *x, const int64_t es, __m256 *dst, const int64_t ds, const int64_t n,
                   const int64_t k, const int64_t pb, const int64_t nout, const __m256 vs)
{
    __m256 hs[CB_XMAX], gs[CB_XMAX];
#pragma GCC unroll 8
    for (int64_t b0 = 0; b0 < nout; b0 += k) {
        const int64_t lo = b0 - pb > 0 ? b0 - pb : 0, hi = b0 + k - pb < n ? b0 + k - pb : n;
        const int64_t oe = b0 + k < nout ? b0 + k : nout; /* this block's outputs: [b0, oe) */
        const int64_t lo1 = b0 + k - pb > 0 ? b0 + k - pb : 0;
        int64_t hi1 = b0 + 2 * k - pb < n ? b0 + 2 * k - pb : n;
        if (hi1 > oe - 1 + k - pb) /* the prefixes the outputs reach */
            hi1 = oe - 1 + k - pb;
        if (hi > lo) {
            hs[hi - 1] = x[(hi - 1) * es];
#pragma GCC unroll 64
            for (int64_t r = hi - 2; r >= lo; --r)
                hs[r] = _mm256_max_ps(hs[r + 1], x[r * es]); /* comb(x[r], hs[r + 1]) */
        }
        if (hi1 > lo1) {
            gs[lo1] = x[lo1 * es];
#pragma GCC unroll 64
            for (int64_t r = lo1 + 1; r < hi1; ++r)
                gs[r] = _mm256_max_ps(x[r * es], gs[r - 1]); /* comb(gs[r - 1], x[r]) */
        }
        dst[b0 * ds] = hi > lo ? hs[lo] : vs; /* the window is the whole block */
#pragma GCC unroll 64
        for (int64_t o = b0 + 1; o < oe; ++o) {
            const int64_t a = o - pb, e = o + k - pb; /* the window's real part: [a, e) */
            __m256 v = vs; /* comb(h, g); a part with no real element is s */
            if (a < hi)
                v = hs[a > lo ? a : lo];
            if (e > lo1 && hi1 > lo1) {
                const __m256 gv = gs[(e < hi1 ? e : hi1) - 1];
                v = a < hi ? _mm256_max_ps(gv, v) : gv;
            }
            dst[o * ds] = v;
        }
    }
}

/*
 * The first-element start (MAXPOOL_INIT_FIRST_ELEMENT, NaN ignored): the
 * scan from the window's first element e00 gives the scan from -inf (s =
 * -inf above) unless e00 is NaN: then nothing replaces it (no x > NaN) and
 * the result is e00, its bits. From -inf, an element replaces the start
 * exactly when it would replace e00 = -inf or any e00 it is greater than;
 * equal values keep the earlier element either way (-0 before +0 included),
 * and a window of -inf and NaN only gives -inf both ways (one bit pattern).
 * So the groups without NaN (cb_in's flag) need nothing more, and in the
 * others every output whose e00 (stride 1: row max(oh - ph, 0), column
 * max(ow - pw, 0), inside the input: no empty window) is NaN takes e00.
 */
static void cb_fe_nan(const float *x0, float *y0, int np, int64_t H, int64_t W, int64_t Ho, int64_t Wo, int64_t ph,
                      int64_t pw)
{
    for (int p = 0; p < np; ++p)
        for (int64_t oh = 0; oh < Ho; ++oh) {
            const float *xr = x0 + (int64_t)p * H * W + (oh > ph ? oh - ph : 0) * W;
            float *yr = y0 + (int64_t)p * Ho * Wo + oh * Wo;
            for (int64_t ow = 0; ow < Wo; ++ow) {
                const float e = xr[ow > pw ? ow - pw : 0];
                if (e != e)
                    yr[ow] = e;
            }
        }
}

/*
 * One group of np planes: row by row, the row transposed (leafed) into ob
 * and its W pass into tr; then per chunk of up to 8 columns, the H pass of
 * each column into ob (column after column) and the chunk's output rows
 * transposed back from there. The sizes are compile-time constants for the
 * SPP shapes, so the line passes unroll.
 */
CB_AI void cb_group(const float *x0, float *y0, const int np, const int64_t H, const int64_t W, const int64_t Ho,
                    const int64_t Wo, const int64_t kh, const int64_t kw, const int64_t ph, const int64_t pw,
                    __m256 *tr, __m256 *ob, const __m256 vs, const int fe)
{
    __m256 un = _mm256_setzero_ps(); /* NaN lanes seen (fe) */
    for (int64_t h = 0; h < H; ++h) {
        int64_t c = 0;
#pragma GCC unroll 1
        for (; c + 8 <= W; c += 8)
            cb_in_chunk(x0, H * W, np, h * W + c, 8, ob + c, vs, &un, fe);
        if (W - c >= 4) {
            cb_in_chunk(x0, H * W, np, h * W + c, 4, ob + c, vs, &un, fe);
            c += 4;
        }
        if (c < W)
            cb_in_chunk(x0, H * W, np, h * W + c, (int)(W - c), ob + c, vs, &un, fe);
        cb_line(ob, 1, tr + h * Wo, 1, W, kw, pw, Wo, vs);
    }
#pragma GCC unroll 1
    for (int64_t j0 = 0; j0 < Wo;) {
        const int n = cb_chunk(j0, Wo);
#pragma GCC unroll 1
        for (int jj = 0; jj < n; ++jj)
            cb_line(tr + j0 + jj, Wo, ob + jj * Ho, 1, H, kh, ph, Ho, vs);
        if (n == 8)
            for (int64_t o = 0; o < Ho; ++o)
                cb_out_chunk(ob + o, Ho, y0, Ho * Wo, np, o * Wo + j0, 8);
        else if (n == 4)
            for (int64_t o = 0; o < Ho; ++o)
                cb_out_chunk(ob + o, Ho, y0, Ho * Wo, np, o * Wo + j0, 4);
        else
            for (int64_t o = 0; o < Ho; ++o)
                cb_out_chunk(ob + o, Ho, y0, Ho * Wo, np, o * Wo + j0, n);
        j0 += n;
    }
    if (fe && _mm256_movemask_ps(un))
        cb_fe_nan(x0, y0, np, H, W, Ho, Wo, ph, pw);
}

void maxpool_f32_nchw_s1_cblock_avx2(const struct maxpool_plan *p, const void *x, void *y, void *ind, int64_t t0,
                                     int64_t t1)
{
    (void)ind;
    const int64_t H = p->axis[0].in, W = p->axis[1].in, Ho = p->axis[0].out, Wo = p->axis[1].out;
    const int64_t kh = p->axis[0].kernel, kw = p->axis[1].kernel;
    const int64_t ph = p->axis[0].pad_begin, pw = p->axis[1].pad_begin;
    const int64_t planes = p->n * p->c;
    const int fe = p->desc.window_init == MAXPOOL_INIT_FIRST_ELEMENT; /* (cb_fe_nan) */
    const __m256 vs = _mm256_set1_ps(fe ? -INFINITY : p->init.f32);
    alignas(32) __m256 tr[CB_MAX]; /* row results: H x Wo */
    alignas(32) __m256 ob[CB_MAX]; /* one transposed input row, then a chunk's columns' H results: n x Ho */
    /* YOLO's SPP shapes (20x20, "same" k5/k9/k13) with compile-time sizes */
    const int spp = H == 20 && W == 20 && Ho == 20 && Wo == 20 && kh == kw && ph == pw && ph == kh / 2;
    for (int64_t t = t0; t < t1; ++t) {
        const int64_t p0 = t * 8;
        const int np = planes - p0 < 8 ? (int)(planes - p0) : 8;
        const float *x0 = (const float *)x + p0 * H * W;
        float *y0 = (float *)y + p0 * Ho * Wo;
        if (spp && np == 8 && kh == 13)
            cb_group(x0, y0, 8, 20, 20, 20, 20, 13, 13, 6, 6, tr, ob, vs, fe);
        else if (spp && np == 8 && kh == 9)
            cb_group(x0, y0, 8, 20, 20, 20, 20, 9, 9, 4, 4, tr, ob, vs, fe);
        else if (spp && np == 8 && kh == 5)
            cb_group(x0, y0, 8, 20, 20, 20, 20, 5, 5, 2, 2, tr, ob, vs, fe);
        else
            cb_group(x0, y0, np, H, W, Ho, Wo, kh, kw, ph, pw, tr, ob, vs, fe);
    }
}

/* Bounds, stack scratch per task:
 *  - tr[CB_MAX]: the row results (in_h*out_w <= 448, checked here);
 *    ob[CB_MAX]: one transposed input row (in_w <= 32), then a chunk of n
 *    <= min(8, out_w) columns' H results (n*out_h <= out_h*out_w <= 448).
 *  - cb_line's hs/gs[CB_XMAX]: positions of one line, < n = in <= out + k - 1
 *    <= 64 on each axis (stride 1: in = out + k - 1 - pad_begin - pad_end,
 *    the effective pads >= 0).
 * Loads and stores of the planes: 128-bit (or 256-bit) pieces within one
 * row of a plane, masked tails; the lanes of planes past np load plane
 * np - 1 and are never stored. No positions: values only, NaN
 * ignored, either start (the first element's: cb_fe_nan). */
int maxpool_f32_nchw_s1_cblock_match(const struct maxpool_plan *p)
{
    if (!cf_match(p) || p->rank != 2 || p->desc.window != MAXPOOL_WINDOW_FIXED ||
        p->desc.index_type != MAXPOOL_INDEX_NONE || p->nan_propagate)
        return 0;
    const maxpool_axis *h = &p->axis[0], *w = &p->axis[1];
    for (int a = 0; a < 2; ++a) {
        const maxpool_axis *ax = &p->axis[a];
        if (ax->stride != 1 || ax->dilation != 1 || ax->out + ax->kernel - 1 > CB_XMAX)
            return 0;
        if (!cf_axis_nonempty(ax))
            return 0;
    }
    if (h->in * w->in > CB_MAX || h->in * w->out > CB_MAX || h->out * w->out > CB_MAX)
        return 0;
    /* where it beats the column-strip kernel (measured, 1 thread, 64..512
     * planes of 8x32 .. 32x14): rows of at most 32 that its 16-column strips
     * fill badly (20: 2x faster at k2, k3, k13), or windows of 5 and more */
    return w->in <= CB_NARROW_W && (w->in % 16 != 0 || h->kernel >= CB_MIN_K || w->kernel >= CB_MIN_K);
}

int64_t maxpool_f32_nchw_s1_cblock_tasks(const struct maxpool_plan *p) { return (p->n * p->c + 7) / 8; }
