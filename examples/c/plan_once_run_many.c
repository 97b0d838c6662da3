/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Plan once, run many: the way to use maxpool in an inference loop.
 *
 * One ONNX MaxPool (opset 22) node, kernel_shape [2, 2], strides [1, 1],
 * pads [1, 1, 1, 1], with the Indices output, on 1x1x3x3 float frames:
 *   1. the ONNX attributes are lowered to a maxpool_desc and a plan is made
 *      for the input shape, once (all validation and allocation happen here);
 *   2. the plan runs on every frame (no allocation, no validation);
 *   3. bad attributes and a bad input shape give a status and a message.
 *
 * Expected outputs: ONNX Runtime 1.32 (CPUExecutionProvider) on the same
 * model and frames, never maxpool's own output. Frame 0 is the input of
 * example 1 of the OpenVINO MaxPool-8 spec (same attributes), whose output
 * ONNX Runtime reproduces (with row 1 ending in 3, index 2: the spec text's
 * -6 / 5 there is a misprint).
 *
 * Build against an installed maxpool:
 *   cc plan_once_run_many.c $(pkg-config --cflags --libs maxpool) -o plan_once_run_many
 * or with CMake: find_package(maxpool) and target_link_libraries(... maxpool::maxpool)
 * (examples/c/CMakeLists.txt does that when built on its own).
 */
#include <maxpool.h>

#include <stdio.h>
#include <string.h>

#define FRAMES 3

static const float frames[FRAMES][9] = {
    {-1, 2, 3, 4, 5, -6, -7, 8, 9},
    {1, 2, 3, 4, 5, 6, 7, 8, 9},
    {0, -3, -3, 7, 7, -1, 2, -8, 6},
};
/* ONNX Runtime 1.32: Y (1x1x4x4) and Indices (flat over the whole tensor) */
static const float expected_y[FRAMES][16] = {
    {-1, 2, 3, 3, 4, 5, 5, 3, 4, 8, 9, 9, -7, 8, 9, 9},
    {1, 2, 3, 3, 4, 5, 6, 6, 7, 8, 9, 9, 7, 8, 9, 9},
    {0, 0, -3, -3, 7, 7, 7, -1, 7, 7, 7, 6, 2, 2, 6, 6},
};
static const int64_t expected_i[FRAMES][16] = {
    {0, 1, 2, 2, 3, 4, 4, 2, 3, 7, 8, 8, 6, 7, 8, 8},
    {0, 1, 2, 2, 3, 4, 5, 5, 6, 7, 8, 8, 6, 7, 8, 8},
    {0, 0, 1, 2, 3, 3, 4, 5, 3, 3, 4, 8, 6, 6, 8, 8},
};

/* The node's attributes, as ONNX names them. */
static void node_attrs(maxpool_onnx_attrs *a)
{
    maxpool_onnx_attrs_init(a, 22);
    a->n_kernel_shape = 2;
    a->kernel_shape[0] = a->kernel_shape[1] = 2;
    a->n_strides = 2;
    a->strides[0] = a->strides[1] = 1;
    a->n_pads = 4; /* x1_begin, x2_begin, x1_end, x2_end */
    for (int i = 0; i < 4; ++i)
        a->pads[i] = 1;
    a->want_indices = 1;
}

/* Lowers attrs and makes a plan for input_shape; NULL (and a message) on error. */
static maxpool_plan *make_plan(const maxpool_onnx_attrs *attrs, const int64_t *input_shape, maxpool_status *status,
                               maxpool_error *err)
{
    maxpool_desc desc;
    maxpool_plan *plan = NULL;
    *status = maxpool_onnx_lower(attrs, MAXPOOL_F32, 4, &desc, err);
    if (*status == MAXPOOL_OK)
        *status = maxpool_plan_create(&desc, input_shape, &plan, err);
    return plan;
}

int main(void)
{
    int failures = 0;
    printf("maxpool %s (header %d.%d.%d)\n", maxpool_version(), MAXPOOL_VERSION_MAJOR, MAXPOOL_VERSION_MINOR,
           MAXPOOL_VERSION_PATCH);

    /* 1. plan once */
    maxpool_onnx_attrs attrs;
    node_attrs(&attrs);
    const int64_t input_shape[4] = {1, 1, 3, 3};
    maxpool_error err;
    maxpool_status st;
    maxpool_plan *plan = make_plan(&attrs, input_shape, &st, &err);
    if (!plan) {
        fprintf(stderr, "plan failed: %s (%s)\n", err.message, maxpool_strerror(st));
        return 1;
    }
    int64_t out_shape[4];
    maxpool_plan_output_shape(plan, out_shape);
    printf("plan: output %lldx%lldx%lldx%lld, kernel %s\n", (long long)out_shape[0], (long long)out_shape[1],
           (long long)out_shape[2], (long long)out_shape[3], maxpool_plan_kernel_name(plan));
    if (maxpool_plan_output_elements(plan) != 16) {
        fprintf(stderr, "unexpected output size\n");
        maxpool_plan_destroy(plan);
        return 1;
    }

    /* 2. run many: the buffers and the plan are reused for every frame */
    float y[16];
    int64_t indices[16];
    for (int f = 0; f < FRAMES; ++f) {
        st = maxpool_run(plan, frames[f], y, indices);
        if (st != MAXPOOL_OK) {
            fprintf(stderr, "frame %d: run failed: %s\n", f, maxpool_strerror(st));
            ++failures;
            continue;
        }
        int ok = memcmp(y, expected_y[f], sizeof y) == 0 && memcmp(indices, expected_i[f], sizeof indices) == 0;
        printf("frame %d: Y row 1 = [%g %g %g %g], Indices row 1 = [%lld %lld %lld %lld]: %s\n", f, y[4], y[5], y[6],
               y[7], (long long)indices[4], (long long)indices[5], (long long)indices[6], (long long)indices[7],
               ok ? "matches ONNX Runtime" : "MISMATCH with ONNX Runtime");
        failures += !ok;
    }
    maxpool_plan_destroy(plan);

    /* 3. errors: a status and a message, never a crash */
    maxpool_onnx_attrs bad = attrs;
    bad.kernel_shape[1] = 0;
    plan = make_plan(&bad, input_shape, &st, &err);
    printf("kernel_shape [2, 0]: %s: %s\n", maxpool_strerror(st), err.message);
    if (plan || st != MAXPOOL_ERR_INVALID_ATTRIBUTE) {
        fprintf(stderr, "expected an invalid-attribute error\n");
        ++failures;
    }
    maxpool_plan_destroy(plan); /* NULL is fine */

    maxpool_onnx_attrs big = attrs;
    big.kernel_shape[0] = big.kernel_shape[1] = 6; /* 3 + 1 + 1 < 6: no output */
    plan = make_plan(&big, input_shape, &st, &err);
    printf("kernel_shape [6, 6] on 3x3: %s: %s\n", maxpool_strerror(st), err.message);
    if (plan || st != MAXPOOL_ERR_INVALID_SHAPE) {
        fprintf(stderr, "expected an invalid-shape error\n");
        ++failures;
    }
    maxpool_plan_destroy(plan);

    if (failures) {
        printf("%d check(s) FAILED\n", failures);
        return 1;
    }
    printf("all checks passed\n");
    return 0;
}
