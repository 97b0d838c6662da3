/* SPDX-License-Identifier: Apache-2.0 */
/*
 * 4-lane f32 / int32 vector vocabulary for the kernel templates (AArch64
 * Advanced SIMD, "NEON": part of every AArch64 CPU, so no extra flags). Same
 * names and the same meaning as simd_f32_avx2.h / simd_f32_sse2.h, lane for
 * lane and bit for bit; the templates are ISA-generic.
 *
 * Why this is bit-exact with the x86 forms (and so with the reference):
 *  - VF_SEL_GT(x, best) must be "x > best ? x : best" exactly (x86 maxps:
 *    the second operand for NaN and for equal values, so +0/-0 ties keep
 *    best). NEON's FMAX/vmaxq_f32 is not that (it returns NaN if either input
 *    is NaN and orders -0 < +0), and FMAXNM differs again; so it is a compare
 *    and a bit-select: FCMGT is false for NaN and for equal values, exactly
 *    the ordered "greater than" of _CMP_GT_OQ / cmpgtps.
 *  - Masks are full lanes (all ones / all zeros): FCMGT/FCMEQ/CMGT produce
 *    them, VI_SIGN (arithmetic shift by 31) too, and the masks the templates
 *    load from memory are 0 / -1. A blend is a bitwise BSL, like the SSE2
 *    and/andnot/or form, which gives the same result as blendv on such masks.
 *  - VF_ISNAN is "not (a == a)": FCMEQ is false exactly when a is NaN.
 *  - 4 lanes: the in-lane de-interleave is the full one (UZP1/UZP2), no
 *    lane fix-up (VF_FIX/VI_FIX are the identity), as in SSE2.
 *  - Masked loads/stores touch only the first n elements (through a small
 *    stack copy), as the AVX2 maskload/maskstore do.
 *  - int32 vectors are loaded and stored through memcpy: some templates keep
 *    int32 positions in float buffers and rely on the x86 load/store
 *    intrinsics aliasing anything; memcpy is the portable way to say that
 *    (GCC emits one LDR/STR q).
 *  - Non-temporal stores: AArch64 has only the pair form (STNP) and no ACLE
 *    intrinsic for it; VF_STREAM is a plain store, VF_SFENCE nothing (the
 *    stores are ordinary, visible to the joining thread through the usual
 *    synchronisation of the task split).
 */
#include <arm_neon.h>
#include <stdint.h>
#include <string.h>

#define VW 4
#define VF float32x4_t
#define VI int32x4_t
#define VF_LOAD(p) vld1q_f32(p)
#define VF_STORE(p, v) vst1q_f32((p), (v))
#define VF_SET1(x) vdupq_n_f32(x)
#define VI_LOAD(p) simd_neon_loadi((const void *)(p))
#define VI_STORE(p, v) simd_neon_storei((void *)(p), (v))
#define VI_SET1(x) vdupq_n_s32(x)
#define VI_ADD(a, b) vaddq_s32((a), (b))
#define VI_OR(a, b) vorrq_s32((a), (b))
#define VI_SIGN(a) vshrq_n_s32((a), 31)
#define VI_IOTA simd_neon_iota()
#define VI_IOTA2 simd_neon_iota2()
#define VF_GT(a, b) vreinterpretq_f32_u32(vcgtq_f32((a), (b)))
#define VF_ISNAN(a) vreinterpretq_f32_u32(vmvnq_u32(vceqq_f32((a), (a))))
#define VF_MOR(a, b) vreinterpretq_f32_u32(vorrq_u32(vreinterpretq_u32_f32(a), vreinterpretq_u32_f32(b)))
#define VF_BLEND(a, b, m) vbslq_f32(vreinterpretq_u32_f32(m), (b), (a))    /* m ? b : a */
#define VI_BLEND(a, b, m) vbslq_s32(vreinterpretq_u32_f32(m), (b), (a))    /* m (f32 mask) ? b : a */
#define VI_BLEND_IM(a, b, mi) vbslq_s32(vreinterpretq_u32_s32(mi), (b), (a)) /* mi (int mask) ? b : a */
#define VF_SEL_GT(x, best) simd_neon_sel_gt((x), (best))                   /* x > best ? x : best */
#define VF_DEINTERLEAVE simd_neon_deinterleave
#define VF_DEINT_INLANE(a, b, ev, od) simd_neon_deinterleave((a), (b), (ev), (od))
#define VI_IOTA2_INLANE simd_neon_iota2()
#define VF_FIX(v) (v)
#define VI_FIX(v) (v)
#define VI_STORE_I64 simd_neon_store_i64
#define VF_MASKLOAD simd_neon_maskload
#define VF_MASKSTORE simd_neon_maskstore
#define VF_GATHER simd_neon_gather /* (const float *base, VI offsets): base[o[i]] */
#define VI_ASF(a) vreinterpretq_f32_s32(a)
#define VF_STREAM(p, v) vst1q_f32((p), (v))
#define VF_SFENCE() ((void)0)

#ifndef SIMD_F32_NEON_FUNCS
#define SIMD_F32_NEON_FUNCS
static inline __attribute__((always_inline)) int32x4_t simd_neon_loadi(const void *p)
{
    int32x4_t v;
    memcpy(&v, p, sizeof v);
    return v;
}
static inline __attribute__((always_inline)) void simd_neon_storei(void *p, int32x4_t v) { memcpy(p, &v, sizeof v); }
static inline __attribute__((always_inline)) int32x4_t simd_neon_iota(void)
{
    static const int32_t t[4] = {0, 1, 2, 3};
    return vld1q_s32(t);
}
static inline __attribute__((always_inline)) int32x4_t simd_neon_iota2(void)
{
    static const int32_t t[4] = {0, 2, 4, 6};
    return vld1q_s32(t);
}
/* x > best ? x : best; FCMGT is false for NaN (either side) and for x == best
 * (+0 vs -0 included), so best stays then: the x86 maxps rule. */
static inline __attribute__((always_inline)) float32x4_t simd_neon_sel_gt(float32x4_t x, float32x4_t best)
{
    return vbslq_f32(vcgtq_f32(x, best), x, best);
}
/* a = x[0..3], b = x[4..7] -> *ev = x[0,2,4,6], *od = x[1,3,5,7] */
static inline __attribute__((always_inline)) void simd_neon_deinterleave(float32x4_t a, float32x4_t b,
                                                                         float32x4_t *ev, float32x4_t *od)
{
    *ev = vuzp1q_f32(a, b);
    *od = vuzp2q_f32(a, b);
}
/* p[i] = base + v[i] as int64, i < 4; lanes with v < 0 become -1 when minus_one. */
static inline __attribute__((always_inline)) void simd_neon_store_i64(int64_t *p, int32x4_t v, int64_t base,
                                                                      int minus_one)
{
    const int64x2_t b = vdupq_n_s64(base);
    int64x2_t lo = vaddq_s64(vmovl_s32(vget_low_s32(v)), b);
    int64x2_t hi = vaddq_s64(vmovl_high_s32(v), b);
    if (minus_one) {
        const int32x4_t s = vshrq_n_s32(v, 31);
        lo = vorrq_s64(lo, vmovl_s32(vget_low_s32(s)));
        hi = vorrq_s64(hi, vmovl_high_s32(s));
    }
    vst1q_s64(p, lo);
    vst1q_s64(p + 2, hi);
}
/* loads lanes < n (others 0), n in [0, 4]; reads nothing past p[n-1] */
static inline __attribute__((always_inline)) float32x4_t simd_neon_maskload(const float *p, int64_t n)
{
    float t[4] = {0, 0, 0, 0};
    for (int64_t i = 0; i < n; ++i)
        t[i] = p[i];
    return vld1q_f32(t);
}
/* stores lanes < n, n in [0, 4]; writes nothing past p[n-1] */
static inline __attribute__((always_inline)) void simd_neon_maskstore(float *p, int64_t n, float32x4_t v)
{
    float t[4];
    vst1q_f32(t, v);
    for (int64_t i = 0; i < n; ++i)
        p[i] = t[i];
}
static inline __attribute__((always_inline)) float32x4_t simd_neon_gather(const float *b, int32x4_t o)
{
    const float t[4] = {b[vgetq_lane_s32(o, 0)], b[vgetq_lane_s32(o, 1)], b[vgetq_lane_s32(o, 2)],
                        b[vgetq_lane_s32(o, 3)]};
    return vld1q_f32(t);
}
#endif
