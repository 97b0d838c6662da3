/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_plan: arbitrary bytes -> a maxpool_desc (every field, out-of-range
 * enums and huge int64 attributes included) + an input shape; shape
 * inference and plan creation must fail cleanly (code + message) or succeed
 * consistently, and a successful small plan must run bit-exact against the
 * scalar reference plan (fuzz_common.h).
 *
 * Byte format (fuzz/gen_corpus.py writes it; decoders in fuzz_common.h):
 *   u8 flags     bit0: also a num_threads=2 run   bit1: also plan_create with err = NULL
 *                bit2: decode attributes for all 8 axes (else spatial_rank axes)
 *                bit3: raw input bits (else edge values)
 *                bits4-5: shape mode 0/1 small dims (<= 4096 elements), 2 N or C = 0 with
 *                         any spatial dims (i64), 3 every dim an i64
 *   u8 rank      < 0xF0: 1 + s % 8; else fz_hostile_ints[s - 0xF0]
 *   enum dtype(10) layout(2) window(2) auto_pad(4) rounding(3) index_type(3) index_axis(3)
 *        index_order(2) nan_policy(2) empty_value(2) empty_index(3) reject_empty_windows(2)
 *        window_init(2) num_threads(4) max_isa(6)
 *   per axis: i64 kernel stride dilation pad_begin pad_end output_size
 *   shape: modes 0/1: u8 N % 4, u8 C % 6, per axis u8 % 17 (then clamped to 4096 elements)
 *          mode 2: u8 z (z & 1: N = 0, C = u8 % 4; else C = 0, N = u8 % 4), per axis i64
 *          mode 3: i64 N, i64 C, per axis i64 (when no dim is negative and the element
 *                  count fits int64 but exceeds 4096, N becomes 0)
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

static const int hostile_ranks[16] = {0, -1, 9, 10, 64, INT_MAX, INT_MIN, -2, 0, 9, 0, 9, 0, 9, 0, 9};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz f = {data, size};
    const uint8_t flags = fz_u8(&f);
    const uint8_t rs = fz_u8(&f);
    const int rank = rs < 0xF0 ? 1 + rs % 8 : hostile_ranks[rs - 0xF0];

    maxpool_desc d;
    maxpool_desc_init(&d, rank);
    d.dtype = (maxpool_dtype)fz_enum(&f, 10);
    d.layout = (maxpool_layout)fz_enum(&f, 2);
    d.window = (maxpool_window_kind)fz_enum(&f, 2);
    d.auto_pad = (maxpool_auto_pad)fz_enum(&f, 4);
    d.rounding = (maxpool_rounding)fz_enum(&f, 3);
    d.index_type = (maxpool_index_type)fz_enum(&f, 3);
    d.index_axis = fz_enum(&f, 3);
    d.index_order = (maxpool_index_order)fz_enum(&f, 2);
    d.nan_policy = (maxpool_nan_policy)fz_enum(&f, 2);
    d.empty_value = (maxpool_empty_value)fz_enum(&f, 2);
    d.empty_index = (maxpool_empty_index)fz_enum(&f, 3);
    d.reject_empty_windows = fz_enum(&f, 2);
    d.window_init = (maxpool_window_init)fz_enum(&f, 2);
    d.num_threads = fz_enum(&f, 4);
    d.max_isa = (maxpool_isa)fz_enum(&f, 6);

    const int valid_rank = rank >= 1 && rank <= MAXPOOL_MAX_SPATIAL;
    const int naxes = (flags & 4) ? MAXPOOL_MAX_SPATIAL : valid_rank ? rank : 0;
    for (int i = 0; i < naxes; ++i) {
        d.kernel[i] = fz_i64(&f);
        d.stride[i] = fz_i64(&f);
        d.dilation[i] = fz_i64(&f);
        d.pad_begin[i] = fz_i64(&f);
        d.pad_end[i] = fz_i64(&f);
        d.output_size[i] = fz_i64(&f);
    }

    /* input shape: exactly rank + 2 values (none for an invalid rank, so a
     * read of it before the rank check is an ASan report) */
    const int r = valid_rank ? rank : 0;
    int64_t n, c, sp[MAXPOOL_MAX_SPATIAL] = {0};
    const int mode = (flags >> 4) & 3;
    if (mode <= 1) {
        n = fz_u8(&f) % 4;
        c = fz_u8(&f) % 6;
        for (int i = 0; i < r; ++i)
            sp[i] = fz_u8(&f) % 17;
        fz_clamp_elements(&n, &c, sp, r, 4096);
    } else if (mode == 2) {
        const uint8_t z = fz_u8(&f);
        if (z & 1) {
            n = 0;
            c = fz_u8(&f) % 4;
        } else {
            c = 0;
            n = fz_u8(&f) % 4;
        }
        for (int i = 0; i < r; ++i)
            sp[i] = fz_i64(&f);
    } else {
        n = fz_i64(&f);
        c = fz_i64(&f);
        for (int i = 0; i < r; ++i)
            sp[i] = fz_i64(&f);
        /* negative dims and element counts past int64 must be rejected; a
         * valid but huge input (its plan may rightly be large) becomes the
         * empty-tensor case, which must not allocate by the spatial size */
        int64_t all[2 + MAXPOOL_MAX_SPATIAL] = {n, c};
        for (int i = 0; i < r; ++i)
            all[2 + i] = sp[i];
        int neg = 0;
        for (int i = 0; i < r + 2; ++i)
            neg |= all[i] < 0;
        int64_t prod = 1;
        int ovf = 0;
        for (int i = 0; i < r + 2 && !neg; ++i)
            ovf |= __builtin_mul_overflow(prod, all[i], &prod);
        if (!neg && !ovf && prod > 4096)
            n = 0;
    }
    if (mode >= 2 && getenv("FUZZ_EMPTY_FITS")) {
        /* triage knob (fuzz/README.md): skip empty tensors whose other
         * dims' product overflows int64, to look past that finding */
        int64_t prod = 1;
        int ovf = 0;
        const int64_t other[2] = {n, c};
        for (int i = 0; i < 2; ++i)
            if (other[i] > 0)
                ovf |= __builtin_mul_overflow(prod, other[i], &prod);
        for (int i = 0; i < r; ++i)
            if (sp[i] > 0)
                ovf |= __builtin_mul_overflow(prod, sp[i], &prod);
        if (ovf && (n == 0 || c == 0))
            return 0;
    }
    int64_t *shape = (int64_t *)fz_malloc(valid_rank ? (size_t)(r + 2) * sizeof(int64_t) : 1);
    if (valid_rank)
        fz_memory_shape(shape, d.layout == MAXPOOL_CHANNELS_LAST ? MAXPOOL_CHANNELS_LAST : MAXPOOL_CHANNELS_FIRST, n,
                        c, sp, r);

    fz_plan_and_run(&d, shape, &f, (flags & 8) != 0, (flags & 1) != 0, (flags & 2) != 0);
    free(shape);
    return 0;
}
