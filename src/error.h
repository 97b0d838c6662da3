/* SPDX-License-Identifier: Apache-2.0 */
/* Internal: error reporting shared by the core and the front-ends. */
#ifndef MAXPOOL_ERROR_H
#define MAXPOOL_ERROR_H

#include "maxpool.h"

#if defined(__GNUC__)
#define MAXPOOL_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define MAXPOOL_PRINTF(a, b)
#endif

/* Fills *err (when non-NULL) with code and the formatted message; returns code. */
maxpool_status maxpool_fail(maxpool_error *err, maxpool_status code, const char *fmt, ...) MAXPOOL_PRINTF(3, 4);

/* Marks *err (when non-NULL) as success; returns MAXPOOL_OK. */
maxpool_status maxpool_ok(maxpool_error *err);

#endif
