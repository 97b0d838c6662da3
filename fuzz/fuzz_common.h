/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Shared by the libFuzzer targets: a byte decoder biased towards the values
 * that break size arithmetic, and the run-and-compare step (a plan's results
 * against the scalar reference plan's, bit for bit).
 *
 * The byte format is documented here because fuzz/gen_corpus.py writes it
 * (seeds and regressions); keep the two in step.
 *
 *   u8        one byte; 0 once the input is used up
 *   i64       selector s, then:
 *               s < 0x80  s & 15                      (0 .. 15)
 *               s < 0xC0  fz_interesting[u8 % N] + (s & 3) - 1   (wrapping)
 *               s < 0xE0  -(s & 15) - 1               (-1 .. -16)
 *               else      8 raw bytes, little-endian
 *   enum(n)   selector s: s < 0xF0: s % n; else fz_hostile_ints[s - 0xF0]
 *   str       selector s: s < 0xC0: fz_strings[s % N] (NULL, "", names, near
 *             misses); else a raw string of (u8 % 48) bytes. Every string is
 *             copied into a malloc of exactly strlen + 1 bytes, so an
 *             over-read is an ASan report.
 *
 * Element fill (the input tensor): one byte per element, cycled over what is
 * left of the input; in "special" mode the byte picks a value from a table of
 * the type's edge values (NaN with payloads and signs, -0, +-inf, max,
 * lowest, denormals, small integers for ties), in raw mode the bytes are the
 * element's bits.
 */
#ifndef MAXPOOL_FUZZ_COMMON_H
#define MAXPOOL_FUZZ_COMMON_H

#include "fuzz_check.h"
#include "maxpool.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- byte decoder --------------------------------------------------------- */

typedef struct fz {
    const uint8_t *p;
    size_t n;
} fz;

static inline uint8_t fz_u8(fz *f)
{
    if (!f->n)
        return 0;
    f->n--;
    return *f->p++;
}

static inline uint64_t fz_raw64(fz *f)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i)
        v |= (uint64_t)fz_u8(f) << (8 * i);
    return v;
}

static const int64_t fz_interesting[] = {
    0,
    1,
    2,
    3,
    255,
    256,
    3000,
    16384,
    65536,
    (int64_t)1 << 20,
    (int64_t)1 << 29,
    (int64_t)1 << 30,
    (int64_t)1 << 31,
    (int64_t)1 << 32,
    (int64_t)1 << 33,
    (int64_t)1 << 40,
    (int64_t)1 << 48,
    (int64_t)1 << 53,
    (int64_t)1 << 61,
    (int64_t)1 << 62,
    (int64_t)3 << 61,
    INT64_MAX,
    INT64_MAX / 2,
    INT64_MAX / 3,
    INT64_MIN,
    -((int64_t)1 << 31),
    -((int64_t)1 << 32),
    -((int64_t)1 << 62),
    (int64_t)UINT32_MAX,
    (int64_t)INT32_MAX,
    (int64_t)1 << 60,
    (int64_t)1 << 35,
};
#define FZ_NINTERESTING ((int)(sizeof fz_interesting / sizeof fz_interesting[0]))

static inline int64_t fz_i64(fz *f)
{
    const uint8_t s = fz_u8(f);
    if (s < 0x80)
        return s & 15;
    if (s < 0xC0) {
        const uint64_t base = (uint64_t)fz_interesting[fz_u8(f) % FZ_NINTERESTING];
        return (int64_t)(base + (uint64_t)(int64_t)((s & 3) - 1));
    }
    if (s < 0xE0)
        return -(int64_t)(s & 15) - 1;
    return (int64_t)fz_raw64(f);
}

static const int fz_hostile_ints[16] = {-1, -2, INT_MIN, INT_MAX, 3, 4, 5, 6, 7, 8, 9, 10, 16, 100, 255, 65536};

static inline int fz_enum(fz *f, int n)
{
    const uint8_t s = fz_u8(f);
    if (s < 0xF0)
        return s % n;
    return fz_hostile_ints[s - 0xF0];
}

static const char *const fz_strings[] = {
    NULL,         "",           "NOTSET",      "VALID",       "SAME_UPPER", "SAME_LOWER", "explicit",
    "valid",      "same_upper", "same_lower",  "floor",       "ceil",       "ceil_torch", "i32",
    "i64",        "notset",     "Same_Upper",  "SAME_UPPER ", "i16",        "u8",         "FLOOR",
    "ceil_torch\n", "SAME",     "same",        "ceil_",       "i3",         "i640",       " i64",
    "EXPLICIT",   "NOTSETX",    "VALI",        "int64",
};
#define FZ_NSTRINGS ((int)(sizeof fz_strings / sizeof fz_strings[0]))

/* A malloc'ed string (exactly strlen + 1 bytes) or NULL; release with free(). */
static inline char *fz_str(fz *f)
{
    const uint8_t s = fz_u8(f);
    if (s < 0xC0) {
        const char *t = fz_strings[s % FZ_NSTRINGS];
        if (!t)
            return NULL;
        const size_t len = strlen(t);
        char *r = (char *)malloc(len + 1);
        memcpy(r, t, len + 1);
        return r;
    }
    const size_t len = fz_u8(f) % 48;
    char *r = (char *)malloc(len + 1);
    size_t i = 0;
    for (; i < len && f->n; ++i)
        r[i] = (char)fz_u8(f);
    r[i] = '\0';
    return r;
}

/* FUZZ_VERBOSE=1: print what each input decodes to (triage, reproducers). */
static inline int fz_verbose(void)
{
    static int v = -1;
    if (v < 0) {
        const char *e = getenv("FUZZ_VERBOSE");
        v = e && *e && strcmp(e, "0") != 0;
    }
    return v;
}

/* ---- set-up ----------------------------------------------------------------- */

/* LLVMFuzzerInitialize of the library targets: plans with num_threads = 2
 * really use two threads whatever the size; the ISA ceiling is the CPU's
 * unless an input lowers it. */
static inline void fz_init_env(void)
{
    setenv("MAXPOOL_PARALLEL_MIN_BYTES", "0", 1);
    unsetenv("MAXPOOL_ISA");
}

/* ---- checks --------------------------------------------------------------- */


/* A failing call: a real code, the same code in err, a non-empty message that
 * ends inside the buffer. */
static inline void fz_check_failure(maxpool_status st, const maxpool_error *err, const char *what)
{
    FZ_CHECK(st >= MAXPOOL_ERR_NULL_POINTER && st <= MAXPOOL_ERR_OUT_OF_MEMORY, "%s returned status %d", what,
             (int)st);
    FZ_CHECK(err->code == st, "%s: err.code %d != returned %d", what, (int)err->code, (int)st);
    FZ_CHECK(memchr(err->message, '\0', MAXPOOL_MESSAGE_SIZE) != NULL, "%s: message not terminated", what);
    FZ_CHECK(err->message[0] != '\0', "%s: empty message for status %d", what, (int)st);
}

static inline void fz_check_success(const maxpool_error *err, const char *what)
{
    FZ_CHECK(err->code == MAXPOOL_OK, "%s: OK returned but err.code = %d", what, (int)err->code);
}

/* ---- input fill ------------------------------------------------------------ */

static inline uint64_t fz_special_bits(maxpool_dtype t, uint8_t b)
{
    /* 32 classes; the small integers (ties) take the most room */
    static const uint32_t f32[32] = {
        0x00000000u, 0x80000000u, 0x3f800000u, 0xbf800000u, 0x40000000u, 0xc0000000u, 0x40400000u, 0xc0400000u,
        0x7fc00000u, 0xffc00000u, 0x7f800001u, 0x7fc12345u, 0xff800001u, 0x7f800000u, 0xff800000u, 0x7f7fffffu,
        0xff7fffffu, 0x00000001u, 0x80000001u, 0x00800000u, 0x3f000000u, 0xbf000000u, 0x3f800000u, 0x40000000u,
        0x00000000u, 0x3f800000u, 0x40400000u, 0x7fc00000u, 0x40800000u, 0xc0800000u, 0x3f800000u, 0x00000000u};
    static const uint64_t f64[32] = {
        0x0000000000000000ull, 0x8000000000000000ull, 0x3ff0000000000000ull, 0xbff0000000000000ull,
        0x4000000000000000ull, 0xc000000000000000ull, 0x4008000000000000ull, 0xc008000000000000ull,
        0x7ff8000000000000ull, 0xfff8000000000000ull, 0x7ff0000000000001ull, 0x7ff8000000012345ull,
        0xfff0000000000001ull, 0x7ff0000000000000ull, 0xfff0000000000000ull, 0x7fefffffffffffffull,
        0xffefffffffffffffull, 0x0000000000000001ull, 0x8000000000000001ull, 0x0010000000000000ull,
        0x3fe0000000000000ull, 0xbfe0000000000000ull, 0x3ff0000000000000ull, 0x4000000000000000ull,
        0x0000000000000000ull, 0x3ff0000000000000ull, 0x4008000000000000ull, 0x7ff8000000000000ull,
        0x4010000000000000ull, 0xc010000000000000ull, 0x3ff0000000000000ull, 0x0000000000000000ull};
    static const uint16_t f16[32] = {0x0000, 0x8000, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4200, 0xc200,
                                     0x7e00, 0xfe00, 0x7c01, 0x7e5a, 0xfc01, 0x7c00, 0xfc00, 0x7bff,
                                     0xfbff, 0x0001, 0x8001, 0x0400, 0x3800, 0xb800, 0x3c00, 0x4000,
                                     0x0000, 0x3c00, 0x4200, 0x7e00, 0x4400, 0xc400, 0x3c00, 0x0000};
    static const uint16_t bf16[32] = {0x0000, 0x8000, 0x3f80, 0xbf80, 0x4000, 0xc000, 0x4040, 0xc040,
                                      0x7fc0, 0xffc0, 0x7f81, 0x7fc5, 0xff81, 0x7f80, 0xff80, 0x7f7f,
                                      0xff7f, 0x0001, 0x8001, 0x0080, 0x3f00, 0xbf00, 0x3f80, 0x4000,
                                      0x0000, 0x3f80, 0x4040, 0x7fc0, 0x4080, 0xc080, 0x3f80, 0x0000};
    static const int64_t ints[16] = {0, 1, -1, 2, -2, 3, 1, 0, INT64_MIN, INT64_MAX, 0, 1, -3, 2, INT64_MIN + 1,
                                     INT64_MAX - 1};
    const int k = b & 31;
    switch (t) {
    case MAXPOOL_F32: return f32[k];
    case MAXPOOL_F64: return f64[k];
    case MAXPOOL_F16: return f16[k];
    case MAXPOOL_BF16: return bf16[k];
    default: break;
    }
    /* integers: small values (ties) and the type's min / max */
    const int64_t v = ints[b & 15];
    int64_t lo, hi;
    switch (t) {
    case MAXPOOL_I8: lo = INT8_MIN, hi = INT8_MAX; break;
    case MAXPOOL_U8: lo = 0, hi = UINT8_MAX; break;
    case MAXPOOL_I16: lo = INT16_MIN, hi = INT16_MAX; break;
    case MAXPOOL_U16: lo = 0, hi = UINT16_MAX; break;
    case MAXPOOL_I32: lo = INT32_MIN, hi = INT32_MAX; break;
    default: lo = INT64_MIN, hi = INT64_MAX; break;
    }
    const int64_t c = v < lo ? lo : v > hi ? hi : v;
    return (uint64_t)c;
}

/* Fills n elements of dtype t from the remaining bytes (cycled). */
static inline void fz_fill(fz *f, maxpool_dtype t, void *x, int64_t n, int raw)
{
    const size_t es = maxpool_dtype_size(t);
    unsigned char *p = (unsigned char *)x;
    const uint8_t *src = f->p;
    const size_t m = f->n;
    for (int64_t i = 0; i < n; ++i) {
        const uint8_t b = m ? (uint8_t)(src[(size_t)i % m] + (uint8_t)((size_t)i / m * 0x3b)) : (uint8_t)(i * 7 + 3);
        if (raw) {
            for (size_t j = 0; j < es; ++j)
                p[(size_t)i * es + j] = m ? (uint8_t)(src[((size_t)i * es + j) % m] ^ (uint8_t)j) : b;
        } else {
            const uint64_t bits = fz_special_bits(t, b);
            memcpy(p + (size_t)i * es, &bits, es); /* little-endian: the low bytes */
        }
    }
}

/* ---- plans and runs ------------------------------------------------------------ */

/* Largest output the runs allocate (elements); larger plans are only created. */
#define FZ_MAX_OUT_ELEMS ((int64_t)1 << 16)
/* Largest input the runs allocate (elements). */
#define FZ_MAX_IN_ELEMS ((int64_t)1 << 16)

static inline int64_t fz_index_size(maxpool_index_type t)
{
    return t == MAXPOOL_INDEX_I64 ? 8 : t == MAXPOOL_INDEX_I32 ? 4 : 0;
}

/* Product of n dims; -1 when one is negative or when it overflows (a zero
 * dim makes it 0 whatever the others). */
static inline int64_t fz_product(const int64_t *d, int n)
{
    for (int i = 0; i < n; ++i) {
        if (d[i] < 0)
            return -1;
        if (d[i] == 0)
            return 0;
    }
    int64_t p = 1;
    for (int i = 0; i < n; ++i)
        if (__builtin_mul_overflow(p, d[i], &p))
            return -1;
    return p;
}

static inline void *fz_malloc(size_t n)
{
    void *p = malloc(n);
    if (!p && n) {
        fprintf(stderr, "fuzz harness: malloc(%zu) failed\n", n);
        abort();
    }
    return p;
}

/*
 * A successful plan's queries against the shapes: the output shape agrees
 * with maxpool_output_shape, N and C carry over, every dim is >= 0, the
 * element counts are the products of the shapes.
 */
static inline void fz_check_plan(const maxpool_desc *d, const int64_t *in_shape, const maxpool_plan *plan)
{
    const int r = d->spatial_rank, nd = r + 2;
    int64_t os[MAXPOOL_MAX_SPATIAL + 2], os2[MAXPOOL_MAX_SPATIAL + 2];
    maxpool_plan_output_shape(plan, os);
    maxpool_error err;
    memset(&err, 0x77, sizeof err);
    const maxpool_status st = maxpool_output_shape(d, in_shape, os2, &err);
    FZ_CHECK(st == MAXPOOL_OK, "plan created but maxpool_output_shape says %d: %s", (int)st, err.message);
    FZ_CHECK(memcmp(os, os2, (size_t)nd * sizeof os[0]) == 0, "plan output shape != maxpool_output_shape");
    const int cpos = d->layout == MAXPOOL_CHANNELS_LAST ? nd - 1 : 1;
    FZ_CHECK(os[0] == in_shape[0] && os[cpos] == in_shape[cpos], "N or C changed: %lld %lld -> %lld %lld",
             (long long)in_shape[0], (long long)in_shape[cpos], (long long)os[0], (long long)os[cpos]);
    for (int i = 0; i < nd; ++i)
        FZ_CHECK(os[i] >= 0, "output dim %d = %lld", i, (long long)os[i]);
    if (in_shape[0] > 0 && in_shape[cpos] > 0)
        for (int i = 0; i < nd; ++i)
            FZ_CHECK(os[i] >= 1, "output dim %d = %lld with N, C > 0", i, (long long)os[i]);
    const int64_t pin = fz_product(in_shape, nd), pout = fz_product(os, nd);
    FZ_CHECK(pin >= 0, "plan accepted an input shape with a negative dim or an overflowing element count");
    FZ_CHECK(pout >= 0, "output shape's element count overflows or is negative");
    FZ_CHECK(maxpool_plan_input_elements(plan) == pin, "input elements %lld != product %lld",
             (long long)maxpool_plan_input_elements(plan), (long long)pin);
    FZ_CHECK(maxpool_plan_output_elements(plan) == pout, "output elements %lld != product %lld",
             (long long)maxpool_plan_output_elements(plan), (long long)pout);
    const char *kn = maxpool_plan_kernel_name(plan);
    FZ_CHECK(kn && kn[0], "no kernel name");
    FZ_CHECK(maxpool_plan_threads(plan) >= 1, "maxpool_plan_threads = %d", maxpool_plan_threads(plan));
}

typedef struct fz_out {
    void *y, *ind;
    size_t ybytes, ibytes;
} fz_out;

static inline void fz_out_alloc(fz_out *o, int64_t nout, size_t es, size_t is, int fillbyte)
{
    o->ybytes = (size_t)nout * es;
    o->ibytes = (size_t)nout * is;
    o->y = fz_malloc(o->ybytes);
    o->ind = is ? fz_malloc(o->ibytes) : NULL;
    memset(o->y, fillbyte, o->ybytes);
    if (o->ind)
        memset(o->ind, fillbyte, o->ibytes);
}

static inline void fz_out_free(fz_out *o)
{
    free(o->y);
    free(o->ind);
}

static inline void fz_run_into(const maxpool_plan *plan, const void *x, fz_out *o, const char *what)
{
    const maxpool_status st = maxpool_run(plan, x, o->y, o->ind);
    FZ_CHECK(st == MAXPOOL_OK, "%s: maxpool_run returned %d (kernel %s)", what, (int)st,
             maxpool_plan_kernel_name(plan));
}

static inline void fz_compare(const fz_out *a, const fz_out *b, const char *what, const maxpool_plan *pa,
                              const maxpool_plan *pb, size_t es, size_t is)
{
    if (memcmp(a->y, b->y, a->ybytes) != 0) {
        size_t i = 0;
        while (i < a->ybytes && ((const unsigned char *)a->y)[i] == ((const unsigned char *)b->y)[i])
            ++i;
        FZ_CHECK(0, "%s: values differ at element %zu (kernels %s vs %s)", what, i / es, maxpool_plan_kernel_name(pa),
                 maxpool_plan_kernel_name(pb));
    }
    if (a->ind && memcmp(a->ind, b->ind, a->ibytes) != 0) {
        size_t i = 0;
        while (i < a->ibytes && ((const unsigned char *)a->ind)[i] == ((const unsigned char *)b->ind)[i])
            ++i;
        FZ_CHECK(0, "%s: indices differ at element %zu (kernels %s vs %s)", what, i / is,
                 maxpool_plan_kernel_name(pa), maxpool_plan_kernel_name(pb));
    }
}

/*
 * The run-and-compare step. `plan` was created from *d and in_shape (any ISA
 * ceiling, any num_threads). When the tensors are small enough: fill x from
 * the remaining bytes, run `plan` twice into buffers pre-filled with two
 * different patterns (an element a kernel does not write shows), run a
 * plan made with max_isa = SCALAR and num_threads = 1 (the reference), and
 * with `threads` also a num_threads = 2 plan; every result must match the
 * reference bit for bit, and x must not change. Every buffer is its own
 * malloc of exactly the reported size, so ASan sees any overrun by one byte.
 */
static inline void fz_run_compare(const maxpool_desc *d, const int64_t *in_shape, const maxpool_plan *plan, fz *f,
                                  int raw, int threads)
{
    const int64_t nin = maxpool_plan_input_elements(plan), nout = maxpool_plan_output_elements(plan);
    if (nout > FZ_MAX_OUT_ELEMS || nin > FZ_MAX_IN_ELEMS || nin < 0 || nout < 0)
        return;
    const size_t es = maxpool_dtype_size(d->dtype), is = (size_t)fz_index_size(d->index_type);
    FZ_CHECK(es > 0, "plan created for dtype %d", (int)d->dtype);

    void *x = fz_malloc((size_t)nin * es), *xcopy = fz_malloc((size_t)nin * es);
    fz_fill(f, d->dtype, x, nin, raw);
    memcpy(xcopy, x, (size_t)nin * es);

    fz_out a, b, r;
    fz_out_alloc(&a, nout, es, is, 0xA5);
    fz_out_alloc(&b, nout, es, is, 0x5A);
    fz_run_into(plan, x, &a, "plan");
    fz_run_into(plan, x, &b, "plan, second run");
    fz_compare(&a, &b, "two runs of one plan (pre-filled 0xA5 / 0x5A: an unwritten element or nondeterminism)", plan,
               plan, es, is);

    maxpool_desc ds = *d;
    ds.max_isa = MAXPOOL_ISA_SCALAR;
    ds.num_threads = 1;
    maxpool_plan *sp = NULL;
    maxpool_error err;
    maxpool_status st = maxpool_plan_create(&ds, in_shape, &sp, &err);
    FZ_CHECK(st == MAXPOOL_OK && sp, "the scalar plan failed (%d: %s) where the plan succeeded", (int)st, err.message);
    if (fz_verbose())
        fprintf(stderr, "  run: %lld -> %lld elements, kernel %s (threads %d) vs %s\n", (long long)nin, (long long)nout,
                maxpool_plan_kernel_name(plan), maxpool_plan_threads(plan), maxpool_plan_kernel_name(sp));
    fz_out_alloc(&r, nout, es, is, 0x3C);
    fz_run_into(sp, x, &r, "scalar plan");
    fz_compare(&a, &r, "plan vs the scalar plan", plan, sp, es, is);

    if (threads) {
        maxpool_desc dt = *d;
        dt.num_threads = 2;
        maxpool_plan *tp = NULL;
        st = maxpool_plan_create(&dt, in_shape, &tp, &err);
        FZ_CHECK(st == MAXPOOL_OK && tp, "the num_threads=2 plan failed (%d: %s)", (int)st, err.message);
        fz_out t;
        fz_out_alloc(&t, nout, es, is, 0xC3);
        fz_run_into(tp, x, &t, "num_threads=2 plan");
        fz_compare(&t, &r, "num_threads=2 plan vs the scalar plan", tp, sp, es, is);
        fz_out_free(&t);
        maxpool_plan_destroy(tp);
    }
    FZ_CHECK(memcmp(x, xcopy, (size_t)nin * es) == 0, "maxpool_run modified its input");

    fz_out_free(&a);
    fz_out_free(&b);
    fz_out_free(&r);
    maxpool_plan_destroy(sp);
    free(x);
    free(xcopy);
}

static inline void fz_print_desc(const maxpool_desc *d, const int64_t *in_shape)
{
    fprintf(stderr,
            "desc: rank %d dtype %d layout %d window %d auto_pad %d rounding %d index %d/axis %d/order %d nan %d "
            "empty %d/%d reject %d init %d threads %d isa %d\n",
            d->spatial_rank, (int)d->dtype, (int)d->layout, (int)d->window, (int)d->auto_pad, (int)d->rounding,
            (int)d->index_type, d->index_axis, (int)d->index_order, (int)d->nan_policy, (int)d->empty_value,
            (int)d->empty_index, d->reject_empty_windows, (int)d->window_init, d->num_threads, (int)d->max_isa);
    const int r = d->spatial_rank >= 1 && d->spatial_rank <= MAXPOOL_MAX_SPATIAL ? d->spatial_rank : 0;
    for (int i = 0; i < r; ++i)
        fprintf(stderr, "  axis %d: kernel %lld stride %lld dilation %lld pads %lld,%lld output_size %lld\n", i,
                (long long)d->kernel[i], (long long)d->stride[i], (long long)d->dilation[i],
                (long long)d->pad_begin[i], (long long)d->pad_end[i], (long long)d->output_size[i]);
    if (r) {
        fprintf(stderr, "  input shape");
        for (int i = 0; i < r + 2; ++i)
            fprintf(stderr, " %lld", (long long)in_shape[i]);
        fputc('\n', stderr);
    }
}

/*
 * Shape inference + plan creation for (d, in_shape) with every consistency
 * check, then fz_run_compare on success. in_shape must hold exactly
 * spatial_rank + 2 values when spatial_rank is valid.
 */
static inline void fz_plan_and_run(const maxpool_desc *d, const int64_t *in_shape, fz *f, int raw, int threads,
                                   int also_null_err)
{
    maxpool_error e1, e2;
    memset(&e1, 0x77, sizeof e1);
    memset(&e2, 0x77, sizeof e2);
    const int valid_rank = d->spatial_rank >= 1 && d->spatial_rank <= MAXPOOL_MAX_SPATIAL;
    const size_t nd = valid_rank ? (size_t)d->spatial_rank + 2 : 0;
    int64_t *os = (int64_t *)fz_malloc(nd ? nd * sizeof(int64_t) : 1);
    if (fz_verbose())
        fz_print_desc(d, in_shape);
    const maxpool_status s1 = maxpool_output_shape(d, in_shape, os, &e1);
    if (s1 != MAXPOOL_OK)
        fz_check_failure(s1, &e1, "maxpool_output_shape");
    else
        fz_check_success(&e1, "maxpool_output_shape");
    free(os);

    if (fz_verbose()) {
        fprintf(stderr, "  maxpool_output_shape: %d %s\n", (int)s1, s1 ? e1.message : "");
    }
    maxpool_plan *plan = (maxpool_plan *)(uintptr_t)1;
    const maxpool_status s2 = maxpool_plan_create(d, in_shape, &plan, &e2);
    if (fz_verbose())
        fprintf(stderr, "  maxpool_plan_create: %d %s%s\n", (int)s2, s2 ? e2.message : "kernel ",
                s2 ? "" : maxpool_plan_kernel_name(plan));
    if (s2 != MAXPOOL_OK) {
        fz_check_failure(s2, &e2, "maxpool_plan_create");
        FZ_CHECK(plan == NULL, "failed plan_create left *plan = %p", (void *)plan);
        FZ_CHECK(s1 != MAXPOOL_OK || s2 == MAXPOOL_ERR_OUT_OF_MEMORY,
                 "maxpool_output_shape succeeded, maxpool_plan_create failed with %d: %s", (int)s2, e2.message);
        if (s1 != MAXPOOL_OK && s2 != MAXPOOL_ERR_OUT_OF_MEMORY)
            FZ_CHECK(s1 == s2, "maxpool_output_shape status %d (%s) != maxpool_plan_create status %d (%s)", (int)s1,
                     e1.message, (int)s2, e2.message);
    } else {
        fz_check_success(&e2, "maxpool_plan_create");
        FZ_CHECK(plan != NULL, "plan_create OK but plan NULL");
        FZ_CHECK(s1 == MAXPOOL_OK, "maxpool_plan_create succeeded, maxpool_output_shape failed with %d: %s", (int)s1,
                 e1.message);
    }
    if (also_null_err) {
        maxpool_plan *p2 = NULL;
        const maxpool_status s3 = maxpool_plan_create(d, in_shape, &p2, NULL);
        FZ_CHECK(s3 == s2 || s3 == MAXPOOL_ERR_OUT_OF_MEMORY || s2 == MAXPOOL_ERR_OUT_OF_MEMORY,
                 "plan_create with err NULL: %d, with err: %d", (int)s3, (int)s2);
        maxpool_plan_destroy(p2);
    }
    if (s2 != MAXPOOL_OK)
        return;
    fz_check_plan(d, in_shape, plan);

    if (d->num_threads > 2) {
        /* a hostile thread count is planned, not run: run the same desc on one thread */
        maxpool_plan_destroy(plan);
        maxpool_desc d1 = *d;
        d1.num_threads = 1;
        plan = NULL;
        const maxpool_status s4 = maxpool_plan_create(&d1, in_shape, &plan, &e2);
        FZ_CHECK(s4 == MAXPOOL_OK, "num_threads=%d plan OK, num_threads=1 plan: %d (%s)", d->num_threads, (int)s4,
                 e2.message);
        fz_run_compare(&d1, in_shape, plan, f, raw, threads);
    } else {
        fz_run_compare(d, in_shape, plan, f, raw, threads);
    }
    maxpool_plan_destroy(plan);
}

/* Shrinks the spatial dims (halving the largest, then N and C) until the
 * element count is <= limit. dims: N, C, spatial... (logical order). */
static inline void fz_clamp_elements(int64_t *n, int64_t *c, int64_t *sp, int r, int64_t limit)
{
    for (;;) {
        int64_t p = *n * *c;
        for (int i = 0; i < r; ++i)
            p *= sp[i];
        if (p <= limit)
            return;
        int big = -1;
        for (int i = 0; i < r; ++i)
            if (sp[i] > 1 && (big < 0 || sp[i] > sp[big]))
                big = i;
        if (big >= 0)
            sp[big] /= 2;
        else if (*c > 1)
            *c /= 2;
        else if (*n > 1)
            *n /= 2;
        else
            return;
    }
}

/* Memory-order shape from logical (N, C, spatial...). */
static inline void fz_memory_shape(int64_t *out, maxpool_layout layout, int64_t n, int64_t c, const int64_t *sp,
                                   int r)
{
    out[0] = n;
    if (layout == MAXPOOL_CHANNELS_LAST) {
        for (int i = 0; i < r; ++i)
            out[1 + i] = sp[i];
        out[1 + r] = c;
    } else {
        out[1] = c;
        for (int i = 0; i < r; ++i)
            out[2 + i] = sp[i];
    }
}

#endif
