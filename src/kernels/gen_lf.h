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
        bt[v] = VI_SET1(0); /* (undefined where best stays neutral) */
    }
    const GT *xu = w->xp + u;
    const int64_t *ro = w->ro, R = w->R;
    VI rt = VI_SET1(0);
    const VI one = VI_SET1((int64_t)1 << sh);
    for (int64_t r = 0; r < R; ++r) {
        const GT *q = xu + ro[r];
#ifdef V_LOAD2 /* (bf16: a pair of vectors from one load, lanes in the unpack's order: put back at the store) */
        VT xa = V_SET1(GEN_NEUTRAL), xb = xa;
#endif
        GEN_UNROLL
        for (int v = 0; v < NB; ++v) {
#ifdef V_LOAD2
            if (NB >= 2 && v % 2 == 0)
                V_LOAD2(q + v * VN, &xa, &xb);
            const VT x = NB < 2 ? V_LOAD(q + v * VN) : v % 2 ? xb : xa;
#else
            const VT x = V_LOAD(q + v * VN);
#endif
            VM m = V_GTM(x, best[v]);
            if (prop) {
                m = VM_OR(m, V_NANM(x));
                best[v] = V_SEL(best[v], x, m);
            } else {
                best[v] = V_MAX(best[v], x);
            }
            bt[v] = VI_UPD(bt[v], rt, m); /* rt grows with the line */
        }
        rt = VI_ADD(rt, one);
    }
#ifdef V_LOAD2
    if (NB >= 2) {
        GEN_UNROLL
        for (int v = 0; v < NB; v += 2) {
            V_FIX2(&best[v], &best[v + 1]);
            VI_FIX2(&bt[v], &bt[v + 1]);
        }
    }
#endif
    GEN_UNROLL
    for (int v = 0; v < NB; ++v) {
        VK_STORE(cv + v * VN, best[v]);
        VI_STORE(ct + v * VN, bt[v]);
    }
}

/* The combined columns [ua, ub) of the row to cv[0 ..], ct[0 ..] (and up to
 * 2 VN - 1 columns past ub, VN before ua at the row's end). Blocks of 4 or
 * 2 vectors (4 when 3 are needed) may read past the row's end, into the
 * next lines of the tensor, when they stay inside it. */
GAI void KFN(lf_rows)(const KFN(geo) * g, const KFN(row) * w, int64_t ua, int64_t ub, GKT *cv, VLANE *ct, int sh,
                      const int prop)
{
    const int64_t in2 = g->in[2];
    const int64_t lim = g->xlen - (w->xp - g->xbeg) - w->ro[w->R - 1]; /* a block may end there (> in2: inside) */
    const int64_t end = lim > in2 ? lim : in2;
    int64_t u = ua;
    while (u < ub) {
        if (u + 2 * VN < ub && u + 4 * VN <= end) {
            KFN(lf_lines)(w, u, cv + (u - ua), ct + (u - ua), sh, 4, prop);
            u += 4 * VN;
        } else if (u + VN < ub && u + 2 * VN <= end) {
            KFN(lf_lines)(w, u, cv + (u - ua), ct + (u - ua), sh, 2, prop);
            u += 2 * VN;
        } else if (u + VN <= end) {
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

/* Of the candidates (kl, tl) and (kr, tr), tap numbers counted from the
 * same column, the better one to (*k, *t); the right one comes from later
 * columns. */
GAI void KFN(lf_comb)(VT kl, VI tl, VT kr, VI tr, VT *k, VI *t, int prop)
{
    const VM ge = VI_GEM(tr, tl);
    VM m = VM_OR(V_GTM(kr, kl), VM_ANDN(V_EQM(kr, kl), ge));
    if (GFLOAT && prop)
        m = VM_OR(m, VM_ANDN(V_NANM(kr), VM_ANDN(V_NANM(kl), ge)));
    *k = V_SEL(kl, kr, m);
    *t = VI_SEL(tl, tr, m);
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
        VT k;
        VI t;
        KFN(lf_comb)(VK_LOAD(cv + i), VI_LOAD(ct + i), VK_LOAD(cv + i + h), VI_ADD(VI_LOAD(ct + i + h), hv), &k, &t,
                     prop);
        VK_STORE(cv + i, k);
        VI_STORE(ct + i, t);
    }
}

/* The same level on candidates stored one after the other (entry i: the
 * best of h columns from i*h), n of them: entry i becomes the best of
 * entries 2i and 2i + 1, i < n / 2 (reads up to 2 VN - 1 entries past n).
 * In place: entries below 2i are no longer read when i is stored. */
__attribute__((noinline)) static void KFN(lf_clevel)(GKT *cv, VLANE *ct, int64_t n, int64_t h, int prop)
{
    const VI hv = VI_SET1(h);
    for (int64_t i = 0; 2 * i + 1 < n; i += VN) {
        const GKT *c = cv + 2 * i;
        const VLANE *q = ct + 2 * i;
        VT k;
        VI t;
        KFN(lf_comb)(V_EVEN(VK_LOAD(c), VK_LOAD(c + VN)), VI_EVEN(VI_LOAD(q), VI_LOAD(q + VN)),
                     V_EVEN(VK_LOAD(c + 1), VK_LOAD(c + 1 + VN)),
                     VI_ADD(VI_EVEN(VI_LOAD(q + 1), VI_LOAD(q + 1 + VN)), hv), &k, &t, prop);
        VK_STORE(cv + i, k);
        VI_STORE(ct + i, t);
    }
}

/* Output columns [oa, ob) whose taps lie in input columns [ua, ub), ub - ua
 * <= GEN_LF_CAP; pw: a power of two not above any of their window widths,
 * sh: 2^sh not below any; al: 1 every window starts a multiple of pw
 * columns after ua and has a multiple of pw columns, 2 besides all have the
 * same width and follow one another. */
GAI void KFN(lf_chunk)(const struct maxpool_plan *p, const KFN(geo) * g, const KFN(row) * w, int64_t oa, int64_t ob,
                       int64_t ua, int64_t ub, int64_t pw, int sh, int al, GKT *cv, VLANE *ct, const int prop,
                       const int wi)
{
    const GT *xp = w->xp;
    if ((uint64_t)w->R << sh > (uint64_t)GEN_NONE) { /* line and column do not fit a lane: every column a candidate */
        sh = 0;
        pw = 1;
    }
    KFN(lf_rows)(g, w, ua, ub, cv, ct, sh, prop);
    const GKT nk = GKEY(g->neutral);
    int cs = 0; /* candidate at column j: entry (j - ua) >> cs */
    if (pw > 1) {
        const int64_t n = ub - ua;
        for (int64_t i = 0; i < 2 * VN; i += VN) { /* the levels read up to 2 VN - 1 entries past n */
            VK_STORE(cv + n + i, V_SET1(g->neutral));
            VI_STORE(ct + n + i, VI_SET1(GEN_NONE));
        }
        if (al) { /* every candidate starts a multiple of pw columns after ua: the levels keep only those */
            for (int64_t h = 1; h < pw; h *= 2, ++cs)
                KFN(lf_clevel)(cv, ct, n >> cs, h, prop);
        } else {
            for (int64_t h = 1; h < pw; h *= 2)
                KFN(lf_level)(cv, ct, n, h, prop);
        }
    }
    const int64_t cm = ((int64_t)1 << sh) - 1, *ro = w->ro, *st2 = g->st[2], *cn2 = g->cn[2];
    const int64_t ibase = w->n * p->idx_n + w->c * p->idx_c;
    const int i32 = p->desc.index_type == MAXPOOL_INDEX_I32;
    const GKT ik = GKEY(g->init);
    if (al == 2 && cn2[oa] == pw && !g->fe) {
        /* windows of pw columns one after the other: entry o - oa is output o's only candidate, and the start
         * value its only rival (a counted tap replaces it when greater, or a NaN under propagation) */
        const VT iv = V_SET1(g->init);
        for (int64_t i = 0; i < ob - oa; i += VN) {
            const int64_t nl = ob - oa - i < VN ? ob - oa - i : VN, o0 = oa + i;
            const VT k = VK_LOAD(cv + i);
            VM m = V_GTM(k, iv);
            if (prop)
                m = VM_OR(m, V_NANM(k));
            const VT val = V_SEL(iv, k, m);
            const uint64_t fix = (uint64_t)V_NANFIX(val); /* lane mask (f16 NaN lanes: bits from the input) */
            if (!fix) {
                if (nl == VN)
                    V_STORE(w->yr + o0, val);
                else
                    V_STOREN(w->yr + o0, val, nl);
                if (!wi)
                    continue;
            }
            alignas(64) VLANE lt[VN];
            VI_STORE(lt, VI_SEL(VI_SET1(GEN_NONE), VI_LOAD(ct + i), m));
            if (fix) {
                alignas(64) GT vals[VN];
                V_STORE(vals, val);
                for (int64_t l = 0; l < nl; ++l)
                    w->yr[o0 + l] = (fix >> l) & 1 && lt[l] != GEN_NONE ? xp[ro[lt[l] >> sh] + st2[o0 + l] + (lt[l] & cm)]
                                                                      : vals[l];
                if (!wi)
                    continue;
            }
            for (int64_t l = 0; l < nl; ++l) {
                const int64_t o = o0 + l, t = (int64_t)lt[l];
                if (lt[l] == GEN_NONE)
                    KFN(put_index)(p, g, w->ind, w->yoff + o, w->n, w->c, -1, w->s0, w->s1, st2[o]);
                else if (i32)
                    ((int32_t *)w->ind)[w->yoff + o] = (int32_t)(ibase + ro[t >> sh] + st2[o] + (t & cm));
                else
                    ((int64_t *)w->ind)[w->yoff + o] = ibase + ro[t >> sh] + st2[o] + (t & cm);
            }
        }
        return;
    }
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
            const GKT k = cv[(jj - ua) >> cs];
            const int valid = !(k == nk); /* the neutral key: no counted tap (t is then undefined) */
            const int64_t t = valid ? (int64_t)ct[(jj - ua) >> cs] : 0;
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

/* The chunks of a row (the same for every row): output columns [oa, ob)
 * whose taps lie in input columns [ua, ub), pw, sh, al as lf_chunk takes
 * them; al < 0: one output column of no tap or of a window wider than
 * GEN_LF_CAP (scalar). Made once per task (n < 0: not yet); rows of more
 * than GEN_LF_CHUNKS chunks make theirs as they go (n = 0). */
#define GEN_LF_CHUNKS 32
typedef struct KFN(lfc) {
    int n;
    struct {
        int64_t oa, ob, ua, ub, pw;
        int sh, al;
    } c[GEN_LF_CHUNKS];
} KFN(lfc);

/* The chunk from output column o: to c[0]; returns its end ob. */
static int64_t KFN(lf_chunkof)(const KFN(geo) * g, int64_t o, KFN(lfc) * c, int i)
{
    const int64_t O2 = g->out[2], *st2 = g->st[2], *cn2 = g->cn[2];
    c->c[i].oa = o;
    if (cn2[o] == 0 || cn2[o] > GEN_LF_CAP) { /* no tap, or a window wider than a chunk: scalar */
        c->c[i].al = -1;
        return c->c[i].ob = o + 1;
    }
    const int64_t ua = st2[o];
    int64_t ob = o + 1, ub = st2[o] + cn2[o], cmin = cn2[o], cmax = cn2[o], off = cn2[o];
    int reg = 1; /* windows of equal widths one after the other */
    while (ob < O2 && cn2[ob] > 0 && st2[ob] >= ua && st2[ob] + cn2[ob] - ua <= GEN_LF_CAP) {
        if (st2[ob] + cn2[ob] > ub)
            ub = st2[ob] + cn2[ob];
        cmin = cn2[ob] < cmin ? cn2[ob] : cmin;
        cmax = cn2[ob] > cmax ? cn2[ob] : cmax;
        off |= (st2[ob] - ua) | cn2[ob];
        reg &= cn2[ob] == cn2[o] && st2[ob] == st2[ob - 1] + cn2[o];
        ++ob;
    }
    int64_t pw = 1;
    int sh = 0;
    while (2 * pw <= cmin)
        pw *= 2;
    while (((int64_t)1 << sh) < cmax)
        ++sh;
    c->c[i].ua = ua;
    c->c[i].ub = ub;
    c->c[i].pw = pw;
    c->c[i].sh = sh;
    c->c[i].al = (off & (pw - 1)) == 0 ? 1 + reg : 0;
    return c->c[i].ob = ob;
}

/* Every column of one output row, lines first, in chunks of input columns. */
GAI void KFN(lf_cols_t)(const struct maxpool_plan *p, const KFN(geo) * g, const KFN(row) * w, KFN(lfc) * lc,
                        const int prop, const int wi)
{
    /* VN columns of margin before the chunk (the row-end vector), 2 VN after it */
    alignas(64) GKT cvb[GEN_LF_CAP + 4 * 64];
    alignas(64) VLANE ctb[GEN_LF_CAP + 4 * 64];
    GKT *cv = cvb + 64;
    VLANE *ct = ctb + 64;
    const int64_t O2 = g->out[2];
    if (lc->n < 0) {
        int n = 0;
        for (int64_t o = 0; o < O2 && n < GEN_LF_CHUNKS; ++n)
            o = KFN(lf_chunkof)(g, o, lc, n);
        lc->n = n > 0 && lc->c[n - 1].ob == O2 ? n : 0;
    }
    KFN(lfc) one;
    for (int64_t o = 0, i = 0; o < O2; ++i) {
        const KFN(lfc) *c = lc;
        if (lc->n == 0) { /* rows of many chunks */
            KFN(lf_chunkof)(g, o, &one, 0);
            c = &one;
            i = 0;
        }
        const int64_t oa = c->c[i].oa, ob = c->c[i].ob;
        if (c->c[i].al < 0)
            KFN(cf_put)(p, g, w, oa, g->init, -1, g->cn[2][oa] != 0, prop, wi);
        else
            KFN(lf_chunk)(p, g, w, oa, ob, c->c[i].ua, c->c[i].ub, c->c[i].pw, c->c[i].sh, c->c[i].al, cv, ct, prop,
                          wi);
        o = ob;
    }
}

/* lf_cols_t with the NaN rule as a constant, out of line (one copy per
 * rule: the row loop's four variants share it). Index output is a run-time
 * value: it only decides the stores after each column's (or vector's)
 * scan, a predictable branch, while the lines' combination (lf_rows) does
 * not see it (build cost, docs/performance.md). */
__attribute__((noinline)) static void KFN(lf_cols)(const struct maxpool_plan *p, const KFN(geo) * g,
                                                   const KFN(row) * w, KFN(lfc) * lc, int prop, int wi)
{
    if (GFLOAT && prop)
        KFN(lf_cols_t)(p, g, w, lc, 1, wi);
    else
        KFN(lf_cols_t)(p, g, w, lc, 0, wi);
}
