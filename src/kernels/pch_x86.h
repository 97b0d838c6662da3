/* SPDX-License-Identifier: Apache-2.0 */
/* The system headers every x86 kernel file parses, precompiled once per ISA
 * group (CMakeLists.txt: maxpool_objects_<isa>, option MAXPOOL_PCH) instead
 * of once per file: <immintrin.h> alone took about 0.35 CPU-s a file, SIMDe
 * (the emulated AVX-512 test build) about 0.8 more. System headers only: the
 * project's own headers stay out, so a change to them rebuilds nothing more
 * than it did. The compiler force-includes this file first in each file of
 * the group; the files still include what they use. */
#ifndef MAXPOOL_PCH_X86_H
#define MAXPOOL_PCH_X86_H

#include <math.h>
#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef MAXPOOL_SIMDE
#define SIMDE_ENABLE_NATIVE_ALIASES
#include <simde/x86/avx512.h>
#endif
#include <immintrin.h>

#endif
