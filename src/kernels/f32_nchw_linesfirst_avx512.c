/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Channels-first (NCW, NCHW, NCDHW) f32 max pooling, AVX-512 (16 lanes),
 * lines first: the lines of each output row's window are combined
 * element-wise along W, then each W window of the combined row is reduced
 * (see f32_nchw_linesfirst_impl.h). For plans whose W windows have no vector
 * W pass in the row kernel (stride >= 3, uneven adaptive windows, ...).
 */
#include "kernels.h"

#include "simd_f32_avx512.h"
/* extra vocabulary (full-lane vector masks, as in simd_f32_avx512.h) */
#define LF_VF_ASI(a) _mm512_castps_si512(a)
#define LF_VI_GT(a, b) _mm512_movm_epi32(_mm512_cmpgt_epi32_mask((a), (b)))
#define LF_VI_AND(a, b) _mm512_and_si512((a), (b))
#define LF_VF_AND(a, b) _mm512_and_ps((a), (b))
#define LF_VF_EQ(a, b) VF_KVEC(_mm512_cmp_ps_mask((a), (b), _CMP_EQ_OQ))
/* m ? b : a. AVX-512 has no vblendvps on zmm (the AVX2 file's inline asm):
 * the k-mask blend of the vocabulary, from each lane's sign bit as vblendvps. */
#define LF_BLEND VF_BLEND
#define LF_VI_GATHER(b, o) _mm512_i32gather_epi32((o), (const void *)(b), 4) /* b[o[i]] */
#define KPREFIX cf_lf_avx512_
#include "f32_nchw_linesfirst_impl.h"

void maxpool_f32_nchw_linesfirst_avx512(const struct maxpool_plan *p, const void *x, void *y, void *ind, int64_t t0,
                                        int64_t t1)
{
    cf_lf_avx512_run(p, x, y, ind, t0, t1);
}
