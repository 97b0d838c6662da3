/* SPDX-License-Identifier: Apache-2.0 */
/* f16 max pooling, both layouts, avx2: the type-generic kernels
 * (gen_impl.h) on the f16 block of vt_avx2.h. Kernels f16_nchw_gen_avx2
 * and f16_nhwc_gen_avx2. */
#include "kernels.h"

#define GEN_TYPE GEN_F16
#include "vt_avx2.h"
#define KPREFIX maxpool_gen_f16_avx2_
#include "gen_impl.h"
