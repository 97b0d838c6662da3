/* SPDX-License-Identifier: Apache-2.0 */
/*
 * OpenVINO MaxPool front-end: MaxPool-1, MaxPool-8, MaxPool-14 (the OpenVINO
 * operation specs, docs.openvino.ai: operation-specs/pooling/max-pool-8 and -14).
 *
 * Decisions (checked against the openvino 2026.4 Python package, CPU plugin):
 *
 * - Input rank 3, 4 or 5 only (OpenVINO rejects other ranks).
 * - kernel and strides are required, one value per spatial axis; kernel,
 *   strides and dilations >= 1 (OpenVINO rejects 0 although its text says
 *   "starting from 0"). dilations absent -> 1 (MaxPool-8/14 only).
 * - pads_begin / pads_end: absent means zeros (OpenVINO accepts empty lists);
 *   when present they need one value per axis whatever auto_pad is (OpenVINO
 *   checks the length first), and values >= 0 only with auto_pad = explicit:
 *   with any other auto_pad they are ignored, negative values included, as
 *   OpenVINO does.
 * - Strings (rounding_type, auto_pad, index_element_type) are
 *   case-insensitive, as OpenVINO's enum parsing is ("CEIL", "Explicit",
 *   "I32" are accepted). "ceil_torch" exists in MaxPool-14 only.
 * - rounding: floor -> FLOOR, ceil -> CEIL (a last window may start in the
 *   end padding), ceil_torch -> CEIL_TORCH.
 * - axis (MaxPool-8/14): [-R, R-1], negative counts from the end. OpenVINO
 *   writes the flat (whole-tensor, row-major) index modulo the product of the
 *   dimensions from axis on (checked: openvino 2026.4, core reference and CPU
 *   plugin, axis -R .. R-1 for rank 3, 4, 5, i32 and i64); the normalised
 *   axis is index_axis (0, 1, 2, or 3 .. R-1: a spatial dimension, the plane
 *   offset modulo the product of the sizes from that dimension on).
 * - A dilated kernel larger than the padded input (explicit pads, or none
 *   with valid) is an error under every rounding_type and version, as in
 *   OpenVINO (checked: core reference and CPU plugin, MaxPool-1/8/14, floor,
 *   ceil, ceil_torch): desc.require_kernel_fits. SAME pads always fit.
 * - Indices: index_element_type i64 (default) or i32, row-major, MaxPool-8/14
 *   only (MaxPool-1 has one output).
 * - NaN: MAXPOOL_NAN_IGNORE (OpenVINO starts from lowest() and compares with
 *   '>': an all-NaN window gives lowest and index 0).
 * - Empty windows (pads may exceed the kernel; dilation gaps): value lowest()
 *   -> MAXPOOL_EMPTY_LOWEST (f16/bf16: -inf, as OpenVINO writes there). Index: OpenVINO writes the index of the plane's
 *   first element (spatial offset 0 plus the n/c offset of the axis
 *   convention) -> MAXPOOL_EMPTY_INDEX_PLANE_START.
 */
#include "error.h"
#include "frontend_common.h"

#include <stdio.h>
#include <string.h>

void maxpool_openvino_attrs_init(maxpool_openvino_attrs *attrs, int version)
{
    if (!attrs)
        return;
    memset(attrs, 0, sizeof *attrs);
    attrs->version = version;
    attrs->rounding_type = NULL;
    attrs->auto_pad = NULL;
    attrs->index_element_type = NULL;
    attrs->axis = 0;
    attrs->want_indices = 0;
}

maxpool_status maxpool_openvino_lower(const maxpool_openvino_attrs *a, maxpool_dtype dtype, int input_rank,
                                      maxpool_desc *desc, maxpool_error *err)
{
    maxpool_status st;
    if ((st = maxpool_fe_check_pointers(a, desc, "maxpool_openvino_lower", err)) != MAXPOOL_OK)
        return st;
    const int version = a->version;
    if (version != 1 && version != 8 && version != 14)
        return maxpool_fail(err, MAXPOOL_ERR_UNSUPPORTED,
                            "version=%d: OpenVINO MaxPool has versions 1, 8 and 14", version);
    char what[32];
    snprintf(what, sizeof what, "OpenVINO MaxPool-%d", version);

    if ((st = maxpool_fe_check_rank(input_rank, 1, 3, what, err)) != MAXPOOL_OK)
        return st;
    if ((st = maxpool_fe_check_dtype(dtype, MAXPOOL_FE_DT_ALL, what, err)) != MAXPOOL_OK)
        return st;
    const int rank = input_rank - 2;

    if (version < 8) {
        if (a->n_dilations != 0)
            return maxpool_fe_not_in_version("dilations", what, "MaxPool-8", err);
        if (a->index_element_type)
            return maxpool_fe_not_in_version("index_element_type", what, "MaxPool-8", err);
        if (a->axis != 0)
            return maxpool_fe_not_in_version("axis", what, "MaxPool-8", err);
        if (a->want_indices)
            return maxpool_fe_not_in_version("indices output", what, "MaxPool-8", err);
    }

    maxpool_desc d;
    maxpool_desc_init(&d, rank);
    d.dtype = dtype;
    d.layout = MAXPOOL_CHANNELS_FIRST;
    d.window = MAXPOOL_WINDOW_FIXED;

    if ((st = maxpool_fe_read_list("kernel", a->kernel, a->n_kernel, MAXPOOL_MAX_SPATIAL, rank, 1, 0, 1, d.kernel,
                                   err)) != MAXPOOL_OK ||
        (st = maxpool_fe_check_min("kernel", d.kernel, rank, 1, err)) != MAXPOOL_OK)
        return st;
    if ((st = maxpool_fe_read_list("strides", a->strides, a->n_strides, MAXPOOL_MAX_SPATIAL, rank, 1, 0, 1, d.stride,
                                   err)) != MAXPOOL_OK ||
        (st = maxpool_fe_check_min("strides", d.stride, rank, 1, err)) != MAXPOOL_OK)
        return st;
    if ((st = maxpool_fe_read_list("dilations", a->dilations, a->n_dilations, MAXPOOL_MAX_SPATIAL, rank, 0, 0, 1,
                                   d.dilation, err)) != MAXPOOL_OK ||
        (st = maxpool_fe_check_min("dilations", d.dilation, rank, 1, err)) != MAXPOOL_OK)
        return st;
    if ((st = maxpool_fe_read_list("pads_begin", a->pads_begin, a->n_pads_begin, MAXPOOL_MAX_SPATIAL, rank, 0, 0, 0,
                                   d.pad_begin, err)) != MAXPOOL_OK ||
        (st = maxpool_fe_read_list("pads_end", a->pads_end, a->n_pads_end, MAXPOOL_MAX_SPATIAL, rank, 0, 0, 0,
                                   d.pad_end, err)) != MAXPOOL_OK)
        return st;

    d.auto_pad = MAXPOOL_PAD_EXPLICIT;
    if (a->auto_pad) {
        if (maxpool_fe_streq_nocase(a->auto_pad, "explicit"))
            d.auto_pad = MAXPOOL_PAD_EXPLICIT;
        else if (maxpool_fe_streq_nocase(a->auto_pad, "valid"))
            d.auto_pad = MAXPOOL_PAD_VALID;
        else if (maxpool_fe_streq_nocase(a->auto_pad, "same_upper"))
            d.auto_pad = MAXPOOL_PAD_SAME_UPPER;
        else if (maxpool_fe_streq_nocase(a->auto_pad, "same_lower"))
            d.auto_pad = MAXPOOL_PAD_SAME_LOWER;
        else
            return maxpool_fail(err, MAXPOOL_ERR_INVALID_ATTRIBUTE,
                                "auto_pad=\"%.64s\" must be explicit, valid, same_upper or same_lower", a->auto_pad);
    }
    if (d.auto_pad == MAXPOOL_PAD_EXPLICIT) {
        if ((st = maxpool_fe_check_min("pads_begin", d.pad_begin, rank, 0, err)) != MAXPOOL_OK ||
            (st = maxpool_fe_check_min("pads_end", d.pad_end, rank, 0, err)) != MAXPOOL_OK)
            return st;
    } else {
        for (int i = 0; i < rank; ++i) /* ignored when auto_pad is not explicit */
            d.pad_begin[i] = d.pad_end[i] = 0;
    }

    d.rounding = MAXPOOL_ROUND_FLOOR;
    if (a->rounding_type) {
        if (maxpool_fe_streq_nocase(a->rounding_type, "floor"))
            d.rounding = MAXPOOL_ROUND_FLOOR;
        else if (maxpool_fe_streq_nocase(a->rounding_type, "ceil"))
            d.rounding = MAXPOOL_ROUND_CEIL;
        else if (maxpool_fe_streq_nocase(a->rounding_type, "ceil_torch")) {
            if (version < 14)
                return maxpool_fe_not_in_version("rounding_type=\"ceil_torch\"", what, "MaxPool-14", err);
            d.rounding = MAXPOOL_ROUND_CEIL_TORCH;
        } else {
            return maxpool_fail(err, MAXPOOL_ERR_INVALID_ATTRIBUTE, "rounding_type=\"%.64s\" must be %s",
                                a->rounding_type, version >= 14 ? "floor, ceil or ceil_torch" : "floor or ceil");
        }
    }

    maxpool_index_type itype = MAXPOOL_INDEX_I64;
    if (a->index_element_type) {
        if (maxpool_fe_streq_nocase(a->index_element_type, "i64"))
            itype = MAXPOOL_INDEX_I64;
        else if (maxpool_fe_streq_nocase(a->index_element_type, "i32"))
            itype = MAXPOOL_INDEX_I32;
        else
            return maxpool_fail(err, MAXPOOL_ERR_INVALID_ATTRIBUTE, "index_element_type=\"%.64s\" must be i32 or i64",
                                a->index_element_type);
    }

    int64_t axis = a->axis;
    if (axis < -(int64_t)input_rank || axis > (int64_t)input_rank - 1)
        return maxpool_fail(err, MAXPOOL_ERR_INVALID_ATTRIBUTE, "axis=%lld must be in [%d, %d] for rank %d input",
                            (long long)a->axis, -input_rank, input_rank - 1, input_rank);
    if (axis < 0)
        axis += input_rank;

    d.index_type = a->want_indices ? itype : MAXPOOL_INDEX_NONE;
    d.index_axis = (int)axis;
    d.index_order = MAXPOOL_INDEX_ROW_MAJOR;
    d.nan_policy = MAXPOOL_NAN_IGNORE;
    /* OpenVINO's f16/bf16 loops start from -inf (its lowest() is taken in a wider type) */
    d.empty_value = (dtype == MAXPOOL_F16 || dtype == MAXPOOL_BF16) ? MAXPOOL_EMPTY_NEG_INF : MAXPOOL_EMPTY_LOWEST;
    d.empty_index = MAXPOOL_EMPTY_INDEX_PLANE_START;
    d.reject_empty_windows = 0;
    d.require_kernel_fits = 1; /* OpenVINO: "Kernel after dilation has size ... larger than the data shape after
                                  padding", under every rounding_type */

    *desc = d;
    return maxpool_ok(err);
}
