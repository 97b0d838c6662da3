/* SPDX-License-Identifier: Apache-2.0 */
/* Shared helpers for the C tests; see test_support.h. */
#define _POSIX_C_SOURCE 200809L
#include "test_support.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__unix__)
#include <unistd.h>
#endif

long ts_passed = 0;
long ts_failed = 0;
static char ts_context[512];

void ts_set_context(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ts_context, sizeof ts_context, fmt, ap);
    va_end(ap);
}

int ts_record(int ok, const char *file, int line, const char *fmt, ...)
{
    if (ok) {
        ++ts_passed;
        return 1;
    }
    ++ts_failed;
    if (ts_failed <= TS_MAX_REPORTED) {
        va_list ap;
        fprintf(stderr, "%s:%d: FAIL: ", file, line);
        va_start(ap, fmt);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
        fputc('\n', stderr);
        if (ts_context[0])
            fprintf(stderr, "    in: %s\n", ts_context);
        if (ts_failed == TS_MAX_REPORTED)
            fprintf(stderr, "(further failures are counted, not printed)\n");
    }
    return 0;
}

int ts_finish(void)
{
    fflush(stderr);
    printf("%ld passed, %ld failed\n", ts_passed, ts_failed);
    fflush(stdout);
    return (ts_failed == 0 && ts_passed > 0) ? 0 : 1;
}

int ts_check_eq_i64(long long a, long long b, const char *file, int line, const char *ea, const char *eb)
{
    return ts_record(a == b, file, line, "%s == %s (%lld vs %lld)", ea, eb, a, b);
}

int ts_check_eq_u64(unsigned long long a, unsigned long long b, const char *file, int line, const char *ea,
                    const char *eb)
{
    return ts_record(a == b, file, line, "%s == %s (0x%llx vs 0x%llx)", ea, eb, a, b);
}

int ts_check_status(int got, int want, const char *file, int line, const char *expr)
{
    return ts_record(got == want, file, line, "%s: status %d, want %d", expr, got, want);
}

int ts_check_str_eq(const char *a, const char *b, const char *file, int line, const char *expr)
{
    int ok = a && b && strcmp(a, b) == 0;
    return ts_record(ok, file, line, "%s: \"%s\" == \"%s\"", expr, a ? a : "(null)", b ? b : "(null)");
}

int ts_check_contains(const char *haystack, const char *needle, const char *file, int line, const char *expr)
{
    int ok = haystack && needle && strstr(haystack, needle) != NULL;
    return ts_record(ok, file, line, "%s: \"%s\" should contain \"%s\"", expr, haystack ? haystack : "(null)",
                     needle ? needle : "(null)");
}

/* ---- PRNG ---------------------------------------------------------------- */

void ts_rng_seed(ts_rng *r, uint64_t seed) { r->state = seed; }

uint64_t ts_rng_next(ts_rng *r)
{
    uint64_t z = (r->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

int64_t ts_rng_range(ts_rng *r, int64_t lo, int64_t hi)
{
    uint64_t span = (uint64_t)hi - (uint64_t)lo + 1u;
    if (span == 0) /* the full 64-bit range */
        return (int64_t)ts_rng_next(r);
    return (int64_t)((uint64_t)lo + ts_rng_next(r) % span);
}

int ts_rng_chance(ts_rng *r, int num, int den) { return (int64_t)(ts_rng_next(r) % (uint64_t)den) < num; }

uint64_t ts_seed_from_env(uint64_t fallback)
{
    const char *s = getenv("MAXPOOL_TEST_SEED");
    uint64_t seed = fallback;
    if (s && *s)
        seed = strtoull(s, NULL, 0);
    printf("seed %" PRIu64 " (set MAXPOOL_TEST_SEED to change)\n", seed);
    return seed;
}

void ts_parallel_always(void) { setenv("MAXPOOL_PARALLEL_MIN_BYTES", "0", 0); }

double ts_now_s(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int ts_is_reference_run(const char *name, int64_t in_elements, int64_t out_elements)
{
    return strncmp(name, "ref_", 4) == 0 && in_elements + out_elements > 4096;
}

int ts_sparse_skip(int spatial_rank, const int64_t *shape)
{
    static long every = -1, n_small, n_big;
    if (every < 0) {
        const char *e = getenv("MAXPOOL_TEST_SPARSE");
        every = e && *e ? strtol(e, NULL, 10) : 1;
        every = every > 1000 ? 1000 : every; /* (every * every stays small) */
        if (every > 1)
            printf("note: MAXPOOL_TEST_SPARSE=%ld: one case in %ld is checked (big ones: one in %ld)\n", every,
                   every, every * every);
    }
    if (every <= 1)
        return 0;
    double elements = 1;
    for (int i = 0; i < spatial_rank + 2; ++i)
        elements *= (double)shape[i];
    if (elements > (double)(1 << 20))
        return n_big++ % (every * every) != 0;
    return n_small++ % every != 0;
}

void ts_omp_passive(char **argv)
{
#if defined(__linux__)
    if (getenv("OMP_WAIT_POLICY") || !argv)
        return;
    if (setenv("OMP_WAIT_POLICY", "passive", 1) != 0)
        return;
    fflush(stdout);
    execv("/proc/self/exe", argv);
    /* exec failed: carry on with the default policy */
#else
    (void)argv;
#endif
}

/* ---- half precision: arithmetic formulation (the library uses bit surgery) -- */

float ts_f16_to_f32(uint16_t h)
{
    const int sign = (h >> 15) & 1;
    const int e = (h >> 10) & 0x1f;
    const int m = h & 0x3ff;
    float v;
    if (e == 0x1f)
        v = m ? NAN : INFINITY;
    else if (e == 0)
        v = ldexpf((float)m, -24); /* subnormal (or zero): m * 2^-24 */
    else
        v = ldexpf((float)(m + 1024), e - 25); /* (1 + m/1024) * 2^(e-15) */
    return sign ? -v : v;
}

uint16_t ts_f32_to_f16(float f)
{
    const uint16_t sign = signbit(f) ? 0x8000u : 0;
    const float a = fabsf(f);
    if (isnan(f))
        return (uint16_t)(sign | 0x7e00u);
    if (a >= 65520.0f) /* rounds to infinity (65504 + half an ulp) */
        return (uint16_t)(sign | 0x7c00u);
    if (a < ldexpf(1.0f, -14)) {
        /* subnormal range: multiples of 2^-24, round to nearest even */
        float q = rintf(a * 16777216.0f);
        return (uint16_t)(sign | (uint16_t)q); /* q == 1024 is the smallest normal */
    }
    int ex;
    float m = frexpf(a, &ex); /* a = m * 2^ex, m in [0.5, 1) */
    const int E = ex - 1;     /* a = (2m) * 2^E, 2m in [1, 2) */
    float q = rintf((2.0f * m - 1.0f) * 1024.0f);
    /* q may round up to 1024: the carry moves into the exponent field */
    return (uint16_t)(sign | (uint16_t)(((unsigned)(E + 15) << 10) + (unsigned)q));
}

float ts_bf16_to_f32(uint16_t b)
{
    const int sign = (b >> 15) & 1;
    const int e = (b >> 7) & 0xff;
    const int m = b & 0x7f;
    float v;
    if (e == 0xff)
        v = m ? NAN : INFINITY;
    else if (e == 0)
        v = ldexpf((float)m, -133); /* m * 2^-126 / 128 */
    else
        v = ldexpf((float)(m + 128), e - 134); /* (1 + m/128) * 2^(e-127) */
    return sign ? -v : v;
}

uint16_t ts_f32_to_bf16(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    if (isnan(f))
        return (uint16_t)((u >> 16) | 0x0040u);
    const uint32_t lower = u & 0xffffu, upper = u >> 16;
    if (lower > 0x8000u || (lower == 0x8000u && (upper & 1u)))
        return (uint16_t)(upper + 1u); /* carries into the exponent; max finite -> inf */
    return (uint16_t)upper;
}

/* ---- bit comparison -------------------------------------------------------- */

uint64_t ts_elem_bits(const void *base, int64_t i, size_t elem_size)
{
    const unsigned char *p = (const unsigned char *)base + (size_t)i * elem_size;
    switch (elem_size) {
    case 1: return *p;
    case 2: { uint16_t v; memcpy(&v, p, 2); return v; }
    case 4: { uint32_t v; memcpy(&v, p, 4); return v; }
    case 8: { uint64_t v; memcpy(&v, p, 8); return v; }
    }
    return 0;
}

int64_t ts_first_bit_mismatch(const void *a, const void *b, int64_t count, size_t elem_size)
{
    const unsigned char *pa = a, *pb = b;
    if (count <= 0)
        return -1;
    if (memcmp(pa, pb, (size_t)count * elem_size) == 0)
        return -1;
    for (int64_t i = 0; i < count; ++i)
        if (memcmp(pa + (size_t)i * elem_size, pb + (size_t)i * elem_size, elem_size) != 0)
            return i;
    return -1;
}

int ts_check_bits_eq(const void *a, const void *b, int64_t count, size_t elem_size, const char *file, int line,
                     const char *what)
{
    int64_t i = ts_first_bit_mismatch(a, b, count, elem_size);
    if (i < 0)
        return ts_record(1, file, line, "%s", what);
    int64_t diffs = 0;
    for (int64_t j = i; j < count; ++j)
        diffs += ts_elem_bits(a, j, elem_size) != ts_elem_bits(b, j, elem_size);
    return ts_record(0, file, line, "%s: element %lld of %lld differs: 0x%llx vs 0x%llx (%lld elements differ)",
                     what, (long long)i, (long long)count, (unsigned long long)ts_elem_bits(a, i, elem_size),
                     (unsigned long long)ts_elem_bits(b, i, elem_size), (long long)diffs);
}

int ts_isa_ceilings(maxpool_isa *isas)
{
    int n = 0;
    const maxpool_isa cpu = maxpool_cpu_isa();
    isas[n++] = MAXPOOL_ISA_SCALAR;
#if defined(__x86_64__) || defined(__i386__)
    if (cpu == MAXPOOL_ISA_SSE2 || cpu == MAXPOOL_ISA_AVX2 || cpu == MAXPOOL_ISA_AVX512)
        isas[n++] = MAXPOOL_ISA_SSE2;
    if (cpu == MAXPOOL_ISA_AVX2 || cpu == MAXPOOL_ISA_AVX512)
        isas[n++] = MAXPOOL_ISA_AVX2;
    if (cpu == MAXPOOL_ISA_AVX512) /* AVX-512 hardware, or the SIMDe emulation build (MAXPOOL_AVX512_EMULATE) */
        isas[n++] = MAXPOOL_ISA_AVX512;
#elif defined(__aarch64__)
    if (cpu == MAXPOOL_ISA_NEON)
        isas[n++] = MAXPOOL_ISA_NEON;
#endif
    printf("ISA ceilings tested:");
    for (int k = 0; k < n; ++k)
        printf(" %s", maxpool_isa_name(isas[k]));
    printf("\n");
#if defined(__x86_64__) || defined(__i386__)
    if (cpu != MAXPOOL_ISA_AVX512)
        printf("ISA ceilings skipped: avx512%s (this CPU does not have them)\n", cpu != MAXPOOL_ISA_AVX2 ? " avx2" : "");
#endif
    const char *req = getenv("MAXPOOL_TEST_REQUIRE_ISA");
    if (req && *req) {
        int found = 0;
        for (int k = 0; k < n; ++k)
            found |= strcmp(req, maxpool_isa_name(isas[k])) == 0;
        CHECK_MSG(found, "MAXPOOL_TEST_REQUIRE_ISA=%s: this CPU (or build) does not report it", req);
    }
    return n;
}
