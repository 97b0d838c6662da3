/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The type-generic kernels (gen_impl.h): global windows, channels-first
 * (KFN(gl_task), taken by KFN(nchw) when every output's window is its whole
 * plane: one output per plane, on every axis start 0, count = in, and taps
 * 1 apart; ONNX GlobalMaxPool, adaptive pooling to 1x1, a fixed window that
 * covers the plane). Included once by gen_impl.h.
 *
 * A task is one plane (gen_match.c: one output row per plane). Planes go in
 * groups of VN: each plane's elements are reduced into one vector, lane by
 * lane (KFN(gl_acc): vector loads over the plane, the last one ending at
 * the plane's end, overlapping the previous; planes shorter than a vector
 * with their other lanes neutral), then the VN vectors of a group into one
 * vector of VN results by a tree of half-width steps (KFN(gl_comb): the even
 * and the odd units of two vectors, whole halves first, then within 128-bit
 * lanes down to one key; the group's plane q sits in slot
 * (q % Q) * P + q / Q of the tree so that result lane q is plane q).
 *
 * The max over lanes in any order is the reference's value except for ties
 * between equal keys of different bits (±0) and NaN: results that are zero
 * or NaN (floats), and under the first-element start a plane whose first
 * element is NaN (it then stays), are redone by the scalar scan (KFN(sfold)).
 * NaN under propagation is kept by every step (V_MAXP), so such a plane's
 * result is NaN and redone. f16 NaN results are redone too (V_NANFIX).
 * Indices (types other than f32, and f32 planes of 2^31 elements or more, or
 * a NaN fixed start under propagation): the winner is the first element
 * whose key equals the result (or none when no element beats the start
 * value), found by a second vector scan of the plane (in L1 by then). f32
 * otherwise takes the one-pass form (gli_run, below).
 * Reads: the planes' elements; a plane shorter than a vector reads a whole
 * vector from its start (the next planes' elements, unused) when that lies
 * inside the input tensor, else a copy.
 */

#if defined(__AVX512F__) || defined(MAXPOOL_SIMDE)
#define GL_VB 64
#define GLI __m512i
#else
#define GL_VB 32
#define GLI __m256i
#endif
#define GL_Q (GL_VB / 16) /* 128-bit lanes of a vector */
#define GL_P (VN / GL_Q)  /* keys per 128-bit lane */

GAI GLI KFN(gl_bi)(VT v)
{
    GLI r;
    memcpy(&r, &v, sizeof r);
    return r;
}

GAI VT KFN(gl_bv)(GLI v)
{
    VT r;
    memcpy(&r, &v, sizeof r);
    return r;
}

/* The even (o = 0) or odd (o = 1) units of u bytes of a then b: over the
 * whole vector for u >= 16, within each 128-bit lane below. */
GAI GLI KFN(gl_eo)(GLI a, GLI b, const int u, const int o)
{
#if GL_VB == 64
#ifdef MAXPOOL_SIMDE /* SIMDe has no _mm512_shuffle_i64x2 */
    if (u == 32)
        return _mm512_permutex2var_epi64(a, o ? _mm512_setr_epi64(4, 5, 6, 7, 12, 13, 14, 15)
                                              : _mm512_setr_epi64(0, 1, 2, 3, 8, 9, 10, 11), b);
    if (u == 16)
        return _mm512_permutex2var_epi64(a, o ? _mm512_setr_epi64(2, 3, 6, 7, 10, 11, 14, 15)
                                              : _mm512_setr_epi64(0, 1, 4, 5, 8, 9, 12, 13), b);
#else
    if (u == 32)
        return o ? _mm512_shuffle_i64x2(a, b, 0xEE) : _mm512_shuffle_i64x2(a, b, 0x44);
    if (u == 16)
        return o ? _mm512_shuffle_i64x2(a, b, 0xDD) : _mm512_shuffle_i64x2(a, b, 0x88);
#endif
    if (u == 8)
        return o ? _mm512_unpackhi_epi64(a, b) : _mm512_unpacklo_epi64(a, b);
    if (u == 4) {
        const __m512 fa = _mm512_castsi512_ps(a), fb = _mm512_castsi512_ps(b);
        return _mm512_castps_si512(o ? _mm512_shuffle_ps(fa, fb, 0xDD) : _mm512_shuffle_ps(fa, fb, 0x88));
    }
    if (u == 2)
        return o ? _mm512_packus_epi32(_mm512_srli_epi32(a, 16), _mm512_srli_epi32(b, 16))
                 : _mm512_packus_epi32(_mm512_and_si512(a, _mm512_set1_epi32(0xFFFF)),
                                       _mm512_and_si512(b, _mm512_set1_epi32(0xFFFF)));
    return o ? _mm512_packus_epi16(_mm512_srli_epi16(a, 8), _mm512_srli_epi16(b, 8))
             : _mm512_packus_epi16(_mm512_and_si512(a, _mm512_set1_epi16(0xFF)),
                                   _mm512_and_si512(b, _mm512_set1_epi16(0xFF)));
#else
    if (u == 16)
        return o ? _mm256_permute2x128_si256(a, b, 0x31) : _mm256_permute2x128_si256(a, b, 0x20);
    if (u == 8)
        return o ? _mm256_unpackhi_epi64(a, b) : _mm256_unpacklo_epi64(a, b);
    if (u == 4) {
        const __m256 fa = _mm256_castsi256_ps(a), fb = _mm256_castsi256_ps(b);
        return _mm256_castps_si256(o ? _mm256_shuffle_ps(fa, fb, 0xDD) : _mm256_shuffle_ps(fa, fb, 0x88));
    }
    if (u == 2)
        return o ? _mm256_packus_epi32(_mm256_srli_epi32(a, 16), _mm256_srli_epi32(b, 16))
                 : _mm256_packus_epi32(_mm256_and_si256(a, _mm256_set1_epi32(0xFFFF)),
                                       _mm256_and_si256(b, _mm256_set1_epi32(0xFFFF)));
    return o ? _mm256_packus_epi16(_mm256_srli_epi16(a, 8), _mm256_srli_epi16(b, 8))
             : _mm256_packus_epi16(_mm256_and_si256(a, _mm256_set1_epi16(0xFF)),
                                   _mm256_and_si256(b, _mm256_set1_epi16(0xFF)));
#endif
}

/* One tree step: the max of the even and the odd units of u bytes. */
GAI VT KFN(gl_comb)(VT a, VT b, const int u, const int prop)
{
    const GLI ia = KFN(gl_bi)(a), ib = KFN(gl_bi)(b);
    const VT e = KFN(gl_bv)(KFN(gl_eo)(ia, ib, u, 0)), o = KFN(gl_bv)(KFN(gl_eo)(ia, ib, u, 1));
    return prop ? V_MAXP(e, o) : V_MAX(e, o);
}

/* Bits of a lane mask: one per lane (AVX-512), one per byte (AVX2). */
#if GL_VB == 64
#define GL_LB 1
GAI uint64_t KFN(gl_bits)(VM m) { return (uint64_t)m; }
#else
#define GL_LB (32 / VN)
GAI uint64_t KFN(gl_bits)(VM m)
{
    __m256i t;
    memcpy(&t, &m, sizeof t);
    return (uint32_t)_mm256_movemask_epi8(t);
}
#endif

/* The first vector of a plane of L < VN elements: read in place when the
 * whole vector lies inside the input (lanes from L on: the next planes),
 * else from a copy whose lanes from L on are neutral. */
GAI VT KFN(gl_short)(const KFN(geo) * g, const GT *xp, int64_t L)
{
    if (g->xbeg + g->xlen - xp >= VN)
        return V_LOAD(xp);
    alignas(64) GT b[VN];
    for (int l = 0; l < VN; ++l)
        b[l] = g->neutral;
    memcpy(b, xp, (size_t)L * sizeof(GT));
    return V_LOAD(b);
}

#define GL_MX(a, b) (prop ? V_MAXP((a), (b)) : V_MAX((a), (b)))

/* A plane's L elements reduced lane by lane, from a0 (the start value, or
 * neutral under the first-element start); lm: the lanes below L. Loads at
 * 0, VN, 2*VN, ... and a last one ending at the plane's end (for L = VN:
 * the first load again); nm = ceil(L / VN) - 2 loads between the first and
 * the last, straight-line up to 14. A chain other than the first starts
 * from its first load, maxed with the neutral value for the floats (a NaN
 * lane would stay under V_MAX). */
#define GL_FIRST(v) (GFLOAT ? GL_MX(neu, (v)) : (v))
GAI VT KFN(gl_acc)(const KFN(geo) * g, const GT *xp, int64_t L, int64_t nm, VT a0, VM lm, VT neu, const int prop)
{
    if (L < VN)
        return GL_MX(a0, V_SEL(neu, KFN(gl_short)(g, xp, L), lm));
    const GT *const pe = xp + L - VN;
    VT a = GL_MX(a0, V_LOAD(xp)), b = GL_FIRST(V_LOAD(pe));
#define GL_AT(v, k) v = GL_MX(v, V_LOAD(xp + (k) * VN))
    switch (nm) {
    default: { /* long planes: four chains */
        const GT *q = xp + VN;
        VT c = GL_FIRST(V_LOAD(q)), d = GL_FIRST(V_LOAD(q + VN));
        for (q += 2 * VN; q + 3 * VN < pe; q += 4 * VN) {
            a = GL_MX(a, V_LOAD(q));
            b = GL_MX(b, V_LOAD(q + VN));
            c = GL_MX(c, V_LOAD(q + 2 * VN));
            d = GL_MX(d, V_LOAD(q + 3 * VN));
        }
        for (; q < pe; q += VN)
            a = GL_MX(a, V_LOAD(q));
        a = GL_MX(a, c);
        b = GL_MX(b, d);
        break;
    }
    case 14: GL_AT(b, 14); /* fall through */
    case 13: GL_AT(a, 13); /* fall through */
    case 12: GL_AT(b, 12); /* fall through */
    case 11: GL_AT(a, 11); /* fall through */
    case 10: GL_AT(b, 10); /* fall through */
    case 9: GL_AT(a, 9); /* fall through */
    case 8: GL_AT(b, 8); /* fall through */
    case 7: GL_AT(a, 7); /* fall through */
    case 6: GL_AT(b, 6); /* fall through */
    case 5: GL_AT(a, 5); /* fall through */
    case 4: GL_AT(b, 4); /* fall through */
    case 3: GL_AT(a, 3); /* fall through */
    case 2: GL_AT(b, 2); /* fall through */
    case 1: GL_AT(a, 1); /* fall through */
    case 0: break;
    }
#undef GL_AT
    return GL_MX(a, b);
}
#undef GL_FIRST

/* The offset in the plane of the first element equal to v (a key that some
 * element has, neither NaN nor zero). */
GAI int64_t KFN(gl_find)(const KFN(geo) * g, const GT *xp, int64_t L, GT v)
{
    const VT b = V_SET1(v);
    if (L < VN)
        return __builtin_ctzll(KFN(gl_bits)(V_EQM(KFN(gl_short)(g, xp, L), b))) / GL_LB;
    int64_t i = 0;
    for (; i + VN <= L; i += VN) {
        const uint64_t m = KFN(gl_bits)(V_EQM(V_LOAD(xp + i), b));
        if (m)
            return i + __builtin_ctzll(m) / GL_LB;
    }
    return L - VN + __builtin_ctzll(KFN(gl_bits)(V_EQM(V_LOAD(xp + L - VN), b))) / GL_LB;
}

/* Whether every window of the plan is its whole plane. */
GAI int KFN(gl_is)(const KFN(geo) * g)
{
    for (int i = 0; i < 3; ++i)
        if (g->out[i] != 1 || g->in[i] < 1 || g->st[i][0] != 0 || g->cn[i][0] != g->in[i] ||
            (g->in[i] > 1 && g->step[i] != 1))
            return 0;
    return 1;
}

GAI void KFN(gl_run)(const struct maxpool_plan *p, const KFN(geo) * g, const GT *x, GT *y, void *ind, int64_t t0,
                     int64_t t1, const int prop, const int wi)
{
    const int64_t L = g->in[0] * g->in[1] * g->in[2], nm = L < 2 * VN ? 0 : (L + VN - 1) / VN - 2;
    const VT neu = V_SET1(g->neutral), a0 = g->fe ? neu : V_SET1(g->init);
    const int fe = g->fe;
    const GKT ik = GKEY(g->init);
    alignas(64) VLANE lv[VN];
    for (int l = 0; l < VN; ++l)
        lv[l] = l < L ? GEN_NONE : 0;
    const VM lm = VM_LANES(lv);
    VT acc[VN / 2];
    int64_t so[VN]; /* slot s of the tree: the group's plane (s % Q) * P + s / Q */
    for (int s = 0; s < VN; ++s)
        so[s] = ((s % GL_Q) * GL_P + s / GL_Q) * L;
    int64_t n = t0 / p->c, c = t0 % p->c; /* of plane t */
    for (int64_t t = t0; t < t1; t += VN) {
        const int nl = t1 - t < VN ? (int)(t1 - t) : VN;
        const GT *const xg = x + t * L;
        if (nl < VN) /* a short group: its other slots read its first plane */
            for (int s = 0; s < VN; ++s)
                if (so[s] >= nl * L)
                    so[s] = 0;
        /* the planes, two slots at a time with the tree's first step */
        for (int s = 0; s < VN; s += 2)
            acc[s / 2] = KFN(gl_comb)(KFN(gl_acc)(g, xg + so[s], L, nm, a0, lm, neu, prop),
                                      KFN(gl_acc)(g, xg + so[s + 1], L, nm, a0, lm, neu, prop), GL_VB / 2, prop);
        uint64_t fl = 0; /* lanes the scalar scan redoes */
        if (GFLOAT && !prop && fe) /* a NaN first element stays */
            for (int l = 0; l < nl; ++l)
                if (GEN_ISNAN(GKEY(xg[l * L])))
                    fl |= (uint64_t)1 << l;
        int m = VN / 2;
#define GL_LVL(u)                                                                                                  \
    if ((u) >= (int)sizeof(GKT) && (u) < GL_VB) {                                                                  \
        m /= 2;                                                                                                    \
        _Pragma("GCC unroll 2") for (int i = 0; i < m; ++i) acc[i] = KFN(gl_comb)(acc[2 * i], acc[2 * i + 1], (u), prop); \
    }
        GL_LVL(GL_VB == 64 ? 16 : 0)
        GL_LVL(8)
        GL_LVL(4)
        GL_LVL(2)
        GL_LVL(1)
#undef GL_LVL
        const VT r = acc[0];
        alignas(64) GKT rk[VN];
        if (GFLOAT) {
            const VM z = VM_OR(V_NANM(r), V_EQM(r, V_SET1((GT)0)));
            if (KFN(gl_bits)(z)) {
                VK_STORE(rk, r);
                for (int l = 0; l < nl; ++l)
                    if (GEN_ISNAN(rk[l]) || rk[l] == 0)
                        fl |= (uint64_t)1 << l;
            }
        }
        if (!wi) {
            if (nl == VN)
                V_STORE(y + t, r);
            else
                V_STOREN(y + t, r, nl);
            for (uint64_t f = fl; f; f &= f - 1) { /* (the flagged lanes only: usually none) */
                const int l = __builtin_ctzll(f);
                KFN(sfold)(g, x + (t + l) * L, 1, prop, 0, g->in[0], 0, g->in[1], 0, g->in[2], y + t + l);
            }
            continue;
        }
        alignas(64) GT rv[VN];
        V_STORE(rv, r);
        VK_STORE(rk, r);
        for (int l = 0; l < nl; ++l) {
            const GT *xp = x + (t + l) * L;
            int64_t s;
            if (fl >> l & 1)
                s = KFN(sfold)(g, xp, 1, prop, 0, g->in[0], 0, g->in[1], 0, g->in[2], y + t + l);
            else {
                y[t + l] = rv[l];
                s = !fe && !(rk[l] > ik) ? -1 : KFN(gl_find)(g, xp, L, rv[l]);
            }
            KFN(put_index)(p, g, ind, t + l, n, c, s, 0, 0, 0);
            if (++c == p->c) {
                c = 0;
                ++n;
            }
        }
    }
}

/* ---- with indices, one pass (f32; written for any type whose offset lanes
 * are as wide as its elements: f64, i32, i64 would take it too, left out
 * for the build time) ---------------------------------------------------- *
 * Each lane keeps its running best and that element's offset in the plane
 * (the reference's rule lane by lane: a later load replaces when greater, or
 * NaN under propagation; offsets grow load by load, the last, overlapping
 * load included, so a lane holds its first maximum / last NaN), then the
 * tree combines (key, offset) pairs: the greater key, on equal keys the
 * smaller offset (the first maximum: -0 before +0 keeps its bits), a NaN
 * (propagation) over any number, of two NaNs the larger offset (the last).
 * No element kept (nothing beat the start value): offset GEN_NONE, only
 * with the start value itself, so it never meets an equal key at an offset;
 * the two NaN cases it could meet (a NaN fixed start under propagation) take
 * gl_run. Under the first-element start the lanes start at the neutral value
 * with no offset: planes left with none (all neutral, or NaN ignored) and
 * planes whose first element is a NaN under NaN ignore are redone by the
 * scalar scan. Indices are stored per index type, the plane's base kept
 * from plane to plane. */
#if GEN_TYPE == GEN_F32
#define GLI_ON 1
#define GL_ALL (GL_LB * VN == 64 ? ~0ull : (1ull << (GL_LB * VN)) - 1) /* gl_bits of every lane */
#if GL_VB == 64 && defined(MAXPOOL_SIMDE) /* (SIMDe has no _mm512_cvtepu32_epi64: int64 lane by lane) */
#define GL_WIDE 0
#else
#define GL_WIDE 1
#endif

GAI GLI KFN(gl_ji)(VI v)
{
    GLI r;
    memcpy(&r, &v, sizeof r);
    return r;
}

GAI VI KFN(gl_jv)(GLI v)
{
    VI r;
    memcpy(&r, &v, sizeof r);
    return r;
}

/* One tree step on (key, offset) pairs: a, pa := the better of the even and
 * the odd units of u bytes of a then b (pa, pb likewise). */
GAI void KFN(gl_combi)(VT *a, VI *pa, VT b, VI pb, const int u, const int prop)
{
    const GLI ia = KFN(gl_bi)(*a), ib = KFN(gl_bi)(b), ja = KFN(gl_ji)(*pa), jb = KFN(gl_ji)(pb);
    const VT e = KFN(gl_bv)(KFN(gl_eo)(ia, ib, u, 0)), o = KFN(gl_bv)(KFN(gl_eo)(ia, ib, u, 1));
    const VI pe = KFN(gl_jv)(KFN(gl_eo)(ja, jb, u, 0)), po = KFN(gl_jv)(KFN(gl_eo)(ja, jb, u, 1));
    VM m = VM_OR(V_GTM(o, e), VM_ANDN(V_EQM(o, e), VI_GEM(po, pe)));
    if (prop)
        m = VM_OR(m, VM_ANDN(V_NANM(o), VM_AND(V_NANM(e), VI_GEM(pe, po))));
    *a = V_SEL(e, o, m);
    *pa = VI_SEL(pe, po, m);
}

/* Four planes' L elements lane by lane with their offsets (planes xs[j]
 * to b[j], q[j]), from a0 (no offset), the four chains side by side: nf =
 * L / VN whole loads in order, then the last VN elements (offsets it = io +
 * L - VN) when L is not a multiple of VN; io: the offsets 0 .. VN-1. Under NaN ignore the value is V_MAX's (x > b ? x : b),
 * one step of the chain. */
GAI void KFN(gl_acc4)(const KFN(geo) * g, const GT *const *xs, int64_t L, int64_t nf, VT a0, VT *b, VI *q, VM lm,
                      VT neu, VI io, VI it, const int prop)
{
    GEN_UNROLL for (int j = 0; j < 4; ++j) {
        b[j] = a0;
        q[j] = VI_SET1(GEN_NONE);
    }
#define GL_UP(j, x, at)                                                                                            \
    do {                                                                                                           \
        const VT x_ = (x);                                                                                         \
        VM m_ = V_GTM(x_, b[j]);                                                                                   \
        if (prop)                                                                                                  \
            m_ = VM_OR(m_, V_NANM(x_));                                                                            \
        b[j] = prop ? V_SEL(b[j], x_, m_) : V_MAX(b[j], x_);                                                       \
        q[j] = VI_SEL(q[j], (at), m_);                                                                             \
    } while (0)
    if (L < VN) {
        GEN_UNROLL for (int j = 0; j < 4; ++j)
            GL_UP(j, V_SEL(neu, KFN(gl_short)(g, xs[j], L), lm), io);
        return;
    }
    const int64_t e = nf * VN;
    VI at = io;
    const VI st = VI_SET1(VN);
    for (int64_t i = 0; i < e; i += VN) {
        GEN_UNROLL for (int j = 0; j < 4; ++j)
            GL_UP(j, V_LOAD(xs[j] + i), at);
        at = VI_ADD(at, st);
    }
    if (e < L)
        GEN_UNROLL for (int j = 0; j < 4; ++j)
            GL_UP(j, V_LOAD(xs[j] + L - VN), it);
#undef GL_UP
}

/* The group's indices (index type IT): offset s plus the plane's base bs;
 * GEN_NONE: put_index's empty rule; the first-element start's planes above:
 * the scalar scan. */
#define GL_PUTI(IT)                                                                                                \
    for (int l = 0; l < nl; ++l) {                                                                                 \
        const GT *xp = x + (t + l) * L;                                                                            \
        const VLANE s = lt[l];                                                                                     \
        if (fe && (s == GEN_NONE || (GFLOAT && !prop && GEN_ISNAN(GKEY(xp[0]))))) {                                \
            const int64_t w = KFN(sfold)(g, xp, 1, prop, 0, g->in[0], 0, g->in[1], 0, g->in[2], y + t + l);      \
            ((IT *)ind)[t + l] = (IT)(bs + w);                                                                     \
        } else if (s == GEN_NONE)                                                                                  \
            KFN(put_index)(p, g, ind, t + l, n, c, -1, 0, 0, 0);                                                   \
        else                                                                                                       \
            ((IT *)ind)[t + l] = (IT)(bs + (int64_t)s);                                                            \
        bs += p->idx_c;                                                                                            \
        if (++c == p->c) {                                                                                         \
            c = 0;                                                                                                 \
            bs = ++n * p->idx_n;                                                                                   \
        }                                                                                                          \
    }

GAI void KFN(gli_run)(const struct maxpool_plan *p, const KFN(geo) * g, const GT *x, GT *y, void *ind, int64_t t0,
                      int64_t t1, const int prop, const int i32)
{
    const int64_t L = g->in[0] * g->in[1] * g->in[2], nf = L / VN;
    const VT neu = V_SET1(g->neutral), a0 = g->fe ? neu : V_SET1(g->init);
    const int fe = g->fe;
    alignas(64) VLANE lv[VN];
    alignas(64) static const VLANE li[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    for (int l = 0; l < VN; ++l)
        lv[l] = l < L ? GEN_NONE : 0;
    const VM lm = VM_LANES(lv);
    const VI io = VI_LOAD(li), it = VI_ADD(io, VI_SET1(L - VN));
    VLANE cs[VN]; /* (the one-image index store: the lanes' bases from the first's) */
    for (int l = 0; l < VN; ++l)
        cs[l] = (VLANE)((uint64_t)l * (uint64_t)p->idx_c);
    const VI csv = VI_LOAD(cs);
#if (GEN_TYPE == GEN_F32 || GEN_TYPE == GEN_I32) && GL_WIDE /* (int64 indices: the bases of the lanes' halves) */
    GLI cw[2];
    {
        alignas(64) int64_t w[VN];
        for (int l = 0; l < VN; ++l)
            w[l] = l * p->idx_c;
        memcpy(cw, w, sizeof cw);
    }
#endif
    VT acc[VN / 2];
    VI pac[VN / 2];
    int64_t so[VN]; /* slot s of the tree: as gl_run's */
    for (int s = 0; s < VN; ++s)
        so[s] = ((s % GL_Q) * GL_P + s / GL_Q) * L;
    int64_t n = t0 / p->c, c = t0 % p->c, bs = n * p->idx_n + c * p->idx_c;
    for (int64_t t = t0; t < t1; t += VN) {
        const int nl = t1 - t < VN ? (int)(t1 - t) : VN;
        const GT *const xg = x + t * L;
        if (nl < VN)
            for (int s = 0; s < VN; ++s)
                if (so[s] >= nl * L)
                    so[s] = 0;
        for (int s = 0; s < VN; s += 4) { /* four planes at a time, with the tree's first step */
            const GT *const xs[4] = {xg + so[s], xg + so[s + 1], xg + so[s + 2], xg + so[s + 3]};
            VT v[4];
            VI q[4];
            KFN(gl_acc4)(g, xs, L, nf, a0, v, q, lm, neu, io, it, prop);
            KFN(gl_combi)(&v[0], &q[0], v[1], q[1], GL_VB / 2, prop);
            KFN(gl_combi)(&v[2], &q[2], v[3], q[3], GL_VB / 2, prop);
            acc[s / 2] = v[0];
            pac[s / 2] = q[0];
            acc[s / 2 + 1] = v[2];
            pac[s / 2 + 1] = q[2];
        }
        int m = VN / 2;
#define GL_LVL(u)                                                                                                  \
    if ((u) >= (int)sizeof(GKT) && (u) < GL_VB) {                                                                  \
        m /= 2;                                                                                                    \
        _Pragma("GCC unroll 2") for (int i = 0; i < m; ++i) {                                                      \
            acc[i] = acc[2 * i];                                                                                   \
            pac[i] = pac[2 * i];                                                                                   \
            KFN(gl_combi)(&acc[i], &pac[i], acc[2 * i + 1], pac[2 * i + 1], (u), prop);                            \
        }                                                                                                          \
    }
        GL_LVL(GL_VB == 64 ? 16 : 0)
        GL_LVL(8)
        GL_LVL(4)
#undef GL_LVL
        /* a whole group of one image whose lanes all beat the start: a vector store, the bases idx_c apart */
        if (!fe && nl == VN && c + nl <= p->c && (KFN(gl_bits)(V_GTM(acc[0], a0)) & GL_ALL) == GL_ALL &&
            ((sizeof(VLANE) == 4) == i32 || (sizeof(VLANE) == 4 && GL_WIDE))) {
            V_STORE(y + t, acc[0]);
            if ((sizeof(VLANE) == 4) == i32)
                VI_STORE((VLANE *)ind + t, VI_ADD(pac[0], VI_ADD(VI_SET1((VLANE)bs), csv)));
#if (GEN_TYPE == GEN_F32 || GEN_TYPE == GEN_I32) && GL_WIDE
            else { /* int64 from the 32-bit offsets (below 2^31) */
                int64_t *const io64 = (int64_t *)ind + t;
#if GL_VB == 64
                const __m512i b64 = _mm512_set1_epi64(bs);
                _mm512_storeu_si512(io64, _mm512_add_epi64(_mm512_add_epi64(_mm512_cvtepu32_epi64(_mm512_castsi512_si256(pac[0])), b64), cw[0]));
                _mm512_storeu_si512(io64 + 8, _mm512_add_epi64(_mm512_add_epi64(_mm512_cvtepu32_epi64(_mm512_extracti64x4_epi64(pac[0], 1)), b64), cw[1]));
#else
                const __m256i b64 = _mm256_set1_epi64x(bs);
                _mm256_storeu_si256((__m256i *)(void *)io64, _mm256_add_epi64(_mm256_add_epi64(_mm256_cvtepu32_epi64(_mm256_castsi256_si128(pac[0])), b64), cw[0]));
                _mm256_storeu_si256((__m256i *)(void *)(io64 + 4), _mm256_add_epi64(_mm256_add_epi64(_mm256_cvtepu32_epi64(_mm256_extracti128_si256(pac[0], 1)), b64), cw[1]));
#endif
            }
#endif
            bs += nl * p->idx_c;
            if ((c += nl) == p->c) {
                c = 0;
                bs = ++n * p->idx_n;
            }
            continue;
        }
        /* else lane by lane: groups across images, lanes of no offset, the first-element start */
        alignas(64) VLANE lt[VN];
        VI_STORE(lt, pac[0]);
        if (nl == VN)
            V_STORE(y + t, acc[0]);
        else
            V_STOREN(y + t, acc[0], nl);
        if (i32)
            GL_PUTI(int32_t)
        else
            GL_PUTI(int64_t)
    }
}
#undef GL_PUTI
#else
#define GLI_ON 0
#endif

/* gl_run with the NaN rule as a constant, out of line. */
__attribute__((noinline)) static void KFN(gl_task)(const struct maxpool_plan *p, const KFN(geo) * g, const GT *x,
                                                   GT *y, void *ind, int64_t t0, int64_t t1, int prop, int wi)
{
#if GLI_ON
    if (wi && g->in[0] * g->in[1] * g->in[2] <= INT32_MAX &&
        !(GFLOAT && prop && !g->fe && GEN_ISNAN(GKEY(g->init)))) { /* one pass (above) */
        const int i32 = p->desc.index_type == MAXPOOL_INDEX_I32;
        if (GFLOAT && prop)
            KFN(gli_run)(p, g, x, y, ind, t0, t1, 1, i32);
        else
            KFN(gli_run)(p, g, x, y, ind, t0, t1, 0, i32);
        return;
    }
#endif
    if (GFLOAT && prop)
        KFN(gl_run)(p, g, x, y, ind, t0, t1, 1, wi);
    else
        KFN(gl_run)(p, g, x, y, ind, t0, t1, 0, wi);
}
#undef GL_MX
