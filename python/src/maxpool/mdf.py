# SPDX-License-Identifier: Apache-2.0
"""Run the onnx::MaxPool nodes of MDF graphs (modeci_mdf) through maxpool.

modeci_mdf evaluates an ONNX function of a graph by looking it up, at every
evaluation, as an attribute of ``modeci_mdf.functions.onnx`` (MaxPool is
``modeci_mdf.functions.onnx.maxpool``, which builds a one-node ONNX model
and runs ONNX Runtime on it, per call). ``use()`` replaces that attribute
with ``maxpool.onnx.maxpool``, the drop-in with the same call and the same
result (the tuple (Y, Indices) of ONNX MaxPool at modeci_mdf's opset 15):

    import maxpool.mdf
    with maxpool.mdf.use():                 # restored on exit
        eg = EvaluableGraph(graph)
        eg.evaluate()

    maxpool.mdf.use()                       # or for the rest of the process
    maxpool.mdf.restore()                   # back to modeci_mdf's own

Nothing else of modeci_mdf changes. ``use()`` nests: each exit of a
``with`` block restores what was there when it was entered.
"""

from __future__ import annotations

import importlib
from typing import Any, Callable, List, Optional

from . import onnx as _onnx

__all__ = ["active", "restore", "use"]

_ATTR = "maxpool"
_saved: List[Callable[..., Any]] = []


def _functions_module():
    try:
        return importlib.import_module("modeci_mdf.functions.onnx")
    except ImportError as e:
        raise ImportError(f"maxpool.mdf needs the modeci_mdf package: {e}") from e


class _Use:
    """Returned by use(): already in effect; as a context manager it
    restores the previous function on exit."""

    def __init__(self, previous: Callable[..., Any]) -> None:
        self._previous: Optional[Callable[..., Any]] = previous

    def __enter__(self) -> "_Use":
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._previous is not None:
            setattr(_functions_module(), _ATTR, self._previous)
            if _saved and _saved[-1] is self._previous:
                _saved.pop()
            self._previous = None


def use() -> _Use:
    """Makes modeci_mdf evaluate onnx::MaxPool (``onnx_ops.maxpool``) with
    maxpool. Returns a handle that, used with ``with``, restores the
    previous function on exit."""
    mod = _functions_module()
    previous = getattr(mod, _ATTR)
    _saved.append(previous)
    setattr(mod, _ATTR, _onnx.maxpool)
    return _Use(previous)


def restore() -> None:
    """Puts back modeci_mdf's own maxpool (undoes every use())."""
    if _saved:
        setattr(_functions_module(), _ATTR, _saved[0])
        _saved.clear()


def active() -> bool:
    """Whether modeci_mdf's onnx::MaxPool currently runs through maxpool."""
    return getattr(_functions_module(), _ATTR) is _onnx.maxpool
