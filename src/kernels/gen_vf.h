/* SPDX-License-Identifier: Apache-2.0 */
/* The type-generic kernels (gen_impl.h): channels-first, lines first with
 * the W pass on the combined line, values only, integer keys. Included once
 * by gen_impl.h. */

/* ---- channels-first, lines first, values only, integer keys ------------ *
 * For keys whose max is order-free and exact (the integers: equal keys have
 * equal bits, no NaN, no -0), the window's lines can be combined first at
 * full resolution and the W pass done once per OUTPUT row (not once per
 * input line, as gen_fl.h does): per output row, per vector of VN output
 * columns, the 2*VN input columns from the first tap of its first column
 * (v0 + 2*o) as two vectors A, B, each the max over the row's window lines
 * of one load (read in place); then the W pass, stride 2, K = 2 or 3 taps,
 * dilation 1: tap 0 of each column is V_EVEN(A, B), tap 1 V_ODD(A, B), tap 2
 * tap 0 of the next column (V_AL1 with the next vector's tap 0; for the
 * row's last vector, when it is full, the next 2*VN columns' first one read
 * the same way, else not needed). Taps outside the row (padding, ceil
 * rounding) become the neutral value through lane masks of the row's first
 * and last vector (the left padding must lie in the first, the right in
 * the last); every other vector's taps lie inside the row. The result is
 * max(start, taps), start the fixed start value or the neutral value (the
 * first-element start: the first tap is one of the taps; every W window
 * has one, else the other forms). Rows whose loads would leave the tensor
 * (its first and last lines) and rows with no window line go the other
 * forms (cf_task), one row each.
 *
 * Keys and their hook: the form reads elements only through VF_LOAD and
 * writes them only through VF_STORE / VF_STOREN, and takes the neutral and
 * start values through VF_SET1; for the integers these are the elements
 * themselves (the vector layer's V_LOAD, V_STORE, V_STOREN, V_SET1). A type
 * whose keys are a bijective, order-preserving transform of its bits into
 * an integer lane of the same width (e.g. 16-bit floats as ordered 16-bit
 * integers, NaN policy permitting) can take this form by defining GEN_VF 1
 * and the VF_ names below (the transform in VF_LOAD, its inverse in
 * VF_STORE / VF_STOREN / VF_SET1) in its vector-layer block. Values only:
 * no indices. */

#ifndef VF_T
#define VF_T VT                           /* a vector of VF_N keys */
#define VF_N VN                           /* its lanes */
#define VF_M VM                           /* a lane mask */
#define VF_LANE VLANE                     /* an unsigned lane as wide as a key (the masks' arrays) */
#define VF_MLANES(p) VM_LANES(p)          /* the mask of the lanes of p that are all ones */
#define VF_LOAD(p) V_LOAD(p)              /* VF_N elements at p, as keys */
#define VF_STORE(p, v) V_STORE(p, v)      /* keys back to elements */
#define VF_STOREN(p, v, nl) V_STOREN(p, v, nl)
#define VF_SET1(e) V_SET1(e)              /* an element broadcast, as a key */
#define VF_MAX(a, b) V_MAX(a, b)          /* key max (order-free) */
#define VF_SEL(a, b, m) V_SEL(a, b, m)    /* m ? b : a */
#define VF_EVEN(a, b) V_EVEN(a, b)        /* lanes 0, 2, ... of a then b */
#define VF_ODD(a, b) V_ODD(a, b)          /* lanes 1, 3, ... of a then b */
#define VF_AL1(a, b) V_AL1(a, b)          /* lanes 1 .. VF_N-1 of a, then lane 0 of b */
#endif
#ifndef GEN_VF
#define GEN_VF (!GFLOAT)
#endif

#ifdef GEN_VF_TRACE
#include <stdio.h>
#define GEN_VF_STR_(a) #a
#define GEN_VF_STR(a) GEN_VF_STR_(a)
#endif

#if GEN_VF

/* The form's geometry: output vectors per row; the rows whose window lines
 * lie in [la, lb] (tensor line numbers) are read in place; K; whether the
 * first (m0) and last (m1) vector of a row have taps outside the row, and
 * their lanes inside it (mk[first/last][A/B]); en: the last vector is full
 * and its last lane's tap 2 lies inside the row. */
typedef struct KFN(vfg) {
    int64_t nvec, la, lb;
    int K, m0, m1, en;
    VF_M mk[2][2];
} KFN(vfg);

/* Whether the form takes the plan (values only, W stride 2, K 2 or 3,
 * dilation 1, the paddings within the first and last vector); fills f. */
static int KFN(vf_geo)(const KFN(geo) * g, int wi, KFN(vfg) * f)
{
    if (wi || !g->grid || g->S != 2 || (g->K != 2 && g->K != 3) || g->d != 1)
        return 0;
    const int64_t in2 = g->in[2], O2 = g->out[2], v0 = g->v0, K = g->K, N = VF_N;
    if (O2 < 1 || in2 < N)
        return 0;
    if (g->fe)
        for (int64_t o = 0; o < O2; ++o)
            if (g->cn[2][o] == 0)
                return 0;
    const int64_t nvec = (O2 + N - 1) / N, ol = (nvec - 1) * N, end = v0 + 2 * (O2 - 1) + K;
    if (v0 + 2 * N < 0 || (end > in2 && in2 < v0 + 2 * ol))
        return 0;
    f->nvec = nvec;
    f->K = (int)K;
    f->m1 = end > in2;
    f->m0 = v0 < 0 || (nvec == 1 && f->m1);
    f->en = K == 3 && O2 % N == 0 && v0 + 2 * O2 < in2;
    for (int c = 0; c < 2; ++c)
        for (int h = 0; h < 2; ++h) {
            alignas(64) VF_LANE lv[VF_N];
            for (int64_t i = 0; i < N; ++i) {
                const int64_t pos = v0 + 2 * (c ? ol : 0) + h * N + i;
                lv[i] = pos >= 0 && pos < in2 ? (VF_LANE)~(VF_LANE)0 : 0;
            }
            f->mk[c][h] = VF_MLANES(lv);
        }
    /* a line's loads [v0, rend) */
    const int64_t rend = v0 + 2 * nvec * N + (f->en ? N : 0);
    f->la = v0 >= 0 ? 0 : (-v0 + in2 - 1) / in2;
    f->lb = g->xlen >= rend ? (g->xlen - rend) / in2 : -1;
    return 1;
}

/* The max over R window lines (lp[r], or l + r*ls) of the VF_N keys at column b. */
GAI VF_T KFN(vf_comb)(const GT *const *lp, const GT *l, int64_t ls, const int64_t R, int64_t b)
{
    VF_T a = VF_LOAD((lp ? lp[0] : l) + b);
    for (int64_t r = 1; r < R; ++r)
        a = VF_MAX(a, VF_LOAD((lp ? lp[r] : l + r * ls) + b));
    return a;
}

/* Output vector j of a row (yr): max(start, v), the row's last vector
 * stored as nl lanes unless spill (whole vectors may be stored there: the
 * columns past the row are later rows of this task range). */
GAI void KFN(vf_put)(GT *yr, int64_t j, int64_t nvec, int64_t O2, VF_T v, const VF_T sv, int spill)
{
    v = VF_MAX(v, sv);
    const int64_t o = j * VF_N;
    if (j < nvec - 1 || o + VF_N <= O2 || spill)
        VF_STORE(yr + o, v);
    else
        VF_STOREN(yr + o, v, O2 - o);
}

/* One output row (yr, O2 columns) from its R window lines (lp[r], or l +
 * r*ls), the pointers at each line's column v0. */
GAI void KFN(vf_row)(const KFN(vfg) * f, const GT *const *lp, const GT *l, int64_t ls, const int64_t R, GT *yr,
                     int64_t O2, const VF_T nv, const VF_T sv, int spill)
{
    const int64_t nvec = f->nvec, N = VF_N;
    const int K = f->K;
    VF_T pe = nv, pp = nv;
    for (int64_t j = 0; j < nvec; ++j) {
        const int64_t b = 2 * j * N;
        VF_T A = KFN(vf_comb)(lp, l, ls, R, b), B = KFN(vf_comb)(lp, l, ls, R, b + N);
        if (j == 0 && f->m0) {
            A = VF_SEL(nv, A, f->mk[0][0]);
            B = VF_SEL(nv, B, f->mk[0][1]);
        }
        if (j == nvec - 1 && f->m1) {
            A = VF_SEL(nv, A, f->mk[1][0]);
            B = VF_SEL(nv, B, f->mk[1][1]);
        }
        const VF_T E = VF_EVEN(A, B), P = VF_MAX(E, VF_ODD(A, B));
        if (K == 2) {
            KFN(vf_put)(yr, j, nvec, O2, P, sv, spill);
        } else {
            if (j > 0)
                KFN(vf_put)(yr, j - 1, nvec, O2, VF_MAX(pp, VF_AL1(pe, E)), sv, spill);
            pe = E;
            pp = P;
        }
    }
    if (K == 3) {
        const VF_T en = f->en ? KFN(vf_comb)(lp, l, ls, R, 2 * nvec * N) : nv;
        KFN(vf_put)(yr, nvec - 1, nvec, O2, VF_MAX(pp, VF_AL1(pe, en)), sv, spill);
    }
}

/* Tasks (output rows) [t0, t1). */
__attribute__((noinline)) static void KFN(vf_run)(const struct maxpool_plan *p, const KFN(geo) * g,
                                                   const KFN(vfg) * f, const GT *x, GT *y, int64_t t0, int64_t t1)
{
    const int64_t O0 = g->out[0], O1 = g->out[1], O2 = g->out[2], rows = O0 * O1;
    const int64_t in0 = g->in[0], in1 = g->in[1], in2 = g->in[2], v0 = g->v0;
    const int64_t s0l = g->step[0] * in1, s1l = g->step[1], la = f->la, lb = f->lb;
    const int64_t *const cn0 = g->cn[0], *const cn1 = g->cn[1], *const st0 = g->st[0], *const st1 = g->st[1];
    const int64_t yend = t1 * O2, wv = f->nvec * VF_N;
    const VF_T nv = VF_SET1(g->neutral), sv = VF_SET1(g->fe ? g->neutral : g->init);
    const GT *lp[GEN_LINES_MAX];
#ifdef GEN_VF_TRACE /* tests: show that the form runs */
    fprintf(stderr, "gen_vf " GEN_VF_STR(KPREFIX) " rows %lld\n", (long long)(t1 - t0));
#endif
    int64_t nc = t0 / rows, o0 = t0 % rows / O1, o1 = t0 % rows % O1;
    for (int64_t t = t0; t < t1; ++t) {
        const int64_t c0 = cn0[o0], c1 = cn1[o1], R = c0 * c1;
        const int64_t l0 = (nc * in0 + st0[o0]) * in1 + st1[o1];
        const int64_t le = l0 + (c0 > 0 ? c0 - 1 : 0) * s0l + (c1 > 0 ? c1 - 1 : 0) * s1l;
        if (R == 0 || R > GEN_LINES_MAX || l0 < la || le > lb)
            KFN(cf_task)(p, g, x, y, NULL, t, t + 1, 0, 0);
        else {
            GT *const yr = y + t * O2;
            const int spill = t * O2 + wv <= yend;
            const GT *const q = x + l0 * in2 + v0;
            if (c0 == 1 && c1 == 3)
                KFN(vf_row)(f, NULL, q, s1l * in2, 3, yr, O2, nv, sv, spill);
            else if (c0 == 1 && c1 == 2)
                KFN(vf_row)(f, NULL, q, s1l * in2, 2, yr, O2, nv, sv, spill);
            else {
                int64_t r = 0;
                for (int64_t j0 = 0; j0 < c0; ++j0)
                    for (int64_t j1 = 0; j1 < c1; ++j1)
                        lp[r++] = q + (j0 * s0l + j1 * s1l) * in2;
                KFN(vf_row)(f, lp, NULL, 0, R, yr, O2, nv, sv, spill);
            }
        }
        if (++o1 == O1) {
            o1 = 0;
            if (++o0 == O0) {
                o0 = 0;
                ++nc;
            }
        }
    }
}

#endif
