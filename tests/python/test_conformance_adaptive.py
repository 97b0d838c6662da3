# SPDX-License-Identifier: Apache-2.0
"""Differential conformance: maxpool.adaptive_max_pool against OpenVINO
AdaptiveMaxPool-8 (CPU plugin; the core reference has no evaluate for it).

OpenVINO's CPU kernel takes the window's first element as the start and
compares with '>' (ties to the first element; a NaN in first position
sticks). PyTorch's adaptive_max_pool (flavors "torch" and "aclnn") starts
from -inf with the first index and lets NaN win (last NaN). So:

* flavor "openvino" (window_init FIRST_ELEMENT, NaN ignored): OpenVINO's
  output exactly, everywhere (NaN windows and all -inf / lowest windows too).
* flavors "torch"/"aclnn": OpenVINO's output at windows without NaN; at a
  window with a NaN, the bits and index of its last NaN (an oracle pool over
  NaN positions finds it).
* index_dtype int64: the CPU plugin has no i64 AdaptiveMaxPool; the i32
  oracle indices are compared as int64 (values identical by definition).
"""
from __future__ import annotations

import os

import numpy as np
import pytest

import maxpool
import oracles as O
from cases import make_input, random_batch
from recorder import record

if not O.HAVE_OV:
    pytest.skip("openvino is not installed: openvino needs it", allow_module_level=True)

SUITE = "adaptive"
N_CASES = int(os.environ.get("MAXPOOL_CONFORMANCE_ADAPTIVE", "700"))
SEED0 = 0xADA

DTYPES = ["float32", "float16", "bfloat16", "float64", "int8", "uint8", "int16", "uint16", "int32", "int64"]
DTYPE_P = [0.30, 0.12, 0.10, 0.06, 0.09, 0.09, 0.05, 0.05, 0.08, 0.06]
ACLNN_DTYPES = ("float32", "float16", "bfloat16")


def make_case(i: int):
    rng = np.random.default_rng(SEED0 * 100_000 + i)
    flavor = str(rng.choice(["openvino", "torch", "aclnn"], p=[0.4, 0.4, 0.2]))
    rank = 3 if flavor == "aclnn" else int(rng.choice([1, 2, 3], p=[0.3, 0.45, 0.25]))
    dtype = str(rng.choice(ACLNN_DTYPES)) if flavor == "aclnn" else str(rng.choice(DTYPES, p=DTYPE_P))
    ins = [int(rng.integers(1, 7 if rank == 3 else 10)) for _ in range(rank)]
    outs = [int(rng.integers(1, n + 3)) for n in ins]
    n, c = random_batch(rng)
    kind = str(rng.choice(["random", "ties", "special", "lowest"], p=[0.25, 0.35, 0.25, 0.15]))
    index = {"openvino": ["default", "i32", "i64"], "torch": ["default", "i64"],  # PyTorch: int64 only
             "aclnn": ["default", "i32"]}[flavor]
    index = str(rng.choice(index))
    return dict(i=i, flavor=flavor, dtype=dtype, shape=(n, c, *ins), out=outs, kind=kind, index=index,
                seed=int(rng.integers(0, 2**31)))


def case_input(case) -> np.ndarray:
    rng = np.random.default_rng(case["seed"])
    # the CPU plugin computes f64 in f32 (clamping +-inf) and i64 in i32: keep such values exact
    x = make_input(rng, case["shape"], case["dtype"], case["kind"], f32_exact=case["dtype"] in ("float64", "int64"))
    if case["dtype"] in ("int32", "int64"):
        # the CPU plugin's AdaptiveMaxPool computes integers in f32: keep every value f32-exact
        # (|v| <= 2**24, or -2**31 itself); shifting keeps the order and most ties
        v = x.astype(np.int64)
        big = (np.abs(v) > 2**24) & (v != -(2**31))
        x = np.where(big, v >> 8, v).astype(x.dtype)
    return x


def index_dtype_of(case):
    if case["index"] == "default":
        return np.int32 if case["flavor"] == "aclnn" else np.int64
    return np.int32 if case["index"] == "i32" else np.int64


def run_maxpool(x, case, nan=None):
    idt = None if case["index"] == "default" else (np.int32 if case["index"] == "i32" else np.int64)
    try:
        y, ind = maxpool.adaptive_max_pool(x, case["out"], index_dtype=idt, flavor=case["flavor"], nan=nan)
    except (ValueError, maxpool.MaxPoolError) as e:
        return O.OracleResult(error=str(e))
    return O.OracleResult(y=y, indices=ind)


def ov(x, out):
    r = O.openvino_adaptive_max_pool(x, out, "i32")
    assert r.ok, f"OpenVINO AdaptiveMaxPool failed: {r.error}"
    return r


def plane_positions(shape):
    S = int(np.prod(shape[2:]))
    return np.broadcast_to(np.arange(S, dtype=np.float64).reshape(shape[2:]), shape).astype(np.float32)


def fmt(case, x):
    with np.errstate(invalid="ignore"):
        xs = x.astype(np.float64).tolist() if O.is_float(x.dtype) else x.tolist()
    return (f"\n  reproducer: maxpool.adaptive_max_pool(X, {case['out']}, flavor={case['flavor']!r}, "
            f"index_dtype={case['index']!r})\n  X = np.array({xs}, dtype='{case['dtype']}')  # shape {x.shape}")


@pytest.mark.parametrize("i", range(N_CASES))
def test_adaptive_conformance(i):
    case = make_case(i)
    x = case_input(case)
    mp = run_maxpool(x, case)
    assert mp.ok, f"maxpool rejected a valid case: {mp.error}{fmt(case, x)}"
    want_idt = np.dtype(index_dtype_of(case))
    assert mp.indices.dtype == want_idt, f"index dtype {mp.indices.dtype}, expected {want_idt}"
    name = f"openvino8-cpu ({case['flavor']}{', i64 as i32' if want_idt == np.int64 else ''})"

    r = ov(x, case["out"])
    if r.y.shape != mp.y.shape:
        record(SUITE, name, "mismatch")
        pytest.fail(f"shape {mp.y.shape} vs OpenVINO {r.y.shape}{fmt(case, x)}")
    oi = r.indices.astype(want_idt)
    bad = (O.bits(mp.y) != O.bits(r.y)) | (mp.indices != oi)
    if not bad.any():
        record(SUITE, name, "match")
        return

    failures = []
    if case["flavor"] != "openvino":
        isfloat = O.is_float(x.dtype)
        nan_win = (ov(O.nan_mask(x).astype(np.float32), case["out"]).y > 0.5 if isfloat
                   else np.zeros(bad.shape, bool))
    if case["flavor"] == "openvino":
        # flavor "openvino" is OpenVINO's rule (window_init FIRST_ELEMENT, NaN ignored, -inf start for
        # windows with no element -- there are none in adaptive pooling): OpenVINO's output exactly,
        # NaN windows and windows of only lowest / -inf included
        # the CPU plugin computes f16/bf16/f64 in f32: a NaN result may come back with other payload bits
        # (signalling NaN quieted, f64 payload truncated); same sign and index required
        nan_bits = 0
        if O.is_float(x.dtype):
            with np.errstate(invalid="ignore"):
                nan_bits = (O.nan_mask(mp.y) & O.nan_mask(r.y) & (mp.indices == oi) &
                            (np.signbit(mp.y.astype(np.float32)) == np.signbit(r.y.astype(np.float32))))
        bad &= ~nan_bits
        if not bad.any():
            record(SUITE, name, "known", "NaN payload bits: the CPU plugin computes f16/bf16/f64 in f32 (sNaN "
                                        "quieted, f64 payload truncated); same NaN sign and index; maxpool copies "
                                        "the winner's bits")
            return
        record(SUITE, name, "mismatch")
        p = [tuple(int(v) for v in q) for q in np.argwhere(bad)[:4]]
        failures.append(f"{name}: {int(bad.sum())} positions differ, e.g. {p}: "
                        f"maxpool {[(mp.y[q], mp.indices[q]) for q in p]} vs OpenVINO "
                        f"{[(r.y[q], oi[q]) for q in p]}")
    else:
        # torch / aclnn: NaN propagates: the window's last NaN (bits and index)
        if (bad & ~nan_win).any():
            record(SUITE, name, "mismatch")
            p = [tuple(int(v) for v in q) for q in np.argwhere(bad & ~nan_win)[:4]]
            failures.append(f"{name}: {int((bad & ~nan_win).sum())} positions without NaN differ, e.g. {p}: "
                            f"maxpool {[(mp.y[q], mp.indices[q]) for q in p]} vs OpenVINO "
                            f"{[(r.y[q], oi[q]) for q in p]}")
        z = np.where(O.nan_mask(x), plane_positions(x.shape), -1.0).astype(np.float32)
        rz = ov(z, case["out"])
        last = rz.indices.astype(np.int64)  # per-plane index of the last NaN (where rz.y >= 0)
        has = rz.y >= 0
        N, C = x.shape[:2]
        S = int(np.prod(x.shape[2:]))
        plane = (np.arange(N * C).reshape(N, C) * S).reshape((N, C) + (1,) * (x.ndim - 2))
        flat = O.bits(x).reshape(-1)
        exp_bits = flat[np.where(has, last + plane, 0)]
        badn = has & ((O.bits(mp.y) != exp_bits) | (mp.indices != last.astype(want_idt)))
        if badn.any():
            record(SUITE, name + " NaN (last NaN)", "mismatch")
            p = [tuple(int(v) for v in q) for q in np.argwhere(badn)[:4]]
            failures.append(f"NaN windows: {int(badn.sum())} differ from the last NaN, e.g. {p}: maxpool "
                            f"{[(mp.y[q], mp.indices[q]) for q in p]} expected index {[last[q] for q in p]}")
        elif not (bad & ~nan_win).any():
            record(SUITE, name, "known", "NaN in window: PyTorch semantics (last NaN wins) checked via an "
                                        "oracle pool over NaN positions; OpenVINO ignores NaN after the first "
                                        "element")
    assert not failures, "\n".join(failures) + fmt(case, x)
