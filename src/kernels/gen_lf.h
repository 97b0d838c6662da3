/* SPDX-License-Identifier: Apache-2.0 */
/* The type-generic kernels (gen_impl.h): channels-first, lines first.
 * Included once by gen_impl.h. */

/* ---- channels-first, lines first (no grid: strides >= 3, uneven adaptive
 * windows) -------------------------------------------------------------- *
 * The R lines are combined first, a vector of input columns at a time, into
 * the best key per column and the number of the line it came from (first
 * maximum over the lines, last NaN under propagation; -inf and the lowest
 * integer never count). Each output column then reduces its taps over that
 * combined line in scalar code: a tap replaces the running best when it is
 * greater, or equal with an earlier (line, column) position, or (NaN
 * propagation) a NaN at a later position than a NaN best. Positions order
 * the taps as the row-major scan does, so the result is the reference's:
 * the first maximum, the last NaN, the first tap under the first-element
 * start (which starts at that tap, read from the input). The winner's bits
 * are read back from the input. Needs unit W steps and R <= GEN_TAPS_LIMIT. */

/* The lines of the row combined over NB vectors of input columns from u:
 * best key and line number to cv[], cr[]. */
GAI void KFN(lf_lines)(const KFN(row) * w, int64_t u, GKT *cv, VLANE *cr, const int NB, const int prop)
{
    VT best[2];
    VI bt[2];
    GEN_UNROLL
    for (int v = 0; v < NB; ++v) {
        best[v] = V_SET1(GEN_NEUTRAL);
        bt[v] = VI_SET1(GEN_NONE);
    }
    for (int64_t r = 0; r < w->R; ++r) {
        const GT *q = w->xp + w->ro[r] + u;
        GEN_UNROLL
        for (int v = 0; v < NB; ++v) {
            const VT x = V_LOAD(q + v * VN);
            VM m = V_GTM(x, best[v]);
            if (prop)
                m = VM_OR(m, V_NANM(x));
            best[v] = V_SEL(best[v], x, m);
            bt[v] = VI_SEL(bt[v], VI_SET1(r), m);
        }
    }
    GEN_UNROLL
    for (int v = 0; v < NB; ++v) {
        VK_STORE(cv + v * VN, best[v]);
        VI_STORE(cr + v * VN, bt[v]);
    }
}

/* Output columns [oa, ob) whose taps lie in input columns [ua, ua + GEN_LF_CAP). */
GAI void KFN(lf_chunk)(const struct maxpool_plan *p, const KFN(geo) * g, const KFN(row) * w, int64_t oa, int64_t ob,
                       int64_t ua, int64_t ub, GKT *cv, VLANE *cr, const int prop, const int wi)
{
    const int64_t in2 = g->in[2], R = w->R;
    const GT *xp = w->xp;
    int64_t u = ua;
    for (; u < ub && u + 2 * VN <= in2; u += 2 * VN) /* two vectors in flight */
        KFN(lf_lines)(w, u, cv + (u - ua), cr + (u - ua), 2, prop);
    if (u < ub && u + VN <= in2) {
        KFN(lf_lines)(w, u, cv + (u - ua), cr + (u - ua), 1, prop);
        u += VN;
    }
    if (u < ub && in2 >= VN) { /* the row's end: the last VN columns again (cv holds VN columns before ua) */
        const int64_t u1 = in2 - VN;
        KFN(lf_lines)(w, u1, cv + (u1 - ua), cr + (u1 - ua), 1, prop);
        u = ub;
    }
    for (; u < ub; ++u) { /* a row narrower than a vector */
        GKT bk = GKEY(g->neutral);
        VLANE br = GEN_NONE;
        for (int64_t r = 0; r < R; ++r) {
            const GKT k = GKEY(xp[w->ro[r] + u]);
            if (k > bk || (prop && GEN_ISNAN(k))) {
                bk = k;
                br = (VLANE)r;
            }
        }
        cv[u - ua] = bk;
        cr[u - ua] = br;
    }
    for (int64_t o = oa; o < ob; ++o) {
        const int64_t st = g->st[2][o], cnt = g->cn[2][o];
        GKT bk = GKEY(g->init);
        int64_t bs = -1; /* the best's position ro[line] + column, -1: none */
        if (g->fe && cnt > 0) {
            bk = GKEY(xp[w->ro[0] + st]);
            bs = w->ro[0] + st;
        }
        /* branch-free: the compares are data-dependent */
        for (int64_t u2 = st; u2 < st + cnt; ++u2) {
            const VLANE rl = cr[u2 - ua];
            const int valid = rl != GEN_NONE;
            const int64_t pos = w->ro[valid ? rl : 0] + u2;
            const GKT k = cv[u2 - ua];
            const int take = valid & ((k > bk) | ((bs >= 0) & (k == bk) & (pos < bs)) |
                                      (prop & GEN_ISNAN(k) & (!GEN_ISNAN(bk) | (pos > bs))));
            bk = take ? k : bk;
            bs = take ? pos : bs;
        }
        KFN(cf_put)(p, g, w, o, bs < 0 ? g->init : xp[bs], bs, 0, prop, wi);
    }
}

/* Every column of one output row, lines first, in chunks of input columns. */
GAI void KFN(lf_cols)(const struct maxpool_plan *p, const KFN(geo) * g, const KFN(row) * w, const int prop,
                      const int wi)
{
    /* VN columns of margin before the chunk (the row-end vector) and after it */
    alignas(64) GKT cvb[GEN_LF_CAP + 3 * 64];
    alignas(64) VLANE crb[GEN_LF_CAP + 3 * 64];
    GKT *cv = cvb + 64;
    VLANE *cr = crb + 64;
    const int64_t O2 = g->out[2];
    const int64_t *st2 = g->st[2], *cn2 = g->cn[2];
    int64_t o = 0;
    while (o < O2) {
        if (cn2[o] == 0 || cn2[o] > GEN_LF_CAP) { /* no tap, or a window wider than a chunk: scalar */
            KFN(cf_put)(p, g, w, o, g->init, -1, cn2[o] != 0, prop, wi);
            ++o;
            continue;
        }
        const int64_t ua = st2[o];
        int64_t ob = o + 1, ub = st2[o] + cn2[o];
        while (ob < O2 && cn2[ob] > 0 && st2[ob] >= ua && st2[ob] + cn2[ob] - ua <= GEN_LF_CAP) {
            if (st2[ob] + cn2[ob] > ub)
                ub = st2[ob] + cn2[ob];
            ++ob;
        }
        KFN(lf_chunk)(p, g, w, o, ob, ua, ub, cv, cr, prop, wi);
        o = ob;
    }
}
