# SPDX-License-Identifier: Apache-2.0
"""torch tensors through maxpool (issue 17, item 3): DLPack in and out, no
copy of the input, channels_last memory format kept, unbatched inputs of
max_pool{1,2,3}d and adaptive_max_pool{1,2,3}d, out= tensors, plans.

The oracle is PyTorch itself (torch.nn.functional), compared bit-exactly.

PyTorch comes from Debian's python3-torch, which lives in /usr/bin/python3,
not in the test venv. So: run under an interpreter that has torch, these are
ordinary pytest tests; under one without (the venv), test_under_system_torch
runs this file as a script with /usr/bin/python3 (the `__main__` block below
calls every check and reports each result), and each check becomes one
pytest result here. Without any torch at all they skip, saying why.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

try:
    import torch
    import torch.nn.functional as F
except ImportError:  # the venv: run under /usr/bin/python3 below
    torch = None

import maxpool

SYSTEM_PYTHON = os.environ.get("MAXPOOL_TORCH_PYTHON", "/usr/bin/python3")


def same(actual, expected):
    assert isinstance(actual, torch.Tensor), type(actual)
    assert actual.dtype == expected.dtype and actual.shape == expected.shape, (actual.dtype, actual.shape,
                                                                                expected.dtype, expected.shape)
    a = actual.contiguous().view(torch.uint8) if actual.dtype != torch.bool else actual
    e = expected.contiguous().view(torch.uint8) if expected.dtype != torch.bool else expected
    assert torch.equal(a, e), f"values differ:\n{actual}\n{expected}"


def rand(*shape, dtype=None, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(*shape, generator=g)
    x.view(-1)[::7] = x.view(-1)[::5][: x.view(-1)[::7].numel()]  # ties
    if dtype is not None:
        x = x.to(dtype)
    return x


# --------------------------------------------------------------------------
# checks (each: torch is the oracle)
# --------------------------------------------------------------------------


def check_max_pool_batched_and_unbatched():
    for rank, fn, tfn in ((1, maxpool.torch.max_pool1d, F.max_pool1d), (2, maxpool.torch.max_pool2d, F.max_pool2d),
                          (3, maxpool.torch.max_pool3d, F.max_pool3d)):
        spatial = (7, 6, 5)[:rank]
        for shape in ((2, 3) + spatial, (3,) + spatial):
            x = rand(*shape, seed=rank)
            x.view(-1)[3] = float("nan")
            for kw in (dict(kernel_size=2), dict(kernel_size=3, stride=2, padding=1, ceil_mode=True),
                       dict(kernel_size=2, stride=1, dilation=2)):
                ey, ei = tfn(x, return_indices=True, **kw)
                y, i = fn(x, return_indices=True, **kw)
                same(y, ey)
                same(i, ei)
                same(fn(x, **kw), tfn(x, **kw))


def check_adaptive_batched_and_unbatched():
    for rank, fn, tfn in ((1, maxpool.torch.adaptive_max_pool1d, F.adaptive_max_pool1d),
                          (2, maxpool.torch.adaptive_max_pool2d, F.adaptive_max_pool2d),
                          (3, maxpool.torch.adaptive_max_pool3d, F.adaptive_max_pool3d)):
        spatial = (9, 7, 5)[:rank]
        for shape in ((2, 3) + spatial, (3,) + spatial):
            x = rand(*shape, seed=10 + rank)
            sizes = [3, (4, 2, 3)[:rank]] + ([(None, 3, 2)[:rank]] if rank > 1 else [])  # torch 1.13: no (None,)
            for size in sizes:
                ey, ei = tfn(x, size, return_indices=True)
                y, i = fn(x, size, return_indices=True)
                same(y, ey)
                same(i, ei)
                same(fn(x, size), tfn(x, size))
    # the generic function, batched, torch flavour
    x = rand(2, 3, 9, 7, seed=4)
    ey, ei = F.adaptive_max_pool2d(x, (4, 3), return_indices=True)
    y, i = maxpool.adaptive_max_pool(x, (4, 3))
    same(y, ey)
    same(i, ei)


def check_channels_last_no_copy():
    x = rand(2, 8, 9, 10, seed=5).to(memory_format=torch.channels_last)
    ey, ei = F.max_pool2d(x, 3, 2, 1, return_indices=True)
    # pooled in place: the plan refuses anything it would have to copy
    p = maxpool.plan(maxpool.torch.max_pool2d, (2, 9, 10, 8), np.float32, 3, 2, 1, return_indices=True,
                     layout="NHWC")
    y, i = p(x)
    same(y, ey)
    same(i, ei)
    assert y.is_contiguous(memory_format=torch.channels_last) and not y.is_contiguous()
    # the function: same results, same memory format as torch's
    y, i = maxpool.torch.max_pool2d(x, 3, 2, 1, return_indices=True)
    same(y, ey)
    same(i, ei)
    assert ey.is_contiguous(memory_format=torch.channels_last)
    assert y.is_contiguous(memory_format=torch.channels_last) and y.stride() == ey.stride()
    # the input array maxpool runs on is the tensor's own memory
    a, fw = maxpool._core.import_array(x)
    mem, layout, strided = maxpool._core.resolve_layout(a, None)
    assert fw == "torch" and strided and mem.ctypes.data == x.data_ptr()
    # 3-D: channels_last_3d
    x3 = rand(1, 4, 5, 6, 7, seed=6).to(memory_format=torch.channels_last_3d)
    ey = F.max_pool3d(x3, 2, ceil_mode=True)
    y = maxpool.torch.max_pool3d(x3, 2, ceil_mode=True)
    same(y, ey)
    assert y.is_contiguous(memory_format=torch.channels_last_3d)
    # adaptive, channels_last
    ey, ei = F.adaptive_max_pool2d(x, (4, 3), return_indices=True)
    y, i = maxpool.torch.adaptive_max_pool2d(x, (4, 3), return_indices=True)
    same(y, ey)
    same(i, ei)


def check_out_tensors():
    x = rand(2, 3, 8, 8, seed=7)
    ey, ei = F.max_pool2d(x, 2, return_indices=True)
    oy, oi = torch.empty_like(ey), torch.empty_like(ei)
    ry, ri = maxpool.torch.max_pool2d(x, 2, return_indices=True, out=(oy, oi))
    assert ry is oy and ri is oi
    same(oy, ey)
    same(oi, ei)
    # through a plan, unbatched, values only
    xu = x[0].clone()
    o = torch.zeros(3, 4, 4)
    p = maxpool.plan(maxpool.torch.max_pool2d, (3, 8, 8), np.float32, 2)
    assert p(xu, out=o) is o
    same(o, F.max_pool2d(xu, 2))
    for bad, msg in ((torch.zeros(3, 4, 5), "shape"), (torch.zeros(3, 4, 4, dtype=torch.float64), "dtype"),
                     (torch.zeros(3, 4, 8)[:, :, ::2], "contiguous")):
        try:
            p(xu, out=bad)
        except ValueError as e:
            assert msg in str(e), (msg, str(e))
        else:
            raise AssertionError(f"no error for a bad out ({msg})")


def check_dtypes_grad_and_errors():
    x = rand(1, 2, 6, 6, seed=8)
    for dt in (torch.float64, torch.float16, torch.int32, torch.int64, torch.uint8, torch.int8):
        xd = (x * 50).to(dt) if not dt.is_floating_point else x.to(dt)
        try:
            ey, ei = F.max_pool2d(xd, 2, return_indices=True)
        except RuntimeError:  # not implemented for this dtype on the CPU (integers; float16 in torch 1.13)
            ey = ei = None
        y, i = maxpool.torch.max_pool2d(xd, 2, return_indices=True)
        assert isinstance(y, torch.Tensor) and y.dtype == dt and i.dtype == torch.int64
        if ey is not None:
            same(y, ey)
            same(i, ei)
        else:  # torch's float64 result is exact for these values (no NaN, every one fits a double)
            ef, efi = F.max_pool2d(xd.to(torch.float64), 2, return_indices=True)
            same(y, ef.to(dt))
            same(i, efi)
    xg = x.clone().requires_grad_(True)
    y = maxpool.torch.max_pool2d(xg, 2)
    same(y, F.max_pool2d(xg, 2).detach())
    assert not y.requires_grad
    try:
        maxpool.torch.max_pool2d(x, 2, out=torch.zeros(1, 2, 3, 3, dtype=torch.float64))
    except ValueError as e:
        assert "dtype" in str(e)
    else:
        raise AssertionError("no error for an out= of the wrong dtype")


class Skip(Exception):
    pass


def check_bfloat16():
    # with or without ml_dtypes (Debian's torch has none): the tensor's bits
    x = rand(2, 3, 7, 6, seed=9).to(torch.bfloat16)
    x.view(-1)[5] = float("nan")
    ey, ei = F.max_pool2d(x, 3, 2, 1, return_indices=True)
    y, i = maxpool.torch.max_pool2d(x, 3, 2, 1, return_indices=True)
    same(y, ey)
    same(i, ei)
    out = torch.empty_like(ey)
    assert maxpool.torch.max_pool2d(x, 3, 2, 1, out=out) is out
    same(out, ey)
    xa = rand(3, 9, seed=10).to(torch.bfloat16)
    same(maxpool.torch.adaptive_max_pool1d(xa, 4), F.adaptive_max_pool1d(xa, 4))


CHECKS = {name: fn for name, fn in sorted(globals().items()) if name.startswith("check_")}


# --------------------------------------------------------------------------
# pytest entry points
# --------------------------------------------------------------------------

try:
    import pytest
except ImportError:  # run as a script by /usr/bin/python3, which may lack pytest
    pytest = None


def _fixture(f):
    return pytest.fixture(scope="module")(f) if pytest else f


def _parametrize(f):
    return pytest.mark.parametrize("name", list(CHECKS))(f) if pytest else f


@_fixture
def system_results():
    """Runs this file with /usr/bin/python3 (which has Debian's torch) once;
    {check name: "ok" or the failure}."""
    if not os.path.exists(SYSTEM_PYTHON):
        pytest.skip(f"no torch here and no {SYSTEM_PYTHON}")
    probe = subprocess.run([SYSTEM_PYTHON, "-c", "import torch, numpy"], capture_output=True, text=True)
    if probe.returncode != 0:
        pytest.skip(f"torch is not importable here nor by {SYSTEM_PYTHON} (apt-get install python3-torch): "
                    f"{probe.stderr.strip().splitlines()[-1:]}")
    pkg = Path(maxpool.__file__).resolve().parent
    with tempfile.TemporaryDirectory() as tmp:
        # only the maxpool package on the path: not the venv's site-packages,
        # whose numpy would shadow the one Debian's torch is built against
        os.symlink(pkg, os.path.join(tmp, "maxpool"))
        env = dict(os.environ, PYTHONPATH=tmp, MAXPOOL_LIBRARY=maxpool.library_path, PYTHONNOUSERSITE="1")
        r = subprocess.run([SYSTEM_PYTHON, os.path.abspath(__file__), "--json"], capture_output=True, text=True,
                           env=env, timeout=300)
    lines = [ln for ln in r.stdout.splitlines() if ln.startswith("{")]
    if not lines:
        pytest.fail(f"{SYSTEM_PYTHON} {__file__} failed (rc {r.returncode}):\n{r.stdout}\n{r.stderr}")
    return json.loads(lines[-1])


@_parametrize
def test_with_torch(name, request):
    if torch is not None:
        try:
            CHECKS[name]()
        except Skip as e:
            pytest.skip(str(e))
        return
    results = request.getfixturevalue("system_results")
    if str(results.get(name)).startswith("skip: "):
        pytest.skip(f"under {SYSTEM_PYTHON}: {results[name][6:]}")
    assert results.get(name) == "ok", f"{name} under {SYSTEM_PYTHON}: {results.get(name)}"


if __name__ == "__main__":
    import traceback

    results = {}
    for name, fn in CHECKS.items():
        try:
            fn()
            results[name] = "ok"
        except Skip as e:
            results[name] = f"skip: {e}"
        except Exception:  # report every failure, not just the first
            results[name] = traceback.format_exc()
    failed = [n for n, v in results.items() if v != "ok" and not v.startswith("skip: ")]
    if "--json" in sys.argv:
        print(json.dumps(results))
    else:
        for n, v in results.items():
            print(n, v if v == "ok" or v.startswith("skip: ") else "FAILED\n" + v)
    sys.exit(1 if failed else 0)
