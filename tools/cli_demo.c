/* SPDX-License-Identifier: Apache-2.0 */
/*
 * maxpool demo: the OpenVINO MaxPool examples of the spec texts and one
 * adaptive 3-D example, computed by the library from built-in inputs and
 * compared with the values written in the texts.
 *
 * Sources of the expected values (never the library's own output):
 *  - Examples 1-8: /work/shared/seeds/000 (OpenVINO MaxPool-14, numbering
 *    used here) and 004 (MaxPool-8, the same examples with their pads), with
 *    the corrections of SPEC-NOTES.md: example 1's output row 1 is
 *    [4, 5, 5, 3] / [3, 4, 4, 2] (the text prints [4, 5, 5, -6] / [3, 4, 4, 5]);
 *    examples 1, 5 and 7 use pads_begin = pads_end = [1, 1] as 004 shows
 *    (000 lost them); example 5 (ceil_torch) gives [[1, 3], [7, 9]] with
 *    those pads; example 8 is 004's example 7 in full (axis = 2).
 *  - Example 9: seeds/003 (aclnnAdaptiveMaxPool3d) has the window formula
 *    (start = floor(l*D/Do), end = ceil((l+1)*D/Do), end exclusive) but no
 *    numbers; the expected values below were worked out by hand from that
 *    formula (windows written out in the comment at the table).
 */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

typedef struct demo_case {
    const char *title;
    const char *source;
    int adaptive; /* 0: OpenVINO MaxPool-14; 1: aclnn AdaptiveMaxPool3d */
    /* OpenVINO attributes (counts 0 = absent) */
    int rank; /* spatial rank */
    const int64_t *kernel, *strides, *pads_begin, *pads_end, *dilations;
    const char *rounding_type, *auto_pad;
    int64_t axis;
    /* adaptive */
    const int64_t *output_size;
    /* data */
    int64_t in_shape[5];
    const float *x;
    int64_t out_shape[5];
    const float *y;        /* expected values */
    const int64_t *indices; /* expected indices */
} demo_case;

static const int64_t one1[] = {1}, three1[] = {3};
static const int64_t zero2[] = {0, 0}, one2[] = {1, 1}, two2[] = {2, 2};

/* The 3x3 inputs of the texts. */
static const float x_a[] = {-1, 2, 3, 4, 5, -6, -7, 8, 9};
static const float x_b[] = {1, 2, 3, 4, 5, 6, 7, 8, 9};

/* Example 1: explicit pads 1/1, kernel 2, stride 1 (row 1 corrected). */
static const float y1[] = {-1, 2, 3, 3, 4, 5, 5, 3, 4, 8, 9, 9, -7, 8, 9, 9};
static const int64_t i1[] = {0, 1, 2, 2, 3, 4, 4, 2, 3, 7, 8, 8, 6, 7, 8, 8};
/* Example 2: 1-D, valid, kernel 3. */
static const float x2[] = {-1, 2, 3, 5, -7, 9, 1};
static const float y2[] = {3, 5, 5, 9, 9};
static const int64_t i2[] = {2, 3, 3, 5, 5};
/* Example 3: same_lower. */
static const float y3[] = {-1, 2, 3, 4, 5, 5, 4, 8, 9};
static const int64_t i3[] = {0, 1, 2, 3, 4, 4, 3, 7, 8};
/* Example 4: same_upper, two channels; indices flat over the whole tensor. */
static const float x4[] = {-1, 2, 3, 4, 5, -6, -7, 8, 9, 2, -1, 5, 6, -7, 1, 8, 2, -3};
static const float y4[] = {5, 5, 3, 8, 9, 9, 8, 9, 9, 6, 5, 5, 8, 2, 1, 8, 2, -3};
static const int64_t i4[] = {4, 4, 2, 7, 8, 8, 7, 8, 8, 12, 11, 11, 15, 16, 14, 15, 16, 17};
/* Example 5: ceil_torch, kernel 2, stride 2, pads 1/1. */
static const float y5[] = {1, 3, 7, 9};
static const int64_t i5[] = {0, 2, 6, 8};
/* Example 6: valid + ceil, kernel 2, stride 2. */
static const float y6[] = {5, 3, 8, 9};
static const int64_t i6[] = {4, 2, 7, 8};
/* Example 7: dilations 2, pads 1/1. */
static const float y7[] = {5, 6, 5, 8, 9, 8, 5, 6, 5};
static const int64_t i7[] = {4, 5, 4, 7, 8, 7, 4, 5, 4};
/* Example 8: axis = 2, two channels; indices flat within each plane. */
static const float x8[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18};
static const float y8[] = {5, 6, 8, 9, 14, 15, 17, 18};
static const int64_t i8[] = {4, 5, 7, 8, 4, 5, 7, 8};

/*
 * Example 9: AdaptiveMaxPool3d, input (1, 1, 2, 3, 4), outputSize (1, 2, 3).
 * Windows: D: [0, 2). H (3 -> 2): [0, 2), [1, 3). W (4 -> 3): [0, 2), [1, 3),
 * [2, 4). Indices are d*12 + h*4 + w, int32; ties go to the first element in
 * (d, h, w) row-major scan order.
 *   d=0: [ 7  0  1 -5]   d=1: [ 8  3  3 -6]
 *        [-2 -8 -3  4]        [ 8  1 -8 -6]
 *        [ 5  6  0  1]        [ 8  0  5 -3]
 *   (0,0): h 0-1, w 0-1: max 8 at (1,0,0)=12 (8 at (1,1,0) ties, later)
 *   (0,1): h 0-1, w 1-2: max 3 at (1,0,1)=13 (3 at (1,0,2) ties, later)
 *   (0,2): h 0-1, w 2-3: max 4 at (0,1,3)=7
 *   (1,0): h 1-2, w 0-1: max 8 at (1,1,0)=16
 *   (1,1): h 1-2, w 1-2: max 6 at (0,2,1)=9
 *   (1,2): h 1-2, w 2-3: max 5 at (1,2,2)=22
 */
static const int64_t os9[] = {1, 2, 3};
static const float x9[] = {7, 0, 1, -5, -2, -8, -3, 4, 5, 6, 0, 1, 8, 3, 3, -6, 8, 1, -8, -6, 8, 0, 5, -3};
static const float y9[] = {8, 3, 4, 8, 6, 5};
static const int64_t i9[] = {12, 13, 7, 16, 9, 22};

static const demo_case cases[] = {
    {"OpenVINO MaxPool example 1: explicit padding",
     "seeds 000 and 004, example 1 (pads from 004); output row 1 corrected as SPEC-NOTES.md says", 0, 2, two2, one2,
     one2, one2, NULL, "floor", "explicit", 0, NULL, {1, 1, 3, 3}, x_a, {1, 1, 4, 4}, y1, i1},
    {"OpenVINO MaxPool example 2: 1-D kernel, auto_pad = valid", "seeds 000 and 004, example 2", 0, 1, three1, one1,
     NULL, NULL, NULL, "floor", "valid", 0, NULL, {1, 1, 7}, x2, {1, 1, 5}, y2, i2},
    {"OpenVINO MaxPool example 3: auto_pad = same_lower", "seeds 000 and 004, example 3", 0, 2, two2, one2, NULL, NULL,
     NULL, "floor", "same_lower", 0, NULL, {1, 1, 3, 3}, x_a, {1, 1, 3, 3}, y3, i3},
    {"OpenVINO MaxPool example 4: auto_pad = same_upper, two channels", "seeds 000 and 004, example 4", 0, 2, two2,
     one2, NULL, NULL, NULL, "floor", "same_upper", 0, NULL, {1, 2, 3, 3}, x4, {1, 2, 3, 3}, y4, i4},
    {"OpenVINO MaxPool example 5: rounding_type = ceil_torch",
     "seed 000, example 5, with pads 1/1 as SPEC-NOTES.md says (the last window would start in the padding: dropped)",
     0, 2, two2, two2, one2, one2, NULL, "ceil_torch", "explicit", 0, NULL, {1, 1, 3, 3}, x_b, {1, 1, 2, 2}, y5, i5},
    {"OpenVINO MaxPool example 6: auto_pad = valid, rounding_type = ceil",
     "seed 000 example 6 / 004 example 5 (the example, not the valid formula, is what OpenVINO computes)", 0, 2, two2,
     two2, NULL, NULL, NULL, "ceil", "valid", 0, NULL, {1, 1, 3, 3}, x_a, {1, 1, 2, 2}, y6, i6},
    {"OpenVINO MaxPool example 7: dilated kernel", "seed 000 example 7 / 004 example 6 (pads from 004)", 0, 2, two2,
     one2, one2, one2, two2, "floor", "explicit", 0, NULL, {1, 1, 3, 3}, x_b, {1, 1, 3, 3}, y7, i7},
    {"OpenVINO MaxPool example 8: axis = 2 (indices within each plane)",
     "seed 004 example 7 (000 example 8 is cut off)", 0, 2, two2, one2, zero2, zero2, one2, "floor", "explicit", 2,
     NULL, {1, 2, 3, 3}, x8, {1, 2, 2, 2}, y8, i8},
    {"aclnn AdaptiveMaxPool3d: outputSize = [1, 2, 3], int32 indices",
     "seed 003 window formula (end exclusive, SPEC-NOTES.md); values worked out by hand", 1, 3, NULL, NULL, NULL,
     NULL, NULL, NULL, NULL, 0, os9, {1, 1, 2, 3, 4}, x9, {1, 1, 1, 2, 3}, y9, i9},
};
#define NCASES ((int)(sizeof cases / sizeof cases[0]))

static int64_t product(const int64_t *v, int n)
{
    int64_t p = 1;
    for (int i = 0; i < n; ++i)
        p *= v[i];
    return p;
}

static void shape_string(char *buf, size_t cap, const int64_t *shape, int n)
{
    size_t used = 0;
    used += (size_t)snprintf(buf, cap, "(");
    for (int i = 0; i < n && used < cap; ++i)
        used += (size_t)snprintf(buf + used, cap - used, i ? ", %lld" : "%lld", (long long)shape[i]);
    if (used < cap)
        snprintf(buf + used, cap - used, ")");
}

/* Prints a tensor (values as doubles) one 2-D plane at a time, numpy-style labels. */
static void print_tensor(const char *label, const int64_t *shape, int ndim, const double *v)
{
    char s[96];
    shape_string(s, sizeof s, shape, ndim);
    printf("    %s %s:\n", label, s);
    int64_t total = product(shape, ndim);
    int width = 1;
    for (int64_t i = 0; i < total; ++i) {
        char b[32];
        int w = snprintf(b, sizeof b, "%g", v[i]);
        if (w > width)
            width = w;
    }
    int64_t cols = shape[ndim - 1];
    int64_t rows = ndim >= 4 ? shape[ndim - 2] : 1; /* N, C, then a 1-D row or 2-D planes */
    int plane_dims = ndim >= 4 ? 2 : 1;
    int64_t planes = total / (rows * cols);
    for (int64_t p = 0; p < planes; ++p) {
        if (planes > 1) {
            /* index of this plane in the leading dimensions */
            int64_t coord[8], rem = p;
            int lead = ndim - plane_dims;
            for (int d = lead - 1; d >= 0; --d) {
                coord[d] = rem % shape[d];
                rem /= shape[d];
            }
            char lab[96];
            size_t used = (size_t)snprintf(lab, sizeof lab, "[");
            for (int d = 0; d < lead; ++d)
                used += (size_t)snprintf(lab + used, sizeof lab - used, "%lld,", (long long)coord[d]);
            snprintf(lab + used, sizeof lab - used, "%s]", plane_dims == 2 ? ":,:" : ":");
            printf("      %s\n", lab);
        }
        for (int64_t r = 0; r < rows; ++r) {
            printf("      ");
            for (int64_t c = 0; c < cols; ++c)
                printf(" %*g", width, v[(p * rows + r) * cols + c]);
            printf("\n");
        }
    }
}

static void print_list_flag(const char *name, const int64_t *v, int n)
{
    char b[128];
    if (!v)
        return;
    cli_format_list(b, sizeof b, v, n);
    printf(" --%s %s", name, b);
}

/* Runs one case through the library. Returns 1 if it matches, 0 if not, -1 on a library error. */
static int run_case(int number, const demo_case *k)
{
    int ndim = k->rank + 2;
    printf("[%d/%d] %s\n", number, NCASES, k->title);
    printf("    source: %s\n", k->source);

    maxpool_desc desc;
    maxpool_error err = {MAXPOOL_OK, ""};
    maxpool_status st;
    printf("    command:");
    if (!k->adaptive) {
        maxpool_openvino_attrs a;
        maxpool_openvino_attrs_init(&a, 14);
        printf(" maxpool openvino --version 14");
        print_list_flag("kernel", k->kernel, k->rank);
        print_list_flag("strides", k->strides, k->rank);
        print_list_flag("pads_begin", k->pads_begin, k->rank);
        print_list_flag("pads_end", k->pads_end, k->rank);
        print_list_flag("dilations", k->dilations, k->rank);
        printf(" --rounding_type %s --auto_pad %s", k->rounding_type, k->auto_pad);
        if (k->axis)
            printf(" --axis %lld", (long long)k->axis);
        printf(" X.npy Y.npy Indices.npy\n");
#define DEMO_COPY(field, nfield, src)                                                                                  \
    if (src) {                                                                                                         \
        memcpy(a.field, src, (size_t)k->rank * sizeof(int64_t));                                                       \
        a.nfield = k->rank;                                                                                            \
    }
        DEMO_COPY(kernel, n_kernel, k->kernel)
        DEMO_COPY(strides, n_strides, k->strides)
        DEMO_COPY(pads_begin, n_pads_begin, k->pads_begin)
        DEMO_COPY(pads_end, n_pads_end, k->pads_end)
        DEMO_COPY(dilations, n_dilations, k->dilations)
#undef DEMO_COPY
        a.rounding_type = k->rounding_type;
        a.auto_pad = k->auto_pad;
        a.axis = k->axis;
        a.want_indices = 1;
        st = maxpool_openvino_lower(&a, MAXPOOL_F32, ndim, &desc, &err);
    } else {
        maxpool_adaptive_attrs a;
        maxpool_adaptive_attrs_init(&a, MAXPOOL_ADAPTIVE_ACLNN);
        printf(" maxpool adaptive --flavor aclnn");
        print_list_flag("output_size", k->output_size, k->rank);
        printf(" X.npy Y.npy Indices.npy\n");
        memcpy(a.output_size, k->output_size, (size_t)k->rank * sizeof(int64_t));
        a.n_output_size = k->rank;
        a.want_indices = 1;
        st = maxpool_adaptive_lower(&a, MAXPOOL_F32, ndim, &desc, &err);
    }

    maxpool_plan *plan = NULL;
    if (st == MAXPOOL_OK)
        st = maxpool_plan_create(&desc, k->in_shape, &plan, &err);
    if (st != MAXPOOL_OK) {
        printf("    library error: %s\n\n", err.message);
        return -1;
    }

    int64_t in_n = product(k->in_shape, ndim), exp_n = product(k->out_shape, ndim);
    int64_t out_shape[MAXPOOL_MAX_SPATIAL + 2];
    maxpool_plan_output_shape(plan, out_shape);
    int64_t out_n = maxpool_plan_output_elements(plan);
    float *y = (float *)calloc((size_t)out_n + 1, sizeof(float));
    int64_t *idx64 = (int64_t *)calloc((size_t)out_n + 1, sizeof(int64_t));
    void *raw = calloc((size_t)out_n + 1, sizeof(int64_t));
    int64_t most = in_n > out_n ? in_n : out_n;
    if (exp_n > most)
        most = exp_n;
    double *dv = (double *)calloc((size_t)most + 1, sizeof(double));
    int ok = 0;
    if (!y || !idx64 || !raw || !dv) {
        printf("    out of memory\n\n");
        ok = -1;
        goto done;
    }
    st = maxpool_run(plan, k->x, y, raw);
    if (st != MAXPOOL_OK) {
        printf("    library error: %s\n\n", maxpool_strerror(st));
        ok = -1;
        goto done;
    }
    for (int64_t i = 0; i < out_n; ++i)
        idx64[i] = desc.index_type == MAXPOOL_INDEX_I32 ? ((const int32_t *)raw)[i] : ((const int64_t *)raw)[i];

    for (int64_t i = 0; i < in_n; ++i)
        dv[i] = k->x[i];
    print_tensor("input", k->in_shape, ndim, dv);
    for (int64_t i = 0; i < out_n; ++i)
        dv[i] = y[i];
    print_tensor("output", out_shape, ndim, dv);
    for (int64_t i = 0; i < out_n; ++i)
        dv[i] = (double)idx64[i];
    print_tensor(desc.index_type == MAXPOOL_INDEX_I32 ? "indices (int32)" : "indices (int64)", out_shape, ndim, dv);

    ok = memcmp(out_shape, k->out_shape, (size_t)ndim * sizeof(int64_t)) == 0 && out_n == exp_n;
    for (int64_t i = 0; ok && i < out_n; ++i)
        if (y[i] != k->y[i] || idx64[i] != k->indices[i])
            ok = 0;
    if (ok)
        printf("    check: output and indices match %s\n\n",
               k->adaptive ? "the values worked out from the spec's formula" : "the spec text");
    else {
        printf("    check: MISMATCH with the spec text, which says:\n");
        for (int64_t i = 0; i < exp_n; ++i)
            dv[i] = k->y[i];
        print_tensor("expected output", k->out_shape, ndim, dv);
        for (int64_t i = 0; i < exp_n; ++i)
            dv[i] = (double)k->indices[i];
        print_tensor("expected indices", k->out_shape, ndim, dv);
        printf("\n");
    }
done:
    free(y);
    free(idx64);
    free(raw);
    free(dv);
    maxpool_plan_destroy(plan);
    return ok;
}

int cli_demo(int argc, char **argv)
{
    if (argc > 0) {
        if (strcmp(argv[0], "--help") == 0 || strcmp(argv[0], "-h") == 0) {
            printf("usage: maxpool demo\n\nRuns the eight OpenVINO MaxPool examples of the spec texts and one "
                   "adaptive 3-D example\non built-in data, prints inputs, outputs and indices, and checks them "
                   "against the\nvalues in the texts. Exit status 0 when every example matches, 1 otherwise.\n");
            return CLI_EXIT_OK;
        }
        cli_error("demo takes no arguments (got '%s')", argv[0]);
        return CLI_EXIT_USAGE;
    }
    printf("maxpool %d.%d.%d demo: spec examples, computed by the library on built-in data\n"
           "(values are f32; indices count from 0, padding never wins; CPU: %s)\n\n",
           MAXPOOL_VERSION_MAJOR, MAXPOOL_VERSION_MINOR, MAXPOOL_VERSION_PATCH, maxpool_isa_name(maxpool_cpu_isa()));
    int matched = 0, failed = 0;
    for (int i = 0; i < NCASES; ++i) {
        int r = run_case(i + 1, &cases[i]);
        if (r == 1)
            ++matched;
        else
            ++failed;
    }
    if (failed) {
        printf("%d of %d examples match the spec text; %d do NOT (see MISMATCH above).\n", matched, NCASES, failed);
        fflush(stdout);
        cli_error("demo: %d of %d examples do not match the spec text", failed, NCASES);
        return CLI_EXIT_REJECTED;
    }
    printf("All %d examples match the spec text.\n", NCASES);
    return CLI_EXIT_OK;
}
