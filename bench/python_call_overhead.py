# SPDX-License-Identifier: Apache-2.0
"""Per-call cost of the Python API on a tiny tensor (issue 17, item 3).

    MAXPOOL_LIBRARY=build/libmaxpool.so PYTHONPATH=python/src python bench/python_call_overhead.py

1x16x8x8 float32, k2 s2: maxpool.onnx.max_pool (plans on every call), a
maxpool.plan (new output, and out=), and ONNX Runtime InferenceSession.run
of the same MaxPool node (one intra-op thread). Median of ROUNDS rounds of
CALLS calls each. Results are checked equal before timing.
"""

import sys
import timeit

import numpy as np

import maxpool

ROUNDS, CALLS = 21, 2000


def median_us(f):
    ts = sorted(timeit.timeit(f, number=CALLS) / CALLS for _ in range(ROUNDS))
    return ts[len(ts) // 2] * 1e6


def main():
    x = np.random.default_rng(0).standard_normal((1, 16, 8, 8)).astype(np.float32)
    attrs = dict(kernel_shape=[2, 2], strides=[2, 2])
    p = maxpool.plan(maxpool.onnx.max_pool, x.shape, x.dtype, **attrs)
    y = np.empty(p.out_shape, np.float32)
    rows = [("maxpool.onnx.max_pool(x, ...)", lambda: maxpool.onnx.max_pool(x, **attrs)),
            ("plan: p(x)", lambda: p(x)),
            ("plan: p(x, out=y)", lambda: p(x, out=y))]
    try:
        import onnxruntime as ort
        from onnx import TensorProto, helper
    except ImportError:
        print("(onnxruntime not installed: no ORT row)", file=sys.stderr)
    else:
        node = helper.make_node("MaxPool", ["X"], ["Y"], **attrs)
        g = helper.make_graph([node], "g", [helper.make_tensor_value_info("X", TensorProto.FLOAT, list(x.shape))],
                              [helper.make_tensor_value_info("Y", TensorProto.FLOAT, None)])
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 12)])
        m.ir_version = 7
        so = ort.SessionOptions()
        so.intra_op_num_threads = 1
        s = ort.InferenceSession(m.SerializeToString(), so, providers=["CPUExecutionProvider"])
        assert s.run(None, {"X": x})[0].tobytes() == p(x).tobytes()
        rows.append(("onnxruntime InferenceSession.run", lambda: s.run(None, {"X": x})))
    assert maxpool.onnx.max_pool(x, **attrs).tobytes() == p(x).tobytes()
    for name, f in rows:
        f()
        print(f"{name:36s} {median_us(f):8.2f} us")


if __name__ == "__main__":
    main()
