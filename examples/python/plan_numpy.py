# SPDX-License-Identifier: Apache-2.0
"""Plan once, run many: a numpy batch stream through one maxpool.Plan.

    python examples/python/plan_numpy.py

The plan validates the attributes and picks the kernel once; each call only
checks the array and runs. out= reuses one output buffer for every batch.
"""

import time

import numpy as np

import maxpool


def main(steps=20):
    rng = np.random.default_rng(0)
    shape = (8, 16, 32, 32)
    # torch.nn.functional.max_pool2d(x, 3, stride=2, padding=1, return_indices=True), planned
    with maxpool.plan(maxpool.torch.max_pool2d, shape, np.float32, 3, stride=2, padding=1,
                      return_indices=True) as p:
        print(p)
        y = np.empty(p.out_shape, np.float32)
        idx = np.empty(p.out_shape, np.int64)
        batches = [rng.standard_normal(shape).astype(np.float32) for _ in range(4)]
        t0 = time.perf_counter()
        for step in range(steps):
            x = batches[step % len(batches)]
            p(x, out=y, indices=idx)  # no allocation: writes into y and idx
        dt = (time.perf_counter() - t0) / steps
        print(f"{steps} calls, {dt * 1e6:.1f} us per call ({p.kernel_name}, {p.threads} thread(s))")
        last = batches[(steps - 1) % len(batches)]
    return last, y, idx


if __name__ == "__main__":
    result = x, y, idx = main()
    # every pooled value is the input at its index (flat per (n, c) plane)
    planes = x.reshape(x.shape[0], x.shape[1], -1)
    assert np.array_equal(np.take_along_axis(planes, idx.reshape(*idx.shape[:2], -1), 2).reshape(y.shape), y)
    print("output", y.shape, y.dtype, "checks out against its indices")
