/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Runtime CPU detection and kernel selection. The ISA ceiling is the lowest
 * of: the CPU's best ISA, desc.max_isa, and the MAXPOOL_ISA environment
 * variable (scalar, sse2, avx2, avx512, neon) — so tests can run every path
 * on one machine. Kernels come from kernels/kernel_list.inc, best first; the
 * scalar reference takes whatever no specialised kernel matches.
 */
#include "plan.h"

#include "kernels/kernels.h"

#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

/* F16C (CPUID.1:ECX bit 29), asked of CPUID directly: clang rejects the
 * feature string "f16c" in __builtin_cpu_supports. Only consulted together
 * with AVX2, whose check already includes the OS's AVX state (XGETBV). */
static int cpu_has_f16c(void)
{
    unsigned a, b, c, d;
    return __get_cpuid(1, &a, &b, &c, &d) && ((c >> 29) & 1u);
}
#endif

/* Order of the x86 ISAs (NEON stands apart: it is the only SIMD on Arm). */
static int isa_rank(maxpool_isa isa)
{
    switch (isa) {
    case MAXPOOL_ISA_SCALAR: return 0;
    case MAXPOOL_ISA_SSE2: return 1;
    case MAXPOOL_ISA_NEON: return 1;
    case MAXPOOL_ISA_AVX2: return 2;
    case MAXPOOL_ISA_AVX512: return 3;
    case MAXPOOL_ISA_AUTO: return 99;
    }
    return 0;
}

maxpool_isa maxpool_cpu_isa(void)
{
#if defined(__x86_64__) || defined(__i386__)
    /* libgcc's constructor has initialised the feature data before any call
     * here (__builtin_cpu_init is only needed inside earlier constructors) */
#ifdef MAXPOOL_AVX512_EMULATE
    /* test build (CMake MAXPOOL_AVX512_EMULATE): the *_avx512.c kernels are
     * AVX2 code emulating AVX-512 through SIMDe, so AVX2 is all they need */
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && cpu_has_f16c())
        return MAXPOOL_ISA_AVX512;
#endif
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq"))
        return MAXPOOL_ISA_AVX512;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && cpu_has_f16c())
        return MAXPOOL_ISA_AVX2;
#if defined(__x86_64__)
    return MAXPOOL_ISA_SSE2; /* part of x86-64 */
#else
    return __builtin_cpu_supports("sse2") ? MAXPOOL_ISA_SSE2 : MAXPOOL_ISA_SCALAR;
#endif
#elif defined(__aarch64__)
    return MAXPOOL_ISA_NEON;
#else
    return MAXPOOL_ISA_SCALAR;
#endif
}

const char *maxpool_isa_name(maxpool_isa isa)
{
    switch (isa) {
    case MAXPOOL_ISA_AUTO: return "auto";
    case MAXPOOL_ISA_SCALAR: return "scalar";
    case MAXPOOL_ISA_SSE2: return "sse2";
    case MAXPOOL_ISA_AVX2: return "avx2";
    case MAXPOOL_ISA_AVX512: return "avx512";
    case MAXPOOL_ISA_NEON: return "neon";
    }
    return "unknown";
}

static maxpool_isa isa_from_env(void)
{
    const char *v = getenv("MAXPOOL_ISA");
    if (!v || !*v)
        return MAXPOOL_ISA_AUTO;
    static const maxpool_isa all[] = {MAXPOOL_ISA_SCALAR, MAXPOOL_ISA_SSE2, MAXPOOL_ISA_AVX2, MAXPOOL_ISA_AVX512,
                                      MAXPOOL_ISA_NEON, MAXPOOL_ISA_AUTO};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i)
        if (strcmp(v, maxpool_isa_name(all[i])) == 0)
            return all[i];
    return MAXPOOL_ISA_AUTO; /* unknown names do not lower anything */
}

static maxpool_isa isa_min(maxpool_isa a, maxpool_isa b) { return isa_rank(a) <= isa_rank(b) ? a : b; }

maxpool_isa maxpool_effective_isa(maxpool_isa requested)
{
    return isa_min(isa_min(maxpool_cpu_isa(), requested), isa_from_env());
}

/* Whether a kernel needing `need` may run under the ceiling `have`. */
static int isa_allows(maxpool_isa have, maxpool_isa need)
{
    if (need == MAXPOOL_ISA_SCALAR)
        return 1;
    if (need == MAXPOOL_ISA_NEON || have == MAXPOOL_ISA_NEON)
        return need == have;
    return isa_rank(need) <= isa_rank(have);
}

void maxpool_select_kernel(struct maxpool_plan *p)
{
    /* Empty tensors (N or C = 0) and geometry not bounded by the input
     * (maxpool_plan.bounded) never reach a specialised kernel; each kernel's
     * match function declines what else it does not implement. The window
     * arrays are filled after this, for the kernel chosen: match and task
     * functions read the plan's numbers only. */
    if (p->n * p->c > 0 && p->bounded) {
#define MAXPOOL_KERNEL(name_, isa_, match_, run_, tasks_)                                                          \
    if (isa_allows(p->isa, isa_) && match_(p)) {                                                                   \
        p->kernel.name = name_;                                                                                    \
        p->kernel.run = run_;                                                                                      \
        p->kernel.tasks = tasks_(p);                                                                               \
        return;                                                                                                    \
    }
#include "kernels/kernel_list.inc"
#undef MAXPOOL_KERNEL
    }
    (void)isa_allows;
    static const char *const ref_names[MAXPOOL_DTYPE_COUNT] = {"ref_f32", "ref_f64", "ref_f16", "ref_bf16",
                                                               "ref_i8",  "ref_u8",  "ref_i16", "ref_u16",
                                                               "ref_i32", "ref_i64"};
    p->kernel.name = ref_names[p->desc.dtype];
    p->kernel.run = maxpool_reference_kernel;
    p->kernel.tasks = maxpool_reference_tasks(p);
}
