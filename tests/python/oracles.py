# SPDX-License-Identifier: Apache-2.0
"""Oracle runners for the differential conformance tests.

Each runner takes an input array and the attributes *as the oracle's spec
names them*, builds a one-operator model, runs it and returns an
``OracleResult`` (``y``, ``indices``) or an ``OracleResult`` carrying the
oracle's exception text in ``error``.  Nothing here knows about maxpool.

Oracles:
  * ``onnx_reference``  -- ``onnx.reference.ReferenceEvaluator`` on a
    one-node MaxPool model at a given opset.
  * ``onnxruntime_run`` -- ONNX Runtime CPU, same model; with and without the
    optional Indices output (ORT takes different code paths: the Y-only f32
    path goes through MLAS, the Y+Indices path through pool_functors).
  * ``openvino_max_pool`` / ``openvino_adaptive_max_pool`` -- OpenVINO
    opset1/8/14 MaxPool and opset8 AdaptiveMaxPool, compiled for CPU with
    ``INFERENCE_PRECISION_HINT`` pinned to the input precision (and
    ``EXECUTION_MODE_HINT`` ACCURACY) so f32 is never silently run in bf16/f16.

Sessions / compiled models are cached by (attributes, shape, dtype), so
running many inputs through one attribute set is cheap.
"""
from __future__ import annotations

import functools
import importlib.util
from dataclasses import dataclass
from typing import Optional

import numpy as np

try:
    import ml_dtypes

    BF16 = np.dtype(ml_dtypes.bfloat16)
except Exception:  # pragma: no cover - ml_dtypes is a hard requirement of onnx
    ml_dtypes = None
    BF16 = None

HAVE_ONNX = importlib.util.find_spec("onnx") is not None
HAVE_ORT = importlib.util.find_spec("onnxruntime") is not None
HAVE_OV = importlib.util.find_spec("openvino") is not None

if HAVE_ORT:
    import onnxruntime as _ort

    _ort.set_default_logger_severity(4)


@dataclass
class OracleResult:
    y: Optional[np.ndarray] = None
    indices: Optional[np.ndarray] = None
    error: Optional[str] = None

    @property
    def ok(self) -> bool:
        return self.error is None


def _err(e: BaseException) -> OracleResult:
    text = f"{type(e).__name__}: {e}"
    return OracleResult(error=text[:2000])


# --------------------------------------------------------------------------
# versions
# --------------------------------------------------------------------------


def versions() -> dict:
    out = {"numpy": np.__version__}
    if HAVE_ONNX:
        import onnx

        out["onnx"] = onnx.__version__
    if HAVE_ORT:
        import onnxruntime

        out["onnxruntime"] = onnxruntime.__version__
    if HAVE_OV:
        import openvino

        out["openvino"] = openvino.__version__
    if ml_dtypes is not None:
        out["ml_dtypes"] = ml_dtypes.__version__
    return out


# --------------------------------------------------------------------------
# ONNX model construction
# --------------------------------------------------------------------------


def _onnx_elem_type(dtype: np.dtype) -> int:
    from onnx import TensorProto

    dtype = np.dtype(dtype)
    table = {
        np.dtype(np.float32): TensorProto.FLOAT,
        np.dtype(np.float64): TensorProto.DOUBLE,
        np.dtype(np.float16): TensorProto.FLOAT16,
        np.dtype(np.int8): TensorProto.INT8,
        np.dtype(np.uint8): TensorProto.UINT8,
        np.dtype(np.int16): TensorProto.INT16,
        np.dtype(np.uint16): TensorProto.UINT16,
        np.dtype(np.int32): TensorProto.INT32,
        np.dtype(np.int64): TensorProto.INT64,
    }
    if BF16 is not None:
        table[BF16] = TensorProto.BFLOAT16
    return table[dtype]


ONNX_ATTR_NAMES = ("kernel_shape", "strides", "pads", "dilations", "auto_pad", "ceil_mode", "storage_order")


def _freeze(attrs: dict) -> tuple:
    items = []
    for k in sorted(attrs):
        v = attrs[k]
        if v is None:
            continue
        if isinstance(v, (list, tuple)):
            v = tuple(int(t) for t in v)
        items.append((k, v))
    return tuple(items)


def onnx_maxpool_model(attrs: dict, dtype, rank: int, opset: int, with_indices: bool):
    """One-node MaxPool model. attrs: ONNX attribute names; None = absent."""
    from onnx import TensorProto, helper

    et = _onnx_elem_type(dtype)
    shape = [None] * rank
    x = helper.make_tensor_value_info("X", et, shape)
    y = helper.make_tensor_value_info("Y", et, shape)
    outs = ["Y"]
    vouts = [y]
    if with_indices:
        outs.append("Indices")
        vouts.append(helper.make_tensor_value_info("Indices", TensorProto.INT64, shape))
    kw = {k: (list(v) if isinstance(v, (list, tuple)) else v) for k, v in attrs.items() if v is not None}
    node = helper.make_node("MaxPool", ["X"], outs, **kw)
    graph = helper.make_graph([node], "maxpool_conformance", [x], vouts)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8 if opset < 21 else 10
    return model


@functools.lru_cache(maxsize=512)
def _ref_evaluator(frozen: tuple, dtype: str, rank: int, opset: int, with_indices: bool):
    from onnx.reference import ReferenceEvaluator

    model = onnx_maxpool_model(dict(frozen), np.dtype(dtype) if dtype != "bfloat16" else BF16, rank, opset, with_indices)
    return ReferenceEvaluator(model)


def onnx_reference(x: np.ndarray, attrs: dict, opset: int = 22, with_indices: bool = True) -> OracleResult:
    """onnx.reference.ReferenceEvaluator on a one-node MaxPool model."""
    try:
        ev = _ref_evaluator(_freeze(attrs), x.dtype.name, x.ndim, opset, with_indices)
        out = ev.run(None, {"X": x})
    except Exception as e:  # noqa: BLE001 - the oracle's exception is a result
        return _err(e)
    y = np.asarray(out[0])
    idx = np.asarray(out[1]) if with_indices and len(out) > 1 else None
    return OracleResult(y=y, indices=idx)


# ONNX Runtime ---------------------------------------------------------------

ORT_DTYPES = {
    # opset -> dtypes ORT's CPU provider registers for MaxPool at that opset
    1: {"float32"},
    7: {"float32", "float16"},
    8: {"float32", "float16", "float64"},
    10: {"float32", "float16", "float64"},
    11: {"float32", "float16", "float64"},
    12: {"float32", "float16", "float64", "int8", "uint8"},
    22: {"float32", "float16", "float64", "int8", "uint8"},
}


@functools.lru_cache(maxsize=512)
def _ort_session(frozen: tuple, dtype: str, rank: int, opset: int, with_indices: bool, optimize: bool):
    import onnxruntime as ort

    model = onnx_maxpool_model(dict(frozen), np.dtype(dtype) if dtype != "bfloat16" else BF16, rank, opset, with_indices)
    so = ort.SessionOptions()
    so.intra_op_num_threads = 1
    so.inter_op_num_threads = 1
    so.log_severity_level = 4
    if not optimize:
        so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    return ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"])


def onnxruntime_run(
    x: np.ndarray, attrs: dict, opset: int = 22, with_indices: bool = True, optimize: bool = True
) -> OracleResult:
    """ONNX Runtime CPU provider on a one-node MaxPool model.

    optimize=True is ORT's default session (ORT_ENABLE_ALL), i.e. what users get.
    """
    try:
        sess = _ort_session(_freeze(attrs), x.dtype.name, x.ndim, opset, with_indices, optimize)
        out = sess.run(None, {"X": x})
    except Exception as e:  # noqa: BLE001
        return _err(e)
    y = np.asarray(out[0])
    idx = np.asarray(out[1]) if with_indices else None
    return OracleResult(y=y, indices=idx)


# --------------------------------------------------------------------------
# OpenVINO
# --------------------------------------------------------------------------


@functools.lru_cache(maxsize=1)
def _ov_core():
    import openvino as ov

    return ov.Core()


def _ov_type(dtype: np.dtype):
    import openvino as ov

    dtype = np.dtype(dtype)
    if BF16 is not None and dtype == BF16:
        return ov.Type.bf16
    return ov.Type(dtype)


def _ov_config(dtype: np.dtype) -> dict:
    """Pin CPU inference precision to the input precision.

    For f32 inputs OpenVINO CPU would otherwise be allowed to execute in bf16
    (AMX/AVX512-BF16 machines) or f16 (ARM); max pooling in a narrower type
    rounds values, so the hint is set to f32.  For f16/bf16 inputs the hint is
    that type (max never rounds: widening and narrowing back are exact); for
    f64/integers it is f32 (the hint only affects floating-point nodes).
    """
    import openvino as ov
    import openvino.properties.hint as hints

    dtype = np.dtype(dtype)
    if dtype == np.float16:
        prec = ov.Type.f16
    elif BF16 is not None and dtype == BF16:
        prec = ov.Type.bf16
    else:
        prec = ov.Type.f32
    return {
        hints.inference_precision: prec,
        hints.execution_mode: hints.ExecutionMode.ACCURACY,
        "INFERENCE_NUM_THREADS": 1,
        "NUM_STREAMS": 1,
    }


def _ov_compile(model, dtype):
    return _ov_core().compile_model(model, "CPU", _ov_config(dtype))


def _ov_tensor(x: np.ndarray):
    import openvino as ov

    if BF16 is not None and x.dtype == BF16:
        t = ov.Tensor(ov.Type.bf16, list(x.shape))
        np.copyto(t.data.view(np.uint16).reshape(x.shape), x.view(np.uint16))
        return t
    return ov.Tensor(np.ascontiguousarray(x))


def _ov_out(t, dtype) -> np.ndarray:
    import openvino as ov

    if t.element_type == ov.Type.bf16:
        return np.array(t.data, copy=True).view(np.uint16).reshape(tuple(t.shape)).view(BF16)
    return np.array(t.data, copy=True).reshape(tuple(t.shape))


def _ov_maxpool_model(shape, dt, version, kernel, strides, pads_begin, pads_end, dilations, rounding_type,
                      auto_pad, index_element_type, axis):
    import openvino as ov

    param = ov.opset8.parameter(list(shape), _ov_type(dt), name="data")
    kw = dict(
        strides=list(strides),
        pads_begin=list(pads_begin),
        pads_end=list(pads_end),
        kernel_shape=list(kernel),
        rounding_type=rounding_type,
        auto_pad=auto_pad,
    )
    if version == 1:
        import openvino.opset1 as ops

        node = ops.max_pool(param, **kw)
        outputs = [node.output(0)]
    else:
        ops = __import__(f"openvino.opset{version}", fromlist=["max_pool"])
        node = ops.max_pool(
            param, dilations=list(dilations), index_element_type=index_element_type, axis=axis, **kw
        )
        outputs = [node.output(0), node.output(1)]
    return ov.Model(outputs, [param], "maxpool_conformance")


@functools.lru_cache(maxsize=512)
def _ov_maxpool_compiled(shape, dtype, *args):
    dt = np.dtype(dtype) if dtype != "bfloat16" else BF16
    return _ov_compile(_ov_maxpool_model(shape, dt, *args), dt)


@functools.lru_cache(maxsize=512)
def _ov_maxpool_uncompiled(shape, dtype, *args):
    dt = np.dtype(dtype) if dtype != "bfloat16" else BF16
    return _ov_maxpool_model(shape, dt, *args)


def _ov_evaluate(model, x: np.ndarray):
    """openvino.Model.evaluate: OpenVINO's core reference implementation (src/core/reference)."""
    import openvino as ov

    outs = [ov.Tensor(o.get_element_type(), o.get_shape()) for o in model.outputs]
    if not model.evaluate(outs, [_ov_tensor(x)]):
        raise RuntimeError("openvino Model.evaluate returned false")
    return [_ov_out(t, None) for t in outs]


# The CPU plugin computes f64 in f32 and i64/u64 in i32 (values are converted on
# the way in: 1e300 -> FLT_MAX, 2**40+1 -> 1), so it is an exact oracle only for
# these element types; Model.evaluate (the core reference) is exact for all.
OV_CPU_EXACT_DTYPES = {"float32", "float16", "bfloat16", "int8", "uint8", "int16", "uint16", "int32"}


def openvino_max_pool(
    x: np.ndarray,
    *,
    kernel,
    strides,
    pads_begin,
    pads_end,
    dilations=None,
    rounding_type: str = "floor",
    auto_pad: str = "explicit",
    index_element_type: str = "i64",
    axis: int = 0,
    version: int = 14,
    backend: str = "cpu",
) -> OracleResult:
    """OpenVINO opset{1,8,14} MaxPool. Version 1 has no indices.

    backend="cpu": the CPU plugin (compile_model), precision pinned to the input's.
    backend="reference": openvino.Model.evaluate, the core reference implementation.
    """
    n = len(kernel)
    if dilations is None:
        dilations = [1] * n
    key = (
        tuple(x.shape), x.dtype.name, int(version), tuple(kernel), tuple(strides), tuple(pads_begin),
        tuple(pads_end), tuple(dilations), rounding_type, auto_pad, index_element_type, int(axis),
    )
    try:
        if backend == "cpu":
            cm = _ov_maxpool_compiled(*key)
            req = cm.create_infer_request()
            req.infer({0: _ov_tensor(x)})
            y = _ov_out(req.get_output_tensor(0), x.dtype)
            idx = _ov_out(req.get_output_tensor(1), None) if version != 1 else None
        elif backend == "reference":
            outs = _ov_evaluate(_ov_maxpool_uncompiled(*key), x)
            y = outs[0]
            idx = outs[1] if version != 1 else None
        else:
            raise ValueError(f"backend {backend!r}")
    except Exception as e:  # noqa: BLE001
        return _err(e)
    return OracleResult(y=y, indices=idx)


@functools.lru_cache(maxsize=256)
def _ov_adaptive_compiled(shape, dtype, output_size, index_element_type):
    import openvino as ov
    import openvino.opset8 as ops

    dt = np.dtype(dtype) if dtype != "bfloat16" else BF16
    param = ops.parameter(list(shape), _ov_type(dt), name="data")
    osz = ops.constant(np.array(output_size, dtype=np.int64))
    node = ops.adaptive_max_pool(param, osz, index_element_type=index_element_type)
    model = ov.Model([node.output(0), node.output(1)], [param], "adaptive_conformance")
    return _ov_compile(model, dt)


def openvino_adaptive_max_pool(x: np.ndarray, output_size, index_element_type: str = "i64") -> OracleResult:
    """OpenVINO opset8 AdaptiveMaxPool on CPU (indices per (n, c) plane)."""
    try:
        cm = _ov_adaptive_compiled(tuple(x.shape), x.dtype.name, tuple(int(v) for v in output_size), index_element_type)
        req = cm.create_infer_request()
        req.infer({0: _ov_tensor(x)})
        y = _ov_out(req.get_output_tensor(0), x.dtype)
        idx = _ov_out(req.get_output_tensor(1), None)
    except Exception as e:  # noqa: BLE001
        return _err(e)
    return OracleResult(y=y, indices=idx)


# --------------------------------------------------------------------------
# bit-exact comparison helpers
# --------------------------------------------------------------------------

_UINT_OF_SIZE = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def bits(a: np.ndarray) -> np.ndarray:
    a = np.ascontiguousarray(a)
    return a.view(_UINT_OF_SIZE[a.dtype.itemsize])


def is_float(dtype) -> bool:
    dtype = np.dtype(dtype)
    return dtype.kind == "f" or (BF16 is not None and dtype == BF16)


def nan_mask(a: np.ndarray) -> np.ndarray:
    if not is_float(a.dtype):
        return np.zeros(a.shape, bool)
    with np.errstate(invalid="ignore"):
        return np.isnan(a.astype(np.float64))


def same_values(a: np.ndarray, b: np.ndarray, nan_payload: bool = True) -> bool:
    """Bit-exact equality (-0.0 != +0.0). With nan_payload=False any NaN equals any NaN."""
    if a is None or b is None:
        return a is b
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    if nan_payload:
        return bool(np.array_equal(bits(a), bits(b)))
    na, nb = nan_mask(a), nan_mask(b)
    if not np.array_equal(na, nb):
        return False
    return bool(np.array_equal(bits(a)[~na], bits(b)[~nb]))


def same_indices(a: np.ndarray, b: np.ndarray) -> bool:
    if a is None or b is None:
        return a is b
    return a.shape == b.shape and a.dtype == b.dtype and bool(np.array_equal(a, b))


def describe_diff(a: np.ndarray, b: np.ndarray, limit: int = 6) -> str:
    if a is None or b is None:
        return f"one side missing: {a is None} vs {b is None}"
    if a.shape != b.shape:
        return f"shape {a.shape} vs {b.shape}"
    if a.dtype != b.dtype:
        return f"dtype {a.dtype} vs {b.dtype}"
    diff = np.argwhere(bits(a) != bits(b)) if a.dtype.kind != "i" else np.argwhere(a != b)
    parts = []
    for pos in diff[:limit]:
        pos = tuple(int(p) for p in pos)
        parts.append(f"{pos}: {a[pos]!r} vs {b[pos]!r}")
    return f"{len(diff)} differ; " + "; ".join(parts)
