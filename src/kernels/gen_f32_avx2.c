/* SPDX-License-Identifier: Apache-2.0 */
/* f32 max pooling, channels-first, avx2: the type-generic kernels
 * (gen_impl.h) on the f32 block of vt_avx2.h, for the plans where they are
 * faster than the f32 kernels (f32_match.c). Kernel f32_nchw_gen_avx2. */
#include "kernels.h"

#define GEN_TYPE GEN_F32
#define GEN_NCHW_ONLY 1
#include "vt_avx2.h"
#define KPREFIX maxpool_gen_f32_avx2_
#include "gen_impl.h"
