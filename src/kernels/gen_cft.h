/* SPDX-License-Identifier: Apache-2.0 */
/* The type-generic kernels (gen_impl.h): channels-first, planes across the
 * lanes, for adaptive windows with indices on small planes (f32 only).
 * Included once by gen_impl.h, after gen_cfa.h and gen_cfs.h (its fallbacks).
 *
 * Adaptive heads (13x13 -> 6x6, 15x15 -> 4x4, 1-D 100 -> 12) have windows
 * of a few taps on planes of a few hundred elements, and many planes: per
 * output row there is too little to fill a vector (gen_cfa.h: 49-89
 * instructions per output). Here VN whole planes at a time are transposed
 * into a buffer where element s of plane l is lane l of vector s (8 x 8 /
 * 16 x 16 transposes of rows loaded in 128-bit parts), so every output of the VN planes is the
 * reference's scan as it is written: the window's taps in row-major order,
 * each one vector for every plane, a tap replacing the lane's best when it
 * is greater, or (propagation) a NaN; the winner's in-plane offset rides
 * along in a vector of tap codes (at avx2 the max of the masked codes, the
 * value by vmaxps: no variable blends). Four outputs go side by side
 * (independent chains of equal length: outputs ordered by their tap
 * count), driven by a table of tap codes made once per call (cft_table).
 * Under the first-element start each lane
 * starts at its window's first tap (taking that tap twice changes
 * nothing: it is not greater than itself, and a NaN taken again is the same
 * NaN). The outputs, values and offsets, are transposed back, the offsets
 * turned into the plan's indices (plus n*idx_n + c*idx_c of each plane);
 * a lane that nothing replaced (the start value stays: a window of NaN
 * without propagation, or of values not above the start) gets the
 * empty-window index through put_index. Groups of VN planes whose
 * transposing loads would pass the tensor's end read their last partial
 * vector element by element; the planes of a task range left over by the
 * groups, rows of planes the range cuts, and plans whose table does not fit
 * go to the other forms. Rank-3 planes too big for the buffer go by D slabs
 * (cft_slabs: the outputs of one o0 from a buffer of its window's slices
 * only, o0 after o0). Whole planes or slabs, the next group's lines are
 * prefetched during the scan, one line a step (cft_outs; in place of a
 * prefetch in the transposes at avx2, session of 2026-11-28 00:27, see
 * docs/performance.md "3-D adaptive slabs, landed"). Measured (callgrind, avx2,
 * instructions per output): 15x15 -> 4x4 89.5 -> 39.7, 13x13 -> 6x6 48.7 -> 18.6, 1-D 100
 * -> 12 39.8 -> 24.1 (docs/performance.md); the avx2 step without blends
 * and the half-load transposes (session of 2026-11-27 18:27): 39.7 -> 41.9
 * and 18.6 -> 20.6 instructions but fewer uops, x floor 5.8 -> 4.3 and 3.0
 * -> 2.7 at avx2; avx512 transposes by quarter loads, both steps without
 * register copies, the avx2 prefetch (session of 2026-11-27 21:29): time
 * x 0.82 at avx512 15 -> 4, x 0.88-0.90 at avx2 13 -> 6 and 1-D. */

#if GEN_TYPE == GEN_F32
#define CFT_BUF 8192 /* floats of the transposed input: VN planes of at most CFT_BUF / VN - VN elements */
#define CFT_OBUF 2048 /* floats of the transposed output: VN planes of at most CFT_OBUF / VN - VN outputs */
#define CFT_TAPS 2048 /* entries of the tap table */
#define CFT_PFD 1 /* groups ahead the scan prefetches (2, 3 measured no better) */

#if VN == 16
#define CFT_IADD(a, b) _mm512_add_epi32((a), (b))
#define CFT_SRL(a) _mm512_srli_epi32((a), 4)
/* One tap v (code at p) into the chain bv, bi: the value by vmaxps (or a
 * mask blend under propagation), the code by a masked broadcast from memory
 * (p holds a copy of the code apart from the one the load's address came
 * from: from a general register vpbroadcastd is a port-5 uop, as the compare
 * is). */
#define CFT_STEP(bv, bi, v, p, prop)                                                                                   \
    do {                                                                                                               \
        VM m_ = V_GTM((v), (bv));                                                                                      \
        if (prop) {                                                                                                    \
            m_ = VM_OR(m_, V_NANM(v));                                                                                 \
            (bv) = V_SEL((bv), (v), m_);                                                                               \
        } else                                                                                                         \
            (bv) = V_MAX((bv), (v));                                                                                   \
        CFT_MBC(bi, m_, p);                                                                                            \
    } while (0)
#ifdef MAXPOOL_SIMDE
#define CFT_MBC(bi, m, p) ((bi) = _mm512_mask_blend_epi32((m), (bi), _mm512_set1_epi32(*(p))))
#else /* (written out: gcc's own masked vpbroadcastd copies the chain's register twice a step) */
#define CFT_MBC(bi, m, p) __asm__("vpbroadcastd %[y], %[b]%{%[k]%}" : [b] "+v"(bi) : [y] "m"(*(p)), [k] "Yk"(m))
#endif
#define CFT_IOR(a, b) _mm512_or_si512((a), (b))
#define CFT_F2I(v) _mm512_castps_si512(v)
/* Rows p[l * ld .. + 16), l < 16 -> r[j] (lane l: row l's element j), with
 * the 128-bit quarters loaded into place (a[4c + l]: quarter q = row 4q + l's elements 4c .. 4c + 3: a load
 * and three vinsertf32x4 from memory, ports 0 / 5) and then one 4 x 4
 * transpose within the 128-bit lanes: 32 shuffles (port 5) + 48 inserts
 * against 64 port-5 shuffles for a transpose of 16 loaded rows. */
GAI void KFN(cft_tr_ld)(const GT *p, int64_t ld, VT *r)
{
    /* (row l from one of three bases and a multiple 1, 2, 4, 8 of ld or 3 ld
     * bytes: addressing modes with five registers) */
    const int64_t L = ld * (int64_t)sizeof(GT), L3 = 3 * L;
    const char *const b0 = (const char *)p, *const b2 = b0 + 2 * L, *const b7 = b0 + 7 * L;
    const char *q[16];
    q[0] = b0, q[1] = b0 + L, q[2] = b2, q[3] = b0 + L3, q[4] = b0 + 4 * L, q[5] = b2 + L3, q[6] = b0 + 2 * L3;
    q[7] = b7, q[8] = b0 + 8 * L, q[9] = b7 + 2 * L, q[10] = b7 + L3, q[11] = b7 + 4 * L, q[12] = b0 + 4 * L3;
    q[13] = b7 + 2 * L3, q[14] = b2 + 4 * L3, q[15] = b7 + 8 * L;
    #pragma GCC unroll 4
    for (int c = 0; c < 4; ++c) {
        VT a[4];
        #pragma GCC unroll 4
        for (int l = 0; l < 4; ++l) {
            VT v = _mm512_castps128_ps512(_mm_loadu_ps((const GT *)(const void *)q[l] + 4 * c));
            v = _mm512_insertf32x4(v, _mm_loadu_ps((const GT *)(const void *)q[4 + l] + 4 * c), 1);
            v = _mm512_insertf32x4(v, _mm_loadu_ps((const GT *)(const void *)q[8 + l] + 4 * c), 2);
            a[l] = _mm512_insertf32x4(v, _mm_loadu_ps((const GT *)(const void *)q[12 + l] + 4 * c), 3);
        }
        const VT t0 = _mm512_unpacklo_ps(a[0], a[1]), t1 = _mm512_unpackhi_ps(a[0], a[1]);
        const VT t2 = _mm512_unpacklo_ps(a[2], a[3]), t3 = _mm512_unpackhi_ps(a[2], a[3]);
        r[4 * c + 0] = _mm512_shuffle_ps(t0, t2, 0x44);
        r[4 * c + 1] = _mm512_shuffle_ps(t0, t2, 0xEE);
        r[4 * c + 2] = _mm512_shuffle_ps(t1, t3, 0x44);
        r[4 * c + 3] = _mm512_shuffle_ps(t1, t3, 0xEE);
    }
}
/* Lanes [0, n) of v to p: floats, int32, and int32 widened to int64 plus b. */
#ifdef MAXPOOL_SIMDE
GAI void KFN(cft_st)(float *p, VT v, int64_t n)
{
    alignas(64) float t[16];
    _mm512_store_ps(t, v);
    memcpy(p, t, (size_t)n * sizeof *t);
}
GAI void KFN(cft_st32)(int32_t *p, __m512i v, int64_t n)
{
    alignas(64) int32_t t[16];
    _mm512_store_si512((void *)t, v);
    memcpy(p, t, (size_t)n * sizeof *t);
}
GAI void KFN(cft_st64)(int64_t *p, __m512i v, int64_t b, int64_t n)
{
    alignas(64) int32_t t[16];
    _mm512_store_si512((void *)t, v);
    for (int64_t i = 0; i < n; ++i)
        p[i] = b + t[i];
}
#else
GAI void KFN(cft_st)(float *p, VT v, int64_t n)
{
    _mm512_mask_storeu_ps(p, (__mmask16)((1u << n) - 1u), v);
}
GAI void KFN(cft_st32)(int32_t *p, __m512i v, int64_t n)
{
    _mm512_mask_storeu_epi32(p, (__mmask16)((1u << n) - 1u), v);
}
GAI void KFN(cft_st64)(int64_t *p, __m512i v, int64_t b, int64_t n)
{
    const __m512i bv = _mm512_set1_epi64(b);
    const __m512i lo = _mm512_add_epi64(_mm512_cvtepi32_epi64(_mm512_castsi512_si256(v)), bv);
    const __m512i hi = _mm512_add_epi64(_mm512_cvtepi32_epi64(_mm512_extracti64x4_epi64(v, 1)), bv);
    const unsigned m = (1u << n) - 1u;
    _mm512_mask_storeu_epi64(p, (__mmask8)(m & 0xFFu), lo);
    _mm512_mask_storeu_epi64(p + 8, (__mmask8)(m >> 8), hi);
}
#endif
GAI int KFN(cft_neg)(__m512i v) { return _mm512_movepi32_mask(v) != 0; }
#else
#define CFT_IADD(a, b) _mm256_add_epi32((a), (b))
#define CFT_SRL(a) _mm256_srli_epi32((a), 3)
/* One tap v (table entry p) into the chain bv, bi. Ignoring NaN: the value
 * by vmaxps (v > bv ? v : bv, the reference's step as it is), the index by
 * a max of the masked code (codes grow along a window's row-major taps, a
 * repeated last tap has the same code) instead of vblendvps / vpblendvb
 * (3 uops each on this machine's cores against 1 for vmaxps, vpand,
 * vpmaxsd). */
#define CFT_STEP(bv, bi, v, p, prop)                                                                                   \
    do {                                                                                                               \
        if (prop) {                                                                                                    \
            const VM m_ = VM_OR(V_GTM((v), (bv)), V_NANM(v));                                                          \
            (bv) = V_SEL((bv), (v), m_);                                                                               \
            (bi) = _mm256_max_epi32((bi), _mm256_and_si256(_mm256_castps_si256(m_), CFT_BC(p)));                       \
        } else                                                                                                         \
            CFT_STEPI(bv, bi, v, CFT_BC(p));                                                                           \
    } while (0)
/* The step ignoring NaN written out (gcc's own vpmaxsd writes a new register
 * and copies it back: a move a step, four a quad). */
#define CFT_STEPI(bv, bi, v, c)                                                                                        \
    do {                                                                                                               \
        const __m256i c_ = (c);                                                                                        \
        __m256 m_;                                                                                                     \
        __asm__("vcmpgt_oqps %[sb], %[sx], %[sm]\n\t"                                                                  \
                "vmaxps %[sb], %[sx], %[sb]\n\t"                                                                       \
                "vandps %[sc], %[sm], %[sm]\n\t"                                                                       \
                "vpmaxsd %[sm], %[si], %[si]"                                                                          \
                : [sb] "+x"(bv), [si] "+x"(bi), [sm] "=&x"(m_)                                                         \
                : [sx] "x"(v), [sc] "x"(c_));                                                                          \
    } while (0)
#define CFT_BC(p) _mm256_castps_si256(_mm256_broadcast_ss((const float *)(const void *)(p))) /* (from memory) */
#define CFT_IOR(a, b) _mm256_or_si256((a), (b))
#define CFT_F2I(v) _mm256_castps_si256(v)
/* Rows p[l * ld .. + 8), l < 8 (l * ld from p) -> r[j] (lane l: row l's
 * element j): 128-bit halves loaded into place (rows l and l + 4 in one
 * vector, vinsertf128 from memory), then one 4 x 4 transpose within the
 * 128-bit lanes: 16 shuffles on ports 1 and 5 against 24 (8 of them
 * vperm2f128, port 5 only) for a transpose of 8 loaded rows. */
GAI void KFN(cft_tr_ld)(const GT *p, int64_t ld, VT *r)
{
    VT a[8];
    const GT *q[8]; /* (rows from three bases: few registers in the caller's loop) */
    q[0] = p, q[3] = p + 3 * ld, q[6] = p + 6 * ld;
    q[1] = q[0] + ld, q[2] = q[0] + 2 * ld, q[4] = q[3] + ld, q[5] = q[3] + 2 * ld, q[7] = q[6] + ld;
    #pragma GCC unroll 8
    for (int l = 0; l < 4; ++l) {
        a[l] = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(q[l])), _mm_loadu_ps(q[l + 4]), 1);
        a[4 + l] = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(q[l] + 4)), _mm_loadu_ps(q[l + 4] + 4), 1);
    }
    #pragma GCC unroll 8
    for (int h = 0; h < 2; ++h) {
        const VT t0 = _mm256_unpacklo_ps(a[4 * h], a[4 * h + 1]), t1 = _mm256_unpackhi_ps(a[4 * h], a[4 * h + 1]);
        const VT t2 = _mm256_unpacklo_ps(a[4 * h + 2], a[4 * h + 3]), t3 = _mm256_unpackhi_ps(a[4 * h + 2], a[4 * h + 3]);
        r[4 * h + 0] = _mm256_shuffle_ps(t0, t2, 0x44);
        r[4 * h + 1] = _mm256_shuffle_ps(t0, t2, 0xEE);
        r[4 * h + 2] = _mm256_shuffle_ps(t1, t3, 0x44);
        r[4 * h + 3] = _mm256_shuffle_ps(t1, t3, 0xEE);
    }
}
GAI __m256i KFN(cft_m)(int64_t n) { return _mm256_cmpgt_epi32(_mm256_set1_epi32((int)n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)); }
GAI void KFN(cft_st)(float *p, VT v, int64_t n)
{
    if (n == 8)
        _mm256_storeu_ps(p, v);
    else
        _mm256_maskstore_ps(p, KFN(cft_m)(n), v);
}
GAI void KFN(cft_st32)(int32_t *p, __m256i v, int64_t n)
{
    if (n == 8)
        _mm256_storeu_si256((__m256i *)(void *)p, v);
    else
        _mm256_maskstore_epi32((int *)p, KFN(cft_m)(n), v);
}
GAI void KFN(cft_st64)(int64_t *p, __m256i v, int64_t b, int64_t n)
{
    const __m256i bv = _mm256_set1_epi64x(b), m = KFN(cft_m)(n);
    const __m256i lo = _mm256_add_epi64(_mm256_cvtepi32_epi64(_mm256_castsi256_si128(v)), bv);
    const __m256i hi = _mm256_add_epi64(_mm256_cvtepi32_epi64(_mm256_extracti128_si256(v, 1)), bv);
    if (n == 8) {
        _mm256_storeu_si256((__m256i *)(void *)p, lo);
        _mm256_storeu_si256((__m256i *)(void *)(p + 4), hi);
        return;
    }
    _mm256_maskstore_epi64((long long *)(void *)p, _mm256_cvtepi32_epi64(_mm256_castsi256_si128(m)), lo);
    _mm256_maskstore_epi64((long long *)(void *)(p + 4), _mm256_cvtepi32_epi64(_mm256_extracti128_si256(m, 1)), hi);
}
GAI int KFN(cft_neg)(__m256i v) { return _mm256_movemask_ps(_mm256_castsi256_ps(v)) != 0; }
#endif

/* Rank-3 plans whose planes do not fit the buffer go by D slabs: the
 * outputs of one o0 (the window's slices st0 .. st0 + (cn0 - 1) * step0,
 * their H and W whole) from a buffer of that slab only, o0 after o0 over
 * every group (a slice that two windows share is transposed twice). 1 if
 * plan p goes so: every slab fits the buffer and the tap table of one slab
 * fits whatever its quads (4 * quads * the most taps of an output). */
static int KFN(cft_slabs)(const struct maxpool_plan *p, const KFN(geo) * g)
{
    const int64_t po = g->out[1] * g->out[2], sl = g->in[1] * g->in[2];
    if (p->rank != 3 || g->out[0] < 2 || po > CFT_OBUF / VN - VN)
        return 0;
    int64_t k0 = 0, k1 = 0, k2 = 0;
    for (int64_t o = 0; o < g->out[0]; ++o) {
        if (((g->cn[0][o] - 1) * g->step[0] + 1) * sl > CFT_BUF / VN - VN)
            return 0;
        k0 = g->cn[0][o] > k0 ? g->cn[0][o] : k0;
    }
    for (int64_t o = 0; o < g->out[1]; ++o)
        k1 = g->cn[1][o] > k1 ? g->cn[1][o] : k1;
    for (int64_t o = 0; o < g->out[2]; ++o)
        k2 = g->cn[2][o] > k2 ? g->cn[2][o] : k2;
    return 4 * ((po + 3) / 4) * k0 * k1 * k2 <= CFT_TAPS;
}

/* Whether the planes-across-lanes form takes plan p (with indices): whole
 * planes, or (rank 3) D slabs. */
static int KFN(cft_geo)(const struct maxpool_plan *p, const KFN(geo) * g)
{
    if (!KFN(geo_taps)(g, 0) || !KFN(geo_taps)(g, 1) || !KFN(geo_taps)(g, 2))
        return 0;
    if (g->grid && g->K == g->S && g->S <= 2 && g->out[2] <= VN) /* windows of 1 or 2 in line: gen_cfs.h */
        return 0; /* (14 -> 7, avx2: 1.92 against 2.05 x the floor here, DRAM-bound) */
    if (p->desc.window != MAXPOOL_WINDOW_ADAPTIVE || p->n * p->c < VN || p->in_spatial < 1 || p->out_spatial < 1)
        return 0;
    return (p->in_spatial <= CFT_BUF / VN - VN && p->out_spatial <= CFT_OBUF / VN - VN) || KFN(cft_slabs)(p, g);
}

/* The tap table of a call: the outputs of a plane ordered by their number
 * of taps (stable; ord[]), four at a time (a quad: four independent compare
 * + blend chains; one chain is bound by their latency; chains of equal
 * length: 15 -> 4 324 steps per plane instead of 360 in row-major order),
 * the last quad padded with its last output again (the same results to the
 * same row). Quad q has qk[q]
 * steps; step k holds, for each of the four outputs, the code (s + 1) * VN
 * of its window's tap min(k, taps - 1) in row-major order, s the tap's
 * in-plane offset (its vector in the transposed buffer at byte s * VN *
 * sizeof(GT) = 4 * code - VN * sizeof(GT)): a window of fewer taps meets its
 * last tap again, which changes nothing (not greater than itself; a NaN
 * taken again is the same NaN at the same offset). The codes of a window
 * grow along its taps and 0 is no tap: a lane's index can be the max of
 * the masked codes. */
typedef struct KFN(cftt) {
    int32_t off[CFT_TAPS];
#if VN == 16
    int32_t code[CFT_TAPS]; /* (a copy of off: the masked broadcasts' memory operands) */
#endif
    int32_t qk[CFT_OBUF / VN / 4 + 1];
    int32_t ord[CFT_OBUF / VN + 4]; /* the output of quad q's chain i: ord[4 * q + i] */
    int64_t nq;
} KFN(cftt);

/* Builds the table of plan p for the outputs of o0 in [oa, oa + on) (all
 * of them, or one D slab), offsets from element e0 of the plane; 0 if it
 * does not fit. */
static int KFN(cft_table)(const struct maxpool_plan *p, const KFN(geo) * g, KFN(cftt) * T, int64_t oa, int64_t on,
                          int64_t e0)
{
    const int64_t O1 = g->out[1], O2 = g->out[2], NO = on * O1 * O2;
    const int64_t in1 = g->in[1], in2 = g->in[2], d0 = g->step[0], d1 = g->step[1], d2 = g->step[2];
    int64_t n = 0, nt[CFT_OBUF / VN];
    T->nq = (NO + 3) / 4;
    for (int64_t o = 0; o < NO; ++o) { /* the outputs by their taps (stable): a quad's chains of equal length */
        const int64_t o2 = o % O2, o1 = o / O2 % O1, o0 = oa + o / O2 / O1,
                      k = g->cn[0][o0] * g->cn[1][o1] * g->cn[2][o2];
        int64_t i = o;
        for (; i > 0 && nt[i - 1] > k; --i) {
            nt[i] = nt[i - 1];
            T->ord[i] = T->ord[i - 1];
        }
        nt[i] = k;
        T->ord[i] = (int32_t)o;
    }
    for (int64_t i = NO; i < 4 * T->nq; ++i)
        T->ord[i] = T->ord[NO - 1];
    for (int64_t q = 0; q < T->nq; ++q) {
        int64_t c[4][3], st[4][3], kmax = 0;
        for (int i = 0; i < 4; ++i) {
            const int64_t o = T->ord[4 * q + i], o2 = o % O2, o1 = o / O2 % O1, o0 = oa + o / O2 / O1;
            st[i][0] = g->st[0][o0];
            st[i][1] = g->st[1][o1];
            st[i][2] = g->st[2][o2];
            c[i][0] = g->cn[0][o0];
            c[i][1] = g->cn[1][o1];
            c[i][2] = g->cn[2][o2];
            const int64_t k = c[i][0] * c[i][1] * c[i][2];
            kmax = k > kmax ? k : kmax;
        }
        if (kmax < 1 || n + 4 * kmax > CFT_TAPS)
            return 0;
        T->qk[q] = (int32_t)kmax;
        for (int64_t k = 0; k < kmax; ++k)
            for (int i = 0; i < 4; ++i) {
                const int64_t ni = c[i][0] * c[i][1] * c[i][2], t = k < ni ? k : ni - 1;
                const int64_t j2 = t % c[i][2], j1 = t / c[i][2] % c[i][1], j0 = t / c[i][2] / c[i][1];
                const int64_t s = ((st[i][0] + j0 * d0) * in1 + st[i][1] + j1 * d1) * in2 + st[i][2] + j2 * d2 - e0;
#if VN == 16
                T->code[n] = (int32_t)((s + 1) * VN);
#endif
                T->off[n++] = (int32_t)((s + 1) * VN);
            }
    }
    return 1;
}

/* The lines the next group reads (VN planes of nl cache lines from pf, ps
 * bytes apart: line a, up to the plane's end e, up to the group's end z),
 * prefetched one a step of the scan: the loads of the transposes then meet
 * them in the cache (the scan itself does not touch memory). */
typedef struct KFN(cftp) {
    const char *a, *e, *z;
    int64_t ps, nb; /* plane stride, bytes of a plane's lines */
} KFN(cftp);

/* Every output of the VN planes in b (the transposed buffer) to ob, oi. */
GAI void KFN(cft_outs)(const KFN(geo) * g, const KFN(cftt) * T, const GT *b, GT *ob, int32_t *oi, const int prop,
                       KFN(cftp) * pc)
{
    const int32_t *t = T->off;
#if VN == 16
    const int32_t *c = T->code;
#else
    const int32_t *c = T->off;
#endif
    const char *pa = pc->a, *pe = pc->e; /* (in registers) */
    for (int64_t q = 0; q < T->nq; ++q) {
        VT bv[4];
        VI bi[4];
#pragma GCC unroll 4
        for (int i = 0; i < 4; ++i) {
            if (g->fe) { /* the first tap first (and again below: no change) */
                bv[i] = V_LOAD(b + ((int64_t)t[i] - VN)); /* (code u: element u - VN) */
                bi[i] = VI_SET1(t[i]);
            } else {
                bv[i] = V_SET1(g->init);
                bi[i] = VI_SET1(0);
            }
        }
        const int32_t *const te = t + 4 * (int64_t)T->qk[q]; /* (qk >= 1) */
        do {
            if (pa < pc->z) {
                __builtin_prefetch(pa);
                pa += 64;
                if (pa >= pe) {
                    pa = pe - pc->nb + pc->ps;
                    pe = pa + pc->nb;
                }
            }
#pragma GCC unroll 4
            for (int i = 0; i < 4; ++i) {
                const VT v = V_LOAD(b + ((int64_t)t[i] - VN));
                CFT_STEP(bv[i], bi[i], v, c + i, prop);
            }
            t += 4, c += 4;
        } while (t != te);
#pragma GCC unroll 4
        for (int i = 0; i < 4; ++i) {
            V_STORE(ob + (int64_t)T->ord[4 * q + i] * VN, bv[i]);
            VI_STORE(oi + (int64_t)T->ord[4 * q + i] * VN, CFT_IADD(CFT_SRL(bi[i]), VI_SET1(-1))); /* (no tap: -1) */
        }
    }
}

/* Planes [pa, pa + VN), the outputs of o0 in [oa, oa + on) from elements
 * [e0, e0 + SL) of each plane (T's table): buf, ob, oi local buffers of
 * CFT_BUF, CFT_OBUF, CFT_OBUF elements; groups up to plane pn follow. */
GAI void KFN(cft_group)(const struct maxpool_plan *p, const KFN(geo) * g, const KFN(cftt) * T, const GT *x, GT *y,
                        void *ind, int64_t pa, GT *buf, GT *ob, int32_t *oi, const int prop, int64_t oa, int64_t on,
                        int64_t e0, int64_t SL, int64_t pn)
{
    const int64_t HW = p->in_spatial, NO = on * g->out[1] * g->out[2], yo = oa * g->out[1] * g->out[2];
    const int64_t PO = p->out_spatial; /* (a local: the int64 index stores could alias p->out_spatial) */
    const GT *const xend = g->xbeg + g->xlen;
    const GT *xp = x + pa * HW + e0;
    VT r[VN];
    for (int64_t j = 0; j < SL; j += VN) { /* transpose in */
        if (e0 + j + VN <= HW || xp + (VN - 1) * HW + j + VN <= xend) {
            KFN(cft_tr_ld)(xp + j, HW, r);
            #pragma GCC unroll 16
            for (int i = 0; i < VN; ++i)
                V_STORE(buf + (j + i) * VN, r[i]);
        } else {
            for (int64_t jj = j; jj < SL; ++jj)
                for (int l = 0; l < VN; ++l)
                    buf[jj * VN + l] = xp[l * HW + jj];
        }
    }
    KFN(cftp) pc; /* the next group's lines, if any */
    pc.ps = HW * (int64_t)sizeof(GT);
    pc.nb = (SL * (int64_t)sizeof(GT) + 63) / 64 * 64;
    pc.a = (const char *)(xp + CFT_PFD * VN * HW);
    pc.e = pc.a + pc.nb;
    pc.z = pa + (CFT_PFD + 1) * VN <= pn ? pc.a + (VN - 1) * pc.ps + pc.nb : pc.a;
    KFN(cft_outs)(g, T, buf, ob, oi, prop, &pc);
    VI neg = VI_SET1(0);
    for (int64_t i = 0; i < NO; ++i)
        neg = CFT_IOR(neg, VI_LOAD(oi + i * VN));
    int64_t o = 0, base[VN]; /* n*idx_n + c*idx_c of each plane (no division per plane), plus e0 (the
                              * table's offsets are from there) */
    for (int64_t l = 0, bn = pa / p->c, bc = pa % p->c; l < VN; ++l) {
        base[l] = bn * p->idx_n + bc * p->idx_c + e0;
        if (++bc == p->c)
            bc = 0, ++bn;
    }
    const int i32 = p->desc.index_type == MAXPOOL_INDEX_I32;
    for (int64_t ob0 = 0; ob0 < NO; ob0 += VN) { /* transpose out */
        const int64_t n = NO - ob0 < VN ? NO - ob0 : VN;
        KFN(cft_tr_ld)(ob + ob0 * VN, VN, r); /* (rows past NO: within the buffer, not stored) */
        #pragma GCC unroll 16
        for (int l = 0; l < VN; ++l)
            KFN(cft_st)(y + (pa + l) * PO + yo + ob0, r[l], n);
        KFN(cft_tr_ld)((const GT *)(const void *)(oi + ob0 * VN), VN, r); /* (rows past NO: within the buffer, not stored) */
        #pragma GCC unroll 16
        for (int l = 0; l < VN; ++l) {
            const int64_t at = (pa + l) * PO + yo + ob0;
            if (i32)
                KFN(cft_st32)((int32_t *)ind + at, CFT_IADD(CFT_F2I(r[l]), VI_SET1((int32_t)(uint32_t)(uint64_t)base[l])), n);
            else
                KFN(cft_st64)((int64_t *)ind + at, CFT_F2I(r[l]), base[l], n);
        }
    }
    if (KFN(cft_neg)(neg)) { /* lanes with no winner: the empty-window index */
        o = 0;
        for (int64_t o0 = oa; o0 < oa + on; ++o0)
            for (int64_t o1 = 0; o1 < g->out[1]; ++o1)
                for (int64_t o2 = 0; o2 < g->out[2]; ++o2, ++o)
                    for (int l = 0; l < VN; ++l)
                        if (oi[o * VN + l] < 0)
                            KFN(put_index)(p, g, ind, (pa + l) * p->out_spatial + yo + o, (pa + l) / p->c,
                                           (pa + l) % p->c, -1,
                                           g->st[0][o0], g->st[1][o1], g->st[2][o2]);
    }
}

/* What the other forms do with rows [a, b) (with indices). */
static void KFN(cft_rest)(const struct maxpool_plan *p, const KFN(geo) * g, const GT *x, GT *y, void *ind, int64_t a,
                          int64_t b, int prop)
{
    if (a >= b)
        return;
    if (KFN(cfa_geo)(p, g))
        KFN(cfa_task)(p, g, x, y, ind, a, b, prop);
    else if (KFN(cfs_geo)(p, g))
        KFN(cfs_task)(p, g, x, y, ind, a, b, prop);
    else
        KFN(cf_task)(p, g, x, y, ind, a, b, prop, 1);
}

/* Planes [pa, pb) in groups of VN; 0 (nothing done) when the tap table
 * does not fit. Whole planes, or (cft_slabs) o0 after o0, each D slab of
 * every group: a slab's table that does not fit (cft_slabs rules that out)
 * leaves its o0 and the rest to the other forms, plane by plane. Stack:
 * 32 + 8 + 8 + 8 KiB, none of it alive when the other forms run. */
GAI int KFN(cft_run)(const struct maxpool_plan *p, const KFN(geo) * g, const GT *x, GT *y, void *ind, int64_t pa,
                     int64_t pb, const int prop)
{
    KFN(cftt) T;
    alignas(64) GT buf[CFT_BUF];
    alignas(64) GT ob[CFT_OBUF];
    alignas(64) int32_t oi[CFT_OBUF];
    const int whole = p->in_spatial <= CFT_BUF / VN - VN && p->out_spatial <= CFT_OBUF / VN - VN;
    const int64_t sl = g->in[1] * g->in[2];
    for (int64_t o0 = 0; o0 < (whole ? 1 : g->out[0]); ++o0) { /* (one cft_group inlined: build time) */
        const int64_t on = whole ? g->out[0] : 1, e0 = whole ? 0 : g->st[0][o0] * sl;
        const int64_t SL = whole ? p->in_spatial : ((g->cn[0][o0] - 1) * g->step[0] + 1) * sl;
        if (!KFN(cft_table)(p, g, &T, o0, on, e0))
            return o0 > 0 ? -(int)o0 : 0; /* (-o0: o0 on are left) */
        for (int64_t q = pa; q < pb; q += VN)
            KFN(cft_group)(p, g, &T, x, y, ind, q, buf, ob, oi, prop, o0, on, e0, SL, pb);
    }
    return 1;
}

/* cft_run with the NaN rule as a constant (propagate, ignore), out of line. */
__attribute__((noinline)) static int KFN(cft_run_p)(const struct maxpool_plan *p, const KFN(geo) * g, const GT *x,
                                                     GT *y, void *ind, int64_t pa, int64_t pb)
{
    return KFN(cft_run)(p, g, x, y, ind, pa, pb, 1);
}
__attribute__((noinline)) static int KFN(cft_run_i)(const struct maxpool_plan *p, const KFN(geo) * g, const GT *x,
                                                     GT *y, void *ind, int64_t pa, int64_t pb)
{
    return KFN(cft_run)(p, g, x, y, ind, pa, pb, 0);
}

/* Tasks [t0, t1) (rows): groups of VN whole planes here, the rest the other forms. */
static void KFN(cft_tasks)(const struct maxpool_plan *p, const KFN(geo) * g, const GT *x, GT *y, void *ind,
                           int64_t t0, int64_t t1, int prop)
{
    const int64_t rows = g->out[0] * g->out[1], pa = (t0 + rows - 1) / rows, pe = t1 / rows;
    const int64_t pb = pe > pa ? pa + (pe - pa) / VN * VN : pa;
    int done = 0; /* planes [pa, pb) here (< 0: but their rows from o0 = -done on) */
    if (pa < pb)
        done = GFLOAT && prop ? KFN(cft_run_p)(p, g, x, y, ind, pa, pb) : KFN(cft_run_i)(p, g, x, y, ind, pa, pb);
    if (!done) {
        KFN(cft_rest)(p, g, x, y, ind, t0, t1, prop);
        return;
    }
    if (done < 0)
        for (int64_t q = pa; q < pb; ++q)
            KFN(cft_rest)(p, g, x, y, ind, q * rows - done * g->out[1], (q + 1) * rows, prop);
    KFN(cft_rest)(p, g, x, y, ind, t0, pa * rows, prop);
    KFN(cft_rest)(p, g, x, y, ind, pb * rows, t1, prop);
}
#endif
