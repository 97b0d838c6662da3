/*
 * The one vector update rule of every f32 SIMD kernel, the vector form of the
 * reference's "x replaces best when x > best, or x is NaN under propagation":
 * best <- x where that holds; the position bi follows when indices are wanted
 * (wi). Compare masks and blends, never max instructions for the indexed or
 * propagating forms (their NaN behaviour depends on the operand order).
 * Included by the kernel implementation headers after the simd_f32_*.h
 * macros, KFN and CF_AI are defined.
 */
CF_AI void KFN(update)(VF *best, VI *bi, VF x, VI xi, const int prop, const int wi)
{
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
