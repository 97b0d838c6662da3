# SPDX-License-Identifier: Apache-2.0
"""TensorFlow tf.nn.max_pool_with_argmax on numpy arrays.

Names, defaults and results as in ``tf.nn.max_pool_with_argmax``: a rank-4
NHWC input, ksize and strides as an int or a list of 1, 2 or 4 ints,
padding "SAME" or "VALID", output_dtype int64 (default) or int32,
include_batch_in_index. Returns (output, argmax) with argmax flat in the
NHWC input: (h*W + w)*C + c, plus n*H*W*C with include_batch_in_index.

Semantics (checked against tensorflow-cpu): the running max of a window
starts at its first input element and a later element replaces it only when
greater, so ties go to the first element in (h, w) order and a NaN wins only
as a window's first element. SAME padding is no value. As TF: an input with a
zero dimension is an error, and a VALID kernel larger than the input gives an
empty output while (in - ksize + stride) // stride (truncated) is 0.

This module needs no tensorflow; it only shares TensorFlow's names. The C
front-end (`maxpool_tf_lower`) validates the attributes.
"""

from __future__ import annotations

import numpy as np

from . import _lib

__all__ = ["max_pool_with_argmax"]

def _targmax(output_dtype):
    if output_dtype is None:
        return None
    if isinstance(output_dtype, str):
        name = output_dtype
    else:
        name = getattr(output_dtype, "name", None)  # tf.int32 / np.dtype
        if name is None:
            try:
                name = np.dtype(output_dtype).name
            except TypeError:
                name = repr(output_dtype)
    return name


def _hw(values):
    """The H, W entries of a validated 1/2/4-value ksize or strides list."""
    if len(values) == 1:
        return [values[0], values[0]]
    if len(values) == 2:
        return list(values)
    return [values[1], values[2]]


def max_pool_with_argmax(input, ksize, strides, padding, data_format="NHWC", output_dtype="int64",
                         include_batch_in_index=False, *, nan=None, threads=None):
    """tf.nn.max_pool_with_argmax on an (N, H, W, C) array: (output, argmax).

    output_dtype: "int64" / "int32" (or np.int32, tf.int32, ...). nan: None (TensorFlow's policy),
    "propagate" or "ignore" (maxpool.MaxPoolError docs; the window still starts at its first element).
    Raises ValueError (maxpool.MaxPoolError) with the C library's message.
    """
    x, code = _lib.as_input(input)
    a = _lib.TfAttrs()
    _lib.maxpool_tf_attrs_init(a)
    ks = _lib.int_list("ksize", ksize, 4)
    st = _lib.int_list("strides", strides, 4)
    _lib.set_list(a, "n_ksize", "ksize", ks)
    _lib.set_list(a, "n_strides", "strides", st)
    a.padding = _lib.c_string("padding", padding)
    a.data_format = _lib.c_string("data_format", data_format)
    a.targmax = _lib.c_string("output_dtype", _targmax(output_dtype))
    a.include_batch_in_index = 1 if include_batch_in_index else 0
    desc = _lib.lower(_lib.maxpool_tf_lower, a, code, x.ndim)
    _lib.apply_options(desc, nan, threads)
    if 0 in x.shape:
        raise _lib.MaxPoolError(f"max_pool_with_argmax: tensor_in must not be empty (shape {x.shape})",
                                _lib.ERR_INVALID_SHAPE)
    if padding == "VALID":
        # TF: out = (in - ksize + stride) / stride, truncated; 0 is an empty output, below 0 an error
        k, s = _hw(ks), _hw(st)
        nums = [x.shape[1 + i] - k[i] + s[i] for i in range(2)]
        outs = [num // s[i] if num >= 0 else -(-num // s[i]) for i, num in enumerate(nums)]
        if min(outs) < 0:
            raise _lib.MaxPoolError(f"max_pool_with_argmax: computed output size would be negative: {min(outs)} "
                                    f"(input {x.shape[1:3]}, ksize {k}, strides {s})", _lib.ERR_INVALID_SHAPE)
        if min(outs) == 0:
            shape = (x.shape[0], outs[0], outs[1], x.shape[3])
            return np.empty(shape, x.dtype), np.empty(shape, _lib.index_dtype(desc.index_type))
    y, ind = _lib.execute(x, desc)
    return y, ind
