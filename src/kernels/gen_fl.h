/* SPDX-License-Identifier: Apache-2.0 */
/* The type-generic kernels (gen_impl.h): channels-first, W first (values
 * only). Included once by gen_impl.h. */

/* ---- channels-first, W first (values only) ----------------------------- *
 * On the W grid with stride S = 1 or 2 and no indices, the window's max is
 * taken W first, over strips of consecutive input lines of the tensor (the
 * rows of a task range, across planes too, while their lines fit the
 * buffer of GEN_FL_BYTES): each line's W pass once (every grid column's
 * max over its K taps, from the neutral value), in vectors of VN columns
 * read in place at full resolution, the even lanes kept once at the end
 * for stride 2; in a line's first and last vector the taps outside the
 * line become the neutral value through lane masks (fl_m); lines whose
 * vectors would read outside the tensor go the scalar way (fl_went). Then
 * the line pass, one output row after the other: each column's max over
 * its window lines' W results, from the start value. Ties and NaN come out
 * as in the row-major scan: the W pass keeps the first of equal keys and
 * (propagation) the last NaN of a line, the line pass the first line of
 * equal keys and the last line holding a NaN: the first maximum and the
 * last NaN in row-major order (a line without a non-NaN key gives the
 * neutral value, which never counts). The first-element start gives the
 * same result for the integers and under propagation, the first tap being
 * one of the taps, as long as every window has a W tap; without
 * propagation a NaN first tap stays (the reference's scan: nothing is
 * greater than a NaN), so there the rows whose first line holds a NaN
 * (each line is checked once) take each such window's first tap afterwards.
 * Windows of more than GEN_BM_K W taps and padding wider than a vector take
 * the other forms. Scratch: the strip's W results (keys),
 * GEN_FL_BYTES on the stack. */

#define GEN_FL_PB (2048 / (int64_t)sizeof(GKT)) /* keys of one padded line buffer (2 on the stack) */

/* The padded line geometry: the copy's data [*a, *e) of a buffer of *lb keys. */
static int KFN(fl_pgeo)(const KFN(geo) * g, int64_t *a, int64_t *e, int64_t *lb)
{
    const int64_t v0 = g->v0, in2 = g->in[2], O2 = g->out[2];
    const int64_t need = (O2 > VN ? O2 : VN) + (g->K - 1) * g->d; /* the taps' reads [0, need) */
    *a = v0 < 0 ? -v0 : 0;
    *e = in2 - v0;
    const int64_t top = *e > need ? *e : need;
    *lb = (top + VN - 1) / VN * VN;
    return *e - *a >= VN && *lb + VN <= GEN_FL_PB;
}

static void KFN(geo_flat)(KFN(geo) * g, int wi, int prop)
{
    g->fl_wl = 0;
    const int64_t in2 = g->in[2], O2 = g->out[2], S = g->S;
    if (wi || !g->grid || S > 2)
        return;
    if (g->fe && !KFN(geo_taps)(g, 2))
        return;
    const int64_t wl = O2, nl = ((int64_t)(GEN_FL_BYTES / sizeof(GKT)) - VN) / wl;
    if (nl < 2)
        return;
    const int64_t olast = O2 >= VN ? O2 - VN : 0;
    /* lane masks for K <= GEN_BM_K taps, where the vectors between a line's
     * first and last have every tap inside the line; else the other forms */
    if (g->K > GEN_BM_K ||
        (olast > VN && (g->v0 + S * VN < 0 || g->v0 + S * (olast - 1) + (g->K - 1) * g->d >= in2)))
        return;
    g->fl_wl = wl;
    g->fl_nl = nl;
    memset(g->fl_mk.mu, 0, sizeof g->fl_mk.mu);
    g->fl_fenan = GFLOAT && g->fe && !prop;
    int64_t pa, pe, plb;
    g->fl_pb = S == 1 && KFN(fl_pgeo)(g, &pa, &pe, &plb);
    for (int m = 0; m < 2; ++m) {
        const int64_t ob = m == 0 ? 0 : olast;
        for (int64_t k = 0; k < g->K; ++k) {
            g->fl_mk.mu[m][k] = 0;
            for (int h = 0; h < 2; ++h) {
                alignas(64) VLANE lv[VN];
                for (int64_t i = 0; i < VN; ++i) {
                    const int64_t f = h * VN + i; /* full-resolution lane: column ob + f/S where f % S == 0 */
                    const int64_t pos = g->v0 + S * ob + f + k * g->d;
                    const int used = f % S == 0 && ob + f / S < O2;
                    const int in = pos >= 0 && pos < in2;
                    lv[i] = !used || in ? GEN_NONE : 0;
                    if (h < S && used && !in)
                        g->fl_mk.mu[m][k] = 1;
                }
                g->fl_mk.m[m][h][k] = VM_LANES(lv);
            }
        }
    }
}

/* The W result of column o of the input line xl, the scalar way. */
static GKT KFN(fl_went)(const KFN(geo) * g, const GT *xl, int64_t o, int prop)
{
    GKT b = GKEY(g->neutral);
    for (int64_t k = 0; k < g->K; ++k) {
        const int64_t pos = g->v0 + g->S * o + k * g->d;
        if (pos >= 0 && pos < g->in[2]) {
            const GKT v = GKEY(xl[pos]);
            if (v > b || (prop && GEN_ISNAN(v)))
                b = v;
        }
    }
    return b;
}

/* The W results of the input line xl to dst, the scalar way. */
__attribute__((noinline)) static void KFN(fl_wscalar)(const KFN(geo) * g, const GT *xl, GKT *dst, int prop)
{
    for (int64_t o = 0; o < g->out[2]; ++o)
        dst[o] = KFN(fl_went)(g, xl, o, prop);
}

/* One vector of W results from the taps at q (column o of a line: q = xl +
 * v0 + S*o), read in place; in a line's first and last vector (m = 0, 1)
 * the taps outside the line made neutral through the masks mk; K a
 * constant where the caller can make it one. */
GAI VT KFN(fl_wvec)(const KFN(flm) * mk, const VT nv, const GT *q, const int64_t K, const int64_t d, const int m,
                    const int S, const int prop, const int mm)
{
    /* mm >= 0: the taps to mask (bit k: tap k), a constant; -1: mk->mu says */
#define GEN_FL_MU(k) (mm < 0 ? mk->mu[m][k] : (mm >> (k)) & 1)
    const int z = GFLOAT && !prop; /* without propagation a NaN must not enter: max(x, -inf) drops it */
    VT a = V_LOAD(q), b = S == 2 ? V_LOAD(q + VN) : a;
    if (m < 2 && GEN_FL_MU(0)) {
        a = V_SEL(nv, a, mk->m[m][0][0]);
        if (S == 2)
            b = V_SEL(nv, b, mk->m[m][1][0]);
    }
    if (z) {
        a = V_MAX(nv, a);
        if (S == 2)
            b = V_MAX(nv, b);
    }
    for (int64_t k = 1; k < K; ++k) {
        VT ta = V_LOAD(q + k * d), tb = S == 2 ? V_LOAD(q + VN + k * d) : ta;
        if (m < 2 && GEN_FL_MU(k)) {
            ta = V_SEL(nv, ta, mk->m[m][0][k]);
            if (S == 2)
                tb = V_SEL(nv, tb, mk->m[m][1][k]);
        }
        a = prop ? V_MAXP(a, ta) : V_MAX(a, ta);
        if (S == 2)
            b = prop ? V_MAXP(b, tb) : V_MAX(b, tb);
    }
    return S == 2 ? V_EVEN(a, b) : a;
#undef GEN_FL_MU
}

/* The W results of one line (taps from q = xl + v0) to dst, any K <= GEN_BM_K
 * and dilation: out of line, each specialised caller calls this one
 * function (build time). */
__attribute__((noinline)) static void KFN(fl_wline)(const KFN(geo) * g, const GT *q, GKT *dst, int S, int prop)
{
    const int64_t K = g->K, d = g->d, O2 = g->out[2], olast = O2 >= VN ? O2 - VN : 0;
    const VT nv = V_SET1(g->neutral);
    const KFN(flm) *mk = &g->fl_mk;
#define GEN_FL_LINE(S_, P_)                                                                                        \
    do {                                                                                                           \
        VK_STORE(dst, KFN(fl_wvec)(mk, nv, q, K, d, 0, S_, P_, -1));                                                   \
        int64_t o = VN;                                                                                            \
        if (S_ == 1) /* blocks of 4 vectors (gen_fl3.h's large windows: the tap loop's overhead shared) */       \
            for (; o + 3 * VN < olast; o += 4 * VN) {                                                              \
                const GT *qo = q + o;                                                                              \
                VT b0 = V_LOAD(qo), b1 = V_LOAD(qo + VN), b2 = V_LOAD(qo + 2 * VN), b3 = V_LOAD(qo + 3 * VN);      \
                if (!P_ && GFLOAT) {                                                                               \
                    b0 = V_MAX(nv, b0);                                                                            \
                    b1 = V_MAX(nv, b1);                                                                            \
                    b2 = V_MAX(nv, b2);                                                                            \
                    b3 = V_MAX(nv, b3);                                                                            \
                }                                                                                                  \
                for (int64_t k = 1; k < K; ++k) {                                                                  \
                    qo += d;                                                                                       \
                    b0 = P_ ? V_MAXP(b0, V_LOAD(qo)) : V_MAX(b0, V_LOAD(qo));                                      \
                    b1 = P_ ? V_MAXP(b1, V_LOAD(qo + VN)) : V_MAX(b1, V_LOAD(qo + VN));                            \
                    b2 = P_ ? V_MAXP(b2, V_LOAD(qo + 2 * VN)) : V_MAX(b2, V_LOAD(qo + 2 * VN));                    \
                    b3 = P_ ? V_MAXP(b3, V_LOAD(qo + 3 * VN)) : V_MAX(b3, V_LOAD(qo + 3 * VN));                    \
                }                                                                                                  \
                VK_STORE(dst + o, b0);                                                                             \
                VK_STORE(dst + o + VN, b1);                                                                        \
                VK_STORE(dst + o + 2 * VN, b2);                                                                    \
                VK_STORE(dst + o + 3 * VN, b3);                                                                    \
            }                                                                                                      \
        for (; o < olast; o += VN)                                                                                 \
            VK_STORE(dst + o, KFN(fl_wvec)(mk, nv, q + S_ * o, K, d, 2, S_, P_, -1));                                  \
        if (olast > 0)                                                                                             \
            VK_STORE(dst + olast, KFN(fl_wvec)(mk, nv, q + S_ * olast, K, d, 1, S_, P_, -1));                          \
    } while (0)
    if (S == 1) {
        if (prop)
            GEN_FL_LINE(1, 1);
        else
            GEN_FL_LINE(1, 0);
    } else {
        if (prop)
            GEN_FL_LINE(2, 1);
        else
            GEN_FL_LINE(2, 0);
    }
#undef GEN_FL_LINE
}

/* f16 and bf16: stride 2, 3 taps, the middle vectors of a line de-interleaved
 * (each element converted once, not once per tap: the conversions bound
 * the line pass): per vector of VN columns, the even (tap 0) and odd (tap 1)
 * lanes of its 2*VN elements, tap 2 the even lanes shifted by one with the
 * next vector's first. Reads 2*VN elements past the line's last vector. */
#if (GEN_TYPE == GEN_F16 || GEN_TYPE == GEN_BF16) && !defined(VF_CHK) /* (their stems: gen_vf.h where it is on) */
#define GEN_FL_DEINT 1
#else
#define GEN_FL_DEINT 0
#endif

#if GEN_FL_DEINT
/* The de-interleaved vectors [o, olast) of a line (taps from q), e and od
 * the even and odd lanes of the 2*VN elements at q + 2*o. */
GAI void KFN(fl_wdrun)(const VT nv, const GT *q, GKT *dst, int64_t o, int64_t olast, VT e, VT od, const int prop)
{
    for (; o < olast; o += VN) {
        const VT a = V_LOAD(q + 2 * (o + VN)), b = V_LOAD(q + 2 * (o + VN) + VN);
        const VT en = V_EVEN(a, b), e2 = V_AL1(e, en);
        VT best = prop ? e : V_MAX(nv, e); /* without propagation a NaN must not enter (fl_wvec) */
        best = prop ? V_MAXP(best, od) : V_MAX(best, od);
        best = prop ? V_MAXP(best, e2) : V_MAX(best, e2);
        VK_STORE(dst + o, best);
        e = en;
        od = V_ODD(a, b);
    }
}
#endif

/* The middle vectors [VN, olast) of a line (taps from q), every tap inside the line. */
GAI void KFN(fl_wmid)(const KFN(flm) * mk, const VT nv, const GT *q, GKT *dst, int64_t olast, const int S,
                      const int64_t K, const int prop)
{
#if GEN_FL_DEINT
    if (S == 2 && K == 3) {
        if (olast > VN) {
            const VT a = V_LOAD(q + 2 * VN), b = V_LOAD(q + 3 * VN);
            KFN(fl_wdrun)(nv, q, dst, VN, olast, V_EVEN(a, b), V_ODD(a, b), prop);
        }
        return;
    }
#endif
    for (int64_t o = VN; o < olast; o += VN)
        VK_STORE(dst + o, KFN(fl_wvec)(mk, nv, q + S * o, K, 1, 2, S, prop, 0));
}

#if GEN_FL_DEINT && VN >= 16
/* A whole line (f16, bf16 at AVX-512 (at AVX2 it measured no faster: the
 * shuffles bound it there, not the conversions): stride 2, 3 taps, pad 0 or 1 in front (mf: tap 0
 * of the first vector's lane 0 is outside the line), nothing masked at the
 * end, olast > VN), every vector de-interleaved: the first from the loads at
 * q with tap 0 masked as fl_wvec masks it, the middle ones rolling as in
 * fl_wmid, the last (at olast, overlapping) on its own loads, tap 2 the
 * first lane of the next 2*VN elements' even lanes. Reads as fl_wmid (the
 * last vector: up to q + 2*olast + 3*VN). */
GAI void KFN(fl_wdline)(const KFN(flm) * mk, const VT nv, const GT *q, GKT *dst, int64_t olast, const int mf,
                        const int prop)
{
    VT a = V_LOAD(q), b = V_LOAD(q + VN);
    if (mf) {
        a = V_SEL(nv, a, mk->m[0][0][0]);
        b = V_SEL(nv, b, mk->m[0][1][0]);
    }
    KFN(fl_wdrun)(nv, q, dst, 0, olast, V_EVEN(a, b), V_ODD(a, b), prop);
    a = V_LOAD(q + 2 * olast);
    b = V_LOAD(q + 2 * olast + VN);
    const VT c = V_LOAD(q + 2 * olast + 2 * VN), e = V_EVEN(a, b);
    VT best = prop ? e : V_MAX(nv, e);
    best = prop ? V_MAXP(best, V_ODD(a, b)) : V_MAX(best, V_ODD(a, b));
    const VT e2 = V_AL1(e, V_EVEN(c, c));
    best = prop ? V_MAXP(best, e2) : V_MAX(best, e2);
    VK_STORE(dst + olast, best);
}
#define GEN_FL_WDL 1
#define GEN_FL_WDLINE(M0) KFN(fl_wdline)(&mk, nv, q, dst, olast, M0, prop)
#else
#define GEN_FL_WDL 0
#define GEN_FL_WDLINE(M0) ((void)0)
#endif

/* Stride 1, the windows fl_wpass does not take inline (more than 3 taps,
 * or dilated): each line copied once to a padded key buffer (the neutral
 * value on both sides, written once per call; without propagation a NaN
 * becomes the neutral value there, as fl_wvec drops it), then its W results
 * by direct taps over the copy, no lane masks, the vectors in blocks of 4
 * and 2 (the tap loop's overhead shared) and the last one again over the
 * line's last VN columns. Two buffers: line l + 1 is copied before line l's
 * taps are read, so the copy's stores have left the store buffer before
 * the unaligned tap loads read them (a load spanning two pending stores
 * does not forward: docs/performance.md). Reads of a line: exactly its
 * in2 elements (no line goes the scalar way). Lines of fewer than VN
 * elements (from v0) or wider than GEN_FL_PB keys: fl_wline. */
/* nb (1, 2 or 4) vectors of W results at dst + o from the padded copy b
 * (taps b + o + k*d). Without propagation (no NaN in the copy) from the
 * last tap back: V_MAX(tap, best) keeps the tap unless the later taps'
 * best is greater (the first maximum; the tap a memory operand), else
 * forward. (Named accumulators: an array of them stays in memory.) */
GAI void KFN(fl_pblk)(const GKT *b, GKT *dst, int64_t o, const int64_t K, const int64_t d, const int nb,
                      const int prop)
{
#define GEN_FL_PC(r, q) r = prop ? V_MAXP(r, VK_LOAD(q)) : V_MAX(VK_LOAD(q), r)
    const int64_t dq = prop ? d : -d;
    const GKT *q = prop ? b + o : b + o + (K - 1) * d;
    VT r0 = VK_LOAD(q), r1 = r0, r2 = r0, r3 = r0;
    if (nb > 1)
        r1 = VK_LOAD(q + VN);
    if (nb > 2) {
        r2 = VK_LOAD(q + 2 * VN);
        r3 = VK_LOAD(q + 3 * VN);
    }
    for (int64_t k = 1; k < K; ++k) {
        q += dq;
        GEN_FL_PC(r0, q);
        if (nb > 1)
            GEN_FL_PC(r1, q + VN);
        if (nb > 2) {
            GEN_FL_PC(r2, q + 2 * VN);
            GEN_FL_PC(r3, q + 3 * VN);
        }
    }
    VK_STORE(dst + o, r0);
    if (nb > 1)
        VK_STORE(dst + o + VN, r1);
    if (nb > 2) {
        VK_STORE(dst + o + 2 * VN, r2);
        VK_STORE(dst + o + 3 * VN, r3);
    }
#undef GEN_FL_PC
}

/* Copies the line xl's data [a, e) of the buffer (position v0 + i at i) to b. */
GAI void KFN(fl_pcopy)(const VT nv, const GT *xl, GKT *b, int64_t a, int64_t e, const int prop)
{
    int64_t i = a;
    for (; i + VN <= e; i += VN)
        VK_STORE(b + i, GFLOAT && !prop ? V_MAX(nv, V_LOAD(xl + i)) : V_LOAD(xl + i));
    if (i < e)
        VK_STORE(b + e - VN, GFLOAT && !prop ? V_MAX(nv, V_LOAD(xl + e - VN)) : V_LOAD(xl + e - VN));
}

/* The W results of lines [ga, gb) (x + l*in2) to wb (line stride fl_wl). */
__attribute__((noinline)) static void KFN(fl_wlines1)(const KFN(geo) * g, const GT *x, int64_t ga, int64_t gb,
                                                       GKT *wb, int prop)
{
    alignas(64) GKT buf[2][GEN_FL_PB];
    int64_t a, e, lb;
    (void)KFN(fl_pgeo)(g, &a, &e, &lb);
    const int64_t in2 = g->in[2], wl = g->fl_wl, K = g->K, d = g->d, O2 = g->out[2];
    const int64_t olast = O2 >= VN ? O2 - VN : 0;
    const VT nv = V_SET1(g->neutral);
    const GT *xl = x + ga * in2 + g->v0; /* position 0 of buffer index 0 */
    for (int h = 0; h < 2; ++h) {
        for (int64_t i = 0; i < a; i += VN)
            VK_STORE(buf[h] + i, nv);
        for (int64_t i = e; i < lb; i += VN)
            VK_STORE(buf[h] + i, nv);
    }
#define GEN_FL_PLINES(P_)                                                                                          \
    do {                                                                                                           \
        KFN(fl_pcopy)(nv, xl, buf[0], a, e, P_);                                                                   \
        for (int64_t l = ga; l < gb; ++l, xl += in2, wb += wl) {                                                   \
            const GKT *b = buf[(l - ga) & 1];                                                                      \
            if (l + 1 < gb)                                                                                        \
                KFN(fl_pcopy)(nv, xl + in2, buf[(l + 1 - ga) & 1], a, e, P_);                                      \
            if (O2 >= 4 * VN) /* the last block again over the line's last 4*VN columns */                       \
                for (int64_t o = 0; o < O2; o += 4 * VN)                                                           \
                    KFN(fl_pblk)(b, wb, o < O2 - 4 * VN ? o : O2 - 4 * VN, K, d, 4, P_);                           \
            else if (O2 >= 2 * VN)                                                                                 \
                for (int64_t o = 0; o < O2; o += 2 * VN)                                                           \
                    KFN(fl_pblk)(b, wb, o < O2 - 2 * VN ? o : O2 - 2 * VN, K, d, 2, P_);                           \
            else                                                                                                   \
                for (int64_t o = 0; o < O2; o += VN)                                                               \
                    KFN(fl_pblk)(b, wb, o < olast ? o : olast, K, d, 1, P_);                                       \
        }                                                                                                          \
    } while (0)
    if (GFLOAT && prop)
        GEN_FL_PLINES(1);
    else
        GEN_FL_PLINES(0);
#undef GEN_FL_PLINES
}

/* The W results of grid columns [0, O2) of the tensor's lines [ga, gb) to
 * wb (line stride fl_wl). Each line in vectors of VN columns (the last
 * vector of a line again over the line's last VN columns), taps read in
 * place; in the line's first and last vector, taps outside the line
 * become the neutral value through the lane masks. The lines whose vectors
 * would read outside the tensor (its first and last lines) go the scalar
 * way. The common window (3 taps, no dilation) inline, with the masks in a
 * local copy: stores of 1-byte keys may alias the geometry, not a local. */
GAI void KFN(fl_wpass)(const KFN(geo) * g, const GT *x, int64_t ga, int64_t gb, GKT *wb, const int S, const int prop)
{
    const int64_t wl = g->fl_wl, in2 = g->in[2], K = g->K, d = g->d, v0 = g->v0, O2 = g->out[2], xlen = g->xlen;
    const int64_t olast = O2 >= VN ? O2 - VN : 0; /* the last vector's first column */
    const int64_t lo = v0;
    int64_t hi = v0 + S * olast + S * VN + (K - 1) * d; /* a line's reads [lo, hi) */
    if (GEN_FL_DEINT && S == 2 && K == 3 && d == 1 && olast > VN && hi < v0 + 2 * olast + 4 * VN - 2)
        hi = v0 + 2 * olast + 4 * VN - 2; /* fl_wmid's last loads */
    const int inl = (K == 3 || (K == 2 && !g->fl_mk.mu[0][0] && !g->fl_mk.mu[0][1] && !g->fl_mk.mu[1][0] &&
                                 !g->fl_mk.mu[1][1])) &&
                    d == 1; /* the common windows inline */
    if (S == 1 && !inl && g->fl_pb) {
        KFN(fl_wlines1)(g, x, ga, gb, wb, prop);
        return;
    }
    int64_t sa = ga, sb = gb; /* lines [sa, sb) read in place */
    while (sa < gb && sa * in2 + lo < 0)
        ++sa;
    while (sb > sa && (sb - 1) * in2 + hi > xlen)
        --sb;
    for (int64_t l = ga; l < sa; ++l)
        KFN(fl_wscalar)(g, x + l * in2, wb + (l - ga) * wl, prop);
    const GT *q = x + sa * in2 + v0;
    GKT *dst = wb + (sa - ga) * wl;
    if (inl) {
        const KFN(flm) mk = g->fl_mk;
        const VT nv = V_SET1(g->neutral);
        int m0 = 0, m1 = 0; /* the masked taps of the first and last vector, bit k for tap k */
        for (int k = 0; k < K; ++k) {
            m0 |= (mk.mu[0][k] != 0) << k;
            m1 |= (mk.mu[1][k] != 0) << k;
        }
#define GEN_FL_LINES(K_, M0, M1)                                                                                   \
    if (GEN_FL_WDL && S == 2 && K_ == 3 && (M0 == 0 || M0 == 1) && M1 == 0 && olast > VN) {                           \
        for (int64_t l = sa; l < sb; ++l, q += in2, dst += wl)                                                     \
            GEN_FL_WDLINE(M0);                                                                                     \
    } else                                                                                                         \
    for (int64_t l = sa; l < sb; ++l, q += in2, dst += wl) {                                                       \
        VK_STORE(dst, KFN(fl_wvec)(&mk, nv, q, K_, 1, 0, S, prop, M0));                                            \
        KFN(fl_wmid)(&mk, nv, q, dst, olast, S, K_, prop);                                                         \
        if (olast > 0)                                                                                             \
            VK_STORE(dst + olast, KFN(fl_wvec)(&mk, nv, q + S * olast, K_, 1, 1, S, prop, M1));                    \
    }
        /* the usual borders as constants: 3 taps with pad 1 (tap 0 of the first vector), at the end nothing
         * (stride 2 over an even line) or tap 2 (stride 1); 2 or 3 taps without padding */
        if (K == 3 && m0 == 1 && m1 == 0)
            GEN_FL_LINES(3, 1, 0)
        else if (K == 3 && m0 == 1 && m1 == 4)
            GEN_FL_LINES(3, 1, 4)
        else if (K == 3 && m0 == 0 && m1 == 0)
            GEN_FL_LINES(3, 0, 0)
        else if (K == 3)
            GEN_FL_LINES(3, -1, -1)
        else
            GEN_FL_LINES(2, 0, 0)
#undef GEN_FL_LINES
    } else
        for (int64_t l = sa; l < sb; ++l, q += in2, dst += wl)
            KFN(fl_wline)(g, q, dst, S, prop);
    for (int64_t l = sb; l < gb; ++l) /* after the lines before them: a line's last vector may write past it */
        KFN(fl_wscalar)(g, x + l * in2, wb + (l - ga) * wl, prop);
}

/* Lines [*ga, *ge) of the tensor that task (nc, o0, o1) reads; its line count. */
GAI int64_t KFN(fl_span)(const KFN(geo) * g, int64_t nc, int64_t o0, int64_t o1, int64_t *ga, int64_t *ge)
{
    const int64_t c0 = g->cn[0][o0], c1 = g->cn[1][o1];
    const int64_t l0 = nc * g->in[0] + g->st[0][o0], l1 = g->st[1][o1];
    *ga = l0 * g->in[1] + l1;
    *ge = (l0 + (c0 > 0 ? c0 - 1 : 0) * g->step[0]) * g->in[1] + l1 + (c1 > 0 ? c1 - 1 : 0) * g->step[1] + 1;
    return c0 * c1;
}

/* The line pass of one output row at column o: lines b + r*ls for r < R (a
 * rank-2 window: one axis-0 line), or lp[r]. */
GAI VT KFN(fl_hvec)(const GKT *b, int64_t ls, const GKT *const *lp, int64_t o, const int64_t R, const VT init,
                    const int fe, const int prop)
{
    const VT h0 = VK_LOAD((lp ? lp[0] : b) + o);
    VT best = fe ? h0 : prop ? V_MAXP(init, h0) : V_MAX(init, h0);
    for (int64_t q = 1; q < R; ++q) {
        const VT h = VK_LOAD((lp ? lp[q] : b + q * ls) + o);
        best = prop ? V_MAXP(best, h) : V_MAX(best, h);
    }
    return best;
}

/* Streaming stores (GEN_FL_NT): the interior rows' whole vectors, where
 * the output is large (GEN_FL_NT_MIN_BYTES) and every row is whole 64-byte
 * lines (fl_ntok); vt_<isa>.h's V_STREAM, for the types that have it. */
#ifdef V_STREAM
#define GEN_FL_NT 1
#define GEN_FL_STREAM(p, v) V_STREAM(p, v)
#else
#define GEN_FL_NT 0
#define GEN_FL_STREAM(p, v) V_STORE(p, v)
#endif
#define GEN_FL_NT_MIN_BYTES (4 << 20)

/* Output row yr of O2 columns over R lines (b, ls or lp); for f16, whether
 * some result is a NaN (V_NANFIX). spill: a row narrower than a vector may
 * be stored as a whole vector (the rows it writes over come later). nt:
 * streaming stores (yr 64-byte aligned, O2 a multiple of VN). */
GAI uint64_t KFN(fl_hrow)(GT *yr, int64_t O2, const GKT *b, int64_t ls, const GKT *const *lp, const int64_t R,
                          const VT init, const int fe, const int prop, int spill, const int nt)
{
    int64_t o = 0;
    uint64_t fix = 0;
    VT best;
    for (; o + VN <= O2; o += VN) {
        best = KFN(fl_hvec)(b, ls, lp, o, R, init, fe, prop);
        fix |= (uint64_t)V_NANFIX(best);
        if (GEN_FL_NT && nt)
            GEN_FL_STREAM(yr + o, best);
        else
            V_STORE(yr + o, best);
    }
    if (o < O2) { /* the row's last VN columns again, or a row narrower than a vector */
        const int64_t ob = O2 >= VN ? O2 - VN : 0, nl = O2 - ob;
        best = KFN(fl_hvec)(b, ls, lp, ob, R, init, fe, prop);
        fix |= (uint64_t)V_NANFIX(best);
        if (nl == VN || spill) {
            V_STORE(yr + ob, best);
            if (nl < VN) /* (f16: lanes of the next rows) */
                fix &= ((uint64_t)1 << nl) - 1;
        } else
            V_STOREN(yr + ob, best, nl);
    }
    return fix;
}

/* Output row t (task (nc, o0, o1)) of any window (c0 x c1 lines from the
 * strip's line r0, at most GEN_LINES_MAX), out of line. */
__attribute__((noinline)) static uint64_t KFN(fl_hrow_any)(const KFN(geo) * g, GT *yr, const GKT *wr, int64_t c0,
                                                          int64_t c1, int prop, int spill)
{
    const GKT *lp[GEN_LINES_MAX];
    const int64_t wl = g->fl_wl, s0 = g->step[0] * g->in[1] * wl, s1 = g->step[1] * wl;
    int64_t r = 0;
    for (int64_t j0 = 0; j0 < c0; ++j0)
        for (int64_t j1 = 0; j1 < c1; ++j1)
            lp[r++] = wr + j0 * s0 + j1 * s1;
    const VT init = V_SET1(g->init);
    if (GFLOAT && prop)
        return KFN(fl_hrow)(yr, g->out[2], NULL, 0, lp, r, init, g->fe, 1, spill, 0);
    return KFN(fl_hrow)(yr, g->out[2], NULL, 0, lp, r, init, g->fe, 0, spill, 0);
}

#if GEN_TYPE == GEN_F16
/* Output row t (task (nc, o0, o1)): the NaN results, which the conversion
 * may have quieted, by the scalar scan. */
__attribute__((noinline)) static void KFN(fl_nanfix)(const struct maxpool_plan *p, const KFN(geo) * g, const GT *x,
                                                     GT *y, int64_t t, int prop)
{
    const int64_t O2 = g->out[2], rows = g->out[0] * g->out[1];
    const int64_t nc = t / rows, o0 = t % rows / g->out[1], o1 = t % rows % g->out[1];
    GT *yr = y + t * O2;
    KFN(row) w;
    KFN(row_set)(p, g, &w, x, y, NULL, t, nc, o0, o1);
    w.n = w.c = 0;
    for (int64_t q = 0; q < O2; ++q)
        if ((yr[q] & 0x7FFFu) > 0x7C00u)
            KFN(cf_put)(p, g, &w, q, yr[q], -1, 1, prop, 0);
}
#endif

#if GFLOAT
/* Whether the n elements at xl hold a NaN. */
__attribute__((noinline)) static int KFN(gen_hasnan)(const GT *xl, int64_t n)
{
    if (n < VN) {
        for (int64_t i = 0; i < n; ++i)
            if (GEN_ISNAN(GKEY(xl[i])))
                return 1;
        return 0;
    }
    /* NaN lanes stay NaN under V_MAXP; four chains (its latency) */
    VT acc = V_LOAD(xl + n - VN), a1 = acc, a2 = acc, a3 = acc;
    int64_t i = 0;
    for (; i + 4 * VN <= n; i += 4 * VN) {
        acc = V_MAXP(acc, V_LOAD(xl + i));
        a1 = V_MAXP(a1, V_LOAD(xl + i + VN));
        a2 = V_MAXP(a2, V_LOAD(xl + i + 2 * VN));
        a3 = V_MAXP(a3, V_LOAD(xl + i + 3 * VN));
    }
    for (; i + VN <= n; i += VN)
        acc = V_MAXP(acc, V_LOAD(xl + i));
    acc = V_MAXP(V_MAXP(acc, a1), V_MAXP(a2, a3));
    alignas(64) GKT k[VN];
    VK_STORE(k, acc);
    for (int l = 0; l < VN; ++l)
        if (GEN_ISNAN(k[l]))
            return 1;
    return 0;
}

/* Whether the input line xl holds a NaN (fl_fenan). */
static int KFN(fl_linenan)(const KFN(geo) * g, const GT *xl) { return KFN(gen_hasnan)(xl, g->in[2]); }

/* Output row t under the first-element start without propagation, its
 * first line holding a NaN: each window whose first tap is a NaN takes that
 * tap (the reference's scan keeps it). */
__attribute__((noinline)) static void KFN(fl_fefix)(const struct maxpool_plan *p, const KFN(geo) * g, const GT *x,
                                                    GT *y, int64_t t)
{
    const int64_t rows = g->out[0] * g->out[1];
    const int64_t nc = t / rows, o0 = t % rows / g->out[1], o1 = t % rows % g->out[1];
    const GT *xl = x + nc * p->in_spatial + (g->st[0][o0] * g->in[1] + g->st[1][o1]) * g->in[2];
    GT *yr = y + t * g->out[2];
    for (int64_t o = 0; o < g->out[2]; ++o) {
        const GT v = xl[g->st[2][o]]; /* every window has a W tap here (geo_flat) */
        if (GEN_ISNAN(GKEY(v)))
            yr[o] = v;
    }
}
#endif

#define GEN_FL_ROWS 256 /* output rows of one strip */

/* A row of a strip: its first line (from the strip's first), its window's
 * line counts along axes 0 and 1 */
typedef struct KFN(flr) {
    int32_t ra;
    uint16_t c0, c1;
} KFN(flr);

/* n rows from t (output yr) of R lines each (ls1 apart) from the W results
 * wr, the next row's dw further: the interior rows of a plane, without the
 * per-row bookkeeping; rows before nsp may store whole vectors. nf: the
 * first row's first-line NaN flag (fl_fenan; the next row's dra further).
 * nt: streaming stores (fl_hrow). */
GAI void KFN(fl_rrun)(const struct maxpool_plan *p, const KFN(geo) * g, const GT *x, GT *y, int64_t t, GT *yr,
                      const GKT *wr, int64_t n, int64_t nsp, int64_t dw, int64_t ls1, const int64_t R, const VT init,
                      const int fe, const int prop, const unsigned char *nf, int64_t dra, const int nt)
{
    const int64_t O2 = g->out[2];
    for (int64_t i = 0; i < n; ++i, wr += dw, yr += O2) {
        const uint64_t fix = KFN(fl_hrow)(yr, O2, wr, ls1, NULL, R, init, fe, prop, i < nsp, nt);
#if GEN_TYPE == GEN_F16
        if (fix)
            KFN(fl_nanfix)(p, g, x, y, t + i, prop);
#else
        (void)fix;
#endif
    }
#if GFLOAT
    if (nf) /* after the run: a row's whole-vector store may reach the next rows, never the ones before */
        for (int64_t i = 0; i < n; ++i)
            if (nf[i * dra])
                KFN(fl_fefix)(p, g, x, y, t + i);
#else
    (void)nf;
    (void)dra;
#endif
}

/* The line pass of the rows from t: P repetitions of the nr rows of tab (P
 * whole planes, Ll lines apart in the strip's W results wb; else P = 1).
 * The run of rows of one axis-0 line and R = 2 or 3 lines each, equally far
 * apart (a plane's interior rows), goes through fl_rrun. */
GAI void KFN(fl_rows)(const struct maxpool_plan *p, const KFN(geo) * g, const GT *x, GT *y, int64_t t, int64_t t1,
                      const KFN(flr) * tab, int64_t nr, int64_t P, int64_t Ll, const GKT *wb,
                      const unsigned char *nanf, const int prop, int nt)
{
    const int64_t O2 = g->out[2], wl = g->fl_wl, ls1 = g->step[1] * wl;
    const int64_t tsp = t1 - (VN + O2 - 1) / O2; /* rows up to tsp may store whole vectors (spill) */
    const int fe = g->fe;
    const VT init = V_SET1(g->init);
    GT *yr = y + t * O2;
    (void)nanf;
    /* the run [ia, ib): the first run of >= 2 rows of c0 = 1, c1 = R in {2, 3},
     * first lines dra > 0 apart (a padded first row, c1 = 2, is not its start:
     * the interior rows after it are) */
    int64_t ia = 0, ib = 0, dra = 0;
    for (int64_t a = 0; a + 1 < nr && ib == 0; ++a) {
        if (!(tab[a].c0 == 1 && (tab[a].c1 == 2 || tab[a].c1 == 3)))
            continue;
        const int64_t d = (int64_t)tab[a + 1].ra - tab[a].ra;
        int64_t b = a + 1;
        while (b < nr && tab[b].c0 == 1 && tab[b].c1 == tab[a].c1 && (int64_t)tab[b].ra - tab[b - 1].ra == d)
            ++b;
        if (b - a >= 2 && d > 0) {
            ia = a;
            ib = b;
            dra = d;
        }
    }
    for (int64_t pl = 0; pl < P; ++pl)
        for (int64_t i = 0; i < nr; ++i, ++t, yr += O2) {
            const KFN(flr) r = tab[i];
            const int64_t rl = pl * Ll + r.ra;
            if (i == ia && ib > ia) {
                const int64_t n = ib - ia, nsp = tsp - t + 1;
                const unsigned char *nf = GFLOAT && g->fl_fenan ? nanf + rl : NULL;
                if (GEN_FL_NT && nt && r.c1 == 3)
                    KFN(fl_rrun)(p, g, x, y, t, yr, wb + rl * wl, n, nsp, dra * wl, ls1, 3, init, fe, prop, nf, dra, 1);
                else if (GEN_FL_NT && nt)
                    KFN(fl_rrun)(p, g, x, y, t, yr, wb + rl * wl, n, nsp, dra * wl, ls1, 2, init, fe, prop, nf, dra, 1);
                else if (r.c1 == 3)
                    KFN(fl_rrun)(p, g, x, y, t, yr, wb + rl * wl, n, nsp, dra * wl, ls1, 3, init, fe, prop, nf, dra, 0);
                else
                    KFN(fl_rrun)(p, g, x, y, t, yr, wb + rl * wl, n, nsp, dra * wl, ls1, 2, init, fe, prop, nf, dra, 0);
                i += n - 1;
                t += n - 1;
                yr += (n - 1) * O2;
                continue;
            }
            if (r.c0 == 0 || r.c1 == 0 || r.c0 * r.c1 > GEN_LINES_MAX) { /* (whole planes: the other forms) */
                KFN(cf_task)(p, g, x, y, NULL, t, t + 1, prop, 0);
                continue;
            }
            const GKT *wr = wb + rl * wl;
            uint64_t fix;
            const int spill = t <= tsp;
            if (r.c0 == 1 && r.c1 == 3)
                fix = KFN(fl_hrow)(yr, O2, wr, ls1, NULL, 3, init, fe, prop, spill, 0);
            else if (r.c0 == 1)
                fix = KFN(fl_hrow)(yr, O2, wr, ls1, NULL, r.c1, init, fe, prop, spill, 0);
            else
                fix = KFN(fl_hrow_any)(g, yr, wr, r.c0, r.c1, prop, spill);
#if GEN_TYPE == GEN_F16
            if (fix)
                KFN(fl_nanfix)(p, g, x, y, t, prop);
#else
            (void)fix;
#endif
#if GFLOAT
            if (g->fl_fenan && nanf[rl])
                KFN(fl_fefix)(p, g, x, y, t);
#endif
        }
}

/* fl_wpass and fl_rows with S and the NaN rule as constants, out of line:
 * each is called twice by fl_run (build time) */
__attribute__((noinline)) static void KFN(fl_wpass_o)(const KFN(geo) * g, const GT *x, int64_t ga, int64_t gb,
                                                      GKT *wb, int S, int prop)
{
    if (GFLOAT && prop) {
        if (S == 1)
            KFN(fl_wpass)(g, x, ga, gb, wb, 1, 1);
        else
            KFN(fl_wpass)(g, x, ga, gb, wb, 2, 1);
    } else {
        if (S == 1)
            KFN(fl_wpass)(g, x, ga, gb, wb, 1, 0);
        else
            KFN(fl_wpass)(g, x, ga, gb, wb, 2, 0);
    }
}

__attribute__((noinline)) static void KFN(fl_rows_o)(const struct maxpool_plan *p, const KFN(geo) * g, const GT *x,
                                                     GT *y, int64_t t, int64_t t1, const KFN(flr) * tab, int64_t nr,
                                                     int64_t P, int64_t Ll, const GKT *wb, const unsigned char *nanf,
                                                     int prop, int nt)
{
    if (GFLOAT && prop)
        KFN(fl_rows)(p, g, x, y, t, t1, tab, nr, P, Ll, wb, nanf, 1, nt);
    else
        KFN(fl_rows)(p, g, x, y, t, t1, tab, nr, P, Ll, wb, nanf, 0, nt);
}

/* Whether fl_run's interior rows stream out (GEN_FL_NT): an output of at
 * least GEN_FL_NT_MIN_BYTES (it would not stay in cache for the next
 * operator; 1x64x224x224 k3 s1 f32, 12.8 MB: about 0.6x the time with plain
 * stores) whose rows are whole 64-byte lines (a partial line written so
 * costs far more than it saves). */
static int KFN(fl_ntok)(const struct maxpool_plan *p, const GT *y)
{
    const int64_t rb = p->axis[p->rank - 1].out * (int64_t)sizeof(GT);
    return GEN_FL_NT && rb % 64 == 0 && ((uintptr_t)y & 63) == 0 &&
           p->n * p->c * p->out_spatial >= GEN_FL_NT_MIN_BYTES / (int64_t)sizeof(GT);
}

/* A strip's lines [ga, ge): their W results to wb and (fl_fenan) which hold a NaN to nanf. */
static void KFN(fl_strip)(const KFN(geo) * g, const GT *x, int64_t ga, int64_t ge, GKT *wb, unsigned char *nanf, int S,
                          int prop)
{
    KFN(fl_wpass_o)(g, x, ga, ge, wb, S, prop);
#if GFLOAT
    if (g->fl_fenan)
        for (int64_t l = ga; l < ge; ++l)
            nanf[l - ga] = (unsigned char)KFN(fl_linenan)(g, x + l * g->in[2]);
#else
    (void)nanf;
#endif
}

/* Tasks [t0, t1) in strips of at most fl_nl input lines: where a task range
 * holds whole planes whose lines fit, strips of whole planes with one table
 * of a plane's rows; else strips of at most GEN_FL_ROWS rows recorded one by
 * one (each row's first line in the strip and its window's line counts).
 * Each strip: the W pass of its lines, then its rows. */
__attribute__((noinline)) static void KFN(fl_run)(const struct maxpool_plan *p, const KFN(geo) * g, const GT *x, GT *y,
                                                   int64_t t0, int64_t t1,
                        int S, int prop)
{
    alignas(64) GKT wb[GEN_FL_BYTES / sizeof(GKT) + VN]; /* VN: the line pass's last vector may read past a line */
    KFN(flr) rt[GEN_FL_ROWS], pt[GEN_FL_ROWS]; /* a strip's rows; a plane's rows */
#if GFLOAT
    unsigned char nanf[GEN_FL_BYTES / 4]; /* fl_fenan: the strip's lines holding a NaN (fl_nl <= this: keys >= 4 bytes) */
#else
    unsigned char *const nanf = NULL;
#endif
    const int64_t O0 = g->out[0], O1 = g->out[1], rows = O0 * O1, nlmax = g->fl_nl;
    const int64_t in0 = g->in[0], in1 = g->in[1], L = in0 * in1;
    const int64_t s0l = g->step[0] * in1, s1l = g->step[1];
    const int64_t *const cn0 = g->cn[0], *const cn1 = g->cn[1], *const st0 = g->st[0], *const st1 = g->st[1];
    const int whole = rows <= GEN_FL_ROWS && L <= nlmax && t1 - t0 >= rows;
    const int nt = KFN(fl_ntok)(p, y);
    if (whole)
        for (int64_t r = 0; r < rows; ++r) {
            const int64_t o0 = r / O1, o1 = r % O1;
            pt[r].ra = (int32_t)(st0[o0] * in1 + st1[o1]);
            pt[r].c0 = (uint16_t)(cn0[o0] < 65535 ? cn0[o0] : 65535);
            pt[r].c1 = (uint16_t)(cn1[o1] < 65535 ? cn1[o1] : 65535);
        }
    int64_t t = t0;
    while (t < t1) {
        int64_t nc = t / rows, o0 = t % rows / O1, o1 = t % rows % O1, ga, ge;
        if (whole && o0 == 0 && o1 == 0 && t + rows <= t1) { /* whole planes */
            int64_t P = (t1 - t) / rows;
            P = P < nlmax / L ? P : nlmax / L;
            ga = nc * L;
            ge = ga + P * L;
            KFN(fl_strip)(g, x, ga, ge, wb, nanf, S, prop);
            KFN(fl_rows_o)(p, g, x, y, t, t1, pt, rows, P, L, wb, nanf, prop, nt);
            t += P * rows;
            continue;
        }
        const int64_t R = KFN(fl_span)(g, nc, o0, o1, &ga, &ge);
        if (R == 0 || R > GEN_LINES_MAX || ge - ga > nlmax) { /* the other forms */
            KFN(cf_task)(p, g, x, y, NULL, t, t + 1, prop, 0);
            ++t;
            continue;
        }
        /* the strip: the next tasks while their lines fit (up to the next plane where whole planes go);
         * lb: the first line of the row's (nc, o0) lines, e0: the lines its axis-0 window adds */
        int64_t n = 0, c0 = cn0[o0], lb = (nc * in0 + st0[o0]) * in1, e0 = (c0 > 0 ? c0 - 1 : 0) * s0l;
        rt[0].ra = 0;
        for (;;) {
            rt[n].c0 = (uint16_t)c0;
            rt[n].c1 = (uint16_t)cn1[o1];
            ++n;
            if (t + n == t1 || n == GEN_FL_ROWS)
                break;
            if (++o1 == O1) {
                o1 = 0;
                if (++o0 == O0) {
                    o0 = 0;
                    ++nc;
                    if (whole)
                        break;
                }
                c0 = cn0[o0];
                lb = (nc * in0 + st0[o0]) * in1;
                e0 = (c0 > 0 ? c0 - 1 : 0) * s0l;
            }
            const int64_t c1 = cn1[o1], a2 = lb + st1[o1], e2 = a2 + e0 + (c1 > 0 ? c1 - 1 : 0) * s1l + 1;
            if (c0 * c1 == 0 || c0 * c1 > GEN_LINES_MAX || a2 < ga || e2 - ga > nlmax) /* (dilated windows: starts may go back) */
                break;
            rt[n].ra = (int32_t)(a2 - ga);
            ge = e2 > ge ? e2 : ge;
        }
        KFN(fl_strip)(g, x, ga, ge, wb, nanf, S, prop);
        KFN(fl_rows_o)(p, g, x, y, t, t1, rt, n, 1, 0, wb, nanf, prop, nt);
        t += n;
    }
    if (GEN_FL_NT && nt) /* the streamed lines visible before the call returns (other threads, the caller) */
        _mm_sfence();
}
