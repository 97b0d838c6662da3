/* SPDX-License-Identifier: Apache-2.0 */
/* The type-generic kernels (gen_impl.h): channels-first, short rows of
 * adaptive windows with indices (f32 only). Included once by gen_impl.h,
 * after gen_cfs.h. */

/* ---- channels-first, short adaptive rows with indices ------------------ *
 * Adaptive windows with index output (uneven or not: 15 -> 4 is windows of
 * 4 and 5 taps from 0, 3, 7, 11; the divisible ones of 1 or 2 taps stay
 * with the rows-of-one-vector form, gen_cfs.h), output rows of at most VN
 * columns and input rows of at most 2*VN: lines first, all in vector code.
 * The row's window lines are combined per input column (one or two vectors
 * per line, read in place: the lines' span must lie inside the input
 * tensor, else the per-tap form does the row) into the best key and its
 * offset in the plane from the row's first line: the first maximum over the
 * lines, the last NaN under propagation; a column where nothing beats the
 * start value keeps it with no offset (GEN_NONE; under the first-element
 * start the neutral value is the start here). Then each lane (one output
 * column) meets its window's columns in order, column k of every lane at
 * once being one permute of the combined line(s): lane l takes column
 * st[l] + min(k, cn[l] - 1), so a window narrower than the widest meets its
 * last column again, which changes nothing. A column replaces the lane's
 * best when its key is greater, or equal at a smaller offset (row-major
 * order: the first maximum), or (propagation) it is a NaN and the best is
 * not a NaN at a larger offset (the last NaN). Under the first-element
 * start each lane starts at its window's first tap (line 0, column st[l]).
 * When the input row fits one vector and two output rows fit the lanes, two
 * consecutive rows (any planes) go together, each permute taking both rows'
 * combined lines. Wider input rows (output rows up to 2*VN columns) gather
 * each tap per lane and scan in row-major order (the reference's rule,
 * upd's). Indices as the rows-of-one-vector form stores them (cfs_store, S
 * = 0: the offset plus the row's base); lanes with no offset get the
 * empty-window index. Offsets are below the plane size (plans of planes up
 * to INT32_MAX elements), so they never equal GEN_NONE. */

#if GEN_TYPE == GEN_F32
#define CFA_KMAX 16 /* taps of a window line */

#if VN == 16
#define CFA_P2(a, b, ix, hm) _mm512_permutex2var_ps((a), (ix), (b))
#define CFA_Q2(a, b, ix, hm) _mm512_permutex2var_epi32((a), (ix), (b))
#else
#define CFA_P2(a, b, ix, hm)                                                                                           \
    _mm256_blendv_ps(_mm256_permutevar8x32_ps((a), (ix)), _mm256_permutevar8x32_ps((b), (ix)), (hm))
#define CFA_Q2(a, b, ix, hm)                                                                                           \
    _mm256_castps_si256(_mm256_blendv_ps(_mm256_castsi256_ps(_mm256_permutevar8x32_epi32((a), (ix))),                  \
                                         _mm256_castsi256_ps(_mm256_permutevar8x32_epi32((b), (ix))), (hm)))
#endif

#if VN == 16 && defined(MAXPOOL_SIMDE) /* SIMDe has no 512-bit gather: lane by lane */
GAI VT KFN(cfa_gather)(const GT *b, VI ix)
{
    alignas(64) VLANE i[VN];
    alignas(64) GT v[VN];
    VI_STORE(i, ix);
    for (int l = 0; l < VN; ++l)
        v[l] = b[i[l]];
    return V_LOAD(v);
}
#define CFA_GATHER(base, ix) KFN(cfa_gather)((base), (ix))
#elif VN == 16
#define CFA_GATHER(base, ix) _mm512_i32gather_ps((ix), (base), 4)
#else
#define CFA_GATHER(base, ix) _mm256_i32gather_ps((base), (ix), 4)
#endif

/* The lane tables: for tap k, the permute index (ix: source lane, past VN
 * the second source), the column (col) and (AVX2) the second source's lanes
 * (hm); iota: the columns of a line's two vectors. The gathered rows: per
 * block of VN columns, col only. */
typedef struct KFN(cfat) {
    VI ix[CFA_KMAX], col[2][CFA_KMAX], iota[2];
    VT hm[CFA_KMAX];
    int64_t K;
} KFN(cfat);

/* Whether the form applies (with indices). */
static int KFN(cfa_geo)(const struct maxpool_plan *p, const KFN(geo) * g)
{
    const int64_t O2 = g->out[2], in2 = g->in[2];
    if (p->desc.window != MAXPOOL_WINDOW_ADAPTIVE || g->step[2] != 1 || O2 > (in2 > 2 * VN ? 2 * VN : VN) ||
        p->in_spatial > INT32_MAX)
        return 0;
    if (g->grid && g->K == g->S && g->S <= 2 && O2 <= VN) /* divisible by 1 or 2: the rows-of-one-vector form */
        return 0;                                          /* (14 -> 7: 0.8 of this form's time) */
    for (int64_t o = 0; o < O2; ++o)
        if (g->cn[2][o] < 1 || g->cn[2][o] > CFA_KMAX || g->st[2][o] < 0 || g->st[2][o] + g->cn[2][o] > in2)
            return 0;
    return 1;
}

/* Rows [t0, t1), G (1, 2) at a time. Taps: mode 1 a permute of two
 * vectors (the row's combined line as two vectors, or G = 2: the two rows'
 * of one vector each), 2 gathered from the line (NB blocks of VN columns). */
GAI void KFN(cfa_run)(const struct maxpool_plan *p, const KFN(geo) * g, const GT *x, GT *y, void *ind, int64_t t0,
                      int64_t t1, const KFN(cfat) * tb, const int mode, const int G, const int NB, const int prop)
{
    const int64_t O2 = g->out[2], K = tb->K, in1 = g->in[1], in2 = g->in[2], sp0 = g->step[0], sp1 = g->step[1];
    const int64_t span = mode == 2 ? in2 : G == 1 ? 2 * VN : VN; /* elements read from a line's start */
    const int i32 = p->desc.index_type == MAXPOOL_INDEX_I32;
    int64_t rel[2][GEN_LINES_MAX],
        rk[2][2] = {{-1, -1}, {-1, -1}}; /* line offsets from the row's first, for line counts rk */
    KFN(tcur) tc;
    KFN(tcur_init)(p, g, &tc, t0);
    for (int64_t t = t0; t < t1; t += G) {
        KFN(row) w[2];
        const int nr = G == 2 && t + 1 < t1 ? 2 : 1;
        const GT *xb[2];
        int64_t ro0[2];
        int ok = 1;
        for (int r = 0; r < nr; ++r) {
            KFN(tcur_row)(p, g, &tc, t + r > t0, &w[r], x, y, ind, t + r);
            const int64_t R = w[r].R;
            if (R == 0 || R > GEN_LINES_MAX) {
                ok = 0;
                continue;
            }
            if (w[r].c0 != rk[r][0] || w[r].c1 != rk[r][1]) {
                int64_t q = 0;
                for (int64_t j0 = 0; j0 < w[r].c0; ++j0)
                    for (int64_t j1 = 0; j1 < w[r].c1; ++j1)
                        rel[r][q++] = (j0 * sp0 * in1 + j1 * sp1) * in2;
                rk[r][0] = w[r].c0;
                rk[r][1] = w[r].c1;
            }
            ro0[r] = (w[r].s0 * in1 + w[r].s1) * in2;
            const int64_t at = w[r].xp - g->xbeg + ro0[r];
            ok &= at + rel[r][R - 1] + span <= g->xlen;
            xb[r] = w[r].xp + ro0[r];
        }
        if (!ok) { /* (the tensor's last rows) */
            KFN(cf_task)(p, g, x, y, ind, t, t + nr, prop, 1);
            continue;
        }
        const int r1 = nr - 1; /* the second row (G = 2), or the first again */
        VT best[2];
        VI bt[2];
        for (int v = 0; v < NB; ++v) {
            best[v] = V_SET1(g->init);
            bt[v] = VI_SET1(GEN_NONE);
        }
        if (mode == 2) { /* gathered: the row's taps in row-major order */
            for (int64_t j = 0; j < w[0].R; ++j) {
                const GT *xl = xb[0] + rel[0][j];
                const VI lo = VI_SET1(rel[0][j]);
                for (int v = 0; v < NB; ++v)
                    if (g->fe && j == 0) {
                        best[v] = CFA_GATHER(xl, tb->col[v][0]);
                        bt[v] = VI_ADD(lo, tb->col[v][0]);
                    }
                for (int64_t k = 0; k < K; ++k)
                    for (int v = 0; v < NB; ++v) {
                        const VT xv = CFA_GATHER(xl, tb->col[v][k]);
                        VM m = V_GTM(xv, best[v]);
                        if (prop)
                            m = VM_OR(m, V_NANM(xv));
                        best[v] = V_SEL(best[v], xv, m);
                        bt[v] = VI_SEL(bt[v], VI_ADD(lo, tb->col[v][k]), m);
                    }
            }
        } else {
            /* the permuted forms: each row's lines combined per column (best, offset), NS vectors */
            const int NS = G == 1 ? 2 : 1;
            VT cv[2][2];
            VI cp[2][2];
            for (int r = 0; r < G; ++r) {
                const int rr = r < nr ? r : 0;
                const int64_t R = w[rr].R, *rl = rel[rr];
                for (int s2 = 0; s2 < NS; ++s2) {
                    cv[r][s2] = V_SET1(g->fe ? g->neutral : g->init);
                    cp[r][s2] = VI_SET1(GEN_NONE);
                }
                for (int64_t j = 0; j < R; ++j) {
                    const VI lo = VI_SET1(rl[j]);
                    for (int s2 = 0; s2 < NS; ++s2) {
                        const VT xv = V_LOAD(xb[rr] + rl[j] + s2 * VN);
                        VM m = V_GTM(xv, cv[r][s2]);
                        if (prop)
                            m = VM_OR(m, V_NANM(xv));
                        cv[r][s2] = V_SEL(cv[r][s2], xv, m);
                        cp[r][s2] = VI_SEL(cp[r][s2], VI_ADD(lo, tb->iota[s2]), m);
                    }
                }
            }
            /* the sources of the permutes */
            const VT va = cv[0][0], vb = G == 2 ? cv[1][0] : cv[0][NS - 1];
            const VI pa = cp[0][0], pb = G == 2 ? cp[1][0] : cp[0][NS - 1];
            if (g->fe) { /* each lane starts at its window's first tap (line 0: offset = column) */
                const VT a0 = V_LOAD(xb[0]), b0 = G == 2 ? V_LOAD(xb[r1]) : V_LOAD(xb[0] + VN);
                best[0] = CFA_P2(a0, b0, tb->ix[0], tb->hm[0]);
                bt[0] = tb->col[0][0];
            }
            /* then each lane's columns in order: the first maximum by offset (row-major), the last NaN */
            for (int64_t k = 0; k < K; ++k) {
                const VT xv = CFA_P2(va, vb, tb->ix[k], tb->hm[k]);
                const VI q = CFA_Q2(pa, pb, tb->ix[k], tb->hm[k]);
                VM m = VM_OR(V_GTM(xv, best[0]), VM_ANDN(V_EQM(xv, best[0]), VI_GEM(q, bt[0])));
                if (prop)
                    m = VM_OR(m, VM_ANDN(V_NANM(xv), VM_AND(V_NANM(best[0]), VI_GEM(bt[0], q))));
                best[0] = V_SEL(best[0], xv, m);
                bt[0] = VI_SEL(bt[0], q, m);
            }
        }
        for (int v = 0; v < NB; ++v) {
            alignas(64) GT vals[VN];
            alignas(64) VLANE lt[VN];
            V_STORE(vals, best[v]);
            VI_STORE(lt, bt[v]);
            const int64_t nl = G == 2 || O2 - v * VN < VN ? O2 - v * VN : VN; /* lanes of a row */
            for (int r = 0; r < nr; ++r) {
                const KFN(row) *wr = &w[r];
                const int64_t l0 = r * O2, o0 = v * VN; /* its first lane, its first column */
                const int none =
                    KFN(cfs_store)(wr->yr + o0, ind, wr->yoff + o0, wr->n * p->idx_n + wr->c * p->idx_c + ro0[r], 0,
                                   vals + l0, lt + l0, nl, i32);
                if (none)
                    for (int64_t l = 0; l < nl; ++l)
                        if (lt[l0 + l] == GEN_NONE)
                            KFN(put_index)(p, g, ind, wr->yoff + o0 + l, wr->n, wr->c, -1, wr->s0, wr->s1,
                                           g->st[2][o0 + l]);
            }
        }
    }
}

/* cfa_run with the lane tables made, the tap mode, row count, blocks and
 * NaN rule as constants, out of line. */
__attribute__((noinline)) static void KFN(cfa_task)(const struct maxpool_plan *p, const KFN(geo) * g, const GT *x,
                                                    GT *y, void *ind, int64_t t0, int64_t t1, int prop)
{
    const int64_t O2 = g->out[2], in2 = g->in[2];
    const int G = in2 <= VN && 2 * O2 <= VN ? 2 : 1, mode = in2 > 2 * VN ? 2 : 1, NB = O2 > VN ? 2 : 1;
    KFN(cfat) tb;
    tb.K = 1;
    for (int64_t o = 0; o < O2; ++o)
        tb.K = g->cn[2][o] > tb.K ? g->cn[2][o] : tb.K;
    for (int64_t k = 0; k < tb.K; ++k) {
        alignas(64) VLANE ix[VN], col[2][VN];
        alignas(64) GT hm[VN];
        for (int64_t l = 0; l < 2 * VN; ++l) {
            const int64_t gr = G == 2 && l >= O2 && l < VN, o = l - gr * O2;
            const int64_t c = o < O2 ? g->st[2][o] + (k < g->cn[2][o] ? k : g->cn[2][o] - 1) : 0;
            col[l / VN][l % VN] = (VLANE)c;
            if (l < VN) {
                ix[l] = (VLANE)(c + gr * VN);
                hm[l] = ix[l] >= VN ? -0.0f : 0.0f;
            }
        }
        tb.ix[k] = VI_LOAD(ix);
        tb.col[0][k] = VI_LOAD(col[0]);
        tb.col[1][k] = VI_LOAD(col[1]);
        tb.hm[k] = V_LOAD(hm);
    }
    for (int s2 = 0; s2 < 2; ++s2) {
        alignas(64) VLANE io[VN];
        for (int64_t l = 0; l < VN; ++l)
            io[l] = (VLANE)(s2 * VN + l);
        tb.iota[s2] = VI_LOAD(io);
    }
#define CFA_GO(pr)                                                                                                     \
    do {                                                                                                               \
        if (mode == 2 && NB == 2)                                                                                      \
            KFN(cfa_run)(p, g, x, y, ind, t0, t1, &tb, 2, 1, 2, pr);                                                   \
        else if (mode == 2)                                                                                            \
            KFN(cfa_run)(p, g, x, y, ind, t0, t1, &tb, 2, 1, 1, pr);                                                   \
        else if (G == 2)                                                                                               \
            KFN(cfa_run)(p, g, x, y, ind, t0, t1, &tb, 1, 2, 1, pr);                                                   \
        else                                                                                                       \
            KFN(cfa_run)(p, g, x, y, ind, t0, t1, &tb, 1, 1, 1, pr);                                                   \
    } while (0)
    if (GFLOAT && prop)
        CFA_GO(1);
    else
        CFA_GO(0);
#undef CFA_GO
}
#else
static int KFN(cfa_geo)(const struct maxpool_plan *p, const KFN(geo) * g)
{
    (void)p;
    (void)g;
    return 0;
}
static void KFN(cfa_task)(const struct maxpool_plan *p, const KFN(geo) * g, const GT *x, GT *y, void *ind, int64_t t0,
                          int64_t t1, int prop) {
    KFN(cf_task)(p, g, x, y, ind, t0, t1, prop, 1);
}
#endif
