# SPDX-License-Identifier: Apache-2.0
"""Differential conformance: maxpool.onnx.max_pool against ONNX Runtime, the
ONNX ReferenceEvaluator and OpenVINO's reference implementation.

maxpool's ONNX rule (window_init FIRST_ELEMENT, with or without Indices): the
window's first element, NaN included, starts the running max; a later x
replaces it when x > best (NaN ignored); a window with no element gives
(lowest, -1) (f16/bf16: -inf). Per case (seeded; geometry, opset, dtype,
value kind drawn at random):

* ONNX Runtime with the Indices output (+I): bit-exact, Y and Indices, NaN
  and all-lowest windows included. Known: ORT rejects pads >= kernel, and
  its SAME_* padding differs from the ONNX text with dilation / k < s.
* ONNX Runtime without Indices (Y-only; MLAS for f32 without dilation):
  bit-exact except at windows holding a NaN, windows where nothing is >
  lowest() (ORT writes its start value) and +0/-0 ties.
* ONNX ReferenceEvaluator on its strided path (not SAME_LOWER, not VALID +
  ceil, not SAME_UPPER with a negative total pad): bit-exact except windows
  with no element (it leaves 0 / NaN there).
* OpenVINO (core reference; every dtype incl. bf16, every geometry incl. pads
  >= kernel): the rule above, derived from OpenVINO pooling the values' order
  ranks (expect.first_element_argmax). Must match everywhere.
* nan="propagate" (FIRST_ELEMENT + PROPAGATE: each later NaN replaces, so the
  window's last NaN wins, a lone leading NaN included): at a window with a
  NaN the bits and index of its last NaN (an oracle pool over NaN
  positions), elsewhere as the rule above.
* Y without Indices equals Y with Indices.
"""
from __future__ import annotations

import os

import numpy as np
import pytest

import oracles as O
from cases import Case, Geometry, make_input, random_batch, random_geometry
from expect import first_element_argmax, global_to, last_nan_index, plane_offset, start_bits, window_any
from recorder import record

if not O.HAVE_OV:
    pytest.skip("openvino is not installed: openvino (the policy oracle and the window facts) needs it", allow_module_level=True)

import maxpool  # noqa: E402

SUITE = "onnx"
N_CASES = int(os.environ.get("MAXPOOL_CONFORMANCE_ONNX", "1500"))
SEED0 = 0x0A11

ONNX_DTYPES = ["float32", "float64", "float16", "bfloat16", "int8", "uint8"]
DTYPE_P = [0.40, 0.12, 0.14, 0.10, 0.12, 0.12]
OPSETS_FOR = {
    "float32": [1, 8, 10, 11, 12, 22],
    "float64": [8, 10, 11, 12, 22],
    "float16": [8, 10, 11, 12, 22],
    "bfloat16": [22],
    "int8": [12, 22],
    "uint8": [12, 22],
}
AUTO_PAD_DRAW = ["explicit", "explicit", "explicit", "valid", "same_upper", "same_lower"]
AUTO_PADS = {"explicit": "NOTSET", "valid": "VALID", "same_upper": "SAME_UPPER", "same_lower": "SAME_LOWER"}


def make_case(i: int) -> Case:
    rng = np.random.default_rng(SEED0 * 100_000 + i)
    rank = int(rng.choice([1, 2, 3], p=[0.3, 0.45, 0.25]))
    dtype = str(rng.choice(ONNX_DTYPES, p=DTYPE_P))
    opset = int(rng.choice(OPSETS_FOR[dtype]))
    roundings = ["floor", "ceil_torch"] if opset >= 10 else ["floor"]
    g, ins = random_geometry(rng, rank, auto_pads=AUTO_PAD_DRAW, roundings=roundings, big_pads_p=0.08,
                             max_in=6 if rank == 3 else 8)
    if g.auto_pad.startswith("same") and rng.random() < 0.6:
        # mostly SAME cases ORT computes per the text too (dilation 1, stride <= kernel)
        g.dilations = [1] * rank
        g.strides = [min(s, k) for s, k in zip(g.strides, g.kernel)]
    if opset < 10:
        g.dilations = [1] * rank
        g, ins = (g, ins) if _valid(g, ins) else _fix(rng, rank, opset)
    n, c = random_batch(rng)
    kind = str(rng.choice(["random", "ties", "special", "lowest"], p=[0.25, 0.35, 0.25, 0.15]))
    extra = {
        "opset": opset,
        "storage_order": int(rng.random() < 0.3) if opset >= 8 else None,
        "omit_defaults": bool(rng.random() < 0.5),
        "seed": int(rng.integers(0, 2**31)),
    }
    return Case(f"onnx{i}", g, (n, c, *ins), dtype, kind, extra["seed"], extra)


def _valid(g, ins):
    from cases import out_sizes, pads_for

    pb, pe = pads_for(g, ins)
    return all(g.ek(i) <= ins[i] + pb[i] + pe[i] for i in range(g.rank)) and min(out_sizes(g, ins)) >= 1


def _fix(rng, rank, opset):
    while True:
        g, ins = random_geometry(rng, rank, auto_pads=AUTO_PAD_DRAW, roundings=["floor"], big_pads_p=0.08)
        g.dilations = [1] * rank
        if _valid(g, ins):
            return g, ins


def onnx_attrs(case: Case) -> dict:
    g = case.geom
    omit = case.extra["omit_defaults"]
    a = {"kernel_shape": list(g.kernel)}
    a["strides"] = None if (omit and all(s == 1 for s in g.strides)) else list(g.strides)
    if g.auto_pad == "explicit":
        pads = list(g.pads_begin) + list(g.pads_end)
        a["pads"] = None if (omit and not any(pads)) else pads
        a["auto_pad"] = None if omit else "NOTSET"
    else:
        a["pads"] = None
        a["auto_pad"] = AUTO_PADS[g.auto_pad]
    if case.extra["opset"] >= 10:
        a["dilations"] = None if (omit and all(d == 1 for d in g.dilations)) else list(g.dilations)
        ceil = 1 if g.rounding == "ceil_torch" else 0
        a["ceil_mode"] = None if (omit and not ceil) else ceil
    so = case.extra["storage_order"]
    if so is not None:
        a["storage_order"] = None if (omit and not so) else so
    return a


def case_input(case: Case) -> np.ndarray:
    rng = np.random.default_rng(case.seed)
    # f64 through OpenVINO's CPU plugin is computed in f32: keep f64 values f32-exact
    return make_input(rng, case.shape, case.dtype, case.kind, f32_exact=case.dtype == "float64")


def run_maxpool(x, attrs, opset, want_idx, nan=None) -> O.OracleResult:
    try:
        out = maxpool.onnx.max_pool(x, **attrs, opset=opset, return_indices=want_idx, nan=nan)
    except (ValueError, maxpool.MaxPoolError) as e:
        return O.OracleResult(error=str(e))
    if want_idx:
        return O.OracleResult(y=out[0], indices=out[1])
    return O.OracleResult(y=out)


def big_pads(g: Geometry) -> bool:
    return g.auto_pad == "explicit" and any(
        p >= k for p, k in zip(list(g.pads_begin) + list(g.pads_end), list(g.kernel) * 2))


def ort_same_differs(g: Geometry, in_sizes) -> bool:
    """ORT's SAME_* padding differs from the ONNX text on some axis."""
    if not g.auto_pad.startswith("same"):
        return False
    for ax, n in enumerate(in_sizes):
        s = g.strides[ax]
        out = -(-n // s)
        if (out - 1) * s + g.kernel[ax] - n != max(0, (out - 1) * s + g.ek(ax) - n):
            return True
    return False


def mp_start(dtype: str) -> np.ndarray:
    return start_bits(dtype, "neg_inf" if dtype in ("float16", "bfloat16") else "lowest")


def _gt_lowest(x: np.ndarray, dtype: str) -> np.ndarray:
    low = start_bits(dtype, "lowest")
    with np.errstate(invalid="ignore"):
        if x.dtype == O.BF16:
            return x.astype(np.float32) > low.astype(np.float32)[0]
        return x > low[0]


def fmt_case(case, attrs, x) -> str:
    with np.errstate(invalid="ignore"):
        xs = x.astype(np.float64).tolist() if O.is_float(x.dtype) else x.tolist()
    return (f"\n  reproducer: maxpool.onnx.max_pool(X, **{attrs}, opset={case.extra['opset']}, return_indices=True)"
            f"\n  X = np.array({xs}, dtype='{case.dtype}')  # shape {x.shape}")


def positions(mask, limit=4):
    return [tuple(int(v) for v in p) for p in np.argwhere(mask)[:limit]]


@pytest.mark.parametrize("i", range(N_CASES))
def test_onnx_conformance(i):
    case = make_case(i)
    g = case.geom
    opset = case.extra["opset"]
    x = case_input(case)
    attrs = onnx_attrs(case)
    want_idx = opset >= 8
    col_major = bool(case.extra["storage_order"])
    failures = []

    mp = run_maxpool(x, attrs, opset, want_idx)
    assert mp.ok, f"maxpool rejected a valid case: {mp.error}{fmt_case(case, attrs, x)}"
    mp_y_only = run_maxpool(x, attrs, opset, False)
    assert mp_y_only.ok, mp_y_only.error
    if O.same_values(mp.y, mp_y_only.y):
        record(SUITE, "self (Y-only == Y+I)", "match")
    else:
        record(SUITE, "self (Y-only == Y+I)", "mismatch")
        failures.append(f"Y without indices differs from Y with indices: {O.describe_diff(mp.y, mp_y_only.y)}")

    # ---- the ONNX rule from OpenVINO: first element starts, '>' replaces, NaN ignored (a NaN first sticks)
    name = "openvino (ONNX rule)"
    fe = first_element_argmax(x, g)
    nonempty = fe >= 0
    exp_y = np.empty(fe.shape, x.dtype)
    O.bits(exp_y)[...] = np.where(nonempty, O.bits(x).reshape(-1)[np.where(nonempty, fe, 0)],
                                  O.bits(mp_start(case.dtype))[0])
    exp_i = global_to(fe, x.shape, axis=0, col_major=col_major)
    if mp.y.shape != exp_y.shape:
        record(SUITE, name, "mismatch")
        failures.append(f"{name}: shape {mp.y.shape} vs OpenVINO {exp_y.shape}")
        nan_win = unbeaten = None
    else:
        bad = O.bits(mp.y) != O.bits(exp_y)
        if want_idx:
            bad |= mp.indices != exp_i
        if bad.any():
            record(SUITE, name, "mismatch")
            p = positions(bad)
            failures.append(
                f"{name}: {int(bad.sum())} positions differ, e.g. {p}: "
                f"maxpool {[(mp.y[q], mp.indices[q] if want_idx else None) for q in p]} expected "
                f"{[(exp_y[q], exp_i[q]) for q in p]}")
        else:
            record(SUITE, name, "match")
        nan_win = window_any(O.nan_mask(x), g) if O.is_float(x.dtype) else np.zeros(mp.y.shape, bool)
        # windows where nothing is > lowest() (only lowest / -inf / NaN): ORT's Y-only kernels write their
        # start value there, maxpool (and ORT+I) the first element
        unbeaten = nonempty & ~window_any(_gt_lowest(x, case.dtype), g)

    # ---- ONNX Runtime
    def cmp_with(name, r, allowed_reasons):
        if name.startswith("onnxruntime") and ort_same_differs(g, x.shape[2:]):
            if r.y.shape != mp.y.shape or (O.bits(r.y) != O.bits(mp.y)).any() or (
                    r.indices is not None and (r.indices != mp.indices).any()):
                record(SUITE, name, "known", "SAME_*: ORT's total pad (out-1)*s + k - in uses the undilated "
                                            "kernel and is not clamped at 0; maxpool follows the ONNX text "
                                            "(as OpenVINO)")
                return
        if r.y.shape != mp.y.shape:
            record(SUITE, name, "mismatch")
            failures.append(f"{name}: shape {r.y.shape} vs maxpool {mp.y.shape}")
            return
        bad = O.bits(r.y) != O.bits(mp.y)
        if r.indices is not None:
            bad |= r.indices != mp.indices
        if not bad.any():
            record(SUITE, name, "match")
            return
        if nan_win is None or not allowed_reasons:
            record(SUITE, name, "mismatch")
            p = positions(bad)
            failures.append(
                f"{name}: {int(bad.sum())} positions differ, e.g. {p}: maxpool "
                f"{[(mp.y[q], mp.indices[q] if mp.indices is not None else None) for q in p]} vs {name} "
                f"{[(r.y[q], r.indices[q] if r.indices is not None else None) for q in p]}")
            return
        reasons = []
        left = bad.copy()
        for label, mask in allowed_reasons:
            if (left & mask).any():
                reasons.append(label)
            left &= ~mask
        if left.any():
            record(SUITE, name, "mismatch")
            p = positions(left)
            failures.append(
                f"{name}: {int(left.sum())} unexplained positions, e.g. {p}: maxpool "
                f"{[(mp.y[q], mp.indices[q] if mp.indices is not None else None) for q in p]} vs {name} "
                f"{[(r.y[q], r.indices[q] if r.indices is not None else None) for q in p]}")
        else:
            record(SUITE, name, "known", " + ".join(reasons))

    def f16_canonical_nan(r):
        """ORT's f16 kernels go through f32 and may write a NaN with other payload bits (signalling NaN
        quieted; some paths write 0x7e00 with the sign); maxpool copies the winner's bits (as OpenVINO)."""
        if case.dtype != "float16" or r.y.shape != mp.y.shape:
            return np.zeros(mp.y.shape, bool)
        mb, rb = O.bits(mp.y), O.bits(r.y)
        m = O.nan_mask(mp.y) & O.nan_mask(r.y) & ((mb & 0x8000) == (rb & 0x8000))
        if r.indices is not None:
            m &= r.indices == mp.indices
        return m

    def ort_empty_index(r):
        """ORT's index of a window with no element: the flat index of the spatial coordinates (-1, ..., -1)
        in the storage order, plus the plane's offset (n*C+c)*S: -W-1 in 2-D, -H*W-W-1 in 3-D; maxpool -1."""
        if r.indices is None or r.y.shape != mp.y.shape or nan_win is None:
            return np.zeros(mp.y.shape, bool)
        sp = list(x.shape[2:])
        strides = [int(np.prod(sp[:a])) if col_major else int(np.prod(sp[a + 1:])) for a in range(len(sp))]
        model = plane_offset(mp.y.shape, x.shape, 0) - sum(strides)
        return ~nonempty & (O.bits(r.y) == O.bits(mp.y)) & (r.indices == model) & (mp.indices == -1)

    F16_NAN = ("f16 NaN bits: ORT's f16 kernels go through f32 and may change a NaN's payload bits (quieting, "
               "canonical 0x7e00); same sign, same index; maxpool copies the winner's bits")
    EMPTY_I = ("window with no element (dilation): ORT's index is the flat index of coordinates (-1, ..., -1) "
               "plus the plane offset (2-D: -W-1); maxpool -1")
    if O.HAVE_ORT and O.HAVE_ONNX and case.dtype in O.ORT_DTYPES.get(opset, ()):
        for with_i in ([True, False] if want_idx else [False]):
            name = "onnxruntime+I" if with_i else "onnxruntime Y-only"
            r = O.onnxruntime_run(x, attrs, opset, with_indices=with_i)
            if not with_i and r.ok and r.y.shape == mp.y.shape and nan_win is not None:
                # ORT without Indices: MLAS (f32) / its own loops start from lowest() (f16: -inf) and
                # compare with max(): NaN by position and lane, the later of two zeros
                with np.errstate(invalid="ignore"):
                    zero_tie = (r.y.astype(np.float64) == 0) & (mp.y.astype(np.float64) == 0)
                allowed_y = [("NaN in window (ORT Y-only: MLAS maxps order / NaN ignored; maxpool: a NaN first "
                              "sticks, as ORT+I)", nan_win),
                             ("nothing > lowest (ORT Y-only writes its start value; maxpool the first element, "
                              "as ORT+I)", unbeaten),
                             ("+0/-0 tie: ORT's Y-only kernel keeps the later zero; maxpool the first in scan "
                              "order (as ORT+I)", zero_tie),
                             (F16_NAN, f16_canonical_nan(r))]
                cmp_with(name, r, allowed_y)
                continue
            if r.error:
                if ort_same_differs(g, x.shape[2:]):
                    record(SUITE, name, "known", "SAME_*: ORT's total pad (out-1)*s + k - in uses the undilated "
                                                "kernel and is not clamped at 0 (here ORT errors); maxpool follows "
                                                "the ONNX text (as OpenVINO)")
                elif big_pads(g):
                    record(SUITE, name, "known", "ORT rejects pads >= kernel; maxpool follows the ONNX text "
                                                 "(any pad >= 0)")
                else:
                    record(SUITE, name, "n/a", "ORT error: " + r.error[:80])
                continue
            # ORT+I: bit-exact, Y and Indices (f16: up to NaN payload bits, same index)
            cmp_with(name, r, [(F16_NAN, f16_canonical_nan(r)), (EMPTY_I, ort_empty_index(r))]
                     if nan_win is not None else [])
    elif O.HAVE_ORT and O.HAVE_ONNX:
        record(SUITE, "onnxruntime+I", "n/a", f"ORT has no {case.dtype} MaxPool kernel at opset {opset}")

    # ---- ONNX ReferenceEvaluator, only where it is known to be right
    if O.HAVE_ONNX:
        strided = any(s != 1 for s in g.strides) or any(d != 1 for d in g.dilations)
        name = "onnx.reference"
        if g.auto_pad == "same_lower":
            record(SUITE, name, "n/a", "ReferenceEvaluator SAME_LOWER: floor(in/s) and SAME_UPPER's split (bug)")
        elif g.auto_pad == "same_upper" and any(
                (-(-n // s) - 1) * s + g.ek(ax) - n < 0 for ax, (n, s) in enumerate(zip(x.shape[2:], g.strides))):
            record(SUITE, name, "n/a", "ReferenceEvaluator SAME_UPPER with a negative total pad: pads not clamped "
                                      "at 0, windows shifted (bug)")
        elif g.auto_pad == "valid" and g.rounding != "floor":
            record(SUITE, name, "known", "ReferenceEvaluator VALID ignores ceil_mode (1 output where ORT and "
                                        "OpenVINO give 2)")
        elif not strided:
            record(SUITE, name, "n/a", "ReferenceEvaluator stride-1 path (CommonPool): per-plane / padded "
                                      "indices, IndexError with pads, NaN filtered")
        else:
            r = O.onnx_reference(x, attrs, opset, with_indices=want_idx)
            if r.error:
                record(SUITE, name, "n/a", "ReferenceEvaluator error: " + r.error[:60])
            else:
                if r.y.dtype != mp.y.dtype:
                    r.y = r.y.astype(mp.y.dtype)
                allowed = []
                if nan_win is not None:
                    allowed = [("window with no element (reference leaves 0 / NaN)", ~nonempty)]
                if not want_idx:
                    r.indices = None
                cmp_with(name, r, allowed)

    # ---- NaN propagation (nan="propagate"): the window's last NaN wins
    if O.is_float(x.dtype) and O.nan_mask(x).any() and nan_win is not None:
        mpp = run_maxpool(x, attrs, opset, want_idx, nan="propagate")
        last = last_nan_index(x, g)
        has = last >= 0
        # FIRST_ELEMENT + PROPAGATE: the first element starts, each later NaN replaces (x > NaN is false),
        # so the window's last NaN wins (a lone NaN in first position included); elsewhere as nan=ignore
        exp_py = exp_y.copy()
        flat_bits = O.bits(x).reshape(-1)
        O.bits(exp_py)[has] = flat_bits[last[has]]
        exp_pi = np.where(has, global_to(last, x.shape, axis=0, col_major=col_major), exp_i)
        bad = O.bits(mpp.y) != O.bits(exp_py)
        if want_idx:
            bad |= mpp.indices != exp_pi
        if bad.any():
            record(SUITE, "openvino (nan=propagate)", "mismatch")
            p = positions(bad)
            failures.append(f"nan=propagate: {int(bad.sum())} positions differ, e.g. {p}: maxpool "
                            f"{[(mpp.y[q], mpp.indices[q] if want_idx else None) for q in p]} expected "
                            f"{[(exp_py[q], exp_pi[q]) for q in p]}")
        else:
            record(SUITE, "openvino (nan=propagate)", "match")

    assert not failures, f"{case!r}\n" + "\n".join(failures) + fmt_case(case, attrs, x)
