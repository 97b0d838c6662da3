/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Channels-first (NCW, NCHW, NCDHW) f32 max pooling, AArch64 NEON: separable
 * row-then-column passes (see f32_nchw_rows_impl.h), the SSE2 instantiation's
 * twin on 4 lanes (vocabulary: simd_f32_neon.h).
 */
#include "kernels.h"

#include "simd_f32_neon.h"
#define KPREFIX cf_neon_
#include "f32_nchw_rows_impl.h"

void maxpool_f32_nchw_rows_neon(const struct maxpool_plan *p, const void *x, void *y, void *ind, int64_t t0,
                                int64_t t1)
{
    cf_neon_run(p, x, y, ind, t0, t1);
}
