# SPDX-License-Identifier: Apache-2.0
"""Differential conformance: maxpool.torch.max_pool1d/2d/3d and
maxpool.adaptive_max_pool(flavor="torch") against PyTorch itself.

PyTorch is Debian's python3-torch, run by /usr/bin/python3 (torch_oracle.py:
one subprocess for the whole batch of cases). Every case goes through both,
and is compared bit for bit: values as bit patterns (NaN payload and sign,
-0.0), indices exactly, shapes and dtypes exactly. Where PyTorch raises, maxpool
must raise too (invalid padding, an output size below 1).

Cases: seeded random geometry per rank (kernel 1..4, stride default or 1..3,
padding 0..kernel/2, dilation 1..3, ceil_mode with PyTorch's drop of a last
window starting in the padding, return_indices on and off -- PyTorch's
max_pool1d without indices is a separate kernel), batched and unbatched
inputs, channels_last (NHWC / NDHWC) inputs, adaptive output sizes below,
equal to and above the input size (ints, tuples, None entries), element types
float32, float64 and bfloat16 (the types PyTorch's CPU max pooling has; no
float16 nor integers: "not implemented"), value kinds random / ties / special
(±inf, NaN with several payloads and both signs, ±0, lowest, highest) /
lowest (cases.make_input).

channels_last: the Python functions take channels-first arrays only, so the
NHWC array is given to the C library through the same front-end call: the
call is made with the logical (NCHW) array and ``_lib.execute`` is wrapped to
run the plan with ``layout = MAXPOOL_CHANNELS_LAST`` on the NHWC bytes. The
front-end code (attribute checks, lowering) is the one the plain call runs.

Known differences (recorded "known", checked as stated):
* PyTorch 1.13's bfloat16 kernels compute in float: a NaN result comes back
  as 0x7FC0 (c10::BFloat16's conversion) or, from the vectorized
  channels-last kernels, 0xFFFF (a compare mask); maxpool copies the winning
  element's bits. At such positions both must be NaN and the indices equal
  (float32/float64 payloads are kept by PyTorch and compared exactly).
* Output size 0 in max_pool1d without indices: PyTorch 1.13's values-only
  path returns an empty (N, C, 0) tensor where its indexed path (and
  max_pool2d/3d) raise "Output size is too small"; maxpool raises for both.
"""
from __future__ import annotations

import contextlib
import os

import numpy as np
import pytest

import maxpool
from maxpool import _lib
import oracles as O
import torch_oracle
from cases import make_input, np_dtype
from recorder import record

SUITE = "torch"
N_CASES = int(os.environ.get("MAXPOOL_CONFORMANCE_TORCH", "4000"))
SEED0 = 0x7C4

DTYPES = ["float32", "float64", "bfloat16"]
DTYPE_P = [0.45, 0.25, 0.30]
KINDS = ["random", "ties", "special", "lowest"]
KIND_P = [0.25, 0.35, 0.28, 0.12]


# --------------------------------------------------------------------------
# cases
# --------------------------------------------------------------------------


def _torch_out(n, k, s, p, d, ceil):
    """PyTorch's pooling_output_shape (ATen Pool.h): the ceil drop rule included."""
    num = n + 2 * p - d * (k - 1) - 1 + (s - 1 if ceil else 0)
    o = num // s + 1
    if ceil and (o - 1) * s >= n + p:
        o -= 1
    return o


def _maybe_int(rng, vals):
    """Sometimes one int (PyTorch and maxpool broadcast it), else a list."""
    if len(set(vals)) == 1 and rng.random() < 0.3:
        return int(vals[0])
    return [int(v) for v in vals]


def make_case(i: int) -> dict:
    rng = np.random.default_rng(SEED0 * 100_000 + i)
    adaptive = rng.random() < 0.3
    rank = int(rng.choice([1, 2, 3], p=[0.3, 0.45, 0.25]))
    # PyTorch 1.13's CPU has no bf16 max_pool3d / adaptive_max_pool3d: a few such cases (n/a) keep that visible
    dtype = str(rng.choice(DTYPES, p=DTYPE_P if rank < 3 else [0.6, 0.35, 0.05]))
    kind = str(rng.choice(KINDS, p=KIND_P))
    n, c = int(rng.integers(1, 3)), int(rng.integers(1, 4))
    channels_last = rank >= 2 and rng.random() < 0.3
    unbatched = not adaptive and not channels_last and rng.random() < 0.12
    maxin = 9 if rank < 3 else 6
    if rng.random() < 0.1:  # larger: the vector kernels' main loops (channels_last: whole vectors of channels)
        c = int(rng.integers(4, 40))
        maxin = {1: 40, 2: 20, 3: 9}[rank]
    if adaptive:
        ins = [int(rng.integers(1, maxin + 1)) for _ in range(rank)]
        outs = [int(rng.integers(1, m + 3)) for m in ins]
        r = rng.random()
        if r < 0.15:
            output_size = outs[0]  # one int: every axis
        elif r < 0.3 and rank > 1:  # adaptive_max_pool1d takes no None (an int or a 1-tuple of ints)
            output_size = [None if rng.random() < 0.5 else o for o in outs]
        else:
            output_size = outs
        kwargs = dict(output_size=output_size, return_indices=True)
    else:
        for _ in range(1000):
            k = [int(rng.choice([1, 2, 2, 3, 3, 4])) for _ in range(rank)]
            d = [int(rng.choice([1, 1, 1, 2, 3])) for _ in range(rank)]
            s = None if rng.random() < 0.15 else [int(rng.choice([1, 1, 2, 2, 3])) for _ in range(rank)]
            p = [int(rng.integers(0, kk // 2 + 1)) for kk in k]
            if rng.random() < 0.03:  # invalid: both must reject
                ax = int(rng.integers(0, rank))
                p[ax] = k[ax] // 2 + 1
            ceil = bool(rng.random() < 0.5)
            ins = [int(rng.integers(1, maxin + 1)) for _ in range(rank)]
            ss = s if s is not None else k
            outs = [_torch_out(ins[a], k[a], ss[a], p[a], d[a], ceil) for a in range(rank)]
            if min(outs) >= 1 or rng.random() < 0.05:  # a few output-too-small errors
                break
        kwargs = dict(kernel_size=_maybe_int(rng, k), stride=None if s is None else _maybe_int(rng, s),
                      padding=_maybe_int(rng, p), dilation=_maybe_int(rng, d), ceil_mode=ceil,
                      return_indices=bool(rng.random() < 0.7))
    shape = ((c,) if unbatched else (n, c)) + tuple(ins)
    op = f"{'adaptive_' if adaptive else ''}max_pool{rank}d"
    return dict(i=i, op=op, rank=rank, adaptive=adaptive, dtype=dtype, kind=kind, shape=shape,
                channels_last=channels_last, kwargs=kwargs, seed=int(rng.integers(0, 2**31)))


def case_input(case) -> np.ndarray:
    if "x" in case:
        return np.array(case["x"], np.float64).astype(np_dtype(case["dtype"])).reshape(case["shape"])
    return make_input(np.random.default_rng(case["seed"]), case["shape"], case["dtype"], case["kind"])


def _directed(op, dtype, x, channels_last=False, **kwargs):
    x = np.asarray(x, np.float64)
    rank = int(op[-2])
    return dict(op=op, rank=rank, adaptive=op.startswith("adaptive"), dtype=dtype, kind="directed",
                shape=x.shape, channels_last=channels_last, kwargs=kwargs, x=x.reshape(-1).tolist())


NAN, INF = float("nan"), float("inf")
# the edges the random cases may miss, whatever the seed
DIRECTED = [
    # output size 0: PyTorch's values-only max_pool1d returns (1, 1, 0); its indexed path raises
    _directed("max_pool1d", "float32", [[[1.0, 2.0]]], kernel_size=3, stride=1, ceil_mode=True,
              return_indices=False),
    _directed("max_pool1d", "float32", [[[1.0, 2.0]]], kernel_size=3, stride=1, ceil_mode=True,
              return_indices=True),
    # ceil_mode drops the last window that would start in the padding: 3x3, k2 s2 p1 -> 2x2
    _directed("max_pool2d", "float32", np.arange(9.0).reshape(1, 1, 3, 3), kernel_size=2, stride=2, padding=1,
              ceil_mode=True, return_indices=True),
    # a window with no input element (dilation): -inf and the first tap at or after 0 (past the end)
    _directed("max_pool1d", "float32", [[[4.0, 5.0]]], kernel_size=2, stride=1, padding=1, dilation=3,
              return_indices=True),
    _directed("max_pool2d", "float64", np.arange(4.0).reshape(1, 1, 2, 2), kernel_size=2, padding=1, dilation=3,
              stride=1, return_indices=True),
    # NaN first / last / twice in a window; all-NaN; only -inf
    _directed("max_pool1d", "float32", [[[NAN, 1.0, 2.0, 3.0, NAN, -1.0, NAN, NAN, -INF, -INF]]], kernel_size=2,
              stride=2, return_indices=True),
    _directed("max_pool2d", "float32", [[[[NAN, 1.0, 2.0], [3.0, NAN, -1.0], [-INF, -INF, -INF]]]], kernel_size=2,
              stride=1, return_indices=True),
    _directed("max_pool2d", "bfloat16", [[[[NAN, 1.0, 2.0], [3.0, NAN, -1.0], [-INF, -INF, -INF]]]], kernel_size=2,
              stride=1, return_indices=True),
    _directed("adaptive_max_pool2d", "float64", [[[[NAN, 1.0, 2.0], [3.0, NAN, -1.0], [-INF, -INF, -INF]]]],
              output_size=[2, 2], return_indices=True),
    # bf16 channels_last with 20 channels: PyTorch writes NaN as 0xFFFF in its full 16-channel vector, 0x7FC0
    # in the tail
    _directed("max_pool2d", "bfloat16", [[[[1.0, NAN], [2.0, -NAN]]] * 20], kernel_size=2, return_indices=True,
              channels_last=True),
    # +0 / -0 ties: the first in scan order (bits of -0.0 kept)
    _directed("max_pool2d", "float32", [[[[-0.0, 0.0], [0.0, -0.0]]]], kernel_size=2, return_indices=True),
    _directed("max_pool2d", "float32", [[[[-0.0, 0.0], [0.0, -0.0]]] * 3], kernel_size=2, return_indices=True,
              channels_last=True),
]


def oracle_name(case) -> str:
    base = f"pytorch {'adaptive' if case['adaptive'] else 'max_pool'}{case['rank']}d"
    if case["channels_last"]:
        base += " channels_last"
    elif not case["adaptive"] and not case["kwargs"]["return_indices"]:
        base += " values only"
    return base


# --------------------------------------------------------------------------
# the oracle batch (one subprocess for the module)
# --------------------------------------------------------------------------

CASES = [make_case(i) for i in range(N_CASES)] + [dict(c, i=N_CASES + j) for j, c in enumerate(DIRECTED)]


class Batch(dict):
    def __repr__(self):  # keeps failure reports short (pytest prints fixture values)
        return f"<PyTorch results of {len(self.get('results', []))} cases>"


@pytest.fixture(scope="module")
def torch_results():
    inputs = [case_input(c) for c in CASES]
    specs = [dict(op=c["op"], dtype=c["dtype"], kwargs=c["kwargs"], channels_last=c["channels_last"]) for c in CASES]
    try:
        results, versions = torch_oracle.run_batch(specs, inputs)
    except torch_oracle.TorchUnavailable as e:
        return Batch(skip=str(e))
    return Batch(inputs=inputs, results=results, versions=versions)


# --------------------------------------------------------------------------
# maxpool
# --------------------------------------------------------------------------


@contextlib.contextmanager
def channels_last_execution(x_nchw):
    """Run the front-end's plan on the channels-last copy of x (see the module doc)."""
    xm = np.ascontiguousarray(np.moveaxis(x_nchw, 1, -1))
    orig = _lib.execute

    def execute(x, desc):
        assert x.shape == x_nchw.shape
        desc.layout = _lib.CHANNELS_LAST
        y, ind = orig(xm, desc)
        return (np.ascontiguousarray(np.moveaxis(y, -1, 1)),
                None if ind is None else np.ascontiguousarray(np.moveaxis(ind, -1, 1)))

    _lib.execute = execute
    try:
        yield
    finally:
        _lib.execute = orig


def run_maxpool(case, x):
    kw = case["kwargs"]
    with channels_last_execution(x) if case["channels_last"] else contextlib.nullcontext():
        if case["adaptive"]:
            y, ind = maxpool.adaptive_max_pool(x, kw["output_size"], flavor="torch")
            return y, ind
        fn = getattr(maxpool.torch, case["op"])
        r = fn(x, **kw)
        return r if kw["return_indices"] else (r, None)


def reproducer(case, x) -> str:
    with np.errstate(invalid="ignore"):
        xs = x.astype(np.float64).tolist()
    cl = ".contiguous(memory_format=torch.channels_last)" if case["channels_last"] else ""
    return (f"\n  case {case['i']}: torch.nn.functional.{case['op']}(X{cl}, **{case['kwargs']})"
            f"\n  X = np.array({xs}, dtype='{case['dtype']}')  # shape {x.shape}")


# --------------------------------------------------------------------------
# the test
# --------------------------------------------------------------------------


@pytest.mark.parametrize("i", range(len(CASES)))
def test_torch_conformance(i, torch_results):
    if "skip" in torch_results:
        pytest.skip(torch_results["skip"])
    case = CASES[i]
    x = torch_results["inputs"][i]
    t = torch_results["results"][i]
    name = oracle_name(case)
    try:
        mp = run_maxpool(case, x)
        mp_err = None
    except (ValueError, TypeError, maxpool.MaxPoolError) as e:
        mp, mp_err = None, str(e)

    if "error" in t:
        if "not implemented for" in t["error"]:
            record(SUITE, name, "n/a", f"PyTorch CPU has no {case['dtype']} {case['op']}")
            return
        if mp_err is not None:
            record(SUITE, "pytorch rejects, maxpool too", "match")
            return
        record(SUITE, "pytorch rejects, maxpool too", "mismatch")
        pytest.fail(f"PyTorch rejects ({t['error']}) but maxpool accepts{reproducer(case, x)}")
    if mp_err is not None:
        if (case["op"] == "max_pool1d" and not case["kwargs"]["return_indices"] and t["y"].size == 0
                and "output size would be 0" in mp_err):
            record(SUITE, name, "known", "output size 0: PyTorch 1.13's values-only max_pool1d returns an empty "
                                         "(N, C, 0) tensor, its indexed path and max_pool2d/3d raise 'Output size "
                                         "is too small'; maxpool raises for both")
            return
        record(SUITE, name, "mismatch")
        pytest.fail(f"maxpool rejects a case PyTorch runs: {mp_err}{reproducer(case, x)}")

    y, ind = mp
    ty, ti = t["y"], t["indices"]
    if y.shape != ty.shape or y.dtype != ty.dtype:
        record(SUITE, name, "mismatch")
        pytest.fail(f"shape/dtype {y.shape} {y.dtype} vs PyTorch {ty.shape} {ty.dtype}{reproducer(case, x)}")
    if (ti is None) != (ind is None):
        record(SUITE, name, "mismatch")
        pytest.fail(f"indices returned: maxpool {ind is not None}, PyTorch {ti is not None}")
    bad_i = np.zeros(y.shape, bool) if ti is None else (ind != ti)
    if ind is not None:
        assert ind.dtype == np.int64, ind.dtype
    bad_v = O.bits(y) != O.bits(ty)
    if not (bad_i.any() or bad_v.any()):
        record(SUITE, name, "match")
        return
    # the documented difference: PyTorch's bf16 kernels compute in float and write a NaN result as 0x7FC0
    # (c10::BFloat16's conversion) or 0xFFFF (the vectorized channels-last kernels: a compare mask)
    canon = np.zeros(y.shape, bool)
    if case["dtype"] == "bfloat16":
        canon = O.nan_mask(y) & O.nan_mask(ty)
    unexplained = bad_i | (bad_v & ~canon)
    if not unexplained.any():
        pats = "/".join(sorted({f"0x{int(b):04x}" for b in O.bits(ty)[bad_v]}))
        record(SUITE, name, "known", f"bf16 NaN result: PyTorch writes {pats}, maxpool copies the winner's bits "
                                     "(NaN-ness and index equal)")
        return
    record(SUITE, name, "mismatch")
    p = [tuple(int(v) for v in q) for q in np.argwhere(unexplained)[:4]]
    with np.errstate(invalid="ignore"):
        got = [(y[q], hex(int(O.bits(y)[q])), None if ind is None else int(ind[q])) for q in p]
        want = [(ty[q], hex(int(O.bits(ty)[q])), None if ti is None else int(ti[q])) for q in p]
    pytest.fail(f"{name}: {int(unexplained.sum())} positions differ, e.g. at {p}: maxpool (value, bits, index) "
                f"{got} vs PyTorch {want}{reproducer(case, x)}")


def test_torch_oracle_versions(torch_results):
    """The oracle ran, and what it was (printed with -s / in the JSON summary)."""
    if "skip" in torch_results:
        pytest.skip(torch_results["skip"])
    v = torch_results["versions"]
    assert v["torch"], v
    print("pytorch oracle:", v)
