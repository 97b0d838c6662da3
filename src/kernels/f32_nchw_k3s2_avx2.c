/* SPDX-License-Identifier: Apache-2.0 */
/*
 * NCHW f32 max pooling, kernel 3x3, stride 2, dilation 1, pad_begin 0 or 1
 * on both axes, every window non-empty (any pad_end / rounding otherwise),
 * AVX2: the ResNet-stem pool without the general kernel's per-line set-up.
 *
 * One output row reads input lines h = 2*oh - pb_h + j, j = 0, 1, 2; line
 * j=2 of row oh is line j=0 of row oh+1, so each line's W result is computed
 * once and handed to the next row through a one-line buffer (values,
 * positions, and with first-element start the window's first tap).
 *
 * W pass of a line, 8 outputs per group: taps u + 2*i + j (u = 2*o0 - pb_w)
 * are the even and odd lanes of the pair (u, u+8) and the odd lanes of the
 * pair (u+1, u+9), de-interleaved in-lane (lane order 0 1 4 5 2 3 6 7 until
 * the output's one permute). Groups that touch the line's ends load through
 * masks and put the start value where the tap is outside [0, in): padding
 * never wins, since the start value never replaces best.
 *
 * Bit-exactness with the reference's row-major scan is the argument of
 * f32_nchw_rows_impl.h (W pass per line keeps the line's first maximum or
 * last NaN; the lines combined in order with the same strict rule keep the
 * window's), including first-element start: the passes run from -inf and the
 * result takes (e00, its position) where it has no position, or (NaN
 * ignored) where e00 is NaN. e00, the window's first tap, is tap 0 of the
 * first line inside the input (tap 1 for the column whose tap 0 is the left
 * pad). Without first-element start, a result with no position (nothing
 * beat the start value) gets the empty-window index: -1, the first tap or
 * the plane start.
 *
 * Scratch: the one-line buffer of a column chunk (stack, 6 KiB); nothing is
 * allocated. Tasks: planes, split into blocks of output rows when there are
 * few planes (each block computes its own first line).
 */
#include "kernels.h"

#include "f32_cf_geom.h"

#include "simd_f32_avx2.h"

#include <math.h>
#include <stdalign.h>
#include <stdint.h>

#define KFN(n) k3s2_##n
#include "force_inline.h"
#define CF_AI MAXPOOL_AI
#include "f32_update_impl.h"

#define K3_CHUNK 512 /* output columns per chunk (multiple of 8) */
#define K3_MIN_TASKS 32
#define K3_SBUF 8192  /* rank 3: floats of saved row results (values [, positions] [, first taps]) */
#define K3_CHUNK3 256 /* rank 3: output columns per chunk at most */
#ifndef K3_PREFETCH
#define K3_PREFETCH 2
#endif

/* 8 floats at xr + off; lanes outside [0, in) are the start value. */
CF_AI VF k3s2_bload(const float *xr, int64_t off, int64_t in, VF vinit)
{
    const VI idx = VI_ADD(VI_SET1((int32_t)off), VI_IOTA);
    const VI m = _mm256_and_si256(_mm256_cmpgt_epi32(idx, VI_SET1(-1)), _mm256_cmpgt_epi32(VI_SET1((int32_t)in), idx));
    /* masked-off lanes are not read (no fault), the pointer only addresses them */
    const VF v = _mm256_maskload_ps((const float *)((uintptr_t)xr + (uintptr_t)(off * 4)), m);
    return VF_BLEND(vinit, v, VI_ASF(m));
}

/* W result of one line for the 8 outputs at u = 2*o0 - pb (in-lane order;
 * border 0: every load inside the line, 1: masked loads, 2: u == -1 and the
 * rest inside):
 * best/bi from the start value, and tap0 = each window's first tap inside
 * the line (first-element start). */
CF_AI void k3s2_wline(const float *xr, int64_t u, int64_t in, int border, VF vinit, int32_t loff, VF *best, VI *bi,
                      VF *tap0, const int prop, const int wi, const int fe)
{
    VF a0, a1, b0, b1;
    if (border == 2) { /* u == -1, the rest of the 17 taps inside: tap -1 is the pad */
        b0 = VF_LOAD(xr);
        b1 = VF_LOAD(xr + 8);
        a1 = VF_LOAD(xr + 7);
        a0 = _mm256_permutevar8x32_ps(b0, _mm256_setr_epi32(0, 0, 1, 2, 3, 4, 5, 6));
        a0 = _mm256_blend_ps(a0, vinit, 1);
    } else if (!border) {
        a0 = VF_LOAD(xr + u);
        a1 = VF_LOAD(xr + u + 8);
        b0 = VF_LOAD(xr + u + 1);
        b1 = VF_LOAD(xr + u + 9);
    } else {
        a0 = k3s2_bload(xr, u, in, vinit);
        a1 = k3s2_bload(xr, u + 8, in, vinit);
        b0 = k3s2_bload(xr, u + 1, in, vinit);
        b1 = k3s2_bload(xr, u + 9, in, vinit);
    }
    VF ev, od;
    VF_DEINT_INLANE(a0, a1, &ev, &od);
    const VF od2 = _mm256_shuffle_ps(b0, b1, _MM_SHUFFLE(3, 1, 3, 1));
    const VI pv = VI_ADD(VI_SET1(loff + (int32_t)u), VI_IOTA2_INLANE);
    VF b = vinit;
    VI p = VI_SET1(-1);
    KFN(update)(&b, &p, ev, pv, prop, wi);
    KFN(update)(&b, &p, od, VI_ADD(pv, VI_SET1(1)), prop, wi);
    KFN(update)(&b, &p, od2, VI_ADD(pv, VI_SET1(2)), prop, wi);
    *best = b;
    *bi = p;
    if (fe) {
        if (border == 2)
            ev = _mm256_blend_ps(ev, od, 1);
        else if (border && u < 0) /* the window whose tap 0 is the left pad starts at tap 1 */
            ev = VF_BLEND(ev, od, VI_ASF(_mm256_cmpgt_epi32(VI_SET1(0), VI_ADD(VI_SET1((int32_t)u), VI_IOTA2_INLANE))));
        *tap0 = ev;
    }
}

/* One slice's chain of lines along H for a column chunk: the slice, its
 * in-tensor offset, and the W results of the last line (line 0 of the next
 * output row): values, positions, first taps. */
typedef struct k3s2_chain {
    const float *xs; /* the slice (a plane of rank 2, one depth of rank 3) */
    int32_t soff;    /* in-plane offset of the slice */
    float *lv, *lt;
    int32_t *lp;
} k3s2_chain;

/* The slice's row result of output row h0 (lines h0, h0+1, h0+2) for the
 * 8 outputs at u (group g of the chunk), in-lane order, and e00 = tap 0 of
 * its first line inside the input. l0: line 0 is 0 absent (top pad), 1 in
 * the chain's buffer, 2 to compute; h1/h2: lines 1/2 inside the input. The
 * chain's buffer receives line 2. */
CF_AI void k3s2_rowres(const k3s2_chain *ch, int64_t h0, int64_t inw, int64_t u, int64_t g, int border, VF vinit,
                       VF *best, VI *bi, VF *e00, const int l0, const int h1, const int h2, const int prop,
                       const int wi, const int fe)
{
    const VI vneg = VI_SET1(-1);
    VF v0 = vinit, v1 = vinit, v2 = vinit, f0 = vinit, f1 = vinit, f2 = vinit;
    VI q0 = vneg, q1 = vneg, q2 = vneg;
    if (l0 == 2) {
        k3s2_wline(ch->xs + h0 * inw, u, inw, border, vinit, ch->soff + (int32_t)(h0 * inw), &v0, &q0, &f0, prop, wi,
                   fe);
    } else if (l0 == 1) {
        v0 = _mm256_load_ps(ch->lv + g);
        if (wi)
            q0 = _mm256_load_si256((const __m256i *)(const void *)(ch->lp + g));
        if (fe)
            f0 = _mm256_load_ps(ch->lt + g);
    }
    if (K3_PREFETCH && !border && l0 == 1 && h1 && h2) { /* lines of a later output row */
        _mm_prefetch((const char *)(ch->xs + (h0 + 1 + 2 * K3_PREFETCH) * inw + u), _MM_HINT_T0);
        _mm_prefetch((const char *)(ch->xs + (h0 + 2 + 2 * K3_PREFETCH) * inw + u), _MM_HINT_T0);
    }
    if (h1)
        k3s2_wline(ch->xs + (h0 + 1) * inw, u, inw, border, vinit, ch->soff + (int32_t)((h0 + 1) * inw), &v1, &q1, &f1,
                   prop, wi, fe);
    if (h2)
        k3s2_wline(ch->xs + (h0 + 2) * inw, u, inw, border, vinit, ch->soff + (int32_t)((h0 + 2) * inw), &v2, &q2, &f2,
                   prop, wi, fe);
    _mm256_store_ps(ch->lv + g, v2);
    if (wi)
        _mm256_store_si256((__m256i *)(void *)(ch->lp + g), q2);
    if (fe)
        _mm256_store_ps(ch->lt + g, f2);
    /* lines in order: line 0 (or the start value) first */
    VF b = v0;
    VI p = q0;
    KFN(update)(&b, &p, v1, q1, prop, wi);
    KFN(update)(&b, &p, v2, q2, prop, wi);
    *best = b;
    *bi = p;
    if (fe)
        *e00 = l0 ? f0 : f1;
}

/* Output of 8 windows (n <= 8 stored) from the combined result (in-lane
 * order): first-element fix-up, empty-window index, lane order, index base. */
CF_AI void k3s2_emit(VF best, VI bi, VF e00, VI e0p, float *yo, void *io, int64_t n, int64_t base, int first_tap,
                     const int prop, const int ik, const int fe)
{
    const int wi = ik != 0;
    if (fe)
        KFN(fe_fix)(&best, &bi, e00, e0p, prop, wi);
    best = VF_FIX(best);
    if (n == 8)
        VF_STORE(yo, best);
    else
        VF_MASKSTORE(yo, n, best);
    if (!wi)
        return;
    VI t2 = bi;
    if (!fe) {
        if (first_tap == 1)
            t2 = VI_BLEND_IM(t2, e0p, VI_SIGN(t2));
        else if (first_tap == 2)
            t2 = VI_BLEND_IM(t2, _mm256_setzero_si256(), VI_SIGN(t2));
    }
    t2 = VI_FIX(t2);
    KFN(store_index)(io, t2, base, !fe && !first_tap, n, ik);
}

/* In-plane position of each window's first tap (in-lane order). */
CF_AI VI k3s2_e0p(int64_t u, int64_t first_line_off)
{
    VI cu = VI_ADD(VI_SET1((int32_t)u), VI_IOTA2_INLANE);
    cu = _mm256_max_epi32(cu, _mm256_setzero_si256());
    return VI_ADD(cu, VI_SET1((int32_t)first_line_off));
}

/* What one output row of a rank-2 plan needs. */
typedef struct k3s2_row {
    k3s2_chain ch;
    float *yo;       /* output row */
    char *io;        /* index row (or NULL) */
    int64_t h0, inw; /* first line of the window (may be -1), line length */
    int64_t foff;    /* in-plane offset of the first line inside the input */
    int64_t base;    /* index of the plane's first element */
    int64_t c0, c1;  /* column chunk */
    int64_t isz;     /* index bytes */
} k3s2_row;

/* One group of 8 outputs (n <= 8 stored) of one rank-2 output row */
CF_AI void k3s2_group(const k3s2_row *r, int64_t o0, int64_t n, int64_t pbw, VF vinit, int first_tap, const int l0,
                      const int h1, const int h2, const int border, const int prop, const int ik, const int fe)
{
    const int wi = ik != 0;
    const int64_t u = 2 * o0 - pbw;
    VF best, e00 = vinit;
    VI bi;
    k3s2_rowres(&r->ch, r->h0, r->inw, u, o0 - r->c0, border, vinit, &best, &bi, &e00, l0, h1, h2, prop, wi, fe);
    const VI e0p = fe || (wi && first_tap == 1) ? k3s2_e0p(u, r->foff) : VI_SET1(-1);
    k3s2_emit(best, bi, e00, e0p, r->yo + o0, wi ? r->io + o0 * r->isz : NULL, n, r->base, first_tap, prop, ik, fe);
}

/* Groups [ob, oe) (multiples of 8 from the chunk start) of one rank-2 output
 * row; border: groups that load through masks (2: the cheap left edge). The
 * groups of 8 whole outputs first (n = 8 compile-time: no per-group test of
 * the store width), then the row's last, partial group. */
CF_AI void k3s2_groups(const k3s2_row *r, int64_t ob, int64_t oe, int64_t pbw, VF vinit, int first_tap,
                       const int l0, const int h1, const int h2, const int border, const int prop, const int ik,
                       const int fe)
{
    const int64_t ofull = oe < r->c1 - 7 ? oe : r->c1 - 7; /* groups o0 < ofull are whole */
    int64_t o0 = ob;
    for (; o0 < ofull; o0 += 8)
        k3s2_group(r, o0, 8, pbw, vinit, first_tap, l0, h1, h2, border, prop, ik, fe);
    for (; o0 < oe; o0 += 8)
        k3s2_group(r, o0, r->c1 - o0 < 8 ? r->c1 - o0 : 8, pbw, vinit, first_tap, l0, h1, h2, border, prop, ik, fe);
}

/* Interior groups [ia, ib) of a chunk: multiples of 8 from c0 inside [glo, ghi). */
static inline void k3s2_interior(int64_t c0, int64_t cend, int64_t glo, int64_t ghi, int64_t *ia, int64_t *ib)
{
    int64_t a = c0 + (glo > c0 ? (glo - c0 + 7) / 8 * 8 : 0);
    int64_t b = ghi > c0 ? c0 + (ghi - c0 + 7) / 8 * 8 : c0;
    if (b > cend)
        b = cend;
    if (a > b)
        a = b;
    *ia = a;
    *ib = b;
}

/* The common rows [oa, ob) of one plane's column chunk: line 0 in the chain's
 * buffer (not the block's first row) and lines 1 and 2 inside the input.
 * They are most of the work, and get a function of their own per option
 * combination (k3s2_rows_###, below): inlined into the plane loop, the row
 * loop reloaded its bounds and pointers from the stack and tested every
 * segment (a 56-wide output row: 275 instructions, 144 of them its interior
 * groups; now 185). */
typedef struct k3s2_rows {
    k3s2_row r;         /* chain, lines, plane base, chunk; the row fields are set per row */
    float *y0;          /* output row oa */
    char *i0;           /* index row oa (or NULL) */
    int64_t oa, ob;     /* output rows */
    int64_t ow, pbh;    /* output row length, top pad */
    int64_t ia, ib;     /* interior groups of the chunk */
    int64_t cend, pbw;  /* chunk end (whole groups), left pad */
    int left2;          /* the chunk's first group is the cheap left edge (border 2) */
    int first_tap;      /* empty-window index (k3s2_emit) */
    float init;         /* start value */
} k3s2_rows;

/* The next output row: output and index rows one row on, the lines two on (lstep floats). */
CF_AI void k3s2_row_next(k3s2_row *r, int64_t ow, int64_t istep, int64_t lstep, const int ik)
{
    r->yo += ow;
    if (ik)
        r->io += istep;
    r->ch.xs += lstep;
    r->ch.soff += (int32_t)lstep;
    r->foff += lstep;
}

CF_AI void k3s2_rows_impl(const k3s2_rows *a, const int prop, const int ik, const int fe)
{
    k3s2_row r = a->r;
    const VF vinit = VF_SET1(a->init);
    const int64_t ia = a->ia, ib = a->ib, cend = a->cend, pbw = a->pbw, c0 = r.c0;
    const int first_tap = a->first_tap, left2 = a->left2;
    const int64_t istep = a->ow * r.isz;
    const int64_t h0 = 2 * a->oa - a->pbh, lstep = 2 * r.inw; /* h0 >= 0 */
    r.yo = a->y0;
    r.io = a->i0;
    /* the chain's slice starts at the row's line 0 (h0 = 0): the line pointers and offsets step, no products */
    r.h0 = 0;
    r.ch.xs += h0 * r.inw;
    r.ch.soff += (int32_t)(h0 * r.inw);
    r.foff = h0 * r.inw;
    if (ib == cend && ia == c0 + (left2 ? 8 : 0)) {
        /* the usual row (the ResNet stem's): [the left edge,] interior groups of 8 to the end [, the row's
         * last group, partial, also without masked loads (tail_in)]; no other test */
        const int64_t cfull = c0 + (r.c1 - c0) / 8 * 8; /* the whole groups' end */
        for (int64_t oh = a->oa; oh < a->ob; ++oh) {
            if (left2)
                k3s2_group(&r, c0, 8, pbw, vinit, first_tap, 1, 1, 1, 2, prop, ik, fe);
            for (int64_t o0 = ia; o0 < cfull; o0 += 8)
                k3s2_group(&r, o0, 8, pbw, vinit, first_tap, 1, 1, 1, 0, prop, ik, fe);
            if (cfull < cend)
                k3s2_group(&r, cfull, r.c1 - cfull, pbw, vinit, first_tap, 1, 1, 1, 0, prop, ik, fe);
            k3s2_row_next(&r, a->ow, istep, lstep, ik);
        }
        return;
    }
    for (int64_t oh = a->oa; oh < a->ob; ++oh) {
        if (left2) {
            k3s2_groups(&r, c0, c0 + 8, pbw, vinit, first_tap, 1, 1, 1, 2, prop, ik, fe);
            k3s2_groups(&r, c0 + 8, ia, pbw, vinit, first_tap, 1, 1, 1, 1, prop, ik, fe);
        } else {
            k3s2_groups(&r, c0, ia, pbw, vinit, first_tap, 1, 1, 1, 1, prop, ik, fe);
        }
        k3s2_groups(&r, ia, ib, pbw, vinit, first_tap, 1, 1, 1, 0, prop, ik, fe);
        k3s2_groups(&r, ib, cend, pbw, vinit, first_tap, 1, 1, 1, 1, prop, ik, fe);
        k3s2_row_next(&r, a->ow, istep, lstep, ik);
    }
}

/* NAME_###: one non-inlined function per option combination (NaN
 * propagation, with indices or not, first element), NAME_impl with them as
 * compile-time constants (the index width, ik 1 or 2, a run-time value read
 * from the index bytes ISZ_: build time, as f32_run_switch_impl.h), and the
 * table NAME_fns[prop][ik != 0][fe]. */
#define K3_INST(name_, arg_, isz_, prop_, wi_, fe_)                                                                \
    static __attribute__((noinline)) void name_##_##prop_##wi_##fe_(const arg_ *a)                                 \
    {                                                                                                              \
        name_##_impl(a, prop_, (wi_) ? ((isz_) == 8 ? 2 : 1) : 0, fe_);                                            \
    }
#define K3_INST_P(name_, arg_, isz_, prop_)                                                                        \
    K3_INST(name_, arg_, isz_, prop_, 0, 0)                                                                        \
    K3_INST(name_, arg_, isz_, prop_, 0, 1)                                                                        \
    K3_INST(name_, arg_, isz_, prop_, 1, 0)                                                                        \
    K3_INST(name_, arg_, isz_, prop_, 1, 1)
#define K3_INSTANCES(name_, arg_, isz_)                                                                            \
    K3_INST_P(name_, arg_, isz_, 0)                                                                                \
    K3_INST_P(name_, arg_, isz_, 1)                                                                                \
    static void (*const name_##_fns[2][2][2])(const arg_ *) = {                                                    \
        {{name_##_000, name_##_001}, {name_##_010, name_##_011}},                                                  \
        {{name_##_100, name_##_101}, {name_##_110, name_##_111}},                                                  \
    };
K3_INSTANCES(k3s2_rows, k3s2_rows, a->r.isz)

/* The other rows of a rank-2 chunk (the block's first row; rows whose line
 * 1 or 2 is outside the input): at most two rows per plane and block, so one
 * function per (NaN rule, indices) with the line set, the border and the
 * first-element start as run-time values (build time: inlined per case into
 * each entry point, these rows were two thirds of the file's code). */
CF_AI void k3s2_edge_impl(const k3s2_row *r, int64_t ia, int64_t ib, int64_t cend, int64_t pbw, VF vinit,
                          int first_tap, int l0, int h1, int h2, int fe, const int prop, const int ik)
{
#define K3_E2(l0_, h1_, h2_, bd_)                                                                                   \
    k3s2_group(r, o0, r->c1 - o0 < 8 ? r->c1 - o0 : 8, pbw, vinit, first_tap, l0_, h1_, h2_, bd_, prop, ik, fe)
    if (l0 == 2 && h1 && h2) { /* the first row of a block without top padding (every block but a padded first) */
        for (int64_t o0 = r->c0; o0 < cend; o0 += 8)
            if (o0 >= ia && o0 < ib)
                K3_E2(2, 1, 1, 0);
            else
                K3_E2(2, 1, 1, 1);
    } else {
        for (int64_t o0 = r->c0; o0 < cend; o0 += 8)
            K3_E2(l0, h1, h2, o0 < ia || o0 >= ib);
    }
#undef K3_E2
}
typedef void (*k3s2_edge_fn)(const k3s2_row *, int64_t, int64_t, int64_t, int64_t, VF, int, int, int, int, int);
#define K3_EDGE(prop_, wi_)                                                                                        \
    static __attribute__((noinline)) void k3s2_edge_##prop_##wi_(const k3s2_row *r, int64_t ia, int64_t ib,        \
                                                                 int64_t cend, int64_t pbw, VF vinit,              \
                                                                 int first_tap, int l0, int h1, int h2, int fe)    \
    {                                                                                                              \
        k3s2_edge_impl(r, ia, ib, cend, pbw, vinit, first_tap, l0, h1, h2, fe, prop_,                              \
                       (wi_) ? (r->isz == 8 ? 2 : 1) : 0);                                                         \
    }
K3_EDGE(0, 0)
K3_EDGE(0, 1)
K3_EDGE(1, 0)
K3_EDGE(1, 1)
static const k3s2_edge_fn k3s2_edge_fns[2][2] = {{k3s2_edge_00, k3s2_edge_01}, {k3s2_edge_10, k3s2_edge_11}};

CF_AI void k3s2_impl(const struct maxpool_plan *p, const float *x, float *y, void *ind, int64_t t0, int64_t t1,
                     const int prop, const int ik, const int fe)
{
    const int wi = ik != 0;
    const int64_t inh = p->axis[0].in, inw = p->axis[1].in, OH = p->axis[0].out, OW = p->axis[1].out;
    const int64_t pbh = p->axis[0].pad_begin, pbw = p->axis[1].pad_begin;
    const int first_tap = p->desc.empty_index == MAXPOOL_EMPTY_INDEX_FIRST_TAP       ? 1
                          : p->desc.empty_index == MAXPOOL_EMPTY_INDEX_PLANE_START ? 2
                                                                                   : 0;
    const float init = fe ? -INFINITY : p->init.f32;
    const VF vinit = VF_SET1(init);
    const int64_t planes = p->n * p->c;
    int64_t nb = planes >= K3_MIN_TASKS ? 1 : (K3_MIN_TASKS + planes - 1) / planes;
    if (nb > OH)
        nb = OH;
    /* groups whose loads stay inside the line: u = 2*o0 - pbw >= 0 and u + 17 <= inw */
    const int64_t glo = (pbw + 1) / 2;
    const int64_t ghi = inw - 17 + pbw >= 0 ? (inw - 17 + pbw) / 2 + 1 : 0; /* first o0 past the interior */
    const int left2 = pbw == 1 && inw >= 16; /* the first group is the cheap left edge */
    /* Where every tap of the row's last output lies inside the line (no right
     * padding, e.g. AlexNet's 55 -> 27), the row's last groups load without
     * masks too: their loads run up to 17 floats past the line end, into the
     * next line (or plane), and only into lanes that are not stored (every
     * lane's taps, positions and result are its own: in-lane shuffles, lane-wise
     * updates, the store masked to the row). Only in planes followed by at
     * least 17 floats of the tensor (not in its last plane, nor in the one
     * before a last plane of fewer than 17 floats). */
    const int tail_in = 2 * (OW - 1) - pbw + 2 < inw;

    alignas(32) float lv[K3_CHUNK];
    alignas(32) int32_t lp[K3_CHUNK];
    alignas(32) float lt[K3_CHUNK];
    k3s2_row r;
    r.inw = inw;
    r.isz = ik == 2 ? 8 : 4;
    r.ch.soff = 0;
    r.ch.lv = lv;
    r.ch.lp = lp;
    r.ch.lt = lt;

    for (int64_t t = t0; t < t1; ++t) {
        const int64_t plane = t / nb, blk = t % nb;
        const int64_t rb = blk * OH / nb, re = (blk + 1) * OH / nb;
        r.ch.xs = x + plane * p->in_spatial;
        r.base = (plane / p->c) * p->idx_n + (plane % p->c) * p->idx_c;
        for (int64_t c0 = 0; c0 < OW; c0 += K3_CHUNK) {
            const int64_t c1 = c0 + K3_CHUNK < OW ? c0 + K3_CHUNK : OW;
            const int64_t cend = c0 + (c1 - c0 + 7) / 8 * 8;
            int64_t ia, ib;
            k3s2_interior(c0, cend, glo, tail_in && (planes - 1 - plane) * p->in_spatial >= 17 ? OW : ghi, &ia, &ib);
            r.c0 = c0;
            r.c1 = c1;
            for (int64_t oh = rb; oh < re; ++oh) {
                r.h0 = 2 * oh - pbh;
                r.foff = (r.h0 >= 0 ? r.h0 : r.h0 + 1) * inw;
                r.yo = y + plane * p->out_spatial + oh * OW;
                r.io = wi ? (char *)ind + (plane * p->out_spatial + oh * OW) * r.isz : NULL;
                const int l0 = r.h0 < 0 ? 0 : oh == rb ? 2 : 1;
                const int h1 = r.h0 + 1 < inh, h2 = r.h0 + 2 < inh;
                if (l0 == 1 && h1 && h2) { /* every row but the first and last: to the last such row */
                    const int64_t ob = (inh - 3 + pbh) / 2 + 1 < re ? (inh - 3 + pbh) / 2 + 1 : re; /* h0+2 < inh */
                    const k3s2_rows a = {.r = r, .y0 = r.yo, .i0 = r.io, .oa = oh, .ob = ob, .ow = OW, .pbh = pbh,
                                         .ia = ia, .ib = ib, .cend = cend, .pbw = pbw, .left2 = left2 && c0 == 0,
                                         .first_tap = first_tap, .init = init};
                    k3s2_rows_fns[prop][ik != 0][fe](&a);
                    oh = a.ob - 1;
                } else { /* the block's first row, or lines 1 / 2 outside: out of line */
                    k3s2_edge_fns[prop][wi](&r, ia, ib, cend, pbw, vinit, first_tap, l0, h1, h2, fe);
                }
            }
        }
    }
}

/*
 * Rank 3 (NCDHW): the D lines combine the slices' row results in order
 * (slice d = 2*od - pb_d + j, j = 0, 1, 2), by the same argument one level
 * up. Slice j=2 of output depth od is slice j=0 of od+1: its row results for
 * every output row of the column chunk are kept (values, positions, first
 * taps; K3_SBUF floats in all) so each input line is read once. The chunk is
 * narrowed so out_h * chunk fits; planes where out_h * 8 does not fit are not
 * taken. Tasks: planes, split into blocks of output depths when few.
 */
CF_AI void k3s2_groups3(k3s2_chain *const chs, const int *use, int64_t h0, int64_t hf, int64_t inw, int64_t ob,
                        int64_t oe, int64_t c0, int64_t c1, int64_t pbw, VF vinit, int first_tap, int64_t first_soff,
                        float *sv, int32_t *sp, float *st, const int s_in, const int s_out, float *yo, char *io,
                        int64_t isz, int64_t base, const int l0, const int h1, const int h2, const int border,
                        const int prop, const int ik, const int fe)
{
    const int wi = ik != 0;
    const VI vneg = VI_SET1(-1);
    for (int64_t o0 = ob; o0 < oe; o0 += 8) {
        const int64_t u = 2 * o0 - pbw, g = o0 - c0;
        VF best = vinit, e00 = vinit;
        VI bi = vneg;
        int have = 0;
        if (s_in) { /* slice j=0 from the saved row results */
            best = _mm256_load_ps(sv + g);
            if (wi)
                bi = _mm256_load_si256((const __m256i *)(const void *)(sp + g));
            if (fe)
                e00 = _mm256_load_ps(st + g);
            have = 1;
        }
        for (int j = s_in; j < 3; ++j) {
            if (!use[j])
                continue;
            VF b, e = vinit; /* e: set by k3s2_rowres under fe (a run-time value here) */
            VI q;
            k3s2_rowres(&chs[j], h0, inw, u, g, border, vinit, &b, &q, &e, l0, h1, h2, prop, wi, fe);
            if (!have) {
                best = b;
                bi = q;
                e00 = e;
                have = 1;
            } else {
                KFN(update)(&best, &bi, b, q, prop, wi);
            }
            if (j == 2 && s_out) {
                _mm256_store_ps(sv + g, b);
                if (wi)
                    _mm256_store_si256((__m256i *)(void *)(sp + g), q);
                if (fe)
                    _mm256_store_ps(st + g, e);
            }
        }
        const VI e0p = fe || (wi && first_tap == 1) ? k3s2_e0p(u, first_soff + hf * inw) : vneg;
        const int64_t n = c1 - o0 < 8 ? c1 - o0 : 8;
        k3s2_emit(best, bi, e00, e0p, yo + o0, wi ? io + o0 * isz : NULL, n, base, first_tap, prop, ik, fe);
    }
}

/* Rank 3's common rows [oa, ob) of one output depth and column chunk: all
 * three slices inside, slice 0 from the saved row results and slice 2 saved
 * for the next depth, line 0 in the chains' buffers, lines 1 and 2 inside.
 * Out of line per option combination as the rank-2 rows (k3s2_rows): the
 * slices' line pointers, the saved rows and the output rows step. */
typedef struct k3s2_rows3 {
    k3s2_chain chs[3];    /* the slices, at their line 0 */
    int64_t oa, ob;       /* output rows */
    int64_t pbh, inw;     /* top pad, line length */
    int64_t c0, c1, cend; /* column chunk (cend: whole groups) */
    int64_t ia, ib, pbw;  /* interior groups, left pad */
    int64_t first_soff;   /* in-plane offset of the first slice inside the input */
    int64_t chunk;        /* saved row results per output row */
    int64_t ow, isz, base;
    float *y0;            /* output row oa of this depth */
    char *i0;             /* its index row (or NULL) */
    float *sv, *st;       /* saved row results of output row 0: values, first taps */
    int32_t *sp;          /* positions */
    int left2, first_tap;
    float init;
} k3s2_rows3;

CF_AI void k3s2_rows3_impl(const k3s2_rows3 *a, const int prop, const int ik, const int fe)
{
    static const int use[3] = {1, 1, 1};
    k3s2_chain chs[3] = {a->chs[0], a->chs[1], a->chs[2]};
    const VF vinit = VF_SET1(a->init);
    const int64_t inw = a->inw, c0 = a->c0, c1 = a->c1, cend = a->cend, ia = a->ia, ib = a->ib, pbw = a->pbw;
    const int64_t chunk = a->chunk, isz = a->isz, base = a->base, lstep = 2 * inw;
    const int left2 = a->left2, first_tap = a->first_tap;
    /* the slices start at the row's line 0 (h0 = hf = 0 below): pointers and offsets step, no products */
    const int64_t h0 = 2 * a->oa - a->pbh; /* >= 0 */
    for (int j = 0; j < 3; ++j) {
        chs[j].xs += h0 * inw;
        chs[j].soff += (int32_t)(h0 * inw);
    }
    int64_t fso = a->first_soff + h0 * inw;
    float *yo = a->y0, *svr = a->sv + a->oa * chunk, *str = a->st + a->oa * chunk;
    char *io = a->i0;
    int32_t *spr = a->sp + a->oa * chunk;
    for (int64_t oh = a->oa; oh < a->ob; ++oh) {
#define K3_R3(ob_, oe_, bd_)                                                                                        \
    k3s2_groups3(chs, use, 0, 0, inw, ob_, oe_, c0, c1, pbw, vinit, first_tap, fso, svr, spr, str, 1, 1, yo, io, isz, \
                 base, 1, 1, 1, bd_, prop, ik, fe)
        if (left2) {
            K3_R3(c0, c0 + 8, 2);
            K3_R3(c0 + 8, ia, 1);
        } else {
            K3_R3(c0, ia, 1);
        }
        K3_R3(ia, ib, 0);
        K3_R3(ib, cend, 1);
#undef K3_R3
        for (int j = 0; j < 3; ++j) {
            chs[j].xs += lstep;
            chs[j].soff += (int32_t)lstep;
        }
        fso += lstep;
        yo += a->ow;
        if (ik)
            io += a->ow * isz;
        svr += chunk;
        spr += chunk;
        str += chunk;
    }
}

K3_INSTANCES(k3s2_rows3, k3s2_rows3, a->isz)
#undef K3_INSTANCES
#undef K3_INST_P
#undef K3_INST

/* The other rows of a rank-3 chunk (a block's first output depth, a depth
 * whose slice 0 or 2 is outside, the first row of each depth, rows whose
 * line 1 or 2 is outside):
 * one function per (NaN rule, indices), the rest run-time values, as the
 * rank-2 edge rows (k3s2_edge_impl). */
typedef struct k3s2_edge3 {
    k3s2_chain *chs;
    const int *use;
    int64_t h0, hf, inw, c0, c1, cend, ia, ib, pbw, first_soff;
    float *sv, *st;
    int32_t *sp;
    float *yo;
    char *io;
    int64_t isz, base;
    int first_tap, l0, h1, h2, s_in, s_out, fe;
} k3s2_edge3;

CF_AI void k3s2_edge3_impl(const k3s2_edge3 *e, VF vinit, const int prop, const int ik)
{
#define K3_E3(l0_, h1_, h2_)                                                                                        \
    k3s2_groups3(e->chs, e->use, e->h0, e->hf, e->inw, o0, o0 + 8, e->c0, e->c1, e->pbw, vinit, e->first_tap,      \
                 e->first_soff, e->sv, e->sp, e->st, e->s_in, e->s_out, e->yo, e->io, e->isz, e->base, l0_, h1_, h2_, \
                 o0 < e->ia || o0 >= e->ib, prop, ik, e->fe)
    if (e->l0 == 1 && e->h1 && e->h2) { /* the rows of a block's first depth (slice 0 not saved, or outside) */
        for (int64_t o0 = e->c0; o0 < e->cend; o0 += 8)
            K3_E3(1, 1, 1);
    } else {
        for (int64_t o0 = e->c0; o0 < e->cend; o0 += 8)
            K3_E3(e->l0, e->h1, e->h2);
    }
#undef K3_E3
}
#define K3_EDGE3(prop_, wi_)                                                                                       \
    static __attribute__((noinline)) void k3s2_edge3_##prop_##wi_(const k3s2_edge3 *e, VF vinit)                  \
    {                                                                                                              \
        k3s2_edge3_impl(e, vinit, prop_, (wi_) ? (e->isz == 8 ? 2 : 1) : 0);                                       \
    }
K3_EDGE3(0, 0)
K3_EDGE3(0, 1)
K3_EDGE3(1, 0)
K3_EDGE3(1, 1)
static void (*const k3s2_edge3_fns[2][2])(const k3s2_edge3 *, VF) = {{k3s2_edge3_00, k3s2_edge3_01},
                                                                     {k3s2_edge3_10, k3s2_edge3_11}};

CF_AI void k3s2_impl3(const struct maxpool_plan *p, const float *x, float *y, void *ind, int64_t t0, int64_t t1,
                      const int prop, const int ik, const int fe)
{
    const int wi = ik != 0;
    const int64_t ind_ = p->axis[0].in, inh = p->axis[1].in, inw = p->axis[2].in;
    const int64_t OD = p->axis[0].out, OH = p->axis[1].out, OW = p->axis[2].out;
    const int64_t pbd = p->axis[0].pad_begin, pbh = p->axis[1].pad_begin, pbw = p->axis[2].pad_begin;
    const int first_tap = p->desc.empty_index == MAXPOOL_EMPTY_INDEX_FIRST_TAP       ? 1
                          : p->desc.empty_index == MAXPOOL_EMPTY_INDEX_PLANE_START ? 2
                                                                                   : 0;
    const float init = fe ? -INFINITY : p->init.f32;
    const VF vinit = VF_SET1(init);
    const int64_t planes = p->n * p->c;
    int64_t nb = planes >= K3_MIN_TASKS ? 1 : (K3_MIN_TASKS + planes - 1) / planes;
    if (nb > OD)
        nb = OD;
    const int64_t glo = (pbw + 1) / 2;
    const int64_t ghi = inw - 17 + pbw >= 0 ? (inw - 17 + pbw) / 2 + 1 : 0;
    const int left2 = pbw == 1 && inw >= 16; /* the first group is the cheap left edge, as at rank 2 */
    const int64_t slice = inh * inw, isz = ik == 2 ? 8 : 4;
    const int64_t scap = K3_SBUF / (1 + wi + fe) / 8 * 8; /* floats per array */
    int64_t chunk = scap / OH / 8 * 8;                     /* >= 8: the match asks OH * 8 <= scap */
    if (chunk > K3_CHUNK3)
        chunk = K3_CHUNK3;

    alignas(32) float sbuf[K3_SBUF];
    /* arrays in use only: one not asked for is never accessed, and points at sbuf (no pointer past the buffer) */
    float *const sv = sbuf, *const st = fe ? sbuf + (1 + wi) * scap : sbuf;
    int32_t *const sp = (int32_t *)(void *)(wi ? sbuf + scap : sbuf); /* float and int32 storage: same size, aligned */
    alignas(32) float lv[3][K3_CHUNK3];
    alignas(32) int32_t lp[3][K3_CHUNK3];
    alignas(32) float lt[3][K3_CHUNK3];
    k3s2_chain chs[3];
    for (int j = 0; j < 3; ++j) {
        chs[j].lv = lv[j];
        chs[j].lp = lp[j];
        chs[j].lt = lt[j];
    }

    for (int64_t t = t0; t < t1; ++t) {
        const int64_t plane = t / nb, blk = t % nb;
        const int64_t db = blk * OD / nb, de = (blk + 1) * OD / nb;
        const float *xp = x + plane * p->in_spatial;
        const int64_t base = (plane / p->c) * p->idx_n + (plane % p->c) * p->idx_c;
        for (int64_t c0 = 0; c0 < OW; c0 += chunk) {
            const int64_t c1 = c0 + chunk < OW ? c0 + chunk : OW;
            const int64_t cend = c0 + (c1 - c0 + 7) / 8 * 8;
            int64_t ia, ib;
            k3s2_interior(c0, cend, glo, ghi, &ia, &ib);
            for (int64_t od = db; od < de; ++od) {
                const int64_t d0 = 2 * od - pbd;
                int use[3];
                for (int j = 0; j < 3; ++j) {
                    use[j] = d0 + j >= 0 && d0 + j < ind_;
                    const int64_t d = use[j] ? d0 + j : 0;
                    chs[j].xs = xp + d * slice;
                    chs[j].soff = (int32_t)(d * slice);
                }
                const int s_in = use[0] && od > db; /* slice j=0 was slice j=2 of od-1 */
                const int s_out = use[2] && od + 1 < de;
                const int64_t first_soff = (use[0] ? d0 : d0 + 1) * slice;
                for (int64_t oh = 0; oh < OH; ++oh) {
                    const int64_t h0 = 2 * oh - pbh, hf = h0 >= 0 ? h0 : h0 + 1;
                    const int l0 = h0 < 0 ? 0 : oh == 0 ? 2 : 1;
                    const int h1 = h0 + 1 < inh, h2 = h0 + 2 < inh;
                    float *yo = y + plane * p->out_spatial + (od * OH + oh) * OW;
                    char *io = wi ? (char *)ind + (plane * p->out_spatial + (od * OH + oh) * OW) * isz : NULL;
                    float *svr = sv + oh * chunk, *str = st + oh * chunk;
                    int32_t *spr = sp + oh * chunk;
                    /* the common rows, to the last such row; also at a block's last depth (s_out 0): its
                     * slice 2 saved for no one (the next depth is another task's first) */
                    if (l0 == 1 && h1 && h2 && s_in && use[2]) {
                        /* left2: the cheap left edge, where masked loads (their mask arithmetic) cost 4x a group */
                        const int64_t ob = (inh - 3 + pbh) / 2 + 1 < OH ? (inh - 3 + pbh) / 2 + 1 : OH;
                        const k3s2_rows3 a = {{chs[0], chs[1], chs[2]}, .oa = oh, .ob = ob, .pbh = pbh, .inw = inw,
                                              .c0 = c0, .c1 = c1, .cend = cend, .ia = ia, .ib = ib, .pbw = pbw,
                                              .first_soff = first_soff, .chunk = chunk, .ow = OW, .isz = isz,
                                              .base = base, .y0 = yo, .i0 = io, .sv = sv, .st = st, .sp = sp,
                                              .left2 = left2 && c0 == 0, .first_tap = first_tap, .init = init};
                        k3s2_rows3_fns[prop][ik != 0][fe](&a);
                        oh = a.ob - 1;
                    } else { /* the other rows: out of line (k3s2_edge3_impl) */
                        const k3s2_edge3 e = {.chs = chs, .use = use, .h0 = h0, .hf = hf, .inw = inw, .c0 = c0,
                                              .c1 = c1, .cend = cend, .ia = ia, .ib = ib, .pbw = pbw,
                                              .first_soff = first_soff, .sv = svr, .sp = spr, .st = str, .yo = yo,
                                              .io = io, .isz = isz, .base = base, .first_tap = first_tap,
                                              .l0 = l0, .h1 = h1, .h2 = h2, .s_in = s_in, .s_out = s_out, .fe = fe};
                        k3s2_edge3_fns[prop][wi](&e, vinit);
                    }
                }
            }
        }
    }
}

/* Bounds, stack scratch per task:
 *  - lv/lp/lt[K3_CHUNK] (rank 2): the chain's line results of one column
 *    chunk, group offsets o0 - c0 < 512 (chunks of 512 columns, a multiple
 *    of 8).
 *  - sbuf[K3_SBUF] (rank 3): 1 + (indices) + (first-element start) arrays
 *    of scap = K3_SBUF/arrays rounded down to 8 floats; output row oh keeps
 *    columns [oh*chunk, oh*chunk + chunk) with chunk = scap/out_h rounded
 *    down to 8 (at most K3_CHUNK3): needs out_h * 8 <= scap (checked here).
 *  - lv/lp/lt[3][K3_CHUNK3] (rank 3): group offsets < chunk <= 256.
 * Input: the taps of a group of 8 outputs are u .. u + 16 (u = 2*o0 - pb_w);
 * whole-vector loads only for groups with u >= 0 and u + 17 <= in_w (and the
 * left edge u = -1 with in_w >= 16), masked loads elsewhere; lines and
 * slices outside the input are skipped, which needs kernel 3, stride 2,
 * dilation 1, pad_begin 0 or 1 and no empty window on any axis. Positions
 * are int32, masked-load lane indices up to in_w + 32: in_spatial <=
 * INT32_MAX - 64 (also without indices). */
int maxpool_f32_nchw_k3s2_match(const struct maxpool_plan *p)
{
    if (p->desc.dtype != MAXPOOL_F32 || p->desc.layout != MAXPOOL_CHANNELS_FIRST || p->rank < 2 || p->rank > 3 ||
        p->desc.window != MAXPOOL_WINDOW_FIXED)
        return 0;
    if (p->desc.index_type != MAXPOOL_INDEX_NONE &&
        (p->desc.index_order != MAXPOOL_INDEX_ROW_MAJOR || p->in_spatial > INT32_MAX))
        return 0;
    if (p->in_spatial > INT32_MAX - 64) /* positions are int32 */
        return 0;
    if (p->rank == 3) { /* out_h row results of 8 columns must fit the saved-slice buffer */
        const int64_t arrays = 1 + (p->desc.index_type != MAXPOOL_INDEX_NONE) +
                               (p->desc.window_init == MAXPOOL_INIT_FIRST_ELEMENT);
        if (p->axis[1].out * 8 > K3_SBUF / arrays / 8 * 8)
            return 0;
    }
    for (int i = 0; i < p->rank; ++i) {
        const maxpool_axis *a = &p->axis[i];
        if (a->kernel != 3 || a->stride != 2 || a->dilation != 1 || a->pad_begin < 0 || a->pad_begin > 1)
            return 0;
        if (!cf_axis_nonempty(a))
            return 0;
    }
    return 1;
}

int64_t maxpool_f32_nchw_k3s2_tasks(const struct maxpool_plan *p)
{
    const int64_t planes = p->n * p->c, OH = p->axis[0].out; /* rank 3: blocks of output depths */
    int64_t nb = planes >= K3_MIN_TASKS ? 1 : (K3_MIN_TASKS + planes - 1) / planes;
    if (nb > OH)
        nb = OH;
    return planes * nb;
}

/* rank 2 or 3, the options as compile-time constants (f32_run_switch_impl.h) */
CF_AI void KFN(run_impl)(const struct maxpool_plan *p, const float *x, float *y, void *ind, int64_t t0, int64_t t1,
                         const int prop, const int ik, const int fe)
{
    if (p->rank == 3)
        k3s2_impl3(p, x, y, ind, t0, t1, prop, ik, fe);
    else
        k3s2_impl(p, x, y, ind, t0, t1, prop, ik, fe);
}

#include "f32_run_switch_impl.h"

void maxpool_f32_nchw_k3s2_avx2(const struct maxpool_plan *p, const void *x, void *y, void *ind, int64_t t0,
                                int64_t t1)
{
    KFN(run)(p, x, y, ind, t0, t1);
}
