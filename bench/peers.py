#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Peers for maxpool_bench: ONNX Runtime and OpenVINO on the same cases.

Each peer runs single-threaded on a preallocated input (and, where the API
allows it, preallocated outputs), hot cache; the time is the median of many
samples, each sample a loop of back-to-back calls lasting >= 50 us, like the C
benchmark. Times include each runtime's per-call overhead (Python binding,
session / infer-request dispatch), which matters only for the tiny case.

    python3 bench/peers.py [--case NAME[,NAME]] [--quick] [--time S] [--json FILE]
                           [--no-check] [--list]

Outputs are checked against a numpy max pool (values only) unless --no-check.
Case names match bench_maxpool.c; run_all.py merges the two by name.

Notes on how each case is expressed:
  * ONNX Runtime has no float NHWC MaxPool and no adaptive max pool: NHWC rows
    run the NCHW-transposed problem (marked "as NCHW"), the adaptive row runs
    the equivalent fixed window (kernel = stride = in / out, all divisible).
    Index rows request MaxPool's int64 Indices output.
  * OpenVINO: NCHW cases are MaxPool-1 (MaxPool-8 with its int64 indices
    output for index rows), the adaptive row is AdaptiveMaxPool-8 (i64
    indices); NHWC rows declare an NHWC tensor layout with PrePostProcessor
    and let the CPU plugin choose its channels-last implementation.
"""
import argparse
import json
import os
import statistics
import sys
import time

import numpy as np

# name, rank, layout, shape (memory order), adaptive, kernel, stride, pad, output_size, indices, per_call
CASES = [
    ("nchw_1x64x112_k3s2", 2, "NCHW", (1, 64, 112, 112), False, 3, 2, 1, None, False, False),
    ("nchw_32x64x112_k3s2", 2, "NCHW", (32, 64, 112, 112), False, 3, 2, 1, None, False, False),
    ("nchw_32x64x112_k3s2_i64", 2, "NCHW", (32, 64, 112, 112), False, 3, 2, 1, None, True, False),
    ("ncdhw_1x32x32x112_k3s2", 3, "NCHW", (1, 32, 32, 112, 112), False, 3, 2, 1, None, False, False),
    ("ncw_32x256x4096_k3s1", 1, "NCHW", (32, 256, 4096), False, 3, 1, 1, None, False, False),
    ("spp_1x512x20_k13s1", 2, "NCHW", (1, 512, 20, 20), False, 13, 1, 6, None, False, False),
    ("nchw_1x64x224_k7s1", 2, "NCHW", (1, 64, 224, 224), False, 7, 1, 3, None, False, False),
    ("nchw_1x64x224_k3s1", 2, "NCHW", (1, 64, 224, 224), False, 3, 1, 1, None, False, False),
    ("nchw_1x64x224_k13s1", 2, "NCHW", (1, 64, 224, 224), False, 13, 1, 6, None, False, False),
    ("adaptive3d_2x64x16x56_i64", 3, "NCHW", (2, 64, 16, 56, 56), True, None, None, None, (4, 7, 7), True, False),
    ("nhwc_1x112x64_k3s2", 2, "NHWC", (1, 112, 112, 64), False, 3, 2, 1, None, False, False),
    ("nhwc_32x112x64_k3s2", 2, "NHWC", (32, 112, 112, 64), False, 3, 2, 1, None, False, False),
    ("tiny_1x16x8_k2s2", 2, "NCHW", (1, 16, 8, 8), False, 2, 2, 0, None, False, True),
]
# the other element types (bench_maxpool.c's names; bfloat16 has no numpy type: not run here)
for _t in ("float64", "float16", "int8", "uint8", "int16", "uint16", "int32", "int64"):
    _short = {"float64": "f64", "float16": "f16"}.get(_t, _t.replace("uint", "u").replace("int", "i"))
    CASES.append(("nchw_1x64x112_k3s2_" + _short, 2, "NCHW", (1, 64, 112, 112), False, 3, 2, 1, None, False, False,
                  _t))
for _t, _short in (("uint8", "u8"), ("float16", "f16")):
    CASES.append(("nhwc_1x112x64_k3s2_" + _short, 2, "NHWC", (1, 112, 112, 64), False, 3, 2, 1, None, False, False,
                  _t))
CASES.append(("nchw_32x64x112_k3s2_i64_f16", 2, "NCHW", (32, 64, 112, 112), False, 3, 2, 1, None, True, False,
              "float16"))
CASES.append(("adaptive3d_2x64x16x56_i32_f16", 3, "NCHW", (2, 64, 16, 56, 56), True, None, None, None, (4, 7, 7),
              True, False, "float16"))
# real networks (issue 19), f32: bench_maxpool.c's net_ cases
CASES += [
    ("net_alexnet_1x64x55_k3s2", 2, "NCHW", (1, 64, 55, 55), False, 3, 2, 0, None, False, False),
    ("net_alexnet_1x192x27_k3s2", 2, "NCHW", (1, 192, 27, 27), False, 3, 2, 0, None, False, False),
    ("net_alexnet_1x256x13_k3s2", 2, "NCHW", (1, 256, 13, 13), False, 3, 2, 0, None, False, False),
    ("net_inception3_1x64x147_k3s2", 2, "NCHW", (1, 64, 147, 147), False, 3, 2, 0, None, False, False),
    ("net_inception3_1x192x71_k3s2", 2, "NCHW", (1, 192, 71, 71), False, 3, 2, 0, None, False, False),
    ("net_resnet_1x64x113_k3s2", 2, "NCHW", (1, 64, 113, 113), False, 3, 2, 1, None, False, False),
    ("net_vgg_1x64x224_k2s2", 2, "NCHW", (1, 64, 224, 224), False, 2, 2, 0, None, False, False),
    ("net_vgg_1x512x14_k2s2", 2, "NCHW", (1, 512, 14, 14), False, 2, 2, 0, None, False, False),
    ("net_googlenet_1x192x28_k3s1", 2, "NCHW", (1, 192, 28, 28), False, 3, 1, 1, None, False, False),
    ("net_googlenet_1x480x14_k3s1", 2, "NCHW", (1, 480, 14, 14), False, 3, 1, 1, None, False, False),
    ("net_sppf_1x512x20_k5s1", 2, "NCHW", (1, 512, 20, 20), False, 5, 1, 2, None, False, False),
    ("net_sppf_1x256x40_k5s1", 2, "NCHW", (1, 256, 40, 40), False, 5, 1, 2, None, False, False),
    ("net_r3d_1x64x16x56_k3s2", 3, "NCHW", (1, 64, 16, 56, 56), False, 3, 2, 1, None, False, False),
    ("net_c3d_1x128x16x56_k2s2", 3, "NCHW", (1, 128, 16, 56, 56), False, 2, 2, 0, None, False, False),
    ("net_adaptive_8x256x13_i64", 2, "NCHW", (8, 256, 13, 13), True, None, None, None, (6, 6), True, False),
    ("net_adaptive_1x512x7_global", 2, "NCHW", (1, 512, 7, 7), True, None, None, None, (1, 1), False, False),
    ("net_nhwc_1x56x256_k3s2", 2, "NHWC", (1, 56, 56, 256), False, 3, 2, 1, None, False, False),
    ("net_nhwc_1x147x64_k3s2", 2, "NHWC", (1, 147, 147, 64), False, 3, 2, 0, None, False, False),
    ("net_adaptive_8x512x14_i64", 2, "NCHW", (8, 512, 14, 14), True, None, None, None, (7, 7), True, False),
    ("net_adaptive_4x256x15_i64", 2, "NCHW", (4, 256, 15, 15), True, None, None, None, (4, 4), True, False),
    ("net_adaptive1d_8x512x100_i64", 1, "NCHW", (8, 512, 100), True, None, None, None, (12,), True, False),
    ("net_adaptive3d_2x256x8x14_i64", 3, "NCHW", (2, 256, 8, 14, 14), True, None, None, None, (2, 5, 5), True,
     False),
]
ONNX_TYPES = {"float32": 1, "uint8": 2, "int8": 3, "uint16": 4, "int16": 5, "int32": 6, "int64": 7, "float16": 10,
              "float64": 11}

TARGET_S = 0.35
MIN_SAMPLES = 5
MIN_SAMPLE_S = 50e-6
MAX_SAMPLES = 2001


def measure(fn):
    """Median seconds per call, same procedure as bench_measure() in C."""
    t0 = time.perf_counter()
    calls = 0
    while True:
        fn()
        calls += 1
        el = time.perf_counter() - t0
        if calls >= 2 and el >= 0.05 * TARGET_S:
            break
        if calls == 1 and el > TARGET_S:  # a very slow call: one warm-up is enough
            break
    per = max(el / calls, 1e-9)
    inner = max(1, int(np.ceil(MIN_SAMPLE_S / per)))
    samples = int(TARGET_S / (per * inner))
    # slow calls keep the total bounded: 3 samples above 0.2 s, 1 above 1 s
    samples = min(MAX_SAMPLES, max(MIN_SAMPLES if per < 0.2 else 3 if per < 1.0 else 1, samples))
    ts = []
    for _ in range(samples):
        a = time.perf_counter()
        for _ in range(inner):
            fn()
        ts.append((time.perf_counter() - a) / inner)
    return statistics.median(ts), samples, inner


class Case:
    def __init__(self, t):
        (self.name, self.rank, self.layout, self.shape, self.adaptive, k, s, p, osz, self.indices,
         self.per_call) = t[:11]
        self.dtype = np.dtype(t[11] if len(t) > 11 else "float32")
        self.idx_bytes = 4 if self.adaptive and self.dtype != np.float32 else 8  # int32 indices: as aclnn
        if self.layout == "NHWC":
            self.nchw_shape = (self.shape[0], self.shape[-1]) + tuple(self.shape[1:-1])
        else:
            self.nchw_shape = tuple(self.shape)
        self.in_sp = self.nchw_shape[2:]
        if self.adaptive:
            self.out_sp = tuple(osz)
            # divisible sizes: the same windows as a fixed kernel (ONNX Runtime's row)
            self.divisible = all(i % o == 0 for i, o in zip(self.in_sp, self.out_sp))
            self.kernel = [i // o for i, o in zip(self.in_sp, self.out_sp)]
            self.stride = list(self.kernel)
            self.pad = [0] * self.rank
        else:
            self.kernel, self.stride, self.pad = [k] * self.rank, [s] * self.rank, [p] * self.rank
            self.out_sp = tuple((i + 2 * p - k) // s + 1 for i in self.in_sp)
        self.out_nchw = self.nchw_shape[:2] + self.out_sp

    def make_input(self):
        rng = np.random.default_rng(12345)
        if self.dtype.kind == "f":
            return rng.uniform(-1.0, 1.0, size=self.shape).astype(self.dtype)
        ii = np.iinfo(self.dtype)
        return rng.integers(ii.min, ii.max, size=self.shape, endpoint=True, dtype=self.dtype)

    def bytes(self):
        n_in = int(np.prod(self.shape))
        n_out = int(np.prod(self.out_nchw))
        e = self.dtype.itemsize
        return e * n_in + e * n_out + (self.idx_bytes * n_out if self.indices else 0)


def numpy_adaptive_nchw(x, c):
    """Adaptive windows (NCHW): output i of an axis covers [floor(i*n/o), ceil((i+1)*n/o))."""
    y = np.empty(x.shape[:2] + c.out_sp, x.dtype)
    for pos in np.ndindex(*c.out_sp):
        sl = tuple(slice(i * n // o, -(-(i + 1) * n // o)) for i, n, o in zip(pos, c.in_sp, c.out_sp))
        y[(slice(None), slice(None)) + pos] = x[(slice(None), slice(None)) + sl].max(axis=tuple(range(2, x.ndim)))
    return y


def numpy_pool_nchw(x, c):
    """Reference values (NCHW in, NCHW out): -inf padding, then a separable max
    (one axis at a time, np.maximum over the k strided shifts), exact for max."""
    if c.adaptive:
        return numpy_adaptive_nchw(x, c)
    pad = [(0, 0), (0, 0)] + [(p, p) for p in c.pad]
    low = -np.inf if x.dtype.kind == "f" else np.iinfo(x.dtype).min
    y = np.pad(x, pad, constant_values=low) if any(c.pad) else x
    for a in range(c.rank):
        ax = 2 + a
        k, s, o = c.kernel[a], c.stride[a], c.out_sp[a]
        sl = lambda j: tuple(slice(j, j + (o - 1) * s + 1, s) if d == ax else slice(None)  # noqa: E731
                             for d in range(y.ndim))
        r = y[sl(0)].copy()
        for j in range(1, k):
            np.maximum(r, y[sl(j)], out=r)
        y = r
    return y


def to_nchw(a, c):
    if c.layout == "NHWC":
        return np.moveaxis(a, -1, 1)
    return a


# ---------------------------------------------------------------------------
# ONNX Runtime
# ---------------------------------------------------------------------------

def ort_case(c, x):
    import onnx
    import onnxruntime as ort
    from onnx import TensorProto, helper

    note = []
    xn = np.ascontiguousarray(to_nchw(x, c))
    if c.layout == "NHWC":
        note.append("as NCHW (no f32 NHWC MaxPool)")
    if c.adaptive:
        if not c.divisible:
            raise NotImplementedError("no adaptive MaxPool; sizes not divisible (no fixed-window equivalent)")
        note.append("as fixed k=%s" % "x".join(map(str, c.kernel)))
    outs = ["Y"] + (["I"] if c.indices else [])
    node = helper.make_node("MaxPool", ["X"], outs, kernel_shape=c.kernel, strides=c.stride,
                            pads=c.pad + c.pad)
    et = ONNX_TYPES[c.dtype.name]
    vi = [helper.make_tensor_value_info("Y", et, list(c.out_nchw))]
    if c.indices:
        vi.append(helper.make_tensor_value_info("I", TensorProto.INT64, list(c.out_nchw)))
    g = helper.make_graph([node], "maxpool", [helper.make_tensor_value_info("X", et, list(xn.shape))], vi)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 12)])
    m.ir_version = 8
    so = ort.SessionOptions()
    so.intra_op_num_threads = 1
    so.inter_op_num_threads = 1
    so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    so.add_session_config_entry("session.intra_op.allow_spinning", "0")
    sess = ort.InferenceSession(m.SerializeToString(), so, providers=["CPUExecutionProvider"])
    xo = ort.OrtValue.ortvalue_from_numpy(xn)
    y = np.empty(c.out_nchw, c.dtype)
    yo = ort.OrtValue.ortvalue_from_numpy(y)
    io = sess.io_binding()
    io.bind_ortvalue_input("X", xo)
    io.bind_ortvalue_output("Y", yo)
    if c.indices:
        ind = np.empty(c.out_nchw, np.int64)
        io.bind_ortvalue_output("I", ort.OrtValue.ortvalue_from_numpy(ind))
    run = lambda: sess.run_with_iobinding(io)  # noqa: E731
    run()
    return run, (lambda: y), "; ".join(note), "CPUExecutionProvider"


# ---------------------------------------------------------------------------
# OpenVINO
# ---------------------------------------------------------------------------

def ov_case(c, x, perf_count=False):
    import openvino as ov
    import openvino.opset1 as o1
    import openvino.opset8 as o8

    note = []
    et = ov.Type(c.dtype)
    if c.layout == "NHWC":
        param = o8.parameter(list(c.nchw_shape), et, name="X")
    else:
        param = o8.parameter(list(x.shape), et, name="X")
    if c.adaptive:
        shape = o8.constant(np.array(c.out_sp, dtype=np.int64))
        # the CPU plugin rejects i64 here ("does not support i64 for use with oneDNN")
        node = o8.adaptive_max_pool(param, shape, index_element_type="i32")
        results = [node.output(0), node.output(1)]
        note.append("AdaptiveMaxPool-8, i32 indices (CPU plugin rejects i64)")
    elif c.indices:
        node = o8.max_pool(param, c.stride, [1] * c.rank, c.pad, c.pad, c.kernel, rounding_type="floor",
                           auto_pad="explicit", index_element_type="i64", axis=0)
        results = [node.output(0), node.output(1)]
        note.append("MaxPool-8 + i64 indices")
    else:
        node = o1.max_pool(param, c.stride, c.pad, c.pad, c.kernel, rounding_type="floor", auto_pad="explicit")
        results = [node.output(0)]
    model = ov.Model(results, [param], "maxpool")
    if c.layout == "NHWC":
        ppp = ov.preprocess.PrePostProcessor(model)
        ppp.input().tensor().set_layout(ov.Layout("NHWC"))
        ppp.input().model().set_layout(ov.Layout("NCHW"))
        ppp.output(0).tensor().set_layout(ov.Layout("NHWC"))
        ppp.output(0).model().set_layout(ov.Layout("NCHW"))
        model = ppp.build()
        note.append("NHWC tensor layout")
    core = ov.Core()
    cfg = {"INFERENCE_NUM_THREADS": 1, "NUM_STREAMS": 1, "PERFORMANCE_HINT": "LATENCY",
           "INFERENCE_PRECISION_HINT": "f32"}
    if perf_count:
        cfg["PERF_COUNT"] = True
    compiled = core.compile_model(model, "CPU", cfg)
    impl, reorders = [], 0
    for op in compiled.get_runtime_model().get_ordered_ops():
        rt = op.get_rt_info()
        lt = rt["layerType"].astype(str) if "layerType" in rt else ""
        prim = rt["primitiveType"].astype(str) if "primitiveType" in rt else "?"
        if lt in ("Reorder", "Transpose"):
            reorders += 1
        elif "ool" in lt:
            impl.append("%s:%s" % (lt, prim))
    if reorders:
        impl.append("+%d reorder%s (timed)" % (reorders, "s" if reorders > 1 else ""))
    req = compiled.create_infer_request()
    req.set_input_tensor(ov.Tensor(x, shared_memory=True))
    run = lambda: req.infer(share_inputs=True, share_outputs=True)  # noqa: E731
    run()
    if perf_count:
        return run, req
    return run, (lambda: req.get_output_tensor(0).data), "; ".join(note), " ".join(impl)


def ov_node_time(c, x, samples):
    """Median of the pooling node's own time (PERF_COUNT real_time), reorders excluded."""
    run, req = ov_case(c, x, perf_count=True)
    ts = []
    for _ in range(samples):
        run()
        t = 0.0
        for pi in req.get_profiling_info():
            if "ool" in pi.node_type and pi.node_type not in ("Reorder",):
                t += pi.real_time.total_seconds()
        ts.append(t)
    return statistics.median(ts)


PEERS = [("onnxruntime", ort_case), ("openvino", ov_case)]


def peer_versions():
    v = {}
    try:
        import onnxruntime
        v["onnxruntime"] = onnxruntime.__version__
    except Exception as e:  # pragma: no cover
        v["onnxruntime"] = "unavailable: %s" % e
    try:
        import openvino
        v["openvino"] = openvino.__version__
    except Exception as e:  # pragma: no cover
        v["openvino"] = "unavailable: %s" % e
    return v


def fmt_us(ts):
    if ts < 1e-5:
        return "%.3f" % (ts * 1e6)
    if ts < 1e-3:
        return "%.1f" % (ts * 1e6)
    return "%.0f" % (ts * 1e6)


def main():
    global TARGET_S, MIN_SAMPLES
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--case")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--time", type=float)
    ap.add_argument("--json")
    ap.add_argument("--no-check", action="store_true")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--peer", help="onnxruntime,openvino (default: both)")
    ap.add_argument("--no-node", action="store_true", help="skip OpenVINO's per-node (PERF_COUNT) timing")
    a = ap.parse_args()
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    if a.quick:
        TARGET_S, MIN_SAMPLES = 0.03, 3
    if a.time:
        TARGET_S = a.time
    cases = [Case(t) for t in CASES]
    if a.list:
        for c in cases:
            print(c.name)
        return 0
    if a.case:
        toks = a.case.split(",")
        cases = [c for c in cases if any(t == c.name or t in c.name for t in toks)]
    peers = [p for p in PEERS if not a.peer or p[0] in a.peer.split(",")]
    vers = peer_versions()
    print("peers: %s (1 thread each)" % ", ".join("%s %s" % (n, vers[n]) for n, _ in peers))
    print("%-27s %-13s %10s %6s  %s" % ("case", "peer", "time_us", "GB/s", "impl / note"))
    rows = []
    bad = 0
    for c in cases:
        x = c.make_input()
        ref = None
        if not a.no_check:
            ref = numpy_pool_nchw(np.ascontiguousarray(to_nchw(x, c)), c)
        for pname, fn in peers:
            row = {"name": c.name, "peer": pname, "ok": False, "bytes": c.bytes()}
            try:
                run, out, note, impl = fn(c, x)
                t, samples, inner = measure(run)
                row.update(ok=True, seconds=t, samples=samples, inner=inner, note=note, impl=impl)
                if ref is not None:
                    y = np.asarray(out())
                    if pname == "openvino" and c.layout == "NHWC":
                        y = np.moveaxis(y, -1, 1)
                    row["check"] = bool(np.array_equal(y.reshape(ref.shape), ref))
                    if not row["check"]:
                        bad += 1
                del run, out
            except Exception as e:  # a peer that cannot run a case is reported, not fatal
                row.update(note="error: %s" % str(e).splitlines()[0][:120])
            new = [row]
            if pname == "openvino" and row["ok"] and not a.no_node:
                # the pooling node alone, OpenVINO's own reorders not counted (us resolution)
                nrow = {"name": c.name, "peer": "openvino_node", "ok": False, "bytes": c.bytes()}
                if row["seconds"] > 1.0:
                    nrow.update(note="skipped: a call takes > 1 s")
                else:
                    try:
                        n = max(5, min(200, int(TARGET_S / max(row["seconds"], 1e-6))))
                        nrow.update(ok=True, seconds=ov_node_time(c, x, n), samples=n, inner=1,
                                    note="PERF_COUNT node time, reorders excluded",
                                    impl=row["impl"].split(" +")[0])
                    except Exception as e:
                        nrow.update(note="error: %s" % str(e).splitlines()[0][:120])
                new.append(nrow)
            for r in new:
                rows.append(r)
                if r["ok"]:
                    ts = r["seconds"]
                    tus = fmt_us(ts)
                    chk = "" if r.get("check", True) else "  CHECK: output differs from numpy"
                    print("%-27s %-13s %10s %6.2f  %s%s%s" % (c.name, r["peer"], tus, c.bytes() / ts / 1e9, r["impl"],
                                                              (" [" + r["note"] + "]") if r["note"] else "", chk))
                else:
                    print("%-27s %-13s %10s %6s  %s" % (c.name, r["peer"], "-", "-", r["note"]))
            sys.stdout.flush()
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"tool": "peers.py", "date": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
                       "versions": vers, "target_s": TARGET_S, "rows": rows}, f, indent=1)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
