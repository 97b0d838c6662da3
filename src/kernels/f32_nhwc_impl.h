/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Channels-last (NWC, NHWC, NDHWC) f32 max pooling, spatial rank 1..3, fixed
 * or adaptive windows, with or without indices: vectorised over channels.
 * Included by f32_nhwc_<isa>.c after a simd_f32_<isa>.h vocabulary, with
 * KPREFIX set.
 *
 * Every tap of a window reads the same channel vector, so a window is its
 * taps in row-major order, each a vector load and an update of the running
 * max (x > best, or x is NaN with propagation): exactly the reference's scan,
 * lane by lane. Windows come from the canonical start/count arrays, so
 * padding is never read and every rounding, pad and adaptive mode is the
 * same code. Channels go in blocks of 8 (values only) or 4 vectors, then
 * single vectors, then a masked tail. One task is one output row (n, od, oh)
 * of every channel.
 *
 * Values only with the empty-value start (the common inference case), for
 * windows 2 or 3 taps wide along W: the window's row offsets are computed
 * once per output row (KFN(px)), so a tap is a load at row base +
 * loop-invariant index + constant and an update, and runs of 3-wide
 * windows with whole blocks of 8 vectors loop on their own (KFN(pxrun)).
 * The scan is the same. Rank 2 with H windows that overlap by one row
 * (k3 s2) goes W first instead, keeping the shared row's W partials in a
 * line buffer (f32_nhwc_wfirst_impl.h).
 *
 * First-element start (MAXPOOL_INIT_FIRST_ELEMENT): the reference takes the
 * window's first tap unconditionally, then scans on with the same rule. Here
 * best starts as that tap (value and position) and the scan then runs over
 * every tap, the first included: the first tap against itself changes
 * nothing (x > x is false; a NaN x replaces itself with its own bits and
 * position), so this is the reference's scan. An empty window keeps (empty
 * value, no position). Empty-window indices: -1, the first tap, or the plane
 * start (n*idx_n + c*idx_c: the first-tap form with offset 0).
 */
#include "../plan.h"

#include <stdalign.h>
#include <stdint.h>

#define KCAT_(a, b) a##b
#define KCAT(a, b) KCAT_(a, b)
#define KFN(n) KCAT(KPREFIX, n)
#ifndef CF_AI
#include "force_inline.h"
#define CF_AI MAXPOOL_AI
#endif

#include "f32_update_impl.h"

#define KFN_MAX_ROWS 16 /* input rows of a window on the fast path (KFN(px)) */
#define KFN_WBUF 8192   /* floats in the W-first path's line buffer: OW*C at most */

typedef struct KFN(win) {
    int64_t st[3], cn[3], step[3];
    int64_t in1, in2; /* H, W (1 when absent) */
} KFN(win);

/* Stores the index lanes of channels [c, c+n): base + c*idx_c + s, or the
 * empty-window index where s < 0. */
CF_AI void KFN(store_idx)(const struct maxpool_plan *p, void *ind, int64_t off, VI bi, int64_t n, int64_t base,
                          int64_t c, int32_t ft, int first_tap, const int ik)
{
    /* first_tap: empty windows get base + c*idx_c + ft (ft = 0: plane start) */
    if (first_tap)
        bi = VI_BLEND_IM(bi, VI_SET1(ft), VI_SIGN(bi));
    const int64_t idx_c = p->idx_c;
    if (idx_c == 0) {
        KFN(store_index)((char *)ind + off * (ik == 2 ? 8 : 4), bi, base, !first_tap, n, ik);
        return;
    }
    alignas(KALIGN) int32_t t[VW];
    VI_STORE(t, bi);
    for (int64_t q = 0; q < n; ++q) {
        const int64_t v = t[q] < 0 ? -1 : base + (c + q) * idx_c + t[q]; /* t[q] >= 0 under first_tap */
        if (ik == 1)
            ((int32_t *)ind)[off + q] = (int32_t)v;
        else
            ((int64_t *)ind)[off + q] = v;
    }
}

/* Positions with indices (KFN_PB 1: where the vocabulary has
 * VI_MAXU_MASKED, avx2): a lane holds 1 + the position of the tap that
 * last replaced its best (0: none yet), kept by an unsigned max instead of
 * a blend: the taps' positions grow along the row-major scan (every step
 * is positive), so the last tap that replaced best is the one of the
 * largest position among those that did. With NaN ignored the value is
 * max_ps's (x > best ? x : best): a max, a compare, an and and an unsigned
 * max per tap and vector instead of a compare and two vblendvps (2-3 uops
 * each on Intel). Positions + 1 fit: in_spatial <= INT32_MAX (the match). */
#ifdef VI_MAXU_MASKED
#define KFN_PB 1
#else
#define KFN_PB 0
#endif

/* One tap (at q, position si: s, or s + 1 where KFN_PB) of NB channel
 * vectors: load and update. */
CF_AI void KFN(tap)(VF *best, VI *bi, const float *q, VI si, int64_t n, const int NB, const int tail,
                    const int prop, const int wi)
{
#pragma GCC unroll 8 /* -O2 kept best[] of 8 vectors in memory: a store and a reload per tap and vector */
    for (int v = 0; v < NB; ++v) {
        const VF x = tail ? VF_MASKLOAD(q + v * VW, n) : VF_LOAD(q + v * VW);
#if KFN_PB
        if (wi) {
            VF m = VF_GT(x, best[v]);
            if (prop) {
                m = VF_MOR(m, VF_ISNAN(x));
                best[v] = VF_BLEND(best[v], x, m);
            } else {
                best[v] = VF_SEL_GT(x, best[v]);
            }
            bi[v] = VI_MAXU_MASKED(bi[v], m, si);
            continue;
        }
#endif
        KFN(update)(&best[v], &bi[v], x, si, prop, wi);
    }
}

/* NB vectors of channels from c (n lanes valid in the last one when tail).
 * NB is 8 (values only), 4 or 1: the taps' loads and updates at fixed
 * offsets from one pointer, so the per-tap loop cost is shared by NB
 * vectors; a row of 3 taps (the common window width) is unrolled. */
CF_AI void KFN(block)(const struct maxpool_plan *p, const KFN(win) * w, const float *xn, float *yo, void *ind,
                      int64_t ooff, int64_t c, int64_t n, int64_t base, float init, int first_tap, int32_t eft,
                      const int NB, const int tail, const int prop, const int ik, const int fe)
{
    const int wi = ik != 0;
    const int64_t C = p->c;
    VF best[8];
    VI bi[8];
    if (fe && w->cn[0] > 0 && w->cn[1] > 0 && w->cn[2] > 0) { /* start at the first tap */
        const int64_t s = (w->st[0] * w->in1 + w->st[1]) * w->in2 + w->st[2];
        const float *q = xn + s * C + c;
        for (int v = 0; v < NB; ++v) {
            best[v] = tail ? VF_MASKLOAD(q + v * VW, n) : VF_LOAD(q + v * VW);
            bi[v] = VI_SET1((int32_t)(s + (wi && KFN_PB)));
        }
    } else {
#pragma GCC unroll 8
        for (int v = 0; v < NB; ++v) {
            best[v] = VF_SET1(init);
            bi[v] = VI_SET1(wi && KFN_PB ? 0 : -1);
        }
    }
    const int64_t s2 = w->step[2], q2 = s2 * C;
    const VI sv2 = VI_SET1((int32_t)s2);
    for (int64_t j0 = 0; j0 < w->cn[0]; ++j0) {
        const int64_t d = w->st[0] + j0 * w->step[0];
        for (int64_t j1 = 0; j1 < w->cn[1]; ++j1) {
            const int64_t h = w->st[1] + j1 * w->step[1];
            const int64_t s = (d * w->in1 + h) * w->in2 + w->st[2];
            const float *q = xn + s * C + c;
            VI si = VI_SET1((int32_t)(s + (wi && KFN_PB))); /* (the line's taps: pointer and position stepped) */
            if (w->cn[2] == 3) {
                const VI s1 = VI_ADD(si, sv2);
                KFN(tap)(best, bi, q, si, n, NB, tail, prop, wi);
                KFN(tap)(best, bi, q + q2, s1, n, NB, tail, prop, wi);
                KFN(tap)(best, bi, q + 2 * q2, VI_ADD(s1, sv2), n, NB, tail, prop, wi);
            } else {
                uintptr_t qa = (uintptr_t)q; /* (an integer: the step past the last tap is no pointer) */
                for (int64_t j2 = 0; j2 < w->cn[2]; ++j2, qa += (uintptr_t)q2 * sizeof(float), si = VI_ADD(si, sv2))
                    KFN(tap)(best, bi, (const float *)qa, si, n, NB, tail, prop, wi);
            }
        }
    }
    const int32_t ft = eft < 0 ? (int32_t)((w->st[0] * w->in1 + w->st[1]) * w->in2 + w->st[2]) : eft;
#pragma GCC unroll 8
    for (int v = 0; v < NB; ++v) {
        if (tail)
            VF_MASKSTORE(yo + c + v * VW, n, best[v]);
        else
            VF_STORE(yo + c + v * VW, best[v]);
        if (wi) /* (KFN_PB: positions + 1, none 0 -> -1) */
            KFN(store_idx)(p, ind, ooff + c + v * VW, KFN_PB ? VI_ADD(bi[v], VI_SET1(-1)) : bi[v], tail ? n : VW, base,
                           c + v * VW, ft, first_tap, ik);
    }
}

/* The values-only fast path (no indices, empty-value start): one output
 * pixel's window of NB channel vectors, its taps at xn + to[r] + off + j*q2
 * for the window's input rows r < R and the KW (2 or 3) taps j of a row
 * (q2: the W step in floats): the same row-major scan as KFN(block), every
 * load an address of a row base, a loop-invariant index (0, q2, 2*q2) and
 * a constant. */
CF_AI void KFN(px)(const float *xn, const int64_t *to, int64_t q2, int64_t R, int64_t off, float *yo, float init,
                   const int NB, const int KW, const int prop)
{
    VF best[8];
    VI bi[8];
    for (int v = 0; v < NB; ++v)
        best[v] = VF_SET1(init);
    const uintptr_t q2b = (uintptr_t)q2 * sizeof(float), q2b2 = 2 * q2b; /* byte steps: base + index addressing */
    xn += off;
#pragma GCC unroll 4
    for (int64_t r = 0; r < R; ++r) {
        const uintptr_t b = (uintptr_t)(xn + to[r]);
        KFN(tap)(best, bi, (const float *)b, VI_SET1(0), VW, NB, 0, prop, 0);
        KFN(tap)(best, bi, (const float *)(b + q2b), VI_SET1(0), VW, NB, 0, prop, 0);
        if (KW == 3)
            KFN(tap)(best, bi, (const float *)(b + q2b2), VI_SET1(0), VW, NB, 0, prop, 0);
    }
    for (int v = 0; v < NB; ++v)
        VF_STORE(yo + v * VW, best[v]);
}

/* A run of n output pixels whose windows are 3 taps wide, the i-th starting
 * at column st2[i], when C is a multiple of 8 vectors: the per-pixel loop
 * stays this small. Not inlined: in its own function the loop keeps its
 * registers (inlined into the run function it carried that function's
 * live vectors through every pixel: 12 register moves a pixel). Windows of
 * 3 rows (2-D k3) have R as a constant. */
CF_AI void KFN(pxrun_r)(const float *xn, const int64_t *to, int64_t q2, const int64_t R, const int64_t *st2,
                        int64_t n, float *yo, float init, int64_t C, const int prop)
{
    for (int64_t i = 0; i < n; ++i, yo += C) {
        const int64_t off = st2[i] * C;
        for (int64_t k = 0; k < C; k += 8 * VW)
            KFN(px)(xn, to, q2, R, off + k, yo + k, init, 8, 3, prop);
    }
}

static __attribute__((noinline)) void KFN(pxrun)(const float *xn, const int64_t *to, int64_t q2, int64_t R,
                                                 const int64_t *st2, int64_t n, float *yo, float init, int64_t C,
                                                 const int prop)
{
    if (R == 3)
        KFN(pxrun_r)(xn, to, q2, 3, st2, n, yo, init, C, prop);
    else
        KFN(pxrun_r)(xn, to, q2, R, st2, n, yo, init, C, prop);
}

#include "f32_nhwc_wfirst_impl.h"

/* The channels [0, C) of an output pixel through KFN(px), but the masked
 * tail, which is left at *c for KFN(block). */
CF_AI void KFN(pxrow)(const float *xn, const int64_t *to, int64_t q2, int64_t R, int64_t off, float *yo, float init,
                      int64_t C, int64_t *c, const int KW, const int prop)
{
    int64_t k = 0;
    for (; k + 8 * VW <= C; k += 8 * VW)
        KFN(px)(xn, to, q2, R, off + k, yo + k, init, 8, KW, prop);
    for (; k + 4 * VW <= C; k += 4 * VW)
        KFN(px)(xn, to, q2, R, off + k, yo + k, init, 4, KW, prop);
    for (; k + VW <= C; k += VW)
        KFN(px)(xn, to, q2, R, off + k, yo + k, init, 1, KW, prop);
    *c = k;
}

CF_AI void KFN(run_impl)(const struct maxpool_plan *p, const float *x, float *y, void *ind, int64_t t0, int64_t t1,
                         const int prop, const int ik, const int fe)
{
    const int r = p->rank;
    const int64_t C = p->c;
    const float init = p->init.f32;
    const int first_tap = p->desc.empty_index != MAXPOOL_EMPTY_INDEX_MINUS_ONE;
    const int32_t eft = p->desc.empty_index == MAXPOOL_EMPTY_INDEX_PLANE_START ? 0 : -1; /* -1: the first tap */
    static const int64_t zero = 0, one = 1;
    const int64_t *st[3], *cn[3];
    int64_t in[3], out[3], step[3];
    for (int i = 0; i < 3; ++i) { /* rank r as rank 3: leading unit axes */
        const int a = i - (3 - r);
        if (a < 0) {
            st[i] = &zero;
            cn[i] = &one;
            in[i] = out[i] = step[i] = 1;
        } else {
            st[i] = p->axis[a].start;
            cn[i] = p->axis[a].count;
            in[i] = p->axis[a].in;
            out[i] = p->axis[a].out;
            step[i] = p->axis[a].step;
        }
    }
    KFN(win) w;
    w.in1 = in[1];
    w.in2 = in[2];
    for (int i = 0; i < 3; ++i)
        w.step[i] = step[i];
    const int64_t rows = out[0] * out[1];
    /* W first (f32_nhwc_wfirst_impl.h): rank 2, values only, whole vectors,
     * and H windows that overlap by one row, so that an output row takes
     * the previous one's last row from the line buffer */
    const int wfirst = !ik && !fe && r == 2 && C % VW == 0 && out[2] * C <= KFN_WBUF && out[1] >= 2 &&
                       cn[1][0] >= 1 && st[1][1] == st[1][0] + (cn[1][0] - 1) * step[1];
    alignas(64) float wbuf[KFN_WBUF];
    const float *wrow_in = NULL; /* the input row whose W partials wbuf holds (only W-first rows write it) */
    for (int64_t t = t0; t < t1; ++t) {
        const int64_t nn = t / rows, row = t % rows;
        const int64_t o0 = row / out[1], o1 = row % out[1];
        const float *xn = x + nn * p->in_spatial * C;
        const int64_t base = nn * p->idx_n;
        w.st[0] = st[0][o0];
        w.cn[0] = cn[0][o0];
        w.st[1] = st[1][o1];
        w.cn[1] = cn[1][o1];
        /* the fast path's row offsets: each of the window's input rows, in
         * order; a row's taps follow at steps of q2 floats */
        int64_t to[KFN_MAX_ROWS];
        const int64_t R = w.cn[0] * w.cn[1], q2 = step[2] * C;
        const int fast = !ik && !fe && R <= KFN_MAX_ROWS;
        if (fast)
            for (int64_t j0 = 0, ri = 0; j0 < w.cn[0]; ++j0)
                for (int64_t j1 = 0; j1 < w.cn[1]; ++j1, ++ri)
                    to[ri] = ((w.st[0] + j0 * step[0]) * in[1] + w.st[1] + j1 * step[1]) * in[2] * C;
        if (wfirst && fast && R >= 1) {
            const int useb = wrow_in == xn + to[0];
            if (R - useb >= 1 && R - useb <= 3) {
                float *yrow = y + (nn * rows + row) * out[2] * C;
                KFN(wrow)(xn, to, R, useb, st[2], cn[2], out[2], C, step[2] * C, wbuf, yrow, init, prop);
                wrow_in = xn + to[R - 1];
                continue;
            }
        }
        for (int64_t o2 = 0; o2 < out[2]; ++o2) {
            w.st[2] = st[2][o2];
            w.cn[2] = cn[2][o2];
            const int64_t ooff = ((nn * rows + row) * out[2] + o2) * C;
            float *yo = y + ooff;
            int64_t c = 0;
            if (fast && w.cn[2] == 3 && C % (8 * VW) == 0) { /* a run of such pixels */
                int64_t e = o2 + 1;
                while (e < out[2] && cn[2][e] == 3)
                    ++e;
                KFN(pxrun)(xn, to, q2, R, st[2] + o2, e - o2, yo, init, C, prop);
                o2 = e - 1;
                continue;
            }
            if (fast && (w.cn[2] == 3 || w.cn[2] == 2)) {
                if (w.cn[2] == 3)
                    KFN(pxrow)(xn, to, q2, R, w.st[2] * C, yo, init, C, &c, 3, prop);
                else
                    KFN(pxrow)(xn, to, q2, R, w.st[2] * C, yo, init, C, &c, 2, prop);
                if (c < C)
                    KFN(block)(p, &w, xn, yo, ind, ooff, c, C - c, base, init, first_tap, eft, 1, 1, prop, ik, fe);
                continue;
            }
            if (!ik) /* 8 running maxima and a load fit the 16 registers; with indices, 8 more would not */
                for (; c + 8 * VW <= C; c += 8 * VW)
                    KFN(block)(p, &w, xn, yo, ind, ooff, c, VW, base, init, first_tap, eft, 8, 0, prop, ik, fe);
            for (; c + 4 * VW <= C; c += 4 * VW)
                KFN(block)(p, &w, xn, yo, ind, ooff, c, VW, base, init, first_tap, eft, 4, 0, prop, ik, fe);
            for (; c + VW <= C; c += VW)
                KFN(block)(p, &w, xn, yo, ind, ooff, c, VW, base, init, first_tap, eft, 1, 0, prop, ik, fe);
            if (c < C)
                KFN(block)(p, &w, xn, yo, ind, ooff, c, C - c, base, init, first_tap, eft, 1, 1, prop, ik, fe);
        }
    }
}

#include "f32_run_switch_impl.h"
