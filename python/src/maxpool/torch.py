# SPDX-License-Identifier: Apache-2.0
"""PyTorch max_pool1d / max_pool2d / max_pool3d on numpy arrays.

Names, defaults and results as in ``torch.nn.functional``: kernel_size,
stride (None: = kernel_size), padding, dilation as an int or a tuple,
ceil_mode, return_indices (int64 indices flat within each (n, c) plane).
Inputs may be batched (N, C, ...) or unbatched (C, ...). The C front-end
(`maxpool_torch_lower`) validates the values (pad at most half the dilated
kernel, ...) and computes what PyTorch computes: NaN propagates, ceil_mode
drops a last window that would start in the padding.

This module needs no torch; it only shares PyTorch's names.
"""

from __future__ import annotations

from . import _lib

__all__ = ["max_pool1d", "max_pool2d", "max_pool3d"]


def _per_axis(name, value, rank):
    """An int or a tuple as a list; the front-end broadcasts one value and
    names the count it expects for any other length."""
    return _lib.int_list(name, value, _lib.MAX_SPATIAL)


def _max_pool(rank, input, kernel_size, stride, padding, dilation, ceil_mode, return_indices, nan, threads):
    x, code = _lib.as_input(input)
    fname = f"max_pool{rank}d"
    if x.ndim not in (rank + 1, rank + 2):
        raise _lib.MaxPoolError(
            f"{fname}: expected a {rank + 1}-D (unbatched) or {rank + 2}-D (batched) input, got shape {x.shape}",
            _lib.ERR_INVALID_SHAPE,
        )
    unbatched = x.ndim == rank + 1
    if unbatched:
        x = x.reshape((1,) + x.shape)
    a = _lib.TorchAttrs()
    _lib.maxpool_torch_attrs_init(a)
    _lib.set_list(a, "n_kernel_size", "kernel_size", _per_axis("kernel_size", kernel_size, rank))
    if stride is not None and not (hasattr(stride, "__len__") and len(stride) == 0):
        _lib.set_list(a, "n_stride", "stride", _per_axis("stride", stride, rank))
    _lib.set_list(a, "n_padding", "padding", _per_axis("padding", padding, rank))
    _lib.set_list(a, "n_dilation", "dilation", _per_axis("dilation", dilation, rank))
    a.ceil_mode = 1 if ceil_mode else 0
    a.return_indices = 1 if return_indices else 0
    desc = _lib.lower(_lib.maxpool_torch_lower, a, code, x.ndim)
    _lib.apply_options(desc, nan, threads)
    y, ind = _lib.execute(x, desc)
    if unbatched:
        y = y[0]
        ind = ind[0] if ind is not None else None
    if return_indices:
        return y, ind
    return y


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False,
               *, nan=None, threads=None):
    """torch.nn.functional.max_pool1d on a (N, C, L) or (C, L) array."""
    return _max_pool(1, input, kernel_size, stride, padding, dilation, ceil_mode, return_indices, nan, threads)


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False,
               *, nan=None, threads=None):
    """torch.nn.functional.max_pool2d on a (N, C, H, W) or (C, H, W) array."""
    return _max_pool(2, input, kernel_size, stride, padding, dilation, ceil_mode, return_indices, nan, threads)


def max_pool3d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False,
               *, nan=None, threads=None):
    """torch.nn.functional.max_pool3d on a (N, C, D, H, W) or (C, D, H, W) array."""
    return _max_pool(3, input, kernel_size, stride, padding, dilation, ceil_mode, return_indices, nan, threads)
