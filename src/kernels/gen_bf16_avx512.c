/* SPDX-License-Identifier: Apache-2.0 */
/* bf16 max pooling, both layouts, avx512: the type-generic kernels
 * (gen_impl.h) on the bf16 block of vt_avx512.h. Kernels bf16_nchw_gen_avx512
 * and bf16_nhwc_gen_avx512. */
#include "kernels.h"

#define GEN_TYPE GEN_BF16
#include "vt_avx512.h"
#define KPREFIX maxpool_gen_bf16_avx512_
#include "gen_impl.h"
