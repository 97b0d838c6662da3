# SPDX-License-Identifier: Apache-2.0
"""Differential conformance: maxpool.openvino.max_pool against OpenVINO
MaxPool-1/8/14, both its core reference implementation (Model.evaluate) and
its CPU plugin (compile_model, inference precision pinned to the input's).

Expected: OpenVINO's values and indices bit-exactly, for every rounding_type
(floor / ceil / ceil_torch), auto_pad, axis (0 .. R-1 and negative, spatial dimensions included),
index_element_type (i32 / i64) and element type each backend computes
exactly -- including a window in which nothing beats the start value
lowest() (all elements lowest / -inf / NaN, or no element at all), where
OpenVINO writes the index of the plane's first element
(MAXPOOL_EMPTY_INDEX_PLANE_START). Oracle artefacts (f64 computed in f32 by
the CPU plugin; its i16/u16 kernel) are recorded as such.
"""
from __future__ import annotations

import os

import numpy as np
import pytest

import maxpool
import oracles as O
from cases import Case, make_input, pads_for, random_batch, random_geometry
from expect import global_to, last_nan_index, plane_offset, window_nonempty
from recorder import record

if not O.HAVE_OV:
    pytest.skip("openvino is not installed: openvino needs it", allow_module_level=True)

SUITE = "openvino"
N_CASES = int(os.environ.get("MAXPOOL_CONFORMANCE_OPENVINO", "1200"))
SEED0 = 0x0B8

DTYPES = ["float32", "float16", "bfloat16", "float64", "int8", "uint8", "int16", "uint16", "int32", "int64"]
DTYPE_P = [0.30, 0.10, 0.08, 0.07, 0.10, 0.10, 0.05, 0.05, 0.08, 0.07]
# element types each backend computes exactly (see oracles.OV_CPU_EXACT_DTYPES; f64 is exact on the CPU
# plugin only for f32-representable finite values, which the generator then uses)
REF_DTYPES = {1: {"float32", "float16", "bfloat16", "int32", "int64"},
              8: {"float32", "float16", "bfloat16", "int8", "uint8", "int32", "int64"},
              14: {"float32", "float16", "bfloat16", "int8", "uint8", "int32", "int64"}}
CPU_DTYPES = O.OV_CPU_EXACT_DTYPES | {"float64"}


def make_case(i: int) -> Case:
    rng = np.random.default_rng(SEED0 * 100_000 + i)
    rank = int(rng.choice([1, 2, 3], p=[0.3, 0.45, 0.25]))
    dtype = str(rng.choice(DTYPES, p=DTYPE_P))
    version = int(rng.choice([1, 8, 14], p=[0.2, 0.35, 0.45]))
    roundings = {1: ["floor", "ceil"], 8: ["floor", "ceil"], 14: ["floor", "ceil", "ceil_torch"]}[version]
    g, ins = random_geometry(rng, rank, auto_pads=["explicit", "explicit", "valid", "same_upper", "same_lower"],
                             roundings=roundings, big_pads_p=0.15, max_in=6 if rank == 3 else 8)
    if version == 1 and any(d != 1 for d in g.dilations):
        g.dilations = [1] * rank
        from cases import out_sizes

        pb, pe = pads_for(g, ins)
        if any(g.ek(a) > ins[a] + pb[a] + pe[a] for a in range(rank)) or min(out_sizes(g, ins)) < 1:
            ins = [max(n, k + 1) for n, k in zip(ins, g.kernel)]
    n, c = random_batch(rng)
    R = rank + 2
    axis = int(rng.choice([0, 0, 0, 1, 1, 2, 2, -R, -R + 1, -R + 2, R - 1, -1], p=[0.1] * 10 + [0.0] * 2)
               if rng.random() < 0.95 else rng.choice([R - 1, -1]))
    kind = str(rng.choice(["random", "ties", "special", "lowest"], p=[0.25, 0.35, 0.25, 0.15]))
    extra = {"version": version, "axis": axis, "index_element_type": str(rng.choice(["i64", "i32", "default"])),
             "seed": int(rng.integers(0, 2**31)), "cpu_draw": float(rng.random())}
    return Case(f"ov{i}", g, (n, c, *ins), dtype, kind, extra["seed"], extra)


def ov_attrs(case: Case) -> dict:
    g = case.geom
    explicit = g.auto_pad == "explicit"
    a = dict(kernel=list(g.kernel), strides=list(g.strides),
             pads_begin=list(g.pads_begin) if explicit else [0] * g.rank,
             pads_end=list(g.pads_end) if explicit else [0] * g.rank,
             rounding_type=g.rounding, auto_pad=g.auto_pad)
    if case.extra["version"] != 1:
        a["dilations"] = list(g.dilations)
        a["axis"] = case.extra["axis"]
        it = case.extra["index_element_type"]
        a["index_element_type"] = "i64" if it == "default" else it
    return a


def case_input(case: Case) -> np.ndarray:
    rng = np.random.default_rng(case.seed)
    return make_input(rng, case.shape, case.dtype, case.kind, f32_exact=case.dtype == "float64")


def run_maxpool(x, case, attrs, nan=None) -> O.OracleResult:
    kw = dict(attrs)
    if case.extra["version"] != 1 and case.extra["index_element_type"] == "default":
        kw.pop("index_element_type")
    try:
        out = maxpool.openvino.max_pool(x, version=case.extra["version"], nan=nan, **kw)
    except (ValueError, maxpool.MaxPoolError) as e:
        return O.OracleResult(error=str(e))
    if isinstance(out, tuple):
        return O.OracleResult(y=out[0], indices=out[1])
    return O.OracleResult(y=out)


def fmt_case(case, attrs, x) -> str:
    with np.errstate(invalid="ignore"):
        xs = x.astype(np.float64).tolist() if O.is_float(x.dtype) else x.tolist()
    return (f"\n  reproducer: maxpool.openvino.max_pool(X, version={case.extra['version']}, **{attrs})"
            f"\n  X = np.array({xs}, dtype='{case.dtype}')  # shape {x.shape}")


def ov_start_bits(dtype, backend):
    from expect import start_bits

    if dtype in ("float16", "bfloat16"):
        return start_bits(dtype, "neg_inf")  # lowest() computed in f32 narrows to -inf
    if dtype == "float64":
        return start_bits(dtype, "flt_lowest_as_f64")  # the CPU plugin computes f64 in f32
    return start_bits(dtype, "lowest")


@pytest.mark.parametrize("i", range(N_CASES))
def test_openvino_conformance(i):
    case = make_case(i)
    g = case.geom
    version = case.extra["version"]
    x = case_input(case)
    attrs = ov_attrs(case)
    R = x.ndim
    axis = case.extra["axis"] % R if version != 1 else 0
    failures = []

    mp = run_maxpool(x, case, attrs)
    assert mp.ok, f"maxpool rejected a valid case: {mp.error}{fmt_case(case, attrs, x)}"

    backends = []
    if case.dtype in REF_DTYPES[version]:
        backends.append("reference")
    # compile_model costs ~0.1 s: the CPU plugin runs on every case without an exact core reference and
    # on a quarter of the others
    cpu_wanted = not backends or case.extra["cpu_draw"] < 0.25
    if cpu_wanted and case.dtype in CPU_DTYPES and not (case.dtype == "int64") and not (
            version == 1 and case.dtype == "int32"):
        # (the CPU plugin's MaxPool-1 computes padded i32 windows in f32: 2147483646 -> 2147483520)
        backends.append("cpu")
    if not backends:
        record(SUITE, "openvino", "n/a", f"no exact OpenVINO backend for {case.dtype}")

    for backend in backends:
        name = f"openvino{version}-{backend}"
        ov = O.openvino_max_pool(x, version=version, backend=backend, **attrs)
        if ov.error:
            record(SUITE, name, "n/a", "OpenVINO error: " + ov.error[:80])
            continue
        if ov.y.shape != mp.y.shape:
            record(SUITE, name, "mismatch")
            failures.append(f"{name}: shape {ov.y.shape} vs maxpool {mp.y.shape}")
            continue
        bad_y = O.bits(ov.y) != O.bits(mp.y)
        bad_i = np.zeros_like(bad_y)
        if version != 1:
            if mp.indices.dtype != ov.indices.dtype:
                record(SUITE, name, "mismatch")
                failures.append(f"{name}: index dtype {mp.indices.dtype} vs {ov.indices.dtype}")
                continue
            bad_i = mp.indices != ov.indices
        if not bad_y.any() and not bad_i.any():
            record(SUITE, name, "match")
            continue
        if bad_y.any() and backend == "cpu" and case.dtype in ("int16", "uint16"):
            empty = ~window_nonempty(x.shape, g)
            if not (bad_y & ~empty).any() and (ov.y[empty] == 0).all():
                record(SUITE, name, "n/a", "OpenVINO CPU plugin i16/u16: a window with no element gives 0, not "
                                          "lowest() (no core reference for i16 to compare with)")
                continue
        f64_lowest = None
        if bad_y.any() and backend == "cpu" and case.dtype == "float64":
            # the CPU plugin computes f64 in f32: its lowest() is -FLT_MAX; maxpool keeps f64's lowest,
            # which is OpenVINO's own (core) semantics, numeric_limits<double>::lowest()
            f64_lowest = (ov.y == np.finfo(np.float32).min) & (mp.y == np.finfo(np.float64).min)
            if not (bad_y & ~f64_lowest).any():
                bad_y = np.zeros_like(bad_y)
        if bad_y.any():
            record(SUITE, name, "mismatch")
            p = [tuple(int(v) for v in q) for q in np.argwhere(bad_y)[:4]]
            failures.append(f"{name}: values differ at {int(bad_y.sum())} positions, e.g. {p}: maxpool "
                            f"{[mp.y[q] for q in p]} vs OpenVINO {[ov.y[q] for q in p]}")
            continue
        # only indices differ
        unbeaten = O.bits(ov.y) == O.bits(ov_start_bits(case.dtype, backend))[0]
        if not bad_i.any():
            record(SUITE, name, "known", "f64 on the CPU plugin: lowest() is -FLT_MAX (computed in f32); maxpool "
                                        "writes -DBL_MAX (numeric_limits<double>::lowest(), OpenVINO's semantics)")
            continue
        plane_start = plane_offset(mp.y.shape, x.shape, axis).astype(mp.indices.dtype)
        if backend == "cpu" and case.dtype in ("int16", "uint16") and not (
                bad_i & ~(unbeaten & (mp.indices == plane_start))).any():
            # the CPU plugin's i16/u16 kernel starts from the first element; every other type, on both
            # backends, writes the plane's first index there (MAXPOOL_EMPTY_INDEX_PLANE_START)
            record(SUITE, name, "n/a", "OpenVINO CPU plugin i16/u16: a window nothing beats gets its first "
                                      "element's index, not the plane start of every other type and of the core "
                                      "reference (which has no i16)")
            continue
        record(SUITE, name, "mismatch")
        p = [tuple(int(v) for v in q) for q in np.argwhere(bad_i)[:4]]
        failures.append(f"{name}: indices differ at {int(bad_i.sum())} positions, e.g. {p}: "
                        f"maxpool {[mp.indices[q] for q in p]} vs OpenVINO {[ov.indices[q] for q in p]} "
                        f"(values {[ov.y[q] for q in p]}; plane start {[plane_start[q] for q in p]})")

    # NaN propagation (nan="propagate"): the window's last NaN wins; elsewhere as the default policy
    if O.is_float(x.dtype) and O.nan_mask(x).any() and version != 1 and not any(
            f.split(":")[1].strip().startswith("shape") for f in failures if ":" in f):
        mpp = run_maxpool(x, case, attrs, nan="propagate")
        last = last_nan_index(x, g)
        has = last >= 0
        exp_y = mp.y.copy()
        O.bits(exp_y)[has] = O.bits(x).reshape(-1)[last[has]]
        exp_i = np.where(has, global_to(last, x.shape, axis=axis), mp.indices).astype(mp.indices.dtype)
        # windows without a NaN: as with nan=ignore (checked above against OpenVINO)
        bad = (O.bits(mpp.y) != O.bits(exp_y)) | (mpp.indices != exp_i)
        if bad.any():
            record(SUITE, "openvino (nan=propagate)", "mismatch")
            p = [tuple(int(v) for v in q) for q in np.argwhere(bad)[:4]]
            failures.append(f"nan=propagate: {int(bad.sum())} positions differ, e.g. {p}: maxpool "
                            f"{[(mpp.y[q], mpp.indices[q]) for q in p]} expected {[(exp_y[q], exp_i[q]) for q in p]}")
        else:
            record(SUITE, "openvino (nan=propagate)", "match")

    assert not failures, f"{case!r}\n" + "\n".join(failures) + fmt_case(case, attrs, x)
