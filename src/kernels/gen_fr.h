/* SPDX-License-Identifier: Apache-2.0 */
/* The type-generic kernels (gen_impl.h): channels-first, rows in one vector
 * (values only). Included once by gen_impl.h; f32 only (build time).
 *
 * Small planes with W stride 2 or more whose output row fits one vector
 * (OW <= VN) and input line two (W <= 2*VN): AlexNet 13x13 and 27x27 k3 s2
 * (avx512; 13x13 at avx2 too), VGG 14x14 k2 s2; and wider rows of full
 * k2 / k3 s2 p0 windows by the even / odd form (below). The W-first form (gen_fl.h)
 * pays per line and per row bookkeeping and a buffer round trip for a
 * vector that is one or two lines; the flat form (gen_fp.h) wastes half its
 * lanes on odd columns. Here each input line is loaded as two vectors
 * (masked loads: nothing outside the line is read) and its W result (every
 * output column's max over its K taps, in tap order) is made in registers:
 * tap k of the VN output columns is one permutation of the two vectors
 * (avx512: vpermt2ps; avx2: two vpermps and a blend), the lane's source
 * index S*j + k*d - pad a per-call constant; a tap in the padding takes the
 * window's nearest tap in its line instead (its first for taps before it,
 * its last for taps after it): x then meets a copy of the tap next to it in
 * the scan, which changes nothing (max(max(b, x), x) = max(b, x) under both
 * rules). The rows then in order: each output row's max over its window
 * lines' W results in line order, the row's first line taken over from the
 * row before when it was that row's last (k3 s2: every line once), then
 * the start value (fixed start), one (masked) store per row. Order and
 * rules as in gen_fl.h: W results from the neutral value without
 * propagation (a NaN first tap must not enter), the first maximum and the
 * last NaN in row-major order; first-element start without propagation: a
 * NaN first tap (tap 0 of the first line, which the padding rule makes the
 * window's first element) is the result.
 * Two planes per vector (avx512 planes up to 16 wide with 2*OW <= VN, e.g.
 * AlexNet 13: 6 + 6 of 16 lanes): the same row of two planes, lanes [0, OW)
 * from the first plane's line (first source vector), [OW, 2*OW) from the
 * second's (second source vector), stored to both planes; a task range's
 * plane pairs go so, the rest one plane at a time.
 * The networks' k2 / k3 s2 p0 (fh: row o the lines 2*o .. 2*o+K-1, every
 * one full) go through fr_frows: no row tables, K 3's line reuse
 * unconditional, a run of planes (pairs) per call. With the W taps 2*j + k
 * all inside the line (dw: the even / odd form, fr_dline), a line's taps
 * are its even and odd elements (avx2 two vshufps, avx512 two vpermt2ps
 * with fixed indices) and the even ones from 2 elements on (one more load
 * pair), reduced lane-wise in that lane order (the same scan per lane) and
 * put in order once per row (avx2: one vpermpd); this form takes any row
 * width up to GEN_FR_NC chunks of VN output columns (AlexNet 27x27 at
 * avx2, 55x55 at both: rows of 2 and 4 vectors), chunk by chunk inside
 * each row, the chunk count a constant for the common counts (avx2 1, 2,
 * 4; avx512 2) so that each chunk's carried line stays in a register. At
 * avx512 rows of one vector keep the tables' permutes (as fast). */

#if GEN_TYPE == GEN_F32
#define GEN_FR 1
#else
#define GEN_FR 0
#endif

#if GEN_FR
#define GEN_FR_K 8  /* W taps */
#define GEN_FR_NC 4 /* the even / odd form's chunks of VN output columns per row (fr_dline) */
#define GEN_FR_MSK (VN == 16) /* loads always masked (fr_rows_o) */

#if VN == 16
#define GEN_FR_MT __mmask16
#ifdef MAXPOOL_SIMDE /* SIMDe's masked load reads every lane, its masked store writes every lane: lane by lane */
static inline __m512 KFN(fr_mload)(const float *p, __mmask16 m)
{
    alignas(64) float t[16];
    for (int i = 0; i < 16; ++i)
        t[i] = (m >> i) & 1 ? p[i] : 0.0f;
    return _mm512_load_ps(t);
}
static inline void KFN(fr_mstore)(float *p, __mmask16 m, __m512 v)
{
    alignas(64) float t[16];
    _mm512_store_ps(t, v);
    for (int i = 0; i < 16; ++i)
        if ((m >> i) & 1)
            p[i] = t[i];
}
#define GEN_FR_LD(p, m) KFN(fr_mload)((p), (m))
#define GEN_FR_ST(p, m, v) KFN(fr_mstore)((p), (m), (v))
#else
#define GEN_FR_LD(p, m) _mm512_maskz_loadu_ps((m), (p))
#define GEN_FR_ST(p, m, v) _mm512_mask_storeu_ps((p), (m), (v))
#endif
#define GEN_FR_P2(lo, hi, ix) _mm512_permutex2var_ps((lo), (ix), (hi))
#else
#define GEN_FR_MT __m256i
#define GEN_FR_LD(p, m) _mm256_maskload_ps((p), (m))
#define GEN_FR_ST(p, m, v) _mm256_maskstore_ps((p), (m), (v))
/* (ix's sign bit: the lane is from the second vector; vpermps reads the low 3 bits) */
#define GEN_FR_P2(lo, hi, ix)                                                                                      \
    _mm256_blendv_ps(_mm256_permutevar8x32_ps((lo), (ix)), _mm256_permutevar8x32_ps((hi), (ix)),               \
                     _mm256_castsi256_ps(ix))
#endif

/* The tables of a call, per mode (0: one plane, the line's two vectors; 1:
 * two planes, a line of each): each tap's source lanes ix (avx2: the sign
 * bit set in the lanes from the second vector), the masked loads' lanes
 * ml / mh, the stores' lanes ms ([1]: mode 1's second plane, lanes OW ..
 * 2*OW-1). */
typedef struct KFN(frt) {
    VI ix[2][GEN_FR_K];
    GEN_FR_MT ml[2], mh[2], ms[2];
    int64_t W, OW, OH, K, HW;
    int pair; /* mode 1 possible */
    int fh;   /* K 2 or 3 lines from line 2*o, every row (fr_frows) */
    int dw;   /* the even / odd form (fr_dline): fh, W taps 2*j + k, every window full; avx2, or rows of nc > 1 */
    int64_t nc; /* chunks of VN output columns per row (dw; else 1) */
    GEN_FR_MT dm[GEN_FR_NC][4]; /* dw, masked: chunk c's load lanes at 2*VN*c + 0, VN, 2, VN + 2 of a line */
    GEN_FR_MT mcs;              /* the store lanes of a row's last chunk (mode 0) */
} KFN(frt);

/* The even / odd form's chunks per row for geometry g (0: the form does not
 * apply): W taps 2*j + k (no padding, stride 2, undilated) with every
 * window inside the line, K 2 or 3 lines from line 2*o in every row (fh),
 * at most GEN_FR_NC chunks of VN output columns. */
static int64_t KFN(fr_dwc)(const KFN(geo) * g)
{
    const int64_t W = g->in[2], OW = g->out[2], OH = g->out[1], nc = (OW + VN - 1) / VN;
    if ((g->K != 2 && g->K != 3) || g->step[1] != 1 || g->v0 != 0 || g->S != 2 || g->d != 1 || OW < 1 ||
        2 * (OW - 1) + g->K > W || nc > GEN_FR_NC)
        return 0;
    for (int64_t o = 0; o < OH; ++o)
        if (g->st[1][o] != 2 * o || g->cn[1][o] != g->K)
            return 0;
    return nc;
}

/* Whether the rows-in-one-vector form takes plan p (values only). */
static int KFN(fr_geo)(const struct maxpool_plan *p, const KFN(geo) * g, int wi)
{
    if (!GEN_FR || wi || p->rank != 2 || p->desc.window != MAXPOOL_WINDOW_FIXED || !g->grid || g->S < 2)
        return 0;
    const int64_t H = g->in[1], W = g->in[2], OH = g->out[1], OW = g->out[2];
    if (OW < 1 || OH < 1 || H < 1 || g->K > GEN_FR_K)
        return 0;
    if (W > 2 * VN || OW > VN) /* rows of several vectors: the even / odd form only */
        return KFN(fr_dwc)(g) > 0;
    return KFN(geo_taps)(g, 1) && KFN(geo_taps)(g, 2);
}

/* The tables of plan p. */
static void KFN(fr_init)(const KFN(geo) * g, KFN(frt) * T)
{
    const int64_t W = g->in[2], OW = g->out[2];
    T->W = W;
    T->OW = OW;
    T->OH = g->out[1];
    T->HW = g->in[1] * W;
    T->K = g->K;
    T->pair = W <= VN && 2 * OW <= VN;
    T->fh = (g->K == 2 || g->K == 3) && g->step[1] == 1;
    for (int64_t o = 0; o < T->OH; ++o)
        T->fh &= g->st[1][o] == 2 * o && g->cn[1][o] == g->K;
    const int64_t dwc = KFN(fr_dwc)(g);
    T->dw = dwc > 0 && (VN == 8 || dwc > 1 || W > 2 * VN); /* (else at avx512 the tables' permutes, as fast) */
    T->nc = T->dw ? dwc : 1;
    for (int64_t c = 0; c < T->nc; ++c)
        for (int i = 0; i < 4; ++i) {
            const int64_t off = 2 * VN * c + (i & 1) * VN + (i >> 1) * 2, n = W - off < 0 ? 0 : W - off;
#if VN == 16
            T->dm[c][i] = (__mmask16)(n >= 16 ? 0xFFFF : ((1u << n) - 1));
#else
            alignas(32) int32_t m[8];
            for (int64_t l = 0; l < 8; ++l)
                m[l] = l < n ? -1 : 0;
            T->dm[c][i] = _mm256_load_si256((const __m256i *)(const void *)m);
#endif
        }
    {
        const int64_t r = OW - VN * (T->nc - 1);
#if VN == 16
        T->mcs = (__mmask16)(((uint64_t)1 << r) - 1);
#else
        alignas(32) int32_t m[8];
        for (int64_t l = 0; l < 8; ++l)
            m[l] = l < r ? -1 : 0;
        T->mcs = _mm256_load_si256((const __m256i *)(const void *)m);
#endif
    }
    for (int md = 0; md < 2 && W <= 2 * VN && OW <= VN; ++md) { /* (rows of several vectors: none) */
        for (int64_t k = 0; k < T->K; ++k) {
            alignas(64) int32_t ix[VN];
            for (int64_t l = 0; l < VN; ++l) {
                const int64_t j = md == 0 ? l : l % OW, half = md == 0 ? 0 : l / OW;
                int64_t pos = 0;
                if (j < OW && half < 2) {
                    const int64_t st = g->st[2][j], last = st + (g->cn[2][j] - 1) * g->step[2];
                    pos = g->v0 + j * g->S + k * g->d;
                    pos = pos < st ? st : pos > last ? last : pos; /* padding: the nearest tap */
                    pos += half * VN;
                }
#if VN == 8
                ix[l] = (int32_t)(pos >= VN ? (uint32_t)(pos - VN) | 0x80000000u : (uint32_t)pos);
#else
                ix[l] = (int32_t)pos;
#endif
            }
            T->ix[md][k] = VI_LOAD(ix);
        }
        const int64_t nl = md == 0 ? (W < VN ? W : VN) : W, nh = md == 0 ? (W > VN ? W - VN : 0) : W;
#if VN == 16
        T->ml[md] = (__mmask16)(((uint64_t)1 << nl) - 1); /* (mode 1 without pairs: W up to 32, unused) */
        T->mh[md] = (__mmask16)(((uint64_t)1 << nh) - 1);
        T->ms[md] = (__mmask16)((((uint64_t)1 << OW) - 1) << (md * OW));
#else
        alignas(32) int32_t ml[8], mh[8], ms[8];
        for (int64_t l = 0; l < 8; ++l) {
            ml[l] = l < nl ? -1 : 0;
            mh[l] = l < nh ? -1 : 0;
            ms[l] = l >= md * OW && l < (md + 1) * OW ? -1 : 0;
        }
        T->ml[md] = _mm256_load_si256((const __m256i *)(const void *)ml);
        T->mh[md] = _mm256_load_si256((const __m256i *)(const void *)mh);
        T->ms[md] = _mm256_load_si256((const __m256i *)(const void *)ms);
#endif
    }
}

/* The W result of the line at la (second vector at lb): K taps, in order;
 * msk: masked loads (the line's elements only), else whole vectors. */
GAI VT KFN(fr_line)(const VI *ix, GEN_FR_MT ml, GEN_FR_MT mh, const GT *la, const GT *lb, const VT nv,
                    const int64_t K, const int msk, const int prop)
{
    const VT lo = msk ? GEN_FR_LD(la, ml) : V_LOAD(la), hi = msk ? GEN_FR_LD(lb, mh) : V_LOAD(lb);
    VT a = GEN_FR_P2(lo, hi, ix[0]);
    if (GFLOAT && !prop) /* without propagation a NaN must not enter (gen_fl.h) */
        a = V_MAX(nv, a);
    for (int64_t k = 1; k < K; ++k) {
        const VT t = GEN_FR_P2(lo, hi, ix[k]);
        a = prop ? V_MAXP(a, t) : V_MAX(a, t);
    }
    return a;
}

/* Output rows [oa, ob) of the plane at xa (mode md 0: xb = xa + VN; 1: xb
 * the second plane, yb its output), output ya; avx2, mode 0: a row whose
 * whole vector ends by ye is stored whole (the lanes past the row are the
 * next rows', which come later), else masked. */
GAI void KFN(fr_rows)(const KFN(frt) * T, const KFN(geo) * g, const GT *xa, const GT *xb, GT *ya, GT *yb,
                      const GT *ye, int64_t oa, int64_t ob, int md, const int64_t K, const int msk, const int prop)
{
    VI ix[GEN_FR_K];
    for (int64_t k = 0; k < K; ++k)
        ix[k] = T->ix[md][k];
    const GEN_FR_MT ml = T->ml[md], mh = T->mh[md];
    const VT nv = V_SET1(GEN_NEUTRAL), init = V_SET1(g->init);
    const int fe = g->fe, fenan = GFLOAT && fe && !prop;
    const int64_t W = T->W, OW = T->OW, s1 = g->step[1], ls = s1 * W;
    const int64_t *const st = g->st[1], *const cn = g->cn[1];
    VT cv = nv;      /* the W result of line cl */
    int64_t cl = -1; /* (none yet) */
    for (int64_t o = oa; o < ob; ++o) {
        const int64_t a = st[o], c = cn[o];
        const GT *pa = xa + a * W, *pb = xb + a * W;
        VT h = a == cl ? cv : KFN(fr_line)(ix, ml, mh, pa, pb, nv, K, msk, prop), v = h;
        for (int64_t i = 1; i < c; ++i) {
            v = KFN(fr_line)(ix, ml, mh, pa + i * ls, pb + i * ls, nv, K, msk, prop);
            h = prop ? V_MAXP(h, v) : V_MAX(h, v);
        }
        cv = v;
        cl = a + (c - 1) * s1;
        if (fenan) { /* a NaN first tap stays */
            const VT f = GEN_FR_P2(GEN_FR_LD(pa, ml), GEN_FR_LD(pb, mh), ix[0]);
            h = V_SEL(h, f, V_NANM(f));
        }
        if (!fe)
            h = prop ? V_MAXP(init, h) : V_MAX(init, h);
        GT *const yr = ya + o * OW;
#if VN == 8
        if (md == 0 && yr + VN <= ye)
            V_STORE(yr, h);
        else
#else
        (void)ye;
#endif
            GEN_FR_ST(yr, T->ms[0], h);
        if (md == 1)
            GEN_FR_ST(yb + (o - 1) * OW, T->ms[1], h); /* lanes OW .. 2*OW-1: the second plane's row o */
    }
}

/* dw: the W result of the VN output columns from the line at p (a chunk's
 * first element) in the lane order of the even / odd split (avx2:
 * _mm256_shuffle_ps, output columns 0 1 4 5 2 3 6 7, put in order by
 * GEN_FR_DPERM; avx512: vpermt2ps, in order): the even and odd elements of
 * the two vectors from p (taps 0 and 1), and for K 3 the even ones of the
 * two from p + 2 (tap 2), in tap order as fr_line; *f: tap 0 (first-element
 * start). msk: loads of the lanes m only (avx512 always), else whole
 * vectors, up to p + 2*VN + 2 for K 3. */
#if VN == 8
#define GEN_FR_EV(lo, hi) _mm256_shuffle_ps((lo), (hi), 0x88)
#define GEN_FR_OD(lo, hi) _mm256_shuffle_ps((lo), (hi), 0xDD)
#define GEN_FR_DPERM(v) _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(v), 0xD8))
#else
#define GEN_FR_EV(lo, hi)                                                                                          \
    _mm512_permutex2var_ps((lo), _mm512_set_epi32(30, 28, 26, 24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2, 0), (hi))
#define GEN_FR_OD(lo, hi)                                                                                          \
    _mm512_permutex2var_ps((lo), _mm512_set_epi32(31, 29, 27, 25, 23, 21, 19, 17, 15, 13, 11, 9, 7, 5, 3, 1), (hi))
#define GEN_FR_DPERM(v) (v)
#endif
GAI VT KFN(fr_dline)(const GT *p, const GEN_FR_MT *m, const VT nv, const int64_t K, const int msk, const int prop,
                     VT *f)
{
    const VT lo = msk ? GEN_FR_LD(p, m[0]) : V_LOAD(p), hi = msk ? GEN_FR_LD(p + VN, m[1]) : V_LOAD(p + VN);
    const VT e = GEN_FR_EV(lo, hi), od = GEN_FR_OD(lo, hi);
    VT a = prop ? e : V_MAX(nv, e);
    a = prop ? V_MAXP(a, od) : V_MAX(a, od);
    if (K == 3) {
        const VT l2 = msk ? GEN_FR_LD(p + 2, m[2]) : V_LOAD(p + 2);
        const VT h2 = msk ? GEN_FR_LD(p + 2 + VN, m[3]) : V_LOAD(p + 2 + VN);
        const VT t = GEN_FR_EV(l2, h2);
        a = prop ? V_MAXP(a, t) : V_MAX(a, t);
    }
    *f = e;
    return a;
}

/* fh: rows [oa, ob) as fr_rows, row o the lines 2*o .. 2*o+K-1 (K 3: the
 * first one the row before's last); dw (mode 0): the lines by fr_dline
 * (msk: masked loads), each lane's scan there (and the start value)
 * lane-wise in its order, the row put in order before its store; a row of
 * nc chunks of VN output columns chunk by chunk (the last one's whole-vector
 * store at avx2 runs into the next row's first chunk, which comes later). */
GAI void KFN(fr_frows)(const KFN(frt) * T, const KFN(geo) * g, const GT *xa0, const GT *xb0, GT *ya0, GT *yb0,
                       const GT *ye, int64_t oa0, int64_t ob0, int64_t np, int md, const int64_t K, const int dw,
                       const int msk, const int64_t ncc, const int prop)
{
    VI ix[GEN_FR_K];
    for (int64_t k = 0; k < K; ++k)
        ix[k] = T->ix[md][k];
    const GEN_FR_MT ml = T->ml[md], mh = T->mh[md];
    const VT nv = V_SET1(GEN_NEUTRAL), init = V_SET1(g->init);
    const int fe = g->fe, fenan = GFLOAT && fe && !prop;
    const int64_t W = T->W, OW = T->OW, nc = !dw ? 1 : ncc ? ncc : T->nc;
#define GEN_FR_FL(p, q, f)                                                                                         \
    (dw ? KFN(fr_dline)((p), dm, nv, K, msk, prop, &(f)) : KFN(fr_line)(ix, ml, mh, (p), (q), nv, K, GEN_FR_MSK, prop))
    const int64_t OH = T->OH, sx = (md + 1) * T->HW, sy = (md + 1) * OH * OW;
    for (int64_t q = 0; q < np; ++q) { /* planes (pairs) q: rows [oa0, OH), [0, OH) ..., [0, ob0) */
    const int64_t oa = q == 0 ? oa0 : 0, ob = q == np - 1 ? ob0 : OH;
    const GT *const xa = xa0 + q * sx, *const xb = xb0 + q * sx;
    GT *const ya = ya0 + q * sy, *const yb = md ? yb0 + q * sy : NULL;
    VT cv[GEN_FR_NC], cf[GEN_FR_NC]; /* K 3: chunk c's W result of line 2*o and its tap 0 */
    for (int c = 0; c < GEN_FR_NC; ++c)
        cv[c] = cf[c] = nv;
#pragma GCC unroll 4 /* (nc a constant: cv, cf in registers) */
    for (int64_t c = 0; c < nc; ++c) {
        const GEN_FR_MT *const dm = T->dm[c];
        if (K == 3)
            cv[c] = GEN_FR_FL(xa + 2 * oa * W + 2 * VN * c, xb + 2 * oa * W, cf[c]);
    }
    for (int64_t o = oa; o < ob; ++o)
#pragma GCC unroll 4
    for (int64_t c = 0; c < nc; ++c) {
        const GEN_FR_MT *const dm = T->dm[c];
        const GT *pa = xa + 2 * o * W + 2 * VN * c, *pb = xb + 2 * o * W;
        VT h, f = nv, t = nv;
        (void)t;
        if (K == 3) {
            h = cv[c];
            f = cf[c];
        } else {
            h = GEN_FR_FL(pa, pb, f);
        }
        VT v = GEN_FR_FL(pa + W, pb + W, t);
        h = prop ? V_MAXP(h, v) : V_MAX(h, v);
        if (K == 3) {
            cv[c] = GEN_FR_FL(pa + 2 * W, pb + 2 * W, cf[c]);
            h = prop ? V_MAXP(h, cv[c]) : V_MAX(h, cv[c]);
        }
        if (fenan) { /* a NaN first tap stays (dw: fr_dline's) */
            if (!dw)
                f = GEN_FR_P2(GEN_FR_LD(pa, ml), GEN_FR_LD(pb, mh), ix[0]);
            h = V_SEL(h, f, V_NANM(f));
        }
        if (!fe)
            h = prop ? V_MAXP(init, h) : V_MAX(init, h);
        GT *const yr = ya + o * OW + VN * c;
        if (dw)
            h = GEN_FR_DPERM(h);
        if (c < nc - 1 || (VN == 8 && md == 0 && yr + VN <= ye))
            V_STORE(yr, h);
        else
            GEN_FR_ST(yr, T->mcs, h);
        if (md == 1)
            GEN_FR_ST(yb + (o - 1) * OW, T->ms[1], h);
    }
    }
#undef GEN_FR_FL
}

/* fr_frows (fh: K 2 or 3 as a constant; mode 0 with dw: fr_dline) or
 * fr_rows, the NaN rule a constant, out of line. Loads: avx512 always
 * masked (as fast as whole vectors, and no line splits past the row); avx2
 * whole vectors (a masked load is two uops) but in msk units (the tensor's
 * last planes: fr_rows or, dw, fr_frows masked). */
__attribute__((noinline)) static void KFN(fr_rows_o)(const KFN(frt) * T, const KFN(geo) * g, const GT *xa,
                                                     const GT *xb, GT *ya, GT *yb, const GT *ye, int64_t oa,
                                                     int64_t ob, int64_t np, int md, int msk, int prop)
{
    const int64_t sx = (md + 1) * T->HW, sy = (md + 1) * T->OH * T->OW;
#define GEN_FR_G_(K, M, P)                                                                                         \
    for (int64_t q = 0; q < np; ++q)                                                                               \
    KFN(fr_rows)(T, g, xa + q * sx, xb + q * sx, ya + q * sy, md ? yb + q * sy : NULL, ye, q == 0 ? oa : 0,          \
                 q == np - 1 ? ob : T->OH, md, K, M, P)
#define GEN_FR_R_(P)                                                                                               \
    do {                                                                                                           \
        if (T->dw && md == 0 && GEN_FR_MSK && T->nc == 2) /* (nc 3, 4: a run-time count, 0.7-0.94 of k3s2) */    \
            T->K == 3 ? KFN(fr_frows)(T, g, xa, xb, ya, yb, ye, oa, ob, np, md, 3, 1, 1, 2, P)                         \
                      : KFN(fr_frows)(T, g, xa, xb, ya, yb, ye, oa, ob, np, md, 2, 1, 1, 2, P);                        \
        else if (T->dw && md == 0 && (GEN_FR_MSK || msk))                                                          \
            T->K == 3 ? KFN(fr_frows)(T, g, xa, xb, ya, yb, ye, oa, ob, np, md, 3, 1, 1, 0, P)                         \
                      : KFN(fr_frows)(T, g, xa, xb, ya, yb, ye, oa, ob, np, md, 2, 1, 1, 0, P);                        \
        else if (T->dw && md == 0 && T->nc == 1)                                                                   \
            T->K == 3 ? KFN(fr_frows)(T, g, xa, xb, ya, yb, ye, oa, ob, np, md, 3, 1, 0, 1, P)                         \
                      : KFN(fr_frows)(T, g, xa, xb, ya, yb, ye, oa, ob, np, md, 2, 1, 0, 1, P);                        \
        else if (T->dw && md == 0 && T->nc == 2)                                                                   \
            T->K == 3 ? KFN(fr_frows)(T, g, xa, xb, ya, yb, ye, oa, ob, np, md, 3, 1, 0, 2, P)                         \
                      : KFN(fr_frows)(T, g, xa, xb, ya, yb, ye, oa, ob, np, md, 2, 1, 0, 2, P);                        \
        else if (T->dw && md == 0 && T->nc == 4)                                                                   \
            T->K == 3 ? KFN(fr_frows)(T, g, xa, xb, ya, yb, ye, oa, ob, np, md, 3, 1, 0, 4, P)                         \
                      : KFN(fr_frows)(T, g, xa, xb, ya, yb, ye, oa, ob, np, md, 2, 1, 0, 4, P);                        \
        else if (T->dw && md == 0)                                                                                 \
            T->K == 3 ? KFN(fr_frows)(T, g, xa, xb, ya, yb, ye, oa, ob, np, md, 3, 1, 0, 0, P)                         \
                      : KFN(fr_frows)(T, g, xa, xb, ya, yb, ye, oa, ob, np, md, 2, 1, 0, 0, P);                        \
        else if (!GEN_FR_MSK && msk)                                                                               \
            GEN_FR_G_(T->K, 1, P);                                                                                 \
        else if (T->fh)                                                                                            \
            T->K == 3 ? KFN(fr_frows)(T, g, xa, xb, ya, yb, ye, oa, ob, np, md, 3, 0, 0, 1, P)                         \
                      : KFN(fr_frows)(T, g, xa, xb, ya, yb, ye, oa, ob, np, md, 2, 0, 0, 1, P);                        \
        else if (T->K == 3) /* (padded or ceil-rounded k3 / k2 s2, e.g. 1x256x13x13 k3 p1: a run-time K */     \
            GEN_FR_G_(3, GEN_FR_MSK, P);                        /* took 17.0 instead of 13.0 instr/output, avx2) */ \
        else if (T->K == 2)                                                                                        \
            GEN_FR_G_(2, GEN_FR_MSK, P);                                                                           \
        else                                                                                                       \
            GEN_FR_G_(T->K, GEN_FR_MSK, P);                                                                        \
    } while (0)
    if (GFLOAT && prop)
        GEN_FR_R_(1);
    else
        GEN_FR_R_(0);
#undef GEN_FR_R_
#undef GEN_FR_G_
}

/* Tasks [t0, t1): plane pairs where they fit (mode 1), else rows of one
 * plane, runs of them in one call; whole-vector loads in the units whose
 * reads (up to VN + 2 past their last line's second vector) lie inside the
 * tensor: a run's first ones. */
__attribute__((noinline)) static void KFN(fr_run)(const KFN(geo) * g, const void *x, void *y, int64_t t0, int64_t t1,
                                                   int prop)
{
    KFN(frt) T;
    KFN(fr_init)(g, &T);
    const int64_t OH = T.OH, HW = T.HW, no = OH * T.OW;
    const int64_t last = (g->in[1] - 1) * T.W + (2 * T.nc - 1) * VN + 2; /* (dw: chunk nc-1's reads, + 2 for tap 2) */
    const GT *const xs = (const GT *)x, *const xe = g->xbeg + g->xlen;
    GT *const ys = (GT *)y, *const ye = ys + t1 * T.OW;
    for (int64_t t = t0; t < t1;) {
        const int64_t pl = t / OH, o = t % OH;
        const GT *const xa = xs + pl * HW;
        GT *const ya = ys + pl * no;
        /* units n of sx elements from xa: the first nu whole-vector (the unit at xa + u*sx reads to xa + u*sx + rd) */
        int64_t n, md, ob, sx, rd;
        if (T.pair && o == 0 && t + 2 * OH <= t1) {
            md = 1, n = (t1 - t) / (2 * OH), ob = OH, sx = 2 * HW, rd = HW + last;
            t += n * 2 * OH;
        } else {
            md = 0, sx = HW, rd = VN + last;
            n = T.pair ? 1 : (t1 - 1) / OH - pl + 1;
            ob = n == 1 && t1 - t < OH - o ? o + (t1 - t) : n == 1 ? OH : t1 - (pl + n - 1) * OH;
            t += (n - 1) * OH + ob - o;
        }
        const int64_t room = xe - xa - rd, nu = room < 0 ? 0 : room / sx + 1 < n ? room / sx + 1 : n;
        const GT *const xb = md ? xa + HW : xa + VN;
        GT *const yb = md ? ya + no : NULL;
        if (nu > 0)
            KFN(fr_rows_o)(&T, g, xa, xb, ya, yb, ye, o, nu == n ? ob : OH, nu, (int)md, 0, prop);
        if (nu < n)
            KFN(fr_rows_o)(&T, g, xa + nu * sx, xb + nu * sx, ya + nu * (md + 1) * no, md ? yb + nu * 2 * no : NULL,
                           ye, nu == 0 ? o : 0, ob, n - nu, (int)md, 1, prop);
    }
}

/* ---- with indices: the even / odd form's rows of one vector ------------ *
 * Plans with index output whose rows take the even / odd form in one chunk
 * (fr_dwc 1) with 2 taps a line (k2 s2 p0 windows, every one full, rows of
 * at most VN outputs: the adaptive head 14x14 -> 7x7, 16x16 -> 8x8, at
 * avx512 also 26x26 -> 13x13 and 32x32 -> 16x16): per output row, the
 * window's taps in row-major order (line q's taps 0, 1 (, 2 for K 3): its
 * even elements, its odd ones (, the even ones from 2 on)), each replacing the lane's best where greater (or, propagating, a
 * NaN), the winner's offset q*W + k from the lane's first tap riding along
 * (from the first tap under the first-element start, else from the start
 * value and GEN_NONE): the reference's scan as written. Index = the
 * plane's n*idx_n + c*idx_c + 2*o*W + 2*j + offset; a lane that nothing
 * replaced gets the empty-window index (put_index). Whole stores at avx2
 * (running into the next row, written after it) but at the task range's
 * end; avx512 masked values, indices lane by lane. */
static int KFN(fri_geo)(const struct maxpool_plan *p, const KFN(geo) * g, int wi)
{
    return wi && p->rank == 2 && g->grid && g->K == 2 && g->out[1] >= 1 && p->in_spatial <= INT32_MAX &&
           KFN(fr_dwc)(g) == 1;
}

GAI void KFN(fri_rows)(const struct maxpool_plan *p, const KFN(geo) * g, const KFN(frt) * T, const GT *x, GT *y,
                       void *ind, int64_t t0, int64_t t1, const int64_t K, const int prop)
{
    const int64_t OH = T->OH, OW = T->OW, W = T->W, HW = T->HW, C = p->c;
    const int i32 = p->desc.index_type == MAXPOOL_INDEX_I32, fe = g->fe;
    const GT *const xe = g->xbeg + g->xlen;
    alignas(64) static const int32_t iota2[16] = {0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30};
    const VI i2 = VI_LOAD(iota2), nonev = VI_SET1(GEN_NONE);
    VI offv[3][3];
    for (int64_t q = 0; q < K; ++q)
        for (int64_t k = 0; k < K; ++k)
            offv[q][k] = VI_SET1((int32_t)(q * W + k));
    const VT init = V_SET1(g->init);
    int64_t pl = t0 / OH, o = t0 % OH, n = pl / C, c = pl % C; /* plane pl = image n, channel c; row o */
    for (int64_t t = t0; t < t1; ++t) {
        const GT *const xa = x + pl * HW + 2 * o * W;
        const int msk = GEN_FR_MSK || xa + (K - 1) * W + 2 * VN + 2 > xe;
        VT best = init;
        VI bi = nonev;
#pragma GCC unroll 3
        for (int64_t q = 0; q < K; ++q) {
            const GT *const L = xa + q * W;
            const VT lo = msk ? GEN_FR_LD(L, T->dm[0][0]) : V_LOAD(L);
            const VT hi = msk ? GEN_FR_LD(L + VN, T->dm[0][1]) : V_LOAD(L + VN);
            VT tp[3];
            tp[0] = GEN_FR_EV(lo, hi);
            tp[1] = GEN_FR_OD(lo, hi);
            if (K == 3)
                tp[2] = GEN_FR_EV(msk ? GEN_FR_LD(L + 2, T->dm[0][2]) : V_LOAD(L + 2),
                                  msk ? GEN_FR_LD(L + 2 + VN, T->dm[0][3]) : V_LOAD(L + 2 + VN));
#pragma GCC unroll 3
            for (int64_t k = 0; k < K; ++k) {
                if (fe && q == 0 && k == 0) { /* the first tap, whatever it holds */
                    best = tp[0];
                    bi = offv[0][0];
                    continue;
                }
                VM m = V_GTM(tp[k], best);
                if (prop)
                    m = VM_OR(m, V_NANM(tp[k]));
                best = V_SEL(best, tp[k], m);
                bi = VI_SEL(bi, offv[q][k], m);
            }
        }
        best = GEN_FR_DPERM(best);
#if VN == 8
        bi = _mm256_permute4x64_epi64(bi, 0xD8);
#endif
        const int64_t at = t * OW;
        const int64_t base = n * p->idx_n + c * p->idx_c + 2 * o * W;
        GT *const yr = y + at;
        const int whole = VN == 8 && at + VN <= t1 * OW;
        if (whole)
            V_STORE(yr, best);
        else
            GEN_FR_ST(yr, T->mcs, best);
        const VI ix = VI_ADD(bi, i2); /* (GEN_NONE lanes: redone below) */
        alignas(64) int32_t lt[VN];
#if VN == 8
        if (i32) {
            const __m256i v = _mm256_add_epi32(ix, _mm256_set1_epi32((int32_t)(uint32_t)(uint64_t)base));
            if (whole)
                _mm256_storeu_si256((__m256i *)(void *)((int32_t *)ind + at), v);
            else
                _mm256_maskstore_epi32((int32_t *)ind + at, T->mcs, v);
        } else {
            const __m256i bv = _mm256_set1_epi64x(base);
            const __m256i lo4 = _mm256_add_epi64(_mm256_cvtepi32_epi64(_mm256_castsi256_si128(ix)), bv);
            const __m256i hi4 = _mm256_add_epi64(_mm256_cvtepi32_epi64(_mm256_extracti128_si256(ix, 1)), bv);
            int64_t *const ip = (int64_t *)ind + at;
            if (whole) {
                _mm256_storeu_si256((__m256i *)(void *)ip, lo4);
                _mm256_storeu_si256((__m256i *)(void *)(ip + 4), hi4);
            } else {
                _mm256_maskstore_epi64((long long *)(void *)ip, _mm256_cvtepi32_epi64(_mm256_castsi256_si128(T->mcs)),
                                       lo4);
                _mm256_maskstore_epi64((long long *)(void *)(ip + 4),
                                       _mm256_cvtepi32_epi64(_mm256_extracti128_si256(T->mcs, 1)), hi4);
            }
        }
        const int none = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(bi, nonev))) & (int)((1u << OW) - 1u);
        if (none)
            VI_STORE(lt, bi);
#else
        VI_STORE(lt, ix);
        for (int64_t l = 0; l < OW; ++l) {
            if (i32)
                ((int32_t *)ind)[at + l] = (int32_t)(uint32_t)(uint64_t)(base + lt[l]);
            else
                ((int64_t *)ind)[at + l] = base + lt[l];
        }
        VI_STORE(lt, bi);
        int none = 0;
        for (int64_t l = 0; l < OW; ++l)
            none |= lt[l] == (int32_t)GEN_NONE;
#endif
        if (none) /* lanes that nothing replaced (the start value stays): the empty-window index */
            for (int64_t l = 0; l < OW; ++l)
                if (lt[l] == (int32_t)GEN_NONE)
                    KFN(put_index)(p, g, ind, at + l, n, c, -1, 0, 2 * o, 2 * l);
        if (++o == OH) {
            o = 0;
            ++pl;
            if (++c == C) {
                c = 0;
                ++n;
            }
        }
    }
}

/* fri_rows with K 2 and the NaN rule as constants, out of line. Only K 2
 * (fri_geo): the gen kernel takes index output for adaptive windows only,
 * and of their stride-2 grids the 3-tap one (13x13 -> 6x6, [2o, 2o + 3))
 * measured faster on the planes-across-lanes form (gen_cft.h: 1,373,258
 * against 1,354,477 instructions per call, avx2, but 3.24 against 3.46 x
 * the floor at avx2 and 2.14 against 3.38 at avx512: 9 dependent
 * compare + blend steps per row against cft's four independent chains). */
__attribute__((noinline)) static void KFN(fri_run)(const struct maxpool_plan *p, const KFN(geo) * g, const void *x,
                                                    void *y, void *ind, int64_t t0, int64_t t1, int prop)
{
    KFN(frt) T;
    KFN(fr_init)(g, &T);
    const GT *const xs = (const GT *)x;
    GT *const ys = (GT *)y;
    if (GFLOAT && prop)
        KFN(fri_rows)(p, g, &T, xs, ys, ind, t0, t1, 2, 1);
    else
        KFN(fri_rows)(p, g, &T, xs, ys, ind, t0, t1, 2, 0);
}
#endif
