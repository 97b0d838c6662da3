/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Channels-first (NCHW) f32 max pooling, AArch64 NEON: stride-1, dilation-1
 * windows on both axes, log-step running max along W then H (see
 * f32_nchw_s1_logstep_impl.h). Big outputs use plain stores here (VF_STREAM
 * in simd_f32_neon.h).
 */
#include "kernels.h"

#include "simd_f32_neon.h"
#define KPREFIX ls_neon_
#include "f32_nchw_s1_logstep_impl.h"

void maxpool_f32_nchw_s1_logstep_neon(const struct maxpool_plan *p, const void *x, void *y, void *ind, int64_t t0,
                                      int64_t t1)
{
    ls_neon_run(p, x, y, ind, t0, t1);
}
