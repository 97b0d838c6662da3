# SPDX-License-Identifier: Apache-2.0
"""ONNX MaxPool (opsets 1, 8, 10, 11, 12, 22) on numpy arrays.

`max_pool` takes the ONNX attributes by their ONNX names; the C front-end
(`maxpool_onnx_lower`) validates them as the given opset demands, and
computes what ONNX Runtime computes (NaN never wins, empty windows give the
type's lowest value and index -1, `ceil_mode=1` drops a last window that
would start in the end padding).

`maxpool` is a drop-in for `modeci_mdf.functions.onnx.maxpool`.
"""

from __future__ import annotations

from typing import Optional, Sequence

from . import _core, _lib
from ._types import ArrayLike, Out, Result

__all__ = ["max_pool", "maxpool"]


def _spec(
    kernel_shape=None,
    strides=None,
    pads=None,
    dilations=None,
    auto_pad="NOTSET",
    ceil_mode=None,
    storage_order=None,
    opset=22,
    return_indices=False,
    nan=None,
    threads=None,
) -> _core.Spec:
    """The attributes, checked for memory safety and Python types, as a Spec
    (the C front-end validates their values once it knows dtype and rank)."""
    a = _lib.OnnxAttrs()
    _lib.maxpool_onnx_attrs_init(a, _lib.int32_scalar("opset", opset))
    _lib.set_list(a, "n_kernel_shape", "kernel_shape", _lib.int_list("kernel_shape", kernel_shape, _lib.MAX_SPATIAL))
    _lib.set_list(a, "n_strides", "strides", _lib.int_list("strides", strides, _lib.MAX_SPATIAL))
    _lib.set_list(a, "n_pads", "pads", _lib.int_list("pads", pads, 2 * _lib.MAX_SPATIAL))
    _lib.set_list(a, "n_dilations", "dilations", _lib.int_list("dilations", dilations, _lib.MAX_SPATIAL))
    a.auto_pad = _lib.c_string("auto_pad", auto_pad)
    if ceil_mode is not None:
        a.ceil_mode = _lib.int32_scalar("ceil_mode", ceil_mode)
    if storage_order is not None:
        a.storage_order = _lib.int32_scalar("storage_order", storage_order)
    a.want_indices = 1 if return_indices else 0

    def lower(shape, code):
        ndim = len(shape)
        return _lib.lower(_lib.maxpool_onnx_lower, a, code, ndim)

    return _core.Spec("onnx.max_pool", lower, returns="pair" if return_indices else "values", nan=nan,
                      threads=threads)


def max_pool(
    X: ArrayLike,
    *,
    kernel_shape: Sequence[int],
    strides: Optional[Sequence[int]] = None,
    pads: Optional[Sequence[int]] = None,
    dilations: Optional[Sequence[int]] = None,
    auto_pad: Optional[str] = "NOTSET",
    ceil_mode: Optional[int] = None,
    storage_order: Optional[int] = None,
    opset: int = 22,
    return_indices: bool = False,
    layout: Optional[str] = None,
    out: Out = None,
    nan: Optional[str] = None,
    threads: Optional[int] = None,
) -> Result:
    """ONNX MaxPool.

    X: (N, C, D1, ..., Dn) array: numpy, a torch tensor, or any object with
    __dlpack__ (imported without a copy). Attributes as in the ONNX operator;
    None means the attribute is absent (its ONNX default applies: strides 1,
    pads 0, dilations 1, ceil_mode 0, storage_order 0). Giving an attribute
    that the opset does not have (e.g. ceil_mode at opset 8) is an error, as
    is return_indices at opset 1.

    Returns Y, or (Y, Indices) with int64 Indices when return_indices (torch
    tensors when X is one). Indices count in the logical (N, C, D...) order
    whatever the layout.
    layout: None (C-contiguous X is channels-first; X whose strides are
    channels-last -- torch.channels_last -- is pooled in place and the
    results have the same strides), "NCHW" or "NHWC" (X and results are
    (N, D1, ..., Dn, C)). out: an array for Y, or a (Y, Indices) pair,
    written in place and returned (shape, dtype, contiguity checked).
    nan: None (ONNX Runtime's policy: NaN never wins), "propagate" or "ignore".
    threads: None (maxpool.DEFAULT_THREADS: all CPUs of this process) or a
    count (1: the calling thread).
    Raises ValueError (maxpool.MaxPoolError) with the C library's message.
    """
    spec = _spec(kernel_shape, strides, pads, dilations, auto_pad, ceil_mode, storage_order, opset,
                 return_indices, nan, threads)
    return _core.call(spec, X, layout, out)


max_pool._maxpool_spec = _spec  # type: ignore[attr-defined]  (maxpool.plan)


# --------------------------------------------------------------------------
# modeci_mdf drop-in
# --------------------------------------------------------------------------

# modeci_mdf builds every ONNX function at its opset 15, where MaxPool is
# MaxPool-12.
_MDF_OPSET = 15

# Positional arguments after X fill the attributes in the order the installed
# onnx package lists MaxPool's attributes (OpSchema.attributes, a dict) — the
# order modeci_mdf uses. This fallback is that order as onnx 1.x reports it.
_MDF_ATTR_ORDER_FALLBACK = ("storage_order", "dilations", "ceil_mode", "pads", "auto_pad", "strides", "kernel_shape")


def _mdf_attr_order():
    try:
        import onnx.defs  # noqa: PLC0415

        return tuple(onnx.defs.get_schema("MaxPool", _MDF_OPSET).attributes)
    except Exception:  # onnx missing or unusable
        return _MDF_ATTR_ORDER_FALLBACK


def _mdf_convert(v):
    """What modeci_mdf does to every input before it runs the op."""
    import numpy as np  # noqa: PLC0415

    if type(v) is list:
        v = np.array(v)
    if type(v) is int or type(v) is float:
        v = np.atleast_1d(v)
    if hasattr(v, "dtype") and v.dtype == np.int32:
        v = v.astype(np.int64)
    if hasattr(v, "dtype") and v.dtype == np.float64:
        v = v.astype(np.float32)
    if hasattr(v, "detach") and hasattr(v, "cpu") and hasattr(v, "numpy"):  # a torch.Tensor
        v = v.detach().cpu().numpy()
    return v


def maxpool(*args, **kwargs):
    """Drop-in for ``modeci_mdf.functions.onnx.maxpool(*args, **kwargs)``.

    Same call: the input X first (positionally or as ``X=``), the ONNX
    attributes as keywords (or, as modeci_mdf allows, positionally after X in
    the order of ONNX's MaxPool schema); an unknown keyword raises ValueError.
    Same conversions of X: a list becomes an array, an int/float a 1-element
    array, int32 becomes int64, float64 becomes float32 (before a torch tensor
    is turned into numpy). Same operator: ONNX MaxPool as of opset 15
    (MaxPool-12) with both outputs requested, so the result is always the
    tuple ``(Y, Indices)`` with int64 Indices, as modeci_mdf returns it.
    Errors raise ValueError with the C message.
    """
    order = _mdf_attr_order()
    kwargs = dict(kwargs)
    if "X" in kwargs:
        X = kwargs.pop("X")
        rest = list(args)
    elif args:
        X = args[0]
        rest = list(args[1:])
    else:
        raise _lib.MaxPoolError("maxpool: MaxPool needs its input X", _lib.ERR_NULL_POINTER)
    # Remaining positional arguments: the next attribute not given by keyword
    # (extra ones beyond the attribute list are ignored, as in modeci_mdf).
    names = iter(n for n in order if n not in kwargs)
    for value in rest:
        name = next(names, None)
        if name is None:
            break
        kwargs[name] = value
    for kw in kwargs:
        if kw not in order:
            raise _lib.MaxPoolError(
                f"Passed unknown attribute ({kw}) to ONNX op MaxPool, supported attributes: {list(order)}",
                _lib.ERR_INVALID_ATTRIBUTE,
            )
    x = _mdf_convert(X)
    attrs = {k: kwargs.get(k) for k in ("strides", "pads", "dilations", "ceil_mode", "storage_order")}
    if "kernel_shape" not in kwargs:
        # An absent required attribute: the front-end says so.
        kwargs["kernel_shape"] = None
    auto_pad = kwargs.get("auto_pad")
    if isinstance(auto_pad, bytes):
        auto_pad = auto_pad.decode()
    return max_pool(
        x,
        kernel_shape=kwargs["kernel_shape"],
        auto_pad=auto_pad,
        opset=_MDF_OPSET,
        return_indices=True,
        **attrs,
    )
