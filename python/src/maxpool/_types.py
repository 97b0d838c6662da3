# SPDX-License-Identifier: Apache-2.0
"""Type aliases of the public signatures."""

from __future__ import annotations

from typing import Any, Optional, Tuple, Union

import numpy as np

#: numpy arrays, torch tensors, objects with __dlpack__, nested sequences
ArrayLike = Any
#: an array for the values, or a (values, indices) pair of arrays
Out = Optional[Union[Any, Tuple[Any, Any]]]
#: values, or (values, indices): numpy arrays, or torch tensors for torch input
Result = Union[np.ndarray, Tuple[np.ndarray, np.ndarray], Any]
