/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Regression cases where the real systems do something particular, each run
 * through its front-end, planned and run with every ISA this CPU has. The
 * expected values are what onnxruntime 1.31.1 and openvino 2026.4.1 output
 * for these inputs (reproduce with tests/python/oracles.py; the differential
 * suite in tests/python covers thousands more).
 */
#include "maxpool.h"
#include "test_support.h"

#include <math.h>
#include <string.h>

static const maxpool_isa isas[] = {MAXPOOL_ISA_SCALAR, MAXPOOL_ISA_SSE2, MAXPOOL_ISA_AVX2, MAXPOOL_ISA_AUTO};

/* Plans desc for a (1, C, W) input, runs it under every ISA, compares bits. */
static void run_case(const char *what, maxpool_desc d, const int64_t *shape, const void *x, const void *want_y,
                     const int64_t *want_idx, int64_t out_elems)
{
    const size_t esz = maxpool_dtype_size(d.dtype);
    for (size_t k = 0; k < sizeof isas / sizeof isas[0]; ++k) {
        ts_set_context("%s, max_isa %s", what, maxpool_isa_name(isas[k]));
        d.max_isa = isas[k];
        maxpool_plan *p = NULL;
        maxpool_error err;
        if (!CHECK_MSG(maxpool_plan_create(&d, shape, &p, &err) == MAXPOOL_OK, "plan: %s", err.message))
            continue;
        CHECK_EQ_I64(maxpool_plan_output_elements(p), out_elems);
        unsigned char y[64];
        int64_t i64[16];
        int32_t i32[16];
        void *ind = d.index_type == MAXPOOL_INDEX_I32 ? (void *)i32 : (void *)i64;
        CHECK_STATUS(maxpool_run(p, x, y, d.index_type == MAXPOOL_INDEX_NONE ? NULL : ind), MAXPOOL_OK);
        CHECK_BITS_EQ(y, want_y, out_elems, esz, "values");
        for (int64_t i = 0; want_idx && i < out_elems; ++i)
            CHECK_EQ_I64(d.index_type == MAXPOOL_INDEX_I32 ? i32[i] : i64[i], want_idx[i]);
        maxpool_plan_destroy(p);
    }
}

static maxpool_desc lower_onnx(maxpool_dtype dt, int64_t k, int64_t s)
{
    maxpool_onnx_attrs a;
    maxpool_onnx_attrs_init(&a, 22);
    a.n_kernel_shape = 1;
    a.kernel_shape[0] = k;
    a.n_strides = 1;
    a.strides[0] = s;
    a.want_indices = 1;
    maxpool_desc d;
    maxpool_error err;
    CHECK_MSG(maxpool_onnx_lower(&a, dt, 3, &d, &err) == MAXPOOL_OK, "%s", err.message);
    return d;
}

static maxpool_desc lower_ov(maxpool_dtype dt, int64_t k, int64_t s, int64_t pb, int64_t pe, const char *auto_pad,
                             const char *rounding, int64_t axis)
{
    maxpool_openvino_attrs a;
    maxpool_openvino_attrs_init(&a, 8);
    a.n_kernel = a.n_strides = a.n_pads_begin = a.n_pads_end = 1;
    a.kernel[0] = k;
    a.strides[0] = s;
    a.pads_begin[0] = pb;
    a.pads_end[0] = pe;
    a.auto_pad = auto_pad;
    a.rounding_type = rounding;
    a.axis = axis;
    a.want_indices = 1;
    maxpool_desc d;
    maxpool_error err;
    CHECK_MSG(maxpool_openvino_lower(&a, dt, 3, &d, &err) == MAXPOOL_OK, "%s", err.message);
    return d;
}

int main(int argc, char **argv)
{
    (void)argc;
    ts_omp_passive(argv);
    const float inf = INFINITY, nan = NAN, lowest = -3.40282347e38f;

    { /* ORT Indices path: the window's first element starts the running max */
        const uint8_t x[] = {0, 0, 0, 7}, y[] = {0, 7};
        const int64_t shape[] = {1, 1, 4}, idx[] = {0, 3};
        run_case("onnx u8 zeros", lower_onnx(MAXPOOL_U8, 2, 2), shape, x, y, idx, 2);
    }
    { /* ... so a leading NaN sticks and a later one is ignored */
        const float x[] = {nan, 5, 1, nan, 2, 3}, y[] = {nan, nan};
        const int64_t shape[] = {1, 1, 6}, idx[] = {0, 3};
        run_case("onnx f32 leading NaN", lower_onnx(MAXPOOL_F32, 3, 3), shape, x, y, idx, 2);
    }
    { /* ... and a window of -inf names its first element */
        const float x[] = {-inf, -inf, 1, 2}, y[] = {-inf, 2};
        const int64_t shape[] = {1, 1, 4}, idx[] = {0, 3};
        run_case("onnx f32 -inf window", lower_onnx(MAXPOOL_F32, 2, 2), shape, x, y, idx, 2);
    }
    { /* OpenVINO: lowest() start, an empty-handed window names its plane's start (axis 0 and 2) */
        const float x[] = {-inf, -inf, 1, 2, -inf, -inf, 3, 4}, y[] = {lowest, 2, lowest, 4};
        const int64_t shape[] = {1, 2, 4}, idx0[] = {0, 3, 4, 7}, idx2[] = {0, 3, 0, 3};
        run_case("openvino plane start axis 0", lower_ov(MAXPOOL_F32, 2, 2, 0, 0, NULL, NULL, 0), shape, x, y, idx0,
                 4);
        run_case("openvino plane start axis 2", lower_ov(MAXPOOL_F32, 2, 2, 0, 0, NULL, NULL, 2), shape, x, y, idx2,
                 4);
    }
    { /* OpenVINO f16: windows wholly in padding give -inf */
        const uint16_t x[] = {0x3C00, 0x4000, 0x4200};                         /* 1, 2, 3 */
        const uint16_t y[] = {0xFC00, 0x3C00, 0x4000, 0x4200, 0x4200, 0xFC00}; /* -inf 1 2 3 3 -inf */
        const int64_t shape[] = {1, 1, 3}, idx[] = {0, 0, 1, 2, 2, 0};
        run_case("openvino f16 padding", lower_ov(MAXPOOL_F16, 2, 1, 2, 2, NULL, NULL, 0), shape, x, y, idx, 6);
    }
    { /* OpenVINO same_upper + ceil: SAME pads, then the ceil formula: one more (empty) window */
        const float x[] = {5, 6}, y[] = {5, lowest};
        const int64_t shape[] = {1, 1, 2}, idx[] = {0, 0};
        run_case("openvino same_upper ceil", lower_ov(MAXPOOL_F32, 1, 3, 0, 0, "same_upper", "ceil", 0), shape, x, y,
                 idx, 2);
    }
    { /* OpenVINO AdaptiveMaxPool-8 starts from the window's first element */
        maxpool_adaptive_attrs a;
        maxpool_adaptive_attrs_init(&a, MAXPOOL_ADAPTIVE_OPENVINO);
        a.n_output_size = 1;
        a.output_size[0] = 2;
        a.index_element_type = "i32";
        a.want_indices = 1;
        maxpool_desc d;
        maxpool_error err;
        CHECK_MSG(maxpool_adaptive_lower(&a, MAXPOOL_F32, 3, &d, &err) == MAXPOOL_OK, "%s", err.message);
        const int64_t shape[] = {1, 1, 4}, idx[] = {0, 3};
        const float x1[] = {-inf, -inf, lowest, 1}, y1[] = {-inf, 1};
        run_case("openvino adaptive -inf", d, shape, x1, y1, idx, 2);
        const float x2[] = {nan, 1, 2, 3}, y2[] = {nan, 3};
        run_case("openvino adaptive leading NaN", d, shape, x2, y2, idx, 2);
    }
    return ts_finish();
}
