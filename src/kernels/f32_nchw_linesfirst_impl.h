/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Channels-first f32 max pooling, spatial rank 1..3, "lines first": for each
 * output row (o0, o1) the lines (input rows) of its window are first combined
 * element by element along W (vectors of consecutive columns, contiguous
 * loads), then each W window of that one combined row is reduced. Meant for
 * plans whose W pass in f32_nchw_rows_impl.h has no vector form (stride >= 3,
 * stride 2 with dilation, uneven adaptive windows): there the W pass costs one
 * scalar compare per tap of every line, here one vector compare per VW
 * elements, and the W reduce (one lane per output column, gathered taps)
 * touches only one row per output row.
 * Included by f32_nchw_linesfirst_<isa>.c after a simd_f32_<isa>.h vocabulary
 * and with KPREFIX set.
 *
 * Why it is bit-exact with the row-major scan of the reference (best starts
 * at the start value v0, x replaces best when x > best, or, with NaN
 * propagation, when x is NaN; positions are flat in-plane offsets, which grow
 * with the row-major scan order of any window):
 *  - Line pass. Per column w, the lines of the window are scanned in
 *    row-major order with the reference rule from v0, keeping the line offset
 *    of the winner (relative to the window's first line; -1: nothing beat
 *    v0). Column w then holds C[w] = the first element of the column equal to the column maximum M_w when
 *    M_w > v0 (ignoring NaN), or under propagation the column's last NaN if
 *    it has one; else (v0, -1).
 *  - W reduce. Without NaN the scan keeps the element of smallest position
 *    among those equal to the window maximum M (if M > v0). Every such element
 *    lies in a column with M_w = M, and the smallest-position one of a column
 *    is C[w] (its lines are in position order). So the answer is, among the
 *    columns with C[w] = M, the one with the smallest position P[w] = first
 *    line's position + line offset + w: the reduce keeps (best, bp) and takes C[w] when
 *    C[w] > best, or C[w] == best and P[w] < bp. -0.0 and +0.0 compare equal,
 *    which is why positions are tracked even without index output: the tie
 *    rule picks the bits. Columns with no position hold v0 and can never win
 *    (v0 beats nothing and nothing equal to v0 has a position), so they are
 *    skipped.
 *  - With propagation the scan ends on the window's last NaN, the NaN of
 *    largest position; each column holds its own last NaN, so the reduce
 *    takes a NaN C[w] when best is no NaN or P[w] > bp, and a non-NaN C[w]
 *    never replaces a NaN best. Without NaN in the window this is the rule
 *    above. Under the ignore policy no NaN enters C.
 *  - Columns are independent in the line pass; lanes past the needed
 *    columns (masked tail loads) are never read back. More than
 *    CF_LF_MAXLINES lines go in batches, each continuing from the state the
 *    previous one stored: the same scan.
 * First-element start (the window's first tap e00 starts the running max
 * unconditionally): both passes run from v0 = -inf instead, giving R; the
 * proof in f32_nchw_rows_impl.h ("First-element start") shows the answer is
 * (e00, its position) where R has no position or (NaN ignored) where e00 is
 * NaN, else R. Windows with no element give (empty value, empty index).
 * Empty-window index (also for windows where nothing beat the start value):
 * -1, the first tap (built from the axes' start arrays, which hold the first
 * tap at or after 0 for empty windows) or the plane start.
 *
 * Memory: two row buffers of CF_LF_CAP floats / int32, the line offsets and
 * the per-chunk column tables (about 21 KiB of stack per task); nothing
 * allocated or shared. The line pass prefetches the next output row's lines
 * (a hint only: the address is formed as an integer and never dereferenced).
 */
#include "f32_cf_linesfirst.h"

#include <math.h>
#include <stdalign.h>
#include <stdint.h>
#include <string.h>

#define KCAT_(a, b) a##b
#define KCAT(a, b) KCAT_(a, b)
#define KFN(n) KCAT(KPREFIX, n)
#ifndef CF_AI
#include "force_inline.h"
#define CF_AI MAXPOOL_AI
#endif

#ifndef KALIGN /* stack buffer alignment: a 16-lane vector, else 32 bytes (as f32_update_impl.h) */
#define KALIGN (VW >= 16 ? 64 : 32)
#endif

/* Stack scratch bounds: above maxpool_f32_nchw_linesfirst_match (f32_match.c). */
#define CF_LF_MAXLINES 256 /* line offsets per batch of the line pass */
#define CF_LF_COLS 256     /* output columns per chunk */


/* The update rule of f32_update_impl.h with positions, for the line pass.
 * The positions ride in a float-typed register (their bits only; blends
 * move bits): one register class for both accumulators lets GCC keep them
 * in place (LF_BLEND: see the ISA file). */
#ifdef VI_MAXU_MASKED
/* LF_PB 1 (avx2): the line pass keeps 1 + the line offset (0: none) by an
 * unsigned max instead of a blend (f32_nhwc_impl.h's KFN_PB: the lines come
 * in row-major order, their offsets growing, so the last line that replaced
 * best has the largest offset of those that did), and with NaN ignored the
 * value by max_ps (x > best ? x : best): no vblendvps (2-3 uops on Intel).
 * cl[] holds the plain offsets (-1: none) between passes. */
#define LF_PB 1
#else
#define LF_PB 0
#endif
CF_AI void KFN(lupdate)(VF *best, VF *bi, VF x, VF xi, const int prop)
{
#ifdef VF_GT_K /* (AVX-512: k-mask forms, simd_f32_avx512.h) */
    VK_T k = VF_GT_K(x, *best);
    if (prop)
        k = (VK_T)(k | VF_ISNAN_K(x));
    *best = VF_BLEND_K(*best, x, k);
    *bi = VF_BLEND_K(*bi, xi, k);
#else
    VF m = VF_GT(x, *best);
    if (prop)
        m = VF_MOR(m, VF_ISNAN(x));
#if LF_PB
    *best = prop ? LF_BLEND(*best, x, m) : VF_SEL_GT(x, *best);
    *bi = VI_ASF(VI_MAXU_MASKED(LF_VF_ASI(*bi), m, LF_VF_ASI(xi)));
#else
    *best = LF_BLEND(*best, x, m);
    *bi = LF_BLEND(*bi, xi, m);
#endif
#endif
}

/* Line pass of NB vector groups starting at column offset w (relative to the
 * row start row0): cv/cl[w ..] = per column the winner over the nl lines at
 * plane offsets loff[l] and its line offset (-1: none). With acc the scan
 * continues from the state in cv/cl (the lines before these), else it starts
 * from (init, -1). */
CF_AI void KFN(lines_nb)(const float *row0, const int32_t *loff, int nl, int64_t w, float *cv, int32_t *cl,
                         float init, const int NB, const int prop, int acc, intptr_t pf)
{
    VF b[4], bi[4];
#pragma GCC unroll 4 /* (-O2 left b[] and bi[] in memory: a load and a store per line and vector) */
    for (int q = 0; q < NB; ++q) {
        b[q] = acc ? VF_LOAD(cv + w + q * VW) : VF_SET1(init);
        bi[q] = VI_ASF(acc ? VI_ADD(VI_LOAD(cl + w + q * VW), VI_SET1(LF_PB)) : VI_SET1(LF_PB - 1));
    }
    for (int l = 0; l < nl; ++l) {
        const float *r = row0 + loff[l] + w;
        const VF lv = VI_ASF(VI_SET1(loff[l] + LF_PB));
        if (pf) /* the same line of the next output row's window (a hint: any address is harmless) */
            for (int q = 0; q < NB; q += 64 / (VW * 4))
                __builtin_prefetch((const void *)((uintptr_t)(r + q * VW) + (uintptr_t)pf));
#pragma GCC unroll 4
        for (int q = 0; q < NB; ++q)
            KFN(lupdate)(&b[q], &bi[q], VF_LOAD(r + q * VW), lv, prop);
    }
#pragma GCC unroll 4
    for (int q = 0; q < NB; ++q) {
        VF_STORE(cv + w + q * VW, b[q]);
        VI_STORE(cl + w + q * VW, VI_ADD(LF_VF_ASI(bi[q]), VI_SET1(-LF_PB)));
    }
}

/* Line pass over the U columns starting at row0 (U <= CF_LF_CAP). The last
 * U % VW columns go through masked loads (lanes past U read nothing; they
 * are stored to the buffer's slack and never read back). */
CF_AI void KFN(lines)(const float *row0, const int32_t *loff, int nl, int64_t U, float *cv, int32_t *cl, float init,
                      const int prop, int acc, intptr_t pf)
{
    const int64_t nv = U / VW;
    int64_t v = 0;
    for (; v + 4 <= nv; v += 4)
        KFN(lines_nb)(row0, loff, nl, v * VW, cv, cl, init, 4, prop, acc, pf);
    if (nv - v == 3)
        KFN(lines_nb)(row0, loff, nl, v * VW, cv, cl, init, 3, prop, acc, pf);
    else if (nv - v == 2)
        KFN(lines_nb)(row0, loff, nl, v * VW, cv, cl, init, 2, prop, acc, pf);
    else if (nv - v == 1)
        KFN(lines_nb)(row0, loff, nl, v * VW, cv, cl, init, 1, prop, acc, pf);
    const int64_t n = U % VW, w = nv * VW;
    if (n) {
        VF b = acc ? VF_LOAD(cv + w) : VF_SET1(init);
        VF bi = VI_ASF(acc ? VI_ADD(VI_LOAD(cl + w), VI_SET1(LF_PB)) : VI_SET1(LF_PB - 1));
        for (int l = 0; l < nl; ++l)
            KFN(lupdate)(&b, &bi, VF_MASKLOAD(row0 + loff[l] + w, n), VI_ASF(VI_SET1(loff[l] + LF_PB)), prop);
        VF_STORE(cv + w, b);
        VI_STORE(cl + w, VI_ADD(LF_VF_ASI(bi), VI_SET1(-LF_PB)));
    }
}

/* VAL/I32/I64 are the index kinds 0/1/2 of f32_run_switch_impl.h */
enum { CF_LF_VAL = 0, CF_LF_I32 = 1, CF_LF_I64 = 2 };

/* W reduce of VW output columns at once: lane i reduces the window of
 * column i, taps j < cnt[i] at combined-row offsets st[i] + j*step (lanes past
 * their count read offset 0 and are masked off). The scalar rule of the top
 * comment in vector form: take C when it is NaN and best is not or comes
 * earlier (propagation), or when best is no NaN and C > best or C == best at
 * a smaller position. Positions: p0 + line offset + combined-row offset (p0
 * the in-plane position of offset 0 on the window's first line). Columns
 * with no position hold the start value and cannot pass this test (see the
 * top comment), so they need no mask. */
CF_AI void KFN(wreduce)(const float *cv, const int32_t *cl, const int32_t *st, const int32_t *cnt, int32_t jmax,
                        int32_t step, int32_t p0, float init, float *rv, int32_t *rp, const int prop)
{
    const VI vst = VI_LOAD(st), vcn = VI_LOAD(cnt);
    VF best = VF_SET1(init);
    VI bp = VI_SET1(-1);
    for (int32_t j = 0; j < jmax; ++j) {
        const VI valid = LF_VI_GT(vcn, VI_SET1(j));
        const VI off = LF_VI_AND(VI_ADD(vst, VI_SET1(j * step)), valid);
        const VF xv = VF_GATHER(cv, off);
        const VI q = VI_ADD(LF_VI_GATHER(cl, off), VI_ADD(off, VI_SET1(p0)));
        const VF gt = VF_GT(xv, best), eq = LF_VF_EQ(xv, best);
        const VF qlt = VI_ASF(LF_VI_GT(bp, q));
        VF take = VF_MOR(gt, LF_VF_AND(eq, qlt));
        if (prop) {
            const VF xn = VF_ISNAN(xv), bn = VF_ISNAN(best);
            const VF qgt = VI_ASF(LF_VI_GT(q, bp));
            take = VF_BLEND(VF_MOR(take, xn), LF_VF_AND(xn, qgt), bn);
        }
        take = LF_VF_AND(take, VI_ASF(valid));
        best = VF_BLEND(best, xv, take);
        bp = VI_BLEND(bp, q, take);
    }
    VF_STORE(rv, best);
    VI_STORE(rp, bp);
}

/* Output columns [c0, *c1), at most CF_LF_COLS of them (empty windows
 * included: the column tables hold CF_LF_COLS), whose windows' union
 * [*u0, *u1) fits the row buffer (the match function guarantees that one
 * window does); u0 == u1 when every window of the range is empty. Starts and
 * ends of windows are not monotonic in general (dilated windows clipped at
 * the end), hence the running min / max. */
static inline void KFN(wchunk)(const cf_axis *aw, int64_t c0, int64_t *c1, int64_t *u0, int64_t *u1)
{
    int64_t a = INT64_MAX, e = INT64_MIN, o = c0;
    for (; o < aw->out && o - c0 < CF_LF_COLS; ++o) {
        const int64_t cnt = aw->count[o];
        if (cnt == 0)
            continue;
        const int64_t s = aw->start[o], t = s + (cnt - 1) * aw->step + 1;
        const int64_t na = s < a ? s : a, ne = t > e ? t : e;
        if (ne - na > CF_LF_CAP && o > c0)
            break;
        a = na;
        e = ne;
    }
    if (e < a)
        a = e = 0;
    *c1 = o;
    *u0 = a;
    *u1 = e;
}

CF_AI void KFN(run_impl)(const struct maxpool_plan *p, const float *x, float *y, void *ind, int64_t t0, int64_t t1,
                         const int prop, const int ok, const int fe)
{
    cf_geom g;
    cf_geom_init(p, &g);
    const float init = fe ? -INFINITY : p->init.f32; /* start value of the passes */
    const float uinit = p->init.f32;                 /* value of empty windows */
    const int etap = p->desc.empty_index == MAXPOOL_EMPTY_INDEX_FIRST_TAP     ? 1
                     : p->desc.empty_index == MAXPOOL_EMPTY_INDEX_PLANE_START ? 2
                                                                              : 0;
    const int64_t inw = g.aw.in, in1 = g.a1.in, outw = g.aw.out, out1 = g.a1.out, wstep = g.aw.step;

    alignas(KALIGN) float cv[CF_LF_CAP + 16];
    alignas(KALIGN) int32_t cl[CF_LF_CAP + 16];
    int32_t loff[CF_LF_MAXLINES];
    int64_t lk0 = -1, lk1 = -1; /* line counts loff was built for */
    alignas(KALIGN) int32_t wst[CF_LF_COLS + 16], wcn[CF_LF_COLS + 16], gmax[CF_LF_COLS / VW + 2];
    alignas(KALIGN) float rv[CF_LF_COLS + 16];
    alignas(KALIGN) int32_t rp[CF_LF_COLS + 16];

    for (int64_t t = t0; t < t1; ++t) {
        const int64_t plane = t / g.nb, blk = t % g.nb;
        const int64_t rb = blk * g.rows / g.nb, re = (blk + 1) * g.rows / g.nb;
        const float *xp = x + plane * p->in_spatial;
        float *yp = y + plane * p->out_spatial;
        const int64_t base = (plane / p->c) * p->idx_n + (plane % p->c) * p->idx_c;
        for (int64_t c0 = 0; c0 < outw;) {
            int64_t c1, u0, u1;
            KFN(wchunk)(&g.aw, c0, &c1, &u0, &u1);
            const int64_t U = u1 - u0, ncols = c1 - c0, ng = (ncols + VW - 1) / VW;
            /* window of each column relative to the combined row; padding lanes count 0 */
            for (int64_t i = 0; i < ng * VW; ++i) {
                const int64_t cnt = i < ncols ? g.aw.count[c0 + i] : 0;
                wst[i] = cnt ? (int32_t)(g.aw.start[c0 + i] - u0) : 0;
                wcn[i] = (int32_t)cnt;
                if (i % VW == 0)
                    gmax[i / VW] = 0;
                if (wcn[i] > gmax[i / VW])
                    gmax[i / VW] = wcn[i];
            }
            int64_t o0 = rb / out1, o1 = rb % out1;
            for (int64_t r = rb; r < re; ++r, ++o1 == out1 ? (o1 = 0, ++o0) : 0) {
                const int64_t st0 = g.a0.start[o0], cn0 = g.a0.count[o0];
                const int64_t st1 = g.a1.start[o1], cn1 = g.a1.count[o1];
                const int64_t rowbase = (st0 * in1 + st1) * inw; /* first line of the window (or its first tap) */
                const int row_empty = cn0 == 0 || cn1 == 0 || U == 0;
                if (!row_empty) {
                    /* lines in row-major order, as offsets from the window's
                     * first line (the same list for every row with the same
                     * line counts: built once while they do not change),
                     * CF_LF_MAXLINES at a time (each batch continues the scan) */
                    const float *x0 = xp + rowbase + u0;
                    /* byte distance to the next output row's window, for prefetching */
                    intptr_t pf = 0;
                    if (r + 1 < re) {
                        const int64_t n0 = o1 + 1 == out1 ? o0 + 1 : o0, n1 = o1 + 1 == out1 ? 0 : o1 + 1;
                        pf = (intptr_t)(((g.a0.start[n0] * in1 + g.a1.start[n1]) * inw - rowbase) * 4);
                    }
                    if (cn0 * cn1 <= CF_LF_MAXLINES) {
                        if (cn0 != lk0 || cn1 != lk1) {
                            int nl = 0;
                            for (int64_t j0 = 0; j0 < cn0; ++j0)
                                for (int64_t j1 = 0; j1 < cn1; ++j1)
                                    loff[nl++] = (int32_t)((j0 * g.a0.step * in1 + j1 * g.a1.step) * inw);
                            lk0 = cn0;
                            lk1 = cn1;
                        }
                        KFN(lines)(x0, loff, (int)(cn0 * cn1), U, cv, cl, init, prop, 0, pf);
                    } else {
                        /* batches of CF_LF_MAXLINES lines from one call site (build cost: the
                         * first batch and the rest each had their own inlined line pass) */
                        int acc = 0;
                        lk0 = lk1 = -1;
                        for (int64_t j0 = 0, j1 = 0; j0 < cn0; acc = 1) {
                            int nl = 0;
                            while (j0 < cn0 && nl < CF_LF_MAXLINES) {
                                loff[nl++] = (int32_t)((j0 * g.a0.step * in1 + j1 * g.a1.step) * inw);
                                if (++j1 == cn1) {
                                    j1 = 0;
                                    ++j0;
                                }
                            }
                            KFN(lines)(x0, loff, nl, U, cv, cl, init, prop, acc, pf);
                        }
                    }
                }
                if (!row_empty)
                    for (int64_t gi = 0; gi < ng; ++gi)
                        KFN(wreduce)(cv, cl, wst + gi * VW, wcn + gi * VW, gmax[gi], (int32_t)wstep, (int32_t)(rowbase + u0),
                                     init, rv + gi * VW, rp + gi * VW, prop);
                float *yo = yp + r * outw;
                for (int64_t o = c0; o < c1; ++o) {
                    const int64_t st = g.aw.start[o], cnt = g.aw.count[o];
                    float best = uinit;
                    int64_t bp = -1;
                    if (!row_empty && cnt != 0) {
                        best = rv[o - c0];
                        bp = rp[o - c0];
                        if (fe) {
                            const int64_t f = rowbase + st;
                            const float e00 = xp[f];
                            if (bp < 0 || (!prop && e00 != e00)) {
                                best = e00;
                                bp = f;
                            }
                        }
                    }
                    yo[o] = best;
                    if (ok != CF_LF_VAL) {
                        int64_t idx;
                        if (bp >= 0)
                            idx = base + bp;
                        else if (etap == 1)
                            idx = base + rowbase + st;
                        else if (etap == 2)
                            idx = base;
                        else
                            idx = -1;
                        if (ok == CF_LF_I64)
                            ((int64_t *)ind)[plane * p->out_spatial + r * outw + o] = idx;
                        else
                            ((int32_t *)ind)[plane * p->out_spatial + r * outw + o] = (int32_t)idx;
                    }
                }
            }
            c0 = c1;
        }
    }
}

#include "f32_run_switch_impl.h"
