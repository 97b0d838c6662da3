#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Instruction count per maxpool_run (callgrind), a number that does not drift
# with machine load. Counts only inside maxpool_run (--toggle-collect), with a
# plan created once and run ITERS times.
#
#   bench/callgrind.sh [CASE] [ITERS]        (default: tiny_1x16x8_k2s2 1000)
#
# Environment: BUILD_DIR (default <repo>/build-bench, built by bench/run.sh),
#              MAXPOOL_ISA (lowers the kernel ISA, e.g. sse2 or scalar).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build-bench}"
CASE="${1:-tiny_1x16x8_k2s2}"
ITERS="${2:-1000}"
BENCH="$BUILD_DIR/bench/maxpool_bench"
command -v valgrind >/dev/null || { echo "valgrind not found (apt-get install valgrind)"; exit 1; }
if [ ! -x "$BENCH" ]; then
    cmake -S "$ROOT" -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build "$BUILD_DIR" --target maxpool_bench -j2 >/dev/null
fi
OUT="$(mktemp /tmp/maxpool-callgrind.XXXXXX)"
trap 'rm -f "$OUT"' EXIT
valgrind --tool=callgrind --toggle-collect=maxpool_run --callgrind-out-file="$OUT" \
    "$BENCH" --case "$CASE" --iters "$ITERS" 2>"$OUT.log" | grep -v '^==' || true
IR="$(grep -E '^(summary|totals):' "$OUT" | head -1 | awk '{print $2}')"
rm -f "$OUT.log"
echo "$CASE: $IR instructions in $ITERS calls = $((IR / ITERS)) instructions per maxpool_run"
