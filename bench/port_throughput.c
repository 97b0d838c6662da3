/* SPDX-License-Identifier: Apache-2.0 */
/*
 * port_throughput: how many of the instructions the f32 kernels are made of
 * this CPU retires per cycle (x86-64, AVX2). Used in docs/performance.md to
 * bound kernels by their instruction mix (e.g. SPP's transposes + maxima).
 *
 *   port_throughput [iterations]     (default 200 M; about 10 s)
 *
 * The clock is measured with a chain of dependent integer adds (one per
 * cycle); each other line runs 8 independent instructions per iteration and
 * prints cycles per instruction (0.50 = two per cycle). Timings, not counts:
 * run it on an idle machine and read the medians of a few runs. The
 * instructions are inline assembly: the CPU must have AVX2 (else SIGILL).
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* 8 independent instructions of one kind per iteration */
#define REP8(op) op(0) op(1) op(2) op(3) op(4) op(5) op(6) op(7)
#define MAX_(i) "vmaxps %%ymm8, %%ymm" #i ", %%ymm" #i "\n"
#define SHUF_(i) "vshufps $0x44, %%ymm8, %%ymm" #i ", %%ymm" #i "\n"
#define PERM_(i) "vperm2f128 $0x20, %%ymm8, %%ymm" #i ", %%ymm" #i "\n"
#define INSR_(i) "vinsertf128 $1, %%xmm8, %%ymm" #i ", %%ymm" #i "\n"
#define INSM_(i) "vinsertf128 $1, " #i "*16(%0), %%ymm" #i ", %%ymm" #i "\n"
#define MIX_(i) "vmaxps %%ymm8, %%ymm" #i ", %%ymm" #i "\n vshufps $0x44, %%ymm8, %%ymm" #i ", %%ymm" #i "\n"
#define ST_(i) "vmovaps %%ymm" #i ", " #i "*32(%0)\n"
#define ST128_(i) "vmovaps %%xmm" #i ", " #i "*16(%0)\n"
#define CLOBBER "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "memory"

#define TIME(label, per_iter, body)                                                                                \
    do {                                                                                                           \
        const double ts = now();                                                                                   \
        for (long i = 0; i < n; ++i)                                                                               \
            __asm__ volatile(body : : "r"(buf) : CLOBBER);                                                         \
        const double dt = now() - ts;                                                                              \
        printf("%-34s %.2f cycles each\n", label, dt * ghz * 1e9 / ((double)n * (per_iter)));                     \
    } while (0)

int main(int argc, char **argv)
{
    const long n = argc > 1 ? atol(argv[1]) : 200000000L;
    static float buf[64] __attribute__((aligned(64)));
    long a = 0;
    double t0 = now();
    for (long i = 0; i < n; ++i)
        __asm__ volatile("add $1, %0\n add $1, %0\n add $1, %0\n add $1, %0\n" : "+r"(a));
    const double ghz = 4.0 * (double)n / (now() - t0) / 1e9;
    printf("clock (dependent adds): %.2f GHz\n", ghz);
    __asm__ volatile("vxorps %%ymm8, %%ymm8, %%ymm8" : : : "xmm8");
    TIME("vmaxps ymm", 8, REP8(MAX_));
    TIME("vshufps ymm", 8, REP8(SHUF_));
    TIME("vperm2f128 ymm", 8, REP8(PERM_));
    TIME("vinsertf128 ymm, register", 8, REP8(INSR_));
    TIME("vinsertf128 ymm, memory", 8, REP8(INSM_));
    TIME("vmaxps + vshufps, alternating", 16, REP8(MIX_));
    TIME("vmovaps store ymm", 8, REP8(ST_));
    TIME("vmovaps store xmm", 8, REP8(ST128_));
    return 0;
}
