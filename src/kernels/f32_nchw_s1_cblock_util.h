/* SPDX-License-Identifier: Apache-2.0 */
/* The cblock kernel's helpers that do not depend on the lane count, for
 * f32_nchw_s1_cblock_avx2.c and f32_nchw_s1_cblock_avx512.c (included
 * after their CB_AI and intrinsics headers, before their transposes). */
#ifndef MAXPOOL_F32_NCHW_S1_CBLOCK_UTIL_H
#define MAXPOOL_F32_NCHW_S1_CBLOCK_UTIL_H

#include <stdint.h>

/* lanes [0, n) of four set (AVX masked loads and stores: the packaged SIMDe
 * of the emulation build has no 128-bit AVX-512 masked forms) */
CB_AI __m128i cb_tailmask4(int n)
{
    return _mm_cmpgt_epi32(_mm_set1_epi32(n), _mm_setr_epi32(0, 1, 2, 3));
}

/* plane p of the group (planes past np: plane np - 1 again, whose lanes
 * are never stored) */
CB_AI const float *cb_plane(const float *x0, const int64_t ps, const int np, const int p)
{
    return x0 + (p < np ? p : np - 1) * ps;
}

#endif
