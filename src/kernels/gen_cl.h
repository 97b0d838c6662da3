/* SPDX-License-Identifier: Apache-2.0 */
/* The type-generic kernels (gen_impl.h): channels-last. Included once by
 * gen_impl.h. */

/* ---- channels-last ------------------------------------------------------ */

/* The lanes of one vector of channels from cv that go lane by lane: the
 * fix lanes (f16 NaN: the scalar scan, bits as stored) and, with indices,
 * the lanes without a tap (lt[l] == GEN_NONE: the empty-window index; the
 * other lanes' indices are stored by cl_block through gen_cfi.h's
 * cfi_taps). Out of line, one copy for every block size and NaN rule
 * (build cost, docs/performance.md). */
__attribute__((noinline)) static void KFN(cl_lanes)(const struct maxpool_plan *p, const KFN(geo) * g, const GT *xn,
                                                    GT *yo, void *ind, int64_t ooff, int64_t n, int64_t cv,
                                                    const int64_t *ws, const VLANE *lt,
                                                    uint64_t fix, int prop, int wi)
{
    const int64_t C = p->c;
    for (int l = 0; l < VN; ++l) {
        if ((fix >> l) & 1) { /* the scalar scan, bits as stored */
            GT val;
            const int64_t s = KFN(sfold)(g, xn + cv + l, C, prop, ws[0], ws[3], ws[1], ws[4], ws[2], ws[5], &val);
            yo[cv + l] = val;
            if (wi)
                KFN(put_index)(p, g, ind, ooff + cv + l, n, cv + l, s, ws[0], ws[1], ws[2]);
        } else if (wi && lt[l] == GEN_NONE) {
            KFN(put_index)(p, g, ind, ooff + cv + l, n, cv + l, -1, ws[0], ws[1], ws[2]);
        }
    }
}

/* NB vectors of channels [c, c + NB*VN) of one output pixel whose R taps are
 * at spatial offsets tpos[0..R) (R >= 1, R <= GEN_TAPS_LIMIT with indices). */
GAI void KFN(cl_block)(const struct maxpool_plan *p, const KFN(geo) * g, const GT *xn, GT *yo, void *ind,
                       int64_t ooff, int64_t n, int64_t c, const int64_t *tpos, int64_t R, const int64_t *ws,
                       const int NB, const int prop, const int wi)
{
    const int64_t C = p->c;
    VT best[4];
    VI bt[4];
    GEN_UNROLL
    for (int v = 0; v < NB; ++v) {
        if (g->fe) {
            best[v] = V_LOAD(xn + tpos[0] * C + c + v * VN);
            bt[v] = VI_SET1(0);
        } else {
            best[v] = V_SET1(g->init);
            bt[v] = VI_SET1(GEN_NONE);
        }
    }
    for (int64_t t = 0; t < R; ++t) {
        const GT *q = xn + tpos[t] * C + c;
        GEN_UNROLL
        for (int v = 0; v < NB; ++v)
            KFN(upd)(&best[v], &bt[v], V_LOAD(q + v * VN), t, prop, wi);
    }
    GEN_UNROLL
    for (int v = 0; v < NB; ++v) {
        const int64_t cv = c + v * VN;
        V_STORE(yo + cv, best[v]);
        const uint64_t fix = (uint64_t)V_NANFIX(best[v]); /* lane mask (f16 NaN lanes) */
        if (!wi && !fix)
            continue;
        alignas(64) VLANE lt[VN];
        if (wi) { /* lane l's index: n*idx_n + (cv + l)*idx_c + tpos[lt[l]], a gather from tpos[] */
            VI_STORE(lt, bt[v]);
            if (!KFN(cfi_taps)(p, ind, ooff + cv, n, cv, 0, p->idx_c, tpos, lt, VN) && !fix)
                continue;
        }
        KFN(cl_lanes)(p, g, xn, yo, ind, ooff, n, cv, ws, lt, fix, prop, wi);
    }
}

/* Values only: NB vectors of channels [c, c + NB*VN) of one output pixel,
 * its window's R01 lines at pixel offsets lo[] (plus st2), cn2 taps each,
 * step2 pixels apart; taps loaded where they are, no tap table. */
GAI void KFN(cl_block_v)(const struct maxpool_plan *p, const KFN(geo) * g, const GT *xn, GT *yo, int64_t c,
                         const int64_t *lo, int64_t R01, const int64_t *ws, const int NB, const int prop)
{
    const int64_t C = p->c, st2 = ws[2], cn2 = ws[5], s2 = g->step[2] * C;
    VT best[4];
    GEN_UNROLL
    for (int v = 0; v < NB; ++v)
        best[v] = g->fe ? V_LOAD(xn + (lo[0] + st2) * C + c + v * VN) : V_SET1(g->init);
    for (int64_t r = 0; r < R01; ++r) {
        const GT *q = xn + (lo[r] + st2) * C + c;
        for (int64_t j = 0; j < cn2; ++j, q += s2)
            GEN_UNROLL
            for (int v = 0; v < NB; ++v)
                best[v] = prop ? V_MAXP(best[v], V_LOAD(q + v * VN)) : V_MAX(best[v], V_LOAD(q + v * VN));
    }
    GEN_UNROLL
    for (int v = 0; v < NB; ++v) {
        const int64_t cv = c + v * VN;
        V_STORE(yo + cv, best[v]);
        const uint64_t fix = (uint64_t)V_NANFIX(best[v]);
        for (int l = 0; fix && l < VN; ++l)
            if ((fix >> l) & 1) /* the scalar scan, bits as stored */
                KFN(sfold)(g, xn + cv + l, C, prop, ws[0], ws[3], ws[1], ws[4], ws[2], ws[5], &yo[cv + l]);
    }
}

GAI void KFN(cl_run)(const struct maxpool_plan *p, const KFN(geo) * g, const GT *x, GT *y, void *ind, int64_t t0,
                     int64_t t1, const int prop, const int wi)
{
    const int64_t C = p->c;
    const int64_t rows = g->out[0] * g->out[1];
    int64_t tpos[GEN_TAPS_MAX], lo[GEN_LINES_MAX];
    for (int64_t t = t0; t < t1; ++t) {
        const int64_t nn = t / rows, row = t % rows;
        const int64_t o0 = row / g->out[1], o1 = row % g->out[1];
        const GT *xn = x + nn * p->in_spatial * C;
        int64_t ws[6]; /* window start per axis, then count per axis */
        ws[0] = g->st[0][o0];
        ws[3] = g->cn[0][o0];
        ws[1] = g->st[1][o1];
        ws[4] = g->cn[1][o1];
        const int64_t R01 = ws[3] * ws[4]; /* the window's lines: pixel offsets lo[] (values only) */
        if (!wi && R01 <= GEN_LINES_MAX) {
            int64_t r = 0;
            for (int64_t j0 = 0; j0 < ws[3]; ++j0)
                for (int64_t j1 = 0; j1 < ws[4]; ++j1)
                    lo[r++] = ((ws[0] + j0 * g->step[0]) * g->in[1] + ws[1] + j1 * g->step[1]) * g->in[2];
        }
        for (int64_t o2 = 0; o2 < g->out[2]; ++o2) {
            ws[2] = g->st[2][o2];
            ws[5] = g->cn[2][o2];
            const int64_t ooff = ((nn * rows + row) * g->out[2] + o2) * C;
            GT *yo = y + ooff;
            const int64_t R = ws[3] * ws[4] * ws[5];
            int64_t c = 0;
            if (R == 0) { /* no input element: the start value, the empty index */
                for (; c < C; ++c) {
                    yo[c] = g->init;
                    if (wi)
                        KFN(put_index)(p, g, ind, ooff + c, nn, c, -1, ws[0], ws[1], ws[2]);
                }
                continue;
            }
            if (!wi && R01 <= GEN_LINES_MAX) {
                for (; c + 4 * VN <= C; c += 4 * VN)
                    KFN(cl_block_v)(p, g, xn, yo, c, lo, R01, ws, 4, prop);
                for (; c + VN <= C; c += VN)
                    KFN(cl_block_v)(p, g, xn, yo, c, lo, R01, ws, 1, prop);
            } else if (R <= (wi ? GEN_TAPS_LIMIT : GEN_TAPS_MAX)) {
                int64_t r = 0;
                for (int64_t j0 = 0; j0 < ws[3]; ++j0)
                    for (int64_t j1 = 0; j1 < ws[4]; ++j1) {
                        const int64_t rs =
                            ((ws[0] + j0 * g->step[0]) * g->in[1] + ws[1] + j1 * g->step[1]) * g->in[2] + ws[2];
                        for (int64_t j2 = 0; j2 < ws[5]; ++j2)
                            tpos[r++] = rs + j2 * g->step[2];
                    }
                for (; c + 4 * VN <= C; c += 4 * VN)
                    KFN(cl_block)(p, g, xn, yo, ind, ooff, nn, c, tpos, R, ws, 4, prop, wi);
                for (; c + VN <= C; c += VN)
                    KFN(cl_block)(p, g, xn, yo, ind, ooff, nn, c, tpos, R, ws, 1, prop, wi);
            }
            for (; c < C; ++c) { /* channel tail (and windows past the tap table): scalar */
                const int64_t s =
                    KFN(sfold)(g, xn + c, C, prop, ws[0], ws[3], ws[1], ws[4], ws[2], ws[5], &yo[c]);
                if (wi)
                    KFN(put_index)(p, g, ind, ooff + c, nn, c, s, ws[0], ws[1], ws[2]);
            }
        }
    }
}
