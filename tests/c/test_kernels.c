/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Specialised f32 kernels against the scalar reference, bit for bit.
 *
 * For every case the plan is created once per ISA ceiling (sse2, avx2; neon on AArch64 ...
 * whatever this CPU has), the kernel name the plan chose is checked against
 * the one this test expects for that ISA (so a dispatch slip cannot hide a
 * path), and the output (values and indices) is compared bit for bit with
 * maxpool_reference_kernel run on the same plan. Inputs: random values,
 * ties from {0, 1, -0}, NaN with assorted signs and payloads (quiet and
 * signalling) in assorted lanes, +-inf, -FLT_MAX. Every NaN policy, start
 * value, empty-window index, index type and index axis (plans with options
 * the kernels leave to the reference must get the reference); widths 1..40,
 * strides 1..3, dilations 1..2, pads 0..k, every rounding mode, SAME pads,
 * adaptive windows, ranks 1..3. Thread counts 1, 2, 3 must give identical
 * bits. MAXPOOL_TEST_QUICK=1 shortens the random sweep; MAXPOOL_TEST_SPARSE=N
 * checks one case in N (ts_sparse_skip: the stage under qemu). `test_kernels K/2`
 * runs half of the sections (ctest registers both halves, so they run side
 * by side); each section seeds its own generator from the seed, so it checks
 * the same cases in either form.
 *
 * First-element start and plane-start empty indices (ONNX / OpenVINO) get a
 * directed sweep (fe_directed): a NaN (and a second, later or earlier one)
 * in every position of small planes, on backgrounds of all -inf, all
 * -FLT_MAX, a mix of the two, and ties of {0, -0, 1}, under both NaN
 * policies, every empty value and empty-window index, with windows that
 * cross the border or hold no element at all.
 */
#include "maxpool.h"
#include "plan.h"
#include "shape.h"
#include "test_support.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static maxpool_isa g_isas[4];
static int g_nisas;

static float bits_f(uint32_t b)
{
    float f;
    memcpy(&f, &b, 4);
    return f;
}

/* value kinds of the generated input */
enum { V_RANDOM = 0, V_TIES, V_NAN, V_EXTREME, V_LOW, V_KINDS, V_DIRECTED = 100 };

/* V_DIRECTED input: background g_bg (0 all -inf, 1 all -FLT_MAX, 2 a mix of
 * the two, 3 ties of {0, -0, 1}, 4 of {0, -0}: every window's maximum a tie
 * of zeros, whatever its size) with NaN at flat offsets i where
 * i % g_period is g_nan1 or g_nan2 (-1: none), distinct payloads. */
static int g_bg;
static int64_t g_period = 1, g_nan1 = -1, g_nan2 = -1;

static float gen_value(ts_rng *r, int kind)
{
    switch (kind) {
    case V_TIES: {
        int64_t q = ts_rng_range(r, 0, 3);
        return q == 0 ? 0.0f : q == 1 ? -0.0f : 1.0f;
    }
    case V_NAN:
        if (ts_rng_chance(r, 1, 5)) {
            uint32_t sign = ts_rng_chance(r, 1, 2) ? 0x80000000u : 0u;
            uint32_t payload = (uint32_t)ts_rng_range(r, 1, 0x3fffff);
            uint32_t quiet = ts_rng_chance(r, 3, 4) ? 0x00400000u : 0u; /* some signalling NaNs */
            return bits_f(sign | 0x7f800000u | quiet | payload);
        }
        return (float)ts_rng_range(r, -3, 3);
    case V_EXTREME: {
        int64_t q = ts_rng_range(r, 0, 5);
        if (q == 0)
            return -INFINITY;
        if (q == 1)
            return -FLT_MAX;
        if (q == 2)
            return INFINITY;
        return (float)ts_rng_range(r, -2, 2) - 1e30f * (q == 3);
    }
    case V_LOW: { /* -inf and -FLT_MAX, a rare NaN: windows that never beat the start value */
        int64_t q = ts_rng_range(r, 0, 19);
        return q == 0 ? bits_f(0xffc00001u) : q < 10 ? -INFINITY : -FLT_MAX;
    }
    default:
        return (float)((double)(int64_t)(ts_rng_next(r) >> 40) / (double)(1 << 20) - 8.0);
    }
}

/* Whether window o of a fixed-window axis holds no input element (closed
 * form: the window arrays exist only in plans of a specialised kernel). */
static int window_empty(const maxpool_axis *a, int64_t o)
{
    int64_t st, cn;
    maxpool_axis_window(a, 0, o, &st, &cn);
    return cn == 0;
}

/* the f32_nchw_k3s2 kernel's axis condition: k3 s2 d1, pad_begin 0/1, no empty window */
static int k3s2_axis(const maxpool_axis *a)
{
    if (a->kernel != 3 || a->stride != 2 || a->dilation != 1 || a->pad_begin > 1)
        return 0;
    for (int64_t o = 0; o < a->out; ++o)
        if (window_empty(a, o))
            return 0;
    return 1;
}

/* the f32_ncw_s1 kernel's condition */
static int ncw_s1_plan(const maxpool_desc *d, const struct maxpool_plan *p)
{
    const maxpool_axis *a = &p->axis[0];
    if (p->rank != 1 || d->window != MAXPOOL_WINDOW_FIXED || a->stride != 1 || a->dilation != 1 || a->kernel > 8)
        return 0;
    for (int64_t o = 0; o < a->out; ++o)
        if (window_empty(a, o))
            return 0;
    return 1;
}

/* f32_nchw_s1_vpipe_avx2: rank 2, fixed windows, stride 1 and dilation 1 on
 * both axes, kernels <= 15, no indices, NaN ignored, no empty window */
static int vpipe_plan(const maxpool_desc *d, const struct maxpool_plan *p)
{
    if (d->window != MAXPOOL_WINDOW_FIXED || p->rank != 2 || d->index_type != MAXPOOL_INDEX_NONE ||
        d->nan_policy == MAXPOOL_NAN_PROPAGATE)
        return 0;
    for (int i = 0; i < 2; ++i) {
        const maxpool_axis *a = &p->axis[i];
        if (a->stride != 1 || a->dilation != 1 || a->kernel > 15)
            return 0;
        for (int64_t o = 0; o < a->out; ++o)
            if (window_empty(a, o))
                return 0;
    }
    return 1;
}

/* f32_nchw_s1_cblock_avx2: the vpipe plans (either start) whose
 * planes are small (input, row results, output <= 448 elements, padded
 * axes <= 64) and narrow (W <= 32) with W not a multiple of 16 or a
 * kernel >= 5 */
static int cblock_plan(const maxpool_desc *d, const struct maxpool_plan *p)
{
    if (d->window != MAXPOOL_WINDOW_FIXED || p->rank != 2 || d->index_type != MAXPOOL_INDEX_NONE ||
        d->nan_policy == MAXPOOL_NAN_PROPAGATE)
        return 0;
    const maxpool_axis *h = &p->axis[0], *w = &p->axis[1];
    for (int i = 0; i < 2; ++i) {
        const maxpool_axis *a = &p->axis[i];
        if (a->stride != 1 || a->dilation != 1 || a->out + a->kernel - 1 > 64)
            return 0;
        for (int64_t o = 0; o < a->out; ++o)
            if (window_empty(a, o))
                return 0;
    }
    if (h->in * w->in > 448 || h->in * w->out > 448 || h->out * w->out > 448)
        return 0;
    return w->in <= 32 && (w->in % 16 != 0 || h->kernel >= 5 || w->kernel >= 5);
}

/* YOLO's SPP shapes (20x20, "same" k5/k9/k13): f32_nchw_s1_cblock_avx512
 * declines them; f32_nchw_s1_cblock8_avx512 takes those whose planes fill
 * groups of 8, f32_nchw_s1_cblock_avx2 the others */
static int cblock_spp(const struct maxpool_plan *p)
{
    const maxpool_axis *h = &p->axis[0], *w = &p->axis[1];
    return h->in == 20 && w->in == 20 && h->out == 20 && w->out == 20 && h->kernel == w->kernel &&
           h->pad_begin == w->pad_begin && h->pad_begin == h->kernel / 2 &&
           (h->kernel == 5 || h->kernel == 9 || h->kernel == 13);
}

/* Name of the kernel this test expects for desc at ISA ceiling isa. */
static const char *expected_kernel(const maxpool_desc *d, const struct maxpool_plan *p, maxpool_isa isa)
{
    static char name[64];
    isa = maxpool_effective_isa(isa); /* MAXPOOL_ISA (environment) lowers the ceiling */
    /* the ISA-generic templates have avx512 / avx2 / sse2 (AArch64: neon)
     * instantiations; the avx2-only specialised kernels (k2s2, ncw_s1, k3s2,
     * cblock, vpipe) still win at avx512 */
    const char *suffix = isa == MAXPOOL_ISA_AVX512 ? "avx512" : isa == MAXPOOL_ISA_AVX2 ? "avx2" : "sse2";
    if (isa == MAXPOOL_ISA_NEON) /* AArch64: the sse2 set of kernels, 4 lanes, nothing avx2-only */
        suffix = "neon";
    const int avx2_only = isa == MAXPOOL_ISA_AVX2 || isa == MAXPOOL_ISA_AVX512; /* k2s2, ncw_s1, k3s2, cblock, vpipe exist */
    if (isa == MAXPOOL_ISA_SCALAR || d->dtype != MAXPOOL_F32 || d->spatial_rank > 3)
        return "ref_f32";
    /* geometry not bounded by the input goes to the reference (plan.h,
     * maxpool_plan.bounded): per axis, output size and (fixed windows) kernel,
     * stride, dilation, dilated kernel and effective pads <= 4*in + 64 */
    for (int i = 0; i < p->rank; ++i) {
        const maxpool_axis *a = &p->axis[i];
        const int64_t b = 4 * a->in + 64;
        if (a->out > b)
            return "ref_f32";
        if (d->window == MAXPOOL_WINDOW_FIXED &&
            (a->kernel > b || a->stride > b || a->dilation > b || a->pad_begin > b || a->pad_end > b ||
             (a->kernel - 1) * a->dilation + 1 > b))
            return "ref_f32";
    }
    if (d->index_type != MAXPOOL_INDEX_NONE && d->index_order == MAXPOOL_INDEX_COL_MAJOR)
        return "ref_f32";
    if (d->layout == MAXPOOL_CHANNELS_FIRST) {
        const maxpool_axis *w = &p->axis[p->rank - 1];
        const maxpool_axis *h = &p->axis[0];
        /* lines first: W windows without a vector row pass (uneven adaptive,
         * adaptive width >= 3, stride >= 3, stride 2 dilated) that fit 2048
         * columns, more than one line per window */
        int64_t ext[3] = {1, 1, 1}; /* window extent bound per axis (f32_cf_geom.h) */
        for (int i = 0; i < p->rank; ++i) {
            const maxpool_axis *a = &p->axis[i];
            ext[i] = d->window == MAXPOOL_WINDOW_ADAPTIVE ? (a->in % a->out == 0 ? a->in / a->out : a->in / a->out + 2)
                                                          : (a->kernel - 1) * a->dilation + 1;
            if (ext[i] > a->in)
                ext[i] = a->in;
        }
        const int64_t wext = ext[p->rank - 1], lines = p->rank == 3 ? ext[0] * ext[1] : p->rank == 2 ? ext[0] : 1;
        const int wscalar = d->window == MAXPOOL_WINDOW_ADAPTIVE
                                ? (w->in % w->out != 0 || w->in / w->out >= 3)
                                : (w->stride >= 3 || (w->stride == 2 && w->dilation > 1));
        if (wscalar && wext <= 2048 && lines >= 2)
            snprintf(name, sizeof name, "f32_nchw_linesfirst_%s",
                     isa == MAXPOOL_ISA_AVX512 && w->in <= 16 ? "avx2" : suffix); /* narrow rows: avx2 ranks first */
        else if (avx2_only && d->window == MAXPOOL_WINDOW_FIXED && p->rank == 2 && w->kernel == 2 &&
            h->kernel == 2 && w->stride == 2 && h->stride == 2 && w->dilation == 1 && h->dilation == 1 &&
            w->pad_begin == 0 && h->pad_begin == 0 && 2 * w->out <= w->in && 2 * h->out <= h->in)
            snprintf(name, sizeof name, "f32_nchw_k2s2_avx2");
        else if (avx2_only && ncw_s1_plan(d, p))
            snprintf(name, sizeof name, "f32_ncw_s1_avx2");
        else if (avx2_only && d->window == MAXPOOL_WINDOW_FIXED && (p->rank == 2 || p->rank == 3) &&
                 k3s2_axis(w) && k3s2_axis(h) && (p->rank == 2 || k3s2_axis(&p->axis[1])) &&
                 (p->rank == 2 || p->axis[1].out * 8 <= 8192 / (1 + (d->index_type != MAXPOOL_INDEX_NONE) +
                                                                 (d->window_init == MAXPOOL_INIT_FIRST_ELEMENT)) /
                                                             8 * 8))
            snprintf(name, sizeof name, "f32_nchw_k3s2_avx2");
        else if (avx2_only && cblock_plan(d, p))
            snprintf(name, sizeof name, "f32_nchw_s1_cblock%s",
                     isa != MAXPOOL_ISA_AVX512 ? "_avx2"
                     : !cblock_spp(p)          ? "_avx512"
                     : (p->n * p->c) % 8 == 0  ? "8_avx512" /* SPP in whole groups of 8: the 8-lane AVX-512 build */
                                               : "_avx2");
        else if (avx2_only && vpipe_plan(d, p))
            snprintf(name, sizeof name, "f32_nchw_s1_vpipe_avx2");
        else if (d->window == MAXPOOL_WINDOW_FIXED && p->rank == 2 && w->stride == 1 && h->stride == 1 &&
                 w->dilation == 1 && h->dilation == 1 && w->kernel <= 256 && h->kernel <= 64 &&
                 (h->kernel + 2) * (w->kernel + 32) <= 5120 && (w->kernel >= 3 || h->kernel >= 3))
            snprintf(name, sizeof name, "f32_nchw_s1_logstep_%s", suffix);
        else if (d->window == MAXPOOL_WINDOW_FIXED && w->stride == 1 && w->dilation == 1 && w->kernel >= 6)
            snprintf(name, sizeof name, "f32_nchw_s1_largek_%s", isa == MAXPOOL_ISA_AVX512 ? "avx2" : suffix);
        else /* (no AVX-512 instance of the rows kernels: build time) */
            snprintf(name, sizeof name, "f32_nchw_rows_%s", isa == MAXPOOL_ISA_AVX512 ? "avx2" : suffix);
        /* the gen template's f32 instantiation (gen_match.c) before those:
         * values only, fixed undilated windows of <= 8 taps per axis, pads
         * below the kernel, W stride 1 with kernels <= 3
         * (rank 2, 3) or W stride 2 (k3s2 plans up to 32 wide, no k2s2
         * plan but planes 4-7 and 12-15 wide, no 1-D 2-tap window) */
        int global = 1; /* windows of whole planes: gen whatever the window kind and index output */
        for (int i = 0; i < p->rank; ++i) {
            const maxpool_axis *a = &p->axis[i];
            int64_t st = -1, cn = -1;
            if (a->out == 1)
                maxpool_axis_window(a, d->window == MAXPOOL_WINDOW_ADAPTIVE, 0, &st, &cn);
            global = global && a->out == 1 && st == 0 && cn == a->in && (a->in == 1 || a->step == 1);
        }
        int gen = avx2_only && d->index_type == MAXPOOL_INDEX_NONE && d->window == MAXPOOL_WINDOW_FIXED;
        for (int i = 0; i < p->rank; ++i) {
            const maxpool_axis *a = &p->axis[i];
            gen = gen && a->dilation == 1 && a->kernel <= 8 && a->pad_begin < a->kernel && a->pad_end < a->kernel;
        }
        if (gen && p->rank == 3 && p->axis[0].stride == 1 && p->axis[0].kernel >= 2 && w->stride <= 2 &&
            w->out <= 256) {
            gen = 1; /* rank 3, depth stride 1: slices first (gen_fl3.h) */
        } else if (gen && w->stride == 1) {
            gen = p->rank >= 2;
            for (int i = 0; i < p->rank; ++i)
                gen = gen && p->axis[i].kernel <= 3;
        } else if (gen && w->stride == 2) {
            int even_odd = p->rank == 2 && w->out <= 4 * (isa == MAXPOOL_ISA_AVX512 ? 16 : 8); /* gen_fr.h dw */
            for (int i = 0; i < p->rank; ++i) {
                const maxpool_axis *a = &p->axis[i];
                even_odd = even_odd && a->kernel == 3 && a->stride == 2 && a->pad_begin == 0 &&
                           2 * (a->out - 1) + 3 <= a->in;
            }
            gen = strcmp(name, "f32_nchw_k3s2_avx2") == 0
                      ? p->rank == 2 && (even_odd || w->in <= 32) &&
                            (even_odd || isa == MAXPOOL_ISA_AVX512 || w->in <= 16 ||
                             (d->window_init != MAXPOOL_INIT_FIRST_ELEMENT &&
                              2 * (w->out - 1) - w->pad_begin + 2 >= w->in)) /* avx2: gen_match.c */
                  : strcmp(name, "f32_nchw_k2s2_avx2") == 0 ? p->rank == 2 && w->in <= 15 && (w->in & 7) >= 4 /* gen_fr.h */
                                                            : !(p->rank == 1 && w->kernel == 2);
        } else {
            gen = 0;
        }
        if (avx2_only && d->index_type != MAXPOOL_INDEX_NONE && d->window == MAXPOOL_WINDOW_ADAPTIVE &&
            ((p->rank <= 2 && w->in <= 256) || (p->rank == 3 && w->in <= 16 && w->out <= 8)))
            gen = 1; /* adaptive heads with indices (rank 3: short rows) */
        /* adaptive 2x2 grids with indices, rows of <= 8 outputs: the avx2 instance at avx512 too */
        const int fri_narrow = p->rank == 2 && d->window == MAXPOOL_WINDOW_ADAPTIVE &&
                               d->index_type != MAXPOOL_INDEX_NONE && h->in == 2 * h->out && w->in == 2 * w->out &&
                               w->out <= 8;
        if (avx2_only && global)
            snprintf(name, sizeof name, "f32_nchw_gen_%s", suffix);
        else if (gen)
            snprintf(name, sizeof name, "f32_nchw_gen_%s", isa == MAXPOOL_ISA_AVX512 && fri_narrow ? "avx2" : suffix);
        return name;
    }
    snprintf(name, sizeof name, "f32_nhwc_%s", suffix);
    return name;
}

static long g_cases, g_runs;
static int g_yoff = -1; /* >= 0: the output's offset in floats from 64-byte alignment (else alternating 0 / 4) */

/* Runs desc on shape for every ISA (and thread counts when threads != 0);
 * returns 0 when the plan is rejected (the case is skipped). */
static int check_case(const maxpool_desc *desc0, const int64_t *shape, ts_rng *r, int kind, int threads,
                      const char *what)
{
    if (ts_sparse_skip(desc0->spatial_rank, shape)) /* MAXPOOL_TEST_SPARSE (the stage under emulation) */
        return 0;
    maxpool_desc d = *desc0;
    maxpool_plan *p0 = NULL;
    d.max_isa = MAXPOOL_ISA_SCALAR;
    if (maxpool_plan_create(&d, shape, &p0, NULL) != MAXPOOL_OK)
        return 0;
    ++g_cases;
    const int64_t ni = maxpool_plan_input_elements(p0), no = maxpool_plan_output_elements(p0);
    const size_t isz = d.index_type == MAXPOOL_INDEX_I64 ? 8 : 4;
    float *x = malloc((size_t)(ni ? ni : 1) * 4);
    /* the output under test: 64-byte aligned, or 16 bytes past that every
     * other case (kernels with aligned non-temporal stores see both) */
    const size_t ybytes = ((size_t)(no ? no : 1) * 4 + 16 + 63) / 64 * 64;
    float *ybuf = aligned_alloc(64, ybytes);
    const int yoff = g_yoff >= 0 ? g_yoff : g_cases % 2 ? 4 : 0;
    float *yr = malloc((size_t)(no ? no : 1) * 4), *y = ybuf + yoff;
    float *y1buf = aligned_alloc(64, ybytes), *y1 = y1buf + yoff; /* (the same for the threads) */
    void *ir = malloc((size_t)(no ? no : 1) * isz), *ix = malloc((size_t)(no ? no : 1) * isz);
    void *i1 = malloc((size_t)(no ? no : 1) * isz);
    if (kind == V_DIRECTED) {
        for (int64_t i = 0; i < ni; ++i) {
            const int64_t q = ts_rng_range(r, 0, 2);
            x[i] = g_bg == 0   ? -INFINITY
                   : g_bg == 1 ? -FLT_MAX
                   : g_bg == 2 ? (q == 0 ? -INFINITY : -FLT_MAX)
                   : g_bg == 4 ? (q == 0 ? 0.0f : -0.0f)
                               : (q == 0 ? 0.0f : q == 1 ? -0.0f : 1.0f);
            if (i % g_period == g_nan1)
                x[i] = bits_f(0x7fc00000u | (uint32_t)(i + 1));
            if (i % g_period == g_nan2)
                x[i] = bits_f(0xffc00000u | (uint32_t)(i + 7));
        }
    } else {
        for (int64_t i = 0; i < ni; ++i)
            x[i] = gen_value(r, kind);
    }
    if (kind == V_NAN && ni > 0 && ts_rng_chance(r, 1, 3)) { /* a run of NaN across a vector boundary */
        int64_t a = ts_rng_range(r, 0, ni - 1), len = ts_rng_range(r, 1, 12);
        for (int64_t i = a; i < ni && i < a + len; ++i)
            x[i] = bits_f(0x7fc00000u | (uint32_t)i);
    }
    memset(yr, 0x5a, (size_t)no * 4);
    memset(ir, 0x5a, (size_t)no * isz);
    struct maxpool_plan *pp = (struct maxpool_plan *)p0;
    maxpool_reference_kernel(pp, x, yr, d.index_type == MAXPOOL_INDEX_NONE ? NULL : ir, 0,
                             maxpool_reference_tasks(pp));
    char ctx[512];
    for (int k = 0; k < g_nisas; ++k) {
        maxpool_plan *p = NULL;
        d.max_isa = g_isas[k];
        d.num_threads = 1;
        if (maxpool_plan_create(&d, shape, &p, NULL) != MAXPOOL_OK) {
            CHECK_MSG(0, "%s: plan rejected at isa %s", what, maxpool_isa_name(g_isas[k]));
            continue;
        }
        snprintf(ctx, sizeof ctx, "%s isa=%s kernel=%s kind=%d", what, maxpool_isa_name(g_isas[k]),
                 maxpool_plan_kernel_name(p), kind);
        ts_set_context("%s", ctx);
        CHECK_STR_EQ(maxpool_plan_kernel_name(p), expected_kernel(&d, (const struct maxpool_plan *)p, g_isas[k]));
        /* the scalar ceiling's plan runs the reference kernel that made yr:
         * on a big case it would only repeat it (most of the sanitizer and
         * emulation stages' time), so only small cases run it (the run
         * wrapper's task ranges); the thread runs below then compare with yr */
        const int repeat = ts_is_reference_run(maxpool_plan_kernel_name(p), ni, no);
        const float *y_one = repeat ? yr : y;
        const void *i_one = repeat ? ir : ix;
        if (!repeat) {
            memset(y, 0xa5, (size_t)no * 4);
            memset(ix, 0xa5, (size_t)no * isz);
            CHECK_STATUS(maxpool_run(p, x, y, ix), MAXPOOL_OK);
            ++g_runs;
            CHECK_BITS_EQ(y, yr, no, 4, "values");
            if (d.index_type != MAXPOOL_INDEX_NONE)
                CHECK_BITS_EQ(ix, ir, no, isz, "indices");
        }
        maxpool_plan_destroy(p);
        if (threads && k == g_nisas - 1) {
            for (int nt = 2; nt <= 3; ++nt) {
                d.num_threads = nt;
                if (maxpool_plan_create(&d, shape, &p, NULL) != MAXPOOL_OK)
                    continue;
                memset(y1, 0x33, (size_t)no * 4);
                memset(i1, 0x33, (size_t)no * isz);
                CHECK_STATUS(maxpool_run(p, x, y1, i1), MAXPOOL_OK);
                ++g_runs;
                CHECK_BITS_EQ(y1, y_one, no, 4, nt == 2 ? "values, 2 threads" : "values, 3 threads");
                if (d.index_type != MAXPOOL_INDEX_NONE)
                    CHECK_BITS_EQ(i1, i_one, no, isz, nt == 2 ? "indices, 2 threads" : "indices, 3 threads");
                maxpool_plan_destroy(p);
            }
        }
        ts_set_context("%s", "");
    }
    maxpool_plan_destroy(p0);
    free(x);
    free(yr);
    free(ybuf);
    free(y1buf);
    free(ir);
    free(ix);
    free(i1);
    return 1;
}

static void describe(char *buf, size_t n, const maxpool_desc *d, const int64_t *shape)
{
    int len = snprintf(buf, n, "%s rank%d shape=", d->layout == MAXPOOL_CHANNELS_LAST ? "CL" : "CF", d->spatial_rank);
    for (int i = 0; i < d->spatial_rank + 2 && len < (int)n; ++i)
        len += snprintf(buf + len, n - (size_t)len, "%lld%s", (long long)shape[i], i + 1 < d->spatial_rank + 2 ? "x" : "");
    if (d->window == MAXPOOL_WINDOW_ADAPTIVE) {
        len += snprintf(buf + len, n - (size_t)len, " adaptive=");
        for (int i = 0; i < d->spatial_rank && len < (int)n; ++i)
            len += snprintf(buf + len, n - (size_t)len, "%lld,", (long long)d->output_size[i]);
    } else {
        for (int i = 0; i < d->spatial_rank && len < (int)n; ++i)
            len += snprintf(buf + len, n - (size_t)len, " [k%lld s%lld d%lld p%lld+%lld]", (long long)d->kernel[i],
                            (long long)d->stride[i], (long long)d->dilation[i], (long long)d->pad_begin[i],
                            (long long)d->pad_end[i]);
        len += snprintf(buf + len, n - (size_t)len, " auto_pad=%d round=%d", (int)d->auto_pad, (int)d->rounding);
    }
    if (len < (int)n)
        snprintf(buf + len, n - (size_t)len, " idx=%d axis=%d order=%d nan=%d ev=%d ei=%d", (int)d->index_type,
                 d->index_axis, (int)d->index_order, (int)d->nan_policy, (int)d->empty_value, (int)d->empty_index);
}

/* Random semantics options (index type/axis/order, NaN, empty value/index). */
static void random_options(maxpool_desc *d, ts_rng *r)
{
    d->index_type = (maxpool_index_type)ts_rng_range(r, 0, 2);
    d->index_axis = (int)ts_rng_range(r, 0, 2);
    d->index_order = ts_rng_chance(r, 1, 8) ? MAXPOOL_INDEX_COL_MAJOR : MAXPOOL_INDEX_ROW_MAJOR;
    d->nan_policy = ts_rng_chance(r, 1, 2) ? MAXPOOL_NAN_PROPAGATE : MAXPOOL_NAN_IGNORE;
    d->empty_value = ts_rng_chance(r, 1, 2) ? MAXPOOL_EMPTY_NEG_INF : MAXPOOL_EMPTY_LOWEST;
    d->empty_index = ts_rng_chance(r, 1, 2) ? MAXPOOL_EMPTY_INDEX_FIRST_TAP : MAXPOOL_EMPTY_INDEX_MINUS_ONE;
    if (ts_rng_chance(r, 1, 6))
        d->empty_index = MAXPOOL_EMPTY_INDEX_PLANE_START;
    if (ts_rng_chance(r, 1, 3))
        d->window_init = MAXPOOL_INIT_FIRST_ELEMENT;
}

static void random_case(ts_rng *r, maxpool_layout layout)
{
    maxpool_desc d;
    const int rank = (int)ts_rng_range(r, 1, 3);
    maxpool_desc_init(&d, rank);
    d.layout = layout;
    int64_t shape[5];
    shape[0] = ts_rng_range(r, 1, 2);
    const int64_t ch = layout != MAXPOOL_CHANNELS_LAST ? ts_rng_range(r, 1, 5)
                       : ts_rng_chance(r, 1, 6)          ? 64 * ts_rng_range(r, 1, 2)
                                                         : ts_rng_range(r, 1, 37);
    const int sp0 = layout == MAXPOOL_CHANNELS_LAST ? 1 : 2;
    shape[layout == MAXPOOL_CHANNELS_LAST ? rank + 1 : 1] = ch;
    for (int i = 0; i < rank; ++i) {
        const int last = i == rank - 1;
        int64_t in = last ? ts_rng_range(r, 1, 40) : ts_rng_range(r, 1, rank == 3 ? 7 : 12);
        if (last && ts_rng_chance(r, 1, 20))
            in = ts_rng_range(r, 250, 700); /* several column chunks */
        shape[sp0 + i] = in;
        if (ts_rng_chance(r, 1, 7)) {
            d.window = MAXPOOL_WINDOW_ADAPTIVE;
        }
        d.kernel[i] = ts_rng_chance(r, 1, 8) ? ts_rng_range(r, 6, 15) : ts_rng_range(r, 1, 5);
        d.stride[i] = ts_rng_range(r, 1, 3);
        d.dilation[i] = ts_rng_chance(r, 1, 4) ? 2 : 1;
        d.pad_begin[i] = ts_rng_range(r, 0, d.kernel[i]);
        d.pad_end[i] = ts_rng_range(r, 0, d.kernel[i]);
        d.output_size[i] = ts_rng_chance(r, 1, 3) ? ts_rng_range(r, 1, 4) : ts_rng_range(r, 1, in + 3);
    }
    const int64_t q = ts_rng_range(r, 0, 9);
    d.auto_pad = q == 0 ? MAXPOOL_PAD_VALID : q == 1 ? MAXPOOL_PAD_SAME_UPPER : q == 2 ? MAXPOOL_PAD_SAME_LOWER
                                                                                     : MAXPOOL_PAD_EXPLICIT;
    d.rounding = (maxpool_rounding)ts_rng_range(r, 0, 2);
    random_options(&d, r);
    char what[400];
    describe(what, sizeof what, &d, shape);
    check_case(&d, shape, r, (int)ts_rng_range(r, 0, V_KINDS - 1), ts_rng_chance(r, 1, 4), what);
}

/* Directed 2-D channels-first / channels-last cases: widths 1..40 with the
 * common k/s/p patterns, every value kind and option set. */
static void sweep_2d(ts_rng *r, maxpool_layout layout, int quick)
{
    static const int pat[][3] = {{3, 2, 1}, {2, 2, 0}, {3, 1, 1}, {3, 2, 0}, {5, 1, 2}, {7, 1, 3}, {13, 1, 6}, {3, 3, 1}};
    const int npat = sizeof pat / sizeof pat[0];
    for (int pi = 0; pi < npat; ++pi) {
        for (int64_t w = 1; w <= 40; w += quick ? 3 : 1) {
            maxpool_desc d;
            maxpool_desc_init(&d, 2);
            d.layout = layout;
            for (int i = 0; i < 2; ++i) {
                d.kernel[i] = pat[pi][0];
                d.stride[i] = pat[pi][1];
                d.pad_begin[i] = d.pad_end[i] = pat[pi][2];
            }
            d.rounding = (maxpool_rounding)(w % 3);
            random_options(&d, r);
            d.index_order = MAXPOOL_INDEX_ROW_MAJOR;
            const int64_t h = 1 + (w * 7) % 13;
            /* channels-last: 1..37, and every 4th width 64 or 128 (whole blocks of 8
             * vectors, the nhwc kernels' run path) or 67..139 */
            const int64_t ch = layout != MAXPOOL_CHANNELS_LAST ? 1 + w % 3
                               : w % 4 != 0                 ? 1 + (w * 5) % 37
                               : w % 12 == 0                ? 64 * (1 + w % 24 / 12)
                                                            : 67 + (w * 11) % 73;
            int64_t shape[4] = {1 + w % 2, ch, h, w};
            if (layout == MAXPOOL_CHANNELS_LAST) {
                shape[1] = h;
                shape[2] = w;
                shape[3] = ch;
            }
            char what[400];
            describe(what, sizeof what, &d, shape);
            for (int kind = 0; kind < V_KINDS; ++kind)
                check_case(&d, shape, r, kind, kind == 0 && w % 5 == 0, what);
        }
    }
}

/* Fixed cases: the benchmark's families at small size, the line-cache
 * streaming mode, chunked rows, and the per-call case. */
static void fixed_cases(ts_rng *r)
{
    struct {
        int rank, layout, adaptive;
        int64_t shape[5], k, s, p, out[3];
    } cs[] = {
        {2, 0, 0, {1, 4, 112, 112}, 3, 2, 1, {0}},
        {2, 0, 0, {1, 3, 9, 1100}, 3, 2, 1, {0}},   /* k3s2: several column chunks */
        {2, 0, 0, {2, 2, 17, 33}, 3, 2, 0, {0}},    /* k3s2 without padding */
        {2, 0, 0, {1, 40, 5, 18}, 3, 2, 1, {0}},    /* k3s2: one task per plane */
        {2, 0, 0, {1, 1, 71, 19}, 3, 2, 1, {0}},    /* k3s2: row blocks of one plane */
        {3, 0, 0, {1, 2, 9, 11, 40}, 3, 2, 1, {0}}, /* k3s2 rank 3: depth blocks, saved slices */
        {3, 0, 0, {2, 17, 6, 7, 9}, 3, 2, 0, {0}},  /* k3s2 rank 3: one task per plane */
        {3, 0, 0, {1, 1, 5, 700, 33}, 3, 2, 1, {0}}, /* k3s2 rank 3: narrow chunks (tall slices) */
        {3, 0, 0, {1, 32, 7, 9, 20}, 3, 2, 1, {0}}, /* k3s2 rank 3: slices saved and reused, cheap left edge */
        {3, 0, 0, {1, 1, 4, 2100, 9}, 3, 2, 1, {0}}, /* rank 3: too tall for the saved slices */
        {3, 0, 0, {1, 2, 8, 30, 30}, 3, 2, 1, {0}},
        {1, 0, 0, {3, 5, 4096}, 3, 1, 1, {0}},
        {1, 0, 0, {1, 2, 9000}, 3, 1, 1, {0}},  /* ncw_s1: blocks of one line */
        {1, 0, 0, {1, 3, 37}, 5, 1, 4, {0}},    /* ncw_s1: pad = kernel - 1 */
        {1, 0, 0, {2, 1, 5}, 8, 1, 3, {0}},     /* ncw_s1: windows wider than the line */
        {2, 0, 0, {1, 5, 20, 20}, 13, 1, 6, {0}},
        {2, 0, 0, {1, 2, 50, 224}, 7, 1, 3, {0}},
        {2, 0, 0, {1, 1, 300, 224}, 7, 1, 3, {0}},     /* log-step: row strips */
        {2, 0, 0, {2, 40, 20, 20}, 5, 1, 2, {0}},      /* log-step, many small planes (SPP k5) */
        {2, 0, 0, {1, 3, 9, 9}, 9, 1, 4, {0}},
        {3, 0, 1, {2, 3, 16, 56, 56}, 0, 0, 0, {4, 7, 7}},
        {2, 0, 1, {1, 3, 40, 9}, 0, 0, 0, {1, 3}},   /* 40-line windows: streaming mode */
        {3, 0, 1, {1, 2, 9, 9, 20}, 0, 0, 0, {1, 1, 3}}, /* 81-line windows */
        {2, 0, 1, {2, 3, 13, 17}, 0, 0, 0, {5, 6}},   /* uneven adaptive windows */
        {2, 0, 0, {1, 16, 8, 8}, 2, 2, 0, {0}},
        {1, 0, 0, {1, 2, 1000}, 3, 2, 1, {0}},         /* several column chunks */
        {1, 0, 0, {1, 2, 1500}, 13, 1, 6, {0}},
        {2, 1, 0, {1, 112, 112, 8}, 3, 2, 1, {0}},
        {2, 1, 0, {2, 20, 20, 37}, 3, 2, 1, {0}},
        {2, 1, 0, {2, 23, 29, 64}, 3, 2, 1, {0}}, /* nhwc W first: 8 AVX2 vectors of channels, two images */
        {2, 1, 0, {1, 21, 17, 32}, 3, 2, 0, {0}}, /* nhwc W first: 8 SSE2 vectors, no padding */
        {2, 1, 0, {3, 1, 9, 16}, 2, 1, 1, {0}},   /* nhwc W first: rows whose one input row is in the buffer */
        {3, 1, 1, {1, 8, 14, 14, 19}, 0, 0, 0, {4, 7, 7}},
    };
    for (size_t ci = 0; ci < sizeof cs / sizeof cs[0]; ++ci) {
        maxpool_desc d;
        maxpool_desc_init(&d, cs[ci].rank);
        d.layout = cs[ci].layout ? MAXPOOL_CHANNELS_LAST : MAXPOOL_CHANNELS_FIRST;
        if (cs[ci].adaptive) {
            d.window = MAXPOOL_WINDOW_ADAPTIVE;
            for (int i = 0; i < cs[ci].rank; ++i)
                d.output_size[i] = cs[ci].out[i];
        } else {
            for (int i = 0; i < cs[ci].rank; ++i) {
                d.kernel[i] = cs[ci].k;
                d.stride[i] = cs[ci].s;
                d.pad_begin[i] = d.pad_end[i] = cs[ci].p;
            }
        }
        for (int opt = 0; opt < 6; ++opt) {
            d.index_type = (maxpool_index_type)(opt % 3);
            d.nan_policy = opt / 3 ? MAXPOOL_NAN_PROPAGATE : MAXPOOL_NAN_IGNORE;
            d.index_axis = opt % 3 == 2 ? 2 : opt % 2;
            d.empty_index = (maxpool_empty_index)(opt % 3);
            d.empty_value = (maxpool_empty_value)((opt >> 1) & 1);
            d.window_init = opt == 1 || opt == 2 || opt == 4 ? MAXPOOL_INIT_FIRST_ELEMENT : MAXPOOL_INIT_EMPTY_VALUE;
            char what[400];
            describe(what, sizeof what, &d, cs[ci].shape);
            for (int kind = 0; kind < V_KINDS; ++kind)
                check_case(&d, cs[ci].shape, r, kind, kind == V_NAN, what);
        }
    }
    /* ncw_s1 with 4 MiB of output: the input prefetched, the values streamed
     * where a line's groups are aligned (lines of 4097: one in 8); values
     * only with NaN ignored, then int64 indices with NaN propagated; two
     * value kinds */
    for (int opt = 0; opt < 2; ++opt) {
        maxpool_desc d;
        maxpool_desc_init(&d, 1);
        d.kernel[0] = 3;
        d.stride[0] = 1;
        d.pad_begin[0] = d.pad_end[0] = 1;
        d.nan_policy = opt ? MAXPOOL_NAN_PROPAGATE : MAXPOOL_NAN_IGNORE;
        d.empty_value = opt ? MAXPOOL_EMPTY_NEG_INF : MAXPOOL_EMPTY_LOWEST;
        d.index_type = opt ? MAXPOOL_INDEX_I64 : MAXPOOL_INDEX_NONE;
        const int64_t shape[3] = {1, 256, 4097};
        char what[400];
        describe(what, sizeof what, &d, shape);
        check_case(&d, shape, r, V_RANDOM, 0, what);
        check_case(&d, shape, r, V_NAN, 1, what);
    }
}

/* First-element start / plane-start index: NaN in every window position
 * (see the top comment). Patterns: k3 s2 p1 ceil (border and, with pads
 * >= k, empty windows), k2 s2 p0 (the 2x2 kernel), k3 s1 p1, k7 s1 p3 (the
 * log-step rows), k4 s3 p4 ceil (empty windows), adaptive, k5 s1 p4 ceil and
 * k4 s1 p5 ceil (the stride-1 log-step kernel: clipped border windows, empty
 * rows and columns). Each with the empty-value start too, whose windows that
 * no tap beats get the empty-window index (-1, first tap, plane start). */
static void fe_directed(ts_rng *r, int quick)
{
    static const int pat[][5] = {{3, 2, 1, 1, 0}, {2, 2, 0, 0, 0}, {3, 1, 1, 0, 0}, {7, 1, 3, 0, 0},
                                 {4, 3, 4, 1, 0}, {0, 0, 0, 0, 1}, {5, 1, 4, 1, 0}, {4, 1, 5, 1, 0}};
    const int npat = sizeof pat / sizeof pat[0];
    for (int layout = 0; layout < 2; ++layout) {
        for (int pi = 0; pi < npat; ++pi) {
            maxpool_desc d;
            maxpool_desc_init(&d, 2);
            d.layout = layout ? MAXPOOL_CHANNELS_LAST : MAXPOOL_CHANNELS_FIRST;
            /* k2 s2 on 7x8 planes: the 8-wide rows of f32_nchw_k2s2 (two output
             * rows per vector, then a single one) */
            const int64_t H = pi == 1 ? 7 : 5, W = pi == 3 ? 11 : pi == 1 ? 8 : 6, C = 2;
            int64_t shape[4] = {1, C, H, W};
            if (layout) {
                shape[1] = H;
                shape[2] = W;
                shape[3] = C;
            }
            for (int i = 0; i < 2; ++i) {
                d.kernel[i] = pat[pi][0];
                d.stride[i] = pat[pi][1];
                d.pad_begin[i] = d.pad_end[i] = pat[pi][2];
            }
            d.rounding = pat[pi][3] ? MAXPOOL_ROUND_CEIL : MAXPOOL_ROUND_FLOOR;
            if (pat[pi][4]) {
                d.window = MAXPOOL_WINDOW_ADAPTIVE;
                d.output_size[0] = 3;
                d.output_size[1] = 4;
            }
            g_period = layout ? H * W * C : H * W;
            for (int bg = 0; bg < 4; ++bg) {
                g_bg = bg;
                for (int64_t pos = -1; pos < g_period; pos += quick ? 3 : 1) {
                    for (int opt = 0; opt < 8; ++opt) {
                        /* opt 4..7: the empty-value start, where windows no tap beats
                         * (all -inf, all NaN ignored) take the empty-window index */
                        d.window_init = opt & 4 ? MAXPOOL_INIT_EMPTY_VALUE : MAXPOOL_INIT_FIRST_ELEMENT;
                        d.nan_policy = opt & 1 ? MAXPOOL_NAN_PROPAGATE : MAXPOOL_NAN_IGNORE;
                        d.index_type = opt & 2 ? MAXPOOL_INDEX_I64 : MAXPOOL_INDEX_NONE;
                        if (ts_rng_chance(r, 1, 3))
                            d.index_type = MAXPOOL_INDEX_I32;
                        d.index_axis = (int)ts_rng_range(r, 0, 2);
                        d.empty_index = (maxpool_empty_index)ts_rng_range(r, 0, 2);
                        d.empty_value = ts_rng_chance(r, 1, 2) ? MAXPOOL_EMPTY_NEG_INF : MAXPOOL_EMPTY_LOWEST;
                        g_nan1 = pos;
                        g_nan2 = pos >= 0 && ts_rng_chance(r, 1, 2) ? (pos * 7 + 3) % g_period : -1;
                        char what[400];
                        describe(what, sizeof what, &d, shape);
                        check_case(&d, shape, r, V_DIRECTED, pos == 5 && opt == 3, what);
                    }
                }
            }
        }
    }
    g_nan1 = g_nan2 = -1;
}

/* k2 s2 on planes 8 wide whose rows are all used (H = 2 * OH, OH even):
 * f32_nchw_k2s2_avx2 runs the planes of a task range as one run of 4-row
 * groups (values only). Planes 8 wide and 4, 8, 12 high, 1-7 of them (task
 * ranges of 2 and 3 threads split between planes), a NaN (then two) at every
 * position of the whole input over each background (-inf, lowest, a mix,
 * ±0 and 1), every start and NaN policy; then random values; and shapes just
 * off the form (H odd, OH odd, W 9, indices) beside them. */
static void k2s2_flat_cases(ts_rng *r, int quick)
{
    static const int64_t shapes[][4] = {{1, 1, 4, 8},  {1, 3, 8, 8},  {2, 3, 4, 8}, {1, 7, 12, 8},
                                        {1, 2, 9, 8},  {1, 3, 6, 8},  {1, 2, 8, 9}, {2, 5, 8, 8}};
    for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; ++si) {
        const int64_t *shape = shapes[si];
        maxpool_desc d;
        maxpool_desc_init(&d, 2);
        for (int i = 0; i < 2; ++i) {
            d.kernel[i] = 2;
            d.stride[i] = 2;
        }
        const int64_t ni = shape[0] * shape[1] * shape[2] * shape[3];
        g_period = ni;
        for (int bg = 0; bg < 4; ++bg) {
            g_bg = bg;
            for (int64_t pos = -1; pos < ni; pos += quick ? 5 : ni > 200 ? 3 : 1) { /* 3: coprime to every lane count */
                for (int opt = 0; opt < 4; ++opt) {
                    d.window_init = opt & 2 ? MAXPOOL_INIT_EMPTY_VALUE : MAXPOOL_INIT_FIRST_ELEMENT;
                    d.nan_policy = opt & 1 ? MAXPOOL_NAN_PROPAGATE : MAXPOOL_NAN_IGNORE;
                    d.empty_value = ts_rng_chance(r, 1, 2) ? MAXPOOL_EMPTY_NEG_INF : MAXPOOL_EMPTY_LOWEST;
                    d.index_type = pos == 3 && opt == 1 ? MAXPOOL_INDEX_I64 : MAXPOOL_INDEX_NONE;
                    g_nan1 = pos;
                    g_nan2 = pos >= 0 && ts_rng_chance(r, 1, 2) ? (pos * 7 + 3) % ni : -1;
                    char what[400];
                    describe(what, sizeof what, &d, shape);
                    check_case(&d, shape, r, V_DIRECTED, pos % 8 == 2, what);
                }
            }
        }
        g_nan1 = g_nan2 = -1;
        g_period = 1;
        for (int kind = 0; kind < V_KINDS; ++kind) {
            random_options(&d, r);
            d.index_type = MAXPOOL_INDEX_NONE;
            char what[400];
            describe(what, sizeof what, &d, shape);
            check_case(&d, shape, r, kind, 1, what);
        }
    }
}

/* A NaN (and now and then a second, later one) at every step-th position
 * of a period g_period of the input, on each background g_bg, under both NaN
 * rules and both starts; the index type random (none, i32, i64; with
 * with_index: i32 or i64), with random index axis, empty index and empty
 * value. */
static void nan_sweep(maxpool_desc *d, const int64_t *shape, ts_rng *r, int64_t step, int with_index)
{
    for (int bg = 0; bg < 4; ++bg) {
        g_bg = bg;
        for (int64_t pos = -1; pos < g_period; pos += step) {
            for (int opt = 0; opt < 4; ++opt) {
                d->nan_policy = opt & 1 ? MAXPOOL_NAN_PROPAGATE : MAXPOOL_NAN_IGNORE;
                d->window_init = opt & 2 ? MAXPOOL_INIT_FIRST_ELEMENT : MAXPOOL_INIT_EMPTY_VALUE;
                d->index_type = with_index ? (ts_rng_chance(r, 1, 2) ? MAXPOOL_INDEX_I64 : MAXPOOL_INDEX_I32)
                                           : (maxpool_index_type)ts_rng_range(r, 0, 2);
                d->index_axis = (int)ts_rng_range(r, 0, 2);
                d->empty_index = (maxpool_empty_index)ts_rng_range(r, 0, 2);
                d->empty_value = ts_rng_chance(r, 1, 2) ? MAXPOOL_EMPTY_NEG_INF : MAXPOOL_EMPTY_LOWEST;
                g_nan1 = pos;
                g_nan2 = pos >= 0 && ts_rng_chance(r, 1, 2) ? (pos * 7 + 3) % g_period : -1;
                char what[400];
                describe(what, sizeof what, d, shape);
                check_case(d, shape, r, V_DIRECTED, pos == 5 && opt == 3, what);
            }
        }
    }
}

/* The stride-1 log-step kernel (f32_nchw_s1_logstep_*): per-axis kernels
 * 1..15 with one of them >= 3, pads 0..k on each side, every rounding,
 * sizes 1..40, every option set and value kind; then random big planes
 * (several column chunks and row strips) and the kernel-size limits of the
 * kernel (just inside and just outside: the general kernels then run). */
static void logstep_sweep(ts_rng *r, int quick)
{
    int64_t n = 0;
    for (int64_t k = 3; k <= 15; ++k) {
        for (int64_t pad = 0; pad <= k; pad += quick ? 3 : 1, ++n) {
            maxpool_desc d;
            maxpool_desc_init(&d, 2);
            const int wide = n % 2 == 0; /* the big kernel on W or on H */
            const int64_t other = 1 + (n * 5) % 15;
            d.kernel[0] = wide ? other : k;
            d.kernel[1] = wide ? k : other;
            for (int i = 0; i < 2; ++i) {
                const int64_t ki = d.kernel[i];
                d.pad_begin[i] = pad < ki ? pad : ki;
                d.pad_end[i] = (pad * 3 + n + (int64_t)i) % (ki + 1);
            }
            d.rounding = (maxpool_rounding)(n % 3);
            random_options(&d, r);
            int64_t shape[4] = {1 + n % 2, 1 + n % 3, 1 + (n * 7 + k) % 40, 1 + (n * 11 + pad) % 40};
            char what[400];
            describe(what, sizeof what, &d, shape);
            for (int kind = 0; kind < V_KINDS; ++kind)
                check_case(&d, shape, r, kind, kind == 0 && n % 4 == 0, what);
        }
    }
    const int nrand = quick ? 40 : 200;
    for (int i = 0; i < nrand; ++i) {
        maxpool_desc d;
        maxpool_desc_init(&d, 2);
        int64_t shape[4] = {ts_rng_range(r, 1, 2), ts_rng_range(r, 1, 3), ts_rng_range(r, 1, 40),
                            ts_rng_range(r, 1, 40)};
        if (i % 10 == 9) { /* big planes: column chunks, row strips */
            shape[0] = shape[1] = 1;
            shape[2] = ts_rng_range(r, 60, 300);
            shape[3] = ts_rng_chance(r, 1, 2) ? 224 : ts_rng_range(r, 200, 600);
        }
        for (int a = 0; a < 2; ++a) {
            d.kernel[a] = ts_rng_range(r, 1, 15);
            d.pad_begin[a] = ts_rng_range(r, 0, d.kernel[a]);
            d.pad_end[a] = ts_rng_range(r, 0, d.kernel[a]);
        }
        if (d.kernel[0] < 3 && d.kernel[1] < 3)
            d.kernel[i % 2] = ts_rng_range(r, 3, 15);
        d.rounding = (maxpool_rounding)ts_rng_range(r, 0, 2);
        if (ts_rng_chance(r, 1, 10))
            d.auto_pad = ts_rng_chance(r, 1, 2) ? MAXPOOL_PAD_SAME_UPPER : MAXPOOL_PAD_SAME_LOWER;
        random_options(&d, r);
        char what[400];
        describe(what, sizeof what, &d, shape);
        check_case(&d, shape, r, (int)ts_rng_range(r, 0, V_KINDS - 1), ts_rng_chance(r, 1, 4), what);
    }
    /* limits: kernel_h 64 (65: general kernel), kernel_w 256 (257), (k_h + 2) * (k_w + 32) <= 5120,
     * narrow strips with indices */
    static const int64_t lim[][6] = {
        {150, 40, 64, 5, 63, 2}, {150, 40, 65, 5, 3, 64}, {7, 600, 4, 256, 2, 255},
        {7, 600, 4, 257, 2, 1},  {90, 300, 33, 9, 16, 4}, {40, 300, 15, 255, 3, 100}, {40, 300, 16, 255, 3, 9},
        {5, 3, 4, 1, 40, 0}, /* many empty rows (pads >> H, still bounded: out <= 4*in + 64): bounded strips */
        {5, 3, 4, 1, 600, 0}, /* pads past the bound: the reference */
    };
    for (size_t li = 0; li < sizeof lim / sizeof lim[0]; ++li) {
        for (int opt = 0; opt < 3; ++opt) {
            maxpool_desc d;
            maxpool_desc_init(&d, 2);
            int64_t shape[4] = {1, 2, lim[li][0], lim[li][1]};
            d.kernel[0] = lim[li][2];
            d.kernel[1] = lim[li][3];
            d.pad_begin[0] = d.pad_end[0] = lim[li][4];
            d.pad_begin[1] = d.pad_end[1] = lim[li][5];
            d.rounding = (maxpool_rounding)opt;
            random_options(&d, r);
            d.index_type = (maxpool_index_type)opt;
            char what[400];
            describe(what, sizeof what, &d, shape);
            check_case(&d, shape, r, opt == 0 ? V_NAN : opt == 1 ? V_TIES : V_LOW, opt == 1, what);
        }
    }
    /* outputs of >= 4 MiB: non-temporal stores (rows aligned or not: width 1030; the
     * output buffer 64-byte aligned or not: two runs of each) */
    for (int opt = 0; opt < 4; ++opt) {
        maxpool_desc d;
        maxpool_desc_init(&d, 2);
        int64_t shape[4] = {1, 1, 1030, opt / 2 ? 1030 : 1024};
        d.kernel[0] = d.kernel[1] = 5;
        d.pad_begin[0] = d.pad_begin[1] = d.pad_end[0] = d.pad_end[1] = 2;
        d.index_type = opt / 2 ? MAXPOOL_INDEX_I64 : MAXPOOL_INDEX_NONE;
        d.window_init = opt / 2 ? MAXPOOL_INIT_FIRST_ELEMENT : MAXPOOL_INIT_EMPTY_VALUE;
        char what[400];
        describe(what, sizeof what, &d, shape);
        check_case(&d, shape, r, V_NAN, 0, what);
    }
}

/* The stride-1 column-strip kernel (f32_nchw_s1_vpipe_avx2): the square
 * kernels it compiles for (2, 3, 5, 7, 9, 11, 13, 15) and any other pair 1..15,
 * tall planes (several row bands of its padded copies) narrow and wide
 * (more than one chunk of 256 columns), big outputs,
 * every option set (indices and NaN propagation go to the log-step or row
 * kernels, as expected_kernel() says). */
static void vpipe_sweep(ts_rng *r, int quick)
{
    static const int64_t sq[] = {2, 3, 5, 7, 9, 11, 13, 15};
    const int n = quick ? 30 : 120;
    for (int i = 0; i < n; ++i) {
        maxpool_desc d;
        maxpool_desc_init(&d, 2);
        for (int a = 0; a < 2; ++a)
            d.kernel[a] = i % 2 ? sq[(i / 2) % 8] : ts_rng_range(r, 1, 15);
        if (i % 2 == 0 && ts_rng_chance(r, 1, 3))
            d.kernel[1] = d.kernel[0];
        for (int a = 0; a < 2; ++a) {
            d.pad_begin[a] = ts_rng_range(r, 0, d.kernel[a] - 1);
            d.pad_end[a] = ts_rng_range(r, 0, d.kernel[a] - 1);
        }
        random_options(&d, r);
        if (ts_rng_chance(r, 2, 3)) { /* mostly plans this kernel takes */
            d.index_type = MAXPOOL_INDEX_NONE;
            d.nan_policy = MAXPOOL_NAN_IGNORE;
        }
        const int64_t wmax = i % 3 == 0 ? 300 : 45;
        int64_t shape[4] = {1, ts_rng_range(r, 1, 2), ts_rng_range(r, i % 4 ? 1 : 100, 420), ts_rng_range(r, 1, wmax)};
        char what[400];
        describe(what, sizeof what, &d, shape);
        check_case(&d, shape, r, (int)ts_rng_range(r, 0, V_KINDS - 1), i % 5 == 0, what);
    }
    /* outputs of >= 4 MiB in rows of 224 (one chunk of strips): the
     * non-temporal stores, several bands with the next band prefetched, the
     * W pass in runs (k7, k9: L_3; k13, k15: L_4), k9's spilled H state
     * and the Gil-Werman blocks of k13 and k15; each kernel twice (the output 64-byte
     * aligned in one, 16 bytes past in the other), the second also on 2
     * and 3 threads */
    static const int64_t big_k[] = {7, 9, 13, 15};
    for (int opt = 0; opt < 8; ++opt) {
        maxpool_desc d;
        maxpool_desc_init(&d, 2);
        int64_t shape[4] = {1, 24, 224, 224};
        d.kernel[0] = d.kernel[1] = big_k[opt / 2];
        d.pad_begin[0] = d.pad_begin[1] = d.pad_end[0] = d.pad_end[1] = big_k[opt / 2] / 2;
        char what[400];
        describe(what, sizeof what, &d, shape);
        check_case(&d, shape, r, opt % 2 ? V_TIES : V_NAN, opt % 2, what);
    }
}

/* The W-first form's streaming stores (gen_fl.h, GEN_FL_NT: outputs of
 * >= 4 MiB whose rows are whole 64-byte lines, output 64-byte aligned):
 * 1x16x256x256 k3 s1 p1 (4 MiB out) under both NaN rules and both starts,
 * each twice (aligned, then 16 bytes past: plain stores), the NaN-run and
 * ties inputs, 2 and 3 threads on the aligned ones; beside them the plans
 * just off the rule (15 planes: 3.75 MiB; 255 columns). */
static void gen_stream(ts_rng *r, int quick)
{
    for (int opt = 0; opt < (quick ? 8 : 16); ++opt) {
        maxpool_desc d;
        maxpool_desc_init(&d, 2);
        int64_t shape[4] = {1, 16, 256, 256};
        d.kernel[0] = d.kernel[1] = 3;
        d.pad_begin[0] = d.pad_begin[1] = d.pad_end[0] = d.pad_end[1] = 1;
        d.nan_policy = opt / 2 % 2 ? MAXPOOL_NAN_PROPAGATE : MAXPOOL_NAN_IGNORE;
        d.window_init = opt / 4 % 2 ? MAXPOOL_INIT_FIRST_ELEMENT : MAXPOOL_INIT_EMPTY_VALUE;
        if (opt >= 8) { /* full run: just off the rule */
            shape[1] = opt % 4 < 2 ? 15 : 16;
            shape[3] = opt % 4 < 2 ? 256 : 255;
        }
        g_yoff = opt % 2 ? 4 : 0;
        char what[400];
        describe(what, sizeof what, &d, shape);
        check_case(&d, shape, r, opt % 3 == 0 ? V_TIES : V_NAN, opt % 2 == 0, what);
        g_yoff = -1;
    }
    /* rank 3, depth stride 1 (gen_fl3.h's D pass streams out, output >= 4 MiB): rows of 136 floats (bands
     * starting 0 or 32 bytes past a 64-byte line: the plain vectors before the first line), an output
     * 64-byte aligned or 16 bytes past (no streaming at avx2: vectors never meet a line) */
    for (int opt = 0; opt < 4; ++opt) {
        maxpool_desc d;
        maxpool_desc_init(&d, 3);
        int64_t shape[5] = {1, 4, 16, 122, 136};
        for (int a = 0; a < 3; ++a) {
            d.kernel[a] = 3;
            d.pad_begin[a] = d.pad_end[a] = 1;
        }
        d.nan_policy = opt % 2 ? MAXPOOL_NAN_PROPAGATE : MAXPOOL_NAN_IGNORE;
        d.window_init = opt / 2 ? MAXPOOL_INIT_FIRST_ELEMENT : MAXPOOL_INIT_EMPTY_VALUE;
        g_yoff = opt == 3 ? 4 : 0;
        char what[400];
        describe(what, sizeof what, &d, shape);
        check_case(&d, shape, r, opt == 1 ? V_TIES : V_NAN, opt == 0, what);
        g_yoff = -1;
    }
}

/* The first-element start (NaN ignored) on the stride-1 kernels that test
 * their input for NaN (vpipe: in each band copy, then a fix-up of the bands
 * whose outputs' first taps may hold one; cblock: a group of 8 planes) and
 * take the values-start result where there is none: one NaN (then two) at
 * every position of a plane (the same in every plane) over each background,
 * 1 and 2 threads (task ranges that split a plane's rows). Then vpipe planes
 * of several bands (rows of 248..300 columns: bands of 8..15 rows, first taps
 * up to two bands back at 15x14), the gap layout and chunked copies, every
 * compiled square k5..k15, the generic instances, pads 0..k-1, and narrow
 * tall planes (6 and 12 columns: the fix-up's scalar tail): a NaN in
 * every row at a few columns (both edges, the pad's reach, the middle, one at
 * random); and a NaN-run plane with non-temporal stores (output >= 4 MiB). */
static void fe_nan_scan(ts_rng *r, int quick)
{
    static const int64_t cases[][5] = {/* H, W, k, pad, planes */
                                       {40, 40, 5, 2, 2}, {30, 48, 7, 3, 1}, {20, 20, 5, 2, 3}, {13, 27, 9, 4, 9}};
    for (int ci = 0; ci < 4; ++ci) {
        maxpool_desc d;
        maxpool_desc_init(&d, 2);
        for (int a = 0; a < 2; ++a) {
            d.kernel[a] = cases[ci][2];
            d.pad_begin[a] = d.pad_end[a] = cases[ci][3];
        }
        d.window_init = MAXPOOL_INIT_FIRST_ELEMENT;
        int64_t shape[4] = {1, cases[ci][4], cases[ci][0], cases[ci][1]};
        g_period = cases[ci][0] * cases[ci][1];
        for (int bg = quick ? 1 : 0; bg < 4; bg += quick ? 2 : 1) {
            g_bg = bg;
            for (int64_t pos = -1; pos < g_period; pos += quick ? 7 : 1) {
                g_nan1 = pos;
                g_nan2 = pos >= 0 && ts_rng_chance(r, 1, 4) ? (pos * 7 + 3) % g_period : -1;
                char what[400];
                describe(what, sizeof what, &d, shape);
                check_case(&d, shape, r, V_DIRECTED, pos % 3 == 0, what);
            }
        }
    }
    g_nan1 = g_nan2 = -1;
    for (int rep = 0; rep < 2; ++rep) { /* non-temporal stores, then the fix-up */
        maxpool_desc d;
        maxpool_desc_init(&d, 2);
        d.kernel[0] = d.kernel[1] = 7;
        d.pad_begin[0] = d.pad_begin[1] = d.pad_end[0] = d.pad_end[1] = 3;
        d.window_init = MAXPOOL_INIT_FIRST_ELEMENT;
        int64_t shape[4] = {1, 24, 224, 224};
        char what[400];
        describe(what, sizeof what, &d, shape);
        check_case(&d, shape, r, V_NAN, rep, what);
    }
}

/* fe_nan_scan's vpipe planes (its own section: test time is split between
 * the two ctest entries): wide planes in 256-column chunks and the gap
 * layout, every square k5..k15, the generic instances, narrow tall planes;
 * a NaN (and maybe a second one) in every row at ten columns. */
static void fe_nan_wide(ts_rng *r, int quick)
{
    static const int64_t wide[][7] = {/* H, W, kh, kw, ph, pw, planes */
                                      {36, 256, 5, 5, 2, 2, 1},   {40, 248, 13, 13, 6, 6, 2}, {30, 300, 7, 7, 3, 3, 1},
                                      {30, 300, 15, 14, 7, 0, 1}, {34, 264, 9, 9, 0, 0, 1},   {30, 100, 11, 11, 10, 10, 1},
                                      {32, 256, 15, 15, 7, 7, 1}, {26, 40, 3, 6, 1, 5, 2},    {20, 270, 1, 15, 0, 14, 1},
                                      {29, 64, 6, 4, 5, 0, 1},    {100, 6, 5, 5, 2, 2, 1},    {60, 12, 4, 13, 1, 6, 1}};
    for (int ci = 0; ci < (int)(sizeof wide / sizeof wide[0]); ++ci) {
        const int64_t *c = wide[ci];
        maxpool_desc d;
        maxpool_desc_init(&d, 2);
        for (int a = 0; a < 2; ++a) {
            d.kernel[a] = c[2 + a];
            d.pad_begin[a] = d.pad_end[a] = c[4 + a];
        }
        d.window_init = MAXPOOL_INIT_FIRST_ELEMENT;
        int64_t shape[4] = {1, c[6], c[0], c[1]};
        const int64_t W = c[1];
        g_period = c[0] * W;
        const int64_t cols[] = {0, 1, 7, 8, c[5], c[5] + 1, W / 2 + 3, W - 9, W - 1, -1};
        for (int bg = quick ? ci % 4 : ci % 2; bg < 4; bg += quick ? 4 : 2) { /* (test time) */
            g_bg = bg;
            for (int64_t row = 0; row < c[0]; ++row)
                for (int k = quick ? ci % 3 : 0; k < 10; k += quick ? 3 : 1) {
                    const int64_t col = cols[k] >= 0 && cols[k] < W ? cols[k] : ts_rng_range(r, 0, W - 1);
                    g_nan1 = row * W + col;
                    g_nan2 = ts_rng_chance(r, 1, 4) ? ts_rng_range(r, 0, g_period - 1) : -1;
                    char what[400];
                    describe(what, sizeof what, &d, shape);
                    check_case(&d, shape, r, V_DIRECTED, row % 3 == k % 3, what);
                }
        }
    }
    g_nan1 = g_nan2 = -1;
    g_period = 1;
}

/* The small-plane channel-blocked kernel (f32_nchw_s1_cblock_avx2): plane
 * counts that are not multiples of 8, SPP shapes, every padding up to k - 1,
 * planes up to its limits, every value kind (NaN runs, -0.0/+0.0 ties);
 * then single NaNs under the first-element start (below). */
static void cblock_sweep(ts_rng *r, int quick)
{
    static const int64_t spp[][3] = {{20, 13, 6}, {20, 9, 4}, {20, 5, 2}, {13, 13, 6}, {19, 5, 2}, {22, 7, 3}};
    const int n = quick ? 30 : 120;
    for (int i = 0; i < n; ++i) {
        maxpool_desc d;
        maxpool_desc_init(&d, 2);
        int64_t shape[4] = {ts_rng_range(r, 1, 2), ts_rng_range(r, 1, 19), 0, 0};
        if (i % 3 == 0) {
            const int64_t *c = spp[(i / 3) % 6];
            shape[2] = shape[3] = c[0];
            d.kernel[0] = d.kernel[1] = c[1];
            d.pad_begin[0] = d.pad_begin[1] = d.pad_end[0] = d.pad_end[1] = c[2];
        } else {
            shape[3] = ts_rng_range(r, 1, 32);
            shape[2] = ts_rng_range(r, 1, 448 / shape[3] < 40 ? 448 / shape[3] : 40);
            for (int a = 0; a < 2; ++a) {
                d.kernel[a] = ts_rng_range(r, 1, 24);
                d.pad_begin[a] = ts_rng_range(r, 0, d.kernel[a] - 1);
                d.pad_end[a] = ts_rng_range(r, 0, d.kernel[a] - 1);
            }
            d.rounding = (maxpool_rounding)ts_rng_range(r, 0, 2);
        }
        random_options(&d, r);
        if (ts_rng_chance(r, 3, 4)) { /* mostly plans this kernel takes */
            d.index_type = MAXPOOL_INDEX_NONE;
            d.nan_policy = MAXPOOL_NAN_IGNORE;
            d.window_init = MAXPOOL_INIT_EMPTY_VALUE;
        }
        char what[400];
        describe(what, sizeof what, &d, shape);
        check_case(&d, shape, r, i % V_KINDS, i % 4 == 0, what);
    }
    /* Every group size of both instances (groups of 8 planes, of 16 at
     * avx512): 1..33 planes, so whole groups and then a last partial group
     * of every size (its lanes past the last plane repeat that plane), rows
     * ending in each chunk kind, NaN runs and -0.0/+0.0 ties, both starts. */
    static const int64_t gs[][4] = {/* H, W, k, pad */ {13, 13, 5, 2}, {9, 19, 7, 3}, {6, 30, 3, 1}};
    for (int64_t planes = 1; planes <= 33; ++planes) {
        const int64_t *c = gs[planes % 3];
        maxpool_desc d;
        maxpool_desc_init(&d, 2);
        d.kernel[0] = d.kernel[1] = c[2];
        d.pad_begin[0] = d.pad_begin[1] = d.pad_end[0] = d.pad_end[1] = c[3];
        d.window_init = planes % 2 ? MAXPOOL_INIT_FIRST_ELEMENT : MAXPOOL_INIT_EMPTY_VALUE;
        int64_t shape[4] = {1, planes, c[0], c[1]};
        char what[400];
        describe(what, sizeof what, &d, shape);
        check_case(&d, shape, r, planes % 4 < 2 ? V_NAN : V_TIES, planes % 5 == 0, what);
    }
    /* The SPP shapes in whole groups of 8 planes (f32_nchw_s1_cblock8_avx512
     * at avx512: only the compile-time sizes), every value kind, both
     * starts, 1 and 2 batch items. */
    for (int k = 5; k <= 13; k += 4)
        for (int64_t planes = 8; planes <= 24; planes += 8)
            for (int kind = 0; kind < V_KINDS; ++kind) {
                maxpool_desc d;
                maxpool_desc_init(&d, 2);
                d.kernel[0] = d.kernel[1] = k;
                d.pad_begin[0] = d.pad_begin[1] = d.pad_end[0] = d.pad_end[1] = k / 2;
                d.window_init = kind % 2 ? MAXPOOL_INIT_FIRST_ELEMENT : MAXPOOL_INIT_EMPTY_VALUE;
                int64_t shape[4] = {planes == 16 ? 2 : 1, planes == 16 ? 8 : planes, 20, 20};
                char what[400];
                describe(what, sizeof what, &d, shape);
                check_case(&d, shape, r, kind, kind == V_NAN, what);
                if (kind == V_TIES) { /* ties of zeros only: which of -0.0 / +0.0 comes first in each window */
                    const int bg = g_bg;
                    g_bg = 4;
                    check_case(&d, shape, r, V_DIRECTED, 0, what);
                    g_bg = bg;
                }
            }
    /* The first-element start: one NaN in one plane of a group (the
     * group's NaN test is per chunk of a row: 8 columns, then 4, then 1..3,
     * each plane in its own lanes), at every column of a few rows of widths
     * whose rows end in each chunk kind; 9 planes: a second, partial group
     * of 8 (its lanes past the last plane repeat that plane); 16 and 17: a
     * whole group of 16 (each plane's NaN in each of the avx512 instance's
     * lanes), then a partial one; 20x20 k13 in 8 planes: the SPP sizes at
     * avx512 (f32_nchw_s1_cblock8_avx512). */
    static const int64_t fe[][5] = {/* H, W, k, pad, planes */
                                    {20, 20, 5, 2, 9}, {9, 13, 5, 2, 17}, {7, 31, 9, 4, 16}, {12, 6, 7, 3, 9},
                                    {6, 3, 5, 2, 9},   {20, 20, 13, 6, 8}};
    for (int ci = 0; ci < 6; ++ci) {
        maxpool_desc d;
        maxpool_desc_init(&d, 2);
        d.kernel[0] = d.kernel[1] = fe[ci][2];
        d.pad_begin[0] = d.pad_begin[1] = d.pad_end[0] = d.pad_end[1] = fe[ci][3];
        d.window_init = MAXPOOL_INIT_FIRST_ELEMENT;
        const int64_t H = fe[ci][0], W = fe[ci][1], planes = fe[ci][4];
        int64_t shape[4] = {1, planes, H, W};
        g_period = planes * H * W; /* one NaN in the whole input */
        g_nan2 = -1;
        for (int64_t plane = 0; plane < planes; ++plane) {
            g_bg = (int)((plane + ci) % 4);
            const int64_t row = (plane * 5 + ci) % H;
            for (int64_t col = 0; col < W; col += quick && W > 8 ? 2 + (plane & 1) : 1) {
                g_nan1 = plane * H * W + row * W + col;
                char what[400];
                describe(what, sizeof what, &d, shape);
                check_case(&d, shape, r, V_DIRECTED, col == 0 && plane == 3, what);
            }
        }
    }
    g_nan1 = g_nan2 = -1;
    g_period = 1;
}

/* The same for rank 3 (k3 s2 p1 and p0, the f32_nchw_k3s2 kernel's depth
 * combine and saved slices): NaN at every position of a 5x5x6 plane; and
 * for rank 1 stride 1 (the f32_ncw_s1 kernel). */
static void fe_directed3(ts_rng *r, int quick)
{
    for (int pb = 0; pb < 2; ++pb) {
        maxpool_desc d;
        maxpool_desc_init(&d, 3);
        d.window_init = MAXPOOL_INIT_FIRST_ELEMENT;
        for (int i = 0; i < 3; ++i) {
            d.kernel[i] = 3;
            d.stride[i] = 2;
            d.pad_begin[i] = d.pad_end[i] = pb;
        }
        d.rounding = MAXPOOL_ROUND_CEIL;
        int64_t shape[5] = {1, 2, 5, 5, 6};
        g_period = 5 * 5 * 6;
        for (int bg = 0; bg < 4; ++bg) {
            g_bg = bg;
            for (int64_t pos = -1; pos < g_period; pos += quick ? 5 : 1) {
                for (int opt = 0; opt < 4; ++opt) {
                    d.nan_policy = opt & 1 ? MAXPOOL_NAN_PROPAGATE : MAXPOOL_NAN_IGNORE;
                    d.index_type = opt & 2 ? MAXPOOL_INDEX_I64 : MAXPOOL_INDEX_NONE;
                    if (ts_rng_chance(r, 1, 3))
                        d.index_type = MAXPOOL_INDEX_I32;
                    d.window_init = ts_rng_chance(r, 3, 4) ? MAXPOOL_INIT_FIRST_ELEMENT : MAXPOOL_INIT_EMPTY_VALUE;
                    d.index_axis = (int)ts_rng_range(r, 0, 2);
                    d.empty_index = (maxpool_empty_index)ts_rng_range(r, 0, 2);
                    d.empty_value = ts_rng_chance(r, 1, 2) ? MAXPOOL_EMPTY_NEG_INF : MAXPOOL_EMPTY_LOWEST;
                    g_nan1 = pos;
                    g_nan2 = pos >= 0 && ts_rng_chance(r, 1, 2) ? (pos * 7 + 3) % g_period : -1;
                    char what[400];
                    describe(what, sizeof what, &d, shape);
                    check_case(&d, shape, r, V_DIRECTED, pos == 5 && opt == 3, what);
                }
            }
        }
    }
    /* rank 1, stride 1 (the f32_ncw_s1 kernel): k3 p1, k5 p4, k8 p3 over 13 elements */
    static const int pat1[][2] = {{3, 1}, {5, 4}, {8, 3}};
    for (int pi = 0; pi < 3; ++pi) {
        maxpool_desc d;
        maxpool_desc_init(&d, 1);
        d.kernel[0] = pat1[pi][0];
        d.stride[0] = 1;
        d.pad_begin[0] = d.pad_end[0] = pat1[pi][1];
        int64_t shape[3] = {1, 2, 13};
        g_period = 13;
        for (int bg = 0; bg < 4; ++bg) {
            g_bg = bg;
            for (int64_t pos = -1; pos < g_period; ++pos) {
                for (int opt = 0; opt < 4; ++opt) {
                    d.nan_policy = opt & 1 ? MAXPOOL_NAN_PROPAGATE : MAXPOOL_NAN_IGNORE;
                    d.index_type = opt & 2 ? MAXPOOL_INDEX_I64 : (maxpool_index_type)ts_rng_range(r, 0, 1);
                    d.window_init = ts_rng_chance(r, 3, 4) ? MAXPOOL_INIT_FIRST_ELEMENT : MAXPOOL_INIT_EMPTY_VALUE;
                    d.index_axis = (int)ts_rng_range(r, 0, 2);
                    d.empty_index = (maxpool_empty_index)ts_rng_range(r, 0, 2);
                    d.empty_value = ts_rng_chance(r, 1, 2) ? MAXPOOL_EMPTY_NEG_INF : MAXPOOL_EMPTY_LOWEST;
                    g_nan1 = pos;
                    g_nan2 = pos >= 0 && ts_rng_chance(r, 1, 2) ? (pos * 7 + 3) % g_period : -1;
                    char what[400];
                    describe(what, sizeof what, &d, shape);
                    check_case(&d, shape, r, V_DIRECTED, 0, what);
                }
            }
        }
    }
    g_nan1 = g_nan2 = -1;
}

/* The lines-first kernel (f32_nchw_linesfirst_*): adaptive windows (even
 * along W with width >= 3, uneven, more outputs than inputs), fixed windows
 * with stride >= kernel or overlapping with stride >= 3, dilation, pads that
 * leave empty windows, ranks 1..3, odd widths (vector tails), many lines per
 * output row (line batches of 256), wide rows (several column chunks),
 * every option and value kind, threads. */
static void linesfirst_cases(ts_rng *r, int quick)
{
    struct {
        int rank, adaptive;
        int64_t shape[5], k[3], s[3], d[3], p[3], out[3];
    } cs[] = {
        {3, 1, {1, 3, 16, 24, 24}, {0}, {0}, {0}, {0}, {4, 3, 3}},            /* the benchmark's family */
        {3, 1, {2, 2, 5, 7, 37}, {0}, {0}, {0}, {0}, {2, 3, 5}},             /* uneven */
        {3, 1, {1, 2, 3, 4, 9}, {0}, {0}, {0}, {0}, {5, 6, 11}},             /* more outputs than inputs */
        {2, 1, {1, 3, 11, 27}, {0}, {0}, {0}, {0}, {3, 9}},                  /* even along W, width 3 */
        {2, 1, {2, 2, 9, 61}, {0}, {0}, {0}, {0}, {2, 4}},                   /* uneven, wide windows */
        {1, 1, {2, 3, 53}, {0}, {0}, {0}, {0}, {7}},                         /* 1-D: the row kernel */
        {2, 1, {1, 2, 2, 3}, {0}, {0}, {0}, {0}, {1, 1}},                    /* narrower than a vector */
        {2, 1, {1, 2, 40, 30}, {0}, {0}, {0}, {0}, {1, 3}},                  /* 40-line windows */
        {3, 1, {1, 1, 20, 20, 12}, {0}, {0}, {0}, {0}, {1, 1, 4}},           /* 400 lines: line batches */
        {3, 1, {1, 2, 20, 20, 40}, {0}, {0}, {0}, {0}, {1, 1, 4}},           /* the same with indices here (W > 16) */
        {2, 1, {1, 2, 2, 5000}, {0}, {0}, {0}, {0}, {1, 4}},                 /* windows of 1250: chunks */
        {2, 1, {1, 2, 3, 4500}, {0}, {0}, {0}, {0}, {2, 900}},               /* several column chunks */
        {2, 0, {1, 3, 17, 29}, {3, 3}, {3, 3}, {1, 1}, {1, 1}, {0}},         /* k3 s3 p1 */
        {2, 0, {2, 2, 13, 31}, {2, 2}, {3, 4}, {1, 1}, {0, 1}, {0}},         /* stride > kernel */
        {3, 0, {1, 2, 7, 9, 23}, {3, 2, 5}, {2, 2, 3}, {1, 1, 1}, {1, 0, 2}, {0}}, /* overlapping, s3 */
        {2, 0, {1, 2, 9, 26}, {3, 3}, {2, 2}, {1, 2}, {1, 2}, {0}},          /* stride 2, dilation 2 */
        {2, 0, {1, 2, 8, 19}, {2, 2}, {3, 3}, {1, 1}, {2, 2}, {0}},          /* pads >= kernel: empty windows */
        {2, 0, {2, 2, 5, 100}, {2, 1}, {1, 5}, {1, 1}, {0, 0}, {0}},          /* k1 s5 along W */
        {3, 0, {1, 2, 6, 6, 30}, {2, 2, 4}, {2, 2, 4}, {2, 1, 3}, {1, 0, 3}, {0}},
    };
    for (size_t ci = 0; ci < sizeof cs / sizeof cs[0]; ++ci) {
        maxpool_desc d;
        maxpool_desc_init(&d, cs[ci].rank);
        if (cs[ci].adaptive) {
            d.window = MAXPOOL_WINDOW_ADAPTIVE;
            for (int i = 0; i < cs[ci].rank; ++i)
                d.output_size[i] = cs[ci].out[i];
        } else {
            for (int i = 0; i < cs[ci].rank; ++i) {
                d.kernel[i] = cs[ci].k[i];
                d.stride[i] = cs[ci].s[i];
                d.dilation[i] = cs[ci].d[i];
                d.pad_begin[i] = d.pad_end[i] = cs[ci].p[i];
            }
            d.rounding = MAXPOOL_ROUND_CEIL;
        }
        for (int opt = 0; opt < 12; ++opt) {
            if (quick && opt % 3 == 1)
                continue;
            d.index_type = (maxpool_index_type)(opt % 3);
            d.nan_policy = (opt / 3) & 1 ? MAXPOOL_NAN_PROPAGATE : MAXPOOL_NAN_IGNORE;
            d.window_init = opt / 6 ? MAXPOOL_INIT_FIRST_ELEMENT : MAXPOOL_INIT_EMPTY_VALUE;
            d.index_axis = (int)ts_rng_range(r, 0, 2);
            d.empty_index = (maxpool_empty_index)ts_rng_range(r, 0, 2);
            d.empty_value = ts_rng_chance(r, 1, 2) ? MAXPOOL_EMPTY_NEG_INF : MAXPOOL_EMPTY_LOWEST;
            char what[400];
            describe(what, sizeof what, &d, cs[ci].shape);
            for (int kind = 0; kind < V_KINDS; ++kind)
                check_case(&d, cs[ci].shape, r, kind, kind == V_NAN && opt % 4 == 0, what);
        }
    }

    /* directed: NaN (and a second one) at every position of small 3-D and
     * 2-D planes, on the -inf / -FLT_MAX / tie backgrounds, every option */
    struct {
        int rank, adaptive;
        int64_t shape[5], k, s, p, out[3];
    } ds[] = {
        {3, 1, {1, 2, 3, 4, 9}, 0, 0, 0, {2, 2, 3}}, /* even along W (width 3) */
        {3, 1, {1, 2, 3, 4, 7}, 0, 0, 0, {2, 3, 3}}, /* uneven */
        {3, 0, {1, 2, 3, 4, 8}, 2, 3, 1, {0}},       /* k2 s3 p1 ceil: an empty window at the end */
        {2, 0, {1, 2, 3, 13}, 3, 4, 3, {0}},         /* pads = kernel: empty windows on both axes */
    };
    for (size_t ci = 0; ci < sizeof ds / sizeof ds[0]; ++ci) {
        maxpool_desc d;
        maxpool_desc_init(&d, ds[ci].rank);
        if (ds[ci].adaptive) {
            d.window = MAXPOOL_WINDOW_ADAPTIVE;
            for (int i = 0; i < ds[ci].rank; ++i)
                d.output_size[i] = ds[ci].out[i];
        } else {
            for (int i = 0; i < ds[ci].rank; ++i) {
                d.kernel[i] = ds[ci].k;
                d.stride[i] = ds[ci].s;
                d.pad_begin[i] = d.pad_end[i] = ds[ci].p;
            }
            d.rounding = MAXPOOL_ROUND_CEIL;
        }
        g_period = 1;
        for (int i = 0; i < ds[ci].rank; ++i)
            g_period *= ds[ci].shape[2 + i];
        nan_sweep(&d, ds[ci].shape, r, quick ? 4 : 1, 0);
    }
    g_nan1 = g_nan2 = -1;
}

/* Small planes (the flat-plane form of the gen template, gen_fp.h: f32
 * channels-first, rank 2, values only, fixed windows, W stride 1 or 2,
 * planes up to 32 wide and 1024 elements; the plans the gen match gives it):
 * widths 1 to 17 and around 32, heights 1 to 9 and 13, 14, kernels 1 to 3
 * (H up to 5), strides 1 and 2 (H up to 3), pads below the kernel on each
 * side, both roundings; every NaN rule and start, both empty values; 1 to 3
 * planes in 1 or 2 batches (the tensor's first and last planes are copied,
 * 2 and 3 threads split planes); random values, ties, NaN runs, extremes,
 * start values only, and a NaN (a second one) at every offset of a prime
 * period on backgrounds of -inf, -FLT_MAX, both, and {0, -0, 1} ties (every
 * lane and plane position); now and then indices (the other forms). */
static void small_planes(ts_rng *r, int quick)
{
    static const int64_t widths[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 20, 27, 28, 31, 32, 33};
    const int nw = (int)(sizeof widths / sizeof widths[0]);
    for (int wi = 0; wi < nw; ++wi)
        for (int rep = 0; rep < (quick ? 6 : 16); ++rep) {
            maxpool_desc d;
            maxpool_desc_init(&d, 2);
            d.layout = MAXPOOL_CHANNELS_FIRST;
            const int64_t W = widths[wi];
            const int64_t H = rep % 3 == 0 ? ts_rng_range(r, 1, 4)
                              : rep % 3 == 1 ? ts_rng_range(r, 5, 9)
                                             : (W <= 28 && ts_rng_chance(r, 1, 2) ? 14 : 13);
            d.kernel[1] = ts_rng_range(r, 1, 3);
            d.stride[1] = ts_rng_range(r, 1, 2);
            d.kernel[0] = ts_rng_range(r, 1, ts_rng_chance(r, 1, 4) ? 5 : 3);
            d.stride[0] = ts_rng_range(r, 1, ts_rng_chance(r, 1, 4) ? 3 : 2);
            for (int a = 0; a < 2; ++a) {
                d.pad_begin[a] = ts_rng_range(r, 0, d.kernel[a] - 1);
                d.pad_end[a] = ts_rng_range(r, 0, d.kernel[a] - 1);
            }
            d.rounding = ts_rng_chance(r, 1, 3) ? MAXPOOL_ROUND_CEIL : MAXPOOL_ROUND_FLOOR;
            d.nan_policy = rep & 1 ? MAXPOOL_NAN_PROPAGATE : MAXPOOL_NAN_IGNORE;
            d.window_init = rep & 2 ? MAXPOOL_INIT_FIRST_ELEMENT : MAXPOOL_INIT_EMPTY_VALUE;
            d.empty_value = ts_rng_chance(r, 1, 2) ? MAXPOOL_EMPTY_NEG_INF : MAXPOOL_EMPTY_LOWEST;
            d.index_type = ts_rng_chance(r, 1, 10) ? MAXPOOL_INDEX_I64 : MAXPOOL_INDEX_NONE;
            int64_t shape[4] = {ts_rng_range(r, 1, 2), ts_rng_range(r, 1, 3), H, W};
            char what[400];
            describe(what, sizeof what, &d, shape);
            check_case(&d, shape, r, (int)ts_rng_range(r, 0, V_KINDS - 1), rep % 4 == 3, what);
            if (rep % 4 != 0)
                continue;
            /* a NaN (and a second one) at every offset of a prime period */
            g_period = 23;
            for (int64_t pos = 0; pos < g_period; pos += quick ? 4 : 1) {
                g_bg = (int)((pos + rep / 4) % 4);
                d.nan_policy = pos & 1 ? MAXPOOL_NAN_PROPAGATE : MAXPOOL_NAN_IGNORE;
                d.window_init = pos & 2 ? MAXPOOL_INIT_FIRST_ELEMENT : MAXPOOL_INIT_EMPTY_VALUE;
                g_nan1 = pos;
                g_nan2 = ts_rng_chance(r, 1, 2) ? (pos * 7 + 3) % g_period : -1;
                describe(what, sizeof what, &d, shape);
                check_case(&d, shape, r, V_DIRECTED, pos == 5, what);
            }
            g_nan1 = g_nan2 = -1;
        }
    /* k3 s1 p1 on both axes (GoogLeNet's pools; the W pass's own loads tell
     * whether a plane holds a NaN for the first-element start): a NaN (a
     * second one) at every position of a whole plane, 1 to 3 planes (the
     * tensor's first and last planes copied), every NaN rule and start */
    static const int64_t gw[] = {3, 7, 8, 13, 14, 16, 17, 28};
    for (int wi = 0; wi < (int)(sizeof gw / sizeof gw[0]); ++wi) {
        maxpool_desc d;
        maxpool_desc_init(&d, 2);
        d.layout = MAXPOOL_CHANNELS_FIRST;
        const int64_t W = gw[wi], H = wi & 1 ? W : (W > 9 ? 9 : W);
        for (int a = 0; a < 2; ++a) {
            d.kernel[a] = 3;
            d.stride[a] = 1;
            d.pad_begin[a] = d.pad_end[a] = 1;
        }
        int64_t shape[4] = {1, 1 + wi % 3, H, W};
        g_period = H * W;
        char what[400];
        for (int64_t pos = 0; pos < g_period; pos += quick ? 3 : 1) {
            g_bg = (int)(pos % 4);
            d.nan_policy = pos % 5 == 4 ? MAXPOOL_NAN_PROPAGATE : MAXPOOL_NAN_IGNORE;
            d.window_init = pos % 5 == 3 ? MAXPOOL_INIT_EMPTY_VALUE : MAXPOOL_INIT_FIRST_ELEMENT;
            g_nan1 = pos;
            g_nan2 = ts_rng_chance(r, 1, 3) ? (pos * 7 + 3) % g_period : -1;
            describe(what, sizeof what, &d, shape);
            check_case(&d, shape, r, V_DIRECTED, pos % 7 == 5, what);
        }
        g_nan1 = g_nan2 = -1;
    }
    g_period = 1;
}

/* Rows in one vector (the gen template's f32 form for W stride 2 with an
 * output row of at most one vector and an input line of at most two,
 * gen_fr.h; two planes a vector where both fit one): widths 1 to 33 (every
 * lane count of both vectors at avx2 and avx512, and just past them),
 * heights 1 to 9, 13, 14, 27, W kernels 1 to 4 (now and then up to 8) with
 * pads below the kernel on each side, H kernels 1 to 4 and strides 1 to 3
 * with pads, both roundings (ceil: a last window in the padding), 1 to 5
 * planes in 1 or 2 batches (odd counts: a plane left over from the pairs;
 * 2 and 3 threads cut planes into rows); every NaN rule and start and both
 * empty values; random values, ties, NaN runs, extremes, start values only;
 * then a NaN (and a second one) at every offset of a prime period on the
 * -inf / -FLT_MAX / mixed / {0, -0, 1} backgrounds: every lane of every
 * line of a window. Now and then indices (other forms). */
static void row_vectors(ts_rng *r, int quick)
{
    for (int64_t W = 1; W <= 33; ++W)
        for (int rep = 0; rep < (quick ? 6 : 16); ++rep) {
            maxpool_desc d;
            maxpool_desc_init(&d, 2);
            d.layout = MAXPOOL_CHANNELS_FIRST;
            static const int64_t hs[] = {13, 14, 27};
            const int64_t H = rep % 3 == 0 ? ts_rng_range(r, 1, 4)
                              : rep % 3 == 1 ? ts_rng_range(r, 5, 9)
                                             : hs[ts_rng_range(r, 0, 2)];
            d.kernel[1] = ts_rng_range(r, 1, ts_rng_chance(r, 1, 6) ? 8 : 4);
            d.stride[1] = 2;
            d.kernel[0] = ts_rng_range(r, 1, 4);
            d.stride[0] = ts_rng_range(r, 1, 3);
            for (int a = 0; a < 2; ++a) {
                d.pad_begin[a] = ts_rng_range(r, 0, d.kernel[a] - 1);
                d.pad_end[a] = ts_rng_range(r, 0, d.kernel[a] - 1);
            }
            if (rep % 5 == 0) { /* the networks' k3 s2 p0 / k2 s2 p0 */
                d.kernel[0] = d.kernel[1] = 2 + rep % 2;
                d.stride[0] = 2;
                d.pad_begin[0] = d.pad_begin[1] = d.pad_end[0] = d.pad_end[1] = 0;
            }
            d.rounding = ts_rng_chance(r, 1, 3) ? MAXPOOL_ROUND_CEIL : MAXPOOL_ROUND_FLOOR;
            d.nan_policy = rep & 1 ? MAXPOOL_NAN_PROPAGATE : MAXPOOL_NAN_IGNORE;
            d.window_init = rep & 2 ? MAXPOOL_INIT_FIRST_ELEMENT : MAXPOOL_INIT_EMPTY_VALUE;
            d.empty_value = ts_rng_chance(r, 1, 2) ? MAXPOOL_EMPTY_NEG_INF : MAXPOOL_EMPTY_LOWEST;
            d.index_type = ts_rng_chance(r, 1, 12) ? MAXPOOL_INDEX_I64 : MAXPOOL_INDEX_NONE;
            int64_t shape[4] = {ts_rng_range(r, 1, 2), ts_rng_range(r, 1, 5), H, W};
            char what[400];
            describe(what, sizeof what, &d, shape);
            check_case(&d, shape, r, (int)ts_rng_range(r, 0, V_KINDS - 1), rep % 4 == 3, what);
            if (rep % 4 != 0)
                continue;
            g_period = rep % 8 == 0 ? 29 : 37; /* a NaN (and a second one) at every offset of a prime period */
            for (int64_t pos = 0; pos < g_period; pos += quick ? 3 : 1) {
                g_bg = (int)((pos + rep / 4) % 4);
                d.nan_policy = pos & 1 ? MAXPOOL_NAN_PROPAGATE : MAXPOOL_NAN_IGNORE;
                d.window_init = pos & 2 ? MAXPOOL_INIT_FIRST_ELEMENT : MAXPOOL_INIT_EMPTY_VALUE;
                d.index_type = MAXPOOL_INDEX_NONE;
                g_nan1 = pos;
                g_nan2 = ts_rng_chance(r, 1, 2) ? (pos * 7 + 3) % g_period : -1;
                describe(what, sizeof what, &d, shape);
                check_case(&d, shape, r, V_DIRECTED, pos == 4, what);
            }
            g_nan1 = g_nan2 = -1;
            g_period = 1;
        }
    /* the networks' k2 / k3 s2 p0 on every W (gen_fr.h fr_frows, fr_dline:
     * rows of 1-4 chunks, the constant and run-time chunk counts, and wider
     * rows that go elsewhere): planes enough for whole-vector loads, plane pairs and runs
     * of planes (2 and 3 threads cut them), every NaN rule and start, a NaN
     * (and a second one) at every offset */
    static const int64_t wide[] = {34, 35, 40, 47, 48, 49, 55, 56, 63, 64, 65, 66, 67, 71, 97, 128, 129, 130, 131};
    const int nwide = (int)(sizeof wide / sizeof wide[0]);
    for (int64_t K = 2; K <= 3; ++K)
        for (int wi = -33; wi < (K == 3 ? nwide : 0); ++wi) /* every W to 33; for K 3 rows of 2-5 vectors */
            for (int rep = 0; rep < (quick ? 2 : 4); ++rep) {
                const int64_t W = wi < 0 ? 34 + wi : wide[wi];
                if (W < K)
                    break;
                maxpool_desc d;
                maxpool_desc_init(&d, 2);
                d.layout = MAXPOOL_CHANNELS_FIRST;
                d.kernel[0] = d.kernel[1] = K;
                d.stride[0] = d.stride[1] = 2;
                d.rounding = rep == 3 ? MAXPOOL_ROUND_CEIL : MAXPOOL_ROUND_FLOOR;
                d.nan_policy = (rep + W) & 1 ? MAXPOOL_NAN_PROPAGATE : MAXPOOL_NAN_IGNORE;
                d.window_init = (rep + W / 2) & 1 ? MAXPOOL_INIT_FIRST_ELEMENT : MAXPOOL_INIT_EMPTY_VALUE;
                d.empty_value = ts_rng_chance(r, 1, 2) ? MAXPOOL_EMPTY_NEG_INF : MAXPOOL_EMPTY_LOWEST;
                const int64_t H = rep & 1 ? W : ts_rng_range(r, K, 9);
                int64_t shape[4] = {1, ts_rng_range(r, 3, 9), H, W};
                char what[400];
                if (rep == 0) { /* over MAXPOOL_PARALLEL_MIN_BYTES (128 KiB): threads split the planes */
                    shape[1] = 140000 / (4 * H * W + 4 * ((H - K) / 2 + 1) * ((W - K) / 2 + 1)) + ts_rng_range(r, 0, 3);
                    describe(what, sizeof what, &d, shape);
                    check_case(&d, shape, r, (int)ts_rng_range(r, 0, V_KINDS - 1), 1, what);
                    shape[1] = ts_rng_range(r, 3, 9);
                }
                describe(what, sizeof what, &d, shape);
                check_case(&d, shape, r, (int)ts_rng_range(r, 0, V_KINDS - 1), 0, what);
                g_period = rep & 1 ? 29 : 37;
                for (int64_t pos = 0; pos < g_period; pos += quick ? 2 : 1) {
                    g_bg = (int)((pos + rep) % 4);
                    d.nan_policy = pos & 1 ? MAXPOOL_NAN_PROPAGATE : MAXPOOL_NAN_IGNORE;
                    d.window_init = pos & 2 ? MAXPOOL_INIT_FIRST_ELEMENT : MAXPOOL_INIT_EMPTY_VALUE;
                    g_nan1 = pos;
                    g_nan2 = ts_rng_chance(r, 1, 2) ? (pos * 7 + 3) % g_period : -1;
                    describe(what, sizeof what, &d, shape);
                    check_case(&d, shape, r, V_DIRECTED, 0, what);
                }
                g_nan1 = g_nan2 = -1;
                g_period = 1;
            }
}

/* An adaptive plan for nan_sweep: rank, shape (N, C, spatial), output sizes. */
typedef struct {
    int rank;
    int64_t shape[5], out[3];
} adaptive_shape;

/* nan_sweep (with indices) over each adaptive plan of ds; period 0: the
 * NaN period is the whole tensor. */
static void adaptive_sweeps(const adaptive_shape *ds, size_t n, ts_rng *r, int64_t step, int64_t period)
{
    for (size_t ci = 0; ci < n; ++ci) {
        maxpool_desc d;
        maxpool_desc_init(&d, ds[ci].rank);
        d.window = MAXPOOL_WINDOW_ADAPTIVE;
        int64_t elems = ds[ci].shape[0] * ds[ci].shape[1];
        for (int a = 0; a < ds[ci].rank; ++a) {
            d.output_size[a] = ds[ci].out[a];
            elems *= ds[ci].shape[2 + a];
        }
        g_period = period ? period : elems;
        nan_sweep(&d, ds[ci].shape, r, step, 1);
    }
    g_nan1 = g_nan2 = -1;
    g_period = 1;
}

/* Adaptive windows with indices, channels-first (the gen template's f32
 * instantiation, gen_cfa.h: short rows whose taps are permutes of one or two
 * vectors, two rows at a time when they fit, gathered taps on wider rows):
 * uneven and overlapping windows (more outputs than inputs), divisible ones,
 * row widths around every vector width (1 to 40, and wider: gathers),
 * output widths up to 2 vectors of lanes, ranks 1 to 3, both index types,
 * every option and value kind, threads; then directed: a NaN (and a second
 * one) at every position of small planes on the -inf / -FLT_MAX / tie
 * backgrounds under both NaN rules and both starts. */
static void adaptive_idx(ts_rng *r, int quick)
{
    const int n = quick ? 300 : 1500;
    for (int i = 0; i < n; ++i) {
        maxpool_desc d;
        const int rank = (int)ts_rng_range(r, 1, 3);
        maxpool_desc_init(&d, rank);
        d.window = MAXPOOL_WINDOW_ADAPTIVE;
        int64_t shape[5] = {ts_rng_range(r, 1, 2), ts_rng_range(r, 1, 6), 1, 1, 1};
        for (int a = 0; a < rank; ++a) {
            const int last = a == rank - 1;
            int64_t in = last ? ts_rng_range(r, 1, 40) : ts_rng_range(r, 1, 9);
            if (last && ts_rng_chance(r, 1, 8))
                in = ts_rng_range(r, 41, 140);
            shape[2 + a] = in;
            int64_t o = ts_rng_range(r, 1, last ? 17 : 5);
            if (last && ts_rng_chance(r, 1, 4))
                o = ts_rng_range(r, 1, 33);
            if (last && in > 32 && ts_rng_chance(r, 1, 2))
                o = ts_rng_range(r, in / 16 + 1, 32);
            d.output_size[a] = o;
        }
        random_options(&d, r);
        d.index_order = MAXPOOL_INDEX_ROW_MAJOR;
        d.index_type = ts_rng_chance(r, 1, 2) ? MAXPOOL_INDEX_I64 : MAXPOOL_INDEX_I32;
        char what[400];
        describe(what, sizeof what, &d, shape);
        check_case(&d, shape, r, (int)ts_rng_range(r, 0, V_KINDS - 1), ts_rng_chance(r, 1, 4), what);
    }
    const adaptive_shape ds[] = {
        {2, {1, 2, 5, 15}, {2, 4}},     /* uneven, two rows per vector (avx512) */
        {2, {1, 2, 4, 13}, {2, 6}},     /* regular grid K3 S2 */
        {2, {1, 1, 3, 17}, {2, 5}},     /* two vectors per line (avx512) */
        {2, {2, 1, 3, 7}, {2, 3}},      /* two rows per vector (avx2) */
        {2, {1, 2, 3, 8}, {2, 6}},      /* one vector, one row (avx2) */
        {2, {1, 1, 3, 6}, {2, 9}},      /* more outputs than inputs */
        {1, {1, 3, 40}, {12}},          /* gathered */
        {1, {2, 1, 70}, {19}},          /* gathered, two blocks (avx512) */
        {3, {1, 2, 2, 3, 14}, {1, 2, 5}}, /* 3-D */
    };
    adaptive_sweeps(ds, sizeof ds / sizeof ds[0], r, quick ? 3 : 1, 0);
    /* windows of 2x2 on a stride-2 grid (in = 2*out: gen_fr.h's fri_rows, rows of at most one vector):
     * the 14x14 -> 7x7 head (its last plane's loads masked), rows of a whole avx2 vector, of 13 (avx512
     * only), of one output, and rows the thread ranges cut */
    const adaptive_shape ds2[] = {
        {2, {1, 3, 14, 14}, {7, 7}}, {2, {2, 2, 4, 16}, {2, 8}}, {2, {1, 2, 6, 26}, {3, 13}},
        {2, {1, 2, 2, 2}, {1, 1}},   {2, {1, 1, 4, 2}, {2, 1}},  {2, {3, 1, 2, 10}, {1, 5}},
    };
    adaptive_sweeps(ds2, sizeof ds2 / sizeof ds2[0], r, quick ? 5 : 1, 0);
    /* global windows with indices (gen_glob.h's one-pass form): planes shorter
     * than a vector, of whole vectors, with an overlapping last load, more
     * than 16 loads; group tails, several images; the NaNs every 53 elements
     * (a prime: every lane and load of the planes in turn) */
    struct {
        int rank;
        int64_t shape[5];
    } gs[] = {
        {2, {1, 19, 7, 7}}, {2, {2, 13, 4, 4}}, {1, {1, 37, 3}}, {1, {2, 5, 20}},
        {1, {1, 9, 16}},    {3, {1, 3, 2, 3, 7}}, {1, {1, 3, 300}}, {1, {3, 7, 1}},
    };
    for (size_t ci = 0; ci < sizeof gs / sizeof gs[0]; ++ci) {
        maxpool_desc d;
        maxpool_desc_init(&d, gs[ci].rank);
        d.window = MAXPOOL_WINDOW_ADAPTIVE;
        for (int a = 0; a < gs[ci].rank; ++a)
            d.output_size[a] = 1;
        for (int kind = 0; kind < V_KINDS; ++kind)
            for (int rep = 0; rep < (quick ? 2 : 6); ++rep) {
                random_options(&d, r);
                d.index_order = MAXPOOL_INDEX_ROW_MAJOR;
                d.index_type = rep & 1 ? MAXPOOL_INDEX_I64 : MAXPOOL_INDEX_I32;
                char what[400];
                describe(what, sizeof what, &d, gs[ci].shape);
                check_case(&d, gs[ci].shape, r, kind, rep == 0, what);
            }
        g_period = 53;
        nan_sweep(&d, gs[ci].shape, r, quick ? 3 : 1, 1);
    }
    g_nan1 = g_nan2 = -1;
    g_period = 1;
}

/* Adaptive windows with indices over many small planes (the gen template's
 * planes-across-lanes form, gen_cft.h: groups of 8 / 16 whole planes, the
 * planes left over and the rows a task range cuts by the other forms):
 * ranks 1-3, planes of 1 to ~600 elements (around the form's limits of
 * 1016 / 496 elements and 248 / 112 outputs), outputs fewer and more than
 * the inputs, 1 to 120 planes (groups and remainders), every value kind,
 * option set, index width, 1-3 threads; then a NaN (and a second one) at
 * every offset modulo 53 on four backgrounds, both NaN rules and starts,
 * and at every in-plane position of uneven planes (quads ordered by their
 * tap count, groups whose loads pass the tensor's end). */
static void adaptive_planes(ts_rng *r, int quick)
{
    const int n = quick ? 150 : 900;
    for (int i = 0; i < n; ++i) {
        maxpool_desc d;
        const int rank = (int)ts_rng_range(r, 1, 3);
        maxpool_desc_init(&d, rank);
        d.window = MAXPOOL_WINDOW_ADAPTIVE;
        int64_t shape[5] = {ts_rng_range(r, 1, 3), ts_rng_range(r, 1, 40), 1, 1, 1};
        for (int a = 0; a < rank; ++a) {
            const int64_t in = rank == 1 ? ts_rng_range(r, 1, 600) : rank == 2 ? ts_rng_range(r, 1, 26)
                                                                               : ts_rng_range(r, 1, 9);
            shape[2 + a] = in;
            d.output_size[a] = ts_rng_chance(r, 1, 6) ? ts_rng_range(r, in, in + 4) : ts_rng_range(r, 1, in);
        }
        random_options(&d, r);
        d.index_order = MAXPOOL_INDEX_ROW_MAJOR;
        d.index_type = ts_rng_chance(r, 1, 2) ? MAXPOOL_INDEX_I64 : MAXPOOL_INDEX_I32;
        char what[400];
        describe(what, sizeof what, &d, shape);
        check_case(&d, shape, r, (int)ts_rng_range(r, 0, V_KINDS - 1), ts_rng_chance(r, 1, 3), what);
    }
    const adaptive_shape ds[] = {
        {2, {1, 20, 15, 15}, {4, 4}},   /* uneven: windows of 4 and 5 taps */
        {2, {2, 9, 13, 13}, {6, 6}},    /* windows of 3, overlapping */
        {1, {1, 19, 100}, {12}},        /* 1-D: 8 and 9 taps */
        {3, {1, 17, 3, 5, 7}, {2, 2, 3}}, /* 3-D */
        {2, {1, 33, 7, 9}, {9, 11}},    /* more outputs than inputs */
        {3, {1, 16, 10, 10, 10}, {6, 6, 6}}, /* a tap table too long for the form (5,832 > 2,048) */
        /* the form's limits: outputs 112 (avx512) and 248 (avx2), whose last block of outputs is
         * transposed by loads past the last output row (rows of the buffer, not stored); planes of
         * 496 (avx512) and 1,016 elements (avx2) */
        {1, {1, 17, 120}, {112}},
        {1, {1, 9, 260}, {248}},
        {2, {1, 17, 16, 31}, {3, 4}},
        {1, {1, 9, 1016}, {5}},
    };
    adaptive_sweeps(ds, sizeof ds / sizeof ds[0], r, quick ? 4 : 1, 53);
    /* a NaN (and a second one) at every in-plane position of every plane
     * (period: the plane), on -inf, -FLT_MAX, mixed and {0, -0, 1} ties */
    const adaptive_shape dp[] = {
        {2, {1, 24, 15, 17}, {4, 5}}, /* windows of 12 to 25 taps: quads ordered by their count; 20 outputs */
        {2, {3, 8, 9, 7}, {5, 3}},    /* 63-element planes: the last group's loads pass the tensor's end */
    };
    for (size_t k = 0; k < sizeof dp / sizeof dp[0]; ++k)
        adaptive_sweeps(dp + k, 1, r, quick ? 3 : 1, dp[k].shape[2] * dp[k].shape[3]);
}

/* Rank-3 adaptive windows with indices on planes too big for the
 * planes-across-lanes buffer (over 1,016 / 496 elements), by D slabs
 * (gen_cft.h: one o0's slices a buffer, o0 after o0; at avx512, planes
 * whose slabs fit only at 8 lanes go to gen_cfa.h): random depths, heights, widths up to 16,
 * outputs fewer and more than the inputs (D windows that overlap and that do
 * not), 1-40 planes (groups, remainders), every option, value kind and index
 * width, threads; then a NaN (and a second one) at every in-plane position
 * (the plane as period; quick: every 7th to 13th) on -inf, -FLT_MAX, mixed and
 * {0, -0, 1} ties, both NaN rules and starts, i32 / i64 indices and index
 * axes: 8x14x14 -> 2x5x5 (the bench head, D 8 -> 2 apart), 7x12x13 -> 3x4x3
 * (D windows of 3 overlapping; slabs at 16 lanes too; the last slab ends
 * with a partial vector: 16 planes, its last group's loads pass the
 * tensor's end, and 17: a plane left over), 6x11x16 -> 4x3x5. */
static void adaptive_slabs(ts_rng *r, int quick)
{
    const int n = quick ? 60 : 400;
    for (int i = 0; i < n; ++i) {
        maxpool_desc d;
        maxpool_desc_init(&d, 3);
        d.window = MAXPOOL_WINDOW_ADAPTIVE;
        int64_t shape[5] = {ts_rng_range(r, 1, 2), ts_rng_range(r, 8, 40), ts_rng_range(r, 2, 12),
                            ts_rng_range(r, 6, 16), ts_rng_range(r, 3, 16)};
        for (int a = 0; a < 3; ++a) {
            const int64_t in = shape[2 + a];
            d.output_size[a] = ts_rng_chance(r, 1, 6) ? ts_rng_range(r, in, in + 3) : ts_rng_range(r, a == 0 ? 2 : 1, in);
        }
        if (d.output_size[2] > 8)
            d.output_size[2] = 8;
        random_options(&d, r);
        d.index_order = MAXPOOL_INDEX_ROW_MAJOR;
        d.index_type = ts_rng_chance(r, 1, 2) ? MAXPOOL_INDEX_I64 : MAXPOOL_INDEX_I32;
        char what[400];
        describe(what, sizeof what, &d, shape);
        check_case(&d, shape, r, (int)ts_rng_range(r, 0, V_KINDS - 1), ts_rng_chance(r, 1, 3), what);
    }
    const adaptive_shape ds[] = {
        {3, {1, 16, 8, 14, 14}, {2, 5, 5}},
        {3, {1, 16, 7, 12, 13}, {3, 4, 3}},
        {3, {1, 17, 7, 12, 13}, {3, 4, 3}},
        {3, {2, 8, 6, 11, 16}, {4, 3, 5}},
    };
    static const int64_t qstep[] = {13, 11, 11, 7}; /* (quick: prime to the plane sizes, every line and column) */
    for (size_t k = 0; k < sizeof ds / sizeof ds[0]; ++k)
        adaptive_sweeps(ds + k, 1, r, quick ? qstep[k] : 1, ds[k].shape[2] * ds[k].shape[3] * ds[k].shape[4]);
}

/* The sections of this program. Each has its own generator, seeded from the
 * seed and its position, so a section checks the same cases whichever part
 * runs it. */
/* 3-D windows of depth stride 1 (the gen template's slices-first form,
 * gen_fl3.h, values only): D kernels 2 to 7 with pads up to k - 1, H and W
 * kernels 1 to 8, W stride 1 or 2, H strides 1 to 3, odd and even depths,
 * heights, widths (narrower and wider than a vector), ceil rounding; D
 * stride 2, dilation and indices beside them (other kernels). Inputs: every
 * value kind, and directed ones: a NaN (and a second one, later or earlier)
 * at every flat offset i % 29 == pos (every slice, line and lane position
 * of a window) on backgrounds of -inf, -FLT_MAX, their mix and ties of
 * {0, -0, 1}, under both NaN rules and both starts. */
static void slices3d_sweep(ts_rng *r, int quick)
{
    static const int64_t widths[] = {1, 3, 7, 8, 15, 16, 17, 31, 33, 56, 65, 130};
    const int n = quick ? 600 : 2500;
    for (int i = 0; i < n; ++i) {
        maxpool_desc d;
        maxpool_desc_init(&d, 3);
        random_options(&d, r);
        if (!ts_rng_chance(r, 1, 8))
            d.index_type = MAXPOOL_INDEX_NONE;
        int64_t shape[5] = {ts_rng_range(r, 1, 2), ts_rng_range(r, 1, 3), ts_rng_range(r, 1, 11),
                            ts_rng_range(r, 1, 12),
                            widths[ts_rng_range(r, 0, (int64_t)(sizeof widths / sizeof widths[0]) - 1)]};
        for (int a = 0; a < 3; ++a) {
            const int64_t k = a == 0 ? ts_rng_range(r, ts_rng_chance(r, 1, 12) ? 1 : 2, 7)
                                     : ts_rng_range(r, 1, ts_rng_chance(r, 1, 3) ? 8 : 3);
            d.kernel[a] = k;
            d.stride[a] = a == 0 ? (ts_rng_chance(r, 1, 12) ? 2 : 1)
                          : a == 1 ? (ts_rng_chance(r, 1, 5) ? ts_rng_range(r, 2, 3) : 1)
                                   : (ts_rng_chance(r, 1, 3) ? 2 : 1);
            d.dilation[a] = a > 0 && ts_rng_chance(r, 1, 12) ? 2 : 1;
            d.pad_begin[a] = ts_rng_chance(r, 1, 2) ? k / 2 : ts_rng_range(r, 0, k - 1);
            d.pad_end[a] = ts_rng_chance(r, 1, 2) ? d.pad_begin[a] : ts_rng_range(r, 0, k - 1);
        }
        d.rounding = ts_rng_chance(r, 1, 4) ? MAXPOOL_ROUND_CEIL : MAXPOOL_ROUND_FLOOR;
        int kind = (int)ts_rng_range(r, 0, V_KINDS - 1);
        if (ts_rng_chance(r, 1, 2)) {
            kind = V_DIRECTED;
            g_bg = (int)ts_rng_range(r, 0, 3);
            g_period = 29;
            g_nan1 = ts_rng_range(r, -1, g_period - 1);
            g_nan2 = g_nan1 >= 0 && ts_rng_chance(r, 1, 2) ? ts_rng_range(r, 0, g_period - 1) : -1;
        }
        char what[400];
        describe(what, sizeof what, &d, shape);
        check_case(&d, shape, r, kind, i % 16 == 0, what);
    }
    g_nan1 = g_nan2 = -1;
    g_period = 1;
}

static void sec_fe_directed(ts_rng *r, int quick) { fe_directed(r, quick); }
static void sec_fe_directed3(ts_rng *r, int quick) { fe_directed3(r, quick); }
static void sec_linesfirst(ts_rng *r, int quick) { linesfirst_cases(r, quick); }
static void sec_fixed(ts_rng *r, int quick) { fixed_cases(r); }
static void sec_k2s2_flat(ts_rng *r, int quick) { k2s2_flat_cases(r, quick); }
static void sec_logstep(ts_rng *r, int quick) { logstep_sweep(r, quick); }
static void sec_vpipe(ts_rng *r, int quick) { vpipe_sweep(r, quick); }
static void sec_cblock(ts_rng *r, int quick) { cblock_sweep(r, quick); }
static void sec_fe_nan_scan(ts_rng *r, int quick) { fe_nan_scan(r, quick); }
static void sec_fe_nan_wide(ts_rng *r, int quick) { fe_nan_wide(r, quick); }
static void sec_sweep_cf(ts_rng *r, int quick) { sweep_2d(r, MAXPOOL_CHANNELS_FIRST, quick); }
static void sec_sweep_cl(ts_rng *r, int quick) { sweep_2d(r, MAXPOOL_CHANNELS_LAST, quick); }
static void sec_small_planes(ts_rng *r, int quick) { small_planes(r, quick); }
static void sec_row_vectors(ts_rng *r, int quick) { row_vectors(r, quick); }
static void sec_slices3d(ts_rng *r, int quick) { slices3d_sweep(r, quick); }
static void sec_adaptive_idx(ts_rng *r, int quick) { adaptive_idx(r, quick); }
static void sec_adaptive_planes(ts_rng *r, int quick) { adaptive_planes(r, quick); }
static void sec_adaptive_slabs(ts_rng *r, int quick) { adaptive_slabs(r, quick); }
static void sec_random(ts_rng *r, int quick)
{
    const int nrand = quick ? 300 : 3000;
    for (int i = 0; i < nrand; ++i)
        random_case(r, i % 3 == 2 ? MAXPOOL_CHANNELS_LAST : MAXPOOL_CHANNELS_FIRST);
}

/* part: which of the two ctest entries (test_kernels_1of2, _2of2) runs the
 * section, so ctest -j2 keeps both cores busy; the split balances the
 * sections' times under ASan (printed per section: 72 s and 80 s in the
 * quick run here). */
static const struct {
    const char *name;
    void (*fn)(ts_rng *, int);
    int part;
} g_sections[] = {
    {"fe_directed", sec_fe_directed, 1}, {"fe_directed3", sec_fe_directed3, 1}, {"linesfirst", sec_linesfirst, 1},
    {"fixed", sec_fixed, 2},             {"logstep", sec_logstep, 1},           {"vpipe", sec_vpipe, 2},
    {"cblock", sec_cblock, 1},           {"sweep_cf", sec_sweep_cf, 1},         {"sweep_cl", sec_sweep_cl, 1},
    {"random", sec_random, 1},           {"k2s2_flat", sec_k2s2_flat, 2},       {"small_planes", sec_small_planes, 2},
    {"slices3d", sec_slices3d, 2},       {"adaptive_idx", sec_adaptive_idx, 1},
    {"row_vectors", sec_row_vectors, 2}, {"fe_nan_scan", sec_fe_nan_scan, 2},
    {"adaptive_planes", sec_adaptive_planes, 2}, {"adaptive_slabs", sec_adaptive_slabs, 1}, {"fe_nan_wide", sec_fe_nan_wide, 1},
    {"gen_stream", gen_stream, 2},
};

/* test_kernels [K/2]: every section, or those of part K */
int main(int argc, char **argv)
{
    const int part = argc < 2 ? 0 : strcmp(argv[1], "1/2") == 0 ? 1 : strcmp(argv[1], "2/2") == 0 ? 2 : -1;
    if (part < 0) {
        fprintf(stderr, "usage: %s [1/2 | 2/2]\n", argv[0]);
        return 2;
    }
    ts_parallel_always();
    const char *q = getenv("MAXPOOL_TEST_QUICK");
    const int quick = q && *q && strcmp(q, "0") != 0;
    const uint64_t seed = ts_seed_from_env(0x6b65726e656c73ULL);
    g_nisas = ts_isa_ceilings(g_isas);
    const char *env = getenv("MAXPOOL_ISA");
    if (env && *env) /* a lowered ceiling changes what the plans choose: test the paths it leaves */
        printf("note: MAXPOOL_ISA=%s is set\n", env);

    for (size_t k = 0; k < sizeof g_sections / sizeof g_sections[0]; ++k) {
        if (part && g_sections[k].part != part)
            continue;
        ts_rng r;
        ts_rng_seed(&r, seed + 0x9e3779b97f4a7c15ULL * (uint64_t)(k + 1));
        const long c0 = g_cases;
        const double t = ts_now_s();
        g_sections[k].fn(&r, quick);
        printf("section %-12s %7ld cases %7.2f s\n", g_sections[k].name, g_cases - c0, ts_now_s() - t);
    }
    printf("%ld cases, %ld kernel runs\n", g_cases, g_runs);
    return ts_finish();
}
