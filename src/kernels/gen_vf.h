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
 * no indices.
 *
 * Checked keys (VF_CHK 1: f16 and bf16, their raw bits as 16-bit integers,
 * see docs/notes/f16-as-int16.md): the order key of a sign-magnitude 16-bit
 * float x is k = x ^ ((x >> 15) & 0x7FFF) (non-NaN values in float order,
 * -0 just below +0), and the max key of a set is the signed max of the raw
 * bits when that is >= 0, else their signed min. So each row is done on the
 * raw bits by the same row code with the signed max (neutral 0x8000, the
 * smallest signed value: padding never wins), and output vectors with a
 * negative result again with the signed min (neutral 0x7FFF), merged where
 * the max was negative. The integer max
 * is order-free, so it is the reference's row-major scan unless a tap is
 * NaN, or a result is +0 while the window also holds -0 (the first zero
 * wins), or the start value is -0 or NaN (not taken: vf_geo). The start
 * value is a tap of the max pass where it is >= +0, else of the min pass
 * only. Checks: per output vector, its results' signed max and unsigned
 * min (lanes past the row set to 1), and its sign bits: a negative lane
 * takes that vector's min pass at once (vf_vmin, merged where the stored
 * max is negative); a result above +inf's bits (a positive NaN) or a +0
 * with a -0 in the row's lines: the exact forms redo the row (vf_fix,
 * cf_task). The results' checks are tested once per run of VF_SCAN_ROWS
 * rows (vf_chunk): a +0 alone is exact when the run's lines hold no -0
 * (one scan of them), else, or with a NaN result, the run's rows again
 * one by one with their own checks (-7 % instructions on the f16 stem at
 * avx2 against a test per row). A negative NaN hides under the signed max only where
 * a non-negative tap wins, which is the reference's answer when NaN is
 * ignored and the start value is not the first element; else (NaN
 * propagated, or the first-element start) the rows' lines are checked for
 * one first (vf_scan, per VF_SCAN_ROWS rows; such rows go vf_row_any, which
 * checks its loads). The hook adds VF_MIN (signed min), VF_MAXU, VF_MINU,
 * VF_XOR, VF_ADD, VF_NEGM (mask of the negative lanes), VF_ANYNEG (some
 * lane negative) and VF_ANYGTU(v, t) (some lane above t, unsigned). */

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
#ifdef V_EO
#define VF_EO(a, b, e, o) V_EO(a, b, e, o) /* e = VF_EVEN(a, b), o = VF_ODD(a, b) */
#endif
#endif
#ifndef VF_EO
#define VF_EO(a, b, e, o)                                                                                          \
    do {                                                                                                           \
        (e) = VF_EVEN(a, b);                                                                                       \
        (o) = VF_ODD(a, b);                                                                                        \
    } while (0)
#endif
#ifndef VF_CHK
#define VF_CHK 0
#endif
#if VF_CHK /* -inf's and +inf's bits (the NaN checks); the key op of a pass: mn the min pass */
#define VF_NINF ((unsigned)GEN_NEUTRAL)
#define VF_PINF ((unsigned)GEN_NEUTRAL & 0x7FFFu)
#define VF_OP(mn, a, b) ((mn) ? VF_MIN(a, b) : VF_MAX(a, b))
#else
#define VF_OP(mn, a, b) VF_MAX(a, b)
#endif
#ifndef GEN_VF /* 8- and 16-bit integers, and i64 at avx2 (no 64-bit max there: each max a compare and a blend,
                 so the W pass once per output row pays most; i32, i64 at avx512: at the memory floor already) */
#define GEN_VF                                                                                                     \
    (GEN_TYPE == GEN_I8 || GEN_TYPE == GEN_U8 || GEN_TYPE == GEN_I16 || GEN_TYPE == GEN_U16 ||                    \
     (GEN_TYPE == GEN_I64 && VN == 4))
#endif

#ifdef GEN_VF_TRACE
#include <stdio.h>
#define GEN_VF_STR_(a) #a
#define GEN_VF_STR(a) GEN_VF_STR_(a)
#endif

#if GEN_VF

#define GEN_VF_MINW 8 /* input columns: narrower rows take the other forms */
#ifndef VF_SPILL /* a row's last vector stored whole where later rows of the task range follow (else masked) */
#ifdef __AVX512BW__
#define VF_SPILL 0 /* (masked stores cost as much as whole ones) */
#else
#define VF_SPILL 1
#endif
#endif

/* The form's geometry: output vectors per row; the rows whose window lines
 * lie in [la, lb] (tensor line numbers) are read in place; K; mu[c][h]:
 * vector h (A, B) of the row's first (c = 0) or last (c = 1) output vector
 * has a tap outside the row, mk[c][h] its lanes inside the row; en: the
 * last output vector is full and its last lane's tap 2 lies inside the row;
 * hb: every tap of the row lies in A (one output vector, at most VF_N/2
 * columns: B is not read). */
typedef struct KFN(vfg) {
    int64_t nvec, la, lb, lw;
    int K, en, hb;
    int mu[2][2];
    VF_M mk[2][2];
#if VF_CHK
    VF_M kt; /* the last output vector's lanes in the row */
#endif
} KFN(vfg);

/* Whether the form takes the plan (values only, W stride 2, K 2 or 3,
 * dilation 1, the paddings within the first and last vector); fills f. */
static int KFN(vf_geo)(const KFN(geo) * g, int wi, KFN(vfg) * f)
{
    if (wi || !g->grid || g->S != 2 || (g->K != 2 && g->K != 3) || g->d != 1)
        return 0;
    const int64_t in2 = g->in[2], O2 = g->out[2], v0 = g->v0, K = g->K, N = VF_N;
    if (O2 < 1 || in2 < GEN_VF_MINW)
        return 0;
    if (g->fe && !KFN(geo_taps)(g, 2))
        return 0;
#if VF_CHK /* a start value -0 or NaN: not the integer max */
    if (!g->fe && ((uint16_t)g->init == 0x8000u || ((uint16_t)g->init & 0x7FFFu) > VF_PINF))
        return 0;
#endif
    const int64_t nvec = (O2 + N - 1) / N, ol = (nvec - 1) * N, end = v0 + 2 * (O2 - 1) + K;
    if (v0 + 2 * N < 0 || (end > in2 && in2 < v0 + 2 * ol))
        return 0;
    f->nvec = nvec;
    f->K = (int)K;
    f->en = K == 3 && O2 % N == 0 && v0 + 2 * O2 < in2;
    f->hb = 2 * (O2 - 1) + K <= N;
    for (int c = 0; c < 2; ++c)
        for (int h = 0; h < 2; ++h) {
            alignas(64) VF_LANE lv[VF_N];
            f->mu[c][h] = 0;
            for (int64_t i = 0; i < N; ++i) {
                const int64_t pos = v0 + 2 * (c ? ol : 0) + h * N + i;
                const int in = pos >= 0 && pos < in2;
                lv[i] = in ? (VF_LANE)~(VF_LANE)0 : 0;
                if (!in && pos < end)
                    f->mu[c][h] = 1;
            }
            f->mk[c][h] = VF_MLANES(lv);
        }
#if VF_CHK
    {
        alignas(64) VF_LANE lv[VF_N];
        for (int64_t i = 0; i < N; ++i)
            lv[i] = ol + i < O2 ? (VF_LANE)~(VF_LANE)0 : 0;
        f->kt = VF_MLANES(lv);
    }
#endif
    /* a line's loads [v0, rend) */
    const int64_t rend = f->hb ? v0 + N : v0 + 2 * nvec * N + (f->en ? N : 0);
    f->lw = rend - v0;
    f->la = v0 >= 0 ? 0 : (-v0 + in2 - 1) / in2;
    f->lb = g->xlen >= rend ? (g->xlen - rend) / in2 : -1;
    return 1;
}

/* The max (mn: min) over R window lines (lp[r], or l + r*ls) of the VF_N
 * keys at column b; checked keys: ck, *u the unsigned max of the loads. */
GAI VF_T KFN(vf_comb)(const GT *const *lp, const GT *l, int64_t ls, const int64_t R, int64_t b, const int mn,
                      const int ck, VF_T *u)
{
    VF_T a = VF_LOAD((lp ? lp[0] : l) + b);
#if VF_CHK
    if (ck)
        *u = VF_MAXU(*u, a);
#endif
    for (int64_t r = 1; r < R; ++r) {
        const VF_T x = VF_LOAD((lp ? lp[r] : l + r * ls) + b);
#if VF_CHK
        if (ck)
            *u = VF_MAXU(*u, x);
#endif
        a = VF_OP(mn, a, x);
    }
    (void)u;
    (void)ck;
    return a;
}

/* The row constants, by value (stores of 1-byte elements may alias
 * anything reached through a pointer) */
typedef struct KFN(vfc) {
    int64_t nvec, O2;
    int m00, m01, m10, m11, en, hb, usv;
    VF_M k00, k01, k10, k11;
    VF_T nv, sv;
#if VF_CHK
    VF_M kt;
    int64_t lw; /* a line's loads: lw elements from its column v0 */
    int ck;     /* the loads need the check for a negative NaN (NaN propagated, or the first-element start) */
    const struct KFN(vfc) * cm; /* the min pass's constants (vf_vmin) */
#endif
} KFN(vfc);

/* A row's first (last 0) or last (last 1) vector pair with its lane masks:
 * taps outside the row become the neutral value. */
GAI void KFN(vf_edge)(const KFN(vfc) * c, VF_T *A, VF_T *B, const int last)
{
    if (last ? c->m10 : c->m00)
        *A = VF_SEL(c->nv, *A, last ? c->k10 : c->k00);
    if (last ? c->m11 : c->m01)
        *B = VF_SEL(c->nv, *B, last ? c->k11 : c->k01);
}

#if VF_CHK
/* v where the stored max (p) is negative */
GAI void KFN(vf_merge)(GT *p, VF_T v)
{
    const VF_T o = VF_LOAD(p);
    VF_STORE(p, VF_SEL(o, v, VF_NEGM(o)));
}

/* The min pass of output vector j of a row (R lines lp[r], or l + r*ls; K taps; c the
 * min pass's constants: neutral value the largest signed, the start value
 * where it is negative), merged into its stored max (yr) where that is
 * negative. Vector j as vf_row / vf_row1 make it; tap 2 of its last lane is
 * lane 0 of the next vector's A (its E's lane 0). */
GAI void KFN(vf_vmin)(const KFN(vfc) * c, const GT *const *lp, const GT *l,
                                                          int64_t ls, int64_t R, int K, GT *yr, int64_t j)
{
    const int64_t N = VF_N, nvec = c->nvec, o = j * N;
    VF_T A = KFN(vf_comb)(lp, l, ls, R, 2 * o, 1, 0, NULL),
         B = c->hb ? c->nv : KFN(vf_comb)(lp, l, ls, R, 2 * o + N, 1, 0, NULL), E, O;
    if (j == 0) /* (one vector: m00, m01 hold both sides) */
        KFN(vf_edge)(c, &A, &B, 0);
    else if (j == nvec - 1)
        KFN(vf_edge)(c, &A, &B, 1);
    VF_EO(A, B, E, O);
    VF_T v = VF_MIN(E, O);
    if (K == 3) {
        VF_T nx;
        if (j + 1 < nvec) {
            nx = KFN(vf_comb)(lp, l, ls, R, 2 * (o + N), 1, 0, NULL);
            if (j + 1 == nvec - 1 && c->m10)
                nx = VF_SEL(c->nv, nx, c->k10);
        } else
            nx = c->en ? KFN(vf_comb)(lp, l, ls, R, 2 * nvec * N, 1, 0, NULL) : c->nv;
        v = VF_MIN(v, VF_AL1(E, nx));
    }
    if (c->usv)
        v = VF_MIN(v, c->sv);
    if (o + N <= c->O2)
        KFN(vf_merge)(yr + o, v);
    else {
        alignas(64) GT t[VF_N] = {0};
        memcpy(t, yr + o, (size_t)(c->O2 - o) * sizeof(GT));
        KFN(vf_merge)(t, v);
        memcpy(yr + o, t, (size_t)(c->O2 - o) * sizeof(GT));
    }
}

/* The checks of a row: u the loads' unsigned max (ck), mx the results'
 * signed max (and 0), mz their unsigned min (and 1); output vector jj with
 * a negative result: its min pass at once (vf_vmin). acc (not NULL): mx
 * and mz go on from acc[0], acc[1] and back there, the flags of a run of
 * rows tested once after it (vf_rows; the loads' check not taken). */
#define VF_CK_DECL VF_T u = VF_SET1(0), mx = acc ? acc[0] : VF_SET1(0), mz = acc ? acc[1] : VF_SET1(1)
#define VF_CK_RES(v, jj)                                                                                           \
    do {                                                                                                           \
        mx = VF_MAX(mx, (v));                                                                                      \
        mz = VF_MINU(mz, (v));                                                                                     \
        if (__builtin_expect(VF_ANYNEG(v), 0))                                                                     \
            KFN(vf_vmin)(c->cm, lp, l, ls, R, K, yr, (jj));                                                        \
    } while (0)
/* the row's flags: 1 a negative NaN among the loads (ck), 2 a positive NaN
 * among the results (above +inf's bits), 4 a +0 result */
#define VF_CK_FLAGS(mx, mz) ((VF_ANYGTU((mx), VF_PINF) ? 2 : 0) | (VF_ANYGTU(VF_ADD((mz), VF_SET1(0xFFFFu)), 0xFFFEu) ? 4 : 0))
#define VF_CK_RET                                                                                                  \
    do {                                                                                                           \
        if (acc) {                                                                                                 \
            acc[0] = mx;                                                                                           \
            acc[1] = mz;                                                                                           \
            return 0;                                                                                              \
        }                                                                                                          \
        return (ck && VF_ANYGTU(u, VF_NINF) ? 1 : 0) | VF_CK_FLAGS(mx, mz);                                        \
    } while (0)
#define VF_UP (&u)
#else
#define VF_CK_DECL (void)acc
#define VF_CK_RES(v, jj) ((void)0)
#define VF_CK_RET return 0
#define VF_UP NULL
#endif

/* Output vector j of a row (yr): max(start, v) (usv: a start value above
 * the neutral one, c->usv or 0 where the caller knows it is 0), the row's last vector stored as its lanes in the row
 * unless spill (whole vectors may be stored there: the columns past the
 * row are later rows of this task range). */
GAI VF_T KFN(vf_put)(const KFN(vfc) * c, GT *yr, int64_t j, VF_T v, int spill, const int usv)
{
    if (usv)
        v = VF_MAX(v, c->sv);
    const int64_t o = j * VF_N;
    if (j < c->nvec - 1 || o + VF_N <= c->O2 || (VF_SPILL && spill))
        VF_STORE(yr + o, v);
    else
        VF_STOREN(yr + o, v, c->O2 - o);
#if VF_CHK /* the checks see the lanes in the row only */
    if (o + VF_N > c->O2)
        v = VF_SEL(VF_SET1(1), v, c->kt);
#endif
    return v;
}

/* One output row (yr) of nvec >= 2 output vectors from its R window lines
 * (lp[r], or l + r*ls), the pointers at each line's column v0; K taps.
 * Per output vector j: A, B the combined lines at 2*j*VF_N, E and O their
 * even and odd lanes (taps 0 and 1 of the VF_N columns), tap 2 of the
 * columns E's lanes shifted by one with the next vector's E; the first and
 * last vector with their masks; the row's last vector stored by vf_put.
 * ck: checked keys, the loads' check too (else done before: vf_scan).
 * Returns the checks' flags (VF_CK_RET; 0 without checks, or with acc:
 * VF_CK_DECL). */
GAI int KFN(vf_row)(const KFN(vfc) * c, const GT *const *lp, const GT *l, int64_t ls, const int64_t R, const int K,
                    GT *yr, int spill, const int ck, VF_T *acc, const int sk)
{
    const int64_t nvec = c->nvec, N = VF_N;
    const int usv = sk ? 0 : c->usv;
    VF_CK_DECL;
    VF_T A = KFN(vf_comb)(lp, l, ls, R, 0, 0, ck, VF_UP), B = KFN(vf_comb)(lp, l, ls, R, N, 0, ck, VF_UP), E, O, E2,
         O2;
    if (sk) /* (k00 keeps every lane a stored output reads when m00 is 0: nvec >= 2) */
        A = VF_SEL(c->nv, A, c->k00);
    else
        KFN(vf_edge)(c, &A, &B, 0);
    VF_EO(A, B, E, O);
    VF_T P = VF_MAX(E, O), v;
    for (int64_t j = 1; j < nvec - 1; ++j) { /* the middle vectors: every tap inside the row */
        A = KFN(vf_comb)(lp, l, ls, R, 2 * j * N, 0, ck, VF_UP);
        B = KFN(vf_comb)(lp, l, ls, R, 2 * j * N + N, 0, ck, VF_UP);
        VF_EO(A, B, E2, O2);
        v = K == 3 ? VF_MAX(P, VF_AL1(E, E2)) : P;
        if (usv)
            v = VF_MAX(v, c->sv);
        VF_STORE(yr + (j - 1) * N, v);
        VF_CK_RES(v, j - 1);
        E = E2;
        P = VF_MAX(E2, O2);
    }
    A = KFN(vf_comb)(lp, l, ls, R, 2 * (nvec - 1) * N, 0, ck, VF_UP);
    B = KFN(vf_comb)(lp, l, ls, R, 2 * (nvec - 1) * N + N, 0, ck, VF_UP);
    if (!sk)
        KFN(vf_edge)(c, &A, &B, 1);
    VF_EO(A, B, E2, O2);
    v = K == 3 ? VF_MAX(P, VF_AL1(E, E2)) : P;
    if (usv)
        v = VF_MAX(v, c->sv);
    VF_STORE(yr + (nvec - 2) * N, v);
    VF_CK_RES(v, nvec - 2);
    P = VF_MAX(E2, O2);
    if (K == 3)
        P = VF_MAX(P, VF_AL1(E2, c->en ? KFN(vf_comb)(lp, l, ls, R, 2 * nvec * N, 0, ck, VF_UP) : c->nv));
    v = KFN(vf_put)(c, yr, nvec - 1, P, spill, usv);
    VF_CK_RES(v, nvec - 1);
    (void)ck;
    VF_CK_RET;
}

/* vf_row for rows of one output vector (nvec 1: the first vector is the last). */
GAI int KFN(vf_row1)(const KFN(vfc) * c, const GT *const *lp, const GT *l, int64_t ls, const int64_t R, const int K,
                     GT *yr, int spill, const int ck, VF_T *acc)
{
    VF_CK_DECL;
    VF_T A = KFN(vf_comb)(lp, l, ls, R, 0, 0, ck, VF_UP),
         B = c->hb ? c->nv : KFN(vf_comb)(lp, l, ls, R, VF_N, 0, ck, VF_UP), E, O;
    KFN(vf_edge)(c, &A, &B, 0);
    VF_EO(A, B, E, O);
    VF_T v = VF_MAX(E, O);
    if (K == 3)
        v = VF_MAX(v, VF_AL1(E, c->en ? KFN(vf_comb)(lp, l, ls, R, 2 * VF_N, 0, ck, VF_UP) : c->nv));
    v = KFN(vf_put)(c, yr, 0, v, spill, c->usv);
    VF_CK_RES(v, 0);
    (void)ck;
    VF_CK_RET;
}

/* Any row: R lines lp[r], K taps, out of line (one instance); the checks' flags (the loads' too). */
__attribute__((noinline)) static int KFN(vf_row_any)(const KFN(vfc) * c, const GT *const *lp, int64_t R, int K,
                                                      GT *yr, int spill)
{
    if (c->nvec == 1)
        return KFN(vf_row1)(c, lp, NULL, 0, R, K, yr, spill, 1, NULL);
    return KFN(vf_row)(c, lp, NULL, 0, R, K, yr, spill, 1, NULL, 0);
}

/* What a flagged row needs (checked keys): the plan, the tensors, the NaN
 * rule, the min pass's row constants. */
typedef struct KFN(vfx) {
    const struct maxpool_plan *p;
    const KFN(geo) * g;
    const GT *x;
    GT *y;
    int prop;
    KFN(vfc) cm;
} KFN(vfx);

#if VF_CHK
/* Whether the R lines lp[r] (at column v0) hold a -0 in their in2 columns. */
static int KFN(vf_nzero)(const GT *const *lp, int64_t R, int64_t in2, int64_t v0)
{
    const VF_T s = VF_SET1(0x8000u);
    VF_T m = VF_SET1(0xFFFFu);
    for (int64_t r = 0; r < R; ++r) {
        const GT *const l = lp[r] - v0;
        int64_t i = 0;
        for (; i + VF_N <= in2; i += VF_N)
            m = VF_MINU(m, VF_XOR(VF_LOAD(l + i), s));
        for (; i < in2; ++i)
            if ((uint16_t)l[i] == 0x8000u)
                return 1;
    }
    return VF_ANYGTU(VF_XOR(m, VF_SET1(0xFFFFu)), 0xFFFEu);
}

/* Row t (its R lines lp[r], or q + r*ls) flagged f by the max pass
 * (VF_CK_RET): a NaN, or a +0 result with a -0 in the lines: the exact
 * forms redo it. */
__attribute__((noinline)) static void KFN(vf_fix)(const KFN(vfx) * X, int64_t t, const GT *const *lp, const GT *q,
                                                   int64_t ls, int64_t R, int f)
{
    const GT *lq[GEN_LINES_MAX];
    if (!lp) {
        for (int64_t r = 0; r < R; ++r)
            lq[r] = q + r * ls;
        lp = lq;
    }
    const int why = (f & 1) ? 1 : (f & 2) ? 2 : KFN(vf_nzero)(lp, R, X->g->in[2], X->g->v0) ? 3 : 0;
#ifdef GEN_VF_TRACE /* tests: the row's path (redo: a negative NaN, a positive NaN, -0 and +0; else +0 alone) */
    fprintf(stderr, "gen_vf " GEN_VF_STR(KPREFIX) " fix %s\n",
            why == 1 ? "redo-nan-" : why == 2 ? "redo-nan+" : why == 3 ? "redo-zero" : "zero");
#endif
    if (why)
        KFN(cf_task)(X->p, X->g, X->x, X->y, NULL, t, t + 1, X->prop, 0);
}

#define VF_SCAN_ROWS 16 /* rows per check of their lines for a negative NaN (vf_rows) */
/* Whether the n >= VF_N elements at p hold a negative NaN (bits above -inf's). */
GAI int KFN(vf_scan)(const GT *p, int64_t n)
{
    VF_T m0 = VF_SET1(0), m1 = VF_SET1(0);
    int64_t i = 0;
    for (; i + 2 * VF_N <= n; i += 2 * VF_N) {
        m0 = VF_MAXU(m0, VF_LOAD(p + i));
        m1 = VF_MAXU(m1, VF_LOAD(p + i + VF_N));
    }
    if (i + VF_N <= n) {
        m0 = VF_MAXU(m0, VF_LOAD(p + i));
        i += VF_N;
    }
    if (i < n)
        m1 = VF_MAXU(m1, VF_LOAD(p + n - VF_N));
    return VF_ANYGTU(VF_MAXU(m0, m1), VF_NINF);
}
#endif

#if VF_CHK
/* Whether the n >= VF_N elements at p hold a -0 (vf_scan's reads). */
GAI int KFN(vf_scanz)(const GT *p, int64_t n)
{
    const VF_T s = VF_SET1(0x8000u);
    VF_T m0 = VF_SET1(0xFFFFu), m1 = VF_SET1(0xFFFFu);
    int64_t i = 0;
    for (; i + 2 * VF_N <= n; i += 2 * VF_N) {
        m0 = VF_MINU(m0, VF_XOR(VF_LOAD(p + i), s));
        m1 = VF_MINU(m1, VF_XOR(VF_LOAD(p + i + VF_N), s));
    }
    if (i + VF_N <= n) {
        m0 = VF_MINU(m0, VF_XOR(VF_LOAD(p + i), s));
        i += VF_N;
    }
    if (i < n)
        m1 = VF_MINU(m1, VF_XOR(VF_LOAD(p + n - VF_N), s));
    return VF_ANYGTU(VF_XOR(VF_MINU(m0, m1), VF_SET1(0xFFFFu)), 0xFFFEu);
}

/* The n rows from task t (lines at q, the next row's dq further; output yr)
 * whose run's result checks flagged cf (VF_CK_FLAGS: 2 a positive NaN
 * result, 4 a +0 result). A +0 alone is exact unless the rows' lines hold
 * a -0: scanned first (every line from the first row's first to the last
 * row's last where rows follow each other closely, else each row's; the
 * columns each row reads, so a -0 just outside a row's window may send
 * the run on). Else each row again with its own checks (no spill: the
 * rows after it are written) and vf_fix where flagged. */
__attribute__((noinline)) static void KFN(vf_chunk)(const KFN(vfc) * c, const KFN(vfx) * X, int64_t t, const GT *q,
                                                    int64_t ls, int64_t dq, int64_t n, GT *yr, int64_t R, int K,
                                                    int cf, int flat)
{
    if (cf == 4) {
        int z = 0;
        if (flat)
            z = KFN(vf_scanz)(q, (n - 1) * dq + (R - 1) * ls + c->lw);
        else
            for (int64_t i = 0; i < n && !z; ++i)
                for (int64_t r = 0; r < R && !z; ++r)
                    z = KFN(vf_scanz)(q + i * dq + r * ls, c->lw);
#ifdef GEN_VF_TRACE
        fprintf(stderr, "gen_vf " GEN_VF_STR(KPREFIX) " chunk zero %s rows %lld\n", z ? "redo" : "exact",
                (long long)n);
#endif
        if (!z)
            return;
    }
    for (int64_t i = 0; i < n; ++i) {
        const GT *lq[GEN_LINES_MAX];
        for (int64_t r = 0; r < R; ++r)
            lq[r] = q + i * dq + r * ls;
        const int f = KFN(vf_row_any)(c, lq, R, K, yr + i * c->O2, 0);
        if (f)
            KFN(vf_fix)(X, t + i, lq, NULL, 0, R, f);
    }
}
#endif

/* n rows (tasks t, t + 1, ...) of R lines ls apart and K taps from the
 * lines at q (the next row's dq further), output yr (O2 further); rows
 * before nsp may spill. Checked keys: per VF_SCAN_ROWS rows, their lines
 * checked for a negative NaN first (all the lines from the first to the
 * last where rows follow each other closely, else each row's), the rows
 * then without the loads' check, or (a negative NaN) with it (vf_row_any). */
GAI void KFN(vf_rows)(const KFN(vfc) * c, const KFN(vfx) * X, int64_t t, const GT *q, int64_t ls, int64_t dq,
                      int64_t n, GT *yr, int64_t nsp, const int64_t R, const int K)
{
    const int64_t O2 = c->O2;
    const int sk = !c->m01 && !c->m10 && !c->m11 && !c->usv; /* the usual rows (stems): vf_row's flags as constants */
#if VF_CHK
    const int flat = dq <= R * ls;
    for (int64_t i0 = 0; i0 < n;) {
        const int64_t i1 = n - i0 > VF_SCAN_ROWS ? i0 + VF_SCAN_ROWS : n;
        int bad = 0;
        if (!c->ck)
            ;
        else if (flat)
            bad = KFN(vf_scan)(q + i0 * dq, (i1 - 1 - i0) * dq + (R - 1) * ls + c->lw);
        else
            for (int64_t i = i0; i < i1 && !bad; ++i)
                for (int64_t r = 0; r < R && !bad; ++r)
                    bad = KFN(vf_scan)(q + i * dq + r * ls, c->lw);
        if (bad) {
#ifdef GEN_VF_TRACE
            fprintf(stderr, "gen_vf " GEN_VF_STR(KPREFIX) " scan nan- rows %lld\n", (long long)(i1 - i0));
#endif
            for (int64_t i = i0; i < i1; ++i) {
                const GT *lq[GEN_LINES_MAX];
                for (int64_t r = 0; r < R; ++r)
                    lq[r] = q + i * dq + r * ls;
                const int f = KFN(vf_row_any)(c, lq, R, K, yr + i * O2, i < nsp);
                if (f)
                    KFN(vf_fix)(X, t + i, lq, NULL, 0, R, f);
            }
        } else { /* the rows' result checks once for the run (vf_chunk) */
            VF_T acc[2] = {VF_SET1(0), VF_SET1(1)};
            if (c->nvec == 1)
                for (int64_t i = i0; i < i1; ++i)
                    KFN(vf_row1)(c, NULL, q + i * dq, ls, R, K, yr + i * O2, i < nsp, 0, acc);
            else if (sk)
                for (int64_t i = i0; i < i1; ++i)
                    KFN(vf_row)(c, NULL, q + i * dq, ls, R, K, yr + i * O2, i < nsp, 0, acc, 1);
            else
                for (int64_t i = i0; i < i1; ++i)
                    KFN(vf_row)(c, NULL, q + i * dq, ls, R, K, yr + i * O2, i < nsp, 0, acc, 0);
            const int cf = VF_CK_FLAGS(acc[0], acc[1]);
            if (cf)
                KFN(vf_chunk)(c, X, t + i0, q + i0 * dq, ls, dq, i1 - i0, yr + i0 * O2, R, K, cf, flat);
        }
        i0 = i1;
    }
#else
    (void)X;
    (void)t;
    if (c->nvec == 1)
        for (int64_t i = 0; i < n; ++i, q += dq, yr += O2)
            KFN(vf_row1)(c, NULL, q, ls, R, K, yr, i < nsp, 0, NULL);
    else if (sk)
        for (int64_t i = 0; i < n; ++i, q += dq, yr += O2)
            KFN(vf_row)(c, NULL, q, ls, R, K, yr, i < nsp, 0, NULL, 1);
    else
        for (int64_t i = 0; i < n; ++i, q += dq, yr += O2)
            KFN(vf_row)(c, NULL, q, ls, R, K, yr, i < nsp, 0, NULL, 0);
#endif
}

/* Tasks (output rows) [t0, t1). The rows of a plane whose windows have the
 * same 2 or 3 lines equally far apart, as many as K (2 or 3), go in runs
 * (vf_rows); the others one by one (vf_row_any), or (window lines outside
 * the ones read in place, no window line) by the other forms. */
__attribute__((noinline)) static void KFN(vf_run)(const struct maxpool_plan *p, const KFN(geo) * g,
                                                   const KFN(vfg) * f, const GT *x, GT *y, int64_t t0, int64_t t1)
{
    const int64_t O0 = g->out[0], O1 = g->out[1], O2 = g->out[2], rows = O0 * O1;
    const int64_t in0 = g->in[0], in1 = g->in[1], in2 = g->in[2], v0 = g->v0;
    const int64_t s0l = g->step[0] * in1, s1l = g->step[1], la = f->la, lb = f->lb;
    const int64_t *const cn0 = g->cn[0], *const cn1 = g->cn[1], *const st0 = g->st[0], *const st1 = g->st[1];
    const int64_t yend = t1 * O2, wv = f->nvec * VF_N;
    const int K = f->K;
    KFN(vfc) c;
    c.nvec = f->nvec;
    c.O2 = O2;
    c.m00 = f->mu[0][0] || (f->nvec == 1 && f->mu[1][0]); /* (one vector: mk[0] holds both sides) */
    c.m01 = f->mu[0][1] || (f->nvec == 1 && f->mu[1][1]);
    c.m10 = f->nvec > 1 && f->mu[1][0];
    c.m11 = f->nvec > 1 && f->mu[1][1];
    c.en = f->en;
    c.hb = f->hb;
    c.k00 = f->mk[0][0];
    c.k01 = f->mk[0][1];
    c.k10 = f->mk[1][0];
    c.k11 = f->mk[1][1];
    c.nv = VF_SET1(g->neutral);
    c.usv = !g->fe && memcmp(&g->init, &g->neutral, sizeof(GT)) != 0;
    c.sv = VF_SET1(g->init);
    KFN(vfx) X;
    X.p = p;
    X.g = g;
    X.x = x;
    X.y = y;
    X.prop = GFLOAT && p->nan_propagate;
#if VF_CHK /* the max pass's neutral value the smallest signed, the min pass's the largest; the start value (not -0,
             not NaN: vf_geo) a tap of the max pass where it is >= +0, else of the min pass: a negative one wins
             only where every tap is negative (the max pass's result negative: its min pass), and where a W window
             is empty (the max pass leaves the neutral value, negative) */
    const int sneg = (int16_t)g->init < 0;
    c.nv = VF_SET1(0x8000u);
    c.usv = !g->fe && !sneg;
    c.kt = f->kt;
    c.lw = f->lw;
    c.ck = X.prop || g->fe;
    c.cm = NULL;
    X.cm = c;
    c.cm = &X.cm;
    X.cm.nv = VF_SET1(0x7FFFu);
    X.cm.usv = !g->fe && sneg;
#endif
    /* the run of axis-1 rows [ia, ib): K lines each, first lines ds apart */
    int64_t ia = 0, ib = 0, ds = 0;
    while (ia < O1 && cn1[ia] != K)
        ++ia;
    if (ia + 1 < O1 && cn1[ia + 1] == K) {
        ds = st1[ia + 1] - st1[ia];
        ib = ia + 2;
        while (ib < O1 && cn1[ib] == K && st1[ib] - st1[ib - 1] == ds)
            ++ib;
    }
    if (ds <= 0)
        ib = ia;
    const GT *lp[GEN_LINES_MAX];
#ifdef GEN_VF_TRACE /* tests: show that the form runs */
    fprintf(stderr, "gen_vf " GEN_VF_STR(KPREFIX) " rows %lld\n", (long long)(t1 - t0));
#endif
    int64_t nc = t0 / rows, o0 = t0 % rows / O1, o1 = t0 % rows % O1;
    for (int64_t t = t0; t < t1;) {
        const int64_t c0 = cn0[o0], c1 = cn1[o1], R = c0 * c1;
        const int64_t l0 = (nc * in0 + st0[o0]) * in1 + st1[o1];
        const int64_t le = l0 + (c0 > 0 ? c0 - 1 : 0) * s0l + (c1 > 0 ? c1 - 1 : 0) * s1l;
        int64_t n = 1;
        if (R == 0 || R > GEN_LINES_MAX || l0 < la || le > lb)
            KFN(cf_task)(p, g, x, y, NULL, t, t + 1, X.prop, 0);
        else if (c0 == 1 && o1 >= ia && o1 < ib) {
            n = ib - o1 < t1 - t ? ib - o1 : t1 - t;
            const int64_t ne = (lb - le) / ds + 1; /* rows whose lines are read in place */
            n = n < ne ? n : ne;
            const int64_t nsp = yend >= wv ? (yend - wv) / O2 - t + 1 : 0; /* rows t + i, i < nsp, may spill */
            const GT *const q = x + l0 * in2 + v0;
            if (K == 3)
                KFN(vf_rows)(&c, &X, t, q, s1l * in2, ds * in2, n, y + t * O2, nsp, 3, 3);
            else
                KFN(vf_rows)(&c, &X, t, q, s1l * in2, ds * in2, n, y + t * O2, nsp, 2, 2);
        } else {
            const GT *const q = x + l0 * in2 + v0;
            int64_t r = 0;
            for (int64_t j0 = 0; j0 < c0; ++j0)
                for (int64_t j1 = 0; j1 < c1; ++j1)
                    lp[r++] = q + (j0 * s0l + j1 * s1l) * in2;
            const int fl = KFN(vf_row_any)(&c, lp, R, K, y + t * O2, t * O2 + wv <= yend);
#if VF_CHK
            if (fl)
                KFN(vf_fix)(&X, t, lp, NULL, 0, R, fl);
#else
            (void)fl;
#endif
        }
        t += n;
        o1 += n;
        while (o1 >= O1) {
            o1 -= O1;
            if (++o0 == O0) {
                o0 = 0;
                ++nc;
            }
        }
    }
}

#endif
