/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Shared helpers for the C tests (linked into every tests/c/test_*.c).
 *
 * Checks count passes and failures and print file:line with the values on
 * failure (the first TS_MAX_REPORTED failures; the rest are only counted).
 * Every test program ends with `return ts_finish();`, which prints
 *     N passed, N failed
 * alone on a line (CI reads it) and returns the exit status.
 *
 * Also: a seeded PRNG (splitmix64), f16/bf16 <-> f32 conversions written
 * independently of the library's, and bit-exact array comparison (compares
 * bit patterns, so NaN == NaN when the outputs are of the same type).
 */
#ifndef MAXPOOL_TEST_SUPPORT_H
#define MAXPOOL_TEST_SUPPORT_H

#include "maxpool.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TS_MAX_REPORTED 50

/* ---- check counting ---------------------------------------------------- */

extern long ts_passed;
extern long ts_failed;

/* Records one check; on failure prints "file:line: FAIL: what" plus detail. */
int ts_record(int ok, const char *file, int line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* Context printed with each failure (e.g. the case's description); "" clears. */
void ts_set_context(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* Prints "<passed> passed, <failed> failed" on its own line; returns 0 when
 * nothing failed (and something passed), 1 otherwise. */
int ts_finish(void);

#define CHECK(cond) ts_record(!!(cond), __FILE__, __LINE__, "%s", #cond)

#define CHECK_MSG(cond, ...) ts_record(!!(cond), __FILE__, __LINE__, __VA_ARGS__)

/* The value checks are expressions: nonzero when the check passed. */
#define CHECK_EQ_I64(a, b) ts_check_eq_i64((long long)(a), (long long)(b), __FILE__, __LINE__, #a, #b)

#define CHECK_EQ_INT(a, b) CHECK_EQ_I64(a, b)

#define CHECK_EQ_U64(a, b)                                                                                         \
    ts_check_eq_u64((unsigned long long)(a), (unsigned long long)(b), __FILE__, __LINE__, #a, #b)

/* Status codes, printed with their numbers. */
#define CHECK_STATUS(got, want) ts_check_status((int)(got), (int)(want), __FILE__, __LINE__, #got)

int ts_check_eq_i64(long long a, long long b, const char *file, int line, const char *ea, const char *eb);
int ts_check_eq_u64(unsigned long long a, unsigned long long b, const char *file, int line, const char *ea,
                    const char *eb);
int ts_check_status(int got, int want, const char *file, int line, const char *expr);

#define CHECK_STR_EQ(a, b) ts_check_str_eq((a), (b), __FILE__, __LINE__, #a)
#define CHECK_CONTAINS(haystack, needle) ts_check_contains((haystack), (needle), __FILE__, __LINE__, #haystack)

int ts_check_str_eq(const char *a, const char *b, const char *file, int line, const char *expr);
int ts_check_contains(const char *haystack, const char *needle, const char *file, int line, const char *expr);

/* ---- PRNG: splitmix64 -------------------------------------------------- */

typedef struct ts_rng {
    uint64_t state;
} ts_rng;

void ts_rng_seed(ts_rng *r, uint64_t seed);
uint64_t ts_rng_next(ts_rng *r);
/* Uniform integer in [lo, hi] (inclusive; lo <= hi). */
int64_t ts_rng_range(ts_rng *r, int64_t lo, int64_t hi);
/* 1 with probability num/den. */
int ts_rng_chance(ts_rng *r, int num, int den);

/* Seed from the environment variable MAXPOOL_TEST_SEED (decimal or 0x hex)
 * when set, else `fallback`. Prints the seed used. */
uint64_t ts_seed_from_env(uint64_t fallback);

/* ---- environment ------------------------------------------------------- */

/* OpenMP's default wait policy spins idle worker threads for a while after
 * every parallel region; with many short runs on a busy machine that costs
 * ten times the work. When OMP_WAIT_POLICY is unset, this sets it to
 * "passive" and re-executes the program (the runtime reads it only at start).
 * Call first thing in main. A no-op where /proc/self/exe is unavailable. */
void ts_omp_passive(char **argv);
/* Sets MAXPOOL_PARALLEL_MIN_BYTES=0 (unless set): the tests' small plans then
 * run with num_threads threads too, so the threaded paths are exercised. */
void ts_parallel_always(void);

/* Wall-clock seconds (section timings printed by the kernel tests). */
double ts_now_s(void);

/* Whether a kernel test's run of a plan on kernel `name` would only repeat
 * the reference computation that made its expected values: the plan is on
 * a reference kernel ("ref_...") and the case has more than 4,096 input and
 * output elements (small cases still run it: the run wrapper's task ranges).
 * Under ASan and emulation the reference was most of the tests' time. */
int ts_is_reference_run(const char *name, int64_t in_elements, int64_t out_elements);

/* MAXPOOL_TEST_SPARSE=N (N >= 2; unset, 0 or 1: every case): the kernel
 * sweeps (test_kernels, test_kernels_types) check one case in N, and one in
 * N * N of those with more than 2^20 input elements (each of those runs for
 * seconds there); the others are skipped before their plan is made (the
 * sweeps are otherwise unchanged). For the AArch64 stage under qemu-user,
 * where a case runs 20-50 times slower than natively and the non-f32 types
 * have no kernel but the reference (their sweep checks dispatch and the
 * reference's task split there): the native stages check every case.
 * `shape` holds spatial_rank + 2 sizes. Returns 1 to skip the case. */
int ts_sparse_skip(int spatial_rank, const int64_t *shape);

/* ---- half-precision conversions (independent of the library's) --------- */

/* Exact widening of IEEE binary16 bits to float (NaN stays NaN, sign kept). */
float ts_f16_to_f32(uint16_t h);
/* float -> binary16 bits, round to nearest even; NaN -> quiet NaN with the sign. */
uint16_t ts_f32_to_f16(float f);
/* Exact widening of bfloat16 bits to float. */
float ts_bf16_to_f32(uint16_t b);
/* float -> bfloat16 bits, round to nearest even; NaN -> quiet NaN with the sign. */
uint16_t ts_f32_to_bf16(float f);

/* ---- bit-exact comparison ---------------------------------------------- */

/* Index of the first element (of elem_size bytes) whose bits differ, or -1. */
int64_t ts_first_bit_mismatch(const void *a, const void *b, int64_t count, size_t elem_size);

/* Checks a and b bit for bit; on a mismatch prints the first differing
 * element's position and bytes (as hex) under `what`. */
#define CHECK_BITS_EQ(a, b, count, elem_size, what)                                                                \
    ts_check_bits_eq((a), (b), (count), (elem_size), __FILE__, __LINE__, (what))
int ts_check_bits_eq(const void *a, const void *b, int64_t count, size_t elem_size, const char *file, int line,
                     const char *what);

/* Element bits as an unsigned number (elem_size 1, 2, 4 or 8). */
uint64_t ts_elem_bits(const void *base, int64_t i, size_t elem_size);

#ifdef __cplusplus
}
#endif

/* The ISA ceilings a kernel test runs at on this CPU (scalar first, then
 * each SIMD level the CPU has, up to 4), printed; the ones it lacks are
 * printed as skipped. MAXPOOL_TEST_REQUIRE_ISA=name makes the test fail
 * when that ceiling is not among them (CI's AVX-512 emulation stage).
 * Returns the count. */
int ts_isa_ceilings(maxpool_isa *isas);

#endif
