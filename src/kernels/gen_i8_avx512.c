/* SPDX-License-Identifier: Apache-2.0 */
/* i8 max pooling, both layouts, avx512: the type-generic kernels
 * (gen_impl.h) on the i8 block of vt_avx512.h. Kernels i8_nchw_gen_avx512
 * and i8_nhwc_gen_avx512. */
#include "kernels.h"

#define GEN_TYPE GEN_I8
#include "vt_avx512.h"
#define KPREFIX maxpool_gen_i8_avx512_
#include "gen_impl.h"
