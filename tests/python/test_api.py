# SPDX-License-Identifier: Apache-2.0
"""The Python API of maxpool (python/src/maxpool): spec examples, errors,
array handling, every dtype, the modeci_mdf drop-in.

Expected values come from the spec texts (ONNX and OpenVINO operator specs,
where their examples misprint: what OpenVINO computes), from plain numpy loops written here from the specs'
definitions, or from modeci_mdf itself (which runs ONNX Runtime) -- never from
maxpool's own output. Comparisons are bit-exact (dtype, shape and bytes).
"""

from __future__ import annotations

import ctypes
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import maxpool
from maxpool import _lib

try:
    import ml_dtypes
except ImportError:  # pragma: no cover
    ml_dtypes = None

REPO = Path(__file__).resolve().parents[2]


# --------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------

def same(actual, expected):
    """Bit-exact equality: dtype, shape and every byte (NaN == NaN)."""
    actual = np.asarray(actual)
    expected = np.asarray(expected)
    assert actual.dtype == expected.dtype, (actual.dtype, expected.dtype)
    assert actual.shape == expected.shape, (actual.shape, expected.shape)
    if actual.tobytes() != expected.tobytes():
        raise AssertionError(f"values differ:\nactual\n{actual}\nexpected\n{expected}")


def lowest(dt):
    dt = np.dtype(dt)
    if dt.kind in "iu":
        return np.iinfo(dt).min
    if ml_dtypes is not None and dt == np.dtype(ml_dtypes.bfloat16):
        return ml_dtypes.finfo(dt).min
    return np.finfo(dt).min


def np_pool(x, kernel, strides, pads_begin, pads_end, dilations, *, start, nan_propagate=False, index_axis=0,
            ceil_torch=False):
    """Max pooling by the definition: fixed windows, taps o*s - pb + j*d
    inside the input, running max from `start` replaced when x > best (or x
    is NaN under propagate), flat indices from dimension index_axis on."""
    x = np.asarray(x)
    n_, c_ = x.shape[:2]
    sp = x.shape[2:]
    r = len(sp)
    out = []
    for i in range(r):
        span = sp[i] + pads_begin[i] + pads_end[i] - ((kernel[i] - 1) * dilations[i] + 1)
        if ceil_torch:
            o = -((-span) // strides[i]) + 1
            if (o - 1) * strides[i] >= sp[i] + pads_begin[i]:
                o -= 1
        else:
            o = span // strides[i] + 1
        out.append(o)
    out = tuple(out)
    y = np.empty((n_, c_) + out, x.dtype)
    ind = np.empty((n_, c_) + out, np.int64)
    s_total = int(np.prod(sp))
    start = np.array(start, dtype=x.dtype)[()]
    for n in range(n_):
        for c in range(c_):
            base = {0: (n * c_ + c) * s_total, 1: c * s_total, 2: 0}[index_axis]
            for o in np.ndindex(*out):
                best, bi = start, -1
                for t in np.ndindex(*kernel):
                    pos = tuple(o[i] * strides[i] - pads_begin[i] + t[i] * dilations[i] for i in range(r))
                    if not all(0 <= pos[i] < sp[i] for i in range(r)):
                        continue
                    v = x[(n, c) + pos]
                    if v > best or (nan_propagate and v != v):
                        best, bi = v, base + int(np.ravel_multi_index(pos, sp))
                y[(n, c) + o] = best
                ind[(n, c) + o] = bi
    return y, ind


def np_adaptive(x, out, *, nan_propagate, index_dtype):
    """Adaptive max pooling by the definition (aclnnAdaptiveMaxPool3d doc, PyTorch): window o of
    an axis covers [floor(o*in/out), ceil((o+1)*in/out)); indices per plane."""
    x = np.asarray(x)
    n_, c_ = x.shape[:2]
    sp = x.shape[2:]
    y = np.empty((n_, c_) + tuple(out), x.dtype)
    ind = np.empty((n_, c_) + tuple(out), index_dtype)
    for n in range(n_):
        for c in range(c_):
            for o in np.ndindex(*out):
                ranges = [range((o[i] * sp[i]) // out[i], -((-(o[i] + 1) * sp[i]) // out[i])) for i in range(len(sp))]
                best, bi = None, -1
                for pos in np.ndindex(*[len(rg) for rg in ranges]):
                    p = tuple(ranges[i][pos[i]] for i in range(len(sp)))
                    v = x[(n, c) + p]
                    if best is None or v > best or (nan_propagate and v != v):
                        best, bi = v, int(np.ravel_multi_index(p, sp))
                y[(n, c) + o] = best
                ind[(n, c) + o] = bi
    return y, ind


# --------------------------------------------------------------------------
# ctypes mirrors of the C structs and enums
# --------------------------------------------------------------------------

_C_CONSTANTS = {
    "MAXPOOL_MAX_SPATIAL": _lib.MAX_SPATIAL, "MAXPOOL_MESSAGE_SIZE": _lib.MESSAGE_SIZE,
    "MAXPOOL_OK": _lib.OK, "MAXPOOL_ERR_NULL_POINTER": _lib.ERR_NULL_POINTER,
    "MAXPOOL_ERR_INVALID_ATTRIBUTE": _lib.ERR_INVALID_ATTRIBUTE, "MAXPOOL_ERR_INVALID_SHAPE": _lib.ERR_INVALID_SHAPE,
    "MAXPOOL_ERR_UNSUPPORTED": _lib.ERR_UNSUPPORTED, "MAXPOOL_ERR_OVERFLOW": _lib.ERR_OVERFLOW,
    "MAXPOOL_ERR_OUT_OF_MEMORY": _lib.ERR_OUT_OF_MEMORY,
    "MAXPOOL_F32": _lib.F32, "MAXPOOL_F64": _lib.F64, "MAXPOOL_F16": _lib.F16, "MAXPOOL_BF16": _lib.BF16,
    "MAXPOOL_I8": _lib.I8, "MAXPOOL_U8": _lib.U8, "MAXPOOL_I16": _lib.I16, "MAXPOOL_U16": _lib.U16,
    "MAXPOOL_I32": _lib.I32, "MAXPOOL_I64": _lib.I64, "MAXPOOL_DTYPE_COUNT": _lib.DTYPE_COUNT,
    "MAXPOOL_CHANNELS_FIRST": _lib.CHANNELS_FIRST, "MAXPOOL_CHANNELS_LAST": _lib.CHANNELS_LAST,
    "MAXPOOL_WINDOW_FIXED": _lib.WINDOW_FIXED, "MAXPOOL_WINDOW_ADAPTIVE": _lib.WINDOW_ADAPTIVE,
    "MAXPOOL_PAD_EXPLICIT": _lib.PAD_EXPLICIT, "MAXPOOL_PAD_VALID": _lib.PAD_VALID,
    "MAXPOOL_PAD_SAME_UPPER": _lib.PAD_SAME_UPPER, "MAXPOOL_PAD_SAME_LOWER": _lib.PAD_SAME_LOWER,
    "MAXPOOL_ROUND_FLOOR": _lib.ROUND_FLOOR, "MAXPOOL_ROUND_CEIL": _lib.ROUND_CEIL,
    "MAXPOOL_ROUND_CEIL_TORCH": _lib.ROUND_CEIL_TORCH,
    "MAXPOOL_INDEX_NONE": _lib.INDEX_NONE, "MAXPOOL_INDEX_I32": _lib.INDEX_I32, "MAXPOOL_INDEX_I64": _lib.INDEX_I64,
    "MAXPOOL_INDEX_ROW_MAJOR": _lib.INDEX_ROW_MAJOR, "MAXPOOL_INDEX_COL_MAJOR": _lib.INDEX_COL_MAJOR,
    "MAXPOOL_NAN_IGNORE": _lib.NAN_IGNORE, "MAXPOOL_NAN_PROPAGATE": _lib.NAN_PROPAGATE,
    "MAXPOOL_EMPTY_LOWEST": _lib.EMPTY_LOWEST, "MAXPOOL_EMPTY_NEG_INF": _lib.EMPTY_NEG_INF,
    "MAXPOOL_EMPTY_INDEX_MINUS_ONE": _lib.EMPTY_INDEX_MINUS_ONE,
    "MAXPOOL_EMPTY_INDEX_FIRST_TAP": _lib.EMPTY_INDEX_FIRST_TAP,
    "MAXPOOL_EMPTY_INDEX_PLANE_START": _lib.EMPTY_INDEX_PLANE_START,
    "MAXPOOL_INIT_EMPTY_VALUE": _lib.INIT_EMPTY_VALUE,
    "MAXPOOL_INIT_FIRST_ELEMENT": _lib.INIT_FIRST_ELEMENT,
    "MAXPOOL_ISA_AUTO": _lib.ISA_AUTO, "MAXPOOL_ISA_SCALAR": _lib.ISA_SCALAR, "MAXPOOL_ISA_SSE2": _lib.ISA_SSE2,
    "MAXPOOL_ISA_AVX2": _lib.ISA_AVX2, "MAXPOOL_ISA_AVX512": _lib.ISA_AVX512, "MAXPOOL_ISA_NEON": _lib.ISA_NEON,
    "MAXPOOL_ADAPTIVE_TORCH": _lib.ADAPTIVE_TORCH, "MAXPOOL_ADAPTIVE_ACLNN": _lib.ADAPTIVE_ACLNN,
    "MAXPOOL_ADAPTIVE_OPENVINO": _lib.ADAPTIVE_OPENVINO,
}
_C_CONSTANTS["MAXPOOL_INDEX_CHANNELS_LAST"] = _lib.INDEX_CHANNELS_LAST


def test_struct_layout_matches_c():
    """sizeof, every field offset and every enum value of _lib's ctypes
    mirrors agree with the C compiler's view of include/maxpool.h."""
    cc = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc") or shutil.which("clang")
    header = REPO / "include" / "maxpool.h"
    if cc is None or not header.exists():
        pytest.skip("needs a C compiler and the repository's include/maxpool.h")
    lines = []
    expected = {}
    for cname, cls in _lib.STRUCTS.items():
        lines.append(f'printf("{cname} %zu\\n", sizeof({cname}));')
        expected[cname] = ctypes.sizeof(cls)
        for fname, _ in cls._fields_:
            key = f"{cname}.{fname}"
            lines.append(f'printf("{key} %zu\\n", offsetof({cname}, {fname}));')
            expected[key] = getattr(cls, fname).offset
    for name, value in _C_CONSTANTS.items():
        lines.append(f'printf("{name} %lld\\n", (long long)({name}));')
        expected[name] = value
    src = "#include <stddef.h>\n#include <stdio.h>\n#include \"maxpool.h\"\nint main(void) {\n" + "\n".join(
        lines) + "\nreturn 0;\n}\n"
    tmp = Path(os.environ.get("TMPDIR", "/tmp")) / f"maxpool_layout_{os.getpid()}"
    tmp.mkdir(exist_ok=True)
    (tmp / "layout.c").write_text(src)
    subprocess.run([cc, "-std=c11", "-I", str(header.parent), str(tmp / "layout.c"), "-o", str(tmp / "layout")],
                   check=True)
    out = subprocess.run([str(tmp / "layout")], check=True, capture_output=True, text=True).stdout
    got = {k: int(v) for k, v in (line.split() for line in out.splitlines())}
    shutil.rmtree(tmp, ignore_errors=True)
    assert got == expected


def test_library_env_var():
    """MAXPOOL_LIBRARY names the library to load; a missing one is an ImportError naming it."""
    code = "import maxpool; print(maxpool.library_path)"
    env = dict(os.environ, MAXPOOL_LIBRARY=maxpool.library_path)
    out = subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True)
    assert out.stdout.strip() == maxpool.library_path
    env["MAXPOOL_LIBRARY"] = "/nonexistent/libmaxpool.so"
    res = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert res.returncode != 0
    assert "ImportError" in res.stderr and "/nonexistent/libmaxpool.so" in res.stderr


# --------------------------------------------------------------------------
# OpenVINO MaxPool examples (OpenVINO MaxPool-14 and MaxPool-8 specs, misprints fixed)
# --------------------------------------------------------------------------

A33 = [[[[-1, 2, 3], [4, 5, -6], [-7, 8, 9]]]]
B33 = [[[[1, 2, 3], [4, 5, 6], [7, 8, 9]]]]

OV_EXAMPLES = {
    # 1: explicit pads 1/1 (from MaxPool-8); row 1 is [4, 5, 5, 3] / [3, 4, 4, 2] (OpenVINO, ORT; the text: -6 / 5)
    "1_explicit": (A33, dict(strides=[1, 1], kernel=[2, 2], pads_begin=[1, 1], pads_end=[1, 1],
                             rounding_type="floor", auto_pad="explicit"),
                   [[[[-1, 2, 3, 3], [4, 5, 5, 3], [4, 8, 9, 9], [-7, 8, 9, 9]]]],
                   [[[[0, 1, 2, 2], [3, 4, 4, 2], [3, 7, 8, 8], [6, 7, 8, 8]]]]),
    "2_valid_1d": ([[[-1, 2, 3, 5, -7, 9, 1]]],
                   dict(strides=[1], kernel=[3], pads_begin=[0], pads_end=[0], rounding_type="floor",
                        auto_pad="valid"),
                   [[[3, 5, 5, 9, 9]]], [[[2, 3, 3, 5, 5]]]),
    "3_same_lower": (A33, dict(strides=[1, 1], kernel=[2, 2], pads_begin=[0, 0], pads_end=[0, 0],
                               rounding_type="floor", auto_pad="same_lower"),
                     [[[[-1, 2, 3], [4, 5, 5], [4, 8, 9]]]],
                     [[[[0, 1, 2], [3, 4, 4], [3, 7, 8]]]]),
    "4_same_upper": ([[[[-1, 2, 3], [4, 5, -6], [-7, 8, 9]], [[2, -1, 5], [6, -7, 1], [8, 2, -3]]]],
                     dict(strides=[1, 1], kernel=[2, 2], pads_begin=[0, 0], pads_end=[0, 0],
                          rounding_type="floor", auto_pad="same_upper"),
                     [[[[5, 5, 3], [8, 9, 9], [8, 9, 9]], [[6, 5, 5], [8, 2, 1], [8, 2, -3]]]],
                     [[[[4, 4, 2], [7, 8, 8], [7, 8, 8]], [[12, 11, 11], [15, 16, 14], [15, 16, 17]]]]),
    # 5 (MaxPool-14 only): ceil_torch needs pads 1/1, which the MaxPool-14 text lost
    "5_ceil_torch": (B33, dict(strides=[2, 2], kernel=[2, 2], pads_begin=[1, 1], pads_end=[1, 1],
                               rounding_type="ceil_torch"),
                     [[[[1, 3], [7, 9]]]], [[[[0, 2], [6, 8]]]]),
    "6_valid_ceil": (A33, dict(strides=[2, 2], kernel=[2, 2], pads_begin=[0, 0], pads_end=[0, 0],
                               rounding_type="ceil", auto_pad="valid"),
                     [[[[5, 3], [8, 9]]]], [[[[4, 2], [7, 8]]]]),
    "7_dilations": (B33, dict(strides=[1, 1], kernel=[2, 2], dilations=[2, 2], pads_begin=[1, 1], pads_end=[1, 1],
                              rounding_type="floor", auto_pad="explicit"),
                    [[[[5, 6, 5], [8, 9, 8], [5, 6, 5]]]], [[[[4, 5, 4], [7, 8, 7], [4, 5, 4]]]]),
    # 8 (000, cut off there; in full as 004's example 7): axis = 2
    "8_axis": ([[[[1, 2, 3], [4, 5, 6], [7, 8, 9]], [[10, 11, 12], [13, 14, 15], [16, 17, 18]]]],
               dict(strides=[1, 1], kernel=[2, 2], dilations=[1, 1], pads_begin=[0, 0], pads_end=[0, 0],
                    rounding_type="floor", auto_pad="explicit", axis=2),
               [[[[5, 6], [8, 9]], [[14, 15], [17, 18]]]], [[[[4, 5], [7, 8]], [[4, 5], [7, 8]]]]),
}


@pytest.mark.parametrize("name", sorted(OV_EXAMPLES))
@pytest.mark.parametrize("version", [8, 14])
@pytest.mark.parametrize("dtype", [np.float32, np.int32])
def test_openvino_examples(name, version, dtype):
    x, kw, values, indices = OV_EXAMPLES[name]
    if kw.get("rounding_type") == "ceil_torch" and version < 14:
        with pytest.raises(ValueError, match="ceil_torch"):
            maxpool.openvino.max_pool(np.array(x, dtype), version=version, **kw)
        return
    y, ind = maxpool.openvino.max_pool(np.array(x, dtype), version=version, **kw)
    same(y, np.array(values, dtype))
    same(ind, np.array(indices, np.int64))
    y, ind = maxpool.openvino.max_pool(np.array(x, dtype), version=version, index_element_type="i32", **kw)
    same(ind, np.array(indices, np.int32))


@pytest.mark.parametrize("name", ["1_explicit", "2_valid_1d", "3_same_lower", "4_same_upper", "6_valid_ceil"])
def test_openvino_examples_version1(name):
    x, kw, values, _ = OV_EXAMPLES[name]
    y = maxpool.openvino.max_pool(np.array(x, np.float32), version=1, **kw)
    assert isinstance(y, np.ndarray)
    same(y, np.array(values, np.float32))


def test_openvino_version1_rejects_version8_attributes():
    x = np.array(B33, np.float32)
    base = dict(strides=[1, 1], kernel=[2, 2], pads_begin=[0, 0], pads_end=[0, 0], version=1)
    with pytest.raises(ValueError, match="dilations"):
        maxpool.openvino.max_pool(x, dilations=[1, 1], **base)
    with pytest.raises(ValueError, match="axis"):
        maxpool.openvino.max_pool(x, axis=2, **base)
    with pytest.raises(ValueError, match="index_element_type"):
        maxpool.openvino.max_pool(x, index_element_type="i32", **base)


def test_openvino_ceil_keeps_window_starting_in_padding():
    """OpenVINO "ceil" (unlike ceil_torch) keeps a last window that starts in
    the end padding (OpenVINO MaxPool-14 spec: only ceil_torch reduces the dimension)."""
    x = np.array(B33, np.float32)
    kw = dict(strides=[2, 2], kernel=[2, 2], pads_begin=[1, 1], pads_end=[1, 1])
    y, _ = maxpool.openvino.max_pool(x, rounding_type="ceil", **kw)
    assert y.shape == (1, 1, 3, 3)  # ceil((3 + 2 - 2) / 2) + 1
    y, _ = maxpool.openvino.max_pool(x, rounding_type="ceil_torch", **kw)
    assert y.shape == (1, 1, 2, 2)


# --------------------------------------------------------------------------
# ONNX
# --------------------------------------------------------------------------

def test_onnx_basic_and_storage_order():
    x = np.array(A33, np.float32)
    y = maxpool.onnx.max_pool(x, kernel_shape=[2, 2])
    same(y, np.array([[[[5, 5], [8, 9]]]], np.float32))
    y, ind = maxpool.onnx.max_pool(x, kernel_shape=[2, 2], return_indices=True)
    same(ind, np.array([[[[4, 4], [7, 8]]]], np.int64))
    # storage_order=1: the index of (h, w) in a 3x3 plane is w*3 + h
    _, ind = maxpool.onnx.max_pool(x, kernel_shape=[2, 2], storage_order=1, return_indices=True)
    same(ind, np.array([[[[4, 4], [5, 8]]]], np.int64))


def test_onnx_indices_flat_over_whole_tensor():
    """ONNX Indices are flat over N x C x D1..Dn (ONNX MaxPool spec)."""
    rng = np.random.default_rng(1)
    x = rng.standard_normal((2, 3, 4, 5)).astype(np.float32)
    y, ind = maxpool.onnx.max_pool(x, kernel_shape=[2, 2], strides=[2, 2], pads=[1, 0, 1, 1], return_indices=True)
    ry, rind = np_pool(x, [2, 2], [2, 2], [1, 0], [1, 1], [1, 1], start=lowest(np.float32))
    same(y, ry)
    same(ind, rind)
    same(x.reshape(-1)[ind], y)


def test_onnx_opset_gating():
    x = np.array(A33, np.float32)
    with pytest.raises(ValueError, match="ceil_mode"):
        maxpool.onnx.max_pool(x, kernel_shape=[2, 2], ceil_mode=0, opset=8)
    with pytest.raises(ValueError, match="dilations"):
        maxpool.onnx.max_pool(x, kernel_shape=[2, 2], dilations=[1, 1], opset=9)
    with pytest.raises(ValueError, match="storage_order"):
        maxpool.onnx.max_pool(x, kernel_shape=[2, 2], storage_order=0, opset=7)
    with pytest.raises(ValueError, match="Indices"):
        maxpool.onnx.max_pool(x, kernel_shape=[2, 2], opset=1, return_indices=True)
    # int8 from opset 12 on, bfloat16 from 22 on
    xi = np.array(A33, np.int8)
    with pytest.raises(ValueError, match="i8"):
        maxpool.onnx.max_pool(xi, kernel_shape=[2, 2], opset=11)
    same(maxpool.onnx.max_pool(xi, kernel_shape=[2, 2], opset=12), np.array([[[[5, 5], [8, 9]]]], np.int8))
    with pytest.raises(ValueError, match="i32"):
        maxpool.onnx.max_pool(np.array(A33, np.int32), kernel_shape=[2, 2])
    if ml_dtypes is not None:
        xb = np.array(A33, ml_dtypes.bfloat16)
        with pytest.raises(ValueError, match="bf16"):
            maxpool.onnx.max_pool(xb, kernel_shape=[2, 2], opset=21)
        same(maxpool.onnx.max_pool(xb, kernel_shape=[2, 2], opset=22),
             np.array([[[[5, 5], [8, 9]]]], ml_dtypes.bfloat16))
    # the opset 1 operator, with its defaults
    same(maxpool.onnx.max_pool(x, kernel_shape=[2, 2], opset=1), np.array([[[[5, 5], [8, 9]]]], np.float32))


def test_onnx_ceil_mode_drops_window_starting_in_padding():
    """ONNX-22 text: with ceil_mode, sliding windows that would start in the
    right padded region are ignored."""
    x = np.array(B33, np.float32)
    y, ind = maxpool.onnx.max_pool(x, kernel_shape=[2, 2], strides=[2, 2], pads=[1, 1, 1, 1], ceil_mode=1,
                                   return_indices=True)
    same(y, np.array([[[[1, 3], [7, 9]]]], np.float32))
    same(ind, np.array([[[[0, 2], [6, 8]]]], np.int64))


def test_onnx_same_and_valid():
    """auto_pad: SAME_* gives ceil(in / stride), odd padding at the end
    (UPPER) or start (LOWER); VALID no padding."""
    x = np.arange(1, 26, dtype=np.float32).reshape(1, 1, 5, 5)
    y = maxpool.onnx.max_pool(x, kernel_shape=[2, 2], strides=[2, 2], auto_pad="SAME_UPPER")
    # out 3, total pad (3-1)*2 + 2 - 5 = 1, at the end
    same(y, np.array([[[[7, 9, 10], [17, 19, 20], [22, 24, 25]]]], np.float32))
    y = maxpool.onnx.max_pool(x, kernel_shape=[2, 2], strides=[2, 2], auto_pad="SAME_LOWER")
    same(y, np.array([[[[1, 3, 5], [11, 13, 15], [21, 23, 25]]]], np.float32))
    y = maxpool.onnx.max_pool(x, kernel_shape=[2, 2], strides=[2, 2], auto_pad="VALID")
    same(y, np.array([[[[7, 9], [17, 19]]]], np.float32))


# --------------------------------------------------------------------------
# PyTorch-style functions
# --------------------------------------------------------------------------

def test_torch_functions():
    x = np.array(B33, np.float32)
    # stride defaults to kernel_size; ceil_mode drops the window starting in padding
    y, ind = maxpool.torch.max_pool2d(x, 2, padding=1, ceil_mode=True, return_indices=True)
    same(y, np.array([[[[1, 3], [7, 9]]]], np.float32))
    same(ind, np.array([[[[0, 2], [6, 8]]]], np.int64))
    y = maxpool.torch.max_pool2d(x, (2, 2), stride=1)
    same(y, np.array([[[[5, 6], [8, 9]]]], np.float32))
    # unbatched (C, H, W)
    y, ind = maxpool.torch.max_pool2d(x[0], 2, 1, return_indices=True)
    same(y, np.array([[[5, 6], [8, 9]]], np.float32))
    same(ind, np.array([[[4, 5], [7, 8]]], np.int64))
    # 1-D and 3-D
    x1 = np.array([[[-1, 2, 3, 5, -7, 9, 1]]], np.float64)
    y, ind = maxpool.torch.max_pool1d(x1, 3, 1, return_indices=True)
    same(y, np.array([[[3, 5, 5, 9, 9]]], np.float64))
    same(ind, np.array([[[2, 3, 3, 5, 5]]], np.int64))
    x3 = np.arange(2 * 3 * 4 * 5, dtype=np.float32).reshape(1, 2, 3, 4, 5)
    y, ind = maxpool.torch.max_pool3d(x3, (1, 2, 2), return_indices=True)
    ry, rind = np_pool(x3, [1, 2, 2], [1, 2, 2], [0, 0, 0], [0, 0, 0], [1, 1, 1], start=-np.inf, index_axis=2)
    same(y, ry)
    same(ind, rind)


def test_torch_nan_propagates_last_nan_wins():
    x = np.array([[[1.0, np.nan, 3.0, np.nan, 0.5, 2.0]]], np.float32)
    y, ind = maxpool.torch.max_pool1d(x, 4, 2, return_indices=True)
    # window [0,4): NaN at 1 and 3 -> last NaN (3); window [2,6): NaN at 3
    assert np.isnan(y).all()
    same(ind, np.array([[[3, 3]]], np.int64))
    # the override: NaN never wins
    y, ind = maxpool.torch.max_pool1d(x, 4, 2, return_indices=True, nan="ignore")
    same(y, np.array([[[3.0, 3.0]]], np.float32))
    same(ind, np.array([[[2, 2]]], np.int64))
    # and the other way round for ONNX
    y, ind = maxpool.onnx.max_pool(x, kernel_shape=[4], strides=[2], return_indices=True)
    same(y, np.array([[[3.0, 3.0]]], np.float32))
    y, ind = maxpool.onnx.max_pool(x, kernel_shape=[4], strides=[2], return_indices=True, nan="propagate")
    assert np.isnan(y).all()
    same(ind, np.array([[[3, 3]]], np.int64))


def test_torch_errors():
    x = np.zeros((1, 1, 4, 4), np.float32)
    with pytest.raises(ValueError, match=r"padding\[0\]=2"):
        maxpool.torch.max_pool2d(x, 3, padding=2)  # pad <= kernel / 2
    with pytest.raises(ValueError, match="stride"):
        maxpool.torch.max_pool2d(x, 2, stride=0)
    with pytest.raises(ValueError, match="max_pool2d"):
        maxpool.torch.max_pool2d(np.zeros((1, 1, 1, 4, 4), np.float32), 2)
    with pytest.raises(ValueError, match="kernel_size"):
        maxpool.torch.max_pool2d(x, (2, 2, 2))


# --------------------------------------------------------------------------
# adaptive
# --------------------------------------------------------------------------

def test_adaptive_flavors():
    rng = np.random.default_rng(2)
    x = rng.standard_normal((2, 3, 5, 7)).astype(np.float32)
    x[0, 1, 2, 3] = np.nan
    x[1, 2, 0, 0] = np.nan
    for out in [(2, 3), (5, 7), (3, 10), (1, 1)]:
        y, ind = maxpool.adaptive_max_pool(x, out)
        ry, rind = np_adaptive(x, out, nan_propagate=True, index_dtype=np.int64)
        same(y, ry)
        same(ind, rind)
        y, ind = maxpool.adaptive_max_pool(x, out, flavor="openvino", index_dtype=np.int32)
        ry, rind = np_adaptive(x, out, nan_propagate=False, index_dtype=np.int32)
        # a window whose first element is NaN: the definition above starts
        # from that NaN; compare only where no NaN is involved
        ok = ~np.isnan(ry)
        same(y[ok], ry[ok])
        same(ind[ok], rind[ok])
    # an int broadcasts; None keeps the input size
    y, _ = maxpool.adaptive_max_pool(x, 2)
    assert y.shape == (2, 3, 2, 2)
    y, _ = maxpool.adaptive_max_pool(x, (None, 3))
    assert y.shape == (2, 3, 5, 3)


def test_adaptive_aclnn():
    rng = np.random.default_rng(3)
    x = rng.standard_normal((1, 2, 4, 5, 6)).astype(np.float16)
    y, ind = maxpool.adaptive_max_pool(x, (2, 3, 4), flavor="aclnn")
    ry, rind = np_adaptive(x, (2, 3, 4), nan_propagate=True, index_dtype=np.int32)
    same(y, ry)
    same(ind, rind)
    with pytest.raises(ValueError):
        maxpool.adaptive_max_pool(x[0], (3, 4), flavor="aclnn")  # 4-D
    with pytest.raises(ValueError, match="i64"):
        maxpool.adaptive_max_pool(x, (2, 3, 4), flavor="aclnn", index_dtype=np.int64)
    with pytest.raises(ValueError, match="f64"):
        maxpool.adaptive_max_pool(x.astype(np.float64), (2, 3, 4), flavor="aclnn")


def test_adaptive_errors():
    x = np.zeros((1, 1, 4, 4), np.float32)
    with pytest.raises(ValueError, match="output_size"):
        maxpool.adaptive_max_pool(x, (0, 2))
    with pytest.raises(ValueError, match="output_size"):
        maxpool.adaptive_max_pool(x, (2, 2, 2))
    with pytest.raises(ValueError, match="i32"):
        maxpool.adaptive_max_pool(x, 2, index_dtype=np.int32)  # torch: int64 only
    with pytest.raises(ValueError, match="flavor"):
        maxpool.adaptive_max_pool(x, 2, flavor="tf")
    with pytest.raises(ValueError, match="index_dtype"):
        maxpool.adaptive_max_pool(x, 2, index_dtype=np.float32)


# --------------------------------------------------------------------------
# errors carry the C message
# --------------------------------------------------------------------------

ERROR_CASES = [
    ("onnx kernel 0", lambda x: maxpool.onnx.max_pool(x, kernel_shape=[2, 0]), r"kernel_shape\[1\]=0"),
    ("onnx kernel rank", lambda x: maxpool.onnx.max_pool(x, kernel_shape=[2]), "kernel_shape"),
    ("onnx missing kernel", lambda x: maxpool.onnx.max_pool(x, kernel_shape=None), "kernel_shape"),
    ("onnx negative pad", lambda x: maxpool.onnx.max_pool(x, kernel_shape=[2, 2], pads=[0, -1, 0, 0]),
     r"pads\[1\]=-1"),
    ("onnx pads count", lambda x: maxpool.onnx.max_pool(x, kernel_shape=[2, 2], pads=[1, 1]), "pads"),
    ("onnx stride 0", lambda x: maxpool.onnx.max_pool(x, kernel_shape=[2, 2], strides=[1, 0]), r"strides\[1\]=0"),
    ("onnx auto_pad", lambda x: maxpool.onnx.max_pool(x, kernel_shape=[2, 2], auto_pad="same_upper"), "auto_pad"),
    ("onnx ceil_mode 2", lambda x: maxpool.onnx.max_pool(x, kernel_shape=[2, 2], ceil_mode=2), "ceil_mode=2"),
    ("onnx storage_order 2", lambda x: maxpool.onnx.max_pool(x, kernel_shape=[2, 2], storage_order=2),
     "storage_order=2"),
    ("onnx opset 0", lambda x: maxpool.onnx.max_pool(x, kernel_shape=[2, 2], opset=0), "opset=0"),
    ("onnx output < 1", lambda x: maxpool.onnx.max_pool(x, kernel_shape=[4, 4]), "output size"),
    ("ov rounding", lambda x: maxpool.openvino.max_pool(x, kernel=[2, 2], strides=[1, 1], pads_begin=[0, 0],
                                                        pads_end=[0, 0], rounding_type="round"), "rounding_type"),
    ("ov axis", lambda x: maxpool.openvino.max_pool(x, kernel=[2, 2], strides=[1, 1], pads_begin=[0, 0],
                                                    pads_end=[0, 0], axis=7), "axis=7"),
    ("ov index type", lambda x: maxpool.openvino.max_pool(x, kernel=[2, 2], strides=[1, 1], pads_begin=[0, 0],
                                                          pads_end=[0, 0], index_element_type="u8"),
     "index_element_type"),
    ("ov version", lambda x: maxpool.openvino.max_pool(x, kernel=[2, 2], strides=[1, 1], pads_begin=[0, 0],
                                                       pads_end=[0, 0], version=3), "version=3"),
    ("ov pads_begin", lambda x: maxpool.openvino.max_pool(x, kernel=[2, 2], strides=[1, 1], pads_begin=[-1, 0],
                                                          pads_end=[0, 0]), "pads_begin"),
    ("nan policy", lambda x: maxpool.onnx.max_pool(x, kernel_shape=[2, 2], nan="sometimes"), "nan"),
    ("threads", lambda x: maxpool.onnx.max_pool(x, kernel_shape=[2, 2], threads=-1), "threads"),
    ("too many axes", lambda x: maxpool.onnx.max_pool(x, kernel_shape=[1] * 9), "kernel_shape"),
]


@pytest.mark.parametrize("case", ERROR_CASES, ids=[c[0] for c in ERROR_CASES])
def test_errors_raise_value_error_with_message(case):
    _, call, pattern = case
    x = np.zeros((1, 1, 3, 3), np.float32)
    with pytest.raises(ValueError, match=pattern) as info:
        call(x)
    assert isinstance(info.value, maxpool.MaxPoolError)
    assert str(info.value)  # a message, never empty


def test_c_status_codes():
    x = np.zeros((1, 1, 3, 3), np.float32)
    with pytest.raises(maxpool.MaxPoolError) as info:
        maxpool.onnx.max_pool(x, kernel_shape=[2, 0])
    assert info.value.status == _lib.ERR_INVALID_ATTRIBUTE
    with pytest.raises(maxpool.MaxPoolError) as info:
        maxpool.onnx.max_pool(x, kernel_shape=[4, 4])
    assert info.value.status == _lib.ERR_INVALID_SHAPE
    with pytest.raises(maxpool.MaxPoolError) as info:
        maxpool.onnx.max_pool(np.zeros((3, 3), np.float32), kernel_shape=[2])
    assert info.value.status == _lib.ERR_INVALID_SHAPE
    with pytest.raises(maxpool.MaxPoolError) as info:
        maxpool.onnx.max_pool(np.zeros((1, 1, 3, 3), np.int32), kernel_shape=[2, 2])
    assert info.value.status == _lib.ERR_UNSUPPORTED


@pytest.mark.parametrize("dtype", [np.bool_, np.uint32, np.uint64, np.complex64, np.float128
                                   if hasattr(np, "float128") else np.longdouble, object, "U3"])
def test_unsupported_dtypes(dtype):
    x = np.zeros((1, 1, 3, 3), dtype)
    with pytest.raises(ValueError, match="not supported"):
        maxpool.onnx.max_pool(x, kernel_shape=[2, 2])
    with pytest.raises(ValueError, match="not supported"):
        maxpool.torch.max_pool2d(x, 2)


# --------------------------------------------------------------------------
# array handling
# --------------------------------------------------------------------------

def test_non_contiguous_inputs():
    rng = np.random.default_rng(4)
    base = rng.standard_normal((2, 4, 9, 12)).astype(np.float32)
    views = {
        "strided": base[:, ::2, 1::2, ::3],
        "transposed": base.transpose(0, 1, 3, 2),
        "reversed": base[..., ::-1],
        "fortran": np.asfortranarray(base),
        "big-endian": base.astype(">f4"),
    }
    for name, v in views.items():
        ref = np.ascontiguousarray(v).astype(np.float32)
        y, ind = maxpool.onnx.max_pool(v, kernel_shape=[3, 2], strides=[2, 1], return_indices=True)
        ry, rind = np_pool(ref, [3, 2], [2, 1], [0, 0], [0, 0], [1, 1], start=lowest(np.float32))
        same(y, ry)
        same(ind, rind)
        y, ind = maxpool.torch.max_pool2d(v, 3, 2, 1, return_indices=True)
        ry, rind = maxpool.torch.max_pool2d(ref, 3, 2, 1, return_indices=True)
        same(y, ry)
        same(ind, rind)
    # nested lists are arrays too (int64 here, which OpenVINO takes)
    y, _ = maxpool.openvino.max_pool(A33, kernel=[2, 2], strides=[1, 1], pads_begin=[0, 0], pads_end=[0, 0])
    same(y, np.array([[[[5, 5], [8, 9]]]], np.int64))


def test_empty_batch_and_channels():
    """N = 0 or C = 0: the output shape, nothing to compute. Run in a child
    process so that a crash in the library fails this test only."""
    code = textwrap.dedent("""
        import numpy as np, maxpool
        for shape in [(0, 3, 4, 4), (2, 0, 4, 4)]:
            for dt in (np.float32, np.float64, np.uint8):
                x = np.zeros(shape, dt)
                y, ind = maxpool.torch.max_pool2d(x, 2, return_indices=True)
                assert y.shape == shape[:2] + (2, 2) and ind.shape == y.shape and y.dtype == dt
                y = maxpool.onnx.max_pool(x.astype(np.float32), kernel_shape=[3, 3], pads=[1, 1, 1, 1])
                assert y.shape == shape[:2] + (4, 4)
                y, ind = maxpool.adaptive_max_pool(x, (3, 1))
                assert y.shape == shape[:2] + (3, 1)
        print("ok")
    """)
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert res.returncode == 0 and res.stdout.strip() == "ok", (res.returncode, res.stderr[-2000:])


def test_threads_same_bits():
    rng = np.random.default_rng(5)
    x = rng.standard_normal((2, 8, 33, 31)).astype(np.float32)
    y1, i1 = maxpool.onnx.max_pool(x, kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1], return_indices=True)
    for t in (0, 1, 2, 3, 8):
        y, i = maxpool.onnx.max_pool(x, kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1], return_indices=True,
                                     threads=t)
        same(y, y1)
        same(i, i1)


# --------------------------------------------------------------------------
# every dtype: a tiny case against the numpy loops
# --------------------------------------------------------------------------

DTYPES = [np.float16, np.float32, np.float64, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16]
if ml_dtypes is not None:
    DTYPES.append(ml_dtypes.bfloat16)


def _data(dtype, shape, seed):
    rng = np.random.default_rng(seed)
    dt = np.dtype(dtype)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        lo, hi = max(int(info.min), -(2**40)), min(int(info.max), 2**40)
        x = rng.integers(lo, hi, size=shape, endpoint=True).astype(dt)
        x.reshape(-1)[:3] = [info.min, info.max, info.min]  # the extremes
        return x
    x = (rng.standard_normal(shape) * 8).astype(np.float32)
    flat = x.reshape(-1)
    flat[1] = -0.0
    flat[4] = np.inf
    flat[6] = -np.inf
    x = x.astype(dt)
    x[0, 0, 2, 3] = np.nan  # interior: every window holding it holds other elements too
    return x


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_dtype_round_trip(dtype):
    dt = np.dtype(dtype)
    x = _data(dt, (2, 3, 5, 6), seed=dt.num)
    kernel, strides, pb, pe, dil = [2, 3], [2, 1], [1, 0], [0, 1], [1, 2]
    ry, rind = np_pool(x, kernel, strides, pb, pe, dil, start=lowest(dt))

    # OpenVINO MaxPool-14: every type, NaN never wins, indices over the whole tensor (axis 0)
    y, ind = maxpool.openvino.max_pool(x, kernel=kernel, strides=strides, pads_begin=pb, pads_end=pe, dilations=dil)
    same(y, ry)
    same(ind, rind)

    # ONNX opset 22: its types only
    onnx_types = {np.dtype(t) for t in (np.float16, np.float32, np.float64, np.int8, np.uint8)}
    if ml_dtypes is not None:
        onnx_types.add(np.dtype(ml_dtypes.bfloat16))
    if dt in onnx_types:
        y, ind = maxpool.onnx.max_pool(x, kernel_shape=kernel, strides=strides, pads=pb + pe, dilations=dil,
                                       return_indices=True)
        same(y, ry)
        same(ind, rind)
    else:
        with pytest.raises(ValueError):
            maxpool.onnx.max_pool(x, kernel_shape=kernel)

    # PyTorch: NaN propagates, -inf start, per-plane indices (symmetric padding <= k/2)
    start = lowest(dt) if dt.kind in "iu" else -np.inf
    ry, rind = np_pool(x, kernel, strides, [1, 1], [1, 1], dil, start=start, nan_propagate=True, index_axis=2)
    y, ind = maxpool.torch.max_pool2d(x, kernel, strides, 1, dil, return_indices=True)
    same(y, ry)
    same(ind, rind)

    # adaptive (torch flavor)
    y, ind = maxpool.adaptive_max_pool(x, (3, 4))
    ry, rind = np_adaptive(x, (3, 4), nan_propagate=True, index_dtype=np.int64)
    same(y, ry)
    same(ind, rind)


# --------------------------------------------------------------------------
# modeci_mdf drop-in
# --------------------------------------------------------------------------

def _mdf_cases():
    rng = np.random.default_rng(6)
    x4 = rng.standard_normal((2, 3, 7, 6)).astype(np.float32)
    x3 = rng.standard_normal((1, 2, 9)).astype(np.float32)
    x5 = rng.standard_normal((1, 2, 4, 5, 6)).astype(np.float32)
    return [
        ("default", (x4,), dict(kernel_shape=[2, 2])),
        ("X keyword", (), dict(X=x4, kernel_shape=[3, 2], strides=[2, 1])),
        ("float64 becomes float32", (x4.astype(np.float64),), dict(kernel_shape=[3, 3], strides=[2, 2],
                                                                    pads=[1, 1, 1, 1])),
        ("int8", ((x4 * 40).astype(np.int8),), dict(kernel_shape=[2, 2], strides=[2, 2])),
        ("uint8", ((x4 * 40 + 128).astype(np.uint8),), dict(kernel_shape=[3, 3], dilations=[2, 1])),
        ("ceil_mode", (x4,), dict(kernel_shape=[2, 2], strides=[2, 2], pads=[1, 1, 1, 1], ceil_mode=1)),
        ("storage_order", (x4,), dict(kernel_shape=[2, 3], strides=[1, 2], storage_order=1)),
        ("dilations", (x4,), dict(kernel_shape=[2, 2], dilations=[2, 3])),
        ("same_upper", (x4,), dict(kernel_shape=[3, 2], strides=[2, 2], auto_pad="SAME_UPPER")),
        ("same_lower", (x4,), dict(kernel_shape=[3, 2], strides=[2, 2], auto_pad="SAME_LOWER")),
        ("valid", (x4,), dict(kernel_shape=[3, 2], strides=[2, 3], auto_pad="VALID")),
        ("1-D", (x3,), dict(kernel_shape=[3], strides=[2], pads=[1, 1])),
        ("3-D", (x5,), dict(kernel_shape=[2, 2, 3], strides=[1, 2, 2])),
        # positional attributes after X, in the order of ONNX's MaxPool schema
        ("positional", _positional(x4), {}),
        ("list input", (x4.tolist(),), dict(kernel_shape=[2, 2])),
    ]


def _positional(x):
    import maxpool.onnx as mo
    values = dict(storage_order=0, dilations=[1, 1], ceil_mode=0, pads=[0, 0, 1, 1], auto_pad="NOTSET",
                  strides=[1, 2], kernel_shape=[2, 2])
    return (x,) + tuple(values[n] for n in mo._mdf_attr_order())


@pytest.mark.parametrize("case", _mdf_cases(), ids=lambda c: c[0])
def test_mdf_drop_in_matches_modeci_mdf(case):
    mdf = pytest.importorskip("modeci_mdf.functions.onnx")
    _, args, kwargs = case
    expected = mdf.maxpool(*args, **kwargs)
    got = maxpool.onnx.maxpool(*args, **kwargs)
    assert isinstance(expected, tuple) and isinstance(got, tuple) and len(got) == len(expected) == 2
    same(got[0], expected[0])
    same(got[1], expected[1])


def test_mdf_drop_in_float16():
    """modeci_mdf cannot run float16 (its skl2onnx model builder raises
    NotImplementedError for elem_type 10); the drop-in runs MaxPool-12 on it,
    which has float16."""
    x = np.array(A33, np.float16)
    y, ind = maxpool.onnx.maxpool(x, kernel_shape=[2, 2])
    same(y, np.array([[[[5, 5], [8, 9]]]], np.float16))
    same(ind, np.array([[[[4, 4], [7, 8]]]], np.int64))
    mdf = pytest.importorskip("modeci_mdf.functions.onnx")
    with pytest.raises(NotImplementedError):
        mdf.maxpool(x, kernel_shape=[2, 2])


def test_mdf_drop_in_unknown_attribute_matches_modeci_mdf():
    x = np.zeros((1, 1, 3, 3), np.float32)
    with pytest.raises(ValueError) as ours:
        maxpool.onnx.maxpool(x, kernel_shape=[2, 2], kernel=[2, 2])
    assert "Passed unknown attribute (kernel) to ONNX op MaxPool" in str(ours.value)
    mdf = pytest.importorskip("modeci_mdf.functions.onnx")
    with pytest.raises(ValueError) as theirs:
        mdf.maxpool(x, kernel_shape=[2, 2], kernel=[2, 2])
    assert str(ours.value) == str(theirs.value)


def test_mdf_drop_in_documented_behaviour():
    """Without modeci_mdf: what its maxpool does (builds MaxPool at opset 15
    with outputs Y and Indices, converts float64 to float32 and int32 to
    int64 first, returns the tuple of both outputs)."""
    x = np.array(A33, np.float64)
    out = maxpool.onnx.maxpool(x, kernel_shape=[2, 2])
    assert isinstance(out, tuple) and len(out) == 2
    same(out[0], np.array([[[[5, 5], [8, 9]]]], np.float32))
    same(out[1], np.array([[[[4, 4], [7, 8]]]], np.int64))
    same(maxpool.onnx.maxpool(X=x.tolist(), kernel_shape=[2, 2])[0], out[0])
    # int32 becomes int64, which MaxPool-12 does not take
    with pytest.raises(ValueError, match="i64"):
        maxpool.onnx.maxpool(np.array(A33, np.int32), kernel_shape=[2, 2])
    with pytest.raises(ValueError, match="kernel_shape"):
        maxpool.onnx.maxpool(x)
    # MaxPool-12 (opset 15): int8 fine, bfloat16 not
    same(maxpool.onnx.maxpool(np.array(A33, np.int8), kernel_shape=[2, 2])[0],
         np.array([[[[5, 5], [8, 9]]]], np.int8))
    if ml_dtypes is not None:
        with pytest.raises(ValueError, match="bf16"):
            maxpool.onnx.maxpool(np.array(A33, ml_dtypes.bfloat16), kernel_shape=[2, 2])
