/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Internal: the canonical description every front-end lowers to, and the
 * kernel interface. Kernels read only struct maxpool_plan; they know nothing
 * of ONNX, OpenVINO or PyTorch.
 */
#ifndef MAXPOOL_PLAN_H
#define MAXPOOL_PLAN_H

#include "maxpool.h"

#include <stdint.h>

struct maxpool_plan;

/*
 * A kernel runs tasks [t0, t1) of a plan. Tasks write disjoint parts of y and
 * indices, so any split over threads gives identical bits. The meaning of a
 * task is the kernel's own (a plane, a row block, ...); it says how many there
 * are through maxpool_kernel.count_tasks at plan time.
 */
typedef void (*maxpool_kernel_fn)(const struct maxpool_plan *p, const void *x, void *y, void *indices, int64_t t0,
                                  int64_t t1);

typedef struct maxpool_kernel {
    const char *name;
    maxpool_kernel_fn run;
    int64_t tasks; /* number of tasks for this plan */
} maxpool_kernel;

/* One spatial axis, canonical form. For output position o, the window is the
 * input positions start + j*step, j = 0 .. count-1, all inside [0, in), as
 * maxpool_axis_window (shape.h) computes them in closed form. count may be 0
 * (a window with no input element); start is then the first tap at or after
 * 0 (used by MAXPOOL_EMPTY_INDEX_FIRST_TAP), which may lie past the input.
 * The arrays start[o], count[o] hold the same numbers, precomputed, only in
 * plans that a specialised kernel runs (those need maxpool_plan.bounded);
 * they are NULL in plans of the reference kernel. Match functions must not
 * read them (they are filled after kernel selection). */
typedef struct maxpool_axis {
    int64_t in;     /* input size */
    int64_t out;    /* output size */
    int64_t step;   /* distance between taps (dilation; 1 for adaptive) */
    int64_t *start; /* [out], or NULL (reference kernel) */
    int64_t *count; /* [out], or NULL (reference kernel) */
    int has_empty;  /* some window of this axis holds no input element */
    /* Fixed windows only (window == FIXED), for kernels that want the regular
     * form: the taps of window o are o*stride - pad_begin + j*dilation,
     * j = 0 .. kernel-1, clipped to [0, in). pad_end is the effective end pad. */
    int64_t kernel, stride, dilation, pad_begin, pad_end;
} maxpool_axis;

/* Largest input plane (elements) whose plans may be bounded. */
#define MAXPOOL_BOUNDED_PLANE ((int64_t)1 << 48)

/* The start value of every window, as the dtype's bits. */
typedef union maxpool_scalar {
    float f32;
    double f64;
    uint16_t u16bits; /* f16 / bf16 */
    int8_t i8;
    uint8_t u8;
    int16_t i16;
    uint16_t u16;
    int32_t i32;
    int64_t i64;
} maxpool_scalar;

/* Index post-transform maxpool_run applies after the kernel (maxpool_plan.idx_post). */
enum maxpool_idx_post {
    MAXPOOL_IDX_POST_NONE = 0,
    MAXPOOL_IDX_POST_MOD = 1,          /* index_axis > 2: v -> v mod idx_post_mod */
    MAXPOOL_IDX_POST_CHANNELS_LAST = 2 /* index_order CHANNELS_LAST: v -> v*C + c + n*idx_post_n */
};

struct maxpool_plan {
    /* As given (copied), except index_axis and index_order when idx_post is
     * not NONE: they then hold what the kernels compute (index_axis 2,
     * ROW_MAJOR: the within-plane row-major offset), and maxpool_run turns
     * that into the requested convention afterwards. Kernels never see an
     * index_axis above 2 or CHANNELS_LAST. */
    maxpool_desc desc;
    int rank;          /* spatial rank */
    int64_t n, c;      /* batch and channels */
    maxpool_axis axis[MAXPOOL_MAX_SPATIAL];
    int64_t in_spatial;  /* product of axis[i].in */
    int64_t out_spatial; /* product of axis[i].out */
    int64_t input_shape[MAXPOOL_MAX_SPATIAL + 2];  /* memory order */
    int64_t output_shape[MAXPOOL_MAX_SPATIAL + 2]; /* memory order */

    /* Index convention, flattened: the index of input element (n, c, s), s
     * the row-major spatial offset, is n*idx_n + c*idx_c + remap(s), where
     * remap is the identity for ROW_MAJOR and the column-major offset
     * otherwise. The empty-window index is -1 or that of the first tap. */
    int64_t idx_n, idx_c;
    int64_t idx_col_mul[MAXPOOL_MAX_SPATIAL]; /* column-major multiplier of axis i */
    int64_t idx_row_mul[MAXPOOL_MAX_SPATIAL]; /* row-major multiplier of axis i */

    /* Index post-transform (enum maxpool_idx_post), applied by maxpool_run
     * to every index >= 0 the kernel wrote; -1 stays -1. */
    int idx_post;
    int64_t idx_post_mod; /* MOD: product of the input sizes of spatial axes index_axis-2 .. rank-1 */
    int64_t idx_post_n;   /* CHANNELS_LAST: the batch stride (C * in_spatial with index_axis 0, else 0) */

    maxpool_scalar init; /* start value of the running max (empty_value) */
    int nan_propagate;   /* desc.nan_policy == PROPAGATE */

    /* Geometry bounded by the input: the spatial plane has at most
     * MAXPOOL_BOUNDED_PLANE elements and on every axis the output size and
     * (fixed windows) kernel, stride, dilation, dilated kernel and both
     * effective pads are at most 4*in + 64. Only such plans get the
     * specialised kernels (and their window arrays), so a kernel never sees geometry
     * that hostile attributes blow up (pads or strides of 2^40 on a tiny
     * input), nor arrays out of proportion to the input; other plans run the
     * reference kernel, which computes every window in closed form. */
    int bounded;
    /* Largest row-major in-plane offset an index of this plan can name
     * (in_spatial - 1, or the first tap of an empty window past the input
     * end under MAXPOOL_EMPTY_INDEX_FIRST_TAP); INT64_MAX if that overflows. */
    int64_t max_offset;

    int threads;     /* threads a run uses (maxpool_plan_threads) */
    maxpool_isa isa; /* the ceiling kernel selection used */
    maxpool_kernel kernel;
    void *windows_block; /* owns every axis' start/count arrays */
};

/* Index of input element (n, c, s) under the plan's convention. */
static inline int64_t maxpool_index_of(const struct maxpool_plan *p, int64_t n, int64_t c, int64_t s)
{
    int64_t r = s;
    if (p->desc.index_order == MAXPOOL_INDEX_COL_MAJOR) {
        int64_t rem = s;
        r = 0;
        for (int i = p->rank - 1; i >= 0; --i) {
            int64_t coord = rem % p->axis[i].in;
            rem /= p->axis[i].in;
            r += coord * p->idx_col_mul[i];
        }
    }
    return n * p->idx_n + c * p->idx_c + r;
}

/* Index written for a window with no input element; start[i] is the
 * window's first tap at or after 0 on axis i (maxpool_axis.start). */
static inline int64_t maxpool_empty_index_of(const struct maxpool_plan *p, int64_t n, int64_t c,
                                             const int64_t *start)
{
    if (p->desc.empty_index == MAXPOOL_EMPTY_INDEX_MINUS_ONE)
        return -1;
    int64_t r = n * p->idx_n + c * p->idx_c;
    if (p->desc.empty_index == MAXPOOL_EMPTY_INDEX_FIRST_TAP) {
        /* built from coordinates: a first tap may lie past the input end */
        const int64_t *mul = p->desc.index_order == MAXPOOL_INDEX_COL_MAJOR ? p->idx_col_mul : p->idx_row_mul;
        for (int i = 0; i < p->rank; ++i)
            r += start[i] * mul[i];
    }
    return r;
}

/* Stores idx into indices[pos] with the plan's index type (no-op for NONE). */
static inline void maxpool_store_index(const struct maxpool_plan *p, void *indices, int64_t pos, int64_t idx)
{
    if (p->desc.index_type == MAXPOOL_INDEX_I64)
        ((int64_t *)indices)[pos] = idx;
    else if (p->desc.index_type == MAXPOOL_INDEX_I32)
        ((int32_t *)indices)[pos] = (int32_t)idx;
}

/* Applies the plan's index post-transform to output rows [r0, r1) of
 * indices (a row: one (n, c) plane for channels-first output, one (n,
 * spatial position) line of C channels for channels-last); rows number
 * maxpool_index_post_rows(p). No-op for MAXPOOL_IDX_POST_NONE. */
int64_t maxpool_index_post_rows(const struct maxpool_plan *p);
void maxpool_index_post(const struct maxpool_plan *p, void *indices, int64_t r0, int64_t r1);

/* Kernel selection (dispatch.c): fills p->kernel. Never fails: the reference
 * kernel takes every plan. */
void maxpool_select_kernel(struct maxpool_plan *p);

/* The portable reference kernel for every dtype, layout and convention (reference.c). */
void maxpool_reference_kernel(const struct maxpool_plan *p, const void *x, void *y, void *indices, int64_t t0,
                              int64_t t1);
/* Number of reference-kernel tasks: one per (n, c) plane. */
int64_t maxpool_reference_tasks(const struct maxpool_plan *p);

/* The effective ISA ceiling: min(desc.max_isa, MAXPOOL_ISA env var, CPU). */
maxpool_isa maxpool_effective_isa(maxpool_isa requested);

#endif /* MAXPOOL_PLAN_H */
