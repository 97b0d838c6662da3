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

static void KFN(geo_flat)(KFN(geo) * g, int wi, int prop)
{
    g->fl_wl = 0;
    const int64_t in2 = g->in[2], O2 = g->out[2], S = g->S;
    if (wi || !g->grid || S > 2)
        return;
    if (g->fe)
        for (int64_t o = 0; o < O2; ++o)
            if (g->cn[2][o] == 0)
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
    g->fl_fenan = GFLOAT && g->fe && !prop;
    for (int m = 0; m < 2; ++m) {
        const int64_t ob = m == 0 ? 0 : olast;
        for (int64_t k = 0; k < g->K; ++k) {
            g->fl_mu[m][k] = 0;
            for (int h = 0; h < 2; ++h) {
                alignas(64) VLANE lv[VN];
                for (int64_t i = 0; i < VN; ++i) {
                    const int64_t f = h * VN + i; /* full-resolution lane: column ob + f/S where f % S == 0 */
                    const int64_t pos = g->v0 + S * ob + f + k * g->d;
                    const int used = f % S == 0 && ob + f / S < O2;
                    const int in = pos >= 0 && pos < in2;
                    lv[i] = !used || in ? GEN_NONE : 0;
                    if (h < S && used && !in)
                        g->fl_mu[m][k] = 1;
                }
                g->fl_m[m][h][k] = VM_LANES(lv);
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

/* The W results of grid columns [0, O2) of the tensor's lines [ga, gb) to
 * wb (line stride fl_wl). Each line in vectors of VN columns (the last
 * vector of a line again over the line's last VN columns), taps read in
 * place; in the line's first and last vector, taps outside the line
 * become the neutral value through the lane masks fl_m. A line whose
 * vectors would read outside the tensor (or that has no masks: K >
 * GEN_BM_K) goes the scalar way. */
/* One vector of W results at column o of the line xl: taps read in place,
 * those outside the line (first and last vector: m = 0, 1) made neutral
 * through the masks; K a constant where the caller can make it one. */
GAI VT KFN(fl_wvec)(const KFN(geo) * g, const GT *xl, int64_t o, const int64_t K, const int m, const int S,
                    const int prop)
{
    const int64_t d = g->d;
    const VT nv = V_SET1(g->neutral);
    const int z = GFLOAT && !prop; /* without propagation a NaN must not enter: max(x, -inf) drops it */
    const GT *q = xl + g->v0 + S * o;
    VT a = V_LOAD(q), b = S == 2 ? V_LOAD(q + VN) : a;
    if (m < 2 && g->fl_mu[m][0]) {
        a = V_SEL(nv, a, g->fl_m[m][0][0]);
        if (S == 2)
            b = V_SEL(nv, b, g->fl_m[m][1][0]);
    }
    if (z) {
        a = V_MAX(nv, a);
        if (S == 2)
            b = V_MAX(nv, b);
    }
    for (int64_t k = 1; k < K; ++k) {
        VT ta = V_LOAD(q + k * d), tb = S == 2 ? V_LOAD(q + VN + k * d) : ta;
        if (m < 2 && g->fl_mu[m][k]) {
            ta = V_SEL(nv, ta, g->fl_m[m][0][k]);
            if (S == 2)
                tb = V_SEL(nv, tb, g->fl_m[m][1][k]);
        }
        a = prop ? V_MAXP(a, ta) : V_MAX(a, ta);
        if (S == 2)
            b = prop ? V_MAXP(b, tb) : V_MAX(b, tb);
    }
    return S == 2 ? V_EVEN(a, b) : a;
}

/* A line's first (m = 0) or last (m = 1) vector of W results to dst, out of
 * line: each specialised caller calls this one function (build time). */
__attribute__((noinline)) static void KFN(fl_wedge)(const KFN(geo) * g, const GT *xl, GKT *dst, int64_t o, int m,
                                                    int S, int prop)
{
    const int64_t K = g->K;
    if (S == 1)
        VK_STORE(dst + o, prop ? KFN(fl_wvec)(g, xl, o, K, m, 1, 1) : KFN(fl_wvec)(g, xl, o, K, m, 1, 0));
    else
        VK_STORE(dst + o, prop ? KFN(fl_wvec)(g, xl, o, K, m, 2, 1) : KFN(fl_wvec)(g, xl, o, K, m, 2, 0));
}

/* The vectors between a line's first and last, K taps each. */
GAI void KFN(fl_wmid)(const KFN(geo) * g, const GT *xl, GKT *dst, int64_t olast, const int64_t K, const int S,
                      const int prop)
{
    for (int64_t o = VN; o < olast; o += VN)
        VK_STORE(dst + o, KFN(fl_wvec)(g, xl, o, K, 2, S, prop));
}

/* The W results of grid columns [0, O2) of the tensor's lines [ga, gb) to
 * wb (line stride fl_wl). Each line in vectors of VN columns (the last
 * vector of a line again over the line's last VN columns), taps read in
 * place; in the line's first and last vector, taps outside the line
 * become the neutral value through the lane masks fl_m. A line whose
 * vectors would read outside the tensor (or that has no masks: K >
 * GEN_BM_K) goes the scalar way. */
GAI void KFN(fl_wpass)(const KFN(geo) * g, const GT *x, int64_t ga, int64_t gb, GKT *wb, const int S, const int prop)
{
    const int64_t wl = g->fl_wl, in2 = g->in[2], K = g->K, d = g->d, v0 = g->v0, O2 = g->out[2];
    const int64_t olast = O2 >= VN ? O2 - VN : 0; /* the last vector's first column */
    const int64_t lo = v0, hi = v0 + S * olast + S * VN + (K - 1) * d; /* a line's reads [lo, hi) */
    for (int64_t l = ga; l < gb; ++l) {
        const GT *xl = x + l * in2;
        GKT *dst = wb + (l - ga) * wl;
        if (l * in2 + lo < 0 || l * in2 + hi > g->xlen) { /* (the tensor's first or last lines) */
            for (int64_t o = 0; o < O2; ++o)
                dst[o] = KFN(fl_went)(g, xl, o, prop);
            continue;
        }
        if (K == 3 && d == 1) { /* the common window: taps unrolled, edges inline */
            VK_STORE(dst, KFN(fl_wvec)(g, xl, 0, 3, 0, S, prop));
            KFN(fl_wmid)(g, xl, dst, olast, 3, S, prop);
            if (olast > 0)
                VK_STORE(dst + olast, KFN(fl_wvec)(g, xl, olast, 3, 1, S, prop));
            continue;
        }
        KFN(fl_wedge)(g, xl, dst, 0, 0, S, prop);
        KFN(fl_wmid)(g, xl, dst, olast, K, S, prop);
        if (olast > 0)
            KFN(fl_wedge)(g, xl, dst, olast, 1, S, prop);
    }
}

/* Lines [*ga, *ge) of the tensor that task (nc, o0, o1) reads; its line count. */
GAI int64_t KFN(fl_span)(const struct maxpool_plan *p, const KFN(geo) * g, int64_t nc, int64_t o0, int64_t o1,
                         int64_t *ga, int64_t *ge)
{
    const int64_t c0 = g->cn[0][o0], c1 = g->cn[1][o1];
    const int64_t l0 = nc * g->in[0] + g->st[0][o0], l1 = g->st[1][o1];
    (void)p;
    *ga = l0 * g->in[1] + l1;
    *ge = (l0 + (c0 > 0 ? c0 - 1 : 0) * g->step[0]) * g->in[1] + l1 + (c1 > 0 ? c1 - 1 : 0) * g->step[1] + 1;
    return c0 * c1;
}

/* The line pass over R lines lp[] at column o. */
GAI VT KFN(fl_hvec)(const KFN(geo) * g, const GKT *const *lp, int64_t o, const int64_t R, const int prop)
{
    const VT h0 = VK_LOAD(lp[0] + o);
    VT best = g->fe ? h0 : prop ? V_MAXP(V_SET1(g->init), h0) : V_MAX(V_SET1(g->init), h0);
    for (int64_t q = 1; q < R; ++q)
        best = prop ? V_MAXP(best, VK_LOAD(lp[q] + o)) : V_MAX(best, VK_LOAD(lp[q] + o));
    return best;
}

/* One output row (task t = (nc, o0, o1)) from the W results wb of lines from ga. */
GAI void KFN(fl_hrow)(const struct maxpool_plan *p, const KFN(geo) * g, const GT *x, GT *y, int64_t t, int64_t nc,
                      int64_t o0, int64_t o1, const GKT *wb, int64_t ga, const int prop)
{
    const int64_t O2 = g->out[2], wl = g->fl_wl;
    const int64_t c0 = g->cn[0][o0], c1 = g->cn[1][o1], R = c0 * c1;
    const int64_t l0 = nc * g->in[0] + g->st[0][o0], l1 = g->st[1][o1];
    const GKT *lp[GEN_LINES_MAX];
    int64_t r = 0;
    for (int64_t j0 = 0; j0 < c0; ++j0)
        for (int64_t j1 = 0; j1 < c1; ++j1)
            lp[r++] = wb + ((l0 + j0 * g->step[0]) * g->in[1] + l1 + j1 * g->step[1] - ga) * wl;
    GT *yr = y + t * O2;
    int64_t o = 0;
    uint64_t fix = 0; /* f16: some lane is NaN (V_NANFIX) */
    VT best;
    if (R == 3)
        for (; o + VN <= O2; o += VN) {
            best = KFN(fl_hvec)(g, lp, o, 3, prop);
            fix |= (uint64_t)V_NANFIX(best);
            V_STORE(yr + o, best);
        }
    else
        for (; o + VN <= O2; o += VN) {
            best = KFN(fl_hvec)(g, lp, o, R, prop);
            fix |= (uint64_t)V_NANFIX(best);
            V_STORE(yr + o, best);
        }
    if (o < O2) { /* the row's last VN columns again, or a row narrower than a vector */
        const int64_t ob = O2 >= VN ? O2 - VN : 0, nl = O2 - ob;
        best = KFN(fl_hvec)(g, lp, ob, R, prop);
        fix |= (uint64_t)V_NANFIX(best);
        if (nl == VN)
            V_STORE(yr + ob, best);
        else
            V_STOREN(yr + ob, best, nl);
    }
#if GEN_TYPE == GEN_F16
    if (fix) { /* NaN results the conversion may have quieted: the scalar scan */
        KFN(row) w;
        w.xp = x + nc * p->in_spatial;
        w.yr = yr;
        w.ind = NULL;
        w.yoff = t * O2;
        w.n = w.c = 0;
        w.s0 = g->st[0][o0];
        w.c0 = c0;
        w.s1 = g->st[1][o1];
        w.c1 = c1;
        w.R = R;
        for (int64_t q = 0; q < O2; ++q)
            if ((yr[q] & 0x7FFFu) > 0x7C00u)
                KFN(cf_put)(p, g, &w, q, yr[q], -1, 1, prop, 0);
    }
#else
    (void)fix;
    (void)x;
    (void)p;
    (void)nc;
#endif
}

#if GFLOAT
/* Whether the input line xl holds a NaN (fl_fenan). */
__attribute__((noinline)) static int KFN(fl_linenan)(const KFN(geo) * g, const GT *xl)
{
    const int64_t n = g->in[2];
    if (n < VN) {
        for (int64_t i = 0; i < n; ++i)
            if (GEN_ISNAN(GKEY(xl[i])))
                return 1;
        return 0;
    }
    VT acc = V_LOAD(xl + n - VN); /* NaN lanes stay NaN under V_MAXP */
    for (int64_t i = 0; i + VN <= n; i += VN)
        acc = V_MAXP(acc, V_LOAD(xl + i));
    alignas(64) GKT k[VN];
    VK_STORE(k, acc);
    for (int i = 0; i < VN; ++i)
        if (GEN_ISNAN(k[i]))
            return 1;
    return 0;
}

/* Output row t (task (nc, o0, o1)) under the first-element start without
 * propagation, its first line holding a NaN: each window whose first tap
 * is a NaN takes that tap (the reference's scan keeps it). */
__attribute__((noinline)) static void KFN(fl_fefix)(const struct maxpool_plan *p, const KFN(geo) * g, const GT *x,
                                                    GT *y, int64_t t, int64_t nc, int64_t o0, int64_t o1)
{
    const GT *xl = x + nc * p->in_spatial + (g->st[0][o0] * g->in[1] + g->st[1][o1]) * g->in[2];
    GT *yr = y + t * g->out[2];
    for (int64_t o = 0; o < g->out[2]; ++o) {
        const GT v = xl[g->st[2][o]]; /* every window has a W tap here (geo_flat) */
        if (GEN_ISNAN(GKEY(v)))
            yr[o] = v;
    }
}
#endif

/* Tasks [t0, t1) in strips of at most fl_nl input lines. */
GAI void KFN(fl_run)(const struct maxpool_plan *p, const KFN(geo) * g, const GT *x, GT *y, int64_t t0, int64_t t1,
                     const int S, const int prop)
{
    alignas(64) GKT wb[GEN_FL_BYTES / sizeof(GKT) + VN]; /* VN: the line pass's last vector may read past a line */
#if GFLOAT
    unsigned char nanf[GEN_FL_BYTES / 4]; /* fl_fenan: the strip's lines holding a NaN (fl_nl <= this: keys >= 4 bytes) */
#endif
    const int64_t O0 = g->out[0], O1 = g->out[1], rows = O0 * O1, nlmax = g->fl_nl;
    int64_t t = t0;
    while (t < t1) {
        int64_t nc = t / rows, o0 = t % rows / O1, o1 = t % rows % O1, ga, ge;
        const int64_t R = KFN(fl_span)(p, g, nc, o0, o1, &ga, &ge);
        if (R == 0 || R > GEN_LINES_MAX || ge - ga > nlmax) { /* the other forms */
            KFN(cf_task)(p, g, x, y, NULL, t, t + 1, prop, 0);
            ++t;
            continue;
        }
        /* the strip: the next tasks while their lines fit */
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
            const int64_t R2 = KFN(fl_span)(p, g, n2, p0, p1, &a2, &e2);
            if (R2 == 0 || R2 > GEN_LINES_MAX || a2 < ga || e2 - ga > nlmax) /* (dilated windows: starts may go back) */
                break;
            ge = e2 > ge ? e2 : ge;
            ++te;
        }
        KFN(fl_wpass)(g, x, ga, ge, wb, S, prop);
#if GFLOAT
        if (g->fl_fenan)
            for (int64_t l = ga; l < ge; ++l)
                nanf[l - ga] = (unsigned char)KFN(fl_linenan)(g, x + l * g->in[2]);
#endif
        for (; t < te; ++t) {
            KFN(fl_hrow)(p, g, x, y, t, nc, o0, o1, wb, ga, prop);
#if GFLOAT
            if (g->fl_fenan && nanf[(nc * g->in[0] + g->st[0][o0]) * g->in[1] + g->st[1][o1] - ga])
                KFN(fl_fefix)(p, g, x, y, t, nc, o0, o1);
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
