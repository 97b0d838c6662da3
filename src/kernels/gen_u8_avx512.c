/* SPDX-License-Identifier: Apache-2.0 */
/* u8 max pooling, both layouts, avx512: the type-generic kernels
 * (gen_impl.h) on the u8 block of vt_avx512.h. Kernels u8_nchw_gen_avx512
 * and u8_nhwc_gen_avx512. */
#include "kernels.h"

#define GEN_TYPE GEN_U8
#include "vt_avx512.h"
#define KPREFIX maxpool_gen_u8_avx512_
#include "gen_impl.h"
