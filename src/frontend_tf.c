/* SPDX-License-Identifier: Apache-2.0 */
/*
 * TensorFlow tf.nn.max_pool_with_argmax front-end (raw op MaxPoolWithArgmax).
 *
 * Decisions (checked against tensorflow-cpu 2.21 from PyPI, CPU kernel):
 *
 * - Input rank 4 only, NHWC: data_format "NHWC" only (tf.nn rejects any
 *   other value; the raw op has no data_format).
 * - ksize and strides are required and take 1 value (both spatial axes), 2
 *   (H, W) or 4 (N, H, W, C), as tf.nn's _get_sequence does. In the
 *   4-value form ksize[0], ksize[3] and strides[0] must be 1 (TF:
 *   "Pooling is not yet supported on the batch dimension" / "MaxPooling
 *   supports exactly one of pooling across depth or pooling across width/
 *   height"); strides[3] must be >= 1 and is otherwise ignored, as TF's CPU
 *   kernel ignores it. Every value is in [1, INT32_MAX] (TF's attributes
 *   are int32: "ksize must be a positive int32 value", "Stride must be > 0").
 * - padding: "SAME" or "VALID", case-sensitive (TF rejects "same"). SAME:
 *   out = ceil(in / stride), pad_total = max((out-1)*stride + ksize - in, 0),
 *   pad_before = pad_total / 2, i.e. MAXPOOL_PAD_SAME_UPPER. The padding is
 *   no value: TF scans only the input elements of a window. VALID: no pads,
 *   floor rounding.
 * - Values: the running max starts at the window's first input element,
 *   whatever it is (NaN included), and is replaced by a later element x when
 *   best < x (MAXPOOL_INIT_FIRST_ELEMENT + MAXPOOL_NAN_IGNORE): ties go to
 *   the first element in row-major (h, w) order; a NaN wins only as the
 *   window's first element and then stays; -0.0 and +0.0 tie. Every window
 *   holds an input element (no dilation, SAME pads below the kernel), so
 *   empty windows cannot occur (reject_empty_windows is set all the same).
 * - argmax: flat in the NHWC input, (h*W + w)*C + c, plus n*H*W*C when
 *   include_batch_in_index (MAXPOOL_INDEX_CHANNELS_LAST, index_axis 1 or 0).
 *   targmax: "int64" (default, as tf.nn's output_dtype) or "int32".
 * - dtypes: every maxpool dtype (TF also has uint32 and uint64, which
 *   maxpool has no type for).
 * - Shapes TF refuses or treats otherwise, which the front-end cannot see
 *   (it has no input shape): TF rejects an input with a zero dimension
 *   ("tensor_in must not be empty"), maxpool gives an empty output; with
 *   VALID and a kernel larger than the input, TF gives an empty output when
 *   (in - ksize + stride) / stride truncates to 0 and an error below,
 *   maxpool's plan fails (MAXPOOL_ERR_INVALID_SHAPE: output size < 1). The
 *   Python front-end (maxpool.tf) reproduces TF in both cases; the CLI
 *   refuses the empty input as TF does and the empty output as the plan does.
 */
#include "error.h"
#include "frontend_common.h"

#include <string.h>

void maxpool_tf_attrs_init(maxpool_tf_attrs *attrs)
{
    if (!attrs)
        return;
    memset(attrs, 0, sizeof *attrs);
    attrs->padding = NULL;
    attrs->data_format = NULL;
    attrs->targmax = NULL;
}

/* ksize / strides: 1, 2 or 4 values -> out[0..2) (H, W); the 4-value
 * form's batch entry (and, for ksize, the channel entry) must be 1. */
static maxpool_status read_hw(const char *name, const int64_t *v, int n, int is_ksize, int64_t *out,
                              maxpool_error *err)
{
    if (n == 0)
        return maxpool_fail(err, MAXPOOL_ERR_INVALID_ATTRIBUTE, "%s is required (1, 2 or 4 values)", name);
    if (n != 1 && n != 2 && n != 4)
        return maxpool_fail(err, MAXPOOL_ERR_INVALID_ATTRIBUTE, "%s has %d values; it needs 1, 2 or 4", name, n);
    for (int i = 0; i < n; ++i)
        if (v[i] < 1 || v[i] > INT32_MAX)
            return maxpool_fail(err, MAXPOOL_ERR_INVALID_ATTRIBUTE, "%s[%d]=%lld must be in [1, %d] (an int32 >= 1)",
                                name, i, (long long)v[i], INT32_MAX);
    if (n == 1) {
        out[0] = out[1] = v[0];
    } else if (n == 2) {
        out[0] = v[0];
        out[1] = v[1];
    } else {
        if (v[0] != 1)
            return maxpool_fail(err, MAXPOOL_ERR_UNSUPPORTED,
                                "%s[0]=%lld: pooling on the batch dimension is not supported (TensorFlow neither)",
                                name, (long long)v[0]);
        if (is_ksize && v[3] != 1)
            return maxpool_fail(err, MAXPOOL_ERR_UNSUPPORTED,
                                "ksize[3]=%lld: pooling across channels is not supported by max_pool_with_argmax",
                                (long long)v[3]);
        out[0] = v[1];
        out[1] = v[2];
    }
    return MAXPOOL_OK;
}

maxpool_status maxpool_tf_lower(const maxpool_tf_attrs *a, maxpool_dtype dtype, int input_rank, maxpool_desc *desc,
                                maxpool_error *err)
{
    static const char what[] = "TensorFlow max_pool_with_argmax";
    maxpool_status st;
    if ((st = maxpool_fe_check_pointers(a, desc, "maxpool_tf_lower", err)) != MAXPOOL_OK)
        return st;
    if ((st = maxpool_fe_check_rank(input_rank, 2, 2, what, err)) != MAXPOOL_OK)
        return st;
    if ((st = maxpool_fe_check_dtype(dtype, MAXPOOL_FE_DT_ALL, what, err)) != MAXPOOL_OK)
        return st;
    if (a->data_format && !maxpool_fe_streq(a->data_format, "NHWC"))
        return maxpool_fail(err, MAXPOOL_ERR_UNSUPPORTED, "data_format=\"%.64s\": %s takes NHWC only",
                            a->data_format, what);

    maxpool_desc d;
    maxpool_desc_init(&d, 2);
    d.dtype = dtype;
    d.layout = MAXPOOL_CHANNELS_LAST;
    d.window = MAXPOOL_WINDOW_FIXED;
    if ((st = read_hw("ksize", a->ksize, a->n_ksize, 1, d.kernel, err)) != MAXPOOL_OK ||
        (st = read_hw("strides", a->strides, a->n_strides, 0, d.stride, err)) != MAXPOOL_OK)
        return st;

    if (!a->padding)
        return maxpool_fail(err, MAXPOOL_ERR_INVALID_ATTRIBUTE, "padding is required (\"SAME\" or \"VALID\")");
    if (maxpool_fe_streq(a->padding, "SAME"))
        d.auto_pad = MAXPOOL_PAD_SAME_UPPER;
    else if (maxpool_fe_streq(a->padding, "VALID"))
        d.auto_pad = MAXPOOL_PAD_VALID;
    else
        return maxpool_fail(err, MAXPOOL_ERR_INVALID_ATTRIBUTE, "padding=\"%.64s\" must be \"SAME\" or \"VALID\"",
                            a->padding);
    d.rounding = MAXPOOL_ROUND_FLOOR;

    maxpool_index_type itype = MAXPOOL_INDEX_I64;
    if (a->targmax) {
        if (maxpool_fe_streq(a->targmax, "int64"))
            itype = MAXPOOL_INDEX_I64;
        else if (maxpool_fe_streq(a->targmax, "int32"))
            itype = MAXPOOL_INDEX_I32;
        else
            return maxpool_fail(err, MAXPOOL_ERR_INVALID_ATTRIBUTE, "targmax=\"%.64s\" must be \"int32\" or \"int64\"",
                                a->targmax);
    }
    if (a->include_batch_in_index != 0 && a->include_batch_in_index != 1)
        return maxpool_fail(err, MAXPOOL_ERR_INVALID_ATTRIBUTE, "include_batch_in_index=%d must be 0 or 1",
                            a->include_batch_in_index);

    d.index_type = itype;
    d.index_axis = a->include_batch_in_index ? 0 : 1;
    d.index_order = MAXPOOL_INDEX_CHANNELS_LAST;
    d.nan_policy = MAXPOOL_NAN_IGNORE;
    d.window_init = MAXPOOL_INIT_FIRST_ELEMENT;
    d.empty_value = MAXPOOL_EMPTY_LOWEST;
    d.empty_index = MAXPOOL_EMPTY_INDEX_MINUS_ONE;
    d.reject_empty_windows = 1;

    *desc = d;
    return maxpool_ok(err);
}
