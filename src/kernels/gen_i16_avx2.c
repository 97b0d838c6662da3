/* SPDX-License-Identifier: Apache-2.0 */
/* i16 max pooling, both layouts, avx2: the type-generic kernels
 * (gen_impl.h) on the i16 block of vt_avx2.h. Kernels i16_nchw_gen_avx2
 * and i16_nhwc_gen_avx2. */
#include "kernels.h"

#define GEN_TYPE GEN_I16
#include "vt_avx2.h"
#define KPREFIX maxpool_gen_i16_avx2_
#include "gen_impl.h"
