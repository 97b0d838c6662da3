/* SPDX-License-Identifier: Apache-2.0 */
/*
 * maxpool: every variant of max pooling that the real systems define, bit-exact.
 *
 * Lifecycle (XNNPACK-style):
 *   maxpool_desc d;  maxpool_desc_init(&d, 2);   ... fill in ...
 *   maxpool_plan *p; maxpool_plan_create(&d, input_shape, &p, &err);
 *   maxpool_run(p, x, y, indices);   (any number of times, from any number of threads)
 *   maxpool_plan_destroy(p);
 *
 * Spec front-ends (ONNX, OpenVINO, PyTorch, adaptive) fill a maxpool_desc from
 * the attributes as each spec names them; see the maxpool_*_lower functions.
 *
 * The library never aborts and never prints. Every failing call returns a
 * maxpool_status and, when the caller passes a maxpool_error, a message that
 * names the attribute, the axis and the value.
 *
 * Semantics (NaN, ties, empty windows, index conventions) are documented in
 * docs/semantics.md.
 */
#ifndef MAXPOOL_H
#define MAXPOOL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32) && defined(MAXPOOL_SHARED_BUILD)
#define MAXPOOL_API __declspec(dllexport)
#elif defined(__GNUC__)
#define MAXPOOL_API __attribute__((visibility("default")))
#else
#define MAXPOOL_API
#endif

/*
 * The version: these three lines are its only source. CMakeLists.txt reads
 * them for project(VERSION) (so the shared library's SONAME, maxpool.pc and
 * maxpoolConfigVersion.cmake), python/pyproject.toml reads them for the
 * package version, and maxpool.__version__ is maxpool_version() of the loaded
 * library. CHANGELOG.md lists what changed in each version.
 */
#define MAXPOOL_VERSION_MAJOR 0
#define MAXPOOL_VERSION_MINOR 1
#define MAXPOOL_VERSION_PATCH 0

/** Largest number of spatial axes. The tensor rank is spatial_rank + 2. */
#define MAXPOOL_MAX_SPATIAL 8
/** Size of the message buffer in maxpool_error. */
#define MAXPOOL_MESSAGE_SIZE 256

/* ------------------------------------------------------------------------ */
/* Status and errors                                                        */
/* ------------------------------------------------------------------------ */

typedef enum maxpool_status {
    MAXPOOL_OK = 0,
    MAXPOOL_ERR_NULL_POINTER = 1,      /* a required pointer argument is NULL */
    MAXPOOL_ERR_INVALID_ATTRIBUTE = 2, /* an attribute value is out of its range */
    MAXPOOL_ERR_INVALID_SHAPE = 3,     /* the input shape does not fit the attributes */
    MAXPOOL_ERR_UNSUPPORTED = 4,       /* valid elsewhere, not in this spec/version/type */
    MAXPOOL_ERR_OVERFLOW = 5,          /* a size or an index does not fit its type */
    MAXPOOL_ERR_OUT_OF_MEMORY = 6
} maxpool_status;

/** Optional out-parameter of every fallible call: the code and a message. */
typedef struct maxpool_error {
    maxpool_status code;
    char message[MAXPOOL_MESSAGE_SIZE];
} maxpool_error;

/** A fixed description of a status code ("invalid attribute", ...). Never NULL. */
MAXPOOL_API const char *maxpool_strerror(maxpool_status status);

/**
 * The version of the library that is running, "MAJOR.MINOR.PATCH" (e.g.
 * "0.1.0"): the MAXPOOL_VERSION_* values it was compiled with, which may
 * differ from the header a program was compiled against. Never NULL.
 */
MAXPOOL_API const char *maxpool_version(void);

/* ------------------------------------------------------------------------ */
/* Descriptor                                                               */
/* ------------------------------------------------------------------------ */

typedef enum maxpool_dtype {
    MAXPOOL_F32 = 0,
    MAXPOOL_F64,
    MAXPOOL_F16,  /* IEEE binary16, stored as uint16_t bit patterns */
    MAXPOOL_BF16, /* bfloat16, stored as uint16_t bit patterns */
    MAXPOOL_I8,
    MAXPOOL_U8,
    MAXPOOL_I16,
    MAXPOOL_U16,
    MAXPOOL_I32,
    MAXPOOL_I64,
    MAXPOOL_DTYPE_COUNT
} maxpool_dtype;

typedef enum maxpool_layout {
    MAXPOOL_CHANNELS_FIRST = 0, /* N, C, D1, ..., Dn (NCHW, NCDHW) */
    MAXPOOL_CHANNELS_LAST = 1   /* N, D1, ..., Dn, C (NHWC, NDHWC) */
} maxpool_layout;

typedef enum maxpool_window_kind {
    MAXPOOL_WINDOW_FIXED = 0,   /* kernel / stride / dilation / pads */
    MAXPOOL_WINDOW_ADAPTIVE = 1 /* output size; start = floor(o*in/out), end = ceil((o+1)*in/out) */
} maxpool_window_kind;

typedef enum maxpool_auto_pad {
    MAXPOOL_PAD_EXPLICIT = 0, /* pad_begin / pad_end as given (ONNX NOTSET) */
    MAXPOOL_PAD_VALID,        /* no padding; rounding still applies */
    MAXPOOL_PAD_SAME_UPPER,   /* out = ceil(in/stride), odd extra pad at the end */
    MAXPOOL_PAD_SAME_LOWER    /* out = ceil(in/stride), odd extra pad at the start */
} maxpool_auto_pad;

typedef enum maxpool_rounding {
    MAXPOOL_ROUND_FLOOR = 0,
    MAXPOOL_ROUND_CEIL,      /* ceil, every window kept (OpenVINO "ceil") */
    MAXPOOL_ROUND_CEIL_TORCH /* ceil, a last window starting in the end padding is dropped */
} maxpool_rounding;

typedef enum maxpool_index_type {
    MAXPOOL_INDEX_NONE = 0,
    MAXPOOL_INDEX_I32,
    MAXPOOL_INDEX_I64
} maxpool_index_type;

typedef enum maxpool_index_order {
    MAXPOOL_INDEX_ROW_MAJOR = 0, /* spatial part: last axis fastest */
    MAXPOOL_INDEX_COL_MAJOR = 1, /* spatial part: first axis fastest (ONNX storage_order=1) */
    MAXPOOL_INDEX_CHANNELS_LAST = 2 /* the element's offset in a row-major (N, D1, ..., Dn, C) tensor, C fastest:
                                       (s*C + c) within one batch item, s the row-major spatial offset, plus
                                       n*D1*...*Dn*C with index_axis 0 (TensorFlow max_pool_with_argmax);
                                       index_axis 0 or 1 only, whatever the memory layout */
} maxpool_index_order;

typedef enum maxpool_nan_policy {
    MAXPOOL_NAN_IGNORE = 0,   /* update only when x > best: NaN never wins (ORT, OpenVINO) */
    MAXPOOL_NAN_PROPAGATE = 1 /* update when x > best or x is NaN: last NaN wins (PyTorch) */
} maxpool_nan_policy;

typedef enum maxpool_empty_value {
    MAXPOOL_EMPTY_LOWEST = 0, /* the type's lowest finite value (-FLT_MAX, INT8_MIN, ...) */
    MAXPOOL_EMPTY_NEG_INF = 1 /* -inf for float types; the lowest value for integers */
} maxpool_empty_value;

typedef enum maxpool_empty_index {
    MAXPOOL_EMPTY_INDEX_MINUS_ONE = 0, /* -1 (ONNX Runtime) */
    MAXPOOL_EMPTY_INDEX_FIRST_TAP = 1, /* index of the window's first tap at or after 0 (PyTorch) */
    MAXPOOL_EMPTY_INDEX_PLANE_START = 2 /* index of the (n, c) plane's first element (OpenVINO) */
} maxpool_empty_index;

typedef enum maxpool_window_init {
    MAXPOOL_INIT_EMPTY_VALUE = 0,   /* the running max starts at (empty value, empty index) */
    MAXPOOL_INIT_FIRST_ELEMENT = 1  /* it starts at the window's first element, NaN included (ONNX Runtime's
                                       Indices path, OpenVINO AdaptiveMaxPool); empty windows as above */
} maxpool_window_init;

/** Instruction-set ceiling for kernel selection (MAXPOOL_ISA env var lowers it too). */
typedef enum maxpool_isa {
    MAXPOOL_ISA_AUTO = 0, /* best the CPU has */
    MAXPOOL_ISA_SCALAR,
    MAXPOOL_ISA_SSE2,
    MAXPOOL_ISA_AVX2,
    MAXPOOL_ISA_AVX512,
    MAXPOOL_ISA_NEON
} maxpool_isa;

/**
 * What to compute. Fill with maxpool_desc_init, then set fields.
 *
 * The running max of a window starts at (empty value, empty index) — or, with
 * MAXPOOL_INIT_FIRST_ELEMENT, at the window's first element — and is
 * replaced by element x, scanned in row-major window order, when x > best
 * (MAXPOOL_NAN_PROPAGATE: or x is NaN). Ties therefore go to the first
 * element; a window with no input element yields the empty value and index.
 *
 * Indices are in the logical (N, C, D1..Dn) coordinate system whatever the
 * memory layout: flat from dimension index_axis on (0: the whole tensor,
 * 1: within one batch item, 2: within one (n, c) plane, 2 + a for a in
 * [1, spatial_rank - 1]: the row-major offset of the coordinates of spatial
 * axes a .. spatial_rank-1 only, i.e. the plane offset modulo the product of
 * those axes' sizes, OpenVINO's axis on a spatial dimension), with the
 * spatial part in index_order. index_axis > 2 needs index_order ROW_MAJOR
 * and empty_index MINUS_ONE or PLANE_START (else MAXPOOL_ERR_UNSUPPORTED);
 * MAXPOOL_INDEX_CHANNELS_LAST needs index_axis 0 or 1 (else
 * MAXPOOL_ERR_UNSUPPORTED). Both conventions are computed by maxpool_run
 * after the kernel (one pass over the indices); the index of an empty
 * window (-1 aside) follows the same convention. With index_type I32 every
 * index the plan can write must fit int32 -- under index_axis > 2 also the
 * within-plane offset the kernel writes first -- else plan creation fails
 * with MAXPOOL_ERR_OVERFLOW.
 */
typedef struct maxpool_desc {
    int spatial_rank; /* 1 .. MAXPOOL_MAX_SPATIAL */
    maxpool_dtype dtype;
    maxpool_layout layout;
    maxpool_window_kind window;

    /* MAXPOOL_WINDOW_FIXED, per spatial axis */
    int64_t kernel[MAXPOOL_MAX_SPATIAL];    /* >= 1 */
    int64_t stride[MAXPOOL_MAX_SPATIAL];    /* >= 1, default 1 */
    int64_t dilation[MAXPOOL_MAX_SPATIAL];  /* >= 1, default 1 */
    int64_t pad_begin[MAXPOOL_MAX_SPATIAL]; /* >= 0, used with MAXPOOL_PAD_EXPLICIT */
    int64_t pad_end[MAXPOOL_MAX_SPATIAL];   /* >= 0, used with MAXPOOL_PAD_EXPLICIT */
    maxpool_auto_pad auto_pad;
    maxpool_rounding rounding;

    /* MAXPOOL_WINDOW_ADAPTIVE, per spatial axis */
    int64_t output_size[MAXPOOL_MAX_SPATIAL]; /* >= 1 */

    /* outputs and semantics */
    maxpool_index_type index_type;   /* default NONE */
    int index_axis;                  /* 0 .. spatial_rank + 1 (see above); default 0 */
    maxpool_index_order index_order; /* default ROW_MAJOR */
    maxpool_nan_policy nan_policy;   /* default IGNORE */
    maxpool_empty_value empty_value; /* default LOWEST */
    maxpool_empty_index empty_index; /* default MINUS_ONE */
    int reject_empty_windows;        /* nonzero: a window with no input element is a plan error */
    maxpool_window_init window_init; /* default EMPTY_VALUE */

    /* execution */
    int num_threads;     /* most threads a run uses; <= 1: the calling thread only (see maxpool_plan_threads) */
    maxpool_isa max_isa; /* default AUTO */

    /* fixed windows: nonzero -> on every axis the dilated kernel, (kernel-1)*dilation + 1, must not exceed
     * the padded input, in + pad_begin + pad_end with the effective pads (none for VALID; SAME pads always
     * make it fit), whatever the rounding, else plan creation fails with MAXPOOL_ERR_INVALID_SHAPE
     * (OpenVINO's check); default 0: only an output size below 1 is an error */
    int require_kernel_fits;
} maxpool_desc;

/** Defaults: kernel 1, stride 1, dilation 1, pads 0, explicit, floor, f32,
 *  channels-first, fixed windows, no indices, NaN ignored, empty = lowest/-1. */
MAXPOOL_API void maxpool_desc_init(maxpool_desc *desc, int spatial_rank);

/* ------------------------------------------------------------------------ */
/* Shape inference and plans                                                */
/* ------------------------------------------------------------------------ */

/**
 * Validates desc against input_shape (spatial_rank + 2 dims, in memory order:
 * N, C, D... or N, D..., C) and writes the output shape in the same order.
 * Same checks as maxpool_plan_create, no allocation, O(spatial_rank *
 * log(max attribute)) time whatever the attributes.
 */
MAXPOOL_API maxpool_status maxpool_output_shape(const maxpool_desc *desc, const int64_t *input_shape,
                                                int64_t *output_shape, maxpool_error *err);

typedef struct maxpool_plan maxpool_plan;

/**
 * Validates everything, computes the output shape, lowers the windows and
 * picks the kernel. On success *plan is owned by the caller
 * (maxpool_plan_destroy); on failure *plan is NULL. err may be NULL.
 *
 * Cost, whatever the attributes (they may come from an untrusted model): a
 * plan takes O(spatial_rank * log(max attribute)) time and a few KiB, plus,
 * when a specialised (SIMD) kernel takes it, a table of 16 bytes per output
 * position per axis (at most 16 * (4*in + 64) bytes per axis). Specialised
 * kernels take only geometry bounded by the input (per axis: output size,
 * kernel, stride, dilation, dilated kernel and pads at most 4*in + 64) with
 * an output to write; everything else (pads or strides far larger than the
 * input, N or C = 0) runs the portable reference kernel, which computes each
 * window in closed form: correct for any attributes that pass validation,
 * and as fast as such a geometry deserves. All size arithmetic
 * is int64 and overflow-checked: attributes whose arithmetic would leave
 * int64 give MAXPOOL_ERR_OVERFLOW (docs/reliability.md).
 */
MAXPOOL_API maxpool_status maxpool_plan_create(const maxpool_desc *desc, const int64_t *input_shape,
                                               maxpool_plan **plan, maxpool_error *err);

/**
 * Runs the plan: x has the input shape, y the output shape (same dtype),
 * indices the output shape with desc.index_type (may be NULL when the type is
 * NONE; must not be NULL otherwise). No allocation, no validation beyond NULL
 * checks. A plan is immutable: concurrent runs on one plan are safe. Kernel
 * scratch lives on the stack: up to 80 KiB in the calling thread and in each
 * worker thread (the line caches and band copies of the f32 kernels, up to
 * 48 KiB; the type-generic kernels' strip buffers with a fallback form below
 * them, about 77 KiB at most, measured with -fstack-usage).
 */
MAXPOOL_API maxpool_status maxpool_run(const maxpool_plan *plan, const void *x, void *y, void *indices);

MAXPOOL_API void maxpool_plan_destroy(maxpool_plan *plan);

/** Output shape of a plan (tensor rank = spatial_rank + 2 values written). */
MAXPOOL_API void maxpool_plan_output_shape(const maxpool_plan *plan, int64_t *output_shape);
/** Number of elements of the input / output tensor. */
MAXPOOL_API int64_t maxpool_plan_input_elements(const maxpool_plan *plan);
MAXPOOL_API int64_t maxpool_plan_output_elements(const maxpool_plan *plan);
/** Name of the kernel the plan chose, e.g. "ref_f32" or "f32_nchw_k3s2_avx2". */
MAXPOOL_API const char *maxpool_plan_kernel_name(const maxpool_plan *plan);
/**
 * Threads maxpool_run uses with this plan: desc.num_threads, capped by the
 * kernel's task count, and 1 when the run moves fewer than
 * MAXPOOL_PARALLEL_MIN_BYTES bytes (input + output + indices; default 131072,
 * the environment variable of that name, read at plan creation, overrides
 * it): below that, starting a parallel region costs more than it saves. The
 * results never depend on the thread count.
 */
MAXPOOL_API int maxpool_plan_threads(const maxpool_plan *plan);

/** Size in bytes of one element of dtype; 0 for an invalid dtype. */
MAXPOOL_API size_t maxpool_dtype_size(maxpool_dtype dtype);
/** Lower-case name ("f32", "bf16", ...) or NULL for an invalid dtype. */
MAXPOOL_API const char *maxpool_dtype_name(maxpool_dtype dtype);
/** Best ISA this CPU supports (ignores MAXPOOL_ISA). */
MAXPOOL_API maxpool_isa maxpool_cpu_isa(void);
MAXPOOL_API const char *maxpool_isa_name(maxpool_isa isa);

/* ------------------------------------------------------------------------ */
/* Spec front-ends: attributes as each spec names them -> maxpool_desc      */
/* ------------------------------------------------------------------------ */
/* Each *_init sets the spec's defaults and marks optional attributes absent
 * (count 0 for lists, -1 for scalars). Each *_lower validates the attributes
 * the way that spec and version demand and fills *desc (dtype and layout
 * included). input_rank is the full tensor rank (spatial rank + 2). */

typedef struct maxpool_onnx_attrs {
    int opset; /* 1, 8, 10, 11, 12 or 22 (other numbers map to the version in force) */
    int n_kernel_shape;
    int64_t kernel_shape[MAXPOOL_MAX_SPATIAL];
    int n_strides; /* 0: absent */
    int64_t strides[MAXPOOL_MAX_SPATIAL];
    int n_pads; /* 0: absent; else 2 * spatial rank, begins then ends */
    int64_t pads[2 * MAXPOOL_MAX_SPATIAL];
    int n_dilations; /* 0: absent (opset >= 10 only) */
    int64_t dilations[MAXPOOL_MAX_SPATIAL];
    const char *auto_pad; /* NULL: absent; "NOTSET", "VALID", "SAME_UPPER", "SAME_LOWER" */
    int ceil_mode;        /* -1: absent (opset >= 10 only) */
    int storage_order;    /* -1: absent (opset >= 8 only) */
    int want_indices;     /* the optional Indices output is requested (opset >= 8) */
} maxpool_onnx_attrs;

MAXPOOL_API void maxpool_onnx_attrs_init(maxpool_onnx_attrs *attrs, int opset);
MAXPOOL_API maxpool_status maxpool_onnx_lower(const maxpool_onnx_attrs *attrs, maxpool_dtype dtype, int input_rank,
                                              maxpool_desc *desc, maxpool_error *err);

typedef struct maxpool_openvino_attrs {
    int version; /* 1, 8 or 14 */
    int n_kernel;
    int64_t kernel[MAXPOOL_MAX_SPATIAL];
    int n_strides;
    int64_t strides[MAXPOOL_MAX_SPATIAL];
    int n_dilations; /* 0: absent (version >= 8 only) */
    int64_t dilations[MAXPOOL_MAX_SPATIAL];
    int n_pads_begin;
    int64_t pads_begin[MAXPOOL_MAX_SPATIAL];
    int n_pads_end;
    int64_t pads_end[MAXPOOL_MAX_SPATIAL];
    const char *rounding_type;      /* NULL: "floor"; "floor", "ceil", "ceil_torch" (14) */
    const char *auto_pad;           /* NULL: "explicit"; "explicit", "valid", "same_upper", "same_lower" */
    const char *index_element_type; /* NULL: "i64"; "i32" or "i64" (version >= 8) */
    int64_t axis;                   /* default 0; in [-R, R-1] for input rank R, negative counts from the end
                                       (version >= 8): indices are the whole-tensor flat index modulo the
                                       product of the dimensions from axis on (desc.index_axis = axis) */
    int want_indices;               /* the second output is requested (version >= 8) */
} maxpool_openvino_attrs;

MAXPOOL_API void maxpool_openvino_attrs_init(maxpool_openvino_attrs *attrs, int version);
MAXPOOL_API maxpool_status maxpool_openvino_lower(const maxpool_openvino_attrs *attrs, maxpool_dtype dtype,
                                                  int input_rank, maxpool_desc *desc, maxpool_error *err);

typedef struct maxpool_torch_attrs {
    int n_kernel_size;
    int64_t kernel_size[MAXPOOL_MAX_SPATIAL];
    int n_stride; /* 0: default = kernel_size */
    int64_t stride[MAXPOOL_MAX_SPATIAL];
    int n_padding; /* 0: 0; 1 value broadcasts */
    int64_t padding[MAXPOOL_MAX_SPATIAL];
    int n_dilation; /* 0: 1; 1 value broadcasts */
    int64_t dilation[MAXPOOL_MAX_SPATIAL];
    int ceil_mode;
    int return_indices; /* int64 indices within each (n, c) plane */
} maxpool_torch_attrs;

MAXPOOL_API void maxpool_torch_attrs_init(maxpool_torch_attrs *attrs);
MAXPOOL_API maxpool_status maxpool_torch_lower(const maxpool_torch_attrs *attrs, maxpool_dtype dtype, int input_rank,
                                               maxpool_desc *desc, maxpool_error *err);

typedef enum maxpool_adaptive_flavor {
    MAXPOOL_ADAPTIVE_TORCH = 0,    /* PyTorch adaptive_max_pool1d/2d/3d: int64 per-plane indices */
    MAXPOOL_ADAPTIVE_ACLNN = 1,    /* aclnnAdaptiveMaxPool3d: NCDHW, int32 per-plane indices */
    MAXPOOL_ADAPTIVE_OPENVINO = 2  /* OpenVINO AdaptiveMaxPool-8: index_element_type */
} maxpool_adaptive_flavor;

typedef struct maxpool_adaptive_attrs {
    maxpool_adaptive_flavor flavor;
    int n_output_size;
    int64_t output_size[MAXPOOL_MAX_SPATIAL];
    const char *index_element_type; /* NULL: the flavor's default; "i32" or "i64" */
    int want_indices;
} maxpool_adaptive_attrs;

MAXPOOL_API void maxpool_adaptive_attrs_init(maxpool_adaptive_attrs *attrs, maxpool_adaptive_flavor flavor);
MAXPOOL_API maxpool_status maxpool_adaptive_lower(const maxpool_adaptive_attrs *attrs, maxpool_dtype dtype,
                                                  int input_rank, maxpool_desc *desc, maxpool_error *err);

/**
 * TensorFlow tf.nn.max_pool_with_argmax (op MaxPoolWithArgmax): rank-4
 * NHWC input (input_rank must be 4), values and argmax, argmax flat in the
 * NHWC input: (h*W + w)*C + c, plus n*H*W*C with include_batch_in_index
 * (desc.index_order = MAXPOOL_INDEX_CHANNELS_LAST). The running max starts
 * at the window's first input element and a later element replaces it only
 * when greater (MAXPOOL_INIT_FIRST_ELEMENT, MAXPOOL_NAN_IGNORE: a NaN wins
 * only as a window's first element); SAME pads are no value (only input
 * elements are scanned). Every maxpool dtype.
 *
 * Errors: MAXPOOL_ERR_INVALID_ATTRIBUTE for a missing ksize / strides /
 * padding, a count other than 1, 2 or 4, a value outside [1, INT32_MAX], a
 * padding other than "SAME" / "VALID", a targmax other than "int32" /
 * "int64", include_batch_in_index other than 0 / 1; MAXPOOL_ERR_UNSUPPORTED
 * for ksize[0], strides[0] or ksize[3] != 1 in the 4-value form (pooling on
 * the batch or channel dimension), data_format other than "NHWC", input_rank
 * other than 4 (below 3: MAXPOOL_ERR_INVALID_SHAPE).
 */
typedef struct maxpool_tf_attrs {
    int n_ksize;                /* 1 (H and W), 2 (H, W) or 4 (N, H, W, C; N and C must be 1) */
    int64_t ksize[4];
    int n_strides;              /* 1, 2 or 4 as ksize; the 4-value form's N must be 1, its C is ignored (as TF) */
    int64_t strides[4];
    const char *padding;        /* required: "SAME" (SAME_UPPER pads) or "VALID"; case-sensitive, as TF */
    const char *data_format;    /* NULL: "NHWC"; "NHWC" only */
    const char *targmax;        /* NULL: "int64"; "int32" or "int64" (tf.nn's output_dtype) */
    int include_batch_in_index; /* 0: argmax within one batch item; 1: over the whole tensor */
} maxpool_tf_attrs;

/** Zeroes attrs: no ksize / strides / padding (required), data_format and targmax absent, batch excluded. */
MAXPOOL_API void maxpool_tf_attrs_init(maxpool_tf_attrs *attrs);
MAXPOOL_API maxpool_status maxpool_tf_lower(const maxpool_tf_attrs *attrs, maxpool_dtype dtype, int input_rank,
                                            maxpool_desc *desc, maxpool_error *err);

#ifdef __cplusplus
}
#endif

#endif /* MAXPOOL_H */
