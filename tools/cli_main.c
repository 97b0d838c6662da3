/* SPDX-License-Identifier: Apache-2.0 */
/*
 * maxpool: command-line front door to the library.
 *
 *   maxpool onnx|openvino|adaptive|torch|tf [attributes] X.npy Y.npy [Indices.npy]
 *   maxpool shape onnx|openvino|adaptive|torch|tf [attributes] --input_shape 1,3,224,224
 *   maxpool demo
 *
 * The attributes go unchanged into the maxpool_*_attrs structs and through
 * maxpool_*_lower, so every check the C API makes applies here too; this file
 * only checks its own syntax. See docs/cli.md.
 */
#define _POSIX_C_SOURCE 200809L

#include "cli.h"
#include "npy.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

static const char *const nan_choices[] = {"propagate", "ignore", NULL};
static const char *const isa_choices[] = {"auto", "scalar", "sse2", "avx2", "avx512", "neon", NULL};
static const maxpool_isa isa_values[] = {MAXPOOL_ISA_AUTO, MAXPOOL_ISA_SCALAR, MAXPOOL_ISA_SSE2,
                                         MAXPOOL_ISA_AVX2, MAXPOOL_ISA_AVX512, MAXPOOL_ISA_NEON};
static const char *const layout_choices[] = {"nchw", "nhwc", NULL};
static const char *const dtype_choices[] = {"f32", "f64", "f16", "bf16", "i8", "u8", "i16", "u16", "i32", "i64", NULL};
static const maxpool_dtype dtype_values[] = {MAXPOOL_F32, MAXPOOL_F64, MAXPOOL_F16, MAXPOOL_BF16, MAXPOOL_I8,
                                             MAXPOOL_U8,  MAXPOOL_I16, MAXPOOL_U16, MAXPOOL_I32,  MAXPOOL_I64};
static const char *const flavor_choices[] = {"torch", "aclnn", "openvino", NULL};
static const char *const bool_choices[] = {"0", "1", NULL};
static const maxpool_adaptive_flavor flavor_values[] = {MAXPOOL_ADAPTIVE_TORCH, MAXPOOL_ADAPTIVE_ACLNN,
                                                        MAXPOOL_ADAPTIVE_OPENVINO};

/* ------------------------------------------------------------------------ */
/* The four specs: their options and how they fill the attrs structs         */
/* ------------------------------------------------------------------------ */

typedef struct spec_def {
    const char *name;
    const char *summary;
    const char *usage_attrs; /* attribute part of the usage line */
    void (*add_options)(cli_table *t);
    /* Builds the attrs from the parsed options and lowers them. Returns 0, or
     * -1 with *usage_msg set (CLI syntax) or err filled (library rejection). */
    int (*lower)(cli_table *t, maxpool_dtype dtype, int rank, int want_indices, maxpool_desc *desc,
                 maxpool_error *err, char *usage_msg, size_t usage_size);
} spec_def;

/* Copies a parsed list into an attrs array; count 0 when the flag is absent. */
static void copy_list(cli_table *t, const char *name, int64_t *dst, int *n)
{
    const cli_opt *o = cli_given(t, name);
    *n = 0;
    if (o) {
        memcpy(dst, o->list, (size_t)o->n * sizeof dst[0]);
        *n = o->n;
    }
}

/* An int-typed attribute: keeps dflt when absent; a value outside int is a CLI error. */
static int get_int(cli_table *t, const char *name, int dflt, int *out, char *msg, size_t msg_size)
{
    const cli_opt *o = cli_given(t, name);
    *out = dflt;
    if (!o)
        return 0;
    if (o->ival < -2147483647 - 1 || o->ival > 2147483647) {
        snprintf(msg, msg_size, "--%s: %lld is out of range", name, (long long)o->ival);
        return -1;
    }
    *out = (int)o->ival;
    return 0;
}

static const char *get_string(cli_table *t, const char *name)
{
    const cli_opt *o = cli_given(t, name);
    return o ? o->sval : NULL;
}

/* ---- ONNX ---- */

static void onnx_options(cli_table *t)
{
    cli_add(t, "opset", CLI_INT, 0, NULL, "N", "ONNX opset: 1, 8, 10, 11, 12 or 22 (others: the version in force); default 22");
    cli_add(t, "kernel_shape", CLI_LIST, MAXPOOL_MAX_SPATIAL, NULL, "K,K,...", "kernel size per spatial axis (required)");
    cli_add(t, "strides", CLI_LIST, MAXPOOL_MAX_SPATIAL, NULL, "S,S,...", "stride per spatial axis; default 1");
    cli_add(t, "pads", CLI_LIST, 2 * MAXPOOL_MAX_SPATIAL, NULL, "B,B,...,E,E,...",
            "begin pads of every axis, then end pads; default 0");
    cli_add(t, "dilations", CLI_LIST, MAXPOOL_MAX_SPATIAL, NULL, "D,D,...", "dilation per spatial axis (opset >= 10); default 1");
    cli_add(t, "auto_pad", CLI_STRING, 0, NULL, "MODE", "NOTSET | VALID | SAME_UPPER | SAME_LOWER; default NOTSET");
    cli_add(t, "ceil_mode", CLI_INT, 0, NULL, "0|1", "round the output size up (opset >= 10); default 0");
    cli_add(t, "storage_order", CLI_INT, 0, NULL, "0|1", "1: indices count the spatial part column-major (opset >= 8); default 0");
}

static int onnx_lower(cli_table *t, maxpool_dtype dtype, int rank, int want_indices, maxpool_desc *desc,
                      maxpool_error *err, char *msg, size_t msg_size)
{
    int opset;
    if (get_int(t, "opset", 22, &opset, msg, msg_size) != 0)
        return -1;
    maxpool_onnx_attrs a;
    maxpool_onnx_attrs_init(&a, opset);
    copy_list(t, "kernel_shape", a.kernel_shape, &a.n_kernel_shape);
    copy_list(t, "strides", a.strides, &a.n_strides);
    copy_list(t, "pads", a.pads, &a.n_pads);
    copy_list(t, "dilations", a.dilations, &a.n_dilations);
    if (get_string(t, "auto_pad"))
        a.auto_pad = get_string(t, "auto_pad");
    if (get_int(t, "ceil_mode", a.ceil_mode, &a.ceil_mode, msg, msg_size) != 0 ||
        get_int(t, "storage_order", a.storage_order, &a.storage_order, msg, msg_size) != 0)
        return -1;
    a.want_indices = want_indices;
    return maxpool_onnx_lower(&a, dtype, rank, desc, err) == MAXPOOL_OK ? 0 : -1;
}

/* ---- OpenVINO ---- */

static void openvino_options(cli_table *t)
{
    cli_add(t, "version", CLI_INT, 0, NULL, "1|8|14", "OpenVINO MaxPool version; default 14");
    cli_add(t, "kernel", CLI_LIST, MAXPOOL_MAX_SPATIAL, NULL, "K,K,...", "kernel size per spatial axis (required)");
    cli_add(t, "strides", CLI_LIST, MAXPOOL_MAX_SPATIAL, NULL, "S,S,...", "stride per spatial axis");
    cli_add(t, "pads_begin", CLI_LIST, MAXPOOL_MAX_SPATIAL, NULL, "P,P,...", "padding at the start of each axis");
    cli_add(t, "pads_end", CLI_LIST, MAXPOOL_MAX_SPATIAL, NULL, "P,P,...", "padding at the end of each axis");
    cli_add(t, "dilations", CLI_LIST, MAXPOOL_MAX_SPATIAL, NULL, "D,D,...", "dilation per spatial axis (version >= 8); default 1");
    cli_add(t, "rounding_type", CLI_STRING, 0, NULL, "TYPE", "floor | ceil | ceil_torch (version 14); default floor");
    cli_add(t, "auto_pad", CLI_STRING, 0, NULL, "MODE", "explicit | valid | same_upper | same_lower; default explicit");
    cli_add(t, "index_element_type", CLI_STRING, 0, NULL, "i32|i64", "type of the indices (version >= 8); default i64");
    cli_add(t, "axis", CLI_INT, 0, NULL, "A", "indices are flat from dimension A on (version >= 8); default 0");
}

static int openvino_lower(cli_table *t, maxpool_dtype dtype, int rank, int want_indices, maxpool_desc *desc,
                          maxpool_error *err, char *msg, size_t msg_size)
{
    int version;
    if (get_int(t, "version", 14, &version, msg, msg_size) != 0)
        return -1;
    maxpool_openvino_attrs a;
    maxpool_openvino_attrs_init(&a, version);
    copy_list(t, "kernel", a.kernel, &a.n_kernel);
    copy_list(t, "strides", a.strides, &a.n_strides);
    copy_list(t, "pads_begin", a.pads_begin, &a.n_pads_begin);
    copy_list(t, "pads_end", a.pads_end, &a.n_pads_end);
    copy_list(t, "dilations", a.dilations, &a.n_dilations);
    if (get_string(t, "rounding_type"))
        a.rounding_type = get_string(t, "rounding_type");
    if (get_string(t, "auto_pad"))
        a.auto_pad = get_string(t, "auto_pad");
    if (get_string(t, "index_element_type"))
        a.index_element_type = get_string(t, "index_element_type");
    if (cli_given(t, "axis"))
        a.axis = cli_given(t, "axis")->ival;
    a.want_indices = want_indices;
    return maxpool_openvino_lower(&a, dtype, rank, desc, err) == MAXPOOL_OK ? 0 : -1;
}

/* ---- adaptive ---- */

static void adaptive_options(cli_table *t)
{
    cli_add(t, "output_size", CLI_LIST, MAXPOOL_MAX_SPATIAL, NULL, "O,O,...", "output size per spatial axis (required)");
    cli_add(t, "flavor", CLI_CHOICE, 0, flavor_choices, "torch|aclnn|openvino",
            "the system whose rules apply (NaN, index type); default torch; required with --index_element_type");
    cli_add(t, "index_element_type", CLI_STRING, 0, NULL, "i32|i64", "type of the indices; default: the flavor's");
    cli_add(t, "dims", CLI_INT, 0, NULL, "1|2|3",
            "adaptive_max_pool{1,2,3}d (flavor torch): a rank dims+1 input is unbatched (C, D...); default rank-2");
}

static int adaptive_lower(cli_table *t, maxpool_dtype dtype, int rank, int want_indices, maxpool_desc *desc,
                          maxpool_error *err, char *msg, size_t msg_size)
{
    maxpool_adaptive_flavor flavor = MAXPOOL_ADAPTIVE_TORCH;
    if (cli_given(t, "flavor")) {
        flavor = flavor_values[cli_given(t, "flavor")->choice];
    } else if (cli_given(t, "index_element_type")) {
        /* the flavor decides NaN handling too: never inferred from the index type */
        snprintf(msg, msg_size,
                 "adaptive: --index_element_type needs an explicit --flavor (openvino: i32 or i64; torch: i64; "
                 "aclnn: i32)");
        return -1;
    }
    maxpool_adaptive_attrs a;
    maxpool_adaptive_attrs_init(&a, flavor);
    copy_list(t, "output_size", a.output_size, &a.n_output_size);
    if (get_string(t, "index_element_type"))
        a.index_element_type = get_string(t, "index_element_type");
    a.want_indices = want_indices;
    return maxpool_adaptive_lower(&a, dtype, rank, desc, err) == MAXPOOL_OK ? 0 : -1;
}

/* ---- PyTorch ---- */

static void torch_options(cli_table *t)
{
    cli_add(t, "kernel_size", CLI_LIST, MAXPOOL_MAX_SPATIAL, NULL, "K[,K,...]", "kernel size (one value broadcasts) (required)");
    cli_add(t, "stride", CLI_LIST, MAXPOOL_MAX_SPATIAL, NULL, "S[,S,...]", "stride; default kernel_size");
    cli_add(t, "padding", CLI_LIST, MAXPOOL_MAX_SPATIAL, NULL, "P[,P,...]", "symmetric padding; default 0");
    cli_add(t, "dilation", CLI_LIST, MAXPOOL_MAX_SPATIAL, NULL, "D[,D,...]", "dilation; default 1");
    cli_add(t, "ceil_mode", CLI_INT, 0, NULL, "0|1", "round the output size up; default 0");
    cli_add(t, "dims", CLI_INT, 0, NULL, "1|2|3",
            "max_pool{1,2,3}d: a rank dims+1 input is unbatched (C, D...), as PyTorch takes it; default rank-2");
}

static int torch_lower(cli_table *t, maxpool_dtype dtype, int rank, int want_indices, maxpool_desc *desc,
                       maxpool_error *err, char *msg, size_t msg_size)
{
    maxpool_torch_attrs a;
    maxpool_torch_attrs_init(&a);
    copy_list(t, "kernel_size", a.kernel_size, &a.n_kernel_size);
    copy_list(t, "stride", a.stride, &a.n_stride);
    copy_list(t, "padding", a.padding, &a.n_padding);
    copy_list(t, "dilation", a.dilation, &a.n_dilation);
    if (get_int(t, "ceil_mode", a.ceil_mode, &a.ceil_mode, msg, msg_size) != 0)
        return -1;
    a.return_indices = want_indices;
    return maxpool_torch_lower(&a, dtype, rank, desc, err) == MAXPOOL_OK ? 0 : -1;
}

/* ---- TensorFlow ---- */

static void tf_options(cli_table *t)
{
    cli_add(t, "ksize", CLI_LIST, 4, NULL, "K[,K[,K,K]]", "window size: 1 value (H and W), 2 (H, W) or 4 (N, H, W, C) (required)");
    cli_add(t, "strides", CLI_LIST, 4, NULL, "S[,S[,S,S]]", "stride: 1, 2 or 4 values as ksize (required)");
    cli_add(t, "padding", CLI_STRING, 0, NULL, "SAME|VALID", "padding algorithm (required)");
    cli_add(t, "data_format", CLI_STRING, 0, NULL, "NHWC", "NHWC only; default NHWC");
    cli_add(t, "output_dtype", CLI_STRING, 0, NULL, "int32|int64", "type of the argmax (Targmax); default int64");
    cli_add(t, "include_batch_in_index", CLI_INT, 0, NULL, "0|1", "1: argmax over the whole tensor; default 0");
}

static int tf_lower(cli_table *t, maxpool_dtype dtype, int rank, int want_indices, maxpool_desc *desc,
                    maxpool_error *err, char *msg, size_t msg_size)
{
    maxpool_tf_attrs a;
    maxpool_tf_attrs_init(&a);
    copy_list(t, "ksize", a.ksize, &a.n_ksize);
    copy_list(t, "strides", a.strides, &a.n_strides);
    a.padding = get_string(t, "padding");
    a.data_format = get_string(t, "data_format");
    a.targmax = get_string(t, "output_dtype");
    if (get_int(t, "include_batch_in_index", 0, &a.include_batch_in_index, msg, msg_size) != 0)
        return -1;
    if (maxpool_tf_lower(&a, dtype, rank, desc, err) != MAXPOOL_OK)
        return -1;
    if (!want_indices) /* the op always has the argmax output; not asked for, it is not computed */
        desc->index_type = MAXPOOL_INDEX_NONE;
    return 0;
}

static const spec_def specs[] = {
    {"onnx", "ONNX MaxPool (opsets 1, 8, 10, 11, 12, 22)", "--kernel_shape K,K [--strides ...] [--pads ...] ...",
     onnx_options, onnx_lower},
    {"openvino", "OpenVINO MaxPool-1/8/14", "--kernel K,K [--strides ...] [--pads_begin ...] ...", openvino_options,
     openvino_lower},
    {"adaptive", "adaptive max pooling (PyTorch, aclnn AdaptiveMaxPool3d, OpenVINO AdaptiveMaxPool-8)",
     "--output_size O,O [--flavor ...] ...", adaptive_options, adaptive_lower},
    {"torch", "PyTorch max_pool1d/2d/3d", "--kernel_size K,K [--stride ...] [--padding ...] ...", torch_options,
     torch_lower},
    {"tf", "TensorFlow max_pool_with_argmax (NHWC input; Indices.npy: the argmax)",
     "--ksize K,K --strides S,S --padding SAME|VALID [--output_dtype ...] ...", tf_options, tf_lower},
};
#define NSPECS ((int)(sizeof specs / sizeof specs[0]))

static const spec_def *find_spec(const char *name)
{
    for (int i = 0; i < NSPECS; ++i)
        if (strcmp(specs[i].name, name) == 0)
            return &specs[i];
    return NULL;
}

/* ------------------------------------------------------------------------ */
/* Options every subcommand takes                                            */
/* ------------------------------------------------------------------------ */

static void common_options(cli_table *t, int shape_mode)
{
    cli_add(t, "nan", CLI_CHOICE, 0, nan_choices, "propagate|ignore",
            "NaN policy, overriding the spec's default (see docs/cli.md)");
    cli_add(t, "layout", CLI_CHOICE, 0, layout_choices, "nchw|nhwc",
            "memory layout of X and Y: channels first (default) or last");
    if (shape_mode) {
        /* As many dimensions as a .npy file may have: the front-end, not the
         * option parser, rejects a rank, as it does for the run. */
        cli_add(t, "input_shape", CLI_LIST, NPY_MAX_DIMS, NULL, "N,C,D,...",
                "the input shape, in memory order (required)");
        cli_add(t, "dtype", CLI_CHOICE, 0, dtype_choices, "TYPE", "element type the front-end validates; default f32");
        cli_add(t, "indices", CLI_CHOICE, 0, bool_choices, "0|1",
                "1: as a run given Indices.npy (index type and range checked); default 0");
    } else {
        cli_add(t, "dtype", CLI_CHOICE, 0, dtype_choices, "TYPE",
                "reinterpret X's elements as TYPE (same size), e.g. bf16 for a <u2 file");
        cli_add(t, "threads", CLI_INT, 0, NULL, "N", "worker threads; default 1");
        cli_add(t, "isa", CLI_CHOICE, 0, isa_choices, "auto|scalar|sse2|avx2|avx512",
                "highest instruction set the kernels may use; default auto");
    }
}

/* Applies --nan, --layout, --threads, --isa to a lowered descriptor. */
static int apply_common(cli_table *t, maxpool_desc *d, char *msg, size_t msg_size)
{
    const cli_opt *o;
    if ((o = cli_given(t, "nan")))
        d->nan_policy = o->choice == 0 ? MAXPOOL_NAN_PROPAGATE : MAXPOOL_NAN_IGNORE;
    if ((o = cli_given(t, "layout")))
        d->layout = o->choice == 0 ? MAXPOOL_CHANNELS_FIRST : MAXPOOL_CHANNELS_LAST;
    if ((o = cli_given(t, "threads"))) {
        if (o->ival < 0 || o->ival > 4096) {
            snprintf(msg, msg_size, "--threads: %lld is not in [0, 4096]", (long long)o->ival);
            return -1;
        }
        d->num_threads = (int)o->ival;
    }
    if ((o = cli_given(t, "isa")))
        d->max_isa = isa_values[o->choice];
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Help                                                                      */
/* ------------------------------------------------------------------------ */

static void print_usage(FILE *f)
{
    fprintf(f,
            "maxpool %d.%d.%d: max pooling as ONNX, OpenVINO, PyTorch, TensorFlow and adaptive pooling define it.\n"
            "\n"
            "usage:\n"
            "  maxpool onnx     [attributes] X.npy Y.npy [Indices.npy]\n"
            "  maxpool openvino [attributes] X.npy Y.npy [Indices.npy]\n"
            "  maxpool adaptive [attributes] X.npy Y.npy [Indices.npy]\n"
            "  maxpool torch    [attributes] X.npy Y.npy [Indices.npy]\n"
            "  maxpool tf       [attributes] X.npy Y.npy [Argmax.npy]   (NHWC, max_pool_with_argmax)\n"
            "  maxpool shape <onnx|openvino|adaptive|torch|tf> [attributes] --input_shape N,C,D,...\n"
            "  maxpool demo     run the OpenVINO spec examples and an adaptive one on built-in data\n"
            "  maxpool --help | --version | <subcommand> --help\n"
            "\n"
            "Attributes are the spec's own names as --name value (lists: 3,3). Every subcommand\n"
            "also takes --nan propagate|ignore, --layout nchw|nhwc, and (not shape) --threads N,\n"
            "--isa auto|scalar|sse2|avx2|avx512 and --dtype TYPE. Indices.npy, when given, asks for\n"
            "the indices output (shape: --indices 1). Outputs must be new names or regular files,\n"
            "not the input. Exit status: 0 ok, 1 rejected by the library, 2 usage error,\n"
            "3 file error. See docs/cli.md.\n",
            MAXPOOL_VERSION_MAJOR, MAXPOOL_VERSION_MINOR, MAXPOOL_VERSION_PATCH);
}

static void print_spec_help(const spec_def *s, int shape_mode)
{
    cli_table t = {.count = 0};
    s->add_options(&t);
    common_options(&t, shape_mode);
    if (shape_mode)
        printf("usage: maxpool shape %s %s --input_shape N,C,D,...\n\n"
               "Prints the output shape of %s for that input shape, e.g. 1,3,112,112.\n\noptions:\n",
               s->name, s->usage_attrs, s->summary);
    else
        printf("usage: maxpool %s %s X.npy Y.npy [Indices.npy]\n\n"
               "%s on X.npy, written to Y.npy (same dtype) and, when given, Indices.npy.\n\noptions:\n",
               s->name, s->usage_attrs, s->summary);
    cli_print_options(stdout, &t);
    printf("  %-30s %s\n", "--help", "this text");
}

/* ------------------------------------------------------------------------ */
/* The plan: one code path for the run and for shape                        */
/* ------------------------------------------------------------------------ */

/*
 * Lowers the attributes of spec s for an input of the given dtype and shape,
 * applies the common options and creates the plan, with every check a run
 * makes before it touches the data. The run and 'maxpool shape' both call
 * this, so that shape prints exactly the shapes the run accepts and rejects
 * the rest with the run's message and exit code. Returns CLI_EXIT_OK with
 * *plan and *desc set, or an exit code after printing the message.
 */
static int make_plan(const spec_def *s, cli_table *t, maxpool_dtype dtype, int ndim, const int64_t *shape,
                     int want_indices, maxpool_desc *desc, maxpool_plan **plan)
{
    const char *who = s->name; /* for messages: "onnx: ..." */
    char msg[CLI_MESSAGE_SIZE] = "";
    maxpool_error err = {MAXPOOL_OK, ""};
    *plan = NULL;
    if (s->lower(t, dtype, ndim, want_indices, desc, &err, msg, sizeof msg) != 0) {
        if (msg[0]) {
            cli_error("%s", msg);
            return CLI_EXIT_USAGE;
        }
        cli_error("%s", err.message);
        return CLI_EXIT_REJECTED;
    }
    if (desc->spatial_rank + 2 != ndim || ndim > MAXPOOL_MAX_SPATIAL + 2) {
        /* The front-end checks the rank; this only guards the arrays of the callers. */
        cli_error("%s: a %d-dimensional input does not fit this pooling", who, ndim);
        return CLI_EXIT_REJECTED;
    }
    if (strcmp(who, "tf") == 0 && cli_given(t, "layout") && cli_given(t, "layout")->choice == 0) {
        cli_error("tf: --layout nchw: max_pool_with_argmax takes NHWC input only");
        return CLI_EXIT_USAGE;
    }
    if (apply_common(t, desc, msg, sizeof msg) != 0) {
        cli_error("%s", msg);
        return CLI_EXIT_USAGE;
    }
    if (want_indices && desc->index_type == MAXPOOL_INDEX_NONE) {
        cli_error("%s: this spec and version have no indices output", who);
        return CLI_EXIT_REJECTED;
    }
    if (maxpool_plan_create(desc, shape, plan, &err) != MAXPOOL_OK) {
        cli_error("%s", err.message);
        return CLI_EXIT_REJECTED;
    }
    int64_t n_out = maxpool_plan_output_elements(*plan);
    if (n_out < 0 || (uint64_t)n_out > SIZE_MAX / 8) {
        cli_error("%s: the output has too many elements", who);
        maxpool_plan_destroy(*plan);
        *plan = NULL;
        return CLI_EXIT_REJECTED;
    }
    return CLI_EXIT_OK;
}

/*
 * The input shape the plan sees. torch and adaptive (flavor torch) with
 * --dims D take PyTorch's unbatched form: a rank D+1 input (C, D...) is
 * planned as (1, C, D...) and its output written without the leading 1
 * (*unbatched = 1); a rank D+2 input is batched; any other rank is refused.
 * tf refuses an input with a zero dimension, as TensorFlow does. Returns
 * CLI_EXIT_OK with *pndim / pshape set, or an exit code after the message.
 */
static int input_view(const spec_def *s, cli_table *t, int ndim, const int64_t *shape, int *pndim, int64_t *pshape,
                      int *unbatched)
{
    const char *who = s->name;
    *unbatched = 0;
    *pndim = ndim;
    if (ndim > CLI_LIST_CAPACITY) /* cannot happen: .npy files and --input_shape have at most 64 */
        ndim = CLI_LIST_CAPACITY;
    memcpy(pshape, shape, (size_t)ndim * sizeof *shape);
    if (strcmp(who, "tf") == 0) {
        for (int i = 0; i < ndim; ++i)
            if (shape[i] == 0) {
                cli_error("tf: tensor_in must not be empty (dimension %d is 0; TensorFlow rejects it)", i);
                return CLI_EXIT_REJECTED;
            }
    }
    const cli_opt *dims = cli_find(t, "dims") ? cli_given(t, "dims") : NULL;
    if (!dims)
        return CLI_EXIT_OK;
    if (dims->ival < 1 || dims->ival > 3) {
        cli_error("%s: --dims %lld must be 1, 2 or 3", who, (long long)dims->ival);
        return CLI_EXIT_USAGE;
    }
    const cli_opt *fl = cli_find(t, "flavor") ? cli_given(t, "flavor") : NULL;
    if (fl && flavor_values[fl->choice] != MAXPOOL_ADAPTIVE_TORCH) {
        cli_error("%s: --dims (PyTorch's unbatched inputs) goes with --flavor torch only", who);
        return CLI_EXIT_USAGE;
    }
    const int d = (int)dims->ival;
    if (ndim == d + 2)
        return CLI_EXIT_OK;
    if (ndim != d + 1) {
        cli_error("%s: --dims %d takes a %d-D (unbatched C, D...) or %d-D (batched N, C, D...) input, not %d-D", who, d,
                  d + 1, d + 2, ndim);
        return CLI_EXIT_REJECTED;
    }
    pshape[0] = 1;
    memcpy(pshape + 1, shape, (size_t)ndim * sizeof *shape);
    *pndim = ndim + 1;
    *unbatched = 1;
    return CLI_EXIT_OK;
}

/* ------------------------------------------------------------------------ */
/* Output files: what may be written                                         */
/* ------------------------------------------------------------------------ */

/*
 * Which file a path names, for the same-file checks. An existing file is its
 * (st_dev, st_ino), so hard links and symlinked directories compare equal; a
 * file yet to be created is its directory's (st_dev, st_ino) plus its last
 * path component, so "d/y.npy", "./d/y.npy" and "link-to-d/y.npy" compare
 * equal too.
 */
typedef struct file_id {
    int exists;
    dev_t dev;
    ino_t ino;
    const char *base; /* !exists: the last path component */
} file_id;

static int same_file(const file_id *a, const file_id *b)
{
    return a->exists == b->exists && a->dev == b->dev && a->ino == b->ino &&
           (a->exists || strcmp(a->base, b->base) == 0);
}

/* The identity of an output path, after npy_check_output has refused anything
 * but a regular file or a new name. 0, or -1 with a message. */
static int output_id(const char *path, file_id *id, char *msg, size_t msg_size)
{
    struct stat st;
    if (npy_check_output(path, msg, msg_size) != 0)
        return -1;
    if (lstat(path, &st) == 0) { /* a regular file (npy_check_output) */
        *id = (file_id){1, st.st_dev, st.st_ino, NULL};
        return 0;
    }
    const char *slash = strrchr(path, '/');
    size_t dirlen = !slash ? 0 : slash == path ? 1 : (size_t)(slash - path); /* "/y.npy": the root */
    char *dir = malloc(dirlen + 2);
    if (!dir) {
        snprintf(msg, msg_size, "%s: out of memory", path);
        return -1;
    }
    memcpy(dir, dirlen ? path : ".", dirlen ? dirlen : 1);
    dir[dirlen ? dirlen : 1] = '\0';
    int rc = stat(dir, &st);
    int e = errno;
    free(dir);
    if (rc != 0) {
        snprintf(msg, msg_size, "%s: cannot create: %s", path, strerror(e));
        return -1;
    }
    *id = (file_id){0, st.st_dev, st.st_ino, slash ? slash + 1 : path};
    return 0;
}

/*
 * Before anything is read or computed: every output must be a new name or a
 * regular file (never a symlink, FIFO, socket, device or directory), and must
 * name neither the input nor another output. Returns CLI_EXIT_OK, or
 * CLI_EXIT_FILE after printing the message.
 */
static int check_files(const char *who, const char *x_path, const char *const *out, int n_out)
{
    static const char *const role[] = {"Y", "Indices"};
    char msg[CLI_MESSAGE_SIZE];
    file_id id[2], x;
    struct stat st;
    /* An input that cannot be stat'ed is reported by npy_load. */
    int have_x = stat(x_path, &st) == 0;
    if (have_x)
        x = (file_id){1, st.st_dev, st.st_ino, NULL};
    for (int i = 0; i < n_out; ++i) {
        if (output_id(out[i], &id[i], msg, sizeof msg) != 0) {
            cli_error("%s", msg);
            return CLI_EXIT_FILE;
        }
        if (have_x && same_file(&id[i], &x)) {
            cli_error("%s: %s '%s' names the same file as the input '%s'", who, role[i], out[i], x_path);
            return CLI_EXIT_FILE;
        }
        for (int j = 0; j < i; ++j)
            if (strcmp(out[i], out[j]) == 0 || same_file(&id[i], &id[j])) {
                cli_error("%s: %s '%s' and %s '%s' name the same file", who, role[j], out[j], role[i], out[i]);
                return CLI_EXIT_FILE;
            }
    }
    return CLI_EXIT_OK;
}

/* ------------------------------------------------------------------------ */
/* Subcommands                                                               */
/* ------------------------------------------------------------------------ */

static int run_shape(int argc, char **argv)
{
    if (argc < 1) {
        cli_error("shape: which spec? expected 'maxpool shape <onnx|openvino|adaptive|torch|tf> ...'");
        return CLI_EXIT_USAGE;
    }
    if (strcmp(argv[0], "--help") == 0 || strcmp(argv[0], "-h") == 0) {
        printf("usage: maxpool shape <onnx|openvino|adaptive|torch|tf> [attributes] --input_shape N,C,D,...\n"
               "Prints the output shape. 'maxpool shape <spec> --help' lists the attributes.\n");
        return CLI_EXIT_OK;
    }
    const spec_def *s = find_spec(argv[0]);
    if (!s) {
        cli_error("shape: unknown spec '%s' (expected onnx, openvino, adaptive, torch or tf)", argv[0]);
        return CLI_EXIT_USAGE;
    }
    char context[64];
    snprintf(context, sizeof context, "maxpool shape %s", s->name);
    const char *who = context + strlen("maxpool "); /* for messages: "shape onnx: ..." */
    cli_table t = {.count = 0};
    s->add_options(&t);
    common_options(&t, 1);
    const char *pos[1];
    int npos, help;
    char msg[CLI_MESSAGE_SIZE];
    if (cli_parse(argc - 1, argv + 1, &t, context, pos, 0, &npos, &help, msg, sizeof msg) != 0) {
        cli_error("%s", msg);
        return CLI_EXIT_USAGE;
    }
    if (help) {
        print_spec_help(s, 1);
        return CLI_EXIT_OK;
    }
    const cli_opt *in = cli_given(&t, "input_shape");
    if (!in) {
        cli_error("%s: missing --input_shape N,C,D,...", who);
        return CLI_EXIT_USAGE;
    }
    maxpool_dtype dtype = cli_given(&t, "dtype") ? dtype_values[cli_given(&t, "dtype")->choice] : MAXPOOL_F32;
    int want_indices = cli_given(&t, "indices") && cli_given(&t, "indices")->choice == 1;
    maxpool_desc desc;
    maxpool_plan *plan;
    int64_t pshape[CLI_LIST_CAPACITY + 1];
    int pndim, unbatched;
    int rc = input_view(s, &t, in->n, in->list, &pndim, pshape, &unbatched);
    if (rc != CLI_EXIT_OK)
        return rc;
    rc = make_plan(s, &t, dtype, pndim, pshape, want_indices, &desc, &plan);
    if (rc != CLI_EXIT_OK)
        return rc;
    int64_t out[MAXPOOL_MAX_SPATIAL + 2];
    maxpool_plan_output_shape(plan, out);
    maxpool_plan_destroy(plan);
    char buf[512];
    cli_format_list(buf, sizeof buf, out + unbatched, in->n);
    printf("%s\n", buf);
    return CLI_EXIT_OK;
}

static int run_pool(const spec_def *s, int argc, char **argv)
{
    char context[64];
    snprintf(context, sizeof context, "maxpool %s", s->name);
    const char *who = s->name; /* for messages: "onnx: ..." */
    cli_table t = {.count = 0};
    s->add_options(&t);
    common_options(&t, 0);
    const char *pos[3];
    int npos, help;
    char msg[CLI_MESSAGE_SIZE];
    if (cli_parse(argc, argv, &t, context, pos, 3, &npos, &help, msg, sizeof msg) != 0) {
        cli_error("%s", msg);
        return CLI_EXIT_USAGE;
    }
    if (help) {
        print_spec_help(s, 0);
        return CLI_EXIT_OK;
    }
    if (npos < 2) {
        cli_error("%s: missing %s (expected X.npy Y.npy [Indices.npy])", who,
                  npos == 0 ? "the input and output files" : "the output file");
        return CLI_EXIT_USAGE;
    }
    const char *x_path = pos[0], *y_path = pos[1], *i_path = npos > 2 ? pos[2] : NULL;
    int rc = check_files(who, x_path, pos + 1, npos - 1);
    if (rc != CLI_EXIT_OK)
        return rc;

    npy_array x;
    char npy_msg[NPY_MESSAGE_SIZE];
    if (npy_load(x_path, &x, npy_msg, sizeof npy_msg) != 0) {
        cli_error("%s", npy_msg);
        return CLI_EXIT_FILE;
    }
    rc = CLI_EXIT_REJECTED;
    maxpool_plan *plan = NULL;
    void *y = NULL, *idx = NULL;
    npy_pending py = {NULL, NULL}, pi = {NULL, NULL};

    maxpool_dtype dtype = x.dtype;
    const char *y_descr = x.descr;
    const cli_opt *dt = cli_given(&t, "dtype");
    if (dt) {
        maxpool_dtype want = dtype_values[dt->choice];
        if (maxpool_dtype_size(want) != x.itemsize) {
            cli_error("--dtype %s: %s holds %s (%zu-byte elements); --dtype only reinterprets elements of the "
                      "same size",
                      dt->sval, x_path, x.descr, x.itemsize);
            rc = CLI_EXIT_USAGE;
            goto done;
        }
        dtype = want;
        /* Y keeps X's descriptor: a <u2 file read as bf16 gives a <u2 file. */
    }
    maxpool_desc desc;
    int64_t pshape[CLI_LIST_CAPACITY + 1];
    int pndim, unbatched;
    if ((rc = input_view(s, &t, x.ndim, x.shape, &pndim, pshape, &unbatched)) != CLI_EXIT_OK ||
        (rc = make_plan(s, &t, dtype, pndim, pshape, i_path != NULL, &desc, &plan)) != CLI_EXIT_OK)
        goto done;
    rc = CLI_EXIT_REJECTED;

    int64_t out_shape[MAXPOOL_MAX_SPATIAL + 2];
    maxpool_plan_output_shape(plan, out_shape);
    int64_t n_out = maxpool_plan_output_elements(plan); /* checked by make_plan */
    size_t esize = x.itemsize;
    size_t isize = desc.index_type == MAXPOOL_INDEX_I32 ? 4 : desc.index_type == MAXPOOL_INDEX_I64 ? 8 : 0;
    y = malloc((size_t)n_out * esize + 1);
    if (isize)
        idx = malloc((size_t)n_out * isize + 1);
    if (!y || (isize && !idx)) {
        cli_error("%s: out of memory for the output", who);
        goto done;
    }
    maxpool_status st = maxpool_run(plan, x.data, y, idx);
    if (st != MAXPOOL_OK) {
        cli_error("%s: %s", who, maxpool_strerror(st));
        goto done;
    }

    /* Write every output to a temporary file first, then rename them all. */
    if (npy_save_begin(&py, y_path, y_descr, x.ndim, out_shape + unbatched, y, npy_msg, sizeof npy_msg) != 0 ||
        (i_path && npy_save_begin(&pi, i_path, isize == 4 ? "<i4" : "<i8", x.ndim, out_shape + unbatched, idx,
                                  npy_msg, sizeof npy_msg) != 0) ||
        npy_save_commit(&py, npy_msg, sizeof npy_msg) != 0 ||
        (i_path && npy_save_commit(&pi, npy_msg, sizeof npy_msg) != 0)) {
        cli_error("%s", npy_msg);
        rc = CLI_EXIT_FILE;
        goto done;
    }
    rc = CLI_EXIT_OK;

done:
    npy_save_abort(&py);
    npy_save_abort(&pi);
    free(y);
    free(idx);
    maxpool_plan_destroy(plan);
    npy_free(&x);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        cli_error("missing subcommand (onnx, openvino, adaptive, torch, tf, shape, demo; see 'maxpool --help')");
        return CLI_EXIT_USAGE;
    }
    const char *sub = argv[1];
    if (strcmp(sub, "--help") == 0 || strcmp(sub, "-h") == 0 || strcmp(sub, "help") == 0) {
        print_usage(stdout);
        return CLI_EXIT_OK;
    }
    if (strcmp(sub, "--version") == 0) {
        printf("maxpool %d.%d.%d\n", MAXPOOL_VERSION_MAJOR, MAXPOOL_VERSION_MINOR, MAXPOOL_VERSION_PATCH);
        return CLI_EXIT_OK;
    }
    if (strcmp(sub, "shape") == 0)
        return run_shape(argc - 2, argv + 2);
    if (strcmp(sub, "demo") == 0)
        return cli_demo(argc - 2, argv + 2);
    const spec_def *s = find_spec(sub);
    if (s)
        return run_pool(s, argc - 2, argv + 2);
    cli_error("unknown subcommand '%s' (expected onnx, openvino, adaptive, torch, tf, shape or demo; see 'maxpool --help')",
              sub);
    return CLI_EXIT_USAGE;
}
