/* SPDX-License-Identifier: Apache-2.0 */
/* u16 max pooling, both layouts, avx512: the type-generic kernels
 * (gen_impl.h) on the u16 block of vt_avx512.h. Kernels u16_nchw_gen_avx512
 * and u16_nhwc_gen_avx512. */
#include "kernels.h"

#define GEN_TYPE GEN_U16
#include "vt_avx512.h"
#define KPREFIX maxpool_gen_u16_avx512_
#include "gen_impl.h"
