/* SPDX-License-Identifier: Apache-2.0 */
/* maxpool_version(): the MAXPOOL_VERSION_* macros of maxpool.h as a string. */
#include "maxpool.h"

#define MAXPOOL_STR_(x) #x
#define MAXPOOL_STR(x) MAXPOOL_STR_(x)

const char *maxpool_version(void)
{
    return MAXPOOL_STR(MAXPOOL_VERSION_MAJOR) "." MAXPOOL_STR(MAXPOOL_VERSION_MINOR) "." MAXPOOL_STR(
        MAXPOOL_VERSION_PATCH);
}
