/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Hostile attributes (issue 16): geometry that nobody needs must neither
 * crash, hang, overflow nor allocate out of proportion, at every ISA ceiling.
 *
 *  - the reproducers, through the spec front-ends, each run at every
 *    ISA ceiling with outputs allocated at exactly the reported size and
 *    compared with a brute-force pooling written here from the definition
 *    (taps o*stride - pad_begin + j*dilation, the max over those inside the
 *    input, ties to the first, empty windows per the spec's convention);
 *  - the same bugs inside geometry that is still bounded by the input (so a
 *    specialised kernel takes it): the padded-line copy of the row kernel
 *    wholly in the begin padding, and the lines-first kernel's column chunk
 *    across a long run of empty windows;
 *  - the windows in closed form (maxpool_axis_window) and the closed-form
 *    empty-window test against brute force, small and huge numbers;
 *  - the plan-time budget: any descriptor on a 1x1x1 input (and on N = 0)
 *    either fails or plans in under 10 ms of CPU time and 1 MiB of heap;
 *  - attributes near 2^62 and INT64_MAX (the UBSan stage runs this file with
 *    -fno-sanitize-recover: any signed overflow aborts the test).
 */
#define _GNU_SOURCE
#include "maxpool.h"
#include "plan.h"
#include "shape.h"
#include "test_support.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TH_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define TH_ASAN 1
#endif
#ifdef TH_ASAN /* the sanitizer runtime's (gcc ships no header for it) */
size_t __sanitizer_get_current_allocated_bytes(void);
#elif defined(__GLIBC__)
#include <malloc.h>
#endif

static const maxpool_isa isas[] = {MAXPOOL_ISA_SCALAR, MAXPOOL_ISA_SSE2, MAXPOOL_ISA_AVX2, MAXPOOL_ISA_AVX512,
                                   MAXPOOL_ISA_NEON, MAXPOOL_ISA_AUTO};
#define NISAS (int)(sizeof isas / sizeof isas[0])

/* Heap bytes in use (0 where the allocator cannot tell). */
static int64_t heap_in_use(void)
{
#ifdef TH_ASAN
    return (int64_t)__sanitizer_get_current_allocated_bytes();
#elif defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
    struct mallinfo2 mi = mallinfo2();
    return (int64_t)(mi.uordblks + mi.hblkhd);
#else
    return 0;
#endif
}

static double thread_cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* ---- brute force, from the definition ------------------------------------ */

/* Fixed-window f32 max pooling, channels-first, rank 1..3, row-major indices
 * flat over the whole tensor (plane_flat: within one (n, c) plane). The
 * running max starts at `init` with no position; x replaces it when x > best
 * (NaN never wins: the tests' inputs hold none). A window with no element
 * gives init and the empty index: -1, or (first_tap_empty) the row-major
 * offset of its first tap at or after 0 on every axis. */
typedef struct bf_geom {
    int rank;
    int64_t in[3], out[3], k[3], s[3], d[3], pb[3];
} bf_geom;

static int64_t bf_first_tap(int64_t p0, int64_t d)
{
    if (p0 >= 0)
        return p0;
    const int64_t r = (-p0) % d;
    return r ? d - r : 0;
}

static void bf_pool(const bf_geom *g, int64_t planes, const float *x, float *y, int64_t *ind, float init,
                    int first_tap_empty, int plane_flat)
{
    int64_t in_sp = 1, out_sp = 1;
    for (int i = 0; i < g->rank; ++i) {
        in_sp *= g->in[i];
        out_sp *= g->out[i];
    }
    for (int64_t pl = 0; pl < planes; ++pl) {
        for (int64_t os = 0; os < out_sp; ++os) {
            int64_t o[3], rem = os;
            for (int i = g->rank - 1; i >= 0; --i) {
                o[i] = rem % g->out[i];
                rem /= g->out[i];
            }
            float best = init;
            int64_t bp = -1;
            int64_t j[3] = {0, 0, 0}, kt = 1;
            for (int i = 0; i < g->rank; ++i)
                kt *= g->k[i];
            for (int64_t t = 0; t < kt; ++t) { /* taps in row-major window order */
                int64_t r2 = t, off = 0, inside = 1;
                for (int i = g->rank - 1; i >= 0; --i) {
                    j[i] = r2 % g->k[i];
                    r2 /= g->k[i];
                }
                for (int i = 0; i < g->rank; ++i) {
                    const int64_t u = o[i] * g->s[i] - g->pb[i] + j[i] * g->d[i];
                    if (u < 0 || u >= g->in[i])
                        inside = 0;
                    off = off * g->in[i] + u;
                }
                if (inside && x[pl * in_sp + off] > best) {
                    best = x[pl * in_sp + off];
                    bp = off;
                }
            }
            if (bp < 0 && first_tap_empty) { /* first tap at or after 0, row-major over the input's sizes */
                bp = 0;
                for (int i = 0; i < g->rank; ++i)
                    bp = bp * g->in[i] + bf_first_tap(o[i] * g->s[i] - g->pb[i], g->d[i]);
            }
            y[pl * out_sp + os] = best;
            if (ind) /* -1 stays -1; else flat over the planes too unless plane_flat */
                ind[pl * out_sp + os] = bp < 0 || plane_flat ? bp : pl * in_sp + bp;
        }
    }
}

/* Runs desc on shape (channels-first f32, plane-flat int64 indices or none)
 * at every ISA ceiling, with every buffer allocated separately at exactly
 * its size, and compares with want_y / want_i bit for bit. */
static void run_all_isas(const char *what, maxpool_desc d, const int64_t *shape, const float *x, const float *want_y,
                         const int64_t *want_i)
{
    int64_t out_shape[MAXPOOL_MAX_SPATIAL + 2];
    for (int k = 0; k < NISAS; ++k) {
        ts_set_context("%s isa=%s", what, maxpool_isa_name(isas[k]));
        d.max_isa = isas[k];
        maxpool_plan *p = NULL;
        maxpool_error err;
        if (!CHECK_STATUS(maxpool_plan_create(&d, shape, &p, &err), MAXPOOL_OK)) {
            printf("    %s\n", err.message);
            continue;
        }
        maxpool_plan_output_shape(p, out_shape);
        const int64_t no = maxpool_plan_output_elements(p);
        float *y = malloc((size_t)no * sizeof *y);
        int64_t *ind = d.index_type == MAXPOOL_INDEX_I64 ? malloc((size_t)no * sizeof *ind) : NULL;
        memset(y, 0xa5, (size_t)no * sizeof *y);
        CHECK_STATUS(maxpool_run(p, x, y, ind), MAXPOOL_OK);
        CHECK(ts_first_bit_mismatch(y, want_y, no, 4) < 0);
        if (ind)
            CHECK(ts_first_bit_mismatch(ind, want_i, no, 8) < 0);
        free(y);
        free(ind);
        maxpool_plan_destroy(p);
    }
    ts_set_context("%s", "");
}

/* Plans desc on shape, brute-forces the expected output from the plan's own
 * output sizes and the given regular form, and runs at every ISA. */
static void check_case(const char *what, const maxpool_desc *d, const int64_t *shape, bf_geom g, int first_tap)
{
    int64_t out_shape[MAXPOOL_MAX_SPATIAL + 2];
    maxpool_error err;
    ts_set_context("%s", what);
    if (!CHECK_STATUS(maxpool_output_shape(d, shape, out_shape, &err), MAXPOOL_OK)) {
        printf("    %s\n", err.message);
        return;
    }
    const int64_t planes = shape[0] * shape[1];
    int64_t ni = planes, no = planes;
    for (int i = 0; i < g.rank; ++i) {
        g.in[i] = shape[2 + i];
        g.out[i] = out_shape[2 + i];
        ni *= g.in[i];
        no *= g.out[i];
    }
    float *x = malloc((size_t)ni * sizeof *x), *want_y = malloc((size_t)no * sizeof *want_y);
    int64_t *want_i = malloc((size_t)no * sizeof *want_i);
    ts_rng r;
    ts_rng_seed(&r, (uint64_t)ni * 7919u + (uint64_t)no);
    for (int64_t i = 0; i < ni; ++i)
        x[i] = (float)ts_rng_range(&r, -50, 50); /* ties: the first wins */
    bf_pool(&g, planes, x, want_y, want_i, d->empty_value == MAXPOOL_EMPTY_NEG_INF ? -INFINITY : -FLT_MAX,
            first_tap, d->index_axis == 2);
    run_all_isas(what, *d, shape, x, want_y, d->index_type == MAXPOOL_INDEX_I64 ? want_i : NULL);
    free(x);
    free(want_y);
    free(want_i);
}

/* ---- the reproducers ----------------------------------------------- */

static void test_reproducers(void)
{
    maxpool_error err;
    /* 1. onnx kernel_shape 1, pads 3000,0 on 1x1x1: the row kernel's padded copy wholly in the begin padding */
    {
        maxpool_onnx_attrs a;
        maxpool_onnx_attrs_init(&a, 22);
        a.n_kernel_shape = 1;
        a.kernel_shape[0] = 1;
        a.n_pads = 2;
        a.pads[0] = 3000;
        a.pads[1] = 0;
        a.want_indices = 1;
        maxpool_desc d;
        CHECK_STATUS(maxpool_onnx_lower(&a, MAXPOOL_F32, 3, &d, &err), MAXPOOL_OK);
        const int64_t shape[3] = {1, 1, 1};
        bf_geom g = {.rank = 1, .k = {1}, .s = {1}, .d = {1}, .pb = {3000}};
        check_case("item 1: onnx k1 pads 3000,0 on 1x1x1", &d, shape, g, 0);
    }
    /* 2. onnx k2,2 s2,2 d2,2 pads 2,2,2,16384 on 1x2x6x6: the lines-first kernel's unbounded chunk */
    {
        maxpool_onnx_attrs a;
        maxpool_onnx_attrs_init(&a, 22);
        a.n_kernel_shape = a.n_strides = a.n_dilations = 2;
        a.kernel_shape[0] = a.kernel_shape[1] = 2;
        a.strides[0] = a.strides[1] = 2;
        a.dilations[0] = a.dilations[1] = 2;
        a.n_pads = 4;
        a.pads[0] = a.pads[1] = a.pads[2] = 2;
        a.pads[3] = 16384;
        maxpool_desc d;
        CHECK_STATUS(maxpool_onnx_lower(&a, MAXPOOL_F32, 4, &d, &err), MAXPOOL_OK);
        const int64_t shape[4] = {1, 2, 6, 6};
        bf_geom g = {.rank = 2, .k = {2, 2}, .s = {2, 2}, .d = {2, 2}, .pb = {2, 2}};
        check_case("item 2: onnx k2 s2 d2 pads 2,2,2,16384 on 1x2x6x6", &d, shape, g, 0);
    }
    /* 3. dilation 2^40 on 1x1x1: shape inference in closed form (was a scan of 2^40 windows) */
    {
        maxpool_onnx_attrs a;
        maxpool_onnx_attrs_init(&a, 22);
        a.n_kernel_shape = a.n_dilations = 1;
        a.kernel_shape[0] = 2;
        a.dilations[0] = (int64_t)1 << 40;
        a.n_pads = 2;
        a.pads[0] = a.pads[1] = (int64_t)1 << 40;
        maxpool_desc d;
        CHECK_STATUS(maxpool_onnx_lower(&a, MAXPOOL_F32, 3, &d, &err), MAXPOOL_OK);
        const int64_t shape[3] = {1, 1, 1};
        int64_t out[3];
        const double t0 = thread_cpu_ms();
        CHECK_STATUS(maxpool_output_shape(&d, shape, out, &err), MAXPOOL_OK);
        CHECK_EQ_I64(out[2], ((int64_t)1 << 40) + 1); /* 1 + 2^41 - (2^40 + 1) + 1 */
        d.reject_empty_windows = 1;
        CHECK_STATUS(maxpool_output_shape(&d, shape, out, &err), MAXPOOL_ERR_INVALID_ATTRIBUTE);
        CHECK(thread_cpu_ms() - t0 < 100.0);
        /* OpenVINO attributes, 2^31 outputs: the 13-24 s case */
        maxpool_openvino_attrs v;
        maxpool_openvino_attrs_init(&v, 14);
        v.n_kernel = v.n_strides = v.n_dilations = v.n_pads_begin = v.n_pads_end = 1;
        v.kernel[0] = 3;
        v.strides[0] = 1;
        v.dilations[0] = (int64_t)1 << 30;
        v.pads_begin[0] = v.pads_end[0] = (int64_t)1 << 31;
        CHECK_STATUS(maxpool_openvino_lower(&v, MAXPOOL_F32, 3, &d, &err), MAXPOOL_OK);
        const double t1 = thread_cpu_ms();
        maxpool_plan *p = NULL;
        CHECK_STATUS(maxpool_plan_create(&d, shape, &p, &err), MAXPOOL_OK);
        CHECK(thread_cpu_ms() - t1 < 100.0);
        CHECK_STR_EQ(maxpool_plan_kernel_name(p), "ref_f32");
        maxpool_plan_destroy(p);
    }
    /* 4. pads 2^29 with N = 0: no allocation proportional to the output */
    {
        maxpool_onnx_attrs a;
        maxpool_onnx_attrs_init(&a, 22);
        a.n_kernel_shape = 2;
        a.kernel_shape[0] = a.kernel_shape[1] = 1;
        a.n_pads = 4;
        a.pads[0] = a.pads[1] = a.pads[2] = a.pads[3] = (int64_t)1 << 29;
        maxpool_desc d;
        CHECK_STATUS(maxpool_onnx_lower(&a, MAXPOOL_F32, 4, &d, &err), MAXPOOL_OK);
        for (int nz = 0; nz < 2; ++nz) {
            const int64_t shape[4] = {nz ? 0 : 1, 1, 1, 1};
            const int64_t h0 = heap_in_use();
            maxpool_plan *p = NULL;
            CHECK_STATUS(maxpool_plan_create(&d, shape, &p, &err), MAXPOOL_OK);
            CHECK_MSG(heap_in_use() - h0 < 65536, "plan with pads 2^29 holds %lld heap bytes",
                      (long long)(heap_in_use() - h0));
            if (nz) {
                CHECK_EQ_I64(maxpool_plan_output_elements(p), 0);
                CHECK_STATUS(maxpool_run(p, NULL, NULL, NULL), MAXPOOL_OK); /* nothing to write */
            } else {
                CHECK_EQ_I64(maxpool_plan_output_elements(p), (((int64_t)1 << 30) + 1) * (((int64_t)1 << 30) + 1));
            }
            maxpool_plan_destroy(p);
        }
    }
    /* 5. torch k2, stride 2^33, dilation 2^32, pad 1, ceil, indices: the first tap 2^32 - 1 as int64 */
    {
        maxpool_torch_attrs a;
        maxpool_torch_attrs_init(&a);
        a.n_kernel_size = a.n_stride = a.n_dilation = a.n_padding = 1;
        a.kernel_size[0] = 2;
        a.stride[0] = (int64_t)1 << 33;
        a.dilation[0] = (int64_t)1 << 32;
        a.padding[0] = 1;
        a.ceil_mode = 1;
        a.return_indices = 1;
        maxpool_desc d;
        if (maxpool_torch_lower(&a, MAXPOOL_F32, 3, &d, &err) != MAXPOOL_OK) {
            /* PyTorch's pad <= dilated kernel / 2 holds here: the front-end must accept it */
            CHECK_MSG(0, "torch front-end rejected item 5: %s", err.message);
        } else {
            const int64_t shape[3] = {1, 1, 1};
            bf_geom g = {.rank = 1, .k = {2}, .s = {(int64_t)1 << 33}, .d = {(int64_t)1 << 32}, .pb = {1}};
            check_case("item 5: torch k2 s2^33 d2^32 p1 ceil", &d, shape, g, 1);
            /* the value itself, as PyTorch defines it: taps -1 and 2^32 - 1, neither inside; first tap 2^32 - 1 */
            maxpool_plan *p = NULL;
            CHECK_STATUS(maxpool_plan_create(&d, shape, &p, &err), MAXPOOL_OK);
            float xv = 1.0f, yv = 0;
            int64_t iv = 0;
            CHECK_EQ_I64(maxpool_plan_output_elements(p), 1);
            CHECK_STATUS(maxpool_run(p, &xv, &yv, &iv), MAXPOOL_OK);
            CHECK_EQ_I64(iv, 4294967295LL);
            CHECK(isinf(yv) && yv < 0);
            maxpool_plan_destroy(p);
        }
    }
}

/* The same two kernel bugs inside bounded geometry, where a specialised
 * kernel takes the plan (the fixes themselves, not only the bound). */
static void test_bounded_kernel_edges(void)
{
    /* row kernel: padded copy of a column chunk wholly in a begin padding wider than its 2048-float buffer */
    for (int rank = 1; rank <= 2; ++rank) {
        maxpool_desc d;
        maxpool_desc_init(&d, rank);
        const int64_t W = 700; /* bound 4*700 + 64 = 2864 >= out = 700 + 2150 - 2 + 1 */
        d.kernel[rank - 1] = 2;
        d.pad_begin[rank - 1] = 2150;
        d.index_type = MAXPOOL_INDEX_I64;
        int64_t shape[4] = {1, 3, rank == 2 ? 2 : W, W};
        bf_geom g = {.rank = rank};
        for (int i = 0; i < rank; ++i) {
            g.k[i] = d.kernel[i];
            g.s[i] = g.d[i] = 1;
            g.pb[i] = d.pad_begin[i];
        }
        char what[96];
        snprintf(what, sizeof what, "row kernel: rank %d, W %lld, pad_begin 2150", rank, (long long)W);
        check_case(what, &d, shape, g, 0);
        d.empty_index = MAXPOOL_EMPTY_INDEX_FIRST_TAP;
        check_case(what, &d, shape, g, 1);
    }
    /* lines-first kernel: > 256 empty trailing windows in one column chunk */
    {
        maxpool_desc d;
        maxpool_desc_init(&d, 2);
        d.kernel[0] = d.kernel[1] = 2;
        d.stride[0] = d.stride[1] = 2;
        d.dilation[0] = d.dilation[1] = 2;
        d.pad_begin[0] = d.pad_begin[1] = d.pad_end[0] = 2;
        d.pad_end[1] = 1200; /* W out = (300 + 1202 - 3) / 2 + 1 = 750 <= 4*300 + 64 */
        d.index_type = MAXPOOL_INDEX_I64;
        const int64_t shape[4] = {1, 2, 6, 300};
        bf_geom g = {.rank = 2, .k = {2, 2}, .s = {2, 2}, .d = {2, 2}, .pb = {2, 2}};
        check_case("lines-first: 600 empty trailing columns", &d, shape, g, 0);
        d.empty_index = MAXPOOL_EMPTY_INDEX_FIRST_TAP;
        check_case("lines-first: 600 empty trailing columns, first tap", &d, shape, g, 1);
        /* and a specialised kernel does take it */
        maxpool_plan *p = NULL;
        d.max_isa = MAXPOOL_ISA_AUTO;
        CHECK_STATUS(maxpool_plan_create(&d, shape, &p, NULL), MAXPOOL_OK);
        if (maxpool_effective_isa(MAXPOOL_ISA_AUTO) != MAXPOOL_ISA_SCALAR)
            CHECK(strncmp(maxpool_plan_kernel_name(p), "f32_nchw_linesfirst_", 20) == 0);
        maxpool_plan_destroy(p);
    }
    /* an empty window's first tap past INT32_MAX in bounded geometry: no int32 kernel (plan only) */
    {
        maxpool_desc d;
        maxpool_desc_init(&d, 2);
        d.kernel[0] = d.kernel[1] = 1;
        d.pad_end[0] = 3 * 32768; /* H out = 4 * 32768 <= 4*in + 64: bounded */
        d.rounding = MAXPOOL_ROUND_CEIL;
        d.stride[0] = 1;
        d.index_type = MAXPOOL_INDEX_I64;
        d.empty_index = MAXPOOL_EMPTY_INDEX_FIRST_TAP;
        const int64_t shape[4] = {1, 1, 32768, 32768}; /* first taps up to row 4 * 2^15 - 1: offsets ~ 2^32 */
        maxpool_plan *p = NULL;
        CHECK_STATUS(maxpool_plan_create(&d, shape, &p, NULL), MAXPOOL_OK);
        const struct maxpool_plan *pp = (const struct maxpool_plan *)p;
        CHECK(pp->bounded);
        CHECK(pp->max_offset > INT32_MAX);
        CHECK_STR_EQ(maxpool_plan_kernel_name(p), "ref_f32");
        maxpool_plan_destroy(p);
        d.index_type = MAXPOOL_INDEX_NONE; /* without indices the offsets are never formed: any kernel */
        CHECK_STATUS(maxpool_plan_create(&d, shape, &p, NULL), MAXPOOL_OK);
        maxpool_plan_destroy(p);
    }
}

/* ---- closed forms against brute force ------------------------------------- */

static void test_closed_forms(ts_rng *r)
{
    long cases = 0;
    for (int it = 0; it < 20000; ++it) {
        const int big = ts_rng_chance(r, 1, 4);
        maxpool_axis ax;
        memset(&ax, 0, sizeof ax);
        ax.in = ts_rng_range(r, 1, big ? 40 : 12);
        ax.kernel = ts_rng_range(r, 1, 5);
        ax.stride = ts_rng_range(r, 1, big ? 300 : 7);
        ax.dilation = ts_rng_range(r, 1, big ? 5000 : 20);
        ax.pad_begin = ts_rng_range(r, 0, big ? 20000 : 40);
        const int64_t pe = ts_rng_range(r, 0, big ? 20000 : 40);
        /* the output size, ceil rounding (the widest) */
        const int64_t ek = (ax.kernel - 1) * ax.dilation + 1, span = ax.in + ax.pad_begin + pe - ek;
        if (span < 0)
            continue;
        ax.out = (span + ax.stride - 1) / ax.stride + 1;
        ax.step = ax.dilation;
        if (ax.out > 200000)
            continue;
        int any_empty = 0;
        for (int64_t o = 0; o < ax.out; ++o) {
            int64_t st, cn, first = -1, n = 0, ft = -1;
            maxpool_axis_window(&ax, 0, o, &st, &cn);
            for (int64_t j = 0; j < ax.kernel; ++j) {
                const int64_t u = o * ax.stride - ax.pad_begin + j * ax.dilation;
                if (u >= 0 && ft < 0)
                    ft = u;
                if (u >= 0 && u < ax.in) {
                    if (first < 0)
                        first = u;
                    ++n;
                }
            }
            if (ft < 0) /* every tap before 0: the progression's first term at or after 0 */
                ft = bf_first_tap(o * ax.stride - ax.pad_begin, ax.dilation);
            any_empty |= n == 0;
            if (!CHECK_EQ_I64(cn, n) || !CHECK_EQ_I64(st, n ? first : ft)) {
                printf("    in %lld k %lld s %lld d %lld pb %lld o %lld\n", (long long)ax.in, (long long)ax.kernel,
                       (long long)ax.stride, (long long)ax.dilation, (long long)ax.pad_begin, (long long)o);
                return;
            }
        }
        if (!CHECK_EQ_INT(maxpool_axis_has_empty_window(&ax), any_empty)) {
            printf("    in %lld k %lld s %lld d %lld pb %lld out %lld\n", (long long)ax.in, (long long)ax.kernel,
                   (long long)ax.stride, (long long)ax.dilation, (long long)ax.pad_begin, (long long)ax.out);
            return;
        }
        ++cases;
    }
    printf("closed forms: %ld axes checked against brute force\n", cases);

    /* huge numbers: the answer is known by construction. in = 3, dilation
     * 2^61 + 1, stride 1: the windows with p0 < 0 have first taps p0 mod d,
     * which runs through every residue: some >= 3 (empty) once there are
     * 4 of them; with stride = d - 1 the residues step down by one from
     * (-pb) mod d. */
    {
        maxpool_axis ax;
        memset(&ax, 0, sizeof ax);
        ax.in = 3;
        ax.kernel = 2;
        ax.dilation = ax.step = ((int64_t)1 << 61) + 1;
        ax.stride = ax.dilation - 1;
        /* pb = d - 1: window 0 has first tap 1 (inside), window 1 has p0 = -1 + ... */
        ax.pad_begin = ax.dilation - 1;
        ax.out = 1;
        CHECK_EQ_INT(maxpool_axis_has_empty_window(&ax), 0); /* first tap 1 < 3 */
        ax.pad_begin = ax.dilation - 5;                      /* first tap 5 >= 3 */
        CHECK_EQ_INT(maxpool_axis_has_empty_window(&ax), 1);
        /* windows o = 0..3 have first taps 1, 0, d-1 (p0 >= 0 there? no: p0 = o*(d-1) - (d-1) >= 0 for o >= 1) */
        ax.pad_begin = ax.dilation - 1;
        ax.out = 2; /* p0 = 0 for o = 1: inside */
        CHECK_EQ_INT(maxpool_axis_has_empty_window(&ax), 0);
        /* stride 1, pb = 2^62: residues (-pb + o) mod d for o in [0, 2^62): all of them, some >= 3 */
        ax.stride = 1;
        ax.pad_begin = (int64_t)1 << 62;
        ax.out = 4; /* window 0 lies wholly before the input: empty */
        CHECK_EQ_INT(maxpool_axis_has_empty_window(&ax), 1);
        int64_t st, cn;
        /* window 0: taps -2^62 and -2^62 + 2^61 + 1, both before 0; its first tap at or after 0 is
         * -(2^62) mod (2^61 + 1) = 2, since 2^62 = 2 (2^61 + 1) - 2 */
        maxpool_axis_window(&ax, 0, 0, &st, &cn);
        CHECK_EQ_I64(st, 2);
        CHECK_EQ_I64(cn, 0);
    }
}

/* ---- the plan-time budget -------------------------------------------------- */

static int64_t hostile_value(ts_rng *r)
{
    static const int64_t special[] = {0,
                                      1,
                                      2,
                                      3,
                                      7,
                                      64,
                                      2049,
                                      INT32_MAX,
                                      (int64_t)INT32_MAX + 1,
                                      (int64_t)1 << 32,
                                      ((int64_t)1 << 32) + 1,
                                      (int64_t)1 << 40,
                                      ((int64_t)1 << 62) - 1,
                                      (int64_t)1 << 62,
                                      ((int64_t)1 << 62) + 1,
                                      INT64_MAX - 1,
                                      INT64_MAX,
                                      -1,
                                      INT64_MIN};
    const int64_t v = special[ts_rng_range(r, 0, (int64_t)(sizeof special / sizeof special[0]) - 1)];
    switch (ts_rng_range(r, 0, 3)) {
    case 0: return v;
    case 1: return ts_rng_range(r, 0, 5);
    case 2: return v > 0 && v < INT64_MAX ? v + ts_rng_range(r, -1, 1) : v;
    default: return (int64_t)(ts_rng_next(r) >> ts_rng_range(r, 1, 63));
    }
}

static void random_hostile_desc(ts_rng *r, maxpool_desc *d, int rank)
{
    maxpool_desc_init(d, rank);
    d->window = ts_rng_chance(r, 1, 5) ? MAXPOOL_WINDOW_ADAPTIVE : MAXPOOL_WINDOW_FIXED;
    d->dtype = (maxpool_dtype)ts_rng_range(r, 0, MAXPOOL_DTYPE_COUNT - 1);
    d->layout = ts_rng_chance(r, 1, 2) ? MAXPOOL_CHANNELS_LAST : MAXPOOL_CHANNELS_FIRST;
    for (int i = 0; i < rank; ++i) {
        d->kernel[i] = hostile_value(r);
        d->stride[i] = hostile_value(r);
        d->dilation[i] = hostile_value(r);
        d->pad_begin[i] = hostile_value(r);
        d->pad_end[i] = hostile_value(r);
        d->output_size[i] = hostile_value(r);
    }
    d->auto_pad = (maxpool_auto_pad)ts_rng_range(r, 0, 3);
    d->rounding = (maxpool_rounding)ts_rng_range(r, 0, 2);
    d->index_type = (maxpool_index_type)ts_rng_range(r, 0, 2);
    d->index_axis = (int)ts_rng_range(r, 0, 2);
    d->index_order = ts_rng_chance(r, 1, 4) ? MAXPOOL_INDEX_COL_MAJOR : MAXPOOL_INDEX_ROW_MAJOR;
    d->nan_policy = ts_rng_chance(r, 1, 2) ? MAXPOOL_NAN_PROPAGATE : MAXPOOL_NAN_IGNORE;
    d->empty_value = ts_rng_chance(r, 1, 2) ? MAXPOOL_EMPTY_NEG_INF : MAXPOOL_EMPTY_LOWEST;
    d->empty_index = (maxpool_empty_index)ts_rng_range(r, 0, 2);
    d->reject_empty_windows = ts_rng_chance(r, 1, 4);
    d->window_init = ts_rng_chance(r, 1, 4) ? MAXPOOL_INIT_FIRST_ELEMENT : MAXPOOL_INIT_EMPTY_VALUE;
    d->num_threads = (int)ts_rng_range(r, 1, 3);
}

static void test_budget(ts_rng *r, int n)
{
    int ok = 0, failed = 0, ran = 0;
    double worst_ms = 0;
    int64_t worst_bytes = 0;
    for (int it = 0; it < n; ++it) {
        maxpool_desc d;
        const int rank = (int)ts_rng_range(r, 1, MAXPOOL_MAX_SPATIAL);
        random_hostile_desc(r, &d, rank);
        int64_t shape[MAXPOOL_MAX_SPATIAL + 2];
        for (int i = 0; i < rank + 2; ++i)
            shape[i] = 1;
        if (ts_rng_chance(r, 1, 4))
            shape[0] = 0;
        const int64_t h0 = heap_in_use();
        const double t0 = thread_cpu_ms();
        maxpool_plan *p = NULL;
        maxpool_error err;
        const maxpool_status st = maxpool_plan_create(&d, shape, &p, &err);
        const double ms = thread_cpu_ms() - t0;
        const int64_t bytes = heap_in_use() - h0;
        if (ms > worst_ms)
            worst_ms = ms;
        if (bytes > worst_bytes)
            worst_bytes = bytes;
        if (st != MAXPOOL_OK) {
            ++failed;
            CHECK(p == NULL);
            CHECK(err.message[0] != '\0');
            continue;
        }
        ++ok;
        CHECK_MSG(ms < 10.0, "plan took %.3f ms", ms);
        CHECK_MSG(bytes < (1 << 20), "plan holds %lld heap bytes", (long long)bytes);
        const int64_t no = maxpool_plan_output_elements(p);
        if (no > 0 && no <= 4096) { /* run it: bit-exact with the scalar-ISA plan */
            const size_t es = maxpool_dtype_size(d.dtype), is = d.index_type == MAXPOOL_INDEX_I64 ? 8 : 4;
            unsigned char x[16] = {0x3f, 0x80, 0, 0, 0x7f, 0xc0, 0, 1, 0x80, 0, 0, 0, 0xff, 0x80, 0, 0};
            unsigned char *y = malloc((size_t)no * es), *y2 = malloc((size_t)no * es);
            unsigned char *ix = malloc((size_t)no * is), *ix2 = malloc((size_t)no * is);
            CHECK_STATUS(maxpool_run(p, x, y, ix), MAXPOOL_OK);
            maxpool_desc ds = d;
            ds.max_isa = MAXPOOL_ISA_SCALAR;
            maxpool_plan *ps = NULL;
            if (CHECK_STATUS(maxpool_plan_create(&ds, shape, &ps, NULL), MAXPOOL_OK)) {
                CHECK_STATUS(maxpool_run(ps, x, y2, ix2), MAXPOOL_OK);
                CHECK(memcmp(y, y2, (size_t)no * es) == 0);
                if (d.index_type != MAXPOOL_INDEX_NONE)
                    CHECK(memcmp(ix, ix2, (size_t)no * is) == 0);
                maxpool_plan_destroy(ps);
            }
            free(y);
            free(y2);
            free(ix);
            free(ix2);
            ++ran;
        }
        maxpool_plan_destroy(p);
    }
    printf("budget: %d hostile descriptors on 1x1x1 (N 0 or 1): %d planned, %d rejected, %d run; worst %.3f ms, "
           "%lld bytes\n",
           n, ok, failed, ran, worst_ms, (long long)worst_bytes);
    CHECK(ok > n / 20);     /* the generator does reach plans, not only errors */
    CHECK(failed > n / 20); /* and errors */
}

/* Attributes near 2^62 / INT64_MAX that pass validation in some rounding: the
 * arithmetic must stay defined (UBSan) and the answer an error or a plan. */
static void test_near_int64_max(void)
{
    const int64_t big[] = {((int64_t)1 << 62) - 1, (int64_t)1 << 62, ((int64_t)1 << 62) + 5, INT64_MAX / 2,
                           INT64_MAX - 2, INT64_MAX};
    const size_t nb = sizeof big / sizeof big[0];
    int planned = 0;
    for (size_t a = 0; a < nb; ++a)
        for (size_t b = 0; b < nb; ++b)
            for (int round = 0; round < 3; ++round)
                for (int which = 0; which < 4; ++which) {
                    maxpool_desc d;
                    maxpool_desc_init(&d, 1);
                    d.rounding = (maxpool_rounding)round;
                    d.index_type = MAXPOOL_INDEX_I64;
                    d.empty_index = MAXPOOL_EMPTY_INDEX_FIRST_TAP;
                    d.kernel[0] = 2;
                    if (which == 0) { /* pads and stride */
                        d.pad_begin[0] = big[a];
                        d.stride[0] = big[b];
                    } else if (which == 1) { /* pad_end and stride (ceil: (out-1)*s past the span) */
                        d.pad_end[0] = big[a];
                        d.stride[0] = big[b];
                    } else if (which == 2) { /* pad_begin and dilation (first tap past the input) */
                        d.kernel[0] = 2;
                        d.pad_begin[0] = big[a];
                        d.dilation[0] = big[b] / 2;
                    } else { /* adaptive */
                        d.window = MAXPOOL_WINDOW_ADAPTIVE;
                        d.output_size[0] = big[a];
                    }
                    const int64_t shape[3] = {1, 1, which == 3 ? 3 : 1};
                    maxpool_plan *p = NULL;
                    const maxpool_status st = maxpool_plan_create(&d, shape, &p, NULL);
                    CHECK(st == MAXPOOL_OK || st == MAXPOOL_ERR_OVERFLOW || st == MAXPOOL_ERR_INVALID_SHAPE ||
                          st == MAXPOOL_ERR_INVALID_ATTRIBUTE);
                    if (st == MAXPOOL_OK) {
                        ++planned;
                        if (maxpool_plan_output_elements(p) == 1) {
                            float x = 2.0f, y = 0;
                            int64_t i = 0;
                            CHECK_STATUS(maxpool_run(p, &x, &y, &i), MAXPOOL_OK);
                        }
                    }
                    maxpool_plan_destroy(p);
                }
    /* empty tensors (N = 0) whose other dimensions multiply past int64 (fuzz_plan findings: C * spatial,
     * the index multiplier, overflowed): refused as any too-large tensor is */
    {
        maxpool_desc d;
        maxpool_desc_init(&d, 1);
        d.index_type = MAXPOOL_INDEX_I64;
        const int64_t s1[3] = {0, 7, ((int64_t)1 << 61) + 1}, s2[3] = {0, ((int64_t)1 << 61) + 1, 16};
        maxpool_plan *p = NULL;
        CHECK_STATUS(maxpool_plan_create(&d, s1, &p, NULL), MAXPOOL_ERR_OVERFLOW);
        CHECK_STATUS(maxpool_plan_create(&d, s2, &p, NULL), MAXPOOL_ERR_OVERFLOW);
        d.pad_end[0] = INT64_MAX / 16; /* the output's C * spatial past int64, the input's not */
        const int64_t s3[3] = {0, 64, 1};
        CHECK_STATUS(maxpool_plan_create(&d, s3, &p, NULL), MAXPOOL_ERR_OVERFLOW);
        const int64_t s4[3] = {0, 1, 1}; /* and within it: a plan (nothing to write) */
        CHECK_STATUS(maxpool_plan_create(&d, s4, &p, NULL), MAXPOOL_OK);
        maxpool_plan_destroy(p);
    }
    /* the last window past int64 under ceil rounding: span = 1 + (INT64_MAX - 2) - 1 fits, ceil(span / 2^62)
     * = 2 gives out = 3, and its first tap (out - 1) * 2^62 = 2^63 does not */
    {
        maxpool_desc d;
        maxpool_desc_init(&d, 1);
        d.rounding = MAXPOOL_ROUND_CEIL;
        d.pad_end[0] = INT64_MAX - 2;
        d.stride[0] = (int64_t)1 << 62;
        const int64_t s1[3] = {1, 1, 1};
        maxpool_error err;
        maxpool_plan *p = NULL;
        CHECK_STATUS(maxpool_plan_create(&d, s1, &p, &err), MAXPOOL_ERR_OVERFLOW);
        CHECK_CONTAINS(err.message, "the last window");
        d.rounding = MAXPOOL_ROUND_FLOOR; /* floor: out = 2, last first tap 2^62: a plan */
        CHECK_STATUS(maxpool_plan_create(&d, s1, &p, &err), MAXPOOL_OK);
        CHECK_EQ_I64(maxpool_plan_output_elements(p), 2);
        maxpool_plan_destroy(p);
    }
    printf("near INT64_MAX: %d plans\n", planned);
    CHECK(planned > 0);
}

int main(int argc, char **argv)
{
    (void)argc;
    ts_omp_passive(argv);
    ts_rng r;
    ts_rng_seed(&r, ts_seed_from_env(0x16u));
    test_reproducers();
    test_bounded_kernel_edges();
    test_closed_forms(&r);
    test_near_int64_max();
    test_budget(&r, getenv("MAXPOOL_TEST_QUICK") ? 3000 : 20000);
    return ts_finish();
}
