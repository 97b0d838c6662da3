/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Adaptive max pooling front-end. Windows along each axis:
 * start = floor(o*in/out), end = ceil((o+1)*in/out), half-open (the Ascend
 * aclnnAdaptiveMaxPool3d doc writes [left, right] but right is exclusive, as in
 * PyTorch's adaptive_max_pool). Indices are always flat
 * within one (n, c) plane, row-major.
 *
 * Flavors:
 * - TORCH: adaptive_max_pool1d/2d/3d; input rank 3..5; every dtype; int64
 *   indices ("i64" is the only index_element_type); NaN propagates.
 * - ACLNN: aclnnAdaptiveMaxPool3d; input rank 5 (NCDHW) only; FLOAT, FLOAT16,
 *   BFLOAT16 only; int32 indices ("i32" only). NaN: the text says nothing;
 *   aclnn backs torch_npu, so it mirrors PyTorch (propagate) -- not verified
 *   on hardware. D*H*W must fit int32: the core checks it with the shape.
 * - OPENVINO: AdaptiveMaxPool-8; input rank 3..5; every dtype;
 *   index_element_type i64 (default) or i32, case-insensitive; indices per
 *   plane (checked: openvino 2026.4 CPU writes the same indices for every
 *   (n, c)). NaN: MAXPOOL_NAN_IGNORE; the CPU plugin starts from the window's
 *   first element and compares with '>', so a NaN in the first position
 *   sticks -- IGNORE matches it everywhere else.
 * output_size needs one value per spatial axis, each >= 1 (OpenVINO accepts 0
 * and returns an empty tensor; maxpool does not).
 * Adaptive windows are never empty, so the empty-window options are moot;
 * they are set to each system's fixed-window defaults.
 */
#include "error.h"
#include "frontend_common.h"

#include <string.h>

void maxpool_adaptive_attrs_init(maxpool_adaptive_attrs *attrs, maxpool_adaptive_flavor flavor)
{
    if (!attrs)
        return;
    memset(attrs, 0, sizeof *attrs);
    attrs->flavor = flavor;
    attrs->index_element_type = NULL;
    attrs->want_indices = 0;
}

maxpool_status maxpool_adaptive_lower(const maxpool_adaptive_attrs *a, maxpool_dtype dtype, int input_rank,
                                      maxpool_desc *desc, maxpool_error *err)
{
    maxpool_status st;
    if ((st = maxpool_fe_check_pointers(a, desc, "maxpool_adaptive_lower", err)) != MAXPOOL_OK)
        return st;

    const char *what;
    unsigned types;
    int min_spatial, max_spatial;
    maxpool_index_type itype;
    switch (a->flavor) {
    case MAXPOOL_ADAPTIVE_TORCH:
        what = "PyTorch adaptive_max_pool1d/2d/3d";
        types = MAXPOOL_FE_DT_ALL;
        min_spatial = 1;
        max_spatial = 3;
        itype = MAXPOOL_INDEX_I64;
        break;
    case MAXPOOL_ADAPTIVE_ACLNN:
        what = "aclnnAdaptiveMaxPool3d";
        types = MAXPOOL_FE_DT(MAXPOOL_F32) | MAXPOOL_FE_DT(MAXPOOL_F16) | MAXPOOL_FE_DT(MAXPOOL_BF16);
        min_spatial = max_spatial = 3;
        itype = MAXPOOL_INDEX_I32;
        break;
    case MAXPOOL_ADAPTIVE_OPENVINO:
        what = "OpenVINO AdaptiveMaxPool-8";
        types = MAXPOOL_FE_DT_ALL;
        min_spatial = 1;
        max_spatial = 3;
        itype = MAXPOOL_INDEX_I64;
        break;
    default:
        return maxpool_fail(err, MAXPOOL_ERR_INVALID_ATTRIBUTE, "flavor=%d must be TORCH (0), ACLNN (1) or OPENVINO (2)",
                            (int)a->flavor);
    }
    if ((st = maxpool_fe_check_rank(input_rank, min_spatial, max_spatial, what, err)) != MAXPOOL_OK)
        return st;
    if ((st = maxpool_fe_check_dtype(dtype, types, what, err)) != MAXPOOL_OK)
        return st;
    const int rank = input_rank - 2;

    if (a->index_element_type) {
        const char *s = a->index_element_type;
        if (a->flavor == MAXPOOL_ADAPTIVE_OPENVINO) {
            if (maxpool_fe_streq_nocase(s, "i64"))
                itype = MAXPOOL_INDEX_I64;
            else if (maxpool_fe_streq_nocase(s, "i32"))
                itype = MAXPOOL_INDEX_I32;
            else
                return maxpool_fail(err, MAXPOOL_ERR_INVALID_ATTRIBUTE,
                                    "index_element_type=\"%.64s\" must be i32 or i64", s);
        } else {
            const char *only = itype == MAXPOOL_INDEX_I64 ? "i64" : "i32";
            if (!maxpool_fe_streq(s, only)) {
                const int known = maxpool_fe_streq(s, "i32") || maxpool_fe_streq(s, "i64");
                return maxpool_fail(err, known ? MAXPOOL_ERR_UNSUPPORTED : MAXPOOL_ERR_INVALID_ATTRIBUTE,
                                    "index_element_type=\"%.64s\": %s has %s indices only", s, what, only);
            }
        }
    }

    maxpool_desc d;
    maxpool_desc_init(&d, rank);
    d.dtype = dtype;
    d.layout = MAXPOOL_CHANNELS_FIRST;
    d.window = MAXPOOL_WINDOW_ADAPTIVE;
    if ((st = maxpool_fe_read_list("output_size", a->output_size, a->n_output_size, MAXPOOL_MAX_SPATIAL, rank, 1, 0, 1,
                                   d.output_size, err)) != MAXPOOL_OK ||
        (st = maxpool_fe_check_min("output_size", d.output_size, rank, 1, err)) != MAXPOOL_OK)
        return st;

    d.index_type = a->want_indices ? itype : MAXPOOL_INDEX_NONE;
    d.index_axis = 2;
    d.index_order = MAXPOOL_INDEX_ROW_MAJOR;
    if (a->flavor == MAXPOOL_ADAPTIVE_OPENVINO) {
        /* OpenVINO's adaptive kernel starts from the window's first element */
        d.nan_policy = MAXPOOL_NAN_IGNORE;
        d.empty_value = MAXPOOL_EMPTY_NEG_INF;
        d.empty_index = MAXPOOL_EMPTY_INDEX_FIRST_TAP;
        d.window_init = MAXPOOL_INIT_FIRST_ELEMENT;
    } else {
        d.nan_policy = MAXPOOL_NAN_PROPAGATE;
        d.empty_value = MAXPOOL_EMPTY_NEG_INF;
        d.empty_index = MAXPOOL_EMPTY_INDEX_FIRST_TAP;
    }
    d.reject_empty_windows = 0;

    *desc = d;
    return maxpool_ok(err);
}
