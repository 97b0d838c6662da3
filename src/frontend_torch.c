/* SPDX-License-Identifier: Apache-2.0 */
/*
 * PyTorch max_pool1d / max_pool2d / max_pool3d front-end
 * (torch.nn.functional, ATen Pool.h rules).
 *
 * - Input rank 3, 4 or 5 (batched N, C, D...; the unbatched forms are the
 *   caller's reshape).
 * - kernel_size required; kernel_size and stride take 1 value (broadcast) or
 *   one per axis; stride absent (or empty) = kernel_size. padding and
 *   dilation: absent -> 0 / 1, 1 value broadcasts.
 * - kernel_size, stride, dilation >= 1; padding >= 0 and
 *   padding <= kernel_size / 2 (integer division, undilated kernel: ATen's
 *   pool2d/pool3d shape checks and max_pool1d; the dilated-kernel check of
 *   pooling_output_shape is then implied).
 * - ceil_mode -> MAXPOOL_ROUND_CEIL_TORCH (a last window starting in the
 *   right padding is dropped).
 * - return_indices -> int64, flat within each (n, c) plane, row-major.
 * - NaN propagates (a later NaN replaces an earlier one); a window with no
 *   input element (dilation gaps) gives -inf and the index of its first tap at
 *   or after 0, as ATen's CPU kernel does.
 * - Every dtype is accepted (PyTorch has floating and integer max pooling;
 *   for integers -inf is the type's lowest value).
 */
#include "error.h"
#include "frontend_common.h"

#include <stdio.h>
#include <string.h>

void maxpool_torch_attrs_init(maxpool_torch_attrs *attrs)
{
    if (!attrs)
        return;
    memset(attrs, 0, sizeof *attrs);
}

maxpool_status maxpool_torch_lower(const maxpool_torch_attrs *a, maxpool_dtype dtype, int input_rank,
                                   maxpool_desc *desc, maxpool_error *err)
{
    maxpool_status st;
    if ((st = maxpool_fe_check_pointers(a, desc, "maxpool_torch_lower", err)) != MAXPOOL_OK)
        return st;
    if ((st = maxpool_fe_check_rank(input_rank, 1, 3, "PyTorch max_pool1d/2d/3d", err)) != MAXPOOL_OK)
        return st;
    const int rank = input_rank - 2;
    char what[32];
    snprintf(what, sizeof what, "PyTorch max_pool%dd", rank);
    if ((st = maxpool_fe_check_dtype(dtype, MAXPOOL_FE_DT_ALL, what, err)) != MAXPOOL_OK)
        return st;

    maxpool_desc d;
    maxpool_desc_init(&d, rank);
    d.dtype = dtype;
    d.layout = MAXPOOL_CHANNELS_FIRST;
    d.window = MAXPOOL_WINDOW_FIXED;

    if ((st = maxpool_fe_read_list("kernel_size", a->kernel_size, a->n_kernel_size, MAXPOOL_MAX_SPATIAL, rank, 1, 1, 1,
                                   d.kernel, err)) != MAXPOOL_OK ||
        (st = maxpool_fe_check_min("kernel_size", d.kernel, rank, 1, err)) != MAXPOOL_OK)
        return st;
    if (a->n_stride == 0) {
        for (int i = 0; i < rank; ++i)
            d.stride[i] = d.kernel[i];
    } else if ((st = maxpool_fe_read_list("stride", a->stride, a->n_stride, MAXPOOL_MAX_SPATIAL, rank, 0, 1, 1,
                                          d.stride, err)) != MAXPOOL_OK) {
        return st;
    }
    if ((st = maxpool_fe_check_min("stride", d.stride, rank, 1, err)) != MAXPOOL_OK)
        return st;
    if ((st = maxpool_fe_read_list("dilation", a->dilation, a->n_dilation, MAXPOOL_MAX_SPATIAL, rank, 0, 1, 1,
                                   d.dilation, err)) != MAXPOOL_OK ||
        (st = maxpool_fe_check_min("dilation", d.dilation, rank, 1, err)) != MAXPOOL_OK)
        return st;
    if ((st = maxpool_fe_read_list("padding", a->padding, a->n_padding, MAXPOOL_MAX_SPATIAL, rank, 0, 1, 0,
                                   d.pad_begin, err)) != MAXPOOL_OK ||
        (st = maxpool_fe_check_min("padding", d.pad_begin, rank, 0, err)) != MAXPOOL_OK)
        return st;
    for (int i = 0; i < rank; ++i) {
        if (d.pad_begin[i] > d.kernel[i] / 2)
            return maxpool_fail(err, MAXPOOL_ERR_INVALID_ATTRIBUTE,
                                "padding[%d]=%lld should be at most half of kernel_size[%d]=%lld (pad <= %lld)", i,
                                (long long)d.pad_begin[i], i, (long long)d.kernel[i], (long long)(d.kernel[i] / 2));
        d.pad_end[i] = d.pad_begin[i];
    }
    if (a->ceil_mode != 0 && a->ceil_mode != 1)
        return maxpool_fail(err, MAXPOOL_ERR_INVALID_ATTRIBUTE, "ceil_mode=%d must be 0 (false) or 1 (true)",
                            a->ceil_mode);

    d.auto_pad = MAXPOOL_PAD_EXPLICIT;
    d.rounding = a->ceil_mode ? MAXPOOL_ROUND_CEIL_TORCH : MAXPOOL_ROUND_FLOOR;
    d.index_type = a->return_indices ? MAXPOOL_INDEX_I64 : MAXPOOL_INDEX_NONE;
    d.index_axis = 2;
    d.index_order = MAXPOOL_INDEX_ROW_MAJOR;
    d.nan_policy = MAXPOOL_NAN_PROPAGATE;
    d.empty_value = MAXPOOL_EMPTY_NEG_INF;
    d.empty_index = MAXPOOL_EMPTY_INDEX_FIRST_TAP;
    d.reject_empty_windows = 0;

    *desc = d;
    return maxpool_ok(err);
}
