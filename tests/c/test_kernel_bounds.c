/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Kernel scratch at its bounds (issue 16): every specialised kernel is
 * driven right at each bound its match function states (src/kernels/: the
 * comment block above each match function lists the kernel's fixed-size
 * buffers and the conditions that keep their index ranges inside) and one
 * past it, at every ISA ceiling this CPU (and MAXPOOL_ISA) allows.
 *
 * Each case checks which kernel the plan picked (maxpool_plan_kernel_name:
 * the bounded case must really drive the kernel, the one past the bound must
 * not, or must take the in-kernel fallback the comment names), whether the
 * plan is bounded (maxpool_plan.bounded: pads, strides, dilations, kernels
 * and outputs <= 4*in + 64), then runs it with the input, the output and the
 * indices each malloc'ed at exactly its size (the ASan stage catches any
 * access outside them; other builds put guard bytes around each buffer and
 * check them) and compares values and indices bit for bit with the scalar
 * reference plan (desc.max_isa = MAXPOOL_ISA_SCALAR). Inputs: small
 * integers with NaN (signs, payloads, signalling), -0.0/+0.0 ties, -inf /
 * -FLT_MAX backgrounds (windows no tap beats), random values; options: no /
 * int32 / int64 indices on every index axis, empty-window index -1, first
 * tap or plane start, empty-value or first-element start, both NaN
 * policies, both empty values.
 *
 * Plans whose limits need inputs of gigabytes (in_spatial and max_offset
 * around INT32_MAX) are only planned, never run: the kernel name and the
 * plan's max_offset are checked.
 *
 * MAXPOOL_TEST_QUICK=1 (the ASan stage) runs fewer option sets and value
 * kinds per case.
 */
#include "maxpool.h"
#include "plan.h"
#include "test_support.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__SANITIZE_ADDRESS__)
#define KB_ASAN 1
#endif
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KB_ASAN 1
#endif
#endif

static int g_quick;
static maxpool_isa g_isas[4]; /* SIMD ceilings tested (the scalar one is the reference) */
static int g_nisas;
static long g_cases, g_runs;

/* ---- buffers: exactly their size under ASan, guarded otherwise ---------- */

#define KB_GUARD 64
#define KB_GUARD_BYTE 0xc3

static void *kb_alloc(size_t bytes)
{
#ifdef KB_ASAN
    return malloc(bytes ? bytes : 1);
#else
    unsigned char *b = malloc(bytes + 2 * KB_GUARD);
    if (!b)
        return NULL;
    memset(b, KB_GUARD_BYTE, KB_GUARD);
    memset(b + KB_GUARD + bytes, KB_GUARD_BYTE, KB_GUARD);
    return b + KB_GUARD;
#endif
}

/* Whether the guard bytes around a kb_alloc'ed buffer are intact (always
 * under ASan, which checks the accesses themselves). */
static int kb_guards_ok(const void *p, size_t bytes)
{
#ifdef KB_ASAN
    (void)p;
    (void)bytes;
    return 1;
#else
    const unsigned char *b = (const unsigned char *)p - KB_GUARD;
    for (size_t i = 0; i < KB_GUARD; ++i)
        if (b[i] != KB_GUARD_BYTE || b[KB_GUARD + bytes + i] != KB_GUARD_BYTE)
            return 0;
    return 1;
#endif
}

static void kb_free(void *p)
{
#ifdef KB_ASAN
    free(p);
#else
    if (p)
        free((unsigned char *)p - KB_GUARD);
#endif
}

/* ---- inputs ------------------------------------------------------------- */

enum { K_NAN, K_TIES, K_LOW, K_RAND, K_NKINDS };

static float bits_f(uint32_t b)
{
    float f;
    memcpy(&f, &b, 4);
    return f;
}

static float kb_value(ts_rng *r, int kind)
{
    switch (kind) {
    case K_NAN: /* small integers (ties), -0.0, NaN of both signs, quiet and signalling */
        if (ts_rng_chance(r, 1, 6)) {
            const uint32_t sign = ts_rng_chance(r, 1, 2) ? 0x80000000u : 0u;
            const uint32_t quiet = ts_rng_chance(r, 3, 4) ? 0x00400000u : 0u;
            return bits_f(sign | 0x7f800000u | quiet | (uint32_t)ts_rng_range(r, 1, 0x3fffff));
        }
        if (ts_rng_chance(r, 1, 8))
            return -0.0f;
        return (float)ts_rng_range(r, -3, 3);
    case K_TIES: { /* the maximum of a window is mostly a tie of -0.0 and +0.0 */
        const int64_t q = ts_rng_range(r, 0, 5);
        return q < 2 ? 0.0f : q < 4 ? -0.0f : q == 4 ? -1.0f : -INFINITY;
    }
    case K_LOW: { /* -inf and -FLT_MAX: windows that never beat the start value; a rare NaN */
        const int64_t q = ts_rng_range(r, 0, 39);
        return q == 0 ? bits_f(0xffc00007u) : q == 1 ? 0.0f : q < 20 ? -INFINITY : -FLT_MAX;
    }
    default: return (float)((double)(int64_t)(ts_rng_next(r) >> 40) / (double)(1 << 20) - 8.0);
    }
}

/* ---- option sets -------------------------------------------------------- */

typedef struct kb_opt {
    maxpool_index_type it;
    maxpool_empty_index ei;
    maxpool_window_init wi;
    maxpool_nan_policy np;
    maxpool_empty_value ev;
    int axis;
} kb_opt;

#define NONE_ MAXPOOL_INDEX_NONE
#define I32_ MAXPOOL_INDEX_I32
#define I64_ MAXPOOL_INDEX_I64
#define M1_ MAXPOOL_EMPTY_INDEX_MINUS_ONE
#define FT_ MAXPOOL_EMPTY_INDEX_FIRST_TAP
#define PS_ MAXPOOL_EMPTY_INDEX_PLANE_START
#define EV_ MAXPOOL_INIT_EMPTY_VALUE
#define FE_ MAXPOOL_INIT_FIRST_ELEMENT
#define IGN_ MAXPOOL_NAN_IGNORE
#define PROP_ MAXPOOL_NAN_PROPAGATE
#define NINF_ MAXPOOL_EMPTY_NEG_INF
#define LOW_ MAXPOOL_EMPTY_LOWEST
static const kb_opt g_opts[] = {
    {NONE_, M1_, EV_, IGN_, NINF_, 1},  /* 0: values, the common inference plan */
    {NONE_, FT_, FE_, IGN_, LOW_, 1},   /* 1: values, first element (the e00 gathers / loads) */
    {I32_, FT_, EV_, PROP_, LOW_, 2},   /* 2 */
    {I64_, PS_, FE_, PROP_, NINF_, 0},  /* 3 */
    {I64_, FT_, FE_, IGN_, NINF_, 1},   /* 4 */
    {I32_, M1_, FE_, PROP_, LOW_, 1},   /* 5 */
    {I32_, PS_, EV_, IGN_, NINF_, 2},   /* 6 */
    {NONE_, M1_, FE_, PROP_, LOW_, 1},  /* 7 */
    {I64_, M1_, EV_, PROP_, LOW_, 0},   /* 8 */
    {NONE_, PS_, EV_, IGN_, LOW_, 1},   /* 9 */
    {NONE_, M1_, EV_, PROP_, NINF_, 1}, /* 10 */
};
#define KB_NOPTS (int)(sizeof g_opts / sizeof g_opts[0])

/* Which option sets a case runs: the kernel's match function takes all of
 * them, or only some (the values-only kernels; the k3s2 saved-slice buffer
 * holds 1 + indices + first-element arrays). */
enum { O_ALL, O_VAL_IGN, O_VAL_IGN_EV, O_ARR1, O_ARR2, O_ARR3 };

static int opt_in(int o, int cls)
{
    const kb_opt *q = &g_opts[o];
    const int idx = q->it != MAXPOOL_INDEX_NONE, fe = q->wi == MAXPOOL_INIT_FIRST_ELEMENT;
    switch (cls) {
    case O_VAL_IGN: return !idx && q->np == MAXPOOL_NAN_IGNORE;
    case O_VAL_IGN_EV: return !idx && q->np == MAXPOOL_NAN_IGNORE && !fe;
    case O_ARR1: return !idx && !fe;
    case O_ARR2: return idx + fe == 1;
    case O_ARR3: return idx && fe;
    default: return 1;
    }
}

static void apply_opt(maxpool_desc *d, int o)
{
    d->index_type = g_opts[o].it;
    d->empty_index = g_opts[o].ei;
    d->window_init = g_opts[o].wi;
    d->nan_policy = g_opts[o].np;
    d->empty_value = g_opts[o].ev;
    d->index_axis = g_opts[o].axis;
    d->index_order = MAXPOOL_INDEX_ROW_MAJOR;
}

/* ---- expected kernels --------------------------------------------------- */

static int isa_vw(maxpool_isa isa)
{
    return isa == MAXPOOL_ISA_AVX512 ? 16 : isa == MAXPOOL_ISA_AVX2 ? 8 : isa == MAXPOOL_ISA_SCALAR ? 1 : 4;
}

static const char *isa_suffix(maxpool_isa isa)
{
    return isa == MAXPOOL_ISA_AVX512 ? "avx512"
           : isa == MAXPOOL_ISA_AVX2 ? "avx2"
           : isa == MAXPOOL_ISA_NEON ? "neon"
                                     : "sse2";
}

/* tmpl with "%s" replaced by the suffix of the effective ceiling isa ("%a":
 * the same, but avx2 at the avx512 ceiling: kernels without an AVX-512
 * instance) */
static void kname(char *buf, size_t n, const char *tmpl, maxpool_isa isa)
{
    const char *at = strstr(tmpl, "%a");
    if (at) {
        snprintf(buf, n, "%.*s%s%s", (int)(at - tmpl), tmpl, isa_suffix(isa == MAXPOOL_ISA_AVX512 ? MAXPOOL_ISA_AVX2 : isa),
                 at + 2);
        return;
    }
    at = strstr(tmpl, "%s");
    if (!at)
        snprintf(buf, n, "%s", tmpl);
    else
        snprintf(buf, n, "%.*s%s%s", (int)(at - tmpl), tmpl, isa_suffix(isa), at + 2);
}

#define ROWS "f32_nchw_rows_%a"          /* no AVX-512 instance (build time) */
#define LARGEK "f32_nchw_s1_largek_%a"
#define LINES "f32_nchw_linesfirst_%s"
#define LINES2 "f32_nchw_linesfirst_avx2" /* rows of at most 16 input columns at avx2 and avx512 */
#define LOGSTEP "f32_nchw_s1_logstep_%s"
#define NHWC "f32_nhwc_%s"
#define K3S2 "f32_nchw_k3s2_avx2"
#define K2S2 "f32_nchw_k2s2_avx2"
#define NCW1 "f32_ncw_s1_avx2"
#define VPIPE "f32_nchw_s1_vpipe_avx2"
#define CBLOCK "f32_nchw_s1_cblock_%s" /* avx2 and avx512 instances (the SPP shapes: avx2) */
#define REF "ref_f32"
#define GEN "f32_nchw_gen_%s"

/* What a case expects. want: the kernel at every SIMD ceiling ("%s": the
 * ceiling's suffix); want_avx2: at avx2 and avx512 ceilings when an
 * avx2-only kernel takes the plan there (NULL: want); avoid: a kernel the
 * plan must not take (the one whose bound the case passes); opts: O_*;
 * vw: run only at ceilings of this vector width (0: all); bounded: the
 * plan's maxpool_plan.bounded; genv: option sets that go to the gen
 * template's f32 kernel at the avx2 and avx512 ceilings (gen_match.c), bit
 * 0 the values-only ones, bit 1 those with indices; the others go to want. */
typedef struct kb_want {
    const char *want, *want_avx2, *avoid;
    int opts, vw, bounded, genv;
} kb_want;

static kb_want W(const char *want, const char *want_avx2, const char *avoid, int opts)
{
    kb_want w = {want, want_avx2, avoid, opts, 0, strcmp(want, REF) != 0, 0};
    return w;
}

/* want with indices; values only: f32_nchw_gen at avx2 / avx512 */
static kb_want WG(const char *want, int opts)
{
    kb_want w = W(want, NULL, NULL, opts);
    w.genv = 1;
    return w;
}

/* ---- descriptors -------------------------------------------------------- */

/* Fixed windows, rank r; k/s/dl/pb/pe per axis (NULL: 1, 1, 1, 0, 0). */
static maxpool_desc fixed(int r, const int64_t *k, const int64_t *s, const int64_t *dl, const int64_t *pb,
                          const int64_t *pe)
{
    maxpool_desc d;
    maxpool_desc_init(&d, r);
    for (int i = 0; i < r; ++i) {
        d.kernel[i] = k ? k[i] : 1;
        d.stride[i] = s ? s[i] : 1;
        d.dilation[i] = dl ? dl[i] : 1;
        d.pad_begin[i] = pb ? pb[i] : 0;
        d.pad_end[i] = pe ? pe[i] : 0;
    }
    return d;
}

static maxpool_desc adaptive(int r, const int64_t *out)
{
    maxpool_desc d;
    maxpool_desc_init(&d, r);
    d.window = MAXPOOL_WINDOW_ADAPTIVE;
    for (int i = 0; i < r; ++i)
        d.output_size[i] = out[i];
    return d;
}

/* The same in channels-last layout. */
static maxpool_desc cl(maxpool_desc d)
{
    d.layout = MAXPOOL_CHANNELS_LAST;
    return d;
}

#define A(...) ((const int64_t[]){__VA_ARGS__})

/* ---- one case ----------------------------------------------------------- */

/* Runs desc on shape with one option set and value kind at every ceiling
 * (the reference first), checking kernel names, bounded, guards, bits. */
static void run_one(const char *what, maxpool_desc d, const int64_t *shape, const kb_want *w, int opt, int kind,
                    ts_rng *r)
{
    apply_opt(&d, opt);
    d.num_threads = 1;
    d.max_isa = MAXPOOL_ISA_SCALAR;
    maxpool_plan *p0 = NULL;
    maxpool_error err;
    if (!CHECK_MSG(maxpool_plan_create(&d, shape, &p0, &err) == MAXPOOL_OK, "%s opt %d: plan rejected: %s", what, opt,
                   err.message))
        return;
    ++g_cases;
    const struct maxpool_plan *q0 = (const struct maxpool_plan *)p0;
    CHECK_MSG(q0->bounded == w->bounded, "%s opt %d: bounded %d, expected %d", what, opt, q0->bounded, w->bounded);
    CHECK_STR_EQ(maxpool_plan_kernel_name(p0), REF);
    const int64_t ni = maxpool_plan_input_elements(p0), no = maxpool_plan_output_elements(p0);
    const int wi = d.index_type != MAXPOOL_INDEX_NONE;
    const size_t isz = d.index_type == MAXPOOL_INDEX_I64 ? 8 : 4;
    const size_t xb = (size_t)ni * 4, yb = (size_t)no * 4, ib = wi ? (size_t)no * isz : 0;
    float *x = kb_alloc(xb), *yr = malloc(yb ? yb : 1), *y = kb_alloc(yb);
    void *ir = malloc(ib ? ib : 1), *ix = wi ? kb_alloc(ib) : NULL;
    for (int64_t i = 0; i < ni; ++i)
        x[i] = kb_value(r, kind);
    if (kind == K_NAN && ni > 0) { /* a run of NaN across vector boundaries */
        const int64_t a = ts_rng_range(r, 0, ni - 1), len = ts_rng_range(r, 1, 20);
        for (int64_t i = a; i < ni && i < a + len; ++i)
            x[i] = bits_f(0x7fc00000u | (uint32_t)(i & 0xffff));
    }
    CHECK_STATUS(maxpool_run(p0, x, yr, wi ? ir : NULL), MAXPOOL_OK);
    maxpool_isa done[4];
    int ndone = 0;
    for (int k = 0; k < g_nisas; ++k) {
        const maxpool_isa eff = maxpool_effective_isa(g_isas[k]);
        int seen = 0;
        for (int j = 0; j < ndone; ++j)
            seen |= done[j] == eff;
        if (seen || (w->vw && isa_vw(eff) != w->vw))
            continue;
        done[ndone++] = eff;
        d.max_isa = g_isas[k];
        maxpool_plan *p = NULL;
        if (!CHECK_MSG(maxpool_plan_create(&d, shape, &p, NULL) == MAXPOOL_OK, "%s: plan rejected at %s", what,
                       maxpool_isa_name(eff)))
            continue;
        const char *got = maxpool_plan_kernel_name(p);
        ts_set_context("%s | opt %d kind %d isa %s kernel %s", what, opt, kind, maxpool_isa_name(eff), got);
        char want[64], avoid[64];
        const char *wt = eff == MAXPOOL_ISA_SCALAR                                                ? REF
                         : (eff == MAXPOOL_ISA_AVX2 || eff == MAXPOOL_ISA_AVX512) && w->want_avx2 ? w->want_avx2
                                                                                                  : w->want;
        if ((w->genv & (wi ? 2 : 1)) && (eff == MAXPOOL_ISA_AVX2 || eff == MAXPOOL_ISA_AVX512))
            wt = GEN;
        kname(want, sizeof want, wt, eff);
        CHECK_STR_EQ(got, want);
        if (w->avoid) {
            kname(avoid, sizeof avoid, w->avoid, eff);
            CHECK_MSG(strcmp(got, avoid) != 0, "took %s past its bound", avoid);
        }
        memset(y, 0xa5, yb);
        if (wi)
            memset(ix, 0xa5, ib);
        CHECK_STATUS(maxpool_run(p, x, y, ix), MAXPOOL_OK);
        ++g_runs;
        CHECK(kb_guards_ok(x, xb) && kb_guards_ok(y, yb) && (!wi || kb_guards_ok(ix, ib)));
        CHECK_BITS_EQ(y, yr, no, 4, "values");
        if (wi)
            CHECK_BITS_EQ(ix, ir, no, isz, "indices");
        ts_set_context("%s", "");
        maxpool_plan_destroy(p);
    }
    maxpool_plan_destroy(p0);
    kb_free(x);
    free(yr);
    kb_free(y);
    free(ir);
    kb_free(ix);
}

/* Every option set of the case's class and value kinds (fewer when quick). */
static void run_case(const char *what, maxpool_desc d, const int64_t *shape, kb_want w, ts_rng *r)
{
    int n = 0;
    for (int o = 0; o < KB_NOPTS; ++o) {
        if (!opt_in(o, w.opts))
            continue;
        ++n;
        if (g_quick) { /* every other option set of the class (at least one), one value kind each */
            if (n % 2 == 0)
                continue;
            run_one(what, d, shape, &w, o, (o + n) % K_NKINDS, r);
            continue;
        }
        run_one(what, d, shape, &w, o, o % K_NKINDS, r);
        run_one(what, d, shape, &w, o, (o + 1 + n % 3) % K_NKINDS, r); /* another kind */
    }
}

/* ---- the bounds --------------------------------------------------------- */

/* f32_nchw_rows: the padded copy (lbuf, 2048 floats), the line slots
 * (32 slots of chunk + VW; else streaming), the column tables (256), and the
 * plan bounds (4*in + 64) on the cases only this kernel takes (rank 1). */
static void sec_rows(ts_rng *r)
{
    /* stride 1 (dilated: the S1 groups): the left border outputs [0, 16)
     * (pad 16, a multiple of every VW) go through a padded copy of
     * u1 - u0 = 15 + (k-1)*d + 2 floats: 2048 = CF_LBUF_FLOATS at k678 d3;
     * so do the right border's 16 (out 1001, interior up to 985). k1017 d2:
     * 2049, the scalar column loop. */
    run_case("rows: padded copy of exactly CF_LBUF_FLOATS (s1 k678 d3 p16)", fixed(1, A(678), A(1), A(3), A(16), A(16)),
             A(1, 2, 3000), W(ROWS, NULL, NULL, O_ALL), r);
    run_case("rows: padded copy of CF_LBUF_FLOATS + 1 (s1 k1017 d2 p16): scalar columns",
             fixed(1, A(1017), A(1), A(2), A(16), A(16)), A(1, 2, 3000), W(ROWS, NULL, NULL, O_ALL), r);
    /* stride 2 (the S2 pair loads): left border [0, 16) at pad 32, copy
     * (16-1)*2 + (k-1) + 2 = k + 31 floats: 2048 at k2017, 2049 at k2018 */
    run_case("rows: S2 padded copy of exactly CF_LBUF_FLOATS (s2 k2017 p32)",
             fixed(1, A(2017), A(2), NULL, A(32), A(32)), A(1, 2, 3000), W(ROWS, NULL, NULL, O_ALL), r);
    run_case("rows: S2 padded copy of CF_LBUF_FLOATS + 1 (s2 k2018 p32): scalar columns",
             fixed(1, A(2018), A(2), NULL, A(32), A(32)), A(1, 2, 3000), W(ROWS, NULL, NULL, O_ALL), r);
    /* stride 2, pad 2400 <= 4*600 + 64: the first chunk's 256 border
     * outputs read a padded copy of 514 floats lying wholly in the begin
     * padding (u1 = -1886) */
    run_case("rows: padded copy wholly in the begin padding (in 600, k3 s2 p2400)",
             fixed(1, A(3), A(2), NULL, A(2400), A(7)), A(1, 2, 600), W(ROWS, NULL, NULL, O_ALL), r);
    /* line slots: H windows of 32 lines, s1 = 32, nslots*chs = 32*64 = 2048
     * = CF_SLOT_FLOATS at every VW; 33 lines: s1 = 64, streaming */
    run_case("rows: 32 line slots filling CF_SLOT_FLOATS (k32x3 s1x2)",
             fixed(2, A(32, 3), A(1, 2), NULL, A(0, 1), A(0, 1)), A(1, 2, 40, 300), W(ROWS, NULL, NULL, O_ALL), r);
    run_case("rows: 33 lines, streaming (k33x3 s1x2)", fixed(2, A(33, 3), A(1, 2), NULL, A(0, 1), A(0, 1)),
             A(1, 2, 40, 300), W(ROWS, NULL, NULL, O_ALL), r);
    run_case("rows: rank 3, 4x8 = 32 slots (k4x8x3 s1x1x2)",
             fixed(3, A(4, 8, 3), A(1, 1, 2), NULL, A(1, 0, 1), A(0, 2, 1)), A(1, 2, 6, 12, 100),
             WG(ROWS, O_ALL), r);
    run_case("rows: rank 3, 4x9 lines, streaming (k4x9x3 s1x1x2)",
             fixed(3, A(4, 9, 3), A(1, 1, 2), NULL, A(1, 0, 1), A(0, 2, 1)), A(1, 2, 6, 12, 100),
             W(ROWS, NULL, NULL, O_ALL), r);
    /* one slot: chunks of CF_FT_CAP = 256 columns (the column tables full) */
    run_case("rows: column chunks of CF_FT_CAP (k3 s2 p1, out 350)", fixed(1, A(3), A(2), NULL, A(1), A(1)),
             A(1, 3, 700), WG(ROWS, O_ALL), r);
    /* plan bounds (4*in + 64), rank 1 */
    kb_want wa = W(ROWS, NULL, NULL, O_ALL);
    wa.genv = 2; /* with indices: the gen kernel (adaptive heads) */
    run_case("rows: adaptive out = 4*in + 64 (5 -> 84)", adaptive(1, A(84)), A(1, 2, 5), wa, r);
    run_case("rows: adaptive out = 4*in + 65 (5 -> 85): reference", adaptive(1, A(85)), A(1, 2, 5),
             W(REF, NULL, NULL, O_ALL), r);
    run_case("rows: pads = 4*in + 64 (in 7, k3 s3 p92), empty windows at both ends",
             fixed(1, A(3), A(3), NULL, A(92), A(92)), A(2, 2, 7), W(ROWS, NULL, NULL, O_ALL), r);
    run_case("rows: pads = 4*in + 65 (p93): reference", fixed(1, A(3), A(3), NULL, A(93), A(93)), A(2, 2, 7),
             W(REF, NULL, NULL, O_ALL), r);
    run_case("rows: stride = 4*in + 64 > in (in 5, k2 s84 pe84)", fixed(1, A(2), A(84), NULL, NULL, A(84)), A(1, 3, 5),
             W(ROWS, NULL, NULL, O_ALL), r);
    run_case("rows: stride = 4*in + 65: reference", fixed(1, A(2), A(85), NULL, NULL, A(84)), A(1, 3, 5),
             W(REF, NULL, NULL, O_ALL), r);
    /* dilated kernel (k-1)*d + 1 = 104 = 4*in + 64 and out = 104: windows
     * 0..6 hold their second tap, 7..99 nothing (the middle), 100..103 their
     * first tap */
    run_case("rows: dilated kernel and out = 4*in + 64, empty middle (in 10, k2 d103 p100+97)",
             fixed(1, A(2), A(1), A(103), A(100), A(97)), A(1, 2, 10), W(ROWS, NULL, NULL, O_ALL), r);
    run_case("rows: dilated kernel 4*in + 65 (d104): reference", fixed(1, A(2), A(1), A(104), A(100), A(97)),
             A(1, 2, 10), W(REF, NULL, NULL, O_ALL), r);
}

/* f32_nchw_s1_largek (the row kernel's log-step W pass): its table holds
 * span + 2*VW = (VW + k - 1) + 2*VW <= CF_TCAP = 1024 floats when the chunk
 * is one vector, so k = 1025 - 3*VW fills it exactly and k + 1 falls back to
 * the vector groups; each VW only at its own ceiling. Kernels larger than
 * the input. */
static void sec_largek(ts_rng *r)
{
    static const int vws[] = {4, 8, 16};
    for (int i = 0; i < 3; ++i) {
        for (int past = 0; past < 2; ++past) {
            const int64_t k = 1025 - 3 * vws[i] + past;
            char what[160];
            snprintf(what, sizeof what, "largek: log-step table %s CF_TCAP at VW %d (s1 k%lld p3+5)",
                     past ? "one past" : "exactly", vws[i], (long long)k);
            kb_want w = W(LARGEK, NULL, NULL, O_ALL);
            w.vw = vws[i];
            run_case(what, fixed(1, A(k), A(1), NULL, A(3), A(5)), A(1, 2, 1500), w, r);
        }
    }
    run_case("largek: kernel 4*in + 64 > in (in 5, k84 p40)", fixed(1, A(84), A(1), NULL, A(40), A(40)), A(1, 2, 5),
             W(LARGEK, NULL, NULL, O_ALL), r);
    run_case("largek: kernel 4*in + 65: reference", fixed(1, A(85), A(1), NULL, A(40), A(41)), A(1, 2, 5),
             W(REF, NULL, NULL, O_ALL), r);
}

/* f32_nchw_linesfirst: the combined row (CF_LF_CAP = 2048: one W window
 * must fit), the column chunk (CF_LF_COLS = 256, empty windows included),
 * the line batches (CF_LF_MAXLINES = 256), and the plan bounds. */
static void sec_linesfirst(ts_rng *r)
{
    run_case("linesfirst: W window of CF_LF_CAP (k2x2048 s1x3)", fixed(2, A(2, 2048), A(1, 3), NULL, NULL, NULL),
             A(1, 2, 3, 2100), W(LINES, NULL, NULL, O_ALL), r);
    run_case("linesfirst: W window of CF_LF_CAP + 1 (k2x2049): the row kernel",
             fixed(2, A(2, 2049), A(1, 3), NULL, NULL, NULL), A(1, 2, 3, 2100), W(ROWS, NULL, LINES, O_ALL), r);
    run_case("linesfirst: adaptive W extent 4093/2 + 2 = CF_LF_CAP", adaptive(2, A(2, 2)), A(1, 2, 3, 4093),
             W(LINES, NULL, NULL, O_ALL), r);
    run_case("linesfirst: adaptive W extent 4095/2 + 2 = CF_LF_CAP + 1: the row kernel", adaptive(2, A(2, 2)),
             A(1, 2, 3, 4095), W(ROWS, NULL, LINES, O_ALL), r);
    /* k2 d4000 s3 p4060 on 2000 columns: windows 0..19 empty, 20..686 hold
     * their second tap, 687..1353 (667 > CF_LF_COLS: column chunks
     * [768, 1024) and [1024, 1280) wholly empty) nothing, 1354..2019 their
     * first tap, 2020..2039 empty */
    run_case("linesfirst: 667 empty windows in a row (W k2 d4000 s3 p4060)",
             fixed(2, A(2, 2), A(1, 3), A(1, 4000), A(0, 4060), A(0, 4060)), A(1, 2, 3, 2000),
             W(LINES, NULL, NULL, O_ALL), r);
    run_case("linesfirst: 16x16 = CF_LF_MAXLINES lines a window (k16x16x3 s1x1x3)",
             fixed(3, A(16, 16, 3), A(1, 1, 3), NULL, NULL, A(0, 0, 1)), A(1, 2, 16, 16, 20),
             W(LINES, NULL, NULL, O_ALL), r);
    run_case("linesfirst: 16x17 lines, batches (k16x17x3)", fixed(3, A(16, 17, 3), A(1, 1, 3), NULL, NULL, A(0, 0, 1)),
             A(1, 2, 16, 17, 20), W(LINES, NULL, NULL, O_ALL), r);
    run_case("linesfirst: stride 4*in + 64 > in (W 5, k2x2 s1x84)", fixed(2, A(2, 2), A(1, 84), NULL, NULL, A(0, 84)),
             A(1, 2, 4, 5), W(LINES, LINES2, NULL, O_ALL), r);
    run_case("linesfirst: stride 4*in + 65: reference", fixed(2, A(2, 2), A(1, 85), NULL, NULL, A(0, 84)),
             A(1, 2, 4, 5), W(REF, NULL, NULL, O_ALL), r);
    kb_want wl = W(LINES, LINES2, NULL, O_ALL);
    wl.genv = 2; /* with indices: the gen kernel (adaptive heads) */
    run_case("linesfirst: adaptive out = 4*in + 64 on both axes (3x5 -> 76x84)", adaptive(2, A(76, 84)),
             A(1, 2, 3, 5), wl, r);
    run_case("linesfirst: adaptive out_w = 4*in + 65: reference", adaptive(2, A(76, 85)), A(1, 2, 3, 5),
             W(REF, NULL, NULL, O_ALL), r);
    /* W k2 d103 s3 p100+97 on 10 columns: windows 0..2 hold their second
     * tap, 3..33 nothing, 34 its first tap */
    run_case("linesfirst: dilated kernel 4*in + 64, empty middle (W 10, k2 d103 s3)",
             fixed(2, A(2, 2), A(1, 3), A(1, 103), A(0, 100), A(0, 97)), A(1, 2, 3, 10), W(LINES, LINES2, NULL, O_ALL),
             r);
}

/* f32_nchw_s1_logstep: k_h <= LS_KH_MAX = 64, k_w <= LS_KW_MAX = 256,
 * (k_h + 2) * (k_w + 32) <= 5120 (the strip buffer), strips of at most
 * LS_STRIP_ROWS = 512 output rows (elist), pads and outputs at 4*in + 64.
 * Kernels > 15 (or empty windows): the avx2 column-strip kernel declines. */
static void sec_logstep(ts_rng *r)
{
    run_case("logstep: k_h = LS_KH_MAX (k64x45: 66*77 <= 5120)", fixed(2, A(64, 45), NULL, NULL, A(2, 1), A(3, 4)),
             A(1, 1, 70, 60), W(LOGSTEP, NULL, NULL, O_ALL), r);
    run_case("logstep: k_h = LS_KH_MAX + 1 (k65x45): the row kernel", fixed(2, A(65, 45), NULL, NULL, A(2, 1), A(3, 4)),
             A(1, 1, 70, 60), W(LARGEK, NULL, LOGSTEP, O_ALL), r);
    run_case("logstep: (k_h + 2) * (k_w + 32) = 5120 (k30x128)", fixed(2, A(30, 128), NULL, NULL, A(1, 3), A(2, 0)),
             A(1, 1, 40, 200), W(LOGSTEP, NULL, NULL, O_ALL), r);
    run_case("logstep: (k_h + 2) * (k_w + 32) = 5152 (k30x129): the row kernel",
             fixed(2, A(30, 129), NULL, NULL, A(1, 3), A(2, 0)), A(1, 1, 40, 200), W(LARGEK, NULL, LOGSTEP, O_ALL), r);
    /* 82x248, k18x224 ((18 + 2) * (224 + 32) = 5120 too), indices: strips
     * of nrcap = cap/Ls - 1 input rows (3 output rows), cap - (nrcap + 1)*Ls
     * = 80 < Ls = 240 floats left at every VW */
    run_case("logstep: strips filling the buffer (k18x224 on 82x248)", fixed(2, A(18, 224), NULL, NULL, NULL, NULL),
             A(1, 1, 82, 248), W(LOGSTEP, NULL, NULL, O_ALL), r);
    run_case("logstep: k_w = LS_KW_MAX (k15x256)", fixed(2, A(15, 256), NULL, NULL, A(7, 100), A(7, 0)),
             A(1, 1, 20, 300), W(LOGSTEP, NULL, NULL, O_ALL), r);
    run_case("logstep: k_w = LS_KW_MAX + 1 (k15x257): the row kernel",
             fixed(2, A(15, 257), NULL, NULL, A(7, 100), A(7, 0)), A(1, 1, 20, 300), W(LARGEK, NULL, LOGSTEP, O_ALL),
             r);
    /* W = 1: rows of one vector, nrcap - 2 >= 512 rows a strip (capped at
     * LS_STRIP_ROWS) at sse2 and without indices; empty first and last
     * windows (pads 3 with k3) keep the column-strip kernel out */
    run_case("logstep: strips of LS_STRIP_ROWS output rows (3000x1, k3x1 p3)",
             fixed(2, A(3, 1), NULL, NULL, A(3, 0), A(3, 0)), A(1, 2, 3000, 1), W(LOGSTEP, NULL, NULL, O_ALL), r);
    /* out_w 1280: 5 chunks of exactly LS_CHUNK = 256 columns (the column
     * tables full); pads 3 with k3 leave empty windows (no column strips) */
    run_case("logstep: column chunks of LS_CHUNK (6x1276, k3 p3: out_w 1280)",
             fixed(2, A(3, 3), NULL, NULL, A(3, 3), A(3, 3)), A(1, 2, 6, 1276), W(LOGSTEP, NULL, NULL, O_ALL), r);
    /* out_h = 84 = 4*in + 64, out_w = 88 = 4*in + 64: pads 60+21, 30+55 */
    run_case("logstep: out and pads at 4*in + 64, empty rows and columns (5x6, k3x4)",
             fixed(2, A(3, 4), NULL, NULL, A(60, 30), A(21, 55)), A(1, 2, 5, 6), W(LOGSTEP, NULL, NULL, O_ALL), r);
    run_case("logstep: out_h = 4*in + 65: reference", fixed(2, A(3, 4), NULL, NULL, A(60, 30), A(22, 55)),
             A(1, 2, 5, 6), W(REF, NULL, NULL, O_ALL), r);
}

/* f32_nhwc: the W-first line buffer (out_w*C <= KFN_WBUF = 8192), the fast
 * path's row table (KFN_MAX_ROWS = 16), the plan bounds. */
static void sec_nhwc(ts_rng *r)
{
    run_case("nhwc: W-first line buffer of KFN_WBUF (out_w 128 x C 64, k3 s2)",
             cl(fixed(2, A(3, 3), A(2, 2), NULL, NULL, NULL)), A(1, 5, 257, 64), W(NHWC, NULL, NULL, O_ALL), r);
    run_case("nhwc: out_w*C = KFN_WBUF + 64 (out_w 129): the plain path",
             cl(fixed(2, A(3, 3), A(2, 2), NULL, NULL, NULL)), A(1, 5, 259, 64), W(NHWC, NULL, NULL, O_ALL), r);
    run_case("nhwc: 16 window rows (KFN_MAX_ROWS, k16x3)", cl(fixed(2, A(16, 3), NULL, NULL, A(1, 1), A(0, 1))),
             A(1, 20, 9, 16), W(NHWC, NULL, NULL, O_ALL), r);
    run_case("nhwc: 17 window rows (k17x3): the block path", cl(fixed(2, A(17, 3), NULL, NULL, A(1, 1), A(0, 1))),
             A(1, 20, 9, 16), W(NHWC, NULL, NULL, O_ALL), r);
    run_case("nhwc: adaptive out = 4*in + 64 (3x2 -> 76x72)", cl(adaptive(2, A(76, 72))), A(1, 3, 2, 8),
             W(NHWC, NULL, NULL, O_ALL), r);
    run_case("nhwc: adaptive out = 4*in + 65: reference", cl(adaptive(2, A(77, 72))), A(1, 3, 2, 8),
             W(REF, NULL, NULL, O_ALL), r);
    run_case("nhwc: pads = 4*in + 64 (in 7, k3 s3 p92)", cl(fixed(1, A(3), A(3), NULL, A(92), A(92))), A(2, 7, 5),
             W(NHWC, NULL, NULL, O_ALL), r);
    run_case("nhwc: pads = 4*in + 65: reference", cl(fixed(1, A(3), A(3), NULL, A(93), A(92))), A(2, 7, 5),
             W(REF, NULL, NULL, O_ALL), r);
    run_case("nhwc: dilated kernel 4*in + 64, empty middle (W 10, k2 d103)",
             cl(fixed(2, A(1, 2), A(1, 1), A(1, 103), A(0, 100), A(0, 97))), A(1, 2, 10, 5), W(NHWC, NULL, NULL, O_ALL),
             r);
}

/* f32_nchw_k3s2 (avx2): column chunks of K3_CHUNK = 512; rank 3's saved
 * row results (out_h * 8 <= K3_SBUF / arrays, arrays = 1 + indices +
 * first element) and chunks of K3_CHUNK3 = 256. Below avx2 the row kernel. */
static void sec_k3s2(ts_rng *r)
{
    run_case("k3s2: out_w 550 > K3_CHUNK (k3 s2 p1)", fixed(2, A(3, 3), A(2, 2), NULL, A(1, 1), A(1, 1)),
             A(1, 2, 9, 1100), W(ROWS, K3S2, NULL, O_ALL), r);
    static const struct {
        int cls;
        int64_t oh;
    } sb[] = {{O_ARR1, 1024}, {O_ARR2, 512}, {O_ARR3, 341}};
    for (int i = 0; i < 3; ++i) {
        for (int past = 0; past < 2; ++past) {
            const int64_t oh = sb[i].oh + past, h = 2 * oh + 1; /* k3 s2 p0: out = (h - 3)/2 + 1 */
            char what[160];
            snprintf(what, sizeof what, "k3s2: rank 3 saved rows, out_h*8 %s K3_SBUF/%d (out_h %lld)",
                     past ? "past" : "=", i + 1, (long long)oh);
            kb_want w = W(ROWS, past ? ROWS : K3S2, past ? K3S2 : NULL, sb[i].cls);
            w.genv = past; /* past the bound, values only: the gen kernel (rank 3, W stride 2) */
            run_case(what, fixed(3, A(3, 3, 3), A(2, 2, 2), NULL, NULL, NULL), A(1, 1, 5, h, 41), w, r);
        }
    }
    run_case("k3s2: rank 3 chunks of K3_CHUNK3 (out_w 300)",
             fixed(3, A(3, 3, 3), A(2, 2, 2), NULL, A(1, 0, 1), A(1, 0, 1)), A(1, 1, 5, 9, 600),
             W(ROWS, K3S2, NULL, O_ALL), r);
    /* pad_begin 1 (the cheap left edge, in_w >= 16) and pad_begin 2 (past the kernel's 0 or 1) */
    /* (values only, planes up to 32 wide go to the gen kernel: gen_match.c) */
    kb_want w = W(ROWS, K3S2, NULL, O_ALL);
    w.genv = 1;
    run_case("k3s2: pad_begin 1, in_w 16 (cheap left edge)", fixed(2, A(3, 3), A(2, 2), NULL, A(1, 1), A(1, 1)),
             A(1, 2, 7, 16), w, r);
    /* rows whose last group loads without masks (every tap inside the line: p0) read up to 17 floats past
     * the line end: only where the tensor goes on that far (3x4 planes: not in the last two; ASan). Values
     * only, k3 s2 p0 planes go to the gen kernel up to 65 wide at avx2 and 129 at avx512 (gen_match.c):
     * 5x67 planes (33 outputs a row) reach k3s2 at avx2 */
    for (int64_t c = 1; c <= 3; ++c) {
        run_case("k3s2: unmasked last group, 3x4 planes", fixed(2, A(3, 3), A(2, 2), NULL, NULL, NULL),
                 A(1, c, 3, 4), w, r);
        run_case("k3s2: unmasked last group, 3x6 planes", fixed(2, A(3, 3), A(2, 2), NULL, NULL, NULL),
                 A(1, c, 3, 6), w, r);
        for (int vw = 8; vw <= 16; vw += 8) {
            kb_want w27 = W(ROWS, K3S2, NULL, O_ALL);
            w27.vw = vw;
            w27.genv = vw == 16; /* (avx512: the gen kernel's even / odd form) */
            run_case("k3s2: unmasked last group, 5x67 planes", fixed(2, A(3, 3), A(2, 2), NULL, NULL, NULL),
                     A(1, c, 5, 67), w27, r);
        }
    }
    w = W(ROWS, NULL, K3S2, O_ALL);
    w.genv = 1;
    run_case("k3s2: pad_begin 2: the row kernel", fixed(2, A(3, 3), A(2, 2), NULL, A(2, 2), A(1, 1)), A(1, 2, 7, 16),
             w, r);
}

/* f32_nchw_k2s2 (avx2): 2*out <= in on both axes; the 8-wide rows path. */
static void sec_k2s2(ts_rng *r)
{
    run_case("k2s2: 8x8 planes (two output rows a vector)", fixed(2, A(2, 2), A(2, 2), NULL, NULL, NULL), A(1, 3, 8, 8),
             W(ROWS, K2S2, NULL, O_ALL), r);
    run_case("k2s2: 2*out = in (10x22)", fixed(2, A(2, 2), A(2, 2), NULL, NULL, NULL), A(2, 3, 10, 22),
             W(ROWS, K2S2, NULL, O_ALL), r);
    maxpool_desc d = fixed(2, A(2, 2), A(2, 2), NULL, NULL, NULL);
    d.rounding = MAXPOOL_ROUND_CEIL;
    kb_want w = W(ROWS, NULL, K2S2, O_ALL);
    w.genv = 1;
    run_case("k2s2: ceil, 2*out = in + 1 (9x11): the row kernel", d, A(1, 3, 9, 11), w, r);
}

/* f32_ncw_s1 (avx2): kernel <= 8, no empty window (pad_begin <= k - 1). */
static void sec_ncw(ts_rng *r)
{
    run_case("ncw_s1: k8 pad 7 (the widest, every window non-empty)", fixed(1, A(8), NULL, NULL, A(7), A(7)),
             A(1, 3, 100), W(LARGEK, NCW1, NULL, O_ALL), r);
    run_case("ncw_s1: k9: the row kernel", fixed(1, A(9), NULL, NULL, A(8), A(8)), A(1, 3, 100),
             W(LARGEK, NULL, NCW1, O_ALL), r);
    run_case("ncw_s1: k8 pad 8 (an empty window): the row kernel", fixed(1, A(8), NULL, NULL, A(8), A(0)), A(1, 3, 100),
             W(LARGEK, NULL, NCW1, O_ALL), r);
    run_case("ncw_s1: k8 wider than the line (in 5, p7)", fixed(1, A(8), NULL, NULL, A(7), A(7)), A(2, 1, 5),
             W(LARGEK, NCW1, NULL, O_ALL), r);
}

/* f32_nchw_s1_vpipe (avx2): kernels <= VP_KMAX = 15; the band copy
 * (VP_BUF_FLOATS = 4096: the gap layout 8 + 15*272 = 4088 for a 264-wide
 * plane, the padded layout 15 rows of a 272-float span); the state ring of
 * the generic P = 8 instance. */
static void sec_vpipe(ts_rng *r)
{
    run_case("vpipe: k15, gap layout of 4088 floats (264 wide)", fixed(2, A(15, 15), NULL, NULL, NULL, NULL),
             A(1, 1, 40, 264), W(LOGSTEP, VPIPE, NULL, O_VAL_IGN), r);
    run_case("vpipe: k15, two chunks, spans of 272 floats (300 wide, p7)",
             fixed(2, A(15, 15), NULL, NULL, A(7, 7), A(7, 7)), A(1, 1, 40, 300), W(LOGSTEP, VPIPE, NULL, O_VAL_IGN),
             r);
    run_case("vpipe: k16 = VP_KMAX + 1: the log-step kernel", fixed(2, A(16, 16), NULL, NULL, A(7, 7), A(7, 7)),
             A(1, 1, 40, 300), W(LOGSTEP, NULL, VPIPE, O_VAL_IGN), r);
    run_case("vpipe: k12x5 (generic P = 8, the ring)", fixed(2, A(12, 5), NULL, NULL, A(11, 4), A(0, 4)),
             A(1, 2, 50, 100), W(LOGSTEP, VPIPE, NULL, O_VAL_IGN), r);
}

/* f32_nchw_s1_cblock (avx2, avx512): tx/tr of CB_MAX = 448 vectors (in_h*in_w,
 * in_h*out_w, out_h*out_w), cb_line's CB_XMAX = 64 (out + k - 1). */
static void sec_cblock(ts_rng *r)
{
    run_case("cblock: in_h*in_w = in_h*out_w = out_h*out_w = CB_MAX (14x32, k5 p2)",
             fixed(2, A(5, 5), NULL, NULL, A(2, 2), A(2, 2)), A(1, 9, 14, 32), W(LOGSTEP, CBLOCK, NULL, O_VAL_IGN),
             r);
    run_case("cblock: in_h*in_w = 480 (15x32): the column-strip kernel",
             fixed(2, A(5, 5), NULL, NULL, A(2, 2), A(2, 2)), A(1, 9, 15, 32), W(LOGSTEP, VPIPE, CBLOCK, O_VAL_IGN),
             r);
    run_case("cblock: out_w + k_w - 1 = CB_XMAX (11x20, k3x25 p1x22)",
             fixed(2, A(3, 25), NULL, NULL, A(1, 22), A(1, 22)), A(1, 3, 11, 20),
             W(LOGSTEP, CBLOCK, NULL, O_VAL_IGN), r);
    run_case("cblock: an H line of CB_XMAX (64x7, k5x1)", fixed(2, A(5, 1), NULL, NULL, NULL, NULL), A(1, 3, 64, 7),
             W(LOGSTEP, CBLOCK, NULL, O_VAL_IGN), r);
    run_case("cblock: 65x7: the column-strip kernel", fixed(2, A(5, 1), NULL, NULL, NULL, NULL), A(1, 3, 65, 7),
             W(LOGSTEP, VPIPE, CBLOCK, O_VAL_IGN), r);
}

/* ---- plan-only bounds (inputs of gigabytes) ----------------------------- */

/* Plans desc on shape at every SIMD ceiling (never run): the kernel is
 * want (want_avx2 at avx2/avx512), never avoid; max_offset as given (-1:
 * not checked). */
static void plan_only(const char *what, maxpool_desc d, const int64_t *shape, const char *want, const char *want_avx2,
                      const char *avoid, int64_t max_offset)
{
    for (int k = 0; k < g_nisas; ++k) {
        const maxpool_isa eff = maxpool_effective_isa(g_isas[k]);
        d.max_isa = g_isas[k];
        maxpool_plan *p = NULL;
        maxpool_error err;
        if (!CHECK_MSG(maxpool_plan_create(&d, shape, &p, &err) == MAXPOOL_OK, "%s: plan rejected: %s", what,
                       err.message))
            return;
        ++g_cases;
        const struct maxpool_plan *q = (const struct maxpool_plan *)p;
        ts_set_context("%s | isa %s kernel %s", what, maxpool_isa_name(eff), maxpool_plan_kernel_name(p));
        char w[64], a[64];
        kname(w, sizeof w,
              eff == MAXPOOL_ISA_SCALAR                                             ? REF
              : (eff == MAXPOOL_ISA_AVX2 || eff == MAXPOOL_ISA_AVX512) && want_avx2 ? want_avx2
                                                                                    : want,
              eff);
        CHECK_STR_EQ(maxpool_plan_kernel_name(p), w);
        if (avoid) {
            kname(a, sizeof a, avoid, eff);
            CHECK(strcmp(maxpool_plan_kernel_name(p), a) != 0);
        }
        CHECK(q->bounded);
        if (max_offset >= 0)
            CHECK_EQ_I64(q->max_offset, max_offset);
        ts_set_context("%s", "");
        maxpool_plan_destroy(p);
    }
}

static void sec_plan_only(ts_rng *r)
{
    (void)r;
    const int64_t M = INT32_MAX;
    maxpool_desc d;
    /* max_offset: an empty last window whose first tap lies past the input
     * (FIRST_TAP), int64 indices. Rank 1, in = INT32_MAX, k1 s2^30: p1+1
     * puts the last window's tap at 2^31 - 1 (max_offset INT32_MAX), p0+2
     * at 2^31 (one past). */
    d = fixed(1, A(1), A(1 << 30), NULL, A(1), A(1));
    d.index_type = MAXPOOL_INDEX_I64;
    d.empty_index = MAXPOOL_EMPTY_INDEX_FIRST_TAP;
    plan_only("rows: max_offset = INT32_MAX", d, A(1, 1, M), ROWS, NULL, NULL, M);
    d.layout = MAXPOOL_CHANNELS_LAST;
    plan_only("nhwc: max_offset = INT32_MAX", d, A(1, M, 1), NHWC, NULL, NULL, M);
    d.index_type = MAXPOOL_INDEX_I32; /* index_axis 1, one plane: the largest index is max_offset */
    plan_only("nhwc: max_offset = INT32_MAX, int32 indices", d, A(1, M, 1), NHWC, NULL, NULL, M);
    d = fixed(1, A(1), A(1 << 30), NULL, A(0), A(2));
    d.index_type = MAXPOOL_INDEX_I64;
    d.empty_index = MAXPOOL_EMPTY_INDEX_FIRST_TAP;
    plan_only("rows: max_offset = INT32_MAX + 1: reference", d, A(1, 1, M), REF, NULL, NULL, M + 1);
    d.layout = MAXPOOL_CHANNELS_LAST;
    plan_only("nhwc: max_offset = INT32_MAX + 1: reference", d, A(1, M, 1), REF, NULL, NULL, M + 1);
    { /* int32 indices past INT32_MAX: the plan itself is refused */
        maxpool_plan *p = NULL;
        d.index_type = MAXPOOL_INDEX_I32;
        CHECK_STATUS(maxpool_plan_create(&d, A(1, M, 1), &p, NULL), MAXPOOL_ERR_OVERFLOW);
        maxpool_plan_destroy(p);
    }
    /* lines-first (2 lines a window): in = 2 x (2^30 - 1); the last W
     * window's first tap 2^30 (s 2^29, pe 2) gives max_offset (2^30 - 1) +
     * 2^30 = INT32_MAX; 2^30 + 1 (s 2^29 + 1, p1+3) one more */
    d = fixed(2, A(2, 1), A(1, 1 << 29), NULL, A(0, 0), A(0, 2));
    d.index_type = MAXPOOL_INDEX_I64;
    d.empty_index = MAXPOOL_EMPTY_INDEX_FIRST_TAP;
    plan_only("linesfirst: max_offset = INT32_MAX", d, A(1, 1, 2, (1 << 30) - 1), LINES, NULL, NULL, M);
    d = fixed(2, A(2, 1), A(1, (1 << 29) + 1), NULL, A(0, 1), A(0, 3));
    d.index_type = MAXPOOL_INDEX_I64;
    d.empty_index = MAXPOOL_EMPTY_INDEX_FIRST_TAP;
    plan_only("linesfirst: max_offset = INT32_MAX + 1: reference", d, A(1, 1, 2, (1 << 30) - 1), REF, NULL, NULL,
              M + 1);

    /* in_spatial (int32 positions with or without indices): values only,
     * first-element start (the e00 gathers at the window's first line) */
    d = fixed(1, A(1), A(1 << 30), NULL, A(1), A(1));
    d.window_init = MAXPOOL_INIT_FIRST_ELEMENT;
    plan_only("rows: in_spatial = INT32_MAX, values only", d, A(1, 1, M), ROWS, NULL, NULL, M - 1);
    plan_only("rows: in_spatial = INT32_MAX + 1, values only: reference", d, A(1, 1, M + 1), REF, NULL, NULL, M);
    d = fixed(2, A(1, 3), A(1, 3), NULL, NULL, NULL); /* one line a window: the row kernel */
    d.window_init = MAXPOOL_INIT_FIRST_ELEMENT;
    plan_only("rows: in_spatial = 46340^2 <= INT32_MAX", d, A(1, 1, 46340, 46340), ROWS, NULL, NULL, -1);
    plan_only("rows: in_spatial = 46341^2 > INT32_MAX: reference", d, A(1, 1, 46341, 46341), REF, NULL, NULL, -1);
    d = fixed(2, A(3, 3), NULL, NULL, A(1, 1), A(1, 1)); /* log-step; avx2: the column strips (no positions) */
    d.window_init = MAXPOOL_INIT_FIRST_ELEMENT;
    plan_only("logstep: in_spatial = 65535*32768 <= INT32_MAX", d, A(1, 1, 65535, 32768), LOGSTEP, GEN, NULL, -1);
    plan_only("logstep: in_spatial = 2^31: reference (avx2: gen, int64 offsets)", d, A(1, 1, 65536, 32768), REF, GEN,
              LOGSTEP, -1);
    d.index_type = MAXPOOL_INDEX_I64;
    plan_only("logstep: in_spatial = 65535*32768, int64 indices", d, A(1, 1, 65535, 32768), LOGSTEP, NULL, NULL, -1);
    d = fixed(2, A(2, 2), A(2, 2), NULL, NULL, NULL);
    plan_only("k2s2: in_spatial = 46340^2", d, A(1, 1, 46340, 46340), ROWS, K2S2, NULL, -1);
    plan_only("k2s2: in_spatial = 46341^2: reference (avx2: gen, int64 offsets)", d, A(1, 1, 46341, 46341), REF,
              GEN, NULL, -1);
    /* k3s2: in_spatial <= INT32_MAX - 64 = 1701 * 1262483; INT32_MAX - 63 = 1984 * 1082401 */
    d = fixed(2, A(3, 3), A(2, 2), NULL, NULL, NULL);
    plan_only("k3s2: in_spatial = INT32_MAX - 64", d, A(1, 1, 1701, 1262483), ROWS, K3S2, NULL, -1);
    plan_only("k3s2: in_spatial = INT32_MAX - 63: the row kernel (avx2: gen)", d, A(1, 1, 1984, 1082401), ROWS,
              GEN, K3S2, -1);
}

/* ---- main --------------------------------------------------------------- */

int main(void)
{
    const char *q = getenv("MAXPOOL_TEST_QUICK");
    g_quick = q && *q && strcmp(q, "0") != 0;
    const uint64_t seed = ts_seed_from_env(0x626f756e6473ULL);
    const maxpool_isa cpu = maxpool_cpu_isa();
#if defined(__x86_64__) || defined(__i386__)
    if (cpu == MAXPOOL_ISA_SSE2 || cpu == MAXPOOL_ISA_AVX2 || cpu == MAXPOOL_ISA_AVX512)
        g_isas[g_nisas++] = MAXPOOL_ISA_SSE2;
    if (cpu == MAXPOOL_ISA_AVX2 || cpu == MAXPOOL_ISA_AVX512)
        g_isas[g_nisas++] = MAXPOOL_ISA_AVX2;
    if (cpu == MAXPOOL_ISA_AVX512)
        g_isas[g_nisas++] = MAXPOOL_ISA_AVX512;
#elif defined(__aarch64__)
    if (cpu == MAXPOOL_ISA_NEON)
        g_isas[g_nisas++] = MAXPOOL_ISA_NEON;
#endif
    if (g_nisas == 0)
        g_isas[g_nisas++] = MAXPOOL_ISA_SCALAR; /* no SIMD: every plan is the reference's */
    printf("ISA ceilings:");
    for (int k = 0; k < g_nisas; ++k)
        printf(" %s", maxpool_isa_name(maxpool_effective_isa(g_isas[k])));
    printf("%s\n", g_quick ? " (quick)" : "");
#if !defined(__x86_64__) && !defined(__i386__)
    printf("note: the avx2-only kernels' cases check the fallback kernels here\n");
#endif
    static const struct {
        const char *name;
        void (*fn)(ts_rng *);
    } secs[] = {
        {"rows", sec_rows},       {"largek", sec_largek},       {"linesfirst", sec_linesfirst},
        {"logstep", sec_logstep}, {"nhwc", sec_nhwc},           {"k3s2", sec_k3s2},
        {"k2s2", sec_k2s2},       {"ncw_s1", sec_ncw},          {"vpipe", sec_vpipe},
        {"cblock", sec_cblock},   {"plan_only", sec_plan_only},
    };
    for (size_t k = 0; k < sizeof secs / sizeof secs[0]; ++k) {
        ts_rng r;
        ts_rng_seed(&r, seed + 0x9e3779b97f4a7c15ULL * (uint64_t)(k + 1));
        const long c0 = g_cases;
        const double t = ts_now_s();
        secs[k].fn(&r);
        printf("section %-11s %5ld plans %7.2f s\n", secs[k].name, g_cases - c0, ts_now_s() - t);
    }
    printf("%ld plans, %ld kernel runs\n", g_cases, g_runs);
    return ts_finish();
}
