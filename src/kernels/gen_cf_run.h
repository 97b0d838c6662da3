/* SPDX-License-Identifier: Apache-2.0 */
/* The type-generic kernels (gen_impl.h): channels-first, the per-tap and
 * lines-first forms' row loop (cf_run) and its out-of-line entry (cf_task).
 * Included once by gen_impl.h. */

/* cf_border with the NaN rule and index output as constants and the
 * stride a run-time value (a predictable branch per tap), out of line: one
 * copy for both strides (build cost, docs/performance.md). The blocks it
 * takes are few: border blocks whose lines' span would leave the input
 * tensor (its first and last rows) or past GEN_BM_MAX of a row. */
__attribute__((noinline)) static void KFN(cf_border_o)(const struct maxpool_plan *p, const KFN(geo) * g,
                                                       const KFN(row) * w, int64_t ob, int64_t nl, int prop, int wi)
{
    const int S = (int)g->S;
    if (GFLOAT && prop) {
        if (wi)
            KFN(cf_border)(p, g, w, ob, nl, S, 1, 1);
        else
            KFN(cf_border)(p, g, w, ob, nl, S, 1, 0);
    } else {
        if (wi)
            KFN(cf_border)(p, g, w, ob, nl, S, 0, 1);
        else
            KFN(cf_border)(p, g, w, ob, nl, S, 0, 0);
    }
}

/* cf_gather with the NaN rule and index output as constants, out of line:
 * one copy for the row loop's rows off the grid (its work per block, VN
 * lanes gathered per tap, outweighs a call). */
__attribute__((noinline)) static void KFN(cf_gather_o)(const struct maxpool_plan *p, const KFN(geo) * g,
                                                       const KFN(row) * w, int64_t ob, int64_t nl, int prop, int wi)
{
    if (GFLOAT && prop) {
        if (wi)
            KFN(cf_gather)(p, g, w, ob, nl, 1, 1);
        else
            KFN(cf_gather)(p, g, w, ob, nl, 1, 0);
    } else {
        if (wi)
            KFN(cf_gather)(p, g, w, ob, nl, 0, 1);
        else
            KFN(cf_gather)(p, g, w, ob, nl, 0, 0);
    }
}

/* Every column of one output row on the grid, stride S. */
GAI void KFN(cf_cols)(const struct maxpool_plan *p, const KFN(geo) * g, const KFN(row) * w, const int S,
                      const int prop, const int wi)
{
    const int64_t O2 = g->out[2], span = S * VN + (g->K - 1) * g->d;
    const int64_t base = w->xp - g->xbeg; /* the plane's offset in the tensor */
    int bi = 0;
    for (int64_t o = 0; o < O2;) {
        int nb = KFN(cf_kind)(g, o);
        if (nb == 4) {
            KFN(cf_vec)(p, g, w, o, 4, S, prop, wi);
        } else if (nb == 2 && wi) {
            KFN(cf_vec)(p, g, w, o, 2, S, prop, wi);
        } else if (nb) { /* (values only, a block of 2 as two of 1: rows the W-first forms leave, build cost) */
            KFN(cf_vec)(p, g, w, o, 1, S, prop, wi);
            nb = 1;
        } else {
            const int64_t nl = O2 - o < VN ? O2 - o : VN, v = g->v0 + o * S;
            if (bi < g->nbm && base + w->ro[0] + v >= 0 && base + w->ro[w->R - 1] + v + span <= g->xlen)
                KFN(cf_bmask)(p, g, w, o, nl, bi, S, prop, wi);
            else
                KFN(cf_border_o)(p, g, w, o, nl, prop, wi);
            ++bi;
        }
        o += (nb ? nb : 1) * VN;
    }
}

GAI void KFN(cf_run)(const struct maxpool_plan *p, const KFN(geo) * g, const GT *x, GT *y, void *ind, int64_t t0,
                     int64_t t1, const int prop, const int wi)
{
    const int64_t O2 = g->out[2];
    int64_t ro[GEN_LINES_MAX], toff[GEN_TAPS_MAX];
    KFN(lfc) lc; /* the lines-first form's chunks, made by its first row */
    lc.n = -1;
    int64_t tk0 = -1, tk1 = -1; /* the line counts toff[] was made for (-1: none yet) */
    const int64_t in1 = g->in[1], in2 = g->in[2], sp0 = g->step[0], sp1 = g->step[1];
    KFN(tcur) tc;
    KFN(tcur_init)(p, g, &tc, t0);
    for (int64_t t = t0; t < t1; ++t) {
        KFN(row) w;
        KFN(tcur_row)(p, g, &tc, t > t0, &w, x, y, ind, t);
        w.ro = ro;
        w.toff = toff;
        if (w.R == 0 || w.R > GEN_LINES_MAX || (wi && w.R > GEN_TAPS_LIMIT)) {
            /* no input element, more lines than the table, or (indices) more taps than a lane numbers
             * (every form below would give each column the scalar scan): scalar */
            for (int64_t o = 0; o < O2; ++o)
                KFN(cf_put)(p, g, &w, o, g->init, -1, w.R != 0, prop, wi);
            continue;
        }
        int64_t r = 0;
        for (int64_t j0 = 0; j0 < w.c0; ++j0)
            for (int64_t j1 = 0; j1 < w.c1; ++j1)
                ro[r++] = ((w.s0 + j0 * sp0) * in1 + w.s1 + j1 * sp1) * in2;
        /* (GEN_CFPOS with indices: the lanes' positions, toff[], below 2^32 - 1, gen_cf.h) */
        const int grid = g->grid && g->S <= 2 && (g->K - 1) * g->d <= GEN_SPAN_MAX - 2 * VN &&
                         (!wi || (w.R * g->K <= GEN_TAPS_LIMIT &&
                                  (!GEN_CFPOS || ro[w.R - 1] - ro[0] + (g->K - 1) * g->d < (int64_t)UINT32_MAX)));
        if (!grid) {
            if (g->step[2] == 1 && w.R < GEN_TAPS_LIMIT) {
                KFN(lf_cols)(p, g, &w, &lc, prop, wi);
            } else { /* every column gathered (scalar for windows of too many taps) */
                for (int64_t o = 0; o < O2; o += VN)
                    KFN(cf_gather_o)(p, g, &w, o, O2 - o < VN ? O2 - o : VN, prop, wi);
            }
            continue;
        }
        if (wi) { /* the tap table from the row's first line: the same for rows of the same line counts */
            if (w.c0 != tk0 || w.c1 != tk1) {
                for (int64_t q = 0; q < w.R; ++q)
                    for (int64_t k = 0; k < g->K; ++k)
                        toff[q * g->K + k] = ro[q] - ro[0] + k * g->d;
                tk0 = w.c0;
                tk1 = w.c1;
            }
            w.tb = ro[0];
            w.ib = w.n * p->idx_n + w.c * p->idx_c + w.tb + g->v0;
            w.i32 = p->desc.index_type == MAXPOOL_INDEX_I32;
        }
        if (g->S == 1)
            KFN(cf_cols)(p, g, &w, 1, prop, wi);
        else
            KFN(cf_cols)(p, g, &w, 2, prop, wi);
    }
}

/* cf_run with the NaN rule and index output as constants, out of line: the
 * entry point and the lines-flat form's leftover rows share these. */
__attribute__((noinline)) static void KFN(cf_task)(const struct maxpool_plan *p, const KFN(geo) * g, const GT *x,
                                                   GT *y, void *ind, int64_t t0, int64_t t1, int prop, int wi)
{
    if (GFLOAT && prop) {
        if (wi)
            KFN(cf_run)(p, g, x, y, ind, t0, t1, 1, 1);
        else
            KFN(cf_run)(p, g, x, y, ind, t0, t1, 1, 0);
    } else {
        if (wi)
            KFN(cf_run)(p, g, x, y, ind, t0, t1, 0, 1);
        else
            KFN(cf_run)(p, g, x, y, ind, t0, t1, 0, 0);
    }
}
