# SPDX-License-Identifier: Apache-2.0
"""maxpool's MaxPool for onnx's reference evaluator (needs the onnx package).

    from onnx.reference import ReferenceEvaluator
    import maxpool.onnx_reference
    sess = ReferenceEvaluator(model, new_ops=[maxpool.onnx_reference.MaxPool])
    outputs = sess.run(None, {"X": x})

Every MaxPool node of the default domain then runs through maxpool; every
other node through the reference evaluator. A node behaves as the MaxPool
version in force at the model's opset import of the default domain (1, 8,
10, 11, 12, 22: an opset in between means the version before it), so an
attribute that version lacks is an error, as the C front-end reports it,
and the results are ONNX Runtime's (NaN never wins, empty windows give the
lowest value and index -1). The Indices output is computed only when the
node names it. Each node keeps one plan per input shape and dtype.
"""

from __future__ import annotations

from typing import Any, Dict, Tuple

import numpy as np
from onnx import helper
from onnx.reference.op_run import OpRun

from . import _lib
from .plan import Plan

__all__ = ["MaxPool"]

_ATTRS = ("auto_pad", "ceil_mode", "dilations", "kernel_shape", "pads", "storage_order", "strides")


class MaxPool(OpRun):
    """onnx.reference OpRun for ONNX MaxPool, computed by maxpool."""

    op_domain = ""
    # No schema: the reference evaluator would fill in the defaults of the
    # newest MaxPool, turning an attribute the model's version lacks into a
    # given one. Attributes are read from the node itself.
    op_schema = None

    def __init__(self, onnx_node: Any, run_params: Dict[str, Any], schema: Any = None) -> None:
        super().__init__(onnx_node, run_params, schema)
        opsets = run_params.get("opsets") or {}
        self.opset = int(opsets.get("", opsets.get("ai.onnx", 22)))
        self.node_attrs: Dict[str, Any] = {}
        self.linked: Dict[str, str] = {}
        for att in onnx_node.attribute:
            if att.name not in _ATTRS:
                raise _lib.MaxPoolError(
                    f"maxpool: MaxPool node {onnx_node.name!r}: unknown attribute {att.name!r}",
                    _lib.ERR_INVALID_ATTRIBUTE,
                )
            if att.ref_attr_name:
                self.linked[att.name] = att.ref_attr_name
            else:
                self.node_attrs[att.name] = helper.get_attribute_value(att)
        outs = list(onnx_node.output)
        self.want_indices = len(outs) > 1 and bool(outs[1])
        self.plans: Dict[Tuple[Tuple[int, ...], np.dtype], Plan] = {}

    def _kwargs(self, overrides):
        kw = dict(self.node_attrs)
        for name in self.linked:
            if name in overrides:
                kw[name] = overrides[name]
        if isinstance(kw.get("auto_pad"), bytes):
            kw["auto_pad"] = kw["auto_pad"].decode()
        kw.setdefault("auto_pad", None)
        return kw

    def _run(self, X, **kwargs):  # noqa: N803 (ONNX's input name)
        x = np.asarray(X)
        key = (x.shape, x.dtype)
        p = None if self.linked else self.plans.get(key)
        if p is None:
            p = Plan("onnx.max_pool", x.shape, x.dtype, opset=self.opset, return_indices=self.want_indices,
                     **self._kwargs(kwargs))
            if not self.linked:
                self.plans[key] = p
        x = np.ascontiguousarray(x)
        if self.want_indices:
            y, ind = p(x)
            return (y, ind)
        return (p(x),)
