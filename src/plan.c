/* SPDX-License-Identifier: Apache-2.0 */
/* Plan lifecycle: create (validate, lower, pick the kernel, build its window tables), run, destroy. */
#include "plan.h"

#include "error.h"
#include "shape.h"

#include <stdlib.h>
#include <string.h>

void maxpool_desc_init(maxpool_desc *desc, int spatial_rank)
{
    if (!desc)
        return;
    memset(desc, 0, sizeof *desc);
    desc->spatial_rank = spatial_rank;
    desc->dtype = MAXPOOL_F32;
    desc->layout = MAXPOOL_CHANNELS_FIRST;
    desc->window = MAXPOOL_WINDOW_FIXED;
    for (int i = 0; i < MAXPOOL_MAX_SPATIAL; ++i) {
        desc->kernel[i] = 1;
        desc->stride[i] = 1;
        desc->dilation[i] = 1;
        desc->output_size[i] = 1;
    }
    desc->auto_pad = MAXPOOL_PAD_EXPLICIT;
    desc->rounding = MAXPOOL_ROUND_FLOOR;
    desc->index_type = MAXPOOL_INDEX_NONE;
    desc->index_order = MAXPOOL_INDEX_ROW_MAJOR;
    desc->nan_policy = MAXPOOL_NAN_IGNORE;
    desc->empty_value = MAXPOOL_EMPTY_LOWEST;
    desc->empty_index = MAXPOOL_EMPTY_INDEX_MINUS_ONE;
    desc->num_threads = 1;
    desc->max_isa = MAXPOOL_ISA_AUTO;
}

maxpool_status maxpool_output_shape(const maxpool_desc *desc, const int64_t *input_shape, int64_t *output_shape,
                                    maxpool_error *err)
{
    struct maxpool_plan p;
    if (!output_shape)
        return maxpool_fail(err, MAXPOOL_ERR_NULL_POINTER, "output_shape is NULL");
    maxpool_status st = maxpool_infer(desc, input_shape, &p, err);
    if (st != MAXPOOL_OK)
        return st;
    memcpy(output_shape, p.output_shape, (size_t)(p.rank + 2) * sizeof *output_shape);
    return maxpool_ok(err);
}

/* Bytes below which a run stays on the calling thread (MAXPOOL_PARALLEL_MIN_BYTES overrides).
 * Measured (docs/performance.md, "Two threads"): the fastest kernels (a global
 * max at ~60 GB/s) break even with 2 threads at ~128 KB of traffic (~2 us of
 * work against ~0.8 us of fork/join), every slower kernel gains from there. */
#define MAXPOOL_PARALLEL_MIN_BYTES_DEFAULT 131072

static int plan_threads(const struct maxpool_plan *p)
{
#ifndef MAXPOOL_HAVE_OPENMP
    (void)p;
    return 1;
#else
    int nt = p->desc.num_threads;
    if (nt <= 1)
        return 1;
    if ((int64_t)nt > p->kernel.tasks)
        nt = p->kernel.tasks > 1 ? (int)p->kernel.tasks : 1;
    int64_t min_bytes = MAXPOOL_PARALLEL_MIN_BYTES_DEFAULT;
    const char *env = getenv("MAXPOOL_PARALLEL_MIN_BYTES");
    if (env && *env) {
        char *end = NULL;
        const long long v = strtoll(env, &end, 10);
        if (end && *end == '\0' && v >= 0)
            min_bytes = v;
    }
    const size_t es = maxpool_dtype_size(p->desc.dtype);
    const size_t is = p->desc.index_type == MAXPOOL_INDEX_I64   ? 8
                      : p->desc.index_type == MAXPOOL_INDEX_I32 ? 4
                                                                 : 0;
    const double bytes = (double)(p->n * p->c) *
                         ((double)p->in_spatial * (double)es + (double)p->out_spatial * (double)(es + is));
    return bytes < (double)min_bytes ? 1 : nt;
#endif
}

maxpool_status maxpool_plan_create(const maxpool_desc *desc, const int64_t *input_shape, maxpool_plan **plan,
                                   maxpool_error *err)
{
    if (!plan)
        return maxpool_fail(err, MAXPOOL_ERR_NULL_POINTER, "plan is NULL");
    *plan = NULL;
    struct maxpool_plan *p = malloc(sizeof *p);
    if (!p)
        return maxpool_fail(err, MAXPOOL_ERR_OUT_OF_MEMORY, "out of memory allocating the plan");
    maxpool_status st = maxpool_infer(desc, input_shape, p, err);
    if (st != MAXPOOL_OK) {
        free(p);
        return st;
    }
    /* The kernel first: only geometry bounded by the input with an output
     * to write may get a specialised kernel (match functions read the
     * plan's numbers, never the window arrays). Then the window arrays
     * (every axis' start[] and count[] in one block, at most
     * 16 * (4*in + 64) bytes per axis) for that kernel only: the reference
     * computes its windows in closed form and needs none, so plans it runs
     * allocate nothing beyond the plan itself. */
    p->windows_block = NULL;
    p->bounded = p->n * p->c > 0 && maxpool_geometry_bounded(p);
    p->isa = maxpool_effective_isa(p->desc.max_isa);
    maxpool_select_kernel(p);
    if (p->kernel.run != maxpool_reference_kernel) {
        size_t total = 0;
        for (int i = 0; i < p->rank; ++i)
            total += 2 * (size_t)p->axis[i].out;
        int64_t *block = malloc(total * sizeof *block);
        if (!block) {
            free(p);
            return maxpool_fail(err, MAXPOOL_ERR_OUT_OF_MEMORY, "out of memory allocating %zu window entries",
                                total);
        }
        p->windows_block = block;
        for (int i = 0; i < p->rank; ++i) {
            maxpool_axis *ax = &p->axis[i];
            ax->start = block;
            ax->count = block + ax->out;
            block += 2 * ax->out;
            for (int64_t o = 0; o < ax->out; ++o)
                maxpool_axis_window(ax, p->desc.window == MAXPOOL_WINDOW_ADAPTIVE, o, &ax->start[o],
                                    &ax->count[o]);
        }
    }
    p->threads = plan_threads(p);
    *plan = p;
    return maxpool_ok(err);
}

void maxpool_plan_destroy(maxpool_plan *plan)
{
    if (!plan)
        return;
    free(plan->windows_block);
    free(plan);
}

int64_t maxpool_index_post_rows(const struct maxpool_plan *p)
{
    if (p->desc.layout == MAXPOOL_CHANNELS_LAST)
        return p->n * p->out_spatial;
    return p->n * p->c;
}

#define INDEX_POST_LOOP(T)                                                                                         \
    do {                                                                                                           \
        T *ind = (T *)indices;                                                                                     \
        for (int64_t row = r0; row < r1; ++row) {                                                                  \
            T *v = ind + row * len;                                                                                \
            if (p->idx_post == MAXPOOL_IDX_POST_MOD) {                                                             \
                const int64_t m = p->idx_post_mod;                                                                 \
                if (p->in_spatial <= INT32_MAX) {                                                                  \
                    /* v < 2^31: the quotient through a double is off by at most 1; int32 lanes, no idiv */        \
                    const double inv = 1.0 / (double)m;                                                            \
                    const int32_t m32 = (int32_t)m;                                                                \
                    for (int64_t i = 0; i < len; ++i) {                                                            \
                        const int32_t x = (int32_t)v[i]; /* -1 or an offset below in_spatial */                    \
                        int32_t r = x - (int32_t)((double)x * inv) * m32;                                          \
                        r += r < 0 ? m32 : 0;                                                                      \
                        r -= r >= m32 ? m32 : 0;                                                                   \
                        v[i] = x >= 0 ? (T)r : v[i];                                                               \
                    }                                                                                              \
                } else {                                                                                           \
                    for (int64_t i = 0; i < len; ++i)                                                              \
                        if (v[i] >= 0)                                                                             \
                            v[i] = (T)((int64_t)v[i] % m);                                                         \
                }                                                                                                  \
            } else if (cl) { /* row = n*out_spatial + o; element i is channel i */                                 \
                const int64_t base = (row / p->out_spatial) * p->idx_post_n;                                       \
                for (int64_t i = 0; i < len; ++i)                                                                  \
                    if (v[i] >= 0)                                                                                 \
                        v[i] = (T)((int64_t)v[i] * p->c + i + base);                                               \
            } else { /* row = n*C + c */                                                                           \
                const int64_t base = (row / p->c) * p->idx_post_n + row % p->c;                                    \
                for (int64_t i = 0; i < len; ++i)                                                                  \
                    if (v[i] >= 0)                                                                                 \
                        v[i] = (T)((int64_t)v[i] * p->c + base);                                                   \
            }                                                                                                      \
        }                                                                                                          \
    } while (0)

/* Every value fits the index type: the final range was checked at plan time. */
void maxpool_index_post(const struct maxpool_plan *p, void *indices, int64_t r0, int64_t r1)
{
    if (p->idx_post == MAXPOOL_IDX_POST_NONE || p->desc.index_type == MAXPOOL_INDEX_NONE)
        return;
    const int cl = p->desc.layout == MAXPOOL_CHANNELS_LAST;
    const int64_t len = cl ? p->c : p->out_spatial; /* elements per row */
    if (p->desc.index_type == MAXPOOL_INDEX_I64)
        INDEX_POST_LOOP(int64_t);
    else
        INDEX_POST_LOOP(int32_t);
}

static void run_index_post(const maxpool_plan *p, void *indices)
{
    if (p->idx_post == MAXPOOL_IDX_POST_NONE || p->desc.index_type == MAXPOOL_INDEX_NONE)
        return;
    const int64_t rows = maxpool_index_post_rows(p);
#ifdef MAXPOOL_HAVE_OPENMP
    int nt = p->threads;
    if ((int64_t)nt > rows)
        nt = (int)rows;
    if (nt > 1) {
#pragma omp parallel for num_threads(nt) schedule(static, 1)
        for (int t = 0; t < nt; ++t)
            maxpool_index_post(p, indices, rows * t / nt, rows * (t + 1) / nt);
        return;
    }
#endif
    maxpool_index_post(p, indices, 0, rows);
}

maxpool_status maxpool_run(const maxpool_plan *p, const void *x, void *y, void *indices)
{
    if (!p)
        return MAXPOOL_ERR_NULL_POINTER;
    const int64_t out_elems = p->n * p->c * p->out_spatial;
    if (out_elems == 0)
        return MAXPOOL_OK;
    if (!x || !y || (p->desc.index_type != MAXPOOL_INDEX_NONE && !indices))
        return MAXPOOL_ERR_NULL_POINTER;
    const int64_t tasks = p->kernel.tasks;
#ifdef MAXPOOL_HAVE_OPENMP
    const int nt = p->threads;
    if (nt > 1) {
        /* contiguous, disjoint task ranges: the bits never depend on nt */
#pragma omp parallel for num_threads(nt) schedule(static, 1)
        for (int t = 0; t < nt; ++t) {
            int64_t t0 = tasks * t / nt, t1 = tasks * (t + 1) / nt;
            if (t1 > t0)
                p->kernel.run(p, x, y, indices, t0, t1);
        }
        run_index_post(p, indices);
        return MAXPOOL_OK;
    }
#endif
    p->kernel.run(p, x, y, indices, 0, tasks);
    run_index_post(p, indices);
    return MAXPOOL_OK;
}

void maxpool_plan_output_shape(const maxpool_plan *p, int64_t *output_shape)
{
    if (p && output_shape)
        memcpy(output_shape, p->output_shape, (size_t)(p->rank + 2) * sizeof *output_shape);
}

int64_t maxpool_plan_input_elements(const maxpool_plan *p) { return p ? p->n * p->c * p->in_spatial : 0; }

int64_t maxpool_plan_output_elements(const maxpool_plan *p) { return p ? p->n * p->c * p->out_spatial : 0; }

const char *maxpool_plan_kernel_name(const maxpool_plan *p) { return p ? p->kernel.name : "none"; }

int maxpool_plan_threads(const maxpool_plan *p) { return p ? p->threads : 0; }
