/* SPDX-License-Identifier: Apache-2.0 */
/* The type-generic kernels (gen_impl.h): channels-last, W first (values
 * only). Included once by gen_impl.h, after gen_cl.h.
 *
 * ---- channels-last, W first (values only) ------------------------------ *
 * Values only, C >= VN (every rank, every window: the W taps come from the
 * start/count arrays, so borders are taps skipped, not neutral values). An
 * output row (task) is its window's R window lines (pixel lines of the
 * input, row-major) taken pixel by pixel, channels in vectors of VN (the
 * last vector again over the last VN channels when VN does not divide C).
 * Each output vector's running max starts at the partial start ps and
 * takes the taps of its lines in row-major order (the reference's scan),
 * except the row's last line when the next output row starts with that
 * line (k3 s2: the row the two share): that line's scan is run from ps on
 * its own (its W partial), stored to the line buffer kb and combined with
 * the running max by the rule; the next row then starts its running max at
 * the buffer instead of reading and converting that line again. Per output
 * vector of k3 s2: 6 input loads, 1 buffer load, 7 rule steps, 2 stores
 * instead of 9 loads and 9 steps.
 *
 * Exactness. For scans A and B from the same start value s that is not a
 * NaN, update(scan(A), scan(B)) = scan(A then B) (f32_nhwc_wfirst_impl.h
 * spells it out): under propagation B's last NaN if B holds one; else a NaN
 * scan(A) stays (scan(B) is no NaN); else B's first maximum if it is greater
 * than scan(A) (then it is scan(B), which replaces), scan(A) otherwise
 * (scan(B) is then not greater). So the running max ends at the row-major
 * scan from ps; and the buffer's partial, a scan from ps of the shared line,
 * is where the next row's scan stands after its first line. ps is the start
 * value, or under the first-element start the neutral value (-inf, the
 * lowest integer): the first tap, one of the taps, then wins exactly as in
 * the reference's scan (first maximum, last NaN, equal keys keep the first:
 * -inf from -inf has one encoding), except without propagation where a NaN
 * first tap stays in the reference: there each vector takes its first tap's
 * NaN lanes at the end (V_NANM, V_SEL). Windows with no W tap give the start
 * value (no tap is read); windows with no line, or more than GEN_LINES_MAX
 * lines, take cl_run. f16 NaN results are redone by the scalar scan
 * (V_NANFIX: the conversion quiets sNaN). Scratch: the line buffer,
 * GEN_CLW_BYTES of keys, O2 * Cv of them (Cv: C rounded up to VN, the tail
 * vector's slots apart from the others'); wider rows do not keep lines.
 */

#define GEN_CLW_BYTES 16384
#ifndef CLW_CARRY_N4
#define CLW_CARRY_N4 1
#endif

/* The values-only channels-last rows that no vector takes, out of line:
 * channels narrower than a vector (the entry point) and clw_run's rows of
 * no line or of more than GEN_LINES_MAX lines (more taps than cl_run's
 * tables). cl_run would do every element of these by its scalar tail (and
 * the start value where a window has no tap, which the scalar scan gives
 * too), so they are the scalar scan here: cl_run's vector blocks for
 * values only are not compiled (build cost, docs/performance.md). */
__attribute__((noinline)) static void KFN(cl_run_v)(const struct maxpool_plan *p, const KFN(geo) * g, const GT *x,
                                                    GT *y, int64_t t0, int64_t t1, int prop)
{
    const int64_t C = p->c, rows = g->out[0] * g->out[1];
    for (int64_t t = t0; t < t1; ++t) {
        const int64_t nn = t / rows, row = t % rows, o0 = row / g->out[1], o1 = row % g->out[1];
        const GT *xn = x + nn * p->in_spatial * C;
        GT *yo = y + t * g->out[2] * C;
        for (int64_t o2 = 0; o2 < g->out[2]; ++o2, yo += C)
            for (int64_t c = 0; c < C; ++c)
                KFN(sfold)(g, xn + c, C, prop, g->st[0][o0], g->cn[0][o0], g->st[1][o1], g->cn[1][o1],
                           g->st[2][o2], g->cn[2][o2], &yo[c]);
    }
}

/* One output row of the W-first form, as the pixel loop reads it. */
typedef struct KFN(clwr) {
    const struct maxpool_plan *p;
    const KFN(geo) * g;
    const GT *xn;          /* the batch item's input (scalar redo) */
    const GT *const *rp;   /* the lines read: rp[0 .. RC) (pixel 0, channel 0) */
    const GT *first;       /* the window's first line (fenan) */
    int64_t RC, keep;      /* keep: rp[RC-1]'s W partials to the buffer */
    int64_t useb, fenan;   /* useb: the running max starts at the buffer */
    int64_t s0, c0, s1, c1; /* the window's first line and line counts (scalar redo) */
    GKT *kb;
    GT *yo;
} KFN(clwr);

#if GEN_TYPE == GEN_F16
/* The lanes where a or b is a NaN, as bits (f16: V_NANFIX's test on two vectors at once). */
#if VN == 8
#define CLW_UNORD(a, b) _mm256_movemask_ps(_mm256_cmp_ps((a), (b), _CMP_UNORD_Q))
#else
#define CLW_UNORD(a, b) ((int)_mm512_cmp_ps_mask((a), (b), _CMP_UNORD_Q))
#endif
/* f16 lanes fix (NaN) of channels [c, c + VN) of pixel o: the scalar scan. */
__attribute__((noinline)) static void KFN(clw_fix)(const KFN(clwr) * w, int64_t o, int64_t c, uint64_t fix, int prop)
{
    const KFN(geo) *g = w->g;
    const int64_t C = w->p->c;
    for (int l = 0; l < VN; ++l)
        if ((fix >> l) & 1)
            KFN(sfold)(g, w->xn + c + l, C, prop, w->s0, w->c0, w->s1, w->c1, g->st[2][o], g->cn[2][o],
                       &w->yo[o * C + c + l]);
}

#endif

/* NB vectors of keys from the elements at q (x[]), and back (V_LOAD,
 * V_STORE). bf16, NB even: two vectors from one load of 2*VN elements,
 * each 32-bit lane of 128 bits the 16 bits of an element above 16 zero
 * bits (the same key as V_LOAD's), the lanes of a pair in the order of
 * the unpack (elements 0-3 and 8-11 of each 16 in the first vector, 4-7
 * and 12-15 in the second); the store packs them back in element order.
 * The max is lane by lane, so the order only has to be the same for every
 * tap, the buffer slots (a slot range is always taken by the same NB) and
 * the output. */
#if GEN_TYPE == GEN_BF16 && VN == 8
#define CLW_PAIRS 1
#define CLW_LD2(p, a, b)                                                                                           \
    do {                                                                                                           \
        const __m256i x_ = _mm256_loadu_si256((const __m256i *)(const void *)(p)), z_ = _mm256_setzero_si256();   \
        (a) = _mm256_castsi256_ps(_mm256_unpacklo_epi16(z_, x_));                                                  \
        (b) = _mm256_castsi256_ps(_mm256_unpackhi_epi16(z_, x_));                                                  \
    } while (0)
#define CLW_ST2(p, a, b)                                                                                           \
    _mm256_storeu_si256((__m256i *)(void *)(p),                                                                    \
                        _mm256_packus_epi32(_mm256_srli_epi32(_mm256_castps_si256(a), 16),                         \
                                            _mm256_srli_epi32(_mm256_castps_si256(b), 16)))
#elif GEN_TYPE == GEN_BF16
#define CLW_PAIRS 1
#define CLW_LD2(p, a, b)                                                                                           \
    do {                                                                                                           \
        const __m512i x_ = _mm512_loadu_si512((const void *)(p)), z_ = _mm512_setzero_si512();                    \
        (a) = _mm512_castsi512_ps(_mm512_unpacklo_epi16(z_, x_));                                                  \
        (b) = _mm512_castsi512_ps(_mm512_unpackhi_epi16(z_, x_));                                                  \
    } while (0)
#define CLW_ST2(p, a, b)                                                                                           \
    _mm512_storeu_si512((void *)(p), _mm512_packus_epi32(_mm512_srli_epi32(_mm512_castps_si512(a), 16),           \
                                                         _mm512_srli_epi32(_mm512_castps_si512(b), 16)))
#else
#define CLW_PAIRS 0
#define CLW_LD2(p, a, b) ((a) = V_LOAD(p), (b) = V_LOAD((p) + VN))
#define CLW_ST2(p, a, b) (V_STORE((p), (a)), V_STORE((p) + VN, (b)))
#endif

GAI void KFN(clw_ld)(const GT *q, VT *x, const int NB)
{
    if (CLW_PAIRS && NB % 2 == 0) {
        GEN_UNROLL
        for (int v = 0; v < NB; v += 2)
            CLW_LD2(q + v * VN, x[v], x[v + 1]);
    } else {
        GEN_UNROLL
        for (int v = 0; v < NB; ++v)
            x[v] = V_LOAD(q + v * VN);
    }
}

GAI void KFN(clw_st)(GT *q, const VT *x, const int NB)
{
    if (CLW_PAIRS && NB % 2 == 0) {
        GEN_UNROLL
        for (int v = 0; v < NB; v += 2)
            CLW_ST2(q + v * VN, x[v], x[v + 1]);
    } else {
        GEN_UNROLL
        for (int v = 0; v < NB; ++v)
            V_STORE(q + v * VN, x[v]);
    }
}

/* NB vectors of channels from c (element off of each line; buffer slots
 * from kb; output from yo) of pixel o, whose W taps are n, dq elements
 * apart; K3: n = 3. */
GAI void KFN(clw_px)(const KFN(clwr) * w, const GT *const *rp, int64_t RF, int64_t keep, int64_t useb, int64_t fenan,
                     int64_t o, int64_t c, int64_t off, int64_t n, int64_t dq, GKT *kb, GT *yo, VT ps, VT (*cy)[4],
                     int cin, const int NB, const int K3, const int CY, const int prop)
{
    VT acc[4], h[4], x[4];
#define CLW_TAP(a, q)                                                                                              \
    KFN(clw_ld)((q), x, NB);                                                                                       \
    GEN_UNROLL                                                                                                     \
    for (int v = 0; v < NB; ++v)                                                                                   \
        a[v] = prop ? V_MAXP(a[v], x[v]) : V_MAX(a[v], x[v]);
    GEN_UNROLL
    for (int v = 0; v < NB; ++v)
        acc[v] = useb ? VK_LOAD(kb + v * VN) : ps;
    if (CY) { /* K3, RF <= 1: tap 0 of each line is the last pixel's tap 2 when cin */
        if (RF) {
            const GT *q = rp[0] + off;
            if (cin) {
                GEN_UNROLL
                for (int v = 0; v < NB; ++v)
                    x[v] = cy[0][v];
            } else {
                KFN(clw_ld)(q, x, NB);
            }
            GEN_UNROLL
            for (int v = 0; v < NB; ++v)
                acc[v] = prop ? V_MAXP(acc[v], x[v]) : V_MAX(acc[v], x[v]);
            CLW_TAP(acc, q + dq)
            CLW_TAP(acc, q + 2 * dq)
            GEN_UNROLL
            for (int v = 0; v < NB; ++v)
                cy[0][v] = x[v];
        }
        if (keep) {
            const GT *q = rp[RF] + off;
            if (cin) {
                GEN_UNROLL
                for (int v = 0; v < NB; ++v)
                    h[v] = cy[1][v];
            } else {
                KFN(clw_ld)(q, h, NB);
            }
            if (GFLOAT)
                GEN_UNROLL
                for (int v = 0; v < NB; ++v)
                    h[v] = prop ? V_MAXP(ps, h[v]) : V_MAX(ps, h[v]);
            CLW_TAP(h, q + dq)
            CLW_TAP(h, q + 2 * dq)
            GEN_UNROLL
            for (int v = 0; v < NB; ++v) {
                cy[1][v] = x[v];
                VK_STORE(kb + v * VN, h[v]);
                acc[v] = prop ? V_MAXP(acc[v], h[v]) : V_MAX(acc[v], h[v]);
            }
        }
    } else {
    for (int64_t r = 0; r < RF; ++r) { /* lines straight into the scan */
        const GT *q = rp[r] + off;
        if (K3) {
            CLW_TAP(acc, q)
            CLW_TAP(acc, q + dq)
            CLW_TAP(acc, q + 2 * dq)
        } else {
            for (int64_t j = 0; j < n; ++j, q += dq) {
                CLW_TAP(acc, q)
            }
        }
    }
    if (keep) { /* the kept line: its W partial from ps, to the buffer, then into the running max */
        const GT *q = rp[RF] + off;
        KFN(clw_ld)(q, h, NB);
        if (GFLOAT) /* integers: ps is the lowest value, the first tap itself will do */
            GEN_UNROLL
            for (int v = 0; v < NB; ++v)
                h[v] = prop ? V_MAXP(ps, h[v]) : V_MAX(ps, h[v]);
        if (K3) {
            CLW_TAP(h, q + dq)
            CLW_TAP(h, q + 2 * dq)
        } else {
            for (int64_t j = 1; j < n; ++j) {
                CLW_TAP(h, q + j * dq)
            }
        }
        GEN_UNROLL
        for (int v = 0; v < NB; ++v) {
            VK_STORE(kb + v * VN, h[v]);
            acc[v] = prop ? V_MAXP(acc[v], h[v]) : V_MAX(acc[v], h[v]);
        }
    }
    }
#undef CLW_TAP
#if GFLOAT
    if (!prop && fenan) { /* first-element start: a NaN first tap stays */
        KFN(clw_ld)(w->first + off, x, NB);
        GEN_UNROLL
        for (int v = 0; v < NB; ++v)
            acc[v] = V_SEL(acc[v], x[v], V_NANM(x[v]));
    }
#else
    (void)fenan;
#endif
    KFN(clw_st)(yo, acc, NB);
#if GEN_TYPE == GEN_F16
    int nf = CLW_UNORD(acc[0], acc[NB > 1 ? 1 : 0]); /* some lane of some vector is a NaN */
    if (NB == 4)
        nf |= CLW_UNORD(acc[2], acc[3]);
    if (nf)
        GEN_UNROLL
        for (int v = 0; v < NB; ++v) {
            const uint64_t fix = (uint64_t)V_NANFIX(acc[v]);
            if (fix)
                KFN(clw_fix)(w, o, c + v * VN, fix, prop);
        }
#else
    (void)w;
    (void)o;
    (void)c;
#endif
}

/* Channels [c, c + nb*NB*VN) (buffer slots from slot) of every pixel of
 * one output row, pixel after pixel, nb blocks of NB vectors each (K3:
 * windows of 3 W taps, pixel by pixel). */
GAI void KFN(clw_strip)(const KFN(clwr) * w, int64_t c, int64_t slot, int64_t nb, const int NB, const int CY,
                        const int prop)
{
    VT cy[2][4]; /* CY (nb = 1): the last pixel's tap 2 of each line */
    int cin = 0;
    int64_t snext = 0; /* the W start that takes them as tap 0 */
    const KFN(geo) *g = w->g;
    const int64_t C = w->p->c, O2 = g->out[2], dq = g->step[2] * C, Cv = (C + VN - 1) / VN * VN;
    const int64_t *st2 = g->st[2], *cn2 = g->cn[2];
    const GT *const *rp = w->rp;
    const int64_t keep = w->keep, useb = w->useb, fenan = w->fenan, RF = w->RC - keep;
    const VT ps = g->fe ? V_SET1(g->neutral) : V_SET1(g->init);
    GT *yo = w->yo + c;
    GKT *kb = w->kb + slot;
    if (CY)
        for (int l = 0; l < 2; ++l)
            GEN_UNROLL
            for (int v = 0; v < NB; ++v)
                cy[l][v] = ps;
    for (int64_t o = 0; o < O2; ++o, yo += C, kb += Cv) {
        const int64_t n = cn2[o];
        if (n == 0) { /* no input element: the start value */
            for (int64_t i = 0; i < nb * NB * VN; ++i)
                yo[i] = g->init;
            cin = 0;
            continue;
        }
        const int64_t off = st2[o] * C + c;
        if (CY) {
            if (n == 3) {
                cin = cin && st2[o] == snext;
                KFN(clw_px)(w, rp, RF, keep, useb, fenan, o, c, off, 3, dq, kb, yo, ps, cy, cin, NB, 1, 1, prop);
                cin = 1;
                snext = st2[o] + 2 * g->step[2];
            } else {
                KFN(clw_px)(w, rp, RF, keep, useb, fenan, o, c, off, n, dq, kb, yo, ps, cy, 0, NB, 0, 0, prop);
                cin = 0;
            }
            continue;
        }
        for (int64_t b = 0, e = 0; b < nb; ++b, e += NB * VN) /* (e: the block's first channel from c) */
            if (n == 3)
                KFN(clw_px)(w, rp, RF, keep, useb, fenan, o, c + e, off + e, 3, dq, kb + e, yo + e, ps, cy, 0, NB, 1, 0, prop);
            else
                KFN(clw_px)(w, rp, RF, keep, useb, fenan, o, c + e, off + e, n, dq, kb + e, yo + e, ps, cy, 0, NB, 0, 0, prop);
    }
}

/* One output row, for one NaN rule: the channels in blocks of 4 vectors
 * (every block of a pixel before the next pixel: the pixel's input lines
 * and buffer slots are read together), then strips of 2 and 1 vectors, then
 * the last VN channels again (their own buffer slots). */
GAI void KFN(clw_row)(const KFN(clwr) * w, const int prop)
{
    const int64_t C = w->p->c, n4 = C / (4 * VN);
    int64_t c = n4 * 4 * VN;
    const int cy = w->RC - w->keep <= 1;
    if (cy && n4 <= CLW_CARRY_N4) /* the carry: each block of 4 a strip of its own */
        for (int64_t b = 0; b < n4; ++b)
            KFN(clw_strip)(w, b * 4 * VN, b * 4 * VN, 1, 4, 1, prop);
    else if (n4)
        KFN(clw_strip)(w, 0, 0, n4, 4, 0, prop);
    if (c + 2 * VN <= C) { /* (the carry for 8-bit keys: u8 at avx2, C = 64, 1.96 -> 1.68 x the floor) */
        if (sizeof(GT) == 1 && cy)
            KFN(clw_strip)(w, c, c, 1, 2, 1, prop);
        else
            KFN(clw_strip)(w, c, c, 1, 2, 0, prop);
        c += 2 * VN;
    }
    if (c + VN <= C) { /* (with the carry: u8 at avx512, C = 64, 1.54 -> 1.61 x the floor) */
        KFN(clw_strip)(w, c, c, 1, 1, 0, prop);
        c += VN;
    }
    if (c < C)
        KFN(clw_strip)(w, C - VN, c, 1, 1, 0, prop);
}

__attribute__((noinline)) static void KFN(clw_row0)(const KFN(clwr) * w) { KFN(clw_row)(w, 0); }
#if GFLOAT
__attribute__((noinline)) static void KFN(clw_row1)(const KFN(clwr) * w) { KFN(clw_row)(w, 1); }
#endif

/* Tasks [t0, t1) (values only, C >= VN). */
static void KFN(clw_run)(const struct maxpool_plan *p, const KFN(geo) * g, const GT *x, GT *y, int64_t t0, int64_t t1,
                         int prop)
{
    alignas(64) GKT kb[GEN_CLW_BYTES / sizeof(GKT)];
    const GT *lines[GEN_LINES_MAX];
    const int64_t C = p->c, O0 = g->out[0], O1 = g->out[1], O2 = g->out[2], rows = O0 * O1;
    const int64_t Cv = (C + VN - 1) / VN * VN, lstride = g->in[2] * C;
    const int fits = O2 * Cv <= (int64_t)(GEN_CLW_BYTES / sizeof(GKT));
    const GT *kept = NULL; /* the line whose W partials kb holds */
    KFN(clwr) w;
    w.p = p;
    w.g = g;
    w.kb = kb;
    w.fenan = GFLOAT && g->fe && !prop;
    for (int64_t t = t0; t < t1; ++t) {
        const int64_t nn = t / rows, row = t % rows, o0 = row / O1, o1 = row % O1;
        const int64_t c0 = g->cn[0][o0], c1 = g->cn[1][o1], R = c0 * c1;
        if (R == 0 || R > GEN_LINES_MAX) {
            KFN(cl_run_v)(p, g, x, y, t, t + 1, prop);
            continue;
        }
        const GT *xn = x + nn * p->in_spatial * C;
        w.s0 = g->st[0][o0];
        w.s1 = g->st[1][o1];
        w.c0 = c0;
        w.c1 = c1;
        int64_t r = 0;
        for (int64_t j0 = 0; j0 < c0; ++j0)
            for (int64_t j1 = 0; j1 < c1; ++j1)
                lines[r++] = xn + ((w.s0 + j0 * g->step[0]) * g->in[1] + w.s1 + j1 * g->step[1]) * lstride;
        w.xn = xn;
        w.first = lines[0];
        w.useb = kept != NULL && lines[0] == kept;
        w.rp = lines + w.useb;
        w.RC = R - w.useb;
        w.keep = 0;
        if (fits && w.RC >= 1 && t + 1 < t1) { /* does the next row start with this row's last line? */
            const int64_t u = t + 1, un = u / rows, ur = u % rows, u0 = ur / O1, u1 = ur % O1;
            w.keep = g->cn[0][u0] > 0 && g->cn[1][u1] > 0 &&
                     x + un * p->in_spatial * C + (g->st[0][u0] * g->in[1] + g->st[1][u1]) * lstride == lines[R - 1];
        }
        w.yo = y + t * O2 * C;
#if GFLOAT
        if (prop)
            KFN(clw_row1)(&w);
        else
#endif
            KFN(clw_row0)(&w);
        if (w.keep)
            kept = lines[R - 1];
    }
}
