/* SPDX-License-Identifier: Apache-2.0 */
/* The type-generic kernels (gen_impl.h): the index store of the per-tap
 * and W-first forms. Included once by gen_impl.h, after gen_cf.h. */

/* The width of a VLANE (tap-number lane) in bits */
#if GEN_TYPE == GEN_I8 || GEN_TYPE == GEN_U8
#define GEN_VLBITS 8
#elif GEN_TYPE == GEN_I16 || GEN_TYPE == GEN_U16
#define GEN_VLBITS 16
#elif GEN_TYPE == GEN_F64 || GEN_TYPE == GEN_I64
#define GEN_VLBITS 64
#else
#define GEN_VLBITS 32
#endif

#ifdef __AVX2__
/* Tap numbers lt[0..3] as four 32-bit lanes (the low 32 bits: taps are
 * below GEN_TAPS_MAX, GEN_NONE's low bits are all ones). */
GAI __m128i KFN(cfi_t4)(const VLANE *lt)
{
#if GEN_VLBITS == 8
    int32_t b;
    memcpy(&b, lt, 4);
    return _mm_cvtepu8_epi32(_mm_cvtsi32_si128(b));
#elif GEN_VLBITS == 16
    return _mm_cvtepu16_epi32(_mm_loadl_epi64((const __m128i *)(const void *)lt));
#elif GEN_VLBITS == 32
    return _mm_loadu_si128((const __m128i *)(const void *)lt);
#else
    return _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)(const void *)lt),
                                                              _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6)));
#endif
}
#endif

/* The indices of nl lanes whose tap numbers are lt[] (the per-tap form's
 * VI lanes, stored): lane l's winner lies at spatial offset toff[lt[l]] +
 * sb + l*S, its index n*idx_n + c*idx_c + that, written at ind[at + l] as
 * the plan's index type; four lanes at a time through a gather from toff[]
 * (AVX2). Lanes without a position (GEN_NONE: nothing replaced the start
 * value) get a meaningless index here (their table entry is masked into
 * toff[]'s bounds); returns whether there are any, for the caller to write
 * their empty-window index. */
GAI int KFN(cfi_taps)(const struct maxpool_plan *p, void *ind, int64_t at, int64_t n, int64_t c, int64_t sb,
                      int64_t S, const int64_t *toff, const VLANE *lt, int64_t nl)
{
    const int64_t base = n * p->idx_n + c * p->idx_c + sb;
    const int i32 = p->desc.index_type == MAXPOOL_INDEX_I32;
    int none = 0;
    int64_t l = 0;
#ifdef __AVX2__
    {
        const __m128i nonev = _mm_set1_epi32((int32_t)(uint32_t)GEN_NONE), tm = _mm_set1_epi32(GEN_TAPS_MAX - 1);
        const __m256i step = _mm256_set1_epi64x(4 * S), lo = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
        __m256i bv = _mm256_add_epi64(_mm256_set1_epi64x(base), _mm256_setr_epi64x(0, S, 2 * S, 3 * S));
        for (; l + 4 <= nl; l += 4) {
            const __m128i t = KFN(cfi_t4)(lt + l);
            none |= _mm_movemask_epi8(_mm_cmpeq_epi32(t, nonev));
            const __m256i o = _mm256_add_epi64(
                _mm256_i32gather_epi64((const long long *)(const void *)toff, _mm_and_si128(t, tm), 8), bv);
            bv = _mm256_add_epi64(bv, step);
            if (i32)
                _mm_storeu_si128((__m128i *)(void *)((int32_t *)ind + at + l),
                                 _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(o, lo)));
            else
                _mm256_storeu_si256((__m256i *)(void *)((int64_t *)ind + at + l), o);
        }
        if (l < nl && VN % 4 == 0) { /* the last 1 to 3 lanes, masked (lt[] holds VN >= l + 4 lanes) */
            const __m128i t = KFN(cfi_t4)(lt + l);
            const __m128i lm = _mm_cmpgt_epi32(_mm_set1_epi32((int32_t)(nl - l)), _mm_setr_epi32(0, 1, 2, 3));
            none |= _mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi32(t, nonev), lm));
            const __m256i o = _mm256_add_epi64(
                _mm256_i32gather_epi64((const long long *)(const void *)toff, _mm_and_si128(t, tm), 8), bv);
            if (i32)
                _mm_maskstore_epi32((int32_t *)ind + at + l, lm,
                                    _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(o, lo)));
            else
                _mm256_maskstore_epi64((long long *)(void *)((int64_t *)ind + at + l), _mm256_cvtepi32_epi64(lm), o);
            l = nl;
        }
    }
#endif
    for (; l < nl; ++l) {
        const VLANE t = lt[l];
        /* wrapping as the vector adds: a lane without a tap reads an unused table entry, its value is dropped */
        const int64_t v = (int64_t)((uint64_t)base + (uint64_t)toff[t & (GEN_TAPS_MAX - 1)] + (uint64_t)(l * S));
        none |= t == GEN_NONE;
        if (i32)
            ((int32_t *)ind)[at + l] = (int32_t)v;
        else
            ((int64_t *)ind)[at + l] = v;
    }
    return none;
}

/* Lanes [0, nl) of the per-tap form's columns from o0 (cf_store with
 * indices), out of line: the values as a vector, the indices through the
 * row's tap table (GEN_CFPOS: the lanes' positions, lane by lane; cf_store
 * writes full vectors without NaN fixes or empty lanes itself); f16 NaN lanes (the scalar scan) and lanes without a tap
 * (the empty-window index) the scalar way. */
__attribute__((noinline)) static void KFN(cfi_store)(const struct maxpool_plan *p, const KFN(geo) * g,
                                                     const KFN(row) * w, int64_t o0, int64_t nl, VT best, VI bt,
                                                     int prop)
{
    alignas(64) VLANE lt[VN];
    const uint64_t fix = (uint64_t)V_NANFIX(best);
    if (nl == VN)
        V_STORE(w->yr + o0, best);
    else
        V_STOREN(w->yr + o0, best, nl);
    VI_STORE(lt, bt);
#if GEN_CFPOS /* the lanes hold positions (gen_cf.h): lane by lane */
    for (int64_t l = 0; l < nl; ++l) {
        const int64_t o = o0 + l;
        if ((fix >> l) & 1)
            KFN(cf_put)(p, g, w, o, g->init, -1, 1, prop, 1);
        else
            KFN(put_index)(p, g, w->ind, w->yoff + o, w->n, w->c,
                           lt[l] == GEN_NONE ? -1 : w->tb + g->v0 + o * g->S + (int64_t)lt[l], w->s0, w->s1,
                           g->st[2][o]);
    }
    return;
#endif
    if (!KFN(cfi_taps)(p, w->ind, w->yoff + o0, w->n, w->c, w->tb + g->v0 + o0 * g->S, g->S, w->toff, lt, nl) &&
        !fix)
        return;
    for (int64_t l = 0; l < nl; ++l) {
        const int64_t o = o0 + l;
        if ((fix >> l) & 1)
            KFN(cf_put)(p, g, w, o, g->init, -1, 1, prop, 1);
        else if (lt[l] == GEN_NONE)
            KFN(put_index)(p, g, w->ind, w->yoff + o, w->n, w->c, -1, w->s0, w->s1, g->st[2][o]);
    }
}
