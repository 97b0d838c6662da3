/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The thin vector layer of the type-generic kernels (gen_impl.h) for AVX2:
 * one block per element type, chosen by GEN_TYPE (gen_types.h). Included by
 * the gen_<type>_avx2.c files only (compiled with -mavx2 -mfma -mf16c).
 *
 * Every block defines the same names:
 *   GT            the stored element type;  GKT its compare (key) type
 *   GKEY(v)       scalar key of an element (f16, bf16: exact widening to f32)
 *   VN            lanes per vector;  VT the vector of VN keys
 *   VI            a vector of VN tap numbers, lanes of VLANE (as wide as a key)
 *   VM            a lane mask
 *   V_LOAD(p)     VN elements at p as keys;  V_STORE(p, v) back as elements
 *   V_NANFIX(v)   lanes whose stored bits may differ from the element they
 *                 came from (f16: the conversion quiets a signalling NaN, so
 *                 NaN lanes are redone in scalar code); 0 for every other type
 *   V_SET1(e)     an element broadcast (as a key)
 *   V_MAX(b, x)   x > b ? x : b           (NaN ignored: the reference's rule)
 *   V_MAXP(b, x)  x > b || x is NaN ? x : b   (NaN propagated)
 *   V_GTM(x, b)   mask of x > b (ordered);  V_NANM(x) mask of NaN lanes
 *   VM_OR, V_SEL(a, b, m) / VI_SEL(a, b, m): m ? b : a
 *   VI_SET1(t), VI_STORE(lane array, v)
 *   VM_LANES(p)   the mask whose lane l is set where the VLANE array p has
 *                 all ones at l (every lane 0 or all ones)
 *   V_EVEN(a, b)  lanes 0, 2, 4, ... of the 2*VN lanes a then b
 *   V_ODD(a, b), V_AL1(a, b) (f32 keys only) lanes 1, 3, 5, ... of a then b;
 *                 lanes 1 .. VN-1 of a then lane 0 of b
 *   VK_STORE(p, v), VK_LOAD(p) the keys to / from a GKT array (end of file)
 * Floating max/compare instructions are given the operands in the order the
 * rule needs (vmaxps x, b returns b for NaN and for equal values: first
 * element wins ties such as max(-0, +0)). Narrowing back is exact: bf16 and
 * the integers move bits, f16 converts values that came from f16 (NaN lanes
 * excepted, see V_NANFIX).
 */
#include "gen_types.h"

#include <immintrin.h>
#include <stdint.h>

#define V_PERM_D8(v) _mm256_permute4x64_epi64((v), 0xD8) /* 64-bit lanes 0 2 1 3 */

#if GEN_TYPE == GEN_F64
#define GT double
#define GKT double
#define GKEY(v) (v)
#define GFLOAT 1
#define VN 4
#define VT __m256d
#define VI __m256i
#define VM __m256d
#define VLANE uint64_t
#define V_LOAD(p) _mm256_loadu_pd(p)
#define V_STORE(p, v) _mm256_storeu_pd((p), (v))
#define V_STREAM(p, v) _mm256_stream_pd((p), (v)) /* (p 32-byte aligned) */
#define V_NANFIX(v) 0
#define V_SET1(e) _mm256_set1_pd(e)
#define V_MAX(b, x) _mm256_max_pd((x), (b))
#define V_MAXP(b, x) _mm256_blendv_pd(_mm256_max_pd((x), (b)), (x), _mm256_cmp_pd((x), (x), _CMP_UNORD_Q))
#define V_GTM(x, b) _mm256_cmp_pd((x), (b), _CMP_GT_OQ)
#define V_NANM(x) _mm256_cmp_pd((x), (x), _CMP_UNORD_Q)
#define VM_OR(a, b) _mm256_or_pd((a), (b))
#define V_SEL(a, b, m) _mm256_blendv_pd((a), (b), (m))
#define VI_SEL(a, b, m) _mm256_blendv_epi8((a), (b), _mm256_castpd_si256(m))
#define VI_SET1(t) _mm256_set1_epi64x((int64_t)(t))
#define V_EVEN(a, b) _mm256_permute4x64_pd(_mm256_unpacklo_pd((a), (b)), 0xD8)
#define VM_LANES(p) _mm256_castsi256_pd(_mm256_loadu_si256((const __m256i *)(const void *)(p)))

#elif GEN_KEYS_PS
#if GEN_TYPE == GEN_F32
#define GT float
#else
#define GT uint16_t
#endif
#define GKT float
#define GFLOAT 1
#define VN 8
#define VT __m256
#define VI __m256i
#define VM __m256
#define VLANE uint32_t
#if GEN_TYPE == GEN_F32
#define GKEY(v) (v)
#define V_LOAD(p) _mm256_loadu_ps(p)
#define V_STORE(p, v) _mm256_storeu_ps((p), (v))
#define V_STREAM(p, v) _mm256_stream_ps((p), (v))
#define V_NANFIX(v) 0
#define V_SET1(e) _mm256_set1_ps(e)
#elif GEN_TYPE == GEN_F16
#define GKEY(v) _cvtsh_ss(v)
#define V_LOAD(p) _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(const void *)(p)))
#define V_STORE(p, v)                                                                                              \
    _mm_storeu_si128((__m128i *)(void *)(p), _mm256_cvtps_ph((v), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC))
#define V_NANFIX(v) _mm256_movemask_ps(_mm256_cmp_ps((v), (v), _CMP_UNORD_Q))
#define V_SET1(e) _mm256_set1_ps(_cvtsh_ss(e))
#else
/* bf16 is the top half of an f32: widening and narrowing move bits only */
static inline float gen_bf16_key(uint16_t b)
{
    return _mm_cvtss_f32(_mm_castsi128_ps(_mm_cvtsi32_si128((int)((uint32_t)b << 16))));
}
#define GKEY(v) gen_bf16_key(v)
#define V_LOAD(p)                                                                                                  \
    _mm256_castsi256_ps(                                                                                           \
        _mm256_slli_epi32(_mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(const void *)(p))), 16))
#define V_STORE(p, v)                                                                                              \
    _mm_storeu_si128((__m128i *)(void *)(p),                                                                       \
                     _mm256_castsi256_si128(_mm256_permute4x64_epi64(                                             \
                         _mm256_packus_epi32(_mm256_srli_epi32(_mm256_castps_si256(v), 16),                        \
                                             _mm256_srli_epi32(_mm256_castps_si256(v), 16)),                       \
                         0x08)))
#define V_NANFIX(v) 0
#define V_SET1(e) _mm256_set1_ps(gen_bf16_key(e))
/* V_LOAD2(p, a, b): the keys of p[0 .. 2 VN) as two vectors in the unpack's
 * lane order (a: elements 0-3 and 8-11, b: 4-7 and 12-15), one load and
 * two vpunpck*wd with zero instead of two vpmovzxwd + vpslld; V_FIX2 /
 * VI_FIX2 put a pair of vectors of that order (keys, tap lanes) back in
 * element order (gen_lf.h's line pass). */
#define V_LOAD2(p, a, b)                                                                                           \
    do {                                                                                                           \
        const __m256i r2_ = _mm256_loadu_si256((const __m256i *)(const void *)(p)), z2_ = _mm256_setzero_si256(); \
        *(a) = _mm256_castsi256_ps(_mm256_unpacklo_epi16(z2_, r2_));                                              \
        *(b) = _mm256_castsi256_ps(_mm256_unpackhi_epi16(z2_, r2_));                                              \
    } while (0)
#define V_FIX2(a, b)                                                                                               \
    do {                                                                                                           \
        const __m256 a2_ = *(a);                                                                                   \
        *(a) = _mm256_permute2f128_ps(a2_, *(b), 0x20);                                                            \
        *(b) = _mm256_permute2f128_ps(a2_, *(b), 0x31);                                                            \
    } while (0)
#define VI_FIX2(a, b)                                                                                              \
    do {                                                                                                           \
        const __m256i a2_ = *(a);                                                                                  \
        *(a) = _mm256_permute2x128_si256(a2_, *(b), 0x20);                                                         \
        *(b) = _mm256_permute2x128_si256(a2_, *(b), 0x31);                                                         \
    } while (0)
#endif
#define V_MAX(b, x) _mm256_max_ps((x), (b))
#define V_MAXP(b, x) _mm256_blendv_ps(_mm256_max_ps((x), (b)), (x), _mm256_cmp_ps((x), (x), _CMP_UNORD_Q))
#define V_GTM(x, b) _mm256_cmp_ps((x), (b), _CMP_GT_OQ)
#define V_NANM(x) _mm256_cmp_ps((x), (x), _CMP_UNORD_Q)
#define VM_OR(a, b) _mm256_or_ps((a), (b))
#define V_SEL(a, b, m) _mm256_blendv_ps((a), (b), (m))
#define VI_SEL(a, b, m) _mm256_blendv_epi8((a), (b), _mm256_castps_si256(m))
#define VI_SET1(t) _mm256_set1_epi32((int32_t)(t))
#define VM_LANES(p) _mm256_castsi256_ps(_mm256_loadu_si256((const __m256i *)(const void *)(p)))
#define V_EVEN(a, b)                                                                                               \
    _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(_mm256_shuffle_ps((a), (b), 0x88)), 0xD8))
/* V_EVEN_L(a, b): V_EVEN's lanes in the shuffle's own order (columns 0, 1,
 * 4, 5, 2, 3, 6, 7: no cross-lane permute per tap); V_LORD(v), VI_LORD(v)
 * put keys / tap lanes of that order back in column order (gen_cf.h cf_vec) */
#define V_EVEN_L(a, b) _mm256_shuffle_ps((a), (b), 0x88)
#define V_LORD(v) _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(v), 0xD8))
#define VI_LORD(v) _mm256_permute4x64_epi64((v), 0xD8)
/* f16, bf16 (gen_fl.h's de-interleaved stride-2 W pass): V_ODD(a, b) lanes 1, 3, 5, ... of a then b;
 * V_AL1(a, b) lanes 1 .. VN-1 of a, then lane 0 of b */
#define V_ODD(a, b)                                                                                                \
    _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(_mm256_shuffle_ps((a), (b), 0xDD)), 0xD8))
#define V_AL1(a, b)                                                                                                \
    _mm256_castsi256_ps(_mm256_alignr_epi8(                                                                        \
        _mm256_permute2x128_si256(_mm256_castps_si256(a), _mm256_castps_si256(b), 0x21), _mm256_castps_si256(a), 4))

#else /* the integers: native lanes */
#define GFLOAT 0
#define GKEY(v) (v)
#define VT __m256i
#define VI __m256i
#define VM __m256i
#define V_LOAD(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define V_STORE(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), (v))
#define V_STREAM(p, v) _mm256_stream_si256((__m256i *)(void *)(p), (v))
#define V_NANFIX(v) 0
#define V_MAXP(b, x) V_MAX(b, x)
#define V_NANM(x) _mm256_setzero_si256()
#define VM_OR(a, b) _mm256_or_si256((a), (b))
#define V_SEL(a, b, m) _mm256_blendv_epi8((a), (b), (m))
#define VI_SEL(a, b, m) _mm256_blendv_epi8((a), (b), (m))
#define VM_LANES(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#if GEN_TYPE == GEN_I8 || GEN_TYPE == GEN_U8
#define VN 32
#define VLANE uint8_t
#define VI_SET1(t) _mm256_set1_epi8((char)(t))
#define V_EVEN(a, b)                                                                                               \
    V_PERM_D8(_mm256_packus_epi16(_mm256_and_si256((a), _mm256_set1_epi16(0xFF)),                                \
                                  _mm256_and_si256((b), _mm256_set1_epi16(0xFF))))
#if GEN_TYPE == GEN_I8
#define GT int8_t
#define GKT int8_t
#define V_SET1(e) _mm256_set1_epi8(e)
#define V_MAX(b, x) _mm256_max_epi8((x), (b))
#define V_GTM(x, b) _mm256_cmpgt_epi8((x), (b))
#else
#define GT uint8_t
#define GKT uint8_t
#define V_SET1(e) _mm256_set1_epi8((char)(e))
#define V_MAX(b, x) _mm256_max_epu8((x), (b))
#define V_GTM(x, b)                                                                                                \
    _mm256_cmpgt_epi8(_mm256_xor_si256((x), _mm256_set1_epi8(-128)), _mm256_xor_si256((b), _mm256_set1_epi8(-128)))
#endif
#elif GEN_TYPE == GEN_I16 || GEN_TYPE == GEN_U16
#define VN 16
#define VLANE uint16_t
#define VI_SET1(t) _mm256_set1_epi16((short)(t))
#define V_EVEN(a, b)                                                                                               \
    V_PERM_D8(_mm256_packus_epi32(_mm256_and_si256((a), _mm256_set1_epi32(0xFFFF)),                              \
                                  _mm256_and_si256((b), _mm256_set1_epi32(0xFFFF))))
#if GEN_TYPE == GEN_I16
#define GT int16_t
#define GKT int16_t
#define V_SET1(e) _mm256_set1_epi16(e)
#define V_MAX(b, x) _mm256_max_epi16((x), (b))
#define V_GTM(x, b) _mm256_cmpgt_epi16((x), (b))
#else
#define GT uint16_t
#define GKT uint16_t
#define V_SET1(e) _mm256_set1_epi16((short)(e))
#define V_MAX(b, x) _mm256_max_epu16((x), (b))
#define V_GTM(x, b)                                                                                                \
    _mm256_cmpgt_epi16(_mm256_xor_si256((x), _mm256_set1_epi16(-32768)),                                         \
                       _mm256_xor_si256((b), _mm256_set1_epi16(-32768)))
#endif
#elif GEN_TYPE == GEN_I32
#define GT int32_t
#define GKT int32_t
#define VN 8
#define VLANE uint32_t
#define VI_SET1(t) _mm256_set1_epi32((int32_t)(t))
#define V_SET1(e) _mm256_set1_epi32(e)
#define V_MAX(b, x) _mm256_max_epi32((x), (b))
#define V_GTM(x, b) _mm256_cmpgt_epi32((x), (b))
#define V_EVEN(a, b)                                                                                               \
    _mm256_castps_si256(V_PERM_PS_D8(_mm256_shuffle_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b), 0x88)))
#define V_PERM_PS_D8(v) _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(v), 0xD8))
#elif GEN_TYPE == GEN_I64
#define GT int64_t
#define GKT int64_t
#define VN 4
#define VLANE uint64_t
#define VI_SET1(t) _mm256_set1_epi64x((int64_t)(t))
#define V_SET1(e) _mm256_set1_epi64x(e)
#define V_MAX(b, x) _mm256_blendv_epi8((b), (x), _mm256_cmpgt_epi64((x), (b)))
#define V_GTM(x, b) _mm256_cmpgt_epi64((x), (b))
#define V_EVEN(a, b)                                                                                               \
    _mm256_castpd_si256(                                                                                           \
        _mm256_permute4x64_pd(_mm256_unpacklo_pd(_mm256_castsi256_pd(a), _mm256_castsi256_pd(b)), 0xD8))
#else
#error "vt_avx2.h: GEN_TYPE names no element type"
#endif
#endif

#define VI_STORE(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), (v))

/* 32-bit VI lanes holding window positions (the per-tap form with indices,
 * gen_cf.h GEN_CFPOS: lane l's winner at spatial offset b + lane + l*S):
 *   VI_POS_NONE(v)          whether a lane is all ones (no position)
 *   VI_POS_ST64(p, v, b, S) int64 p[l] = b + (uint32_t)v[l] + l*S, VN lanes
 *   VI_POS_ST32(p, v, b, S) int32 p[l] = the same, wrapping */
#if GEN_KEYS_PS || GEN_TYPE == GEN_I32
#define VI_POS_NONE(v) _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32((v), _mm256_set1_epi32(-1))))
#define VI_POS_ST64(p, v, b, S)                                                                                    \
    do {                                                                                                           \
        const __m256i b0_ = _mm256_add_epi64(_mm256_set1_epi64x(b), _mm256_setr_epi64x(0, (S), 2 * (S), 3 * (S))); \
        _mm256_storeu_si256((__m256i *)(void *)(p),                                                                \
                            _mm256_add_epi64(_mm256_cvtepu32_epi64(_mm256_castsi256_si128(v)), b0_));             \
        _mm256_storeu_si256((__m256i *)(void *)((p) + 4),                                                          \
                            _mm256_add_epi64(_mm256_cvtepu32_epi64(_mm256_extracti128_si256((v), 1)),            \
                                             _mm256_add_epi64(b0_, _mm256_set1_epi64x(4 * (S)))));               \
    } while (0)
#define VI_POS_ST32(p, v, b, S)                                                                                    \
    _mm256_storeu_si256((__m256i *)(void *)(p),                                                                    \
                        _mm256_add_epi32((v), _mm256_add_epi32(_mm256_set1_epi32((int32_t)(b)),                    \
                                                               _mm256_setr_epi32(0, (S), 2 * (S), 3 * (S),         \
                                                                                 4 * (S), 5 * (S), 6 * (S),        \
                                                                                 7 * (S)))))
#endif

/* VK_STORE(p, v) / VK_LOAD(p): the keys themselves (f16, bf16: as f32) to / from a GKT array */
#if GEN_KEYS_PS
#define VK_STORE(p, v) _mm256_storeu_ps((p), (v))
#define VK_LOAD(p) _mm256_loadu_ps(p)
#else
#define VK_STORE(p, v) V_STORE(p, v)
#define VK_LOAD(p) V_LOAD(p)
#endif

/* The lines-first form's vector pass over the combined line (gen_lf.h):
 *   V_EQM(a, b)   mask of a == b (ordered: never for NaN; -0 == +0)
 *   VI_LOAD(p)    VN tap numbers from a VLANE array;  VI_ADD(a, b) lane sums
 *   VI_GEM(a, b)  mask of a >= b, tap numbers (unsigned; below 2^63 for 64-bit lanes)
 *   VM_AND(a, b), VM_ANDN(a, b): a & b, a & ~b
 *   VI_EVEN(a, b) V_EVEN on tap numbers
 *   VI_UPD(b, t, m) m ? t : b where t >= b (unsigned) in every lane (no blend) */
#define VI_LOAD(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#if GEN_TYPE == GEN_F64
#define VI_EVEN(a, b) _mm256_castpd_si256(V_EVEN(_mm256_castsi256_pd(a), _mm256_castsi256_pd(b)))
#elif GEN_KEYS_PS
#define VI_EVEN(a, b) _mm256_castps_si256(V_EVEN(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b)))
#else
#define VI_EVEN(a, b) V_EVEN(a, b)
#endif
#if GEN_TYPE == GEN_F64
#define V_EQM(a, b) _mm256_cmp_pd((a), (b), _CMP_EQ_OQ)
#define VM_AND(a, b) _mm256_and_pd((a), (b))
#define VM_ANDN(a, b) _mm256_andnot_pd((b), (a))
#define VI_GEM(a, b) _mm256_castsi256_pd(_mm256_xor_si256(_mm256_cmpgt_epi64((b), (a)), _mm256_set1_epi64x(-1)))
#define VI_ADD(a, b) _mm256_add_epi64((a), (b))
#define VI_UPD(b, t, m) VI_SEL(b, t, m)
#elif GEN_KEYS_PS
#define V_EQM(a, b) _mm256_cmp_ps((a), (b), _CMP_EQ_OQ)
#define VI_UPD(b, t, m) _mm256_max_epu32((b), _mm256_and_si256((t), _mm256_castps_si256(m)))
#define VM_AND(a, b) _mm256_and_ps((a), (b))
#define VM_ANDN(a, b) _mm256_andnot_ps((b), (a))
#define VI_GEM(a, b) _mm256_castsi256_ps(_mm256_cmpeq_epi32(_mm256_max_epu32((a), (b)), (a)))
#define VI_ADD(a, b) _mm256_add_epi32((a), (b))
#else
#define VM_AND(a, b) _mm256_and_si256((a), (b))
#define VM_ANDN(a, b) _mm256_andnot_si256((b), (a))
#if GEN_TYPE == GEN_I8 || GEN_TYPE == GEN_U8
#define V_EQM(a, b) _mm256_cmpeq_epi8((a), (b))
#define VI_GEM(a, b) _mm256_cmpeq_epi8(_mm256_max_epu8((a), (b)), (a))
#define VI_ADD(a, b) _mm256_add_epi8((a), (b))
#define VI_UPD(b, t, m) _mm256_max_epu8((b), _mm256_and_si256((t), (m)))
#elif GEN_TYPE == GEN_I16 || GEN_TYPE == GEN_U16
#define V_EQM(a, b) _mm256_cmpeq_epi16((a), (b))
#define VI_GEM(a, b) _mm256_cmpeq_epi16(_mm256_max_epu16((a), (b)), (a))
#define VI_ADD(a, b) _mm256_add_epi16((a), (b))
#define VI_UPD(b, t, m) _mm256_max_epu16((b), _mm256_and_si256((t), (m)))
#elif GEN_TYPE == GEN_I32
#define V_EQM(a, b) _mm256_cmpeq_epi32((a), (b))
#define VI_GEM(a, b) _mm256_cmpeq_epi32(_mm256_max_epu32((a), (b)), (a))
#define VI_ADD(a, b) _mm256_add_epi32((a), (b))
#define VI_UPD(b, t, m) _mm256_max_epu32((b), _mm256_and_si256((t), (m)))
#else
#define V_EQM(a, b) _mm256_cmpeq_epi64((a), (b))
#define VI_GEM(a, b) _mm256_xor_si256(_mm256_cmpgt_epi64((b), (a)), _mm256_set1_epi64x(-1))
#define VI_ADD(a, b) _mm256_add_epi64((a), (b))
#define VI_UPD(b, t, m) VI_SEL(b, t, m)
#endif
#endif

/* The integers (gen_vf.h, lines first with the W pass on the combined line):
 *   V_ODD(a, b)  lanes 1, 3, 5, ... of the 2*VN lanes a then b
 *   V_AL1(a, b)  lanes 1 .. VN-1 of a, then lane 0 of b */
#if !GFLOAT
#if GEN_TYPE == GEN_I8 || GEN_TYPE == GEN_U8
#define V_ODD(a, b) V_PERM_D8(_mm256_packus_epi16(_mm256_srli_epi16((a), 8), _mm256_srli_epi16((b), 8)))
#elif GEN_TYPE == GEN_I16 || GEN_TYPE == GEN_U16
#define V_ODD(a, b) V_PERM_D8(_mm256_packus_epi32(_mm256_srli_epi32((a), 16), _mm256_srli_epi32((b), 16)))
#elif GEN_TYPE == GEN_I32
#define V_ODD(a, b)                                                                                                \
    _mm256_castps_si256(V_PERM_PS_D8(_mm256_shuffle_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b), 0xDD)))
#else
#define V_ODD(a, b)                                                                                                \
    _mm256_castpd_si256(                                                                                           \
        _mm256_permute4x64_pd(_mm256_unpackhi_pd(_mm256_castsi256_pd(a), _mm256_castsi256_pd(b)), 0xD8))
#endif
#define V_AL1(a, b) _mm256_alignr_epi8(_mm256_permute2x128_si256((a), (b), 0x21), (a), (int)sizeof(GT))
#endif

/* The 8- and 16-bit integers' planes-across-lanes form (gen_cb.h): VC_UNLO / VC_UNHI(a, b) interleave the low /
 * high halves of each 128-bit lane's elements of a and b; VC_BLO / VC_BHI(a, b) the 128-bit blocks of the low /
 * high halves of a and b alternating (a0 b0 .. / a1 b1 ..); VC_SB: log2 of the blocks of a vector */
#if !GFLOAT && (GEN_TYPE == GEN_I8 || GEN_TYPE == GEN_U8 || GEN_TYPE == GEN_I16 || GEN_TYPE == GEN_U16)
#define GEN_CB 1
#define VC_SB 1
#if GEN_TYPE == GEN_I8 || GEN_TYPE == GEN_U8
#define VC_UNLO(a, b) _mm256_unpacklo_epi8((a), (b))
#define VC_UNHI(a, b) _mm256_unpackhi_epi8((a), (b))
#else
#define VC_UNLO(a, b) _mm256_unpacklo_epi16((a), (b))
#define VC_UNHI(a, b) _mm256_unpackhi_epi16((a), (b))
#endif
#define VC_BLO(a, b) _mm256_permute2x128_si256((a), (b), 0x20)
#define VC_BHI(a, b) _mm256_permute2x128_si256((a), (b), 0x31)
#endif

/* f16, bf16 on the integers' lines-first form (gen_vf.h, checked keys): the
 * raw bits as 16-bit integers, 16 lanes (the i16 block's ops) */
#if (GEN_TYPE == GEN_F16 || GEN_TYPE == GEN_BF16) && !defined(GEN_VF)
#define GEN_VF 1
#define VF_CHK 1
#define VF_T __m256i
#define VF_N 16
#define VF_M __m256i
#define VF_LANE uint16_t
#define VF_MLANES(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define VF_LOAD(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define VF_STORE(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), (v))
#define VF_STOREN(p, v, nl)                                                                                        \
    do {                                                                                                           \
        alignas(32) uint16_t t_[16];                                                                               \
        VF_STORE(t_, (v));                                                                                         \
        memcpy((p), t_, (size_t)(nl) * 2);                                                                         \
    } while (0)
#define VF_SET1(e) _mm256_set1_epi16((short)(e))
#define VF_MAX(a, b) _mm256_max_epi16((a), (b))
#define VF_MIN(a, b) _mm256_min_epi16((a), (b))
#define VF_MAXU(a, b) _mm256_max_epu16((a), (b))
#define VF_MINU(a, b) _mm256_min_epu16((a), (b))
#define VF_XOR(a, b) _mm256_xor_si256((a), (b))
#define VF_SEL(a, b, m) _mm256_blendv_epi8((a), (b), (m))
#define VF_ANYNEG(v) ((_mm256_movemask_epi8(v) & (int)0xAAAAAAAAu) != 0)
#define VF_ADD(a, b) _mm256_add_epi16((a), (b))
#define VF_NEGM(v) _mm256_srai_epi16((v), 15)
#define VF_ANYGTU(v, t)                                                                                            \
    (_mm256_movemask_epi8(_mm256_cmpeq_epi16(_mm256_max_epu16((v), _mm256_set1_epi16((short)((t) + 1))), (v))) != 0)
#define VF_EVEN(a, b)                                                                                              \
    V_PERM_D8(_mm256_packus_epi32(_mm256_and_si256((a), _mm256_set1_epi32(0xFFFF)),                              \
                                  _mm256_and_si256((b), _mm256_set1_epi32(0xFFFF))))
#define VF_ODD(a, b) V_PERM_D8(_mm256_packus_epi32(_mm256_srli_epi32((a), 16), _mm256_srli_epi32((b), 16)))
#define VF_AL1(a, b) _mm256_alignr_epi8(_mm256_permute2x128_si256((a), (b), 0x21), (a), 2)
#endif
