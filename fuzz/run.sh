#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the libFuzzer targets into build-fuzz/ (clang, ASan + UBSan) and runs
# each one: first every input in fuzz/regressions/<target>/, then
# [seconds-per-target] (default 60) of fuzzing from fuzz/corpus/<target>/.
# Exits non-zero on any finding: a crash, a sanitizer report, a failed
# harness check, a leak, an input over 10 s (-timeout), an allocation over
# 1 GiB (-malloc_limit_mb) or RSS over 2 GiB (-rss_limit_mb).
#
#   fuzz/run.sh [seconds-per-target]
#
# Environment:
#   FUZZ_TARGETS      targets to run (default: fuzz_plan fuzz_frontends fuzz_npy)
#   FUZZ_BUILD_DIR    build directory (default: build-fuzz)
#   FUZZ_KEEP_GOING=1 fork mode: keep fuzzing after a finding and collect every
#                     crash/timeout/oom input (triage; still exits non-zero)
#   FUZZ_NO_BUILD=1   use the binaries already in the build directory
#   CC                the compiler (default clang; must ship libFuzzer)
# New inputs found while fuzzing go to <build>/corpus/<target>/ (fuzz/corpus/
# stays as committed); crash inputs to <build>/artifacts/<target>/: copy one
# into fuzz/regressions/<target>/ to keep it replayed.
set -uo pipefail
cd "$(dirname "$0")/.."
SECS=${1:-60}
TARGETS=${FUZZ_TARGETS:-"fuzz_plan fuzz_frontends fuzz_npy"}
BUILD=${FUZZ_BUILD_DIR:-build-fuzz}
JOBS=$(nproc 2>/dev/null || echo 2)
LIMITS=(-rss_limit_mb=2048 -malloc_limit_mb=1024 -timeout=10)
# max_allocation_size_mb: one request over 1 GiB is an ASan report whether or
# not the memory could be had (the plan for a small input must never ask; on
# a big machine the request would succeed, on a small one fail quietly with
# an out-of-memory error); libFuzzer's -malloc_limit_mb says the same for
# allocations that succeed
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:max_allocation_size_mb=1024:allocator_may_return_null=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

if [ "${FUZZ_NO_BUILD:-0}" != 1 ]; then
    echo "-- building the fuzz targets in $BUILD"
    # -O0: the kernels are always_inline templates; with the sanitizers on, -O1
    # and above take clang 14 over ten minutes to compile them (fuzz/README.md)
    if ! cmake -S fuzz -B "$BUILD" -DCMAKE_C_COMPILER="${CC:-clang}" -DCMAKE_BUILD_TYPE=Debug >"$BUILD.log" 2>&1 ||
        ! cmake --build "$BUILD" -j"$JOBS" >>"$BUILD.log" 2>&1; then
        tail -40 "$BUILD.log"
        echo "fuzz: build failed (full log: $BUILD.log)"
        exit 2
    fi
fi

findings=()
summary=()
for t in $TARGETS; do
    bin="$BUILD/$t"
    if [ ! -x "$bin" ]; then
        echo "fuzz: no $bin"
        exit 2
    fi
    art="$BUILD/artifacts/$t"
    work="$BUILD/corpus/$t"
    mkdir -p "$art" "$work"

    # 1. the regression inputs, one process each (a crash stops a process)
    n_reg=0
    for f in fuzz/regressions/"$t"/*; do
        [ -f "$f" ] || continue
        n_reg=$((n_reg + 1))
        log="$art/regression-$(basename "$f").log"
        if "$bin" "${LIMITS[@]}" "$f" >"$log" 2>&1; then
            :
        else
            echo "!! $t: regression input $f fails:"
            grep -E 'ERROR|SUMMARY|FUZZ CHECK|runtime error|Timeout|out-of-memory' "$log" | head -5 | sed 's/^/     /'
            echo "     (full log: $log)"
            findings+=("$t: regression $f")
        fi
    done
    echo "-- $t: $n_reg regression inputs replayed"
done

# 2. fuzzing: up to JOBS targets at a time (a libFuzzer process is one
# thread: with 2 cores, three targets of 60 s take 120 s, not 180)
fuzz_one() {
    local t=$1 art="$BUILD/artifacts/$1" work="$BUILD/corpus/$1" log="$BUILD/$1.fuzz.log" start=$SECONDS rc
    local extra=()
    if [ "${FUZZ_KEEP_GOING:-0}" = 1 ]; then
        extra=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
    fi
    "$BUILD/$t" "${LIMITS[@]}" -max_total_time="$SECS" -print_final_stats=1 -artifact_prefix="$art/" "${extra[@]}" \
        "$work" "fuzz/corpus/$t" >"$log" 2>&1
    rc=$?
    echo "$rc $((SECONDS - start))" >"$BUILD/$t.fuzz.rc"
}
running=0
for t in $TARGETS; do
    echo "-- $t: fuzzing for ${SECS}s"
    rm -f "$BUILD/$t.fuzz.rc"
    fuzz_one "$t" &
    running=$((running + 1))
    if [ $running -ge "$JOBS" ]; then
        wait -n
        running=$((running - 1))
    fi
done
wait
for t in $TARGETS; do
    art="$BUILD/artifacts/$t"
    work="$BUILD/corpus/$t"
    log="$BUILD/$t.fuzz.log"
    read -r rc took <"$BUILD/$t.fuzz.rc" || { rc=2; took=0; }
    execs=$(grep -E '^stat::number_of_executed_units' "$log" | tail -1 | awk '{print $2}')
    if [ -z "$execs" ]; then # fork mode prints no final stats: the last status line
        execs=$(grep -oE '^#[0-9]+' "$log" | tail -1 | tr -d '#')
    fi
    rate=$(grep -E '^stat::average_exec_per_sec' "$log" | tail -1 | awk '{print $2}')
    cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -1)
    summary+=("$t: ${took}s, ${execs:-?} execs, ${rate:-?} exec/s, $cov, corpus $(ls "$work" | wc -l) files")
    if [ "$rc" -ne 0 ]; then
        echo "!! $t: finding (exit $rc):"
        grep -E 'ERROR|SUMMARY|FUZZ CHECK|runtime error|Timeout|out-of-memory|Test unit written' "$log" | head -8 |
            sed 's/^/     /'
        echo "     (full log: $log; inputs in $art/)"
        findings+=("$t: fuzzing (exit $rc)")
    fi
done

echo "-- fuzz summary"
for s in "${summary[@]}"; do echo "   $s"; done
if [ ${#findings[@]} -gt 0 ]; then
    echo "fuzz: ${#findings[@]} finding(s):"
    for f in "${findings[@]}"; do echo "   $f"; done
    exit 1
fi
echo "fuzz: no findings"
