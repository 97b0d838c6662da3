/*
 * The entry point of an f32 kernel family: turns the plan's run-time options
 * (NaN policy, index output 0 none / 1 i32 / 2 i64, first-element start) into
 * compile-time constants of KFN(run_impl), so each combination is compiled
 * with its own branches folded away. Included at the end of a kernel
 * implementation header that defines KFN(run_impl) with the signature
 * (p, x, y, ind, t0, t1, prop, index_kind, first_element).
 */
#define MAXPOOL_RUN_FE(prop_, kind_)                                                                               \
    do {                                                                                                           \
        if (fe)                                                                                                    \
            KFN(run_impl)(p, x, y, ind, t0, t1, prop_, kind_, 1);                                                  \
        else                                                                                                       \
            KFN(run_impl)(p, x, y, ind, t0, t1, prop_, kind_, 0);                                                  \
    } while (0)
#define MAXPOOL_RUN_KIND(prop_)                                                                                    \
    do {                                                                                                           \
        if (kind == 0)                                                                                             \
            MAXPOOL_RUN_FE(prop_, 0);                                                                              \
        else if (kind == 1)                                                                                        \
            MAXPOOL_RUN_FE(prop_, 1);                                                                              \
        else                                                                                                       \
            MAXPOOL_RUN_FE(prop_, 2);                                                                              \
    } while (0)

static void KFN(run)(const struct maxpool_plan *p, const void *x, void *y, void *ind, int64_t t0, int64_t t1)
{
    const int kind = p->desc.index_type == MAXPOOL_INDEX_I32 ? 1 : p->desc.index_type == MAXPOOL_INDEX_I64 ? 2 : 0;
    const int fe = p->desc.window_init == MAXPOOL_INIT_FIRST_ELEMENT;
    if (p->nan_propagate)
        MAXPOOL_RUN_KIND(1);
    else
        MAXPOOL_RUN_KIND(0);
}

#undef MAXPOOL_RUN_KIND
#undef MAXPOOL_RUN_FE
