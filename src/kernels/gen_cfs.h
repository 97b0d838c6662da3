/* SPDX-License-Identifier: Apache-2.0 */
/* The type-generic kernels (gen_impl.h): channels-first, rows of one
 * vector with indices. Included once by gen_impl.h, after gen_cf_run.h. */

/* ---- channels-first, rows of one vector with indices ------------------- *
 * Output rows of at most VN columns on the W grid (stride 1 or 2) with
 * index output, for the types whose tap lanes have 32 or 64 bits: late
 * layers and adaptive heads (13x13 -> 6x6, 14x14 -> 7x7), where the
 * per-tap form's work per row (row tables, block kinds, the tap table and
 * its gathered index store) outweighs the taps. One vector per row, its taps
 * read in place as in the masked border form (cf_bmask, the lane masks of
 * block 0; none when every used lane's taps lie inside the row: lanes past
 * the row's end are computed but never stored), and each lane carries, in
 * place of a tap number, the winner's offset from the lane's first grid
 * column on the window's first line (line offsets made once per task while
 * the line counts do not change): the index is that plus a per-lane
 * constant, no table and no gather. The rule per tap is the per-tap form's
 * (upd), line 0 under the first-element start cf_bmask's (each lane's first
 * tap comes in whatever it holds). Offsets are below the plane size, so
 * they never equal GEN_NONE (plans of planes up to INT32_MAX elements). f16
 * NaN lanes and lanes without a tap go the scalar way; rows of more lines
 * than GEN_LINES_MAX, or whose lines' span would leave the input tensor,
 * take the per-tap form. */

#if GEN_VLBITS >= 32
/* Whether the form applies (with indices). */
static int KFN(cfs_geo)(const struct maxpool_plan *p, const KFN(geo) * g)
{
    return g->grid && g->S <= 2 && g->K <= GEN_BM_K && g->out[2] <= VN && g->nbm >= 1 && KFN(cf_kind)(g, 0) == 0 &&
           p->in_spatial <= INT32_MAX;
}

/* The taps of lines [q, R) (offsets rel[] from xb) for one vector of grid
 * columns; msk: taps outside the row made neutral (block 0's lane masks). */
GAI void KFN(cfs_lines)(const KFN(geo) * g, VT *best, VI *bt, const GT *xb, const int64_t *rel, int64_t q, int64_t R,
                        const int64_t K, const int64_t d, const int S, const int prop, const int msk)
{
    const VT nv = V_SET1(g->neutral);
    for (; q < R; ++q) {
        const GT *xr = xb + rel[q];
        GEN_UNROLL
        for (int64_t k = 0; k < K; ++k) {
            const VT xv = GEN_TAP(xr + k * d, S);
            KFN(upd)(best, bt, msk ? V_SEL(nv, xv, g->bvalid[0][k]) : xv, rel[q] + k * d, prop, 1);
        }
    }
}

/* Lanes [0, nl) of a row: values vals[] to yr[], indices ib + l*S + lt[l]
 * to ind[at + l] (int32 or int64); four lanes at a time (AVX2), the last
 * group masked. Returns whether some lane has no tap (GEN_NONE: its index
 * is then meaningless, for the caller to redo). */
GAI int KFN(cfs_store)(GT *yr, void *ind, int64_t at, int64_t ib, int64_t S, const GT *vals, const VLANE *lt,
                       int64_t nl, const int i32)
{
    int none = 0;
    int64_t l = 0;
#ifdef __AVX2__
    const __m128i nonev = _mm_set1_epi32(-1), iota = _mm_setr_epi32(0, 1, 2, 3);
    const __m256i step = _mm256_set1_epi64x(4 * S);
    __m256i bv = _mm256_add_epi64(_mm256_set1_epi64x(ib), _mm256_setr_epi64x(0, S, 2 * S, 3 * S));
    for (; l < nl; l += 4) { /* lt[], vals[] hold VN lanes, a multiple of 4 */
        const __m128i lm = _mm_cmpgt_epi32(_mm_set1_epi32((int32_t)(nl - l)), iota), t = KFN(cfi_t4)(lt + l);
        none |= _mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi32(t, nonev), lm));
        const __m256i o = _mm256_add_epi64(_mm256_cvtepu32_epi64(t), bv);
        bv = _mm256_add_epi64(bv, step);
        if (i32)
            _mm_maskstore_epi32((int32_t *)ind + at + l, lm,
                                _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(o, _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6))));
        else
            _mm256_maskstore_epi64((long long *)(void *)((int64_t *)ind + at + l), _mm256_cvtepi32_epi64(lm), o);
        if (sizeof(GT) == 4)
            _mm_maskstore_epi32((int *)(void *)(yr + l), lm, _mm_loadu_si128((const __m128i *)(const void *)(vals + l)));
        else if (sizeof(GT) == 8)
            _mm256_maskstore_epi64((long long *)(void *)(yr + l), _mm256_cvtepi32_epi64(lm),
                                   _mm256_loadu_si256((const __m256i *)(const void *)(vals + l)));
        else if (l + 4 <= nl)
            memcpy(yr + l, vals + l, 4 * sizeof(GT));
        else
            for (int64_t i = l; i < nl; ++i)
                yr[i] = vals[i];
    }
#endif
    for (; l < nl; ++l) {
        const uint64_t v = (uint64_t)ib + (uint64_t)(l * S) + (uint64_t)lt[l];
        yr[l] = vals[l];
        if (i32)
            ((int32_t *)ind)[at + l] = (int32_t)(uint32_t)v;
        else
            ((int64_t *)ind)[at + l] = (int64_t)v;
        none |= lt[l] == GEN_NONE;
    }
    return none;
}

GAI void KFN(cfs_run)(const struct maxpool_plan *p, const KFN(geo) * g, const GT *x, GT *y, void *ind, int64_t t0,
                      int64_t t1, const int S, const int prop)
{
    const int64_t O2 = g->out[2], K = g->K, d = g->d, in1 = g->in[1], in2 = g->in[2], sp0 = g->step[0],
                  sp1 = g->step[1], span = S * VN + (K - 1) * d;
    const int i32 = p->desc.index_type == MAXPOOL_INDEX_I32;
    int msk = 0; /* some used lane has a tap outside the row */
    for (int64_t o = 0; o < O2; ++o)
        for (int64_t k = 0; k < K; ++k) {
            const int64_t pos = g->v0 + o * S + k * d;
            msk |= pos < 0 || pos >= in2;
        }
    int64_t rel[GEN_LINES_MAX], rk0 = -1, rk1 = -1; /* line offsets from the first, for line counts rk0, rk1 */
    KFN(tcur) tc;
    KFN(tcur_init)(p, g, &tc, t0);
    for (int64_t t = t0; t < t1; ++t) {
        KFN(row) w;
        KFN(tcur_row)(p, g, &tc, t > t0, &w, x, y, ind, t);
        const int64_t R = w.R;
        if (R == 0) { /* no input element */
            for (int64_t o = 0; o < O2; ++o)
                KFN(cf_put)(p, g, &w, o, g->init, -1, 0, prop, 1);
            continue;
        }
        if (R > GEN_LINES_MAX) {
            KFN(cf_task)(p, g, x, y, ind, t, t + 1, prop, 1);
            continue;
        }
        if (w.c0 != rk0 || w.c1 != rk1) {
            int64_t r = 0;
            for (int64_t j0 = 0; j0 < w.c0; ++j0)
                for (int64_t j1 = 0; j1 < w.c1; ++j1)
                    rel[r++] = (j0 * sp0 * in1 + j1 * sp1) * in2;
            rk0 = w.c0;
            rk1 = w.c1;
        }
        const int64_t ro0 = (w.s0 * in1 + w.s1) * in2, at = w.xp - g->xbeg + ro0 + g->v0;
        if (at < 0 || at + rel[R - 1] + span > g->xlen) { /* (the tensor's first or last rows) */
            KFN(cf_task)(p, g, x, y, ind, t, t + 1, prop, 1);
            continue;
        }
        const GT *xb = w.xp + ro0 + g->v0;
        VT best = V_SET1(g->init);
        VI bt = VI_SET1(GEN_NONE);
        int64_t q = 0;
        if (g->fe) { /* line 0: each lane's first tap comes in whatever it holds */
            const VT nv = V_SET1(g->neutral);
            for (int64_t k = 0; k < K; ++k) {
                const VT xv = GEN_TAP(xb + k * d, S), xt = msk ? V_SEL(nv, xv, g->bvalid[0][k]) : xv;
                VM m = VM_OR(V_GTM(xt, best), g->bfirst[0][k]);
                if (prop)
                    m = VM_OR(m, V_NANM(xt));
                best = V_SEL(best, xt, m);
                bt = VI_SEL(bt, VI_SET1(k * d), m);
            }
            q = 1;
        }
        if (msk) /* (K and d as constants: 3, 1 and 2, 1, the adaptive heads and late layers) */
            KFN(cfs_lines)(g, &best, &bt, xb, rel, q, R, K, d, S, prop, 1);
        else if (K == 3 && d == 1)
            KFN(cfs_lines)(g, &best, &bt, xb, rel, q, R, 3, 1, S, prop, 0);
        else if (K == 2 && d == 1)
            KFN(cfs_lines)(g, &best, &bt, xb, rel, q, R, 2, 1, S, prop, 0);
        else
            KFN(cfs_lines)(g, &best, &bt, xb, rel, q, R, K, d, S, prop, 0);
        /* values and indices of lanes [0, O2): index = ib + l*S + the lane's offset */
        alignas(64) GT vals[VN];
        alignas(64) VLANE lt[VN];
        const uint64_t fix = (uint64_t)V_NANFIX(best) & (((uint64_t)2 << (O2 - 1)) - 1);
        V_STORE(vals, best);
        VI_STORE(lt, bt);
        const int none = KFN(cfs_store)(w.yr, ind, w.yoff, w.n * p->idx_n + w.c * p->idx_c + ro0 + g->v0, S, vals, lt,
                                        O2, i32);
        if (none | (fix != 0))
            for (int64_t l = 0; l < O2; ++l) {
                if ((fix >> l) & 1)
                    KFN(cf_put)(p, g, &w, l, g->init, -1, 1, prop, 1);
                else if (lt[l] == GEN_NONE)
                    KFN(put_index)(p, g, ind, w.yoff + l, w.n, w.c, -1, w.s0, w.s1, g->st[2][l]);
            }
    }
}

/* cfs_run with S and the NaN rule as constants, out of line. */
__attribute__((noinline)) static void KFN(cfs_task)(const struct maxpool_plan *p, const KFN(geo) * g, const GT *x,
                                                    GT *y, void *ind, int64_t t0, int64_t t1, int prop)
{
    if (GFLOAT && prop) {
        if (g->S == 1)
            KFN(cfs_run)(p, g, x, y, ind, t0, t1, 1, 1);
        else
            KFN(cfs_run)(p, g, x, y, ind, t0, t1, 2, 1);
    } else {
        if (g->S == 1)
            KFN(cfs_run)(p, g, x, y, ind, t0, t1, 1, 0);
        else
            KFN(cfs_run)(p, g, x, y, ind, t0, t1, 2, 0);
    }
}
#else
static int KFN(cfs_geo)(const struct maxpool_plan *p, const KFN(geo) * g)
{
    (void)p;
    (void)g;
    return 0;
}
static void KFN(cfs_task)(const struct maxpool_plan *p, const KFN(geo) * g, const GT *x, GT *y, void *ind, int64_t t0,
                          int64_t t1, int prop)
{
    KFN(cf_task)(p, g, x, y, ind, t0, t1, prop, 1);
}
#endif
