/* SPDX-License-Identifier: Apache-2.0 */
/* i32 max pooling, both layouts, avx512: the type-generic kernels
 * (gen_impl.h) on the i32 block of vt_avx512.h. Kernels i32_nchw_gen_avx512
 * and i32_nhwc_gen_avx512. */
#include "kernels.h"

#define GEN_TYPE GEN_I32
#include "vt_avx512.h"
#define KPREFIX maxpool_gen_i32_avx512_
#include "gen_impl.h"
