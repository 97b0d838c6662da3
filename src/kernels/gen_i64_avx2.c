/* SPDX-License-Identifier: Apache-2.0 */
/* i64 max pooling, both layouts, avx2: the type-generic kernels
 * (gen_impl.h) on the i64 block of vt_avx2.h. Kernels i64_nchw_gen_avx2
 * and i64_nhwc_gen_avx2. */
#include "kernels.h"

#define GEN_TYPE GEN_I64
#include "vt_avx2.h"
#define KPREFIX maxpool_gen_i64_avx2_
#include "gen_impl.h"
