/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The thin vector layer of the type-generic kernels (gen_impl.h) for
 * AVX-512 (F + BW + VL + DQ): one block per element type, chosen by GEN_TYPE
 * (gen_types.h). The same names and meanings as vt_avx2.h (see there); the
 * masks are k-registers. Included by the gen_<type>_avx512.c files only.
 *
 * Testing without AVX-512 hardware: with MAXPOOL_SIMDE defined (CMake option
 * MAXPOOL_AVX512_EMULATE, test builds only) the intrinsics come from SIMDe.
 */
#include "gen_types.h"

#ifdef MAXPOOL_SIMDE
#define SIMDE_ENABLE_NATIVE_ALIASES
#include <simde/x86/avx512.h>
#include <string.h>
#else
#include <immintrin.h>
#endif
#include <stdint.h>

#if GEN_TYPE == GEN_F64
#define GT double
#define GKT double
#define GKEY(v) (v)
#define GFLOAT 1
#define VN 8
#define VT __m512d
#define VI __m512i
#define VM __mmask8
#define VLANE uint64_t
#define V_LOAD(p) _mm512_loadu_pd(p)
#define V_STORE(p, v) _mm512_storeu_pd((p), (v))
#define V_STREAM(p, v) _mm512_stream_pd((p), (v)) /* (p 64-byte aligned) */
#define V_NANFIX(v) 0
#define V_SET1(e) _mm512_set1_pd(e)
#define V_MAX(b, x) _mm512_max_pd((x), (b))
#define V_MAXP(b, x) _mm512_mask_blend_pd(V_NANM(x), _mm512_max_pd((x), (b)), (x))
#define V_GTM(x, b) _mm512_cmp_pd_mask((x), (b), _CMP_GT_OQ)
#define V_NANM(x) _mm512_cmp_pd_mask((x), (x), _CMP_UNORD_Q)
#define V_SEL(a, b, m) _mm512_mask_blend_pd((m), (a), (b))
#define VI_SEL(a, b, m) _mm512_mask_blend_epi64((m), (a), (b))
#define VI_SET1(t) _mm512_set1_epi64((int64_t)(t))
#define VM_LANES(p)                                                                                                \
    _mm512_test_epi64_mask(_mm512_loadu_si512((const void *)(p)), _mm512_loadu_si512((const void *)(p)))
#define V_EVEN(a, b) _mm512_permutex2var_pd((a), _mm512_setr_epi64(0, 2, 4, 6, 8, 10, 12, 14), (b))

#elif GEN_KEYS_PS
#if GEN_TYPE == GEN_F32
#define GT float
#else
#define GT uint16_t
#endif
#define GKT float
#define GFLOAT 1
#define VN 16
#define VT __m512
#define VI __m512i
#define VM __mmask16
#define VLANE uint32_t
#ifdef MAXPOOL_SIMDE
/* SIMDe has no 512-bit conversions between 16- and 32-bit lanes: the
 * emulation build (AVX2 + F16C) goes through two 256-bit halves */
static inline __m512 gen_f16_load(const uint16_t *p)
{
    float t[16];
    _mm256_storeu_ps(t, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(const void *)p)));
    _mm256_storeu_ps(t + 8, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(const void *)(p + 8))));
    return _mm512_loadu_ps(t);
}
static inline void gen_f16_store(uint16_t *p, __m512 v)
{
    float t[16];
    _mm512_storeu_ps(t, v);
    _mm_storeu_si128((__m128i *)(void *)p, _mm256_cvtps_ph(_mm256_loadu_ps(t), _MM_FROUND_TO_NEAREST_INT));
    _mm_storeu_si128((__m128i *)(void *)(p + 8), _mm256_cvtps_ph(_mm256_loadu_ps(t + 8), _MM_FROUND_TO_NEAREST_INT));
}
static inline __m512 gen_bf16_load(const uint16_t *p)
{
    uint32_t t[16];
    for (int i = 0; i < 16; ++i)
        t[i] = (uint32_t)p[i] << 16;
    return _mm512_castsi512_ps(_mm512_loadu_si512((const void *)t));
}
static inline void gen_bf16_store(uint16_t *p, __m512 v)
{
    uint32_t t[16];
    _mm512_storeu_si512((void *)t, _mm512_castps_si512(v));
    for (int i = 0; i < 16; ++i)
        p[i] = (uint16_t)(t[i] >> 16);
}
#endif
#if GEN_TYPE == GEN_F32
#define GKEY(v) (v)
#define V_LOAD(p) _mm512_loadu_ps(p)
#define V_STORE(p, v) _mm512_storeu_ps((p), (v))
#define V_STREAM(p, v) _mm512_stream_ps((p), (v))
#define V_NANFIX(v) 0
#define V_SET1(e) _mm512_set1_ps(e)
#elif GEN_TYPE == GEN_F16
#define GKEY(v) _cvtsh_ss(v)
#ifdef MAXPOOL_SIMDE
#define V_LOAD(p) gen_f16_load((const uint16_t *)(p))
#define V_STORE(p, v) gen_f16_store((uint16_t *)(p), (v))
#else
#define V_LOAD(p) _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)(const void *)(p)))
#define V_STORE(p, v)                                                                                              \
    _mm256_storeu_si256((__m256i *)(void *)(p), _mm512_cvtps_ph((v), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC))
#endif
#define V_NANFIX(v) ((int)V_NANM(v))
#define V_SET1(e) _mm512_set1_ps(_cvtsh_ss(e))
#else
static inline float gen_bf16_key(uint16_t b)
{
    return _mm_cvtss_f32(_mm_castsi128_ps(_mm_cvtsi32_si128((int)((uint32_t)b << 16))));
}
#define GKEY(v) gen_bf16_key(v)
#ifdef MAXPOOL_SIMDE
#define V_LOAD(p) gen_bf16_load((const uint16_t *)(p))
#define V_STORE(p, v) gen_bf16_store((uint16_t *)(p), (v))
#else
#define V_LOAD(p)                                                                                                  \
    _mm512_castsi512_ps(                                                                                           \
        _mm512_slli_epi32(_mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i *)(const void *)(p))), 16))
#define V_STORE(p, v)                                                                                              \
    _mm256_storeu_si256((__m256i *)(void *)(p), _mm512_cvtepi32_epi16(_mm512_srli_epi32(_mm512_castps_si512(v), 16)))
#endif
#define V_NANFIX(v) 0
#define V_SET1(e) _mm512_set1_ps(gen_bf16_key(e))
/* V_LOAD2 / V_FIX2 / VI_FIX2: as vt_avx2.h's (a: elements 0-3, 8-11,
 * 16-19, 24-27 of p; b: 4-7, 12-15, 20-23, 28-31), the fix one vpermt2q
 * per vector */
#define V_LOAD2(p, a, b)                                                                                           \
    do {                                                                                                           \
        const __m512i r2_ = _mm512_loadu_si512((const void *)(p)), z2_ = _mm512_setzero_si512();                  \
        *(a) = _mm512_castsi512_ps(_mm512_unpacklo_epi16(z2_, r2_));                                              \
        *(b) = _mm512_castsi512_ps(_mm512_unpackhi_epi16(z2_, r2_));                                              \
    } while (0)
#define VI_FIX2(a, b)                                                                                              \
    do {                                                                                                           \
        const __m512i a2_ = *(a);                                                                                  \
        *(a) = _mm512_permutex2var_epi64(a2_, _mm512_setr_epi64(0, 1, 8, 9, 2, 3, 10, 11), *(b));                 \
        *(b) = _mm512_permutex2var_epi64(a2_, _mm512_setr_epi64(4, 5, 12, 13, 6, 7, 14, 15), *(b));               \
    } while (0)
#define V_FIX2(a, b)                                                                                               \
    do {                                                                                                           \
        __m512i a3_ = _mm512_castps_si512(*(a)), b3_ = _mm512_castps_si512(*(b));                                 \
        VI_FIX2(&a3_, &b3_);                                                                                       \
        *(a) = _mm512_castsi512_ps(a3_);                                                                           \
        *(b) = _mm512_castsi512_ps(b3_);                                                                           \
    } while (0)
#endif
#define V_MAX(b, x) _mm512_max_ps((x), (b))
#define V_MAXP(b, x) _mm512_mask_blend_ps(V_NANM(x), _mm512_max_ps((x), (b)), (x))
#define V_GTM(x, b) _mm512_cmp_ps_mask((x), (b), _CMP_GT_OQ)
#define V_NANM(x) _mm512_cmp_ps_mask((x), (x), _CMP_UNORD_Q)
#define V_SEL(a, b, m) _mm512_mask_blend_ps((m), (a), (b))
#define VI_SEL(a, b, m) _mm512_mask_blend_epi32((m), (a), (b))
#define VI_SET1(t) _mm512_set1_epi32((int32_t)(t))
#define VM_LANES(p)                                                                                                \
    _mm512_test_epi32_mask(_mm512_loadu_si512((const void *)(p)), _mm512_loadu_si512((const void *)(p)))
#define V_EVEN(a, b)                                                                                               \
    _mm512_permutex2var_ps((a), _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30), (b))
#define V_ODD(a, b)                                                                                                \
    _mm512_permutex2var_ps((a), _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31), (b))
#define V_AL1(a, b)                                                                                                \
    _mm512_permutex2var_ps((a), _mm512_setr_epi32(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16), (b))

#else /* the integers: native lanes */
#define GFLOAT 0
#define GKEY(v) (v)
#define VT __m512i
#define VI __m512i
#define V_LOAD(p) _mm512_loadu_si512((const void *)(p))
#define V_STORE(p, v) _mm512_storeu_si512((void *)(p), (v))
#define V_STREAM(p, v) _mm512_stream_si512((void *)(p), (v))
#define V_NANFIX(v) 0
#define V_MAXP(b, x) V_MAX(b, x)
#define V_NANM(x) ((VM)0)
#if GEN_TYPE == GEN_I8 || GEN_TYPE == GEN_U8
#define VN 64
#define VM __mmask64
#define VLANE uint8_t
#define V_SEL(a, b, m) _mm512_mask_blend_epi8((m), (a), (b))
#define VI_SEL(a, b, m) _mm512_mask_blend_epi8((m), (a), (b))
#define VI_SET1(t) _mm512_set1_epi8((char)(t))
#define VM_LANES(p)                                                                                                \
    _mm512_test_epi8_mask(_mm512_loadu_si512((const void *)(p)), _mm512_loadu_si512((const void *)(p)))
#define V_EVEN(a, b)                                                                                               \
    _mm512_permutexvar_epi64(_mm512_setr_epi64(0, 2, 4, 6, 1, 3, 5, 7),                                          \
                             _mm512_packus_epi16(_mm512_and_si512((a), _mm512_set1_epi16(0xFF)),                  \
                                                 _mm512_and_si512((b), _mm512_set1_epi16(0xFF))))
#if GEN_TYPE == GEN_I8
#define GT int8_t
#define GKT int8_t
#define V_SET1(e) _mm512_set1_epi8(e)
#define V_MAX(b, x) _mm512_max_epi8((x), (b))
#define V_GTM(x, b) _mm512_cmpgt_epi8_mask((x), (b))
#else
#define GT uint8_t
#define GKT uint8_t
#define V_SET1(e) _mm512_set1_epi8((char)(e))
#define V_MAX(b, x) _mm512_max_epu8((x), (b))
#define V_GTM(x, b) _mm512_cmpgt_epu8_mask((x), (b))
#endif
#elif GEN_TYPE == GEN_I16 || GEN_TYPE == GEN_U16
#define VN 32
#define VM __mmask32
#define VLANE uint16_t
#define V_SEL(a, b, m) _mm512_mask_blend_epi16((m), (a), (b))
#define VI_SEL(a, b, m) _mm512_mask_blend_epi16((m), (a), (b))
#define VI_SET1(t) _mm512_set1_epi16((short)(t))
#define VM_LANES(p)                                                                                                \
    _mm512_test_epi16_mask(_mm512_loadu_si512((const void *)(p)), _mm512_loadu_si512((const void *)(p)))
#define V_EVEN(a, b)                                                                                               \
    _mm512_permutex2var_epi16((a),                                                                                 \
                              _mm512_setr_epi32(0x00020000, 0x00060004, 0x000A0008, 0x000E000C, 0x00120010,     \
                                                0x00160014, 0x001A0018, 0x001E001C, 0x00220020, 0x00260024,     \
                                                0x002A0028, 0x002E002C, 0x00320030, 0x00360034, 0x003A0038,     \
                                                0x003E003C),                                                     \
                              (b))
#if GEN_TYPE == GEN_I16
#define GT int16_t
#define GKT int16_t
#define V_SET1(e) _mm512_set1_epi16(e)
#define V_MAX(b, x) _mm512_max_epi16((x), (b))
#ifdef MAXPOOL_SIMDE /* SIMDe has no 16-bit greater-than mask; not less-or-equal instead */
#define V_GTM(x, b) ((__mmask32)~_mm512_cmple_epi16_mask((x), (b)))
#else
#define V_GTM(x, b) _mm512_cmpgt_epi16_mask((x), (b))
#endif
#else
#define GT uint16_t
#define GKT uint16_t
#define V_SET1(e) _mm512_set1_epi16((short)(e))
#define V_MAX(b, x) _mm512_max_epu16((x), (b))
#ifdef MAXPOOL_SIMDE /* as i16, on the values with the sign bit flipped */
#define V_GTM(x, b)                                                                                                \
    ((__mmask32)~_mm512_cmple_epi16_mask(_mm512_xor_si512((x), _mm512_set1_epi16(-32768)),                        \
                                         _mm512_xor_si512((b), _mm512_set1_epi16(-32768))))
#else
#define V_GTM(x, b) _mm512_cmpgt_epu16_mask((x), (b))
#endif
#endif
#elif GEN_TYPE == GEN_I32
#define GT int32_t
#define GKT int32_t
#define VN 16
#define VM __mmask16
#define VLANE uint32_t
#define V_SEL(a, b, m) _mm512_mask_blend_epi32((m), (a), (b))
#define VI_SEL(a, b, m) _mm512_mask_blend_epi32((m), (a), (b))
#define VI_SET1(t) _mm512_set1_epi32((int32_t)(t))
#define VM_LANES(p)                                                                                                \
    _mm512_test_epi32_mask(_mm512_loadu_si512((const void *)(p)), _mm512_loadu_si512((const void *)(p)))
#define V_SET1(e) _mm512_set1_epi32(e)
#define V_MAX(b, x) _mm512_max_epi32((x), (b))
#define V_GTM(x, b) _mm512_cmpgt_epi32_mask((x), (b))
#define V_EVEN(a, b)                                                                                               \
    _mm512_permutex2var_epi32((a), _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30), (b))
#elif GEN_TYPE == GEN_I64
#define GT int64_t
#define GKT int64_t
#define VN 8
#define VM __mmask8
#define VLANE uint64_t
#define V_SEL(a, b, m) _mm512_mask_blend_epi64((m), (a), (b))
#define VI_SEL(a, b, m) _mm512_mask_blend_epi64((m), (a), (b))
#define VI_SET1(t) _mm512_set1_epi64((int64_t)(t))
#define VM_LANES(p)                                                                                                \
    _mm512_test_epi64_mask(_mm512_loadu_si512((const void *)(p)), _mm512_loadu_si512((const void *)(p)))
#define V_SET1(e) _mm512_set1_epi64(e)
#define V_MAX(b, x) _mm512_max_epi64((x), (b))
#define V_GTM(x, b) _mm512_cmpgt_epi64_mask((x), (b))
#define V_EVEN(a, b) _mm512_permutex2var_epi64((a), _mm512_setr_epi64(0, 2, 4, 6, 8, 10, 12, 14), (b))
#else
#error "vt_avx512.h: GEN_TYPE names no element type"
#endif
#endif

#define VM_OR(a, b) ((VM)((a) | (b)))
#define VI_STORE(p, v) _mm512_storeu_si512((void *)(p), (v))

/* 32-bit VI lanes holding window positions: VI_POS_NONE, VI_POS_ST64,
 * VI_POS_ST32 (vt_avx2.h) */
#if GEN_KEYS_PS || GEN_TYPE == GEN_I32
#define VI_POS_NONE(v) (_mm512_cmpeq_epi32_mask((v), _mm512_set1_epi32(-1)) != 0)
/* (zero-extended through a two-source permute with a zero vector: SIMDe has no _mm512_cvtepu32_epi64) */
#define VI_POS_ST64(p, v, b, S)                                                                                    \
    do {                                                                                                           \
        const __m512i b0_ = _mm512_add_epi64(                                                                      \
            _mm512_set1_epi64(b), _mm512_set_epi64(7 * (S), 6 * (S), 5 * (S), 4 * (S), 3 * (S), 2 * (S), (S), 0)); \
        const __m512i z_ = _mm512_setzero_si512();                                                                 \
        _mm512_storeu_si512(                                                                                       \
            (void *)(p),                                                                                           \
            _mm512_add_epi64(_mm512_permutex2var_epi32(                                                            \
                                 (v), _mm512_setr_epi32(0, 16, 1, 16, 2, 16, 3, 16, 4, 16, 5, 16, 6, 16, 7, 16), z_), \
                             b0_));                                                                                \
        _mm512_storeu_si512((void *)((p) + 8),                                                                     \
                            _mm512_add_epi64(_mm512_permutex2var_epi32((v),                                        \
                                                                       _mm512_setr_epi32(8, 16, 9, 16, 10, 16, 11, \
                                                                                         16, 12, 16, 13, 16, 14,   \
                                                                                         16, 15, 16),              \
                                                                       z_),                                        \
                                             _mm512_add_epi64(b0_, _mm512_set1_epi64(8 * (S)))));                \
    } while (0)
#define VI_POS_ST32(p, v, b, S)                                                                                    \
    _mm512_storeu_si512((void *)(p),                                                                               \
                        _mm512_add_epi32((v), _mm512_add_epi32(_mm512_set1_epi32((int32_t)(b)),                    \
                                                               _mm512_set_epi32(15 * (S), 14 * (S), 13 * (S),      \
                                                                                12 * (S), 11 * (S), 10 * (S),      \
                                                                                9 * (S), 8 * (S), 7 * (S), 6 * (S), \
                                                                                5 * (S), 4 * (S), 3 * (S), 2 * (S), \
                                                                                (S), 0))))
#endif

#if defined(MAXPOOL_SIMDE) && defined(V_STREAM) /* SIMDe has no streaming stores: plain ones (same results) */
#undef V_STREAM
#define V_STREAM(p, v) V_STORE(p, v)
#endif

/* V_STOREN (gen_impl.h): the first nl < VN lanes, a masked store */
#ifndef MAXPOOL_SIMDE
#define GEN_NMASK(nl) (((uint64_t)1 << (nl)) - 1)
#if GEN_TYPE == GEN_F64
#define V_STOREN(p, v, nl) _mm512_mask_storeu_pd((p), (__mmask8)GEN_NMASK(nl), (v))
#elif GEN_TYPE == GEN_F32
#define V_STOREN(p, v, nl) _mm512_mask_storeu_ps((p), (__mmask16)GEN_NMASK(nl), (v))
#elif GEN_TYPE == GEN_F16
#define V_STOREN(p, v, nl)                                                                                         \
    _mm256_mask_storeu_epi16((void *)(p), (__mmask16)GEN_NMASK(nl),                                                \
                             _mm512_cvtps_ph((v), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC))
#elif GEN_TYPE == GEN_BF16
#define V_STOREN(p, v, nl)                                                                                         \
    _mm256_mask_storeu_epi16((void *)(p), (__mmask16)GEN_NMASK(nl),                                                \
                             _mm512_cvtepi32_epi16(_mm512_srli_epi32(_mm512_castps_si512(v), 16)))
#elif GEN_TYPE == GEN_I8 || GEN_TYPE == GEN_U8
#define V_STOREN(p, v, nl) _mm512_mask_storeu_epi8((void *)(p), (__mmask64)GEN_NMASK(nl), (v))
#elif GEN_TYPE == GEN_I16 || GEN_TYPE == GEN_U16
#define V_STOREN(p, v, nl) _mm512_mask_storeu_epi16((void *)(p), (__mmask32)GEN_NMASK(nl), (v))
#elif GEN_TYPE == GEN_I32
#define V_STOREN(p, v, nl) _mm512_mask_storeu_epi32((void *)(p), (__mmask16)GEN_NMASK(nl), (v))
#else
#define V_STOREN(p, v, nl) _mm512_mask_storeu_epi64((void *)(p), (__mmask8)GEN_NMASK(nl), (v))
#endif
#endif

/* VK_STORE(p, v) / VK_LOAD(p): the keys themselves (f16, bf16: as f32) to / from a GKT array */
#if GEN_KEYS_PS
#define VK_STORE(p, v) _mm512_storeu_ps((p), (v))
#define VK_LOAD(p) _mm512_loadu_ps(p)
#else
#define VK_STORE(p, v) V_STORE(p, v)
#define VK_LOAD(p) V_LOAD(p)
#endif

/* The lines-first form's vector pass (gen_lf.h): V_EQM, VI_LOAD, VI_ADD,
 * VI_GEM, VM_AND, VM_ANDN, VI_EVEN, VI_UPD, as in vt_avx2.h */
#define VI_LOAD(p) _mm512_loadu_si512((const void *)(p))
#define VI_UPD(b, t, m) VI_SEL(b, t, m)
#if GEN_TYPE == GEN_F64
#define VI_EVEN(a, b) _mm512_castpd_si512(V_EVEN(_mm512_castsi512_pd(a), _mm512_castsi512_pd(b)))
#elif GEN_KEYS_PS
#define VI_EVEN(a, b) _mm512_castps_si512(V_EVEN(_mm512_castsi512_ps(a), _mm512_castsi512_ps(b)))
#else
#define VI_EVEN(a, b) V_EVEN(a, b)
#endif
#define VM_AND(a, b) ((VM)((a) & (b)))
#define VM_ANDN(a, b) ((VM)((a) & ~(b)))
#if GEN_TYPE == GEN_F64
#define V_EQM(a, b) _mm512_cmp_pd_mask((a), (b), _CMP_EQ_OQ)
#define VI_GEM(a, b) _mm512_cmpge_epu64_mask((a), (b))
#define VI_ADD(a, b) _mm512_add_epi64((a), (b))
#elif GEN_KEYS_PS
#define V_EQM(a, b) _mm512_cmp_ps_mask((a), (b), _CMP_EQ_OQ)
#define VI_GEM(a, b) _mm512_cmpge_epu32_mask((a), (b))
#define VI_ADD(a, b) _mm512_add_epi32((a), (b))
#elif GEN_TYPE == GEN_I8 || GEN_TYPE == GEN_U8
#define V_EQM(a, b) _mm512_cmpeq_epi8_mask((a), (b))
#define VI_GEM(a, b) _mm512_cmpge_epu8_mask((a), (b))
#define VI_ADD(a, b) _mm512_add_epi8((a), (b))
#elif GEN_TYPE == GEN_I16 || GEN_TYPE == GEN_U16
#ifdef MAXPOOL_SIMDE /* SIMDe has no 16-bit equality mask */
#define V_EQM(a, b) ((__mmask32)(_mm512_cmpge_epi16_mask((a), (b)) & _mm512_cmple_epi16_mask((a), (b))))
#else
#define V_EQM(a, b) _mm512_cmpeq_epi16_mask((a), (b))
#endif
#define VI_GEM(a, b) _mm512_cmpge_epu16_mask((a), (b))
#define VI_ADD(a, b) _mm512_add_epi16((a), (b))
#elif GEN_TYPE == GEN_I32
#define V_EQM(a, b) _mm512_cmpeq_epi32_mask((a), (b))
#define VI_GEM(a, b) _mm512_cmpge_epu32_mask((a), (b))
#define VI_ADD(a, b) _mm512_add_epi32((a), (b))
#else
#define V_EQM(a, b) _mm512_cmpeq_epi64_mask((a), (b))
#define VI_GEM(a, b) _mm512_cmpge_epu64_mask((a), (b))
#define VI_ADD(a, b) _mm512_add_epi64((a), (b))
#endif

/* The integers (gen_vf.h, lines first with the W pass on the combined line):
 *   V_ODD(a, b)  lanes 1, 3, 5, ... of the 2*VN lanes a then b
 *   V_AL1(a, b)  lanes 1 .. VN-1 of a, then lane 0 of b
 * (SIMDe has no alignr: there V_AL1 of 8- and 16-bit lanes shifts 64-bit lanes) */
#if !GFLOAT
#if GEN_TYPE == GEN_I8 || GEN_TYPE == GEN_U8 || GEN_TYPE == GEN_I16 || GEN_TYPE == GEN_U16
#if GEN_TYPE == GEN_I8 || GEN_TYPE == GEN_U8
#define V_ODD(a, b)                                                                                                \
    _mm512_permutexvar_epi64(_mm512_setr_epi64(0, 2, 4, 6, 1, 3, 5, 7),                                          \
                             _mm512_packus_epi16(_mm512_srli_epi16((a), 8), _mm512_srli_epi16((b), 8)))
#else
#define V_ODD(a, b)                                                                                                \
    _mm512_permutex2var_epi16((a),                                                                                 \
                              _mm512_setr_epi32(0x00030001, 0x00070005, 0x000B0009, 0x000F000D, 0x00130011,     \
                                                0x00170015, 0x001B0019, 0x001F001D, 0x00230021, 0x00270025,     \
                                                0x002B0029, 0x002F002D, 0x00330031, 0x00370035, 0x003B0039,     \
                                                0x003F003D),                                                     \
                              (b))
#endif
/* V_EO(a, b, e, o): e = V_EVEN(a, b), o = V_ODD(a, b) together: each 128-bit lane's even elements to its
 * low half, the odd ones to its high half (vpshufb), then one 64-bit two-source permute each */
#if GEN_TYPE == GEN_I8 || GEN_TYPE == GEN_U8
#define V_DEI_IDX                                                                                                  \
    _mm512_broadcast_i32x4(_mm_setr_epi8(0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15))
#else
#define V_DEI_IDX                                                                                                  \
    _mm512_broadcast_i32x4(_mm_setr_epi8(0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15))
#endif
#define V_EO(a, b, e, o)                                                                                           \
    do {                                                                                                           \
        const __m512i da_ = _mm512_shuffle_epi8((a), V_DEI_IDX), db_ = _mm512_shuffle_epi8((b), V_DEI_IDX);       \
        (e) = _mm512_permutex2var_epi64(da_, _mm512_setr_epi64(0, 2, 4, 6, 8, 10, 12, 14), db_);                  \
        (o) = _mm512_permutex2var_epi64(da_, _mm512_setr_epi64(1, 3, 5, 7, 9, 11, 13, 15), db_);                  \
    } while (0)
#ifdef MAXPOOL_SIMDE
#define V_AL1(a, b)                                                                                                \
    _mm512_or_si512(_mm512_srli_epi64((a), 8 * (int)sizeof(GT)),                                                   \
                    _mm512_slli_epi64(_mm512_permutex2var_epi64((a), _mm512_setr_epi64(1, 2, 3, 4, 5, 6, 7, 8), (b)), \
                                      64 - 8 * (int)sizeof(GT)))
#else
#define V_AL1(a, b) _mm512_alignr_epi8(_mm512_alignr_epi64((b), (a), 2), (a), (int)sizeof(GT))
#endif
#elif GEN_TYPE == GEN_I32
#define V_ODD(a, b)                                                                                                \
    _mm512_permutex2var_epi32((a), _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31), (b))
#define V_AL1(a, b)                                                                                                \
    _mm512_permutex2var_epi32((a), _mm512_setr_epi32(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16), (b))
#else
#define V_ODD(a, b) _mm512_permutex2var_epi64((a), _mm512_setr_epi64(1, 3, 5, 7, 9, 11, 13, 15), (b))
#define V_AL1(a, b) _mm512_permutex2var_epi64((a), _mm512_setr_epi64(1, 2, 3, 4, 5, 6, 7, 8), (b))
#endif
#endif

/* The 8- and 16-bit integers' planes-across-lanes form (gen_cb.h): as in vt_avx2.h, four 128-bit blocks */
#if !GFLOAT && (GEN_TYPE == GEN_I8 || GEN_TYPE == GEN_U8 || GEN_TYPE == GEN_I16 || GEN_TYPE == GEN_U16)
#define GEN_CB 1
#define VC_SB 2
#if GEN_TYPE == GEN_I8 || GEN_TYPE == GEN_U8
#define VC_UNLO(a, b) _mm512_unpacklo_epi8((a), (b))
#define VC_UNHI(a, b) _mm512_unpackhi_epi8((a), (b))
#else
#define VC_UNLO(a, b) _mm512_unpacklo_epi16((a), (b))
#define VC_UNHI(a, b) _mm512_unpackhi_epi16((a), (b))
#endif
#define VC_BLO(a, b) _mm512_permutex2var_epi64((a), _mm512_setr_epi64(0, 1, 8, 9, 2, 3, 10, 11), (b))
#define VC_BHI(a, b) _mm512_permutex2var_epi64((a), _mm512_setr_epi64(4, 5, 12, 13, 6, 7, 14, 15), (b))
#endif

/* f16, bf16 on the integers' lines-first form (gen_vf.h, checked keys): the
 * raw bits as 16-bit integers, 32 lanes (the i16 block's ops) */
#if (GEN_TYPE == GEN_F16 || GEN_TYPE == GEN_BF16) && !defined(GEN_VF)
#define GEN_VF 1
#define VF_CHK 1
#define VF_T __m512i
#define VF_N 32
#define VF_M __mmask32
#define VF_LANE uint16_t
#define VF_MLANES(p)                                                                                               \
    _mm512_test_epi16_mask(_mm512_loadu_si512((const void *)(p)), _mm512_loadu_si512((const void *)(p)))
#define VF_LOAD(p) _mm512_loadu_si512((const void *)(p))
#define VF_STORE(p, v) _mm512_storeu_si512((void *)(p), (v))
#ifdef MAXPOOL_SIMDE
#define VF_STOREN(p, v, nl)                                                                                        \
    do {                                                                                                           \
        alignas(64) uint16_t t_[32];                                                                               \
        VF_STORE(t_, (v));                                                                                         \
        memcpy((p), t_, (size_t)(nl) * 2);                                                                         \
    } while (0)
#define VF_AL1(a, b)                                                                                               \
    _mm512_or_si512(_mm512_srli_epi64((a), 16),                                                                    \
                    _mm512_slli_epi64(_mm512_permutex2var_epi64((a), _mm512_setr_epi64(1, 2, 3, 4, 5, 6, 7, 8), (b)), 48))
#else
#define VF_STOREN(p, v, nl) _mm512_mask_storeu_epi16((void *)(p), (__mmask32)GEN_NMASK(nl), (v))
#define VF_AL1(a, b) _mm512_alignr_epi8(_mm512_alignr_epi64((b), (a), 2), (a), 2)
#endif
#define VF_SET1(e) _mm512_set1_epi16((short)(e))
#define VF_MAX(a, b) _mm512_max_epi16((a), (b))
#define VF_MIN(a, b) _mm512_min_epi16((a), (b))
#define VF_MAXU(a, b) _mm512_max_epu16((a), (b))
#define VF_MINU(a, b) _mm512_min_epu16((a), (b))
#define VF_XOR(a, b) _mm512_xor_si512((a), (b))
#define VF_SEL(a, b, m) _mm512_mask_blend_epi16((m), (a), (b))
#define VF_ANYNEG(v) (_mm512_movepi16_mask(v) != 0)
#define VF_ADD(a, b) _mm512_add_epi16((a), (b))
#define VF_NEGM(v) ((__mmask32)~_mm512_cmpge_epi16_mask((v), _mm512_setzero_si512()))
#define VF_ANYGTU(v, t) ((__mmask32)~_mm512_cmpge_epu16_mask(_mm512_set1_epi16((short)(t)), (v)) != 0)
#define VF_EO(a, b, e, o)                                                                                          \
    do {                                                                                                           \
        const __m512i i_ = _mm512_broadcast_i32x4(_mm_setr_epi8(0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15)); \
        const __m512i da_ = _mm512_shuffle_epi8((a), i_), db_ = _mm512_shuffle_epi8((b), i_);                     \
        (e) = _mm512_permutex2var_epi64(da_, _mm512_setr_epi64(0, 2, 4, 6, 8, 10, 12, 14), db_);                  \
        (o) = _mm512_permutex2var_epi64(da_, _mm512_setr_epi64(1, 3, 5, 7, 9, 11, 13, 15), db_);                  \
    } while (0)
#endif
