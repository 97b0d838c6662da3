/* SPDX-License-Identifier: Apache-2.0 */
/* The type-generic kernels (gen_impl.h): channels-first, W first with
 * indices. Included once by gen_impl.h, after gen_fl.h. */

/* ---- channels-first, W first with indices ------------------------------ *
 * The W-first form (gen_fl.h) with the winner's position: on the W grid
 * with stride S = 1 or 2, over strips of consecutive input lines of the
 * tensor, each line's W pass once: every grid column's max over its K taps
 * from the neutral value, and the number k of the tap that won (GEN_NONE:
 * none, every tap neutral or padding), in vectors of VN columns (taps read
 * in place as in the per-tap form, the line's first and last vector with
 * lane masks fli_m that make taps outside the line neutral; lines whose
 * vectors would read outside the tensor go the scalar way). Then the line
 * pass per output row: each column's max over its R window lines' W
 * results from the start value, the winning line q kept with its tap as
 * the tap number q*K + k of the per-tap form, and stored through the same
 * tap table (cfi_taps: toff[q*K + k] = line q's offset + k*d). Ties and
 * NaN as in gen_fl.h: the W pass keeps the first of equal keys and
 * (propagation) the last NaN of a line, the line pass the first line of
 * equal keys and the last line holding a NaN. First-element start: the
 * line pass starts at line 0's W result and tap, which is the reference's
 * scan of line 0 unless the window's first tap is the neutral value (the W
 * pass does not take it; the result's tap is then GEN_NONE and gets the
 * first tap's index) or, without propagation, a NaN (it stays: rows whose
 * first line holds a NaN take each such window's first tap afterwards,
 * value and index). f16 NaN results are redone by the scalar scan.
 * Needs R*K <= GEN_TAPS_LIMIT (else that row takes the other forms) and
 * every W window non-empty under the first-element start. Scratch on the
 * stack: the strip's W keys and taps, GEN_FL_BYTES / 2 each. */

#define GEN_FLI_N ((int64_t)(GEN_FL_BYTES / 2 / sizeof(GKT))) /* W results of a strip */

/* Whether the form applies (with indices); sets fli_nl and the masks. */
static int KFN(fli_geo)(KFN(geo) * g)
{
    const int64_t in2 = g->in[2], O2 = g->out[2], S = g->S;
    /* measured against the per-tap form (f16, 64x112x112, both ceilings):
     * K = 5, 7 about 1.3 to 2 times faster, K = 3 even (stride 1) or
     * slower (stride 2, memory-bound batches), K = 2 slower; and a window
     * of one line shares nothing */
    if (!g->grid || S > 2 || g->K > GEN_BM_K || g->K < 5)
        return 0;
    int64_t r0 = 0, r1 = 0;
    for (int64_t o = 0; o < g->out[0]; ++o)
        r0 = g->cn[0][o] > r0 ? g->cn[0][o] : r0;
    for (int64_t o = 0; o < g->out[1]; ++o)
        r1 = g->cn[1][o] > r1 ? g->cn[1][o] : r1;
    if (r0 * r1 < 2)
        return 0;
    if (g->fe && !KFN(geo_taps)(g, 2))
        return 0;
    const int64_t nl = (GEN_FLI_N - VN) / O2;
    if (nl < 2)
        return 0;
    const int64_t olast = O2 >= VN ? O2 - VN : 0;
    if (olast > VN && (g->v0 + S * VN < 0 || g->v0 + S * (olast - 1) + (g->K - 1) * g->d >= in2))
        return 0;
    g->fli_nl = nl;
    for (int m = 0; m < 2; ++m) {
        const int64_t ob = m == 0 ? 0 : olast;
        for (int64_t k = 0; k < g->K; ++k) {
            alignas(64) VLANE lv[VN];
            g->fli_mu[m][k] = 0;
            for (int64_t l = 0; l < VN; ++l) {
                const int64_t pos = g->v0 + S * (ob + l) + k * g->d;
                const int used = ob + l < O2, in = pos >= 0 && pos < in2;
                lv[l] = !used || in ? GEN_NONE : 0;
                if (used && !in)
                    g->fli_mu[m][k] = 1;
            }
            g->fli_m[m][k] = VM_LANES(lv);
        }
    }
    return 1;
}

/* The W result of column o of the input line xl and its tap, the scalar way. */
static GKT KFN(fli_went)(const KFN(geo) * g, const GT *xl, int64_t o, int prop, VLANE *kt)
{
    GKT b = GKEY(g->neutral);
    *kt = GEN_NONE;
    for (int64_t k = 0; k < g->K; ++k) {
        const int64_t pos = g->v0 + g->S * o + k * g->d;
        if (pos >= 0 && pos < g->in[2]) {
            const GKT v = GKEY(xl[pos]);
            if (v > b || (prop && GEN_ISNAN(v))) {
                b = v;
                *kt = (VLANE)k;
            }
        }
    }
    return b;
}

/* One vector of W results and taps at column o of the line xl (m = 0, 1:
 * the line's first, last vector, taps outside the line made neutral). */
GAI void KFN(fli_wvec)(const KFN(geo) * g, const GT *xl, GKT *kd, VLANE *td, int64_t o, const int64_t K, int m,
                       const int S, const int prop)
{
    const int64_t d = g->d;
    const VT nv = V_SET1(g->neutral);
    const GT *q = xl + g->v0 + S * o;
    VT best = nv;
    VI bt = VI_SET1(GEN_NONE);
    for (int64_t k = 0; k < K; ++k) {
        VT x = GEN_TAP(q + k * d, S);
        if (m < 2 && g->fli_mu[m][k])
            x = V_SEL(nv, x, g->fli_m[m][k]);
        KFN(upd)(&best, &bt, x, k, prop, 1);
    }
    VK_STORE(kd + o, best);
    VI_STORE(td + o, bt);
}

/* The W results and taps of the tensor's lines [ga, gb) to kb, tb (line
 * stride out[2]): each line's vectors from column 0 on, the last one over
 * the line's last VN columns (first and last with the lane masks). */
GAI void KFN(fli_wpass)(const KFN(geo) * g, const GT *x, int64_t ga, int64_t gb, GKT *kb, VLANE *tb, const int S,
                        const int prop)
{
    const int64_t wl = g->out[2], in2 = g->in[2], K = g->K, d = g->d, v0 = g->v0, O2 = g->out[2];
    const int64_t olast = O2 >= VN ? O2 - VN : 0;
    const int64_t lo = v0, hi = v0 + S * olast + S * VN + (K - 1) * d; /* a line's reads [lo, hi) */
    for (int64_t l = ga; l < gb; ++l) {
        const GT *xl = x + l * in2;
        GKT *kd = kb + (l - ga) * wl;
        VLANE *td = tb + (l - ga) * wl;
        if (l * in2 + lo < 0 || l * in2 + hi > g->xlen) { /* (the tensor's first or last lines) */
            for (int64_t o = 0; o < O2; ++o)
                kd[o] = KFN(fli_went)(g, xl, o, prop, &td[o]);
            continue;
        }
        for (int64_t o = 0;;) {
            KFN(fli_wvec)(g, xl, kd, td, o, K, o == 0 ? 0 : o == olast ? 1 : 2, S, prop);
            if (o == olast)
                break;
            o = o + VN < olast ? o + VN : olast;
        }
    }
}

/* fli_wpass with S and the NaN rule as constants, out of line. */
__attribute__((noinline)) static void KFN(fli_wpass_n)(const KFN(geo) * g, const GT *x, int64_t ga, int64_t gb,
                                                       GKT *kb, VLANE *tb, int prop)
{
    if (GFLOAT && prop) {
        if (g->S == 1)
            KFN(fli_wpass)(g, x, ga, gb, kb, tb, 1, 1);
        else
            KFN(fli_wpass)(g, x, ga, gb, kb, tb, 2, 1);
    } else {
        if (g->S == 1)
            KFN(fli_wpass)(g, x, ga, gb, kb, tb, 1, 0);
        else
            KFN(fli_wpass)(g, x, ga, gb, kb, tb, 2, 0);
    }
}

/* VN tap numbers from a lane array; lanes plus a constant (no lane
 * overflows: tap numbers stay below GEN_TAPS_LIMIT, and GEN_NONE lanes are
 * never chosen past line 0, which adds nothing). */
GAI VI KFN(fli_vload)(const VLANE *p)
{
    VI v;
    memcpy(&v, p, sizeof v);
    return v;
}
GAI VI KFN(fli_vadd)(VI a, VLANE t)
{
    typedef VLANE vl_t __attribute__((vector_size(sizeof(VI))));
    vl_t x;
    memcpy(&x, &a, sizeof x);
    x += t;
    memcpy(&a, &x, sizeof a);
    return a;
}

/* The line pass over R lines (keys kp[], taps tp[]) at column o. */
GAI VT KFN(fli_hvec)(const KFN(geo) * g, const GKT *const *kp, const VLANE *const *tp, int64_t o, const int64_t R,
                     const int prop, VI *bt)
{
    VT best;
    int64_t q0;
    if (g->fe) {
        best = VK_LOAD(kp[0] + o);
        *bt = KFN(fli_vload)(tp[0] + o);
        q0 = 1;
    } else {
        best = V_SET1(g->init);
        *bt = VI_SET1(GEN_NONE);
        q0 = 0;
    }
    for (int64_t q = q0; q < R; ++q) {
        const VT x = VK_LOAD(kp[q] + o);
        VM m = V_GTM(x, best);
        if (prop)
            m = VM_OR(m, V_NANM(x));
        best = V_SEL(best, x, m);
        *bt = VI_SEL(*bt, KFN(fli_vadd)(KFN(fli_vload)(tp[q] + o), (VLANE)(q * g->K)), m);
    }
    return best;
}

/* The lanes [0, nl) from column o0 that the vector store leaves to the
 * scalar way: f16 NaN results (fix: the scalar scan) and lanes without a
 * tap (the empty-window index, or under the first-element start the first
 * tap's: its value is the neutral value the W pass does not take). */
__attribute__((noinline)) static void KFN(fli_fix)(const struct maxpool_plan *p, const KFN(geo) * g,
                                                   const KFN(row) * w, int64_t o0, int64_t nl, const VLANE *lt,
                                                   uint64_t fix, int prop)
{
    for (int64_t l = 0; l < nl; ++l) {
        const int64_t o = o0 + l;
        if ((fix >> l) & 1)
            KFN(cf_put)(p, g, w, o, g->init, -1, 1, prop, 1);
        else if (lt[l] == GEN_NONE)
            KFN(put_index)(p, g, w->ind, w->yoff + o, w->n, w->c, g->fe ? w->ro[0] + g->st[2][o] : -1, w->s0, w->s1,
                           g->st[2][o]);
    }
}

/* Lanes [0, nl) of the row's columns from o0: values and indices. */
GAI void KFN(fli_store)(const struct maxpool_plan *p, const KFN(geo) * g, const KFN(row) * w, int64_t o0, int64_t nl,
                        VT best, VI bt, const int prop)
{
    alignas(64) VLANE lt[VN];
    const uint64_t fix = (uint64_t)V_NANFIX(best);
    if (nl == VN)
        V_STORE(w->yr + o0, best);
    else
        V_STOREN(w->yr + o0, best, nl);
    VI_STORE(lt, bt);
    if (KFN(cfi_taps)(p, w->ind, w->yoff + o0, w->n, w->c, g->v0 + o0 * g->S, g->S, w->toff, lt, nl) | (fix != 0))
        KFN(fli_fix)(p, g, w, o0, nl, lt, fix, prop);
}

/* One output row (task t = (nc, o0, o1)) from the strip's W results from line ga. */
GAI void KFN(fli_hrow)(const struct maxpool_plan *p, const KFN(geo) * g, const GT *x, GT *y, void *ind, int64_t t,
                       int64_t nc, int64_t o0, int64_t o1, const GKT *kb, const VLANE *tb, int64_t ga, int64_t *ro,
                       int64_t *toff, const int prop)
{
    const int64_t O2 = g->out[2], K = g->K, in2 = g->in[2];
    KFN(row) w;
    KFN(row_set)(p, g, &w, x, y, ind, t, nc, o0, o1);
    w.n = nc / p->c;
    w.c = nc % p->c;
    w.ro = ro;
    w.toff = toff;
    const GKT *kp[GEN_LINES_MAX];
    const VLANE *tp[GEN_LINES_MAX];
    const int64_t lb = nc * g->in[0] * g->in[1] - ga; /* the plane's first line in the strip */
    int64_t r = 0;
    for (int64_t j0 = 0; j0 < w.c0; ++j0)
        for (int64_t j1 = 0; j1 < w.c1; ++j1) {
            const int64_t ln = (w.s0 + j0 * g->step[0]) * g->in[1] + w.s1 + j1 * g->step[1];
            ro[r] = ln * in2;
            kp[r] = kb + (lb + ln) * O2;
            tp[r] = tb + (lb + ln) * O2;
            for (int64_t k = 0; k < K; ++k)
                toff[r * K + k] = ro[r] + k * g->d;
            ++r;
        }
    const int64_t R = w.R;
    /* the row's last VN columns again, or a row narrower than a vector: one loop, one copy of the
     * vector's code (build cost, docs/performance.md) */
    for (int64_t o = 0; o < O2; o += VN) {
        const int64_t ob = o + VN <= O2 ? o : O2 >= VN ? O2 - VN : 0;
        VI bt;
        const VT best = KFN(fli_hvec)(g, kp, tp, ob, R, prop, &bt);
        KFN(fli_store)(p, g, &w, ob, O2 - ob < VN ? O2 - ob : VN, best, bt, prop);
    }
}

/* fli_hrow with the NaN rule as a constant, out of line. */
__attribute__((noinline)) static void KFN(fli_hrow_n)(const struct maxpool_plan *p, const KFN(geo) * g, const GT *x,
                                                      GT *y, void *ind, int64_t t, int64_t nc, int64_t o0, int64_t o1,
                                                      const GKT *kb, const VLANE *tb, int64_t ga, int64_t *ro,
                                                      int64_t *toff, int prop)
{
    if (GFLOAT && prop)
        KFN(fli_hrow)(p, g, x, y, ind, t, nc, o0, o1, kb, tb, ga, ro, toff, 1);
    else
        KFN(fli_hrow)(p, g, x, y, ind, t, nc, o0, o1, kb, tb, ga, ro, toff, 0);
}

#if GFLOAT
/* Output row t under the first-element start without propagation, its
 * first line holding a NaN: each window whose first tap is a NaN takes
 * that tap, value and index. */
__attribute__((noinline)) static void KFN(fli_fefix)(const struct maxpool_plan *p, const KFN(geo) * g, const GT *x,
                                                     GT *y, void *ind, int64_t t, int64_t nc, int64_t o0, int64_t o1)
{
    const int64_t l0 = (g->st[0][o0] * g->in[1] + g->st[1][o1]) * g->in[2];
    const GT *xl = x + nc * p->in_spatial + l0;
    GT *yr = y + t * g->out[2];
    for (int64_t o = 0; o < g->out[2]; ++o) {
        const GT v = xl[g->st[2][o]]; /* every window has a W tap (fli_geo) */
        if (GEN_ISNAN(GKEY(v))) {
            yr[o] = v;
            KFN(put_index)(p, g, ind, t * g->out[2] + o, nc / p->c, nc % p->c, l0 + g->st[2][o], 0, 0, 0);
        }
    }
}
#endif

/* Tasks [t0, t1) in strips of at most fli_nl input lines; the passes
 * specialised out of line, this loop not (build time). */
__attribute__((noinline)) static void KFN(fli_task)(const struct maxpool_plan *p, const KFN(geo) * g, const GT *x,
                                                    GT *y, void *ind, int64_t t0, int64_t t1, int prop)
{
    alignas(64) GKT kb[GEN_FLI_N + VN]; /* VN: the line pass's last vector may read past a line */
    alignas(64) VLANE tb[GEN_FLI_N + VN];
    int64_t ro[GEN_LINES_MAX], toff[GEN_TAPS_MAX];
#if GFLOAT
    unsigned char nanf[GEN_FLI_N]; /* first-element start without propagation: lines holding a NaN */
    const int fenan = g->fe && !prop;
#endif
    const int64_t O0 = g->out[0], O1 = g->out[1], rows = O0 * O1, nlmax = g->fli_nl, K = g->K;
    int64_t t = t0;
    while (t < t1) {
        int64_t nc = t / rows, o0 = t % rows / O1, o1 = t % rows % O1, ga, ge;
        const int64_t R = KFN(fl_span)(g, nc, o0, o1, &ga, &ge);
        if (R == 0 || R > GEN_LINES_MAX || R * K > GEN_TAPS_LIMIT || ge - ga > nlmax) { /* the other forms */
            KFN(cf_task)(p, g, x, y, ind, t, t + 1, prop, 1);
            ++t;
            continue;
        }
        int64_t te = t + 1, n2 = nc, p0 = o0, p1 = o1;
        while (te < t1) {
            if (++p1 == O1) {
                p1 = 0;
                if (++p0 == O0) {
                    p0 = 0;
                    ++n2;
                }
            }
            int64_t a2, e2;
            const int64_t R2 = KFN(fl_span)(g, n2, p0, p1, &a2, &e2);
            if (R2 == 0 || R2 > GEN_LINES_MAX || R2 * K > GEN_TAPS_LIMIT || a2 < ga || e2 - ga > nlmax)
                break;
            ge = e2 > ge ? e2 : ge;
            ++te;
        }
        KFN(fli_wpass_n)(g, x, ga, ge, kb, tb, prop);
#if GFLOAT
        if (fenan)
            for (int64_t l = ga; l < ge; ++l)
                nanf[l - ga] = (unsigned char)KFN(fl_linenan)(g, x + l * g->in[2]);
#endif
        for (; t < te; ++t) {
            KFN(fli_hrow_n)(p, g, x, y, ind, t, nc, o0, o1, kb, tb, ga, ro, toff, prop);
#if GFLOAT
            if (fenan && nanf[(nc * g->in[0] + g->st[0][o0]) * g->in[1] + g->st[1][o1] - ga])
                KFN(fli_fefix)(p, g, x, y, ind, t, nc, o0, o1);
#endif
            if (++o1 == O1) {
                o1 = 0;
                if (++o0 == O0) {
                    o0 = 0;
                    ++nc;
                }
            }
        }
    }
}
