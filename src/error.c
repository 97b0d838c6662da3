/* SPDX-License-Identifier: Apache-2.0 */
#include "error.h"

#include <stdarg.h>
#include <stdio.h>

const char *maxpool_strerror(maxpool_status status)
{
    switch (status) {
    case MAXPOOL_OK: return "success";
    case MAXPOOL_ERR_NULL_POINTER: return "null pointer argument";
    case MAXPOOL_ERR_INVALID_ATTRIBUTE: return "invalid attribute";
    case MAXPOOL_ERR_INVALID_SHAPE: return "invalid shape";
    case MAXPOOL_ERR_UNSUPPORTED: return "unsupported";
    case MAXPOOL_ERR_OVERFLOW: return "size or index overflow";
    case MAXPOOL_ERR_OUT_OF_MEMORY: return "out of memory";
    }
    return "unknown status";
}

maxpool_status maxpool_fail(maxpool_error *err, maxpool_status code, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        err->code = code;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
    }
    return code;
}

maxpool_status maxpool_ok(maxpool_error *err)
{
    if (err) {
        err->code = MAXPOOL_OK;
        err->message[0] = '\0';
    }
    return MAXPOOL_OK;
}
