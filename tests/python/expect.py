# SPDX-License-Identifier: Apache-2.0
"""Oracle-derived window facts and expectations.

Everything here is computed by an oracle (OpenVINO's core reference
implementation, ``Model.evaluate``), never by maxpool:

* ``window_any(mask)``   -- does the window contain an element where mask is
  true?  (max pool of a 0/1 f32 array; empty windows give False)
* ``window_nonempty``    -- does the window contain any input element?
* ``first_valid_index``  -- flat (axis-0, row-major) index of the window's first
  element in row-major scan order (max pool of -position)
* ``last_nan_index``     -- flat index of the window's last NaN (max pool of
  +position where NaN, -1 elsewhere)
* ``first_element_argmax`` -- the result of the rule "the window's first
  element starts the running max, a later x replaces it when x > best" (NaN
  ignored): OpenVINO pools the values' order ranks (NaN -> 0, every other value
  its 1-based rank among the distinct values, so nothing ties with lowest())
  and the window's first element overrides where it is a NaN

With these, the per-position behaviour of each documented policy can be
stated from oracle outputs: e.g. NaN propagation gives, at a window holding a
NaN, the bits and the index of the window's last NaN.
"""
from __future__ import annotations

import numpy as np

import oracles as O
from cases import Geometry


def ov_kwargs(g: Geometry) -> dict:
    explicit = g.auto_pad == "explicit"
    return dict(
        kernel=list(g.kernel),
        strides=list(g.strides),
        dilations=list(g.dilations),
        pads_begin=list(g.pads_begin) if explicit else [0] * g.rank,
        pads_end=list(g.pads_end) if explicit else [0] * g.rank,
        rounding_type=g.rounding,
        auto_pad=g.auto_pad,
    )


def ov_version_for(g: Geometry) -> int:
    return 14 if g.rounding == "ceil_torch" else 8


def _pool_f32(z: np.ndarray, g: Geometry) -> O.OracleResult:
    r = O.openvino_max_pool(z.astype(np.float32), version=ov_version_for(g), backend="reference", axis=0,
                            index_element_type="i64", **ov_kwargs(g))
    if r.error:
        raise RuntimeError(f"OpenVINO reference failed on a helper pool: {r.error}")
    return r


def window_any(mask: np.ndarray, g: Geometry) -> np.ndarray:
    r = _pool_f32(mask.astype(np.float32), g)
    return r.y > 0.5


def window_nonempty(shape, g: Geometry) -> np.ndarray:
    return window_any(np.ones(shape, np.float32), g)


def _positions(shape) -> np.ndarray:
    """Spatial position (row-major within a plane) of every element, as f32."""
    spatial = int(np.prod(shape[2:]))
    pos = np.arange(spatial, dtype=np.float64).reshape(shape[2:])
    return np.broadcast_to(pos, shape).astype(np.float32)


def first_valid_index(shape, g: Geometry) -> np.ndarray:
    """Axis-0 flat index of each window's first element (row-major scan); -1 for empty windows."""
    r = _pool_f32(-_positions(shape) - 1.0, g)
    nonempty = r.y > np.finfo(np.float32).min  # empty windows give lowest()
    return np.where(nonempty, r.indices.astype(np.int64), -1)


def last_nan_index(x: np.ndarray, g: Geometry) -> np.ndarray:
    """Axis-0 flat index of each window's last NaN (row-major scan); -1 where the window has none."""
    isnan = O.nan_mask(x)
    z = np.where(isnan, _positions(x.shape), -1.0)
    r = _pool_f32(z, g)
    return np.where(r.y >= 0, r.indices.astype(np.int64), -1)


def value_ranks(x: np.ndarray) -> np.ndarray:
    """Order-preserving f32 ranks: equal values (+0/-0 too) share a rank >= 1; NaN -> 0."""
    isnan = O.nan_mask(x)
    with np.errstate(invalid="ignore"):
        v = x.astype(np.float32).astype(np.float64) if x.dtype == O.BF16 else x.astype(np.float64)
    uniq = np.unique(v[~isnan])
    r = (np.searchsorted(uniq, np.where(isnan, 0.0, v)) + 1).astype(np.float32)
    assert len(uniq) < 2**24
    return np.where(isnan, np.float32(0), r)


def first_element_argmax(x: np.ndarray, g: Geometry) -> np.ndarray:
    """Axis-0 flat index of each window's result under "first element starts, x > best replaces, NaN
    ignored" (ties to the first; a NaN first element sticks); -1 for windows with no element."""
    first = first_valid_index(x.shape, g)
    nonempty = first >= 0
    flat_nan = O.nan_mask(x).reshape(-1)
    first_nan = nonempty & flat_nan[np.where(nonempty, first, 0)]
    # first element not NaN: its rank >= 1 beats every NaN (0), so OpenVINO's '>' from lowest() finds the
    # first occurrence of the largest non-NaN value -- the same as starting from the first element
    r = _pool_f32(value_ranks(x), g)
    idx = np.where(first_nan, first, r.indices.astype(np.int64))
    return np.where(nonempty, idx, -1)


# --------------------------------------------------------------------------
# index conventions
# --------------------------------------------------------------------------


def global_to(idx: np.ndarray, in_shape, *, axis: int = 0, col_major: bool = False) -> np.ndarray:
    """Convert axis-0 row-major flat indices to another convention (keeps -1)."""
    idx = np.asarray(idx, np.int64)
    neg = idx < 0
    spatial_shape = tuple(in_shape[2:])
    S = int(np.prod(spatial_shape))
    C = in_shape[1]
    safe = np.where(neg, 0, idx)
    nc, s = np.divmod(safe, S)
    if col_major:
        coords = np.unravel_index(s, spatial_shape)
        s2 = np.zeros_like(s)
        mul = 1
        for i in range(len(spatial_shape)):
            s2 = s2 + coords[i] * mul
            mul *= spatial_shape[i]
        s = s2
    n, c = np.divmod(nc, C)
    if axis == 0:
        out = nc * S + s
    elif axis == 1:
        out = c * S + s
    elif axis == 2:
        out = s
    else:  # OpenVINO's axis on a spatial dimension: modulo the sizes from that dimension on
        out = s % int(np.prod(spatial_shape[axis - 2:]))
    return np.where(neg, -1, out)


def plane_offset(out_shape, in_shape, axis: int) -> np.ndarray:
    """Per output position: the index of spatial element 0 of its plane in convention `axis`."""
    N, C = out_shape[0], out_shape[1]
    S = int(np.prod(in_shape[2:]))
    n = np.arange(N).reshape((N, 1) + (1,) * (len(out_shape) - 2))
    c = np.arange(C).reshape((1, C) + (1,) * (len(out_shape) - 2))
    if axis == 0:
        off = (n * C + c) * S
    elif axis == 1:
        off = c * S + 0 * n
    else:
        off = 0 * n + 0 * c
    return np.broadcast_to(off, out_shape).astype(np.int64)


def start_bits(dtype_name: str, which: str) -> np.ndarray:
    """The bits of a start value: which = 'lowest' | 'neg_inf' | 'flt_lowest_as_f64'."""
    dt = O.BF16 if dtype_name == "bfloat16" else np.dtype(dtype_name)
    if which == "neg_inf" and dtype_name in ("float32", "float64", "float16", "bfloat16"):
        v = np.array([-np.inf], np.float32).astype(dt) if dtype_name == "bfloat16" else np.array([-np.inf], dt)
    elif which == "flt_lowest_as_f64":
        v = np.array([np.finfo(np.float32).min], np.float64)
    else:
        if dtype_name == "bfloat16":
            import ml_dtypes

            v = np.array([ml_dtypes.finfo(O.BF16).min], O.BF16)
        elif np.dtype(dt).kind == "f":
            v = np.array([np.finfo(dt).min], dt)
        else:
            v = np.array([np.iinfo(dt).min], dt)
    return v
