# SPDX-License-Identifier: Apache-2.0
"""docs/migration.md runs as written.

Its Python blocks are executed in order in one namespace: ONNX Runtime,
OpenVINO and PyTorch compute the expected values (the real systems), the
maxpool blocks the results, and the page's own `# compare` block asserts
they agree bit for bit. PyTorch comes from this environment when it has
torch, else from Debian's python3-torch (/usr/bin/python3) in a subprocess.
The C block is compiled against the library under test and run; the shell
block runs when the maxpool CLI is found (MAXPOOL_CLI, or a build directory
of the repository) and its outputs are compared with ONNX Runtime's.
"""

from __future__ import annotations

import os
import pathlib
import re
import shutil
import subprocess
import sys

import numpy as np
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "migration.md"


def blocks(lang):
    return re.findall(r"```" + lang + r"\n(.*?)```", DOC.read_text(), re.S)


def python_blocks():
    out = {}
    for b in blocks("python"):
        name = b.splitlines()[0].lstrip("# ").strip()
        out[name] = b
    return out


def have(module):
    try:
        __import__(module)
        return True
    except ImportError:
        return False


def torch_block_in_subprocess(ns, code, tmp_path):
    """Runs the PyTorch block with /usr/bin/python3 (Debian's python3-torch) on ns['x']."""
    py = "/usr/bin/python3"
    if not os.path.exists(py) or subprocess.run([py, "-c", "import torch"], capture_output=True).returncode:
        pytest.skip("no torch here nor in /usr/bin/python3 (python3-torch)")
    np.save(tmp_path / "x.npy", ns["x"])
    script = (
        "import numpy as np\n"
        f"x = np.load({str(tmp_path / 'x.npy')!r})\n"
        + code
        + f"\nnp.save({str(tmp_path / 'y.npy')!r}, y_torch)\nnp.save({str(tmp_path / 'i.npy')!r}, i_torch)\n"
    )
    subprocess.run([py, "-c", script], check=True)
    ns["y_torch"] = np.load(tmp_path / "y.npy")
    ns["i_torch"] = np.load(tmp_path / "i.npy")


def run_python_blocks(tmp_path):
    bl = python_blocks()
    expected = ["setup", "onnxruntime", "maxpool-onnx", "openvino", "maxpool-openvino", "torch", "maxpool-torch",
                "compare"]
    assert list(bl) == expected, list(bl)
    for mod in ("onnx", "onnxruntime", "openvino"):
        if not have(mod):
            pytest.skip(f"{mod} not installed")
    ns = {}
    for name in expected:
        if name == "torch" and not have("torch"):
            torch_block_in_subprocess(ns, bl[name], tmp_path)
        else:
            exec(compile(bl[name], f"{DOC}:{name}", "exec"), ns)
    return ns


def test_migration_python_blocks(tmp_path):
    ns = run_python_blocks(tmp_path)
    # the page's compare block ran; check it compared something non-trivial
    assert ns["y_ort"].shape == (1, 3, 4, 4) and ns["i_ort"].dtype == np.int64
    assert len(np.unique(ns["i_ort"])) > 10


def find_library_and_header():
    import maxpool

    lib = maxpool.library_path
    header = ROOT / "include" / "maxpool.h"
    return lib, header


def test_migration_c_block(tmp_path):
    cc = shutil.which("cc") or shutil.which("gcc")
    if not cc:
        pytest.skip("no C compiler")
    (code,) = blocks("c")
    lib, header = find_library_and_header()
    src = tmp_path / "pool.c"
    src.write_text(code)
    exe = tmp_path / "pool"
    # link the very library the Python package loads. In an installed package it is named
    # libmaxpool.so but its SONAME (the name a program records) is libmaxpool.so.N, and a repaired
    # wheel's copy finds its bundled libraries at $ORIGIN/../maxpool.libs: so a copy under the
    # SONAME, with that directory beside it, as an installed C library would be laid out
    libdir = tmp_path / "lib"
    libdir.mkdir()
    dyn = subprocess.run(["readelf", "-d", lib], capture_output=True, text=True).stdout
    m = re.search(r"\(SONAME\).*\[(.*)\]", dyn)
    shutil.copy(lib, libdir / (m.group(1) if m else os.path.basename(lib)))
    bundled = pathlib.Path(lib).resolve().parent.parent / "maxpool.libs"
    if bundled.is_dir():
        (tmp_path / "maxpool.libs").symlink_to(bundled)
    subprocess.run([cc, "-std=c11", "-Wall", "-Werror", str(src), "-I", str(header.parent), lib,
                    f"-Wl,-rpath,{libdir}", "-o", str(exe)], check=True)
    out = subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout
    # the block's data: x[k] = (k * 37) % 101 - 50; y[0] is the max of the 2x2 corner of plane 0
    x = np.array([(k * 37) % 101 - 50.0 for k in range(192)], np.float32).reshape(1, 3, 8, 8)
    corner = x[0, 0, :2, :2]
    v = corner.max()
    idx = int(np.flatnonzero(corner.ravel() == v)[0])
    want = f"y[0] = {v:g} at {(idx // 2) * 8 + idx % 2}"
    assert out.strip() == want, (out, want)


def find_cli():
    env = os.environ.get("MAXPOOL_CLI")
    if env:
        return env
    for d in ("build-test", "build"):
        p = ROOT / d / "maxpool"
        if p.is_file() and os.access(p, os.X_OK):
            return str(p)
    return None


def test_migration_cli_block(tmp_path):
    cli = find_cli()
    if not cli:
        pytest.skip("maxpool CLI not built (set MAXPOOL_CLI)")
    if not have("onnxruntime"):
        pytest.skip("onnxruntime not installed")
    (code,) = blocks("sh")
    script = code.replace("python3 -c", f"{sys.executable} -c").replace("\nmaxpool ", f"\n{cli} ")
    subprocess.run(["bash", "-euc", script], cwd=tmp_path, check=True)
    ns = run_python_blocks(tmp_path)
    for kind, y, i in (("onnx", "y_ort", "i_ort"), ("ov", "y_ov", "i_ov"), ("torch", "y_torch", "i_torch")):
        assert np.load(tmp_path / f"y_{kind}.npy").tobytes() == ns[y].tobytes(), kind
        assert (np.load(tmp_path / f"i_{kind}.npy") == ns[i]).all(), kind
