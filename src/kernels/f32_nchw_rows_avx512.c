/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Channels-first (NCW, NCHW, NCDHW) f32 max pooling, AVX-512 (16 lanes):
 * separable row-then-column passes (see f32_nchw_rows_impl.h), stride-1 and
 * stride-2 row specialisations, log-step rows for long stride-1 windows, any
 * window (fixed or adaptive) through the canonical start/count arrays at
 * borders. Also the f32_nchw_s1_largek_avx512 entry.
 */
#include "kernels.h"

#include "simd_f32_avx512.h"
#define KPREFIX cf_avx512_
#include "f32_nchw_rows_impl.h"

void maxpool_f32_nchw_rows_avx512(const struct maxpool_plan *p, const void *x, void *y, void *ind, int64_t t0,
                                  int64_t t1)
{
    cf_avx512_run(p, x, y, ind, t0, t1);
}
