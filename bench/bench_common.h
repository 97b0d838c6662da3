/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Shared between bench_maxpool.c and the optional peers compiled into the
 * same program (peer_onednn.c): the case description and the timer.
 */
#ifndef MAXPOOL_BENCH_COMMON_H
#define MAXPOOL_BENCH_COMMON_H

#include "maxpool.h"

#include <stddef.h>
#include <stdint.h>

#define BENCH_MAX_RANK 3

/* One benchmark case. Shapes are in memory order (N, C, D... or N, D..., C). */
typedef struct bench_case {
    const char *name;
    const char *what; /* short human description */
    int rank;         /* spatial rank */
    maxpool_layout layout;
    int64_t shape[BENCH_MAX_RANK + 2];
    int adaptive; /* 1: adaptive windows with output_size */
    int64_t kernel[BENCH_MAX_RANK], stride[BENCH_MAX_RANK], pad[BENCH_MAX_RANK];
    int64_t output_size[BENCH_MAX_RANK];
    maxpool_index_type index_type; /* I64 for the "+ indices" rows (per-plane, PyTorch style) */
    int per_call;                  /* the tiny per-call-cost case */
    maxpool_dtype dtype;           /* element type (F32 where not given) */
    int first_element;             /* 1: the window starts at its first element (the ONNX front-end's start;
                                    * the other rows start at the empty value, maxpool_desc_init's default) */
} bench_case;

/* The problem as the benchmark derived it: logical sizes and the buffers the
 * maxpool library ran on (the peers may read x and compare with y). */
typedef struct bench_problem {
    const bench_case *c;
    int64_t n, ch;                     /* batch, channels */
    int64_t in_sp[BENCH_MAX_RANK];     /* input spatial sizes */
    int64_t out_sp[BENCH_MAX_RANK];    /* output spatial sizes */
    int64_t in_elems, out_elems;
    const float *x; /* input, memory order of c->layout (the peers take f32 cases only) */
    const float *y; /* maxpool's output for x, memory order of c->layout */
} bench_problem;

/* Timing statistics of one measured function (seconds per call). */
typedef struct bench_stats {
    double median, min, p10, p90;
    int samples; /* number of timed samples */
    int64_t inner; /* calls per sample */
} bench_stats;

typedef void (*bench_fn)(void *ctx);

/* Times fn(ctx): warm-up, then samples of `inner` back-to-back calls (inner
 * chosen so a sample lasts >= 50 us), as many samples as fit the time target
 * (at least the minimum count). Returns the median time of one call. */
double bench_measure(bench_fn fn, void *ctx, bench_stats *st);

double bench_now(void);

/* Optional peers: fill the fields, return 0 when measured, -1 when not
 * supported (note says why). */
typedef struct peer_result {
    int ok;
    double seconds; /* median per call */
    char impl[96];  /* implementation name the peer reports */
    char note[128];
    int mismatch; /* 1: output differed from maxpool's (only checked where comparable) */
} peer_result;

#ifdef MAXPOOL_BENCH_HAVE_ONEDNN
/* oneDNN max pooling in the case's plain format (abcd / acdb ...) and in its
 * blocked format (aBcd8b / aBcd16b ...), reorders not timed. */
const char *peer_onednn_version(void);
void peer_onednn_run(const bench_problem *pr, peer_result *plain, peer_result *blocked);
#endif

#endif /* MAXPOOL_BENCH_COMMON_H */
