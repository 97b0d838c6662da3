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
#define GEN_FLS_RUNS 128 /* runs of output rows of a strip (2*KH - 1 at most) */

/* Lines per strip where the form takes the plan (values only), else 0. */
static int64_t KFN(fls_geo)(const struct maxpool_plan *p, const KFN(geo) * g, int wi)
{
    if (wi || p->desc.window != MAXPOOL_WINDOW_FIXED || p->rank > 2 || !g->grid || g->S != 1 || g->d != 1 ||
        g->step[1] != 1 || g->K > 64)
        return 0;
    if (p->rank == 2 && p->axis[0].stride != 1)
        return 0;
    const int64_t O1 = g->out[1], O2 = g->out[2];
    int64_t kh = 0;
    for (int64_t y = 0; y < O1; ++y) {
        if (g->cn[1][y] == 0 || (y > 0 && g->st[1][y] < g->st[1][y - 1]))
            return 0;
        kh = g->cn[1][y] > kh ? g->cn[1][y] : kh;
    }
    if (kh > GEN_FLS_RUNS / 2)
        return 0;
    if (g->fe)
        for (int64_t o = 0; o < O2; ++o)
            if (g->cn[2][o] == 0)
                return 0;
    const int64_t Ls = O2 + g->K - 1, cap = (int64_t)(GEN_FLS_BYTES / sizeof(GKT));
    const int64_t nl = (cap - 2 * (g->K + 2 * VN)) / (Ls + O2);
    return nl < kh || nl < 1 ? 0 : nl;
}

/* dst[i] = comb(a[i], b[i]) for i < n (rounded up to whole vectors), keys. */
GAI void KFN(fls_comb)(GKT *dst, const GKT *a, const GKT *b, int64_t n, const int prop)
{
    for (int64_t i = 0; i < n; i += VN) {
        const VT va = VK_LOAD(a + i), vb = VK_LOAD(b + i);
        VK_STORE(dst + i, prop ? V_MAXP(va, vb) : V_MAX(va, vb));
    }
}

/* One input line xl to the padded line d (Ls keys; the stores run up to
 * VN past it). Each element as comb(neutral, x): itself, or under NaN
 * ignore a NaN as the neutral value (and no loop a compiler would turn
 * into a memcpy call). */
GAI void KFN(fls_line)(const KFN(geo) * g, const GT *xl, GKT *d, int64_t Ls, const VT nv, const int prop)
{
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
 * X
 * then the final combine's taps. */
static int64_t KFN(fls_span)(int64_t c)
{
    int64_t best = 1, bc = c;
    for (int64_t P = 2, lv = 1; P <= c; P *= 2, ++lv) {
        const int64_t nt = (c - 1) / P + 1, cost = 2 * lv + nt;
        if (cost < bc && nt <= GEN_FLS_TAPS) {
            bc = cost;
            best = P;
        }
    }
    while ((c - 1) / best + 1 > GEN_FLS_TAPS)
        best *= 2;
    return best;
}

/* The taps off[0..nt) (off[0] = 0) of s at i combined in order; NT > 0:
 * nt a constant (the loop unrolled). */
GAI VT KFN(fls_tv)(const GKT *s, const int64_t *off, int nt, int64_t i, const int NT, const int prop)
{
    VT r = VK_LOAD(s + i);
    if (NT > 0) {
        GEN_UNROLL
        for (int j = 1; j < NT; ++j) {
            const VT v = VK_LOAD(s + off[j] + i);
            r = prop ? V_MAXP(r, v) : V_MAX(r, v);
        }
    } else
        for (int j = 1; j < nt; ++j) {
            const VT v = VK_LOAD(s + off[j] + i);
            r = prop ? V_MAXP(r, v) : V_MAX(r, v);
        }
    return r;
}

/* fn(.., NT) with the tap count nt a constant where it is 2 to 5 */
#define GEN_FLS_NT(nt, CALL)                                                                                       \
    do {                                                                                                           \
        switch (nt) {                                                                                              \
        case 2: CALL(2); break;                                                                                    \
        case 3: CALL(3); break;                                                                                    \
        case 4: CALL(4); break;                                                                                    \
        case 5: CALL(5); break;                                                                                    \
        default: CALL(0); break;                                                                                   \
        }                                                                                                          \
    } while (0)

/* Output elements [0, n) at yo: comb(init, the taps of s) (or without init:
 * first-element start); for f16, whether some result is a NaN. */
GAI uint64_t KFN(fls_emit)(GT *yo, const GKT *s, const int64_t *off, int nt, int64_t n, const VT init, const int fe,
                           const int NT, const int prop)
{
    uint64_t fix = 0;
    VT r;
#define GEN_FLS_R(i)                                                                                               \
    do {                                                                                                           \
        r = KFN(fls_tv)(s, off, nt, (i), NT, prop);                                                                    \
        if (!fe)                                                                                                   \
            r = prop ? V_MAXP(init, r) : V_MAX(init, r);                                                           \
    } while (0)
    int64_t i = 0;
    for (; i + VN <= n; i += VN) {
        GEN_FLS_R(i);
        fix |= (uint64_t)V_NANFIX(r);
        V_STORE(yo + i, r);
    }
    if (i < n) {
        if (n >= VN) {
            GEN_FLS_R(n - VN);
            fix |= (uint64_t)V_NANFIX(r);
            V_STORE(yo + n - VN, r);
        } else {
            GEN_FLS_R(0);
            fix |= (uint64_t)V_NANFIX(r) & (((uint64_t)1 << n) - 1);
            V_STOREN(yo, r, n);
        }
    }
#undef GEN_FLS_R
    return fix;
}

/* A run of output rows: rows [y, y + n) of a strip, the first's window c
 * lines from a (relative to the strip), each next row one line further
 * down; emitted at span length P. */
typedef struct KFN(flsr) {
    int64_t y, n, a, c, P;
} KFN(flsr);

/* The runs of output rows [ya, yb) (lines from la), for H spans Ph; their number. */
static int KFN(fls_runs)(const KFN(geo) * g, int64_t ya, int64_t yb, int64_t la, int64_t Ph, KFN(flsr) * run)
{
    const int64_t *const st1 = g->st[1], *const cn1 = g->cn[1];
    int nr = 0;
    for (int64_t yy = ya; yy < yb;) {
        const int64_t c = cn1[yy], a = st1[yy] - la;
        int64_t ye = yy + 1;
        while (ye < yb && cn1[ye] == c && st1[ye] - la == a + (ye - yy))
            ++ye;
        const int64_t P2 = GEN_FLS_P2(c);
        run[nr].y = yy;
        run[nr].n = ye - yy;
        run[nr].a = a;
        run[nr].c = c;
        run[nr].P = P2 < Ph ? P2 : Ph;
        ++nr;
        yy = ye;
    }
    return nr;
}

/* Output rows [ya, yb) of plane nc (lines [la, lb) of the plane): the runs
 * run[0..nr), W spans Pw (final taps offw[0..ntw)), H spans up to Ph. */
GAI void KFN(fls_strip)(const struct maxpool_plan *p, const KFN(geo) * g, const GT *x, GT *y, int64_t nc,
                        int64_t ya, int64_t yb, GKT *T, GKT *U, const KFN(flsr) * run, int nr, int64_t Pw,
                        const int64_t *offw, int ntw, int64_t Ph, const int prop)
{
    const int64_t W = g->in[2], O1 = g->out[1], O2 = g->out[2], K = g->K, Ls = O2 + K - 1;
    const int64_t *const st1 = g->st[1], *const cn1 = g->cn[1];
    const int64_t la = st1[ya], lb = st1[yb - 1] + cn1[yb - 1], nl = lb - la;
    const VT nv = V_SET1(g->neutral), init = V_SET1(g->init);
    const GT *xp = x + nc * p->in_spatial + la * W;
    /* 1. the lines, padded */
    const int64_t pb = -g->v0, ub = W + pb < Ls ? W + pb : Ls, n = ub - pb;
    if (pb <= VN && Ls - ub <= VN && n >= VN) {
        GKT *d = T;
        for (int64_t l = 0; l < nl; ++l, xp += W, d += Ls) {
#define GEN_FLS_LEAF(v) (prop ? V_MAXP(nv, v) : V_MAX(nv, v))
            VK_STORE(d, nv);
            const VT vl = V_LOAD(xp + n - VN);
            for (int64_t j = 0; j + VN < n; j += VN) {
                const VT v = V_LOAD(xp + j);
                VK_STORE(d + pb + j, GEN_FLS_LEAF(v));
            }
            VK_STORE(d + pb + n - VN, GEN_FLS_LEAF(vl));
            VK_STORE(d + ub, nv);
#undef GEN_FLS_LEAF
        }
    } else
        for (int64_t l = 0; l < nl; ++l)
            KFN(fls_line)(g, xp + l * W, T + l * Ls, Ls, nv, prop);
    /* 2. W levels, each line's W result to U */
    const int64_t N = nl * Ls;
    for (int64_t P = 1; P < Pw; P *= 2)
        for (int64_t i = 0; i < N - P; i += VN) {
            const VT va = VK_LOAD(T + i), vb = VK_LOAD(T + P + i);
            VK_STORE(T + i, prop ? V_MAXP(va, vb) : V_MAX(va, vb));
        }
#define GEN_FLS_WF(NT)                                                                                             \
    for (int64_t l = 0; l < nl; ++l)                                                                               \
        for (int64_t o = 0; o < O2; o += VN)                                                                       \
            VK_STORE(U + l * O2 + o, KFN(fls_tv)(T + l * Ls, offw, ntw, o, NT, prop))
    if (ntw == 1)
        GEN_FLS_WF(1);
    else
        GEN_FLS_NT(ntw, GEN_FLS_WF);
#undef GEN_FLS_WF
    /* 3. H levels, the runs at their level */
    GT *yp = y + (nc * O1 + ya) * O2;
    for (int64_t P = 1;; P *= 2) {
        for (int r = 0; r < nr; ++r) {
            if (run[r].P != P)
                continue;
            int64_t off[GEN_FLS_TAPS];
            const int nt = KFN(fls_taps)(run[r].c, P, O2, off);
            uint64_t fix;
#define GEN_FLS_EM(NT)                                                                                             \
    fix = KFN(fls_emit)(yp + (run[r].y - ya) * O2, U + run[r].a * O2, off, nt, run[r].n * O2, init, g->fe, NT, prop)
            if (nt == 1)
                GEN_FLS_EM(1);
            else
                GEN_FLS_NT(nt, GEN_FLS_EM);
#undef GEN_FLS_EM
#if GEN_TYPE == GEN_F16
            if (fix)
                for (int64_t q = run[r].y; q < run[r].y + run[r].n; ++q)
                    KFN(fl_nanfix)(p, g, x, y, nc * O1 + q, prop);
#else
            (void)fix;
#endif
        }
        if (P >= Ph)
            break;
        const int64_t m = (nl - 2 * P + 1) * O2;
        for (int64_t i = 0; i < m; i += VN) {
            const VT va = VK_LOAD(U + i), vb = VK_LOAD(U + P * O2 + i);
            VK_STORE(U + i, prop ? V_MAXP(va, vb) : V_MAX(va, vb));
        }
    }
#if GFLOAT
    if (g->fe && !prop)
        for (int64_t yy = ya; yy < yb; ++yy)
            if (KFN(fl_linenan)(g, x + nc * p->in_spatial + st1[yy] * W))
                KFN(fl_fefix)(p, g, x, y, nc * O1 + yy);
#endif
}

/* Tasks (output rows) [t0, t1) in strips (the runs of a strip kept for the
 * next strip of the same rows: whole planes). */
__attribute__((noinline)) static void KFN(fls_run)(const struct maxpool_plan *p, const KFN(geo) * g, const GT *x,
                                                    GT *y, int64_t t0, int64_t t1, int64_t nlmax, int prop)
{
    alignas(64) GKT buf[GEN_FLS_BYTES / sizeof(GKT)];
    KFN(flsr) run[GEN_FLS_RUNS];
    int64_t offw[GEN_FLS_TAPS];
    const int64_t O1 = g->out[1], O2 = g->out[2], K = g->K, Ls = O2 + K - 1;
    const int64_t *const st1 = g->st[1], *const cn1 = g->cn[1];
    GKT *const T = buf, *const U = buf + nlmax * Ls + K + 2 * VN;
    int64_t kh = 0;
    for (int64_t yy = 0; yy < O1; ++yy)
        kh = cn1[yy] > kh ? cn1[yy] : kh;
    const int64_t Pw = KFN(fls_span)(K), Ph = KFN(fls_span)(kh);
    const int ntw = KFN(fls_taps)(K, Pw, 1, offw);
#ifdef GEN_FLS_TRACE /* tests: show that the form runs */
    fprintf(stderr, "gen_fls " GEN_FLS_STR(KPREFIX) " rows %lld\n", (long long)(t1 - t0));
#endif
    int64_t ra = -1, rb = -1; /* the rows of the runs */
    int nr = 0;
    for (int64_t t = t0; t < t1;) {
        const int64_t nc = t / O1, y0 = t % O1, y1 = O1 < y0 + (t1 - t) ? O1 : y0 + (t1 - t);
        int64_t yb = y0 + 1;
        while (yb < y1 && st1[yb] + cn1[yb] - st1[y0] <= nlmax)
            ++yb;
        if (y0 != ra || yb != rb) {
            nr = KFN(fls_runs)(g, y0, yb, st1[y0], Ph, run);
            ra = y0;
            rb = yb;
        }
        if (GFLOAT && prop)
            KFN(fls_strip)(p, g, x, y, nc, y0, yb, T, U, run, nr, Pw, offw, ntw, Ph, 1);
        else
            KFN(fls_strip)(p, g, x, y, nc, y0, yb, T, U, run, nr, Pw, offw, ntw, Ph, 0);
        t += yb - y0;
    }
}
