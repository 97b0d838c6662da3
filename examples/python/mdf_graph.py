# SPDX-License-Identifier: Apache-2.0
"""An MDF graph (modeci_mdf) whose onnx::MaxPool runs through maxpool.

    python examples/python/mdf_graph.py

The ONNX model Conv -> Relu -> MaxPool is imported into MDF with
modeci_mdf's ONNX importer and evaluated by EvaluableGraph twice: as
modeci_mdf does it (ONNX Runtime, one session per call) and inside
maxpool.mdf.use(), which routes onnx::MaxPool to maxpool.
"""

import time

import numpy as np
from modeci_mdf.execution_engine import EvaluableGraph
from modeci_mdf.interfaces.onnx import onnx_to_mdf
from onnx import TensorProto, helper, numpy_helper

import maxpool.mdf


def graph():
    rng = np.random.default_rng(0)
    inits = [numpy_helper.from_array(rng.standard_normal((4, 3, 3, 3)).astype(np.float32), "W"),
             numpy_helper.from_array(rng.standard_normal(4).astype(np.float32), "B")]
    nodes = [helper.make_node("Conv", ["X", "W", "B"], ["C"], name="conv", pads=[1, 1, 1, 1]),
             helper.make_node("Relu", ["C"], ["R"], name="relu"),
             helper.make_node("MaxPool", ["R"], ["Y"], name="pool", kernel_shape=[2, 2], strides=[2, 2])]
    g = helper.make_graph(nodes, "net", [helper.make_tensor_value_info("X", TensorProto.FLOAT, [1, 3, 32, 32])],
                          [helper.make_tensor_value_info("Y", TensorProto.FLOAT, None)], inits)
    return onnx_to_mdf(helper.make_model(g, opset_imports=[helper.make_opsetid("", 15)])).graphs[0]


def pooled(g, x):
    eg = EvaluableGraph(g, verbose=False)
    eg.evaluate(initializer={"X": x})
    return eg.enodes["pool"].evaluable_outputs["Y"].curr_value  # (values, indices), as modeci_mdf gives them


def main():
    g = graph()
    x = np.random.default_rng(1).standard_normal((1, 3, 32, 32)).astype(np.float32)
    pooled(g, x)  # warm-up: imports, first ONNX Runtime sessions
    t0 = time.perf_counter()
    plain = pooled(g, x)
    t1 = time.perf_counter()
    with maxpool.mdf.use():
        fast = pooled(g, x)
    t2 = time.perf_counter()
    print(f"graph evaluated: modeci_mdf alone {1e3 * (t1 - t0):.1f} ms, with maxpool.mdf.use() {1e3 * (t2 - t1):.1f} ms")
    same = all(a.dtype == b.dtype and a.tobytes() == b.tobytes() for a, b in zip(plain, fast))
    print("pooled output", fast[0].shape, "identical:", same)
    return plain, fast


if __name__ == "__main__":
    result = main()
