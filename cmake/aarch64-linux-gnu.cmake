# SPDX-License-Identifier: Apache-2.0
# Cross build for AArch64 Linux (the NEON kernels) on an x86-64 host:
#   cmake -S . -B build-aarch64 -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake
# Needs the Debian/Ubuntu packages gcc-aarch64-linux-gnu and qemu-user; ctest
# then runs every test program under qemu-aarch64 (CMAKE_CROSSCOMPILING_EMULATOR)
# with the target's libraries from /usr/aarch64-linux-gnu.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(MAXPOOL_CROSS_PREFIX aarch64-linux-gnu- CACHE STRING "cross compiler prefix")
set(CMAKE_C_COMPILER ${MAXPOOL_CROSS_PREFIX}gcc)
set(MAXPOOL_CROSS_SYSROOT /usr/aarch64-linux-gnu CACHE PATH "target libraries for qemu -L")

find_program(MAXPOOL_QEMU_AARCH64 qemu-aarch64)
if(MAXPOOL_QEMU_AARCH64)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${MAXPOOL_QEMU_AARCH64} -L ${MAXPOOL_CROSS_SYSROOT})
endif()

set(CMAKE_FIND_ROOT_PATH ${MAXPOOL_CROSS_SYSROOT})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
