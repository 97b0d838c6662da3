# SPDX-License-Identifier: Apache-2.0
"""maxpool.mdf.use(): an MDF graph's onnx::MaxPool evaluated by maxpool
(issue 17, item 4), against the same graph evaluated by modeci_mdf alone
(ONNX Runtime per node), bit-exactly.

The graph is a real MDF model: modeci_mdf's ONNX importer turns a Conv ->
Relu -> MaxPool -> MaxPool ONNX model into MDF nodes, and EvaluableGraph
evaluates it.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("modeci_mdf")
pytest.importorskip("onnxruntime")
import modeci_mdf.functions.onnx as mdf_onnx  # noqa: E402
from modeci_mdf.execution_engine import EvaluableGraph  # noqa: E402
from modeci_mdf.interfaces.onnx import onnx_to_mdf  # noqa: E402
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

import maxpool  # noqa: E402
import maxpool.mdf  # noqa: E402


def mdf_graph():
    rng = np.random.default_rng(0)
    w = numpy_helper.from_array(rng.standard_normal((4, 3, 3, 3)).astype(np.float32), "W")
    b = numpy_helper.from_array(rng.standard_normal(4).astype(np.float32), "B")
    nodes = [
        helper.make_node("Conv", ["X", "W", "B"], ["C"], name="conv", pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["C"], ["R"], name="relu"),
        helper.make_node("MaxPool", ["R"], ["Y"], name="pool", kernel_shape=[3, 3], strides=[2, 2],
                         pads=[1, 1, 1, 1]),
    ]
    g = helper.make_graph(nodes, "net", [helper.make_tensor_value_info("X", TensorProto.FLOAT, [1, 3, 16, 16])],
                          [helper.make_tensor_value_info("Y", TensorProto.FLOAT, None)], [w, b])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 15)])
    return onnx_to_mdf(m).graphs[0]


def evaluate(graph, x):
    eg = EvaluableGraph(graph, verbose=False)
    eg.evaluate(initializer={"X": x})
    return {nid: {p: en.evaluable_outputs[p].curr_value for p in en.evaluable_outputs}
            for nid, en in eg.enodes.items()}


def same(a, b):
    a, b = np.asarray(a), np.asarray(b)
    assert a.dtype == b.dtype and a.shape == b.shape, (a.dtype, a.shape, b.dtype, b.shape)
    assert a.tobytes() == b.tobytes()


def test_use_context_manager_bit_exact(capsys):
    graph = mdf_graph()
    x = np.random.default_rng(1).standard_normal((1, 3, 16, 16)).astype(np.float32)
    original = mdf_onnx.maxpool
    expected = evaluate(graph, x)
    assert not maxpool.mdf.active()
    calls = []

    def spy(*args, **kwargs):
        calls.append(kwargs.get("X", args[0] if args else None))
        return maxpool.onnx.maxpool(*args, **kwargs)

    with maxpool.mdf.use():
        assert maxpool.mdf.active() and mdf_onnx.maxpool is maxpool.onnx.maxpool
        got = evaluate(graph, x)
        # the graph really went through the replacement: spy on it once
        mdf_onnx.maxpool = spy
        evaluate(graph, x)
        mdf_onnx.maxpool = maxpool.onnx.maxpool
    assert mdf_onnx.maxpool is original and not maxpool.mdf.active()
    assert len(calls) == 1
    exp_y, got_y = expected["pool"]["Y"], got["pool"]["Y"]
    assert isinstance(exp_y, tuple) and isinstance(got_y, tuple) and len(got_y) == len(exp_y) == 2
    same(got_y[0], exp_y[0])  # values
    same(got_y[1], exp_y[1])  # indices
    for nid in ("conv", "relu"):
        for port in expected[nid]:
            same(got[nid][port], expected[nid][port])


def test_use_restore_and_nesting():
    original = mdf_onnx.maxpool
    h = maxpool.mdf.use()
    assert mdf_onnx.maxpool is maxpool.onnx.maxpool
    with maxpool.mdf.use():
        assert maxpool.mdf.active()
    assert maxpool.mdf.active()  # the outer use() is still in force
    maxpool.mdf.restore()
    assert mdf_onnx.maxpool is original
    h.__exit__(None, None, None)  # after restore(): still the original
    assert mdf_onnx.maxpool is original
