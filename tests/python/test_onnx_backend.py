# SPDX-License-Identifier: Apache-2.0
"""ONNX's own backend node tests for MaxPool, run through maxpool.onnx_backend.

onnx.backend.test.BackendTest collects every node test shipped in the onnx
package (expected outputs computed by onnx's reference code) and the
pytorch-converted / pytorch-operator model tests; we keep the MaxPool ones:
  test_maxpool_*          (node tests, opset 22 as onnx generates them)
  test_MaxPool*           (pytorch-converted: MaxPool1d/2d/3d, old opsets)
  test_operator_maxpool   (pytorch-operator)
Outputs are compared bit-exactly (dtype, shape, every byte), stricter than
onnx's default rtol=1e-3.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
import onnx.backend.test  # noqa: E402

import maxpool.onnx_backend as backend  # noqa: E402


class ExactBackendTest(onnx.backend.test.BackendTest):
    @classmethod
    def assert_similar_outputs(cls, ref_outputs, outputs, rtol, atol, model_dir=None):
        assert len(outputs) == len(ref_outputs), (len(outputs), len(ref_outputs))
        for i, (ref, out) in enumerate(zip(ref_outputs, outputs)):
            ref = np.asarray(ref)
            out = np.asarray(out)
            assert out.dtype == ref.dtype, f"output {i}: dtype {out.dtype}, expected {ref.dtype}"
            assert out.shape == ref.shape, f"output {i}: shape {out.shape}, expected {ref.shape}"
            if out.tobytes() != ref.tobytes():
                np.testing.assert_array_equal(out, ref, err_msg=f"output {i} ({model_dir})")
                raise AssertionError(f"output {i}: equal values, different bits ({model_dir})")


INCLUDE = (r"^test_maxpool_", r"^test_MaxPool", r"^test_operator_maxpool")

backend_test = ExactBackendTest(backend, __name__)
for pattern in INCLUDE:
    backend_test.include(pattern)

# The unittest.TestCase classes for pytest to collect, holding only the
# included CPU tests (the runner would otherwise list every other test of
# every backend as skipped).
_selected = re.compile("|".join(INCLUDE))
COLLECTED = []
for _name, _case in backend_test.test_cases.items():
    for _attr in [a for a in vars(_case) if a.startswith("test_")]:
        if _selected.search(_attr) and _attr.endswith("_cpu"):
            COLLECTED.append(_attr)
        else:
            delattr(_case, _attr)
    globals()[_name] = _case
del _name, _case, _attr


def test_every_maxpool_backend_test_is_collected():
    """Guard against the include patterns silently matching nothing: onnx
    1.23 ships 19 test_maxpool_* node tests, 8 pytorch-converted test_MaxPool*
    models and test_operator_maxpool."""
    assert sum(n.startswith("test_maxpool_") for n in COLLECTED) >= 19
    assert sum(n.startswith("test_MaxPool") for n in COLLECTED) >= 8
    assert sum(n.startswith("test_operator_maxpool") for n in COLLECTED) >= 1


def _model(opset, outputs=("Y",), dtype=onnx.TensorProto.FLOAT, **attrs):
    from onnx import helper  # noqa: PLC0415

    node = helper.make_node("MaxPool", ["X"], list(outputs), **attrs)
    outs = [helper.make_tensor_value_info("Y", dtype, ["N", "C", "H", "W"])]
    if len(outputs) > 1:
        outs.append(helper.make_tensor_value_info(outputs[1], onnx.TensorProto.INT64, ["N", "C", "H", "W"]))
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("X", dtype, ["N", "C", "H", "W"])], outs)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def test_backend_api_against_reference_evaluator():
    """prepare/run (list and dict inputs), run_model and run_node against
    onnx's ReferenceEvaluator on a few hand-made models."""
    from onnx.reference import ReferenceEvaluator  # noqa: PLC0415

    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 3, 7, 6)).astype(np.float32)
    cases = [
        (_model(22, kernel_shape=[3, 2], strides=[2, 1], pads=[1, 0, 1, 1]), {}),
        (_model(12, ("Y", "I"), kernel_shape=[2, 2], dilations=[2, 1], ceil_mode=1, strides=[2, 2]), {}),
        (_model(8, ("Y", "I"), kernel_shape=[2, 3], strides=[1, 2]), {}),
        (_model(1, kernel_shape=[2, 2], auto_pad="SAME_UPPER", strides=[2, 2]), {}),
    ]
    for model, _ in cases:
        expected = ReferenceEvaluator(model).run(None, {"X": x})
        rep = backend.prepare(model, "CPU")
        for got in (rep.run([x]), rep.run({"X": x}), backend.run_model(model, [x])):
            assert len(got) == len(expected)
            for g, e in zip(got, expected):
                assert g.dtype == e.dtype and g.shape == e.shape and g.tobytes() == e.tobytes()
        node = model.graph.node[0]
        got = backend.run_node(node, [x], opset_version=model.opset_import[0].version)
        for g, e in zip(got, expected):
            assert g.dtype == e.dtype and g.shape == e.shape and g.tobytes() == e.tobytes()


def test_backend_refuses_what_it_does_not_run():
    from onnx import helper  # noqa: PLC0415
    from onnx.backend.test.runner import BackendIsNotSupposedToImplementIt  # noqa: PLC0415

    assert backend.supports_device("CPU") and not backend.supports_device("CUDA")
    relu = helper.make_model(helper.make_graph(
        [helper.make_node("Relu", ["X"], ["Y"])], "g",
        [helper.make_tensor_value_info("X", onnx.TensorProto.FLOAT, ["N", "C", "H", "W"])],
        [helper.make_tensor_value_info("Y", onnx.TensorProto.FLOAT, ["N", "C", "H", "W"])]),
        opset_imports=[helper.make_opsetid("", 22)])
    assert not backend.is_compatible(relu)
    assert backend.is_compatible(_model(22, kernel_shape=[2, 2]))
    with pytest.raises(BackendIsNotSupposedToImplementIt):
        backend.prepare(relu)
    # attribute errors come from the C front-end, as ValueError
    bad = _model(22, kernel_shape=[2, 2], strides=[1, 0])
    with pytest.raises(ValueError, match=r"strides\[1\]=0"):
        backend.prepare(bad, "CPU").run([np.zeros((1, 1, 4, 4), np.float32)])
