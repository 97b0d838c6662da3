/* SPDX-License-Identifier: Apache-2.0 */
/* f64 max pooling, both layouts, avx2: the type-generic kernels
 * (gen_impl.h) on the f64 block of vt_avx2.h. Kernels f64_nchw_gen_avx2
 * and f64_nhwc_gen_avx2. */
#include "kernels.h"

#define GEN_TYPE GEN_F64
#include "vt_avx2.h"
#define KPREFIX maxpool_gen_f64_avx2_
#include "gen_impl.h"
