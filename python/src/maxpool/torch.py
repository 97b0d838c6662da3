# SPDX-License-Identifier: Apache-2.0
"""PyTorch max_pool1d / max_pool2d / max_pool3d on numpy arrays.

Names, defaults and results as in ``torch.nn.functional``: kernel_size,
stride (None: = kernel_size), padding, dilation as an int or a tuple,
ceil_mode, return_indices (int64 indices flat within each (n, c) plane).
Inputs may be batched (N, C, ...) or unbatched (C, ...), numpy arrays or
torch tensors (results come back as torch tensors then). The C front-end
(`maxpool_torch_lower`) validates the values (pad at most half the dilated
kernel, ...) and computes what PyTorch computes: NaN propagates, ceil_mode
drops a last window that would start in the padding.

This module needs no torch; it only shares PyTorch's names (torch is
imported only when a torch tensor is passed).
"""

from __future__ import annotations

import functools
from typing import Optional, Sequence, Union

import numpy as np

from . import _core, _lib
from ._types import ArrayLike, Out, Result

IntOrTuple = Union[int, Sequence[int]]

__all__ = ["adaptive_max_pool1d", "adaptive_max_pool2d", "adaptive_max_pool3d", "max_pool1d", "max_pool2d",
           "max_pool3d"]


def _per_axis(name, value, rank):
    """An int or a tuple as a list; the front-end broadcasts one value and
    names the count it expects for any other length."""
    return _lib.int_list(name, value, _lib.MAX_SPATIAL)


def _spec(rank, kernel_size=None, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False,
          *, nan=None, threads=None) -> _core.Spec:
    a = _lib.TorchAttrs()
    _lib.maxpool_torch_attrs_init(a)
    _lib.set_list(a, "n_kernel_size", "kernel_size", _per_axis("kernel_size", kernel_size, rank))
    if stride is not None and not (hasattr(stride, "__len__") and len(stride) == 0):
        _lib.set_list(a, "n_stride", "stride", _per_axis("stride", stride, rank))
    _lib.set_list(a, "n_padding", "padding", _per_axis("padding", padding, rank))
    _lib.set_list(a, "n_dilation", "dilation", _per_axis("dilation", dilation, rank))
    a.ceil_mode = 1 if ceil_mode else 0
    a.return_indices = 1 if return_indices else 0
    fname = f"max_pool{rank}d"

    def lower(shape, code):
        ndim = len(shape)
        if ndim != rank + 2:
            raise _lib.MaxPoolError(
                f"{fname}: expected a {rank + 1}-D (unbatched) or {rank + 2}-D (batched) input, "
                f"got a {ndim}-D one",
                _lib.ERR_INVALID_SHAPE,
            )
        return _lib.lower(_lib.maxpool_torch_lower, a, code, ndim)

    return _core.Spec(fname, lower, unbatched_rank=rank, returns="pair" if return_indices else "values", nan=nan,
                      threads=threads)


def _check_rank(rank, input):
    ndim = getattr(input, "ndim", None)
    if ndim is None:
        if hasattr(input, "__dlpack__"):
            return  # checked after the import (the front-end names the rank it expects)
        ndim = np.ndim(input)
    if ndim not in (rank + 1, rank + 2):
        shape = tuple(getattr(input, "shape", np.shape(input)))
        raise _lib.MaxPoolError(
            f"max_pool{rank}d: expected a {rank + 1}-D (unbatched) or {rank + 2}-D (batched) input, got shape {shape}",
            _lib.ERR_INVALID_SHAPE,
        )


def _max_pool(rank, input, kernel_size, stride, padding, dilation, ceil_mode, return_indices, nan, threads, layout,
              out):
    _check_rank(rank, input)
    spec = _spec(rank, kernel_size, stride, padding, dilation, ceil_mode, return_indices, nan=nan, threads=threads)
    return _core.call(spec, input, layout, out)


_DOC = """torch.nn.functional.max_pool{r}d on a {b} or {u} array or tensor.

    input: numpy array, torch tensor (results are torch tensors, never
    requiring grad) or any object with __dlpack__; imported without a copy.
    Unbatched {u} input gives unbatched results. A tensor in
    torch.channels_last (channels_last_3d) memory format is pooled without a
    copy and the results have that memory format, as in torch; layout="NHWC"
    takes {bl} arrays instead. kernel_size, stride (None: kernel_size),
    padding, dilation: an int or one per axis. Returns values, or (values,
    int64 indices flat within each (n, c) plane) with return_indices.
    out: an array (values) or a (values, indices) pair, written and returned.
    nan: None (PyTorch: NaN propagates), "propagate" or "ignore".
    threads: None (maxpool.DEFAULT_THREADS: all CPUs of this process) or a count.
    Raises ValueError (maxpool.MaxPoolError) with the C library's message.
    """


def max_pool1d(input: ArrayLike, kernel_size: IntOrTuple, stride: Optional[IntOrTuple] = None,
               padding: IntOrTuple = 0, dilation: IntOrTuple = 1, ceil_mode: bool = False,
               return_indices: bool = False, *, layout: Optional[str] = None, out: Out = None,
               nan: Optional[str] = None, threads: Optional[int] = None) -> Result:
    return _max_pool(1, input, kernel_size, stride, padding, dilation, ceil_mode, return_indices, nan, threads,
                     layout, out)


def max_pool2d(input: ArrayLike, kernel_size: IntOrTuple, stride: Optional[IntOrTuple] = None,
               padding: IntOrTuple = 0, dilation: IntOrTuple = 1, ceil_mode: bool = False,
               return_indices: bool = False, *, layout: Optional[str] = None, out: Out = None,
               nan: Optional[str] = None, threads: Optional[int] = None) -> Result:
    return _max_pool(2, input, kernel_size, stride, padding, dilation, ceil_mode, return_indices, nan, threads,
                     layout, out)


def max_pool3d(input: ArrayLike, kernel_size: IntOrTuple, stride: Optional[IntOrTuple] = None,
               padding: IntOrTuple = 0, dilation: IntOrTuple = 1, ceil_mode: bool = False,
               return_indices: bool = False, *, layout: Optional[str] = None, out: Out = None,
               nan: Optional[str] = None, threads: Optional[int] = None) -> Result:
    return _max_pool(3, input, kernel_size, stride, padding, dilation, ceil_mode, return_indices, nan, threads,
                     layout, out)


max_pool1d.__doc__ = _DOC.format(r=1, b="(N, C, L)", u="(C, L)", bl="(N, L, C)")
max_pool2d.__doc__ = _DOC.format(r=2, b="(N, C, H, W)", u="(C, H, W)", bl="(N, H, W, C)")
max_pool3d.__doc__ = _DOC.format(r=3, b="(N, C, D, H, W)", u="(C, D, H, W)", bl="(N, D, H, W, C)")
max_pool1d._maxpool_spec = functools.partial(_spec, 1)  # type: ignore[attr-defined]  (maxpool.plan)
max_pool2d._maxpool_spec = functools.partial(_spec, 2)  # type: ignore[attr-defined]
max_pool3d._maxpool_spec = functools.partial(_spec, 3)  # type: ignore[attr-defined]


# --------------------------------------------------------------------------
# adaptive_max_pool{1,2,3}d
# --------------------------------------------------------------------------

def _adaptive_spec(rank, output_size=None, return_indices=False, *, nan=None, threads=None) -> _core.Spec:
    from .adaptive import _spec as adaptive_spec  # noqa: PLC0415

    if isinstance(output_size, (list, tuple)) and len(output_size) != rank:
        raise _lib.MaxPoolError(
            f"adaptive_max_pool{rank}d: output_size must have {rank} values, got {len(output_size)}",
            _lib.ERR_INVALID_SHAPE,
        )
    return adaptive_spec(output_size, None, "torch", nan=nan, threads=threads, rank=rank,
                         returns="pair" if return_indices else "values")


def _adaptive(rank, input, output_size, return_indices, nan, threads, layout, out):
    ndim = getattr(input, "ndim", None)
    if ndim is None and not hasattr(input, "__dlpack__"):
        ndim = np.ndim(input)
    if ndim is not None and ndim not in (rank + 1, rank + 2):
        shape = tuple(getattr(input, "shape", np.shape(input)))
        raise _lib.MaxPoolError(
            f"adaptive_max_pool{rank}d: expected a {rank + 1}-D (unbatched) or {rank + 2}-D (batched) input, "
            f"got shape {shape}",
            _lib.ERR_INVALID_SHAPE,
        )
    spec = _adaptive_spec(rank, output_size, return_indices, nan=nan, threads=threads)
    return _core.call(spec, input, layout, out)


_ADOC = """torch.nn.functional.adaptive_max_pool{r}d on a {b} or {u} array or tensor.

    output_size: an int or {r} values (None keeps that axis' size). Returns
    values, or (values, int64 indices flat within each (n, c) plane) with
    return_indices. Unbatched input gives unbatched results; inputs,
    channels_last tensors, layout, out, nan and threads as in max_pool{r}d.
    """


def adaptive_max_pool1d(input: ArrayLike, output_size: Union[int, Sequence[Optional[int]]],
                        return_indices: bool = False, *, layout: Optional[str] = None, out: Out = None,
                        nan: Optional[str] = None, threads: Optional[int] = None) -> Result:
    return _adaptive(1, input, output_size, return_indices, nan, threads, layout, out)


def adaptive_max_pool2d(input: ArrayLike, output_size: Union[int, Sequence[Optional[int]]],
                        return_indices: bool = False, *, layout: Optional[str] = None, out: Out = None,
                        nan: Optional[str] = None, threads: Optional[int] = None) -> Result:
    return _adaptive(2, input, output_size, return_indices, nan, threads, layout, out)


def adaptive_max_pool3d(input: ArrayLike, output_size: Union[int, Sequence[Optional[int]]],
                        return_indices: bool = False, *, layout: Optional[str] = None, out: Out = None,
                        nan: Optional[str] = None, threads: Optional[int] = None) -> Result:
    return _adaptive(3, input, output_size, return_indices, nan, threads, layout, out)


adaptive_max_pool1d.__doc__ = _ADOC.format(r=1, b="(N, C, L)", u="(C, L)")
adaptive_max_pool2d.__doc__ = _ADOC.format(r=2, b="(N, C, H, W)", u="(C, H, W)")
adaptive_max_pool3d.__doc__ = _ADOC.format(r=3, b="(N, C, D, H, W)", u="(C, D, H, W)")
adaptive_max_pool1d._maxpool_spec = functools.partial(_adaptive_spec, 1)  # type: ignore[attr-defined]
adaptive_max_pool2d._maxpool_spec = functools.partial(_adaptive_spec, 2)  # type: ignore[attr-defined]
adaptive_max_pool3d._maxpool_spec = functools.partial(_adaptive_spec, 3)  # type: ignore[attr-defined]
