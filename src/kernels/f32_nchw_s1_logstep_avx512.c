/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Channels-first (NCHW) f32 max pooling, AVX-512 (16 lanes): stride-1,
 * dilation-1 windows on both axes, log-step running max along W then H (see
 * f32_nchw_s1_logstep_impl.h): time per output independent of the kernel size.
 */
#include "kernels.h"

#include "simd_f32_avx512.h"
#define KPREFIX ls_avx512_
#include "f32_nchw_s1_logstep_impl.h"

void maxpool_f32_nchw_s1_logstep_avx512(const struct maxpool_plan *p, const void *x, void *y, void *ind, int64_t t0,
                                        int64_t t1)
{
    ls_avx512_run(p, x, y, ind, t0, t1);
}
