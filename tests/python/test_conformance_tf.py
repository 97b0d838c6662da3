# SPDX-License-Identifier: Apache-2.0
"""Differential conformance: maxpool.tf.max_pool_with_argmax against
TensorFlow's tf.nn.max_pool_with_argmax (tensorflow-cpu from PyPI, CPU
kernel), bit-exactly: values (bits) and argmax (values and dtype), for every
element type both support, SAME and VALID, ksize / strides in their 1-, 2-
and 4-value forms, output_dtype int32 / int64, include_batch_in_index, and
inputs full of ties, NaNs (several payloads), infinities, -0.0 and the
type's lowest value. Also the shapes TF treats specially (empty input, a
VALID kernel larger than the input) and the attribute errors.

Skipped when tensorflow is not installed.
"""
from __future__ import annotations

import importlib.util
import os

import numpy as np
import pytest

import maxpool
import oracles as O
from cases import make_input, np_dtype
from recorder import record

if importlib.util.find_spec("tensorflow") is None:
    pytest.skip("tensorflow is not installed: tensorflow-cpu needs it", allow_module_level=True)

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import tensorflow as tf  # noqa: E402

SUITE = "tensorflow"
N_CASES = int(os.environ.get("MAXPOOL_CONFORMANCE_TF", "800"))
SEED0 = 0x7F

DTYPES = ["float32", "float16", "bfloat16", "float64", "int8", "uint8", "int16", "uint16", "int32", "int64"]
DTYPE_P = [0.30, 0.10, 0.10, 0.08, 0.08, 0.08, 0.06, 0.06, 0.07, 0.07]


def tf_run(x, ksize, strides, padding, output_dtype, include_batch_in_index):
    try:
        y, a = tf.nn.max_pool_with_argmax(tf.constant(x), ksize, strides, padding,
                                          output_dtype=getattr(tf, output_dtype),
                                          include_batch_in_index=include_batch_in_index)
    except Exception as e:  # noqa: BLE001
        return O.OracleResult(error=f"{type(e).__name__}: {e}"[:300])
    y = y.numpy()
    if x.dtype == O.BF16:
        y = y.astype(O.BF16)
    return O.OracleResult(y=y, indices=a.numpy())


def mp_run(x, ksize, strides, padding, output_dtype, include_batch_in_index, threads=None):
    try:
        y, a = maxpool.tf.max_pool_with_argmax(x, ksize, strides, padding, output_dtype=output_dtype,
                                               include_batch_in_index=include_batch_in_index, threads=threads)
    except (ValueError, maxpool.MaxPoolError) as e:
        return O.OracleResult(error=str(e))
    return O.OracleResult(y=y, indices=a)


def hw_form(rng, v):
    """v = [h, w] in one of tf.nn's forms: int, [v], [h, w], [1, h, w, 1]."""
    form = int(rng.integers(0, 4))
    if form == 0 and v[0] == v[1]:
        return int(v[0])
    if form == 1 and v[0] == v[1]:
        return [int(v[0])]
    if form == 3:
        return [1, int(v[0]), int(v[1]), 1]
    return [int(v[0]), int(v[1])]


def make_case(i):
    rng = np.random.default_rng(SEED0 * 100_000 + i)
    dtype = str(rng.choice(DTYPES, p=DTYPE_P))
    n, c = int(rng.integers(1, 4)), int(rng.integers(1, 5))
    h, w = int(rng.integers(1, 10)), int(rng.integers(1, 10))
    k = [int(rng.integers(1, 5)), int(rng.integers(1, 5))]
    if rng.random() < 0.1:
        k[int(rng.integers(0, 2))] = int(rng.integers(5, 12))  # larger than the input (SAME), or an empty output
    s = [int(rng.integers(1, 4)), int(rng.integers(1, 4))]
    padding = str(rng.choice(["SAME", "VALID"]))
    if padding == "VALID" and rng.random() < 0.8:  # mostly a non-empty output
        h, w = max(h, k[0]), max(w, k[1])
    kind = str(rng.choice(["random", "ties", "special", "lowest"], p=[0.25, 0.35, 0.3, 0.1]))
    x = make_input(rng, (n, h, w, c), dtype, kind)
    args = dict(ksize=hw_form(rng, k), strides=hw_form(rng, s), padding=padding,
                output_dtype=str(rng.choice(["int64", "int32"])), include_batch_in_index=bool(rng.integers(0, 2)))
    return x, args, kind


def compare(name, x, args, tfr, mpr):
    if tfr.error or mpr.error:
        ok = bool(tfr.error) and bool(mpr.error)
        record(SUITE, name, "match" if ok else "mismatch")
        assert ok, f"TF: {tfr.error or 'ok'}; maxpool: {mpr.error or 'ok'}; args {args}"
        return
    assert mpr.y.shape == tfr.y.shape, f"shape {mpr.y.shape} vs TF {tfr.y.shape}; args {args}"
    assert mpr.indices.dtype == tfr.indices.dtype, f"argmax dtype {mpr.indices.dtype} vs TF {tfr.indices.dtype}"
    bad_y = O.bits(mpr.y) != O.bits(tfr.y)
    bad_i = mpr.indices != tfr.indices
    ok = not bad_y.any() and not bad_i.any()
    record(SUITE, name, "match" if ok else "mismatch")
    if not ok:
        p = [tuple(int(v) for v in q) for q in np.argwhere(bad_y | bad_i)[:4]]
        with np.errstate(invalid="ignore"):
            xs = x.astype(np.float64).tolist() if O.is_float(x.dtype) else x.tolist()
        pytest.fail(f"{int((bad_y | bad_i).sum())} positions differ, e.g. {p}: maxpool "
                    f"{[(mpr.y[q], mpr.indices[q]) for q in p]} vs TF {[(tfr.y[q], tfr.indices[q]) for q in p]}"
                    f"\n  reproducer: maxpool.tf.max_pool_with_argmax(X, **{args})"
                    f"\n  X = np.array({xs}, dtype='{x.dtype}')")


@pytest.mark.parametrize("i", range(N_CASES))
def test_tf_conformance(i):
    x, args, kind = make_case(i)
    compare(f"tf-{x.dtype}", x, args, tf_run(x, **args), mp_run(x, **args))


# --------------------------------------------------------------------------
# The semantics docs/semantics.md states for TensorFlow, each against TF
# --------------------------------------------------------------------------

NAN = float("nan")
WINDOWS = {
    "nan first wins and stays": [NAN, 1, 2],
    "nan later never wins": [1, NAN, 0],
    "nan last never wins": [1, 2, NAN],
    "all nan": [NAN, NAN, NAN],
    "ties: first": [2, 2, 1, 2],
    "+0 then -0": [0.0, -0.0],
    "-0 then +0": [-0.0, 0.0],
    "-inf only": [-np.inf, -np.inf],
}


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
@pytest.mark.parametrize("name", sorted(WINDOWS))
def test_tf_window_rules(name, dtype):
    v = np.array(WINDOWS[name], np.float64).astype(np_dtype(dtype)).reshape(1, 1, -1, 1)
    args = dict(ksize=[1, v.shape[2]], strides=1, padding="VALID", output_dtype="int64",
                include_batch_in_index=False)
    compare(f"tf-rules-{dtype}", v, args, tf_run(v, **args), mp_run(v, **args))


@pytest.mark.parametrize("padding", ["SAME", "VALID"])
def test_tf_same_padding_is_no_value(padding):
    """SAME pads are not values: a window of lowest / -inf elements next to the padding gives that value and
    the index of its first element."""
    for v in ([-np.inf] * 5, [np.finfo(np.float32).min] * 5, [NAN, 1, NAN, 2, NAN]):
        x = np.array(v, np.float32).reshape(1, 1, 5, 1)
        for k, s in ((2, 2), (4, 1), (3, 3), (9, 1)):
            args = dict(ksize=[1, k], strides=[1, s], padding=padding, output_dtype="int32",
                        include_batch_in_index=True)
            compare("tf-same-padding", x, args, tf_run(x, **args), mp_run(x, **args))


def test_tf_threads_and_large():
    """A tensor large enough for the parallel path (and the specialised kernels), threads=2."""
    rng = np.random.default_rng(7)
    x = rng.integers(-50, 50, size=(3, 37, 41, 16)).astype(np.float32)
    x[rng.random(x.shape) < 0.01] = np.nan
    for args in (dict(ksize=3, strides=2, padding="SAME", output_dtype="int64", include_batch_in_index=True),
                 dict(ksize=[2, 3], strides=[1, 2], padding="VALID", output_dtype="int32",
                      include_batch_in_index=False)):
        tfr = tf_run(x, **args)
        for threads in (None, 2):
            compare("tf-large", x, args, tfr, mp_run(x, threads=threads, **args))


@pytest.mark.parametrize("shape,k,s", [((1, 4, 4, 1), 5, 2), ((1, 4, 4, 1), 8, 3), ((2, 4, 3, 2), 9, 3),
                                       ((1, 4, 4, 1), 10, 3), ((1, 3, 3, 1), 5, 1)])
def test_tf_valid_kernel_larger_than_input(shape, k, s):
    """TF: out = (in - ksize + stride) / stride truncated; 0 is an empty output, below 0 an error."""
    x = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
    args = dict(ksize=[k, 1], strides=[s, 1], padding="VALID", output_dtype="int64", include_batch_in_index=False)
    compare("tf-valid-empty", x, args, tf_run(x, **args), mp_run(x, **args))


@pytest.mark.parametrize("args", [
    dict(ksize=[2, 2, 2, 1], strides=1, padding="VALID"),   # pooling on the batch dimension
    dict(ksize=[1, 2, 2, 2], strides=1, padding="VALID"),   # pooling across channels
    dict(ksize=2, strides=[2, 1, 1, 1], padding="VALID"),
    dict(ksize=0, strides=1, padding="VALID"),
    dict(ksize=2, strides=0, padding="SAME"),
    dict(ksize=[1, 2**31], strides=1, padding="SAME"),
    dict(ksize=2, strides=1, padding="same"),
    dict(ksize=2, strides=1, padding="EXPLICIT"),
])
def test_tf_attribute_errors(args):
    x = np.zeros((1, 3, 3, 2), np.float32)
    full = dict(output_dtype="int64", include_batch_in_index=False, **args)
    tfr = tf_run(x, **full)
    mpr = mp_run(x, **full)
    assert tfr.error, "TF accepted it"
    assert mpr.error, f"maxpool accepted what TF rejects ({tfr.error})"


def test_tf_channel_stride_is_ignored():
    x = np.random.default_rng(3).permutation(2 * 4 * 4 * 3).astype(np.float32).reshape(2, 4, 4, 3)
    for st in ([1, 1, 1, 2], [1, 2, 2, 5]):
        args = dict(ksize=2, strides=st, padding="VALID", output_dtype="int64", include_batch_in_index=True)
        compare("tf-channel-stride", x, args, tf_run(x, **args), mp_run(x, **args))


@pytest.mark.parametrize("shape", [(0, 3, 3, 1), (1, 3, 3, 0), (1, 0, 3, 1), (3, 3, 1), (1, 1, 3, 3, 1)])
def test_tf_bad_shapes(shape):
    x = np.zeros(shape, np.float32)
    args = dict(ksize=2, strides=1, padding="SAME", output_dtype="int64", include_batch_in_index=False)
    tfr, mpr = tf_run(x, **args), mp_run(x, **args)
    assert tfr.error and mpr.error, (tfr.error, mpr.error)


def test_tf_data_format():
    x = np.zeros((1, 3, 3, 1), np.float32)
    with pytest.raises(ValueError):
        tf.nn.max_pool_with_argmax(x, 2, 1, "SAME", data_format="NCHW")
    with pytest.raises(maxpool.MaxPoolError, match="NHWC only"):
        maxpool.tf.max_pool_with_argmax(x, 2, 1, "SAME", data_format="NCHW")
