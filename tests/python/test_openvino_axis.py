# SPDX-License-Identifier: Apache-2.0
"""Differential tests against OpenVINO for two of its rules:

* MaxPool-8/14 ``axis`` on every dimension, spatial ones included (the
  whole-tensor flat index modulo the product of the dimensions from axis
  on): every axis in [-R, R-1] for input rank 3, 4 and 5, index_element_type
  i32 and i64, both the core reference (Model.evaluate) and the CPU plugin,
  inputs with ties, NaNs, lowest values and windows with no element (large
  pads, dilation gaps), where OpenVINO writes the plane start (0 here).
* A dilated kernel larger than the padded input is an error under every
  rounding_type (MaxPool-1/8/14) with explicit pads or valid, never with
  same_upper / same_lower; maxpool refuses exactly where OpenVINO does and
  otherwise matches its values and indices.
"""
from __future__ import annotations

import itertools

import numpy as np
import pytest

import maxpool
import oracles as O
from cases import make_input
from recorder import record

if not O.HAVE_OV:
    pytest.skip("openvino is not installed", allow_module_level=True)

SUITE = "openvino-axis"


def mp_run(x, version, **attrs):
    try:
        out = maxpool.openvino.max_pool(x, version=version, **attrs)
    except (ValueError, maxpool.MaxPoolError) as e:
        return O.OracleResult(error=str(e))
    if isinstance(out, tuple):
        return O.OracleResult(y=out[0], indices=out[1])
    return O.OracleResult(y=out)


def check_same(name, x, ov, mp, attrs):
    assert mp.ok, f"maxpool rejected what OpenVINO accepts: {mp.error}; {attrs}"
    assert mp.y.shape == ov.y.shape
    bad = O.bits(mp.y) != O.bits(ov.y)
    if ov.indices is not None:
        assert mp.indices.dtype == ov.indices.dtype
        bad |= mp.indices != ov.indices
    record(SUITE, name, "mismatch" if bad.any() else "match")
    if bad.any():
        p = [tuple(int(v) for v in q) for q in np.argwhere(bad)[:4]]
        pytest.fail(f"{name}: {int(bad.sum())} positions differ, e.g. {p}: maxpool "
                    f"{[(mp.y[q], mp.indices[q]) for q in p]} vs OpenVINO {[(ov.y[q], ov.indices[q]) for q in p]}; "
                    f"attrs {attrs}; x = {x.tolist()}")


AXIS_CASES = []
for rank in (1, 2, 3):
    R = rank + 2
    for axis in range(-R, R):
        for it in ("i32", "i64"):
            AXIS_CASES.append((rank, axis, it))


@pytest.mark.parametrize("rank,axis,it", AXIS_CASES)
def test_axis_every_dimension(rank, axis, it):
    rng = np.random.default_rng(1000 + 97 * rank + 13 * (axis + 5) + (it == "i32"))
    shapes = {1: (2, 3, 7), 2: (2, 2, 5, 4), 3: (1, 2, 3, 4, 3)}
    geoms = [  # kernel, strides, dilations, pads_begin, pads_end, rounding
        ([2] * rank, [1] * rank, [1] * rank, [1] * rank, [0] * rank, "floor"),
        ([3] * rank, [2] * rank, [1] * rank, [0] * rank, [1] * rank, "ceil"),
        ([2] * rank, [2] * rank, [2] * rank, [3] * rank, [3] * rank, "floor"),  # windows with no element
        ([3] * rank, [2] * rank, [1] * rank, [1] * rank, [1] * rank, "ceil_torch"),
    ]
    for (k, s, d, pb, pe, rt), kind in itertools.product(geoms, ["random", "ties", "special", "lowest"]):
        x = make_input(rng, shapes[rank], "float32", kind)
        attrs = dict(kernel=k, strides=s, dilations=d, pads_begin=pb, pads_end=pe, rounding_type=rt,
                     index_element_type=it, axis=axis)
        mp = mp_run(x, 14, **attrs)
        for backend in ("reference", "cpu"):
            ov = O.openvino_max_pool(x, version=14, backend=backend, **attrs)
            assert ov.ok, ov.error
            check_same(f"axis-{backend}", x, ov, mp, attrs)
    # MaxPool-8, integer input, the core reference
    x = make_input(rng, shapes[rank], "int32", "ties")
    attrs = dict(kernel=[2] * rank, strides=[1] * rank, dilations=[1] * rank, pads_begin=[0] * rank,
                 pads_end=[1] * rank, index_element_type=it, axis=axis)
    check_same("axis-v8-i32-reference", x, O.openvino_max_pool(x, version=8, backend="reference", **attrs),
               mp_run(x, 8, **attrs), attrs)


def test_axis_threads():
    """The index post-pass on several threads (a tensor above the parallel threshold)."""
    rng = np.random.default_rng(5)
    x = rng.standard_normal((2, 8, 64, 80)).astype(np.float32)
    for axis in (3, -1, 2):
        attrs = dict(kernel=[3, 3], strides=[2, 2], pads_begin=[1, 1], pads_end=[1, 1], index_element_type="i32",
                     axis=axis)
        ov = O.openvino_max_pool(x, version=14, backend="cpu", **attrs)
        for threads in (None, 2):
            out = maxpool.openvino.max_pool(x, version=14, threads=threads, **attrs)
            check_same("axis-threads", x, ov, O.OracleResult(y=out[0], indices=out[1]), attrs)


KERNEL_FITS = []
for version in (1, 8, 14):
    for rt in ["floor", "ceil"] + (["ceil_torch"] if version == 14 else []):
        for ap in ("explicit", "valid", "same_upper", "same_lower"):
            for geo in [(3, 2, 0, 0, 1), (3, 1, 0, 0, 1), (2, 1, 0, 0, 2), (3, 2, 1, 0, 1), (4, 1, 1, 0, 1),
                        (3, 3, 0, 0, 1), (5, 2, 1, 1, 1), (2, 3, 1, 0, 3)]:
                if version == 1 and geo[4] != 1:
                    continue
                KERNEL_FITS.append((version, rt, ap, geo))


@pytest.mark.parametrize("version,rt,ap,geo", KERNEL_FITS)
def test_kernel_larger_than_padded_input(version, rt, ap, geo):
    k, s, pb, pe, dil = geo
    x = np.array([[[5, 7]]], np.float32)
    attrs = dict(kernel=[k], strides=[s], pads_begin=[pb], pads_end=[pe], rounding_type=rt, auto_pad=ap)
    if version != 1:
        attrs["dilations"] = [dil]
    mp = mp_run(x, version, **attrs)
    for backend in ("reference", "cpu"):
        ov = O.openvino_max_pool(x, version=version, backend=backend, **attrs)
        if not ov.ok:
            ok = not mp.ok
            record(SUITE, "kernel-fits", "match" if ok else "mismatch")
            assert ok, f"OpenVINO rejects ({ov.error[-120:]}), maxpool gives {mp.y}; {attrs}"
            continue
        check_same("kernel-fits", x, ov, mp, attrs)
