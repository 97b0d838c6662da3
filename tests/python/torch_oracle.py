# SPDX-License-Identifier: Apache-2.0
"""PyTorch as an oracle, run in another interpreter.

The tests run in a virtualenv with PyPI packages; PyTorch comes from Debian
(``apt-get install python3-torch``), which is built against Debian's numpy and
importable only from the system interpreter (``/usr/bin/python3``; override
with ``MAXPOOL_TORCH_PYTHON``). So the test side (:func:`run_batch`) writes a
batch of cases to a directory -- the inputs as raw bytes in one file, the
operator and its arguments as JSON -- and runs *this file* as a script under
that interpreter, once per batch (importing torch costs 1-2 s). The script
runs each case through ``torch.nn.functional`` on the CPU and writes the
outputs back the same way. Nothing here knows about maxpool.

Case (JSON object):
  op            "max_pool1d" .. "max_pool3d", "adaptive_max_pool1d" .. "3d"
  dtype         "float32" | "float64" | "bfloat16" (bfloat16 travels as its
                16-bit patterns)
  shape         the logical shape ((N,) C, D1, .., Dn)
  off, nbytes   where the C-contiguous input bytes are in in.bin
  kwargs        the functional's keyword arguments (kernel_size, stride,
                padding, dilation, ceil_mode, return_indices / output_size,
                return_indices), ints or lists (passed as tuples)
  channels_last the input is converted to torch.channels_last(_3d) first

Result (JSON object, same order): error (the exception text) or y_shape,
y_off, y_nbytes (logical C-contiguous values), i_off, i_nbytes (int64
indices, absent without return_indices), y_channels_last (the output's
memory format).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile

TORCH_PYTHON = os.environ.get("MAXPOOL_TORCH_PYTHON", "/usr/bin/python3")
NO_TORCH_EXIT = 3


class TorchUnavailable(RuntimeError):
    pass


# --------------------------------------------------------------------------
# test side (the virtualenv's numpy)
# --------------------------------------------------------------------------


def run_batch(cases, inputs, timeout=600):
    """cases: list of dicts (see the module doc, without off/nbytes);
    inputs: the numpy arrays (logical shape, C order). Returns (results,
    versions): results a list of dicts, {"error": str} or {"y": the values
    (the input's numpy dtype, bits as torch wrote them), "indices": int64
    array or None, "y_channels_last": bool}; versions a dict (torch, numpy).
    Raises TorchUnavailable when the interpreter cannot import torch."""
    import numpy as np

    if not os.path.exists(TORCH_PYTHON):
        raise TorchUnavailable(f"{TORCH_PYTHON} does not exist (MAXPOOL_TORCH_PYTHON)")
    with tempfile.TemporaryDirectory(prefix="maxpool-torch-") as d:
        specs = []
        off = 0
        with open(os.path.join(d, "in.bin"), "wb") as f:
            for c, x in zip(cases, inputs):
                b = np.ascontiguousarray(x).tobytes()
                f.write(b)
                specs.append(dict(c, off=off, nbytes=len(b), shape=list(x.shape)))
                off += len(b)
        with open(os.path.join(d, "cases.json"), "w") as f:
            json.dump(specs, f)
        p = subprocess.run([TORCH_PYTHON, os.path.abspath(__file__), d], capture_output=True, text=True,
                           timeout=timeout)
        if p.returncode == NO_TORCH_EXIT:
            raise TorchUnavailable(f"{TORCH_PYTHON} cannot import torch (apt-get install python3-torch): "
                                   f"{p.stderr.strip()[-300:]}")
        if p.returncode != 0:
            raise RuntimeError(f"the torch driver failed (exit {p.returncode}):\n{p.stderr[-3000:]}")
        with open(os.path.join(d, "out.json")) as f:
            meta = json.load(f)
        with open(os.path.join(d, "out.bin"), "rb") as f:
            blob = f.read()
    results = []
    for x, r in zip(inputs, meta["results"]):
        if "error" in r:
            results.append({"error": r["error"]})
            continue
        y = np.frombuffer(blob, x.dtype, count=r["y_nbytes"] // x.dtype.itemsize, offset=r["y_off"])
        y = y.reshape(r["y_shape"]).copy()
        ind = None
        if "i_off" in r:
            ind = np.frombuffer(blob, np.int64, count=r["i_nbytes"] // 8, offset=r["i_off"])
            ind = ind.reshape(r["y_shape"]).copy()
        results.append({"y": y, "indices": ind, "y_channels_last": r["y_channels_last"]})
    return results, meta["versions"]


# --------------------------------------------------------------------------
# driver side (the system interpreter, Debian's numpy and torch)
# --------------------------------------------------------------------------


def _driver(d):
    try:
        import numpy as np
        import torch
        import torch.nn.functional as F
    except Exception as e:  # noqa: BLE001
        print(f"{type(e).__name__}: {e}", file=sys.stderr)
        sys.exit(NO_TORCH_EXIT)

    torch.set_num_threads(1)
    with open(os.path.join(d, "cases.json")) as f:
        specs = json.load(f)
    blob = np.fromfile(os.path.join(d, "in.bin"), np.uint8)
    storage = {"float32": (np.float32, None), "float64": (np.float64, None), "bfloat16": (np.int16, torch.bfloat16)}
    out = []
    results = []
    pos = 0
    for s in specs:
        np_t, view_t = storage[s["dtype"]]
        raw = blob[s["off"]:s["off"] + s["nbytes"]].view(np_t).reshape(s["shape"]).copy()
        x = torch.from_numpy(raw)
        if view_t is not None:
            x = x.view(view_t)
        if s.get("channels_last"):
            x = x.contiguous(memory_format=torch.channels_last if x.dim() == 4 else torch.channels_last_3d)
        try:
            # JSON gives lists; torch wants tuples (output_size with None entries)
            kw = {k: tuple(v) if isinstance(v, list) else v for k, v in s["kwargs"].items()}
            r = getattr(F, s["op"])(x, **kw)
        except Exception as e:  # noqa: BLE001
            results.append({"error": f"{type(e).__name__}: {e}"[:1000]})
            continue
        y, ind = (r if isinstance(r, tuple) else (r, None))
        y_cl = y.dim() >= 4 and y.is_contiguous(
            memory_format=torch.channels_last if y.dim() == 4 else torch.channels_last_3d) and not y.is_contiguous()
        yc = y.contiguous()
        if view_t is not None:
            yc = yc.view(torch.int16)
        yb = yc.numpy().tobytes()
        rec = {"y_shape": list(y.shape), "y_off": pos, "y_nbytes": len(yb), "y_channels_last": bool(y_cl)}
        out.append(yb)
        pos += len(yb)
        if ind is not None:
            ib = ind.contiguous().numpy().astype(np.int64).tobytes()
            rec.update(i_off=pos, i_nbytes=len(ib))
            out.append(ib)
            pos += len(ib)
        results.append(rec)
    with open(os.path.join(d, "out.bin"), "wb") as f:
        for b in out:
            f.write(b)
    versions = {"torch": torch.__version__, "numpy (torch side)": np.__version__,
                "cpu capability": _cpu_capability(torch)}
    with open(os.path.join(d, "out.json"), "w") as f:
        json.dump({"results": results, "versions": versions}, f)


def _cpu_capability(torch):
    try:
        return torch.backends.cpu.get_cpu_capability()
    except Exception:  # noqa: BLE001
        for line in torch.__config__.show().splitlines():
            if "CPU capability usage" in line:
                return line.split(":", 1)[1].strip()
    return "?"


if __name__ == "__main__":
    _driver(sys.argv[1])
