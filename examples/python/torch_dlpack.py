# SPDX-License-Identifier: Apache-2.0
"""torch tensors in and out (through DLPack, no copy of the input).

    /usr/bin/python3 examples/python/torch_dlpack.py     # Debian's python3-torch

Exits with a message (status 0) when torch is not installed.
"""

import sys

try:
    import torch
except ImportError:
    print("torch_dlpack.py: skipped: torch is not installed for this Python "
          "(Debian: apt-get install python3-torch, then run it with /usr/bin/python3)")
    sys.exit(0)

import numpy as np

import maxpool


def main():
    torch.manual_seed(0)
    # a channels_last batch, as convolutional nets keep them
    x = torch.randn(2, 16, 28, 28).to(memory_format=torch.channels_last)
    y, idx = maxpool.torch.max_pool2d(x, 3, stride=2, padding=1, return_indices=True)
    print(type(y).__name__, tuple(y.shape), y.dtype, "channels_last:",
          y.is_contiguous(memory_format=torch.channels_last))
    # unbatched (C, L), as PyTorch accepts it
    s = torch.randn(4, 50)
    a = maxpool.torch.adaptive_max_pool1d(s, 5)
    # a plan for a stream of tensors, writing into one output tensor
    p = maxpool.plan(maxpool.torch.max_pool2d, (2, 28, 28, 16), np.float32, 2, layout="NHWC")
    out = torch.empty(2, 16, 14, 14).to(memory_format=torch.channels_last)
    for _ in range(10):
        p(x, out=out)
    return x, y, idx, s, a, out


if __name__ == "__main__":
    x, y, idx, s, a, out = main()
    import torch.nn.functional as F

    ey, ei = F.max_pool2d(x, 3, stride=2, padding=1, return_indices=True)
    assert torch.equal(y, ey) and torch.equal(idx, ei)
    assert torch.equal(a, F.adaptive_max_pool1d(s, 5))
    assert torch.equal(out, F.max_pool2d(x, 2))
    print("matches torch.nn.functional")
