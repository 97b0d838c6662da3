/* SPDX-License-Identifier: Apache-2.0 */
/*
 * NCW (spatial rank 1) f32 max pooling, stride 1, dilation 1, kernel 1..8,
 * every window non-empty, AVX2: direct, 8 outputs per group, tap j of
 * output o at o - pad_begin + j read as one unaligned load per tap. No line
 * copy, no intermediate buffer: the DRAM-bound 1-D case at the stream rate.
 * Outputs of 4 MiB or more: the interior groups prefetch the input 4 KiB
 * ahead and, where a line's groups are 32-byte aligned, store with
 * non-temporal stores.
 *
 * The taps of a window are scanned in order with the reference's rule
 * (x > best, or x NaN with propagation), from the start value; a tap outside
 * [0, in) reads as the start value (masked load + blend) and never wins.
 * First-element start: best starts at e00, the window's first tap inside the
 * input (x[max(o - pad_begin, 0)]), with its position; the taps are then
 * scanned from j = 0 with padding read as -inf. That equals the reference,
 * which scans the taps after e00: padding never replaces best, and e00
 * meeting itself again changes nothing (not > itself; a NaN e00 under
 * propagation replaces best by the same bits and position).
 * Without first-element start a window whose taps never beat the start
 * value keeps the empty-window index (-1, the first tap, the plane start).
 */
#include "kernels.h"

#include "f32_cf_geom.h"

#include "simd_f32_avx2.h"

#include <math.h>
#include <stdalign.h>
#include <stdint.h>

#define KFN(n) ncw1_##n
#include "force_inline.h"
#define CF_AI MAXPOOL_AI
#include "f32_update_impl.h"

#define NCW1_MAX_K 8
#define NCW1_MIN_TASKS 32
#define NCW1_BLOCK 4096 /* outputs per task when there are few lines */
#define NCW1_NT_MIN_BYTES (4 << 20) /* outputs from this size stream out (non-temporal stores) */
#define NCW1_PREFETCH 1024          /* floats ahead that those calls prefetch */

/* 8 floats at xr + off; lanes outside [0, in) are v0. */
CF_AI VF ncw1_bload(const float *xr, int64_t off, int64_t in, VF v0)
{
    const VI idx = VI_ADD(VI_SET1((int32_t)off), VI_IOTA);
    const VI m = _mm256_and_si256(_mm256_cmpgt_epi32(idx, VI_SET1(-1)), _mm256_cmpgt_epi32(VI_SET1((int32_t)in), idx));
    const VF v = _mm256_maskload_ps((const float *)((uintptr_t)xr + (uintptr_t)(off * 4)), m);
    return VF_BLEND(v0, v, VI_ASF(m));
}

/* Outputs [ob, oe) of one line (groups of 8; n < 8 stored in the last).
 * big (data beyond the caches): the input is prefetched ahead; nt: whole
 * groups of values go out with non-temporal stores (yr + ob is 32-byte
 * aligned). */
CF_AI void ncw1_groups(const float *xr, float *yr, char *ir, int64_t ob, int64_t oe, int64_t oend, int64_t in,
                       int64_t pb, VF vinit, int64_t base, int first_tap, const int border, const int big,
                       const int nt, const int64_t kc, const int prop, const int ik, const int fe)
{
    const int wi = ik != 0;
    const VI vneg = VI_SET1(-1);
    for (int64_t o0 = ob; o0 < oe; o0 += 8) {
        const int64_t u = o0 - pb;
        if (big && (o0 & 8)) /* a line of input 4 KiB ahead, every other group */
            _mm_prefetch((const char *)((uintptr_t)(xr + u) + 4 * NCW1_PREFETCH), _MM_HINT_T0); /* may pass the end */
        const VI pv = VI_ADD(VI_SET1((int32_t)u), VI_IOTA);
        VF best = vinit;
        VI bi = vneg;
        VI e0p = vneg;
        if (fe || (wi && first_tap == 1))
            e0p = _mm256_max_epi32(pv, _mm256_setzero_si256());
        if (fe) {
            if (border) {
                const VF x0 = VF_SET1(xr[0]);
                best = VF_BLEND(ncw1_bload(xr, u, in, x0), x0, VI_ASF(_mm256_cmpgt_epi32(VI_SET1(0), pv)));
            } else {
                best = VF_LOAD(xr + u);
            }
            bi = e0p;
        }
        for (int64_t j = 0; j < kc; ++j) {
            const VF t = border ? ncw1_bload(xr, u + j, in, vinit) : VF_LOAD(xr + u + j);
            KFN(update)(&best, &bi, t, VI_ADD(pv, VI_SET1((int32_t)j)), prop, wi);
        }
        const int64_t n = oend - o0 < 8 ? oend - o0 : 8;
        if (n == 8 && nt)
            _mm256_stream_ps(yr + o0, best);
        else if (n == 8)
            VF_STORE(yr + o0, best);
        else
            VF_MASKSTORE(yr + o0, n, best);
        if (!wi)
            continue;
        VI t = bi;
        if (!fe) {
            if (first_tap == 1)
                t = VI_BLEND_IM(t, e0p, VI_SIGN(t));
            else if (first_tap == 2)
                t = VI_BLEND_IM(t, _mm256_setzero_si256(), VI_SIGN(t));
        }
        KFN(store_index)(ir + o0 * (ik == 2 ? 8 : 4), t, base, !fe && !first_tap, n, ik);
    }
}

static inline int64_t ncw1_blocks(const struct maxpool_plan *p)
{
    const int64_t lines = p->n * p->c, out = p->axis[0].out;
    if (lines >= NCW1_MIN_TASKS)
        return 1;
    int64_t nb = (out + NCW1_BLOCK - 1) / NCW1_BLOCK;
    return nb < 1 ? 1 : nb;
}

CF_AI void ncw1_impl_k(const struct maxpool_plan *p, const float *x, float *y, void *ind, int64_t t0, int64_t t1,
                       const int64_t kc, const int prop, const int ik, const int fe)
{
    const int wi = ik != 0;
    const int64_t in = p->axis[0].in, out = p->axis[0].out, pb = p->axis[0].pad_begin;
    const int first_tap = p->desc.empty_index == MAXPOOL_EMPTY_INDEX_FIRST_TAP       ? 1
                          : p->desc.empty_index == MAXPOOL_EMPTY_INDEX_PLANE_START ? 2
                                                                                   : 0;
    const VF vinit = VF_SET1(fe ? -INFINITY : p->init.f32);
    const int64_t isz = ik == 2 ? 8 : 4, nb = ncw1_blocks(p);
    /* groups whose taps stay inside: o0 - pb >= 0 and o0 - pb + 7 + kc - 1 < in */
    const int64_t glo = pb;
    const int64_t ghi = in - 6 - kc + pb; /* first o0 past the interior */
    /* outputs beyond the caches: the interior groups prefetch their input
     * and, on lines whose groups are 32-byte aligned, stream their values
     * out (a plain store first reads the line: as many bytes again as the
     * input here) */
    const int big = p->n * p->c * out * 4 >= NCW1_NT_MIN_BYTES;
    for (int64_t t = t0; t < t1; ++t) {
        const int64_t line = t / nb, blk = t % nb;
        /* blocks of whole groups: bounds are multiples of 8 */
        const int64_t ngr = (out + 7) / 8;
        const int64_t ob = blk * ngr / nb * 8, oe0 = (blk + 1) * ngr / nb * 8;
        const int64_t oend = oe0 < out ? oe0 : out;
        const float *xr = x + line * in;
        float *yr = y + line * out;
        char *ir = wi ? (char *)ind + line * out * isz : NULL;
        const int64_t base = (line / p->c) * p->idx_n + (line % p->c) * p->idx_c;
        /* interior groups [ia, ib) */
        int64_t ia = glo > ob ? ob + (glo - ob + 7) / 8 * 8 : ob;
        int64_t ib = ghi > ob ? ob + (ghi - ob + 7) / 8 * 8 : ob;
        if (ib > oe0)
            ib = oe0;
        if (ia > ib)
            ia = ib;
        ncw1_groups(xr, yr, ir, ob, ia, oend, in, pb, vinit, base, first_tap, 1, 0, 0, kc, prop, ik, fe);
        if (big && ((uintptr_t)(yr + ia) & 31) == 0)
            ncw1_groups(xr, yr, ir, ia, ib, oend, in, pb, vinit, base, first_tap, 0, 1, 1, kc, prop, ik, fe);
        else if (big)
            ncw1_groups(xr, yr, ir, ia, ib, oend, in, pb, vinit, base, first_tap, 0, 1, 0, kc, prop, ik, fe);
        else
            ncw1_groups(xr, yr, ir, ia, ib, oend, in, pb, vinit, base, first_tap, 0, 0, 0, kc, prop, ik, fe);
        ncw1_groups(xr, yr, ir, ib, oe0, oend, in, pb, vinit, base, first_tap, 1, 0, 0, kc, prop, ik, fe);
    }
    if (big)
        _mm_sfence(); /* the streamed stores are visible before the task ends */
}

CF_AI void ncw1_impl(const struct maxpool_plan *p, const float *x, float *y, void *ind, int64_t t0, int64_t t1,
                     const int prop, const int ik, const int fe)
{
    switch (p->axis[0].kernel) {
    case 2:
        ncw1_impl_k(p, x, y, ind, t0, t1, 2, prop, ik, fe);
        break;
    case 3:
        ncw1_impl_k(p, x, y, ind, t0, t1, 3, prop, ik, fe);
        break;
    case 5:
        ncw1_impl_k(p, x, y, ind, t0, t1, 5, prop, ik, fe);
        break;
    default:
        ncw1_impl_k(p, x, y, ind, t0, t1, p->axis[0].kernel, prop, ik, fe);
        break;
    }
}

/* Bounds: no scratch beyond one group's lanes. Whole-vector loads only for
 * groups whose taps u .. u + 7 + k - 1 (u = o0 - pad_begin) lie in
 * [0, in); masked loads (lanes outside [0, in) not read) elsewhere; the
 * first-element start reads x[0]. Stores: whole groups below out, a masked
 * last one. Needs rank 1, stride 1, dilation 1, kernel 1..NCW1_MAX_K and no
 * empty window (every output's e00 inside); lane positions and masks are
 * int32 up to out + 16: in and out <= INT32_MAX - 64. */
int maxpool_f32_ncw_s1_match(const struct maxpool_plan *p)
{
    if (p->desc.dtype != MAXPOOL_F32 || p->desc.layout != MAXPOOL_CHANNELS_FIRST || p->rank != 1 ||
        p->desc.window != MAXPOOL_WINDOW_FIXED)
        return 0;
    if (p->desc.index_type != MAXPOOL_INDEX_NONE &&
        (p->desc.index_order != MAXPOOL_INDEX_ROW_MAJOR || p->in_spatial > INT32_MAX))
        return 0;
    const maxpool_axis *a = &p->axis[0];
    if (a->in > INT32_MAX - 64 || a->out > INT32_MAX - 64)
        return 0;
    if (a->stride != 1 || a->dilation != 1 || a->kernel < 1 || a->kernel > NCW1_MAX_K)
        return 0;
    return cf_axis_nonempty(a);
}

int64_t maxpool_f32_ncw_s1_tasks(const struct maxpool_plan *p) { return p->n * p->c * ncw1_blocks(p); }

#define ncw1_run_impl ncw1_impl
#include "f32_run_switch_impl.h"

void maxpool_f32_ncw_s1_avx2(const struct maxpool_plan *p, const void *x, void *y, void *ind, int64_t t0, int64_t t1)
{
    KFN(run)(p, x, y, ind, t0, t1);
}
