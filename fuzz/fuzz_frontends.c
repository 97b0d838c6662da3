/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_frontends: bytes -> one spec front-end's attribute struct (hostile
 * counts, values, strings, versions, input ranks and dtypes) -> lower. A
 * failure must be clean (code + message); a success must describe the rank
 * and dtype asked for, and then goes through plan creation and the
 * run-and-compare step of fuzz_plan on a small input (fuzz_common.h).
 *
 * Byte format (fuzz/gen_corpus.py writes it; decoders in fuzz_common.h):
 *   u8 flags   bit0: also a num_threads=2 run   bit1: lower with err = NULL
 *              bit2: raw input bits             bit3: N or C = 0 (u8 picks which)
 *              bits4-5: max_isa after lowering: 0 keep, 1 SSE2, 2 AVX2, 3 SCALAR
 *   u8 which   >= 0xE0: TensorFlow; else % 4: 0 ONNX, 1 OpenVINO, 2 PyTorch, 3 adaptive
 *   enum dtype(10)
 *   u8 input_rank  < 0xF0: 3 + s % 8; else hostile_ranks[s - 0xF0]
 *   then per front-end (list = count, then min(max(count, 0), capacity) i64 values;
 *   count = u8 < 0xF0: s % 18, else fz_hostile_ints[s - 0xF0]):
 *     ONNX:     pick opset, list kernel_shape, list strides, list pads (cap 16),
 *               list dilations, str auto_pad, pick ceil_mode, pick storage_order,
 *               pick want_indices
 *     OpenVINO: pick version, list kernel, list strides, list dilations,
 *               list pads_begin, list pads_end, str rounding_type, str auto_pad,
 *               str index_element_type, i64 axis, pick want_indices
 *     PyTorch:  list kernel_size, list stride, list padding, list dilation,
 *               pick ceil_mode, pick return_indices
 *     adaptive: enum flavor(3), list output_size, str index_element_type,
 *               pick want_indices
 *     TensorFlow: list ksize (cap 4), list strides (cap 4), str padding,
 *               str data_format, str targmax, pick include_batch_in_index
 *   (pick = u8 < 0xF0: table[s % n], else fz_hostile_ints[s - 0xF0])
 *   shape: u8 N % 4, u8 C % 5, per spatial axis u8 % 17 (clamped to 4096
 *          elements); with flag bit3 a further u8: odd N = 0, even C = 0
 *   the rest: the input elements
 */
#include "fuzz_common.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fz_init_env();
    return 0;
}

static const int hostile_ranks[16] = {0, 1, 2, 11, -1, INT_MAX, INT_MIN, 12, 2, 11, 0, 1, 2, 11, 100, -3};

static int pick(fz *f, const int *table, int n)
{
    const uint8_t s = fz_u8(f);
    if (s < 0xF0)
        return table[s % n];
    return fz_hostile_ints[s - 0xF0];
}

static int fz_count(fz *f)
{
    const uint8_t s = fz_u8(f);
    if (s < 0xF0)
        return s % 18;
    return fz_hostile_ints[s - 0xF0];
}

static int fz_list(fz *f, int64_t *v, int cap)
{
    const int n = fz_count(f);
    const int m = n < 0 ? 0 : n > cap ? cap : n;
    for (int i = 0; i < m; ++i)
        v[i] = fz_i64(f);
    return n;
}

static const int t01[] = {0, 1};
static const int tm101[] = {-1, 0, 1};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz f = {data, size};
    const uint8_t flags = fz_u8(&f);
    const uint8_t ws = fz_u8(&f);
    const int which = ws >= 0xE0 ? 4 : ws % 4;
    const maxpool_dtype dtype = (maxpool_dtype)fz_enum(&f, 10);
    const uint8_t rs = fz_u8(&f);
    const int input_rank = rs < 0xF0 ? 3 + rs % 8 : hostile_ranks[rs - 0xF0];

    char *s1 = NULL, *s2 = NULL, *s3 = NULL;
    maxpool_desc d;
    memset(&d, 0x5B, sizeof d); /* whatever the caller had */
    maxpool_error err;
    memset(&err, 0x77, sizeof err);
    maxpool_error *perr = (flags & 2) ? NULL : &err;
    maxpool_status st;
    const char *what;

    switch (which) {
    case 0: {
        static const int opsets[] = {1, 7, 8, 9, 10, 11, 12, 13, 21, 22, 23, 2, 0, -1, 18, 19};
        maxpool_onnx_attrs a;
        maxpool_onnx_attrs_init(&a, pick(&f, opsets, 16));
        a.n_kernel_shape = fz_list(&f, a.kernel_shape, MAXPOOL_MAX_SPATIAL);
        a.n_strides = fz_list(&f, a.strides, MAXPOOL_MAX_SPATIAL);
        a.n_pads = fz_list(&f, a.pads, 2 * MAXPOOL_MAX_SPATIAL);
        a.n_dilations = fz_list(&f, a.dilations, MAXPOOL_MAX_SPATIAL);
        a.auto_pad = s1 = fz_str(&f);
        a.ceil_mode = pick(&f, tm101, 3);
        a.storage_order = pick(&f, tm101, 3);
        a.want_indices = pick(&f, t01, 2);
        what = "maxpool_onnx_lower";
        st = maxpool_onnx_lower(&a, dtype, input_rank, &d, perr);
        break;
    }
    case 1: {
        static const int versions[] = {1, 8, 14, 2, 7, 9, 13, 15, 0, 1, 8, 14};
        maxpool_openvino_attrs a;
        maxpool_openvino_attrs_init(&a, pick(&f, versions, 12));
        a.n_kernel = fz_list(&f, a.kernel, MAXPOOL_MAX_SPATIAL);
        a.n_strides = fz_list(&f, a.strides, MAXPOOL_MAX_SPATIAL);
        a.n_dilations = fz_list(&f, a.dilations, MAXPOOL_MAX_SPATIAL);
        a.n_pads_begin = fz_list(&f, a.pads_begin, MAXPOOL_MAX_SPATIAL);
        a.n_pads_end = fz_list(&f, a.pads_end, MAXPOOL_MAX_SPATIAL);
        a.rounding_type = s1 = fz_str(&f);
        a.auto_pad = s2 = fz_str(&f);
        a.index_element_type = s3 = fz_str(&f);
        a.axis = fz_i64(&f);
        a.want_indices = pick(&f, t01, 2);
        what = "maxpool_openvino_lower";
        st = maxpool_openvino_lower(&a, dtype, input_rank, &d, perr);
        break;
    }
    case 2: {
        maxpool_torch_attrs a;
        maxpool_torch_attrs_init(&a);
        a.n_kernel_size = fz_list(&f, a.kernel_size, MAXPOOL_MAX_SPATIAL);
        a.n_stride = fz_list(&f, a.stride, MAXPOOL_MAX_SPATIAL);
        a.n_padding = fz_list(&f, a.padding, MAXPOOL_MAX_SPATIAL);
        a.n_dilation = fz_list(&f, a.dilation, MAXPOOL_MAX_SPATIAL);
        a.ceil_mode = pick(&f, t01, 2);
        a.return_indices = pick(&f, t01, 2);
        what = "maxpool_torch_lower";
        st = maxpool_torch_lower(&a, dtype, input_rank, &d, perr);
        break;
    }
    case 4: {
        maxpool_tf_attrs a;
        maxpool_tf_attrs_init(&a);
        a.n_ksize = fz_list(&f, a.ksize, 4);
        a.n_strides = fz_list(&f, a.strides, 4);
        a.padding = s1 = fz_str(&f);
        a.data_format = s2 = fz_str(&f);
        a.targmax = s3 = fz_str(&f);
        a.include_batch_in_index = pick(&f, tm101, 3);
        what = "maxpool_tf_lower";
        st = maxpool_tf_lower(&a, dtype, input_rank, &d, perr);
        break;
    }
    default: {
        maxpool_adaptive_attrs a;
        maxpool_adaptive_attrs_init(&a, (maxpool_adaptive_flavor)fz_enum(&f, 3));
        a.n_output_size = fz_list(&f, a.output_size, MAXPOOL_MAX_SPATIAL);
        a.index_element_type = s1 = fz_str(&f);
        a.want_indices = pick(&f, t01, 2);
        what = "maxpool_adaptive_lower";
        st = maxpool_adaptive_lower(&a, dtype, input_rank, &d, perr);
        break;
    }
    }
    free(s1);
    free(s2);
    free(s3);

    if (fz_verbose())
        fprintf(stderr, "%s (input_rank %d, dtype %d): %d %s\n", what, input_rank, (int)dtype, (int)st,
                st && perr ? perr->message : "");
    if (st != MAXPOOL_OK) {
        FZ_CHECK(st >= MAXPOOL_ERR_NULL_POINTER && st <= MAXPOOL_ERR_OUT_OF_MEMORY, "%s returned %d", what, (int)st);
        if (perr)
            fz_check_failure(st, perr, what);
        return 0;
    }
    if (perr)
        fz_check_success(perr, what);
    FZ_CHECK(d.spatial_rank == input_rank - 2, "%s: spatial_rank %d for input_rank %d", what, d.spatial_rank,
             input_rank);
    FZ_CHECK(d.spatial_rank >= 1 && d.spatial_rank <= MAXPOOL_MAX_SPATIAL, "%s: accepted input_rank %d", what,
             input_rank);
    FZ_CHECK(d.dtype == dtype, "%s: dtype %d for %d", what, (int)d.dtype, (int)dtype);
    switch ((flags >> 4) & 3) {
    case 1: d.max_isa = MAXPOOL_ISA_SSE2; break;
    case 2: d.max_isa = MAXPOOL_ISA_AVX2; break;
    case 3: d.max_isa = MAXPOOL_ISA_SCALAR; break;
    default: break;
    }

    const int r = d.spatial_rank;
    int64_t n = fz_u8(&f) % 4, c = fz_u8(&f) % 5, sp[MAXPOOL_MAX_SPATIAL];
    for (int i = 0; i < r; ++i)
        sp[i] = fz_u8(&f) % 17;
    fz_clamp_elements(&n, &c, sp, r, 4096);
    if (flags & 8) {
        if (fz_u8(&f) & 1)
            n = 0;
        else
            c = 0;
    }
    int64_t *shape = (int64_t *)fz_malloc((size_t)(r + 2) * sizeof(int64_t));
    fz_memory_shape(shape, d.layout, n, c, sp, r);
    fz_plan_and_run(&d, shape, &f, (flags & 4) != 0, (flags & 1) != 0, 0);
    free(shape);
    return 0;
}
