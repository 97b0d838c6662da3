/* SPDX-License-Identifier: Apache-2.0 */
/* u16 max pooling, both layouts, avx2: the type-generic kernels
 * (gen_impl.h) on the u16 block of vt_avx2.h. Kernels u16_nchw_gen_avx2
 * and u16_nhwc_gen_avx2. */
#include "kernels.h"

#define GEN_TYPE GEN_U16
#include "vt_avx2.h"
#define KPREFIX maxpool_gen_u16_avx2_
#include "gen_impl.h"
