/* SPDX-License-Identifier: Apache-2.0 */
/* The type-generic kernels (gen_impl.h): channels-first, stride 1, log step
 * (values only). Included once by gen_impl.h, after gen_fl.h (whose NaN
 * fixes it calls). */

/* ---- channels-first, stride 1, log step (values only) ------------------ *
 * Fixed windows of stride 1 and dilation 1 along H and W (rank 1 or 2), no
 * indices: the work per output does not grow with the kernel size, and
 * small planes fill the vectors (the passes run flat over a strip of lines,
 * not line by line). A strip is output rows [ya, yb) of one plane and the
 * lines [la, lb) they read, at most fls_nl:
 *  1. each line to the buffer T as keys at stride Ls = O2 + K - 1 (the
 *     padded line: position u is input column u + v0, the neutral value
 *     outside the line; NaN ignored: NaN leaves as the neutral value too);
 *  2. W levels in place, flat over the whole strip (entries whose span runs
 *     into the next line are never used): T_2P[i] = comb(T_P[i], T_P[i+P]),
 *     P = 1, 2, .. up to Pw, the largest power of two <= K; each line's W
 *     result R[o] = comb(T_Pw[o], T_Pw[o + K - Pw]) to the buffer U at stride
 *     O2 (no gap: the H pass runs flat over it);
 *  3. H levels in place over U, flat: U_2P[l] = comb(U_P[l], U_P[l+P]); an
 *     output row whose window holds c lines from a (c < KH at the borders:
 *     no padding lines) is comb(U_P[a], U_P[a + c - P]), P the largest power
 *     of two <= c, written when level P is built; consecutive rows of the
 *     same c and a one line further down in one flat run of the output;
 *     from the start value: comb(init, ..), or (first-element start) not.
 * comb(A, B) = "B replaces A by the rule" (V_MAX / V_MAXP with A kept): for
 * two spans A, B of one ordered sequence, A starting first and B ending
 * last, overlapping or adjacent, it is the scan of A u B: the first maximum
 * (an equal later key never replaces: ties and -0/+0 keep A's), the last
 * NaN under propagation (B's if B holds one, else A's). W then H is the
 * row-major scan (gen_fl.h); the neutral value of the padding never
 * replaces anything. The first-element start, the f16 NaN results and the
 * rows whose first line holds a NaN (first-element start, NaN ignored) are
 * done as in the W-first form (fl_fefix, fl_nanfix), with the same
 * condition (every window has a W tap).
 * Scratch: T and U, GEN_FLS_BYTES on the stack. */

#define GEN_FLS_BYTES 28672
#ifdef GEN_FLS_TRACE
#include <stdio.h>
#define GEN_FLS_STR_(a) #a
#define GEN_FLS_STR(a) GEN_FLS_STR_(a)
#endif
#define GEN_FLS_TAPS 32 /* taps of a final combine */

/* Lines per strip where the form takes the plan (values only), else 0;
 * *kh, *ph: the H kernel and pad (the windows clipped to the plane). */
static int64_t KFN(fls_geo)(const struct maxpool_plan *p, const KFN(geo) * g, int wi, int64_t *kh, int64_t *ph)
{
    if (wi || p->desc.window != MAXPOOL_WINDOW_FIXED || p->rank > 2 || !g->grid || g->S != 1 || g->d != 1 ||
        g->step[1] != 1 || g->K > 64 || g->v0 > 0)
        return 0;
    *kh = 1;
    *ph = 0;
    if (p->rank == 2) {
        if (p->axis[0].stride != 1 || p->axis[0].kernel > 64)
            return 0;
        *kh = p->axis[0].kernel;
        *ph = p->axis[0].pad_begin;
    }
    const int64_t O1 = g->out[1], O2 = g->out[2], H = g->in[1];
    for (int64_t y = 0; y < O1; ++y) { /* the stride-1 windows, clipped: none empty */
        const int64_t a = y - *ph > 0 ? y - *ph : 0, b = y - *ph + *kh < H ? y - *ph + *kh : H;
        if (b <= a || g->st[1][y] != a || g->cn[1][y] != b - a)
            return 0;
    }
    if (g->fe && !KFN(geo_taps)(g, 2))
        return 0;
    const int64_t Ls = O2 + g->K - 1, cap = (int64_t)(GEN_FLS_BYTES / sizeof(GKT));
    const int64_t nl = (cap - 2 * (g->K + 3 * VN)) / (Ls + O2);
    /* measured (callgrind, instructions per output): 3-tap windows are
     * cheaper W first (gen_fl.h); strips of fewer than kh - 1 rows (wide
     * planes, tall windows) redo too many lines' W pass */
    if ((g->K < 5 && *kh < 5) || nl - *kh + 1 < *kh - 1)
        return 0;
    return nl < *kh || nl < 1 ? 0 : nl;
}

/* One input line xl to the padded line d (Ls keys; the stores run up to
 * VN past it). Each element as comb(neutral, x): itself, or under NaN
 * ignore a NaN as the neutral value (and no loop a compiler would turn
 * into a memcpy call). */
__attribute__((noinline)) static void KFN(fls_line)(const KFN(geo) * g, const GT *xl, GKT *d, int64_t Ls, int prop)
{
    const VT nv = V_SET1(g->neutral);
#define GEN_FLS_LEAF(v) (prop ? V_MAXP(nv, v) : V_MAX(nv, v))
    const int64_t W = g->in[2], pb = -g->v0, ub = W + pb < Ls ? W + pb : Ls, n = ub - pb;
    for (int64_t u = 0; u < pb; u += VN)
        VK_STORE(d + u, nv);
    if (n >= VN) {
        const VT vl = V_LOAD(xl + n - VN);
        for (int64_t j = 0; j + VN < n; j += VN) {
            const VT v = V_LOAD(xl + j);
            VK_STORE(d + pb + j, GEN_FLS_LEAF(v));
        }
        VK_STORE(d + pb + n - VN, GEN_FLS_LEAF(vl));
    } else if (n > 0) {
        if (xl + VN <= g->xbeg + g->xlen) {
            const VT v = V_LOAD(xl);
            VK_STORE(d + pb, GEN_FLS_LEAF(v));
        } else
            for (int64_t j = 0; j < n; ++j) {
                const GKT k = GKEY(xl[j]);
                d[pb + j] = !prop && GEN_ISNAN(k) ? GKEY(g->neutral) : k;
            }
    }
    for (int64_t u = ub; u < Ls; u += VN)
        VK_STORE(d + u, nv);
#undef GEN_FLS_LEAF
}

/* The largest power of two <= c (c >= 1). */
#define GEN_FLS_P2(c) ((int64_t)1 << (63 - __builtin_clzll((unsigned long long)(c))))

/* The final combine of a window of c elements over spans of P <= c
 * elements: the spans from 0, P, 2P, .. and the last from c - P (off: their
 * offsets, times stride); their number. */
static int KFN(fls_taps)(int64_t c, int64_t P, int64_t stride, int64_t *off)
{
    int nt = 0;
    for (int64_t j = 0; j + P < c; j += P)
        off[nt++] = j * stride;
    off[nt++] = (c - P) * stride;
    return nt;
}

/* The span length P (a power of two <= c) that builds a window of c
 * elements the cheapest: log2(P) levels (a pass each, about 3 taps) then
 * the final combine's taps (2, 3 and 5 unrolled, others dearer). */
static int64_t KFN(fls_span)(int64_t c)
{
    int64_t best = 1, bc = c + (c == 4 || c > 5 ? 4 : 0);
    for (int64_t P = 2, lv = 1; P <= c; P *= 2, ++lv) {
        const int64_t nt = (c - 1) / P + 1, cost = 3 * lv + nt + (nt == 4 || nt > 5 ? 4 : 0);
        if (cost < bc && nt <= GEN_FLS_TAPS) {
            bc = cost;
            best = P;
        }
    }
    while ((c - 1) / best + 1 > GEN_FLS_TAPS)
        best *= 2;
    return best;
}

/* The taps off[0..nt) (off[0] = 0) of s at i (and i + VN: *r1) combined
 * in order; NT > 0: nt is NT (the loop unrolled); else up to 8 taps by
 * oe (GEN_FLS_OE, below), more by a loop. */
GAI VT KFN(fls_tv)(const GKT *s, const int64_t *off, const int64_t *oe, int nt, int64_t i, VT *r1, const int two,
                   const int NT, const int prop)
{
    VT r = VK_LOAD(s + i), q = two ? VK_LOAD(s + i + VN) : r;
#define GEN_FLS_TAPO(o)                                                                                            \
    do {                                                                                                           \
        const GKT *sj = s + (o) + i;                                                                               \
        const VT v = VK_LOAD(sj);                                                                                  \
        r = prop ? V_MAXP(r, v) : V_MAX(r, v);                                                                     \
        if (two) {                                                                                                 \
            const VT w = VK_LOAD(sj + VN);                                                                         \
            q = prop ? V_MAXP(q, w) : V_MAX(q, w);                                                                 \
        }                                                                                                          \
    } while (0)
#define GEN_FLS_TAP(j) GEN_FLS_TAPO(off[j])
    if (NT > 0) {
        GEN_UNROLL
        for (int j = 1; j < NT; ++j)
            GEN_FLS_TAP(j);
    } else if (oe && nt <= 8) {
        /* up to 8 taps without a loop or a copy per count (build time), in
         * order: entering at case nt, the block of case m + 1 takes tap
         * nt - m, at oe[m] = off[nt - m] */
#define GEN_FLS_TAPE(m) GEN_FLS_TAPO(oe[m])
        switch (nt) {
        case 8:
            GEN_FLS_TAPE(7);
            /* fallthrough */
        case 7:
            GEN_FLS_TAPE(6);
            /* fallthrough */
        case 6:
            GEN_FLS_TAPE(5);
            /* fallthrough */
        case 5:
            GEN_FLS_TAPE(4);
            /* fallthrough */
        case 4:
            GEN_FLS_TAPE(3);
            /* fallthrough */
        case 3:
            GEN_FLS_TAPE(2);
            /* fallthrough */
        case 2:
            GEN_FLS_TAPE(1);
            /* fallthrough */
        default:
            break;
        }
#undef GEN_FLS_TAPE
    } else
        for (int j = 1; j < nt; ++j)
            GEN_FLS_TAP(j);
#undef GEN_FLS_TAP
#undef GEN_FLS_TAPO
    if (two)
        *r1 = q;
    return r;
}

/* oe[m] = off[nt - m] for m = 1 .. 7 (0 past nt - 1), the offsets of up to
 * 8 taps as fls_tv's switch takes them: a local array read at constant
 * indices only, so its entries live in registers through the loop after it
 * (read from off in that loop, each offset was loaded again for every
 * vector: gcc does not hoist loads out of the switch's conditional cases). */
#define GEN_FLS_OE(oe, off, nt)                                                                                    \
    int64_t oe[8];                                                                                                 \
    oe[0] = 0;                                                                                                     \
    oe[1] = 1 < (nt) ? (off)[(nt) - 1] : 0;                                                                        \
    oe[2] = 2 < (nt) ? (off)[(nt) - 2] : 0;                                                                        \
    oe[3] = 3 < (nt) ? (off)[(nt) - 3] : 0;                                                                        \
    oe[4] = 4 < (nt) ? (off)[(nt) - 4] : 0;                                                                        \
    oe[5] = 5 < (nt) ? (off)[(nt) - 5] : 0;                                                                        \
    oe[6] = 6 < (nt) ? (off)[(nt) - 6] : 0;                                                                        \
    oe[7] = 7 < (nt) ? (off)[(nt) - 7] : 0

/* CALL(NT): the taps not unrolled (build time) */
#define GEN_FLS_NT(nt, CALL) CALL(0)

/* Output elements [0, n) at yo: comb(init, the taps of s); for f16,
 * whether some result is a NaN. */
GAI uint64_t KFN(fls_emit)(GT *yo, const GKT *s, const int64_t *off, int nt, int64_t n, const VT init, const int NT,
                           const int prop)
{
    uint64_t fix = 0;
    VT r, r1;
    GEN_FLS_OE(oe, off, nt);
#define GEN_FLS_I(v) (prop ? V_MAXP(init, v) : V_MAX(init, v))
    int64_t i = 0;
    for (; i + 2 * VN <= n; i += 2 * VN) {
        r = GEN_FLS_I(KFN(fls_tv)(s, off, oe, nt, i, &r1, 1, NT, prop));
        r1 = GEN_FLS_I(r1);
        fix |= (uint64_t)V_NANFIX(r) | (uint64_t)V_NANFIX(r1);
        V_STORE(yo + i, r);
        V_STORE(yo + i + VN, r1);
    }
    for (; i < n; i += VN) {
        const int64_t at = i + VN <= n ? i : n >= VN ? n - VN : 0;
        r = GEN_FLS_I(KFN(fls_tv)(s, off, oe, nt, at, &r1, 0, 0, prop));
        if (n >= VN) {
            fix |= (uint64_t)V_NANFIX(r);
            V_STORE(yo + at, r);
        } else {
            fix |= (uint64_t)V_NANFIX(r) & (((uint64_t)1 << n) - 1);
            V_STOREN(yo, r, n);
        }
    }
#undef GEN_FLS_I
    return fix;
}

/* The padded lines (fls_line), the common borders inline. */
GAI void KFN(fls_copy)(const KFN(geo) * g, const GT *xp, GKT *T, int64_t nl, int64_t Ls, const int prop)
{
    const int64_t W = g->in[2], pb = -g->v0, ub = W + pb < Ls ? W + pb : Ls, n = ub - pb;
    const VT nv = V_SET1(g->neutral);
#define GEN_FLS_LEAF(v) (prop ? V_MAXP(nv, v) : V_MAX(nv, v))
    if (pb <= VN && Ls - ub <= VN && n >= VN) {
        GKT *d = T;
        for (int64_t l = 0; l < nl; ++l, xp += W, d += Ls) {
            VK_STORE(d, nv);
            const VT vl = V_LOAD(xp + n - VN);
            for (int64_t j = 0; j + VN < n; j += VN) {
                const VT v = V_LOAD(xp + j);
                VK_STORE(d + pb + j, GEN_FLS_LEAF(v));
            }
            VK_STORE(d + pb + n - VN, GEN_FLS_LEAF(vl));
            VK_STORE(d + ub, nv);
        }
    } else if (pb <= VN && Ls - ub <= VN && n > 0 && xp + (nl - 1) * W + VN <= g->xbeg + g->xlen) {
        /* lines narrower than a vector (SPPF 20x20 in 8-bit lanes): one
         * whole vector from each line's start (inside the tensor), its
         * lanes past the line overwritten by the right border's neutral
         * store after it */
        GKT *d = T;
        for (int64_t l = 0; l < nl; ++l, xp += W, d += Ls) {
            const VT v = V_LOAD(xp);
            VK_STORE(d, nv);
            VK_STORE(d + pb, GEN_FLS_LEAF(v));
            VK_STORE(d + ub, nv);
        }
    } else
        for (int64_t l = 0; l < nl; ++l)
            KFN(fls_line)(g, xp + l * W, T + l * Ls, Ls, prop);
#undef GEN_FLS_LEAF
}

/* One level in place: b[i] = comb(b[i], b[i + off]), i < m (whole vectors). */
GAI void KFN(fls_lev)(GKT *b, int64_t off, int64_t m, const int prop)
{
    for (int64_t i = 0; i < m; i += VN) {
        const VT va = VK_LOAD(b + i), vb = VK_LOAD(b + off + i);
        VK_STORE(b + i, prop ? V_MAXP(va, vb) : V_MAX(va, vb));
    }
}

/* Each of nl lines' W result (taps offw[0..ntw) of T, line stride Ls) to Ur
 * at stride O2 (whole pairs of vectors: up to 2*VN past a line). */
GAI void KFN(fls_wfin)(const GKT *T, GKT *Ur, int64_t nl, int64_t Ls, int64_t O2, const int64_t *offw, int ntw,
                       const int NT, const int prop)
{
    if (O2 <= VN) { /* one vector a line (SPPF 20x20 in 8-bit lanes; each store's lanes past the line are
                       * the next line's, stored after it), the taps by fls_tv's switch */
        GEN_FLS_OE(oe, offw, ntw);
        for (int64_t l = 0; l < nl; ++l) {
            VT r1;
            VK_STORE(Ur + l * O2, KFN(fls_tv)(T + l * Ls, offw, oe, ntw, 0, &r1, 0, NT, prop));
        }
        return;
    }
    /* pairs of vectors, the taps by the loop (by the switch, gcc kept a
     * pointer per tap stepped per line: SPP 20x20 k13 in 16-bit lanes, one
     * pair a line, +9 % instructions) */
    for (int64_t l = 0; l < nl; ++l)
        for (int64_t o = 0; o < O2; o += 2 * VN) {
            VT r1;
            const VT r = KFN(fls_tv)(T + l * Ls, offw, NULL, ntw, o, &r1, 1, NT, prop);
            VK_STORE(Ur + l * O2 + o, r);
            VK_STORE(Ur + l * O2 + o + VN, r1);
        }
}

/* CALL(P) with the NaN rule as the constant P */
#define GEN_FLS_PROP(CALL)                                                                                         \
    do {                                                                                                           \
        if (GFLOAT && prop)                                                                                        \
            CALL(1);                                                                                               \
        else                                                                                                       \
            CALL(0);                                                                                               \
    } while (0)

/* Output rows [ya, yb) of plane nc: U line j is the W result of plane line
 * ya - ph + j, j < nu = yb - ya + kh - 1 (the neutral value for lines
 * outside the plane); W spans Pw (final taps offw[0..ntw)), H spans Ph
 * (final taps offh[0..nth)). */
__attribute__((noinline)) static void KFN(fls_strip)(const struct maxpool_plan *p, const KFN(geo) * g, const GT *x,
                                                      GT *y, int64_t nc, int64_t ya, int64_t yb, GKT *T, GKT *U,
                                                      int64_t kh, int64_t ph, int64_t Pw, const int64_t *offw, int ntw,
                                                      int64_t Ph, const int64_t *offh, int nth, int prop)
{
    const int64_t W = g->in[2], H = g->in[1], O1 = g->out[1], O2 = g->out[2], K = g->K, Ls = O2 + K - 1;
    const int64_t nu = yb - ya + kh - 1, l0 = ya - ph; /* U line j: plane line l0 + j */
    const int64_t la = l0 > 0 ? l0 : 0, lb = l0 + nu < H ? l0 + nu : H, nl = lb - la;
    const VT nv = V_SET1(g->neutral), init = V_SET1(g->fe ? g->neutral : g->init); /* first-element start: from the neutral value */
    const GT *xp = x + nc * p->in_spatial + la * W;
    /* 1. the lines, padded */
#define GEN_FLS_C(P_) KFN(fls_copy)(g, xp, T, nl, Ls, P_)
    GEN_FLS_PROP(GEN_FLS_C);
#undef GEN_FLS_C
    /* 2. W levels, each line's W result to U (lines outside the plane: neutral) */
    for (int64_t P = 1; P < Pw; P *= 2) {
#define GEN_FLS_L(P_) KFN(fls_lev)(T, P, nl * Ls - P, P_)
        GEN_FLS_PROP(GEN_FLS_L);
#undef GEN_FLS_L
    }
    GKT *const Ur = U + (la - l0) * O2;
    for (int64_t i = 0; i < (la - l0) * O2; i += VN)
        VK_STORE(U + i, nv);
#define GEN_FLS_W2(NT_, P_) KFN(fls_wfin)(T, Ur, nl, Ls, O2, offw, ntw, NT_, P_)
#define GEN_FLS_W(NT_)                                                                                             \
    do {                                                                                                           \
        if (GFLOAT && prop)                                                                                        \
            GEN_FLS_W2(NT_, 1);                                                                                    \
        else                                                                                                       \
            GEN_FLS_W2(NT_, 0);                                                                                    \
    } while (0)
    GEN_FLS_NT(ntw, GEN_FLS_W);
#undef GEN_FLS_W
#undef GEN_FLS_W2
    for (int64_t i = (lb - l0) * O2; i < nu * O2; i += VN)
        VK_STORE(U + i, nv);
    /* 3. H levels, then the rows */
    for (int64_t P = 1; P < Ph; P *= 2) {
#define GEN_FLS_L(P_) KFN(fls_lev)(U, P * O2, (nu - P) * O2, P_)
        GEN_FLS_PROP(GEN_FLS_L);
#undef GEN_FLS_L
    }
    uint64_t fix;
    GT *const yo = y + (nc * O1 + ya) * O2;
    const int64_t no = (yb - ya) * O2;
#define GEN_FLS_E(NT_)                                                                                             \
    do {                                                                                                           \
        if (GFLOAT && prop)                                                                                        \
            fix = KFN(fls_emit)(yo, U, offh, nth, no, init, NT_, 1);                                               \
        else                                                                                                       \
            fix = KFN(fls_emit)(yo, U, offh, nth, no, init, NT_, 0);                                               \
    } while (0)
    GEN_FLS_NT(nth, GEN_FLS_E);
#undef GEN_FLS_E
#if GEN_TYPE == GEN_F16
    if (fix)
        for (int64_t q = ya; q < yb; ++q)
            KFN(fl_nanfix)(p, g, x, y, nc * O1 + q, prop);
#else
    (void)fix;
#endif
#if GFLOAT
    if (g->fe && !prop)
        for (int64_t yy = ya; yy < yb; ++yy)
            if (KFN(fl_linenan)(g, x + nc * p->in_spatial + g->st[1][yy] * W))
                KFN(fl_fefix)(p, g, x, y, nc * O1 + yy);
#endif
}

/* Tasks (output rows) [t0, t1) in strips of at most nlmax - kh + 1 rows. */
__attribute__((noinline)) static void KFN(fls_run)(const struct maxpool_plan *p, const KFN(geo) * g, const GT *x,
                                                    GT *y, int64_t t0, int64_t t1, int64_t nlmax, int64_t kh,
                                                    int64_t ph, int prop)
{
    alignas(64) GKT buf[GEN_FLS_BYTES / sizeof(GKT)];
    int64_t offw[GEN_FLS_TAPS], offh[GEN_FLS_TAPS];
    const int64_t O1 = g->out[1], O2 = g->out[2], K = g->K, Ls = O2 + K - 1, rmax = nlmax - kh + 1;
    GKT *const T = buf, *const U = buf + nlmax * Ls + K + 3 * VN;
    const int64_t Pw = KFN(fls_span)(K), Ph = KFN(fls_span)(kh);
    const int ntw = KFN(fls_taps)(K, Pw, 1, offw), nth = KFN(fls_taps)(kh, Ph, O2, offh);
#ifdef GEN_FLS_TRACE /* tests: show that the form runs */
    fprintf(stderr, "gen_fls " GEN_FLS_STR(KPREFIX) " rows %lld\n", (long long)(t1 - t0));
#endif
    for (int64_t t = t0; t < t1;) {
        const int64_t nc = t / O1, y0 = t % O1, y1 = O1 < y0 + (t1 - t) ? O1 : y0 + (t1 - t);
        const int64_t yb = y1 - y0 < rmax ? y1 : y0 + rmax;
        KFN(fls_strip)(p, g, x, y, nc, y0, yb, T, U, kh, ph, Pw, offw, ntw, Ph, offh, nth, prop);
        t += yb - y0;
    }
}
