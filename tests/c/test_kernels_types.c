/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The kernels of every element type but f32 (f64, f16, bf16, i8, u8, i16,
 * u16, i32, i64) against the scalar reference, bit for bit.
 *
 * For every case the plan is created at each ISA ceiling this CPU has; the
 * kernel it chose is checked against the name this test expects (the
 * type-generic kernels <type>_<nchw|nhwc>_gen_<isa> at avx2 and avx512 for
 * bounded rank 1..3 plans with row-major or no indices, the reference
 * otherwise), and its values and indices are compared bit for bit with
 * maxpool_reference_kernel on the same plan. Inputs per type: small values
 * (ties), the extremes (lowest, highest; +-inf, -0 and +0 for the floats)
 * and, for the floats, NaN of both signs, quiet and signalling, with
 * payloads, alone and in runs across vector boundaries; inputs made of
 * the start values only (-inf and the lowest value), where a tap that
 * equals the start value must not count as a winner. Every NaN policy,
 * start value and rule, empty-window index, index type and index axis;
 * widths up to 300 (four-vector blocks of 64 u8 lanes), channels up to 300,
 * strides 1..3, dilations 1..2, pads up to past the kernel (empty windows),
 * ceil rounding, adaptive windows (even and uneven), ranks 1..3, both
 * layouts, windows of more taps than a u8 lane numbers; for the floats a
 * directed sweep puts a NaN in every lane position (nan_positions); global
 * windows (global_windows: planes of 1 to 300 elements, up to 133 planes,
 * NaN / +inf / highest at every plane position on -inf / lowest or ±0
 * backgrounds); f64 and i64 with indices on every form that numbers taps
 * in 64-bit lanes (wide_lanes); f16, bf16 and i32 with indices on the
 * per-tap form, whose lanes hold window positions (pos_lanes). Thread
 * counts 1, 2
 * and 3 must give identical bits. MAXPOOL_TEST_QUICK=1 shortens the sweep;
 * MAXPOOL_TEST_SPARSE=N checks one case in N (ts_sparse_skip).
 */
#include "maxpool.h"
#include "plan.h"
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static maxpool_isa g_isas[4];
static int g_nisas;
static long g_cases, g_runs;

static const char *const g_tname[MAXPOOL_DTYPE_COUNT] = {"f32", "f64", "f16", "bf16", "i8",
                                                         "u8",  "i16", "u16", "i32",  "i64"};
static const size_t g_tsize[MAXPOOL_DTYPE_COUNT] = {4, 8, 2, 2, 1, 1, 2, 2, 4, 8};

/* One element of type dt as raw bits (little-endian, low bytes used). */
static uint64_t gen_bits(ts_rng *r, maxpool_dtype dt, int kind)
{
    int64_t q = ts_rng_range(r, 0, 99);
    if (kind == 2) /* the start values only: -inf and lowest (floats), lowest (integers), one NaN in 20 */
        q = ts_rng_chance(r, 1, 20) && dt <= MAXPOOL_BF16 ? -1 : ts_rng_chance(r, 1, 2) ? 0 : 6;
    if (q < 0) {
        kind = 1;
        q = 0;
    }
    switch (dt) {
    case MAXPOOL_F64: {
        double v;
        uint64_t b;
        if (kind == 1 && q < 25) { /* NaN: sign, quiet or signalling, payload */
            b = (ts_rng_chance(r, 1, 2) ? 0x8000000000000000ull : 0) | 0x7ff0000000000000ull |
                (ts_rng_chance(r, 3, 4) ? 0x0008000000000000ull : 0) | (uint64_t)ts_rng_range(r, 1, 0x7ffff);
            return b;
        }
        if (q < 10)
            v = q < 3 ? -__builtin_inf() : q < 5 ? __builtin_inf() : q < 8 ? -1.7976931348623157e308 : -0.0;
        else
            v = (double)ts_rng_range(r, -3, 3);
        memcpy(&b, &v, 8);
        return b;
    }
    case MAXPOOL_F16:
    case MAXPOOL_BF16: {
        const int h = dt == MAXPOOL_F16;
        if (kind == 1 && q < 25) {
            const uint16_t sign = ts_rng_chance(r, 1, 2) ? 0x8000 : 0;
            if (h) /* exponent 0x1f; bit 9 quiet */
                return sign | 0x7c00u | (ts_rng_chance(r, 3, 4) ? 0x200u : 0) | (uint16_t)ts_rng_range(r, 1, 0x1ff);
            return sign | 0x7f80u | (ts_rng_chance(r, 3, 4) ? 0x40u : 0) | (uint16_t)ts_rng_range(r, 1, 0x3f);
        }
        if (q < 3)
            return h ? 0xfc00u : 0xff80u; /* -inf */
        if (q < 5)
            return h ? 0x7c00u : 0x7f80u; /* +inf */
        if (q < 8)
            return h ? 0xfbffu : 0xff7fu; /* lowest */
        if (q < 12)
            return 0x8000u; /* -0 */
        if (q < 14)
            return (uint16_t)ts_rng_range(r, 1, 3); /* subnormals */
        const float f = (float)ts_rng_range(r, -3, 3);
        return h ? ts_f32_to_f16(f) : ts_f32_to_bf16(f);
    }
    default: {
        /* integers: ties in a small range, and the extremes */
        const int bits = (int)g_tsize[dt] * 8;
        const int sgn = dt == MAXPOOL_I8 || dt == MAXPOOL_I16 || dt == MAXPOOL_I32 || dt == MAXPOOL_I64;
        const uint64_t mask = bits == 64 ? ~0ull : ((1ull << bits) - 1);
        const uint64_t lo = sgn ? (1ull << (bits - 1)) : 0, hi = sgn ? lo - 1 : mask;
        if (q < 8)
            return lo & mask;
        if (q < 12)
            return hi & mask;
        if (q < 16)
            return (lo + 1) & mask;
        return (uint64_t)ts_rng_range(r, sgn ? -3 : 0, 5) & mask;
    }
    }
}

static void put_bits(void *base, int64_t i, size_t sz, uint64_t b) { memcpy((char *)base + i * (int64_t)sz, &b, sz); }

/* kind 3: the input is these bits (nan_positions) */
static uint64_t g_fill[1 << 17];
static int64_t g_fill_n;
/* every case at the last ceiling with 2 and 3 threads too (else one in 4) */
static int g_all_threads;
/* 2 and 3 threads at the avx2 ceiling too, not only the last (gen_vf.h stores whole vectors past a row there) */
static int g_threads_every_isa;
/* >= 0: the plans' start value bits (16-bit floats; not in the API), set after creation */
static int g_init_bits = -1;
/* >= 0: the outputs' offset in bytes from 64-byte alignment (else 0 and 16 alternating) */
static int g_yoff = -1;

static const char *expected_kernel(const maxpool_desc *d, const struct maxpool_plan *p, maxpool_isa isa)
{
    static char name[64];
    isa = maxpool_effective_isa(isa);
    const int gen = (isa == MAXPOOL_ISA_AVX2 || isa == MAXPOOL_ISA_AVX512) && p->bounded && p->n * p->c > 0 &&
                    d->spatial_rank <= 3 &&
                    (d->index_type == MAXPOOL_INDEX_NONE || d->index_order == MAXPOOL_INDEX_ROW_MAJOR);
    if (gen)
        snprintf(name, sizeof name, "%s_%s_gen_%s", g_tname[d->dtype],
                 d->layout == MAXPOOL_CHANNELS_LAST ? "nhwc" : "nchw", maxpool_isa_name(isa));
    else
        snprintf(name, sizeof name, "ref_%s", g_tname[d->dtype]);
    return name;
}

/* Runs desc on shape at every ISA ceiling (and 2, 3 threads at the last);
 * returns 0 when the plan is rejected. kind 1: NaN in the input. */
static int check_case(const maxpool_desc *desc0, const int64_t *shape, ts_rng *r, int kind, const char *what)
{
    if (ts_sparse_skip(desc0->spatial_rank, shape)) /* MAXPOOL_TEST_SPARSE (the stage under emulation) */
        return 0;
    maxpool_desc d = *desc0;
    maxpool_plan *p0 = NULL;
    d.max_isa = MAXPOOL_ISA_SCALAR;
    d.num_threads = 1;
    if (maxpool_plan_create(&d, shape, &p0, NULL) != MAXPOOL_OK)
        return 0;
    if (g_init_bits >= 0)
        ((struct maxpool_plan *)p0)->init.u16bits = (uint16_t)g_init_bits;
    ++g_cases;
    const size_t es = g_tsize[d.dtype];
    const int64_t ni = maxpool_plan_input_elements(p0), no = maxpool_plan_output_elements(p0);
    const size_t isz = d.index_type == MAXPOOL_INDEX_I64 ? 8 : 4;
    const size_t nib = (size_t)(ni ? ni : 1), nob = (size_t)(no ? no : 1);
    /* the input at the end of a buffer of exactly its size: a read past it is seen by ASan; the outputs
     * under test 64-byte aligned or 16 bytes past that (streaming stores need the first), alternating */
    const size_t yoff = g_yoff >= 0 ? (size_t)g_yoff : g_cases % 2 ? 16 : 0, ybytes = (nob * es + yoff + 63) / 64 * 64;
    char *ybuf = aligned_alloc(64, ybytes), *y1buf = aligned_alloc(64, ybytes);
    void *x = malloc(nib * es), *yr = malloc(nob * es), *y = ybuf + yoff, *y1 = y1buf + yoff;
    void *ir = malloc(nob * isz), *ix = malloc(nob * isz), *i1 = malloc(nob * isz);
    for (int64_t i = 0; i < ni; ++i)
        put_bits(x, i, es, kind == 3 && i < g_fill_n ? g_fill[i] : gen_bits(r, d.dtype, kind));
    if (kind == 1 && ni > 0 && ts_rng_chance(r, 1, 3) && d.dtype <= MAXPOOL_BF16) { /* a run of NaN */
        const int64_t a = ts_rng_range(r, 0, ni - 1), len = ts_rng_range(r, 1, 70);
        for (int64_t i = a; i < ni && i < a + len; ++i)
            put_bits(x, i, es,
                     d.dtype == MAXPOOL_F64 ? 0x7ff8000000000000ull | (uint64_t)i
                     : d.dtype == MAXPOOL_F16 ? 0x7e00u | (uint64_t)(i & 0x1ff)
                                              : 0x7fc0u | (uint64_t)(i & 0x3f));
    }
    memset(yr, 0x5a, nob * es);
    memset(ir, 0x5a, nob * isz);
    struct maxpool_plan *pp = (struct maxpool_plan *)p0;
    maxpool_reference_kernel(pp, x, yr, d.index_type == MAXPOOL_INDEX_NONE ? NULL : ir, 0,
                             maxpool_reference_tasks(pp));
    maxpool_plan_destroy(p0);
    for (int k = 0; k < g_nisas; ++k) {
        maxpool_plan *p = NULL;
        d.max_isa = g_isas[k];
        d.num_threads = 1;
        if (maxpool_plan_create(&d, shape, &p, NULL) != MAXPOOL_OK) {
            CHECK_MSG(0, "%s: plan rejected at isa %s", what, maxpool_isa_name(g_isas[k]));
            continue;
        }
        if (g_init_bits >= 0)
            ((struct maxpool_plan *)p)->init.u16bits = (uint16_t)g_init_bits;
        ts_set_context("%s isa=%s kernel=%s kind=%d", what, maxpool_isa_name(g_isas[k]),
                       maxpool_plan_kernel_name(p), kind);
        CHECK_STR_EQ(maxpool_plan_kernel_name(p), expected_kernel(&d, (const struct maxpool_plan *)p, g_isas[k]));
        /* a plan on the reference kernel that made yr (the scalar ceiling;
         * SSE2 and NEON for these types): a big case only repeats it, so
         * only small cases run it; the thread runs then compare with yr */
        const int repeat = ts_is_reference_run(maxpool_plan_kernel_name(p), ni, no);
        const void *y_one = repeat ? yr : y, *i_one = repeat ? ir : ix;
        if (!repeat) {
            memset(y, 0xa5, nob * es);
            memset(ix, 0xa5, nob * isz);
            CHECK_STATUS(maxpool_run(p, x, y, ix), MAXPOOL_OK);
            ++g_runs;
            CHECK_BITS_EQ(y, yr, no, es, "values");
            if (d.index_type != MAXPOOL_INDEX_NONE)
                CHECK_BITS_EQ(ix, ir, no, isz, "indices");
        }
        maxpool_plan_destroy(p);
        if ((k == g_nisas - 1 || (g_threads_every_isa && g_isas[k] == MAXPOOL_ISA_AVX2)) && (g_all_threads || ts_rng_chance(r, 1, 4))) {
            for (int nt = 2; nt <= 3; ++nt) {
                d.num_threads = nt;
                if (maxpool_plan_create(&d, shape, &p, NULL) != MAXPOOL_OK)
                    continue;
                if (g_init_bits >= 0)
                    ((struct maxpool_plan *)p)->init.u16bits = (uint16_t)g_init_bits;
                memset(y1, 0x33, nob * es);
                memset(i1, 0x33, nob * isz);
                CHECK_STATUS(maxpool_run(p, x, y1, i1), MAXPOOL_OK);
                ++g_runs;
                CHECK_BITS_EQ(y1, y_one, no, es, "values, threads");
                if (d.index_type != MAXPOOL_INDEX_NONE)
                    CHECK_BITS_EQ(i1, i_one, no, isz, "indices, threads");
                maxpool_plan_destroy(p);
            }
        }
    }
    ts_set_context("%s", "");
    free(x);
    free(yr);
    free(ybuf);
    free(y1buf);
    free(ir);
    free(ix);
    free(i1);
    return 1;
}

/* Random options of the semantics (NaN rule, start, empty index, indices). */
static void random_semantics(ts_rng *r, maxpool_desc *d)
{
    d->nan_policy = ts_rng_chance(r, 1, 2) ? MAXPOOL_NAN_PROPAGATE : MAXPOOL_NAN_IGNORE;
    d->empty_value = ts_rng_chance(r, 1, 2) ? MAXPOOL_EMPTY_NEG_INF : MAXPOOL_EMPTY_LOWEST;
    d->empty_index = (maxpool_empty_index)ts_rng_range(r, 0, 2);
    d->window_init = ts_rng_chance(r, 1, 3) ? MAXPOOL_INIT_FIRST_ELEMENT : MAXPOOL_INIT_EMPTY_VALUE;
    const int64_t it = ts_rng_range(r, 0, 2);
    d->index_type = it == 0 ? MAXPOOL_INDEX_NONE : it == 1 ? MAXPOOL_INDEX_I32 : MAXPOOL_INDEX_I64;
    d->index_axis = (int)ts_rng_range(r, 0, 2);
    d->index_order = ts_rng_chance(r, 1, 10) ? MAXPOOL_INDEX_COL_MAJOR : MAXPOOL_INDEX_ROW_MAJOR;
}

static void random_case(ts_rng *r, maxpool_dtype dt, long i)
{
    maxpool_desc d;
    const int rank = (int)ts_rng_range(r, 1, 3) + (ts_rng_chance(r, 1, 40) ? 1 : 0); /* rank 4: the reference */
    maxpool_desc_init(&d, rank);
    d.dtype = dt;
    d.layout = ts_rng_chance(r, 1, 2) ? MAXPOOL_CHANNELS_LAST : MAXPOOL_CHANNELS_FIRST;
    random_semantics(r, &d);
    int64_t shape[2 + MAXPOOL_MAX_SPATIAL];
    /* long rows or many channels: the 4-vector blocks (not rank 4, the
     * reference's alone: its axes up to 5, the last up to 16, so that no case
     * holds tens of millions of elements: one of 42 M took 110 s under qemu) */
    const int wide = rank < 4 && ts_rng_chance(r, 1, 6);
    shape[0] = ts_rng_range(r, 1, 2);
    shape[1] = wide && d.layout == MAXPOOL_CHANNELS_LAST ? ts_rng_range(r, 60, 300) : ts_rng_range(r, 1, 20);
    const int adaptive = ts_rng_chance(r, 1, 4);
    d.window = adaptive ? MAXPOOL_WINDOW_ADAPTIVE : MAXPOOL_WINDOW_FIXED;
    for (int a = 0; a < rank; ++a) {
        const int last = a == rank - 1;
        int64_t in = ts_rng_range(r, 1, rank == 4 ? 5 : rank == 3 ? 9 : 14);
        if (last)
            in = wide && d.layout == MAXPOOL_CHANNELS_FIRST ? ts_rng_range(r, 100, 300)
                                                             : ts_rng_range(r, 1, rank == 4 ? 16 : 70);
        shape[2 + (d.layout == MAXPOOL_CHANNELS_LAST ? a : a)] = in;
        if (adaptive) {
            d.output_size[a] = ts_rng_chance(r, 1, 2) && in > 1 ? in / ts_rng_range(r, 1, 3) : ts_rng_range(r, 1, in + 2);
            if (d.output_size[a] < 1)
                d.output_size[a] = 1;
        } else {
            d.kernel[a] = ts_rng_range(r, 1, 4);
            d.stride[a] = ts_rng_chance(r, 2, 3) ? ts_rng_range(r, 1, 2) : ts_rng_range(r, 1, 4);
            d.dilation[a] = ts_rng_chance(r, 3, 4) ? 1 : 2;
            const int64_t pmax = ts_rng_chance(r, 1, 8) ? d.kernel[a] * d.dilation[a] + 2 : d.kernel[a] / 2;
            d.pad_begin[a] = ts_rng_range(r, 0, pmax);
            d.pad_end[a] = ts_rng_range(r, 0, pmax);
            d.rounding = ts_rng_chance(r, 1, 3) ? MAXPOOL_ROUND_CEIL : MAXPOOL_ROUND_FLOOR;
        }
    }
    if (d.layout == MAXPOOL_CHANNELS_LAST) { /* memory order N, spatial..., C */
        const int64_t c = shape[1];
        for (int a = 0; a < rank; ++a)
            shape[1 + a] = shape[2 + a];
        shape[1 + rank] = c;
    }
    char what[512];
    int w = snprintf(what, sizeof what, "random %s #%ld rank %d %s %s nan=%d init=%d idx=%d shape", g_tname[dt], i,
                     rank, d.layout == MAXPOOL_CHANNELS_LAST ? "NHWC" : "NCHW", adaptive ? "adaptive" : "fixed",
                     (int)d.nan_policy, (int)d.window_init, (int)d.index_type);
    for (int a = 0; a < rank + 2; ++a)
        w += snprintf(what + w, sizeof what - (size_t)w, " %lld", (long long)shape[a]);
    for (int a = 0; a < rank; ++a) /* the geometry, so that a failure can be replayed */
        w += snprintf(what + w, sizeof what - (size_t)w, " | k%lld s%lld d%lld p%lld/%lld o%lld", (long long)d.kernel[a],
                      (long long)d.stride[a], (long long)d.dilation[a], (long long)d.pad_begin[a],
                      (long long)d.pad_end[a], (long long)d.output_size[a]);
    const int kind = ts_rng_chance(r, 1, 5) ? 2 : (dt <= MAXPOOL_BF16 && ts_rng_chance(r, 1, 2)) ? 1 : 0;
    check_case(&d, shape, r, kind, what);
}

/* Windows of more taps than a u8 lane numbers (256 and more), with indices. */
static void big_windows(ts_rng *r, maxpool_dtype dt)
{
    for (int lay = 0; lay < 2; ++lay)
        for (int it = 1; it <= 2; ++it) {
            maxpool_desc d;
            maxpool_desc_init(&d, 2);
            d.dtype = dt;
            d.layout = lay ? MAXPOOL_CHANNELS_LAST : MAXPOOL_CHANNELS_FIRST;
            d.index_type = it == 1 ? MAXPOOL_INDEX_I32 : MAXPOOL_INDEX_I64;
            d.kernel[0] = 17;
            d.kernel[1] = 16;
            int64_t shape[4] = {1, 3, 20, 80};
            if (lay) {
                shape[1] = 20;
                shape[2] = 80;
                shape[3] = 3;
            }
            check_case(&d, shape, r, 0, "big windows");
            d.nan_policy = MAXPOOL_NAN_PROPAGATE;
            check_case(&d, shape, r, dt <= MAXPOOL_BF16, "big windows, NaN");
        }
}

/* The stem shapes of the benchmark, small: k3 s2 p1 and k2 s2 on both layouts. */
static void stems(ts_rng *r, maxpool_dtype dt)
{
    for (int lay = 0; lay < 2; ++lay)
        for (int k = 2; k <= 3; ++k)
            for (int it = 0; it <= 2; ++it) {
                maxpool_desc d;
                maxpool_desc_init(&d, 2);
                d.dtype = dt;
                d.layout = lay ? MAXPOOL_CHANNELS_LAST : MAXPOOL_CHANNELS_FIRST;
                d.index_type = (maxpool_index_type)it;
                d.kernel[0] = d.kernel[1] = k;
                d.stride[0] = d.stride[1] = 2;
                d.pad_begin[0] = d.pad_begin[1] = d.pad_end[0] = d.pad_end[1] = k == 3;
                int64_t shape[4] = {1, 8, 37, 263};
                if (lay) {
                    shape[1] = 37;
                    shape[2] = 41;
                    shape[3] = 72;
                }
                check_case(&d, shape, r, dt <= MAXPOOL_BF16, "stem");
            }
}

/* The per-tap form with indices in 32-bit lanes (f16, bf16, i32), whose
 * lanes hold window positions rather than tap numbers: W dilation 1 and 2
 * with a pad of up to two dilations (under the first-element start a
 * border lane's first tap is then tap 1 or 2 of its line, position d or
 * 2d), H dilation 1 and 2, W stride 1 and 2; the first and last rows of
 * the tensor take the copied border blocks, the others the masked ones;
 * both index types and NaN rules, both starts, every empty-window index. */
static void pos_lanes(ts_rng *r, maxpool_dtype dt, int quick)
{
    for (int s = 1; s <= 2; ++s)
        for (int dl = 1; dl <= 2; ++dl)
            for (int it = 1; it <= 2; ++it)
                for (int v = 0; v < (quick ? 4 : 8); ++v) {
                    maxpool_desc d;
                    maxpool_desc_init(&d, 2);
                    d.dtype = dt;
                    d.layout = MAXPOOL_CHANNELS_FIRST;
                    d.index_type = it == 1 ? MAXPOOL_INDEX_I32 : MAXPOOL_INDEX_I64;
                    d.nan_policy = v & 1 ? MAXPOOL_NAN_PROPAGATE : MAXPOOL_NAN_IGNORE;
                    d.window_init = v & 2 ? MAXPOOL_INIT_EMPTY_VALUE : MAXPOOL_INIT_FIRST_ELEMENT;
                    d.empty_index = (maxpool_empty_index)ts_rng_range(r, 0, 2);
                    d.empty_value = ts_rng_chance(r, 1, 2) ? MAXPOOL_EMPTY_NEG_INF : MAXPOOL_EMPTY_LOWEST;
                    d.kernel[0] = 2 + (v >> 2);
                    d.kernel[1] = 3;
                    d.stride[0] = 2;
                    d.stride[1] = s;
                    d.dilation[0] = 3 - dl;
                    d.dilation[1] = dl;
                    d.pad_begin[0] = d.pad_end[0] = 1;
                    d.pad_begin[1] = ts_rng_range(r, dl, 2 * dl);
                    d.pad_end[1] = ts_rng_range(r, 0, 2 * dl);
                    int64_t shape[4] = {1, 2, 7, ts_rng_range(r, 40, 75)};
                    const int kind = ts_rng_chance(r, 1, 4) ? 2 : dt <= MAXPOOL_BF16 && ts_rng_chance(r, 1, 2);
                    check_case(&d, shape, r, kind, "position lanes");
                }
}

/* NaN in every lane position: planes of a few rows by up to two 64-lane
 * vectors of columns (and channels), a NaN at every flat offset i with
 * i % period == pos for each pos (and a second, later one), on backgrounds
 * of -inf, the lowest value and ties of {-0, +0}, under both NaN rules and
 * both starts, with and without indices, stride 1 and 2 with a pad (border
 * blocks), W stride 2 lines that end without padding (the de-interleaved
 * whole-line W pass) and an uneven adaptive row (lines first). */
static void nan_positions(ts_rng *r, maxpool_dtype dt, int quick)
{
    const uint64_t nan1 = dt == MAXPOOL_F64 ? 0x7ff0000000000123ull : dt == MAXPOOL_F16 ? 0x7d23u : 0x7f93u;
    const uint64_t nan2 = dt == MAXPOOL_F64 ? 0xfff8000000000456ull : dt == MAXPOOL_F16 ? 0xfe56u : 0xffd6u;
    const uint64_t bgs[3][2] = {{dt == MAXPOOL_F64 ? 0xfff0000000000000ull : dt == MAXPOOL_F16 ? 0xfc00u : 0xff80u,
                                 dt == MAXPOOL_F64 ? 0xffefffffffffffffull : dt == MAXPOOL_F16 ? 0xfbffu : 0xff7fu},
                                {dt == MAXPOOL_F64 ? 0x8000000000000000ull : 0x8000u, 0},
                                {dt == MAXPOOL_F64 ? 0xffefffffffffffffull : dt == MAXPOOL_F16 ? 0xfbffu : 0xff7fu,
                                 dt == MAXPOOL_F64 ? 0xffefffffffffffffull : dt == MAXPOOL_F16 ? 0xfbffu : 0xff7fu}};
    const int64_t period = 67; /* prime: every lane of every vector width meets a NaN */
    for (int geo = 0; geo < 7; ++geo) {
        maxpool_desc d;
        maxpool_desc_init(&d, 2);
        d.dtype = dt;
        d.layout = geo == 3 ? MAXPOOL_CHANNELS_LAST : MAXPOOL_CHANNELS_FIRST;
        /* geo 5, 6: W stride 2, 3 taps, nothing outside the line at its end
         * (130 with pads 1, 131 without): every vector of a line de-interleaved
         * (f16, bf16: gen_fl.h fl_wdline) */
        int64_t shape[4] = {1, 2, 4, geo == 5 ? 130 : 131};
        if (geo == 2) {
            d.window = MAXPOOL_WINDOW_ADAPTIVE;
            d.output_size[0] = 3;
            d.output_size[1] = 23;
        } else {
            d.kernel[0] = 2;
            d.kernel[1] = 3;
            d.stride[0] = 1;
            d.stride[1] = geo == 0 ? 1 : 2;
            d.pad_begin[1] = d.pad_end[1] = geo == 6 ? 0 : 1;
        }
        if (geo == 4) { /* W kernel 5: the W-first form with indices */
            d.kernel[0] = 3;
            d.kernel[1] = 5;
            d.stride[1] = 1;
            d.pad_begin[1] = d.pad_end[1] = 2;
        }
        if (geo == 3) { /* N, H, W, C: 67 channels */
            shape[1] = 4;
            shape[2] = 9;
            shape[3] = 67;
        }
        const int64_t ni = shape[0] * shape[1] * shape[2] * shape[3];
        for (int64_t pos = 0; pos < period; pos += quick ? 5 : 1)
            for (int bg = 0; bg < 3; ++bg) {
                d.nan_policy = (pos + bg) % 2 ? MAXPOOL_NAN_PROPAGATE : MAXPOOL_NAN_IGNORE;
                d.window_init = (pos / 2 + bg) % 2 ? MAXPOOL_INIT_FIRST_ELEMENT : MAXPOOL_INIT_EMPTY_VALUE;
                d.empty_value = bg == 1 ? MAXPOOL_EMPTY_NEG_INF : MAXPOOL_EMPTY_LOWEST;
                d.index_type = geo == 4 ? (maxpool_index_type)(1 + pos % 2) : (maxpool_index_type)((pos + geo) % 3);
                g_fill_n = ni;
                for (int64_t i = 0; i < ni; ++i)
                    g_fill[i] = i % period == pos               ? nan1
                                : i % period == (pos + 29) % period ? nan2
                                                                    : bgs[bg][ts_rng_chance(r, 1, 2)];
                check_case(&d, shape, r, 3, "nan positions");
            }
    }
}

/* The W-first form with indices (gen_fli.h: channels-first, W kernels of 5
 * to 16 taps on the grid, stride 1 or 2, windows of several lines): widths
 * around the vector widths, pads up to past the kernel (empty windows),
 * dilation, ceil rounding, even adaptive windows, every semantics with
 * indices of both types; inputs with NaN (runs), the start values only, or
 * ties of small values and the extremes. */
static void wfirst_indices(ts_rng *r, maxpool_dtype dt, int quick)
{
    static const int64_t widths[] = {5, 9, 17, 31, 33, 63, 64, 65, 97, 130, 200};
    const int n = quick ? 40 : 160;
    for (int i = 0; i < n; ++i) {
        maxpool_desc d;
        const int rank = ts_rng_chance(r, 1, 4) ? 3 : 2;
        maxpool_desc_init(&d, rank);
        d.dtype = dt;
        d.layout = MAXPOOL_CHANNELS_FIRST;
        random_semantics(r, &d);
        d.index_type = ts_rng_chance(r, 1, 2) ? MAXPOOL_INDEX_I32 : MAXPOOL_INDEX_I64;
        d.index_order = MAXPOOL_INDEX_ROW_MAJOR;
        int64_t shape[5] = {ts_rng_range(r, 1, 2), ts_rng_range(r, 1, 3), 1, 1, 1};
        const int64_t w = widths[ts_rng_range(r, 0, (int64_t)(sizeof widths / sizeof widths[0]) - 1)];
        const int adaptive = ts_rng_chance(r, 1, 6);
        d.window = adaptive ? MAXPOOL_WINDOW_ADAPTIVE : MAXPOOL_WINDOW_FIXED;
        for (int a = 0; a < rank; ++a) {
            const int last = a == rank - 1;
            const int64_t k = last ? ts_rng_range(r, 5, ts_rng_chance(r, 1, 4) ? 16 : 7) : ts_rng_range(r, 1, 4);
            int64_t in = last ? w : ts_rng_range(r, 2, rank == 3 ? 5 : 9);
            if (adaptive) {
                if (last) {
                    in = w / k * k > 0 ? w / k * k : k;
                    d.output_size[a] = in / k; /* windows of k taps */
                } else {
                    d.output_size[a] = ts_rng_range(r, 1, in);
                }
            } else {
                d.kernel[a] = k;
                d.stride[a] = ts_rng_range(r, 1, 2);
                d.dilation[a] = ts_rng_chance(r, 1, 4) ? 2 : 1;
                const int64_t pmax = ts_rng_chance(r, 1, 6) ? k * d.dilation[a] + 1 : k / 2;
                d.pad_begin[a] = ts_rng_range(r, 0, pmax);
                d.pad_end[a] = ts_rng_range(r, 0, pmax);
                d.rounding = ts_rng_chance(r, 1, 3) ? MAXPOOL_ROUND_CEIL : MAXPOOL_ROUND_FLOOR;
            }
            shape[2 + a] = in;
        }
        char what[256];
        snprintf(what, sizeof what, "wfirst idx %s #%d rank %d nan=%d init=%d idx=%d empty=%d w=%lld k%lld s%lld d%lld p%lld/%lld",
                 g_tname[dt], i, rank, (int)d.nan_policy, (int)d.window_init, (int)d.index_type, (int)d.empty_index,
                 (long long)shape[1 + rank], (long long)d.kernel[rank - 1], (long long)d.stride[rank - 1],
                 (long long)d.dilation[rank - 1], (long long)d.pad_begin[rank - 1], (long long)d.pad_end[rank - 1]);
        const int kind = ts_rng_chance(r, 1, 4) ? 2 : (dt <= MAXPOOL_BF16 && ts_rng_chance(r, 2, 3)) ? 1 : 0;
        check_case(&d, shape, r, kind, what);
    }
}

/* The lines-first form (channels-first rows off the stride-1/2 grid:
 * adaptive windows, strides >= 3): even windows of power-of-two widths
 * (the vector output, full and partial vectors, the compact levels), of
 * other widths, uneven and overlapping windows (the log-step levels), more
 * outputs than input columns, windows wider than a chunk, rows of many
 * chunks, rows whose tap numbers do not fit a lane (8- and 16-bit lanes),
 * fixed windows with borders; every NaN rule, start and index type, on
 * random values, NaN, start values only, ties of {-0, +0} (or of one
 * integer value) and a NaN (signalling, with a payload) in every lane
 * position of the even windows. */
static void lines_first(ts_rng *r, maxpool_dtype dt, int quick)
{
    static const struct {
        int rank;
        int64_t c, in[3], out[3], k, s, p; /* out: adaptive; else the W window k, s, p (others 1) */
    } G[] = {
        {3, 2, {4, 16, 56}, {2, 2, 7}, 0, 0, 0},    /* the benchmark's shape, small: 4x8x8 windows */
        {1, 3, {600}, {150}, 0, 0, 0},              /* 4 wide, two chunks, full vectors */
        {2, 2, {3, 320}, {1, 40}, 0, 0, 0},         /* 8 wide */
        {2, 3, {13, 13}, {6, 6}, 0, 0, 0},          /* overlapping, 3 wide every 2 (issue 19) */
        {1, 2, {131}, {23}, 0, 0, 0},               /* uneven */
        {2, 2, {5, 100}, {2, 7}, 0, 0, 0},          /* uneven, 15 and 16 wide */
        {1, 2, {5}, {8}, 0, 0, 0},                  /* more outputs than columns */
        {3, 1, {3, 5, 42}, {2, 2, 7}, 0, 0, 0},     /* 6 wide */
        {2, 2, {4, 39}, {3, 13}, 0, 0, 0},          /* 3 wide */
        {1, 1, {51000}, {17000}, 0, 0, 0},          /* 3 wide, many chunks */
        {1, 1, {36000}, {9000}, 0, 0, 0},           /* 4 wide, many chunks */
        {2, 1, {2, 1100}, {1, 2}, 0, 0, 0},         /* wider than a chunk */
        {2, 1, {2, 1100}, {1, 5}, 0, 0, 0},         /* 220 wide */
        {3, 1, {4, 8, 64}, {1, 1, 8}, 0, 0, 0},     /* 32 lines of 8: line << 3 overflows 8-bit lanes */
        {2, 1, {200, 512}, {1, 1}, 0, 0, 0},        /* 200 lines of 512: overflows 16-bit lanes */
        {2, 2, {3, 64}, {0}, 8, 8, 0},              /* fixed windows */
        {2, 2, {3, 70}, {0}, 5, 3, 2},
        {2, 2, {3, 70}, {0}, 4, 4, 1},
        {2, 2, {3, 70}, {0}, 6, 4, 2},
        {1, 2, {67}, {0}, 3, 3, 0},
    };
    const int ng = (int)(sizeof G / sizeof G[0]);
    for (int gi = 0; gi < ng; ++gi)
        for (int sem = 0; sem < 12; sem += quick ? 5 : 1) {
            maxpool_desc d;
            maxpool_desc_init(&d, G[gi].rank);
            d.dtype = dt;
            int64_t shape[5] = {1 + (sem % 5 == 4), G[gi].c, 0, 0, 0}, ni = shape[0] * shape[1];
            for (int a = 0; a < G[gi].rank; ++a) {
                shape[2 + a] = G[gi].in[a];
                ni *= G[gi].in[a];
                if (G[gi].k == 0) {
                    d.output_size[a] = G[gi].out[a];
                } else if (a == G[gi].rank - 1) {
                    d.kernel[a] = G[gi].k;
                    d.stride[a] = G[gi].s;
                    d.pad_begin[a] = d.pad_end[a] = G[gi].p;
                }
            }
            if (G[gi].k == 0)
                d.window = MAXPOOL_WINDOW_ADAPTIVE;
            d.nan_policy = sem % 2 ? MAXPOOL_NAN_PROPAGATE : MAXPOOL_NAN_IGNORE;
            d.window_init = sem / 2 % 2 ? MAXPOOL_INIT_FIRST_ELEMENT : MAXPOOL_INIT_EMPTY_VALUE;
            d.index_type = (maxpool_index_type)(sem / 4 % 3);
            d.empty_value = ts_rng_chance(r, 1, 2) ? MAXPOOL_EMPTY_NEG_INF : MAXPOOL_EMPTY_LOWEST;
            d.empty_index = (maxpool_empty_index)ts_rng_range(r, 0, 2);
            d.index_axis = (int)ts_rng_range(r, 0, 2);
            const int fl = dt <= MAXPOOL_BF16;
            int kind = (sem + gi) % 4; /* random values, NaN (floats), start values only, ties */
            if (kind == 1 && !fl)
                kind = 0;
            if (kind == 3 && ni > (int64_t)(sizeof g_fill / sizeof g_fill[0]))
                kind = 0;
            if (kind == 3) {
                g_fill_n = ni;
                for (int64_t i = 0; i < ni; ++i)
                    g_fill[i] = fl ? (ts_rng_chance(r, 1, 2) ? (dt == MAXPOOL_F64 ? 0x8000000000000000ull : 0x8000u) : 0)
                                   : (uint64_t)ts_rng_chance(r, 1, 50);
            }
            char what[160];
            snprintf(what, sizeof what, "lines first %s #%d nan=%d init=%d idx=%d kind=%d", g_tname[dt], gi,
                     (int)d.nan_policy, (int)d.window_init, (int)d.index_type, kind);
            check_case(&d, shape, r, kind, what);
        }
    if (dt > MAXPOOL_BF16)
        return;
    /* a NaN (and a second one) in every lane position of 8-wide even windows and of uneven ones */
    const uint64_t nan1 = dt == MAXPOOL_F64 ? 0x7ff0000000000123ull : dt == MAXPOOL_F16 ? 0x7d23u : 0x7f93u;
    const uint64_t nan2 = dt == MAXPOOL_F64 ? 0xfff8000000000456ull : dt == MAXPOOL_F16 ? 0xfe56u : 0xffd6u;
    const uint64_t bg[4] = {dt == MAXPOOL_F64 ? 0x8000000000000000ull : 0x8000u, 0,
                            dt == MAXPOOL_F64 ? 0xfff0000000000000ull : dt == MAXPOOL_F16 ? 0xfc00u : 0xff80u,
                            dt == MAXPOOL_F64 ? 0xffefffffffffffffull : dt == MAXPOOL_F16 ? 0xfbffu : 0xff7fu};
    const int64_t period = 67;
    for (int geo = 0; geo < 2; ++geo) {
        maxpool_desc d;
        maxpool_desc_init(&d, 2);
        d.dtype = dt;
        d.window = MAXPOOL_WINDOW_ADAPTIVE;
        d.output_size[0] = 2;
        d.output_size[1] = geo ? 37 : 33;
        int64_t shape[4] = {1, 2, 4, 264};
        const int64_t ni = 2 * 4 * 264;
        for (int64_t pos = 0; pos < period; pos += quick ? 5 : 1) {
            d.nan_policy = pos % 2 ? MAXPOOL_NAN_PROPAGATE : MAXPOOL_NAN_IGNORE;
            d.window_init = pos / 2 % 3 == 2 ? MAXPOOL_INIT_FIRST_ELEMENT : MAXPOOL_INIT_EMPTY_VALUE;
            d.empty_value = pos / 3 % 2 ? MAXPOOL_EMPTY_NEG_INF : MAXPOOL_EMPTY_LOWEST;
            d.index_type = (maxpool_index_type)(pos % 3);
            g_fill_n = ni;
            for (int64_t i = 0; i < ni; ++i)
                g_fill[i] = i % period == pos                 ? nan1
                            : i % period == (pos + 29) % period ? nan2
                                                                : bg[ts_rng_range(r, 0, pos % 4 == 3 ? 3 : 1)];
            check_case(&d, shape, r, 3, "lines first, nan positions");
        }
    }
}

/* Channels-last rows without indices (the W-first form, gen_clw.h, C >= a
 * vector): the stem (k3 s2 p1: the shared line kept, the carry), stride 1
 * (k2 and k3: a kept line that is a window's only computed line), k2 s2,
 * a dilated W, ceil rounding with pads past the kernel (empty windows),
 * adaptive windows, rank 3; channel counts around every vector width (tails,
 * the blocks of 1, 2 and 4 vectors), odd H and W; both NaN rules, both
 * starts, both empty values; inputs with NaN (both signs, quiet and
 * signalling, payloads) at every lane position of a prime period, on
 * backgrounds of -inf / lowest / {-0, +0}, random values, and the start
 * values only. */
static void nhwc_rows(ts_rng *r, maxpool_dtype dt, int quick)
{
    static const int64_t chans[] = {1, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 67, 96, 128, 130, 259};
    const int nch = (int)(sizeof chans / sizeof chans[0]);
    const int isf = dt <= MAXPOOL_BF16;
    const uint64_t nan1 = dt == MAXPOOL_F64 ? 0x7ff0000000000123ull : dt == MAXPOOL_F16 ? 0x7d23u : 0x7f93u;
    const uint64_t nan2 = dt == MAXPOOL_F64 ? 0xfff8000000000456ull : dt == MAXPOOL_F16 ? 0xfe56u : 0xffd6u;
    const uint64_t ninf = dt == MAXPOOL_F64 ? 0xfff0000000000000ull : dt == MAXPOOL_F16 ? 0xfc00u : 0xff80u;
    const uint64_t nzero = dt == MAXPOOL_F64 ? 0x8000000000000000ull : 0x8000u;
    for (int geo = 0; geo < 9; ++geo)
        for (int ci = (int)ts_rng_range(r, 0, 1); ci < nch; ci += quick ? 4 : 2) {
            maxpool_desc d;
            const int rank = geo == 8 ? 3 : 2;
            maxpool_desc_init(&d, rank);
            d.dtype = dt;
            d.layout = MAXPOOL_CHANNELS_LAST;
            int64_t shape[5] = {1 + (ci % 4 == 0), 9 + (geo % 3), 13 + 2 * (geo % 4), chans[ci], 0};
            for (int a = 0; a < 2; ++a) {
                d.kernel[a] = geo == 1 || geo == 3 ? 2 : 3;
                d.stride[a] = geo == 1 || geo == 2 ? 1 : 2;
                d.pad_begin[a] = d.pad_end[a] = geo == 0 || geo == 2 || geo == 4 ? 1 : 0;
            }
            if (geo == 4) { /* a dilated W */
                d.dilation[1] = 2;
                d.pad_begin[1] = 2;
            }
            if (geo == 5) { /* ceil rounding, pads past the kernel: empty windows */
                d.rounding = MAXPOOL_ROUND_CEIL;
                d.kernel[0] = d.kernel[1] = 2;
                d.stride[0] = 3;
                d.pad_begin[0] = d.pad_end[0] = d.pad_begin[1] = 3;
                d.pad_end[1] = 4;
            }
            if (geo == 6 || geo == 7) { /* adaptive: even (k = s) and uneven */
                d.window = MAXPOOL_WINDOW_ADAPTIVE;
                d.output_size[0] = geo == 6 ? 3 : 4;
                d.output_size[1] = geo == 6 ? (shape[2] % 2 ? shape[2] : shape[2] / 2) : 5;
            }
            if (geo == 8) { /* rank 3: N D H W C */
                d.kernel[2] = 3;
                d.stride[2] = 2;
                d.pad_begin[2] = d.pad_end[2] = 1;
                shape[4] = shape[3];
                shape[3] = shape[2];
                shape[2] = shape[1];
                shape[1] = 3;
            }
            const int64_t ni = shape[0] * shape[1] * shape[2] * shape[3] * (rank == 3 ? shape[4] : 1);
            for (int sem = 0; sem < 4; ++sem) {
                d.nan_policy = sem & 1 ? MAXPOOL_NAN_PROPAGATE : MAXPOOL_NAN_IGNORE;
                d.window_init = sem & 2 ? MAXPOOL_INIT_FIRST_ELEMENT : MAXPOOL_INIT_EMPTY_VALUE;
                d.empty_value = (sem + ci) % 3 ? MAXPOOL_EMPTY_LOWEST : MAXPOOL_EMPTY_NEG_INF;
                d.index_type = MAXPOOL_INDEX_NONE;
                char what[160];
                snprintf(what, sizeof what, "nhwc rows %s geo %d C %lld nan=%d init=%d", g_tname[dt], geo,
                         (long long)chans[ci], (int)d.nan_policy, (int)d.window_init);
                /* random values (NaN among them for the floats), then the start values only */
                check_case(&d, shape, r, isf ? 1 : 0, what);
                check_case(&d, shape, r, 2, what);
                if (!isf || ni > (int64_t)(sizeof g_fill / sizeof g_fill[0]))
                    continue;
                /* NaN at every lane position (period 67), on -inf / lowest, or on {-0, +0} */
                const int64_t period = 67, pos = ts_rng_range(r, 0, period - 1);
                g_fill_n = ni;
                for (int64_t i = 0; i < ni; ++i) {
                    const int64_t k = (i + pos) % period;
                    g_fill[i] = k == 0                             ? nan1
                                : k == 29                          ? nan2
                                : (sem + geo) % 2                  ? (ts_rng_chance(r, 1, 2) ? nzero : 0)
                                : ts_rng_chance(r, 1, 2)           ? ninf
                                                                   : gen_bits(r, dt, 2);
                }
                check_case(&d, shape, r, 3, what);
            }
        }
}

/* Global windows (gen_glob.h: every window its whole plane, channels-first):
 * adaptive to 1, a fixed window of the plane's size, one larger with pads
 * (the clipped taps still cover the plane), and windows just short of it
 * (not the form); planes of 1 to 300 elements (around every vector width,
 * odd), ranks 1 to 3, 1 to 133 planes (groups of up to 64 and tails); every
 * semantics, with no, int32 and int64 indices and index axes 0 to 2; random
 * inputs (NaN among them), the start values only, and directed fills: a NaN
 * (and a second, other NaN later), a +inf or a highest value at every
 * plane position on backgrounds of -inf / lowest or of {-0, +0} ties. */
static void global_windows(ts_rng *r, maxpool_dtype dt, int quick)
{
    static const int64_t planes[][3] = {{1, 1, 1},  {1, 1, 2},  {1, 1, 7},   {1, 1, 8},  {1, 1, 15}, {1, 1, 16},
                                        {1, 1, 17}, {1, 1, 31}, {1, 1, 32},  {1, 1, 33}, {1, 1, 63}, {1, 1, 64},
                                        {1, 1, 65}, {1, 1, 97}, {1, 1, 300}, {1, 7, 7},  {1, 3, 5},  {1, 8, 8},
                                        {1, 13, 13}, {1, 9, 11}, {1, 2, 33}, {2, 3, 5}, {4, 4, 4},  {3, 7, 7}};
    static const int64_t chans[] = {1, 3, 17, 64, 70, 133};
    const int isf = dt <= MAXPOOL_BF16;
    const int np = (int)(sizeof planes / sizeof planes[0]);
    for (int pi = 0; pi < np; ++pi)
        for (int wk = 0; wk < 4; ++wk) {
            maxpool_desc d;
            const int rank = planes[pi][0] > 1 ? 3 : planes[pi][1] > 1 ? 2 : (int)ts_rng_range(r, 1, 2);
            maxpool_desc_init(&d, rank);
            d.dtype = dt;
            int64_t shape[5] = {ts_rng_chance(r, 1, 3) ? 2 : 1, chans[ts_rng_range(r, 0, 5)], 1, 1, 1};
            for (int a = 0; a < rank; ++a) {
                const int64_t in = planes[pi][3 - rank + a];
                shape[2 + a] = in;
                if (wk == 0) {
                    d.window = MAXPOOL_WINDOW_ADAPTIVE;
                    d.output_size[a] = 1;
                } else {
                    d.kernel[a] = wk == 3 && a == rank - 1 && in > 1 ? in - 1 : in + (wk == 2 ? 2 : 0);
                    d.stride[a] = ts_rng_range(r, 1, 3);
                    d.dilation[a] = in == 1 && ts_rng_chance(r, 1, 2) ? 2 : 1;
                    d.pad_begin[a] = wk == 2 ? ts_rng_range(r, 0, 2) : 0;
                    d.pad_end[a] = wk == 2 ? 2 - d.pad_begin[a] : 0;
                }
            }
            const int64_t L = shape[2] * shape[3] * shape[4], ni = shape[0] * shape[1] * L;
            for (int sem = quick ? 1 : 0; sem < (quick ? 3 : 4); ++sem) { /* quick: (propagate, start value), (ignore, first element) */
                random_semantics(r, &d);
                d.nan_policy = sem & 1 ? MAXPOOL_NAN_PROPAGATE : MAXPOOL_NAN_IGNORE;
                d.window_init = sem & 2 ? MAXPOOL_INIT_FIRST_ELEMENT : MAXPOOL_INIT_EMPTY_VALUE;
                d.index_order = MAXPOOL_INDEX_ROW_MAJOR;
                d.index_type = (maxpool_index_type)ts_rng_range(r, 0, 2);
                char what[200];
                snprintf(what, sizeof what, "global %s rank %d %lldx%lld plane %lld window %d nan=%d init=%d idx=%d",
                         g_tname[dt], rank, (long long)shape[0], (long long)shape[1], (long long)L, wk,
                         (int)d.nan_policy, (int)d.window_init, (int)d.index_type);
                g_all_threads = 1; /* 2 and 3 threads: random inputs (else one case in 4) */
                check_case(&d, shape, r, isf && ts_rng_chance(r, 1, 2) ? 1 : 0, what);
                g_all_threads = 0;
                check_case(&d, shape, r, 2, what);
                if (ni > (int64_t)(sizeof g_fill / sizeof g_fill[0]) || wk == 3)
                    continue;
                /* directed: position pos of every plane (and of a later plane position for the second NaN) */
                const uint64_t top = isf ? (dt == MAXPOOL_F64 ? 0x7ff0000000000000ull : dt == MAXPOOL_F16 ? 0x7c00u : 0x7f80u)
                                         : (dt == MAXPOOL_I8 ? 0x7f : dt == MAXPOOL_U8 ? 0xff : dt == MAXPOOL_I16 ? 0x7fff
                                            : dt == MAXPOOL_U16 ? 0xffff : dt == MAXPOOL_I32 ? 0x7fffffff : dt == MAXPOOL_I64 ? 0x7fffffffffffffffull : 0);
                const uint64_t nan1 = dt == MAXPOOL_F64 ? 0x7ff0000000000123ull : dt == MAXPOOL_F16 ? 0x7d23u : 0x7f93u;
                const uint64_t nan2 = dt == MAXPOOL_F64 ? 0xfff8000000000456ull : dt == MAXPOOL_F16 ? 0xfe56u : 0xffd6u;
                const uint64_t nzero = dt == MAXPOOL_F64 ? 0x8000000000000000ull : 0x8000u;
                const int64_t npos = quick ? (L < 2 ? L : 2) : (L < 4 ? L : 4);
                for (int64_t k = 0; k < npos; ++k) {
                    const int64_t pos = npos == L ? k : ts_rng_range(r, k * L / npos, (k + 1) * L / npos - 1),
                                  pos2 = (pos + 1 + L / 3) % L;
                    const int bg = (int)((k + sem) % 2), what_at = (int)((k / 2 + pi) % 3);
                    g_fill_n = ni;
                    for (int64_t i = 0; i < ni; ++i) {
                        const int64_t o = i % L;
                        uint64_t v = bg ? (isf ? (ts_rng_chance(r, 1, 2) ? nzero : 0) : gen_bits(r, dt, 0))
                                        : gen_bits(r, dt, 2);
                        if (isf && v != 0 && v != nzero && bg)
                            v = 0;
                        if (o == pos)
                            v = what_at == 0 && isf ? nan1 : top;
                        else if (o == pos2 && what_at == 0 && isf && (i / L) % 2)
                            v = nan2;
                        g_fill[i] = v;
                    }
                    check_case(&d, shape, r, 3, what);
                }
            }
        }
}

/* Channels-first rows of at most one vector with indices (gen_cfs.h: the
 * W grid with stride 1 or 2, 32- and 64-bit tap lanes; the other types take
 * the per-tap form): adaptive W tables that are regular grids though out
 * does not divide in (in = S*(out - 1) + K: 13 -> 6 is K3 S2), that divide
 * it, and that are not grids (lines first); fixed windows with pads (lane
 * masks), past the kernel (empty windows), dilation, ceil rounding; output
 * widths 1 to 17 (every vector width's full and partial row), ranks 1 to 3
 * with adaptive or fixed H and D, both index types; random values, NaN
 * runs, start values only, ties, and a NaN (and a later one) or a -0 in
 * every lane position on backgrounds of +0, -inf and the lowest value. */
static void small_rows(ts_rng *r, maxpool_dtype dt, int quick)
{
    const int n = quick ? 60 : 240, fl = dt <= MAXPOOL_BF16;
    for (int i = 0; i < n; ++i) {
        maxpool_desc d;
        const int rank = (int)ts_rng_range(r, 1, 3);
        maxpool_desc_init(&d, rank);
        d.dtype = dt;
        d.layout = MAXPOOL_CHANNELS_FIRST;
        random_semantics(r, &d);
        d.index_type = i % 2 ? MAXPOOL_INDEX_I32 : MAXPOOL_INDEX_I64;
        d.index_order = MAXPOOL_INDEX_ROW_MAJOR;
        const int geo = i % 4; /* 0 regular adaptive, 1 divisible adaptive, 2 uneven adaptive, 3 fixed */
        d.window = geo == 3 ? MAXPOOL_WINDOW_FIXED : MAXPOOL_WINDOW_ADAPTIVE;
        int64_t shape[5] = {ts_rng_range(r, 1, 2), ts_rng_range(r, 1, 5), 1, 1, 1};
        for (int a = 0; a < rank; ++a) {
            const int last = a == rank - 1;
            const int64_t o = last ? ts_rng_range(r, 1, 17) : ts_rng_range(r, 1, 6);
            const int64_t k = ts_rng_range(r, 1, last ? 5 : 4), s = ts_rng_range(r, 1, 2);
            int64_t in;
            if (geo == 0)
                in = s * (o - 1) + k;
            else if (geo == 1)
                in = o * s;
            else if (geo == 2)
                in = ts_rng_range(r, 1, 40);
            else
                in = ts_rng_range(r, 1, 40);
            if (geo < 3) {
                d.output_size[a] = o;
            } else {
                d.kernel[a] = k;
                d.stride[a] = last ? s : ts_rng_range(r, 1, 3);
                d.dilation[a] = ts_rng_chance(r, 1, 5) ? 2 : 1;
                const int64_t pmax = ts_rng_chance(r, 1, 6) ? k * d.dilation[a] + 1 : k / 2;
                d.pad_begin[a] = ts_rng_range(r, 0, pmax);
                d.pad_end[a] = ts_rng_range(r, 0, pmax);
                d.rounding = ts_rng_chance(r, 1, 3) ? MAXPOOL_ROUND_CEIL : MAXPOOL_ROUND_FLOOR;
                if (last) /* at most 17 outputs */
                    in = ts_rng_range(r, 1, 17 * s);
            }
            shape[2 + a] = in;
        }
        int64_t ni = shape[0] * shape[1];
        for (int a = 0; a < rank; ++a)
            ni *= shape[2 + a];
        int kind = ts_rng_chance(r, 1, 4) ? 2 : (fl && ts_rng_chance(r, 2, 3)) ? 1 : 0;
        if (ni <= (int64_t)(sizeof g_fill / sizeof g_fill[0]) && ts_rng_chance(r, 1, 2)) {
            /* a NaN and a later one (floats), or a -0 / the largest value, at every position i % 19 == pos */
            const uint64_t nzero = dt == MAXPOOL_F64 ? 0x8000000000000000ull : 0x8000u;
            const uint64_t nan1 = dt == MAXPOOL_F64 ? 0x7ff0000000000123ull : dt == MAXPOOL_F16 ? 0x7d23u : 0x7f93u;
            const uint64_t nan2 = dt == MAXPOOL_F64 ? 0xfff8000000000456ull : dt == MAXPOOL_F16 ? 0xfe56u : 0xffd6u;
            const uint64_t lowest = dt == MAXPOOL_F64 ? 0xffefffffffffffffull : dt == MAXPOOL_F16 ? 0xfbffu : 0xff7fu;
            const uint64_t ninf = dt == MAXPOOL_F64 ? 0xfff0000000000000ull : dt == MAXPOOL_F16 ? 0xfc00u : 0xff80u;
            const int64_t pos = ts_rng_range(r, 0, 18), bgk = ts_rng_range(r, 0, 2);
            g_fill_n = ni;
            for (int64_t j = 0; j < ni; ++j) {
                uint64_t b;
                if (!fl)
                    b = j % 19 == pos ? (uint64_t)ts_rng_range(r, 1, 3) : (uint64_t)ts_rng_chance(r, 1, 9);
                else if (j % 19 == pos)
                    b = ts_rng_chance(r, 2, 3) ? nan1 : nzero;
                else if (j % 19 == (pos + 7) % 19 && ts_rng_chance(r, 1, 2))
                    b = nan2;
                else
                    b = bgk == 0 ? (ts_rng_chance(r, 1, 2) ? nzero : 0) : bgk == 1 ? ninf : lowest;
                g_fill[j] = b;
            }
            kind = 3;
        }
        char what[200];
        snprintf(what, sizeof what, "small rows %s #%d geo %d rank %d nan=%d init=%d idx=%d empty=%d w=%lld out=%lld",
                 g_tname[dt], i, geo, rank, (int)d.nan_policy, (int)d.window_init, (int)d.index_type,
                 (int)d.empty_index, (long long)shape[1 + rank], (long long)d.output_size[rank - 1]);
        check_case(&d, shape, r, kind, what);
    }
}

/* Stride-1 windows of 3 to 15 taps (the log-step form, gen_fls.h: values
 * only, channels-first, rank 1 and 2, stride 1 and dilation 1 on both
 * axes): planes narrower and wider than a vector, odd sizes, pads up to
 * k - 1 and unequal, H kernels 1 to 15, ceil rounding; dilated and strided
 * windows and indices beside them (other forms). Inputs: NaN runs, the
 * start values only, ties of small values and the extremes, and (floats)
 * a NaN at every flat offset i % 37 == pos on ties of {-0, +0}, -inf or
 * the lowest value (every lane position of every vector width), under both
 * NaN rules and both starts. */
static void stride1_large(ts_rng *r, maxpool_dtype dt, int quick)
{
    static const int64_t widths[] = {1, 2, 3, 5, 7, 8, 13, 16, 17, 20, 31, 32, 33, 40, 63, 64, 65, 70, 130};
    const int n = quick ? 60 : 260;
    for (int i = 0; i < n; ++i) {
        maxpool_desc d;
        const int rank = ts_rng_chance(r, 1, 5) ? 1 : 2;
        maxpool_desc_init(&d, rank);
        d.dtype = dt;
        d.layout = MAXPOOL_CHANNELS_FIRST;
        random_semantics(r, &d);
        if (!ts_rng_chance(r, 1, 6))
            d.index_type = MAXPOOL_INDEX_NONE;
        int64_t shape[4] = {ts_rng_range(r, 1, 2), ts_rng_range(r, 1, 4), 1, 1};
        for (int a = 0; a < rank; ++a) {
            const int last = a == rank - 1;
            const int64_t k = ts_rng_range(r, last ? 3 : 1, ts_rng_chance(r, 1, 3) ? 15 : 7);
            d.kernel[a] = k;
            d.stride[a] = ts_rng_chance(r, 1, 12) ? 2 : 1;
            d.dilation[a] = ts_rng_chance(r, 1, 12) ? 2 : 1;
            const int64_t pmax = k - 1 < 7 ? k - 1 : 7;
            d.pad_begin[a] = ts_rng_chance(r, 1, 2) ? k / 2 : ts_rng_range(r, 0, pmax);
            d.pad_end[a] = ts_rng_chance(r, 1, 2) ? d.pad_begin[a] : ts_rng_range(r, 0, pmax);
            d.rounding = ts_rng_chance(r, 1, 4) ? MAXPOOL_ROUND_CEIL : MAXPOOL_ROUND_FLOOR;
            shape[2 + a] = last ? widths[ts_rng_range(r, 0, (int64_t)(sizeof widths / sizeof widths[0]) - 1)]
                                : ts_rng_range(r, 1, 25);
        }
        char what[256];
        snprintf(what, sizeof what, "stride1 %s #%d rank %d nan=%d init=%d idx=%d shape %lldx%lldx%lldx%lld k%lldx%lld p%lld/%lld,%lld/%lld",
                 g_tname[dt], i, rank, (int)d.nan_policy, (int)d.window_init, (int)d.index_type,
                 (long long)shape[0], (long long)shape[1], (long long)shape[2], (long long)shape[3],
                 (long long)d.kernel[0], (long long)d.kernel[rank - 1], (long long)d.pad_begin[0],
                 (long long)d.pad_end[0], (long long)d.pad_begin[rank - 1], (long long)d.pad_end[rank - 1]);
        int kind = ts_rng_chance(r, 1, 4) ? 2 : (dt <= MAXPOOL_BF16 && ts_rng_chance(r, 2, 3)) ? 1 : 0;
        const int64_t ni = shape[0] * shape[1] * shape[2] * shape[3];
        if (dt <= MAXPOOL_BF16 && ts_rng_chance(r, 1, 2) && ni <= (int64_t)(sizeof g_fill / sizeof g_fill[0])) {
            const uint64_t nan1 = dt == MAXPOOL_F64 ? 0x7ff0000000000123ull : dt == MAXPOOL_F16 ? 0x7d23u : 0x7f93u;
            const uint64_t nan2 = dt == MAXPOOL_F64 ? 0xfff8000000000456ull : dt == MAXPOOL_F16 ? 0xfe56u : 0xffd6u;
            const uint64_t ninf = dt == MAXPOOL_F64 ? 0xfff0000000000000ull : dt == MAXPOOL_F16 ? 0xfc00u : 0xff80u;
            const uint64_t low = dt == MAXPOOL_F64 ? 0xffefffffffffffffull : dt == MAXPOOL_F16 ? 0xfbffu : 0xff7fu;
            const uint64_t nz = dt == MAXPOOL_F64 ? 0x8000000000000000ull : 0x8000u;
            const int64_t period = 37, pos = ts_rng_range(r, 0, period - 1);
            const int bg = (int)ts_rng_range(r, 0, 2);
            g_fill_n = ni;
            for (int64_t j = 0; j < ni; ++j)
                g_fill[j] = j % period == pos                 ? nan1
                            : j % period == (pos + 17) % period ? nan2
                            : bg == 0                         ? (ts_rng_chance(r, 1, 2) ? nz : 0)
                            : bg == 1                         ? (ts_rng_chance(r, 1, 2) ? ninf : low)
                                                              : (ts_rng_chance(r, 1, 3) ? nz : ts_rng_chance(r, 1, 2) ? 0 : ninf);
            kind = 3;
        }
        check_case(&d, shape, r, kind, what);
    }
}

/* Stride-1 windows over many planes (the planes-across-lanes form of the
 * 8- and 16-bit integers, gen_cb.h: values only, channels-first, rank 1
 * and 2, windows of 5 taps or more on one axis, groups of up to 16/32/64
 * planes, fewer than a vector's and the rest of the rows to gen_fls.h):
 * plane counts around the lane counts and not multiples of them, odd
 * sizes, pads up to k - 1 and unequal, ceil rounding, strips of output rows
 * (40 and more rows), both starts and a start value above the inputs
 * (g_init_bits), threads at every ceiling (task ranges that cut planes).
 * Inputs: the largest value at every flat offset i % 37 == pos (every lane
 * and plane position of a group) on small values or the lowest, random
 * values, the start values only. */
static void stride1_planes(ts_rng *r, maxpool_dtype dt, int quick)
{
    static const int64_t planes[] = {7, 8, 9, 15, 16, 17, 31, 32, 33, 40, 63, 64, 65, 97, 128, 131};
    static const int64_t widths[] = {1, 3, 5, 8, 13, 16, 17, 20, 31, 33, 40, 64, 65};
    if (dt != MAXPOOL_I8 && dt != MAXPOOL_U8 && dt != MAXPOOL_I16 && dt != MAXPOOL_U16)
        return;
    const int n = quick ? 50 : 200;
    const uint64_t top = dt == MAXPOOL_I8 ? 0x7f : dt == MAXPOOL_U8 ? 0xff : dt == MAXPOOL_I16 ? 0x7fff : 0xffff;
    const uint64_t low = dt == MAXPOOL_I8 ? 0x80 : dt == MAXPOOL_I16 ? 0x8000 : 0;
    g_threads_every_isa = 1;
    for (int i = 0; i < n; ++i) {
        maxpool_desc d;
        const int rank = ts_rng_chance(r, 1, 6) ? 1 : 2;
        maxpool_desc_init(&d, rank);
        d.dtype = dt;
        d.layout = MAXPOOL_CHANNELS_FIRST;
        random_semantics(r, &d);
        d.index_type = MAXPOOL_INDEX_NONE;
        int64_t shape[4] = {ts_rng_range(r, 1, 2), planes[ts_rng_range(r, 0, (int64_t)(sizeof planes / sizeof planes[0]) - 1)],
                            1, 1};
        for (int a = 0; a < rank; ++a) {
            const int last = a == rank - 1;
            const int64_t k = ts_rng_range(r, last && rank == 1 ? 5 : 1, ts_rng_chance(r, 1, 3) ? 15 : 7);
            d.kernel[a] = k;
            const int64_t pmax = k - 1 < 7 ? k - 1 : 7;
            d.pad_begin[a] = ts_rng_chance(r, 1, 2) ? k / 2 : ts_rng_range(r, 0, pmax);
            d.pad_end[a] = ts_rng_chance(r, 1, 2) ? d.pad_begin[a] : ts_rng_range(r, 0, pmax);
            d.rounding = ts_rng_chance(r, 1, 4) ? MAXPOOL_ROUND_CEIL : MAXPOOL_ROUND_FLOOR;
            shape[2 + a] = last ? widths[ts_rng_range(r, 0, (int64_t)(sizeof widths / sizeof widths[0]) - 1)]
                                : ts_rng_chance(r, 1, 5) ? ts_rng_range(r, 30, 70) : ts_rng_range(r, 1, 25);
        }
        if (d.kernel[0] < 5 && d.kernel[rank - 1] < 5)
            d.kernel[rank - 1] = 5 + ts_rng_range(r, 0, 3);
        char what[256];
        snprintf(what, sizeof what, "stride1 planes %s #%d rank %d init=%d shape %lldx%lldx%lldx%lld k%lldx%lld p%lld/%lld,%lld/%lld",
                 g_tname[dt], i, rank, (int)d.window_init, (long long)shape[0], (long long)shape[1],
                 (long long)shape[2], (long long)shape[3], (long long)d.kernel[0], (long long)d.kernel[rank - 1],
                 (long long)d.pad_begin[0], (long long)d.pad_end[0], (long long)d.pad_begin[rank - 1],
                 (long long)d.pad_end[rank - 1]);
        int kind = ts_rng_chance(r, 1, 5) ? 2 : 0;
        const int64_t ni = shape[0] * shape[1] * shape[2] * shape[3];
        if (ts_rng_chance(r, 1, 2) && ni <= (int64_t)(sizeof g_fill / sizeof g_fill[0])) {
            const int64_t period = 37, pos = ts_rng_range(r, 0, period - 1);
            const int bg = (int)ts_rng_range(r, 0, 1);
            g_fill_n = ni;
            for (int64_t j = 0; j < ni; ++j)
                g_fill[j] = j % period == pos ? top : bg ? low : (uint64_t)ts_rng_range(r, 0, 3);
            kind = 3;
        }
        if (ts_rng_chance(r, 1, 4))
            g_init_bits = (int)ts_rng_range(r, 1, 2); /* a start value above the lowest and small values */
        check_case(&d, shape, r, kind, what);
        g_init_bits = -1;
    }
    g_threads_every_isa = 0;
}

/* 3-D windows of depth stride 1 (the slices-first form, gen_fl3.h: values
 * only, channels-first, D kernels 2 to 7, W stride 1 or 2, each slice's
 * 2-D max then the max over D): depths, heights and widths odd and even,
 * narrower and wider than a vector, pads up to k - 1 and unequal, H and W
 * kernels 1 to 7, H strides 1 to 3, dilated H and W windows, ceil
 * rounding; indices, D stride 2 and D kernel 1 beside them (other forms).
 * Inputs: NaN runs, the start values only, ties of small values and the
 * extremes, and a NaN and a later second one at every flat offset i % 23
 * == pos (so in every slice, line and lane position of a window) on ties
 * of {-0, +0}, -inf and the lowest value, under both NaN rules and both
 * starts; for the integers ties of small values with the largest at those
 * offsets. */
static void slices3d(ts_rng *r, maxpool_dtype dt, int quick)
{
    static const int64_t widths[] = {1, 2, 3, 5, 7, 8, 13, 16, 17, 31, 33, 56, 63, 65, 130};
    const int n = quick ? 80 : 300;
    for (int i = 0; i < n; ++i) {
        maxpool_desc d;
        maxpool_desc_init(&d, 3);
        d.dtype = dt;
        d.layout = MAXPOOL_CHANNELS_FIRST;
        random_semantics(r, &d);
        if (!ts_rng_chance(r, 1, 8))
            d.index_type = MAXPOOL_INDEX_NONE;
        int64_t shape[5] = {ts_rng_range(r, 1, 2), ts_rng_range(r, 1, 3), ts_rng_range(r, 1, 11),
                            ts_rng_range(r, 1, 12),
                            widths[ts_rng_range(r, 0, (int64_t)(sizeof widths / sizeof widths[0]) - 1)]};
        for (int a = 0; a < 3; ++a) {
            const int64_t k = a == 0 ? ts_rng_range(r, ts_rng_chance(r, 1, 12) ? 1 : 2, 7)
                                     : ts_rng_range(r, 1, ts_rng_chance(r, 1, 3) ? 7 : 3);
            d.kernel[a] = k;
            d.stride[a] = a == 0 ? (ts_rng_chance(r, 1, 12) ? 2 : 1)
                          : a == 1 ? (ts_rng_chance(r, 1, 5) ? ts_rng_range(r, 2, 3) : 1)
                                   : (ts_rng_chance(r, 1, 3) ? 2 : 1);
            d.dilation[a] = a > 0 && ts_rng_chance(r, 1, 10) ? 2 : 1;
            const int64_t pmax = k - 1;
            d.pad_begin[a] = ts_rng_chance(r, 1, 2) ? k / 2 : ts_rng_range(r, 0, pmax);
            d.pad_end[a] = ts_rng_chance(r, 1, 2) ? d.pad_begin[a] : ts_rng_range(r, 0, pmax);
        }
        d.rounding = ts_rng_chance(r, 1, 4) ? MAXPOOL_ROUND_CEIL : MAXPOOL_ROUND_FLOOR;
        char what[256];
        snprintf(what, sizeof what,
                 "slices3d %s #%d nan=%d init=%d idx=%d shape %lldx%lldx%lldx%lldx%lld k%lld,%lld,%lld s%lld,%lld,%lld "
                 "dl%lld,%lld p%lld/%lld,%lld/%lld,%lld/%lld",
                 g_tname[dt], i, (int)d.nan_policy, (int)d.window_init, (int)d.index_type, (long long)shape[0],
                 (long long)shape[1], (long long)shape[2], (long long)shape[3], (long long)shape[4],
                 (long long)d.kernel[0], (long long)d.kernel[1], (long long)d.kernel[2], (long long)d.stride[0],
                 (long long)d.stride[1], (long long)d.stride[2], (long long)d.dilation[1], (long long)d.dilation[2],
                 (long long)d.pad_begin[0], (long long)d.pad_end[0], (long long)d.pad_begin[1],
                 (long long)d.pad_end[1], (long long)d.pad_begin[2], (long long)d.pad_end[2]);
        const int fl = dt <= MAXPOOL_BF16;
        int kind = ts_rng_chance(r, 1, 4) ? 2 : (fl && ts_rng_chance(r, 2, 3)) ? 1 : 0;
        const int64_t ni = shape[0] * shape[1] * shape[2] * shape[3] * shape[4];
        if (ts_rng_chance(r, 1, 2) && ni <= (int64_t)(sizeof g_fill / sizeof g_fill[0])) {
            const uint64_t nan1 = dt == MAXPOOL_F64 ? 0x7ff0000000000123ull : dt == MAXPOOL_F16 ? 0x7d23u : 0x7f93u;
            const uint64_t nan2 = dt == MAXPOOL_F64 ? 0xfff8000000000456ull : dt == MAXPOOL_F16 ? 0xfe56u : 0xffd6u;
            const uint64_t ninf = dt == MAXPOOL_F64 ? 0xfff0000000000000ull : dt == MAXPOOL_F16 ? 0xfc00u : 0xff80u;
            const uint64_t low = dt == MAXPOOL_F64 ? 0xffefffffffffffffull : dt == MAXPOOL_F16 ? 0xfbffu : 0xff7fu;
            const uint64_t nz = dt == MAXPOOL_F64 ? 0x8000000000000000ull : 0x8000u;
            const int64_t period = 23, pos = ts_rng_range(r, 0, period - 1);
            const int bg = (int)ts_rng_range(r, 0, 2);
            g_fill_n = ni;
            for (int64_t j = 0; j < ni; ++j) {
                if (!fl)
                    g_fill[j] = j % period == pos ? (uint64_t)ts_rng_range(r, 2, 3) : (uint64_t)ts_rng_chance(r, 1, 9);
                else
                    g_fill[j] = j % period == pos                 ? (ts_rng_chance(r, 3, 4) ? nan1 : nz)
                                : j % period == (pos + 11) % period ? (ts_rng_chance(r, 1, 2) ? nan2 : 0)
                                : bg == 0                         ? (ts_rng_chance(r, 1, 2) ? nz : 0)
                                : bg == 1                         ? (ts_rng_chance(r, 1, 2) ? ninf : low)
                                                                  : (ts_rng_chance(r, 1, 3) ? nz : ts_rng_chance(r, 1, 2) ? 0 : ninf);
            }
            kind = 3;
        }
        check_case(&d, shape, r, kind, what);
    }
}

/* The stride-1 W pass over padded line copies (gen_fl.h fl_wlines1: W
 * windows of 4 to 8 taps, 2 taps with padding, dilated 2 or 3 taps; values
 * only, channels-first, ranks 2 and 3): widths around every vector size
 * (1 to 4 vectors, the blocks of 4 and 2 and the overlapping last one),
 * narrower than a vector from the first tap (fl_wline) and wider than the
 * copy buffer (fl_wline), pads 0 .. k-1 unequal on both line borders, ceil
 * rounding; inputs with a NaN, a second NaN and -0 / +0 ties at every flat
 * offset i % period == pos (every lane position and both line borders over
 * the cases) on backgrounds of {-0, +0}, -inf / lowest or mixed; integers:
 * the largest value at those offsets on small values. */
static void padded_lines(ts_rng *r, maxpool_dtype dt, int quick)
{
    static const int64_t widths[] = {3,  4,  5,  7,  8,  9,  12, 15, 16, 17,  19,  24,  31,  32,  33,  40,  47,
                                     48, 56, 63, 64, 65, 72, 95, 96, 97, 127, 128, 129, 191, 200, 255, 520, 1100, 2100};
    const int n = quick ? 70 : 260;
    for (int i = 0; i < n; ++i) {
        maxpool_desc d;
        const int rank = ts_rng_chance(r, 1, 3) ? 3 : 2;
        maxpool_desc_init(&d, rank);
        d.dtype = dt;
        d.layout = MAXPOOL_CHANNELS_FIRST;
        random_semantics(r, &d);
        d.index_type = MAXPOOL_INDEX_NONE;
        int64_t shape[5] = {ts_rng_range(r, 1, 2), ts_rng_range(r, 1, 3), 1, 1, 1};
        const int64_t w = widths[ts_rng_range(r, 0, (int64_t)(sizeof widths / sizeof widths[0]) - 1)];
        for (int a = 0; a < rank; ++a) {
            const int last = a == rank - 1;
            const int form = last ? (int)ts_rng_range(r, 0, 5) : 0;
            const int64_t k = !last ? ts_rng_range(r, rank == 3 && a == 0 ? 2 : 1, 4)
                              : form == 4 ? 2
                              : form == 5 ? ts_rng_range(r, 2, 3)
                                          : ts_rng_range(r, 4, 8);
            d.kernel[a] = k;
            d.stride[a] = 1;
            d.dilation[a] = last && form == 5 ? ts_rng_range(r, 2, 3) : 1;
            d.pad_begin[a] = ts_rng_range(r, form == 4 && last ? 1 : 0, k - 1);
            d.pad_end[a] = ts_rng_range(r, 0, k - 1);
            shape[2 + a] = last ? w : ts_rng_range(r, 1, 7);
        }
        d.rounding = ts_rng_chance(r, 1, 4) ? MAXPOOL_ROUND_CEIL : MAXPOOL_ROUND_FLOOR;
        char what[256];
        snprintf(what, sizeof what, "padded_lines %s #%d rank %d nan=%d init=%d shape %lldx%lldx%lldx%lldx%lld k%lld,%lld dl%lld p%lld/%lld",
                 g_tname[dt], i, rank, (int)d.nan_policy, (int)d.window_init, (long long)shape[0],
                 (long long)shape[1], (long long)shape[2], (long long)shape[3], (long long)shape[4],
                 (long long)d.kernel[0], (long long)d.kernel[rank - 1], (long long)d.dilation[rank - 1],
                 (long long)d.pad_begin[rank - 1], (long long)d.pad_end[rank - 1]);
        const int fl = dt <= MAXPOOL_BF16;
        int kind = ts_rng_chance(r, 1, 5) ? 2 : 0;
        int64_t ni = shape[0] * shape[1] * shape[2] * shape[3];
        if (rank == 3)
            ni *= shape[4];
        if (ts_rng_chance(r, 4, 5) && ni <= (int64_t)(sizeof g_fill / sizeof g_fill[0])) {
            const uint64_t nan1 = dt == MAXPOOL_F64 ? 0x7ff0000000000123ull : dt == MAXPOOL_F16 ? 0x7d23u : 0x7f93u;
            const uint64_t nan2 = dt == MAXPOOL_F64 ? 0xfff8000000000456ull : dt == MAXPOOL_F16 ? 0xfe56u : 0xffd6u;
            const uint64_t ninf = dt == MAXPOOL_F64 ? 0xfff0000000000000ull : dt == MAXPOOL_F16 ? 0xfc00u : 0xff80u;
            const uint64_t low = dt == MAXPOOL_F64 ? 0xffefffffffffffffull : dt == MAXPOOL_F16 ? 0xfbffu : 0xff7fu;
            const uint64_t nz = dt == MAXPOOL_F64 ? 0x8000000000000000ull : 0x8000u;
            const int64_t period = ts_rng_range(r, 5, 29), pos = ts_rng_range(r, 0, period - 1);
            const int bg = (int)ts_rng_range(r, 0, 2);
            g_fill_n = ni;
            for (int64_t j = 0; j < ni; ++j) {
                if (!fl)
                    g_fill[j] = j % period == pos ? (uint64_t)ts_rng_range(r, 2, 3) : (uint64_t)ts_rng_chance(r, 1, 9);
                else
                    g_fill[j] = j % period == pos                       ? (ts_rng_chance(r, 2, 3) ? nan1 : nz)
                                : j % period == (pos + period / 2) % period ? (ts_rng_chance(r, 1, 2) ? nan2 : 0)
                                : bg == 0                               ? (ts_rng_chance(r, 1, 2) ? nz : 0)
                                : bg == 1                               ? (ts_rng_chance(r, 1, 2) ? ninf : low)
                                                                        : (ts_rng_chance(r, 1, 3) ? nz : ts_rng_chance(r, 1, 2) ? 0 : ninf);
            }
            kind = 3;
        }
        check_case(&d, shape, r, kind, what);
    }
}

/* The integers' lines-first form with the W pass on the combined line
 * (gen_vf.h): W stride 2, K 2 or 3, dilation 1, values only. Widths around
 * the vector sizes (4 to 64 lanes: i64 at avx2 to i8 at avx512; a row's
 * first and last vector, full and partial, one vector or many), left and right paddings 0 .. K-1 and ceil
 * rounding (taps outside the row), H windows of 1 to 3 lines with strides
 * 1 to 3 and paddings (padded rows: windows of fewer lines), ranks 1 to 3,
 * both starts; inputs with the lowest and highest values at every flat
 * offset i with i % period == pos (every lane position over the cases), on
 * backgrounds of small values or of the lowest value. */
static void int_lines(ts_rng *r, maxpool_dtype dt, int quick)
{
    static const int64_t widths[] = {8,   9,   10,  11,  13,  16,  17,  31,  32,  33,  55,  56,  57,  63,  64,
                                     65,  66,  111, 112, 113, 127, 128, 129, 130, 147, 191, 192, 193, 255, 256,
                                     257, 300, 515};
    if (dt < MAXPOOL_I8)
        return;
    const int n = quick ? 120 : 400;
    g_threads_every_isa = 1; /* (avx2's whole-vector stores past a row: the spill bound between task ranges) */
    for (int i = 0; i < n; ++i) {
        const int rank = ts_rng_chance(r, 1, 8) ? 1 : ts_rng_chance(r, 1, 7) ? 3 : 2;
        maxpool_desc d;
        maxpool_desc_init(&d, rank);
        d.dtype = dt;
        d.layout = MAXPOOL_CHANNELS_FIRST;
        d.window_init = ts_rng_chance(r, 1, 2) ? MAXPOOL_INIT_FIRST_ELEMENT : MAXPOOL_INIT_EMPTY_VALUE;
        d.empty_value = ts_rng_chance(r, 1, 2) ? MAXPOOL_EMPTY_NEG_INF : MAXPOOL_EMPTY_LOWEST;
        d.empty_index = (maxpool_empty_index)ts_rng_range(r, 0, 2);
        d.rounding = ts_rng_chance(r, 1, 3) ? MAXPOOL_ROUND_CEIL : MAXPOOL_ROUND_FLOOR;
        int64_t shape[5];
        shape[0] = ts_rng_range(r, 1, 2);
        shape[1] = ts_rng_range(r, 1, 3);
        const int64_t W = widths[ts_rng_range(r, 0, (int64_t)(sizeof widths / sizeof widths[0]) - 1)];
        for (int a = 0; a < rank; ++a) {
            const int last = a == rank - 1;
            shape[2 + a] = last ? W : ts_rng_range(r, 1, rank == 3 ? 5 : 9);
            const int64_t k = last ? ts_rng_range(r, 2, 3) : ts_rng_range(r, 1, 3);
            d.kernel[a] = k;
            d.stride[a] = last ? 2 : ts_rng_range(r, 1, 3);
            d.dilation[a] = 1;
            d.pad_begin[a] = ts_rng_chance(r, 1, 2) ? k / 2 : ts_rng_range(r, 0, k - 1);
            d.pad_end[a] = ts_rng_chance(r, 1, 2) ? d.pad_begin[a] : ts_rng_range(r, 0, k - 1);
        }
        char what[256];
        int w = snprintf(what, sizeof what, "int_lines %s #%d rank %d init=%d ceil=%d shape", g_tname[dt], i, rank,
                         (int)d.window_init, (int)d.rounding);
        for (int a = 0; a < rank + 2; ++a)
            w += snprintf(what + w, sizeof what - (size_t)w, " %lld", (long long)shape[a]);
        for (int a = 0; a < rank; ++a)
            w += snprintf(what + w, sizeof what - (size_t)w, " | k%lld s%lld p%lld/%lld", (long long)d.kernel[a],
                          (long long)d.stride[a], (long long)d.pad_begin[a], (long long)d.pad_end[a]);
        int64_t ni = 1;
        for (int a = 0; a < rank + 2; ++a)
            ni *= shape[a];
        int kind = 0;
        if (ni <= (int64_t)(sizeof g_fill / sizeof g_fill[0])) {
            const int bits = (int)g_tsize[dt] * 8;
            const int sgn = dt == MAXPOOL_I8 || dt == MAXPOOL_I16 || dt == MAXPOOL_I32 || dt == MAXPOOL_I64;
            const uint64_t mask = bits == 64 ? ~0ull : ((1ull << bits) - 1);
            const uint64_t lo = (sgn ? (1ull << (bits - 1)) : 0) & mask, hi = (sgn ? lo - 1 : mask) & mask;
            const int64_t period = ts_rng_range(r, 2, 71), pos = ts_rng_range(r, 0, period - 1);
            const int bg = (int)ts_rng_range(r, 0, 2);
            for (int64_t j = 0; j < ni; ++j) {
                const uint64_t small = (uint64_t)ts_rng_range(r, sgn ? -3 : 0, 5) & mask;
                g_fill[j] = j % period == pos                               ? hi
                            : j % period == (pos + 1) % period && bg == 1 ? (uint64_t)ts_rng_range(r, 0, 1)
                            : bg == 2 || (bg == 1 && ts_rng_chance(r, 1, 2)) ? lo
                                                                            : small;
            }
            g_fill_n = ni;
            kind = 3;
        }
        check_case(&d, shape, r, kind, what);
    }
    g_threads_every_isa = 0;
}

/* f64 and i64 with indices (64-bit tap-number lanes) on every vector form
 * that numbers taps: channels-first per tap (in-place blocks of 1, 2, 4
 * vectors, masked and copied border blocks, dilation, gathered taps off the
 * grid), lines first (strides >= 3, uneven adaptive windows, 1-D and 3-D),
 * W first with indices (K 5 to 16, stride 1 and 2, rank 2 and 3), rows of
 * one vector, channels-last (channel counts around 4 and 8 lanes, ranks 1
 * to 3), windows of exactly GEN_TAPS_MAX = 256 taps (the last the lanes
 * number) and one more; pads up to past the kernel with ceil rounding
 * (empty windows, every empty-window index); int32 and int64 indices, both
 * NaN rules, both starts. Fills: random values (f64: NaN among them); the
 * start values only; dense ties of one value (a third of the elements, the
 * rest smaller: the first index must win in every lane position); every
 * element equal; f64: {-0, +0} ties with NaN of both signs, quiet and
 * signalling, with payloads at every position i % 23 == pos and (another
 * NaN) pos + 11 (the last NaN's index), on -0 / +0, -inf or lowest
 * backgrounds. */
static void wide_lanes(ts_rng *r, maxpool_dtype dt, int quick)
{
    static const struct {
        int rank, cl, ad; /* channels-last; adaptive (out[] the output sizes) */
        int64_t c, in[3], k[3], s[3], dl[3], pb[3], pe[3], out[3];
        int ceil;
    } G[] = {
        /* channels-first, per tap: S 1 and 2 (blocks of 4, 2, 1 vectors; border blocks) */
        {2, 0, 0, 2, {5, 77}, {3, 3}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, {0}, 0},
        {2, 0, 0, 3, {6, 70}, {2, 2}, {2, 2}, {1, 1}, {0, 0}, {0, 1}, {0}, 1},
        {2, 0, 0, 2, {7, 83}, {3, 3}, {2, 2}, {1, 1}, {1, 1}, {1, 1}, {0}, 0},
        {1, 0, 0, 3, {67}, {4}, {1}, {1}, {2}, {1}, {0}, 0},
        {1, 0, 0, 2, {41}, {2}, {2}, {1}, {1}, {1}, {0}, 1},
        {3, 0, 0, 2, {4, 6, 29}, {2, 3, 3}, {1, 2, 2}, {1, 1, 1}, {0, 1, 1}, {1, 1, 1}, {0}, 1},
        {2, 0, 0, 2, {5, 45}, {2, 3}, {1, 2}, {1, 2}, {0, 2}, {1, 2}, {0}, 0},  /* dilated W */
        {2, 0, 0, 2, {5, 9}, {3, 3}, {2, 2}, {1, 1}, {1, 1}, {1, 1}, {0}, 0},   /* a short row */
        {2, 0, 0, 2, {6, 17}, {2, 2}, {3, 3}, {1, 1}, {3, 3}, {3, 4}, {0}, 1},  /* pads past the kernel */
        /* gathered taps (W stride 3, dilation 2), lines first (W stride 3, 4) */
        {2, 0, 0, 2, {5, 40}, {2, 3}, {1, 3}, {1, 2}, {0, 1}, {0, 1}, {0}, 0},
        {2, 0, 0, 2, {5, 50}, {2, 3}, {1, 3}, {1, 1}, {1, 1}, {1, 1}, {0}, 1},
        {1, 0, 0, 3, {70}, {6}, {4}, {1}, {2}, {2}, {0}, 0},
        /* W first with indices */
        {2, 0, 0, 2, {6, 41}, {3, 5}, {1, 1}, {1, 1}, {1, 2}, {1, 2}, {0}, 0},
        {2, 0, 0, 2, {5, 67}, {2, 7}, {2, 2}, {1, 1}, {0, 3}, {1, 3}, {0}, 1},
        {3, 0, 0, 1, {3, 4, 33}, {2, 2, 6}, {1, 1, 1}, {1, 1, 1}, {0, 1, 3}, {0, 0, 2}, {0}, 0},
        {2, 0, 0, 2, {4, 37}, {2, 5}, {1, 1}, {1, 2}, {0, 4}, {0, 4}, {0}, 0},   /* dilated */
        /* 256 taps (the lanes' last number), then 272 (the scalar scan) */
        {2, 0, 0, 1, {17, 40}, {16, 16}, {1, 1}, {1, 1}, {0, 0}, {0, 0}, {0}, 0},
        {2, 1, 0, 9, {17, 18}, {16, 16}, {1, 1}, {1, 1}, {0, 0}, {0, 0}, {0}, 0},
        {2, 0, 0, 1, {18, 40}, {17, 16}, {1, 1}, {1, 1}, {0, 0}, {0, 0}, {0}, 0},
        /* adaptive: even (grid), regular grid 13 -> 6, uneven (lines first), 1-D, 3-D */
        {2, 0, 1, 3, {14, 14}, {0}, {0}, {0}, {0}, {0}, {7, 7}, 0},
        {2, 0, 1, 3, {13, 13}, {0}, {0}, {0}, {0}, {0}, {6, 6}, 0},
        {2, 0, 1, 3, {15, 15}, {0}, {0}, {0}, {0}, {0}, {4, 4}, 0},
        {2, 0, 1, 2, {9, 56}, {0}, {0}, {0}, {0}, {0}, {3, 7}, 0},
        {1, 0, 1, 3, {100}, {0}, {0}, {0}, {0}, {0}, {12}, 0},
        {3, 0, 1, 2, {8, 14, 14}, {0}, {0}, {0}, {0}, {0}, {2, 5, 5}, 0},
        {2, 0, 1, 2, {5, 40}, {0}, {0}, {0}, {0}, {0}, {3, 19}, 0},
        /* channels-last: channel counts around 4 and 8 lanes */
        {2, 1, 0, 3, {9, 11}, {3, 3}, {2, 2}, {1, 1}, {1, 1}, {1, 1}, {0}, 0},
        {2, 1, 0, 8, {9, 11}, {3, 3}, {2, 2}, {1, 1}, {1, 1}, {1, 1}, {0}, 1},
        {2, 1, 0, 13, {8, 10}, {2, 3}, {1, 2}, {1, 2}, {0, 2}, {1, 1}, {0}, 0},
        {2, 1, 0, 33, {7, 9}, {3, 2}, {2, 2}, {1, 1}, {3, 3}, {3, 4}, {0}, 1},
        {1, 1, 0, 17, {23}, {5}, {2}, {1}, {2}, {2}, {0}, 0},
        {3, 1, 0, 9, {4, 5, 7}, {2, 3, 3}, {1, 2, 2}, {1, 1, 1}, {1, 1, 1}, {0, 1, 1}, {0}, 0},
        {2, 1, 1, 12, {15, 13}, {0}, {0}, {0}, {0}, {0}, {4, 6}, 0},
        {3, 1, 1, 5, {5, 7, 9}, {0}, {0}, {0}, {0}, {0}, {2, 3, 4}, 0},
    };
    const int ng = (int)(sizeof G / sizeof G[0]), fl = dt == MAXPOOL_F64;
    const uint64_t nzero = 0x8000000000000000ull;
    const uint64_t nans[4] = {0x7ff0000000000123ull, 0xfff8000000000456ull, 0x7ff8000000000789ull, 0xfff0000000000abcull};
    const uint64_t hi = fl ? 0x4000000000000000ull : 3, lo = fl ? 0x3ff0000000000000ull : 2; /* 2.0, 1.0 (f64) */
    for (int gi = 0; gi < ng; ++gi)
        for (int fill = 0; fill < 6; ++fill)
            for (int sem = 0; sem < 8; sem += quick ? 3 : 1) {
                if (fill == 5 && !fl)
                    continue;
                maxpool_desc d;
                const int rank = G[gi].rank;
                maxpool_desc_init(&d, rank);
                d.dtype = dt;
                d.layout = G[gi].cl ? MAXPOOL_CHANNELS_LAST : MAXPOOL_CHANNELS_FIRST;
                d.nan_policy = sem & 1 ? MAXPOOL_NAN_PROPAGATE : MAXPOOL_NAN_IGNORE;
                d.window_init = sem & 2 ? MAXPOOL_INIT_FIRST_ELEMENT : MAXPOOL_INIT_EMPTY_VALUE;
                d.index_type = sem & 4 ? MAXPOOL_INDEX_I64 : MAXPOOL_INDEX_I32;
                d.empty_value = ts_rng_chance(r, 1, 2) ? MAXPOOL_EMPTY_NEG_INF : MAXPOOL_EMPTY_LOWEST;
                d.empty_index = (maxpool_empty_index)ts_rng_range(r, 0, 2);
                d.index_axis = (int)ts_rng_range(r, 0, 2);
                d.window = G[gi].ad ? MAXPOOL_WINDOW_ADAPTIVE : MAXPOOL_WINDOW_FIXED;
                d.rounding = G[gi].ceil ? MAXPOOL_ROUND_CEIL : MAXPOOL_ROUND_FLOOR;
                int64_t shape[5], ni = 1 + (sem == 5);
                shape[0] = ni;
                for (int a = 0; a < rank; ++a) {
                    if (G[gi].ad) {
                        d.output_size[a] = G[gi].out[a];
                    } else {
                        d.kernel[a] = G[gi].k[a];
                        d.stride[a] = G[gi].s[a];
                        d.dilation[a] = G[gi].dl[a];
                        d.pad_begin[a] = G[gi].pb[a];
                        d.pad_end[a] = G[gi].pe[a];
                    }
                    shape[G[gi].cl ? 1 + a : 2 + a] = G[gi].in[a];
                    ni *= G[gi].in[a];
                }
                shape[G[gi].cl ? 1 + rank : 1] = G[gi].c;
                ni *= G[gi].c;
                int kind = 3;
                if (fill == 0)
                    kind = fl && sem % 3 ? 1 : 0; /* random values (f64: NaN among them) */
                else if (fill == 1)
                    kind = 2; /* the start values only */
                if (kind == 3 && ni > (int64_t)(sizeof g_fill / sizeof g_fill[0]))
                    kind = 0;
                const int64_t pos = ts_rng_range(r, 0, 22);
                const int bg = (int)ts_rng_range(r, 0, 2);
                g_fill_n = ni;
                for (int64_t i = 0; kind == 3 && i < ni; ++i) {
                    uint64_t b;
                    if (fill == 2) /* dense ties of the largest value */
                        b = ts_rng_chance(r, 1, 3) ? hi : ts_rng_chance(r, 1, 2) ? lo : (fl ? nzero : 0);
                    else if (fill == 3) /* every element equal */
                        b = lo;
                    else if (fill == 4) /* -0 / +0 ties (i64: 0 and 1), the largest at every i % 23 == pos */
                        b = i % 23 == pos ? hi : fl ? (ts_rng_chance(r, 1, 2) ? nzero : 0) : (uint64_t)ts_rng_chance(r, 1, 2);
                    else /* f64: NaN at i % 23 == pos and pos + 11 */
                        b = i % 23 == pos            ? nans[(i / 23) % 2 * 2 + bg % 2]
                            : i % 23 == (pos + 11) % 23 ? nans[(i / 23 + 1) % 4]
                            : bg == 0                ? (ts_rng_chance(r, 1, 2) ? nzero : 0)
                            : bg == 1                ? 0xfff0000000000000ull
                                                     : 0xffefffffffffffffull;
                    g_fill[i] = b;
                }
                char what[200];
                snprintf(what, sizeof what, "wide lanes %s geo %d fill %d nan=%d init=%d idx=%d empty=%d/%d", g_tname[dt],
                         gi, fill, (int)d.nan_policy, (int)d.window_init, (int)d.index_type, (int)d.empty_index,
                         (int)d.empty_value);
                check_case(&d, shape, r, kind, what);
            }
}

/* The 16-bit float key rule of gen_vf.h's checked keys (f16, bf16 as
 * 16-bit integers), exhaustively over the 65536 bit patterns: the key k =
 * x ^ ((x >> 15) & 0x7FFF) is an involution; over the non-NaN values it
 * orders as the floats do, -0 (k = -1) just below +0 (k = 0) the only equal
 * pair; k = x for x >= 0 as a signed integer, and over the negatives k =
 * x ^ 0x7FFF decreases as x grows, every negative key below every other
 * (so the max key of a set is the signed max of the raw bits if that is >=
 * 0, else their signed min: what the kernel takes; checked on pairs too);
 * NaN <=> |x| above +inf's bits, a negative NaN <=> x above -inf's bits as
 * unsigned, a positive one <=> x above +inf's bits as signed (the kernel's
 * checks). Returns the checks made. */
static long key_layer(maxpool_dtype dt)
{
    const int h = dt == MAXPOOL_F16;
    const unsigned pinf = h ? 0x7c00u : 0x7f80u, ninf = h ? 0xfc00u : 0xff80u;
    static uint16_t bykey[65536];
    static float val[65536];
    static unsigned char has[65536];
    long n = 0, checks = 0;
    memset(has, 0, sizeof has);
    for (uint32_t x = 0; x < 65536; ++x) {
        const uint16_t b = (uint16_t)x;
        const int16_t s = (int16_t)b;
        const uint16_t k = (uint16_t)(b ^ ((uint16_t)(s >> 15) & 0x7fffu));
        const uint16_t kk = (uint16_t)(k ^ ((uint16_t)((int16_t)k >> 15) & 0x7fffu));
        const float f = h ? ts_f16_to_f32(b) : ts_bf16_to_f32(b);
        const int nan = f != f;
        CHECK_MSG(kk == b, "%s key not an involution at %04x", g_tname[dt], (unsigned)b);
        CHECK_MSG(nan == ((b & 0x7fffu) > pinf), "%s NaN test at %04x", g_tname[dt], (unsigned)b);
        CHECK_MSG((nan && (b & 0x8000u)) == (b > ninf), "%s negative NaN test at %04x", g_tname[dt], (unsigned)b);
        CHECK_MSG((nan && !(b & 0x8000u)) == (s > (int)pinf), "%s positive NaN test at %04x", g_tname[dt],
                  (unsigned)b);
        CHECK_MSG((s >= 0) == ((int16_t)k >= 0) && (s < 0 || k == b), "%s key of a sign-clear value at %04x",
                  g_tname[dt], (unsigned)b);
        CHECK_MSG(s >= 0 || k == (uint16_t)(b ^ 0x7fffu), "%s key of a negative at %04x", g_tname[dt], (unsigned)b);
        checks += 6;
        if (!nan) {
            val[b] = f;
            has[(uint16_t)(k ^ 0x8000u)] = 1; /* key + 32768 */
            ++n;
        }
    }
    long m = 0;
    for (uint32_t u = 0; u < 65536; ++u)
        if (has[u]) {
            const uint16_t k = (uint16_t)(u ^ 0x8000u);
            bykey[m++] = (uint16_t)(k ^ ((uint16_t)((int16_t)k >> 15) & 0x7fffu));
        }
    CHECK_MSG(m == n, "%s keys not distinct", g_tname[dt]);
    for (long i = 0; i + 1 < m; ++i) {
        const uint16_t a = bykey[i], b = bykey[i + 1];
        const int zeros = a == 0x8000u && b == 0;
        CHECK_MSG(zeros ? val[a] == val[b] : val[a] < val[b], "%s key order: %04x then %04x", g_tname[dt],
                  (unsigned)a, (unsigned)b);
        ++checks;
    }
    /* the max key of {a, b} by the raw-bits rule, against the key order, over a sweep of pairs */
    for (long i = 0; i < m; i += 37)
        for (long j = 0; j < m; j += 41) {
            const int16_t a = (int16_t)bykey[i], b = (int16_t)bykey[j];
            const int16_t mx = a > b ? a : b, mn = a < b ? a : b;
            const uint16_t rule = (uint16_t)(mx >= 0 ? mx : mn);
            CHECK_MSG(rule == bykey[i > j ? i : j], "%s max rule: %04x %04x", g_tname[dt], (unsigned)(uint16_t)a,
                      (unsigned)(uint16_t)b);
            ++checks;
        }
    return checks;
}

/* f16 / bf16 on gen_vf.h's checked keys: channels-first, values only, W
 * stride 2, K 2 or 3, dilation 1, rank 1-2. Random finite inputs (the fast
 * path keeps them) and every reason to redo a row or to take the min pass:
 * a NaN of either sign, quiet or signalling, with payloads, at every column
 * of lines 0-2 (every window line position) and one more elsewhere (both
 * NaN rules, both starts); +0 results over windows that also hold -0, in
 * both orders, within a line and across lines, on negative and on -inf
 * backgrounds; windows of zeros and negatives; negative backgrounds (the
 * min pass); start values -0, +0, NaN, lowest, 1.0 set in the plans; widths
 * around the vector widths (16, 32 lanes), paddings 0-2 at either end, ceil
 * rounding (empty W windows at the end), H stride 1 and 2. Run with 2 and 3
 * threads at every ceiling. The form's paths (rows, min pass, redone rows)
 * show in a build with GEN_VF_TRACE (stderr). */
static void f16_lines(ts_rng *r, maxpool_dtype dt, int quick)
{
    const int h = dt == MAXPOOL_F16;
    const uint64_t nans[6] = {h ? 0x7c01u : 0x7f81u, h ? 0x7e00u : 0x7fc0u, h ? 0x7d23u : 0x7f93u,
                              h ? 0xfc01u : 0xff81u, h ? 0xfe56u : 0xffd6u, h ? 0xffffu : 0xffffu};
    const uint64_t ninf = h ? 0xfc00u : 0xff80u, lowest = h ? 0xfbffu : 0xff7fu;
    static const int64_t widths[] = {8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 66, 112, 131};
    g_threads_every_isa = 1;
    g_all_threads = 1;
    for (int geo = 0; geo < 6; ++geo)
        for (size_t wi = 0; wi < sizeof widths / sizeof widths[0]; ++wi) {
            if (quick && wi % 2)
                continue;
            maxpool_desc d;
            const int rank = geo == 5 ? 1 : 2;
            maxpool_desc_init(&d, rank);
            d.dtype = dt;
            d.layout = MAXPOOL_CHANNELS_FIRST;
            /* k3 s2 p1 (the stems), k2 s2 p0, k3 s2 p0 ceil, k3 s2 p2/0 (H s1), k2 s2 p1 ceil, rank 1 k3 s2 p1 */
            const int64_t kk[6] = {3, 2, 3, 3, 2, 3}, pb[6] = {1, 0, 0, 2, 1, 1}, pe[6] = {1, 0, 0, 0, 1, 1};
            for (int a = 0; a < rank; ++a) {
                d.kernel[a] = kk[geo];
                d.stride[a] = geo == 3 && a == 0 ? 1 : 2;
                d.pad_begin[a] = pb[geo];
                d.pad_end[a] = pe[geo];
            }
            if (geo == 2 || geo == 4)
                d.rounding = MAXPOOL_ROUND_CEIL;
            const int64_t W = widths[wi];
            int64_t shape[4] = {1, 3, 9, W};
            if (geo == 0 && (W == 8 || W == 17)) /* 20 output rows: more than one gen_vf.h check of 16 rows' lines */
                shape[2] = 40;
            if (rank == 1) {
                shape[2] = W;
                shape[1] = 27;
            }
            const int64_t ni = shape[1] * (rank == 2 ? shape[2] * W : W);
            for (int what = 0; what < 11; ++what) {
                /* 0: random finite; 1, 2: a NaN at one position of many; 3, 4: -0 and +0 orders; 5: zeros only
                 * and negatives; 6..9: start values -0, +0, NaN, lowest on negative backgrounds; 10: start value
                 * 1.0 on random finite values */
                const int npos = what == 1 || what == 2 ? (quick ? 9 : 3 * (int)W) : what == 3 || what == 4 ? 6 : 1;
                for (int pos = 0; pos < npos; ++pos) {
                    /* 2 and 3 threads on every case, but only one in four of the NaN positions (test time) */
                    g_all_threads = !(what == 1 || what == 2) || pos % 4 == 0;
                    d.nan_policy = (pos + what) % 2 ? MAXPOOL_NAN_PROPAGATE : MAXPOOL_NAN_IGNORE;
                    d.window_init = (pos / 2 + what + geo) % 3 == 0 ? MAXPOOL_INIT_FIRST_ELEMENT
                                                                  : MAXPOOL_INIT_EMPTY_VALUE;
                    d.empty_value = (pos + geo) % 2 ? MAXPOOL_EMPTY_NEG_INF : MAXPOOL_EMPTY_LOWEST;
                    g_init_bits = -1;
                    if (what >= 6) { /* (not in the API: set in the plans, the reference's too) */
                        d.window_init = MAXPOOL_INIT_EMPTY_VALUE;
                        g_init_bits = (int)(what == 6   ? 0x8000u
                                            : what == 7 ? 0
                                            : what == 8 ? nans[pos % 6]
                                            : what == 9 ? lowest
                                                        : (h ? 0x3c00u : 0x3f80u));
                    }
                    g_fill_n = ni;
                    for (int64_t i = 0; i < ni; ++i) {
                        const uint64_t b = ts_rng_next(r);
                        uint64_t v = h ? (b & 0x83ffu) | ((1 + (b >> 16) % 30) << 10)
                                       : (b & 0x807fu) | ((100 + (b >> 16) % 41) << 7);
                        if (what >= 3 && what < 10)
                            v |= 0x8000u; /* negatives */
                        if (what == 5 && ts_rng_chance(r, 1, 3))
                            v = ts_rng_chance(r, 1, 2) ? 0x8000u : 0;
                        if (what == 4 && ts_rng_chance(r, 1, 4))
                            v = ninf;
                        if (what == 6 && ts_rng_chance(r, 1, 4)) /* +0 taps after the start value -0 */
                            v = 0;
                        g_fill[i] = v;
                    }
                    const int64_t L = rank == 2 ? shape[2] : 1; /* lines of a plane */
                    if (what == 1 || what == 2) { /* a NaN in line pos / W of plane 1 at column pos % W, and one more */
                        const int64_t line = (pos / W % (L < 3 ? L : 3)) + (L > 36 && pos % 2 ? 34 : 0), col = pos % W;
                        g_fill[(L + line) * W + col] = nans[(pos + what) % 6];
                        if (what == 2)
                            g_fill[(2 * L + (line + 3) % L) * W + (col * 7) % W] = nans[(pos + 3) % 6];
                    }
                    if (what == 3 || what == 4) { /* -0 and +0 near each other: same line, next line, either first */
                        for (int64_t q = 0; q < 6; ++q) {
                            const int64_t line = L > 1 ? ts_rng_range(r, 0, L - 2) : 0,
                                          col = ts_rng_range(r, 0, W - 2);
                            const int64_t at = (L * (q % 3) + line) * W + col;
                            const int64_t at2 = pos % 2 || L == 1 ? at + 1 : at + W;
                            g_fill[at] = (pos / 2) % 2 ? 0 : 0x8000u;
                            g_fill[at2] = (pos / 2) % 2 ? 0x8000u : 0;
                        }
                    }
                    char what_s[200];
                    snprintf(what_s, sizeof what_s, "f16_lines %s geo %d W %lld what %d pos %d nan=%d init=%d",
                             g_tname[dt], geo, (long long)W, what, pos, (int)d.nan_policy, (int)d.window_init);
                    check_case(&d, shape, r, 3, what_s);
                    g_init_bits = -1;
                }
            }
        }
    g_threads_every_isa = 0;
    g_all_threads = 0;
}

/* The W-first form's streaming stores (gen_fl.h, GEN_FL_NT; the types
 * whose vector layer has V_STREAM): an output of >= 4 MiB whose rows are
 * whole 64-byte lines, 64-byte aligned: C x 256 x 256, k3 s1 p1 (4 MiB out),
 * under both NaN rules and both starts (integers: the rule is moot), each
 * aligned (2 and 3 threads too) and 16 bytes past (plain stores); the full
 * run adds the plans just off the rule (one plane fewer, 255 columns). */
static void fl_stream(ts_rng *r, maxpool_dtype dt, int quick)
{
    const int n = quick ? 4 : 8;
    for (int opt = 0; opt < n; ++opt) {
        maxpool_desc d;
        maxpool_desc_init(&d, 2);
        d.dtype = dt;
        d.kernel[0] = d.kernel[1] = 3;
        d.pad_begin[0] = d.pad_begin[1] = d.pad_end[0] = d.pad_end[1] = 1;
        d.nan_policy = opt / 2 % 2 ? MAXPOOL_NAN_PROPAGATE : MAXPOOL_NAN_IGNORE;
        d.window_init = (opt / 2 + (int)dt) % 2 ? MAXPOOL_INIT_FIRST_ELEMENT : MAXPOOL_INIT_EMPTY_VALUE;
        int64_t shape[4] = {1, (int64_t)(64 / g_tsize[dt]), 256, 256};
        if (opt >= 4) {
            shape[1] -= opt % 4 < 2;
            shape[3] -= opt % 4 >= 2;
        }
        char what[200];
        snprintf(what, sizeof what, "fl_stream %s #%d %lldx%lldx%lld nan=%d init=%d", g_tname[dt], opt,
                 (long long)shape[1], (long long)shape[2], (long long)shape[3], (int)d.nan_policy,
                 (int)d.window_init);
        g_yoff = opt % 2 ? 16 : 0;
        const int all = g_all_threads;
        g_all_threads = opt % 2 == 0;
        check_case(&d, shape, r, dt <= MAXPOOL_BF16 ? 1 : 0, what);
        g_all_threads = all;
        g_yoff = -1;
    }
}

/* Which of the three ctest entries (test_kernels_types_1of3 .. _3of3) runs
 * a type's sweep, so ctest -j2 keeps both cores busy (one entry of every
 * type had run 301 s in the Release stage while the other tests took 180):
 * balanced by the times printed per type (full run, Release, 2026-11-27:
 * f16 151 s; bf16 109, i8 16, u8 18; f64 20, i16 20, u16 17, i32 21, i64 14). */
static const int g_part[MAXPOOL_DTYPE_COUNT] = {
    [MAXPOOL_F16] = 1, [MAXPOOL_BF16] = 2, [MAXPOOL_I8] = 2,  [MAXPOOL_U8] = 2,  [MAXPOOL_F64] = 3,
    [MAXPOOL_I16] = 3, [MAXPOOL_U16] = 3,  [MAXPOOL_I32] = 3, [MAXPOOL_I64] = 3,
};

/* test_kernels_types [K/3]: every type, or those of part K; each type's
 * cases come from its own seed, so a part checks the same cases as the
 * whole run */
int main(int argc, char **argv)
{
    int part = 0;
    if (argc >= 2 && (sscanf(argv[1], "%d/3", &part) != 1 || part < 1 || part > 3)) {
        fprintf(stderr, "usage: %s [1/3 | 2/3 | 3/3]\n", argv[0]);
        return 2;
    }
    ts_parallel_always();
    const char *q = getenv("MAXPOOL_TEST_QUICK");
    const int quick = q && *q && strcmp(q, "0") != 0;
    const uint64_t seed = ts_seed_from_env(0x7479706573ULL);
    g_nisas = ts_isa_ceilings(g_isas);
    const long per_type = quick ? 150 : 700;
    for (int dt = MAXPOOL_F64; dt < MAXPOOL_DTYPE_COUNT; ++dt) {
        if (part && g_part[dt] != part)
            continue;
        ts_rng r;
        ts_rng_seed(&r, seed + 0x9e3779b97f4a7c15ULL * (uint64_t)dt);
        const long c0 = g_cases;
        const double t = ts_now_s();
        stems(&r, (maxpool_dtype)dt);
        big_windows(&r, (maxpool_dtype)dt);
        wfirst_indices(&r, (maxpool_dtype)dt, quick);
        if (dt <= MAXPOOL_BF16)
            nan_positions(&r, (maxpool_dtype)dt, quick);
        lines_first(&r, (maxpool_dtype)dt, quick);
        nhwc_rows(&r, (maxpool_dtype)dt, quick);
        global_windows(&r, (maxpool_dtype)dt, quick);
        small_rows(&r, (maxpool_dtype)dt, quick);
        stride1_large(&r, (maxpool_dtype)dt, quick);
        stride1_planes(&r, (maxpool_dtype)dt, quick);
        slices3d(&r, (maxpool_dtype)dt, quick);
        padded_lines(&r, (maxpool_dtype)dt, quick);
        int_lines(&r, (maxpool_dtype)dt, quick);
        if (dt != MAXPOOL_F16 && dt != MAXPOOL_BF16) /* (no streaming stores: V_STREAM) */
            fl_stream(&r, (maxpool_dtype)dt, quick);
        if (dt == MAXPOOL_F64 || dt == MAXPOOL_I64)
            wide_lanes(&r, (maxpool_dtype)dt, quick);
        if (dt == MAXPOOL_F16 || dt == MAXPOOL_BF16 || dt == MAXPOOL_I32)
            pos_lanes(&r, (maxpool_dtype)dt, quick);
        if (dt == MAXPOOL_F16 || dt == MAXPOOL_BF16) {
            const long kc = key_layer((maxpool_dtype)dt);
            printf("%-5s key rule: %ld checks\n", g_tname[dt], kc);
            f16_lines(&r, (maxpool_dtype)dt, quick);
        }
        for (long i = 0; i < per_type; ++i)
            random_case(&r, (maxpool_dtype)dt, i);
        printf("%-5s %6ld cases %7.2f s\n", g_tname[dt], g_cases - c0, ts_now_s() - t);
    }
    printf("%ld cases, %ld kernel runs\n", g_cases, g_runs);
    return ts_finish();
}
