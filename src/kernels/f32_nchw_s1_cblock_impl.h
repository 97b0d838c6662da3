/* SPDX-License-Identifier: Apache-2.0 */
/*
 * NCHW (spatial rank 2) f32 max pooling of small planes with large stride-1
 * windows (YOLO's SPP: 20x20, k5/k9/k13), values only, NaN ignored, either
 * start (the first element's: cb_fe_nan): CB_VW planes at a time, transposed
 * so that one vector holds one position of CB_VW planes, then van Herk /
 * Gil-Werman running maxima along W and along H, then transposed back.
 * A template over the lane count, included by f32_nchw_s1_cblock_avx2.c (8
 * planes per group) and f32_nchw_s1_cblock_avx512.c (16): the line passes,
 * the group's row and column loops, the first-element fix-up and the run
 * function are the same for both; each includer supplies its transposes.
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
 * (36 KiB at 8 lanes, 72 KiB at 16); nothing is allocated or shared.
 * Tasks: one per group of CB_VW planes (the last group may hold fewer).
 *
 * The includer defines, before including this file:
 *   CB_AI                the helpers' storage class (MAXPOOL_AI)
 *   CB_VW                lanes: the planes of a group
 *   CB_V                 the vector type
 *   CB_MAXPS(a, b)       a > b ? a : b per lane (the second for NaN and ties)
 *   CB_SET1(f)           f in every lane
 *   CB_UN, CB_UN_ZERO, CB_UN_ANY(un)  the type of the NaN-lanes flag, its
 *                        empty value, and "some lane seen NaN"
 *   CB_RUN               the run function's name
 *   CB_SPP, CB_GENERIC   1: compile the SPP shapes' compile-time sizes (full
 *                        groups of 20x20, k5/k9/k13 "same"), the run-time
 *                        sizes (every other plan and partial group); 0: not
 *                        (the instance's match must then decline those plans)
 * and the transposes:
 *   cb_in_chunk(x0, ps, np, off, n, v, vs, &un, fe): positions [off, off + n)
 *     (n = 8, 4 or 1..3) of the group's np planes (plane stride ps),
 *     transposed and leafed: v[i] lane l = max_ps(plane l's element off + i,
 *     vs); un gets the NaN lanes when fe (masked-off positions: 0.0f)
 *   cb_out_chunk(v, vst, y0, ps, np, off, n): the inverse, v[i * vst] lane l
 *     = plane l's output element off + i, stored for the np planes
 */
#ifndef CB_RUN
#error "define CB_RUN and the vocabulary before including f32_nchw_s1_cblock_impl.h"
#endif

#include "f32_cf_geom.h"

#include <math.h>
#include <stdalign.h>
#include <stdint.h>

#define CB_MAX 448  /* most elements of a plane, of the row results and of the output */
#define CB_XMAX 64  /* longest padded axis (nout + k - 1): bounds n too */
#define CB_NARROW_W 32 /* widest input row taken */
#define CB_MIN_K 5      /* smallest max(kernel_h, kernel_w) taken for rows the strips fill */

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
CB_AI void cb_line(const CB_V *x, const int64_t es, CB_V *dst, const int64_t ds, const int64_t n,
                   const int64_t k, const int64_t pb, const int64_t nout, const CB_V vs)
{
    CB_V hs[CB_XMAX], gs[CB_XMAX];
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
                hs[r] = CB_MAXPS(hs[r + 1], x[r * es]); /* comb(x[r], hs[r + 1]) */
        }
        if (hi1 > lo1) {
            gs[lo1] = x[lo1 * es];
#pragma GCC unroll 64
            for (int64_t r = lo1 + 1; r < hi1; ++r)
                gs[r] = CB_MAXPS(x[r * es], gs[r - 1]); /* comb(gs[r - 1], x[r]) */
        }
        dst[b0 * ds] = hi > lo ? hs[lo] : vs; /* the window is the whole block */
#pragma GCC unroll 64
        for (int64_t o = b0 + 1; o < oe; ++o) {
            const int64_t a = o - pb, e = o + k - pb; /* the window's real part: [a, e) */
            CB_V v = vs; /* comb(h, g); a part with no real element is s */
            if (a < hi)
                v = hs[a > lo ? a : lo];
            if (e > lo1 && hi1 > lo1) {
                const CB_V gv = gs[(e < hi1 ? e : hi1) - 1];
                v = a < hi ? CB_MAXPS(gv, v) : gv;
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
                    CB_V *tr, CB_V *ob, const CB_V vs, const int fe)
{
    CB_UN un = CB_UN_ZERO; /* NaN lanes seen (fe) */
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
    if (fe && CB_UN_ANY(un))
        cb_fe_nan(x0, y0, np, H, W, Ho, Wo, ph, pw);
}

void CB_RUN(const struct maxpool_plan *p, const void *x, void *y, void *ind, int64_t t0, int64_t t1)
{
    (void)ind;
    const int64_t H = p->axis[0].in, W = p->axis[1].in, Ho = p->axis[0].out, Wo = p->axis[1].out;
    const int64_t kh = p->axis[0].kernel, kw = p->axis[1].kernel;
    const int64_t ph = p->axis[0].pad_begin, pw = p->axis[1].pad_begin;
    const int64_t planes = p->n * p->c;
    const int fe = p->desc.window_init == MAXPOOL_INIT_FIRST_ELEMENT; /* (cb_fe_nan) */
    const CB_V vs = CB_SET1(fe ? -INFINITY : p->init.f32);
    alignas(CB_VW * 4) CB_V tr[CB_MAX]; /* row results: H x Wo */
    alignas(CB_VW * 4) CB_V ob[CB_MAX]; /* one transposed input row, then a chunk's columns' H results: n x Ho */
#if CB_SPP
    /* YOLO's SPP shapes (20x20, "same" k5/k9/k13) with compile-time sizes */
    const int spp = H == 20 && W == 20 && Ho == 20 && Wo == 20 && kh == kw && ph == pw && ph == kh / 2;
#endif
    for (int64_t t = t0; t < t1; ++t) {
        const int64_t p0 = t * CB_VW;
        const int np = planes - p0 < CB_VW ? (int)(planes - p0) : CB_VW;
        const float *x0 = (const float *)x + p0 * H * W;
        float *y0 = (float *)y + p0 * Ho * Wo;
#if CB_SPP
        if (spp && np == CB_VW && kh == 13)
            cb_group(x0, y0, CB_VW, 20, 20, 20, 20, 13, 13, 6, 6, tr, ob, vs, fe);
        else if (spp && np == CB_VW && kh == 9)
            cb_group(x0, y0, CB_VW, 20, 20, 20, 20, 9, 9, 4, 4, tr, ob, vs, fe);
        else if (spp && np == CB_VW && kh == 5)
            cb_group(x0, y0, CB_VW, 20, 20, 20, 20, 5, 5, 2, 2, tr, ob, vs, fe);
        else
#endif
        { /* (CB_GENERIC 0: never reached, the instance's match takes only whole SPP groups) */
#if CB_GENERIC
            cb_group(x0, y0, np, H, W, Ho, Wo, kh, kw, ph, pw, tr, ob, vs, fe);
#endif
        }
    }
}

