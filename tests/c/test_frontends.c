/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Front-end lowering tests: ONNX MaxPool, OpenVINO MaxPool, PyTorch
 * max_poolNd, adaptive max pooling, TensorFlow max_pool_with_argmax. For each, representative attribute sets
 * and the desc fields they must produce, and every error case with its status
 * code, a piece of its message, and the desc left untouched.
 */
#include "maxpool.h"
#include "test_support.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- helpers ------------------------------------------------------------ */

typedef enum { FE_ONNX, FE_OV, FE_TORCH, FE_ADAPTIVE, FE_TF } fe_kind;

static maxpool_status lower_any(fe_kind k, const void *attrs, maxpool_dtype dt, int rank, maxpool_desc *d,
                                maxpool_error *e)
{
    switch (k) {
    case FE_ONNX: return maxpool_onnx_lower((const maxpool_onnx_attrs *)attrs, dt, rank, d, e);
    case FE_OV: return maxpool_openvino_lower((const maxpool_openvino_attrs *)attrs, dt, rank, d, e);
    case FE_TORCH: return maxpool_torch_lower((const maxpool_torch_attrs *)attrs, dt, rank, d, e);
    case FE_ADAPTIVE: return maxpool_adaptive_lower((const maxpool_adaptive_attrs *)attrs, dt, rank, d, e);
    case FE_TF: return maxpool_tf_lower((const maxpool_tf_attrs *)attrs, dt, rank, d, e);
    }
    return MAXPOOL_OK;
}

/* Lowering must fail with `want`, a message containing `substr`, and leave
 * the desc as it was. */
static void expect_fail_at(int line, fe_kind k, const void *attrs, maxpool_dtype dt, int rank, maxpool_status want,
                           const char *substr)
{
    maxpool_desc d, before;
    maxpool_error e;
    memset(&d, 0xA5, sizeof d);
    before = d;
    memset(&e, 0, sizeof e);
    ts_set_context("expect_fail at line %d (\"%s\")", line, substr);
    maxpool_status st = lower_any(k, attrs, dt, rank, &d, &e);
    CHECK_STATUS(st, want);
    CHECK_STATUS(e.code, want);
    CHECK_CONTAINS(e.message, substr);
    CHECK_MSG(memcmp(&d, &before, sizeof d) == 0, "desc changed by a failing lowering");
    /* err may be NULL: same status, no crash */
    CHECK_STATUS(lower_any(k, attrs, dt, rank, &d, NULL), want);
    ts_set_context("%s", "");
}
#define EXPECT_FAIL(k, attrs, dt, rank, want, substr) expect_fail_at(__LINE__, k, attrs, dt, rank, want, substr)

static int lower_ok_at(int line, fe_kind k, const void *attrs, maxpool_dtype dt, int rank, maxpool_desc *d)
{
    maxpool_error e;
    memset(&e, 0x5A, sizeof e);
    memset(d, 0xA5, sizeof *d);
    maxpool_status st = lower_any(k, attrs, dt, rank, d, &e);
    int ok = CHECK_MSG(st == MAXPOOL_OK, "line %d: lowering failed: status %d: %s", line, (int)st, e.message);
    if (ok) {
        CHECK_STATUS(e.code, MAXPOOL_OK);
        CHECK_EQ_INT(e.message[0], 0);
    }
    return ok;
}
#define LOWER_OK(k, attrs, dt, rank, d) lower_ok_at(__LINE__, k, attrs, dt, rank, d)

static void check_i64s(const int64_t *got, const int64_t *want, int n, const char *what)
{
    for (int i = 0; i < n; ++i)
        CHECK_MSG(got[i] == want[i], "%s[%d]: %lld, want %lld", what, i, (long long)got[i], (long long)want[i]);
}

/* The fields every lowering sets the same way. */
static void check_common(const maxpool_desc *d, int spatial_rank, maxpool_dtype dt)
{
    CHECK_EQ_INT(d->spatial_rank, spatial_rank);
    CHECK_EQ_INT(d->dtype, dt);
    CHECK_EQ_INT(d->layout, MAXPOOL_CHANNELS_FIRST);
    CHECK_EQ_INT(d->reject_empty_windows, 0);
    CHECK_EQ_INT(d->num_threads, 1);
    CHECK_EQ_INT(d->max_isa, MAXPOOL_ISA_AUTO);
}

/* The desc a front-end produced must be accepted by the core. */
static void check_plan_accepts(const maxpool_desc *d, const int64_t *shape)
{
    maxpool_plan *p = NULL;
    maxpool_error e;
    maxpool_status st = maxpool_plan_create(d, shape, &p, &e);
    CHECK_MSG(st == MAXPOOL_OK, "plan_create: status %d: %s", (int)st, e.message);
    maxpool_plan_destroy(p);
}

/* ---- ONNX --------------------------------------------------------------- */

static void test_onnx_init(void)
{
    maxpool_onnx_attrs a;
    memset(&a, 0x77, sizeof a);
    maxpool_onnx_attrs_init(&a, 12);
    CHECK_EQ_INT(a.opset, 12);
    CHECK_EQ_INT(a.n_kernel_shape, 0);
    CHECK_EQ_INT(a.n_strides, 0);
    CHECK_EQ_INT(a.n_pads, 0);
    CHECK_EQ_INT(a.n_dilations, 0);
    CHECK(a.auto_pad == NULL);
    CHECK_EQ_INT(a.ceil_mode, -1);
    CHECK_EQ_INT(a.storage_order, -1);
    CHECK_EQ_INT(a.want_indices, 0);
    maxpool_onnx_attrs_init(NULL, 12); /* no crash */
}

static void test_onnx_lowering(void)
{
    maxpool_onnx_attrs a;
    maxpool_desc d;

    /* opset 11, 2-D, every attribute */
    maxpool_onnx_attrs_init(&a, 11);
    a.n_kernel_shape = 2, a.kernel_shape[0] = 3, a.kernel_shape[1] = 2;
    a.n_strides = 2, a.strides[0] = 2, a.strides[1] = 1;
    a.n_pads = 4, a.pads[0] = 1, a.pads[1] = 0, a.pads[2] = 2, a.pads[3] = 1;
    a.n_dilations = 2, a.dilations[0] = 1, a.dilations[1] = 2;
    a.auto_pad = "NOTSET";
    a.ceil_mode = 1;
    a.storage_order = 1;
    a.want_indices = 1;
    if (LOWER_OK(FE_ONNX, &a, MAXPOOL_F32, 4, &d)) {
        check_common(&d, 2, MAXPOOL_F32);
        CHECK_EQ_INT(d.window, MAXPOOL_WINDOW_FIXED);
        check_i64s(d.kernel, (const int64_t[]){3, 2}, 2, "kernel");
        check_i64s(d.stride, (const int64_t[]){2, 1}, 2, "stride");
        check_i64s(d.dilation, (const int64_t[]){1, 2}, 2, "dilation");
        check_i64s(d.pad_begin, (const int64_t[]){1, 0}, 2, "pad_begin");
        check_i64s(d.pad_end, (const int64_t[]){2, 1}, 2, "pad_end");
        CHECK_EQ_INT(d.auto_pad, MAXPOOL_PAD_EXPLICIT);
        CHECK_EQ_INT(d.rounding, MAXPOOL_ROUND_CEIL_TORCH);
        CHECK_EQ_INT(d.index_type, MAXPOOL_INDEX_I64);
        CHECK_EQ_INT(d.index_axis, 0);
        CHECK_EQ_INT(d.index_order, MAXPOOL_INDEX_COL_MAJOR);
        CHECK_EQ_INT(d.nan_policy, MAXPOOL_NAN_IGNORE);
        CHECK_EQ_INT(d.empty_value, MAXPOOL_EMPTY_LOWEST);
        CHECK_EQ_INT(d.empty_index, MAXPOOL_EMPTY_INDEX_MINUS_ONE);
        check_plan_accepts(&d, (const int64_t[]){2, 3, 7, 6});
    }

    /* opset 1, kernel only: every default */
    maxpool_onnx_attrs_init(&a, 1);
    a.n_kernel_shape = 1, a.kernel_shape[0] = 2;
    if (LOWER_OK(FE_ONNX, &a, MAXPOOL_F64, 3, &d)) {
        check_common(&d, 1, MAXPOOL_F64);
        CHECK_EQ_INT(d.kernel[0], 2);
        CHECK_EQ_INT(d.stride[0], 1); /* strides absent: 1 in every opset (onnx/ORT) */
        CHECK_EQ_INT(d.dilation[0], 1);
        CHECK_EQ_INT(d.pad_begin[0], 0);
        CHECK_EQ_INT(d.pad_end[0], 0);
        CHECK_EQ_INT(d.auto_pad, MAXPOOL_PAD_EXPLICIT);
        CHECK_EQ_INT(d.rounding, MAXPOOL_ROUND_FLOOR);
        CHECK_EQ_INT(d.index_type, MAXPOOL_INDEX_NONE);
        CHECK_EQ_INT(d.index_order, MAXPOOL_INDEX_ROW_MAJOR);
        CHECK_EQ_INT(d.empty_value, MAXPOOL_EMPTY_LOWEST);
    }

    /* strides absent in opset 8 and 10 as well */
    for (int opset = 8; opset <= 10; opset += 2) {
        maxpool_onnx_attrs_init(&a, opset);
        a.n_kernel_shape = 2, a.kernel_shape[0] = 2, a.kernel_shape[1] = 3;
        if (LOWER_OK(FE_ONNX, &a, MAXPOOL_F16, 4, &d))
            check_i64s(d.stride, (const int64_t[]){1, 1}, 2, "stride");
    }

    /* ceil_mode 0 and storage_order 0 present */
    maxpool_onnx_attrs_init(&a, 10);
    a.n_kernel_shape = 1, a.kernel_shape[0] = 2;
    a.ceil_mode = 0, a.storage_order = 0, a.want_indices = 1;
    if (LOWER_OK(FE_ONNX, &a, MAXPOOL_F32, 3, &d)) {
        CHECK_EQ_INT(d.rounding, MAXPOOL_ROUND_FLOOR);
        CHECK_EQ_INT(d.index_order, MAXPOOL_INDEX_ROW_MAJOR);
        CHECK_EQ_INT(d.index_type, MAXPOOL_INDEX_I64);
    }

    /* auto_pad strings; pads given with auto_pad are checked then ignored (ORT) */
    static const struct {
        const char *s;
        maxpool_auto_pad want;
    } pads[] = {{"", MAXPOOL_PAD_EXPLICIT},
                {"NOTSET", MAXPOOL_PAD_EXPLICIT},
                {"VALID", MAXPOOL_PAD_VALID},
                {"SAME_UPPER", MAXPOOL_PAD_SAME_UPPER},
                {"SAME_LOWER", MAXPOOL_PAD_SAME_LOWER}};
    for (size_t i = 0; i < sizeof pads / sizeof pads[0]; ++i) {
        maxpool_onnx_attrs_init(&a, 11);
        a.n_kernel_shape = 2, a.kernel_shape[0] = 3, a.kernel_shape[1] = 3;
        a.n_pads = 4, a.pads[0] = 1, a.pads[1] = 1, a.pads[2] = 1, a.pads[3] = 1;
        a.auto_pad = pads[i].s;
        ts_set_context("auto_pad \"%s\"", pads[i].s);
        if (LOWER_OK(FE_ONNX, &a, MAXPOOL_F32, 4, &d)) {
            CHECK_EQ_INT(d.auto_pad, pads[i].want);
            const int64_t p = pads[i].want == MAXPOOL_PAD_EXPLICIT ? 1 : 0;
            check_i64s(d.pad_begin, (const int64_t[]){p, p}, 2, "pad_begin");
            check_i64s(d.pad_end, (const int64_t[]){p, p}, 2, "pad_end");
        }
    }
    ts_set_context("%s", "");

    /* any pad >= 0 (the ONNX text), even >= kernel (ORT would refuse) */
    maxpool_onnx_attrs_init(&a, 12);
    a.n_kernel_shape = 1, a.kernel_shape[0] = 2;
    a.n_pads = 2, a.pads[0] = 3, a.pads[1] = 5;
    if (LOWER_OK(FE_ONNX, &a, MAXPOOL_I8, 3, &d)) {
        CHECK_EQ_INT(d.pad_begin[0], 3);
        CHECK_EQ_INT(d.pad_end[0], 5);
        CHECK_EQ_INT(d.empty_value, MAXPOOL_EMPTY_LOWEST);
        check_plan_accepts(&d, (const int64_t[]){1, 1, 4});
    }

    /* types by version; f16/bf16 empty windows are -inf (ORT narrows float lowest) */
    static const struct {
        int opset;
        maxpool_dtype dt;
    } types_ok[] = {{1, MAXPOOL_F16}, {1, MAXPOOL_F32}, {1, MAXPOOL_F64}, {7, MAXPOOL_F16},  {11, MAXPOOL_F64},
                    {12, MAXPOOL_I8}, {12, MAXPOOL_U8},  {21, MAXPOOL_U8},  {22, MAXPOOL_BF16}, {99, MAXPOOL_BF16}};
    for (size_t i = 0; i < sizeof types_ok / sizeof types_ok[0]; ++i) {
        maxpool_onnx_attrs_init(&a, types_ok[i].opset);
        a.n_kernel_shape = 1, a.kernel_shape[0] = 2;
        ts_set_context("opset %d dtype %s", types_ok[i].opset, maxpool_dtype_name(types_ok[i].dt));
        if (LOWER_OK(FE_ONNX, &a, types_ok[i].dt, 3, &d)) {
            CHECK_EQ_INT(d.dtype, types_ok[i].dt);
            const int half = types_ok[i].dt == MAXPOOL_F16 || types_ok[i].dt == MAXPOOL_BF16;
            CHECK_EQ_INT(d.empty_value, half ? MAXPOOL_EMPTY_NEG_INF : MAXPOOL_EMPTY_LOWEST);
        }
    }
    ts_set_context("%s", "");

    /* 3-D with every list; 8 spatial axes (the core's maximum) */
    maxpool_onnx_attrs_init(&a, 22);
    a.n_kernel_shape = 3, a.n_strides = 3, a.n_dilations = 3, a.n_pads = 6;
    for (int i = 0; i < 3; ++i) {
        a.kernel_shape[i] = 2 + i;
        a.strides[i] = 1 + i;
        a.dilations[i] = 3 - i;
        a.pads[i] = i;
        a.pads[3 + i] = 2 * i;
    }
    if (LOWER_OK(FE_ONNX, &a, MAXPOOL_F32, 5, &d)) {
        check_common(&d, 3, MAXPOOL_F32);
        check_i64s(d.kernel, (const int64_t[]){2, 3, 4}, 3, "kernel");
        check_i64s(d.stride, (const int64_t[]){1, 2, 3}, 3, "stride");
        check_i64s(d.dilation, (const int64_t[]){3, 2, 1}, 3, "dilation");
        check_i64s(d.pad_begin, (const int64_t[]){0, 1, 2}, 3, "pad_begin");
        check_i64s(d.pad_end, (const int64_t[]){0, 2, 4}, 3, "pad_end");
    }
    maxpool_onnx_attrs_init(&a, 22);
    a.n_kernel_shape = MAXPOOL_MAX_SPATIAL;
    for (int i = 0; i < MAXPOOL_MAX_SPATIAL; ++i)
        a.kernel_shape[i] = 1;
    if (LOWER_OK(FE_ONNX, &a, MAXPOOL_F32, MAXPOOL_MAX_SPATIAL + 2, &d))
        CHECK_EQ_INT(d.spatial_rank, MAXPOOL_MAX_SPATIAL);
}

static void onnx_k2(maxpool_onnx_attrs *a, int opset, int rank)
{
    maxpool_onnx_attrs_init(a, opset);
    a->n_kernel_shape = rank;
    for (int i = 0; i < rank; ++i)
        a->kernel_shape[i] = 2;
}

static void test_onnx_errors(void)
{
    maxpool_onnx_attrs a;
    const maxpool_status INV = MAXPOOL_ERR_INVALID_ATTRIBUTE, UNS = MAXPOOL_ERR_UNSUPPORTED;

    /* NULL pointers */
    onnx_k2(&a, 11, 2);
    CHECK_STATUS(maxpool_onnx_lower(NULL, MAXPOOL_F32, 4, &(maxpool_desc){0}, NULL), MAXPOOL_ERR_NULL_POINTER);
    {
        maxpool_error e;
        CHECK_STATUS(maxpool_onnx_lower(&a, MAXPOOL_F32, 4, NULL, &e), MAXPOOL_ERR_NULL_POINTER);
        CHECK_CONTAINS(e.message, "desc is NULL");
    }

    /* opset */
    onnx_k2(&a, 0, 2);
    EXPECT_FAIL(FE_ONNX, &a, MAXPOOL_F32, 4, INV, "opset=0 must be >= 1");
    onnx_k2(&a, -5, 2);
    EXPECT_FAIL(FE_ONNX, &a, MAXPOOL_F32, 4, INV, "opset=-5 must be >= 1");

    /* rank */
    onnx_k2(&a, 11, 1);
    EXPECT_FAIL(FE_ONNX, &a, MAXPOOL_F32, 2, MAXPOOL_ERR_INVALID_SHAPE, "input_rank=2 must be >= 3");
    EXPECT_FAIL(FE_ONNX, &a, MAXPOOL_F32, 0, MAXPOOL_ERR_INVALID_SHAPE, "input_rank=0");
    EXPECT_FAIL(FE_ONNX, &a, MAXPOOL_F32, MAXPOOL_MAX_SPATIAL + 3, UNS, "input_rank=11");

    /* types by version */
    onnx_k2(&a, 11, 1);
    EXPECT_FAIL(FE_ONNX, &a, MAXPOOL_I8, 3, UNS, "dtype i8: not supported by ONNX MaxPool opset 11 (types: f32, f64, f16)");
    onnx_k2(&a, 8, 1);
    EXPECT_FAIL(FE_ONNX, &a, MAXPOOL_U8, 3, UNS, "dtype u8");
    onnx_k2(&a, 12, 1);
    EXPECT_FAIL(FE_ONNX, &a, MAXPOOL_BF16, 3, UNS, "(types: f32, f64, f16, i8, u8)");
    onnx_k2(&a, 18, 1);
    EXPECT_FAIL(FE_ONNX, &a, MAXPOOL_BF16, 3, UNS, "ONNX MaxPool opset 18 (MaxPool-12)");
    onnx_k2(&a, 22, 1);
    EXPECT_FAIL(FE_ONNX, &a, MAXPOOL_I32, 3, UNS, "dtype i32: not supported by ONNX MaxPool opset 22 (types: f32, f64, f16, bf16, i8, u8)");
    EXPECT_FAIL(FE_ONNX, &a, MAXPOOL_I16, 3, UNS, "dtype i16");
    EXPECT_FAIL(FE_ONNX, &a, MAXPOOL_U16, 3, UNS, "dtype u16");
    EXPECT_FAIL(FE_ONNX, &a, MAXPOOL_I64, 3, UNS, "dtype i64");
    EXPECT_FAIL(FE_ONNX, &a, (maxpool_dtype)42, 3, UNS, "dtype=42 is not a maxpool_dtype");
    EXPECT_FAIL(FE_ONNX, &a, (maxpool_dtype)-1, 3, UNS, "dtype=-1");

    /* attributes and outputs a version does not have */
    onnx_k2(&a, 1, 2);
    a.storage_order = 0;
    EXPECT_FAIL(FE_ONNX, &a, MAXPOOL_F32, 4, UNS, "storage_order: not in ONNX MaxPool opset 1 (added in opset 8)");
    onnx_k2(&a, 7, 2);
    a.want_indices = 1;
    EXPECT_FAIL(FE_ONNX, &a, MAXPOOL_F32, 4, UNS, "Indices output: not in ONNX MaxPool opset 7 (MaxPool-1) (added in opset 8)");
    onnx_k2(&a, 8, 2);
    a.n_dilations = 2, a.dilations[0] = a.dilations[1] = 1;
    EXPECT_FAIL(FE_ONNX, &a, MAXPOOL_F32, 4, UNS, "dilations: not in ONNX MaxPool opset 8 (added in opset 10)");
    onnx_k2(&a, 9, 2);
    a.ceil_mode = 0;
    EXPECT_FAIL(FE_ONNX, &a, MAXPOOL_F32, 4, UNS, "ceil_mode: not in ONNX MaxPool opset 9 (MaxPool-8) (added in opset 10)");
    onnx_k2(&a, 1, 2);
    a.ceil_mode = 1;
    EXPECT_FAIL(FE_ONNX, &a, MAXPOOL_F32, 4, UNS, "ceil_mode: not in ONNX MaxPool opset 1 (added in opset 10)");

    /* kernel_shape */
    maxpool_onnx_attrs_init(&a, 11);
    EXPECT_FAIL(FE_ONNX, &a, MAXPOOL_F32, 4, INV, "kernel_shape is required");
    onnx_k2(&a, 11, 1);
    EXPECT_FAIL(FE_ONNX, &a, MAXPOOL_F32, 4, INV, "kernel_shape has 1 values; the input has 2 spatial axes, so it needs 2");
    onnx_k2(&a, 11, 3);
    EXPECT_FAIL(FE_ONNX, &a, MAXPOOL_F32, 4, INV, "kernel_shape has 3 values");
    onnx_k2(&a, 11, 2);
    a.kernel_shape[1] = 0;
    EXPECT_FAIL(FE_ONNX, &a, MAXPOOL_F32, 4, INV, "kernel_shape[1]=0 must be >= 1");
    a.kernel_shape[1] = -3;
    EXPECT_FAIL(FE_ONNX, &a, MAXPOOL_F32, 4, INV, "kernel_shape[1]=-3 must be >= 1");
    onnx_k2(&a, 11, 2);
    a.n_kernel_shape = MAXPOOL_MAX_SPATIAL + 1;
    EXPECT_FAIL(FE_ONNX, &a, MAXPOOL_F32, 4, INV, "kernel_shape: count 9 must be in [0, 8]");
    a.n_kernel_shape = -1;
    EXPECT_FAIL(FE_ONNX, &a, MAXPOOL_F32, 4, INV, "kernel_shape: count -1");

    /* strides */
    onnx_k2(&a, 11, 2);
    a.n_strides = 1, a.strides[0] = 1;
    EXPECT_FAIL(FE_ONNX, &a, MAXPOOL_F32, 4, INV, "strides has 1 values");
    a.n_strides = 2, a.strides[0] = 1, a.strides[1] = 0;
    EXPECT_FAIL(FE_ONNX, &a, MAXPOOL_F32, 4, INV, "strides[1]=0 must be >= 1");
    a.strides[0] = -2, a.strides[1] = 1;
    EXPECT_FAIL(FE_ONNX, &a, MAXPOOL_F32, 4, INV, "strides[0]=-2 must be >= 1");

    /* dilations */
    onnx_k2(&a, 10, 2);
    a.n_dilations = 2, a.dilations[0] = 1, a.dilations[1] = 0;
    EXPECT_FAIL(FE_ONNX, &a, MAXPOOL_F32, 4, INV, "dilations[1]=0 must be >= 1");
    a.n_dilations = 3;
    EXPECT_FAIL(FE_ONNX, &a, MAXPOOL_F32, 4, INV, "dilations has 3 values");

    /* pads */
    onnx_k2(&a, 11, 2);
    a.n_pads = 2, a.pads[0] = a.pads[1] = 0;
    EXPECT_FAIL(FE_ONNX, &a, MAXPOOL_F32, 4, INV, "pads has 2 values; the input has 2 spatial axes, so it needs 4");
    a.n_pads = 4, a.pads[0] = a.pads[1] = a.pads[2] = 0, a.pads[3] = -1;
    EXPECT_FAIL(FE_ONNX, &a, MAXPOOL_F32, 4, INV, "pads[3]=-1 (axis 1 end) must be >= 0");
    a.pads[3] = 0, a.pads[0] = -7;
    EXPECT_FAIL(FE_ONNX, &a, MAXPOOL_F32, 4, INV, "pads[0]=-7 (axis 0 begin) must be >= 0");
    a.auto_pad = "SAME_UPPER"; /* checked even though ignored with auto_pad */
    EXPECT_FAIL(FE_ONNX, &a, MAXPOOL_F32, 4, INV, "pads[0]=-7");
    a.n_pads = 2 * MAXPOOL_MAX_SPATIAL + 1;
    EXPECT_FAIL(FE_ONNX, &a, MAXPOOL_F32, 4, INV, "pads: count 17 must be in [0, 16]");

    /* auto_pad: exact upper-case names */
    onnx_k2(&a, 11, 2);
    a.auto_pad = "same_upper";
    EXPECT_FAIL(FE_ONNX, &a, MAXPOOL_F32, 4, INV, "auto_pad=\"same_upper\" must be NOTSET, VALID, SAME_UPPER or SAME_LOWER");
    a.auto_pad = "SAME";
    EXPECT_FAIL(FE_ONNX, &a, MAXPOOL_F32, 4, INV, "auto_pad=\"SAME\"");
    a.auto_pad = "EXPLICIT";
    EXPECT_FAIL(FE_ONNX, &a, MAXPOOL_F32, 4, INV, "auto_pad=\"EXPLICIT\"");

    /* ceil_mode, storage_order */
    onnx_k2(&a, 11, 2);
    a.ceil_mode = 2;
    EXPECT_FAIL(FE_ONNX, &a, MAXPOOL_F32, 4, INV, "ceil_mode=2 must be 0 or 1");
    a.ceil_mode = -2;
    EXPECT_FAIL(FE_ONNX, &a, MAXPOOL_F32, 4, INV, "ceil_mode=-2 must be 0 or 1");
    onnx_k2(&a, 12, 2);
    a.storage_order = 2;
    EXPECT_FAIL(FE_ONNX, &a, MAXPOOL_F32, 4, INV, "storage_order=2 must be 0 (row major) or 1 (column major)");
    a.storage_order = -3;
    EXPECT_FAIL(FE_ONNX, &a, MAXPOOL_F32, 4, INV, "storage_order=-3");
}

/* ---- OpenVINO ----------------------------------------------------------- */

static void ov_base(maxpool_openvino_attrs *a, int version, int rank)
{
    maxpool_openvino_attrs_init(a, version);
    a->n_kernel = a->n_strides = rank;
    for (int i = 0; i < rank; ++i)
        a->kernel[i] = 2, a->strides[i] = 1;
}

static void test_openvino_init(void)
{
    maxpool_openvino_attrs a;
    memset(&a, 0x77, sizeof a);
    maxpool_openvino_attrs_init(&a, 8);
    CHECK_EQ_INT(a.version, 8);
    CHECK_EQ_INT(a.n_kernel, 0);
    CHECK_EQ_INT(a.n_strides, 0);
    CHECK_EQ_INT(a.n_dilations, 0);
    CHECK_EQ_INT(a.n_pads_begin, 0);
    CHECK_EQ_INT(a.n_pads_end, 0);
    CHECK(a.rounding_type == NULL);
    CHECK(a.auto_pad == NULL);
    CHECK(a.index_element_type == NULL);
    CHECK_EQ_INT(a.axis, 0);
    CHECK_EQ_INT(a.want_indices, 0);
    maxpool_openvino_attrs_init(NULL, 8);
}

static void test_openvino_lowering(void)
{
    maxpool_openvino_attrs a;
    maxpool_desc d;

    /* MaxPool-8, every attribute */
    maxpool_openvino_attrs_init(&a, 8);
    a.n_kernel = 2, a.kernel[0] = 3, a.kernel[1] = 2;
    a.n_strides = 2, a.strides[0] = 2, a.strides[1] = 1;
    a.n_dilations = 2, a.dilations[0] = 1, a.dilations[1] = 2;
    a.n_pads_begin = 2, a.pads_begin[0] = 1, a.pads_begin[1] = 0;
    a.n_pads_end = 2, a.pads_end[0] = 0, a.pads_end[1] = 4;
    a.rounding_type = "ceil";
    a.auto_pad = "explicit";
    a.index_element_type = "i32";
    a.axis = 2;
    a.want_indices = 1;
    if (LOWER_OK(FE_OV, &a, MAXPOOL_I16, 4, &d)) {
        check_common(&d, 2, MAXPOOL_I16);
        CHECK_EQ_INT(d.window, MAXPOOL_WINDOW_FIXED);
        check_i64s(d.kernel, (const int64_t[]){3, 2}, 2, "kernel");
        check_i64s(d.stride, (const int64_t[]){2, 1}, 2, "stride");
        check_i64s(d.dilation, (const int64_t[]){1, 2}, 2, "dilation");
        check_i64s(d.pad_begin, (const int64_t[]){1, 0}, 2, "pad_begin");
        check_i64s(d.pad_end, (const int64_t[]){0, 4}, 2, "pad_end");
        CHECK_EQ_INT(d.auto_pad, MAXPOOL_PAD_EXPLICIT);
        CHECK_EQ_INT(d.rounding, MAXPOOL_ROUND_CEIL);
        CHECK_EQ_INT(d.index_type, MAXPOOL_INDEX_I32);
        CHECK_EQ_INT(d.index_axis, 2);
        CHECK_EQ_INT(d.index_order, MAXPOOL_INDEX_ROW_MAJOR);
        CHECK_EQ_INT(d.nan_policy, MAXPOOL_NAN_IGNORE);
        CHECK_EQ_INT(d.empty_value, MAXPOOL_EMPTY_LOWEST);
        CHECK_EQ_INT(d.empty_index, MAXPOOL_EMPTY_INDEX_PLANE_START);
        check_plan_accepts(&d, (const int64_t[]){1, 2, 9, 5});
    }

    /* MaxPool-1: floor, no indices; strings case-insensitive */
    ov_base(&a, 1, 3);
    a.rounding_type = "CEIL";
    a.auto_pad = "Same_Lower";
    if (LOWER_OK(FE_OV, &a, MAXPOOL_U8, 5, &d)) {
        check_common(&d, 3, MAXPOOL_U8);
        CHECK_EQ_INT(d.rounding, MAXPOOL_ROUND_CEIL);
        CHECK_EQ_INT(d.auto_pad, MAXPOOL_PAD_SAME_LOWER);
        CHECK_EQ_INT(d.index_type, MAXPOOL_INDEX_NONE);
        check_i64s(d.dilation, (const int64_t[]){1, 1, 1}, 3, "dilation");
    }
    ov_base(&a, 1, 1);
    if (LOWER_OK(FE_OV, &a, MAXPOOL_F32, 3, &d)) {
        CHECK_EQ_INT(d.rounding, MAXPOOL_ROUND_FLOOR);
        CHECK_EQ_INT(d.auto_pad, MAXPOOL_PAD_EXPLICIT);
        CHECK_EQ_INT(d.pad_begin[0], 0); /* pads absent: zeros (OpenVINO accepts empty lists) */
        CHECK_EQ_INT(d.pad_end[0], 0);
    }

    /* MaxPool-14 ceil_torch; default index type i64, default axis 0 */
    ov_base(&a, 14, 2);
    a.rounding_type = "ceil_torch";
    a.want_indices = 1;
    if (LOWER_OK(FE_OV, &a, MAXPOOL_BF16, 4, &d)) {
        CHECK_EQ_INT(d.rounding, MAXPOOL_ROUND_CEIL_TORCH);
        CHECK_EQ_INT(d.index_type, MAXPOOL_INDEX_I64);
        CHECK_EQ_INT(d.index_axis, 0);
    }
    a.rounding_type = "Floor";
    a.index_element_type = "I64";
    if (LOWER_OK(FE_OV, &a, MAXPOOL_F32, 4, &d)) {
        CHECK_EQ_INT(d.rounding, MAXPOOL_ROUND_FLOOR);
        CHECK_EQ_INT(d.index_type, MAXPOOL_INDEX_I64);
    }

    /* auto_pad other than explicit: pads ignored, negative ones included */
    static const struct {
        const char *s;
        maxpool_auto_pad want;
    } aps[] = {{"valid", MAXPOOL_PAD_VALID}, {"same_upper", MAXPOOL_PAD_SAME_UPPER}, {"SAME_LOWER", MAXPOOL_PAD_SAME_LOWER}};
    for (size_t i = 0; i < sizeof aps / sizeof aps[0]; ++i) {
        ov_base(&a, 8, 2);
        a.n_pads_begin = a.n_pads_end = 2;
        a.pads_begin[0] = -1, a.pads_begin[1] = 5, a.pads_end[0] = 3, a.pads_end[1] = -2;
        a.auto_pad = aps[i].s;
        ts_set_context("auto_pad %s", aps[i].s);
        if (LOWER_OK(FE_OV, &a, MAXPOOL_F32, 4, &d)) {
            CHECK_EQ_INT(d.auto_pad, aps[i].want);
            check_i64s(d.pad_begin, (const int64_t[]){0, 0}, 2, "pad_begin");
            check_i64s(d.pad_end, (const int64_t[]){0, 0}, 2, "pad_end");
        }
    }
    ts_set_context("%s", "");

    /* axis: [-R, R-1], negative from the end; 0..2 -> index_axis */
    static const struct {
        int64_t axis;
        int want;
    } axes[] = {{0, 0}, {1, 1}, {2, 2}, {3, 3}, {-4, 0}, {-3, 1}, {-2, 2}, {-1, 3}};
    for (size_t i = 0; i < sizeof axes / sizeof axes[0]; ++i) {
        ov_base(&a, 8, 2);
        a.axis = axes[i].axis;
        a.want_indices = 1;
        ts_set_context("axis %lld", (long long)axes[i].axis);
        if (LOWER_OK(FE_OV, &a, MAXPOOL_F32, 4, &d))
            CHECK_EQ_INT(d.index_axis, axes[i].want);
    }
    ts_set_context("%s", "");
    /* rank 5: axis 3 and 4 (spatial dimensions) */
    for (int64_t ax = -5; ax <= 4; ++ax) {
        ov_base(&a, 14, 3);
        a.axis = ax;
        a.want_indices = 1;
        ts_set_context("rank 5 axis %lld", (long long)ax);
        if (LOWER_OK(FE_OV, &a, MAXPOOL_F32, 5, &d)) {
            CHECK_EQ_INT(d.index_axis, ax < 0 ? ax + 5 : ax);
            CHECK_EQ_INT(d.require_kernel_fits, 1);
            check_plan_accepts(&d, (const int64_t[]){1, 1, 3, 3, 3});
        }
    }
    ts_set_context("%s", "");

    /* every dtype */
    for (int t = 0; t < MAXPOOL_DTYPE_COUNT; ++t) {
        ov_base(&a, 8, 1);
        if (LOWER_OK(FE_OV, &a, (maxpool_dtype)t, 3, &d))
            CHECK_EQ_INT(d.dtype, t);
    }
}

static void test_openvino_errors(void)
{
    maxpool_openvino_attrs a;
    const maxpool_status INV = MAXPOOL_ERR_INVALID_ATTRIBUTE, UNS = MAXPOOL_ERR_UNSUPPORTED;

    CHECK_STATUS(maxpool_openvino_lower(NULL, MAXPOOL_F32, 4, &(maxpool_desc){0}, NULL), MAXPOOL_ERR_NULL_POINTER);
    ov_base(&a, 8, 2);
    CHECK_STATUS(maxpool_openvino_lower(&a, MAXPOOL_F32, 4, NULL, NULL), MAXPOOL_ERR_NULL_POINTER);

    /* version */
    ov_base(&a, 9, 2);
    EXPECT_FAIL(FE_OV, &a, MAXPOOL_F32, 4, UNS, "version=9: OpenVINO MaxPool has versions 1, 8 and 14");
    ov_base(&a, 0, 2);
    EXPECT_FAIL(FE_OV, &a, MAXPOOL_F32, 4, UNS, "version=0");

    /* rank: 3, 4 or 5 */
    ov_base(&a, 8, 4);
    EXPECT_FAIL(FE_OV, &a, MAXPOOL_F32, 6, UNS, "input_rank=6: OpenVINO MaxPool-8 takes rank 3 to 5 input");
    ov_base(&a, 8, 1);
    EXPECT_FAIL(FE_OV, &a, MAXPOOL_F32, 2, MAXPOOL_ERR_INVALID_SHAPE, "input_rank=2");
    EXPECT_FAIL(FE_OV, &a, (maxpool_dtype)10, 3, UNS, "dtype=10 is not a maxpool_dtype");

    /* MaxPool-1 lacks dilations, index_element_type, axis, the indices output */
    ov_base(&a, 1, 2);
    a.n_dilations = 2, a.dilations[0] = a.dilations[1] = 1;
    EXPECT_FAIL(FE_OV, &a, MAXPOOL_F32, 4, UNS, "dilations: not in OpenVINO MaxPool-1 (added in MaxPool-8)");
    ov_base(&a, 1, 2);
    a.index_element_type = "i64";
    EXPECT_FAIL(FE_OV, &a, MAXPOOL_F32, 4, UNS, "index_element_type: not in OpenVINO MaxPool-1 (added in MaxPool-8)");
    ov_base(&a, 1, 2);
    a.axis = 2;
    EXPECT_FAIL(FE_OV, &a, MAXPOOL_F32, 4, UNS, "axis: not in OpenVINO MaxPool-1 (added in MaxPool-8)");
    ov_base(&a, 1, 2);
    a.want_indices = 1;
    EXPECT_FAIL(FE_OV, &a, MAXPOOL_F32, 4, UNS, "indices output: not in OpenVINO MaxPool-1 (added in MaxPool-8)");
    ov_base(&a, 1, 2);
    a.rounding_type = "ceil_torch";
    EXPECT_FAIL(FE_OV, &a, MAXPOOL_F32, 4, UNS, "rounding_type=\"ceil_torch\": not in OpenVINO MaxPool-1 (added in MaxPool-14)");
    ov_base(&a, 8, 2);
    a.rounding_type = "CEIL_TORCH";
    EXPECT_FAIL(FE_OV, &a, MAXPOOL_F32, 4, UNS, "not in OpenVINO MaxPool-8 (added in MaxPool-14)");

    /* kernel, strides (both required), dilations */
    ov_base(&a, 8, 2);
    a.n_kernel = 0;
    EXPECT_FAIL(FE_OV, &a, MAXPOOL_F32, 4, INV, "kernel is required");
    ov_base(&a, 8, 2);
    a.n_strides = 0;
    EXPECT_FAIL(FE_OV, &a, MAXPOOL_F32, 4, INV, "strides is required");
    ov_base(&a, 8, 2);
    a.n_kernel = 1;
    EXPECT_FAIL(FE_OV, &a, MAXPOOL_F32, 4, INV, "kernel has 1 values; the input has 2 spatial axes, so it needs 2");
    ov_base(&a, 8, 2);
    a.n_strides = 3;
    EXPECT_FAIL(FE_OV, &a, MAXPOOL_F32, 4, INV, "strides has 3 values");
    ov_base(&a, 8, 2);
    a.kernel[0] = 0;
    EXPECT_FAIL(FE_OV, &a, MAXPOOL_F32, 4, INV, "kernel[0]=0 must be >= 1");
    ov_base(&a, 8, 2);
    a.strides[1] = 0;
    EXPECT_FAIL(FE_OV, &a, MAXPOOL_F32, 4, INV, "strides[1]=0 must be >= 1");
    ov_base(&a, 14, 2);
    a.n_dilations = 2, a.dilations[0] = 1, a.dilations[1] = 0;
    EXPECT_FAIL(FE_OV, &a, MAXPOOL_F32, 4, INV, "dilations[1]=0 must be >= 1");
    a.n_dilations = 1;
    EXPECT_FAIL(FE_OV, &a, MAXPOOL_F32, 4, INV, "dilations has 1 values");

    /* pads: length always, sign with explicit */
    ov_base(&a, 8, 2);
    a.n_pads_begin = 1, a.pads_begin[0] = 0;
    EXPECT_FAIL(FE_OV, &a, MAXPOOL_F32, 4, INV, "pads_begin has 1 values");
    a.auto_pad = "valid";
    EXPECT_FAIL(FE_OV, &a, MAXPOOL_F32, 4, INV, "pads_begin has 1 values");
    ov_base(&a, 8, 2);
    a.n_pads_end = 3;
    EXPECT_FAIL(FE_OV, &a, MAXPOOL_F32, 4, INV, "pads_end has 3 values");
    ov_base(&a, 8, 2);
    a.n_pads_begin = a.n_pads_end = 2;
    a.pads_begin[0] = 0, a.pads_begin[1] = -1, a.pads_end[0] = a.pads_end[1] = 0;
    EXPECT_FAIL(FE_OV, &a, MAXPOOL_F32, 4, INV, "pads_begin[1]=-1 must be >= 0");
    a.pads_begin[1] = 0, a.pads_end[0] = -4;
    a.auto_pad = "EXPLICIT";
    EXPECT_FAIL(FE_OV, &a, MAXPOOL_F32, 4, INV, "pads_end[0]=-4 must be >= 0");

    /* strings */
    ov_base(&a, 8, 2);
    a.auto_pad = "notset";
    EXPECT_FAIL(FE_OV, &a, MAXPOOL_F32, 4, INV, "auto_pad=\"notset\" must be explicit, valid, same_upper or same_lower");
    ov_base(&a, 8, 2);
    a.rounding_type = "round";
    EXPECT_FAIL(FE_OV, &a, MAXPOOL_F32, 4, INV, "rounding_type=\"round\" must be floor or ceil");
    ov_base(&a, 14, 2);
    a.rounding_type = "";
    EXPECT_FAIL(FE_OV, &a, MAXPOOL_F32, 4, INV, "rounding_type=\"\" must be floor, ceil or ceil_torch");
    ov_base(&a, 8, 2);
    a.index_element_type = "u8";
    EXPECT_FAIL(FE_OV, &a, MAXPOOL_F32, 4, INV, "index_element_type=\"u8\" must be i32 or i64");
    a.index_element_type = "int32";
    EXPECT_FAIL(FE_OV, &a, MAXPOOL_F32, 4, INV, "index_element_type=\"int32\"");

    /* axis */
    ov_base(&a, 8, 2);
    a.axis = 4;
    EXPECT_FAIL(FE_OV, &a, MAXPOOL_F32, 4, INV, "axis=4 must be in [-4, 3] for rank 4 input");
    a.axis = -5;
    EXPECT_FAIL(FE_OV, &a, MAXPOOL_F32, 4, INV, "axis=-5 must be in [-4, 3]");
    ov_base(&a, 14, 3);
    a.axis = 5, a.want_indices = 1;
    EXPECT_FAIL(FE_OV, &a, MAXPOOL_F32, 5, INV, "axis=5 must be in [-5, 4] for rank 5 input");
    a.axis = INT64_MIN;
    EXPECT_FAIL(FE_OV, &a, MAXPOOL_F32, 5, INV, "must be in [-5, 4]");
    ov_base(&a, 8, 1);
    a.axis = 3;
    EXPECT_FAIL(FE_OV, &a, MAXPOOL_F32, 3, INV, "axis=3 must be in [-3, 2] for rank 3 input");
}

/* ---- PyTorch ------------------------------------------------------------ */

static void test_torch_lowering(void)
{
    maxpool_torch_attrs a;
    maxpool_desc d;

    memset(&a, 0x77, sizeof a);
    maxpool_torch_attrs_init(&a);
    CHECK_EQ_INT(a.n_kernel_size, 0);
    CHECK_EQ_INT(a.n_stride, 0);
    CHECK_EQ_INT(a.n_padding, 0);
    CHECK_EQ_INT(a.n_dilation, 0);
    CHECK_EQ_INT(a.ceil_mode, 0);
    CHECK_EQ_INT(a.return_indices, 0);
    maxpool_torch_attrs_init(NULL);

    /* 2-D: kernel 3 broadcast, stride = kernel, padding 1 broadcast, dilation per axis */
    maxpool_torch_attrs_init(&a);
    a.n_kernel_size = 1, a.kernel_size[0] = 3;
    a.n_padding = 1, a.padding[0] = 1;
    a.n_dilation = 2, a.dilation[0] = 2, a.dilation[1] = 1;
    a.ceil_mode = 1;
    a.return_indices = 1;
    if (LOWER_OK(FE_TORCH, &a, MAXPOOL_F32, 4, &d)) {
        check_common(&d, 2, MAXPOOL_F32);
        CHECK_EQ_INT(d.window, MAXPOOL_WINDOW_FIXED);
        check_i64s(d.kernel, (const int64_t[]){3, 3}, 2, "kernel");
        check_i64s(d.stride, (const int64_t[]){3, 3}, 2, "stride");
        check_i64s(d.dilation, (const int64_t[]){2, 1}, 2, "dilation");
        check_i64s(d.pad_begin, (const int64_t[]){1, 1}, 2, "pad_begin");
        check_i64s(d.pad_end, (const int64_t[]){1, 1}, 2, "pad_end");
        CHECK_EQ_INT(d.auto_pad, MAXPOOL_PAD_EXPLICIT);
        CHECK_EQ_INT(d.rounding, MAXPOOL_ROUND_CEIL_TORCH);
        CHECK_EQ_INT(d.index_type, MAXPOOL_INDEX_I64);
        CHECK_EQ_INT(d.index_axis, 2);
        CHECK_EQ_INT(d.index_order, MAXPOOL_INDEX_ROW_MAJOR);
        CHECK_EQ_INT(d.nan_policy, MAXPOOL_NAN_PROPAGATE);
        CHECK_EQ_INT(d.empty_value, MAXPOOL_EMPTY_NEG_INF);
        CHECK_EQ_INT(d.empty_index, MAXPOOL_EMPTY_INDEX_FIRST_TAP);
        check_plan_accepts(&d, (const int64_t[]){2, 3, 10, 8});
    }

    /* 1-D defaults: stride = kernel, no padding, dilation 1, floor, no indices */
    maxpool_torch_attrs_init(&a);
    a.n_kernel_size = 1, a.kernel_size[0] = 4;
    if (LOWER_OK(FE_TORCH, &a, MAXPOOL_F16, 3, &d)) {
        check_common(&d, 1, MAXPOOL_F16);
        CHECK_EQ_INT(d.kernel[0], 4);
        CHECK_EQ_INT(d.stride[0], 4);
        CHECK_EQ_INT(d.pad_begin[0], 0);
        CHECK_EQ_INT(d.pad_end[0], 0);
        CHECK_EQ_INT(d.dilation[0], 1);
        CHECK_EQ_INT(d.rounding, MAXPOOL_ROUND_FLOOR);
        CHECK_EQ_INT(d.index_type, MAXPOOL_INDEX_NONE);
    }

    /* 3-D: per-axis kernel, stride broadcast, padding at the kernel/2 limit */
    maxpool_torch_attrs_init(&a);
    a.n_kernel_size = 3, a.kernel_size[0] = 2, a.kernel_size[1] = 5, a.kernel_size[2] = 1;
    a.n_stride = 1, a.stride[0] = 2;
    a.n_padding = 3, a.padding[0] = 1, a.padding[1] = 2, a.padding[2] = 0;
    if (LOWER_OK(FE_TORCH, &a, MAXPOOL_I32, 5, &d)) {
        check_common(&d, 3, MAXPOOL_I32);
        check_i64s(d.kernel, (const int64_t[]){2, 5, 1}, 3, "kernel");
        check_i64s(d.stride, (const int64_t[]){2, 2, 2}, 3, "stride");
        check_i64s(d.pad_begin, (const int64_t[]){1, 2, 0}, 3, "pad_begin");
        check_i64s(d.pad_end, (const int64_t[]){1, 2, 0}, 3, "pad_end");
    }
}

static void test_torch_errors(void)
{
    maxpool_torch_attrs a;
    const maxpool_status INV = MAXPOOL_ERR_INVALID_ATTRIBUTE, UNS = MAXPOOL_ERR_UNSUPPORTED;

    CHECK_STATUS(maxpool_torch_lower(NULL, MAXPOOL_F32, 4, &(maxpool_desc){0}, NULL), MAXPOOL_ERR_NULL_POINTER);

    maxpool_torch_attrs_init(&a);
    EXPECT_FAIL(FE_TORCH, &a, MAXPOOL_F32, 4, INV, "kernel_size is required");
    a.n_kernel_size = 1, a.kernel_size[0] = 2;
    EXPECT_FAIL(FE_TORCH, &a, MAXPOOL_F32, 6, UNS, "input_rank=6: PyTorch max_pool1d/2d/3d takes rank 3 to 5 input");
    EXPECT_FAIL(FE_TORCH, &a, MAXPOOL_F32, 2, MAXPOOL_ERR_INVALID_SHAPE, "input_rank=2");
    EXPECT_FAIL(FE_TORCH, &a, (maxpool_dtype)99, 4, UNS, "dtype=99");

    a.n_kernel_size = 2, a.kernel_size[0] = 2, a.kernel_size[1] = 2;
    EXPECT_FAIL(FE_TORCH, &a, MAXPOOL_F32, 5, INV, "kernel_size has 2 values; the input has 3 spatial axes, so it needs 1 or 3");
    a.kernel_size[1] = 0;
    EXPECT_FAIL(FE_TORCH, &a, MAXPOOL_F32, 4, INV, "kernel_size[1]=0 must be >= 1");

    maxpool_torch_attrs_init(&a);
    a.n_kernel_size = 1, a.kernel_size[0] = 2;
    a.n_stride = 2, a.stride[0] = 1, a.stride[1] = 0;
    EXPECT_FAIL(FE_TORCH, &a, MAXPOOL_F32, 4, INV, "stride[1]=0 must be >= 1");
    a.n_stride = 1, a.stride[0] = -1;
    EXPECT_FAIL(FE_TORCH, &a, MAXPOOL_F32, 4, INV, "stride[0]=-1 must be >= 1");
    a.n_stride = 3;
    EXPECT_FAIL(FE_TORCH, &a, MAXPOOL_F32, 4, INV, "stride has 3 values");

    maxpool_torch_attrs_init(&a);
    a.n_kernel_size = 1, a.kernel_size[0] = 2;
    a.n_dilation = 1, a.dilation[0] = 0;
    EXPECT_FAIL(FE_TORCH, &a, MAXPOOL_F32, 4, INV, "dilation[0]=0 must be >= 1");

    /* padding: >= 0 and <= kernel_size / 2 (undilated) */
    maxpool_torch_attrs_init(&a);
    a.n_kernel_size = 1, a.kernel_size[0] = 3;
    a.n_padding = 1, a.padding[0] = 2;
    EXPECT_FAIL(FE_TORCH, &a, MAXPOOL_F32, 3, INV, "padding[0]=2 should be at most half of kernel_size[0]=3 (pad <= 1)");
    a.n_dilation = 1, a.dilation[0] = 3; /* dilation does not widen the limit */
    EXPECT_FAIL(FE_TORCH, &a, MAXPOOL_F32, 3, INV, "padding[0]=2 should be at most half of kernel_size[0]=3");
    maxpool_torch_attrs_init(&a);
    a.n_kernel_size = 2, a.kernel_size[0] = 4, a.kernel_size[1] = 5;
    a.n_padding = 2, a.padding[0] = 2, a.padding[1] = 3;
    EXPECT_FAIL(FE_TORCH, &a, MAXPOOL_F32, 4, INV, "padding[1]=3 should be at most half of kernel_size[1]=5 (pad <= 2)");
    a.padding[1] = -1;
    EXPECT_FAIL(FE_TORCH, &a, MAXPOOL_F32, 4, INV, "padding[1]=-1 must be >= 0");
    a.n_padding = 3;
    EXPECT_FAIL(FE_TORCH, &a, MAXPOOL_F32, 4, INV, "padding has 3 values");
    a.n_padding = 2, a.padding[1] = 2;
    maxpool_desc d;
    CHECK(LOWER_OK(FE_TORCH, &a, MAXPOOL_F32, 4, &d)); /* 2 <= 4/2, 2 <= 5/2 */

    maxpool_torch_attrs_init(&a);
    a.n_kernel_size = 1, a.kernel_size[0] = 2;
    a.ceil_mode = 2;
    EXPECT_FAIL(FE_TORCH, &a, MAXPOOL_F32, 4, INV, "ceil_mode=2 must be 0 (false) or 1 (true)");
}

/* ---- adaptive ----------------------------------------------------------- */

static void test_adaptive(void)
{
    maxpool_adaptive_attrs a;
    maxpool_desc d;
    const maxpool_status INV = MAXPOOL_ERR_INVALID_ATTRIBUTE, UNS = MAXPOOL_ERR_UNSUPPORTED;

    memset(&a, 0x77, sizeof a);
    maxpool_adaptive_attrs_init(&a, MAXPOOL_ADAPTIVE_ACLNN);
    CHECK_EQ_INT(a.flavor, MAXPOOL_ADAPTIVE_ACLNN);
    CHECK_EQ_INT(a.n_output_size, 0);
    CHECK(a.index_element_type == NULL);
    CHECK_EQ_INT(a.want_indices, 0);
    maxpool_adaptive_attrs_init(NULL, MAXPOOL_ADAPTIVE_TORCH);

    /* TORCH 2-D */
    maxpool_adaptive_attrs_init(&a, MAXPOOL_ADAPTIVE_TORCH);
    a.n_output_size = 2, a.output_size[0] = 2, a.output_size[1] = 3;
    a.want_indices = 1;
    if (LOWER_OK(FE_ADAPTIVE, &a, MAXPOOL_F64, 4, &d)) {
        check_common(&d, 2, MAXPOOL_F64);
        CHECK_EQ_INT(d.window, MAXPOOL_WINDOW_ADAPTIVE);
        check_i64s(d.output_size, (const int64_t[]){2, 3}, 2, "output_size");
        CHECK_EQ_INT(d.index_type, MAXPOOL_INDEX_I64);
        CHECK_EQ_INT(d.index_axis, 2);
        CHECK_EQ_INT(d.index_order, MAXPOOL_INDEX_ROW_MAJOR);
        CHECK_EQ_INT(d.nan_policy, MAXPOOL_NAN_PROPAGATE);
        check_plan_accepts(&d, (const int64_t[]){1, 2, 5, 7});
    }
    a.want_indices = 0;
    a.index_element_type = "i64";
    if (LOWER_OK(FE_ADAPTIVE, &a, MAXPOOL_F32, 4, &d))
        CHECK_EQ_INT(d.index_type, MAXPOOL_INDEX_NONE);

    /* ACLNN: 3-D, f32/f16/bf16, int32 */
    const maxpool_dtype acl_ok[] = {MAXPOOL_F32, MAXPOOL_F16, MAXPOOL_BF16};
    for (int t = 0; t < 3; ++t) {
        maxpool_adaptive_attrs_init(&a, MAXPOOL_ADAPTIVE_ACLNN);
        a.n_output_size = 3, a.output_size[0] = 1, a.output_size[1] = 2, a.output_size[2] = 3;
        a.want_indices = 1;
        if (t == 2)
            a.index_element_type = "i32";
        if (LOWER_OK(FE_ADAPTIVE, &a, acl_ok[t], 5, &d)) {
            check_common(&d, 3, acl_ok[t]);
            CHECK_EQ_INT(d.window, MAXPOOL_WINDOW_ADAPTIVE);
            check_i64s(d.output_size, (const int64_t[]){1, 2, 3}, 3, "output_size");
            CHECK_EQ_INT(d.index_type, MAXPOOL_INDEX_I32);
            CHECK_EQ_INT(d.index_axis, 2);
            CHECK_EQ_INT(d.nan_policy, MAXPOOL_NAN_PROPAGATE);
        }
    }

    /* OPENVINO: i64 default, i32, case-insensitive; NaN ignored */
    maxpool_adaptive_attrs_init(&a, MAXPOOL_ADAPTIVE_OPENVINO);
    a.n_output_size = 1, a.output_size[0] = 3;
    a.want_indices = 1;
    if (LOWER_OK(FE_ADAPTIVE, &a, MAXPOOL_I8, 3, &d)) {
        check_common(&d, 1, MAXPOOL_I8);
        CHECK_EQ_INT(d.index_type, MAXPOOL_INDEX_I64);
        CHECK_EQ_INT(d.index_axis, 2);
        CHECK_EQ_INT(d.nan_policy, MAXPOOL_NAN_IGNORE);
    }
    a.index_element_type = "I32";
    if (LOWER_OK(FE_ADAPTIVE, &a, MAXPOOL_F32, 3, &d))
        CHECK_EQ_INT(d.index_type, MAXPOOL_INDEX_I32);
    a.index_element_type = "i64";
    if (LOWER_OK(FE_ADAPTIVE, &a, MAXPOOL_F32, 3, &d))
        CHECK_EQ_INT(d.index_type, MAXPOOL_INDEX_I64);

    /* errors */
    CHECK_STATUS(maxpool_adaptive_lower(NULL, MAXPOOL_F32, 4, &d, NULL), MAXPOOL_ERR_NULL_POINTER);
    maxpool_adaptive_attrs_init(&a, (maxpool_adaptive_flavor)7);
    a.n_output_size = 1, a.output_size[0] = 1;
    EXPECT_FAIL(FE_ADAPTIVE, &a, MAXPOOL_F32, 3, INV, "flavor=7 must be TORCH (0), ACLNN (1) or OPENVINO (2)");

    maxpool_adaptive_attrs_init(&a, MAXPOOL_ADAPTIVE_TORCH);
    EXPECT_FAIL(FE_ADAPTIVE, &a, MAXPOOL_F32, 4, INV, "output_size is required");
    a.n_output_size = 1, a.output_size[0] = 2;
    EXPECT_FAIL(FE_ADAPTIVE, &a, MAXPOOL_F32, 4, INV, "output_size has 1 values; the input has 2 spatial axes, so it needs 2");
    a.n_output_size = 2, a.output_size[1] = 0;
    EXPECT_FAIL(FE_ADAPTIVE, &a, MAXPOOL_F32, 4, INV, "output_size[1]=0 must be >= 1");
    a.output_size[1] = 2;
    EXPECT_FAIL(FE_ADAPTIVE, &a, MAXPOOL_F32, 6, UNS, "input_rank=6: PyTorch adaptive_max_pool1d/2d/3d takes rank 3 to 5");
    a.index_element_type = "i32";
    EXPECT_FAIL(FE_ADAPTIVE, &a, MAXPOOL_F32, 4, UNS, "index_element_type=\"i32\": PyTorch adaptive_max_pool1d/2d/3d has i64 indices only");
    a.index_element_type = "x";
    EXPECT_FAIL(FE_ADAPTIVE, &a, MAXPOOL_F32, 4, INV, "index_element_type=\"x\"");

    maxpool_adaptive_attrs_init(&a, MAXPOOL_ADAPTIVE_ACLNN);
    a.n_output_size = 2, a.output_size[0] = a.output_size[1] = 1;
    EXPECT_FAIL(FE_ADAPTIVE, &a, MAXPOOL_F32, 4, UNS, "input_rank=4: aclnnAdaptiveMaxPool3d takes only rank 5 input");
    a.n_output_size = 3, a.output_size[2] = 1;
    EXPECT_FAIL(FE_ADAPTIVE, &a, MAXPOOL_F64, 5, UNS, "dtype f64: not supported by aclnnAdaptiveMaxPool3d (types: f32, f16, bf16)");
    EXPECT_FAIL(FE_ADAPTIVE, &a, MAXPOOL_I32, 5, UNS, "dtype i32");
    a.index_element_type = "i64";
    EXPECT_FAIL(FE_ADAPTIVE, &a, MAXPOOL_F32, 5, UNS, "index_element_type=\"i64\": aclnnAdaptiveMaxPool3d has i32 indices only");
    a.index_element_type = NULL;
    a.output_size[0] = -1;
    EXPECT_FAIL(FE_ADAPTIVE, &a, MAXPOOL_F32, 5, INV, "output_size[0]=-1 must be >= 1");

    maxpool_adaptive_attrs_init(&a, MAXPOOL_ADAPTIVE_OPENVINO);
    a.n_output_size = 1, a.output_size[0] = 2;
    a.index_element_type = "u8";
    EXPECT_FAIL(FE_ADAPTIVE, &a, MAXPOOL_F32, 3, INV, "index_element_type=\"u8\" must be i32 or i64");
    a.index_element_type = NULL;
    EXPECT_FAIL(FE_ADAPTIVE, &a, MAXPOOL_F32, 2, MAXPOOL_ERR_INVALID_SHAPE, "input_rank=2");
    a.n_output_size = 4;
    EXPECT_FAIL(FE_ADAPTIVE, &a, MAXPOOL_F32, 6, UNS, "OpenVINO AdaptiveMaxPool-8 takes rank 3 to 5");
    a.n_output_size = 9;
    EXPECT_FAIL(FE_ADAPTIVE, &a, MAXPOOL_F32, 3, INV, "output_size: count 9 must be in [0, 8]");
}


/* ---- runs of lowered descs against the real systems' outputs ------------ */

/* Plans d for shape, runs it on x (f32), compares y (bits) and the indices
 * (int32 or int64 as d says) with the expected arrays. */
static void run_expect_f32(const maxpool_desc *d, const int64_t *shape, const float *x, const float *want_y,
                           const int64_t *want_i, int64_t n_out)
{
    maxpool_plan *p = NULL;
    maxpool_error e;
    maxpool_status st = maxpool_plan_create(d, shape, &p, &e);
    if (!CHECK_MSG(st == MAXPOOL_OK, "plan_create: status %d: %s", (int)st, e.message))
        return;
    CHECK_EQ_I64(maxpool_plan_output_elements(p), n_out);
    float y[64];
    int64_t i64[64];
    int32_t i32[64];
    const int is32 = d->index_type == MAXPOOL_INDEX_I32;
    memset(i64, 0x5a, sizeof i64); /* an index the run does not write shows, in every build */
    memset(i32, 0x5a, sizeof i32);
    CHECK_MSG(d->index_type != MAXPOOL_INDEX_NONE, "%s", "expected indices, but the desc asks for none");
    if (CHECK(n_out <= 64)) {
        CHECK_STATUS(maxpool_run(p, x, y, is32 ? (void *)i32 : (void *)i64), MAXPOOL_OK);
        CHECK_BITS_EQ(y, want_y, n_out, sizeof(float), "values");
        for (int64_t k = 0; k < n_out; ++k) {
            const int64_t got = is32 ? i32[k] : i64[k];
            CHECK_MSG(got == want_i[k], "index %lld: %lld, want %lld", (long long)k, (long long)got,
                      (long long)want_i[k]);
        }
    }
    maxpool_plan_destroy(p);
}

/* OpenVINO MaxPool axis on a spatial dimension: the whole-tensor index modulo
 * the product of the dimensions from axis on. Expected outputs: openvino
 * 2026.4 (MaxPool-8 core reference, MaxPool-14 CPU plugin). */
static void test_openvino_spatial_axis_run(void)
{
    static const float x[24] = {3, 9, 1, 4, 7, 2, 8, 6, 0, 5, 11, 10, 15, 13, 12, 14, 17, 16, 19, 18, 23, 21, 20, 22};
    static const float y[24] = {9, 9, 4, 4, 9, 9, 8, 6, 7, 11, 11, 10, 15, 13, 14, 14, 17, 19, 19, 18, 23, 21, 22, 22};
    static const int64_t i_axis3[24] = {1, 1, 3, 3, 1, 1, 2, 3, 0, 2, 2, 3, 0, 1, 3, 3, 0, 2, 2, 3, 0, 1, 3, 3};
    static const int64_t i_axis2[24] = {1, 1, 3, 3, 1, 1, 6, 7, 4, 10, 10, 11, 0, 1, 3, 3, 4, 6, 6, 7, 8, 9, 11, 11};
    const int64_t shape[4] = {1, 2, 3, 4};
    maxpool_openvino_attrs a;
    maxpool_desc d;
    static const int64_t axes[] = {3, -1, 2};
    for (size_t t = 0; t < 3; ++t) {
        for (int isa = 0; isa < 2; ++isa) {
            ov_base(&a, 8, 2);
            a.n_pads_begin = a.n_pads_end = 2;
            a.pads_begin[0] = 1, a.pads_begin[1] = 0, a.pads_end[0] = 0, a.pads_end[1] = 1;
            a.index_element_type = "i32";
            a.axis = axes[t];
            a.want_indices = 1;
            ts_set_context("OpenVINO axis %lld, isa %s", (long long)axes[t], isa ? "scalar" : "auto");
            if (!LOWER_OK(FE_OV, &a, MAXPOOL_F32, 4, &d))
                continue;
            d.max_isa = isa ? MAXPOOL_ISA_SCALAR : MAXPOOL_ISA_AUTO;
            run_expect_f32(&d, shape, x, y, axes[t] == 2 ? i_axis2 : i_axis3, 24);
        }
    }
    /* rank 5, kernel [1, 2, 2], i64: axis 3 -> h*W + w, axis 4 -> w */
    float x5[24], y5[8];
    for (int k = 0; k < 24; ++k)
        x5[k] = (float)(23 - k);
    static const float y5w[8] = {23, 21, 17, 15, 11, 9, 5, 3};
    static const int64_t i5a3[8] = {0, 2, 0, 2, 0, 2, 0, 2}, i5a4[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    memcpy(y5, y5w, sizeof y5);
    for (int64_t ax = 3; ax <= 4; ++ax) {
        maxpool_openvino_attrs_init(&a, 14);
        a.n_kernel = a.n_strides = 3;
        a.kernel[0] = 1, a.kernel[1] = 2, a.kernel[2] = 2;
        a.strides[0] = a.strides[1] = a.strides[2] = 1;
        a.axis = ax;
        a.want_indices = 1;
        ts_set_context("OpenVINO rank 5 axis %lld", (long long)ax);
        if (LOWER_OK(FE_OV, &a, MAXPOOL_F32, 5, &d))
            run_expect_f32(&d, (const int64_t[]){2, 1, 2, 3, 2}, x5, y5, ax == 3 ? i5a3 : i5a4, 8);
    }
    ts_set_context("%s", "");
}

/* OpenVINO rejects a dilated kernel larger than the padded input under every
 * rounding_type (openvino 2026.4, MaxPool-1/8/14, core reference and CPU
 * plugin: "Kernel after dilation has size (dim: 3) larger than the data
 * shape after padding (dim: 2)"); SAME pads always fit. */
static void test_openvino_kernel_fits(void)
{
    static const char *const roundings[] = {"floor", "ceil", "ceil_torch"};
    const int64_t shape[3] = {1, 1, 2};
    const float x[2] = {5, 7};
    maxpool_openvino_attrs a;
    maxpool_desc d;
    for (int v = 0; v < 3; ++v) {
        const int version = v == 0 ? 1 : v == 1 ? 8 : 14;
        for (int r = 0; r < (version == 14 ? 3 : 2); ++r) {
            for (int ap = 0; ap < 4; ++ap) {
                static const char *const aps[] = {"explicit", "valid", "same_upper", "same_lower"};
                maxpool_openvino_attrs_init(&a, version);
                a.n_kernel = a.n_strides = 1;
                a.kernel[0] = 3, a.strides[0] = 2;
                a.rounding_type = roundings[r];
                a.auto_pad = aps[ap];
                ts_set_context("MaxPool-%d %s %s kernel 3 stride 2 on [5, 7]", version, roundings[r], aps[ap]);
                if (!LOWER_OK(FE_OV, &a, MAXPOOL_F32, 3, &d))
                    continue;
                CHECK_EQ_INT(d.require_kernel_fits, 1);
                maxpool_plan *p = NULL;
                maxpool_error e;
                maxpool_status st = maxpool_plan_create(&d, shape, &p, &e);
                if (ap < 2) {
                    CHECK_STATUS(st, MAXPOOL_ERR_INVALID_SHAPE);
                    CHECK_CONTAINS(e.message, "the dilated kernel 3 (kernel 3, dilation 1) is larger than the padded "
                                              "input 2");
                    CHECK(p == NULL);
                } else if (CHECK_MSG(st == MAXPOOL_OK, "status %d: %s", (int)st, e.message)) {
                    float y[1] = {0};
                    CHECK_EQ_I64(maxpool_plan_output_elements(p), 1);
                    CHECK_STATUS(maxpool_run(p, x, y, NULL), MAXPOOL_OK);
                    CHECK(y[0] == 7.0f); /* OpenVINO: [[[7]]] */
                }
                maxpool_plan_destroy(p);
            }
        }
    }
    /* explicit pads 1/0: padded input 3 holds kernel 3 under every rounding: [[[7]]] */
    maxpool_openvino_attrs_init(&a, 14);
    a.n_kernel = a.n_strides = a.n_pads_begin = a.n_pads_end = 1;
    a.kernel[0] = 3, a.strides[0] = 2, a.pads_begin[0] = 1, a.pads_end[0] = 0;
    a.rounding_type = "ceil";
    a.want_indices = 1;
    ts_set_context("MaxPool-14 ceil kernel 3 stride 2 pads 1/0");
    if (LOWER_OK(FE_OV, &a, MAXPOOL_F32, 3, &d)) /* openvino 2026.4 CPU: Y [[[7]]], indices [[[1]]] */
        run_expect_f32(&d, shape, x, (const float[]){7}, (const int64_t[]){1}, 1);
    /* dilation: kernel 2 dilation 2 is 3 wide */
    maxpool_openvino_attrs_init(&a, 8);
    a.n_kernel = a.n_strides = a.n_dilations = 1;
    a.kernel[0] = 2, a.strides[0] = 1, a.dilations[0] = 2;
    a.rounding_type = "ceil";
    ts_set_context("MaxPool-8 ceil kernel 2 dilation 2");
    if (LOWER_OK(FE_OV, &a, MAXPOOL_F32, 3, &d)) {
        maxpool_plan *p = NULL;
        maxpool_error e;
        CHECK_STATUS(maxpool_plan_create(&d, shape, &p, &e), MAXPOOL_ERR_INVALID_SHAPE);
        CHECK_CONTAINS(e.message, "the dilated kernel 3 (kernel 2, dilation 2)");
    }
    ts_set_context("%s", "");
    /* the other front-ends leave it off: ONNX ceil_mode keeps its output of 1 */
    maxpool_onnx_attrs o;
    maxpool_onnx_attrs_init(&o, 12);
    o.n_kernel_shape = o.n_strides = 1;
    o.kernel_shape[0] = 3, o.strides[0] = 2, o.ceil_mode = 1;
    if (LOWER_OK(FE_ONNX, &o, MAXPOOL_F32, 3, &d))
        CHECK_EQ_INT(d.require_kernel_fits, 0);
}

/* ---- TensorFlow --------------------------------------------------------- */

static void tf_base(maxpool_tf_attrs *a)
{
    maxpool_tf_attrs_init(a);
    a->n_ksize = a->n_strides = 1;
    a->ksize[0] = 2, a->strides[0] = 1;
    a->padding = "SAME";
}

static void test_tf_lowering(void)
{
    maxpool_tf_attrs a;
    maxpool_desc d;
    memset(&a, 0x77, sizeof a);
    maxpool_tf_attrs_init(&a);
    CHECK_EQ_INT(a.n_ksize, 0);
    CHECK_EQ_INT(a.n_strides, 0);
    CHECK(a.padding == NULL && a.data_format == NULL && a.targmax == NULL);
    CHECK_EQ_INT(a.include_batch_in_index, 0);
    maxpool_tf_attrs_init(NULL);

    /* defaults: int64 argmax within one batch item, SAME = SAME_UPPER */
    tf_base(&a);
    if (LOWER_OK(FE_TF, &a, MAXPOOL_F32, 4, &d)) {
        CHECK_EQ_INT(d.spatial_rank, 2);
        CHECK_EQ_INT(d.dtype, MAXPOOL_F32);
        CHECK_EQ_INT(d.layout, MAXPOOL_CHANNELS_LAST);
        CHECK_EQ_INT(d.window, MAXPOOL_WINDOW_FIXED);
        check_i64s(d.kernel, (const int64_t[]){2, 2}, 2, "kernel");
        check_i64s(d.stride, (const int64_t[]){1, 1}, 2, "stride");
        check_i64s(d.dilation, (const int64_t[]){1, 1}, 2, "dilation");
        CHECK_EQ_INT(d.auto_pad, MAXPOOL_PAD_SAME_UPPER);
        CHECK_EQ_INT(d.rounding, MAXPOOL_ROUND_FLOOR);
        CHECK_EQ_INT(d.index_type, MAXPOOL_INDEX_I64);
        CHECK_EQ_INT(d.index_axis, 1);
        CHECK_EQ_INT(d.index_order, MAXPOOL_INDEX_CHANNELS_LAST);
        CHECK_EQ_INT(d.nan_policy, MAXPOOL_NAN_IGNORE);
        CHECK_EQ_INT(d.window_init, MAXPOOL_INIT_FIRST_ELEMENT);
        CHECK_EQ_INT(d.reject_empty_windows, 1);
        CHECK_EQ_INT(d.require_kernel_fits, 0);
    }
    /* 2 and 4 values, VALID, int32, include_batch_in_index, explicit NHWC; strides[3] is ignored */
    tf_base(&a);
    a.n_ksize = 2, a.ksize[0] = 3, a.ksize[1] = 1;
    a.n_strides = 4, a.strides[0] = 1, a.strides[1] = 2, a.strides[2] = 3, a.strides[3] = 7;
    a.padding = "VALID";
    a.targmax = "int32";
    a.data_format = "NHWC";
    a.include_batch_in_index = 1;
    if (LOWER_OK(FE_TF, &a, MAXPOOL_U8, 4, &d)) {
        check_i64s(d.kernel, (const int64_t[]){3, 1}, 2, "kernel");
        check_i64s(d.stride, (const int64_t[]){2, 3}, 2, "stride");
        CHECK_EQ_INT(d.auto_pad, MAXPOOL_PAD_VALID);
        CHECK_EQ_INT(d.index_type, MAXPOOL_INDEX_I32);
        CHECK_EQ_INT(d.index_axis, 0);
        CHECK_EQ_INT(d.dtype, MAXPOOL_U8);
        check_plan_accepts(&d, (const int64_t[]){2, 7, 7, 3});
    }
    tf_base(&a);
    a.n_ksize = 4, a.ksize[0] = 1, a.ksize[1] = 4, a.ksize[2] = 5, a.ksize[3] = 1;
    a.strides[0] = INT32_MAX;
    if (LOWER_OK(FE_TF, &a, MAXPOOL_BF16, 4, &d)) {
        check_i64s(d.kernel, (const int64_t[]){4, 5}, 2, "kernel");
        check_i64s(d.stride, (const int64_t[]){INT32_MAX, INT32_MAX}, 2, "stride");
        check_plan_accepts(&d, (const int64_t[]){1, 3, 3, 1});
    }
    for (int t = 0; t < MAXPOOL_DTYPE_COUNT; ++t) {
        tf_base(&a);
        if (LOWER_OK(FE_TF, &a, (maxpool_dtype)t, 4, &d))
            CHECK_EQ_INT(d.dtype, t);
    }
}

static void test_tf_errors(void)
{
    const maxpool_status INV = MAXPOOL_ERR_INVALID_ATTRIBUTE, UNS = MAXPOOL_ERR_UNSUPPORTED;
    maxpool_tf_attrs a;
    maxpool_desc d;
    maxpool_error e;
    tf_base(&a);
    CHECK_STATUS(maxpool_tf_lower(NULL, MAXPOOL_F32, 4, &d, &e), MAXPOOL_ERR_NULL_POINTER);
    CHECK_CONTAINS(e.message, "maxpool_tf_lower: attrs is NULL");
    CHECK_STATUS(maxpool_tf_lower(&a, MAXPOOL_F32, 4, NULL, &e), MAXPOOL_ERR_NULL_POINTER);
    EXPECT_FAIL(FE_TF, &a, MAXPOOL_F32, 3, UNS, "input_rank=3: TensorFlow max_pool_with_argmax takes only rank 4");
    EXPECT_FAIL(FE_TF, &a, MAXPOOL_F32, 5, UNS, "takes only rank 4");
    EXPECT_FAIL(FE_TF, &a, MAXPOOL_F32, 2, MAXPOOL_ERR_INVALID_SHAPE, "input_rank=2 must be >= 3");
    EXPECT_FAIL(FE_TF, &a, (maxpool_dtype)99, 4, UNS, "dtype=99 is not a maxpool_dtype");
    a.n_ksize = 0;
    EXPECT_FAIL(FE_TF, &a, MAXPOOL_F32, 4, INV, "ksize is required (1, 2 or 4 values)");
    a.n_ksize = 3;
    EXPECT_FAIL(FE_TF, &a, MAXPOOL_F32, 4, INV, "ksize has 3 values; it needs 1, 2 or 4");
    a.n_ksize = -1;
    EXPECT_FAIL(FE_TF, &a, MAXPOOL_F32, 4, INV, "ksize has -1 values");
    a.n_ksize = INT32_MAX;
    EXPECT_FAIL(FE_TF, &a, MAXPOOL_F32, 4, INV, "ksize has 2147483647 values");
    tf_base(&a);
    a.ksize[0] = 0;
    EXPECT_FAIL(FE_TF, &a, MAXPOOL_F32, 4, INV, "ksize[0]=0 must be in [1, 2147483647]");
    a.ksize[0] = (int64_t)INT32_MAX + 1;
    EXPECT_FAIL(FE_TF, &a, MAXPOOL_F32, 4, INV, "ksize[0]=2147483648 must be in [1, 2147483647]");
    a.ksize[0] = INT64_MIN;
    EXPECT_FAIL(FE_TF, &a, MAXPOOL_F32, 4, INV, "ksize[0]=-9223372036854775808");
    tf_base(&a);
    a.n_ksize = 4, a.ksize[0] = 2, a.ksize[1] = a.ksize[2] = a.ksize[3] = 1;
    EXPECT_FAIL(FE_TF, &a, MAXPOOL_F32, 4, UNS, "ksize[0]=2: pooling on the batch dimension");
    a.ksize[0] = 1, a.ksize[3] = 2;
    EXPECT_FAIL(FE_TF, &a, MAXPOOL_F32, 4, UNS, "ksize[3]=2: pooling across channels");
    tf_base(&a);
    a.n_strides = 4, a.strides[0] = 2, a.strides[1] = a.strides[2] = a.strides[3] = 1;
    EXPECT_FAIL(FE_TF, &a, MAXPOOL_F32, 4, UNS, "strides[0]=2: pooling on the batch dimension");
    a.strides[0] = 1, a.strides[3] = 0;
    EXPECT_FAIL(FE_TF, &a, MAXPOOL_F32, 4, INV, "strides[3]=0 must be in [1, 2147483647]");
    a.n_strides = 0;
    EXPECT_FAIL(FE_TF, &a, MAXPOOL_F32, 4, INV, "strides is required");
    tf_base(&a);
    a.padding = NULL;
    EXPECT_FAIL(FE_TF, &a, MAXPOOL_F32, 4, INV, "padding is required");
    a.padding = "same";
    EXPECT_FAIL(FE_TF, &a, MAXPOOL_F32, 4, INV, "padding=\"same\" must be \"SAME\" or \"VALID\"");
    a.padding = "EXPLICIT";
    EXPECT_FAIL(FE_TF, &a, MAXPOOL_F32, 4, INV, "padding=\"EXPLICIT\"");
    tf_base(&a);
    a.data_format = "NCHW";
    EXPECT_FAIL(FE_TF, &a, MAXPOOL_F32, 4, UNS, "data_format=\"NCHW\": TensorFlow max_pool_with_argmax takes NHWC only");
    tf_base(&a);
    a.targmax = "i64";
    EXPECT_FAIL(FE_TF, &a, MAXPOOL_F32, 4, INV, "targmax=\"i64\" must be \"int32\" or \"int64\"");
    tf_base(&a);
    a.include_batch_in_index = 2;
    EXPECT_FAIL(FE_TF, &a, MAXPOOL_F32, 4, INV, "include_batch_in_index=2 must be 0 or 1");
    /* int32 argmax that cannot fit: the plan refuses it */
    tf_base(&a);
    a.targmax = "int32";
    a.include_batch_in_index = 1;
    if (LOWER_OK(FE_TF, &a, MAXPOOL_U8, 4, &d)) {
        maxpool_plan *p = NULL;
        CHECK_STATUS(maxpool_plan_create(&d, (const int64_t[]){1 << 12, 1 << 10, 1 << 10, 1}, &p, &e),
                     MAXPOOL_ERR_OVERFLOW);
        CHECK_CONTAINS(e.message, "channels-last indices up to");
        a.include_batch_in_index = 0;
        if (LOWER_OK(FE_TF, &a, MAXPOOL_U8, 4, &d)) { /* within one batch item it fits */
            int64_t os[4];
            CHECK_STATUS(maxpool_output_shape(&d, (const int64_t[]){1 << 12, 1 << 10, 1 << 10, 1}, os, &e),
                         MAXPOOL_OK);
        }
    }
}

/* Expected outputs: tensorflow-cpu 2.21, tf.nn.max_pool_with_argmax(x, 2, 1, "SAME",
 * output_dtype=tf.int32, include_batch_in_index=False / True), x of shape (2, 2, 3, 2)
 * with a NaN at flat position 8 (a window's first element there: it wins). */
static void test_tf_run(void)
{
    const float nan = (float)NAN;
    const float x[24] = {3, 9, 1, 4, 7, 2, 8, 6, nan, 5, 11, 10, 15, 13, 12, 14, 17, 16, 19, 18, 23, 21, 20, 22};
    const float y[24] = {8, 9, 11, 10, 11, 10, 8, 6, nan, 10, 11, 10, 23, 21, 23, 22, 20, 22, 23, 21, 23, 22, 20, 22};
    static const int64_t i0[24] = {6, 1, 10, 11, 10, 11, 6, 7, 8, 11, 10, 11,
                                   8, 9, 8, 11, 10, 11, 8, 9, 8, 11, 10, 11};
    static const int64_t i1[24] = {6, 1, 10, 11, 10, 11, 6, 7, 8, 11, 10, 11,
                                   20, 21, 20, 23, 22, 23, 20, 21, 20, 23, 22, 23};
    const int64_t shape[4] = {2, 2, 3, 2};
    maxpool_tf_attrs a;
    maxpool_desc d;
    for (int ib = 0; ib < 2; ++ib) {
        for (int isa = 0; isa < 2; ++isa) {
            for (int it = 0; it < 2; ++it) {
                tf_base(&a);
                a.include_batch_in_index = ib;
                a.targmax = it ? "int64" : "int32";
                ts_set_context("TF include_batch_in_index %d, %s, isa %s", ib, a.targmax, isa ? "scalar" : "auto");
                if (!LOWER_OK(FE_TF, &a, MAXPOOL_F32, 4, &d))
                    continue;
                d.max_isa = isa ? MAXPOOL_ISA_SCALAR : MAXPOOL_ISA_AUTO;
                run_expect_f32(&d, shape, x, y, ib ? i1 : i0, 24);
            }
        }
    }
    ts_set_context("%s", "");
}

/* The core's index conventions beyond the kernels' own: the combinations it refuses. */
static void test_core_index_conventions(void)
{
    maxpool_desc d;
    maxpool_error e;
    int64_t os[5];
    const int64_t shape[5] = {1, 1, 3, 3, 3};
    maxpool_desc_init(&d, 3);
    d.index_type = MAXPOOL_INDEX_I64;
    d.index_axis = 4; /* the last dimension of a rank-5 tensor */
    CHECK_STATUS(maxpool_output_shape(&d, shape, os, &e), MAXPOOL_OK);
    d.index_axis = 5;
    CHECK_STATUS(maxpool_output_shape(&d, shape, os, &e), MAXPOOL_ERR_INVALID_ATTRIBUTE);
    CHECK_CONTAINS(e.message, "index_axis=5 must be in [0, 4] (spatial_rank 3 + 1)");
    d.index_axis = -1;
    CHECK_STATUS(maxpool_output_shape(&d, shape, os, &e), MAXPOOL_ERR_INVALID_ATTRIBUTE);
    d.index_axis = 3;
    d.index_order = MAXPOOL_INDEX_COL_MAJOR;
    CHECK_STATUS(maxpool_output_shape(&d, shape, os, &e), MAXPOOL_ERR_UNSUPPORTED);
    CHECK_CONTAINS(e.message, "takes index_order ROW_MAJOR only");
    d.index_order = MAXPOOL_INDEX_ROW_MAJOR;
    d.empty_index = MAXPOOL_EMPTY_INDEX_FIRST_TAP;
    CHECK_STATUS(maxpool_output_shape(&d, shape, os, &e), MAXPOOL_ERR_UNSUPPORTED);
    CHECK_CONTAINS(e.message, "not FIRST_TAP");
    d.empty_index = MAXPOOL_EMPTY_INDEX_PLANE_START;
    CHECK_STATUS(maxpool_output_shape(&d, shape, os, &e), MAXPOOL_OK);
    d.index_axis = 2;
    d.index_order = MAXPOOL_INDEX_CHANNELS_LAST;
    CHECK_STATUS(maxpool_output_shape(&d, shape, os, &e), MAXPOOL_ERR_UNSUPPORTED);
    CHECK_CONTAINS(e.message, "index_order CHANNELS_LAST takes index_axis 0 or 1");
    d.index_order = (maxpool_index_order)3;
    CHECK_STATUS(maxpool_output_shape(&d, shape, os, &e), MAXPOOL_ERR_INVALID_ATTRIBUTE);
    /* channels-last indices of a channels-first tensor (1, 3, 4): s*C + c, by the definition in maxpool.h */
    maxpool_desc_init(&d, 1);
    d.kernel[0] = 2;
    d.stride[0] = 2;
    d.index_type = MAXPOOL_INDEX_I64;
    d.index_axis = 0;
    d.index_order = MAXPOOL_INDEX_CHANNELS_LAST;
    const float x[12] = {1, 0, 0, 2, /* c0 */ 5, 6, 7, 8, /* c1 */ 9, 9, 3, 4 /* c2 */};
    const float y[6] = {1, 2, 6, 8, 9, 4};
    const int64_t want[6] = {0 * 3 + 0, 3 * 3 + 0, 1 * 3 + 1, 3 * 3 + 1, 0 * 3 + 2, 3 * 3 + 2};
    run_expect_f32(&d, (const int64_t[]){1, 3, 4}, x, y, want, 6);
}

int main(void)
{
    test_onnx_init();
    test_onnx_lowering();
    test_onnx_errors();
    test_openvino_init();
    test_openvino_lowering();
    test_openvino_errors();
    test_torch_lowering();
    test_torch_errors();
    test_adaptive();
    test_openvino_spatial_axis_run();
    test_openvino_kernel_fits();
    test_tf_lowering();
    test_tf_errors();
    test_tf_run();
    test_core_index_conventions();
    return ts_finish();
}
