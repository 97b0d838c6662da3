/* SPDX-License-Identifier: Apache-2.0 */
#include "dtype.h"

#include <float.h>
#include <math.h>

size_t maxpool_dtype_size(maxpool_dtype dtype)
{
    switch (dtype) {
    case MAXPOOL_F32: return 4;
    case MAXPOOL_F64: return 8;
    case MAXPOOL_F16: return 2;
    case MAXPOOL_BF16: return 2;
    case MAXPOOL_I8: return 1;
    case MAXPOOL_U8: return 1;
    case MAXPOOL_I16: return 2;
    case MAXPOOL_U16: return 2;
    case MAXPOOL_I32: return 4;
    case MAXPOOL_I64: return 8;
    case MAXPOOL_DTYPE_COUNT: break;
    }
    return 0;
}

const char *maxpool_dtype_name(maxpool_dtype dtype)
{
    static const char *const names[MAXPOOL_DTYPE_COUNT] = {"f32", "f64", "f16", "bf16", "i8",
                                                           "u8",  "i16", "u16", "i32",  "i64"};
    if ((int)dtype < 0 || dtype >= MAXPOOL_DTYPE_COUNT)
        return NULL;
    return names[dtype];
}

maxpool_scalar maxpool_start_value(maxpool_dtype dtype, maxpool_empty_value ev)
{
    maxpool_scalar s;
    memset(&s, 0, sizeof s);
    int neg_inf = ev == MAXPOOL_EMPTY_NEG_INF;
    switch (dtype) {
    case MAXPOOL_F32: s.f32 = neg_inf ? -INFINITY : -FLT_MAX; break;
    case MAXPOOL_F64: s.f64 = neg_inf ? -(double)INFINITY : -DBL_MAX; break;
    case MAXPOOL_F16: s.u16bits = neg_inf ? 0xFC00u : 0xFBFFu; break;  /* -inf / -65504 */
    case MAXPOOL_BF16: s.u16bits = neg_inf ? 0xFF80u : 0xFF7Fu; break; /* -inf / -3.3895e38 */
    case MAXPOOL_I8: s.i8 = INT8_MIN; break;
    case MAXPOOL_U8: s.u8 = 0; break;
    case MAXPOOL_I16: s.i16 = INT16_MIN; break;
    case MAXPOOL_U16: s.u16 = 0; break;
    case MAXPOOL_I32: s.i32 = INT32_MIN; break;
    case MAXPOOL_I64: s.i64 = INT64_MIN; break;
    case MAXPOOL_DTYPE_COUNT: break;
    }
    return s;
}
