/* SPDX-License-Identifier: Apache-2.0 */
/*
 * 16-lane f32 / int32 vector vocabulary for the kernel templates (AVX-512:
 * F + BW + VL + DQ). Included by *_avx512.c files only (compiled with
 * -mavx512f -mavx512bw -mavx512vl -mavx512dq). Same names and meanings as
 * simd_f32_avx2.h; see there for the update rule.
 *
 * VF_SEL_GT(x, best) is _mm512_max_ps(x, best), "x > best ? x : best" (the
 * second operand is returned for NaN and for equal values, -0.0 vs +0.0
 * included): exactly the IGNORE rule, as with AVX2.
 *
 * Masks: the templates hold compare results as full-lane vector masks in a
 * VF (they AND / OR them, blend masks with masks, load them from int32
 * tables, build them from VI_SIGN). So the compares here turn the k-register
 * result into a vector (vpmovm2d), and the blends take the k-register back
 * from each lane's sign bit (vpmovd2m), which is what vblendvps looks at:
 * the same selects as the AVX2 vocabulary, lane for lane.
 *
 * Testing without AVX-512 hardware: with MAXPOOL_SIMDE defined (CMake option
 * MAXPOOL_AVX512_EMULATE, test builds only) the intrinsics come from SIMDe
 * (portable implementations with x86 semantics) instead of <immintrin.h>.
 * The few that the packaged SIMDe (0.7.4) lacks are defined below from their
 * Intel definitions, lane by lane.
 */
#ifdef MAXPOOL_SIMDE
#define SIMDE_ENABLE_NATIVE_ALIASES
#include <simde/x86/avx512.h>
/* The templates' helpers are always_inline (CF_AI) for speed. With every
 * intrinsic an inlined SIMDe body that takes GCC many minutes and GiB per
 * file; plain inline lets GCC choose (same C code, same results) and
 * compiles in seconds. */
#ifndef CF_AI
#define CF_AI static inline
#endif
#else
#include <immintrin.h>
#endif
#include <stdint.h>

#define VW 16
#define VF __m512
#define VI __m512i
#define VF_LOAD(p) _mm512_loadu_ps(p)
#define VF_STORE(p, v) _mm512_storeu_ps((p), (v))
#define VF_SET1(x) _mm512_set1_ps(x)
#define VI_LOAD(p) _mm512_loadu_si512((const void *)(p))
#define VI_STORE(p, v) _mm512_storeu_si512((void *)(p), (v))
#define VI_SET1(x) _mm512_set1_epi32(x)
#define VI_ADD(a, b) _mm512_add_epi32((a), (b))
#define VI_OR(a, b) _mm512_or_si512((a), (b))
#define VI_SIGN(a) _mm512_srai_epi32((a), 31)
#define VI_IOTA _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
#define VI_IOTA2 _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30)
#define VF_KVEC(k) _mm512_castsi512_ps(_mm512_movm_epi32(k))           /* k-mask -> full-lane vector mask */
#define VF_KMASK(m) _mm512_movepi32_mask(_mm512_castps_si512(m))       /* sign bit of each lane -> k-mask */
#define VF_GT(a, b) VF_KVEC(_mm512_cmp_ps_mask((a), (b), _CMP_GT_OQ)) /* ordered: false for NaN */
#define VF_ISNAN(a) VF_KVEC(_mm512_cmp_ps_mask((a), (a), _CMP_UNORD_Q))
#define VF_MOR(a, b) _mm512_or_ps((a), (b))
#define VF_BLEND(a, b, m) _mm512_mask_blend_ps(VF_KMASK(m), (a), (b)) /* m ? b : a */
#define VI_BLEND(a, b, m) _mm512_mask_blend_epi32(VF_KMASK(m), (a), (b))
#define VI_BLEND_IM(a, b, mi) _mm512_mask_blend_epi32(_mm512_movepi32_mask(mi), (a), (b)) /* mi (int mask) ? b : a */
#define VF_SEL_GT(x, best) _mm512_max_ps((x), (best))                                    /* x > best ? x : best */
/* The update rule's k-mask forms (f32_update_impl.h, the lines-first line
 * pass): the compare's k-register straight into the masked moves. Through
 * VF_GT / VF_BLEND, GCC 12 kept a vpmovm2d + vpmovd2m round trip per
 * update (two uops of six per tap and vector). */
#define VK_T __mmask16
#define VF_GT_K(a, b) _mm512_cmp_ps_mask((a), (b), _CMP_GT_OQ)
#define VF_ISNAN_K(a) _mm512_cmp_ps_mask((a), (a), _CMP_UNORD_Q)
#define VF_BLEND_K(a, b, k) _mm512_mask_mov_ps((a), (k), (b))    /* k ? b : a */
#define VI_BLEND_K(a, b, k) _mm512_mask_mov_epi32((a), (k), (b)) /* k ? b : a */
#define VF_DEINTERLEAVE simd_avx512_deinterleave
/* In-lane de-interleave of a = x[0..15], b = x[16..31]: vshufps works per
 * 128-bit lane, so 128-bit lane L of the even result holds x[4L], x[4L+2],
 * x[16+4L], x[16+4L+2], i.e. outputs 2L, 2L+1, 8+2L, 9+2L: the lanes come out
 * in the order 0 1 8 9 | 2 3 10 11 | 4 5 12 13 | 6 7 14 15 (of the outputs).
 * VI_IOTA2_INLANE is 2 * that order (the even taps' offsets); VF_FIX/VI_FIX
 * restore the natural order with one 64-bit permute (output pairs (0 1) ..
 * (14 15) sit at 64-bit slots 0 2 4 6 1 3 5 7). */
#define VF_DEINT_INLANE(a, b, ev, od)                                                                              \
    (*(ev) = _mm512_shuffle_ps((a), (b), _MM_SHUFFLE(2, 0, 2, 0)),                                              \
     *(od) = _mm512_shuffle_ps((a), (b), _MM_SHUFFLE(3, 1, 3, 1)))
#define VI_IOTA2_INLANE _mm512_setr_epi32(0, 2, 16, 18, 4, 6, 20, 22, 8, 10, 24, 26, 12, 14, 28, 30)
#define VI_FIXPERM _mm512_setr_epi64(0, 2, 4, 6, 1, 3, 5, 7)
#define VF_FIX(v) _mm512_castpd_ps(_mm512_permutexvar_pd(VI_FIXPERM, _mm512_castps_pd(v)))
#define VI_FIX(v) _mm512_permutexvar_epi64(VI_FIXPERM, (v))
#define VI_STORE_I64 simd_avx512_store_i64
#define VF_MASKLOAD simd_avx512_maskload
#define VF_MASKSTORE simd_avx512_maskstore
#define VF_GATHER(b, o) _mm512_i32gather_ps((o), (b), 4) /* b[o[i]] */
#define VI_ASF(a) _mm512_castsi512_ps(a)

#ifndef SIMD_F32_AVX512_FUNCS
#define SIMD_F32_AVX512_FUNCS

#ifdef MAXPOOL_SIMDE
/* Intrinsics missing from the packaged SIMDe, from Intel's definitions
 * (emulation builds only; on AVX-512 hardware these are the instructions).
 * The masked load reads only the lanes whose mask bit is set, as the
 * instruction (which never faults on masked-off lanes). */
typedef union {
    simde__m512 v;
    simde__m512i i;
    float f32[16];
    int32_t i32[16];
    int64_t i64[8];
} mp_emu512;
static inline simde__m512i mp_emu_srai_epi32(simde__m512i a, unsigned s)
{
    mp_emu512 u;
    u.i = a;
    if (s > 31)
        s = 31;
    for (int q = 0; q < 16; ++q) /* arithmetic shift: the sign fills (without relying on >> of negatives) */
        u.i32[q] = u.i32[q] < 0 ? ~(int32_t)(~(uint32_t)u.i32[q] >> s) : (int32_t)((uint32_t)u.i32[q] >> s);
    return u.i;
}
static inline simde__m512i mp_emu_cvtepi32_epi64(simde__m256i a)
{
    int32_t t[8];
    mp_emu512 r;
    simde_mm256_storeu_si256((simde__m256i *)(void *)t, a);
    for (int q = 0; q < 8; ++q)
        r.i64[q] = t[q];
    return r.i;
}
static inline simde__m512 mp_emu_maskz_loadu_ps(simde__mmask16 k, const void *p)
{
    mp_emu512 r;
    for (int q = 0; q < 16; ++q)
        r.f32[q] = (k >> q) & 1 ? ((const float *)p)[q] : 0.0f;
    return r.v;
}
static inline void mp_emu_mask_storeu_ps(void *p, simde__mmask16 k, simde__m512 v)
{
    mp_emu512 u;
    u.v = v;
    for (int q = 0; q < 16; ++q)
        if ((k >> q) & 1)
            ((float *)p)[q] = u.f32[q];
}
static inline simde__m512 mp_emu_i32gather_ps(simde__m512i o, const void *b, int scale)
{
    mp_emu512 u, r;
    u.i = o;
    for (int q = 0; q < 16; ++q)
        r.f32[q] = *(const float *)(const void *)((const char *)b + (int64_t)u.i32[q] * scale);
    return r.v;
}
static inline simde__m512i mp_emu_i32gather_epi32(simde__m512i o, const void *b, int scale)
{
    mp_emu512 u, r;
    u.i = o;
    for (int q = 0; q < 16; ++q)
        r.i32[q] = *(const int32_t *)(const void *)((const char *)b + (int64_t)u.i32[q] * scale);
    return r.i;
}
static inline void mp_emu_stream_ps(void *p, simde__m512 v)
{
    if ((uintptr_t)p % 64) /* vmovntps faults on an unaligned address: so does the emulation */
        __builtin_trap();
    simde_mm512_storeu_ps(p, v);
}
#undef _mm512_srai_epi32
#define _mm512_srai_epi32(a, s) mp_emu_srai_epi32((a), (s))
#undef _mm512_cvtepi32_epi64
#define _mm512_cvtepi32_epi64(a) mp_emu_cvtepi32_epi64(a)
#undef _mm512_maskz_loadu_ps
#define _mm512_maskz_loadu_ps(k, p) mp_emu_maskz_loadu_ps((k), (p))
#undef _mm512_mask_storeu_ps
#define _mm512_mask_storeu_ps(p, k, v) mp_emu_mask_storeu_ps((p), (k), (v))
#undef _mm512_i32gather_ps
#define _mm512_i32gather_ps(o, b, s) mp_emu_i32gather_ps((o), (b), (s))
#undef _mm512_i32gather_epi32
#define _mm512_i32gather_epi32(o, b, s) mp_emu_i32gather_epi32((o), (b), (s))
#undef _mm512_stream_ps
#define _mm512_stream_ps(p, v) mp_emu_stream_ps((p), (v))
#endif

/* a = x[0..15], b = x[16..31] -> *ev = x[0,2,..,30], *od = x[1,3,..,31] */
static inline __attribute__((always_inline)) void simd_avx512_deinterleave(__m512 a, __m512 b, __m512 *ev,
                                                                           __m512 *od)
{
    *ev = _mm512_permutex2var_ps(a, VI_IOTA2, b);
    *od = _mm512_permutex2var_ps(a, _mm512_add_epi32(VI_IOTA2, _mm512_set1_epi32(1)), b);
}
/* p[i] = base + v[i] as int64, i < 16; lanes with v < 0 become -1 when minus_one. */
static inline __attribute__((always_inline)) void simd_avx512_store_i64(int64_t *p, __m512i v, int64_t base,
                                                                        int minus_one)
{
    const __m512i b = _mm512_set1_epi64(base);
    const __m512i vlo = _mm512_cvtepi32_epi64(_mm512_castsi512_si256(v));
    const __m512i vhi = _mm512_cvtepi32_epi64(_mm512_extracti64x4_epi64(v, 1));
    __m512i lo = _mm512_add_epi64(vlo, b);
    __m512i hi = _mm512_add_epi64(vhi, b);
    if (minus_one) { /* the sign of the sign-extended v, all 64 bits */
        lo = _mm512_or_si512(lo, _mm512_movm_epi64(_mm512_movepi64_mask(vlo)));
        hi = _mm512_or_si512(hi, _mm512_movm_epi64(_mm512_movepi64_mask(vhi)));
    }
    _mm512_storeu_si512((void *)p, lo);
    _mm512_storeu_si512((void *)(p + 8), hi);
}
/* lanes < n, n in [0, 16] */
static inline __attribute__((always_inline)) __mmask16 simd_avx512_tailmask(int64_t n)
{
    return (__mmask16)((1u << (unsigned)n) - 1u);
}
/* loads lanes < n (others 0; masked-off lanes are not read and never fault) */
static inline __attribute__((always_inline)) __m512 simd_avx512_maskload(const float *p, int64_t n)
{
    return _mm512_maskz_loadu_ps(simd_avx512_tailmask(n), p);
}
static inline __attribute__((always_inline)) void simd_avx512_maskstore(float *p, int64_t n, __m512 v)
{
    _mm512_mask_storeu_ps(p, simd_avx512_tailmask(n), v);
}
#endif
