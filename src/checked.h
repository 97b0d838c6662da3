/* SPDX-License-Identifier: Apache-2.0 */
/* Internal: int64 arithmetic that is right for negative numerators and
 * reports overflow. Sizes never go through floating point. */
#ifndef MAXPOOL_CHECKED_H
#define MAXPOOL_CHECKED_H

#include <stdbool.h>
#include <stdint.h>

/* floor(a / b) for b > 0 and any sign of a. */
static inline int64_t maxpool_floordiv(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && a < 0) ? q - 1 : q;
}

/* ceil(a / b) for b > 0 and any sign of a. */
static inline int64_t maxpool_ceildiv(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && a > 0) ? q + 1 : q;
}

/* *r = a * b; false on overflow. */
static inline bool maxpool_mul(int64_t a, int64_t b, int64_t *r) { return !__builtin_mul_overflow(a, b, r); }
/* *r = a + b; false on overflow. */
static inline bool maxpool_add(int64_t a, int64_t b, int64_t *r) { return !__builtin_add_overflow(a, b, r); }

#endif
