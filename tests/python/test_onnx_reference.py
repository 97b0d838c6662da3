# SPDX-License-Identifier: Apache-2.0
"""maxpool.onnx_reference.MaxPool inside onnx's ReferenceEvaluator (issue 17,
item 4), on multi-node models, against ONNX Runtime.

The MaxPool node's input (the Relu output R) and outputs (values P and
Indices I) are graph outputs too. P and I are compared bit-exactly with ONNX
Runtime's MaxPool run on the same R (a one-node session with the node's
attributes and the model's opset): MaxPool is exact. R and the model's final
output Z are compared with ONNX Runtime's whole-model run with a tolerance
only: Conv and Gemm run in the reference evaluator (numpy) on one side and
in ONNX Runtime's MLAS on the other, which sum in different orders (R
differs in the last bits, so the whole-model P would too).
"""

from __future__ import annotations

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402
from onnx.reference import ReferenceEvaluator  # noqa: E402

import maxpool.onnx_reference  # noqa: E402


def same(a, b):
    a, b = np.asarray(a), np.asarray(b)
    assert a.dtype == b.dtype and a.shape == b.shape, (a.dtype, a.shape, b.dtype, b.shape)
    assert a.tobytes() == b.tobytes(), f"\n{a}\n{b}"


def cnn(opset, pool_attrs, with_indices=True, size=12):
    """X (1, 3, size, size) -> Conv 3x3 -> Relu -> MaxPool -> Flatten -> Gemm -> Z."""
    rng = np.random.default_rng(opset)
    w = numpy_helper.from_array(rng.standard_normal((4, 3, 3, 3)).astype(np.float32), "W")
    b = numpy_helper.from_array(rng.standard_normal(4).astype(np.float32), "B")
    probe = np.zeros((1, 4, size, size), np.float32)
    pool_out = maxpool.onnx.max_pool(probe, opset=opset, **pool_attrs).shape  # only its shape: Gemm's width
    feat = int(np.prod(pool_out[1:]))
    gw = numpy_helper.from_array(rng.standard_normal((feat, 5)).astype(np.float32), "GW")
    gb = numpy_helper.from_array(rng.standard_normal(5).astype(np.float32), "GB")
    outs = ["P", "I"] if with_indices else ["P"]
    nodes = [
        helper.make_node("Conv", ["X", "W", "B"], ["C"], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["C"], ["R"]),
        helper.make_node("MaxPool", ["R"], outs, **pool_attrs),
        helper.make_node("Flatten", ["P"], ["F"]),
        helper.make_node("Gemm", ["F", "GW", "GB"], ["Z"]),
    ]
    graph_outs = [helper.make_tensor_value_info("Z", TensorProto.FLOAT, None),
                  helper.make_tensor_value_info("R", TensorProto.FLOAT, None),
                  helper.make_tensor_value_info("P", TensorProto.FLOAT, None)]
    if with_indices:
        graph_outs.append(helper.make_tensor_value_info("I", TensorProto.INT64, None))
    g = helper.make_graph(nodes, "cnn", [helper.make_tensor_value_info("X", TensorProto.FLOAT, [1, 3, size, size])],
                          graph_outs, [w, b, gw, gb])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 10 if opset >= 21 else 7
    return m


def run_ort(m, x, name="X"):
    so = ort.SessionOptions()
    so.intra_op_num_threads = 1
    s = ort.InferenceSession(m.SerializeToString(), so, providers=["CPUExecutionProvider"])
    return s.run(None, {name: x})


def ort_pool_node(m, r):
    """ONNX Runtime's MaxPool (the model's MaxPool node, its opset) on r."""
    node = next(n for n in m.graph.node if n.op_type == "MaxPool")
    outs = list(node.output)
    n2 = helper.make_node("MaxPool", ["R"], outs)
    n2.attribute.extend(node.attribute)
    vi = [helper.make_tensor_value_info(outs[0], TensorProto.FLOAT, None)]
    if len(outs) > 1:
        vi.append(helper.make_tensor_value_info(outs[1], TensorProto.INT64, None))
    g = helper.make_graph([n2], "pool", [helper.make_tensor_value_info("R", TensorProto.FLOAT, list(r.shape))], vi)
    m2 = helper.make_model(g, opset_imports=list(m.opset_import))
    m2.ir_version = m.ir_version
    return run_ort(m2, r, "R")


CASES = [
    (8, dict(kernel_shape=[3, 3], strides=[2, 2], storage_order=1), True),
    (8, dict(kernel_shape=[2, 2], strides=[2, 2]), False),
    (10, dict(kernel_shape=[3, 3], strides=[2, 2], ceil_mode=1), True),
    (11, dict(kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1], dilations=[2, 1]), True),
    (12, dict(kernel_shape=[2, 2], auto_pad="SAME_UPPER", strides=[3, 3]), True),
    (13, dict(kernel_shape=[3, 2], strides=[1, 2], pads=[1, 0, 1, 1]), True),  # MaxPool-12 in force
    (22, dict(kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1], ceil_mode=1), True),
]


@pytest.mark.parametrize("opset,attrs,with_indices", CASES, ids=[f"opset{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_cnn_matches_onnxruntime(opset, attrs, with_indices):
    m = cnn(opset, attrs, with_indices)
    sess = ReferenceEvaluator(m, new_ops=[maxpool.onnx_reference.MaxPool])
    pool_nodes = [n for n in sess.rt_nodes_ if n.onnx_node.op_type == "MaxPool"]
    assert len(pool_nodes) == 1 and isinstance(pool_nodes[0], maxpool.onnx_reference.MaxPool)
    assert pool_nodes[0].opset == opset
    rng = np.random.default_rng(100 + opset)
    for _ in range(2):  # the node's cached plan is reused
        x = rng.standard_normal((1, 3, 12, 12)).astype(np.float32)
        got = sess.run(None, {"X": x})
        exp_pool = ort_pool_node(m, got[1])
        same(got[2], exp_pool[0])  # MaxPool values: exact
        if with_indices:
            same(got[3], exp_pool[1])  # Indices: exact
        exp = run_ort(m, x)
        for g_, e_ in zip(got, exp):  # Conv/Gemm rounding only
            assert g_.dtype == e_.dtype and g_.shape == e_.shape
            np.testing.assert_allclose(g_, e_, rtol=1e-4, atol=1e-4)


def test_attribute_the_opset_lacks_is_an_error():
    # ceil_mode came with MaxPool-10: at opset 8 the model is invalid, for
    # ONNX Runtime and for maxpool alike.
    m = cnn(10, dict(kernel_shape=[2, 2], ceil_mode=1))
    m.opset_import[0].version = 8
    x = np.zeros((1, 3, 12, 12), np.float32)
    with pytest.raises(Exception):  # noqa: B017 (ORT's own exception types)
        run_ort(m, x)
    sess = ReferenceEvaluator(m, new_ops=[maxpool.onnx_reference.MaxPool])
    with pytest.raises(ValueError, match="ceil_mode.*opset 8"):
        sess.run(None, {"X": x})


def test_int8_and_nan_follow_onnxruntime():
    # a single-node model (MaxPool-12 has int8), and NaN (never wins in ORT)
    for dtype, t in ((np.int8, TensorProto.INT8), (np.float32, TensorProto.FLOAT)):
        node = helper.make_node("MaxPool", ["X"], ["Y", "I"], kernel_shape=[2, 2], strides=[1, 1])
        g = helper.make_graph([node], "g", [helper.make_tensor_value_info("X", t, [1, 2, 5, 5])],
                              [helper.make_tensor_value_info("Y", t, None),
                               helper.make_tensor_value_info("I", TensorProto.INT64, None)])
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 12)])
        m.ir_version = 7
        rng = np.random.default_rng(3)
        x = (rng.standard_normal((1, 2, 5, 5)) * 60).astype(dtype)
        if dtype == np.float32:
            x[0, 0, 1, 1] = np.nan
        got = ReferenceEvaluator(m, new_ops=[maxpool.onnx_reference.MaxPool]).run(None, {"X": x})
        exp = run_ort(m, x)
        same(got[0], exp[0])
        same(got[1], exp[1])
