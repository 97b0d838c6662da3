/* SPDX-License-Identifier: Apache-2.0 */
/* Internal: descriptor validation, shape inference and the canonical windows. */
#ifndef MAXPOOL_SHAPE_H
#define MAXPOOL_SHAPE_H

#include "plan.h"

/* Validates desc and input_shape and fills every field of *p that does not
 * need allocation (sizes, shapes, index convention, start value). The window
 * arrays are left NULL. No allocation. */
maxpool_status maxpool_infer(const maxpool_desc *desc, const int64_t *input_shape, struct maxpool_plan *p,
                             maxpool_error *err);

/* Window o of an axis, closed form, O(1): first tap inside [0, in) (or first
 * tap at or after 0 when none is inside) and the number of taps inside. */
void maxpool_axis_window(const maxpool_axis *ax, int adaptive, int64_t o, int64_t *start, int64_t *count);

/* Whether some window of a fixed-window axis holds no input element; closed
 * form, O(log dilation) whatever the output size. */
int maxpool_axis_has_empty_window(const maxpool_axis *ax);

/* Whether the plan's geometry is bounded by its input (maxpool_plan.bounded). */
int maxpool_geometry_bounded(const struct maxpool_plan *p);

#endif
