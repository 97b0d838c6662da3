# SPDX-License-Identifier: Apache-2.0
"""Adaptive max pooling: PyTorch adaptive_max_poolNd, aclnnAdaptiveMaxPool3d,
OpenVINO AdaptiveMaxPool-8.

Window o of an axis of size `in` pooled to `out` covers
[floor(o*in/out), ceil((o+1)*in/out)).
"""

from __future__ import annotations

import numpy as np

from . import _lib

__all__ = ["adaptive_max_pool"]

_FLAVORS = {"torch": _lib.ADAPTIVE_TORCH, "aclnn": _lib.ADAPTIVE_ACLNN, "openvino": _lib.ADAPTIVE_OPENVINO}


def _index_name(index_dtype):
    if index_dtype is None:
        return None
    if isinstance(index_dtype, str) and index_dtype.lower() in ("i32", "i64"):
        return index_dtype.lower()
    try:
        dt = np.dtype(index_dtype)
    except TypeError:
        dt = None
    if dt == np.dtype(np.int32):
        return "i32"
    if dt == np.dtype(np.int64):
        return "i64"
    raise _lib.MaxPoolError(
        f"maxpool: index_dtype={index_dtype!r}: must be numpy.int32 or numpy.int64", _lib.ERR_UNSUPPORTED
    )


def adaptive_max_pool(x, output_size, index_dtype=None, flavor="torch", *, nan=None, threads=None):
    """Adaptive max pooling of x (N, C, D1, ..., Dn) to output_size.

    output_size: an int (every spatial axis) or one value per spatial axis;
    a None entry keeps that axis' input size (as PyTorch allows).
    index_dtype: None (the flavor's default: int64 for "torch" and
    "openvino", int32 for "aclnn"), numpy.int32 or numpy.int64.
    flavor: "torch" (PyTorch; NaN propagates; indices flat per (n, c) plane),
    "aclnn" (aclnnAdaptiveMaxPool3d: 5-D input, int32 per-volume indices) or
    "openvino" (AdaptiveMaxPool-8; NaN never wins).

    Returns (values, indices). nan: None (the flavor's policy), "propagate"
    or "ignore". Raises ValueError (maxpool.MaxPoolError) with the C message.
    """
    arr, code = _lib.as_input(x)
    if not isinstance(flavor, str) or flavor.lower() not in _FLAVORS:
        raise _lib.MaxPoolError(
            f"maxpool: flavor={flavor!r}: must be one of {', '.join(_FLAVORS)}", _lib.ERR_INVALID_ATTRIBUTE
        )
    rank = arr.ndim - 2
    if isinstance(output_size, (list, tuple)) and any(v is None for v in output_size):
        if len(output_size) != rank:
            raise _lib.MaxPoolError(
                f"maxpool: output_size has {len(output_size)} values; the input has {max(rank, 0)} spatial axes",
                _lib.ERR_INVALID_SHAPE,
            )
        output_size = [arr.shape[2 + i] if v is None else v for i, v in enumerate(output_size)]
    sizes = _lib.int_list("output_size", output_size, _lib.MAX_SPATIAL)
    if not hasattr(output_size, "__iter__") and rank >= 1:
        sizes = sizes * rank  # an int: every spatial axis
    a = _lib.AdaptiveAttrs()
    _lib.maxpool_adaptive_attrs_init(a, _FLAVORS[flavor.lower()])
    _lib.set_list(a, "n_output_size", "output_size", sizes)
    a.index_element_type = _lib.c_string("index_element_type", _index_name(index_dtype))
    a.want_indices = 1
    desc = _lib.lower(_lib.maxpool_adaptive_lower, a, code, arr.ndim)
    _lib.apply_options(desc, nan, threads)
    return _lib.execute(arr, desc)
