# SPDX-License-Identifier: Apache-2.0
"""A whole ONNX model in onnx's reference evaluator, its MaxPool by maxpool.

    python examples/python/onnx_reference_model.py

Conv -> Relu -> MaxPool -> Flatten -> Gemm, built with onnx.helper. Any
model works the same way: pass maxpool.onnx_reference.MaxPool in new_ops.
"""

import numpy as np
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator

import maxpool.onnx_reference


def model():
    rng = np.random.default_rng(0)
    inits = [
        numpy_helper.from_array(rng.standard_normal((8, 3, 3, 3)).astype(np.float32), "W"),
        numpy_helper.from_array(rng.standard_normal(8).astype(np.float32), "B"),
        numpy_helper.from_array(rng.standard_normal((8 * 8 * 8, 10)).astype(np.float32), "GW"),
        numpy_helper.from_array(rng.standard_normal(10).astype(np.float32), "GB"),
    ]
    nodes = [
        helper.make_node("Conv", ["X", "W", "B"], ["C"], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["C"], ["R"]),
        helper.make_node("MaxPool", ["R"], ["P", "I"], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1]),
        helper.make_node("Flatten", ["P"], ["F"]),
        helper.make_node("Gemm", ["F", "GW", "GB"], ["Z"]),
    ]
    outs = [helper.make_tensor_value_info("Z", TensorProto.FLOAT, None),
            helper.make_tensor_value_info("R", TensorProto.FLOAT, None),
            helper.make_tensor_value_info("P", TensorProto.FLOAT, None),
            helper.make_tensor_value_info("I", TensorProto.INT64, None)]
    g = helper.make_graph(nodes, "cnn", [helper.make_tensor_value_info("X", TensorProto.FLOAT, [1, 3, 16, 16])],
                          outs, inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = 7
    return m


def main():
    m = model()
    sess = ReferenceEvaluator(m, new_ops=[maxpool.onnx_reference.MaxPool])
    x = np.random.default_rng(1).standard_normal((1, 3, 16, 16)).astype(np.float32)
    z, r, p, i = sess.run(None, {"X": x})
    print("logits", z.shape, "pooled", p.shape, "argmax class", int(z.argmax()))
    return m, x, z, r, p, i


if __name__ == "__main__":
    result = main()
