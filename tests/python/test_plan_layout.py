# SPDX-License-Identifier: Apache-2.0
"""maxpool.plan, out=, layout= / channels-last strides, DLPack input, the
thread default, py.typed (issue 17, item 3; the torch side is in
test_torch_interop.py).

Expected values come from ONNX Runtime (MaxPool run on the same input),
compared bit-exactly; channels-last results are ONNX Runtime's NCHW result
transposed by numpy.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

import maxpool

ort = pytest.importorskip("onnxruntime")
from onnx import TensorProto, helper  # noqa: E402

_ORT_TYPES = {np.dtype(np.float32): TensorProto.FLOAT, np.dtype(np.float64): TensorProto.DOUBLE,
              np.dtype(np.float16): TensorProto.FLOAT16, np.dtype(np.int8): TensorProto.INT8,
              np.dtype(np.uint8): TensorProto.UINT8}


def ort_maxpool(x, opset=12, **attrs):
    """(Y, Indices) from ONNX Runtime."""
    t = _ORT_TYPES[x.dtype]
    node = helper.make_node("MaxPool", ["X"], ["Y", "I"], **attrs)
    g = helper.make_graph([node], "g", [helper.make_tensor_value_info("X", t, list(x.shape))],
                          [helper.make_tensor_value_info("Y", t, None),
                           helper.make_tensor_value_info("I", TensorProto.INT64, None)])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 8
    so = ort.SessionOptions()
    so.intra_op_num_threads = 1
    s = ort.InferenceSession(m.SerializeToString(), so, providers=["CPUExecutionProvider"])
    return s.run(None, {"X": np.ascontiguousarray(x)})


def same(a, b):
    a, b = np.asarray(a), np.asarray(b)
    assert a.dtype == b.dtype and a.shape == b.shape, (a.dtype, a.shape, b.dtype, b.shape)
    assert np.ascontiguousarray(a).tobytes() == np.ascontiguousarray(b).tobytes()


def rand(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind == "f":
        x = rng.standard_normal(shape).astype(dtype)
        x.flat[::7] = x.flat[::5]  # ties
        return x
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, size=shape, endpoint=True).astype(dtype)


CASES = [
    ((1, 16, 8, 8), np.float32, dict(kernel_shape=[2, 2], strides=[2, 2])),
    ((2, 3, 9, 7), np.float64, dict(kernel_shape=[3, 3], strides=[2, 1], pads=[1, 1, 1, 0])),
    ((1, 5, 11), np.int8, dict(kernel_shape=[3], strides=[2], dilations=[2])),
    ((1, 2, 5, 6, 7), np.float16, dict(kernel_shape=[2, 3, 2], strides=[2, 2, 2], ceil_mode=1)),
    ((2, 4, 10, 10), np.uint8, dict(kernel_shape=[3, 3], auto_pad="SAME_UPPER", strides=[2, 2])),
]


@pytest.mark.parametrize("shape,dtype,attrs", CASES, ids=[f"{c[0]}-{np.dtype(c[1])}" for c in CASES])
def test_plan_matches_onnxruntime(shape, dtype, attrs):
    x = rand(shape, dtype)
    ey, ei = ort_maxpool(x, **attrs)
    with maxpool.plan(maxpool.onnx.max_pool, shape, dtype, opset=12, return_indices=True, **attrs) as p:
        assert p.out_shape == ey.shape and p.indices_dtype == np.int64
        for _ in range(3):  # the plan is reusable
            y, i = p(x)
            same(y, ey)
            same(i, ei)
        oy, oi = np.full(ey.shape, 7, dtype), np.full(ey.shape, 7, np.int64)
        ry, ri = p(x, out=oy, indices=oi)
        assert ry is oy and ri is oi
        same(oy, ey)
        same(oi, ei)
    with pytest.raises(ValueError, match="closed"):
        p(x)


@pytest.mark.parametrize("shape,dtype,attrs", CASES, ids=[f"{c[0]}-{np.dtype(c[1])}" for c in CASES])
def test_nhwc_layout_matches_onnxruntime(shape, dtype, attrs):
    x = rand(shape, dtype, seed=1)
    ey, ei = ort_maxpool(x, **attrs)
    perm = (0,) + tuple(range(2, x.ndim)) + (1,)
    x_nhwc = np.ascontiguousarray(x.transpose(perm))
    # layout="NHWC": (N, D..., C) arrays in and out; indices in NCHW terms
    y, i = maxpool.onnx.max_pool(x_nhwc, layout="NHWC", return_indices=True, opset=12, **attrs)
    same(y, ey.transpose(perm))
    same(i, ei.transpose(perm))
    # logical NCHW with channels-last strides: pooled in place, results with the same strides
    x_cl = x_nhwc.transpose((0, x.ndim - 1) + tuple(range(1, x.ndim - 1)))
    assert not x_cl.flags.c_contiguous
    y2, i2 = maxpool.onnx.max_pool(x_cl, return_indices=True, opset=12, **attrs)
    same(y2, ey)
    same(i2, ei)
    if np.prod(ey.shape[1:]) > ey.shape[1]:  # strides say channels-last (not also C-contiguous)
        assert y2.transpose(perm).flags.c_contiguous and not y2.flags.c_contiguous
    # a plan in channels-last takes both forms, never copying
    p = maxpool.plan("onnx", x_nhwc.shape, dtype, layout="channels_last", opset=12, return_indices=True, **attrs)
    same(p(x_nhwc)[0], ey.transpose(perm))
    same(p(x_cl)[1], ei)
    with pytest.raises(ValueError, match="channels-last|plan takes"):
        p(x)  # NCHW-shaped, C-contiguous: not what this plan takes
    p.close()


def test_out_errors():
    x = rand((1, 2, 6, 6), np.float32)
    ey = ort_maxpool(x, kernel_shape=[2, 2], strides=[2, 2])[0]
    out = np.zeros((1, 2, 3, 3), np.float32)
    assert maxpool.onnx.max_pool(x, kernel_shape=[2, 2], strides=[2, 2], out=out) is out
    same(out, ey)
    bad = [
        (np.zeros((1, 2, 3, 4), np.float32), "shape"),
        (np.zeros((1, 2, 3, 3), np.float64), "dtype"),
        (np.zeros((1, 2, 3, 6), np.float32)[..., ::2], "C-contiguous"),
        ("nope", "must be an array"),
    ]
    ro = np.zeros((1, 2, 3, 3), np.float32)
    ro.flags.writeable = False
    bad.append((ro, "read-only"))
    for buf, msg in bad:
        with pytest.raises(ValueError, match=msg):
            maxpool.onnx.max_pool(x, kernel_shape=[2, 2], strides=[2, 2], out=buf)
        p = maxpool.plan("onnx", x.shape, np.float32, kernel_shape=[2, 2], strides=[2, 2])
        with pytest.raises(ValueError, match=msg):
            p(x, out=buf)
    with pytest.raises(ValueError, match="indices"):
        maxpool.onnx.max_pool(x, kernel_shape=[2, 2], out=(out, np.zeros((1, 2, 3, 3), np.int64)))
    p = maxpool.plan("onnx", x.shape, np.float32, kernel_shape=[2, 2], strides=[2, 2])
    with pytest.raises(ValueError, match="no indices"):
        p(x, indices=np.zeros((1, 2, 3, 3), np.int64))
    with pytest.raises(ValueError, match="dtype"):
        p(x.astype(np.float64))
    with pytest.raises(ValueError, match="shape"):
        p(x[:, :1])
    with pytest.raises(ValueError, match="C-contiguous"):
        p(np.zeros((1, 2, 6, 12), np.float32)[..., ::2])
    with pytest.raises(ValueError, match="layout"):
        maxpool.onnx.max_pool(x, kernel_shape=[2, 2], layout="HWCN")
    with pytest.raises(ValueError, match="kernel_shape"):
        maxpool.plan("onnx", x.shape, np.float32, kernel_shape=[2, 0])
    with pytest.raises(ValueError, match="unknown function"):
        maxpool.plan("caffe", x.shape, np.float32)
    with pytest.raises(ValueError, match="not supported"):
        maxpool.plan("onnx", x.shape, np.complex64, kernel_shape=[2, 2])


def test_plan_torch_and_adaptive_forms():
    x = rand((3, 9, 8), np.float32)
    ey, ei = ort_maxpool(x[None], kernel_shape=[3, 2], strides=[2, 2], pads=[1, 0, 1, 0])
    # an unbatched (C, H, W) plan: unbatched results (values agree with ORT:
    # no NaN, no empty window, so the PyTorch and ONNX Runtime results are
    # the same; torch's indices are per plane, ORT's over the tensor: N=1, C
    # planes of 72 -> subtract the plane starts)
    p = maxpool.plan(maxpool.torch.max_pool2d, x.shape, np.float32, (3, 2), 2, (1, 0), return_indices=True)
    assert p.out_shape == ey.shape[1:]
    y, i = p(x)
    same(y, ey[0])
    same(i, ei[0] - (np.arange(3) * 72)[:, None, None])
    y2 = maxpool.torch.max_pool2d(x, (3, 2), 2, (1, 0))
    same(y2, ey[0])


def test_dlpack_input_is_not_copied():
    class Producer:
        """A minimal __dlpack__ exporter wrapping a numpy array."""

        def __init__(self, a):
            self.a = a

        def __dlpack__(self, stream=None, **kw):
            return self.a.__dlpack__(**({"stream": stream} if stream is not None else {}))

        def __dlpack_device__(self):
            return self.a.__dlpack_device__()

    x = rand((1, 3, 6, 6), np.float32)
    ey = ort_maxpool(x, kernel_shape=[2, 2], strides=[2, 2])[0]
    same(maxpool.onnx.max_pool(Producer(x), kernel_shape=[2, 2], strides=[2, 2]), ey)
    a, fw = maxpool._core.import_array(Producer(x))
    assert fw == "numpy" and np.shares_memory(a, x)
    # unbatched through DLPack: the rank is known only after the import
    same(maxpool.torch.max_pool2d(Producer(x[0]), 2, 2), ey[0])
    with pytest.raises(ValueError, match="4-D .unbatched. or 5-D"):
        maxpool.torch.max_pool3d(Producer(x[0]), 2)
    with pytest.raises(ValueError, match="4-D .unbatched. or 5-D"):
        maxpool.torch.adaptive_max_pool3d(Producer(x[0]), 2)


def test_threads_default_and_results():
    assert maxpool.DEFAULT_THREADS >= 1
    if hasattr(os, "sched_getaffinity") and "MAXPOOL_NUM_THREADS" not in os.environ:
        assert maxpool.DEFAULT_THREADS == len(os.sched_getaffinity(0))
    x = rand((1, 64, 56, 56), np.float32)  # 800 KiB: above the 128 KiB parallel threshold
    ey, ei = ort_maxpool(x, kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1])
    for t in (None, 1, 2):
        p = maxpool.plan("onnx", x.shape, np.float32, kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1],
                         return_indices=True, threads=t)
        assert p.threads >= 1
        y, i = p(x)
        same(y, ey)
        same(i, ei)
    with pytest.raises(ValueError, match="threads"):
        maxpool.onnx.max_pool(x, kernel_shape=[2, 2], threads=-1)


def test_py_typed_shipped():
    pkg = Path(maxpool.__file__).parent
    assert (pkg / "py.typed").is_file()
    import inspect

    sig = inspect.signature(maxpool.onnx.max_pool)
    assert sig.parameters["out"].annotation is not inspect.Parameter.empty
    assert sig.return_annotation is not inspect.Signature.empty


def test_plan_bfloat16():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    bf16 = np.dtype(ml_dtypes.bfloat16)
    x = rand((1, 3, 7, 7), np.float32).astype(bf16)
    # oracle: ONNX Runtime on the same values widened to float32 (exact), narrowed back (exact)
    ey, ei = ort_maxpool(x.astype(np.float32), kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1])
    p = maxpool.plan("onnx", x.shape, bf16, kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1],
                     return_indices=True)
    for _ in range(2):
        y, i = p(x)
        same(y, ey.astype(bf16))
        same(i, ei)
    out = np.empty(p.out_shape, bf16)
    assert p(x, out=out)[0] is out
    same(out, ey.astype(bf16))
