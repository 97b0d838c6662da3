# SPDX-License-Identifier: Apache-2.0
"""What every public function and every Plan shares: importing the input
(numpy, DLPack, torch), the memory layout, out= buffers, the thread default,
running a C plan, and handing results back in the caller's framework.

A spec front-end (onnx.max_pool, torch.max_pool2d, ...) is described by a
Spec: a function that, given the input's logical rank and maxpool dtype code,
lowers the attributes to a filled _lib.Desc, plus how the result is returned.
"""

from __future__ import annotations

import ctypes
import os
import sys
from ctypes import byref, c_int64, c_void_p

import numpy as np

from . import _lib

# --------------------------------------------------------------------------
# Threads
# --------------------------------------------------------------------------


def _default_threads() -> int:
    env = os.environ.get("MAXPOOL_NUM_THREADS")
    if env:
        try:
            n = int(env)
        except ValueError:
            raise ImportError(f"maxpool: MAXPOOL_NUM_THREADS={env!r} is not an integer") from None
        if n < 1:
            raise ImportError(f"maxpool: MAXPOOL_NUM_THREADS={env!r} must be >= 1")
        return n
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # not Linux
        return max(1, os.cpu_count() or 1)


#: threads a call uses when threads=None: the CPUs this process may run on
#: (os.sched_getaffinity), or MAXPOOL_NUM_THREADS when set. The C library
#: still runs on the calling thread alone when a call moves fewer than
#: MAXPOOL_PARALLEL_MIN_BYTES (128 KiB) or has fewer tasks than threads.
DEFAULT_THREADS = _default_threads()


# --------------------------------------------------------------------------
# Importing arrays: numpy, torch, anything with __dlpack__
# --------------------------------------------------------------------------


def _is_torch(x) -> bool:
    t = type(x)
    return t.__module__.startswith("torch") and "torch" in sys.modules and isinstance(x, sys.modules["torch"].Tensor)


def _torch_to_numpy(t, what):
    """A torch tensor as a numpy array sharing its memory (no copy)."""
    torch = sys.modules["torch"]
    if t.device.type != "cpu":
        raise _lib.MaxPoolError(
            f"maxpool: {what} is a torch tensor on {t.device}; maxpool runs on the CPU (use .cpu())",
            _lib.ERR_UNSUPPORTED,
        )
    t = t.detach()
    if t.dtype == torch.bfloat16:
        # numpy has no bfloat16: the bits as int16 (viewed as ml_dtypes'
        # bfloat16 when it is installed; else call() passes the dtype code)
        a = _from_dlpack(t.view(torch.int16), what)
        return a.view(_lib.BFLOAT16) if _lib.BFLOAT16 is not None else a
    return _from_dlpack(t, what)


def _from_dlpack(obj, what):
    try:
        return np.from_dlpack(obj)
    except (TypeError, ValueError, RuntimeError, BufferError) as e:
        raise _lib.MaxPoolError(f"maxpool: {what}: cannot import it through DLPack: {e}", _lib.ERR_UNSUPPORTED) from e


def import_array(x, what="input"):
    """(numpy view of x, framework) with no copy: framework is "torch" for a
    torch tensor, else "numpy". Objects with __dlpack__ are imported through
    DLPack; anything else goes through numpy.asarray."""
    if type(x) is np.ndarray:
        return x, "numpy"
    if _is_torch(x):
        a = _torch_to_numpy(x, what)
        if _lib.BFLOAT16 is None and x.dtype == sys.modules["torch"].bfloat16:
            return a, "torch-bf16"  # int16 bits of bfloat16 values
        return a, "torch"
    if isinstance(x, np.ndarray):
        return x, "numpy"
    if hasattr(x, "__dlpack__"):
        return _from_dlpack(x, what), "numpy"
    return np.asarray(x), "numpy"


def export(a, framework):
    """A numpy result in the caller's framework (torch: torch.from_dlpack, no copy)."""
    if a is None or not framework.startswith("torch"):
        return a
    torch = sys.modules["torch"]
    if framework == "torch-bf16" and a.dtype == np.int16:  # values (indices are int32/int64)
        return torch.from_dlpack(a).view(torch.bfloat16)
    if _lib.BFLOAT16 is not None and a.dtype == _lib.BFLOAT16:
        return torch.from_dlpack(a.view(np.int16)).view(torch.bfloat16)
    return torch.from_dlpack(a)


# --------------------------------------------------------------------------
# dtype and layout
# --------------------------------------------------------------------------


def dtype_code(a, framework="numpy"):
    """a (native byte order, copied if not) and its maxpool dtype code."""
    if framework == "torch-bf16":
        return a, _lib.BF16
    dt = a.dtype
    code = _lib._DTYPES.get(dt)
    if code is None:
        if dt.byteorder not in ("=", "|") and dt.newbyteorder("=") in _lib._DTYPES:
            a = a.astype(dt.newbyteorder("="))
            return a, _lib._DTYPES[a.dtype]
        names = ", ".join(sorted(str(d) for d in _lib._DTYPES))
        extra = "" if _lib.BFLOAT16 is not None else " (bfloat16 needs the ml_dtypes package)"
        raise _lib.MaxPoolError(f"maxpool: dtype {dt} is not supported; supported: {names}{extra}",
                                _lib.ERR_UNSUPPORTED)
    return a, code


_FIRST_NAMES = {"channels_first", "nchw", "ncw", "ncl", "ncdhw", "ncd", "nc"}
_LAST_NAMES = {"channels_last", "nhwc", "nwc", "nlc", "ndhwc"}


def parse_layout(layout):
    """None (detect from the strides) | CHANNELS_FIRST | CHANNELS_LAST."""
    if layout is None:
        return None
    if isinstance(layout, str):
        key = layout.lower()
        if key in _FIRST_NAMES or (key.startswith("nc") and key.isalpha()):
            return _lib.CHANNELS_FIRST
        if key in _LAST_NAMES or (key.startswith("n") and key.endswith("c") and key.isalpha() and len(key) >= 3):
            return _lib.CHANNELS_LAST
    raise _lib.MaxPoolError(
        f"maxpool: layout={layout!r}: must be None (from the strides), 'NCHW' / 'channels_first' "
        f"(N, C, spatial...) or 'NHWC' / 'channels_last' (N, spatial..., C)",
        _lib.ERR_INVALID_ATTRIBUTE,
    )


def to_memory(ndim):
    """Axis order taking a logical (N, C, D...) array to channels-last memory order."""
    return (0,) + tuple(range(2, ndim)) + (1,)


def from_memory(ndim):
    return (0, ndim - 1) + tuple(range(1, ndim - 1))


def resolve_layout(a, layout):
    """(mem, layout_code, strided): mem is C-contiguous in memory order;
    strided says the caller's array is logical (N, C, D...) with channels-last
    strides, so results go back as transposed views (same memory format)."""
    if layout is None:
        if a.flags.c_contiguous:
            return a, _lib.CHANNELS_FIRST, False
        if a.ndim >= 3:
            t = a.transpose(to_memory(a.ndim))
            if t.flags.c_contiguous:
                return t, _lib.CHANNELS_LAST, True
        return np.ascontiguousarray(a), _lib.CHANNELS_FIRST, False
    return np.ascontiguousarray(a), layout, False


def logical_shape(mem, layout_code):
    """(N, C, D...) of an input in memory order."""
    if layout_code == _lib.CHANNELS_LAST and mem.ndim >= 3:
        return tuple(mem.shape[i] for i in from_memory(mem.ndim))
    return tuple(mem.shape)


def aligned(a):
    """The C kernels need elements aligned to their size."""
    if not a.flags.aligned:
        return np.ascontiguousarray(a.copy())
    return a


# --------------------------------------------------------------------------
# out= buffers
# --------------------------------------------------------------------------


def check_out(buf, what, mem_shape, dtype, strided):
    """(caller's object, numpy view in memory order) for an out= buffer;
    ValueError unless its shape, dtype and contiguity are what the call
    writes and it is writeable."""
    obj = buf
    if type(buf) is np.ndarray:
        a, writeable = buf, buf.flags.writeable
    elif _is_torch(buf):
        a, writeable = _torch_to_numpy(buf, what), True  # numpy marks DLPack imports read-only; torch's are not
    elif isinstance(buf, np.ndarray):
        a, writeable = buf, buf.flags.writeable
    elif hasattr(buf, "__dlpack__"):
        a = _from_dlpack(buf, what)
        writeable = a.flags.writeable
    else:
        raise _lib.MaxPoolError(f"maxpool: {what} must be an array (numpy, torch or __dlpack__), not {type(buf).__name__}",
                                _lib.ERR_INVALID_SHAPE)
    want_shape = tuple(mem_shape[i] for i in from_memory(len(mem_shape))) if strided else tuple(mem_shape)
    if a.shape != want_shape:
        raise _lib.MaxPoolError(f"maxpool: {what} has shape {a.shape}; the result has shape {want_shape}",
                                _lib.ERR_INVALID_SHAPE)
    if a.dtype != dtype:
        raise _lib.MaxPoolError(f"maxpool: {what} has dtype {a.dtype}; the result has dtype {dtype}",
                                _lib.ERR_INVALID_SHAPE)
    mem = a.transpose(to_memory(a.ndim)) if strided else a
    if not mem.flags.c_contiguous:
        form = "channels-last (like the input)" if strided else "C-contiguous"
        raise _lib.MaxPoolError(f"maxpool: {what} must be {form}; its strides are {a.strides}",
                                _lib.ERR_INVALID_SHAPE)
    if not writeable:
        raise _lib.MaxPoolError(f"maxpool: {what} is read-only", _lib.ERR_INVALID_SHAPE)
    if mem.ctypes.data % max(dtype.itemsize, 1):
        raise _lib.MaxPoolError(f"maxpool: {what} is not aligned to its element size", _lib.ERR_INVALID_SHAPE)
    return obj, mem


# --------------------------------------------------------------------------
# Options and planning
# --------------------------------------------------------------------------


def apply_options(desc, nan, threads, layout_code):
    _lib.apply_options(desc, nan, threads)
    if threads is None:
        desc.num_threads = DEFAULT_THREADS
    desc.layout = layout_code


def create_plan(desc, mem_shape):
    rank = len(mem_shape)
    shape = (c_int64 * max(rank, 1))(*mem_shape)
    out_shape = (c_int64 * max(rank, 1))()
    err = _lib.Error()
    plan = c_void_p()
    _lib.check(_lib.maxpool_plan_create(byref(desc), shape, byref(plan), byref(err)), err)
    _lib.maxpool_plan_output_shape(plan, out_shape)
    return plan, tuple(out_shape[i] for i in range(rank))


# maxpool_run with its pointers passed as they come (c_void_p, byref(...)):
# a separate function object, so the argtypes of _lib's stay as they are.
_run = ctypes.CDLL(_lib.library_path).maxpool_run
_run.restype = ctypes.c_int
_run.argtypes = None
_from_buffer = ctypes.c_char.from_buffer
_byref = ctypes.byref


def address(a):
    """A pointer argument for a numpy array's data: byref of the buffer for
    writeable, non-empty arrays (the cheapest way), else c_void_p of its
    address (numpy marks DLPack imports read-only; their memory may still
    be an out= buffer)."""
    if a is None:
        return None
    if a.flags.writeable and a.nbytes:
        try:
            return _byref(_from_buffer(a))
        except (ValueError, TypeError):  # dtypes the buffer protocol lacks (ml_dtypes' bfloat16)
            pass
    return c_void_p(a.ctypes.data)


def buffer_protocol_ok(dtype):
    """Whether arrays of dtype export a buffer (ctypes.from_buffer works)."""
    try:
        memoryview(np.empty(1, dtype))
        return True
    except (ValueError, TypeError):
        return False


def run(plan, x, y, ind):
    """maxpool_run on numpy arrays (C-contiguous in memory order)."""
    status = _run(plan, address(x), address(y), address(ind))
    if status != _lib.OK:
        raise _lib.MaxPoolError((_lib.maxpool_strerror(status) or b"error").decode(), status)


class Spec:
    """A front-end call: lower(logical (N, C, D...) shape, code) -> Desc; unbatched_rank: the
    spatial rank whose (C, D...) inputs are accepted unbatched (None: none);
    returns: "values" (Y), "pair" ((Y, I)) or "auto" (Y alone when the
    desc has no indices)."""

    __slots__ = ("lower", "unbatched_rank", "returns", "nan", "threads", "name")

    def __init__(self, name, lower, *, unbatched_rank=None, returns="auto", nan=None, threads=None):
        self.name = name
        self.lower = lower
        self.unbatched_rank = unbatched_rank
        self.returns = returns
        self.nan = nan
        self.threads = threads


def _unbatch(spec, ndim):
    return spec.unbatched_rank is not None and ndim == spec.unbatched_rank + 1


def split_out(out, want_indices):
    """out= as (values buffer, indices buffer)."""
    if out is None:
        return None, None
    if isinstance(out, tuple):
        if len(out) != 2:
            raise _lib.MaxPoolError("maxpool: out= must be an array or a (values, indices) pair",
                                    _lib.ERR_INVALID_SHAPE)
        if out[1] is not None and not want_indices:
            raise _lib.MaxPoolError("maxpool: out= has an indices buffer but the call returns no indices",
                                    _lib.ERR_INVALID_SHAPE)
        return out
    return out, None


def call(spec, x, layout=None, out=None):
    """One function call: import x, plan, run, return in the caller's form."""
    a, framework = import_array(x)
    a, code = dtype_code(a, framework)
    layout_code = parse_layout(layout)
    unbatched = _unbatch(spec, a.ndim)
    if unbatched:
        a = a[np.newaxis]
    mem, layout_code, strided = resolve_layout(a, layout_code)
    mem = aligned(mem)
    desc = spec.lower(logical_shape(mem, layout_code), code)
    apply_options(desc, spec.nan, spec.threads, layout_code)
    plan, oshape = create_plan(desc, mem.shape)
    try:
        idt = _lib.index_dtype(desc.index_type)
        out_y, out_i = split_out(out, idt is not None)
        orig_y, orig_i = out_y, out_i
        if unbatched:
            # out= has the unbatched shape: view it with the batch axis.
            out_y = _batched_view(out_y, "out")
            out_i = _batched_view(out_i, "indices out")
        if out_y is not None:
            _, y = check_out(out_y, "out", oshape, mem.dtype, strided)
        else:
            y = np.empty(oshape, dtype=mem.dtype)
        ind = None
        if idt is not None:
            if out_i is not None:
                _, ind = check_out(out_i, "indices out", oshape, idt, strided)
            else:
                ind = np.empty(oshape, dtype=idt)
        run(plan, mem, y, ind)
    finally:
        _lib.maxpool_plan_destroy(plan)
    return finish(spec, y, ind, orig_y, orig_i, strided, unbatched, framework)


def _batched_view(buf, what):
    if buf is None:
        return None
    if type(buf) is np.ndarray or isinstance(buf, np.ndarray):
        return buf[np.newaxis]
    if _is_torch(buf):
        return buf.unsqueeze(0)
    a = _from_dlpack(buf, what)
    return a[np.newaxis]


def finish(spec, y, ind, y_obj, i_obj, strided, unbatched, framework):
    """Results as the caller gets them: out= objects themselves, else arrays
    in the input's memory format, batch axis dropped, in its framework."""

    def shape_back(v):
        if strided:
            v = v.transpose(from_memory(v.ndim))
        if unbatched:
            v = v[0]
        return export(v, framework)

    y_res, i_res = y_obj, i_obj
    if y_res is None:
        y_res = shape_back(y)
    if ind is not None and i_res is None:
        i_res = shape_back(ind)
    if spec.returns == "values" or ind is None and spec.returns == "auto":
        return y_res
    return y_res, i_res
