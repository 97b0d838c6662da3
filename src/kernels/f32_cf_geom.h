/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Geometry shared by the channels-first f32 row kernels (f32_nchw_rows_*.c):
 * a plan of spatial rank 1..3 seen as rank 3 (missing leading axes have size
 * 1), the last axis' regular interior (where every window is full and
 * follows o*stride - pad_begin + j*dilation), the line-cache shape and the
 * task split. Computed per run from the immutable plan: O(1), no allocation.
 */
#ifndef MAXPOOL_F32_CF_GEOM_H
#define MAXPOOL_F32_CF_GEOM_H

#include "../plan.h"

#include <stdint.h>

/* Line cache: direct-mapped by (d mod s0, h mod s1); more slots than this and
 * the kernel streams (recomputes every line, combines into an accumulator). */
#define CF_MAX_SLOTS 32
/* Stack scratch of one task: line results (value + position) per slot. */
#define CF_SCRATCH_BYTES 16384
/* Below this many planes, planes are split into blocks of output rows. */
#define CF_MIN_TASKS 32

typedef struct cf_axis {
    int64_t in, out, step;
    const int64_t *start, *count;
    int64_t extent; /* upper bound of (count-1)*step+1 over the windows */
} cf_axis;

enum { CF_W_SCALAR = 0, CF_W_S1 = 1, CF_W_S2 = 2, CF_W_S1_LOG = 3 };

typedef struct cf_geom {
    cf_axis a0, a1, aw; /* outer, middle, last (W) axis */
    /* last axis: outputs [lo, hi) use taps o*s - pb + j*d, j < k, all inside */
    int64_t lo, hi, s, pb, k, d;
    int wmode;
    int64_t s0, s1;    /* cache residues per outer axis (powers of two) */
    int streaming;     /* s0*s1 > CF_MAX_SLOTS: no line cache */
    int64_t rows;      /* out0 * out1: output rows per plane */
    int64_t nb;        /* row blocks per plane */
    int64_t planes;    /* n * c */
} cf_geom;

static const int64_t cf_zero = 0, cf_one = 1;

static inline void cf_axis_from(cf_axis *a, const struct maxpool_plan *p, int i)
{
    const maxpool_axis *ax = &p->axis[i];
    a->in = ax->in;
    a->out = ax->out;
    a->step = ax->step;
    a->start = ax->start;
    a->count = ax->count;
    if (p->desc.window == MAXPOOL_WINDOW_ADAPTIVE)
        a->extent = ax->in % ax->out == 0 ? ax->in / ax->out : ax->in / ax->out + 2;
    else
        a->extent = (ax->kernel - 1) * ax->dilation + 1;
    if (a->extent > ax->in)
        a->extent = ax->in;
}

static inline void cf_axis_unit(cf_axis *a)
{
    a->in = a->out = a->step = a->extent = 1;
    a->start = &cf_zero;
    a->count = &cf_one;
}

static inline int64_t cf_blocks(int64_t planes, int64_t rows)
{
    if (planes >= CF_MIN_TASKS)
        return 1;
    int64_t nb = (CF_MIN_TASKS + planes - 1) / planes;
    return nb < rows ? nb : rows;
}

static inline void cf_geom_init(const struct maxpool_plan *p, cf_geom *g)
{
    const int r = p->rank;
    cf_axis_from(&g->aw, p, r - 1);
    if (r >= 2)
        cf_axis_from(&g->a1, p, r - 2);
    else
        cf_axis_unit(&g->a1);
    if (r >= 3)
        cf_axis_from(&g->a0, p, r - 3);
    else
        cf_axis_unit(&g->a0);

    const maxpool_axis *w = &p->axis[r - 1];
    g->lo = g->hi = 0;
    g->s = g->k = g->d = 1;
    g->pb = 0;
    if (p->desc.window == MAXPOOL_WINDOW_ADAPTIVE) {
        if (w->in % w->out == 0) { /* every window is [o*q, o*q + q) */
            g->s = g->k = w->in / w->out;
            g->hi = w->out;
        }
    } else {
        g->s = w->stride;
        g->pb = w->pad_begin;
        g->k = w->kernel;
        g->d = w->dilation;
        g->lo = (g->pb + g->s - 1) / g->s; /* first o with o*s - pb >= 0 */
        const int64_t last = w->in - 1 + g->pb - (g->k - 1) * g->d; /* o*s <= last */
        g->hi = last >= 0 ? last / g->s + 1 : 0;
        if (g->hi > w->out)
            g->hi = w->out;
        if (g->lo > g->hi)
            g->lo = g->hi;
    }
    if (p->desc.window == MAXPOOL_WINDOW_ADAPTIVE && g->hi == 0)
        g->wmode = CF_W_SCALAR; /* uneven adaptive windows: start/count per column */
    else if (g->s == 1 && g->d == 1 && g->k >= 6)
        g->wmode = CF_W_S1_LOG;
    else if (g->s == 1)
        g->wmode = CF_W_S1;
    else if (g->s == 2 && g->d == 1)
        g->wmode = CF_W_S2;
    else
        g->wmode = CF_W_SCALAR;

    /* power-of-two residues: slot = (d & (s0-1)) * s1 + (h & (s1-1)) */
    g->s0 = 1;
    while (g->s0 < g->a0.extent && g->s0 <= CF_MAX_SLOTS)
        g->s0 *= 2;
    g->s1 = 1;
    while (g->s1 < g->a1.extent && g->s1 <= CF_MAX_SLOTS)
        g->s1 *= 2;
    g->streaming = g->s0 * g->s1 > CF_MAX_SLOTS;
    g->rows = g->a0.out * g->a1.out;
    g->planes = p->n * p->c;
    g->nb = cf_blocks(g->planes, g->rows);
}

/* Whether every output of the axis has a non-empty window (count > 0): the
 * direct kernels (ncw_s1, k3s2, vpipe, cblock) take only such axes. */
static inline int cf_axis_nonempty(const maxpool_axis *a) { return !a->has_empty; }

/* Plans the channels-first f32 row kernels take: rank 1..3, row-major
 * indices (column-major ones stay with the reference) whose in-plane offsets,
 * empty windows' first taps included (maxpool_plan.max_offset), fit int32.
 * (Every specialised kernel also gets only bounded plans: dispatch.c.) */
static inline int cf_match(const struct maxpool_plan *p)
{
    if (p->desc.dtype != MAXPOOL_F32 || p->desc.layout != MAXPOOL_CHANNELS_FIRST || p->rank < 1 || p->rank > 3)
        return 0;
    if (p->desc.index_type != MAXPOOL_INDEX_NONE &&
        (p->desc.index_order != MAXPOOL_INDEX_ROW_MAJOR || p->in_spatial > INT32_MAX || p->max_offset > INT32_MAX))
        return 0;
    return 1;
}

/* cf_match for the kernels that form int32 in-plane positions with or
 * without index output (the row, log-step and lines-first kernels: position
 * lanes, the first-element start's gathers and loads at the window's first
 * tap): planes of at most INT32_MAX elements. Larger planes (8 GiB and more
 * per plane) stay with the reference. */
static inline int cf_match_pos32(const struct maxpool_plan *p) { return cf_match(p) && p->in_spatial <= INT32_MAX; }

/* The same plans when the last axis has long stride-1 windows (log-step pass). */
static inline int cf_match_largek(const struct maxpool_plan *p)
{
    if (!cf_match_pos32(p) || p->desc.window != MAXPOOL_WINDOW_FIXED)
        return 0;
    const maxpool_axis *w = &p->axis[p->rank - 1];
    return w->stride == 1 && w->dilation == 1 && w->kernel >= 6;
}

static inline int64_t cf_tasks(const struct maxpool_plan *p)
{
    int64_t rows = 1;
    for (int i = 0; i < p->rank - 1; ++i)
        rows *= p->axis[i].out;
    return p->n * p->c * cf_blocks(p->n * p->c, rows);
}

#endif
