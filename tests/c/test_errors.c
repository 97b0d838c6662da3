/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Error paths: every invalid descriptor field and shape gives its status and
 * a message naming the attribute / axis / value; err may be NULL; *plan is
 * NULL on failure; maxpool_run's NULL checks write nothing; i32 index and
 * int64 size overflows are caught at plan time (no tensor is allocated);
 * maxpool_strerror for every code; reject_empty_windows.
 */
#include "maxpool.h"
#include "test_support.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int64_t shape4[4] = {2, 3, 8, 8};

/* desc on shape must fail with `want`, and every message must contain each
 * non-NULL needle. Checked through maxpool_output_shape and
 * maxpool_plan_create, each with and without an error struct. */
static void expect_fail_at(int line, const maxpool_desc *d, const int64_t *shape, maxpool_status want,
                           const char *needle1, const char *needle2)
{
    ts_set_context("expect_fail at line %d", line);
    maxpool_error err;
    int64_t out[MAXPOOL_MAX_SPATIAL + 2];

    memset(&err, 0x7f, sizeof err);
    CHECK_STATUS(maxpool_output_shape(d, shape, out, &err), want);
    CHECK_STATUS(err.code, want);
    CHECK(memchr(err.message, '\0', sizeof err.message) != NULL);
    if (needle1)
        CHECK_CONTAINS(err.message, needle1);
    if (needle2)
        CHECK_CONTAINS(err.message, needle2);

    memset(&err, 0x7f, sizeof err);
    maxpool_plan *p = (maxpool_plan *)&err; /* any non-NULL value: must come back NULL */
    CHECK_STATUS(maxpool_plan_create(d, shape, &p, &err), want);
    CHECK(p == NULL);
    CHECK_STATUS(err.code, want);
    if (needle1)
        CHECK_CONTAINS(err.message, needle1);
    if (needle2)
        CHECK_CONTAINS(err.message, needle2);

    p = (maxpool_plan *)&err;
    CHECK_STATUS(maxpool_plan_create(d, shape, &p, NULL), want);
    CHECK(p == NULL);
    CHECK_STATUS(maxpool_output_shape(d, shape, out, NULL), want);
    ts_set_context("%s", "");
}
#define EXPECT_FAIL(d, shape, want, n1, n2) expect_fail_at(__LINE__, (d), (shape), (want), (n1), (n2))

/* desc on shape must succeed (plan created and destroyed, nothing run). */
static void expect_ok_at(int line, const maxpool_desc *d, const int64_t *shape)
{
    ts_set_context("expect_ok at line %d", line);
    maxpool_error err;
    memset(&err, 0x7f, sizeof err);
    maxpool_plan *p = NULL;
    maxpool_status st = maxpool_plan_create(d, shape, &p, &err);
    CHECK_MSG(st == MAXPOOL_OK && p != NULL, "plan_create status %d: %s", (int)st,
              st == MAXPOOL_OK ? "" : err.message);
    if (st == MAXPOOL_OK) {
        CHECK_STATUS(err.code, MAXPOOL_OK);
        CHECK(err.message[0] == '\0');
    }
    maxpool_plan_destroy(p);
    ts_set_context("%s", "");
}
#define EXPECT_OK(d, shape) expect_ok_at(__LINE__, (d), (shape))

static void base2d(maxpool_desc *d)
{
    maxpool_desc_init(d, 2);
    d->kernel[0] = d->kernel[1] = 3;
    d->stride[0] = d->stride[1] = 2;
}

static void enum_fields(void)
{
    maxpool_desc d;
    base2d(&d);
    EXPECT_OK(&d, shape4);

    d.spatial_rank = 0;
    EXPECT_FAIL(&d, shape4, MAXPOOL_ERR_INVALID_ATTRIBUTE, "spatial_rank=0", NULL);
    d.spatial_rank = MAXPOOL_MAX_SPATIAL + 1;
    EXPECT_FAIL(&d, shape4, MAXPOOL_ERR_INVALID_ATTRIBUTE, "spatial_rank=9", NULL);
    d.spatial_rank = -3;
    EXPECT_FAIL(&d, shape4, MAXPOOL_ERR_INVALID_ATTRIBUTE, "spatial_rank=-3", NULL);

    base2d(&d);
    d.dtype = MAXPOOL_DTYPE_COUNT;
    EXPECT_FAIL(&d, shape4, MAXPOOL_ERR_UNSUPPORTED, "dtype=10", NULL);
    d.dtype = (maxpool_dtype)-1;
    EXPECT_FAIL(&d, shape4, MAXPOOL_ERR_UNSUPPORTED, "dtype=-1", NULL);

    base2d(&d);
    d.layout = (maxpool_layout)2;
    EXPECT_FAIL(&d, shape4, MAXPOOL_ERR_INVALID_ATTRIBUTE, "layout=2", NULL);
    base2d(&d);
    d.window = (maxpool_window_kind)2;
    EXPECT_FAIL(&d, shape4, MAXPOOL_ERR_INVALID_ATTRIBUTE, "window=2", NULL);
    base2d(&d);
    d.auto_pad = (maxpool_auto_pad)4;
    EXPECT_FAIL(&d, shape4, MAXPOOL_ERR_INVALID_ATTRIBUTE, "auto_pad=4", NULL);
    d.auto_pad = (maxpool_auto_pad)-1;
    EXPECT_FAIL(&d, shape4, MAXPOOL_ERR_INVALID_ATTRIBUTE, "auto_pad=-1", NULL);
    base2d(&d);
    d.rounding = (maxpool_rounding)3;
    EXPECT_FAIL(&d, shape4, MAXPOOL_ERR_INVALID_ATTRIBUTE, "rounding=3", NULL);
    base2d(&d);
    d.index_type = (maxpool_index_type)3;
    EXPECT_FAIL(&d, shape4, MAXPOOL_ERR_INVALID_ATTRIBUTE, "index_type=3", NULL);
    base2d(&d);
    d.index_axis = 4; /* 2-D: dimensions 0 .. 3 */
    EXPECT_FAIL(&d, shape4, MAXPOOL_ERR_INVALID_ATTRIBUTE, "index_axis=4", NULL);
    d.index_axis = -1;
    EXPECT_FAIL(&d, shape4, MAXPOOL_ERR_INVALID_ATTRIBUTE, "index_axis=-1", NULL);
    base2d(&d);
    d.index_order = (maxpool_index_order)3;
    EXPECT_FAIL(&d, shape4, MAXPOOL_ERR_INVALID_ATTRIBUTE, "index_order=3", NULL);
    base2d(&d);
    d.nan_policy = (maxpool_nan_policy)2;
    EXPECT_FAIL(&d, shape4, MAXPOOL_ERR_INVALID_ATTRIBUTE, "nan_policy=2", NULL);
    base2d(&d);
    d.empty_value = (maxpool_empty_value)2;
    EXPECT_FAIL(&d, shape4, MAXPOOL_ERR_INVALID_ATTRIBUTE, "empty_value=2", NULL);
    base2d(&d);
    d.empty_index = (maxpool_empty_index)7;
    EXPECT_FAIL(&d, shape4, MAXPOOL_ERR_INVALID_ATTRIBUTE, "empty_index=7", NULL);
    base2d(&d);
    d.window_init = (maxpool_window_init)2;
    EXPECT_FAIL(&d, shape4, MAXPOOL_ERR_INVALID_ATTRIBUTE, "window_init=2", NULL);
    d.window_init = (maxpool_window_init)-1;
    EXPECT_FAIL(&d, shape4, MAXPOOL_ERR_INVALID_ATTRIBUTE, "window_init=-1", NULL);
    base2d(&d);
    d.max_isa = (maxpool_isa)(MAXPOOL_ISA_NEON + 1);
    EXPECT_FAIL(&d, shape4, MAXPOOL_ERR_INVALID_ATTRIBUTE, "max_isa=6", NULL);

    /* every valid enumerator is accepted */
    for (int t = 0; t < MAXPOOL_DTYPE_COUNT; ++t) {
        base2d(&d);
        d.dtype = (maxpool_dtype)t;
        EXPECT_OK(&d, shape4);
    }
    for (int i = 0; i <= MAXPOOL_ISA_NEON; ++i) {
        base2d(&d);
        d.max_isa = (maxpool_isa)i;
        EXPECT_OK(&d, shape4);
    }
    for (int a = 0; a <= 2; ++a) {
        base2d(&d);
        d.index_type = MAXPOOL_INDEX_I32;
        d.index_axis = a;
        d.empty_index = (maxpool_empty_index)a;
        d.window_init = (maxpool_window_init)(a % 2);
        EXPECT_OK(&d, shape4);
    }
}

static void axis_fields(void)
{
    maxpool_desc d;
    base2d(&d);
    d.kernel[1] = 0;
    EXPECT_FAIL(&d, shape4, MAXPOOL_ERR_INVALID_ATTRIBUTE, "kernel[1]=0", NULL);
    base2d(&d);
    d.kernel[0] = -4;
    EXPECT_FAIL(&d, shape4, MAXPOOL_ERR_INVALID_ATTRIBUTE, "kernel[0]=-4", NULL);
    base2d(&d);
    d.stride[0] = 0;
    EXPECT_FAIL(&d, shape4, MAXPOOL_ERR_INVALID_ATTRIBUTE, "stride[0]=0", NULL);
    base2d(&d);
    d.stride[1] = -1;
    EXPECT_FAIL(&d, shape4, MAXPOOL_ERR_INVALID_ATTRIBUTE, "stride[1]=-1", NULL);
    base2d(&d);
    d.dilation[1] = 0;
    EXPECT_FAIL(&d, shape4, MAXPOOL_ERR_INVALID_ATTRIBUTE, "dilation[1]=0", NULL);
    base2d(&d);
    d.pad_begin[1] = -1;
    EXPECT_FAIL(&d, shape4, MAXPOOL_ERR_INVALID_ATTRIBUTE, "pad_begin[1]=-1", NULL);
    base2d(&d);
    d.pad_end[0] = -2;
    EXPECT_FAIL(&d, shape4, MAXPOOL_ERR_INVALID_ATTRIBUTE, "pad_end[0]=-2", NULL);

    /* pads are only read with explicit padding */
    base2d(&d);
    d.pad_begin[0] = -5;
    d.pad_end[1] = -5;
    d.auto_pad = MAXPOOL_PAD_VALID;
    EXPECT_OK(&d, shape4);
    d.auto_pad = MAXPOOL_PAD_SAME_UPPER;
    EXPECT_OK(&d, shape4);
    /* axes past spatial_rank are never read */
    base2d(&d);
    d.kernel[2] = 0;
    d.stride[5] = -1;
    d.output_size[7] = 0;
    EXPECT_OK(&d, shape4);

    /* adaptive: output_size checked, the fixed-window fields are not read */
    base2d(&d);
    d.window = MAXPOOL_WINDOW_ADAPTIVE;
    d.output_size[0] = 2;
    d.output_size[1] = 0;
    EXPECT_FAIL(&d, shape4, MAXPOOL_ERR_INVALID_ATTRIBUTE, "output_size[1]=0", NULL);
    d.output_size[1] = -3;
    EXPECT_FAIL(&d, shape4, MAXPOOL_ERR_INVALID_ATTRIBUTE, "output_size[1]=-3", NULL);
    d.output_size[1] = 20; /* larger than the input: allowed */
    d.kernel[0] = 0;
    d.stride[1] = -1;
    EXPECT_OK(&d, shape4);
    /* fixed: output_size is not read */
    base2d(&d);
    d.output_size[0] = 0;
    EXPECT_OK(&d, shape4);
}

static void shapes(void)
{
    maxpool_desc d;
    base2d(&d);
    {
        const int64_t s[4] = {2, -1, 8, 8};
        EXPECT_FAIL(&d, s, MAXPOOL_ERR_INVALID_SHAPE, "input_shape[1]=-1", NULL);
    }
    {
        const int64_t s[4] = {-2, 3, 8, 8};
        EXPECT_FAIL(&d, s, MAXPOOL_ERR_INVALID_SHAPE, "input_shape[0]=-2", NULL);
    }
    {
        const int64_t s[4] = {2, 3, 8, 0};
        EXPECT_FAIL(&d, s, MAXPOOL_ERR_INVALID_SHAPE, "input_shape[3]=0", NULL);
    }
    {
        const int64_t s[4] = {2, 3, -8, 8};
        EXPECT_FAIL(&d, s, MAXPOOL_ERR_INVALID_SHAPE, "input_shape[2]=-8", NULL);
    }
    d.layout = MAXPOOL_CHANNELS_LAST; /* spatial dims are 1 and 2 in memory order */
    {
        const int64_t s[4] = {2, 8, 0, 3};
        EXPECT_FAIL(&d, s, MAXPOOL_ERR_INVALID_SHAPE, "input_shape[2]=0", NULL);
    }
    {
        const int64_t s[4] = {2, 8, 8, 0}; /* C = 0 is an empty tensor, not an error */
        EXPECT_OK(&d, s);
    }
    /* output size < 1, named by axis, with the numbers */
    base2d(&d);
    d.kernel[1] = 9;
    EXPECT_FAIL(&d, shape4, MAXPOOL_ERR_INVALID_SHAPE, "axis 1", "input 8");
    d.kernel[1] = 3;
    d.dilation[0] = 4; /* dilated kernel 9 > 8 */
    EXPECT_FAIL(&d, shape4, MAXPOOL_ERR_INVALID_SHAPE, "axis 0", "dilated kernel 9");
    d.pad_end[0] = 1; /* now fits exactly */
    EXPECT_OK(&d, shape4);
    d.auto_pad = MAXPOOL_PAD_VALID; /* valid ignores the pad: fails again */
    EXPECT_FAIL(&d, shape4, MAXPOOL_ERR_INVALID_SHAPE, "axis 0", NULL);
    d.auto_pad = MAXPOOL_PAD_SAME_LOWER; /* same never fails */
    EXPECT_OK(&d, shape4);
}

static void null_pointers(void)
{
    maxpool_desc d;
    base2d(&d);
    maxpool_error err;
    int64_t out[4];
    maxpool_plan *p = (maxpool_plan *)&err;
    memset(&err, 0, sizeof err);
    CHECK_STATUS(maxpool_plan_create(NULL, shape4, &p, &err), MAXPOOL_ERR_NULL_POINTER);
    CHECK(p == NULL);
    CHECK_CONTAINS(err.message, "desc");
    p = (maxpool_plan *)&err;
    CHECK_STATUS(maxpool_plan_create(&d, NULL, &p, &err), MAXPOOL_ERR_NULL_POINTER);
    CHECK(p == NULL);
    CHECK_CONTAINS(err.message, "input_shape");
    CHECK_STATUS(maxpool_plan_create(&d, shape4, NULL, &err), MAXPOOL_ERR_NULL_POINTER);
    CHECK_CONTAINS(err.message, "plan");
    CHECK_STATUS(maxpool_plan_create(&d, shape4, NULL, NULL), MAXPOOL_ERR_NULL_POINTER);
    CHECK_STATUS(maxpool_output_shape(NULL, shape4, out, &err), MAXPOOL_ERR_NULL_POINTER);
    CHECK_STATUS(maxpool_output_shape(&d, NULL, out, &err), MAXPOOL_ERR_NULL_POINTER);
    CHECK_STATUS(maxpool_output_shape(&d, shape4, NULL, &err), MAXPOOL_ERR_NULL_POINTER);
    CHECK_CONTAINS(err.message, "output_shape");
    CHECK_STATUS(maxpool_output_shape(&d, shape4, NULL, NULL), MAXPOOL_ERR_NULL_POINTER);

    /* maxpool_run: NULL x / y / indices -> NULL_POINTER, nothing written */
    CHECK_STATUS(maxpool_run(NULL, NULL, NULL, NULL), MAXPOOL_ERR_NULL_POINTER);
    for (int it = 0; it < 3; ++it) {
        maxpool_desc dd;
        base2d(&dd);
        dd.index_type = it == 0 ? MAXPOOL_INDEX_NONE : it == 1 ? MAXPOOL_INDEX_I32 : MAXPOOL_INDEX_I64;
        dd.num_threads = 3;
        ts_set_context("run NULL checks, index type %d", it);
        p = NULL;
        CHECK_STATUS(maxpool_plan_create(&dd, shape4, &p, NULL), MAXPOOL_OK);
        if (!p)
            continue;
        CHECK_EQ_I64(maxpool_plan_output_elements(p), 2 * 3 * 3 * 3);
        float x[2 * 3 * 8 * 8], y[54], y0[54];
        int64_t ind[54], ind0[54];
        for (int i = 0; i < 2 * 3 * 8 * 8; ++i)
            x[i] = (float)(i % 7);
        memset(y, 0x5C, sizeof y);
        memset(ind, 0x3D, sizeof ind);
        memcpy(y0, y, sizeof y);
        memcpy(ind0, ind, sizeof ind);
        CHECK_STATUS(maxpool_run(p, NULL, y, ind), MAXPOOL_ERR_NULL_POINTER);
        CHECK_STATUS(maxpool_run(p, x, NULL, ind), MAXPOOL_ERR_NULL_POINTER);
        if (it != 0)
            CHECK_STATUS(maxpool_run(p, x, y, NULL), MAXPOOL_ERR_NULL_POINTER);
        CHECK(memcmp(y, y0, sizeof y) == 0);
        CHECK(memcmp(ind, ind0, sizeof ind) == 0);
        if (it == 0) { /* no indices requested: NULL is fine, and a given buffer is not touched */
            CHECK_STATUS(maxpool_run(p, x, y, NULL), MAXPOOL_OK);
            CHECK(memcmp(y, y0, sizeof y) != 0);
            memcpy(y, y0, sizeof y);
            CHECK_STATUS(maxpool_run(p, x, y, ind), MAXPOOL_OK);
            CHECK(memcmp(ind, ind0, sizeof ind) == 0);
        } else {
            CHECK_STATUS(maxpool_run(p, x, y, ind), MAXPOOL_OK);
        }
        maxpool_plan_destroy(p);
    }
    ts_set_context("%s", "");

    /* the NULL-tolerant helpers */
    maxpool_desc_init(NULL, 2);
    maxpool_plan_destroy(NULL);
    maxpool_plan_output_shape(NULL, out);
    CHECK_EQ_I64(maxpool_plan_input_elements(NULL), 0);
    CHECK_EQ_I64(maxpool_plan_output_elements(NULL), 0);
    CHECK(maxpool_plan_kernel_name(NULL) != NULL);
    CHECK_EQ_I64(maxpool_dtype_size(MAXPOOL_DTYPE_COUNT), 0);
    CHECK_EQ_I64(maxpool_dtype_size((maxpool_dtype)-1), 0);
    CHECK(maxpool_dtype_name(MAXPOOL_DTYPE_COUNT) == NULL);
    CHECK(maxpool_dtype_name((maxpool_dtype)-1) == NULL);
    static const size_t sizes[MAXPOOL_DTYPE_COUNT] = {4, 8, 2, 2, 1, 1, 2, 2, 4, 8};
    static const char *const names[MAXPOOL_DTYPE_COUNT] = {"f32", "f64", "f16", "bf16", "i8",
                                                           "u8",  "i16", "u16", "i32",  "i64"};
    for (int t = 0; t < MAXPOOL_DTYPE_COUNT; ++t) {
        CHECK_EQ_I64(maxpool_dtype_size((maxpool_dtype)t), sizes[t]);
        CHECK_STR_EQ(maxpool_dtype_name((maxpool_dtype)t), names[t]);
    }
}

static void overflow(void)
{
    maxpool_desc d;
    /* i32 indices: the largest index must fit, decided at plan time. 2 x 2^30 x 1:
     * whole-tensor indices reach 2^31 - 1 (fits); 2 x (2^30 + 1) do not. */
    maxpool_desc_init(&d, 1);
    d.dtype = MAXPOOL_U8;
    d.index_type = MAXPOOL_INDEX_I32;
    {
        const int64_t fits[3] = {2, INT64_C(1) << 30, 1};
        const int64_t over[3] = {2, (INT64_C(1) << 30) + 1, 1};
        EXPECT_OK(&d, fits);
        EXPECT_FAIL(&d, over, MAXPOOL_ERR_OVERFLOW, "i32", "index_axis=0");
        d.index_axis = 1; /* within one batch item: 2^30 + 1 values */
        EXPECT_OK(&d, over);
        d.index_axis = 2;
        EXPECT_OK(&d, over);
        d.index_type = MAXPOOL_INDEX_I64;
        d.index_axis = 0;
        EXPECT_OK(&d, over);
        d.index_type = MAXPOOL_INDEX_NONE;
        EXPECT_OK(&d, over);
    }
    /* within one plane: 2^16 x 2^15 = 2^31 elements fit (max 2^31 - 1), 2^16 x (2^15 + 1) not */
    maxpool_desc_init(&d, 2);
    d.dtype = MAXPOOL_I8;
    d.index_type = MAXPOOL_INDEX_I32;
    d.index_axis = 2;
    {
        const int64_t fits[4] = {3, 3, INT64_C(1) << 16, INT64_C(1) << 15};
        const int64_t over[4] = {3, 3, INT64_C(1) << 16, (INT64_C(1) << 15) + 1};
        EXPECT_OK(&d, fits);
        EXPECT_FAIL(&d, over, MAXPOOL_ERR_OVERFLOW, "index_axis=2", NULL);
        d.index_order = MAXPOOL_INDEX_COL_MAJOR;
        EXPECT_OK(&d, fits);
        EXPECT_FAIL(&d, over, MAXPOOL_ERR_OVERFLOW, "i32", NULL);
        d.index_order = MAXPOOL_INDEX_ROW_MAJOR;
        /* FIRST_TAP can name positions past the input end: two empty windows at the
         * end of axis 1 (pad_end 2, kernel 1) have first taps 2^15 and 2^15 + 1, so the
         * largest index is (2^16 - 1) * 2^15 + 2^15 + 1 = 2^31 + 1 */
        d.pad_end[1] = 2;
        EXPECT_OK(&d, fits); /* empty index -1 */
        d.empty_index = MAXPOOL_EMPTY_INDEX_PLANE_START;
        EXPECT_OK(&d, fits);
        d.empty_index = MAXPOOL_EMPTY_INDEX_FIRST_TAP;
        EXPECT_FAIL(&d, fits, MAXPOOL_ERR_OVERFLOW, "i32", NULL);
        d.index_type = MAXPOOL_INDEX_I64;
        EXPECT_OK(&d, fits);
    }

    /* int64 size overflows */
    maxpool_desc_init(&d, 1);
    d.kernel[0] = INT64_C(1) << 62;
    d.dilation[0] = 4;
    {
        const int64_t s[3] = {1, 1, 10};
        EXPECT_FAIL(&d, s, MAXPOOL_ERR_OVERFLOW, "kernel[0]", "dilation[0]");
    }
    maxpool_desc_init(&d, 1);
    d.pad_begin[0] = INT64_MAX;
    {
        const int64_t s[3] = {1, 1, 10};
        EXPECT_FAIL(&d, s, MAXPOOL_ERR_OVERFLOW, "axis 0", NULL);
    }
    maxpool_desc_init(&d, 1); /* SAME: (out-1)*s + ek = (2^62+1) + 2^62 overflows */
    d.auto_pad = MAXPOOL_PAD_SAME_UPPER;
    d.kernel[0] = INT64_C(1) << 62;
    {
        const int64_t s[3] = {1, 1, (INT64_C(1) << 62) + 2};
        EXPECT_FAIL(&d, s, MAXPOOL_ERR_OVERFLOW, "axis 0", "SAME");
    }
    maxpool_desc_init(&d, 3); /* spatial product 2^66 */
    {
        const int64_t s[5] = {1, 1, INT64_C(1) << 22, INT64_C(1) << 22, INT64_C(1) << 22};
        EXPECT_FAIL(&d, s, MAXPOOL_ERR_OVERFLOW, "spatial size", "axis 2");
    }
    maxpool_desc_init(&d, 1); /* N * C = 2^70 */
    {
        const int64_t s[3] = {INT64_C(1) << 40, INT64_C(1) << 30, 1};
        EXPECT_FAIL(&d, s, MAXPOOL_ERR_OVERFLOW, "input tensor", NULL);
    }
    maxpool_desc_init(&d, 1); /* 2^61 f64 elements: 2^64 bytes */
    d.dtype = MAXPOOL_F64;
    {
        const int64_t s[3] = {INT64_C(1) << 30, INT64_C(1) << 30, 2};
        EXPECT_FAIL(&d, s, MAXPOOL_ERR_OVERFLOW, "input tensor", NULL);
    }
    maxpool_desc_init(&d, 1); /* adaptive: the output is larger than the input; 2^61 f32 = 2^63 bytes */
    d.window = MAXPOOL_WINDOW_ADAPTIVE;
    d.output_size[0] = INT64_C(1) << 61;
    {
        const int64_t s[3] = {1, 1, 1};
        EXPECT_FAIL(&d, s, MAXPOOL_ERR_OVERFLOW, "output tensor", NULL);
    }
    d.output_size[0] = INT64_C(1) << 32; /* (in+1)*(out+1) would overflow the window formula */
    {
        const int64_t s[3] = {0, 1, INT64_C(1) << 32};
        EXPECT_FAIL(&d, s, MAXPOOL_ERR_OVERFLOW, "axis 0", "output_size");
    }
}

static void reject_empty(void)
{
    maxpool_desc d;
    maxpool_desc_init(&d, 2);
    d.kernel[0] = d.kernel[1] = 2;
    d.pad_begin[1] = 2; /* output 0 of axis 1 covers -2, -1: no input element */
    d.reject_empty_windows = 1;
    EXPECT_FAIL(&d, shape4, MAXPOOL_ERR_INVALID_ATTRIBUTE, "axis 1", "no input element");
    d.reject_empty_windows = 0;
    EXPECT_OK(&d, shape4);
    d.reject_empty_windows = 1;
    d.pad_begin[1] = 1; /* pads below the kernel: every window holds an element */
    d.pad_end[0] = 1;
    EXPECT_OK(&d, shape4);
    /* at the end: ceil keeps a window starting in the end padding, ceil_torch drops it */
    maxpool_desc_init(&d, 1);
    d.kernel[0] = 1;
    d.stride[0] = 2;
    d.rounding = MAXPOOL_ROUND_CEIL;
    d.reject_empty_windows = 1;
    {
        const int64_t s[3] = {1, 1, 6};
        EXPECT_FAIL(&d, s, MAXPOOL_ERR_INVALID_ATTRIBUTE, "axis 0", NULL);
        d.rounding = MAXPOOL_ROUND_CEIL_TORCH;
        EXPECT_OK(&d, s);
    }
    /* dilation skipping over a tiny input: in 2, k 2, d 3, pad 1/1 -> out 1, taps -1 and 2 */
    maxpool_desc_init(&d, 1);
    d.kernel[0] = 2;
    d.dilation[0] = 3;
    d.pad_begin[0] = d.pad_end[0] = 1;
    d.reject_empty_windows = 1;
    {
        const int64_t s[3] = {1, 1, 2};
        EXPECT_FAIL(&d, s, MAXPOOL_ERR_INVALID_ATTRIBUTE, "axis 0", NULL);
        /* a middle window only: in 2, k 2, d 3, stride 1, pads 2/2: out (2+4-4)/1+1 = 3,
         * taps (-2,1) (-1,2) (0,3): output 1 is the only empty one */
        d.pad_begin[0] = d.pad_end[0] = 2;
        EXPECT_FAIL(&d, s, MAXPOOL_ERR_INVALID_ATTRIBUTE, "axis 0", NULL);
        d.reject_empty_windows = 0;
        maxpool_plan *p = NULL;
        CHECK_STATUS(maxpool_plan_create(&d, s, &p, NULL), MAXPOOL_OK);
        if (p) {
            int64_t o[3];
            maxpool_plan_output_shape(p, o);
            CHECK_EQ_I64(o[2], 3);
            const float x[2] = {5.0f, 7.0f};
            float y[3];
            CHECK_STATUS(maxpool_run(p, x, y, NULL), MAXPOOL_OK);
            CHECK(y[0] == 7.0f && y[1] == -3.40282347e38f && y[2] == 5.0f);
            maxpool_plan_destroy(p);
        }
    }
    /* adaptive windows are never empty */
    maxpool_desc_init(&d, 1);
    d.window = MAXPOOL_WINDOW_ADAPTIVE;
    d.output_size[0] = 9;
    d.reject_empty_windows = 1;
    {
        const int64_t s[3] = {1, 1, 2};
        EXPECT_OK(&d, s);
    }
}

static void strerror_all(void)
{
    static const struct {
        maxpool_status s;
        const char *word;
    } codes[] = {
        {MAXPOOL_OK, "success"},
        {MAXPOOL_ERR_NULL_POINTER, "null"},
        {MAXPOOL_ERR_INVALID_ATTRIBUTE, "attribute"},
        {MAXPOOL_ERR_INVALID_SHAPE, "shape"},
        {MAXPOOL_ERR_UNSUPPORTED, "unsupported"},
        {MAXPOOL_ERR_OVERFLOW, "overflow"},
        {MAXPOOL_ERR_OUT_OF_MEMORY, "memory"},
    };
    const size_t n = sizeof codes / sizeof codes[0];
    for (size_t i = 0; i < n; ++i) {
        const char *m = maxpool_strerror(codes[i].s);
        CHECK(m != NULL && m[0] != '\0');
        CHECK_CONTAINS(m, codes[i].word);
        for (size_t j = 0; j < i; ++j)
            CHECK(strcmp(m, maxpool_strerror(codes[j].s)) != 0);
    }
    const char *u = maxpool_strerror((maxpool_status)99);
    CHECK(u != NULL && u[0] != '\0');
    u = maxpool_strerror((maxpool_status)-1);
    CHECK(u != NULL && u[0] != '\0');
}

int main(void)
{
    enum_fields();
    axis_fields();
    shapes();
    null_pointers();
    overflow();
    reject_empty();
    strerror_all();
    return ts_finish();
}
