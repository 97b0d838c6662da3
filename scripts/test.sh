#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The README's test command (make test): installs what the tests need and runs
# every test. Stages:
#   1. Debian packages (compiler, cmake) when missing
#   2. a virtualenv .venv with the Python test dependencies from PyPI
#   3. C library + CLI, Release build, every ctest
#   4. the ctest suite with lower ISAs forced (MAXPOOL_ISA), so every
#      kernel path is checked bit-exact against the scalar reference here
#  4b. a 32-bit x86 build (-m32, gcc-multilib) and its C tests (quick sweep)
#   5. the C tests under AddressSanitizer + UndefinedBehaviorSanitizer
#  5b. the libFuzzer targets (fuzz/run.sh: plan creation + run-and-compare,
#      the spec front-ends, the .npy reader), regressions replayed, then
#      MAXPOOL_TEST_FUZZ_SECONDS (default 60, 0 skips) of fuzzing per target
#  5c. the threaded C tests under ThreadSanitizer (clang, libomp + Archer)
#   6. the C tests on the AVX-512 emulation build (MAXPOOL_AVX512_EMULATE:
#      the AVX-512 kernels through SIMDe, so they are checked without
#      AVX-512 hardware; quick sweep)
#   7. AArch64 cross build (NEON kernels, cmake/aarch64-linux-gnu.cmake) and
#      its C tests under qemu-user (quick sweep, one case in 3 of the kernel
#      sweeps: MAXPOOL_TEST_SPARSE)
#   8. the Python package as a manylinux wheel (scripts/build_wheel.sh:
#      pip wheel, auditwheel repair, tested in a fresh venv with libgomp
#      hidden), installed into .venv, and every pytest (API, ONNX backend
#      node tests, differential conformance with PyTorch as an oracle from
#      Debian's python3-torch, docs/migration.md)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
JOBS=$(nproc 2>/dev/null || echo 2)
stage() { printf '\n==== %s (%ds)\n' "$*" "$SECONDS"; }

stage "1. system packages"
missing=()
command -v cmake >/dev/null || missing+=(cmake)
command -v cc >/dev/null || missing+=(gcc)
command -v make >/dev/null || missing+=(make)
command -v pkg-config >/dev/null || missing+=(pkg-config) # ctest test_install
command -v python3 >/dev/null || missing+=(python3 python3-venv python3-pip)
if [ ${#missing[@]} -gt 0 ]; then
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
cmake --version | head -1; cc --version | head -1; python3 --version

stage "2. python test dependencies (.venv)"
if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv || { SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo; $SUDO apt-get update -qq;
        DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq python3-venv >/dev/null; python3 -m venv .venv; }
fi
PY="$ROOT/.venv/bin/python"
"$PY" -m pip install -q --upgrade pip
"$PY" -m pip install -q -r tests/python/requirements.txt
export PATH="$ROOT/.venv/bin:$PATH" # the CLI test uses python3 + numpy

stage "3. C build (Release) and ctest"
cmake -S . -B build-test -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build-test -j"$JOBS" >/dev/null
(cd build-test && ctest --output-on-failure -j"$JOBS")

echo "-- benchmark smoke run (checks its outputs bit-exactly; timings are not asserted)"
./build-test/bench/maxpool_bench --quick --no-peers >/dev/null

stage "4. ctest with lower ISAs forced"
# test_kernels and test_kernels_types are left out here: they already create
# every case at each ISA ceiling below the CPU's (desc.max_isa), which is the
# ceiling MAXPOOL_ISA sets (maxpool_effective_isa takes the lower of the two),
# so under MAXPOOL_ISA they only ran their stage-3 cases again at the lowered
# ceilings (about 300 s of this stage, the reference kernel over and over)
for isa in scalar sse2; do
    echo "-- MAXPOOL_ISA=$isa"
    (cd build-test && MAXPOOL_ISA=$isa ctest --output-on-failure -j"$JOBS" -E '^test_kernels_')
done

stage "4b. 32-bit x86 build (-m32) and its C tests"
# size_t and pointers of 32 bits: the overflow checks and the kernels' index
# arithmetic on a target where they differ (x86-64 hosts only)
if [ "$(uname -m)" = x86_64 ]; then
    # The 32-bit libraries come from gcc-<version>-multilib, not from the
    # gcc-multilib metapackage: that one conflicts with the AArch64 cross
    # compiler of stage 7 (each would remove the other). What the metapackage
    # adds, the /usr/include/asm link to the x86-64 kernel headers (they
    # serve -m32 too), is given here as an -idirafter directory.
    ASMINC="$ROOT/build-x86-32-include"
    mkdir -p "$ASMINC"
    ln -sfn /usr/include/x86_64-linux-gnu/asm "$ASMINC/asm"
    probe32() {
        printf '#include <errno.h>\n#include <omp.h>\nint main(void) { return errno + omp_get_max_threads(); }\n' |
            cc -m32 -fopenmp -idirafter "$ASMINC" -x c - -o "$ASMINC/probe" >/dev/null 2>&1
    }
    if ! probe32; then
        SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
        $SUDO apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "gcc-$(cc -dumpversion | cut -d. -f1)-multilib" >/dev/null
    fi
    probe32 || { echo "no working cc -m32 (gcc-N-multilib)"; exit 1; }
    cmake -S . -B build-x86-32 -DCMAKE_BUILD_TYPE=Release "-DCMAKE_C_FLAGS=-m32 -idirafter $ASMINC" \
        -DMAXPOOL_BUILD_BENCH=OFF >/dev/null
    cmake --build build-x86-32 -j"$JOBS" >/dev/null
    # test_cli's hostile-shape cases expect 64-bit sizes (2^40 outputs plan, an 8 GB
    # .npy header reads as truncated): on 32 bits they are size errors instead
    (cd build-x86-32 && MAXPOOL_TEST_QUICK=1 ctest --output-on-failure -j"$JOBS" -E '^test_cli$')
else
    echo "-- skipped (not an x86-64 host)"
fi

stage "5. C tests under ASan + UBSan"
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DMAXPOOL_SANITIZE=ON -DMAXPOOL_BUILD_BENCH=OFF >/dev/null
cmake --build build-asan -j"$JOBS" >/dev/null
(cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 MAXPOOL_TEST_QUICK=1 \
    ctest --output-on-failure -j"$JOBS")

stage "5b. fuzz targets (bounded)"
# clang with libFuzzer, and libomp (the ThreadSanitizer stage's OpenMP runtime)
CLANG_TMP=$(mktemp -d)
clang_ok() {
    command -v clang >/dev/null || return 1
    printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' |
        clang -fsanitize=fuzzer,address -x c - -o "$CLANG_TMP/f" >/dev/null 2>&1 || return 1
    printf '#include <omp.h>\nint main(void) { return omp_get_max_threads() < 1; }\n' |
        clang -fopenmp -fsanitize=thread -x c - -o "$CLANG_TMP/o" >/dev/null 2>&1
}
if ! clang_ok; then
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq clang libclang-rt-dev libomp-dev >/dev/null 2>&1 ||
        DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq clang libclang-rt-14-dev libomp-14-dev >/dev/null
fi
rm -rf "$CLANG_TMP"
clang --version | head -1
FUZZ_SECONDS=${MAXPOOL_TEST_FUZZ_SECONDS:-60}
if [ "$FUZZ_SECONDS" -gt 0 ]; then
    bash fuzz/run.sh "$FUZZ_SECONDS"
else
    echo "-- skipped (MAXPOOL_TEST_FUZZ_SECONDS=0)"
fi

stage "5c. C tests under ThreadSanitizer (clang, libomp)"
# -O0: the kernels compile in seconds (minutes at -O1 with a sanitizer); the
# OpenMP runtime is clang's libomp, whose Archer tool (loaded by itself under
# TSan) tells TSan about OpenMP's synchronisation, so the num_threads > 1
# paths are checked too; ignore_noninstrumented_modules: libomp's own code
# is not instrumented.
cmake -S . -B build-tsan -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Debug \
    -DCMAKE_C_FLAGS="-fsanitize=thread -fno-omit-frame-pointer" \
    -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread -DCMAKE_SHARED_LINKER_FLAGS=-fsanitize=thread \
    -DMAXPOOL_OPENMP=ON -DMAXPOOL_BUILD_BENCH=OFF -DMAXPOOL_BUILD_TOOLS=OFF >/dev/null
cmake --build build-tsan -j"$JOBS" >/dev/null
if grep -q '^OpenMP_C_FLAGS:.*=.*fopenmp' build-tsan/CMakeCache.txt; then
    echo "-- OpenMP (libomp) on: the threaded runs are checked too"
else
    echo "-- OpenMP not found for clang: pthread concurrency only"
fi
# the tests that run plans from several threads or with num_threads > 1
# (test_kernels, ~3 min under TSan at -O0, is left to the other stages)
(cd build-tsan && TSAN_OPTIONS="halt_on_error=1 ignore_noninstrumented_modules=1 second_deadlock_stack=1" \
    MAXPOOL_TEST_QUICK=1 ctest --output-on-failure -j"$JOBS" \
    -R '^(test_threads|test_core_random|test_kernel_bounds|test_hostile|test_errors|test_shapes|test_frontends)$')

stage "6. C tests on the AVX-512 emulation build (SIMDe)"
if [ ! -f /usr/include/simde/x86/avx512.h ]; then
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq libsimde-dev >/dev/null
fi
cmake -S . -B build-avx512emu -DCMAKE_BUILD_TYPE=Release -DMAXPOOL_AVX512_EMULATE=ON -DMAXPOOL_BUILD_BENCH=OFF \
    -DMAXPOOL_BUILD_TOOLS=OFF >/dev/null
cmake --build build-avx512emu -j"$JOBS" >/dev/null
# the quick sweep (as ASan's): the full one took 254 s here, the quick one
# 59 s; on an AVX-512 host stage 3 runs the full sweep at the avx512 ceiling
(cd build-avx512emu && MAXPOOL_TEST_QUICK=1 MAXPOOL_TEST_REQUIRE_ISA=avx512 ctest --output-on-failure -j"$JOBS")

stage "7. AArch64 cross build (NEON) and C tests under qemu-user"
missing=()
command -v aarch64-linux-gnu-gcc >/dev/null || missing+=(gcc-aarch64-linux-gnu)
command -v qemu-aarch64 >/dev/null || missing+=(qemu-user)
if [ ${#missing[@]} -gt 0 ]; then
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
cmake -S . -B build-aarch64 -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake -DCMAKE_BUILD_TYPE=Release \
    -DMAXPOOL_BUILD_BENCH=OFF >/dev/null
cmake --build build-aarch64 -j"$JOBS" >/dev/null
# test_kernels checks the scalar and NEON ceilings itself; the CLI test runs
# the aarch64 program through a qemu wrapper (tests/c/CMakeLists.txt).
# MAXPOOL_TEST_SPARSE=3: the kernel sweeps check one case in 3 (big ones: 1
# in 9) of the quick sweep: under qemu a case runs 20-50 times slower, and
# the other types than f32 have only the reference kernel here (their sweep
# checks dispatch and the reference's task split); this ctest took 320 s of
# the stage's 348 with every case, 91 s of 114 with one in 3 (2026-11-27)
(cd build-aarch64 && MAXPOOL_TEST_QUICK=1 MAXPOOL_TEST_SPARSE=3 ctest --output-on-failure -j"$JOBS")

stage "8. Python package (manylinux wheel) and pytest"
# PyTorch, an oracle of tests/python/test_conformance_torch.py: Debian's
# python3-torch (CPU only; PyPI's wheel pulls in CUDA), run by /usr/bin/python3
# (tests/python/torch_oracle.py), as Debian builds it against its own numpy
if ! /usr/bin/python3 -c "import torch" >/dev/null 2>&1; then
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
    t0=$SECONDS
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends python3-torch >/dev/null
    echo "-- python3-torch installed in $((SECONDS - t0)) s"
fi
/usr/bin/python3 -c "import torch; print('PyTorch (oracle):', torch.__version__)"
# One build of the library: pip wheel (scikit-build-core builds it with CMake: in parallel, as
# the other stages), auditwheel repair (bundles libgomp), the wheel tested in a fresh venv with
# the system's libgomp and compilers hidden (scripts/test_wheel.sh); then installed here.
CMAKE_BUILD_PARALLEL_LEVEL="$JOBS" PY="$PY" bash scripts/build_wheel.sh --out build-wheel
"$PY" -m pip install -q --force-reinstall --no-deps build-wheel/maxpool-*manylinux*.whl
(cd tests/python && MAXPOOL_CLI="$ROOT/build-test/maxpool" "$PY" -m pytest -q -p no:cacheprovider)

stage "all tests passed"
