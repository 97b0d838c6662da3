/* SPDX-License-Identifier: Apache-2.0 */
/* The harnesses' check: on failure, one line naming the condition and the
 * detail on stderr, then abort() (libFuzzer saves the input). */
#ifndef MAXPOOL_FUZZ_CHECK_H
#define MAXPOOL_FUZZ_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#define FZ_CHECK(cond, ...)                                                                                        \
    do {                                                                                                           \
        if (!(cond)) {                                                                                             \
            fprintf(stderr, "FUZZ CHECK FAILED %s:%d: %s: ", __FILE__, __LINE__, #cond);                           \
            fprintf(stderr, __VA_ARGS__);                                                                          \
            fputc('\n', stderr);                                                                                   \
            abort();                                                                                               \
        }                                                                                                          \
    } while (0)

#endif
