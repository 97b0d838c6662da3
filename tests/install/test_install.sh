#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Install and release hygiene (issue 17 item 7), run by ctest as test_install:
#   1. `cmake --install <build> --prefix P` into a temporary prefix, which is
#      then MOVED elsewhere: everything below uses the moved copy, so it
#      proves the install is relocatable (maxpool.pc is ${pcfiledir}-based,
#      the CMake package computes its prefix);
#   2. pkg-config: --cflags/--libs name the moved prefix, and
#      examples/c/plan_once_run_many.c compiled with them runs and matches
#      ONNX Runtime's outputs (its own checks);
#   3. find_package(maxpool): examples/c configured on its own with
#      CMAKE_PREFIX_PATH = the moved prefix, built, and its ctest run;
#   4. the version agrees everywhere: the header's MAXPOOL_VERSION_* (its one
#      source), CMake's PROJECT_VERSION, maxpool_version() of the installed
#      library, maxpool.pc, maxpoolConfigVersion.cmake, the SONAME, the
#      regex python/pyproject.toml reads it with, and CHANGELOG.md;
#   5. `make demo` builds the CLI target only: that target must pull in the
#      shared library, so `cmake --install` after it finds everything (checked
#      in the target graph of a scratch configure of the same source).
# Usage: test_install.sh BUILD_DIR SOURCE_DIR C_COMPILER "C_FLAGS" LIBDIR VERSION
# Exit 77 (ctest: skipped) when pkg-config is missing (scripts/test.sh installs it).
set -u
BUILD=$1 SRC=$2 CC_=$3 CFLAGS_=$4 LIBDIR=$5 VERSION=$6
command -v pkg-config >/dev/null || { echo "SKIP: pkg-config not installed"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0
pass() { echo "ok   $1"; }
fail() { echo "FAIL $1"; fails=$((fails + 1)); }

# ---- 1. install, then move the prefix
cmake --install "$BUILD" --prefix "$T/staging" >"$T/install.log" 2>&1 || { cat "$T/install.log"; echo "FAIL cmake --install"; exit 1; }
mv "$T/staging" "$T/moved"
P="$T/moved"
for f in include/maxpool.h "$LIBDIR/libmaxpool.so" "$LIBDIR/libmaxpool.a" "$LIBDIR/pkgconfig/maxpool.pc" \
    "$LIBDIR/cmake/maxpool/maxpoolConfig.cmake"; do
    if [ -e "$P/$f" ]; then pass "installed $f"; else fail "not installed: $f"; fi
done
if grep -q "$T/staging" "$P/$LIBDIR/pkgconfig/maxpool.pc" "$P/$LIBDIR"/cmake/maxpool/*.cmake; then
    fail "an installed file names the install prefix (not relocatable)"
else
    pass "no installed .pc/.cmake file names the install prefix"
fi

# ---- 2. pkg-config on the moved prefix
export PKG_CONFIG_PATH="$P/$LIBDIR/pkgconfig"
cflags=$(pkg-config --cflags maxpool) libs=$(pkg-config --libs maxpool)
echo "     pkg-config: $cflags $libs"
# the paths as pkg-config gives them (${pcfiledir}/../..-relative), resolved
incdir=$(pkg-config --cflags-only-I maxpool | sed 's/^ *-I//; s/ *$//')
libdir=$(pkg-config --libs-only-L maxpool | sed 's/^ *-L//; s/ *$//')
if [ "$(readlink -f "$incdir")" = "$(readlink -f "$P/include")" ]; then pass "pkg-config --cflags names the moved prefix"
else fail "pkg-config --cflags is '$cflags', not the moved $P/include"; fi
if [ "$(readlink -f "$libdir")" = "$(readlink -f "$P/$LIBDIR")" ]; then pass "pkg-config --libs names the moved prefix"
else fail "pkg-config --libs is '$libs', not the moved $P/$LIBDIR"; fi
# shellcheck disable=SC2086
if "$CC_" $CFLAGS_ "$SRC/examples/c/plan_once_run_many.c" $cflags $libs -Wl,-rpath,"$P/$LIBDIR" \
    -o "$T/example_pc" >"$T/cc.log" 2>&1; then
    if "$T/example_pc" >"$T/run_pc.log" 2>&1; then
        pass "example built with pkg-config flags runs and matches ONNX Runtime"
    else
        cat "$T/run_pc.log"; fail "example built with pkg-config flags"
    fi
else
    cat "$T/cc.log"; fail "compiling the example with pkg-config flags"
fi
if ldd "$T/example_pc" 2>/dev/null | grep -q "$P/$LIBDIR/libmaxpool.so"; then
    pass "the example loads the installed libmaxpool.so"
else
    fail "the example does not load $P/$LIBDIR/libmaxpool.so"
fi

# ---- 3. find_package(maxpool) on the moved prefix
if cmake -S "$SRC/examples/c" -B "$T/ex" -DCMAKE_PREFIX_PATH="$P" -DCMAKE_C_COMPILER="$CC_" \
    -DCMAKE_C_FLAGS="$CFLAGS_" -DCMAKE_BUILD_TYPE=Release >"$T/ex.log" 2>&1 &&
    cmake --build "$T/ex" >>"$T/ex.log" 2>&1 && (cd "$T/ex" && ctest --output-on-failure >>"$T/ex.log" 2>&1); then
    pass "find_package(maxpool): examples/c configured, built and run against the moved prefix"
else
    cat "$T/ex.log"; fail "find_package(maxpool) build of examples/c"
fi
grep -q "maxpool_DIR:PATH=$P/" "$T/ex/CMakeCache.txt" 2>/dev/null && pass "find_package found the moved prefix" ||
    fail "find_package did not use $P"

# ---- 4. one version everywhere
hdr=$(sed -n 's/^#define MAXPOOL_VERSION_\(MAJOR\|MINOR\|PATCH\) \+\([0-9]\+\)$/\2/p' "$SRC/include/maxpool.h" | paste -sd.)
echo "     header: $hdr"
check_v() { if [ "$2" = "$hdr" ]; then pass "version of $1 = $hdr"; else fail "version of $1 is '$2', header says $hdr"; fi; }
check_v "CMake PROJECT_VERSION" "$VERSION"
check_v "maxpool_version() (installed library)" "$(sed -n '1s/^maxpool \([^ ]*\) .*/\1/p' "$T/run_pc.log")"
check_v "maxpool.pc" "$(pkg-config --modversion maxpool)"
check_v "maxpoolConfigVersion.cmake" "$(sed -n 's/^set(PACKAGE_VERSION "\(.*\)")$/\1/p' "$P/$LIBDIR/cmake/maxpool/maxpoolConfigVersion.cmake")"
soname=$(readelf -d "$P/$LIBDIR/libmaxpool.so" | sed -n 's/.*SONAME.*\[libmaxpool\.so\.\([0-9]*\)\]/\1/p')
check_v "the SONAME's major (libmaxpool.so.$soname)" "$soname.${hdr#*.}"
if grep -q '^dynamic = \["version"\]' "$SRC/python/pyproject.toml" && ! grep -q '^version *=' "$SRC/python/pyproject.toml"; then
    pass "pyproject.toml has no version of its own (dynamic)"
else
    fail "pyproject.toml sets a version of its own"
fi
regex=$(sed -n "s/^regex = '\(.*\)'$/\1/p" "$SRC/python/pyproject.toml")
pyv=$(python3 -c 'import re, sys; m = re.search(sys.argv[1], open(sys.argv[2]).read(), re.M); print("{major}.{minor}.{patch}".format(**m.groupdict()))' \
    "$regex" "$SRC/include/maxpool.h" 2>&1)
check_v "python/pyproject.toml's regex on the header" "$pyv"
if grep -q "^## \[$hdr\]" "$SRC/CHANGELOG.md"; then pass "CHANGELOG.md has a [$hdr] section"; else fail "CHANGELOG.md has no [$hdr] section"; fi

# ---- 5. the CLI target (what `make demo` builds) pulls in the shared library
if cmake -S "$SRC" -B "$T/demo" -G "Unix Makefiles" -DCMAKE_C_COMPILER="$CC_" -DCMAKE_C_FLAGS="$CFLAGS_" \
    -DMAXPOOL_BUILD_TESTS=OFF -DMAXPOOL_BUILD_BENCH=OFF >"$T/demo.log" 2>&1; then
    # the dependency graph `make maxpool_cli` follows (nothing is compiled); the static library's
    # target, which does not need the shared one, is the control that the probe discriminates
    g="$T/demo/CMakeFiles/Makefile2"
    if grep -qx "CMakeFiles/maxpool_cli.dir/all: CMakeFiles/maxpool_shared.dir/all" "$g" &&
        ! grep -qx "CMakeFiles/maxpool_static.dir/all: CMakeFiles/maxpool_shared.dir/all" "$g"; then
        pass "building the CLI target (make demo) builds the shared library that cmake --install installs"
    else
        fail "the maxpool_cli target does not build libmaxpool.so: make demo then cmake --install would fail"
    fi
else
    cat "$T/demo.log"; fail "scratch configure for the make demo check"
fi

[ "$fails" -eq 0 ] && echo "test_install: all checks passed" || echo "test_install: $fails check(s) FAILED"
[ "$fails" -eq 0 ]
