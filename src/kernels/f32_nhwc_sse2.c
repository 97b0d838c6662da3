/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Channels-last (NWC, NHWC, NDHWC) f32 max pooling, SSE2: vectorised
 * over channels (see f32_nhwc_impl.h).
 */
#include "kernels.h"

#include "simd_f32_sse2.h"
#define KPREFIX cl_sse2_
#include "f32_nhwc_impl.h"

void maxpool_f32_nhwc_sse2(const struct maxpool_plan *p, const void *x, void *y, void *ind, int64_t t0, int64_t t1)
{
    cl_sse2_run(p, x, y, ind, t0, t1);
}
