/* SPDX-License-Identifier: Apache-2.0 */
/* f64 max pooling, both layouts, avx512: the type-generic kernels
 * (gen_impl.h) on the f64 block of vt_avx512.h. Kernels f64_nchw_gen_avx512
 * and f64_nhwc_gen_avx512. */
#include "kernels.h"

#define GEN_TYPE GEN_F64
#include "vt_avx512.h"
#define KPREFIX maxpool_gen_f64_avx512_
#include "gen_impl.h"
