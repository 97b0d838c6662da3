# SPDX-License-Identifier: Apache-2.0
"""maxpool.plan: validate and plan once, run many times.

    p = maxpool.plan(maxpool.onnx.max_pool, (1, 16, 8, 8), np.float32, kernel_shape=[2, 2], strides=[2, 2])
    y = p(x)                       # a new array
    p(x, out=y)                    # into y (no allocation)
    p.close()                      # or `with maxpool.plan(...) as p:`

The C plan (maxpool_plan_create) is built once; a call checks the input's
type, shape, dtype and contiguity, and the out= buffers, then calls
maxpool_run directly.
"""

from __future__ import annotations

import ctypes
from typing import Any, Callable, Optional, Sequence, Tuple, Union

import numpy as np

from . import _core, _lib
from ._types import ArrayLike, Result

__all__ = ["Plan", "plan"]

_from_buffer = ctypes.c_char.from_buffer
_byref = ctypes.byref

# maxpool_run with pointer arguments taken as they come (c_void_p, ints,
# byref(...) of buffers): argtypes would re-check each one per call.
_run = ctypes.CDLL(_lib.library_path).maxpool_run
_run.restype = ctypes.c_int
_run.argtypes = None


def _function_of(fn):
    if isinstance(fn, str):
        from . import adaptive, onnx, openvino, torch  # noqa: PLC0415

        names = {
            "onnx": onnx.max_pool,
            "onnx.max_pool": onnx.max_pool,
            "openvino": openvino.max_pool,
            "openvino.max_pool": openvino.max_pool,
            "adaptive": adaptive.adaptive_max_pool,
            "adaptive_max_pool": adaptive.adaptive_max_pool,
        }
        for r in (1, 2, 3):
            names[f"torch.max_pool{r}d"] = getattr(torch, f"max_pool{r}d")
            names[f"torch.adaptive_max_pool{r}d"] = getattr(torch, f"adaptive_max_pool{r}d")
        if fn not in names:
            raise _lib.MaxPoolError(f"maxpool.plan: unknown function {fn!r}; one of {', '.join(sorted(names))}",
                                    _lib.ERR_INVALID_ATTRIBUTE)
        fn = names[fn]
    spec_of = getattr(fn, "_maxpool_spec", None)
    if spec_of is None:
        raise _lib.MaxPoolError(f"maxpool.plan: {fn!r} is not a maxpool pooling function", _lib.ERR_INVALID_ATTRIBUTE)
    return spec_of


def _address(a):
    """Data address of a numpy array; ctypes.c_char.from_buffer is the fast
    way for writeable arrays, .ctypes.data the general one."""
    if a.flags.writeable:
        return _byref(_from_buffer(a))
    return ctypes.c_void_p(a.ctypes.data)


class Plan:
    """A planned pooling call. Build with maxpool.plan(...).

    Attributes: shape (the input shape a call takes, memory order), dtype,
    out_shape, indices_dtype (None: no indices), layout ("channels_first" or
    "channels_last"), kernel_name (the C kernel chosen), threads (the
    threads a run uses: maxpool_plan_threads).
    """

    def __init__(self, fn: Union[Callable[..., Any], str], shape: Sequence[int], dtype: Any, *args: Any,
                 layout: Optional[str] = None, **kwargs: Any) -> None:
        self._plan = None
        spec_of = _function_of(fn)
        spec = spec_of(*args, **kwargs)
        try:
            dt = np.dtype(dtype)
        except TypeError as e:
            raise _lib.MaxPoolError(f"maxpool.plan: dtype {dtype!r}: {e}", _lib.ERR_UNSUPPORTED) from None
        _, code = _core.dtype_code(np.empty(0, dt))
        if dt.byteorder not in ("=", "|"):
            raise _lib.MaxPoolError(f"maxpool.plan: dtype {dt} is not in native byte order", _lib.ERR_UNSUPPORTED)
        shape = tuple(_lib.int_list("shape", shape, _lib.MAX_SPATIAL + 2) or ())
        layout_code = _core.parse_layout(layout)
        if layout_code is None:
            layout_code = _lib.CHANNELS_FIRST
        self._unbatched = spec.unbatched_rank is not None and len(shape) == spec.unbatched_rank + 1
        mem_shape = ((1,) + shape) if self._unbatched else shape
        logical = (tuple(mem_shape[i] for i in _core.from_memory(len(mem_shape)))
                   if layout_code == _lib.CHANNELS_LAST and len(mem_shape) >= 3 else mem_shape)
        desc = spec.lower(logical, code)
        _core.apply_options(desc, spec.nan, spec.threads, layout_code)
        self._plan, oshape = _core.create_plan(desc, mem_shape)
        self._handle = self._plan  # a c_void_p: _run has no argtypes
        # the fast path passes buffers by ctypes.c_char.from_buffer: non-empty
        # arrays of a dtype the buffer protocol knows (not ml_dtypes' bfloat16)
        self._fast = bool(np.prod(mem_shape)) and bool(np.prod(oshape)) and _core.buffer_protocol_ok(dt)
        self._spec = spec
        self.shape: Tuple[int, ...] = shape
        self.dtype = dt
        self.layout = "channels_last" if layout_code == _lib.CHANNELS_LAST else "channels_first"
        self._mem_out = oshape
        self.out_shape: Tuple[int, ...] = oshape[1:] if self._unbatched else oshape
        self.indices_dtype = _lib.index_dtype(desc.index_type)
        self._pair = spec.returns == "pair" or (spec.returns == "auto" and self.indices_dtype is not None)
        self.kernel_name = (_lib.maxpool_plan_kernel_name(self._plan) or b"").decode()
        threads_fn = _lib.lib.maxpool_plan_threads
        threads_fn.restype = ctypes.c_int
        threads_fn.argtypes = [ctypes.c_void_p]
        self.threads = int(threads_fn(self._plan))
        # The channels-last plan also takes torch's channels_last tensors:
        # logical (N, C, D...) with channels-last strides.
        self._strided_shape = (tuple(self.shape[i] for i in _core.from_memory(len(self.shape)))
                               if layout_code == _lib.CHANNELS_LAST and len(self.shape) >= 3
                               and not self._unbatched else None)

    # ---------------------------------------------------------------- calls
    def __call__(self, x: ArrayLike, out: Any = None, indices: Any = None) -> Result:
        """Pools x. x: an array of exactly the plan's shape and dtype,
        C-contiguous (a channels-last plan also takes a logical (N, C, D...)
        array or tensor with channels-last strides, as torch.channels_last
        makes them); numpy, torch or __dlpack__, never copied.
        out / indices: buffers for the values / indices (shape out_shape,
        C-contiguous -- or channels-last strides like x --, writeable),
        returned instead of new arrays. Returns what the function the plan
        was built from returns (values, or (values, indices))."""
        handle = self._handle
        if handle is None:
            raise _lib.MaxPoolError("maxpool.plan: the plan is closed", _lib.ERR_NULL_POINTER)
        # Fast path: numpy arrays as planned.
        if type(x) is np.ndarray and self._fast and x.shape == self.shape and x.dtype == self.dtype:
            f = x.flags
            if f.c_contiguous and f.aligned:
                y = self._fast_buffer(out, self.dtype)
                if y is not None:
                    idt = self.indices_dtype
                    if idt is None:
                        if indices is None:
                            status = _run(handle, _address(x), _byref(_from_buffer(y)), None)
                            if status:
                                self._fail(status)
                            return (y, None) if self._pair else y
                    else:
                        ind = self._fast_buffer(indices, idt)
                        if ind is not None:
                            status = _run(handle, _address(x), _byref(_from_buffer(y)), _byref(_from_buffer(ind)))
                            if status:
                                self._fail(status)
                            return (y, ind) if self._pair else y
        return self._call_general(x, out, indices)

    def _fast_buffer(self, buf, dt):
        """A new output array, buf when it is a numpy array as the plan
        writes it, or None (the general path checks it and says why)."""
        if buf is None:
            return np.empty(self.out_shape, dt)
        if type(buf) is np.ndarray and buf.shape == self.out_shape and buf.dtype == dt:
            f = buf.flags
            if f.c_contiguous and f.writeable and f.aligned:
                return buf
        return None

    def _fail(self, status):
        raise _lib.MaxPoolError((_lib.maxpool_strerror(status) or b"error").decode(), status)

    def _call_general(self, x, out, indices):
        handle = self._handle
        a, framework = _core.import_array(x)
        strided = False
        if a.shape == self.shape:
            mem = a
        elif self._strided_shape is not None and a.shape == self._strided_shape:
            mem = a.transpose(_core.to_memory(a.ndim))
            strided = True
        else:
            want = f"{self.shape}" + (f" (or {self._strided_shape} with channels-last strides)"
                                      if self._strided_shape else "")
            raise _lib.MaxPoolError(f"maxpool.plan: x has shape {a.shape}; the plan takes {want}",
                                    _lib.ERR_INVALID_SHAPE)
        if a.dtype != self.dtype:
            raise _lib.MaxPoolError(f"maxpool.plan: x has dtype {a.dtype}; the plan takes {self.dtype}",
                                    _lib.ERR_UNSUPPORTED)
        if not mem.flags.c_contiguous:
            form = "channels-last" if strided else "C-contiguous"
            raise _lib.MaxPoolError(f"maxpool.plan: x must be {form}; its strides are {a.strides} (a plan never copies)",
                                    _lib.ERR_INVALID_SHAPE)
        if not mem.flags.aligned:
            raise _lib.MaxPoolError("maxpool.plan: x is not aligned to its element size", _lib.ERR_INVALID_SHAPE)
        if self._unbatched:
            mem = mem[np.newaxis]
        if indices is not None and self.indices_dtype is None:
            raise _lib.MaxPoolError("maxpool.plan: indices= given but the plan computes no indices",
                                    _lib.ERR_INVALID_SHAPE)

        def buffer(buf, what, dt):
            if buf is None:
                return np.empty(self._mem_out, dt)
            if self._unbatched:
                buf = _core._batched_view(buf, what)
            return _core.check_out(buf, what, self._mem_out, dt, strided)[1]

        y = buffer(out, "out", self.dtype)
        ind = buffer(indices, "indices", self.indices_dtype) if self.indices_dtype is not None else None
        _core.run(handle, mem, y, ind)
        return _core.finish(self._spec if self._pair else _VALUES, y, ind, out, indices, strided, self._unbatched,
                            framework)

    # ------------------------------------------------------------- lifetime
    def close(self) -> None:
        """Frees the C plan (idempotent); calls after it raise."""
        plan, self._plan, self._handle = getattr(self, "_plan", None), None, None
        if plan is not None and plan.value:
            _lib.maxpool_plan_destroy(plan)

    def __enter__(self) -> "Plan":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # interpreter shutdown
            pass

    def __repr__(self) -> str:
        state = "closed" if self._plan is None else self.kernel_name
        return (f"<maxpool.Plan {self._spec.name} {self.shape} {self.dtype} {self.layout} -> {self.out_shape}, "
                f"{state}, threads={self.threads if self._plan is not None else '-'}>")


class _Values:
    returns = "values"


_VALUES = _Values()


def plan(fn: Union[Callable[..., Any], str], shape: Sequence[int], dtype: Any, *args: Any,
         layout: Optional[str] = None, **kwargs: Any) -> Plan:
    """Plans one pooling call for inputs of one shape and dtype.

    fn: a maxpool function (maxpool.onnx.max_pool, maxpool.openvino.max_pool,
    maxpool.torch.max_pool1d/2d/3d, maxpool.torch.adaptive_max_pool1d/2d/3d,
    maxpool.adaptive_max_pool) or its name ("onnx", "openvino",
    "torch.max_pool2d", "adaptive", ...); *args, **kwargs: that function's
    arguments after its input (nan= and threads= included). shape, dtype:
    the input's, in memory order: with layout="NHWC" / "channels_last",
    shape is (N, D1, ..., Dn, C) and the plan takes both C-contiguous arrays
    of that shape and logical (N, C, D1, ..., Dn) arrays/tensors with
    channels-last strides (torch.channels_last).
    Raises ValueError (maxpool.MaxPoolError) for invalid attributes, as the
    function would.
    """
    return Plan(fn, shape, dtype, *args, layout=layout, **kwargs)
