# SPDX-License-Identifier: Apache-2.0
"""maxpool: every variant of max pooling the real systems define, bit-exact.

numpy arrays in, numpy arrays out; the work is done by the C library
libmaxpool (bundled, or the one named by the MAXPOOL_LIBRARY environment
variable).

    maxpool.onnx.max_pool(X, kernel_shape=[3, 3], strides=[2, 2], opset=22)
    maxpool.onnx.maxpool(X, kernel_shape=[2, 2])          # modeci_mdf drop-in
    maxpool.openvino.max_pool(x, kernel=[2, 2], strides=[1, 1], pads_begin=[0, 0], pads_end=[0, 0])
    maxpool.torch.max_pool2d(x, 3, stride=2, padding=1, return_indices=True)
    maxpool.adaptive_max_pool(x, (2, 3), flavor="torch")
    maxpool.tf.max_pool_with_argmax(x, 2, 2, "SAME")       # NHWC, TensorFlow's argmax
    maxpool.onnx_backend                                   # an onnx.backend.base.Backend
    p = maxpool.plan(maxpool.onnx.max_pool, x.shape, x.dtype, kernel_shape=[2, 2]); p(x, out=y)
    maxpool.onnx_reference.MaxPool                         # for onnx.reference.ReferenceEvaluator(new_ops=[...])
    with maxpool.mdf.use(): ...                            # modeci_mdf's onnx::MaxPool through maxpool

Every function takes nan=None|"propagate"|"ignore" (override the NaN policy
of the system it mirrors), threads=None|int (None: DEFAULT_THREADS, the CPUs
of this process), layout=None|"NCHW"|"NHWC" and out=. Inputs may be numpy
arrays, torch tensors or any __dlpack__ object (no copy; torch in, torch
out). Errors raise
maxpool.MaxPoolError, a ValueError carrying the C library's message.
Supported dtypes: float16, float32, float64, int8, int16, int32, int64,
uint8, uint16, and ml_dtypes.bfloat16 when ml_dtypes is installed.
"""

from __future__ import annotations

import ctypes as _ctypes

from . import _lib
from . import onnx, openvino, torch  # noqa: F401  (submodules: maxpool.onnx, ...)
from . import tf  # noqa: F401  (maxpool.tf.max_pool_with_argmax)
from ._lib import MaxPoolError
from .adaptive import adaptive_max_pool
from .plan import Plan, plan  # noqa: E402
from ._core import DEFAULT_THREADS  # noqa: E402


def _library_version():
    f = _lib.lib.maxpool_version
    f.restype = _ctypes.c_char_p
    f.argtypes = []
    return f().decode()


# The loaded library's maxpool_version(): one source, include/maxpool.h.
__version__ = _library_version()

library_path = _lib.library_path

__all__ = ["MaxPoolError", "adaptive_max_pool", "cpu_isa", "library_path", "onnx", "openvino", "torch"]
__all__ += ["DEFAULT_THREADS", "Plan", "plan", "tf"]


def cpu_isa():
    """The best instruction set this CPU offers to the library ("avx2", ...)."""
    name = _lib.maxpool_isa_name(_lib.maxpool_cpu_isa())
    return name.decode() if name else None
