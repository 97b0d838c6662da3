# SPDX-License-Identifier: Apache-2.0
"""Seeded random case generation for the differential conformance tests.

A case is a window geometry (kernel, strides, dilations, pads, auto_pad,
rounding) plus an input shape, an element type and an input-value kind. The
same generator feeds the ONNX, OpenVINO and adaptive tests; each test maps a
case to its front-end's attribute names.

Value kinds:
  random   -- values spread over the type's range (few ties)
  ties     -- small integers in [-3, 3] (many ties: first-in-scan-order rule)
  special  -- floats: +-inf, NaN (several payloads), -0.0/+0.0, the type's
              lowest/highest; ints: many lowest/highest values
  lowest   -- mostly the type's lowest value (and -inf for floats): windows
              where nothing beats the start value
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import List

import numpy as np

from oracles import BF16

FLOAT_TYPES = ("float32", "float64", "float16", "bfloat16")
INT_TYPES = ("int8", "uint8", "int16", "uint16", "int32", "int64")


def np_dtype(name: str) -> np.dtype:
    return BF16 if name == "bfloat16" else np.dtype(name)


@dataclass
class Geometry:
    rank: int
    kernel: List[int]
    strides: List[int]
    dilations: List[int]
    pads_begin: List[int]
    pads_end: List[int]
    auto_pad: str  # "explicit", "valid", "same_upper", "same_lower"
    rounding: str  # "floor", "ceil" (OV only), "ceil_torch"

    def ek(self, i):
        return (self.kernel[i] - 1) * self.dilations[i] + 1


@dataclass
class Case:
    cid: str
    geom: Geometry
    shape: tuple
    dtype: str
    kind: str
    seed: int
    extra: dict = field(default_factory=dict)

    def input(self) -> np.ndarray:
        return make_input(np.random.default_rng(self.seed), self.shape, self.dtype, self.kind)

    def __repr__(self):  # compact for pytest ids / failure messages
        g = self.geom
        return (f"{self.cid}[{self.dtype} {self.kind} X{self.shape} k{g.kernel} s{g.strides} d{g.dilations} "
                f"pb{g.pads_begin} pe{g.pads_end} {g.auto_pad} {g.rounding} {self.extra}]")


# --------------------------------------------------------------------------
# spec arithmetic (from the spec texts; used to keep generated cases valid
# and to compute the documented index of windows with no input element)
# --------------------------------------------------------------------------


def pads_for(g: Geometry, in_sizes) -> tuple:
    """(pads_begin, pads_end) actually used, per the ONNX/OpenVINO texts."""
    if g.auto_pad == "explicit":
        return list(g.pads_begin), list(g.pads_end)
    if g.auto_pad == "valid":
        return [0] * g.rank, [0] * g.rank
    pb, pe = [], []
    for i, n in enumerate(in_sizes):
        out = -(-n // g.strides[i])
        total = max(0, (out - 1) * g.strides[i] + g.ek(i) - n)
        small, big = total // 2, total - total // 2
        if g.auto_pad == "same_upper":
            pb.append(small)
            pe.append(big)
        else:
            pb.append(big)
            pe.append(small)
    return pb, pe


def out_sizes(g: Geometry, in_sizes) -> List[int]:
    pb, pe = pads_for(g, in_sizes)
    outs = []
    for i, n in enumerate(in_sizes):
        if g.auto_pad in ("same_upper", "same_lower"):
            outs.append(-(-n // g.strides[i]))
            continue
        span = n + pb[i] + pe[i] - g.ek(i)
        s = g.strides[i]
        if g.rounding == "floor":
            o = span // s + 1 if span >= 0 else 0
        else:
            o = -(-span // s) + 1 if span >= 0 else 0
            if g.rounding == "ceil_torch" and o > 0 and (o - 1) * s >= n + pb[i]:
                o -= 1
        outs.append(o)
    return outs


def first_tap_index(g: Geometry, in_sizes, out_shape_spatial, storage_col_major=False) -> np.ndarray:
    """Per output position: the spatial flat index (row-major) of the window's
    first tap at or after 0 on every axis (PyTorch's leftover maxindex).
    Only meaningful for windows the caller knows to be empty."""
    pb, _ = pads_for(g, in_sizes)
    per_axis = []
    for i, (n, o) in enumerate(zip(in_sizes, out_shape_spatial)):
        starts = np.arange(o) * g.strides[i] - pb[i]
        d = g.dilations[i]
        first = np.where(starts < 0, starts + ((-starts + d - 1) // d) * d, starts)
        per_axis.append(first)
    grids = np.meshgrid(*per_axis, indexing="ij")
    flat = np.zeros(grids[0].shape, np.int64)
    for i, n in enumerate(in_sizes):
        flat = flat * n + grids[i]
    return flat


# --------------------------------------------------------------------------
# input values
# --------------------------------------------------------------------------

_F16_NAN_PAYLOADS = [0x7E00, 0x7E01, 0xFE00, 0x7C01, 0xFFFF]
_BF16_NAN_PAYLOADS = [0x7FC0, 0x7FC1, 0xFFC0, 0x7F81, 0xFFFF]
_F32_NAN_PAYLOADS = [0x7FC00000, 0x7FC00001, 0xFFC00000, 0x7F800001, 0xFFFFFFFF]
_F64_NAN_PAYLOADS = [0x7FF8000000000000, 0x7FF8000000000001, 0xFFF8000000000000, 0x7FF0000000000001]


def _nan_bits(dtype_name):
    return {"float16": (_F16_NAN_PAYLOADS, np.uint16), "bfloat16": (_BF16_NAN_PAYLOADS, np.uint16),
            "float32": (_F32_NAN_PAYLOADS, np.uint32), "float64": (_F64_NAN_PAYLOADS, np.uint64)}[dtype_name]


def type_lowest(dtype_name):
    if dtype_name in INT_TYPES:
        return np.iinfo(np.dtype(dtype_name)).min
    if dtype_name == "bfloat16":
        import ml_dtypes

        return float(ml_dtypes.finfo(BF16).min)
    return float(np.finfo(np.dtype(dtype_name)).min)


def type_highest(dtype_name):
    if dtype_name in INT_TYPES:
        return np.iinfo(np.dtype(dtype_name)).max
    if dtype_name == "bfloat16":
        import ml_dtypes

        return float(ml_dtypes.finfo(BF16).max)
    return float(np.finfo(np.dtype(dtype_name)).max)


def make_input(rng: np.random.Generator, shape, dtype_name: str, kind: str, f32_exact: bool = False) -> np.ndarray:
    """f32_exact: every value exactly representable in f32 and finite-or-NaN
    (for the OpenVINO CPU plugin, which computes f64 in f32 and clamps inf)."""
    size = int(np.prod(shape))
    dt = np_dtype(dtype_name)
    isfloat = dtype_name in FLOAT_TYPES
    if kind == "ties":
        vals = rng.integers(-3, 4, size).astype(np.float64)
        if dtype_name.startswith("uint"):
            vals = vals + 3
    elif kind == "random":
        if isfloat:
            vals = rng.standard_normal(size) * 100.0
            if f32_exact or dtype_name in ("float16", "bfloat16"):
                vals = vals.astype(np.float32).astype(np.float64)
        else:
            info = np.iinfo(dt)
            lo, hi = int(info.min), int(info.max)
            if f32_exact:
                lo, hi = max(lo, -(2**31)), min(hi, 2**31 - 1)
            vals = rng.integers(lo, hi, size, endpoint=True, dtype=np.int64)
            return vals.astype(dt).reshape(shape)
    elif kind in ("special", "lowest"):
        if isfloat:
            lowest, highest = type_lowest(dtype_name), type_highest(dtype_name)
            if kind == "special":
                pool = [-np.inf, np.inf, np.nan, -0.0, 0.0, 1.0, -1.0, 2.0, lowest, highest]
                p = [0.12, 0.08, 0.15, 0.1, 0.1, 0.1, 0.1, 0.1, 0.08, 0.07]
            else:
                pool = [-np.inf, lowest, np.nan, -1.0, 5.0]
                p = [0.35, 0.35, 0.1, 0.1, 0.1]
            if f32_exact:
                pool = [v for v in pool if not (isinstance(v, float) and (math.isinf(v) or abs(v) > 3e38))]
                pool += [-3.0, 7.0] if kind == "special" else [-9.0]
                p = None
            vals = rng.choice(np.array(pool, np.float64), size, p=p)
        else:
            info = np.iinfo(dt)
            lo, hi = int(info.min), int(info.max)
            if f32_exact:
                lo, hi = max(lo, -(2**31)), min(hi, 2**31 - 1)
            if kind == "special":
                pool = np.array([lo, lo, hi, 0, 1, lo + 1, hi - 1], np.int64)
            else:
                pool = np.array([lo, lo, lo, lo, 3], np.int64)
            return rng.choice(pool, size).astype(dt).reshape(shape)
    else:
        raise ValueError(kind)
    if not isfloat:
        return vals.astype(np.int64).astype(dt).reshape(shape)
    with np.errstate(over="ignore", invalid="ignore"):
        arr = vals.astype(np.float32).astype(dt) if dtype_name == "bfloat16" else vals.astype(dt)
    # give NaNs a variety of payloads / signs so payload propagation is checked
    nan_at = np.flatnonzero(np.isnan(vals))
    if nan_at.size:
        payloads, ut = _nan_bits(dtype_name)
        bits = arr.view(ut).reshape(-1)
        bits[nan_at] = rng.choice(np.array(payloads, dtype=ut), nan_at.size)
    return arr.reshape(shape)


# --------------------------------------------------------------------------
# geometry generation
# --------------------------------------------------------------------------


def random_geometry(rng, rank, *, auto_pads, roundings, big_pads_p=0.1, max_in=7):
    """A geometry and spatial input sizes whose output is non-empty."""
    for _ in range(1000):
        kernel = [int(rng.choice([1, 2, 2, 3, 3, 4])) for _ in range(rank)]
        strides = [int(rng.choice([1, 1, 2, 2, 3])) for _ in range(rank)]
        dilations = [int(rng.choice([1, 1, 1, 2, 3])) for _ in range(rank)]
        auto_pad = str(rng.choice(auto_pads))
        rounding = str(rng.choice(roundings))
        big = rng.random() < big_pads_p
        pb, pe = [], []
        for i in range(rank):
            lim = kernel[i] - 1  # ORT: pad < kernel
            if big:
                lim = kernel[i] + (kernel[i] - 1) * (dilations[i] - 1) + 1
            pb.append(int(rng.integers(0, lim + 1)))
            pe.append(int(rng.integers(0, lim + 1)))
        g = Geometry(rank, kernel, strides, dilations, pb, pe, auto_pad, rounding)
        ins = [int(rng.integers(1, max_in + 1)) for _ in range(rank)]
        pbu, peu = pads_for(g, ins)
        if any(g.ek(i) > ins[i] + pbu[i] + peu[i] for i in range(rank)):
            continue
        outs = out_sizes(g, ins)
        if min(outs) < 1:
            continue
        return g, ins
    raise RuntimeError("no geometry found")


def random_batch(rng, max_n=2, max_c=3):
    return int(rng.integers(1, max_n + 1)), int(rng.integers(1, max_c + 1))


def kinds_for(dtype_name):
    return ("random", "ties", "special", "lowest")
