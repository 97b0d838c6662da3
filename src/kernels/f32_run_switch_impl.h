/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The entry point of an f32 kernel family: turns the plan's run-time options
 * (NaN policy, index output 0 none / 1 i32 / 2 i64, first-element start) into
 * compile-time constants of KFN(run_impl), so each combination is compiled
 * with its own branches folded away. Included at the end of a kernel
 * implementation header that defines KFN(run_impl) with the signature
 * (p, x, y, ind, t0, t1, prop, index_kind, first_element).
 *
 * Each of the 12 combinations is its own non-inlined function, and KFN(run)
 * only picks one: the compiler's register allocation and stack-slot passes
 * then work on 12 functions of one specialisation each, not on one function
 * holding all 12.
 *
 * With CF_RUN_FE_RUNTIME defined (the SSE2 rows kernel: build time), the
 * first-element start stays a run-time value: 6 functions instead of 12.
 *
 * The index width is a run-time value in every kernel (build time): int32
 * and int64 indices share one instance, whose index_kind is 1 or 2 read from
 * the plan (known non-zero there, so the "with indices" branches still fold
 * away; only the index store picks its width per vector, a predictable
 * branch): 8 functions instead of 12 (4 instead of 6), about 20 % of
 * f32_nchw_k3s2_avx2.c's compile time.
 */
#define MAXPOOL_RUN_KIND(kind_, p_) ((kind_) == 0 ? 0 : (p_)->desc.index_type == MAXPOOL_INDEX_I64 ? 2 : 1)
#define MAXPOOL_RUN_DEF(prop_, kind_, fe_)                                                                         \
    static __attribute__((noinline)) void KFN(run_##prop_##kind_##fe_)(const struct maxpool_plan *p,               \
                                                                        const void *x, void *y, void *ind,         \
                                                                        int64_t t0, int64_t t1)                    \
    {                                                                                                              \
        KFN(run_impl)(p, (const float *)x, (float *)y, ind, t0, t1, prop_, MAXPOOL_RUN_KIND(kind_, p), fe_);       \
    }
#ifdef CF_RUN_FE_RUNTIME
#define MAXPOOL_RUN_DEF_FE(prop_, kind_)                                                                           \
    static __attribute__((noinline)) void KFN(run_##prop_##kind_)(const struct maxpool_plan *p, const void *x,     \
                                                                   void *y, void *ind, int64_t t0, int64_t t1)     \
    {                                                                                                              \
        KFN(run_impl)                                                                                              \
        (p, (const float *)x, (float *)y, ind, t0, t1, prop_, MAXPOOL_RUN_KIND(kind_, p),                          \
         p->desc.window_init == MAXPOOL_INIT_FIRST_ELEMENT);                                                       \
    }
#else
#define MAXPOOL_RUN_DEF_FE(prop_, kind_) MAXPOOL_RUN_DEF(prop_, kind_, 0) MAXPOOL_RUN_DEF(prop_, kind_, 1)
#endif
#define MAXPOOL_RUN_DEF_KIND(prop_)                                                                                \
    MAXPOOL_RUN_DEF_FE(prop_, 0) MAXPOOL_RUN_DEF_FE(prop_, 1)
MAXPOOL_RUN_DEF_KIND(0)
MAXPOOL_RUN_DEF_KIND(1)

static void KFN(run)(const struct maxpool_plan *p, const void *x, void *y, void *ind, int64_t t0, int64_t t1)
{
    typedef void (*run_fn)(const struct maxpool_plan *, const void *, void *, void *, int64_t, int64_t);
#ifdef CF_RUN_FE_RUNTIME
    static const run_fn fns4[2][2] = {{KFN(run_00), KFN(run_01)}, {KFN(run_10), KFN(run_11)}};
    fns4[p->nan_propagate ? 1 : 0][p->desc.index_type != MAXPOOL_INDEX_NONE](p, x, y, ind, t0, t1);
    return;
#else
    /* [prop][with indices][first element] */
    static const run_fn fns[2][2][2] = {
        {{KFN(run_000), KFN(run_001)}, {KFN(run_010), KFN(run_011)}},
        {{KFN(run_100), KFN(run_101)}, {KFN(run_110), KFN(run_111)}},
    };
    const int fe = p->desc.window_init == MAXPOOL_INIT_FIRST_ELEMENT;
    fns[p->nan_propagate ? 1 : 0][p->desc.index_type != MAXPOOL_INDEX_NONE][fe](p, x, y, ind, t0, t1);
#endif
}

#undef MAXPOOL_RUN_DEF_KIND
#undef MAXPOOL_RUN_DEF_FE
#undef MAXPOOL_RUN_DEF
#undef MAXPOOL_RUN_KIND
