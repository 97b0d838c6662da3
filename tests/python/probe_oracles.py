# SPDX-License-Identifier: Apache-2.0
"""Probe where the oracles disagree (not a test; run as a script).

    python tests/python/probe_oracles.py            # everything
    python tests/python/probe_oracles.py nan inf    # only some sections

Prints, for each hand-made case, what every oracle returns. The findings are
summarised in docs/semantics.md, section "Where the oracles disagree".
"""
from __future__ import annotations

import sys

import numpy as np

import oracles as O

NAN = np.nan
INF = np.inf


def fmt(r: O.OracleResult) -> str:
    if r.error:
        msg = r.error.replace("\n", " ")
        for cut in ("[ONNXRuntimeError] : ", "Exception from src/"):
            if cut in msg:
                msg = msg[msg.index(cut) + len(cut):]
        return "ERROR " + msg[:110]
    y = r.y
    with np.printoptions(precision=4, floatmode="maxprec"):
        ys = np.array2string(y.astype(np.float64).ravel() if O.is_float(y.dtype) else y.ravel(), separator=",",
                             max_line_width=10_000)
        s = f"Y{tuple(y.shape[2:])}={ys}"
        if r.indices is not None:
            s += " I=" + np.array2string(r.indices.ravel(), separator=",", max_line_width=10_000)
    return s


def onnx_all(title, x, attrs, opsets=(8, 10, 11, 12, 22)):
    print(f"\n### {title}\n  attrs={attrs} X{x.shape} {x.dtype}={x.ravel().tolist()}")
    seen = {}
    for opset in opsets:
        for name, fn in (("ref", O.onnx_reference), ("ort", O.onnxruntime_run)):
            for wi in (True, False):
                if name == "ort" and x.dtype.name not in O.ORT_DTYPES.get(opset, ()):  # no kernel
                    continue
                kw = {"with_indices": wi}
                r = fn(x, attrs, opset, **kw)
                line = fmt(r)
                seen.setdefault(line, []).append(f"{name}{opset}{'+I' if wi else ''}")
    for line, who in seen.items():
        print(f"  {','.join(who):60s} {line}")


def ov_all(title, x, versions=(1, 8, 14), backends=("cpu", "reference"), **kw):
    print(f"\n### {title}\n  attrs={kw} X{x.shape} {x.dtype}={x.ravel().tolist()}")
    seen = {}
    for v in versions:
        for b in backends:
            k = dict(kw)
            if v == 1:
                k.pop("dilations", None)
                k.pop("axis", None)
                k.pop("index_element_type", None)
                if k.get("rounding_type") == "ceil_torch":
                    continue
            if v == 8 and k.get("rounding_type") == "ceil_torch":
                continue
            r = O.openvino_max_pool(x, version=v, backend=b, **k)
            seen.setdefault(fmt(r), []).append(f"ov{v}-{b}")
    for line, who in seen.items():
        print(f"  {','.join(who):40s} {line}")


def a(vals, dtype=np.float32, shape=None):
    arr = np.array(vals, dtype=np.float64 if dtype != np.int8 and dtype != np.uint8 else np.int64).astype(dtype)
    if shape is None:
        shape = (1, 1, arr.size)
    return arr.reshape(shape)


def sec_nan():
    k3 = {"kernel_shape": [3]}
    k3s2 = {"kernel_shape": [3], "strides": [2]}
    for vals in ([NAN, 1, 2], [1, NAN, 2], [1, 2, NAN], [NAN, NAN, 2], [2, NAN, NAN], [NAN, 5, NAN], [NAN, NAN, NAN]):
        onnx_all(f"NaN 1-D window {vals} (stride 1)", a(vals), k3)
        onnx_all(f"NaN 1-D window {vals} (stride 2: ref uses _max_pool)", a(vals), k3s2)
    # 2-D and lanes: a NaN in every position of a 3x3 window
    for p in range(9):
        v = np.arange(9, dtype=np.float32)
        v[p] = NAN
        onnx_all(f"NaN at window position {p} of a 3x3 window", v.reshape(1, 1, 3, 3), {"kernel_shape": [3, 3]},
                 opsets=(12,))
    # wide rows: MLAS vector lanes
    v = np.arange(20, dtype=np.float32)
    v[[3, 9, 10]] = NAN
    onnx_all("NaN in a long row, k=2 s=1 (MLAS lanes)", v.reshape(1, 1, 1, 20), {"kernel_shape": [1, 2]}, opsets=(12,))
    for vals in ([NAN, 1, 2], [1, NAN, 2], [1, 2, NAN], [NAN, NAN, NAN], [NAN, 5, NAN]):
        ov_all(f"OV NaN window {vals}", a(vals), kernel=[3], strides=[1], pads_begin=[0], pads_end=[0])
    v = np.arange(20, dtype=np.float32)
    v[[3, 9, 10]] = NAN
    ov_all("OV NaN in a long row k=2", v.reshape(1, 1, 1, 20), kernel=[1, 2], strides=[1, 1], pads_begin=[0, 0],
           pads_end=[0, 0])
    for p in range(9):
        v = np.arange(9, dtype=np.float32)
        v[p] = NAN
        ov_all(f"OV NaN at window position {p} of 3x3", v.reshape(1, 1, 3, 3), kernel=[3, 3], strides=[1, 1],
               pads_begin=[0, 0], pads_end=[0, 0])
    for dt in (np.float16, O.BF16, np.float64):
        onnx_all(f"NaN {np.dtype(dt).name}", a([1, NAN, 2, NAN, NAN, NAN], dt), {"kernel_shape": [2]}, opsets=(12, 22))
        ov_all(f"OV NaN {np.dtype(dt).name}", a([1, NAN, 2, NAN, NAN, NAN], dt), versions=(8,), kernel=[2],
               strides=[1], pads_begin=[0], pads_end=[0])


def sec_inf():
    for vals in ([-INF, -INF, -INF], [-INF, -INF, 1], [INF, 1, 2], [1, INF, INF]):
        onnx_all(f"inf window {vals}", a(vals), {"kernel_shape": [3]})
        onnx_all(f"inf window {vals} + pads 1/1 s2", a(vals), {"kernel_shape": [3], "strides": [2], "pads": [1, 1]},
                 opsets=(12, 22))
        ov_all(f"OV inf window {vals}", a(vals), kernel=[3], strides=[1], pads_begin=[0], pads_end=[0])
        ov_all(f"OV inf window {vals} pads 1/1 s2", a(vals), kernel=[3], strides=[2], pads_begin=[1], pads_end=[1])
    onnx_all("all -inf f16", a([-INF, -INF], np.float16), {"kernel_shape": [2]}, opsets=(12,))
    onnx_all("-0.0 vs +0.0 ties", a([-0.0, 0.0, 0.0, -0.0]), {"kernel_shape": [2]}, opsets=(12,))
    ov_all("OV -0.0 vs +0.0 ties", a([-0.0, 0.0, 0.0, -0.0]), kernel=[2], strides=[1], pads_begin=[0], pads_end=[0])


def sec_empty():
    x = a([1, 2, 3])
    onnx_all("pads 2/2 >= kernel 2 (windows wholly in padding)", x, {"kernel_shape": [2], "pads": [2, 2]})
    onnx_all("pads 3/3, kernel 2, stride 2", x, {"kernel_shape": [2], "pads": [3, 3], "strides": [2]})
    onnx_all("pads 1/1 == kernel 1", x, {"kernel_shape": [1], "pads": [1, 1]})
    onnx_all("dilation 3 on tiny input: x len 2, k 2, d 3, pads 1/1", a([5, 7]),
             {"kernel_shape": [2], "dilations": [3], "pads": [1, 1]}, opsets=(10, 12, 22))
    onnx_all("dilation 4 on len 2, k 2, pads 2/0 (both taps out)", a([5, 7]),
             {"kernel_shape": [2], "dilations": [4], "pads": [2, 2]}, opsets=(10, 12, 22))
    onnx_all("2-D pads 2 > kernel 2", a(np.arange(4), shape=(1, 1, 2, 2)), {"kernel_shape": [2, 2], "pads": [2, 2, 2, 2],
                                                                            "strides": [2, 2]}, opsets=(12,))
    onnx_all("3-D pads 2 > kernel 1", a(np.arange(2), shape=(1, 1, 1, 1, 2)),
             {"kernel_shape": [1, 1, 1], "pads": [0, 0, 1, 0, 0, 1]}, opsets=(12,))
    onnx_all("int8 empty window", a([1, 2, 3], np.int8), {"kernel_shape": [2], "pads": [2, 2]}, opsets=(12,))
    onnx_all("uint8 empty window", a([1, 2, 3], np.uint8), {"kernel_shape": [2], "pads": [2, 2]}, opsets=(12,))
    ov_all("OV pads 2/2 >= kernel 2", x, kernel=[2], strides=[1], pads_begin=[2], pads_end=[2])
    ov_all("OV pads 3/3 kernel 2 stride 2 axis 2", a([1, 2, 3, 4, 5, 6], shape=(1, 2, 3)), kernel=[2], strides=[2],
           pads_begin=[3], pads_end=[3], axis=2)
    ov_all("OV pads 3/3 kernel 2 stride 2 axis 0 (C=2)", a([1, 2, 3, 4, 5, 6], shape=(1, 2, 3)), kernel=[2],
           strides=[2], pads_begin=[3], pads_end=[3], axis=0)
    ov_all("OV dilation 3 on len 2, k 2, pads 1/1", a([5, 7]), versions=(8, 14), kernel=[2], strides=[1],
           dilations=[3], pads_begin=[1], pads_end=[1])
    ov_all("OV int8 empty window", a([1, 2, 3], np.int8), versions=(8, 14), kernel=[2], strides=[1], pads_begin=[2],
           pads_end=[2])
    ov_all("OV uint8 empty window", a([1, 2, 3], np.uint8), versions=(8, 14), kernel=[2], strides=[1], pads_begin=[2],
           pads_end=[2])
    ov_all("OV f16 empty window", a([1, 2, 3], np.float16), versions=(8, 14), kernel=[2], strides=[1], pads_begin=[2],
           pads_end=[2])
    ov_all("OV 2-D empty window, C=2, N=2, axis 0", a(np.arange(16), shape=(2, 2, 2, 2)), versions=(8,),
           kernel=[1, 1], strides=[2, 2], pads_begin=[1, 1], pads_end=[1, 1], axis=0)


def sec_ceil():
    x = a(np.arange(1, 10), shape=(1, 1, 3, 3))
    for op in (10, 12, 22):
        pass
    onnx_all("ceil, 3x3, k2 s2 pads 1/1: last window starts in right pad", x,
             {"kernel_shape": [2, 2], "strides": [2, 2], "pads": [1, 1, 1, 1], "ceil_mode": 1}, opsets=(10, 12, 22))
    onnx_all("ceil, len 6, k1 s2 (pytorch #45357-like) pads 0/1", a(np.arange(6)),
             {"kernel_shape": [1], "strides": [2], "pads": [0, 1], "ceil_mode": 1}, opsets=(10, 12, 22))
    onnx_all("ceil, len 5, k 2 s 2 pads 1/1", a(np.arange(5)), {"kernel_shape": [2], "strides": [2], "pads": [1, 1],
                                                               "ceil_mode": 1}, opsets=(10, 22))
    onnx_all("ceil, len 5, k 3 s 3 pads 1/1 (ORT #15446)", a(np.arange(5)), {"kernel_shape": [3], "strides": [3],
                                                                            "pads": [1, 1], "ceil_mode": 1},
             opsets=(10, 22))
    onnx_all("VALID + ceil: 3x3 k2 s2", x, {"kernel_shape": [2, 2], "strides": [2, 2], "auto_pad": "VALID",
                                            "ceil_mode": 1}, opsets=(10, 12, 22))
    onnx_all("VALID floor: 3x3 k2 s2", x, {"kernel_shape": [2, 2], "strides": [2, 2], "auto_pad": "VALID"},
             opsets=(10, 22))
    onnx_all("SAME_UPPER + ceil: len 5 k2 s2", a(np.arange(5)), {"kernel_shape": [2], "strides": [2],
                                                                  "auto_pad": "SAME_UPPER", "ceil_mode": 1},
             opsets=(10, 22))
    for rt in ("floor", "ceil", "ceil_torch"):
        ov_all(f"OV {rt}: 3x3 k2 s2 pads 1/1", x, kernel=[2, 2], strides=[2, 2], pads_begin=[1, 1], pads_end=[1, 1],
               rounding_type=rt)
        ov_all(f"OV {rt}: len 6 k1 s2 pads 0/1", a(np.arange(6)), kernel=[1], strides=[2], pads_begin=[0],
               pads_end=[1], rounding_type=rt)
        ov_all(f"OV {rt} + valid: 3x3 k2 s2", x, kernel=[2, 2], strides=[2, 2], pads_begin=[0, 0], pads_end=[0, 0],
               rounding_type=rt, auto_pad="valid")
        ov_all(f"OV {rt} + same_upper len 5 k 2 s 2", a(np.arange(5)), kernel=[2], strides=[2], pads_begin=[0],
               pads_end=[0], rounding_type=rt, auto_pad="same_upper")
        ov_all(f"OV {rt} explicit pads 3/3 on len 2, k2 s2", a([1, 2]), kernel=[2], strides=[2], pads_begin=[3],
               pads_end=[3], rounding_type=rt)


def sec_same():
    for mode in ("SAME_UPPER", "SAME_LOWER"):
        for n, k, s, d in ((5, 2, 2, 1), (6, 3, 2, 1), (7, 2, 3, 2), (5, 3, 2, 2), (4, 1, 3, 1), (1, 3, 2, 2)):
            x = a(np.arange(n) * (1 if n % 2 else -1) + 100)
            attrs = {"kernel_shape": [k], "strides": [s], "auto_pad": mode}
            if d != 1:
                attrs["dilations"] = [d]
            onnx_all(f"{mode} len {n} k {k} s {s} d {d}", x, attrs, opsets=(10, 11, 22))
            ov_all(f"OV {mode.lower()} len {n} k {k} s {s} d {d}", x, versions=(8,), kernel=[k], strides=[s],
                   dilations=[d], pads_begin=[0], pads_end=[0], auto_pad=mode.lower())


def sec_storage():
    x1 = a([3, 1, 4, 1, 5, 9, 2, 6], shape=(2, 1, 4))
    onnx_all("storage_order=1, 1-D, N=2", x1, {"kernel_shape": [2], "storage_order": 1}, opsets=(8, 12, 22))
    x2 = a(np.random.default_rng(1).permutation(2 * 3 * 4), shape=(1, 2, 3, 4))
    onnx_all("storage_order=1, 2-D 3x4, C=2", x2, {"kernel_shape": [2, 2], "storage_order": 1}, opsets=(8, 12, 22))
    onnx_all("storage_order=1, 2-D with stride 2 (ref _max_pool path)", x2,
             {"kernel_shape": [2, 2], "strides": [1, 2], "storage_order": 1}, opsets=(12,))
    x3 = a(np.random.default_rng(2).permutation(2 * 3 * 4), shape=(1, 1, 2, 3, 4))
    onnx_all("storage_order=1, 3-D 2x3x4", x3, {"kernel_shape": [2, 2, 2], "storage_order": 1}, opsets=(8, 12, 22))
    onnx_all("storage_order=1, 3-D with stride 2", x3, {"kernel_shape": [1, 2, 2], "strides": [1, 1, 2],
                                                        "storage_order": 1}, opsets=(12,))
    onnx_all("storage_order=0, 3-D with stride 2", x3, {"kernel_shape": [1, 2, 2], "strides": [1, 1, 2]}, opsets=(12,))


def sec_axis():
    x = a(np.random.default_rng(3).permutation(2 * 2 * 4 * 4), shape=(2, 2, 4, 4))
    for axis in (0, 1, 2, -1, -2, -3, -4, 3, 4, -5):
        for it in ("i64", "i32"):
            ov_all(f"OV axis {axis} {it}", x, versions=(8, 14), kernel=[2, 2], strides=[2, 2], pads_begin=[0, 0],
                   pads_end=[0, 0], axis=axis, index_element_type=it)
    ov_all("OV index_element_type i16", x, versions=(8,), kernel=[2, 2], strides=[2, 2], pads_begin=[0, 0],
           pads_end=[0, 0], index_element_type="i16")


def sec_int():
    for dt in (np.int8, np.uint8):
        lo = np.iinfo(dt).min
        x = a([lo, lo, lo, 5, lo, lo], dt)
        onnx_all(f"{np.dtype(dt).name} lowest values with pads 1/1", x, {"kernel_shape": [3], "pads": [1, 1]},
                 opsets=(12, 22))
        onnx_all(f"{np.dtype(dt).name} lowest values, stride 2", x, {"kernel_shape": [2], "strides": [2]},
                 opsets=(12, 22))
        ov_all(f"OV {np.dtype(dt).name} lowest values pads 1/1", x, versions=(8,), kernel=[3], strides=[1],
               pads_begin=[1], pads_end=[1])
        x2 = a(np.full(9, lo), dt, shape=(1, 1, 3, 3))
        onnx_all(f"{np.dtype(dt).name} all-lowest 2-D pads 1", x2, {"kernel_shape": [2, 2], "pads": [1, 1, 1, 1]},
                 opsets=(12,))
    for dt in (np.int16, np.uint16, np.int32, np.int64):
        lo = np.iinfo(dt).min
        ov_all(f"OV {np.dtype(dt).name} lowest pads 1/1", a([lo, lo, 3, lo], dt), versions=(8,), kernel=[2],
               strides=[1], pads_begin=[1], pads_end=[1])


def sec_half():
    for dt in (np.float16, O.BF16):
        x = a([1, 1, -INF, 65504 if dt == np.float16 else 3e38, -0.0, 0.0, 1e-7], dt)
        onnx_all(f"{np.dtype(dt).name} ties, inf, big", x, {"kernel_shape": [2], "pads": [1, 1]}, opsets=(12, 22))
        ov_all(f"OV {np.dtype(dt).name}", x, versions=(8, 14), kernel=[2], strides=[1], pads_begin=[1], pads_end=[1])


def sec_validity():
    x = a(np.arange(4))
    onnx_all("kernel larger than padded input", x, {"kernel_shape": [7]}, opsets=(12, 22))
    onnx_all("pads negative", x, {"kernel_shape": [2], "pads": [-1, 0]}, opsets=(12, 22))
    onnx_all("stride 0", x, {"kernel_shape": [2], "strides": [0]}, opsets=(12, 22))
    onnx_all("dilation 0", x, {"kernel_shape": [2], "dilations": [0]}, opsets=(12, 22))
    onnx_all("pads given with SAME_UPPER", x, {"kernel_shape": [2], "pads": [1, 1], "auto_pad": "SAME_UPPER"},
             opsets=(12, 22))
    onnx_all("opset 8 with dilations attribute", x, {"kernel_shape": [2], "dilations": [1]}, opsets=(8,))
    onnx_all("opset 8 with ceil_mode", x, {"kernel_shape": [2], "ceil_mode": 1}, opsets=(8,))
    onnx_all("storage_order 2", x, {"kernel_shape": [2], "storage_order": 2}, opsets=(12,))
    onnx_all("kernel rank mismatch", x, {"kernel_shape": [2, 2]}, opsets=(12,))
    onnx_all("spatial rank 4", a(np.arange(16), shape=(1, 1, 2, 2, 2, 2)), {"kernel_shape": [1, 1, 2, 2]},
             opsets=(12,))
    onnx_all("empty batch N=0", np.zeros((0, 1, 4), np.float32), {"kernel_shape": [2]}, opsets=(12,))
    ov_all("OV kernel larger than input", x, kernel=[7], strides=[1], pads_begin=[0], pads_end=[0])
    ov_all("OV ceil_torch with v8", x, versions=(8,), kernel=[2], strides=[1], pads_begin=[0], pads_end=[0],
           rounding_type="ceil_torch")


SECTIONS = {"nan": sec_nan, "inf": sec_inf, "empty": sec_empty, "ceil": sec_ceil, "same": sec_same,
            "storage": sec_storage, "axis": sec_axis, "int": sec_int, "half": sec_half, "validity": sec_validity}

if __name__ == "__main__":
    print(O.versions())
    for name in sys.argv[1:] or SECTIONS:
        print(f"\n======== {name} ========")
        SECTIONS[name]()
