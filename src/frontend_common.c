/* SPDX-License-Identifier: Apache-2.0 */
/* Helpers shared by the spec front-ends; see frontend_common.h. */
#include "frontend_common.h"

#include "error.h"

#include <stdio.h>
#include <string.h>

int maxpool_fe_streq(const char *a, const char *b) { return strcmp(a, b) == 0; }

int maxpool_fe_streq_nocase(const char *a, const char *b)
{
    for (;; ++a, ++b) {
        unsigned char ca = (unsigned char)*a, cb = (unsigned char)*b;
        if (ca >= 'A' && ca <= 'Z')
            ca = (unsigned char)(ca - 'A' + 'a');
        if (cb >= 'A' && cb <= 'Z')
            cb = (unsigned char)(cb - 'A' + 'a');
        if (ca != cb)
            return 0;
        if (ca == '\0')
            return 1;
    }
}

const char *maxpool_fe_dtype_name(maxpool_dtype dtype)
{
    const char *n = maxpool_dtype_name(dtype);
    return n ? n : "?";
}

maxpool_status maxpool_fe_check_pointers(const void *attrs, const maxpool_desc *desc, const char *func,
                                         maxpool_error *err)
{
    if (!attrs)
        return maxpool_fail(err, MAXPOOL_ERR_NULL_POINTER, "%s: attrs is NULL", func);
    if (!desc)
        return maxpool_fail(err, MAXPOOL_ERR_NULL_POINTER, "%s: desc is NULL", func);
    return MAXPOOL_OK;
}

maxpool_status maxpool_fe_check_rank(int input_rank, int min_spatial, int max_spatial, const char *what,
                                     maxpool_error *err)
{
    if (max_spatial > MAXPOOL_MAX_SPATIAL)
        max_spatial = MAXPOOL_MAX_SPATIAL;
    if (input_rank < 3)
        return maxpool_fail(err, MAXPOOL_ERR_INVALID_SHAPE,
                            "input_rank=%d must be >= 3 (N, C and at least one spatial axis)", input_rank);
    if (input_rank < 2 + min_spatial || input_rank > 2 + max_spatial) {
        if (min_spatial == max_spatial)
            return maxpool_fail(err, MAXPOOL_ERR_UNSUPPORTED, "input_rank=%d: %s takes only rank %d input", input_rank,
                                what, 2 + min_spatial);
        return maxpool_fail(err, MAXPOOL_ERR_UNSUPPORTED, "input_rank=%d: %s takes rank %d to %d input", input_rank,
                            what, 2 + min_spatial, 2 + max_spatial);
    }
    return MAXPOOL_OK;
}

maxpool_status maxpool_fe_check_dtype(maxpool_dtype dtype, unsigned allowed, const char *what, maxpool_error *err)
{
    if ((int)dtype < 0 || dtype >= MAXPOOL_DTYPE_COUNT)
        return maxpool_fail(err, MAXPOOL_ERR_UNSUPPORTED, "dtype=%d is not a maxpool_dtype", (int)dtype);
    if (allowed & MAXPOOL_FE_DT(dtype))
        return MAXPOOL_OK;
    char list[96];
    size_t used = 0;
    list[0] = '\0';
    for (int d = 0; d < MAXPOOL_DTYPE_COUNT; ++d) {
        if (!(allowed & MAXPOOL_FE_DT(d)))
            continue;
        int w = snprintf(list + used, sizeof list - used, "%s%s", used ? ", " : "",
                         maxpool_fe_dtype_name((maxpool_dtype)d));
        if (w < 0 || (size_t)w >= sizeof list - used)
            break;
        used += (size_t)w;
    }
    return maxpool_fail(err, MAXPOOL_ERR_UNSUPPORTED, "dtype %s: not supported by %s (types: %s)",
                        maxpool_fe_dtype_name(dtype), what, list);
}

maxpool_status maxpool_fe_check_count(const char *name, int n, int capacity, int rank, int per_axis, int required,
                                      maxpool_error *err)
{
    const int expected = rank * per_axis;
    if (n < 0 || n > capacity)
        return maxpool_fail(err, MAXPOOL_ERR_INVALID_ATTRIBUTE, "%s: count %d must be in [0, %d]", name, n, capacity);
    if (n == 0 && required)
        return maxpool_fail(err, MAXPOOL_ERR_INVALID_ATTRIBUTE, "%s is required (%d values)", name, expected);
    if (n != 0 && n != expected)
        return maxpool_fail(err, MAXPOOL_ERR_INVALID_ATTRIBUTE,
                            "%s has %d values; the input has %d spatial axes, so it needs %d", name, n, rank,
                            expected);
    return MAXPOOL_OK;
}

maxpool_status maxpool_fe_read_list(const char *name, const int64_t *values, int n, int capacity, int rank,
                                    int required, int broadcast, int64_t dflt, int64_t *out, maxpool_error *err)
{
    if (n < 0 || n > capacity)
        return maxpool_fail(err, MAXPOOL_ERR_INVALID_ATTRIBUTE, "%s: count %d must be in [0, %d]", name, n, capacity);
    if (n == 0) {
        if (required)
            return maxpool_fail(err, MAXPOOL_ERR_INVALID_ATTRIBUTE, "%s is required (%d values, one per spatial axis)",
                                name, rank);
        for (int i = 0; i < rank; ++i)
            out[i] = dflt;
        return MAXPOOL_OK;
    }
    if (n == 1 && broadcast) {
        for (int i = 0; i < rank; ++i)
            out[i] = values[0];
        return MAXPOOL_OK;
    }
    if (n != rank) {
        if (broadcast)
            return maxpool_fail(err, MAXPOOL_ERR_INVALID_ATTRIBUTE,
                                "%s has %d values; the input has %d spatial axes, so it needs 1 or %d", name, n, rank,
                                rank);
        return maxpool_fail(err, MAXPOOL_ERR_INVALID_ATTRIBUTE,
                            "%s has %d values; the input has %d spatial axes, so it needs %d", name, n, rank, rank);
    }
    for (int i = 0; i < rank; ++i)
        out[i] = values[i];
    return MAXPOOL_OK;
}

maxpool_status maxpool_fe_check_min(const char *name, const int64_t *values, int count, int64_t min,
                                    maxpool_error *err)
{
    for (int i = 0; i < count; ++i)
        if (values[i] < min)
            return maxpool_fail(err, MAXPOOL_ERR_INVALID_ATTRIBUTE, "%s[%d]=%lld must be >= %lld", name, i,
                                (long long)values[i], (long long)min);
    return MAXPOOL_OK;
}

maxpool_status maxpool_fe_not_in_version(const char *name, const char *what, const char *since, maxpool_error *err)
{
    return maxpool_fail(err, MAXPOOL_ERR_UNSUPPORTED, "%s: not in %s (added in %s)", name, what, since);
}
