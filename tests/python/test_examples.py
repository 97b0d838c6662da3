# SPDX-License-Identifier: Apache-2.0
"""examples/python/*.py (issue 17, item 7): each runs as a script (in this
interpreter through runpy, or, for the torch one, with /usr/bin/python3, which
has Debian's torch), and its results are checked against an oracle (ONNX Runtime, modeci_mdf alone,
torch.nn.functional), bit-exactly where the operation is exact."""

from __future__ import annotations

import runpy
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pytest

import maxpool

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "python"
SYSTEM_PYTHON = os.environ.get("MAXPOOL_TORCH_PYTHON", "/usr/bin/python3")


def run_main(name, capsys):
    """Runs the example as a script in this interpreter (its __main__ block
    included); returns (what its main() returned, what it printed)."""
    capsys.readouterr()
    g = runpy.run_path(str(EXAMPLES / f"{name}.py"), run_name="__main__")
    return g["result"], capsys.readouterr().out


def run_script(name, python=sys.executable, env=None):
    r = subprocess.run([python, str(EXAMPLES / f"{name}.py")], capture_output=True, text=True, timeout=300,
                       env=env or os.environ.copy())
    assert r.returncode == 0, f"{name}.py failed:\n{r.stdout}\n{r.stderr}"
    return r.stdout


def same(a, b):
    a, b = np.asarray(a), np.asarray(b)
    assert a.dtype == b.dtype and a.shape == b.shape, (a.dtype, a.shape, b.dtype, b.shape)
    assert a.tobytes() == b.tobytes()


def ort_maxpool(x, opset, **attrs):
    ort = pytest.importorskip("onnxruntime")
    from onnx import TensorProto, helper

    node = helper.make_node("MaxPool", ["X"], ["Y", "I"], **attrs)
    g = helper.make_graph([node], "g", [helper.make_tensor_value_info("X", TensorProto.FLOAT, list(x.shape))],
                          [helper.make_tensor_value_info("Y", TensorProto.FLOAT, None),
                           helper.make_tensor_value_info("I", TensorProto.INT64, None)])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 7
    s = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    return s.run(None, {"X": x})


def test_plan_numpy(capsys):
    (x, y, idx), out = run_main("plan_numpy", capsys)
    assert "checks out against its indices" in out and "us per call" in out
    # oracle: ONNX Runtime MaxPool-12 with the same window (k3 s2 p1): no NaN
    # and no empty window here, so its values are PyTorch's; its indices
    # count over the whole tensor, PyTorch's within each (n, c) plane
    ey, ei = ort_maxpool(x, 12, kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1])
    same(y, ey)
    plane = x.shape[2] * x.shape[3]
    same(idx, ei - (np.arange(x.shape[0] * x.shape[1]) * plane).reshape(x.shape[0], x.shape[1], 1, 1))


def test_torch_dlpack():
    probe = subprocess.run([SYSTEM_PYTHON, "-c", "import torch"], capture_output=True) \
        if os.path.exists(SYSTEM_PYTHON) else None
    if probe is None or probe.returncode != 0:
        # without torch the script must say so and exit cleanly
        try:
            import torch  # noqa: F401
        except ImportError:
            assert "skipped: torch is not installed" in run_script("torch_dlpack")
        pytest.skip(f"torch is not importable by {SYSTEM_PYTHON}")
    pkg = Path(maxpool.__file__).resolve().parent
    with tempfile.TemporaryDirectory() as tmp:
        os.symlink(pkg, os.path.join(tmp, "maxpool"))  # maxpool alone, not the venv's numpy
        env = dict(os.environ, PYTHONPATH=tmp, MAXPOOL_LIBRARY=maxpool.library_path, PYTHONNOUSERSITE="1")
        out = run_script("torch_dlpack", SYSTEM_PYTHON, env)
    # the script's own asserts compare with torch.nn.functional
    assert "matches torch.nn.functional" in out and "channels_last: True" in out


def test_onnx_reference_model(capsys):
    pytest.importorskip("onnx")
    (m, x, z, r, p, i), out = run_main("onnx_reference_model", capsys)
    assert "logits (1, 10)" in out
    ey, ei = ort_maxpool(r, 13, kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1])
    same(p, ey)  # the MaxPool node on the evaluator's own R: exact
    same(i, ei)
    ort = pytest.importorskip("onnxruntime")
    ez = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(["Z"], {"X": x})[0]
    np.testing.assert_allclose(z, ez, rtol=1e-4, atol=1e-3)  # Conv/Gemm: numpy vs MLAS summation order


def test_mdf_graph(capsys):
    pytest.importorskip("modeci_mdf")
    (plain, fast), out = run_main("mdf_graph", capsys)
    assert "identical: True" in out
    assert len(plain) == len(fast) == 2
    for a, b in zip(plain, fast):
        same(b, a)  # modeci_mdf alone (ONNX Runtime) is the oracle
