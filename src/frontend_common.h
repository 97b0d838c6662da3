/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Internal: helpers shared by the spec front-ends (frontend_onnx.c,
 * frontend_openvino.c, frontend_torch.c, frontend_adaptive.c).
 *
 * Every helper that can fail fills *err through maxpool_fail with a message
 * that names the attribute, the axis and the value, and returns the status.
 * "what" is the spec and version as the message should name it, e.g.
 * "ONNX MaxPool opset 12" or "OpenVINO MaxPool-8".
 */
#ifndef MAXPOOL_FRONTEND_COMMON_H
#define MAXPOOL_FRONTEND_COMMON_H

#include "maxpool.h"

#include <stdint.h>

/* Bit of dtype in a set of allowed types. */
#define MAXPOOL_FE_DT(d) (1u << (unsigned)(d))
#define MAXPOOL_FE_DT_ALL ((1u << (unsigned)MAXPOOL_DTYPE_COUNT) - 1u)

/* Case-sensitive (ONNX) or case-insensitive (OpenVINO) string equality. */
int maxpool_fe_streq(const char *a, const char *b);
int maxpool_fe_streq_nocase(const char *a, const char *b);

/* desc == NULL or attrs == NULL -> MAXPOOL_ERR_NULL_POINTER naming the function. */
maxpool_status maxpool_fe_check_pointers(const void *attrs, const maxpool_desc *desc, const char *func,
                                         maxpool_error *err);

/* input_rank must be in [2 + min_spatial, 2 + max_spatial]; below 3 is an
 * invalid shape, above what the spec (or MAXPOOL_MAX_SPATIAL) takes is
 * unsupported. */
maxpool_status maxpool_fe_check_rank(int input_rank, int min_spatial, int max_spatial, const char *what,
                                     maxpool_error *err);

/* dtype must be a valid maxpool_dtype and in the set allowed (MAXPOOL_FE_DT
 * bits); otherwise MAXPOOL_ERR_UNSUPPORTED listing the types "what" has. */
maxpool_status maxpool_fe_check_dtype(maxpool_dtype dtype, unsigned allowed, const char *what, maxpool_error *err);

/*
 * Reads a per-axis list attribute into out[0..rank).
 *   n == 0:                       absent; required -> error, else out[i] = dflt.
 *   n == 1 && broadcast:          out[i] = values[0] for every axis.
 *   n == rank:                    copied.
 *   anything else (or n outside [0, capacity]): error naming the count expected.
 * Values are not range-checked here (maxpool_fe_check_min).
 */
maxpool_status maxpool_fe_read_list(const char *name, const int64_t *values, int n, int capacity, int rank,
                                    int required, int broadcast, int64_t dflt, int64_t *out, maxpool_error *err);

/* n must be within [0, capacity] and either 0 (when !required) or exactly
 * rank * per_axis (per_axis 2 for ONNX pads: begins then ends). */
maxpool_status maxpool_fe_check_count(const char *name, int n, int capacity, int rank, int per_axis, int required,
                                      maxpool_error *err);

/* Every values[i] (i < count) must be >= min: "name[i]=v must be >= min". */
maxpool_status maxpool_fe_check_min(const char *name, const int64_t *values, int count, int64_t min,
                                    maxpool_error *err);

/* "name: not in <what> (added in <since>)" as MAXPOOL_ERR_UNSUPPORTED. */
maxpool_status maxpool_fe_not_in_version(const char *name, const char *what, const char *since, maxpool_error *err);

/* dtype's name ("f32", ...), or "?" for an invalid one. */
const char *maxpool_fe_dtype_name(maxpool_dtype dtype);

#endif
