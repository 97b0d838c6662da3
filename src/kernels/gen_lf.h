/* SPDX-License-Identifier: Apache-2.0 */
/* The type-generic kernels (gen_impl.h): channels-first, lines first.
 * Included once by gen_impl.h. */

/* ---- channels-first, lines first (no grid: strides >= 3, uneven adaptive
 * windows) -------------------------------------------------------------- *
 * The R lines are combined first, a vector of input columns at a time, into
 * the best key per column and the tap number t = (line << sh) of the line it
 * came from (first maximum over the lines, last NaN under propagation; -inf
 * and the lowest integer never count: a column with no such tap keeps the
 * neutral key, which no counted tap has). Then, in vector code, a log-step
 * pass over that combined line (lf_level): level h turns the best of every
 * h columns from u into the best of every 2h columns from u, the tap number
 * counting the column too, t = (line << sh) + column offset (sh: 2^sh at
 * least the widest window of the chunk, so line and column stay apart).
 * Of two candidates the right one (later columns) wins when its key is
 * greater, or equal with a smaller tap number (earlier line), or (NaN
 * propagation) a NaN when the left one is not, or is a NaN of a line not
 * later. After the levels up to p (the largest power of two not above the
 * chunk's narrowest window), each output column reduces ceil(cnt / p)
 * candidates of p columns covering its window (the last one overlapping)
 * in scalar code: a candidate replaces the running best when it is
 * greater, or equal with an earlier (line, column) position, or (NaN
 * propagation) a NaN at a later position than a NaN best. Positions order
 * the taps as the row-major scan does, so the result is the reference's:
 * the first maximum, the last NaN, the first tap under the first-element
 * start (which starts at that tap, read from the input). The winner's bits
 * are read back from the input. Needs unit W steps and R <= GEN_TAPS_LIMIT;
 * when R << sh does not fit a lane, sh = 0 and p = 1 (every column is a
 * candidate). */

/* The lines of the row combined over NB vectors of input columns from u:
 * best key and tap number (line << sh) to cv[], ct[]. */
GAI void KFN(lf_lines)(const KFN(row) * w, int64_t u, GKT *cv, VLANE *ct, int sh, const int NB, const int prop)
{
    VT best[4];
    VI bt[4];
    GEN_UNROLL
    for (int v = 0; v < NB; ++v) {
        best[v] = V_SET1(GEN_NEUTRAL);
        bt[v] = VI_SET1(GEN_NONE);
    }
    const GT *xu = w->xp + u;
    const int64_t *ro = w->ro, R = w->R;
    VI rt = VI_SET1(0);
    const VI one = VI_SET1((int64_t)1 << sh);
    for (int64_t r = 0; r < R; ++r) {
        const GT *q = xu + ro[r];
        GEN_UNROLL
        for (int v = 0; v < NB; ++v) {
            const VT x = V_LOAD(q + v * VN);
            VM m = V_GTM(x, best[v]);
            if (prop)
                m = VM_OR(m, V_NANM(x));
            best[v] = V_SEL(best[v], x, m);
            bt[v] = VI_SEL(bt[v], rt, m);
        }
        rt = VI_ADD(rt, one);
    }
    GEN_UNROLL
    for (int v = 0; v < NB; ++v) {
        VK_STORE(cv + v * VN, best[v]);
        VI_STORE(ct + v * VN, bt[v]);
    }
}

/* The combined columns [ua, ub) of the row to cv[0 ..], ct[0 ..] (and up to
 * VN - 1 columns past ub inside the row, VN before ua at the row's end). */
GAI void KFN(lf_rows)(const KFN(geo) * g, const KFN(row) * w, int64_t ua, int64_t ub, GKT *cv, VLANE *ct, int sh,
                      const int prop)
{
    const int64_t in2 = g->in[2];
    int64_t u = ua;
    while (u < ub) { /* blocks whose last vector starts before ub: at most VN - 1 columns past it */
        if (u + 4 * VN <= in2 && u + 3 * VN < ub) {
            KFN(lf_lines)(w, u, cv + (u - ua), ct + (u - ua), sh, 4, prop);
            u += 4 * VN;
        } else if (u + 2 * VN <= in2 && u + VN < ub) {
            KFN(lf_lines)(w, u, cv + (u - ua), ct + (u - ua), sh, 2, prop);
            u += 2 * VN;
        } else if (u + VN <= in2) {
            KFN(lf_lines)(w, u, cv + (u - ua), ct + (u - ua), sh, 1, prop);
            u += VN;
        } else {
            break;
        }
    }
    if (u < ub && in2 >= VN) { /* the row's end: the last VN columns again (cv holds VN columns before ua) */
        const int64_t u1 = in2 - VN;
        KFN(lf_lines)(w, u1, cv + (u1 - ua), ct + (u1 - ua), sh, 1, prop);
        u = ub;
    }
    for (; u < ub; ++u) { /* a row narrower than a vector */
        GKT bk = GKEY(g->neutral);
        VLANE br = GEN_NONE;
        for (int64_t r = 0; r < w->R; ++r) {
            const GKT k = GKEY(w->xp[w->ro[r] + u]);
            if (k > bk || (prop && GEN_ISNAN(k))) {
                bk = k;
                br = (VLANE)(r << sh);
            }
        }
        cv[u - ua] = bk;
        ct[u - ua] = br;
    }
}

/* One level of the log-step pass over the combined columns [0, n): the
 * best of the h columns from i becomes the best of the 2h columns from i,
 * for i + 2h <= n (reads up to n + VN - 1). In place: both candidates are
 * read before the store, and later blocks read only columns not yet
 * stored. */
__attribute__((noinline)) static void KFN(lf_level)(GKT *cv, VLANE *ct, int64_t n, int64_t h, int prop)
{
    const VI hv = VI_SET1(h);
    for (int64_t i = 0; i + 2 * h <= n; i += VN) {
        const VT kl = VK_LOAD(cv + i), kr = VK_LOAD(cv + i + h);
        const VI tl = VI_LOAD(ct + i), tr = VI_ADD(VI_LOAD(ct + i + h), hv);
        const VM ge = VI_GEM(tr, tl);
        VM m = VM_OR(V_GTM(kr, kl), VM_ANDN(V_EQM(kr, kl), ge));
        if (GFLOAT && prop)
            m = VM_OR(m, VM_ANDN(V_NANM(kr), VM_ANDN(V_NANM(kl), ge)));
        VK_STORE(cv + i, V_SEL(kl, kr, m));
        VI_STORE(ct + i, VI_SEL(tl, tr, m));
    }
}

/* Output columns [oa, ob) whose taps lie in input columns [ua, ub), ub - ua
 * <= GEN_LF_CAP; pw: a power of two not above any of their window widths,
 * sh: 2^sh not below any. */
GAI void KFN(lf_chunk)(const struct maxpool_plan *p, const KFN(geo) * g, const KFN(row) * w, int64_t oa, int64_t ob,
                       int64_t ua, int64_t ub, int64_t pw, int sh, GKT *cv, VLANE *ct, const int prop, const int wi)
{
    const GT *xp = w->xp;
    if ((uint64_t)w->R << sh > (uint64_t)GEN_NONE) { /* line and column do not fit a lane: every column a candidate */
        sh = 0;
        pw = 1;
    }
    KFN(lf_rows)(g, w, ua, ub, cv, ct, sh, prop);
    const GKT nk = GKEY(g->neutral);
    if (pw > 1) {
        VK_STORE(cv + (ub - ua), V_SET1(g->neutral)); /* the levels read up to VN columns past ub */
        VI_STORE(ct + (ub - ua), VI_SET1(GEN_NONE));
        for (int64_t h = 1; h < pw; h *= 2)
            KFN(lf_level)(cv, ct, ub - ua, h, prop);
    }
    const int64_t cm = ((int64_t)1 << sh) - 1, *ro = w->ro, *st2 = g->st[2], *cn2 = g->cn[2];
    const int64_t ibase = w->n * p->idx_n + w->c * p->idx_c;
    const int i32 = p->desc.index_type == MAXPOOL_INDEX_I32;
    const GKT ik = GKEY(g->init);
    for (int64_t o = oa; o < ob; ++o) {
        const int64_t st = st2[o], e = st + cn2[o] - pw;
        GKT bk = ik;
        int64_t bs = -1; /* the best's position ro[line] + column, -1: none */
        if (g->fe) {
            bk = GKEY(xp[ro[0] + st]);
            bs = ro[0] + st;
        }
        /* branch-free: the compares are data-dependent */
        for (int64_t j = st;; j += pw) {
            const int64_t jj = j < e ? j : e;
            const GKT k = cv[jj - ua];
            const int valid = !(k == nk); /* the neutral key: no counted tap (t is then undefined) */
            const int64_t t = valid ? (int64_t)ct[jj - ua] : 0;
            const int64_t pos = ro[t >> sh] + jj + (t & cm);
            const int take = valid & ((k > bk) | ((bs >= 0) & (k == bk) & (pos < bs)) |
                                      (prop & GEN_ISNAN(k) & (!GEN_ISNAN(bk) | (pos > bs))));
            bk = take ? k : bk;
            bs = take ? pos : bs;
            if (j >= e)
                break;
        }
        w->yr[o] = bs < 0 ? g->init : xp[bs];
        if (!wi)
            continue;
        if (bs < 0)
            KFN(put_index)(p, g, w->ind, w->yoff + o, w->n, w->c, -1, w->s0, w->s1, st);
        else if (i32)
            ((int32_t *)w->ind)[w->yoff + o] = (int32_t)(ibase + bs);
        else
            ((int64_t *)w->ind)[w->yoff + o] = ibase + bs;
    }
}

/* Every column of one output row, lines first, in chunks of input columns. */
GAI void KFN(lf_cols_t)(const struct maxpool_plan *p, const KFN(geo) * g, const KFN(row) * w, const int prop,
                        const int wi)
{
    /* VN columns of margin before the chunk (the row-end vector) and after it */
    alignas(64) GKT cvb[GEN_LF_CAP + 3 * 64];
    alignas(64) VLANE ctb[GEN_LF_CAP + 3 * 64];
    GKT *cv = cvb + 64;
    VLANE *ct = ctb + 64;
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
        int64_t ob = o + 1, ub = st2[o] + cn2[o], cmin = cn2[o], cmax = cn2[o];
        while (ob < O2 && cn2[ob] > 0 && st2[ob] >= ua && st2[ob] + cn2[ob] - ua <= GEN_LF_CAP) {
            if (st2[ob] + cn2[ob] > ub)
                ub = st2[ob] + cn2[ob];
            cmin = cn2[ob] < cmin ? cn2[ob] : cmin;
            cmax = cn2[ob] > cmax ? cn2[ob] : cmax;
            ++ob;
        }
        int64_t pw = 1;
        int sh = 0;
        while (2 * pw <= cmin)
            pw *= 2;
        while (((int64_t)1 << sh) < cmax)
            ++sh;
        KFN(lf_chunk)(p, g, w, o, ob, ua, ub, pw, sh, cv, ct, prop, wi);
        o = ob;
    }
}

/* lf_cols_t with the NaN rule and index output as constants, out of line
 * (one copy per rule: the row loop's four variants share it). */
__attribute__((noinline)) static void KFN(lf_cols)(const struct maxpool_plan *p, const KFN(geo) * g,
                                                   const KFN(row) * w, int prop, int wi)
{
    if (GFLOAT && prop) {
        if (wi)
            KFN(lf_cols_t)(p, g, w, 1, 1);
        else
            KFN(lf_cols_t)(p, g, w, 1, 0);
    } else {
        if (wi)
            KFN(lf_cols_t)(p, g, w, 0, 1);
        else
            KFN(lf_cols_t)(p, g, w, 0, 0);
    }
}
