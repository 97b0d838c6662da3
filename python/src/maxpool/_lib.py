# SPDX-License-Identifier: Apache-2.0
"""ctypes bindings of include/maxpool.h: the one place that mirrors its structs.

The shared library is found, in this order, at
  1. the path in the environment variable MAXPOOL_LIBRARY (e.g. a build dir's
     libmaxpool.so, for testing against a fresh build),
  2. next to this file (where `pip install ./python` puts it).

Every struct below repeats the C declaration field by field, same order, same
types (C enums are `int`); tests/python/test_api.py checks sizeof and every
offsetof against the C compiler when one is available.
"""

from __future__ import annotations

import ctypes
import os
import sys
from ctypes import POINTER, Structure, byref, c_char, c_char_p, c_int, c_int64, c_size_t, c_void_p

import numpy as np

MAX_SPATIAL = 8  # MAXPOOL_MAX_SPATIAL
MESSAGE_SIZE = 256  # MAXPOOL_MESSAGE_SIZE

# maxpool_status
OK = 0
ERR_NULL_POINTER = 1
ERR_INVALID_ATTRIBUTE = 2
ERR_INVALID_SHAPE = 3
ERR_UNSUPPORTED = 4
ERR_OVERFLOW = 5
ERR_OUT_OF_MEMORY = 6

# maxpool_dtype
F32, F64, F16, BF16, I8, U8, I16, U16, I32, I64 = range(10)
DTYPE_COUNT = 10

# maxpool_layout
CHANNELS_FIRST, CHANNELS_LAST = 0, 1
# maxpool_window_kind
WINDOW_FIXED, WINDOW_ADAPTIVE = 0, 1
# maxpool_auto_pad
PAD_EXPLICIT, PAD_VALID, PAD_SAME_UPPER, PAD_SAME_LOWER = range(4)
# maxpool_rounding
ROUND_FLOOR, ROUND_CEIL, ROUND_CEIL_TORCH = range(3)
# maxpool_index_type
INDEX_NONE, INDEX_I32, INDEX_I64 = range(3)
# maxpool_index_order
INDEX_ROW_MAJOR, INDEX_COL_MAJOR = 0, 1
# maxpool_nan_policy
NAN_IGNORE, NAN_PROPAGATE = 0, 1
# maxpool_empty_value
EMPTY_LOWEST, EMPTY_NEG_INF = 0, 1
# maxpool_empty_index
EMPTY_INDEX_MINUS_ONE, EMPTY_INDEX_FIRST_TAP, EMPTY_INDEX_PLANE_START = 0, 1, 2
# maxpool_window_init
INIT_EMPTY_VALUE, INIT_FIRST_ELEMENT = 0, 1
# maxpool_isa
ISA_AUTO, ISA_SCALAR, ISA_SSE2, ISA_AVX2, ISA_AVX512, ISA_NEON = range(6)
# maxpool_adaptive_flavor
ADAPTIVE_TORCH, ADAPTIVE_ACLNN, ADAPTIVE_OPENVINO = range(3)

_I64S = c_int64 * MAX_SPATIAL
_I64S2 = c_int64 * (2 * MAX_SPATIAL)


class Error(Structure):
    """struct maxpool_error"""

    _fields_ = [
        ("code", c_int),
        ("message", c_char * MESSAGE_SIZE),
    ]


class Desc(Structure):
    """struct maxpool_desc"""

    _fields_ = [
        ("spatial_rank", c_int),
        ("dtype", c_int),
        ("layout", c_int),
        ("window", c_int),
        ("kernel", _I64S),
        ("stride", _I64S),
        ("dilation", _I64S),
        ("pad_begin", _I64S),
        ("pad_end", _I64S),
        ("auto_pad", c_int),
        ("rounding", c_int),
        ("output_size", _I64S),
        ("index_type", c_int),
        ("index_axis", c_int),
        ("index_order", c_int),
        ("nan_policy", c_int),
        ("empty_value", c_int),
        ("empty_index", c_int),
        ("reject_empty_windows", c_int),
        ("window_init", c_int),
        ("num_threads", c_int),
        ("max_isa", c_int),
        ("require_kernel_fits", c_int),
    ]


class OnnxAttrs(Structure):
    """struct maxpool_onnx_attrs"""

    _fields_ = [
        ("opset", c_int),
        ("n_kernel_shape", c_int),
        ("kernel_shape", _I64S),
        ("n_strides", c_int),
        ("strides", _I64S),
        ("n_pads", c_int),
        ("pads", _I64S2),
        ("n_dilations", c_int),
        ("dilations", _I64S),
        ("auto_pad", c_char_p),
        ("ceil_mode", c_int),
        ("storage_order", c_int),
        ("want_indices", c_int),
    ]


class OpenvinoAttrs(Structure):
    """struct maxpool_openvino_attrs"""

    _fields_ = [
        ("version", c_int),
        ("n_kernel", c_int),
        ("kernel", _I64S),
        ("n_strides", c_int),
        ("strides", _I64S),
        ("n_dilations", c_int),
        ("dilations", _I64S),
        ("n_pads_begin", c_int),
        ("pads_begin", _I64S),
        ("n_pads_end", c_int),
        ("pads_end", _I64S),
        ("rounding_type", c_char_p),
        ("auto_pad", c_char_p),
        ("index_element_type", c_char_p),
        ("axis", c_int64),
        ("want_indices", c_int),
    ]


class TorchAttrs(Structure):
    """struct maxpool_torch_attrs"""

    _fields_ = [
        ("n_kernel_size", c_int),
        ("kernel_size", _I64S),
        ("n_stride", c_int),
        ("stride", _I64S),
        ("n_padding", c_int),
        ("padding", _I64S),
        ("n_dilation", c_int),
        ("dilation", _I64S),
        ("ceil_mode", c_int),
        ("return_indices", c_int),
    ]


class AdaptiveAttrs(Structure):
    """struct maxpool_adaptive_attrs"""

    _fields_ = [
        ("flavor", c_int),
        ("n_output_size", c_int),
        ("output_size", _I64S),
        ("index_element_type", c_char_p),
        ("want_indices", c_int),
    ]


# C struct name -> ctypes class (the layout test walks this).
STRUCTS = {
    "maxpool_error": Error,
    "maxpool_desc": Desc,
    "maxpool_onnx_attrs": OnnxAttrs,
    "maxpool_openvino_attrs": OpenvinoAttrs,
    "maxpool_torch_attrs": TorchAttrs,
    "maxpool_adaptive_attrs": AdaptiveAttrs,
}


# --------------------------------------------------------------------------
# Loading the library
# --------------------------------------------------------------------------

def _candidates():
    env = os.environ.get("MAXPOOL_LIBRARY")
    if env:
        return [env]
    here = os.path.dirname(os.path.abspath(__file__))
    if sys.platform == "win32":
        names = ["maxpool.dll", "libmaxpool.dll"]
    elif sys.platform == "darwin":
        names = ["libmaxpool.dylib", "libmaxpool.so"]
    else:
        names = ["libmaxpool.so"]
    return [os.path.join(here, n) for n in names]


def _load():
    tried = []
    for path in _candidates():
        if os.path.exists(path):
            try:
                return ctypes.CDLL(path), path
            except OSError as e:
                # found but not loadable: usually a library it needs is missing
                # (e.g. libgomp.so.1 for a build from source on a slim system)
                import re

                m = re.search(r"([\w.+-]+\.so[\w.]*): cannot open shared object file", str(e))
                if m and m.group(1) != os.path.basename(path):
                    what = f"it needs {m.group(1)}, which is not installed (or not on the loader's path)"
                    todo = (
                        "install the manylinux wheel (scripts/build_wheel.sh; it bundles the libraries it loads) "
                        "or the missing library"
                    )
                    if m.group(1).startswith("libgomp"):
                        todo += (
                            " (the OpenMP runtime: libgomp1 on Debian/Ubuntu, libgomp on Fedora/RHEL), or build "
                            "without it: pip install ./python -C cmake.define.MAXPOOL_OPENMP=OFF (single-threaded)"
                        )
                else:
                    what = str(e)
                    todo = "rebuild it for this machine (pip install ./python), or set MAXPOOL_LIBRARY to one that loads"
                raise ImportError(
                    f"maxpool: cannot load {path}: {what}; {todo}",
                    name="maxpool",
                    path=path,
                ) from e
        tried.append(path)
    hint = (
        "set MAXPOOL_LIBRARY to a built libmaxpool, or install the package with `pip install ./python` "
        "from the repository root, which builds it"
    )
    raise ImportError(f"maxpool: shared library not found (tried {', '.join(tried)}); {hint}")


lib, library_path = _load()


def _fn(name, restype, *argtypes):
    f = getattr(lib, name)
    f.restype = restype
    f.argtypes = list(argtypes)
    return f


_p = POINTER
maxpool_strerror = _fn("maxpool_strerror", c_char_p, c_int)
maxpool_desc_init = _fn("maxpool_desc_init", None, _p(Desc), c_int)
maxpool_output_shape = _fn("maxpool_output_shape", c_int, _p(Desc), _p(c_int64), _p(c_int64), _p(Error))
maxpool_plan_create = _fn("maxpool_plan_create", c_int, _p(Desc), _p(c_int64), _p(c_void_p), _p(Error))
maxpool_run = _fn("maxpool_run", c_int, c_void_p, c_void_p, c_void_p, c_void_p)
maxpool_plan_destroy = _fn("maxpool_plan_destroy", None, c_void_p)
maxpool_plan_output_shape = _fn("maxpool_plan_output_shape", None, c_void_p, _p(c_int64))
maxpool_plan_kernel_name = _fn("maxpool_plan_kernel_name", c_char_p, c_void_p)
maxpool_dtype_size = _fn("maxpool_dtype_size", c_size_t, c_int)
maxpool_cpu_isa = _fn("maxpool_cpu_isa", c_int)
maxpool_isa_name = _fn("maxpool_isa_name", c_char_p, c_int)

maxpool_onnx_attrs_init = _fn("maxpool_onnx_attrs_init", None, _p(OnnxAttrs), c_int)
maxpool_onnx_lower = _fn("maxpool_onnx_lower", c_int, _p(OnnxAttrs), c_int, c_int, _p(Desc), _p(Error))
maxpool_openvino_attrs_init = _fn("maxpool_openvino_attrs_init", None, _p(OpenvinoAttrs), c_int)
maxpool_openvino_lower = _fn("maxpool_openvino_lower", c_int, _p(OpenvinoAttrs), c_int, c_int, _p(Desc), _p(Error))
maxpool_torch_attrs_init = _fn("maxpool_torch_attrs_init", None, _p(TorchAttrs))
maxpool_torch_lower = _fn("maxpool_torch_lower", c_int, _p(TorchAttrs), c_int, c_int, _p(Desc), _p(Error))
maxpool_adaptive_attrs_init = _fn("maxpool_adaptive_attrs_init", None, _p(AdaptiveAttrs), c_int)
maxpool_adaptive_lower = _fn("maxpool_adaptive_lower", c_int, _p(AdaptiveAttrs), c_int, c_int, _p(Desc), _p(Error))


# --------------------------------------------------------------------------
# Errors, dtypes, arrays
# --------------------------------------------------------------------------

class MaxPoolError(ValueError):
    """A maxpool C call failed; str() is the C message, .status the maxpool_status code."""

    def __init__(self, message, status=None):
        super().__init__(message)
        self.status = status


def check(status, err):
    if status != OK:
        msg = err.message.decode("utf-8", "replace") if err is not None else ""
        if not msg:
            msg = (maxpool_strerror(status) or b"error").decode("utf-8", "replace")
        raise MaxPoolError(msg, status)


try:  # optional: bfloat16 arrays
    import ml_dtypes as _ml_dtypes

    BFLOAT16 = np.dtype(_ml_dtypes.bfloat16)
except ImportError:  # pragma: no cover - depends on the environment
    BFLOAT16 = None

_DTYPES = {
    np.dtype(np.float32): F32,
    np.dtype(np.float64): F64,
    np.dtype(np.float16): F16,
    np.dtype(np.int8): I8,
    np.dtype(np.uint8): U8,
    np.dtype(np.int16): I16,
    np.dtype(np.uint16): U16,
    np.dtype(np.int32): I32,
    np.dtype(np.int64): I64,
}
if BFLOAT16 is not None:
    _DTYPES[BFLOAT16] = BF16


def as_input(x):
    """x as an aligned, C-contiguous, native-endian numpy array of a supported
    dtype, and its maxpool_dtype. Copies only when needed."""
    a = np.asarray(x)
    dt = a.dtype
    if dt.byteorder not in ("=", "|") and dt.newbyteorder("=") in _DTYPES:
        a = a.astype(dt.newbyteorder("="))
        dt = a.dtype
    code = _DTYPES.get(dt)
    if code is None:
        names = ", ".join(sorted(str(d) for d in _DTYPES))
        extra = "" if BFLOAT16 is not None else " (bfloat16 needs the ml_dtypes package)"
        raise MaxPoolError(f"maxpool: dtype {dt} is not supported; supported: {names}{extra}", ERR_UNSUPPORTED)
    a = np.require(a, requirements=["C", "A"])
    return a, code


def index_dtype(index_type):
    return {INDEX_I32: np.dtype(np.int32), INDEX_I64: np.dtype(np.int64)}.get(index_type)


# --------------------------------------------------------------------------
# Attribute helpers (memory safety and Python types only; the C front-ends
# validate the values)
# --------------------------------------------------------------------------

def int_list(name, value, capacity):
    """A sequence of ints (or one int) as a list; checks it fits the C array."""
    if value is None:
        return None
    if isinstance(value, (str, bytes)):
        raise TypeError(f"maxpool: {name}: {value!r} is not a sequence of integers")
    if isinstance(value, np.ndarray):
        value = value.reshape(-1).tolist()
    if hasattr(value, "__iter__"):
        values = [int_scalar(name, v) for v in value]
    else:
        values = [int_scalar(name, value)]
    if len(values) > capacity:
        raise MaxPoolError(
            f"maxpool: {name} has {len(values)} values; at most {capacity} fit "
            f"(MAXPOOL_MAX_SPATIAL={MAX_SPATIAL})",
            ERR_UNSUPPORTED,
        )
    return values


def int_scalar(name, v):
    if isinstance(v, (bool, np.bool_)):
        return int(v)
    if isinstance(v, (float, np.floating)):
        if float(v).is_integer():
            return int(v)
        raise MaxPoolError(f"maxpool: {name}: {v!r} is not an integer", ERR_INVALID_ATTRIBUTE)
    try:
        i = int(np.asarray(v).item()) if isinstance(v, np.ndarray) else v.__index__()
    except AttributeError:
        raise TypeError(f"maxpool: {name}: {v!r} is not an integer") from None
    if not -(2**63) <= i < 2**63:
        raise MaxPoolError(f"maxpool: {name}: {i} does not fit int64", ERR_OVERFLOW)
    return i


def int32_scalar(name, v):
    """An int for a C `int` field."""
    i = int_scalar(name, v)
    if not -(2**31) <= i < 2**31:
        raise MaxPoolError(f"maxpool: {name}={i} is out of range", ERR_INVALID_ATTRIBUTE)
    return i


def set_list(struct, count_field, array_field, values):
    """Stores values (a list, or None for absent) into a count + array pair."""
    if values is None:
        setattr(struct, count_field, 0)
        return
    arr = getattr(struct, array_field)
    for i, v in enumerate(values):
        arr[i] = v
    setattr(struct, count_field, len(values))


def c_string(name, value):
    if value is None:
        return None
    if isinstance(value, bytes):
        return value
    if isinstance(value, str):
        return value.encode("utf-8")
    raise MaxPoolError(f"maxpool: {name}: {value!r} is not a string", ERR_INVALID_ATTRIBUTE)


_NAN = {None: None, "ignore": NAN_IGNORE, "propagate": NAN_PROPAGATE}


def apply_options(desc, nan, threads):
    """The per-call overrides every Python function takes."""
    if isinstance(nan, str):
        nan_key = nan.lower()
    else:
        nan_key = nan
    if nan_key not in _NAN:
        raise MaxPoolError(f"maxpool: nan={nan!r}: must be None, 'propagate' or 'ignore'", ERR_INVALID_ATTRIBUTE)
    if _NAN[nan_key] is not None:
        desc.nan_policy = _NAN[nan_key]
    if threads is not None:
        t = int_scalar("threads", threads)
        if t < 0 or t > 2**31 - 1:
            raise MaxPoolError(f"maxpool: threads={t} must be >= 0 (0 or 1: the calling thread)",
                               ERR_INVALID_ATTRIBUTE)
        desc.num_threads = t


def execute(x, desc):
    """Plans desc for x (contiguous, from as_input), runs it, returns (y, indices or None)."""
    rank = x.ndim
    shape = (c_int64 * max(rank, 1))(*x.shape)
    out_shape = (c_int64 * max(rank, 1))()
    err = Error()
    plan = c_void_p()
    check(maxpool_plan_create(byref(desc), shape, byref(plan), byref(err)), err)
    try:
        maxpool_plan_output_shape(plan, out_shape)
        oshape = tuple(out_shape[i] for i in range(rank))
        y = np.empty(oshape, dtype=x.dtype)
        idt = index_dtype(desc.index_type)
        ind = np.empty(oshape, dtype=idt) if idt is not None else None
        status = maxpool_run(plan, x.ctypes.data, y.ctypes.data, ind.ctypes.data if ind is not None else None)
        if status != OK:
            raise MaxPoolError((maxpool_strerror(status) or b"error").decode(), status)
    finally:
        maxpool_plan_destroy(plan)
    return y, ind


def lower(fn, attrs, dtype_code, rank):
    """Calls a maxpool_*_lower front-end; returns the filled Desc."""
    desc = Desc()
    err = Error()
    check(fn(byref(attrs), dtype_code, rank, byref(desc), byref(err)), err)
    return desc


# --------------------------------------------------------------------------
# TensorFlow max_pool_with_argmax front-end, the channels-last index order
# --------------------------------------------------------------------------

# maxpool_index_order
INDEX_CHANNELS_LAST = 2


class TfAttrs(Structure):
    """struct maxpool_tf_attrs"""

    _fields_ = [
        ("n_ksize", c_int),
        ("ksize", c_int64 * 4),
        ("n_strides", c_int),
        ("strides", c_int64 * 4),
        ("padding", c_char_p),
        ("data_format", c_char_p),
        ("targmax", c_char_p),
        ("include_batch_in_index", c_int),
    ]


STRUCTS["maxpool_tf_attrs"] = TfAttrs
maxpool_tf_attrs_init = _fn("maxpool_tf_attrs_init", None, _p(TfAttrs))
maxpool_tf_lower = _fn("maxpool_tf_lower", c_int, _p(TfAttrs), c_int, c_int, _p(Desc), _p(Error))
