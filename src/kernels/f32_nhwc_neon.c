/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Channels-last (NWC, NHWC, NDHWC) f32 max pooling, AArch64 NEON: vectorised
 * over channels (see f32_nhwc_impl.h).
 */
#include "kernels.h"

#include "simd_f32_neon.h"
#define KPREFIX cl_neon_
#include "f32_nhwc_impl.h"

void maxpool_f32_nhwc_neon(const struct maxpool_plan *p, const void *x, void *y, void *ind, int64_t t0, int64_t t1)
{
    cl_neon_run(p, x, y, ind, t0, t1);
}
