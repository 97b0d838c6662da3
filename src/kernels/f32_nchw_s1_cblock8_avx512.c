/* SPDX-License-Identifier: Apache-2.0 */
/*
 * YOLO's SPP shapes (1 x C x 20 x 20, "same" k5 / k9 / k13, C * N a multiple
 * of 8) at the AVX-512 ceiling: the AVX2 cblock kernel's 8-plane groups
 * (f32_nchw_s1_cblock_t8.h, f32_nchw_s1_cblock_impl.h: the same source),
 * compiled with AVX-512 enabled, so gcc has 32 vector registers for the
 * unrolled W and H register chains (EVEX encodings of the same operations).
 * Only the SPP shapes' compile-time sizes are compiled (CB_GENERIC 0):
 * every other plan goes to f32_nchw_s1_cblock_avx512 (16 planes a group)
 * or f32_nchw_s1_cblock_avx2. Why not 16 planes for these shapes: see
 * f32_nchw_s1_cblock_avx512.c; this instance measured 0.87-0.94 x the AVX2
 * instance's time on them (docs/performance.md).
 */
#include "kernels.h"

#include "force_inline.h"

#ifdef MAXPOOL_SIMDE
#define SIMDE_ENABLE_NATIVE_ALIASES
#include <simde/x86/avx512.h>
#define CB_AI static inline /* (the emulation build: see simd_f32_avx512.h) */
#else
#include <immintrin.h>
#define CB_AI MAXPOOL_AI
#endif

#define CB_RUN maxpool_f32_nchw_s1_cblock8_avx512
#define CB_SPP 1
#define CB_GENERIC 0

#include "f32_nchw_s1_cblock_t8.h"

#include "f32_nchw_s1_cblock_impl.h"

/* The SPP shapes of f32_nchw_s1_cblock_avx2 (its bounds hold: 20x20 planes)
 * in whole groups of 8 planes: the run function has only those sizes */
int maxpool_f32_nchw_s1_cblock8_avx512_match(const struct maxpool_plan *p)
{
    if (!maxpool_f32_nchw_s1_cblock_match(p) || (p->n * p->c) % 8 != 0)
        return 0;
    const maxpool_axis *h = &p->axis[0], *w = &p->axis[1];
    return h->in == 20 && w->in == 20 && h->out == 20 && w->out == 20 && h->kernel == w->kernel &&
           h->pad_begin == w->pad_begin && h->pad_begin == h->kernel / 2 &&
           (h->kernel == 5 || h->kernel == 9 || h->kernel == 13);
}
