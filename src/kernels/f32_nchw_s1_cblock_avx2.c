/* SPDX-License-Identifier: Apache-2.0 */
/*
 * NCHW (spatial rank 2) f32 max pooling of small planes with large stride-1
 * windows (YOLO's SPP), AVX2: eight planes at a time, transposed so that one
 * vector holds one position of 8 planes, van Herk / Gil-Werman running
 * maxima along W and H, transposed back. The algorithm (and why it is
 * bit-exact) is f32_nchw_s1_cblock_impl.h, shared with the AVX-512 instance
 * (16 planes); the 8-lane transposes are f32_nchw_s1_cblock_t8.h (shared
 * with f32_nchw_s1_cblock8_avx512.c); this file holds the match.
 *
 * Transposes: per row chunk of 8 (then 4, then 1..3) positions, the 128-bit
 * halves of two planes loaded into one vector and a 4x4 shufps transpose
 * per half; out, the inverse. The input transpose feeds the W pass
 * row by row and the output transpose takes each chunk's H results, so no
 * transposed copy of the planes is kept.
 */
#include "kernels.h"

#include "force_inline.h"

#include <immintrin.h>

#define CB_AI MAXPOOL_AI
#define CB_RUN maxpool_f32_nchw_s1_cblock_avx2
#define CB_SPP 1
#define CB_GENERIC 1

#include "f32_nchw_s1_cblock_t8.h"

#include "f32_nchw_s1_cblock_impl.h"

/* Bounds, stack scratch per task (both instances; 448 + 448 + 2 x 64
 * vectors: 36 KiB at 8 lanes, 72 KiB at 16):
 *  - tr[CB_MAX]: the row results (in_h*out_w <= 448, checked here);
 *    ob[CB_MAX]: one transposed input row (in_w <= 32), then a chunk of n
 *    <= min(8, out_w) columns' H results (n*out_h <= out_h*out_w <= 448).
 *  - cb_line's hs/gs[CB_XMAX]: positions of one line, < n = in <= out + k - 1
 *    <= 64 on each axis (stride 1: in = out + k - 1 - pad_begin - pad_end,
 *    the effective pads >= 0).
 * Loads and stores of the planes: 128-bit (or 256-bit) pieces within one
 * row of a plane, masked tails; the lanes of planes past np load plane
 * np - 1 and are never stored. No positions: values only, NaN
 * ignored, either start (the first element's: cb_fe_nan). */
int maxpool_f32_nchw_s1_cblock_match(const struct maxpool_plan *p)
{
    if (!cf_match(p) || p->rank != 2 || p->desc.window != MAXPOOL_WINDOW_FIXED ||
        p->desc.index_type != MAXPOOL_INDEX_NONE || p->nan_propagate)
        return 0;
    const maxpool_axis *h = &p->axis[0], *w = &p->axis[1];
    for (int a = 0; a < 2; ++a) {
        const maxpool_axis *ax = &p->axis[a];
        if (ax->stride != 1 || ax->dilation != 1 || ax->out + ax->kernel - 1 > CB_XMAX)
            return 0;
        if (!cf_axis_nonempty(ax))
            return 0;
    }
    if (h->in * w->in > CB_MAX || h->in * w->out > CB_MAX || h->out * w->out > CB_MAX)
        return 0;
    /* where it beats the column-strip kernel (measured, 1 thread, 64..512
     * planes of 8x32 .. 32x14): rows of at most 32 that its 16-column strips
     * fill badly (20: 2x faster at k2, k3, k13), or windows of 5 and more */
    return w->in <= CB_NARROW_W && (w->in % 16 != 0 || h->kernel >= CB_MIN_K || w->kernel >= CB_MIN_K);
}

int64_t maxpool_f32_nchw_s1_cblock_tasks(const struct maxpool_plan *p) { return (p->n * p->c + 7) / 8; }
