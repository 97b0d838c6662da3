#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Tests a repaired (manylinux) maxpool wheel; run by scripts/build_wheel.sh.
#
# Usage: scripts/test_wheel.sh REPAIRED.whl [UNREPAIRED.whl]
#   PY=python: the interpreter whose base makes the fresh virtual
#   environments and whose auditwheel gives the manylinux policies.
#
# 1. Static (any Linux): the wheel is tagged manylinux_2_N; every library
#    that libmaxpool.so and the libraries bundled with it (maxpool.libs/)
#    load is either bundled or in that policy's list of libraries every
#    manylinux system has; no symbol needs a glibc newer than 2.N; the
#    RUNPATH points into the wheel.
# 2. Dynamic (needs a private mount namespace: root, or user namespaces for
#    `unshare -rm`; skipped with a note otherwise): inside it, the system's
#    libgomp is removed from view (the library directory is replaced by a
#    copy of its listing without libgomp*, so the loader finds no file by
#    that name) and the compilers are replaced by /bin/false. There:
#    - a fresh virtual environment gets the repaired wheel (numpy from the
#      index or pip's cache, no build: the compilers fail if called), and
#      `import maxpool` runs a pooling with 2 threads (the bundled libgomp
#      loaded, as /proc/self/maps shows) and checks it against the values of
#      example 1 of the OpenVINO MaxPool-8 spec;
#    - with UNREPAIRED.whl: the same environment gets the wheel as `pip
#      wheel` makes it instead, and `import maxpool` must raise ImportError
#      naming libgomp.so.1 (the control: it proves libgomp really is hidden,
#      and tests the error users see).
#    What this proves: the wheel needs nothing from this system beyond the
#    manylinux baseline libraries (libc, libm, libpthread, ...), not libgomp
#    and not a compiler. What it does not: it runs on this glibc (2.36), not
#    on an older manylinux one; the glibc bound is checked statically above.
set -euo pipefail
WHEEL=$(readlink -f "$1")
RAW=${2:+$(readlink -f "$2")}
PY=${PY:-python3}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0
pass() { echo "   ok   $1"; }
fail() { echo "   FAIL $1"; fails=$((fails + 1)); }

echo "-- static checks of $(basename "$WHEEL")"
tag=$(basename "$WHEEL" .whl | grep -o 'manylinux_[0-9]*_[0-9]*_[a-z0-9]*\(_64\)\?' | head -1 || true)
if [ -z "$tag" ]; then
    fail "no manylinux_X_Y tag in the file name"
    tag=none
else
    pass "tagged $tag"
fi
glibc_minor=$(echo "$tag" | sed -n 's/manylinux_2_\([0-9]*\)_.*/\1/p')
policy=$(echo "$tag" | sed -n 's/^\(manylinux_[0-9]*_[0-9]*\)_.*/\1/p')
mkdir "$T/unz"
"$PY" -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' "$WHEEL" "$T/unz"
lib=$(find "$T/unz" -name 'libmaxpool*.so*' | head -1)
[ -n "$lib" ] && pass "the wheel holds ${lib#"$T"/unz/}" || fail "no libmaxpool in the wheel"
allowed=$("$PY" - "$policy" <<'EOF'
import json, os, sys
import auditwheel
p = json.load(open(os.path.join(os.path.dirname(auditwheel.__file__), "policy", "manylinux-policy.json")))
print(" ".join(next((q["lib_whitelist"] for q in p if q["name"] == sys.argv[1]), [])))
EOF
)
bundled=$(find "$T/unz" -path '*maxpool.libs/*' -name '*.so*' -printf '%f\n' | sort)
echo "      bundled: ${bundled:-none}"
for f in $lib $(find "$T/unz" -path '*maxpool.libs/*' -name '*.so*'); do
    for need in $(readelf -d "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
        if echo "$bundled" | grep -qx "$need"; then
            pass "$(basename "$f") needs $need: bundled"
        elif [ -n "$allowed" ] && echo " $allowed " | grep -q " $need "; then
            pass "$(basename "$f") needs $need: in the $policy baseline"
        else
            fail "$(basename "$f") needs $need: neither bundled nor in the $policy baseline"
        fi
    done
    newest=$(readelf -V --dyn-syms "$f" | grep -o 'GLIBC_2\.[0-9]*' | sed 's/GLIBC_2\.//' | sort -n | tail -1)
    if [ -n "$glibc_minor" ] && [ "${newest:-0}" -le "$glibc_minor" ]; then
        pass "$(basename "$f"): newest glibc symbol version 2.${newest:-0} <= 2.$glibc_minor"
    else
        fail "$(basename "$f"): needs glibc 2.${newest:-?}, tag says 2.${glibc_minor:-?}"
    fi
done
rp=$(readelf -d "$lib" | sed -n 's/.*\(RUNPATH\|RPATH\).*\[\(.*\)\]/\2/p')
if [ -n "$bundled" ]; then
    case "$rp" in *'$ORIGIN'*maxpool.libs*) pass "RUNPATH $rp" ;; *) fail "RUNPATH '$rp' does not point into the wheel" ;; esac
fi

echo "-- dynamic check: fresh virtual environment, system libgomp and compilers hidden"
BASE=$("$PY" -c 'import sys; print(getattr(sys, "_base_executable", sys.executable))')
libdirs=""
for d in /usr/lib/x86_64-linux-gnu /usr/lib/aarch64-linux-gnu /usr/lib64 /usr/lib /lib64; do
    # a glob, not ls | grep -q: under pipefail grep's early exit made ls die of SIGPIPE on a large
    # directory, and the check then believed there was no libgomp to hide (a flaky CI failure)
    [ -d "$d" ] && [ ! -L "$d" ] && compgen -G "$d/libgomp.so*" >/dev/null && libdirs="$libdirs $d"
done
compilers=""
for c in cc gcc c++ g++ clang clang++ x86_64-linux-gnu-gcc; do
    p=$(command -v "$c" 2>/dev/null) && compilers="$compilers $(readlink -f "$p")"
done
cat >"$T/check.py" <<'EOF'
import os, sys
import numpy as np
import maxpool

here = os.path.dirname(maxpool.__file__)
assert maxpool.library_path.startswith(here), maxpool.library_path
# OpenVINO MaxPool-8 spec, example 1 (pads 1/1; row 1 as OpenVINO and ONNX Runtime compute it), repeated over
# 64 channels so that a 2-thread run is large enough to start the OpenMP team (MAXPOOL_PARALLEL_MIN_BYTES=0)
x = np.array([[-1, 2, 3], [4, 5, -6], [-7, 8, 9]], np.float32)
x = np.broadcast_to(x, (1, 64, 3, 3)).copy()
y, i = maxpool.openvino.max_pool(x, kernel=[2, 2], strides=[1, 1], pads_begin=[1, 1], pads_end=[1, 1], axis=2,
                                 threads=2)
ey = np.array([[-1, 2, 3, 3], [4, 5, 5, 3], [4, 8, 9, 9], [-7, 8, 9, 9]], np.float32)
ei = np.array([[0, 1, 2, 2], [3, 4, 4, 2], [3, 7, 8, 8], [6, 7, 8, 8]], np.int64)
assert y.tobytes() == np.broadcast_to(ey, (1, 64, 4, 4)).tobytes(), y[0, 0]
assert i.tobytes() == np.broadcast_to(ei, (1, 64, 4, 4)).astype(i.dtype).tobytes(), i[0, 0]
maps = open("/proc/self/maps").read()
gomp = sorted({l.split()[-1] for l in maps.splitlines() if "libgomp" in l})
if os.environ["EXPECT_GOMP"] == "1":  # the wheel bundles libgomp: that copy, and only it, is loaded
    assert gomp and all("maxpool.libs" in g for g in gomp), gomp
else:  # a build without OpenMP (build_wheel.sh --no-openmp) loads none
    assert not gomp, gomp
print(f"maxpool {maxpool.__version__} from {maxpool.library_path}; OpenMP runtime {gomp[0] if gomp else 'none'}")
EOF
expect_gomp=0
echo "$bundled" | grep -q '^libgomp' && expect_gomp=1
# the control needs an unrepaired wheel that loads libgomp
if [ -n "$RAW" ] && [ "$expect_gomp" = 0 ]; then RAW=""; fi
cat >"$T/inner.sh" <<EOF
set -eu
# hide libgomp: each library directory replaced by symlinks to its entries but libgomp*
n=0
for d in $libdirs; do
    n=\$((n + 1)); mkdir -p "$T/orig\$n" "$T/shadow\$n"
    mount --bind "\$d" "$T/orig\$n"
    for e in "$T/orig\$n"/* "$T/orig\$n"/.[!.]*; do
        [ -e "\$e" ] || [ -L "\$e" ] || continue
        case "\$(basename "\$e")" in libgomp*) continue ;; esac
        ln -s "\$e" "$T/shadow\$n/\$(basename "\$e")"
    done
    mount --bind "$T/shadow\$n" "\$d"
done
for c in $compilers; do mount --bind /bin/false "\$c"; done
if "$BASE" -c 'import ctypes; ctypes.CDLL("libgomp.so.1")' 2>/dev/null; then echo "libgomp.so.1 still loadable"; exit 3; fi
if cc --version >/dev/null 2>&1; then echo "cc still works"; exit 3; fi
echo "   (in the namespace: libgomp.so.1 not loadable, cc fails)"
"$BASE" -m venv "$T/venv"
"$T/venv/bin/python" -m pip install -q --disable-pip-version-check "$WHEEL"
EXPECT_GOMP=$expect_gomp MAXPOOL_PARALLEL_MIN_BYTES=0 "$T/venv/bin/python" "$T/check.py"
if [ -n "$RAW" ]; then
    # the same environment (numpy is there already), the wheel replaced by the unrepaired one
    "$T/venv/bin/python" -m pip install -q --disable-pip-version-check --force-reinstall --no-deps "$RAW"
    "$T/venv/bin/python" -c '
try:
    import maxpool
except ImportError as e:
    assert "libgomp.so.1" in str(e), e
    print("   unrepaired wheel: ImportError:", e)
else:
    raise SystemExit("the unrepaired wheel imported with libgomp hidden")
'
fi
EOF
if [ "$(id -u)" -eq 0 ]; then UNSHARE=(unshare -m --propagation private); else UNSHARE=(unshare -rm --propagation private); fi
if [ -z "$libdirs" ]; then
    echo "   no system libgomp here: nothing to hide (the run below is as on a slim system)"
fi
if "${UNSHARE[@]}" true 2>/dev/null; then
    if "${UNSHARE[@]}" bash "$T/inner.sh" 2>&1 | sed 's/^/   /'; [ "${PIPESTATUS[0]}" -eq 0 ]; then
        pass "fresh venv, libgomp and compilers hidden: the repaired wheel installs, imports and pools (threads=2)"
        [ -n "$RAW" ] && pass "the unrepaired wheel gives an ImportError naming libgomp.so.1 there"
    else
        fail "the dynamic check"
    fi
else
    echo "   SKIP: no private mount namespace here (not root, no user namespaces): static checks only"
fi

if [ "$fails" -eq 0 ]; then echo "-- test_wheel: all checks passed"; else echo "-- test_wheel: $fails check(s) FAILED"; fi
[ "$fails" -eq 0 ]
