/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The one vector update rule of every f32 SIMD kernel, the vector form of the
 * reference's "x replaces best when x > best, or x is NaN under propagation":
 * best <- x where that holds; the position bi follows when indices are wanted
 * (wi). Compare masks and blends, never max instructions for the indexed or
 * propagating forms (their NaN behaviour depends on the operand order).
 * Included by the kernel implementation headers after the simd_f32_*.h
 * macros, KFN and CF_AI are defined.
 */
#include <stdalign.h>
#include <stdint.h>

/* Alignment of the templates' stack buffers: a vector (64 bytes) for the
 * 16-lane vocabulary, 32 bytes otherwise. */
#ifndef KALIGN
#define KALIGN (VW >= 16 ? 64 : 32)
#endif

CF_AI void KFN(update)(VF *best, VI *bi, VF x, VI xi, const int prop, const int wi)
{
#ifdef VF_GT_K /* (AVX-512: the k-mask forms, simd_f32_avx512.h) */
    if (wi) {
        VK_T m = VF_GT_K(x, *best);
        if (prop)
            m = (VK_T)(m | VF_ISNAN_K(x));
        *best = VF_BLEND_K(*best, x, m);
        *bi = VI_BLEND_K(*bi, xi, m);
        return;
    }
    if (prop) {
        *best = VF_BLEND_K(VF_SEL_GT(x, *best), x, VF_ISNAN_K(x));
        return;
    }
#endif
    if (!wi) {
        VF r = VF_SEL_GT(x, *best);
        if (prop)
            r = VF_BLEND(r, x, VF_ISNAN(x));
        *best = r;
    } else {
        VF m = VF_GT(x, *best);
        if (prop)
            m = VF_MOR(m, VF_ISNAN(x));
        *best = VF_BLEND(*best, x, m);
        *bi = VI_BLEND(*bi, xi, m);
    }
}

/* First-element start (MAXPOOL_INIT_FIRST_ELEMENT), the fix-up after passes
 * that ran from -inf (the argument is in f32_nchw_rows_impl.h): the result
 * takes (e, ei), the window's first tap and its position, where it has no
 * position (indices asked for) or, with NaN ignored, where e is NaN. */
CF_AI void KFN(fe_fix)(VF *best, VI *bi, VF e, VI ei, const int prop, const int wi)
{
    VF fix;
    if (wi && !prop)
        fix = VF_MOR(VI_ASF(VI_SIGN(*bi)), VF_ISNAN(e));
    else if (wi)
        fix = VI_ASF(VI_SIGN(*bi));
    else if (!prop)
        fix = VF_ISNAN(e);
    else
        return;
    *best = VF_BLEND(*best, e, fix);
    if (wi)
        *bi = VI_BLEND(*bi, ei, fix);
}

/* Stores n <= VW final indices at io: base + t as int32 (ik 1) or int64
 * (ik 2); lanes with t < 0 (no position) become -1 when minus_one. */
CF_AI void KFN(store_index)(void *io, VI t, int64_t base, int minus_one, int64_t n, const int ik)
{
    if (ik == 1) {
        VI r = VI_ADD(t, VI_SET1((int32_t)base));
        if (minus_one)
            r = VI_OR(r, VI_SIGN(t));
        if (n == VW) {
            VI_STORE((int32_t *)io, r);
            return;
        }
        alignas(KALIGN) int32_t tmp[VW];
        VI_STORE(tmp, r);
        for (int64_t q = 0; q < n; ++q)
            ((int32_t *)io)[q] = tmp[q];
    } else {
        if (n == VW) {
            VI_STORE_I64((int64_t *)io, t, base, minus_one);
            return;
        }
        alignas(KALIGN) int64_t tmp[VW];
        VI_STORE_I64(tmp, t, base, minus_one);
        for (int64_t q = 0; q < n; ++q)
            ((int64_t *)io)[q] = tmp[q];
    }
}
