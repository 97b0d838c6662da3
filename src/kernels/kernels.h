/* SPDX-License-Identifier: Apache-2.0 */
/* Declarations of the specialised kernels listed in kernel_list.inc. */
#ifndef MAXPOOL_KERNELS_H
#define MAXPOOL_KERNELS_H

#include "../plan.h"

/* f32, channels-first, rank 1..3: separable row/column passes (f32_nchw_rows_*.c) */
int maxpool_f32_nchw_rows_match(const struct maxpool_plan *p);
int maxpool_f32_nchw_largek_match(const struct maxpool_plan *p); /* last axis stride 1, kernel >= 6 */
int64_t maxpool_f32_nchw_rows_tasks(const struct maxpool_plan *p);
void maxpool_f32_nchw_rows_avx2(const struct maxpool_plan *p, const void *x, void *y, void *ind, int64_t t0,
                                int64_t t1);
void maxpool_f32_nchw_rows_sse2(const struct maxpool_plan *p, const void *x, void *y, void *ind, int64_t t0,
                                int64_t t1);
void maxpool_f32_nchw_rows_neon(const struct maxpool_plan *p, const void *x, void *y, void *ind, int64_t t0,
                                int64_t t1);

/* f32, channels-first, rank 1..3, W windows without a vector row pass (stride >= 3, uneven adaptive):
 * lines combined first, then one W reduce per output row (f32_nchw_linesfirst_*.c); tasks as the row kernel */
int maxpool_f32_nchw_linesfirst_match(const struct maxpool_plan *p);
int maxpool_f32_nchw_linesfirst_wide_match(const struct maxpool_plan *p); /* the avx512 one: rows wider than 16 */
void maxpool_f32_nchw_linesfirst_avx2(const struct maxpool_plan *p, const void *x, void *y, void *ind, int64_t t0,
                                      int64_t t1);
void maxpool_f32_nchw_linesfirst_sse2(const struct maxpool_plan *p, const void *x, void *y, void *ind, int64_t t0,
                                      int64_t t1);
void maxpool_f32_nchw_linesfirst_neon(const struct maxpool_plan *p, const void *x, void *y, void *ind, int64_t t0,
                                      int64_t t1);
void maxpool_f32_nchw_linesfirst_avx512(const struct maxpool_plan *p, const void *x, void *y, void *ind, int64_t t0,
                                        int64_t t1);
/* f32, channels-first, rank 2, stride 1 and dilation 1 on both axes, a kernel >= 3: log-step W then H
 * passes (f32_nchw_s1_logstep_*.c) */
int maxpool_f32_nchw_s1_logstep_match(const struct maxpool_plan *p);
int64_t maxpool_f32_nchw_s1_logstep_tasks(const struct maxpool_plan *p);
void maxpool_f32_nchw_s1_logstep_avx2(const struct maxpool_plan *p, const void *x, void *y, void *ind, int64_t t0,
                                      int64_t t1);
void maxpool_f32_nchw_s1_logstep_sse2(const struct maxpool_plan *p, const void *x, void *y, void *ind, int64_t t0,
                                      int64_t t1);
void maxpool_f32_nchw_s1_logstep_neon(const struct maxpool_plan *p, const void *x, void *y, void *ind, int64_t t0,
                                      int64_t t1);
void maxpool_f32_nchw_s1_logstep_avx512(const struct maxpool_plan *p, const void *x, void *y, void *ind, int64_t t0,
                                        int64_t t1);

/* f32 NCHW stride 1, small narrow planes (SPP), windows >= 5, values only, NaN ignored, either start
 * (f32_nchw_s1_cblock_avx2.c, template f32_nchw_s1_cblock_impl.h): 8 planes transposed, van Herk running
 * maxima along W and H */
int maxpool_f32_nchw_s1_cblock_match(const struct maxpool_plan *p);
int64_t maxpool_f32_nchw_s1_cblock_tasks(const struct maxpool_plan *p);
void maxpool_f32_nchw_s1_cblock_avx2(const struct maxpool_plan *p, const void *x, void *y, void *ind, int64_t t0,
                                     int64_t t1);
/* its AVX-512 instance (f32_nchw_s1_cblock_avx512.c, the same template): 16 planes per group */
int maxpool_f32_nchw_s1_cblock_avx512_match(const struct maxpool_plan *p);
int64_t maxpool_f32_nchw_s1_cblock_avx512_tasks(const struct maxpool_plan *p);
void maxpool_f32_nchw_s1_cblock_avx512(const struct maxpool_plan *p, const void *x, void *y, void *ind, int64_t t0,
                                       int64_t t1);
/* the SPP shapes (20x20, "same" k5/k9/k13, planes a multiple of 8) at avx512: the avx2 instance's 8-plane
 * groups compiled with AVX-512 (f32_nchw_s1_cblock8_avx512.c); tasks: maxpool_f32_nchw_s1_cblock_tasks */
int maxpool_f32_nchw_s1_cblock8_avx512_match(const struct maxpool_plan *p);
void maxpool_f32_nchw_s1_cblock8_avx512(const struct maxpool_plan *p, const void *x, void *y, void *ind, int64_t t0,
                                        int64_t t1);

/* f32 NCHW stride 1, dilation 1, kernels 1..15, non-empty windows, values only, NaN ignored
 * (f32_nchw_s1_vpipe_avx2.c): column strips, W taps then an H pipeline in registers */
int maxpool_f32_nchw_s1_vpipe_match(const struct maxpool_plan *p);
int64_t maxpool_f32_nchw_s1_vpipe_tasks(const struct maxpool_plan *p);
void maxpool_f32_nchw_s1_vpipe_avx2(const struct maxpool_plan *p, const void *x, void *y, void *ind, int64_t t0,
                                    int64_t t1);

/* f32 NCHW 2x2 stride 2, no padding, full windows (f32_nchw_k2s2_avx2.c): low per-call cost */
int maxpool_f32_nchw_k2s2_match(const struct maxpool_plan *p);
int64_t maxpool_f32_nchw_k2s2_tasks(const struct maxpool_plan *p);
void maxpool_f32_nchw_k2s2_avx2(const struct maxpool_plan *p, const void *x, void *y, void *ind, int64_t t0,
                                int64_t t1);

/* f32 NCHW 3x3 stride 2, pad_begin 0/1, non-empty windows (f32_nchw_k3s2_avx2.c): fused passes */
int maxpool_f32_nchw_k3s2_match(const struct maxpool_plan *p);
int64_t maxpool_f32_nchw_k3s2_tasks(const struct maxpool_plan *p);
void maxpool_f32_nchw_k3s2_avx2(const struct maxpool_plan *p, const void *x, void *y, void *ind, int64_t t0,
                                int64_t t1);

/* f32 NCW stride 1, kernel 1..8, non-empty windows (f32_ncw_s1_avx2.c): direct taps */
int maxpool_f32_ncw_s1_match(const struct maxpool_plan *p);
int64_t maxpool_f32_ncw_s1_tasks(const struct maxpool_plan *p);
void maxpool_f32_ncw_s1_avx2(const struct maxpool_plan *p, const void *x, void *y, void *ind, int64_t t0, int64_t t1);

/* f32, channels-last, rank 1..3: vectorised over channels (f32_nhwc_*.c) */
int maxpool_f32_nhwc_match(const struct maxpool_plan *p);
int64_t maxpool_f32_nhwc_tasks(const struct maxpool_plan *p);
void maxpool_f32_nhwc_avx2(const struct maxpool_plan *p, const void *x, void *y, void *ind, int64_t t0, int64_t t1);
void maxpool_f32_nhwc_sse2(const struct maxpool_plan *p, const void *x, void *y, void *ind, int64_t t0, int64_t t1);
void maxpool_f32_nhwc_neon(const struct maxpool_plan *p, const void *x, void *y, void *ind, int64_t t0, int64_t t1);
void maxpool_f32_nhwc_avx512(const struct maxpool_plan *p, const void *x, void *y, void *ind, int64_t t0, int64_t t1);

/* Every other element type (f64, f16, bf16, i8, u8, i16, u16, i32, i64), both layouts, rank 1..3, fixed or
 * adaptive windows, row-major indices: the type-generic kernels (gen_impl.h), one file per type and ISA
 * (gen_<type>_<isa>.c), kernels <type>_nchw_gen_<isa> and <type>_nhwc_gen_<isa>; match and tasks in
 * gen_match.c */
int64_t maxpool_gen_nchw_tasks(const struct maxpool_plan *p);
int64_t maxpool_gen_nhwc_tasks(const struct maxpool_plan *p);
#define MAXPOOL_GEN_DECLARE(t)                                                                                     \
    int maxpool_gen_##t##_nchw_match(const struct maxpool_plan *p);                                                \
    int maxpool_gen_##t##_nhwc_match(const struct maxpool_plan *p);                                                \
    void maxpool_gen_##t##_avx2_nchw(const struct maxpool_plan *p, const void *x, void *y, void *ind, int64_t t0,  \
                                     int64_t t1);                                                                  \
    void maxpool_gen_##t##_avx2_nhwc(const struct maxpool_plan *p, const void *x, void *y, void *ind, int64_t t0,  \
                                     int64_t t1);                                                                  \
    void maxpool_gen_##t##_avx512_nchw(const struct maxpool_plan *p, const void *x, void *y, void *ind,            \
                                       int64_t t0, int64_t t1);                                                    \
    void maxpool_gen_##t##_avx512_nhwc(const struct maxpool_plan *p, const void *x, void *y, void *ind,            \
                                       int64_t t0, int64_t t1);
MAXPOOL_GEN_DECLARE(f64)
MAXPOOL_GEN_DECLARE(f16)
MAXPOOL_GEN_DECLARE(bf16)
MAXPOOL_GEN_DECLARE(i8)
MAXPOOL_GEN_DECLARE(u8)
MAXPOOL_GEN_DECLARE(i16)
MAXPOOL_GEN_DECLARE(u16)
MAXPOOL_GEN_DECLARE(i32)
MAXPOOL_GEN_DECLARE(i64)
#undef MAXPOOL_GEN_DECLARE
/* f32 channels-first on the gen template (gen_f32_<isa>.c), for the plans maxpool_gen_f32_nchw_match prefers */
int maxpool_gen_f32_nchw_match(const struct maxpool_plan *p);
int maxpool_gen_f32_nchw_avx2_match(const struct maxpool_plan *p); /* (the avx2 ceiling's choice among k3s2 plans) */
void maxpool_gen_f32_avx2_nchw(const struct maxpool_plan *p, const void *x, void *y, void *ind, int64_t t0,
                               int64_t t1);
void maxpool_gen_f32_avx512_nchw(const struct maxpool_plan *p, const void *x, void *y, void *ind, int64_t t0,
                                 int64_t t1);

#endif
