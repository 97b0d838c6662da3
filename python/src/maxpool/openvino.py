# SPDX-License-Identifier: Apache-2.0
"""OpenVINO MaxPool-1, MaxPool-8 and MaxPool-14 on numpy arrays.

Attributes by their OpenVINO names; the C front-end (`maxpool_openvino_lower`)
validates them as the version demands. Results are OpenVINO's outputs:
(values, indices) for versions 8 and 14, values alone for version 1.
"""

from __future__ import annotations

from typing import Optional, Sequence

from . import _core, _lib
from ._types import ArrayLike, Out, Result

__all__ = ["max_pool"]


def _spec(kernel=None, strides=None, pads_begin=None, pads_end=None, dilations=None, rounding_type="floor",
          auto_pad="explicit", index_element_type=None, axis=0, version=14, nan=None, threads=None) -> _core.Spec:
    ver = _lib.int32_scalar("version", version)
    a = _lib.OpenvinoAttrs()
    _lib.maxpool_openvino_attrs_init(a, ver)
    cap = _lib.MAX_SPATIAL
    _lib.set_list(a, "n_kernel", "kernel", _lib.int_list("kernel", kernel, cap))
    _lib.set_list(a, "n_strides", "strides", _lib.int_list("strides", strides, cap))
    _lib.set_list(a, "n_pads_begin", "pads_begin", _lib.int_list("pads_begin", pads_begin, cap))
    _lib.set_list(a, "n_pads_end", "pads_end", _lib.int_list("pads_end", pads_end, cap))
    _lib.set_list(a, "n_dilations", "dilations", _lib.int_list("dilations", dilations, cap))
    a.rounding_type = _lib.c_string("rounding_type", rounding_type)
    a.auto_pad = _lib.c_string("auto_pad", auto_pad)
    a.index_element_type = _lib.c_string("index_element_type", index_element_type)
    a.axis = _lib.int_scalar("axis", axis)
    a.want_indices = 0 if ver == 1 else 1

    def lower(shape, code):
        return _lib.lower(_lib.maxpool_openvino_lower, a, code, len(shape))

    return _core.Spec("openvino.max_pool", lower, returns="auto", nan=nan, threads=threads)


def max_pool(
    data: ArrayLike,
    *,
    kernel: Sequence[int],
    strides: Sequence[int],
    pads_begin: Sequence[int],
    pads_end: Sequence[int],
    dilations: Optional[Sequence[int]] = None,
    rounding_type: Optional[str] = "floor",
    auto_pad: Optional[str] = "explicit",
    index_element_type: Optional[str] = None,
    axis: int = 0,
    version: int = 14,
    layout: Optional[str] = None,
    out: Out = None,
    nan: Optional[str] = None,
    threads: Optional[int] = None,
) -> Result:
    """OpenVINO MaxPool.

    data: (N, C, D1, ..., Dn): numpy array, torch tensor or any object with
    __dlpack__. kernel, strides, pads_begin, pads_end: one
    value per spatial axis. dilations: None (absent: 1; versions 8 and 14
    only). rounding_type: "floor", "ceil" or, version 14, "ceil_torch".
    auto_pad: "explicit", "valid", "same_upper", "same_lower" (pads are then
    ignored). index_element_type: None (absent: "i64"), "i64" or "i32";
    axis: first dimension the flat indices count from (negative from the end),
    any dimension: the whole-tensor flat index modulo the product of the
    dimensions from axis on, as OpenVINO computes it.
    Strings are passed as given; None means the attribute is absent.

    Returns (values, indices) for version 8 and 14, values for version 1.
    layout, out: as in maxpool.onnx.max_pool.
    nan: None (OpenVINO's policy: NaN never wins), "propagate" or "ignore".
    threads: None (maxpool.DEFAULT_THREADS) or a count.
    Raises ValueError (maxpool.MaxPoolError) with the C library's message.
    """
    spec = _spec(kernel, strides, pads_begin, pads_end, dilations, rounding_type, auto_pad, index_element_type, axis,
                 version, nan, threads)
    return _core.call(spec, data, layout, out)


max_pool._maxpool_spec = _spec  # type: ignore[attr-defined]  (maxpool.plan)
