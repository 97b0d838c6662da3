# SPDX-License-Identifier: Apache-2.0
"""Adaptive max pooling: PyTorch adaptive_max_poolNd, aclnnAdaptiveMaxPool3d,
OpenVINO AdaptiveMaxPool-8.

Window o of an axis of size `in` pooled to `out` covers
[floor(o*in/out), ceil((o+1)*in/out)).
"""

from __future__ import annotations

from typing import Any, Optional, Sequence, Union

import numpy as np

from . import _core, _lib
from ._types import ArrayLike, Out, Result

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


def _spec(output_size=None, index_dtype=None, flavor="torch", *, nan=None, threads=None, rank=None,
          returns="pair") -> _core.Spec:
    """rank: the spatial rank when known (maxpool.torch.adaptive_max_poolNd:
    a rank + 1 input is unbatched); None: the input's rank - 2."""
    if not isinstance(flavor, str) or flavor.lower() not in _FLAVORS:
        raise _lib.MaxPoolError(
            f"maxpool: flavor={flavor!r}: must be one of {', '.join(_FLAVORS)}", _lib.ERR_INVALID_ATTRIBUTE
        )
    flavor_code = _FLAVORS[flavor.lower()]
    index_name = _lib.c_string("index_element_type", _index_name(index_dtype))
    is_seq = isinstance(output_size, (list, tuple))
    if not is_seq and output_size is not None and not hasattr(output_size, "__iter__"):
        _lib.int_list("output_size", output_size, _lib.MAX_SPATIAL)  # type check now

    def lower(shape, code):
        r = len(shape) - 2
        if rank is not None and r != rank:
            raise _lib.MaxPoolError(
                f"adaptive_max_pool{rank}d: expected a {rank + 1}-D (unbatched) or {rank + 2}-D (batched) input, "
                f"got a {len(shape)}-D one",
                _lib.ERR_INVALID_SHAPE,
            )
        sizes_in = output_size
        if is_seq and any(v is None for v in sizes_in):
            if len(sizes_in) != r:
                raise _lib.MaxPoolError(
                    f"maxpool: output_size has {len(sizes_in)} values; the input has {max(r, 0)} spatial axes",
                    _lib.ERR_INVALID_SHAPE,
                )
            sizes_in = [shape[2 + i] if v is None else v for i, v in enumerate(sizes_in)]
        sizes = _lib.int_list("output_size", sizes_in, _lib.MAX_SPATIAL)
        if sizes is not None and not hasattr(sizes_in, "__iter__") and r >= 1:
            sizes = sizes * r  # an int: every spatial axis
        a = _lib.AdaptiveAttrs()
        _lib.maxpool_adaptive_attrs_init(a, flavor_code)
        _lib.set_list(a, "n_output_size", "output_size", sizes)
        a.index_element_type = index_name
        a.want_indices = 0 if returns == "values" else 1
        return _lib.lower(_lib.maxpool_adaptive_lower, a, code, len(shape))

    return _core.Spec("adaptive_max_pool", lower, unbatched_rank=rank, returns=returns, nan=nan, threads=threads)


def adaptive_max_pool(x: ArrayLike, output_size: Union[int, Sequence[Optional[int]]],
                      index_dtype: Any = None, flavor: str = "torch", *, layout: Optional[str] = None,
                      out: Out = None, nan: Optional[str] = None, threads: Optional[int] = None) -> Result:
    """Adaptive max pooling of x (N, C, D1, ..., Dn) to output_size.

    x: numpy array, torch tensor (results are torch tensors) or any object
    with __dlpack__, imported without a copy. Always batched: the spatial
    rank is x.ndim - 2 (maxpool.torch.adaptive_max_pool{1,2,3}d take
    PyTorch's unbatched (C, D1, ..., Dn) inputs too).
    output_size: an int (every spatial axis) or one value per spatial axis;
    a None entry keeps that axis' input size (as PyTorch allows).
    index_dtype: None (the flavor's default: int64 for "torch" and
    "openvino", int32 for "aclnn"), numpy.int32 or numpy.int64.
    flavor: "torch" (PyTorch; NaN propagates; indices flat per (n, c) plane),
    "aclnn" (aclnnAdaptiveMaxPool3d: 5-D input, int32 per-volume indices) or
    "openvino" (AdaptiveMaxPool-8; NaN never wins).
    layout, out: as in maxpool.onnx.max_pool (channels-last strides are
    pooled in place; "NHWC" takes (N, D1, ..., Dn, C)).

    Returns (values, indices). nan: None (the flavor's policy), "propagate"
    or "ignore". threads: None (maxpool.DEFAULT_THREADS) or a count.
    Raises ValueError (maxpool.MaxPoolError) with the C message.
    """
    spec = _spec(output_size, index_dtype, flavor, nan=nan, threads=threads)
    return _core.call(spec, x, layout, out)


adaptive_max_pool._maxpool_spec = _spec  # type: ignore[attr-defined]  (maxpool.plan)
