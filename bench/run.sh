#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The `make bench` entry point: builds maxpool_bench (Release) in build-bench,
# runs it (with the oneDNN peer when libdnnl is installed), then the Python
# peers (ONNX Runtime, OpenVINO) when a Python that has them is found, and
# prints one merged table.
#
#   bench/run.sh [--quick] [--case NAME[,NAME]] [--threads N] [--markdown] [--no-python-peers]
#
# Environment:
#   BUILD_DIR     build directory (default: <repo>/build-bench)
#   BENCH_PYTHON  python with onnxruntime + openvino (default: the repository's .venv, which
#                 `make test` creates with both, if present; else python3)
#   JOBS          build parallelism (default 2)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build-bench}"
JOBS="${JOBS:-2}"

cmake -S "$ROOT" -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release -DMAXPOOL_BUILD_BENCH=ON >"$BUILD_DIR.configure.log" 2>&1 ||
    { cat "$BUILD_DIR.configure.log"; exit 1; }
grep -E "maxpool_bench:" "$BUILD_DIR.configure.log" || true
cmake --build "$BUILD_DIR" --target maxpool_bench -j"$JOBS" >"$BUILD_DIR.build.log" 2>&1 ||
    { tail -50 "$BUILD_DIR.build.log"; exit 1; }
BENCH="$BUILD_DIR/bench/maxpool_bench"

PY="${BENCH_PYTHON:-}"
if [ -z "$PY" ]; then
    if [ -x "$ROOT/.venv/bin/python" ]; then PY="$ROOT/.venv/bin/python"; else PY=python3; fi
fi
EXTRA=()
if ! "$PY" -c "import numpy, onnx, onnxruntime, openvino" >/dev/null 2>&1; then
    echo "note: $PY lacks numpy/onnx/onnxruntime/openvino: Python peers skipped (see BENCH_PYTHON in bench/run.sh)"
    EXTRA+=(--no-python-peers)
fi
RUNNER="$PY"
"$RUNNER" -c "import json" >/dev/null 2>&1 || RUNNER=python3

exec "$RUNNER" "$ROOT/bench/run_all.py" --bench "$BENCH" --python "$PY" --out "$BUILD_DIR/bench-results" \
    ${EXTRA[@]+"${EXTRA[@]}"} "$@"
