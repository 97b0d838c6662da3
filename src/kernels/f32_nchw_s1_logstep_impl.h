/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Channels-first f32 max pooling, spatial rank 2, fixed windows with stride 1
 * and dilation 1 on both axes (kernel sizes may differ per axis): log-step
 * running max along W, then along H, so the work per output does not grow
 * with the kernel size (about log2(k_w) + log2(k_h) + 2 vector combines per
 * output vector). Included by f32_nchw_s1_logstep_<isa>.c after a
 * simd_f32_<isa>.h vocabulary and with KPREFIX set.
 *
 * Work unit: a strip of output rows x a chunk of output columns of one
 * plane (order: plane, strip, chunk). (1) W pass: each input row the strip
 * needs, once: a copy of the row's span padded with the start value (the
 * leaves, each comb(start, x)), one row after the other at stride Ls in the
 * strip buffer; then in place over all rows at once (flat loops: entries
 * past a row's valid part mix two rows and are never used)
 * T_2P[i] = comb(T_P[i], T_P[i+P]) (covers [i, i+2P)), and the row result
 * for column o = comb(T_P[o], T_P[o+k_w-P]) with P the largest power of two
 * <= k_w. (2) H pass over those row results, in place in the strip buffer:
 * the same T_2P rows = comb(T_P rows i, i+P). An output
 * row whose window holds c input rows [a, a+c) (c < k_h at the borders) is
 * written as comb(T_P row a, T_P row a+c-P), P the largest power of two
 * <= c, right after level P is built (before it is overwritten by level
 * 2P). So border rows need no padding rows at all.
 *
 * Why this is bit-exact with the reference's row-major scan (best starts at
 * the start value; x replaces best when x > best, or, with NaN propagation,
 * when x is NaN), where comb(A, B) = "B replaces A by that rule", A's result
 * first:
 *  - comb of two ranges A, B of one ordered sequence (W: columns of a row;
 *    H: row results, in row order), A starting first, B ending last, A u B
 *    the window, overlapping or adjacent, gives the scan's result over
 *    A u B. Without NaN the scan keeps the first element of the maximum M if
 *    M > start: if that element is in A, A holds it and B's best (<= M)
 *    cannot replace it (strict >); otherwise A's best < M, and B's first
 *    maximum is the window's (A covers every element before B's part outside
 *    A). With propagation: if B holds a NaN its last NaN is the window's
 *    last; else A's last NaN is (it lies outside B). Under NaN ignore no NaN
 *    ever enters a result: the leaves are comb(start, x). A result with no
 *    position (start value) never replaces anything, and every element <=
 *    start leaves as (start, no position), as in the scan.
 *  - W first, then H: the scan is row-major, i.e. the rows of the window in
 *    order, each row's part left to right. A row result is the scan of that
 *    row's part; the H pass scans row results with the same rule in row
 *    order: the first row holding M, in it the first M (its bits, -0.0 vs
 *    +0.0, and its position); with propagation the last row holding a NaN,
 *    in it the last NaN. The same element, so values (bits) and positions
 *    agree, with or without indices.
 *  - Padding never wins: leaves outside [0, in) are (start, no position),
 *    and rows outside the input are never combined (clipped windows).
 * Windows with no input element (count 0 on an axis) write the empty value
 * and the empty index.
 *
 * First-element start (MAXPOOL_INIT_FIRST_ELEMENT): as in
 * f32_nchw_rows_impl.h (see its proof): the passes run from -inf, and the
 * output takes (e00, its position) where the result has no position, or
 * (NaN ignored) where e00 is NaN; e00 is the window's first tap (row
 * start_h, column start_w).
 *
 * Memory: every buffer is on the task's stack (about 45 KiB); nothing is
 * allocated or shared. Outputs of 4 MiB and more (per task range) are
 * written with non-temporal stores (fenced before the task returns). The strip buffer holds positions (int32) after the
 * values when indices are asked for; it is only ever accessed through the
 * vector load/store intrinsics, whose pointer types may alias anything.
 */
#include "f32_nchw_s1_logstep_geom.h"

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

#include "f32_update_impl.h"

/* Non-temporal value stores and the fence after them: the vocabulary's
 * VF_STREAM / VF_SFENCE where it has them (NEON: plain stores, no fence),
 * else the x86 streaming stores and sfence. */
#if defined(VF_STREAM)
#define LS_STREAM(p, v) VF_STREAM((p), (v))
#define LS_SFENCE() VF_SFENCE()
#else
#include <immintrin.h>
#if VW == 16
#define LS_STREAM(p, v) _mm512_stream_ps((p), (v))
#elif VW == 8
#define LS_STREAM(p, v) _mm256_stream_ps((p), (v))
#else
#define LS_STREAM(p, v) _mm_stream_ps((p), (v))
#endif
#define LS_SFENCE() _mm_sfence()
#endif
/* Outputs of at least this many bytes go out with non-temporal stores: they
 * do not fit the caches anyway, and plain stores would read every output line
 * first. */
#define LS_NT_MIN_BYTES (4 << 20)

/* d[j] = comb(a[j], b[j]) for j < n rounded up to VW. d may be a (in-place
 * levels): the store of [j, j+VW) precedes only reads at >= j+VW of a and b
 * when b > a. */
CF_AI void KFN(comb_range)(float *dv, int32_t *dp, const float *av, const int32_t *ap, const float *bv,
                           const int32_t *bp, int64_t n, const int prop, const int wi)
{
    const VI vneg = VI_SET1(-1);
#pragma GCC unroll 4
    for (int64_t j = 0; j < n; j += VW) {
        VF a = VF_LOAD(av + j);
        VI ai = wi ? VI_LOAD(ap + j) : vneg;
        KFN(update)(&a, &ai, VF_LOAD(bv + j), wi ? VI_LOAD(bp + j) : vneg, prop, wi);
        VF_STORE(dv + j, a);
        if (wi)
            VI_STORE(dp + j, ai);
    }
}

/* One vector of leaves: comb(start, x). */
CF_AI void KFN(leaf)(const float *xs, float *tv, int32_t *tp, VI pos, VF vinit, const int prop, const int wi)
{
    VF best = vinit;
    VI bi = VI_SET1(-1);
    KFN(update)(&best, &bi, VF_LOAD(xs), pos, prop, wi);
    VF_STORE(tv, best);
    if (wi)
        VI_STORE(tp, bi);
}

/* Leaves of one input row xr (in-plane offset loff of its element 0) for
 * the W pass: tv/tp[i] for i < Ls is input column u0 + i as comb(start, x),
 * or (start, no position) outside [0, W). Stores may run up to VW - 1 past
 * Ls (into the next row, written afterwards, or the slack row). */
CF_AI void KFN(wleaves)(const float *xr, int64_t W, int64_t u0, int64_t Ls, int32_t loff, float *tv, int32_t *tp,
                        float init, const int prop, const int wi)
{
    const VF vinit = VF_SET1(init);
    const VI vneg = VI_SET1(-1);
    int64_t va = u0 < 0 ? -u0 : 0, vb = W - u0; /* [va, vb): leaves inside the row */
    if (va > Ls)
        va = Ls;
    if (vb > Ls)
        vb = Ls;
    if (vb < va)
        vb = va;
    for (int64_t i = 0; i < va; i += VW) {
        VF_STORE(tv + i, vinit);
        if (wi)
            VI_STORE(tp + i, vneg);
    }
    if (vb - va >= VW) {
        const VI pv = VI_ADD(VI_SET1(loff + (int32_t)u0), VI_IOTA);
        int64_t i = va;
#pragma GCC unroll 2
        for (; i + VW <= vb; i += VW)
            KFN(leaf)(xr + u0 + i, tv + i, tp + i, VI_ADD(pv, VI_SET1((int32_t)i)), vinit, prop, wi);
        if (i < vb) /* last group overlaps the previous one: same leaves */
            KFN(leaf)(xr + vb - VW + u0, tv + vb - VW, tp + vb - VW, VI_ADD(pv, VI_SET1((int32_t)(vb - VW))), vinit,
                      prop, wi);
    } else {
        for (int64_t i = va; i < vb; ++i) {
            const float e = xr[u0 + i];
            const int win = e > init || (prop && e != e);
            tv[i] = win ? e : init;
            if (wi) {
                const int32_t q = win ? loff + (int32_t)(u0 + i) : -1;
                memcpy(tp + i, &q, sizeof q); /* tp lies in float storage */
            }
        }
    }
    for (int64_t i = vb; i < Ls; i += VW) {
        VF_STORE(tv + i, vinit);
        if (wi)
            VI_STORE(tp + i, vneg);
    }
}

/* VAL/I32/I64 are the index kinds 0/1/2 of f32_run_switch_impl.h */
enum { LS_OUT_VAL = 0, LS_OUT_I32 = 1, LS_OUT_I64 = 2 };

/* What the output pass needs for one chunk and output row. */
typedef struct KFN(out_ctx) {
    const float *xp;    /* the plane */
    int32_t gbase;      /* in-plane offset of the output row's first window row (start_h * W) */
    float uinit;        /* the empty value */
    int64_t c0, pbw, W; /* chunk start, W pad, W size: e00 contiguous for columns pbw <= o, o + VW <= W + pbw */
    const int32_t *ft;  /* [column] first tap on W (aw.start), for the first-tap empty index */
    const int32_t *fg;  /* [column] first tap of the window (0 for empty columns) */
    const int32_t *fem; /* [column] -1 where the column window is empty, else 0 */
    int first_tap;      /* empty index: 0 = -1, 1 = first tap, 2 = plane start */
    int64_t base;       /* plane's index offset n*idx_n + c*idx_c */
    int nt;             /* non-temporal value stores (big outputs) */
} KFN(out_ctx);

/* One output vector (columns i .. i+n-1 of the chunk, n <= VW) of an output
 * row: comb(A, B) per column, or the empty window when empty; first-element
 * fix-ups; indices. */
CF_AI void KFN(emit_vec)(int64_t i, const int64_t n, const float *av, const int32_t *ap, const float *bv,
                         const int32_t *bp, const int empty, float *yo, void *io, int32_t rowbase,
                         const KFN(out_ctx) * oc, const int prop, const int wi, const int ok, const int fe,
                         const int nt)
{
    const VI vneg = VI_SET1(-1);
    VF best;
    VI bi = vneg;
    if (empty) {
        best = VF_SET1(oc->uinit);
    } else {
        best = VF_LOAD(av + i);
        if (wi)
            bi = VI_LOAD(ap + i);
        KFN(update)(&best, &bi, VF_LOAD(bv + i), wi ? VI_LOAD(bp + i) : vneg, prop, wi);
        if (fe) {
            if (wi || !prop) {
                const int64_t o = oc->c0 + i;
                VF e;
                VI gi;
                if (o >= oc->pbw && o + VW <= oc->W + oc->pbw) { /* start_w = o - pbw, all inside */
                    const int32_t g0 = oc->gbase + (int32_t)(o - oc->pbw);
                    e = VF_LOAD(oc->xp + g0);
                    gi = VI_ADD(VI_SET1(g0), VI_IOTA);
                } else {
                    gi = VI_ADD(VI_LOAD(oc->fg + i), VI_SET1(oc->gbase));
                    e = VF_GATHER(oc->xp, gi);
                }
                KFN(fe_fix)(&best, &bi, e, gi, prop, wi);
            }
            const VF em = VI_ASF(VI_LOAD(oc->fem + i));
            best = VF_BLEND(best, VF_SET1(oc->uinit), em);
            if (wi)
                bi = VI_BLEND(bi, vneg, em);
        }
    }
    if (n == VW && nt)
        LS_STREAM(yo + i, best); /* yo + i is VW-float aligned (emit) */
    else if (n == VW)
        VF_STORE(yo + i, best);
    else
        VF_MASKSTORE(yo + i, n, best);
    if (!wi)
        return;
    VI t = bi;
    if (oc->first_tap == 1)
        t = VI_BLEND_IM(t, VI_ADD(VI_LOAD(oc->ft + i), VI_SET1(rowbase)), VI_SIGN(t));
    else if (oc->first_tap == 2)
        t = VI_BLEND_IM(t, VI_SET1(0), VI_SIGN(t));
    KFN(store_index)((char *)io + i * (ok == LS_OUT_I64 ? 8 : 4), t, oc->base, !oc->first_tap, n, ok);
}

/* Writes one output row (ncols columns of the chunk): full vectors, then the
 * tail; non-temporal value stores when oc->nt and the row start is aligned. */
CF_AI void KFN(emit)(const float *av, const int32_t *ap, const float *bv, const int32_t *bp, const int empty,
                     int64_t ncols, float *yo, void *io, int32_t rowbase, const KFN(out_ctx) * oc, const int prop,
                     const int wi, const int ok, const int fe)
{
    int64_t i = 0;
    if (oc->nt && ((uintptr_t)(void *)yo & (VW * sizeof(float) - 1)) == 0) {
#pragma GCC unroll 2
        for (; i + VW <= ncols; i += VW)
            KFN(emit_vec)(i, VW, av, ap, bv, bp, empty, yo, io, rowbase, oc, prop, wi, ok, fe, 1);
    } else {
#pragma GCC unroll 2
        for (; i + VW <= ncols; i += VW)
            KFN(emit_vec)(i, VW, av, ap, bv, bp, empty, yo, io, rowbase, oc, prop, wi, ok, fe, 0);
    }
    if (i < ncols)
        KFN(emit_vec)(i, ncols - i, av, ap, bv, bp, empty, yo, io, rowbase, oc, prop, wi, ok, fe, 0);
}

CF_AI void KFN(run_impl)(const struct maxpool_plan *p, const float *x, float *y, void *ind, int64_t t0, int64_t t1,
                         const int prop, const int ok, const int fe)
{
    const int wi = ok != LS_OUT_VAL;
    const maxpool_axis *ah = &p->axis[0], *aw = &p->axis[1];
    const int64_t W = aw->in, OH = ah->out, OW = aw->out;
    const int64_t kh = ah->kernel, kw = aw->kernel, pbw = aw->pad_begin;
    const float init = fe ? -INFINITY : p->init.f32; /* start value of the passes */
    const int64_t planes = p->n * p->c, nb = cf_blocks(planes, OH);
    const int64_t isz = ok == LS_OUT_I64 ? 8 : 4;

    alignas(KALIGN) float strip[LS_BUF_FLOATS];
    alignas(KALIGN) int32_t ft[LS_CHUNK + 16];
    alignas(KALIGN) int32_t fg[LS_CHUNK + 16];
    alignas(KALIGN) int32_t fem[LS_CHUNK + 16];
    /* The strip's output rows by H level (bucket 0: empty windows, bucket l+1: rows whose window
     * count has largest power of two 2^l), kept while consecutive strips have the same rows. */
    int16_t elist[LS_STRIP_ROWS];
    int64_t lbeg[LS_LEVELS + 3]; /* bucket j: elist[lbeg[j] .. lbeg[j+1]) */
    int64_t cq0 = -1, cq1 = -1, lo = -1, hi = 0;
    int maxl = 0;

    /* Strip: up to nrcap input rows of Ls floats (the W span of a chunk of
     * output columns, rounded up to VW), then one slack row that the flat
     * level loops may read. It should stay in L1 (LS_L1_FLOATS per array)
     * with enough rows (about 4 k_h) that the k_h - 1 rows read again by the
     * next strip cost little; columns are cut into even chunks for that. */
    const int64_t cap = wi ? LS_BUF_FLOATS / 2 : LS_BUF_FLOATS;
    const int64_t l1 = wi ? LS_L1_FLOATS / 2 : LS_L1_FLOATS;
    float *const sv = strip;
    int32_t *const sp = (int32_t *)(void *)(wi ? strip + cap : strip); /* vector access only (see top) */
    const int64_t H = ah->in, owp = (OW + VW - 1) / VW * VW;
    const int64_t need = (H < kh ? H : kh) + 1; /* rows: one output row a strip, and the slack row */
    int64_t rows_t = 4 * kh < kh + 16 ? kh + 16 : 4 * kh; /* wanted strip rows */
    if (rows_t > H)
        rows_t = H;
    if (rows_t < need)
        rows_t = need;
    int64_t cmax = (l1 / (rows_t + 1) - (kw - 1)) / VW * VW;
    if (cmax < 4 * VW)
        cmax = 4 * VW;
    const int64_t cfit = (cap / (need + 1) - (kw - 1) - VW) / VW * VW; /* >= VW by ls_match */
    if (cmax > cfit)
        cmax = cfit;
    if (cmax > LS_CHUNK)
        cmax = LS_CHUNK;
    const int64_t nchunks = (owp + cmax - 1) / cmax;
    const int64_t chunk = ((OW + nchunks - 1) / nchunks + VW - 1) / VW * VW;
    /* row span: chunk + kw - 1 leaves (one chunk: OW + kw - 1; the tail lanes of the
     * last output vector then read entries past the row's valid part: never stored) */
    const int64_t Ls = ((nchunks == 1 ? OW : chunk) + kw - 1 + VW - 1) / VW * VW;
    int64_t nrcap = l1 / Ls - 1;
    if (nrcap < rows_t)
        nrcap = rows_t;
    if (nrcap > cap / Ls - 1)
        nrcap = cap / Ls - 1;
    /* output rows a strip: its input rows number at most min(H, rows + kh - 1) */
    int64_t rstep = nrcap >= H ? OH : nrcap - (kh - 1);
    if (rstep > LS_STRIP_ROWS)
        rstep = LS_STRIP_ROWS;
    int P0 = 0; /* log2 of the largest power of two <= kw */
    while ((int64_t)2 << P0 <= kw)
        ++P0;
    const VF vinit = VF_SET1(init);
    const VI vneg = VI_SET1(-1);

    KFN(out_ctx) oc;
    oc.uinit = p->init.f32;
    oc.nt = (t1 - t0) * (p->out_spatial / nb) * (int64_t)sizeof(float) >= LS_NT_MIN_BYTES;
    oc.pbw = pbw;
    oc.W = W;
    oc.ft = ft;
    oc.fg = fg;
    oc.fem = fem;
    oc.first_tap = p->desc.empty_index == MAXPOOL_EMPTY_INDEX_FIRST_TAP     ? 1
                   : p->desc.empty_index == MAXPOOL_EMPTY_INDEX_PLANE_START ? 2
                                                                            : 0;

    /* Order: plane, strip of output rows, chunk of columns: a strip's input
     * rows are read for every chunk while they are in cache, and output
     * rows are completed before the next strip (no half-written lines left
     * to be fetched again). */
    int64_t tab_c0 = -1; /* chunk whose column tables ft/fg/fem are filled */
    for (int64_t t = t0; t < t1; ++t) {
        const int64_t plane = t / nb, blk = t % nb;
        const int64_t rb = blk * OH / nb, re = (blk + 1) * OH / nb;
        const float *xp = x + plane * p->in_spatial;
        float *yp = y + plane * p->out_spatial;
        char *ip = wi ? (char *)ind + plane * p->out_spatial * isz : NULL;
        oc.xp = xp;
        oc.base = (plane / p->c) * p->idx_n + (plane % p->c) * p->idx_c;
        for (int64_t q0 = rb; q0 < re; q0 += rstep) {
            const int64_t q1 = q0 + rstep < re ? q0 + rstep : re;
            if (q0 != cq0 || q1 != cq1) {
                /* input rows [lo, hi) of the strip's windows (stride 1: starts and ends grow with o) */
                int64_t cnt[LS_LEVELS + 2] = {0};
                cq0 = q0;
                cq1 = q1;
                lo = -1;
                hi = 0;
                maxl = 0;
                for (int64_t o = q0; o < q1; ++o) {
                    const int64_t c = ah->count[o];
                    int l = -1;
                    if (c > 0) {
                        if (lo < 0)
                            lo = ah->start[o];
                        hi = ah->start[o] + c;
                        l = 63 - __builtin_clzll((unsigned long long)c);
                        if (l > maxl)
                            maxl = l;
                    }
                    ++cnt[l + 1];
                }
                lbeg[0] = 0;
                for (int j = 0; j < LS_LEVELS + 2; ++j)
                    lbeg[j + 1] = lbeg[j] + cnt[j];
                for (int j = 0; j < LS_LEVELS + 2; ++j)
                    cnt[j] = lbeg[j];
                for (int64_t o = q0; o < q1; ++o) {
                    const int64_t c = ah->count[o];
                    const int l = c > 0 ? 63 - __builtin_clzll((unsigned long long)c) : -1;
                    elist[cnt[l + 1]++] = (int16_t)(o - q0);
                }
            }
            for (int64_t c0 = 0; c0 < OW; c0 += chunk) {
                const int64_t c1 = c0 + chunk < OW ? c0 + chunk : OW;
                const int64_t ncols = c1 - c0, ncp = (ncols + VW - 1) / VW * VW;
                const int64_t u0 = c0 - pbw; /* input column of column c0's first tap */
                oc.c0 = c0;
                if (tab_c0 != c0 && (fe || (wi && oc.first_tap == 1))) {
                    tab_c0 = c0;
                    if (wi && oc.first_tap == 1) {
                        for (int64_t i = 0; i < ncols; ++i)
                            ft[i] = (int32_t)aw->start[c0 + i];
                        for (int64_t i = ncols; i < ncp; ++i)
                            ft[i] = 0;
                    }
                    if (fe) {
                        for (int64_t i = 0; i < ncols; ++i) {
                            const int empty = aw->count[c0 + i] == 0;
                            fg[i] = empty ? 0 : (int32_t)aw->start[c0 + i];
                            fem[i] = -empty;
                        }
                        for (int64_t i = ncols; i < ncp; ++i)
                            fg[i] = fem[i] = 0;
                    }
                }
                const int64_t nrows = lo < 0 ? 0 : hi - lo;
                /* W pass, every row at once: leaves, then flat in-place level loops over
                 * the rows (entries past a row's valid part mix rows: never used) */
                for (int64_t r = 0; r < nrows; ++r)
                    KFN(wleaves)(xp + (lo + r) * W, W, u0, Ls, (int32_t)((lo + r) * W), sv + r * Ls, sp + r * Ls,
                                 init, prop, wi);
                const int64_t n = nrows * Ls;
                for (int64_t i = n; i < n + Ls; i += VW) { /* slack row */
                    VF_STORE(sv + i, vinit);
                    if (wi)
                        VI_STORE(sp + i, vneg);
                }
                for (int64_t P = 1; P < ((int64_t)1 << P0); P *= 2)
                    KFN(comb_range)(sv, sp, sv, sp, sv + P, sp + P, n, prop, wi);
                {
                    const int64_t P = (int64_t)1 << P0;
                    if (kw != P)
                        KFN(comb_range)(sv, sp, sv, sp, sv + (kw - P), sp + (kw - P), n, prop, wi);
                }
                /* H pass: level P built, then the rows whose window count has largest power of two P */
                for (int64_t e = lbeg[0]; e < lbeg[1]; ++e) { /* empty windows */
                    const int64_t o = q0 + elist[e];
                    KFN(emit)(NULL, NULL, NULL, NULL, 1, ncols, yp + o * OW + c0,
                              wi ? ip + (o * OW + c0) * isz : NULL, (int32_t)(ah->start[o] * W), &oc, prop, wi, ok,
                              fe);
                }
                for (int l = 0;; ++l) {
                    for (int64_t e = lbeg[l + 1]; e < lbeg[l + 2]; ++e) {
                        const int64_t o = q0 + elist[e];
                        const int32_t rowbase = (int32_t)(ah->start[o] * W);
                        const int64_t a = ah->start[o] - lo, b = a + ah->count[o] - ((int64_t)1 << l);
                        oc.gbase = rowbase;
                        KFN(emit)(sv + a * Ls, sp + a * Ls, sv + b * Ls, sp + b * Ls, 0, ncols, yp + o * OW + c0,
                                  wi ? ip + (o * OW + c0) * isz : NULL, rowbase, &oc, prop, wi, ok, fe);
                    }
                    if (l >= maxl)
                        break;
                    const int64_t P = (int64_t)1 << l;
                    KFN(comb_range)(sv, sp, sv, sp, sv + P * Ls, sp + P * Ls, (nrows - 2 * P + 1) * Ls, prop, wi);
                }
            }
        }
    }
    if (oc.nt)
        LS_SFENCE(); /* the streamed outputs are visible before the task returns */
}

#include "f32_run_switch_impl.h"
