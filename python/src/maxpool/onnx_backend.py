# SPDX-License-Identifier: Apache-2.0
"""An ONNX backend (``onnx.backend.base.Backend``) that runs single-node
MaxPool models with maxpool, so that ONNX's own backend test runner can
drive it:

    import onnx.backend.test
    import maxpool.onnx_backend as backend
    tests = onnx.backend.test.BackendTest(backend, __name__)
    tests.include("test_maxpool")

The node's attributes and the model's opset import (domain "" or "ai.onnx")
are passed unchanged to the C front-end, which validates them as that opset
demands. Anything but one MaxPool node raises
BackendIsNotSupposedToImplementIt. Needs the onnx package.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx
import onnx.checker
import onnx.defs
from onnx import helper
from onnx.backend.base import Backend, BackendRep, Device, DeviceType, namedtupledict
from onnx.backend.test.runner import BackendIsNotSupposedToImplementIt

from . import onnx as _mp_onnx

__all__ = ["MaxPoolBackend", "MaxPoolBackendRep", "prepare", "run_model", "run_node", "supports_device"]

_ATTRS = ("kernel_shape", "strides", "pads", "dilations", "auto_pad", "ceil_mode", "storage_order")


def _is_onnx_domain(domain: str) -> bool:
    return domain in ("", "ai.onnx")


def _node_call(node: onnx.NodeProto, opset: int):
    """The maxpool.onnx.max_pool keyword arguments for node, and whether the
    Indices output is requested."""
    if node.op_type != "MaxPool" or not _is_onnx_domain(node.domain):
        raise BackendIsNotSupposedToImplementIt(
            f"maxpool runs ONNX MaxPool nodes only, not {node.domain or 'ai.onnx'}::{node.op_type}"
        )
    kwargs: dict[str, Any] = {"auto_pad": None}
    for attr in node.attribute:
        value = helper.get_attribute_value(attr)
        if attr.name not in _ATTRS:
            # Let the schema check speak for unknown attributes; maxpool has
            # no such attribute to pass on.
            raise ValueError(f"MaxPool: unknown attribute {attr.name!r}")
        if isinstance(value, bytes):
            value = value.decode("utf-8")
        kwargs[attr.name] = value
    if "kernel_shape" not in kwargs:
        kwargs["kernel_shape"] = None
    want_indices = len(node.output) > 1 and node.output[1] != ""
    return kwargs, want_indices


def _run(node: onnx.NodeProto, opset: int, x: np.ndarray):
    kwargs, want_indices = _node_call(node, opset)
    out = _mp_onnx.max_pool(x, opset=opset, return_indices=want_indices, **kwargs)
    if want_indices:
        return {node.output[0]: out[0], node.output[1]: out[1]}
    return {node.output[0]: out}


def _model_opset(model: onnx.ModelProto) -> int:
    for imp in model.opset_import:
        if _is_onnx_domain(imp.domain):
            return int(imp.version)
    # No ONNX domain import: the IR's default is the latest opset.
    return onnx.defs.onnx_opset_version()


class MaxPoolBackendRep(BackendRep):
    """A prepared single-MaxPool model."""

    def __init__(self, model: onnx.ModelProto):
        graph = model.graph
        nodes = list(graph.node)
        if len(nodes) != 1:
            raise BackendIsNotSupposedToImplementIt(
                f"maxpool runs models of one MaxPool node; this graph has {len(nodes)} nodes"
            )
        self.node = nodes[0]
        self.opset = _model_opset(model)
        _node_call(self.node, self.opset)  # the op type check, early
        initializers = {t.name for t in graph.initializer}
        self.input_names = [i.name for i in graph.input if i.name not in initializers]
        self.output_names = [o.name for o in graph.output]
        if not self.input_names or self.input_names[0] != self.node.input[0]:
            self.input_names = [self.node.input[0]]

    def run(self, inputs: Any, **kwargs: Any) -> tuple[Any, ...]:
        if isinstance(inputs, dict):
            x = inputs[self.node.input[0]]
        elif isinstance(inputs, (list, tuple)):
            if len(inputs) != 1:
                raise ValueError(f"MaxPool takes one input, got {len(inputs)}")
            x = inputs[0]
        else:
            x = inputs
        results = _run(self.node, self.opset, np.asarray(x))
        names = [n for n in self.output_names if n in results] or list(results)
        return namedtupledict("Outputs", names)(*[results[n] for n in names])


class MaxPoolBackend(Backend):
    """onnx.backend.base.Backend for single-node MaxPool models, CPU only."""

    @classmethod
    def is_compatible(cls, model: onnx.ModelProto, device: str = "CPU", **kwargs: Any) -> bool:
        nodes = list(model.graph.node)
        return (
            len(nodes) == 1
            and nodes[0].op_type == "MaxPool"
            and _is_onnx_domain(nodes[0].domain)
            and cls.supports_device(device)
        )

    @classmethod
    def prepare(cls, model: onnx.ModelProto, device: str = "CPU", **kwargs: Any) -> MaxPoolBackendRep:
        if not cls.supports_device(device):
            raise BackendIsNotSupposedToImplementIt(f"maxpool runs on the CPU only, not {device}")
        super().prepare(model, device, **kwargs)  # onnx.checker.check_model
        return MaxPoolBackendRep(model)

    @classmethod
    def run_model(cls, model: onnx.ModelProto, inputs: Any, device: str = "CPU", **kwargs: Any) -> tuple[Any, ...]:
        return cls.prepare(model, device, **kwargs).run(inputs)

    @classmethod
    def run_node(
        cls,
        node: onnx.NodeProto,
        inputs: Any,
        device: str = "CPU",
        outputs_info: Any = None,
        **kwargs: Any,
    ) -> tuple[Any, ...]:
        if not cls.supports_device(device):
            raise BackendIsNotSupposedToImplementIt(f"maxpool runs on the CPU only, not {device}")
        super().run_node(node, inputs, device=device, outputs_info=outputs_info, **kwargs)
        opset = int(kwargs.get("opset_version", onnx.defs.onnx_opset_version()))
        if isinstance(inputs, dict):
            x = inputs[node.input[0]]
        else:
            x = inputs[0]
        results = _run(node, opset, np.asarray(x))
        names = [n for n in node.output if n]
        return namedtupledict("Outputs", names)(*[results[n] for n in names])

    @classmethod
    def supports_device(cls, device: str) -> bool:
        try:
            return Device(device).type == DeviceType.CPU
        except Exception:
            return False


prepare = MaxPoolBackend.prepare
run_model = MaxPoolBackend.run_model
run_node = MaxPoolBackend.run_node
supports_device = MaxPoolBackend.supports_device
is_compatible = MaxPoolBackend.is_compatible
