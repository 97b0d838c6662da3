#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes the seed corpora (fuzz/corpus/<target>/) and the regression inputs
(fuzz/regressions/<target>/) in the byte format the targets decode (see
fuzz_common.h and the header comments of fuzz_plan.c / fuzz_frontends.c).

    python3 fuzz/gen_corpus.py        # rewrites the generated files

Files whose names start with "gen-" are this script's; anything else in
those folders (crash inputs saved from fuzzing runs) is left alone.
"""
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# ---- the decoders' encodings (fuzz_common.h) ---------------------------------

INTERESTING = [0, 1, 2, 3, 255, 256, 3000, 16384, 65536, 1 << 20, 1 << 29, 1 << 30, 1 << 31, 1 << 32, 1 << 33,
               1 << 40, 1 << 48, 1 << 53, 1 << 61, 1 << 62, 3 << 61, 2**63 - 1, (2**63 - 1) // 2, (2**63 - 1) // 3,
               -2**63, -(1 << 31), -(1 << 32), -(1 << 62), 2**32 - 1, 2**31 - 1, 1 << 60, 1 << 35]
HOSTILE_INTS = [-1, -2, -2**31, 2**31 - 1, 3, 4, 5, 6, 7, 8, 9, 10, 16, 100, 255, 65536]
STRINGS = [None, "", "NOTSET", "VALID", "SAME_UPPER", "SAME_LOWER", "explicit", "valid", "same_upper", "same_lower",
           "floor", "ceil", "ceil_torch", "i32", "i64", "notset", "Same_Upper", "SAME_UPPER ", "i16", "u8", "FLOOR",
           "ceil_torch\n", "SAME", "same", "ceil_", "i3", "i640", " i64", "EXPLICIT", "NOTSETX", "VALI", "int64"]


def i64(v):
    if 0 <= v <= 15:
        return bytes([v])
    if -16 <= v <= -1:
        return bytes([0xC0 + (-v - 1)])
    return bytes([0xE0]) + struct.pack("<q", v)


def enum(v):
    if 0 <= v < 0xF0:
        return bytes([v])
    return bytes([0xF0 + HOSTILE_INTS.index(v)])


def string(s):
    if s in STRINGS:
        return bytes([STRINGS.index(s)])
    b = s.encode()
    assert len(b) < 48
    return bytes([0xC0, len(b)]) + b


def fill(n, seed=1):
    """n bytes for the input elements (a simple LCG: varied, reproducible)."""
    out, x = bytearray(), seed
    for _ in range(n):
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        out.append((x >> 16) & 0xFF)
    return bytes(out)


# ---- fuzz_plan --------------------------------------------------------------

PLAN_HOSTILE_RANKS = [0, -1, 9, 10, 64, 2**31 - 1, -2**31, -2]


def plan(rank, axes, shape, *, threads=False, null_err=False, all_axes=False, raw=False, mode=0, dtype=0, layout=0,
         window=0, auto_pad=0, rounding=0, index_type=0, index_axis=0, index_order=0, nan=0, empty_value=0,
         empty_index=0, reject=0, init=0, num_threads=1, isa=0, data=b""):
    """axes: list of (kernel, stride, dilation, pad_begin, pad_end, output_size);
    shape: (N, C, [spatial...]) in logical order."""
    flags = (1 if threads else 0) | (2 if null_err else 0) | (4 if all_axes else 0) | (8 if raw else 0) | (mode << 4)
    out = bytes([flags])
    out += bytes([rank - 1]) if 1 <= rank <= 8 else bytes([0xF0 + PLAN_HOSTILE_RANKS.index(rank)])
    for v in (dtype, layout, window, auto_pad, rounding, index_type, index_axis, index_order, nan, empty_value,
              empty_index, reject, init, num_threads, isa):
        out += enum(v)
    naxes = 8 if all_axes else (rank if 1 <= rank <= 8 else 0)
    for i in range(naxes):
        a = axes[i] if i < len(axes) else (1, 1, 1, 0, 0, 1)
        for v in a:
            out += i64(v)
    n, c, sp = shape
    assert len(sp) == (rank if 1 <= rank <= 8 else 0)
    if mode <= 1:
        assert n < 4 and c < 6 and all(0 <= d < 17 for d in sp)
        out += bytes([n, c] + list(sp))
    elif mode == 2:
        assert (n == 0 and c < 4) or (c == 0 and n < 4)
        out += bytes([1, c]) if n == 0 else bytes([0, n])
        for d in sp:
            out += i64(d)
    else:
        out += i64(n) + i64(c)
        for d in sp:
            out += i64(d)
    return out + data


# ---- fuzz_frontends ----------------------------------------------------------

ONNX_OPSETS = [1, 7, 8, 9, 10, 11, 12, 13, 21, 22, 23, 2, 0, -1, 18, 19]
OV_VERSIONS = [1, 8, 14, 2, 7, 9, 13, 15, 0, 1, 8, 14]
FE_HOSTILE_RANKS = [0, 1, 2, 11, -1, 2**31 - 1, -2**31, 12]


def pick(table, v):
    if v in table:
        return bytes([table.index(v)])
    return bytes([0xF0 + HOSTILE_INTS.index(v)])


def lst(values, count=None):
    count = len(values) if count is None else count
    out = bytes([count]) if 0 <= count < 18 else bytes([0xF0 + HOSTILE_INTS.index(count)])
    for v in values[:max(0, min(count, 16))]:
        out += i64(v)
    return out


def frontend(which, input_rank, body, shape, *, dtype=0, threads=False, null_err=False, raw=False, zero=None,
             isa=0, data=b""):
    """shape: (N, C, [spatial...]); zero: None, 'N' or 'C'."""
    flags = (1 if threads else 0) | (2 if null_err else 0) | (4 if raw else 0) | (8 if zero else 0) | (isa << 4)
    out = bytes([flags, which]) + enum(dtype)
    out += bytes([input_rank - 3]) if 3 <= input_rank <= 10 else bytes([0xF0 + FE_HOSTILE_RANKS.index(input_rank)])
    out += body
    n, c, sp = shape
    assert n < 4 and c < 5 and all(0 <= d < 17 for d in sp)
    out += bytes([n, c] + list(sp))
    if zero:
        out += bytes([1 if zero == "N" else 0])
    return out + data


def onnx(opset=12, kernel_shape=(), strides=(), pads=(), dilations=(), auto_pad=None, ceil_mode=-1, storage_order=-1,
         want_indices=0):
    return (pick(ONNX_OPSETS, opset) + lst(list(kernel_shape)) + lst(list(strides)) + lst(list(pads)) +
            lst(list(dilations)) + string(auto_pad) + pick([-1, 0, 1], ceil_mode) + pick([-1, 0, 1], storage_order) +
            pick([0, 1], want_indices))


def openvino(version=14, kernel=(), strides=(), dilations=(), pads_begin=(), pads_end=(), rounding_type=None,
             auto_pad=None, index_element_type=None, axis=0, want_indices=0):
    return (pick(OV_VERSIONS, version) + lst(list(kernel)) + lst(list(strides)) + lst(list(dilations)) +
            lst(list(pads_begin)) + lst(list(pads_end)) + string(rounding_type) + string(auto_pad) +
            string(index_element_type) + i64(axis) + pick([0, 1], want_indices))


def torch(kernel_size=(), stride=(), padding=(), dilation=(), ceil_mode=0, return_indices=0):
    return (lst(list(kernel_size)) + lst(list(stride)) + lst(list(padding)) + lst(list(dilation)) +
            pick([0, 1], ceil_mode) + pick([0, 1], return_indices))


def adaptive(flavor=0, output_size=(), index_element_type=None, want_indices=0):
    return enum(flavor) + lst(list(output_size)) + string(index_element_type) + pick([0, 1], want_indices)


def tf(ksize=(), strides=(), padding=None, data_format=None, targmax=None, include_batch_in_index=0):
    return (lst(list(ksize)) + lst(list(strides)) + string(padding) + string(data_format) + string(targmax) +
            pick([-1, 0, 1], include_batch_in_index))


TF = 0xE0  # the 'which' byte of the TensorFlow front-end


# ---- fuzz_npy -----------------------------------------------------------------

def npy(descr, shape, data, version=(1, 0), fortran=False):
    d = "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (
        descr, "True" if fortran else "False", "(%s)" % "".join("%d, " % s for s in shape) if shape else "()")
    pre = 10 if version[0] == 1 else 12
    total = (pre + len(d) + 1 + 63) // 64 * 64
    h = d + " " * (total - pre - len(d) - 1) + "\n"
    lenf = struct.pack("<H", len(h)) if version[0] == 1 else struct.pack("<I", len(h))
    return b"\x93NUMPY" + bytes(version) + lenf + h.encode("latin1") + data


# ---- the files ------------------------------------------------------------------

F32, F64, F16, BF16, I8, U8, I16, U16, I32, I64 = range(10)
NONE, IDX32, IDX64 = range(3)
EXPLICIT, VALID, SAME_UPPER, SAME_LOWER = range(4)
FLOOR, CEIL, CEIL_TORCH = range(3)
ISA_AUTO, ISA_SCALAR, ISA_SSE2, ISA_AVX2, ISA_AVX512 = range(5)


def seeds_plan():
    return {
        "k3s2p1_nchw_f32": plan(2, [(3, 2, 1, 1, 1, 1)] * 2, (1, 3, [9, 11]), index_type=IDX64, threads=True,
                                data=fill(300, 1)),
        "k2s2_nhwc_ceil_nan": plan(2, [(2, 2, 1, 0, 0, 1)] * 2, (2, 4, [8, 8]), layout=1, rounding=CEIL,
                                   index_type=IDX32, index_axis=1, nan=1, data=fill(512, 2)),
        "k5d2_f16_1d": plan(1, [(5, 1, 2, 0, 0, 1)], (3, 4, [16]), dtype=F16, rounding=CEIL_TORCH, index_type=IDX32,
                            index_axis=2, data=fill(192, 3)),
        "same_lower_i8_3d": plan(3, [(2, 1, 1, 0, 0, 1)] * 3, (2, 3, [7, 9, 8]), dtype=I8, auto_pad=SAME_LOWER,
                                 index_type=IDX64, index_order=1, data=fill(256, 4)),
        "adaptive_bf16_3d": plan(3, [(1, 1, 1, 0, 0, 3), (1, 1, 1, 0, 0, 4), (1, 1, 1, 0, 0, 5)], (2, 3, [5, 9, 7]),
                                 dtype=BF16, window=1, index_type=IDX32, data=fill(128, 5)),
        "k7s1p3_logstep": plan(2, [(7, 1, 1, 3, 3, 1)] * 2, (1, 2, [16, 16]), index_type=IDX64, nan=1, init=1,
                               data=fill(512, 6)),
        "k13s1_largek_sse2": plan(2, [(3, 1, 1, 1, 1, 1), (13, 1, 1, 6, 6, 1)], (1, 1, [5, 16]), isa=ISA_SSE2,
                                  data=fill(80, 7)),
        "emptywin_f64": plan(2, [(2, 1, 1, 3, 3, 1), (2, 3, 2, 0, 4, 1)], (1, 2, [4, 5]), dtype=F64,
                             index_type=IDX64, empty_value=1, empty_index=2, init=1, data=fill(40, 8)),
        "zeroN_mode2": plan(2, [(3, 2, 1, 1, 1, 1)] * 2, (0, 3, [5, 5]), mode=2, index_type=IDX64),
        "rank8": plan(8, [(2, 1, 1, 0, 1, 1)] * 8, (1, 1, [2] * 8), dtype=I32, index_type=IDX64, data=fill(256, 9)),
        "hostile_enum": plan(2, [(3, 2, 1, 1, 1, 1)] * 2, (1, 1, [4, 4]), rounding=-1, index_type=65536),
    }


def regressions_plan():
    """Each of these failed on the library before the bounded-geometry rewrite (8fe01b3), except
    n0_c_times_spatial_overflow, which fails after it."""
    G40, G62, MAX = 1 << 40, 1 << 62, 2**63 - 1
    return {
        # issue 16 item 3 as a descriptor: dilation 2^40, pads 2^40 on a 1x1x1 input: 2^40 + 1 windows
        # (a 16 TiB window table, computed one window at a time: the hang where the memory is granted)
        "dilation_2p40_pads": plan(1, [(2, 1, G40, G40, G40, 1)], (1, 1, [1]), index_type=IDX64),
        # item 4 as a descriptor: pads 2^29 with N = 0 (a 32 GiB window table for an empty tensor)
        "pads_2p29_n0": plan(2, [(1, 1, 1, 1 << 29, 1 << 29, 1)] * 2, (0, 1, [1, 1]), mode=2),
        # found by fuzz_plan: N = 0, C * spatial past int64 (index convention: c * in_spatial unchecked)
        "n0_c_times_spatial_overflow": plan(1, [(1, 1, 1, 0, 0, 1)], (0, 11, [2**61 + 1]), mode=3, layout=1,
                                            index_type=IDX64),
        # item 6: attributes near 2^62 / INT64_MAX (signed overflow), kernel 2, int64 indices, empty index =
        # first tap, on 1x1x1 (test_hostile.c's test_near_int64_max shapes)
        "near_2p62_pb_stride_floor": plan(1, [(2, G62, 1, G62, 0, 1)], (1, 1, [1]), rounding=FLOOR,
                                          index_type=IDX64, empty_index=1, data=b"\x05"),
        "near_2p62_pb_stride_ceil": plan(1, [(2, MAX, 1, G62 - 1, 0, 1)], (1, 1, [1]), rounding=CEIL,
                                         index_type=IDX64, empty_index=1, data=b"\x05"),
        "near_2p62_pb_stride_ceil_torch": plan(1, [(2, G62 + 5, 1, MAX - 2, 0, 1)], (1, 1, [1]),
                                               rounding=CEIL_TORCH, index_type=IDX64, empty_index=1, data=b"\x05"),
        "near_2p62_pe_stride_ceil": plan(1, [(2, G62 + 5, 1, 0, MAX - 2, 1)], (1, 1, [1]), rounding=CEIL,
                                         index_type=IDX64, empty_index=1, data=b"\x05"),
        "near_2p62_adaptive_out_max": plan(1, [(1, 1, 1, 0, 0, MAX)], (1, 1, [3]), window=1, index_type=IDX64,
                                           data=b"\x05\x06\x07"),
    }


def seeds_frontends():
    return {
        "onnx_k3s2p1_indices": frontend(0, 4, onnx(12, (3, 3), (2, 2), (1, 1, 1, 1), ceil_mode=1, storage_order=1,
                                                   want_indices=1), (1, 2, [9, 9]), data=fill(200, 11)),
        "onnx22_bf16_same_upper": frontend(0, 4, onnx(22, (2, 2), auto_pad="SAME_UPPER"), (1, 2, [7, 6]), dtype=BF16,
                                           data=fill(100, 12)),
        "onnx8_f16_1d": frontend(0, 3, onnx(8, (3,), (2,), (1, 0), want_indices=1), (2, 3, [10]), dtype=F16,
                                 data=fill(64, 13)),
        "openvino14_ceil_torch": frontend(1, 4, openvino(14, (3, 3), (2, 2), (), (1, 1), (1, 1), "ceil_torch",
                                                         None, "i32", 0, 1), (1, 2, [8, 9]), threads=True,
                                          data=fill(160, 14)),
        "openvino8_dilated_1d": frontend(1, 3, openvino(8, (3,), (1,), (2,), (0,), (2,), "ceil", "explicit", "i64",
                                                        -1, 1), (1, 3, [12]), data=fill(40, 15)),
        "torch_2d_indices": frontend(2, 4, torch((3, 3), (2, 2), (1,), (1,), 1, 1), (2, 2, [9, 8]), isa=1,
                                     data=fill(300, 16)),
        "adaptive_torch_2d": frontend(3, 4, adaptive(0, (3, 4), None, 1), (1, 2, [7, 9]), data=fill(130, 17)),
        "adaptive_aclnn_3d": frontend(3, 5, adaptive(1, (2, 3, 4), None, 1), (1, 1, [5, 6, 7]), dtype=F16,
                                      data=fill(210, 18)),
        "adaptive_openvino_i32": frontend(3, 4, adaptive(2, (2, 2), "i32", 1), (1, 2, [3, 5]), dtype=I32,
                                          data=fill(30, 19)),
        # issue 17 item 5: TensorFlow max_pool_with_argmax (NHWC, channels-last argmax) and OpenVINO's axis on a
        # spatial dimension (the index post-pass)
        "tf_same_k2_batch_i32": frontend(TF, 4, tf((2,), (1,), "SAME", "NHWC", "int32", 1), (2, 3, [5, 4]),
                                         threads=True, data=fill(160, 24)),
        "tf_valid_4value_f16": frontend(TF, 4, tf((1, 3, 2, 1), (1, 2, 1, 3), "VALID", None, "int64", 0),
                                        (1, 4, [7, 6]), dtype=F16, isa=1, data=fill(336, 25)),
        "openvino14_axis_spatial": frontend(1, 5, openvino(14, (2, 2, 2), (1, 2, 1), (), (1, 0, 1), (0, 1, 0),
                                                           "ceil", None, "i32", -1, 1), (1, 2, [4, 5, 3]),
                                            data=fill(240, 26)),
    }


def regressions_frontends():
    """Issue 16's reproducers through the spec front-ends (test_hostile.c has the same); each failed on the
    library before the bounded-geometry rewrite (8fe01b3)."""
    G29, G30, G31, G40 = 1 << 29, 1 << 30, 1 << 31, 1 << 40
    return {
        # issue 16 item 1: onnx kernel_shape 1, pads 3000,0 on a 1x1x1 f32 input, Indices
        # (the row kernel's padded line copy wholly in the begin padding: stack overflow)
        "item1_onnx_k1_pads3000": frontend(0, 3, onnx(22, (1,), (), (3000, 0), want_indices=1), (1, 1, [1]),
                                           data=fill(4, 21)),
        # item 2: onnx k2,2 s2,2 d2,2 pads 2,2,2,16384 on 1x2x6x6 (lines-first kernel's unbounded chunk). Its
        # output, 65560 elements, is past the harness's 65536 run limit: planned only; the C = 1 spelling runs.
        "item2_onnx_k2s2d2_pads16384": frontend(0, 4, onnx(22, (2, 2), (2, 2), (2, 2, 2, 16384), (2, 2)),
                                                (1, 2, [6, 6]), data=fill(72, 22)),
        "item2_onnx_k2s2d2_pads16384_c1": frontend(0, 4, onnx(22, (2, 2), (2, 2), (2, 2, 2, 16384), (2, 2)),
                                                   (1, 1, [6, 6]), data=fill(36, 22)),
        # item 3: onnx k2, dilation 2^40, pads 2^40,2^40 on 1x1x1 (shape inference scanned 2^40 windows: hang)
        "item3_onnx_dilation_2p40": frontend(0, 3, onnx(22, (2,), (), (G40, G40), (G40,)), (1, 1, [1]),
                                             data=fill(1, 23)),
        # item 3, OpenVINO spelling: k3, dilation 2^30, pads 2^31 (2^31 outputs: planned only)
        "item3_openvino_dilation_2p30": frontend(1, 3, openvino(14, (3,), (1,), (G30,), (G31,), (G31,)),
                                                 (1, 1, [1]), data=fill(1, 24)),
        # item 4: onnx k1,1 pads 2^29 x4 on N = 0 and on 1x1x1x1 (window tables by the output size: 8 GiB)
        "item4_onnx_pads_2p29_n0": frontend(0, 4, onnx(22, (1, 1), (), (G29,) * 4), (1, 1, [1, 1]), zero="N"),
        "item4_onnx_pads_2p29_n1": frontend(0, 4, onnx(22, (1, 1), (), (G29,) * 4), (1, 1, [1, 1])),
        # item 5: torch k2 stride 2^33 dilation 2^32 pad 1 ceil_mode, int64 indices, on 1x1x1 and 1x1x4
        # (the row kernel's index of an empty window's first tap, 2^32 - 1, as int32)
        "item5_torch_k2_s2p33_d2p32_ceil": frontend(2, 3, torch((2,), (1 << 33,), (1,), (1 << 32,), 1, 1),
                                                    (1, 1, [1]), data=fill(1, 25)),
        "item5_torch_k2_s2p33_d2p32_ceil_w4": frontend(2, 3, torch((2,), (1 << 33,), (1,), (1 << 32,), 1, 1),
                                                       (1, 1, [4]), data=fill(4, 26)),
    }


def seeds_npy():
    return {
        "f32_2x3": npy("<f4", (2, 3), struct.pack("<6f", 1, -2, 3.5, float("nan"), 0, -0.0)),
        "i64_v2": npy("<i8", (4,), struct.pack("<4q", 1, -1, 2**62, -2**63), version=(2, 0)),
        "u8_scalar_v3": npy("|u1", (), b"\x07", version=(3, 0)),
        "bf16": npy("<V2", (2, 2), struct.pack("<4H", 0x3F80, 0x7FC0, 0xFF80, 0)),
        "f16_empty": npy("<f2", (0, 5), b""),
        "fortran": npy("<f8", (1,), struct.pack("<d", 1.0), fortran=True),
        "truncated": npy("<i4", (3,), struct.pack("<2i", 1, 2)),
    }


def regressions_npy():
    return {
        # a header declaring ~8 GB of data followed by none: the reader must not
        # allocate what the header claims before it knows the data is there
        "huge_declared_pipe": npy("<f8", (1000000000,), b""),
    }


def write(folder, files):
    os.makedirs(folder, exist_ok=True)
    for name in os.listdir(folder):
        if name.startswith("gen-"):
            os.remove(os.path.join(folder, name))
    for name, data in files.items():
        with open(os.path.join(folder, "gen-" + name), "wb") as f:
            f.write(data)


def main():
    write(os.path.join(HERE, "corpus", "fuzz_plan"), seeds_plan())
    write(os.path.join(HERE, "corpus", "fuzz_frontends"), seeds_frontends())
    write(os.path.join(HERE, "corpus", "fuzz_npy"), seeds_npy())
    write(os.path.join(HERE, "regressions", "fuzz_plan"), regressions_plan())
    write(os.path.join(HERE, "regressions", "fuzz_frontends"), regressions_frontends())
    write(os.path.join(HERE, "regressions", "fuzz_npy"), regressions_npy())
    return 0


if __name__ == "__main__":
    sys.exit(main())
