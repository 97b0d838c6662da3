/* SPDX-License-Identifier: Apache-2.0 */
/* Which plans the type-generic kernels (gen_impl.h, gen_<type>_<isa>.c)
 * take and how many tasks they split into (portable). Every kernel here gets
 * only plans with maxpool_plan.bounded (dispatch.c), so the window arrays
 * exist. Stack scratch per task, bounded by constants of gen_impl.h: the
 * window lines of one output row (ro[256]; rows of more lines take the
 * scalar scan), the taps of one window (tpos/toff[256]; windows of more taps
 * take the scalar scan, as do windows of more taps than a VI lane numbers
 * when indices are asked for), one vector of lanes, and without indices the
 * W-first form's strip of W results (GEN_FL_BYTES, 24 KiB, plus its line
 * NaN flags, 6 KiB). Offsets are int64
 * throughout; indices are formed as the reference forms them (row-major
 * only: column-major plans go to the reference). */
#include "kernels.h"
#include "shape.h"

static int gen_match(const struct maxpool_plan *p, maxpool_dtype dt, maxpool_layout layout)
{
    if (p->desc.dtype != dt || p->desc.layout != layout || p->rank < 1 || p->rank > 3)
        return 0;
    return p->desc.index_type == MAXPOOL_INDEX_NONE || p->desc.index_order == MAXPOOL_INDEX_ROW_MAJOR;
}

#define GEN_MATCH(t, DT)                                                                                           \
    int maxpool_gen_##t##_nchw_match(const struct maxpool_plan *p) { return gen_match(p, DT, MAXPOOL_CHANNELS_FIRST); } \
    int maxpool_gen_##t##_nhwc_match(const struct maxpool_plan *p) { return gen_match(p, DT, MAXPOOL_CHANNELS_LAST); }
GEN_MATCH(f64, MAXPOOL_F64)
GEN_MATCH(f16, MAXPOOL_F16)
GEN_MATCH(bf16, MAXPOOL_BF16)
GEN_MATCH(i8, MAXPOOL_I8)
GEN_MATCH(u8, MAXPOOL_U8)
GEN_MATCH(i16, MAXPOOL_I16)
GEN_MATCH(u16, MAXPOOL_U16)
GEN_MATCH(i32, MAXPOOL_I32)
GEN_MATCH(i64, MAXPOOL_I64)

/* Every window a whole plane (gen_glob.h's gl_is, in closed form: the window
 * arrays are filled after kernel selection) */
static int gen_global(const struct maxpool_plan *p)
{
    for (int i = 0; i < p->rank; ++i) {
        const maxpool_axis *a = &p->axis[i];
        int64_t st, cn;
        if (a->out != 1 || (a->in > 1 && a->step != 1))
            return 0;
        maxpool_axis_window(a, p->desc.window == MAXPOOL_WINDOW_ADAPTIVE, 0, &st, &cn);
        if (st != 0 || cn != a->in)
            return 0;
    }
    return 1;
}

#if defined(__x86_64__) || defined(__i386__)
/* Rank-2 k3 s2 p0 plans whose every window is full and whose rows are at
 * most 4 vectors of vn lanes: gen_fr.h's even / odd form (fr_dline). */
static int gen_fr_even_odd(const struct maxpool_plan *p, int64_t vn)
{
    if (p->rank != 2)
        return 0;
    for (int i = 0; i < 2; ++i) {
        const maxpool_axis *a = &p->axis[i];
        if (a->kernel != 3 || a->stride != 2 || a->dilation != 1 || a->pad_begin != 0 || a->out < 1 ||
            2 * (a->out - 1) + 3 > a->in)
            return 0;
    }
    return p->axis[1].out <= 4 * vn;
}
#endif

/* Adaptive 2x2 grids with indices and rows of at most 8 outputs (rank 2, in
 * = 2 out on both axes: gen_fr.h's fri_rows): such a row fills one avx2
 * vector; the avx512 instance spends 16 lanes on it, masked loads and index
 * stores lane by lane, and measured slower (8x512x14x14 -> 7x7 + int64:
 * 2.32-2.36 against 1.19-1.63 x the floor), so f32_nchw_gen_avx2 takes
 * them at the avx512 ceiling too. */
static int gen_fri_narrow(const struct maxpool_plan *p)
{
    return p->rank == 2 && p->desc.window == MAXPOOL_WINDOW_ADAPTIVE && p->desc.index_type != MAXPOOL_INDEX_NONE &&
           p->axis[0].in == 2 * p->axis[0].out && p->axis[1].in == 2 * p->axis[1].out && p->axis[1].out <= 8;
}

/* f32 channels-first: the plans where the gen forms beat the f32 kernels,
 * measured (docs/performance.md, "f32 on the gen forms"): windows of whole
 * planes (global pooling, any window kind, with or without indices); with
 * indices, adaptive windows of rank 1 and 2; else values only,
 * fixed undilated windows of at most 8 taps per axis, pads smaller than the
 * window (real networks' kind), W stride 1 or 2 (the W-first form, gen_fl.h):
 *  - W stride 1, kernels <= 3, rank 2 or 3 (s1 vpipe / cblock / rows: gen
 *    0.68-0.92 of their time); 1-D goes to f32_ncw_s1 (gen 1.7x slower);
 *    larger stride-1 kernels to the s1 kernels (log-step passes);
 *  - W stride 2 where f32_nchw_k3s2 takes the plan: k3 s2 p0 planes of
 *    full windows up to 4 vectors per output row (gen_fr.h's even / odd
 *    form: avx2 17-65 wide 0.5-0.91 of its time, avx512 17-129 wide
 *    0.4-0.94; measured 2026-11-27, 1x64xWxW and 1x32xWxW); else only planes up to 32
 *    wide (avx512: 0.24-0.97 of its time at 13-32, 1.0 at 40); at the avx2
 *    ceiling (f32_nchw_gen_avx2) only up to 16 wide (0.4-0.8), and 17-32
 *    wide only without first-element start and where k3s2's row ends with
 *    masked loads (right padding: 0.68-0.78); elsewhere there k3s2 is faster
 *    (gen 0.98-1.37x its time; with first-element start, the ONNX
 *    front-end's, 1.16-2.5x; measured 2026-11-26, 1xCx{13..40}^2, p0/p1);
 *  - W stride 2 where f32_nchw_k2s2 takes it: only planes 4-7 and 12-15
 *    wide (rows in one vector, gen_fr.h: VGG 14x14 0.43 of its time at
 *    avx512, 0.71 at avx2; 4-7 0.4-0.7); not 8-11 and 16 (its 8-wide rows:
 *    gen 1.0-4x slower), 3 or wider than 16 (gen 1.1-1.9x slower);
 *  - any other W stride 2 (rows kernel: 3-D k2s2 0.22, k5s2 0.74, 1-D k3s2
 *    0.5-0.8) but 1-D 2-tap windows (gen 1.27x slower). */
static int gen_f32_match(const struct maxpool_plan *p, int avx2)
{
    if (!gen_match(p, MAXPOOL_F32, MAXPOOL_CHANNELS_FIRST))
        return 0;
    if (gen_global(p)) /* gen_glob.h: 1x512x7x7 -> 1x1 about 2x the floor, f32 lines first 38-54x */
        return 1;
    if (!avx2 && gen_fri_narrow(p))
        return 0;
    if (p->desc.index_type != MAXPOOL_INDEX_NONE) { /* adaptive heads (gen_cfs.h, gen_cfa.h, lines first): */
        const maxpool_axis *w = &p->axis[p->rank - 1]; /* 13 -> 6 1.6-2x, 14 -> 7 5x, 1-D 2x faster (measured */
        return p->desc.window == MAXPOOL_WINDOW_ADAPTIVE && /* up to 100 columns); 3-D only short rows (gen_cfa.h) */
               (p->rank <= 2 ? w->in <= 256 : w->in <= 16 && w->out <= 8);
    }
    if (p->desc.window != MAXPOOL_WINDOW_FIXED)
        return 0;
    for (int i = 0; i < p->rank; ++i)
        if (p->axis[i].dilation != 1 || p->axis[i].kernel > 8 || p->axis[i].pad_begin >= p->axis[i].kernel ||
            p->axis[i].pad_end >= p->axis[i].kernel)
            return 0;
    const maxpool_axis *w = &p->axis[p->rank - 1];
    /* rank 3 with depth stride 1 and W stride 1 or 2 (gen_fl3.h: each slice's 2-D max once, then the max
     * over D; its band of rows fits up to 256 output columns): 1x32x16x56x56 k3 s1 and 1x16x16x56x56 k7 s1
     * (f32 largek) measured in docs/performance.md */
    if (p->rank == 3 && p->axis[0].stride == 1 && p->axis[0].kernel >= 2 && w->stride <= 2 && w->out <= 256)
        return 1;
    if (w->stride == 1) {
        for (int i = 0; i < p->rank; ++i)
            if (p->axis[i].kernel > 3)
                return 0;
        return p->rank >= 2;
    }
    if (w->stride != 2)
        return 0;
#if defined(__x86_64__) || defined(__i386__)
    if (maxpool_f32_nchw_k3s2_match(p)) {
        if (gen_fr_even_odd(p, avx2 ? 8 : 16))
            return 1;
        if (p->rank != 2 || w->in > 32)
            return 0;
        if (!avx2 || w->in <= 16)
            return 1;
        const int tail_in = 2 * (w->out - 1) - w->pad_begin + 2 < w->in; /* f32_nchw_k3s2_avx2.c */
        return p->desc.window_init != MAXPOOL_INIT_FIRST_ELEMENT && !tail_in;
    }
    if (maxpool_f32_nchw_k2s2_match(p)) /* but rows in one vector (gen_fr.h) where it is faster */
        return p->rank == 2 && w->in <= 15 && (w->in & 7) >= 4;
#endif
    return !(p->rank == 1 && w->kernel == 2);
}

int maxpool_gen_f32_nchw_match(const struct maxpool_plan *p) { return gen_f32_match(p, 0); }
int maxpool_gen_f32_nchw_avx2_match(const struct maxpool_plan *p) { return gen_f32_match(p, 1); }

/* Output rows of one plane (every axis but the last). */
static int64_t gen_rows(const struct maxpool_plan *p)
{
    int64_t rows = 1;
    for (int i = 0; i < p->rank - 1; ++i)
        rows *= p->axis[i].out;
    return rows;
}

/* channels-first: one task is one output row of one (n, c) plane */
int64_t maxpool_gen_nchw_tasks(const struct maxpool_plan *p) { return p->n * p->c * gen_rows(p); }
/* channels-last: one task is one output row (n, o0, o1) of every channel */
int64_t maxpool_gen_nhwc_tasks(const struct maxpool_plan *p) { return p->n * gen_rows(p); }
