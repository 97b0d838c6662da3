/* SPDX-License-Identifier: Apache-2.0 */
/*
 * maxpool demo: examples of each system the library mirrors (OpenVINO
 * MaxPool, ONNX MaxPool, PyTorch max_pool2d and adaptive_max_pool2d, Ascend
 * aclnnAdaptiveMaxPool3d), computed by the library from built-in inputs and
 * compared with values from the specs or the real implementations.
 *
 * Sources of the expected values (never the library's own output):
 *  - Examples 1-8: the OpenVINO operation specs, MaxPool-14
 *    (https://docs.openvino.ai/2024/documentation/openvino-ir-format/operation-sets/operation-specs/pooling/max-pool-14.html,
 *    numbering used here) and MaxPool-8 (.../pooling/max-pool-8.html, the
 *    same examples with their pads). Where the texts are wrong, the values
 *    are what the openvino package computes: example 1's output row 1 is
 *    [4, 5, 5, 3] / [3, 4, 4, 2] (the texts print [4, 5, 5, -6] / [3, 4, 4, 5];
 *    ONNX Runtime and PyTorch agree with 3 / 2); examples 1, 5 and 7 use
 *    pads_begin = pads_end = [1, 1] as MaxPool-8 shows (MaxPool-14 lost
 *    them); example 5 (ceil_torch) gives [[1, 3], [7, 9]] with those pads;
 *    example 8 is MaxPool-8's example 7 in full (axis = 2).
 *  - Example 9: the Ascend aclnnAdaptiveMaxPool3d doc (CANN operator API,
 *    https://www.hiascend.com/document, "aclnnAdaptiveMaxPool3d") has the
 *    window formula (start = floor(l*D/Do), end = ceil((l+1)*D/Do); the end
 *    is exclusive, as in PyTorch's adaptive pooling) but no numbers; the
 *    expected values below were worked out by hand from that formula
 *    (windows written out in the comment at the table).
 *  - Examples 10-12: ONNX MaxPool (https://onnx.ai/onnx/operators/onnx__MaxPool.html)
 *    has no worked example; these are the onnx package's backend node tests
 *    test_maxpool_with_argmax_2d_precomputed_pads, ..._precomputed_strides
 *    (storage_order = 1) and test_maxpool_2d_ceil (onnx/backend/test/case/node/maxpool.py,
 *    https://github.com/onnx/onnx), indices of the last one from ONNX Runtime
 *    1.32; ONNX Runtime 1.32 gives the same values and indices for all three.
 *  - Examples 13-14: torch.nn.functional.max_pool2d and adaptive_max_pool2d
 *    (https://pytorch.org/docs/stable/generated/torch.nn.functional.max_pool2d.html,
 *    .../torch.nn.functional.adaptive_max_pool2d.html) document no numbers;
 *    the expected values are PyTorch 1.13's output (Debian python3-torch).
 */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

typedef struct demo_case {
    const char *title;
    const char *source;
    int kind; /* DEMO_OPENVINO, DEMO_ACLNN, ... */
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
    /* ONNX: storage_order; ONNX and PyTorch: ceil_mode */
    int storage_order, ceil_mode;
} demo_case;

/* kinds of example (the first two are 0 and 1: the initialisers below use them) */
enum { DEMO_OPENVINO = 0, DEMO_ACLNN = 1, DEMO_ONNX = 2, DEMO_TORCH = 3, DEMO_TORCH_ADAPTIVE = 4 };

static const int64_t one1[] = {1}, two1[] = {2}, three1[] = {3};
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

/* Examples 10-11: the onnx package's node tests, input 1..25 as 5x5. */
static const int64_t two2b[] = {2, 2}, five2[] = {5, 5}, three2[] = {3, 3};
static const float x25[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25};
/* 10: kernel 5x5, pads 2,2,2,2 */
static const float y10[] = {13, 14, 15, 15, 15, 18, 19, 20, 20, 20, 23, 24, 25, 25, 25, 23, 24, 25, 25, 25, 23, 24, 25, 25, 25};
static const int64_t i10[] = {12, 13, 14, 14, 14, 17, 18, 19, 19, 19, 22, 23, 24, 24, 24, 22, 23, 24, 24, 24, 22, 23, 24, 24, 24};
/* 11: kernel 2x2, strides 2, storage_order 1 (indices count the spatial part column-major) */
static const float y11[] = {7, 9, 17, 19};
static const int64_t i11[] = {6, 16, 8, 18};
/* 12: 4x4 input 1..16, kernel 3x3, strides 2, ceil_mode 1 */
static const float x16[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
static const float y12[] = {11, 12, 15, 16};
static const int64_t i12[] = {10, 11, 14, 15};
/* 13: PyTorch max_pool2d(x, 3, stride=2, padding=1, ceil_mode=True, return_indices=True) */
static const float x13[] = {3, -1, 4, 1, -5, 9, 2, -6, 5, 3, 5, 8, 9, -7, 9, 3, 2, 3, 8, 4};
static const float y13[] = {9, 5, 5, 9, 9, 9, 3, 8, 8};
static const int64_t i13[] = {5, 8, 8, 5, 12, 14, 15, 18, 18};
/* 14: PyTorch adaptive_max_pool2d(x, (2, 3), return_indices=True) */
static const int64_t os14[] = {2, 3};
static const float x14[] = {1, 7, 3, 0, 2, 4, -2, 7, 6, 1, 0, 5, 5, -3, 8};
static const float y14[] = {7, 7, 6, 5, 7, 8};
static const int64_t i14[] = {1, 1, 8, 11, 7, 14};

static const demo_case cases[] = {
    {"OpenVINO MaxPool example 1: explicit padding",
     "OpenVINO MaxPool-14/-8 spec, example 1 (pads from MaxPool-8); output row 1 as OpenVINO computes it (the texts print -6 / 5)", 0, 2, two2, one2,
     one2, one2, NULL, "floor", "explicit", 0, NULL, {1, 1, 3, 3}, x_a, {1, 1, 4, 4}, y1, i1, 0, 0},
    {"OpenVINO MaxPool example 2: 1-D kernel, auto_pad = valid", "OpenVINO MaxPool-14/-8 spec, example 2", 0, 1, three1, one1,
     NULL, NULL, NULL, "floor", "valid", 0, NULL, {1, 1, 7}, x2, {1, 1, 5}, y2, i2, 0, 0},
    {"OpenVINO MaxPool example 3: auto_pad = same_lower", "OpenVINO MaxPool-14/-8 spec, example 3", 0, 2, two2, one2, NULL, NULL,
     NULL, "floor", "same_lower", 0, NULL, {1, 1, 3, 3}, x_a, {1, 1, 3, 3}, y3, i3, 0, 0},
    {"OpenVINO MaxPool example 4: auto_pad = same_upper, two channels", "OpenVINO MaxPool-14/-8 spec, example 4", 0, 2, two2,
     one2, NULL, NULL, NULL, "floor", "same_upper", 0, NULL, {1, 2, 3, 3}, x4, {1, 2, 3, 3}, y4, i4, 0, 0},
    {"OpenVINO MaxPool example 5: rounding_type = ceil_torch",
     "OpenVINO MaxPool-14 spec, example 5, with pads 1/1 (the last window would start in the padding: dropped)",
     0, 2, two2, two2, one2, one2, NULL, "ceil_torch", "explicit", 0, NULL, {1, 1, 3, 3}, x_b, {1, 1, 2, 2}, y5, i5, 0, 0},
    {"OpenVINO MaxPool example 6: auto_pad = valid, rounding_type = ceil",
     "OpenVINO MaxPool-14 example 6 / MaxPool-8 example 5 (the example, not the valid formula, is what OpenVINO computes)", 0, 2, two2,
     two2, NULL, NULL, NULL, "ceil", "valid", 0, NULL, {1, 1, 3, 3}, x_a, {1, 1, 2, 2}, y6, i6, 0, 0},
    {"OpenVINO MaxPool example 7: dilated kernel", "OpenVINO MaxPool-14 example 7 / MaxPool-8 example 6 (pads from MaxPool-8)", 0, 2, two2,
     one2, one2, one2, two2, "floor", "explicit", 0, NULL, {1, 1, 3, 3}, x_b, {1, 1, 3, 3}, y7, i7, 0, 0},
    {"OpenVINO MaxPool example 8: axis = 2 (indices within each plane)",
     "OpenVINO MaxPool-8 spec, example 7 (MaxPool-14 example 8, in full)", 0, 2, two2, one2, zero2, zero2, one2, "floor", "explicit", 2,
     NULL, {1, 2, 3, 3}, x8, {1, 2, 2, 2}, y8, i8, 0, 0},
    {"aclnn AdaptiveMaxPool3d: outputSize = [1, 2, 3], int32 indices",
     "aclnnAdaptiveMaxPool3d doc, window formula (end exclusive); values worked out by hand", 1, 3, NULL, NULL, NULL,
     NULL, NULL, NULL, NULL, 0, os9, {1, 1, 2, 3, 4}, x9, {1, 1, 1, 2, 3}, y9, i9, 0, 0},
    {"ONNX MaxPool: kernel 5x5, pads 2 on every side, with Indices",
     "onnx node test test_maxpool_with_argmax_2d_precomputed_pads (ONNX Runtime agrees)", DEMO_ONNX, 2, five2, NULL,
     two2b, two2b, NULL, NULL, NULL, 0, NULL, {1, 1, 5, 5}, x25, {1, 1, 5, 5}, y10, i10, -1, -1},
    {"ONNX MaxPool: strides 2, storage_order = 1 (column-major indices)",
     "onnx node test test_maxpool_with_argmax_2d_precomputed_strides (ONNX Runtime agrees)", DEMO_ONNX, 2, two2b,
     two2b, NULL, NULL, NULL, NULL, NULL, 0, NULL, {1, 1, 5, 5}, x25, {1, 1, 2, 2}, y11, i11, 1, -1},
    {"ONNX MaxPool: kernel 3x3, strides 2, ceil_mode = 1",
     "onnx node test test_maxpool_2d_ceil (values); indices from ONNX Runtime 1.32", DEMO_ONNX, 2, three2, two2b,
     NULL, NULL, NULL, NULL, NULL, 0, NULL, {1, 1, 4, 4}, x16, {1, 1, 2, 2}, y12, i12, -1, 1},
    {"PyTorch max_pool2d: kernel 3, stride 2, padding 1, ceil_mode = True, return_indices = True",
     "torch.nn.functional.max_pool2d, PyTorch 1.13", DEMO_TORCH, 2, three1, two1, one1, NULL, NULL, NULL, NULL, 0,
     NULL, {1, 1, 4, 5}, x13, {1, 1, 3, 3}, y13, i13, 0, 1},
    {"PyTorch adaptive_max_pool2d: output_size = (2, 3), return_indices = True",
     "torch.nn.functional.adaptive_max_pool2d, PyTorch 1.13", DEMO_TORCH_ADAPTIVE, 2, NULL, NULL, NULL, NULL, NULL,
     NULL, NULL, 0, os14, {1, 1, 3, 5}, x14, {1, 1, 2, 3}, y14, i14, 0, 0},
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
    if (k->kind == DEMO_OPENVINO) {
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
    } else if (k->kind == DEMO_ONNX) {
        /* ONNX: pads as [begins..., ends...] (pads_begin / pads_end here) */
        maxpool_onnx_attrs a;
        maxpool_onnx_attrs_init(&a, 22);
        printf(" maxpool onnx --opset 22");
        print_list_flag("kernel_shape", k->kernel, k->rank);
        print_list_flag("strides", k->strides, k->rank);
        memcpy(a.kernel_shape, k->kernel, (size_t)k->rank * sizeof(int64_t));
        a.n_kernel_shape = k->rank;
        if (k->strides) {
            memcpy(a.strides, k->strides, (size_t)k->rank * sizeof(int64_t));
            a.n_strides = k->rank;
        }
        if (k->pads_begin) {
            memcpy(a.pads, k->pads_begin, (size_t)k->rank * sizeof(int64_t));
            memcpy(a.pads + k->rank, k->pads_end, (size_t)k->rank * sizeof(int64_t));
            a.n_pads = 2 * k->rank;
            print_list_flag("pads", a.pads, a.n_pads);
        }
        if (k->ceil_mode >= 0) {
            a.ceil_mode = k->ceil_mode;
            printf(" --ceil_mode %d", k->ceil_mode);
        }
        if (k->storage_order >= 0) {
            a.storage_order = k->storage_order;
            printf(" --storage_order %d", k->storage_order);
        }
        printf(" X.npy Y.npy Indices.npy\n");
        a.want_indices = 1;
        st = maxpool_onnx_lower(&a, MAXPOOL_F32, ndim, &desc, &err);
    } else if (k->kind == DEMO_TORCH) {
        /* PyTorch: one value per list broadcasts to every axis */
        maxpool_torch_attrs a;
        maxpool_torch_attrs_init(&a);
        printf(" maxpool torch");
        print_list_flag("kernel_size", k->kernel, 1);
        print_list_flag("stride", k->strides, 1);
        print_list_flag("padding", k->pads_begin, 1);
        printf(" --ceil_mode %d X.npy Y.npy Indices.npy\n", k->ceil_mode);
        a.kernel_size[0] = k->kernel[0];
        a.n_kernel_size = 1;
        if (k->strides) {
            a.stride[0] = k->strides[0];
            a.n_stride = 1;
        }
        if (k->pads_begin) {
            a.padding[0] = k->pads_begin[0];
            a.n_padding = 1;
        }
        a.ceil_mode = k->ceil_mode;
        a.return_indices = 1;
        st = maxpool_torch_lower(&a, MAXPOOL_F32, ndim, &desc, &err);
    } else {
        int torch = k->kind == DEMO_TORCH_ADAPTIVE;
        maxpool_adaptive_attrs a;
        maxpool_adaptive_attrs_init(&a, torch ? MAXPOOL_ADAPTIVE_TORCH : MAXPOOL_ADAPTIVE_ACLNN);
        printf(" maxpool adaptive --flavor %s", torch ? "torch" : "aclnn");
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
               k->kind == DEMO_ACLNN       ? "the values worked out from the spec's formula"
               : k->kind == DEMO_OPENVINO ? "the spec text"
                                          : "the real implementation");
    else {
        printf("    check: MISMATCH with the expected values (%s):\n", k->source);
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
            printf("usage: maxpool demo\n\nRuns the eight OpenVINO MaxPool examples of the spec texts, one "
                   "aclnn adaptive 3-D example,\nthree ONNX MaxPool examples (the onnx package's node tests) and "
                   "two PyTorch ones\n(max_pool2d, adaptive_max_pool2d) on built-in data, prints inputs, outputs "
                   "and\nindices, and checks them against the values of the spec texts or of the real\n"
                   "implementations. Exit status 0 when every example matches, 1 otherwise.\n");
            return CLI_EXIT_OK;
        }
        cli_error("demo takes no arguments (got '%s')", argv[0]);
        return CLI_EXIT_USAGE;
    }
    printf("maxpool %s demo: examples of OpenVINO, aclnn, ONNX and PyTorch, computed by the library on built-in data\n"
           "(values are f32; indices count from 0, padding never wins; CPU: %s)\n\n",
           maxpool_version(), maxpool_isa_name(maxpool_cpu_isa()));
    int matched = 0, failed = 0;
    for (int i = 0; i < NCASES; ++i) {
        int r = run_case(i + 1, &cases[i]);
        if (r == 1)
            ++matched;
        else
            ++failed;
    }
    if (failed) {
        printf("%d of %d examples match their expected values; %d do NOT (see MISMATCH above).\n", matched, NCASES,
               failed);
        fflush(stdout);
        cli_error("demo: %d of %d examples do not match their expected values", failed, NCASES);
        return CLI_EXIT_REJECTED;
    }
    printf("All %d examples match their expected values (spec texts and real implementations).\n", NCASES);
    return CLI_EXIT_OK;
}
