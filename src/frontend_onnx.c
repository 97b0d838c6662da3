/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ONNX MaxPool front-end: opsets 1, 8, 10, 11, 12 and 22 (the ONNX
 * operator spec, https://onnx.ai/onnx/operators/onnx__MaxPool.html).
 *
 * Decisions (checked against onnx 1.23 shape inference / ReferenceEvaluator
 * and onnxruntime 1.31 CPU, with tiny one-node models):
 *
 * - Versions. An opset number maps to the MaxPool version in force at it:
 *   1-7 -> 1, 8-9 -> 8, 10 -> 10, 11 -> 11, 12-21 -> 12, >= 22 -> 22; opset < 1
 *   is an error. Attributes a version lacks are errors naming the version that
 *   added them: storage_order and the Indices output (8), dilations and
 *   ceil_mode (10). Value types: 1-11 f16/f32/f64, 12 adds i8/u8, 22 adds
 *   bf16; anything else is MAXPOOL_ERR_UNSUPPORTED.
 * - strides. The v1/v8/v10 texts give no default, but onnx shape inference,
 *   the ReferenceEvaluator and ORT all take an absent strides as 1 in every
 *   opset (1, 8, 10 and 11 tried), so it is optional everywhere, default 1.
 * - pads with auto_pad != NOTSET. The text says the two "cannot be used
 *   simultaneously"; onnx shape inference then uses pads, ORT uses auto_pad
 *   and ignores pads (SAME_UPPER and VALID tried). We follow ORT: pads are
 *   still checked (2 * rank values, each >= 0, as ORT's schema check does) and
 *   then ignored.
 * - Pad range. ORT rejects pad >= kernel ("Pad should be smaller than
 *   kernel": pads[i] < kernel_shape[i] and pads[i+rank] < kernel_shape[i],
 *   undilated kernel). We follow the ONNX text: any pad >= 0. Windows with no
 *   input element then yield the empty value and index described below.
 * - auto_pad is case-sensitive as in ORT ("same_upper" is an error); an empty
 *   string means NOTSET (ORT does the same).
 * - ceil_mode and storage_order must be 0 or 1. ceil_mode 1 maps to
 *   MAXPOOL_ROUND_CEIL_TORCH: onnx shape inference (every opset with
 *   ceil_mode) and ORT drop a last window that would start in the right
 *   padding. storage_order 1 makes the spatial part of indices column-major.
 * - Indices: int64, flat over the whole N x C x D1..Dn tensor (index_axis 0).
 * - NaN: MAXPOOL_NAN_IGNORE. ORT is path-dependent: its Y-only path (MLAS)
 *   starts from lowest() and follows maxps operand order (not reproducible
 *   for NaN); its Y+Indices path starts from the first element of the window
 *   and compares with '>', so a NaN in the first position sticks and later
 *   ones are ignored, and a window with nothing above lowest() still names its
 *   first element. The ONNX ReferenceEvaluator (strided path) does the same.
 *   We follow that rule whether or not Indices is requested
 *   (MAXPOOL_INIT_FIRST_ELEMENT), so Y never depends on the second output;
 *   ORT's Y-only MLAS path differs only on windows with nothing above
 *   lowest() (it writes lowest()) and on NaN.
 * - SAME_UPPER/SAME_LOWER: out = ceil(in/stride) whatever ceil_mode (ORT);
 *   expressed as rounding FLOOR over the SAME pads, which gives exactly that.
 * - Empty windows (possible since pads may exceed the kernel, or with
 *   dilation): ORT writes numeric_limits<T>::lowest() and index -1. For f16 it
 *   writes -inf (it computes with float lowest and the narrowing overflows), so
 *   f16 and bf16 use MAXPOOL_EMPTY_NEG_INF, every other type
 *   MAXPOOL_EMPTY_LOWEST; the index is MAXPOOL_EMPTY_INDEX_MINUS_ONE.
 */
#include "error.h"
#include "frontend_common.h"

#include <stdio.h>
#include <string.h>

void maxpool_onnx_attrs_init(maxpool_onnx_attrs *attrs, int opset)
{
    if (!attrs)
        return;
    memset(attrs, 0, sizeof *attrs);
    attrs->opset = opset;
    attrs->auto_pad = NULL;
    attrs->ceil_mode = -1;
    attrs->storage_order = -1;
    attrs->want_indices = 0;
}

/* The MaxPool version in force at opset (0 for opset < 1). */
static int onnx_version(int opset)
{
    if (opset < 1)
        return 0;
    if (opset < 8)
        return 1;
    if (opset < 10)
        return 8;
    if (opset < 12)
        return opset; /* 10, 11 */
    if (opset < 22)
        return 12;
    return 22;
}

static unsigned onnx_types(int version)
{
    unsigned t = MAXPOOL_FE_DT(MAXPOOL_F16) | MAXPOOL_FE_DT(MAXPOOL_F32) | MAXPOOL_FE_DT(MAXPOOL_F64);
    if (version >= 12)
        t |= MAXPOOL_FE_DT(MAXPOOL_I8) | MAXPOOL_FE_DT(MAXPOOL_U8);
    if (version >= 22)
        t |= MAXPOOL_FE_DT(MAXPOOL_BF16);
    return t;
}

maxpool_status maxpool_onnx_lower(const maxpool_onnx_attrs *a, maxpool_dtype dtype, int input_rank,
                                  maxpool_desc *desc, maxpool_error *err)
{
    maxpool_status st;
    if ((st = maxpool_fe_check_pointers(a, desc, "maxpool_onnx_lower", err)) != MAXPOOL_OK)
        return st;
    const int version = onnx_version(a->opset);
    if (version == 0)
        return maxpool_fail(err, MAXPOOL_ERR_INVALID_ATTRIBUTE, "opset=%d must be >= 1", a->opset);

    char what[64];
    if (version == a->opset)
        snprintf(what, sizeof what, "ONNX MaxPool opset %d", a->opset);
    else
        snprintf(what, sizeof what, "ONNX MaxPool opset %d (MaxPool-%d)", a->opset, version);

    if ((st = maxpool_fe_check_rank(input_rank, 1, MAXPOOL_MAX_SPATIAL, what, err)) != MAXPOOL_OK)
        return st;
    if ((st = maxpool_fe_check_dtype(dtype, onnx_types(version), what, err)) != MAXPOOL_OK)
        return st;
    const int rank = input_rank - 2;

    /* attributes and outputs by version */
    if (version < 8 && a->storage_order != -1)
        return maxpool_fe_not_in_version("storage_order", what, "opset 8", err);
    if (version < 8 && a->want_indices)
        return maxpool_fe_not_in_version("Indices output", what, "opset 8", err);
    if (version < 10 && a->n_dilations != 0)
        return maxpool_fe_not_in_version("dilations", what, "opset 10", err);
    if (version < 10 && a->ceil_mode != -1)
        return maxpool_fe_not_in_version("ceil_mode", what, "opset 10", err);

    maxpool_desc d;
    maxpool_desc_init(&d, rank);
    d.dtype = dtype;
    d.layout = MAXPOOL_CHANNELS_FIRST;
    d.window = MAXPOOL_WINDOW_FIXED;

    if ((st = maxpool_fe_read_list("kernel_shape", a->kernel_shape, a->n_kernel_shape, MAXPOOL_MAX_SPATIAL, rank, 1, 0,
                                   1, d.kernel, err)) != MAXPOOL_OK ||
        (st = maxpool_fe_check_min("kernel_shape", d.kernel, rank, 1, err)) != MAXPOOL_OK)
        return st;
    if ((st = maxpool_fe_read_list("strides", a->strides, a->n_strides, MAXPOOL_MAX_SPATIAL, rank, 0, 0, 1, d.stride,
                                   err)) != MAXPOOL_OK ||
        (st = maxpool_fe_check_min("strides", d.stride, rank, 1, err)) != MAXPOOL_OK)
        return st;
    if ((st = maxpool_fe_read_list("dilations", a->dilations, a->n_dilations, MAXPOOL_MAX_SPATIAL, rank, 0, 0, 1,
                                   d.dilation, err)) != MAXPOOL_OK ||
        (st = maxpool_fe_check_min("dilations", d.dilation, rank, 1, err)) != MAXPOOL_OK)
        return st;

    /* pads: [x1_begin, x2_begin, ..., x1_end, x2_end, ...] */
    if ((st = maxpool_fe_check_count("pads", a->n_pads, 2 * MAXPOOL_MAX_SPATIAL, rank, 2, 0, err)) != MAXPOOL_OK)
        return st;
    for (int i = 0; i < a->n_pads; ++i)
        if (a->pads[i] < 0)
            return maxpool_fail(err, MAXPOOL_ERR_INVALID_ATTRIBUTE, "pads[%d]=%lld (axis %d %s) must be >= 0", i,
                                (long long)a->pads[i], i % rank, i < rank ? "begin" : "end");
    for (int i = 0; i < rank; ++i) {
        d.pad_begin[i] = a->n_pads ? a->pads[i] : 0;
        d.pad_end[i] = a->n_pads ? a->pads[rank + i] : 0;
    }

    d.auto_pad = MAXPOOL_PAD_EXPLICIT;
    if (a->auto_pad && a->auto_pad[0] != '\0') {
        if (maxpool_fe_streq(a->auto_pad, "NOTSET"))
            d.auto_pad = MAXPOOL_PAD_EXPLICIT;
        else if (maxpool_fe_streq(a->auto_pad, "VALID"))
            d.auto_pad = MAXPOOL_PAD_VALID;
        else if (maxpool_fe_streq(a->auto_pad, "SAME_UPPER"))
            d.auto_pad = MAXPOOL_PAD_SAME_UPPER;
        else if (maxpool_fe_streq(a->auto_pad, "SAME_LOWER"))
            d.auto_pad = MAXPOOL_PAD_SAME_LOWER;
        else
            return maxpool_fail(err, MAXPOOL_ERR_INVALID_ATTRIBUTE,
                                "auto_pad=\"%.64s\" must be NOTSET, VALID, SAME_UPPER or SAME_LOWER (case-sensitive)",
                                a->auto_pad);
    }
    if (d.auto_pad != MAXPOOL_PAD_EXPLICIT) /* ORT: auto_pad wins, pads are ignored */
        for (int i = 0; i < rank; ++i)
            d.pad_begin[i] = d.pad_end[i] = 0;

    if (a->ceil_mode != -1 && a->ceil_mode != 0 && a->ceil_mode != 1)
        return maxpool_fail(err, MAXPOOL_ERR_INVALID_ATTRIBUTE, "ceil_mode=%d must be 0 or 1", a->ceil_mode);
    d.rounding = a->ceil_mode == 1 ? MAXPOOL_ROUND_CEIL_TORCH : MAXPOOL_ROUND_FLOOR;
    if (d.auto_pad == MAXPOOL_PAD_SAME_UPPER || d.auto_pad == MAXPOOL_PAD_SAME_LOWER)
        d.rounding = MAXPOOL_ROUND_FLOOR; /* SAME ignores ceil_mode */

    if (a->storage_order != -1 && a->storage_order != 0 && a->storage_order != 1)
        return maxpool_fail(err, MAXPOOL_ERR_INVALID_ATTRIBUTE,
                            "storage_order=%d must be 0 (row major) or 1 (column major)", a->storage_order);

    d.index_type = a->want_indices ? MAXPOOL_INDEX_I64 : MAXPOOL_INDEX_NONE;
    d.index_axis = 0;
    d.index_order = a->storage_order == 1 ? MAXPOOL_INDEX_COL_MAJOR : MAXPOOL_INDEX_ROW_MAJOR;
    d.nan_policy = MAXPOOL_NAN_IGNORE;
    d.empty_value = (dtype == MAXPOOL_F16 || dtype == MAXPOOL_BF16) ? MAXPOOL_EMPTY_NEG_INF : MAXPOOL_EMPTY_LOWEST;
    d.empty_index = MAXPOOL_EMPTY_INDEX_MINUS_ONE;
    d.window_init = MAXPOOL_INIT_FIRST_ELEMENT;
    d.reject_empty_windows = 0;

    *desc = d;
    return maxpool_ok(err);
}
