/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Channels-first f32 max pooling, spatial rank 1..3, fixed or adaptive
 * windows, with or without indices: separable row-then-column passes.
 * Included by f32_nchw_rows_<isa>.c after a simd_f32_<isa>.h vocabulary and
 * with KPREFIX set (names of this instantiation).
 *
 * Why separable passes are bit-exact with the row-major scan of the reference
 * (best starts at the start value, x replaces best when x > best, or, with
 * NaN propagation, when x is NaN):
 *  - Without NaN the scan keeps the first element, in row-major order, whose
 *    value is the window maximum M, provided M > start value (else it keeps
 *    the start value and no position). The W pass keeps, per line (one input
 *    row of the window), the first element equal to that line's maximum M_l;
 *    the line pass scans the lines in row-major order with the same strict
 *    rule, so it keeps the first line with M_l = M, and in it the first
 *    element equal to M: the same element (its bits, e.g. -0.0 vs +0.0, and
 *    its position). Lines whose maximum does not beat the start value carry
 *    (start value, no position) and never win either.
 *  - With NaN propagation the scan ends on the last NaN of the window if
 *    there is one. The W pass keeps the last NaN of each line, the line pass
 *    the last line holding a NaN, so again the same element. With NaN ignored
 *    no NaN ever enters a result, and every pass starts from the start value.
 *  - The log-step W pass for long stride-1 windows (CF_W_S1_LOG) combines
 *    two overlapping ranges A (starts first) and B (ends last) covering a
 *    window, A's result first. Without NaN: if the first maximum lies in A,
 *    A holds it and ties keep it; otherwise A's best is smaller and B's first
 *    maximum is the window's (no earlier copy exists in A's part of B). With
 *    propagation: if B has a NaN its last NaN is the window's last; else A's
 *    last NaN is. Leaves start from the start value, so a NaN never sits in
 *    an ignored-NaN combine's first operand.
 * Padding never enters a result: border windows read a copy of the line
 * with the start value outside [0, in), and the start value never replaces
 * best. Empty windows keep (start value, no position); the index pass then
 * writes -1 or the first tap.
 *
 *
 * First-element start (MAXPOOL_INIT_FIRST_ELEMENT: the window's first tap
 * e00 starts the running max unconditionally, NaN included; later taps
 * replace it by the rule above). A line pass cannot simply start from each
 * line's first tap: a NaN leading a later line would stick where the 2-D scan
 * ignores it, and a cached line serves as first line of one window and later
 * line of another. Instead the passes run as above with the start value -inf
 * (whatever the empty value), giving R = the first element > -inf by the
 * rule (ignore: first element of the non-NaN maximum M, if M > -inf;
 * propagate: the last NaN, else the first element of M if M > -inf), or no
 * position. The 2-D scan from e00 gives:
 *  - ignore, e00 NaN: e00 (nothing replaces a NaN under x > best).
 *  - ignore, e00 not NaN: the first element of the non-NaN maximum M (e00 is
 *    a candidate and is first in order, so M == e00 keeps e00): R when
 *    M > -inf; when R has no position every non-NaN element is -inf, e00
 *    among them, and e00 is the first: e00.
 *  - propagate: the last NaN if any (e00 included: a NaN e00 stays unless a
 *    later NaN comes), else the first element of M: R, or e00 when R has no
 *    position (all elements -inf, e00 first).
 * So the output column pass takes (e00, its position) where R has no
 * position, or (ignore) where e00 is NaN; else R. Without indices "no
 * position" is R == -inf, where e00 is -inf too unless it is NaN: only the
 * ignore rule's NaN test is needed. e00 is read with a gather at the
 * window's first tap (first line, aw.start). Windows with no element (an
 * empty output row or column) give (empty value, empty index).
 * Empty-window index: -1, the first tap, or the plane start (n*idx_n +
 * c*idx_c, the first-tap form with offset 0).
 *
 * Memory: every buffer lives on the stack of the task (about 31 KiB),
 * nothing is allocated, nothing is shared between concurrent runs.
 */
#include "f32_cf_geom.h"

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

/* Stack scratch; what keeps each index range inside is listed above
 * maxpool_f32_nchw_rows_match (f32_match.c). */
#define CF_SLOT_FLOATS 2048 /* per array (values, positions) */
#define CF_LBUF_FLOATS 2048 /* padded copy of a line */
#define CF_TCAP 1024        /* log-step pass: line span */
#define CF_FT_CAP 256       /* columns per chunk */

#include "f32_update_impl.h"

/* One output column from its canonical window (start, count, step). */
CF_AI void KFN(col_scalar)(const float *xr, int64_t st, int64_t cnt, int64_t step, int32_t loff, float init,
                           float *v, int32_t *ps, const int prop, const int wi)
{
    float best = init;
    int32_t bp = -1;
    for (int64_t j = 0; j < cnt; ++j) {
        const float e = xr[st + j * step];
        if (e > best || (prop && e != e)) {
            best = e;
            bp = loff + (int32_t)(st + j * step);
        }
    }
    *v = best;
    if (wi)
        *ps = bp;
}

/* Vector groups of outputs [ob, oe) ((oe-ob) % VW == 0) of the regular pattern;
 * src[u - u0] is input coordinate u. Results go to val/pos[o - c0]. */
CF_AI void KFN(wgroups_k)(const cf_geom *g, const float *src, int64_t u0, int64_t ob, int64_t oe, int64_t c0,
                          int32_t loff, float *val, int32_t *pos, float init, const int64_t kc, const int prop,
                          const int wi)
{
    const VF vinit = VF_SET1(init);
    const int64_t s = g->s, pb = g->pb, k = kc ? kc : g->k, d = g->d;
    for (int64_t o = ob; o < oe; o += VW) {
        const int64_t u = o * s - pb;
        const float *b = src + (u - u0);
        /* position of tap 0 of lane 0, wrapping (no signed overflow) for a
         * group of the padded copy wholly past the line end near the end of
         * a plane of INT32_MAX elements: its lanes hold the start value and
         * never take a position */
        const int32_t p0 = (int32_t)((uint32_t)loff + (uint32_t)u);
        VF best = vinit;
        VI bi = VI_SET1(-1);
        if (g->wmode == CF_W_S2) { /* lanes in VF_DEINT_INLANE order until VF_FIX */
            const VI pv = VI_ADD(VI_SET1(p0), VI_IOTA2_INLANE);
            int64_t j = 0;
            for (; j + 1 < k; j += 2) { /* taps j, j+1: even and odd lanes of one pair */
                VF ev, od;
                VF_DEINT_INLANE(VF_LOAD(b + j), VF_LOAD(b + j + VW), &ev, &od);
                KFN(update)(&best, &bi, ev, VI_ADD(pv, VI_SET1((int32_t)j)), prop, wi);
                KFN(update)(&best, &bi, od, VI_ADD(pv, VI_SET1((int32_t)j + 1)), prop, wi);
            }
            if (j < k) { /* last tap of an odd kernel: odd lanes of the pair at j-1 (k=1: even lanes at 0) */
                VF ev, od;
                const int64_t q = j > 0 ? j - 1 : 0;
                VF_DEINT_INLANE(VF_LOAD(b + q), VF_LOAD(b + q + VW), &ev, &od);
                KFN(update)(&best, &bi, j > 0 ? od : ev, VI_ADD(pv, VI_SET1((int32_t)j)), prop, wi);
            }
            best = VF_FIX(best);
            if (wi)
                bi = VI_FIX(bi);
        } else {
            const VI pv = VI_ADD(VI_SET1(p0), VI_IOTA);
            for (int64_t j = 0; j < k; ++j)
                KFN(update)(&best, &bi, VF_LOAD(b + j * d), VI_ADD(pv, VI_SET1((int32_t)(j * d))), prop, wi);
        }
        VF_STORE(val + (o - c0), best);
        if (wi)
            VI_STORE(pos + (o - c0), bi);
    }
}

/* wgroups_k with the common kernel sizes as constants (unrolled tap loops). */
CF_AI void KFN(wgroups)(const cf_geom *g, const float *src, int64_t u0, int64_t ob, int64_t oe, int64_t c0,
                        int32_t loff, float *val, int32_t *pos, float init, const int prop, const int wi)
{
    if (g->k == 3)
        KFN(wgroups_k)(g, src, u0, ob, oe, c0, loff, val, pos, init, 3, prop, wi);
    else if (g->k == 2)
        KFN(wgroups_k)(g, src, u0, ob, oe, c0, loff, val, pos, init, 2, prop, wi);
    else
        KFN(wgroups_k)(g, src, u0, ob, oe, c0, loff, val, pos, init, 0, prop, wi);
}

/* Outputs [ob, oe) through a copy of the line padded with the start value
 * (border windows). Falls back to the scalar column loop when the copy would
 * not fit the buffer. Writes up to ob + roundup(oe - ob, VW). */
CF_AI void KFN(wpadded)(const cf_geom *g, const float *xr, int64_t ob, int64_t oe, int64_t c0, int32_t loff,
                        float *val, int32_t *pos, float init, float *lbuf, const int prop, const int wi)
{
    const int64_t R = (oe - ob + VW - 1) / VW * VW;
    const int64_t u0 = ob * g->s - g->pb;
    const int64_t u1 = (ob + R - 1) * g->s - g->pb + (g->k - 1) * g->d + 2;
    if (u1 - u0 > CF_LBUF_FLOATS) {
        for (int64_t o = ob; o < oe; ++o)
            KFN(col_scalar)(xr, g->aw.start[o], g->aw.count[o], g->aw.step, loff, init, &val[o - c0], &pos[o - c0],
                            prop, wi);
        return;
    }
    const int64_t in = g->aw.in;
    /* inside part [a, e), u0 <= a <= e <= u1 (the copy may lie wholly in
     * either padding: then a == e at that end) */
    int64_t a = u0 < 0 ? 0 : u0, e = u1 < in ? u1 : in;
    if (a > u1)
        a = u1;
    if (e < a)
        e = a;
    for (int64_t u = u0; u < a; ++u)
        lbuf[u - u0] = init;
    memcpy(lbuf + (a - u0), xr + a, (size_t)(e - a) * sizeof(float));
    for (int64_t u = e; u < u1; ++u)
        lbuf[u - u0] = init;
    KFN(wgroups)(g, lbuf, u0, ob, ob + R, c0, loff, val, pos, init, prop, wi);
}

/* Border (or narrow) columns [ob, oe): a few taps go column by column, more
 * through the padded copy. */
CF_AI void KFN(wborder)(const cf_geom *g, const float *xr, int64_t ob, int64_t oe, int64_t c0, int32_t loff,
                        float *val, int32_t *pos, float init, float *lbuf, const int prop, const int wi)
{
    if (oe <= ob)
        return;
    if ((oe - ob) * g->k <= 12) {
        for (int64_t o = ob; o < oe; ++o)
            KFN(col_scalar)(xr, g->aw.start[o], g->aw.count[o], g->aw.step, loff, init, &val[o - c0], &pos[o - c0],
                            prop, wi);
    } else {
        KFN(wpadded)(g, xr, ob, oe, c0, loff, val, pos, init, lbuf, prop, wi);
    }
}

/* Log-step W pass (stride 1, dilation 1, kernel k >= 2): T_1 = leaves,
 * T_2P[i] = comb(T_P[i], T_P[i+P]) covers [i, i+2P); out = comb(T_P[i], T_P[i+k-P])
 * with P the largest power of two <= k. Returns 0 when the span does not fit. */
CF_AI int KFN(wlog)(const cf_geom *g, const float *xr, int64_t c0, int64_t ncp, int32_t loff, float *val,
                    int32_t *pos, float init, float *tv, int32_t *tp, const int prop, const int wi)
{
    const int64_t k = g->k, in = g->aw.in;
    const int64_t span = ncp + k - 1;
    if (span + 2 * VW > CF_TCAP)
        return 0;
    const int64_t u0 = c0 - g->pb;
    const VF vinit = VF_SET1(init);
    const VI vneg = VI_SET1(-1);
    /* leaves: comb(start value, x) so that NaN (ignored) and values <= start drop out */
    const int64_t L = span + 2 * VW;
    int64_t va = u0 < 0 ? -u0 : 0, vb = in - u0; /* [va, vb): inside the line */
    if (va > L)
        va = L;
    if (vb > L)
        vb = L;
    if (vb < va)
        vb = va;
    int64_t i = 0;
    for (; i < va; ++i) {
        tv[i] = init;
        tp[i] = -1;
    }
    for (; i + VW <= vb; i += VW) {
        VF best = vinit;
        VI bi = vneg;
        KFN(update)(&best, &bi, VF_LOAD(xr + u0 + i), VI_ADD(VI_SET1(loff + (int32_t)(u0 + i)), VI_IOTA), prop, wi);
        VF_STORE(tv + i, best);
        if (wi)
            VI_STORE(tp + i, bi);
    }
    for (; i < vb; ++i) {
        const float e = xr[u0 + i];
        const int win = e > init || (prop && e != e);
        tv[i] = win ? e : init;
        tp[i] = win ? loff + (int32_t)(u0 + i) : -1;
    }
    for (; i < L; ++i) {
        tv[i] = init;
        tp[i] = -1;
    }
    int64_t P = 1;
    for (; 2 * P <= k; P *= 2) {
        const int64_t nv = span - 2 * P + 1; /* T_2P valid for i < nv */
        for (int64_t j = 0; j < nv; j += VW) {
            VF a = VF_LOAD(tv + j);
            VI ai = wi ? VI_LOAD(tp + j) : vneg;
            KFN(update)(&a, &ai, VF_LOAD(tv + j + P), wi ? VI_LOAD(tp + j + P) : vneg, prop, wi);
            VF_STORE(tv + j, a);
            if (wi)
                VI_STORE(tp + j, ai);
        }
    }
    for (int64_t j = 0; j < ncp; j += VW) {
        VF a = VF_LOAD(tv + j);
        VI ai = wi ? VI_LOAD(tp + j) : vneg;
        KFN(update)(&a, &ai, VF_LOAD(tv + j + k - P), wi ? VI_LOAD(tp + j + k - P) : vneg, prop, wi);
        VF_STORE(val + j, a);
        if (wi)
            VI_STORE(pos + j, ai);
    }
    return 1;
}

/* W pass of one line for output columns [c0, c1); val/pos[0 .. ncp) written
 * (lanes past c1 hold harmless values). */
CF_AI void KFN(wpass)(const cf_geom *g, const float *xr, int32_t loff, int64_t c0, int64_t c1, int64_t ncp,
                      float *val, int32_t *pos, float init, float *lbuf, int32_t *lpos, const int prop, const int wi)
{
    if (g->wmode == CF_W_S1_LOG && KFN(wlog)(g, xr, c0, ncp, loff, val, pos, init, lbuf, lpos, prop, wi))
        return;
    if (g->wmode == CF_W_SCALAR) {
        for (int64_t o = c0; o < c1; ++o)
            KFN(col_scalar)(xr, g->aw.start[o], g->aw.count[o], g->aw.step, loff, init, &val[o - c0], &pos[o - c0],
                            prop, wi);
    } else {
        const int64_t a = g->lo < c0 ? c0 : (g->lo > c1 ? c1 : g->lo);
        int64_t hc = g->hi < a ? a : (g->hi > c1 ? c1 : g->hi);
        if (g->wmode == CF_W_S2 && g->k == 1) /* the pair load reads one element past the tap */
            while (hc > a && 2 * (hc - 1) - g->pb + 2 > g->aw.in)
                --hc;
        if (hc - a >= VW) {
            const int64_t e = a + (hc - a) / VW * VW;
            KFN(wgroups)(g, xr, 0, a, e, c0, loff, val, pos, init, prop, wi);
            if (e < hc) /* last group overlaps the previous one: same values */
                KFN(wgroups)(g, xr, 0, hc - VW, hc, c0, loff, val, pos, init, prop, wi);
            KFN(wborder)(g, xr, c0, a, c0, loff, val, pos, init, lbuf, prop, wi);
            KFN(wborder)(g, xr, hc, c1, c0, loff, val, pos, init, lbuf, prop, wi);
        } else {
            KFN(wborder)(g, xr, c0, c1, c0, loff, val, pos, init, lbuf, prop, wi);
        }
    }
    for (int64_t i = c1 - c0; i < ncp; ++i) {
        val[i] = init;
        pos[i] = -1;
    }
}

/* VAL/I32/I64 are the index kinds 0/1/2 of f32_run_switch_impl.h */
enum { CF_OUT_VAL = 0, CF_OUT_I32 = 1, CF_OUT_I64 = 2, CF_OUT_RAW = 3 };

/* First-element start: what the output pass needs (see the top comment). */
typedef struct KFN(fe_row) {
    const float *xp;    /* the plane */
    int32_t gbase;      /* in-plane offset of the window's first line */
    int row_empty;      /* the output row has no input line */
    float uinit;        /* the empty value */
    const int32_t *fg;  /* [column] first tap of the window (0 for empty columns) */
    const int32_t *fem; /* [column] -1 where the column window is empty, else 0 */
} KFN(fe_row);

/* Combines nl line results column by column and writes the output row.
 * first_tap: empty-window index 0 = -1, 1 = the first tap, 2 = the plane start. */
CF_AI void KFN(hcomb)(int nl, const float *const *vals, const int32_t *const *poss, int64_t ncols, float init,
                      float *yo, void *io, float *rawv, int32_t *rawp, int64_t base, int32_t rowbase,
                      const int32_t *ft, int first_tap, const KFN(fe_row) * fr, const int prop, const int wi,
                      const int ok, const int fe)
{
    const VF vinit = VF_SET1(init);
    const VI vneg = VI_SET1(-1);
    for (int64_t i = 0; i < ncols; i += VW) {
        VF best = vinit;
        VI bi = vneg;
        for (int l = 0; l < nl; ++l)
            KFN(update)(&best, &bi, VF_LOAD(vals[l] + i), wi ? VI_LOAD(poss[l] + i) : vneg, prop, wi);
        if (ok == CF_OUT_RAW) {
            VF_STORE(rawv + i, best);
            if (wi)
                VI_STORE(rawp + i, bi);
            continue;
        }
        if (fe) {
            if (fr->row_empty) {
                best = VF_SET1(fr->uinit);
                bi = vneg;
            } else {
                if (wi || !prop) {
                    const VI gi = VI_ADD(VI_LOAD(fr->fg + i), VI_SET1(fr->gbase));
                    const VF e = VF_GATHER(fr->xp, gi);
                    KFN(fe_fix)(&best, &bi, e, gi, prop, wi);
                }
                const VF em = VI_ASF(VI_LOAD(fr->fem + i));
                best = VF_BLEND(best, VF_SET1(fr->uinit), em);
                if (wi)
                    bi = VI_BLEND(bi, vneg, em);
            }
        }
        const int64_t n = ncols - i < VW ? ncols - i : VW;
        if (n == VW)
            VF_STORE(yo + i, best);
        else
            VF_MASKSTORE(yo + i, n, best);
        if (!wi)
            continue;
        VI t = bi;
        if (first_tap == 1)
            t = VI_BLEND_IM(t, VI_ADD(VI_LOAD(ft + i), VI_SET1(rowbase)), VI_SIGN(t));
        else if (first_tap == 2)
            t = VI_BLEND_IM(t, VI_SET1(0), VI_SIGN(t));
        KFN(store_index)((char *)io + i * (ok == CF_OUT_I64 ? 8 : 4), t, base, !first_tap, n, ok);
    }
}

CF_AI void KFN(run_impl)(const struct maxpool_plan *p, const float *x, float *y, void *ind, int64_t t0, int64_t t1,
                         const int prop, const int ok, const int fe)
{
    const int wi = ok != CF_OUT_VAL;
    cf_geom g;
    cf_geom_init(p, &g);
    const float init = fe ? -INFINITY : p->init.f32; /* start value of the passes */
    const int first_tap = p->desc.empty_index == MAXPOOL_EMPTY_INDEX_FIRST_TAP       ? 1
                          : p->desc.empty_index == MAXPOOL_EMPTY_INDEX_PLANE_START ? 2
                                                                                   : 0;
    const int64_t inw = g.aw.in, in1 = g.a1.in, outw = g.aw.out, out1 = g.a1.out;
    const int64_t nslots = g.streaming ? 2 : g.s0 * g.s1;
    const int64_t isz = ok == CF_OUT_I64 ? 8 : 4;

    alignas(KALIGN) float sval[CF_SLOT_FLOATS];
    alignas(KALIGN) int32_t spos[CF_SLOT_FLOATS];
    alignas(KALIGN) float lbuf[CF_LBUF_FLOATS];
    alignas(KALIGN) int32_t lpos[CF_TCAP];
    alignas(KALIGN) int32_t ft[CF_FT_CAP + 16];
    alignas(KALIGN) int32_t fg[CF_FT_CAP + 16];
    alignas(KALIGN) int32_t fem[CF_FT_CAP + 16];
    KFN(fe_row) fr;
    fr.xp = x;
    fr.gbase = 0;
    fr.row_empty = 0;
    fr.uinit = p->init.f32;
    fr.fg = fg;
    fr.fem = fem;
    int64_t tags[CF_MAX_SLOTS];
    const float *vals[CF_MAX_SLOTS];
    const int32_t *poss[CF_MAX_SLOTS];

    int64_t chunk = (CF_SLOT_FLOATS / nslots - VW) / VW * VW;
    if (chunk > CF_FT_CAP)
        chunk = CF_FT_CAP;
    if (g.wmode == CF_W_S1_LOG && chunk > CF_TCAP - g.k - 3 * VW)
        chunk = (CF_TCAP - g.k - 3 * VW) / VW * VW;
    if (chunk < VW)
        chunk = VW; /* the log pass falls back to wgroups when it does not fit */
    const int64_t chs = chunk + VW; /* slot stride: room for the last group's overrun */
    /* line -> slot: power-of-two residues; streaming: slot 0 for every line */
    const int streaming = g.streaming;
    const int64_t m0 = streaming ? 0 : g.s0 - 1, m1 = streaming ? 0 : g.s1 - 1, sm = streaming ? 0 : g.s1;

    for (int64_t t = t0; t < t1; ++t) {
        const int64_t plane = t / g.nb, blk = t % g.nb;
        const int64_t rb = blk * g.rows / g.nb, re = (blk + 1) * g.rows / g.nb;
        const float *xp = x + plane * p->in_spatial;
        float *yp = y + plane * p->out_spatial;
        char *ip = wi ? (char *)ind + plane * p->out_spatial * isz : NULL;
        const int64_t base = (plane / p->c) * p->idx_n + (plane % p->c) * p->idx_c;
        for (int64_t c0 = 0; c0 < outw; c0 += chunk) {
            const int64_t c1 = c0 + chunk < outw ? c0 + chunk : outw;
            const int64_t ncols = c1 - c0, ncp = (ncols + VW - 1) / VW * VW;
            for (int64_t s = 0; s < nslots; ++s)
                tags[s] = -1;
            if (wi && first_tap == 1) {
                for (int64_t i = 0; i < ncols; ++i)
                    ft[i] = (int32_t)g.aw.start[c0 + i];
                for (int64_t i = ncols; i < ncp; ++i)
                    ft[i] = 0;
            }
            if (fe) {
                for (int64_t i = 0; i < ncols; ++i) {
                    const int empty = g.aw.count[c0 + i] == 0;
                    fg[i] = empty ? 0 : (int32_t)g.aw.start[c0 + i];
                    fem[i] = -empty;
                }
                for (int64_t i = ncols; i < ncp; ++i)
                    fg[i] = fem[i] = 0;
            }
            int64_t o0 = rb / out1, o1 = rb % out1;
            for (int64_t r = rb; r < re; ++r, ++o1 == out1 ? (o1 = 0, ++o0) : 0) {
                const int64_t st0 = g.a0.start[o0], cn0 = g.a0.count[o0];
                const int64_t st1 = g.a1.start[o1], cn1 = g.a1.count[o1];
                const int32_t rowbase = (int32_t)((st0 * in1 + st1) * inw);
                float *yo = yp + r * outw + c0;
                void *io = wi ? ip + (r * outw + c0) * isz : NULL;
                if (fe) {
                    fr.xp = xp;
                    fr.gbase = rowbase;
                    fr.row_empty = cn0 == 0 || cn1 == 0;
                }
                /* one W-pass call site for both modes (build cost: a second inlined copy for the
                 * streaming mode doubled the file's compile time); streaming: every line in slot 0,
                 * each folded at once into the running max in slot 1 */
                if (streaming)
                    for (int64_t i = 0; i < ncp; ++i) {
                        sval[chs + i] = init;
                        spos[chs + i] = -1;
                    }
                int nl = 0;
                for (int64_t j0 = 0; j0 < cn0; ++j0) {
                    const int64_t dd = st0 + j0 * g.a0.step;
                    for (int64_t j1 = 0; j1 < cn1; ++j1) {
                        const int64_t hh = st1 + j1 * g.a1.step;
                        const int64_t line = dd * in1 + hh;
                        const int64_t slot = (dd & m0) * sm + (hh & m1);
                        float *sv = sval + slot * chs;
                        int32_t *sp = spos + slot * chs;
                        if (tags[slot] != line) {
                            KFN(wpass)(&g, xp + line * inw, (int32_t)(line * inw), c0, c1, ncp, sv, sp, init, lbuf,
                                       lpos, prop, wi);
                            tags[slot] = line;
                        }
                        vals[nl] = sv;
                        poss[nl] = sp;
                        ++nl;
                        if (streaming) {
                            const float *v2[2] = {sval + chs, sval}; /* (sv, sp: slot 0) */
                            const int32_t *p2[2] = {spos + chs, spos};
                            KFN(hcomb)(2, v2, p2, ncp, init, NULL, NULL, sval + chs, spos + chs, 0, 0, NULL, 0, &fr,
                                       prop, wi, CF_OUT_RAW, fe);
                            nl = 0;
                        }
                    }
                }
                if (streaming) { /* the running max is the one line left */
                    vals[0] = sval + chs;
                    poss[0] = spos + chs;
                    nl = 1;
                }
                if (nl == 3) /* constant line counts unroll the column loop */
                    KFN(hcomb)(3, vals, poss, ncols, init, yo, io, NULL, NULL, base, rowbase, ft, first_tap, &fr, prop,
                               wi, ok, fe);
                else if (nl == 2)
                    KFN(hcomb)(2, vals, poss, ncols, init, yo, io, NULL, NULL, base, rowbase, ft, first_tap, &fr, prop,
                               wi, ok, fe);
                else if (nl == 1)
                    KFN(hcomb)(1, vals, poss, ncols, init, yo, io, NULL, NULL, base, rowbase, ft, first_tap, &fr, prop,
                               wi, ok, fe);
                else
                    KFN(hcomb)(nl, vals, poss, ncols, init, yo, io, NULL, NULL, base, rowbase, ft, first_tap, &fr,
                               prop, wi, ok, fe);
            }
        }
    }
}

#include "f32_run_switch_impl.h"
