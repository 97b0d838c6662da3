/* SPDX-License-Identifier: Apache-2.0 */
/* Internal: element types — sizes, names, start values, exact f16/bf16 widening. */
#ifndef MAXPOOL_DTYPE_H
#define MAXPOOL_DTYPE_H

#include "plan.h"

#include <stdint.h>
#include <string.h>

/* Exact IEEE binary16 -> binary32 (every f16 value, NaN payloads kept). */
static inline float maxpool_f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t man = h & 0x3ffu;
    uint32_t bits;
    if (exp == 0x1fu) {
        bits = sign | 0x7f800000u | (man << 13); /* inf / NaN */
    } else if (exp != 0) {
        bits = sign | ((exp + 112u) << 23) | (man << 13); /* normal: rebias 15 -> 127 */
    } else if (man == 0) {
        bits = sign; /* +-0 */
    } else {
        /* subnormal: normalise */
        uint32_t e = 113u;
        while (!(man & 0x400u)) {
            man <<= 1;
            --e;
        }
        bits = sign | (e << 23) | ((man & 0x3ffu) << 13);
    }
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

/* Exact bfloat16 -> binary32. */
static inline float maxpool_bf16_to_f32(uint16_t b)
{
    uint32_t bits = (uint32_t)b << 16;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

/* The start value of a window for dtype under the empty-value option. */
maxpool_scalar maxpool_start_value(maxpool_dtype dtype, maxpool_empty_value ev);

#endif
