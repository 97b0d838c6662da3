/* SPDX-License-Identifier: Apache-2.0 */
/*
 * MAXPOOL_AI marks the kernels' small helpers, whose compile-time int
 * arguments (NaN policy, index kind, border case, ...) fold away only once
 * the helper is inlined into its specialised caller.
 *
 * Optimised builds force the inlining. Unoptimised builds (-O0: Debug, and
 * the sanitizer build of .ci/run) fold nothing, so forced inlining there
 * only copies every helper's whole body into each caller: functions of a
 * megabyte, 213 s for f32_nchw_k3s2_avx2.c under ASan+UBSan. There the
 * helpers stay plain static inline functions, compiled once (0.8 s). The C
 * code, and so what the sanitizers check, is the same.
 */
#ifndef MAXPOOL_FORCE_INLINE_H
#define MAXPOOL_FORCE_INLINE_H

#if !defined(__OPTIMIZE__)
#define MAXPOOL_AI static inline
#else
#define MAXPOOL_AI static inline __attribute__((always_inline))
#endif

#endif
