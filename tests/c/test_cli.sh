#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Tests of the maxpool command-line tool.
#   usage: bash tests/c/test_cli.sh <path-to-maxpool>
# Needs python3 with numpy (writes the inputs, checks the outputs); prints
# SKIP and exits 0 when numpy is missing. Expected values come from the spec
# texts (OpenVINO MaxPool-14/-8 specs, docs.openvino.ai: examples 1-8 with
# MaxPool-8's pads and OpenVINO's values where the texts misprint; ONNX/PyTorch runs use the same cases where the specs agree),
# or from an independent numpy transcription of a spec formula (adaptive
# windows, Ascend aclnnAdaptiveMaxPool3d doc) -- never from the tool's own output.
set -u

if [ $# -lt 1 ]; then
    echo "usage: bash $0 <path-to-maxpool>" >&2
    exit 2
fi
case "$1" in
/*) M="$1" ;;
*) M="$PWD/$1" ;;
esac
if [ ! -x "$M" ]; then
    echo "test_cli: $M is not an executable" >&2
    exit 2
fi
if ! python3 -c 'import numpy' >/dev/null 2>&1; then
    echo "SKIP: test_cli needs python3 with numpy (pip install numpy)"
    exit 0
fi

T=$(mktemp -d "${TMPDIR:-/tmp}/test_cli.XXXXXX")
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 2

PASS=0
FAIL=0
pass() { PASS=$((PASS + 1)); }
fail() {
    FAIL=$((FAIL + 1))
    echo "FAIL: $*" >&2
}

# ---------------------------------------------------------------------------
# python helper: save inputs, check outputs bit-exactly
# ---------------------------------------------------------------------------
cat >h.py <<'EOF'
import json, struct, sys
import numpy as np

def bf16_bytes(values):
    f = np.asarray(values, dtype=np.float32)
    return (f.view(np.uint32) >> 16).astype('<u2')

def write_raw(path, descr, shape, payload, fortran=False):
    d = "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (
        descr, 'True' if fortran else 'False', repr(tuple(shape)))
    hl = (10 + len(d) + 1 + 63) // 64 * 64 - 10
    with open(path, 'wb') as f:
        f.write(b'\x93NUMPY\x01\x00' + struct.pack('<H', hl) + (d + ' ' * (hl - len(d) - 1) + '\n').encode())
        f.write(payload)

def read_raw(path):
    with open(path, 'rb') as f:
        b = f.read()
    major = b[6]
    if major == 1:
        hl = struct.unpack('<H', b[8:10])[0]; off = 10
    else:
        hl = struct.unpack('<I', b[8:12])[0]; off = 12
    hdr = eval(b[off:off + hl].decode('latin1'))
    return hdr, b[off + hl:]

def cmd_save(path, dtype, values, *flags):
    a = np.array(json.loads(values))
    if dtype == 'bf16':                     # '<V2', as np.save writes ml_dtypes.bfloat16
        write_raw(path, '<V2', a.shape, bf16_bytes(a).tobytes())
    elif 'fortran' in flags:
        np.save(path, np.asfortranarray(a.astype(dtype)))
    elif 'raw' in flags:                    # descr written verbatim (big-endian, ...)
        write_raw(path, dtype, a.shape, a.astype(dtype).tobytes())
    else:
        np.save(path, a.astype(dtype))

def adaptive_ref(x, osz, index_dtype):
    """aclnnAdaptiveMaxPool3d doc: start = floor(l*D/Do), end = ceil((l+1)*D/Do) exclusive;
    the first maximum in row-major window order; indices within each plane."""
    N, C = x.shape[:2]; sp = x.shape[2:]; r = len(sp)
    y = np.zeros((N, C) + tuple(osz), x.dtype); ind = np.zeros(y.shape, index_dtype)
    for n in range(N):
        for c in range(C):
            for o in np.ndindex(*osz):
                best = None; bi = -1
                rng = [range(o[i] * sp[i] // osz[i], -((-(o[i] + 1) * sp[i]) // osz[i])) for i in range(r)]
                for p in np.ndindex(*[len(q) for q in rng]):
                    pos = tuple(rng[i][p[i]] for i in range(r))
                    v = x[(n, c) + pos]
                    if best is None or v > best:
                        best = v; bi = int(np.ravel_multi_index(pos, sp))
                y[(n, c) + o] = best; ind[(n, c) + o] = bi
    return y, ind

def cmd_adaptive_in(path, shape, seed):
    rng = np.random.default_rng(int(seed))
    np.save(path, rng.integers(-20, 20, size=json.loads(shape)).astype(np.float32))

def cmd_verify(listing):
    """Runs every deferred check; prints one FAIL line each; exits with the
    number of failures (capped) after printing 'verified N'."""
    import io
    n = bad = 0
    for line in open(listing):
        f = line.rstrip('\n').split('\t')
        n += 1
        try:
            if f[0] == 'file':
                check_file(*f[2:5])
            else:
                x, yp, ip, osz, idt = f[2:7]
                xa = np.load(x); y, ind = adaptive_ref(xa, json.loads(osz), idt)
                gy = np.load(yp); gi = np.load(ip)
                if not (gy.dtype == y.dtype and gi.dtype == ind.dtype and gy.shape == y.shape and
                        gi.shape == ind.shape and gy.tobytes() == y.tobytes() and gi.tobytes() == ind.tobytes()):
                    raise AssertionError('differs from the formula: got %s / %s, expected %s / %s' % (
                        gy.ravel()[:12].tolist(), gi.ravel()[:12].tolist(), y.ravel()[:12].tolist(),
                        ind.ravel()[:12].tolist()))
        except Exception as e:
            bad += 1
            print('FAIL: %s: %s' % (f[1], e), file=sys.stderr)
    print('verified %d %d' % (n - bad, bad))

def check_file(path, dtype, values):
    e = np.array(json.loads(values))
    hdr, data = read_raw(path)
    want_descr = '<V2' if dtype == 'bf16' else np.dtype(dtype).str
    want = bf16_bytes(e).tobytes() if dtype == 'bf16' else e.astype(dtype).tobytes()
    if hdr['descr'] != want_descr or hdr['fortran_order'] or tuple(hdr['shape']) != e.shape:
        raise AssertionError('got descr %s shape %s, expected %s %s' % (hdr['descr'], hdr['shape'], want_descr, e.shape))
    if data != want:
        got = np.frombuffer(data, '<u2' if dtype == 'bf16' else hdr['descr'])
        raise AssertionError('values: got %s, expected %s' % (got.tolist(), e.ravel().tolist()))
    if dtype != 'bf16':  # numpy reads it back and writes the identical bytes
        import io
        buf = io.BytesIO(); np.save(buf, np.load(path))
        if open(path, 'rb').read() != buf.getvalue():
            raise AssertionError('bytes differ from what np.save writes')

def cmd_nhwc(src, dst):                     # channels-first file -> channels-last file
    a = np.load(src); np.save(dst, np.ascontiguousarray(np.moveaxis(a, 1, -1)))

def cmd_same(a, b):
    sys.exit(0 if open(a, 'rb').read() == open(b, 'rb').read() else 1)

if __name__ == '__main__':
    globals()['cmd_' + sys.argv[1]](*sys.argv[2:])
EOF

py() { python3 "$T/h.py" "$@"; }

# run_ok NAME CMD...: exit 0, nothing on stderr.
run_ok() {
    local name=$1
    shift
    "$@" >"$T/out.txt" 2>"$T/err.txt"
    local rc=$?
    if [ $rc -ne 0 ]; then
        fail "$name: exit $rc: $(head -c 300 "$T/err.txt")"
        return 1
    fi
    if [ -s "$T/err.txt" ]; then
        fail "$name: wrote to stderr: $(head -c 300 "$T/err.txt")"
        return 1
    fi
    pass
    return 0
}

# check NAME FILE DTYPE VALUES [FILE DTYPE VALUES ...]: bit-exact file contents.
# Deferred: the files are copied aside and verified by one python run at the
# end (starting python + numpy per check would dominate the run time).
NCHK=0
mkdir -p "$T/chk"
: >"$T/checks.tsv"
check() {
    local name=$1
    shift
    while [ $# -ge 3 ]; do
        NCHK=$((NCHK + 1))
        if [ -e "$1" ]; then cp "$1" "$T/chk/$NCHK.npy"; else : >"$T/chk/$NCHK.npy"; fi
        printf 'file\t%s\t%s\t%s\t%s\n' "$name" "$T/chk/$NCHK.npy" "$2" "$3" >>"$T/checks.tsv"
        shift 3
    done
}
# check_adaptive NAME X Y I OUTPUT_SIZE INDEX_DTYPE: against the aclnnAdaptiveMaxPool3d window formula.
check_adaptive() {
    NCHK=$((NCHK + 1))
    cp "$3" "$T/chk/$NCHK.y.npy" && cp "$4" "$T/chk/$NCHK.i.npy"
    printf 'adaptive\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$T/chk/$NCHK.y.npy" "$T/chk/$NCHK.i.npy" "$5" "$6" \
        >>"$T/checks.tsv"
}
# same NAME A B: identical bytes.
same() {
    if cmp -s "$2" "$3"; then pass; else fail "$1: $2 and $3 differ"; fi
}

# run_fail NAME SUBSTRING CMD...: non-zero exit, exactly one stderr line
# "maxpool: ...SUBSTRING...", nothing on stdout, and no yF.npy / iF.npy /
# temporary file left in the directory.
run_fail() {
    local name=$1 want=$2
    shift 2
    rm -f yF.npy iF.npy
    "$@" >"$T/out.txt" 2>"$T/err.txt"
    local rc=$?
    local lines
    lines=$(wc -l <"$T/err.txt")
    if [ $rc -eq 0 ]; then
        fail "$name: exit 0, expected failure"
    elif [ "$lines" -ne 1 ]; then
        fail "$name: $lines stderr lines: $(cat "$T/err.txt")"
    elif ! grep -q '^maxpool: ' "$T/err.txt"; then
        fail "$name: stderr not 'maxpool: ...': $(cat "$T/err.txt")"
    elif ! grep -qF -- "$want" "$T/err.txt"; then
        fail "$name: stderr lacks '$want': $(cat "$T/err.txt")"
    elif [ -s "$T/out.txt" ]; then
        fail "$name: wrote to stdout on failure"
    elif [ -e yF.npy ] || [ -e iF.npy ]; then
        fail "$name: an output file was created"
    elif ls -a | grep -q '^\.maxpool-tmp-'; then
        fail "$name: a temporary file was left"
    else
        pass
        LAST_RC=$rc
        return 0
    fi
    LAST_RC=$rc
    return 1
}
LAST_RC=0
expect_rc() { # after run_fail: the documented exit code class
    if [ "$LAST_RC" -eq "$2" ]; then pass; else fail "$1: exit $LAST_RC, expected $2"; fi
}

# ---------------------------------------------------------------------------
# Spec data (OpenVINO MaxPool-14 + MaxPool-8 examples, misprints fixed)
# ---------------------------------------------------------------------------
XA='[[[[-1,2,3],[4,5,-6],[-7,8,9]]]]'
XB='[[[[1,2,3],[4,5,6],[7,8,9]]]]'
X2='[[[-1,2,3,5,-7,9,1]]]'
X4='[[[[-1,2,3],[4,5,-6],[-7,8,9]],[[2,-1,5],[6,-7,1],[8,2,-3]]]]'
X8='[[[[1,2,3],[4,5,6],[7,8,9]],[[10,11,12],[13,14,15],[16,17,18]]]]'
X9='[[[[[7,0,1,-5],[-2,-8,-3,4],[5,6,0,1]],[[8,3,3,-6],[8,1,-8,-6],[8,0,5,-3]]]]]'
Y1='[[[[-1,2,3,3],[4,5,5,3],[4,8,9,9],[-7,8,9,9]]]]'
I1='[[[[0,1,2,2],[3,4,4,2],[3,7,8,8],[6,7,8,8]]]]'
Y2='[[[3,5,5,9,9]]]'
I2='[[[2,3,3,5,5]]]'
Y3='[[[[-1,2,3],[4,5,5],[4,8,9]]]]'
I3='[[[[0,1,2],[3,4,4],[3,7,8]]]]'
Y4='[[[[5,5,3],[8,9,9],[8,9,9]],[[6,5,5],[8,2,1],[8,2,-3]]]]'
I4='[[[[4,4,2],[7,8,8],[7,8,8]],[[12,11,11],[15,16,14],[15,16,17]]]]'
Y5='[[[[1,3],[7,9]]]]'
I5='[[[[0,2],[6,8]]]]'
Y6='[[[[5,3],[8,9]]]]'
I6='[[[[4,2],[7,8]]]]'
Y7='[[[[5,6,5],[8,9,8],[5,6,5]]]]'
I7='[[[[4,5,4],[7,8,7],[4,5,4]]]]'
Y8='[[[[5,6],[8,9]],[[14,15],[17,18]]]]'
I8='[[[[4,5],[7,8]],[[4,5],[7,8]]]]'

# Every input file, written by one python run.
XA="$XA" XB="$XB" X2="$X2" X4="$X4" X8="$X8" X9="$X9" Y1="$Y1" Y4="$Y4" I4="$I4" python3 - <<'EOF' || exit 2
import os, sys
import numpy as np
sys.path.insert(0, '.')
from h import cmd_save, cmd_adaptive_in, write_raw
E = os.environ
for name in ('XA', 'XB', 'X2', 'X4', 'X8', 'X9'):
    cmd_save(name.lower() + '.npy', '<f4', E[name])
cmd_save('xn.npy', '<f4', '[[[1, NaN, 3, 2]]]')
cmd_adaptive_in('xr3.npy', '[2,3,5,7,6]', 1)
cmd_adaptive_in('xr2.npy', '[1,2,9,10]', 2)
cmd_adaptive_in('xr1.npy', '[2,2,11]', 3)
for dt, tag in (('<f8', 'f8'), ('<f2', 'f2'), ('|i1', 'i1'), ('<i2', 'i2'), ('<i4', 'i4'), ('<i8', 'i8')):
    cmd_save('xd_%s.npy' % tag, dt, E['XA'])
for dt, tag in (('|u1', 'u1'), ('<u2', 'u2')):
    cmd_save('xd_%s.npy' % tag, dt, E['XB'])
cmd_save('xbf.npy', 'bf16', E['XA'])            # '<V2', as np.save writes ml_dtypes.bfloat16
x = np.array(eval(E['XA']), np.float32); np.save('xbu.npy', (x.view(np.uint32) >> 16).astype('<u2'))
y = np.array(eval(E['Y1']), np.float32); np.save('ybu.npy', (y.view(np.uint32) >> 16).astype('<u2'))
np.save('x4l.npy', np.ascontiguousarray(np.moveaxis(np.array(eval(E['X4']), np.float32), 1, -1)))
np.save('y4l.npy', np.ascontiguousarray(np.moveaxis(np.array(eval(E['Y4']), np.float32), 1, -1)))
np.save('i4l.npy', np.ascontiguousarray(np.moveaxis(np.array(eval(E['I4']), np.int64), 1, -1)))
cmd_save('xi8.npy', '|i1', E['XA'])
np.save('xe.npy', np.zeros((0, 1, 65536, 65536), np.float32))   # header only: no data
np.save('x11.npy', np.zeros([1] * 11, np.float32))
cmd_save('x1d.npy', '<f4', '[1,2,3]')
cmd_save('xf.npy', '<f4', '[[[[1,2,3],[4,5,6]]]]', 'fortran')
cmd_save('xbe.npy', '>f4', E['XA'], 'raw')
cmd_save('xu4.npy', '<u4', E['XB'])
cmd_save('xb1.npy', '?', E['XB'])
cmd_save('xc8.npy', '<c8', E['XB'])
for ver in ((2, 0), (3, 0)):                     # the newer header versions
    with open('xv%d.npy' % ver[0], 'wb') as f:
        np.lib.format.write_array(f, np.array(eval(E['XA']), np.float32), version=ver)
try:                                             # a real ml_dtypes.bfloat16 file, when available
    import ml_dtypes
    np.save('xml.npy', np.array(eval(E['XA']), np.float32).astype(ml_dtypes.bfloat16))
except ImportError:
    pass
EOF

OV1="--kernel 2,2 --strides 1,1 --pads_begin 1,1 --pads_end 1,1"

# ---- openvino: the eight spec examples -------------------------------------
run_ok "ov ex1" "$M" openvino $OV1 xa.npy y.npy i.npy &&
    check "ov ex1" y.npy '<f4' "$Y1" i.npy '<i8' "$I1"
run_ok "ov ex2" "$M" openvino --kernel 3 --strides 1 --auto_pad valid x2.npy y.npy i.npy &&
    check "ov ex2" y.npy '<f4' "$Y2" i.npy '<i8' "$I2"
run_ok "ov ex3" "$M" openvino --kernel 2,2 --strides 1,1 --auto_pad same_lower xa.npy y.npy i.npy &&
    check "ov ex3" y.npy '<f4' "$Y3" i.npy '<i8' "$I3"
run_ok "ov ex4" "$M" openvino --kernel 2,2 --strides 1,1 --auto_pad same_upper x4.npy y.npy i.npy &&
    check "ov ex4" y.npy '<f4' "$Y4" i.npy '<i8' "$I4"
run_ok "ov ex5" "$M" openvino --kernel 2,2 --strides 2,2 --pads_begin 1,1 --pads_end 1,1 --rounding_type ceil_torch \
    xb.npy y.npy i.npy && check "ov ex5" y.npy '<f4' "$Y5" i.npy '<i8' "$I5"
run_ok "ov ex6" "$M" openvino --kernel 2,2 --strides 2,2 --rounding_type ceil --auto_pad valid xa.npy y.npy i.npy &&
    check "ov ex6" y.npy '<f4' "$Y6" i.npy '<i8' "$I6"
run_ok "ov ex7" "$M" openvino --kernel 2,2 --strides 1,1 --dilations 2,2 --pads_begin 1,1 --pads_end 1,1 \
    xb.npy y.npy i.npy && check "ov ex7" y.npy '<f4' "$Y7" i.npy '<i8' "$I7"
run_ok "ov ex8" "$M" openvino --kernel 2,2 --strides 1,1 --dilations 1,1 --pads_begin 0,0 --pads_end 0,0 --axis 2 \
    x8.npy y.npy i.npy && check "ov ex8" y.npy '<f4' "$Y8" i.npy '<i8' "$I8"
run_ok "ov ex8 v8 i32" "$M" openvino --version 8 --kernel 2,2 --strides 1,1 --pads_begin 0,0 --pads_end 0,0 \
    --axis 2 --index_element_type i32 x8.npy y.npy i.npy && check "ov ex8 v8 i32" y.npy '<f4' "$Y8" i.npy '<i4' "$I8"
rm -f y.npy
run_ok "ov ex1 no indices" "$M" openvino $OV1 xa.npy y.npy && check "ov ex1 no indices" y.npy '<f4' "$Y1"
run_ok "ov v1" "$M" openvino --version 1 --kernel 2,2 --strides 2,2 --pads_begin 0,0 --pads_end 0,0 \
    --rounding_type ceil --auto_pad valid xa.npy y.npy && check "ov v1" y.npy '<f4' "$Y6"
run_ok "ov key=value" "$M" openvino --kernel=2,2 --strides=1,1 --auto_pad=same_lower xa.npy y.npy i.npy &&
    check "ov key=value" y.npy '<f4' "$Y3" i.npy '<i8' "$I3"
run_ok "ov flags after files" "$M" openvino xa.npy y.npy i.npy --kernel 2,2 --strides 1,1 --auto_pad same_lower &&
    check "ov flags after files" y.npy '<f4' "$Y3" i.npy '<i8' "$I3"

# ---- onnx: the same cases in ONNX terms (indices flat over the tensor) -----
run_ok "onnx ex1" "$M" onnx --kernel_shape 2,2 --pads 1,1,1,1 xa.npy y.npy i.npy &&
    check "onnx ex1" y.npy '<f4' "$Y1" i.npy '<i8' "$I1"
run_ok "onnx ex2" "$M" onnx --opset 11 --kernel_shape 3 --auto_pad VALID x2.npy y.npy i.npy &&
    check "onnx ex2" y.npy '<f4' "$Y2" i.npy '<i8' "$I2"
run_ok "onnx ex3" "$M" onnx --opset 12 --kernel_shape 2,2 --auto_pad SAME_LOWER xa.npy y.npy i.npy &&
    check "onnx ex3" y.npy '<f4' "$Y3" i.npy '<i8' "$I3"
run_ok "onnx ex4" "$M" onnx --kernel_shape 2,2 --auto_pad SAME_UPPER x4.npy y.npy i.npy &&
    check "onnx ex4" y.npy '<f4' "$Y4" i.npy '<i8' "$I4"
run_ok "onnx ex7" "$M" onnx --kernel_shape 2,2 --dilations 2,2 --pads 1,1,1,1 xb.npy y.npy i.npy &&
    check "onnx ex7" y.npy '<f4' "$Y7" i.npy '<i8' "$I7"
# storage_order=1: the spatial part of each index counted column-major (ONNX
# text), i.e. example 1's row-major r*3+c becomes c*3+r.
run_ok "onnx storage_order" "$M" onnx --opset 8 --kernel_shape 2,2 --pads 1,1,1,1 --storage_order 1 xa.npy y.npy i.npy &&
    check "onnx storage_order" y.npy '<f4' "$Y1" i.npy '<i8' '[[[[0,3,6,6],[1,4,4,6],[1,5,8,8],[2,5,8,8]]]]'
run_ok "onnx opset 1" "$M" onnx --opset 1 --kernel_shape 2,2 --pads 1,1,1,1 xa.npy y.npy &&
    check "onnx opset 1" y.npy '<f4' "$Y1"

# ---- torch: per-plane int64 indices ------------------------------------------
run_ok "torch ex1" "$M" torch --kernel_size 2 --stride 1 --padding 1 xa.npy y.npy i.npy &&
    check "torch ex1" y.npy '<f4' "$Y1" i.npy '<i8' "$I1"
run_ok "torch ex5 ceil" "$M" torch --kernel_size 2,2 --stride 2,2 --padding 1,1 --ceil_mode 1 xb.npy y.npy i.npy &&
    check "torch ex5 ceil" y.npy '<f4' "$Y5" i.npy '<i8' "$I5"
run_ok "torch ex7 dilation" "$M" torch --kernel_size 2 --stride 1 --padding 1 --dilation 2 xb.npy y.npy i.npy &&
    check "torch ex7 dilation" y.npy '<f4' "$Y7" i.npy '<i8' "$I7"
run_ok "torch ex8 planes" "$M" torch --kernel_size 2 --stride 1 x8.npy y.npy i.npy &&
    check "torch ex8 planes" y.npy '<f4' "$Y8" i.npy '<i8' "$I8"
run_ok "torch ex2 1-D" "$M" torch --kernel_size 3 --stride 1 x2.npy y.npy i.npy &&
    check "torch ex2 1-D" y.npy '<f4' "$Y2" i.npy '<i8' "$I2"

# NaN: PyTorch propagates (the NaN wins), --nan ignore skips it; ONNX ignores
# by default and propagates with --nan propagate.
run_ok "torch nan default" "$M" torch --kernel_size 2 --stride 2 xn.npy y.npy i.npy &&
    check "torch nan default" y.npy '<f4' '[[[NaN, 3]]]' i.npy '<i8' '[[[1, 2]]]'
run_ok "torch --nan ignore" "$M" torch --kernel_size 2 --stride 2 --nan ignore xn.npy y.npy i.npy &&
    check "torch --nan ignore" y.npy '<f4' '[[[1, 3]]]' i.npy '<i8' '[[[0, 2]]]'
run_ok "onnx --nan propagate" "$M" onnx --kernel_shape 2 --strides 2 --nan propagate xn.npy y.npy i.npy &&
    check "onnx --nan propagate" y.npy '<f4' '[[[NaN, 3]]]' i.npy '<i8' '[[[1, 2]]]'
run_ok "onnx nan default" "$M" onnx --kernel_shape 2 --strides 2 xn.npy y.npy i.npy &&
    check "onnx nan default" y.npy '<f4' '[[[1, 3]]]' i.npy '<i8' '[[[0, 2]]]'

# ---- adaptive ---------------------------------------------------------------
# The hand-worked 3-D example of the demo (aclnnAdaptiveMaxPool3d formula), aclnn int32.
run_ok "adaptive aclnn" "$M" adaptive --flavor aclnn --output_size 1,2,3 x9.npy y.npy i.npy &&
    check "adaptive aclnn" y.npy '<f4' '[[[[[8,3,4],[8,6,5]]]]]' i.npy '<i4' '[[[[[12,13,7],[16,9,22]]]]]'
run_ok "adaptive aclnn scalar" "$M" adaptive --isa scalar --flavor aclnn --output_size 1,2,3 x9.npy y.npy i.npy &&
    check "adaptive aclnn scalar" y.npy '<f4' '[[[[[8,3,4],[8,6,5]]]]]' i.npy '<i4' '[[[[[12,13,7],[16,9,22]]]]]'
run_ok "adaptive torch 3-D" "$M" adaptive --output_size 3,4,4 xr3.npy y.npy i.npy &&
    check_adaptive "adaptive torch 3-D" xr3.npy y.npy i.npy '[3,4,4]' int64
run_ok "adaptive openvino i32" "$M" adaptive --flavor openvino --index_element_type i32 --output_size 4,7 xr2.npy y.npy i.npy &&
    check_adaptive "adaptive openvino i32" xr2.npy y.npy i.npy '[4,7]' int32
run_ok "adaptive 1-D" "$M" adaptive --output_size 4 xr1.npy y.npy i.npy &&
    check_adaptive "adaptive 1-D" xr1.npy y.npy i.npy '[4]' int64

# ---- dtypes -----------------------------------------------------------------
for tag in f8:'<f8' f2:'<f2' i1:'|i1' i2:'<i2' i4:'<i4' i8:'<i8'; do
    dt=${tag#*:}
    run_ok "ov ex1 $dt" "$M" openvino $OV1 "xd_${tag%%:*}.npy" y.npy i.npy &&
        check "ov ex1 $dt" y.npy "$dt" "$Y1" i.npy '<i8' "$I1"
done
for tag in u1:'|u1' u2:'<u2'; do
    dt=${tag#*:}
    run_ok "ov ex7 $dt" "$M" openvino --kernel 2,2 --strides 1,1 --dilations 2,2 --pads_begin 1,1 --pads_end 1,1 \
        "xd_${tag%%:*}.npy" y.npy i.npy && check "ov ex7 $dt" y.npy "$dt" "$Y7" i.npy '<i8' "$I7"
done
# bfloat16 as np.save writes an ml_dtypes.bfloat16 array ('<V2'), and as raw
# '<u2' bits reinterpreted with --dtype bf16 (the output keeps '<u2').
run_ok "bf16 <V2" "$M" openvino $OV1 xbf.npy y.npy i.npy && check "bf16 <V2" y.npy bf16 "$Y1" i.npy '<i8' "$I1"
run_ok "bf16 <V2 onnx 22" "$M" onnx --kernel_shape 2,2 --pads 1,1,1,1 xbf.npy y.npy &&
    check "bf16 <V2 onnx 22" y.npy bf16 "$Y1"
run_ok "bf16 via --dtype" "$M" openvino --dtype bf16 $OV1 xbu.npy y.npy i.npy &&
    same "bf16 via --dtype" y.npy ybu.npy && check "bf16 via --dtype idx" i.npy '<i8' "$I1"
if [ -e xml.npy ]; then
    run_ok "ml_dtypes bf16" "$M" openvino $OV1 xml.npy y.npy i.npy &&
        check "ml_dtypes bf16" y.npy bf16 "$Y1" i.npy '<i8' "$I1"
else
    echo "note: python3 has no ml_dtypes; the np.save(bfloat16) file test is skipped (the <V2 test above covers it)"
fi
for v in 2 3; do
    run_ok "npy version $v.0" "$M" openvino $OV1 xv$v.npy y.npy i.npy &&
        check "npy version $v.0" y.npy '<f4' "$Y1" i.npy '<i8' "$I1"
done
# Without --dtype the same file is uint16: the bit patterns compare as integers.
run_ok "u16 bits" "$M" openvino $OV1 xbu.npy y.npy

# ---- layout, threads, isa ---------------------------------------------------
run_ok "nhwc ex4" "$M" openvino --layout nhwc --kernel 2,2 --strides 1,1 --auto_pad same_upper x4l.npy y.npy i.npy &&
    same "nhwc ex4 y" y.npy y4l.npy && same "nhwc ex4 indices" i.npy i4l.npy
for isa in scalar sse2 avx2 avx512 auto; do
    run_ok "isa $isa" "$M" onnx --isa $isa --threads 3 --kernel_shape 2,2 --auto_pad SAME_UPPER x4.npy y.npy i.npy &&
        check "isa $isa" y.npy '<f4' "$Y4" i.npy '<i8' "$I4"
done

# ---- shape ------------------------------------------------------------------
# Hand-computed from the spec formulas.
shape_is() {
    local name=$1 want=$2
    shift 2
    if run_ok "$name" "$M" shape "$@"; then
        if [ "$(cat "$T/out.txt")" = "$want" ]; then pass; else fail "$name: printed '$(cat "$T/out.txt")', want '$want'"; fi
    fi
}
# floor((224 + 2 - 3) / 2) + 1 = 112
shape_is "shape onnx" "1,3,112,112" onnx --kernel_shape 3,3 --strides 2,2 --pads 1,1,1,1 --input_shape 1,3,224,224
# ceil((224 + 2 - 3) / 2) + 1 = 113; the last window starts at 223 < 224 + 1: kept
shape_is "shape torch ceil" "1,3,113,113" torch --kernel_size 3 --stride 2 --padding 1 --ceil_mode 1 --input_shape 1,3,224,224
# same_upper: ceil(in / stride)
shape_is "shape openvino same_upper" "2,8,4,3" openvino --kernel 3,3 --strides 2,2 --auto_pad same_upper --input_shape 2,8,7,5
shape_is "shape openvino nhwc" "2,4,3,8" openvino --layout nhwc --kernel 3,3 --strides 2,2 --auto_pad same_upper --input_shape 2,7,5,8
shape_is "shape adaptive" "1,3,4,7,7" adaptive --output_size 4,7,7 --input_shape 1,3,8,14,9
# OpenVINO example 2: (7 - 3 + 1) / 1 = 5
shape_is "shape ov ex2" "1,1,5" openvino --kernel 3 --strides 1 --auto_pad valid --input_shape 1,1,7

# ---- demo, help, version -----------------------------------------------------
if run_ok "demo" "$M" demo; then
    if grep -q "All 14 examples match their expected values" "$T/out.txt" && [ "$(grep -c 'check: output and indices match' "$T/out.txt")" -eq 14 ]; then
        pass
    else
        fail "demo: summary line missing"
    fi
fi
run_ok "--help" "$M" --help && { if grep -q "usage:" "$T/out.txt"; then pass; else fail "--help: no usage"; fi; }
for sub in onnx openvino adaptive torch tf demo; do
    run_ok "$sub --help" "$M" $sub --help && { if grep -q "usage: maxpool $sub" "$T/out.txt"; then pass; else fail "$sub --help: no usage"; fi; }
done
run_ok "shape --help" "$M" shape onnx --help
run_ok "--version" "$M" --version

# ---- errors: one stderr line, non-zero exit, no output ----------------------
OVK="--kernel 2,2 --strides 1,1"
run_fail "no subcommand" "missing subcommand" "$M"; expect_rc "no subcommand" 2
run_fail "unknown subcommand" "unknown subcommand 'maxpol'" "$M" maxpol; expect_rc "unknown subcommand" 2
run_fail "unknown flag" "unknown option '--kernel_shape'" "$M" openvino --kernel_shape 2,2 xa.npy yF.npy iF.npy
expect_rc "unknown flag" 2
run_fail "single-dash flag" "unknown option '-k'" "$M" onnx -k 2,2 xa.npy yF.npy
run_fail "bad list element" "'2,x' is not a comma-separated list of integers" "$M" onnx --kernel_shape 2,x xa.npy yF.npy
expect_rc "bad list element" 2
run_fail "empty list element" "is not a comma-separated list" "$M" onnx --kernel_shape 2,,2 xa.npy yF.npy
run_fail "non-integer scalar" "--ceil_mode: 'yes' is not an integer" "$M" onnx --kernel_shape 2,2 --ceil_mode yes xa.npy yF.npy
run_fail "int out of range" "--opset: 99999999999 is out of range" "$M" onnx --opset 99999999999 --kernel_shape 2,2 xa.npy yF.npy
run_fail "int64 overflow" "does not fit in int64" "$M" onnx --kernel_shape 2,99999999999999999999 xa.npy yF.npy
run_fail "too many values" "more than 8 values" "$M" onnx --kernel_shape 1,1,1,1,1,1,1,1,1 xa.npy yF.npy
run_fail "missing value" "--kernel_shape needs a value" "$M" onnx xa.npy yF.npy --kernel_shape
run_fail "duplicate flag" "--strides given more than once" "$M" onnx --kernel_shape 2,2 --strides 1,1 --strides 2,2 xa.npy yF.npy
run_fail "bad choice" "--nan: 'sometimes' is not one of: propagate, ignore" "$M" torch --kernel_size 2 --nan sometimes xa.npy yF.npy
run_fail "bad isa" "--isa: 'sse9'" "$M" torch --kernel_size 2 --isa sse9 xa.npy yF.npy
run_fail "negative threads" "--threads" "$M" torch --kernel_size 2 --threads -2 xa.npy yF.npy
run_fail "missing files" "missing the input and output files" "$M" onnx --kernel_shape 2,2
expect_rc "missing files" 2
run_fail "missing output file" "missing the output file" "$M" onnx --kernel_shape 2,2 xa.npy
run_fail "too many files" "unexpected argument 'extra.npy'" "$M" onnx --kernel_shape 2,2 xa.npy yF.npy iF.npy extra.npy
run_fail "same Y and Indices" "name the same file" "$M" onnx --kernel_shape 2,2 xa.npy yF.npy yF.npy
expect_rc "same Y and Indices" 3
run_fail "shape without input_shape" "missing --input_shape" "$M" shape onnx --kernel_shape 2,2
run_fail "shape unknown spec" "unknown spec 'caffe'" "$M" shape caffe --kernel_shape 2,2
run_fail "demo with arguments" "demo takes no arguments" "$M" demo --fast
# Rejected by the front-end: the library's message, naming the attribute.
run_fail "onnx kernel 0" "kernel_shape" "$M" onnx --kernel_shape 2,0 xa.npy yF.npy iF.npy; expect_rc "onnx kernel 0" 1
run_fail "onnx no kernel" "kernel_shape" "$M" onnx xa.npy yF.npy
run_fail "onnx pads count" "pads" "$M" onnx --kernel_shape 2,2 --pads 1,1 xa.npy yF.npy
run_fail "onnx ceil_mode 2" "ceil_mode" "$M" onnx --kernel_shape 2,2 --ceil_mode 2 xa.npy yF.npy
run_fail "onnx auto_pad lower case" "auto_pad" "$M" onnx --kernel_shape 2,2 --auto_pad same_upper xa.npy yF.npy
run_fail "onnx opset 1 indices" "opset" "$M" onnx --opset 1 --kernel_shape 2,2 xa.npy yF.npy iF.npy
run_fail "onnx opset 8 dilations" "dilations" "$M" onnx --opset 8 --kernel_shape 2,2 --dilations 2,2 xa.npy yF.npy
run_fail "onnx opset 11 int8" "i8" "$M" onnx --opset 11 --kernel_shape 2,2 xi8.npy yF.npy
run_fail "ov rounding_type" "rounding_type" "$M" openvino $OVK --rounding_type round xa.npy yF.npy
run_fail "ov ceil_torch in v8" "ceil_torch" "$M" openvino --version 8 $OVK --rounding_type ceil_torch xa.npy yF.npy
run_fail "ov index type" "index_element_type" "$M" openvino $OVK --index_element_type i16 xa.npy yF.npy iF.npy
run_fail "ov axis" "axis" "$M" openvino $OVK --axis 9 xa.npy yF.npy iF.npy
run_fail "ov v1 indices" "MaxPool-1" "$M" openvino --version 1 $OVK xa.npy yF.npy iF.npy
run_fail "torch padding too big" "padding" "$M" torch --kernel_size 2 --padding 2 xa.npy yF.npy
run_fail "adaptive output_size 0" "output_size" "$M" adaptive --output_size 0,2 xa.npy yF.npy
run_fail "adaptive output_size count" "output_size" "$M" adaptive --output_size 2,2,2 xa.npy yF.npy
run_fail "shape: front-end message" "kernel_shape" "$M" shape onnx --kernel_shape 0,2 --input_shape 1,1,4,4
run_fail "kernel larger than input" "" "$M" onnx --kernel_shape 5,5 xa.npy yF.npy iF.npy
run_fail "rank-1 input" "" "$M" onnx --kernel_shape 2 x1d.npy yF.npy
# File problems.
run_fail "fortran order" "Fortran-order arrays are not supported" "$M" onnx --kernel_shape 2,2 xf.npy yF.npy iF.npy
expect_rc "fortran order" 3
run_fail "big-endian" "big-endian data ('>f4') is not supported" "$M" onnx --kernel_shape 2,2 xbe.npy yF.npy
run_fail "unsupported u4" "unsupported dtype '<u4'" "$M" onnx --kernel_shape 2,2 xu4.npy yF.npy
run_fail "unsupported bool" "unsupported dtype '|b1'" "$M" torch --kernel_size 2 xb1.npy yF.npy
run_fail "unsupported complex" "unsupported dtype '<c8'" "$M" torch --kernel_size 2 xc8.npy yF.npy
run_fail "missing input file" "nothere.npy: cannot open" "$M" onnx --kernel_shape 2,2 nothere.npy yF.npy
expect_rc "missing input file" 3
head -c 100 xa.npy >xt.npy
run_fail "truncated file" "truncated" "$M" onnx --kernel_shape 2,2 xt.npy yF.npy
printf 'hello world, not numpy' >xz.npy
run_fail "not npy" "not a .npy file" "$M" onnx --kernel_shape 2,2 xz.npy yF.npy
run_fail "--dtype size" "--dtype bf16" "$M" onnx --dtype bf16 --kernel_shape 2,2 xa.npy yF.npy
run_fail "output dir missing" "nodir/yF.npy: cannot create" "$M" onnx --kernel_shape 2,2 xa.npy nodir/yF.npy
expect_rc "output dir missing" 3
# Y is fine but Indices cannot be written: neither file may appear.
run_fail "indices dir missing" "nodir/iF.npy: cannot create" "$M" onnx --kernel_shape 2,2 xa.npy yF.npy nodir/iF.npy
# Indices names a directory: found before anything is renamed, so no Y either.
mkdir -p idir.npy
run_fail "indices is a directory" "idir.npy: cannot write: is a directory" "$M" onnx --kernel_shape 2,2 xa.npy yF.npy idir.npy
rmdir idir.npy
# A failing run leaves an existing output untouched.
cp xa.npy keep.npy
"$M" onnx --kernel_shape 2,0 xb.npy keep.npy 2>/dev/null
if cmp -s xa.npy keep.npy; then pass; else fail "existing output changed by a failing run"; fi

# ---- outputs that are not regular files, outputs naming an input ------------
# Only a new name or a regular file is written (temporary file + rename); a
# symlink, FIFO, device or directory is refused and left as it was, and so is
# an output naming the input or the other output. Each case: exit 3, one
# stderr line, no output or temporary file, the special file still of its
# type, the input unchanged. timeout: a FIFO must never hang the tool.
cp xa.npy xin.npy
cp xb.npy tgt.npy
XSUM=$(cksum <xin.npy)
TSUM=$(cksum <tgt.npy)
K22="--kernel_shape 2,2"
# file_fail NAME SUBSTRING TEST-ARGS -- CMD...: run_fail + exit 3 + `test TEST-ARGS`
# still true afterwards + xin.npy and tgt.npy unchanged.
file_fail() {
    local name=$1 want=$2
    shift 2
    local t=()
    while [ "$1" != "--" ]; do t+=("$1"); shift; done
    shift
    run_fail "$name" "$want" timeout 10 "$@"
    expect_rc "$name" 3
    if test "${t[@]}"; then pass; else fail "$name: 'test ${t[*]}' no longer holds"; fi
    if [ "$(cksum <xin.npy)" = "$XSUM" ] && [ "$(cksum <tgt.npy)" = "$TSUM" ]; then pass; else
        fail "$name: the input or the symlink target changed"
    fi
}
ln -s tgt.npy lreg.npy
file_fail "Y is a symlink to a file" "lreg.npy: cannot write: is a symbolic link" -L lreg.npy -- \
    "$M" onnx $K22 xin.npy lreg.npy
if [ "$(readlink lreg.npy)" = tgt.npy ]; then pass; else fail "symlink to a file: now points to $(readlink lreg.npy)"; fi
file_fail "Indices is a symlink" "lreg.npy: cannot write: is a symbolic link" -L lreg.npy -- \
    "$M" onnx $K22 xin.npy yF.npy lreg.npy
ln -s xin.npy lin.npy
file_fail "Y is a symlink to the input" "lin.npy: cannot write: is a symbolic link" -L lin.npy -- \
    "$M" onnx $K22 xin.npy lin.npy
ln -s nothere.npy ldang.npy
file_fail "Y is a dangling symlink" "ldang.npy: cannot write: is a symbolic link" -L ldang.npy -- \
    "$M" onnx $K22 xin.npy ldang.npy
if [ ! -e nothere.npy ]; then pass; else fail "dangling symlink: its target was created"; fi
mkfifo fifo.npy
file_fail "Y is a FIFO" "fifo.npy: cannot write: is a FIFO" -p fifo.npy -- "$M" onnx $K22 xin.npy fifo.npy
file_fail "Indices is a FIFO" "fifo.npy: cannot write: is a FIFO" -p fifo.npy -- "$M" onnx $K22 xin.npy yF.npy fifo.npy
# Pipes are read (/dev/stdin); a FIFO with no writer is opened non-blocking, so
# it reads as empty at once instead of hanging.
file_fail "X is a FIFO without writer" "fifo.npy: truncated file" -p fifo.npy -- "$M" onnx $K22 fifo.npy yF.npy
run_ok "X is a pipe" sh -c 'cat xin.npy | "$0" onnx --kernel_shape 2,2 --pads 1,1,1,1 /dev/stdin y.npy' "$M" &&
    check "X is a pipe" y.npy '<f4' "$Y1"
# A pipe whose header claims 8 GB but sends 8 bytes: refused as truncated,
# with memory in proportion to what arrived (address space capped at 256 MiB:
# an up-front allocation of the claimed size would fail as out of memory)
python3 -c "
import struct, sys
h = b\"{'descr': '<f8', 'fortran_order': False, 'shape': (1000000000,), }\"
h += b' ' * (118 - len(h)) + b'\\n'
sys.stdout.buffer.write(b'\\x93NUMPY\\x01\\x00' + struct.pack('<H', len(h)) + h + bytes(8))" >huge_claim.npy
# (The address-space cap needs a program that starts within it: not under
# AddressSanitizer, whose shadow memory is reserved up front, nor qemu-user,
# whose start-up reservation fits under the cap on some runs and not others:
# ctest sets MAXPOOL_CLI_EMULATED for an emulated program.)
if [ -z "${MAXPOOL_CLI_EMULATED:-}" ] && sh -c 'ulimit -v 262144; "$0" shape onnx --kernel_shape 1 --input_shape 1,1,1' "$M" >/dev/null 2>&1; then
    VLIMIT="ulimit -v 262144;"
else
    VLIMIT=""
    echo "note: $M does not start within 256 MiB of address space (sanitizer or emulator): memory caps not applied"
fi
run_fail "pipe claims 8 GB" "truncated file: shape (1000000000,) of <f8 needs 8000000000 data bytes, 8 present" \
    sh -c "$VLIMIT"' cat huge_claim.npy | "$0" onnx --kernel_shape 1 /dev/stdin yF.npy' "$M"
expect_rc "pipe claims 8 GB" 3
mkdir -p adir.npy
file_fail "Y is a directory" "adir.npy: cannot write: is a directory" -d adir.npy -- "$M" onnx $K22 xin.npy adir.npy
file_fail "X is a directory" "adir.npy: cannot read: is a directory" -d adir.npy -- "$M" onnx $K22 adir.npy yF.npy
# A /dev/null of our own (the real one is never used): needs root for mknod.
if mknod "$T/null" c 1 3 2>/dev/null; then
    file_fail "Y is a character device" "null: cannot write: is a character device" -c "$T/null" -- \
        "$M" onnx $K22 xin.npy "$T/null"
    file_fail "X is a character device" "null: cannot read: is a character device" -c "$T/null" -- \
        "$M" onnx $K22 "$T/null" yF.npy
    if [ "$(stat -c %t,%T "$T/null")" = "1,3" ]; then pass; else fail "character device: numbers changed"; fi
else
    echo "note: mknod not permitted (not root?); the character-device output test is skipped"
fi
# Output = input: the same path, another spelling, a hard link, a symlinked directory.
file_fail "Y is the input" "Y 'xin.npy' names the same file as the input 'xin.npy'" -f xin.npy -- \
    "$M" onnx $K22 xin.npy xin.npy
file_fail "Indices is the input" "Indices './xin.npy' names the same file as the input" -f xin.npy -- \
    "$M" onnx $K22 xin.npy yF.npy ./xin.npy
ln xin.npy hard.npy
file_fail "Y is the input via a hard link" "Y 'hard.npy' names the same file as the input" -f hard.npy -- \
    "$M" onnx $K22 xin.npy hard.npy
ln -s . ldir
file_fail "Y is the input via a symlinked directory" "Y 'ldir/xin.npy' names the same file as the input" -L ldir -- \
    "$M" onnx $K22 xin.npy ldir/xin.npy
file_fail "X via a symlinked directory is Y" "Y 'xin.npy' names the same file as the input 'ldir/xin.npy'" -L ldir -- \
    "$M" onnx $K22 ldir/xin.npy xin.npy
# Two outputs naming one file: new (same path, spelled differently, through
# a symlinked directory) or existing (hard links of each other).
file_fail "Y = Indices, ./ spelling" "Y 'yF.npy' and Indices './yF.npy' name the same file" -f xin.npy -- \
    "$M" onnx $K22 xin.npy yF.npy ./yF.npy
file_fail "Y = Indices via a symlinked directory" "Y 'yF.npy' and Indices 'ldir/yF.npy' name the same file" -L ldir -- \
    "$M" onnx $K22 xin.npy yF.npy ldir/yF.npy
cp xb.npy o1.npy && ln o1.npy o2.npy
O1SUM=$(cksum <o1.npy)
file_fail "Y = Indices via a hard link" "Y 'o1.npy' and Indices 'o2.npy' name the same file" -f o2.npy -- \
    "$M" onnx $K22 xin.npy o1.npy o2.npy
if [ "$(cksum <o1.npy)" = "$O1SUM" ]; then pass; else fail "hard-linked outputs: content changed"; fi
# Not refused: a regular file (with another name) is replaced, the other name keeps the old content.
run_ok "Y is a regular file with a hard link" "$M" onnx --kernel_shape 2,2 --pads 1,1,1,1 xin.npy o1.npy &&
    check "Y is a regular file with a hard link" o1.npy '<f4' "$Y1" && same "hard link keeps the old file" o2.npy xb.npy
# Reading through a symlink is fine.
run_ok "X is a symlink" "$M" onnx --kernel_shape 2,2 --pads 1,1,1,1 lin.npy y.npy && check "X is a symlink" y.npy '<f4' "$Y1"

# ---- shape asks for indices as the run does ---------------------------------
# OpenVINO i32 indices are flat over the tensor (axis 0): a 65536 x 65536
# plane has indices up to 2^32 - 1. shape --indices 1 rejects it with the
# run's message and exit code (the run is shown on an empty N = 0 tensor of
# that plane, which needs no data); i64 indices, or no indices, are accepted.
OVI="openvino --kernel 2,2 --strides 2,2"
run_fail "shape ov i32 overflow" "indices up to 4294967295 do not fit int32" \
    "$M" shape $OVI --index_element_type i32 --indices 1 --input_shape 1,1,65536,65536
expect_rc "shape ov i32 overflow" 1
run_fail "run ov i32 overflow" "do not fit int32" "$M" $OVI --index_element_type i32 xe.npy yF.npy iF.npy
run_err=$(cat "$T/err.txt") run_rc=$LAST_RC
run_fail "shape ov i32 overflow, N = 0" "do not fit int32" \
    "$M" shape $OVI --index_element_type i32 --indices 1 --input_shape 0,1,65536,65536
if [ "$(cat "$T/err.txt")" = "$run_err" ] && [ "$LAST_RC" -eq "$run_rc" ]; then pass; else
    fail "shape ov i32: '$(cat "$T/err.txt")' exit $LAST_RC, the run: '$run_err' exit $run_rc"
fi
shape_is "shape ov i64 indices" "1,1,32768,32768" $OVI --index_element_type i64 --indices 1 --input_shape 1,1,65536,65536
shape_is "shape ov i32 no indices" "1,1,32768,32768" $OVI --index_element_type i32 --input_shape 1,1,65536,65536
run_ok "run ov i64, N = 0" "$M" $OVI --index_element_type i64 xe.npy y.npy i.npy
# aclnn: int32 indices within each plane.
run_fail "shape aclnn i32 overflow" "do not fit int32" \
    "$M" shape adaptive --flavor aclnn --output_size 2,2,2 --indices 1 --input_shape 1,1,2048,1024,1025
expect_rc "shape aclnn i32 overflow" 1
shape_is "shape adaptive torch i64" "1,1,2,2,2" adaptive --output_size 2,2,2 --indices 1 --input_shape 1,1,2048,1024,1025
# A version without indices: shape --indices 1 fails as the run does.
run_fail "run ov v1 indices" "MaxPool-1" "$M" openvino --version 1 $OVK xa.npy yF.npy iF.npy
run_err=$(cat "$T/err.txt") run_rc=$LAST_RC
run_fail "shape ov v1 indices" "MaxPool-1" "$M" shape openvino --version 1 $OVK --indices 1 --input_shape 1,1,3,3
if [ "$(cat "$T/err.txt")" = "$run_err" ] && [ "$LAST_RC" -eq "$run_rc" ]; then pass; else
    fail "shape ov v1 indices: '$(cat "$T/err.txt")' exit $LAST_RC, the run: '$run_err' exit $run_rc"
fi
# storage_order and --nan are taken as the run takes them.
shape_is "shape onnx storage_order" "1,1,4,4" onnx --opset 8 --kernel_shape 2,2 --pads 1,1,1,1 --storage_order 1 \
    --indices 1 --nan propagate --input_shape 1,1,3,3
run_fail "shape --indices 2" "--indices: '2' is not one of: 0, 1" "$M" shape onnx --kernel_shape 2,2 --indices 2 \
    --input_shape 1,1,4,4
expect_rc "shape --indices 2" 2
# A rank the front-end refuses: the same message for shape and run, not a CLI syntax error.
run_fail "run rank 11" "input_rank=11" "$M" onnx --kernel_shape 2,2 x11.npy yF.npy
run_err=$(cat "$T/err.txt") run_rc=$LAST_RC
run_fail "shape rank 11" "input_rank=11" "$M" shape onnx --kernel_shape 2,2 --input_shape 1,1,1,1,1,1,1,1,1,1,1
if [ "$(cat "$T/err.txt")" = "$run_err" ] && [ "$LAST_RC" -eq "$run_rc" ]; then pass; else
    fail "shape rank 11: '$(cat "$T/err.txt")' exit $LAST_RC, the run: '$run_err' exit $run_rc"
fi

# ---- hostile attributes (issue 16, items 1-5), through the CLI -------------
# Expected values from the definition: the taps o*s - pb + j*d inside the
# input, the first maximum; ONNX (ONNX Runtime): empty windows give the
# type's lowest and index -1; PyTorch: -inf and the first tap at or after 0
# (item 5: taps -1 and 2^32 - 1 on a 1-element input).
cat >hostile.py <<'EOF2'
import json, sys
import numpy as np
def pool(x, k, s, d, pb, out, empty_value):
    # channels-first, fixed windows, flat indices over the whole tensor; empty windows: (empty_value, -1)
    sp = x.shape[2:]; r = len(sp)
    y = np.full(x.shape[:2] + tuple(out), empty_value, np.float32); ind = np.full(y.shape, -1, np.int64)
    for n, c in np.ndindex(*x.shape[:2]):
        for o in np.ndindex(*out):
            best = None; bi = -1
            for j in np.ndindex(*k):
                u = tuple(o[i] * s[i] - pb[i] + j[i] * d[i] for i in range(r))
                if all(0 <= u[i] < sp[i] for i in range(r)) and (best is None or x[(n, c) + u] > best):
                    best = x[(n, c) + u]; bi = (n * x.shape[1] + c) * int(np.prod(sp)) + int(np.ravel_multi_index(u, sp))
            if best is not None:
                y[(n, c) + o] = best; ind[(n, c) + o] = bi
    return y, ind
case = sys.argv[1]
if case == 'in1':
    np.save('h1.npy', np.array([[[7]]], np.float32))
elif case == 'in2':
    np.save('h2.npy', (np.arange(72).reshape(1, 2, 6, 6) * 37 % 19 - 9).astype(np.float32))
elif case == 'want1':
    y, i = pool(np.load('h1.npy'), [1], [1], [1], [3000], [3001], -np.finfo(np.float32).max)
elif case == 'want2':
    x = np.load('h2.npy'); out = [(6 + 4 - 3) // 2 + 1, (6 + 2 + 16384 - 3) // 2 + 1]
    y, i = pool(x, [2, 2], [2, 2], [2, 2], [2, 2], out, -np.finfo(np.float32).max)
if case.startswith('want'):
    json.dump(y.tolist(), open(case + '.y.json', 'w')); json.dump(i.tolist(), open(case + '.i.json', 'w'))
EOF2
python3 hostile.py in1 && python3 hostile.py in2 && python3 hostile.py want1 && python3 hostile.py want2
# 1. onnx kernel_shape 1, pads 3000,0 on 1x1x1 (was a stack overflow in the row kernel)
run_ok "item 1: onnx k1 pads 3000,0" "$M" onnx --kernel_shape 1 --pads 3000,0 h1.npy hy1.npy hi1.npy &&
    check "item 1: onnx k1 pads 3000,0" hy1.npy '<f4' "$(cat want1.y.json)" hi1.npy '<i8' "$(cat want1.i.json)"
# 2. onnx k2,2 s2,2 d2,2 pads 2,2,2,16384 on 1x2x6x6 (was a stack overflow in the lines-first kernel)
run_ok "item 2: onnx k2 s2 d2 pads 2,2,2,16384" "$M" onnx --kernel_shape 2,2 --strides 2,2 --dilations 2,2 \
    --pads 2,2,2,16384 h2.npy hy2.npy hi2.npy &&
    check "item 2: onnx k2 s2 d2 pads 2,2,2,16384" hy2.npy '<f4' "$(cat want2.y.json)" hi2.npy '<i8' "$(cat want2.i.json)"
# 3. dilation 2^40 on 1x1x1 (shape inference scanned 2^40 windows): the shape at once
shape_is "item 3: dilation 2^40" "1,1,1099511627777" onnx --kernel_shape 2 --dilations 1099511627776 \
    --pads 1099511627776,1099511627776 --input_shape 1,1,1
# 4. pads 2^29 with N = 0 (the plan filled 16 bytes per output position per axis): within 256 MiB of address space
python3 -c "import numpy as np; np.save('h4.npy', np.zeros((0, 1, 1, 1), np.float32))"
run_ok "item 4: pads 2^29, N = 0" sh -c "$VLIMIT"' "$0" onnx --kernel_shape 1,1 \
    --pads 536870912,536870912,536870912,536870912 h4.npy hy4.npy' "$M" &&
    if python3 -c "import numpy as np, sys; sys.exit(np.load('hy4.npy').shape != (0, 1, 1073741825, 1073741825))"; then
        pass; else fail "item 4: output shape"; fi
# 5. torch k2, stride 2^33, dilation 2^32, pad 1, ceil: the first tap 2^32 - 1 as int64 (was truncated to -1)
run_ok "item 5: torch k2 s2^33 d2^32" "$M" torch --kernel_size 2 --stride 8589934592 --dilation 4294967296 \
    --padding 1 --ceil_mode 1 h1.npy hy5.npy hi5.npy &&
    check "item 5: torch k2 s2^33 d2^32" hy5.npy '<f4' '[[[-Infinity]]]' hi5.npy '<i8' '[[[4294967295]]]'


# ---- issue 17 item 5: tf subcommand, adaptive --flavor, unbatched torch/adaptive, OpenVINO axis / kernel fits ----
# Expected values from the real systems, recorded: tensorflow-cpu 2.21 (tf.nn.max_pool_with_argmax),
# PyTorch 2.x from Debian (torch.nn.functional, unbatched inputs), openvino 2026.4 (MaxPool-8/14).
py save xt.npy '<f4' '[[[[3,9],[1,4],[7,2]],[[8,6],[NaN,5],[11,10]]],[[[15,13],[12,14],[17,16]],[[19,18],[23,21],[20,22]]]]'
TFY='[[[[8,9],[11,10],[11,10]],[[8,6],[NaN,10],[11,10]]],[[[23,21],[23,22],[20,22]],[[23,21],[23,22],[20,22]]]]'
run_ok "tf SAME k2 s1 int32 batch" "$M" tf --ksize 2 --strides 1 --padding SAME --output_dtype int32 \
    --include_batch_in_index 1 xt.npy y.npy i.npy &&
    check "tf SAME k2 s1 int32 batch" y.npy '<f4' "$TFY" i.npy '<i4' \
        '[[[[6,1],[10,11],[10,11]],[[6,7],[8,11],[10,11]]],[[[20,21],[20,23],[22,23]],[[20,21],[20,23],[22,23]]]]'
run_ok "tf 4-value ksize, int64" "$M" tf --ksize 1,2,2,1 --strides 1,1,1,1 --padding SAME --isa scalar xt.npy y.npy i.npy &&
    check "tf 4-value ksize, int64" y.npy '<f4' "$TFY" i.npy '<i8' \
        '[[[[6,1],[10,11],[10,11]],[[6,7],[8,11],[10,11]]],[[[8,9],[8,11],[10,11]],[[8,9],[8,11],[10,11]]]]'
run_ok "tf no argmax" "$M" tf --ksize 2 --strides 1 --padding SAME xt.npy y.npy && check "tf no argmax" y.npy '<f4' "$TFY"
shape_is "shape tf VALID" "2,2,2,3" tf --ksize 1,2,2,1 --strides 2 --padding VALID --input_shape 2,5,5,3
shape_is "shape tf SAME" "2,3,3,3" tf --ksize 3 --strides 2 --padding SAME --input_shape 2,5,5,3
run_fail "tf padding same" 'padding="same" must be "SAME" or "VALID"' "$M" tf --ksize 2 --strides 1 --padding same xt.npy yF.npy
expect_rc "tf padding same" 1
run_fail "tf batch ksize" "pooling on the batch dimension" "$M" tf --ksize 2,2,2,1 --strides 1 --padding SAME xt.npy yF.npy
run_fail "tf rank 3" "takes only rank 4" "$M" tf --ksize 2 --strides 1 --padding SAME x9.npy yF.npy
run_fail "tf layout nchw" "NHWC input only" "$M" tf --layout nchw --ksize 2 --strides 1 --padding SAME xt.npy yF.npy
expect_rc "tf layout nchw" 2
python3 -c "import numpy as np; np.save('xte.npy', np.zeros((1, 0, 3, 1), np.float32))"
run_fail "tf empty input" "tensor_in must not be empty" "$M" tf --ksize 2 --strides 1 --padding SAME xte.npy yF.npy
# adaptive: the flavor is never inferred from --index_element_type
run_fail "adaptive index type without flavor" "needs an explicit --flavor" "$M" adaptive --output_size 4,7 \
    --index_element_type i32 xr2.npy yF.npy iF.npy
expect_rc "adaptive index type without flavor" 2
run_fail "adaptive torch i32" 'index_element_type="i32"' "$M" adaptive --flavor torch --index_element_type i32 \
    --output_size 4,7 xr2.npy yF.npy iF.npy
expect_rc "adaptive torch i32" 1
run_fail "adaptive openvino --dims" "goes with --flavor torch only" "$M" adaptive --flavor openvino --dims 2 \
    --output_size 2,3 xr2.npy yF.npy
# unbatched (C, D...) inputs, as PyTorch takes them
py save xu.npy '<f4' "$(python3 -c "
import json; v = [float(i) for i in range(60)]; v[1*30 + 2*6 + 3] = float('nan')
print(json.dumps([[v[c*30 + h*6:c*30 + h*6 + 6] for h in range(5)] for c in range(2)]).replace('NaN', 'NaN'))")"
py save xu1.npy '<f4' '[[3,1,4,1],[5,9,2,6],[5,3,5,8]]'
run_ok "torch unbatched 2-D" "$M" torch --kernel_size 2 --dims 2 xu.npy y.npy i.npy &&
    check "torch unbatched 2-D" y.npy '<f4' '[[[7,9,11],[19,21,23]],[[37,39,41],[49,NaN,53]]]' \
        i.npy '<i8' '[[[7,9,11],[19,21,23]],[[7,9,11],[19,15,23]]]'
run_ok "torch unbatched 1-D" "$M" torch --kernel_size 2 --dims 1 xu1.npy y.npy i.npy &&
    check "torch unbatched 1-D" y.npy '<f4' '[[3,4],[9,6],[5,8]]' i.npy '<i8' '[[0,2],[1,3],[0,3]]'
run_ok "torch --dims batched" "$M" torch --kernel_size 2 --dims 1 xu.npy y.npy &&
    if python3 -c "import numpy as np, sys; sys.exit(np.load('y.npy').shape != (2, 5, 3))"; then pass; else
        fail "torch --dims batched: shape"; fi
run_ok "adaptive unbatched 2-D" "$M" adaptive --output_size 2,3 --dims 2 xu.npy y.npy i.npy &&
    check "adaptive unbatched 2-D" y.npy '<f4' '[[[13,15,17],[25,27,29]],[[43,NaN,47],[55,NaN,59]]]' \
        i.npy '<i8' '[[[13,15,17],[25,27,29]],[[13,15,17],[25,15,29]]]'
run_ok "adaptive unbatched 1-D" "$M" adaptive --flavor torch --output_size 3 --dims 1 xu1.npy y.npy i.npy &&
    check "adaptive unbatched 1-D" y.npy '<f4' '[[3,4,4],[9,9,6],[5,5,8]]' i.npy '<i8' '[[0,2,2],[1,1,3],[0,2,3]]'
shape_is "shape torch unbatched" "3,4,4" torch --kernel_size 2 --dims 2 --input_shape 3,8,8
run_fail "torch --dims 3 on 3-D" "--dims 3 takes a 4-D (unbatched C, D...) or 5-D" "$M" torch --kernel_size 2 --dims 3 \
    xu.npy yF.npy
run_fail "torch --dims 4" "--dims 4 must be 1, 2 or 3" "$M" torch --kernel_size 2 --dims 4 xu.npy yF.npy
expect_rc "torch --dims 4" 2
# OpenVINO axis on a spatial dimension (openvino 2026.4, MaxPool-8, core reference)
py save xa3.npy '<f4' '[[[[3,9,1,4],[7,2,8,6],[0,5,11,10]],[[15,13,12,14],[17,16,19,18],[23,21,20,22]]]]'
for ax in 3 -1; do
    run_ok "ov axis $ax" "$M" openvino --version 8 --kernel 2,2 --strides 1,1 --pads_begin 1,0 --pads_end 0,1 \
        --index_element_type i32 --axis $ax xa3.npy y.npy i.npy &&
        check "ov axis $ax" y.npy '<f4' '[[[[9,9,4,4],[9,9,8,6],[7,11,11,10]],[[15,13,14,14],[17,19,19,18],[23,21,22,22]]]]' \
            i.npy '<i4' '[[[[1,1,3,3],[1,1,2,3],[0,2,2,3]],[[0,1,3,3],[0,2,2,3],[0,1,3,3]]]]'
done
# OpenVINO: a dilated kernel larger than the padded input is an error under every rounding_type
py save x57.npy '<f4' '[[[5,7]]]'
for rt in floor ceil ceil_torch; do
    run_fail "ov kernel fits $rt" "is larger than the padded input" "$M" openvino --kernel 3 --strides 2 \
        --rounding_type $rt x57.npy yF.npy
done
run_ok "ov kernel fits same_upper" "$M" openvino --kernel 3 --strides 2 --rounding_type ceil --auto_pad same_upper \
    x57.npy y.npy && check "ov kernel fits same_upper" y.npy '<f4' '[[[7]]]'

# ---- the deferred value checks ---------------------------------------------
if [ -s "$T/checks.tsv" ]; then
    res=$(python3 "$T/h.py" verify "$T/checks.tsv")
    ok_n=$(echo "$res" | awk '/^verified/ {print $2}')
    bad_n=$(echo "$res" | awk '/^verified/ {print $3}')
    if [ -z "$ok_n" ]; then
        fail "value checks did not run"
    else
        PASS=$((PASS + ok_n))
        FAIL=$((FAIL + bad_n))
    fi
fi

echo "test_cli: $PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
