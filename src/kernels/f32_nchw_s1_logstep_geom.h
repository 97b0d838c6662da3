/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Which plans the stride-1 log-step channels-first kernel
 * (f32_nchw_s1_logstep_*.c) takes, its buffer limits and its task split.
 * Portable: included by the match file and by the kernel template.
 */
#ifndef MAXPOOL_F32_NCHW_S1_LOGSTEP_GEOM_H
#define MAXPOOL_F32_NCHW_S1_LOGSTEP_GEOM_H

#include "f32_cf_geom.h"

/* Smallest max(kernel_h, kernel_w) taken. Measured against the general rows
 * kernel (1x64x224x224 and 1x512x20x20, values and indices): this kernel is
 * faster from k3 on (and at k2 without indices; stride-1 k2 is rare and stays
 * with the general kernel). */
#define LS_MIN_K 3
/* Largest kernels taken (bounded stack buffers); longer windows go to the
 * general kernel. */
#define LS_KW_MAX 256
#define LS_KH_MAX 64
/* Output columns per chunk (W-pass span = chunk + kernel_w - 1). */
#define LS_CHUNK 256
/* Strip buffer: W-pass results of the input rows of one strip, values (and
 * positions when indices are asked for: then half of it each). */
#define LS_BUF_FLOATS 10240
/* Most output rows a strip (bounded per-strip tables). */
#define LS_STRIP_ROWS 512
/* H levels: log2 of LS_KH_MAX */
#define LS_LEVELS 6
/* Strip size aimed at (floats; half each for values and positions): L1 and L2. */
#define LS_L1_FLOATS 8192

/* Scratch of f32_nchw_s1_logstep_impl.h per task, and what bounds it:
 *  - strip[LS_BUF_FLOATS] (half for positions with indices: cap floats):
 *    (nrows + 1) rows of Ls floats, nrows <= nrcap <= cap/Ls - 1; the row
 *    span Ls <= cap/(min(H, k_h) + 2) - 1 because
 *    (k_h + 2) * (k_w + 32) <= LS_BUF_FLOATS/2 (below) makes the chunk
 *    width cfit >= VW; the leaves' and levels' overruns (< VW, < k_w) land
 *    in the slack row.
 *  - elist[LS_STRIP_ROWS] (int16): at most 512 output rows a strip.
 *  - cnt/lbeg[LS_LEVELS + 2/3]: H levels log2(count_h) <= log2(LS_KH_MAX) = 6.
 *  - ft/fg/fem[LS_CHUNK + 16]: chunk <= LS_CHUNK columns.
 * Positions are int32 (position lanes; the first-element start loads and
 * gathers at row start_h * W): in_spatial <= INT32_MAX (cf_match_pos32). */
static inline int ls_match(const struct maxpool_plan *p)
{
    if (!cf_match_pos32(p) || p->desc.window != MAXPOOL_WINDOW_FIXED || p->rank != 2)
        return 0;
    const maxpool_axis *h = &p->axis[0], *w = &p->axis[1];
    if (h->stride != 1 || w->stride != 1 || h->dilation != 1 || w->dilation != 1)
        return 0;
    if (h->kernel > LS_KH_MAX || w->kernel > LS_KW_MAX)
        return 0;
    /* a strip of k_h + 2 rows of (at least) k_w + 32 floats, values and positions, fits the buffer */
    if ((h->kernel + 2) * (w->kernel + 32) > LS_BUF_FLOATS / 2)
        return 0;
    return h->kernel >= LS_MIN_K || w->kernel >= LS_MIN_K;
}

/* Tasks: one per (plane, block of output rows); planes are split into row
 * blocks only when there are fewer than CF_MIN_TASKS of them. */
static inline int64_t ls_tasks(const struct maxpool_plan *p)
{
    const int64_t planes = p->n * p->c;
    return planes * cf_blocks(planes, p->axis[0].out);
}

#endif
