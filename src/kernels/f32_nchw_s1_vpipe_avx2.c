/*
 * NCHW (spatial rank 2) f32 max pooling, stride 1 and dilation 1 on both
 * axes, kernels 1..15 per axis, every window non-empty, values only (no
 * indices), NaN ignored, AVX2: column strips walked down the plane with the
 * H pass as a register pipeline ("vertical pipeline").
 *
 * A strip is SW vectors of output columns (8*SW columns). Walking down the
 * input rows t of the strip, each step
 *  (1) W pass: the row result of row t for the strip's columns, the taps
 *      scanned in order from the start value (best <- x where x > best:
 *      _mm256_max_ps(x, best)), straight from the input row where the
 *      strip's taps all lie inside it, else from a copy of its rows padded
 *      with the start value;
 *  (2) H pass: log-step levels over the row results, in registers:
 *      L_0[t] = row result t, L_{k+1}[t] = comb(L_k[t - 2^k], L_k[t]) (rows
 *      [t - 2^{k+1} + 1, t]); with P the largest power of two <= k_h, the
 *      output whose window ends at row t is comb(L_P[t - (k_h - P)], L_P[t])
 *      (the last values of L_P are kept in registers for the square kernels
 *      2, 3, 5, 7, 9, 13, which are compiled for their sizes, else in a
 *      small ring on the stack);
 *  (3) the output row whose window ends at row t is stored.
 * Each input row's W pass is done once per strip, each output is written
 * once, nothing else goes to memory: per output vector k_w + log2(k_h) + 1
 * max instructions, k_w loads and one store. Interior strips read the input
 * rows in place; strips that touch a border, and planes whose padded rows
 * are at most 64 floats wide, read copies padded with the start value, made
 * per band of rows. Outputs of 4 MiB or more (with 32-byte aligned rows)
 * go out with non-temporal stores.
 *
 * Why this is bit-exact with the reference's row-major scan from the start
 * value s (x replaces best when x > best; NaN never does):
 *  - comb(A, B) = _mm256_max_ps(B, A) = "B's best replaces A's best when it
 *    is greater". For two ranges A, B of one ordered sequence, A starting
 *    first, B ending last, A u B the window (overlapping or adjacent), comb
 *    gives the scan of A u B: the first element of the maximum M if M > s
 *    (if it lies in A, B cannot beat it; otherwise A's best < M and B's
 *    first M is the window's first), else s. NaN never enters a result (the
 *    W pass starts from s and max_ps(NaN, best) returns best), so results
 *    are ordered values; -0.0/+0.0 ties keep the earlier one, as the scan.
 *  - W then H: the scan is row-major, the rows in order and each row left
 *    to right; the row result is the scan of the row's part, and the H pass
 *    scans row results in row order with the same rule: the first row
 *    holding M, in it the first M: the same element (the same bits).
 *  - Rows outside the input (above row 0, below row H-1) enter the pipeline
 *    as s: they never replace anything, and an s that replaces nothing
 *    leaves the result as the scan of the real rows. Columns outside the
 *    input read as s in the padded copies, likewise.
 * First-element start (MAXPOOL_INIT_FIRST_ELEMENT): the passes run from
 * s = -inf and the output takes e00 (the window's first tap, row
 * max(i - pad_h, 0), column max(j - pad_w, 0)) where e00 is NaN: a scan
 * that starts at a NaN e00 is never replaced (nothing is > NaN); a scan that
 * starts at a non-NaN e00 and then meets e00 first equals the scan from -inf
 * (a result of -inf has the bits of -inf either way).
 *
 * Memory: the padded copies and the ring live on the task's stack (about
 * 33 KiB); nothing is allocated or shared. Tasks: one per (plane, block of
 * output rows), as the log-step kernel.
 */
#include "kernels.h"

#include "f32_cf_geom.h"
#include "simd_f32_avx2.h"

#include <math.h>
#include <stdalign.h>
#include <stdint.h>

#define VP_KMAX 15            /* largest kernel per axis taken */
#define VP_BUF_FLOATS 8192    /* padded row copies: 32 KiB */
#define VP_NARROW_SPAN 64     /* planes whose padded row span fits this are copied whole */
#define VP_NT_MIN_BYTES (4 << 20)
#define VP_AI static inline __attribute__((always_inline))

typedef struct vp_geom {
    int64_t H, W, Ho, Wo, kh, kw, ph, pw;
    int64_t nb; /* row blocks per plane */
    float start;
    int nt; /* full output vectors go out with non-temporal stores */
} vp_geom;

/* comb(a, b): b (later rows/columns) replaces a where greater */
#define VP_COMB(a, b) _mm256_max_ps((b), (a))

/* lanes u0 + q + l inside [0, W) */
VP_AI __m256i vp_inside(int64_t u, int64_t W)
{
    const __m256i idx = _mm256_add_epi32(_mm256_set1_epi32((int32_t)u), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    return _mm256_and_si256(_mm256_cmpgt_epi32(idx, _mm256_set1_epi32(-1)),
                            _mm256_cmpgt_epi32(_mm256_set1_epi32((int32_t)W), idx));
}

/* Rows [r0, r0 + nr) of plane xp, columns [u0, u0 + span) (span a multiple
 * of 8), copied to buf at pitch span; columns outside [0, W) are s. */
static void vp_copy(const float *xp, int64_t W, int64_t r0, int64_t nr, int64_t u0, int64_t span, float *buf,
                    float s)
{
    const __m256 vs = _mm256_set1_ps(s);
    for (int64_t q = 0; q < span; q += 8) {
        const int64_t u = u0 + q;
        if (u >= 0 && u + 8 <= W) {
            for (int64_t r = 0; r < nr; ++r)
                _mm256_storeu_ps(buf + r * span + q, _mm256_loadu_ps(xp + (r0 + r) * W + u));
        } else if (u + 8 <= 0 || u >= W) {
            for (int64_t r = 0; r < nr; ++r)
                _mm256_storeu_ps(buf + r * span + q, vs);
        } else {
            const __m256i m = vp_inside(u, W);
            for (int64_t r = 0; r < nr; ++r) {
                /* masked-off lanes are not read; the address is formed as an integer */
                const float *a = (const float *)((uintptr_t)(xp + (r0 + r) * W) + (uintptr_t)(u * 4));
                const __m256 v = _mm256_maskload_ps(a, m);
                _mm256_storeu_ps(buf + r * span + q, _mm256_blendv_ps(vs, v, _mm256_castsi256_ps(m)));
            }
        }
    }
}

/* e00 of output columns j0 + 8v + l for output row i: x[max(i - ph, 0)][max(j - pw, 0)] */
VP_AI __m256 vp_e00(const float *xp, const vp_geom *g, int64_t i, int64_t c0, int direct)
{
    const int64_t sh = i - g->ph > 0 ? i - g->ph : 0;
    const float *row = xp + sh * g->W;
    if (direct)
        return _mm256_loadu_ps(row + c0);
    __m256i idx = _mm256_add_epi32(_mm256_set1_epi32((int32_t)c0), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    idx = _mm256_max_epi32(idx, _mm256_setzero_si256());
    idx = _mm256_min_epi32(idx, _mm256_set1_epi32((int32_t)(g->W - 1)));
    return _mm256_i32gather_ps(row, idx, 4);
}

/*
 * One strip walk: input rows ra .. (the rows of output rows [i0, i1)),
 * row t's taps for the strip at src + (t - ra) * pitch (nreal rows exist
 * there; later steps feed s), outputs to y rows [i0, i1) at columns
 * [j0, j0 + nvalid) (nvalid <= 8 * SW; vectors past it are computed from
 * the padded copy and not stored). khc/kwc: the kernel sizes when known at
 * compile time (then the last values of L_P are kept in registers, else in
 * a ring on the stack), 0 otherwise.
 */
VP_AI void vp_walk(const float *src, int64_t pitch, int64_t nreal, const float *xp, float *yp, const vp_geom *g,
                   int64_t ra, int64_t i0, int64_t i1, int64_t j0, int64_t nvalid, int e_direct, const int P,
                   const int SW, const int64_t khc, const int64_t kwc, const int fe)
{
    const int64_t kw = kwc ? kwc : g->kw, kh = khc ? khc : g->kh;
    const int64_t d = kh - P;
    const __m256 vs = _mm256_set1_ps(g->start);
    __m256 a0[4], b0[4], b1[4], q0[4], q1[4], q2[4], q3[4], h[4][8];
    alignas(32) float ring[8 * 4 * 8];
    for (int v = 0; v < SW; ++v) {
        a0[v] = b0[v] = b1[v] = q0[v] = q1[v] = q2[v] = q3[v] = vs;
        for (int k = 0; k < 8; ++k)
            h[v][k] = vs;
    }
    if (!khc)
        for (int k = 0; k < P * SW; ++k)
            _mm256_store_ps(ring + 8 * k, vs);
    const int full = nvalid == 8 * SW;
    const int64_t emit0 = i0 - g->ph + kh - 1 - ra; /* step of output row i0 */
    const int64_t nsteps = emit0 + (i1 - i0);
    float *yo = yp + i0 * g->Wo + j0;
    for (int64_t s = 0; s < nsteps; ++s) {
        __m256 top[4];
#pragma GCC unroll 4
        for (int v = 0; v < SW; ++v)
            top[v] = vs;
        if (s < nreal) {
            const float *r = src + s * pitch;
#pragma GCC unroll 16
            for (int64_t c = 0; c < kw; ++c) {
#pragma GCC unroll 4
                for (int v = 0; v < SW; ++v)
                    top[v] = _mm256_max_ps(_mm256_loadu_ps(r + 8 * v + c), top[v]);
            }
        }
#pragma GCC unroll 4
        for (int v = 0; v < SW; ++v) {
            __m256 l = top[v];
            if (P >= 2) {
                const __m256 n = VP_COMB(a0[v], l);
                a0[v] = l;
                l = n;
            }
            if (P >= 4) {
                const __m256 n = VP_COMB(b1[v], l);
                b1[v] = b0[v];
                b0[v] = l;
                l = n;
            }
            if (P >= 8) {
                const __m256 n = VP_COMB(q3[v], l);
                q3[v] = q2[v];
                q2[v] = q1[v];
                q1[v] = q0[v];
                q0[v] = l;
                l = n;
            }
            if (khc && d) {
                /* h[v][k] = L_P[t - 1 - k] */
                const __m256 n = VP_COMB(h[v][d - 1], l);
#pragma GCC unroll 8
                for (int k = (int)d - 1; k > 0; --k)
                    h[v][k] = h[v][k - 1];
                h[v][0] = l;
                l = n;
            } else if (d) {
                const __m256 old = _mm256_load_ps(ring + 8 * (((s - d) & (P - 1)) * SW + v));
                _mm256_store_ps(ring + 8 * ((s & (P - 1)) * SW + v), l);
                l = VP_COMB(old, l);
            }
            top[v] = l;
        }
        if (s >= emit0) {
            const int64_t i = i0 + (s - emit0);
            float *yr = yo + (s - emit0) * g->Wo;
#pragma GCC unroll 4
            for (int v = 0; v < SW; ++v) {
                __m256 o = top[v];
                if (fe) {
                    const __m256 e = vp_e00(xp, g, i, j0 - g->pw + 8 * v, e_direct);
                    o = _mm256_blendv_ps(o, e, _mm256_cmp_ps(e, e, _CMP_UNORD_Q));
                }
                const int64_t nl = nvalid - 8 * v;
                if ((full || nl >= 8) && g->nt)
                    _mm256_stream_ps(yr + 8 * v, o);
                else if (full || nl >= 8)
                    _mm256_storeu_ps(yr + 8 * v, o);
                else if (nl > 0)
                    _mm256_maskstore_ps(yr + 8 * v,
                                        _mm256_cmpgt_epi32(_mm256_set1_epi32((int32_t)nl),
                                                           _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)),
                                        o);
            }
        }
    }
}

/* Output rows [i0, i1) of one plane, strips of SW vectors. */
VP_AI void vp_plane(const float *xp, float *yp, const vp_geom *g, int64_t i0, int64_t i1, const int P,
                    const int SW, const int64_t khc, const int64_t kwc, const int fe)
{
    alignas(32) float buf[VP_BUF_FLOATS];
    const int64_t sc = 8 * SW;                           /* columns per strip */
    const int64_t nstrips = (g->Wo + sc - 1) / sc;
    const int64_t lastn = g->Wo - (nstrips - 1) * sc;  /* valid columns of the last strip */
    const int64_t sspan = (sc + g->kw - 1 + 7) / 8 * 8; /* one strip's padded taps */
    const int64_t wspan = nstrips * sc + sspan - sc;    /* every strip's taps, from column -pw */
    const int64_t kh = g->kh;
    if (wspan <= VP_NARROW_SPAN) {
        /* narrow plane: the band's rows are copied whole, every strip reads the copy */
        const int64_t cap = VP_BUF_FLOATS / wspan - (kh - 1); /* output rows per band */
        for (int64_t b0 = i0; b0 < i1; b0 += cap) {
            const int64_t b1 = b0 + cap < i1 ? b0 + cap : i1;
            const int64_t ra = b0 - g->ph > 0 ? b0 - g->ph : 0;
            int64_t rb = b1 - 1 - g->ph + kh - 1; /* last input row */
            if (rb > g->H - 1)
                rb = g->H - 1;
            vp_copy(xp, g->W, ra, rb - ra + 1, -g->pw, wspan, buf, g->start);
            for (int64_t st = 0; st < nstrips; ++st) {
                const int64_t n = st == nstrips - 1 ? lastn : sc;
                vp_walk(buf + st * sc, wspan, rb - ra + 1, xp, yp, g, ra, b0, b1, st * sc, n, 0, P, SW, khc, kwc, fe);
            }
        }
        return;
    }
    const int64_t ra0 = i0 - g->ph > 0 ? i0 - g->ph : 0;
    int64_t rb0 = i1 - 1 - g->ph + kh - 1;
    if (rb0 > g->H - 1)
        rb0 = g->H - 1;
    for (int64_t st = 0; st < nstrips; ++st) {
        const int64_t j0 = st * sc, u0 = j0 - g->pw;
        const int64_t n = st == nstrips - 1 ? lastn : sc;
        if (u0 >= 0 && u0 + sc + g->kw - 1 <= g->W) {
            /* interior strip: taps straight from the input rows */
            vp_walk(xp + ra0 * g->W + u0, g->W, rb0 - ra0 + 1, xp, yp, g, ra0, i0, i1, j0, n, 1, P, SW, khc, kwc, fe);
            continue;
        }
        /* border strip: bands of its rows, padded */
        const int64_t cap = VP_BUF_FLOATS / sspan - (kh - 1);
        for (int64_t b0 = i0; b0 < i1; b0 += cap) {
            const int64_t b1 = b0 + cap < i1 ? b0 + cap : i1;
            const int64_t ra = b0 - g->ph > 0 ? b0 - g->ph : 0;
            int64_t rb = b1 - 1 - g->ph + kh - 1;
            if (rb > g->H - 1)
                rb = g->H - 1;
            vp_copy(xp, g->W, ra, rb - ra + 1, u0, sspan, buf, g->start);
            vp_walk(buf, sspan, rb - ra + 1, xp, yp, g, ra, b0, b1, j0, n, 0, P, SW, khc, kwc, fe);
        }
    }
}

VP_AI void vp_impl(const struct maxpool_plan *p, const float *x, float *y, int64_t t0, int64_t t1, const int P,
                   const int SW, const int64_t khc, const int64_t kwc, const int fe)
{
    vp_geom g;
    g.H = p->axis[0].in;
    g.W = p->axis[1].in;
    g.Ho = p->axis[0].out;
    g.Wo = p->axis[1].out;
    g.kh = p->axis[0].kernel;
    g.kw = p->axis[1].kernel;
    g.ph = p->axis[0].pad_begin;
    g.pw = p->axis[1].pad_begin;
    g.nb = cf_blocks(p->n * p->c, g.Ho);
    g.start = fe ? -INFINITY : p->init.f32;
    /* Outputs that do not fit the caches go out with non-temporal stores
     * (plain stores would read every output line first); every full vector
     * store is then 32-byte aligned. */
    g.nt = p->n * p->c * g.Ho * g.Wo * 4 >= VP_NT_MIN_BYTES && g.Wo % 8 == 0 && ((uintptr_t)y & 31) == 0;
    for (int64_t t = t0; t < t1; ++t) {
        const int64_t plane = t / g.nb, blk = t % g.nb;
        const int64_t i0 = blk * g.Ho / g.nb, i1 = (blk + 1) * g.Ho / g.nb;
        if (i0 < i1)
            vp_plane(x + plane * g.H * g.W, y + plane * g.Ho * g.Wo, &g, i0, i1, P, SW, khc, kwc, fe);
    }
    if (g.nt)
        _mm_sfence(); /* the streamed stores are visible before the task ends */
}

/* Kernel-size dispatch: P (the largest power of two <= k_h) and the strip
 * width are compile-time; so are both kernel sizes for the common square
 * kernels. */
#define VP_SQ(k_, P_, SW_)                                                                                         \
    case k_:                                                                                                       \
        if (kw == k_) {                                                                                            \
            if (fe)                                                                                                \
                vp_impl(p, x, y, t0, t1, P_, SW_, k_, k_, 1);                                                      \
            else                                                                                                   \
                vp_impl(p, x, y, t0, t1, P_, SW_, k_, k_, 0);                                                      \
            return;                                                                                                \
        }                                                                                                          \
        break;
#define VP_ANY(P_, SW_)                                                                                            \
    do {                                                                                                           \
        if (fe)                                                                                                    \
            vp_impl(p, x, y, t0, t1, P_, SW_, 0, 0, 1);                                                            \
        else                                                                                                       \
            vp_impl(p, x, y, t0, t1, P_, SW_, 0, 0, 0);                                                            \
    } while (0)

static void vp_run_fe(const struct maxpool_plan *p, const float *x, float *y, int64_t t0, int64_t t1, const int fe)
{
    const int64_t kh = p->axis[0].kernel, kw = p->axis[1].kernel;
    switch (kh) {
        VP_SQ(2, 2, 2)
        VP_SQ(3, 2, 2)
        VP_SQ(5, 4, 2)
        VP_SQ(7, 4, 2)
        VP_SQ(9, 8, 1)
        VP_SQ(13, 8, 1)
    default:
        break;
    }
    if (kh >= 8)
        VP_ANY(8, 1);
    else if (kh >= 4)
        VP_ANY(4, 2);
    else if (kh >= 2)
        VP_ANY(2, 2);
    else
        VP_ANY(1, 2);
}

void maxpool_f32_nchw_s1_vpipe_avx2(const struct maxpool_plan *p, const void *x, void *y, void *ind, int64_t t0,
                                    int64_t t1)
{
    (void)ind;
    vp_run_fe(p, (const float *)x, (float *)y, t0, t1, p->desc.window_init == MAXPOOL_INIT_FIRST_ELEMENT);
}

int maxpool_f32_nchw_s1_vpipe_match(const struct maxpool_plan *p)
{
    if (!cf_match(p) || p->rank != 2 || p->desc.window != MAXPOOL_WINDOW_FIXED ||
        p->desc.index_type != MAXPOOL_INDEX_NONE || p->nan_propagate)
        return 0;
    for (int a = 0; a < 2; ++a) {
        const maxpool_axis *ax = &p->axis[a];
        if (ax->stride != 1 || ax->dilation != 1 || ax->kernel < 1 || ax->kernel > VP_KMAX)
            return 0;
        if (ax->in > INT32_MAX - 64 || ax->out > INT32_MAX - 64)
            return 0;
        if (!cf_axis_nonempty(ax))
            return 0;
    }
    return 1;
}

int64_t maxpool_f32_nchw_s1_vpipe_tasks(const struct maxpool_plan *p)
{
    const int64_t planes = p->n * p->c;
    return planes * cf_blocks(planes, p->axis[0].out);
}
