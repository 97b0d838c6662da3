/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The worked examples of the spec texts, end to end: front-end lowering ->
 * maxpool_plan_create -> maxpool_run, values and indices compared bit for bit
 * with the numbers written in the texts.
 *
 * - OpenVINO MaxPool (the MaxPool-14 and MaxPool-8 specs, docs.openvino.ai),
 *   examples 1-8, with the pads shown in MaxPool-8 and the values OpenVINO
 *   computes where the texts misprint: example 1 row 1 ends in 3 / index 2;
 *   the ceil_torch example (MaxPool-14 #5) uses pads 1/1 -> [[1,3],[7,9]], [[0,2],[6,8]].
 * - ONNX: the MaxPool spec (onnx.ai/onnx/operators/onnx__MaxPool.html) has no
 *   worked example; the onnx package's backend node
 *   tests (onnx/backend/test/case/node/maxpool.py) with literal data are used
 *   instead, transcribed as written there.
 * - aclnnAdaptiveMaxPool3d (Ascend CANN operator doc): small cases whose expected values were
 *   computed by hand from the formula (left = floor(l*D/Do), right =
 *   ceil((l+1)*D/Do) exclusive; argmax index d*H*W + h*W + w), cross-checked
 *   against OpenVINO AdaptiveMaxPool-8 (same formula).
 *
 * Each example runs for every value type its spec allows that can hold the
 * numbers (unsigned types only for non-negative data), and with the kernel
 * choice left to the library and forced to the scalar ISA.
 */
#include "maxpool.h"
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum { FE_ONNX, FE_OV, FE_TORCH, FE_ADAPTIVE } fe_kind;

static maxpool_status lower_any(fe_kind k, const void *attrs, maxpool_dtype dt, int rank, maxpool_desc *d,
                                maxpool_error *e)
{
    switch (k) {
    case FE_ONNX: return maxpool_onnx_lower((const maxpool_onnx_attrs *)attrs, dt, rank, d, e);
    case FE_OV: return maxpool_openvino_lower((const maxpool_openvino_attrs *)attrs, dt, rank, d, e);
    case FE_TORCH: return maxpool_torch_lower((const maxpool_torch_attrs *)attrs, dt, rank, d, e);
    case FE_ADAPTIVE: return maxpool_adaptive_lower((const maxpool_adaptive_attrs *)attrs, dt, rank, d, e);
    }
    return MAXPOOL_OK;
}

/* Writes v as element i of a dtype buffer. Values are small integers, exact
 * in every type used. */
static void put(maxpool_dtype dt, void *buf, int64_t i, double v)
{
    switch (dt) {
    case MAXPOOL_F32: ((float *)buf)[i] = (float)v; break;
    case MAXPOOL_F64: ((double *)buf)[i] = v; break;
    case MAXPOOL_F16: ((uint16_t *)buf)[i] = ts_f32_to_f16((float)v); break;
    case MAXPOOL_BF16: ((uint16_t *)buf)[i] = ts_f32_to_bf16((float)v); break;
    case MAXPOOL_I8: ((int8_t *)buf)[i] = (int8_t)v; break;
    case MAXPOOL_U8: ((uint8_t *)buf)[i] = (uint8_t)v; break;
    case MAXPOOL_I16: ((int16_t *)buf)[i] = (int16_t)v; break;
    case MAXPOOL_U16: ((uint16_t *)buf)[i] = (uint16_t)v; break;
    case MAXPOOL_I32: ((int32_t *)buf)[i] = (int32_t)v; break;
    case MAXPOOL_I64: ((int64_t *)buf)[i] = (int64_t)v; break;
    default: break;
    }
}

static int64_t prod(const int64_t *s, int n)
{
    int64_t p = 1;
    for (int i = 0; i < n; ++i)
        p *= s[i];
    return p;
}

typedef struct example {
    const char *name;
    fe_kind kind;
    const void *attrs;
    int rank; /* tensor rank */
    const int64_t *in_shape;
    const double *x;
    const int64_t *out_shape;
    const double *y;
    const int64_t *idx; /* NULL: no indices requested */
} example;

/* Runs ex for one dtype and ISA ceiling. Returns 0 when the front-end refuses
 * the dtype with MAXPOOL_ERR_UNSUPPORTED (not a failure). */
static int run_one(const example *ex, maxpool_dtype dt, maxpool_isa isa)
{
    maxpool_desc d;
    maxpool_error e;
    ts_set_context("%s, dtype %s, isa %s", ex->name, maxpool_dtype_name(dt), maxpool_isa_name(isa));
    maxpool_status st = lower_any(ex->kind, ex->attrs, dt, ex->rank, &d, &e);
    if (st == MAXPOOL_ERR_UNSUPPORTED && strstr(e.message, "dtype"))
        return 0;
    if (!CHECK_MSG(st == MAXPOOL_OK, "lowering: status %d: %s", (int)st, e.message))
        return 1;
    d.max_isa = isa;
    CHECK_EQ_INT(d.index_type != MAXPOOL_INDEX_NONE, ex->idx != NULL);

    maxpool_plan *p = NULL;
    st = maxpool_plan_create(&d, ex->in_shape, &p, &e);
    if (!CHECK_MSG(st == MAXPOOL_OK, "plan_create: status %d: %s", (int)st, e.message))
        return 1;
    int64_t oshape[MAXPOOL_MAX_SPATIAL + 2];
    maxpool_plan_output_shape(p, oshape);
    int shape_ok = 1;
    for (int i = 0; i < ex->rank; ++i)
        shape_ok &= CHECK_MSG(oshape[i] == ex->out_shape[i], "output_shape[%d]: %lld, want %lld", i,
                              (long long)oshape[i], (long long)ex->out_shape[i]);
    if (!shape_ok) {
        maxpool_plan_destroy(p);
        return 1;
    }

    const size_t es = maxpool_dtype_size(dt);
    const int64_t nin = prod(ex->in_shape, ex->rank), nout = prod(ex->out_shape, ex->rank);
    CHECK_EQ_I64(maxpool_plan_input_elements(p), nin);
    CHECK_EQ_I64(maxpool_plan_output_elements(p), nout);
    void *x = malloc((size_t)nin * es), *y = malloc((size_t)nout * es), *want = malloc((size_t)nout * es);
    const size_t isz = d.index_type == MAXPOOL_INDEX_I32 ? 4 : 8;
    void *idx = ex->idx ? malloc((size_t)nout * isz) : NULL;
    void *want_idx = ex->idx ? malloc((size_t)nout * isz) : NULL;
    for (int64_t i = 0; i < nin; ++i)
        put(dt, x, i, ex->x[i]);
    for (int64_t i = 0; i < nout; ++i) {
        put(dt, want, i, ex->y[i]);
        if (ex->idx) {
            if (isz == 4)
                ((int32_t *)want_idx)[i] = (int32_t)ex->idx[i];
            else
                ((int64_t *)want_idx)[i] = ex->idx[i];
        }
    }
    memset(y, 0xCD, (size_t)nout * es);
    if (idx)
        memset(idx, 0xCD, (size_t)nout * isz);
    CHECK_STATUS(maxpool_run(p, x, y, idx), MAXPOOL_OK);
    CHECK_BITS_EQ(y, want, nout, es, "values");
    if (ex->idx)
        CHECK_BITS_EQ(idx, want_idx, nout, isz, "indices");
    free(x), free(y), free(want), free(idx), free(want_idx);
    maxpool_plan_destroy(p);
    ts_set_context("%s", "");
    return 1;
}

/* Every dtype that can hold the example's numbers; at least one must run. */
static void run_example(const example *ex)
{
    int nonneg = 1;
    const int64_t nin = prod(ex->in_shape, ex->rank);
    for (int64_t i = 0; i < nin; ++i)
        if (ex->x[i] < 0)
            nonneg = 0;
    int ran = 0;
    for (int t = 0; t < MAXPOOL_DTYPE_COUNT; ++t) {
        if (!nonneg && (t == MAXPOOL_U8 || t == MAXPOOL_U16))
            continue;
        ran += run_one(ex, (maxpool_dtype)t, MAXPOOL_ISA_AUTO);
        run_one(ex, (maxpool_dtype)t, MAXPOOL_ISA_SCALAR);
    }
    CHECK_MSG(ran > 0, "%s: no dtype ran", ex->name);
}

/* ---- OpenVINO MaxPool examples (MaxPool-8, MaxPool-14 specs) ------------ */

static const double ov_a[] = {-1, 2, 3, 4, 5, -6, -7, 8, 9}; /* examples 1, 3, 6 */
static const double ov_seq9[] = {1, 2, 3, 4, 5, 6, 7, 8, 9};  /* examples 5, 7 */
static const int64_t shape_1133[] = {1, 1, 3, 3};

static void ov_attrs(maxpool_openvino_attrs *a, int version, int rank, int64_t k, int64_t s)
{
    maxpool_openvino_attrs_init(a, version);
    a->n_kernel = a->n_strides = rank;
    for (int i = 0; i < rank; ++i)
        a->kernel[i] = k, a->strides[i] = s;
    if (version >= 8)
        a->want_indices = 1;
}

static void ov_pads(maxpool_openvino_attrs *a, int rank, int64_t pb, int64_t pe)
{
    a->n_pads_begin = a->n_pads_end = rank;
    for (int i = 0; i < rank; ++i)
        a->pads_begin[i] = pb, a->pads_end[i] = pe;
}

/* Runs one OpenVINO example under every version that has what it uses. */
static void ov_run(const char *name, maxpool_openvino_attrs *a, int min_version, int rank, const int64_t *in_shape,
                   const double *x, const int64_t *out_shape, const double *y, const int64_t *idx)
{
    static const int versions[] = {1, 8, 14};
    char label[96];
    for (int v = 0; v < 3; ++v) {
        if (versions[v] < min_version)
            continue;
        a->version = versions[v];
        a->want_indices = versions[v] >= 8;
        snprintf(label, sizeof label, "OpenVINO %s, MaxPool-%d", name, versions[v]);
        example ex = {label, FE_OV, a, rank, in_shape, x, out_shape, y, versions[v] >= 8 ? idx : NULL};
        run_example(&ex);
    }
}

static void test_openvino_examples(void)
{
    maxpool_openvino_attrs a;

    /* Example 1: explicit pads 1/1, kernel 2, stride 1, floor. Row 1 corrected. */
    {
        static const double y[] = {-1, 2, 3, 3, 4, 5, 5, 3, 4, 8, 9, 9, -7, 8, 9, 9};
        static const int64_t idx[] = {0, 1, 2, 2, 3, 4, 4, 2, 3, 7, 8, 8, 6, 7, 8, 8};
        static const int64_t os[] = {1, 1, 4, 4};
        ov_attrs(&a, 8, 2, 2, 1);
        ov_pads(&a, 2, 1, 1);
        a.rounding_type = "floor";
        a.auto_pad = "explicit";
        ov_run("example 1 (explicit)", &a, 1, 4, shape_1133, ov_a, os, y, idx);
    }
    /* Example 2: 1-D valid, kernel 3, stride 1. */
    {
        static const double x[] = {-1, 2, 3, 5, -7, 9, 1};
        static const int64_t is[] = {1, 1, 7}, os[] = {1, 1, 5};
        static const double y[] = {3, 5, 5, 9, 9};
        static const int64_t idx[] = {2, 3, 3, 5, 5};
        ov_attrs(&a, 8, 1, 3, 1);
        a.rounding_type = "floor";
        a.auto_pad = "valid";
        ov_run("example 2 (valid)", &a, 1, 3, is, x, os, y, idx);
    }
    /* Example 3: same_lower, kernel 2, stride 1. */
    {
        static const double y[] = {-1, 2, 3, 4, 5, 5, 4, 8, 9};
        static const int64_t idx[] = {0, 1, 2, 3, 4, 4, 3, 7, 8};
        ov_attrs(&a, 8, 2, 2, 1);
        a.rounding_type = "floor";
        a.auto_pad = "same_lower";
        ov_run("example 3 (same_lower)", &a, 1, 4, shape_1133, ov_a, shape_1133, y, idx);
    }
    /* Example 4: same_upper, two channels; indices flat over the whole tensor (axis 0). */
    {
        static const double x[] = {-1, 2, 3, 4, 5, -6, -7, 8, 9, 2, -1, 5, 6, -7, 1, 8, 2, -3};
        static const int64_t is[] = {1, 2, 3, 3};
        static const double y[] = {5, 5, 3, 8, 9, 9, 8, 9, 9, 6, 5, 5, 8, 2, 1, 8, 2, -3};
        static const int64_t idx[] = {4, 4, 2, 7, 8, 8, 7, 8, 8, 12, 11, 11, 15, 16, 14, 15, 16, 17};
        ov_attrs(&a, 8, 2, 2, 1);
        a.rounding_type = "floor";
        a.auto_pad = "same_upper";
        ov_run("example 4 (same_upper)", &a, 1, 4, is, x, is, y, idx);
    }
    /* MaxPool-14 example 5: ceil_torch, kernel 2, stride 2, pads 1/1 (lost in that text). */
    {
        static const double y[] = {1, 3, 7, 9};
        static const int64_t idx[] = {0, 2, 6, 8};
        static const int64_t os[] = {1, 1, 2, 2};
        ov_attrs(&a, 14, 2, 2, 2);
        ov_pads(&a, 2, 1, 1);
        a.rounding_type = "ceil_torch";
        ov_run("000 example 5 (ceil_torch)", &a, 14, 4, shape_1133, ov_seq9, os, y, idx);
    }
    /* 004 example 5 / 000 example 6: valid + ceil -> 2x2. */
    {
        static const double y[] = {5, 3, 8, 9};
        static const int64_t idx[] = {4, 2, 7, 8};
        static const int64_t os[] = {1, 1, 2, 2};
        ov_attrs(&a, 8, 2, 2, 2);
        a.rounding_type = "ceil";
        a.auto_pad = "valid";
        ov_run("004 example 5 (valid + ceil)", &a, 1, 4, shape_1133, ov_a, os, y, idx);
    }
    /* 004 example 6 / 000 example 7: dilations 2, pads 1/1. */
    {
        static const double y[] = {5, 6, 5, 8, 9, 8, 5, 6, 5};
        static const int64_t idx[] = {4, 5, 4, 7, 8, 7, 4, 5, 4};
        ov_attrs(&a, 8, 2, 2, 1);
        ov_pads(&a, 2, 1, 1);
        a.n_dilations = 2, a.dilations[0] = a.dilations[1] = 2;
        a.rounding_type = "floor";
        a.auto_pad = "explicit";
        ov_run("004 example 6 (dilations)", &a, 8, 4, shape_1133, ov_seq9, shape_1133, y, idx);
    }
    /* 004 example 7 / 000 example 8: axis = 2, indices within each plane. */
    {
        static const double x[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18};
        static const int64_t is[] = {1, 2, 3, 3}, os[] = {1, 2, 2, 2};
        static const double y[] = {5, 6, 8, 9, 14, 15, 17, 18};
        static const int64_t idx[] = {4, 5, 7, 8, 4, 5, 7, 8};
        ov_attrs(&a, 8, 2, 2, 1);
        ov_pads(&a, 2, 0, 0);
        a.n_dilations = 2, a.dilations[0] = a.dilations[1] = 1;
        a.rounding_type = "floor";
        a.auto_pad = "explicit";
        a.axis = 2;
        ov_run("004 example 7 (axis 2)", &a, 8, 4, is, x, os, y, idx);
        /* the same with axis 0: channel 1's indices are offset by one plane (9) */
        static const int64_t idx0[] = {4, 5, 7, 8, 13, 14, 16, 17};
        a.axis = 0;
        ov_run("004 example 7 with axis 0", &a, 8, 4, is, x, os, y, idx0);
        a.axis = -2; /* = 2 */
        ov_run("004 example 7 with axis -2", &a, 8, 4, is, x, os, y, idx);
        a.index_element_type = "i32";
        a.axis = 2;
        ov_run("004 example 7, i32 indices", &a, 8, 4, is, x, os, y, idx);
    }
}

/* ---- ONNX backend node tests (onnx/backend/test/case/node/maxpool.py) ---- */

static const double seq25[] = {1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13,
                               14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25};
static const double seq16[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
static const int64_t shape_1155[] = {1, 1, 5, 5};
static const int64_t shape_1144[] = {1, 1, 4, 4};
static const int64_t shape_1122[] = {1, 1, 2, 2};

static void onnx_attrs(maxpool_onnx_attrs *a, int opset, int rank, int64_t k)
{
    maxpool_onnx_attrs_init(a, opset);
    a->n_kernel_shape = rank;
    for (int i = 0; i < rank; ++i)
        a->kernel_shape[i] = k;
}

static void onnx_strides(maxpool_onnx_attrs *a, int rank, int64_t s)
{
    a->n_strides = rank;
    for (int i = 0; i < rank; ++i)
        a->strides[i] = s;
}

/* Runs at opset 22 (the node tests' opset) and, where the example uses only
 * what they have, at the older opsets too. */
static void onnx_run(const char *name, maxpool_onnx_attrs *a, int min_opset, int rank, const int64_t *in_shape,
                     const double *x, const int64_t *out_shape, const double *y, const int64_t *idx)
{
    static const int opsets[] = {1, 8, 10, 11, 12, 22};
    char label[96];
    for (int v = 0; v < 6; ++v) {
        if (opsets[v] < min_opset)
            continue;
        a->opset = opsets[v];
        a->want_indices = idx != NULL;
        snprintf(label, sizeof label, "ONNX %s, opset %d", name, opsets[v]);
        example ex = {label, FE_ONNX, a, rank, in_shape, x, out_shape, y, idx};
        run_example(&ex);
    }
}

static void test_onnx_examples(void)
{
    maxpool_onnx_attrs a;

    /* maxpool_2d_precomputed_pads, maxpool_2d_uint8, maxpool_with_argmax_2d_precomputed_pads */
    {
        static const double y[] = {13, 14, 15, 15, 15, 18, 19, 20, 20, 20, 23, 24, 25,
                                   25, 25, 23, 24, 25, 25, 25, 23, 24, 25, 25, 25};
        static const int64_t z[] = {12, 13, 14, 14, 14, 17, 18, 19, 19, 19, 22, 23, 24,
                                    24, 24, 22, 23, 24, 24, 24, 22, 23, 24, 24, 24};
        onnx_attrs(&a, 22, 2, 5);
        a.n_pads = 4, a.pads[0] = a.pads[1] = a.pads[2] = a.pads[3] = 2;
        onnx_run("maxpool_2d_precomputed_pads", &a, 1, 4, shape_1155, seq25, shape_1155, y, NULL);
        onnx_run("maxpool_with_argmax_2d_precomputed_pads", &a, 8, 4, shape_1155, seq25, shape_1155, y, z);
    }
    /* maxpool_2d_precomputed_strides, maxpool_with_argmax_2d_precomputed_strides (storage_order 1) */
    {
        static const double y[] = {7, 9, 17, 19};
        static const int64_t z_col[] = {6, 16, 8, 18};
        static const int64_t z_row[] = {6, 8, 16, 18};
        static const int64_t os[] = {1, 1, 2, 2};
        onnx_attrs(&a, 22, 2, 2);
        onnx_strides(&a, 2, 2);
        onnx_run("maxpool_2d_precomputed_strides", &a, 1, 4, shape_1155, seq25, os, y, NULL);
        a.storage_order = 1;
        onnx_run("maxpool_with_argmax_2d_precomputed_strides", &a, 8, 4, shape_1155, seq25, os, y, z_col);
        a.storage_order = 0; /* the same in row-major order */
        onnx_run("maxpool_with_argmax_2d_precomputed_strides, storage_order 0", &a, 8, 4, shape_1155, seq25, os, y,
                 z_row);
    }
    /* maxpool_2d_precomputed_same_upper */
    {
        static const double y[] = {7, 9, 10, 17, 19, 20, 22, 24, 25};
        static const int64_t os[] = {1, 1, 3, 3};
        onnx_attrs(&a, 22, 2, 3);
        onnx_strides(&a, 2, 2);
        a.auto_pad = "SAME_UPPER";
        onnx_run("maxpool_2d_precomputed_same_upper", &a, 1, 4, shape_1155, seq25, os, y, NULL);
    }
    /* maxpool_2d_ceil */
    {
        static const double y[] = {11, 12, 15, 16};
        static const int64_t os[] = {1, 1, 2, 2};
        onnx_attrs(&a, 22, 2, 3);
        onnx_strides(&a, 2, 2);
        a.ceil_mode = 1;
        onnx_run("maxpool_2d_ceil", &a, 10, 4, shape_1144, seq16, os, y, NULL);
    }
    /* maxpool_2d_ceil_output_size_reduce_by_one */
    {
        static const double x[] = {1, 2, 3, 4};
        static const double y[] = {1};
        static const int64_t os[] = {1, 1, 1, 1};
        onnx_attrs(&a, 22, 2, 1);
        onnx_strides(&a, 2, 2);
        a.ceil_mode = 1;
        onnx_run("maxpool_2d_ceil_output_size_reduce_by_one", &a, 10, 4, shape_1122, x, os, y, NULL);
    }
    /* maxpool_2d_dilations */
    {
        static const double y[] = {11, 12, 15, 16};
        static const int64_t os[] = {1, 1, 2, 2};
        onnx_attrs(&a, 22, 2, 2);
        onnx_strides(&a, 2, 1);
        a.n_dilations = 2, a.dilations[0] = a.dilations[1] = 2;
        onnx_run("maxpool_2d_dilations", &a, 10, 4, shape_1144, seq16, os, y, NULL);
    }
    /* maxpool_3d_dilations: four copies of the 4x4 plane */
    {
        double x[64];
        for (int i = 0; i < 64; ++i)
            x[i] = seq16[i % 16];
        static const int64_t is[] = {1, 1, 4, 4, 4}, os[] = {1, 1, 2, 2, 2};
        static const double y[] = {11, 12, 15, 16, 11, 12, 15, 16};
        onnx_attrs(&a, 22, 3, 2);
        onnx_strides(&a, 3, 1);
        a.n_dilations = 3, a.dilations[0] = a.dilations[1] = a.dilations[2] = 2;
        onnx_run("maxpool_3d_dilations", &a, 10, 5, is, x, os, y, NULL);
    }
}

/* ---- aclnnAdaptiveMaxPool3d formula (Ascend doc) ------------------------ */

static void acl_run(const char *name, const int64_t *osz, const int64_t *in_shape, const double *x,
                    const int64_t *out_shape, const double *y, const int64_t *idx)
{
    maxpool_adaptive_attrs a;
    maxpool_adaptive_attrs_init(&a, MAXPOOL_ADAPTIVE_ACLNN);
    a.n_output_size = 3;
    for (int i = 0; i < 3; ++i)
        a.output_size[i] = osz[i];
    a.want_indices = 1;
    example ex = {name, FE_ADAPTIVE, &a, 5, in_shape, x, out_shape, y, idx};
    run_example(&ex); /* f32, f16, bf16; the front-end refuses the rest */
    /* values only */
    a.want_indices = 0;
    example ex2 = {name, FE_ADAPTIVE, &a, 5, in_shape, x, out_shape, y, NULL};
    run_example(&ex2);
}

static void test_aclnn_formula(void)
{
    /* (1,1,2,3,5) -> (1,2,3): D [0,2); H [0,2),[1,3); W [0,2),[1,4),[3,5).
     * x[i] = 7*i mod 30 (a permutation of 0..29). */
    {
        static const double x[] = {0,  7,  14, 21, 28, 5,  12, 19, 26, 3,  10, 17, 24, 1,  8,
                                   15, 22, 29, 6,  13, 20, 27, 4,  11, 18, 25, 2,  9,  16, 23};
        static const int64_t is[] = {1, 1, 2, 3, 5}, osz[] = {1, 2, 3}, os[] = {1, 1, 1, 2, 3};
        static const double y[] = {27, 29, 28, 27, 27, 26};
        static const int64_t idx[] = {21, 17, 4, 21, 21, 8};
        acl_run("aclnn (1,1,2,3,5) -> (1,2,3)", osz, is, x, os, y, idx);
    }
    /* (1,1,2,2,3) -> (3,3,4): output larger than input, windows overlap.
     * D: [0,1),[0,2),[1,2); H: [0,1),[0,2),[1,2); W: [0,1),[0,2),[1,3),[2,3). */
    {
        static const double x[] = {0, 5, 10, 3, 8, 1, 6, 11, 4, 9, 2, 7};
        static const int64_t is[] = {1, 1, 2, 2, 3}, osz[] = {3, 3, 4}, os[] = {1, 1, 3, 3, 4};
        static const double y[] = {0,  5, 10, 10, 3, 8,  10, 10, 3, 8, 8, 1, 6,  11, 11, 10, 9, 11,
                                   11, 10, 9, 9,  8, 7, 6,  11, 11, 4, 9, 11, 11, 7, 9,  9,  7, 7};
        static const int64_t idx[] = {0, 1, 2, 2, 3, 4, 2, 2, 3, 4, 4, 5, 6, 7, 7, 2,  9, 7,
                                      7, 2, 9, 9, 4, 11, 6, 7, 7, 8, 9, 7, 7, 11, 9, 9, 11, 11};
        acl_run("aclnn (1,1,2,2,3) -> (3,3,4)", osz, is, x, os, y, idx);
    }
    /* (2,2,2,3,3) -> (1,2,2): four planes, int32 indices within each plane.
     * Plane p holds ((13*i + 5*p) mod 18) + 20*p. */
    {
        static const double x[] = {0,  13, 8,  3,  16, 11, 6,  1,  14, 9,  4,  17, 12, 7,  2,  15, 10, 5,
                                   25, 20, 33, 28, 23, 36, 31, 26, 21, 34, 29, 24, 37, 32, 27, 22, 35, 30,
                                   50, 45, 40, 53, 48, 43, 56, 51, 46, 41, 54, 49, 44, 57, 52, 47, 42, 55,
                                   75, 70, 65, 60, 73, 68, 63, 76, 71, 66, 61, 74, 69, 64, 77, 72, 67, 62};
        static const int64_t is[] = {2, 2, 2, 3, 3}, osz[] = {1, 2, 2}, os[] = {2, 2, 1, 2, 2};
        static const double y[] = {16, 17, 16, 16, 37, 36, 37, 36, 57, 57, 57, 57, 75, 77, 76, 77};
        static const int64_t idx[] = {4, 11, 4, 4, 12, 5, 12, 5, 13, 13, 13, 13, 0, 14, 7, 14};
        acl_run("aclnn (2,2,2,3,3) -> (1,2,2)", osz, is, x, os, y, idx);

        /* the same windows through the PyTorch and OpenVINO flavors (int64 per-plane indices) */
        maxpool_adaptive_attrs a;
        for (int f = 0; f < 2; ++f) {
            maxpool_adaptive_attrs_init(&a, f == 0 ? MAXPOOL_ADAPTIVE_TORCH : MAXPOOL_ADAPTIVE_OPENVINO);
            a.n_output_size = 3, a.output_size[0] = 1, a.output_size[1] = 2, a.output_size[2] = 2;
            a.want_indices = 1;
            example ex = {f == 0 ? "adaptive TORCH (2,2,2,3,3) -> (1,2,2)" : "adaptive OPENVINO (2,2,2,3,3) -> (1,2,2)",
                          FE_ADAPTIVE, &a, 5, is, x, os, y, idx};
            run_example(&ex);
        }
    }
}

int main(void)
{
    test_openvino_examples();
    test_onnx_examples();
    test_aclnn_formula();
    return ts_finish();
}
