/* SPDX-License-Identifier: Apache-2.0 */
/*
 * NCHW (spatial rank 2) f32 max pooling, stride 1 and dilation 1 on both
 * axes, kernels 1..15 per axis, every window non-empty, values only (no
 * indices), NaN ignored, AVX2: column strips walked down the plane with the
 * H pass as a register pipeline ("vertical pipeline").
 *
 * A strip is SW vectors of output columns (8*SW columns). The plane is
 * walked in chunks of up to VP_CHUNK_COLS output columns and, per chunk, in
 * bands of input rows:
 *  (0) the band's rows (the chunk's columns plus k_w - 1, padded with the
 *      start value s) are copied to a stack buffer "sanitised": each
 *      element x becomes comb(s, x), i.e. x where x > s, else s (NaN -> s);
 *      when the chunk spans the plane, the band is one contiguous read,
 *      prefetched a line per step during the previous band's walks, and
 *      when W is also a multiple of 8 the rows go to the buffer one after
 *      another with one gap of s between them that pads both the row before
 *      and the row after ("gap layout": whole-vector copies, no edge masks;
 *      vp_fill_gap); for the compile-time widths k_w >= 7 the copy is then
 *      turned in place into runs L_m of m taps (m = 3 at k7, k9 and k11,
 *      4 at k13 and k15; vp_wruns);
 * then every strip of the chunk walks the band, one step per input row t:
 *  (1) W pass: the row result of row t for the strip's columns, its taps
 *      combined right to left (acc = tap k_w - 1, then acc = comb(tap c,
 *      acc) for c = k_w - 2 .. 0: _mm256_max_ps(acc, tap) with the tap as
 *      the memory operand, one instruction per tap), or from the runs,
 *      L_m[k_w - m], then L_m[c] for the multiples c of m below k_w - m,
 *      right to left (ceil(k_w / m) instructions);
 *  (2) H pass: log-step levels over the row results, in registers:
 *      L_0[t] = row result t, L_{k+1}[t] = comb(L_k[t - 2^k], L_k[t]) (rows
 *      [t - 2^{k+1} + 1, t]); with P the largest power of two <= k_h, the
 *      output whose window ends at row t is comb(L_P[t - (k_h - P)], L_P[t]).
 *      The lagged values sit in rings indexed by t; the walk goes in
 *      unrolled blocks of U steps (U a multiple of every ring length, for
 *      the square kernels 2, 3, 5, 7, 9, 11, 13, 15, which are compiled
 *      for their sizes), so each ring slot is a fixed register and nothing
 *      moves; other kernel sizes keep the last ring in memory. The squares
 *      from 11 up take blocks of k_h rows instead (Gil-Werman, vp_gw: a
 *      running prefix in a register, the previous block's suffixes in
 *      memory, 3 maxima per output vector whatever k_h). The state of
 *      every strip of the chunk is kept between bands (VP_STATE(SW)
 *      vectors each);
 *  (3) the output row whose window ends at row t is stored.
 * Each input row is read once (into the band copy), each output written
 * once: per output vector k_w (or m + 1 + ceil(k_w / m) with the runs) +
 * log2(k_h) + 1 (3 with k13's blocks) max instructions, plus the copy (a
 * load, a max and a store per 8 input elements). Outputs of 4 MiB or more
 * go out with non-temporal stores where every strip's row store is a whole
 * 64-byte line. A block of U steps in which every step stores and
 * prefetches a line of the next band runs without per-step tests; the first
 * block of a walk (rows before the first output), the last, and those of a
 * band with no next band to prefetch take the tested steps.
 *
 * Why this is bit-exact with the reference's row-major scan from the start
 * value s (x replaces best when x > best; NaN never does):
 *  - comb(A, B) = _mm256_max_ps(B, A) = "B's best replaces A's best when it
 *    is greater". For two ranges A, B of one ordered sequence, A starting
 *    first, B ending last, A u B the window (overlapping or adjacent), comb
 *    gives the scan of A u B: the first element of the maximum M if M > s
 *    (if it lies in A, B cannot beat it; otherwise A's best < M and B's
 *    first M is the window's first), else s. -0.0/+0.0 ties keep the
 *    earlier one, as the scan.
 *  - Sanitising: comb(s, x) is the scan of the one element x (x if x > s,
 *    else s). Every tap is such a single-element result, so NaN never
 *    enters a combine and every value is s or above s; combining the
 *    sanitised taps of a row right to left (comb(tap c, scan of taps
 *    c+1..)) is the same comb of adjacent ranges, hence the scan of the
 *    row's part from s (an s tap replaces nothing). The runs are the same
 *    combines: L_m[i] is the right-to-left comb of taps i .. i + m - 1, and
 *    the window [0, k_w) is the right-to-left comb of runs that start at
 *    0, m, 2m, .. and end with the run [k_w - m, k_w), which overlaps the
 *    run before it or abuts it (comb of two ranges, the earlier first).
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
 * (a result of -inf has the bits of -inf either way). The same walks serve
 * both starts: the band copy ORs each loaded vector's NaN lanes into a flag,
 * and after the walks of a band whose outputs' first taps lie in a band that
 * read a NaN (first taps are at most k_h - 1 steps back; a band may be
 * shorter than that: 8 rows at 15x14), vp_fe_nan stores e00 over the
 * outputs whose e00 is NaN. Bands without take nothing more than the copy's
 * compares.
 *
 * Memory: the band copy (16 KiB), the strips' states (up to 18 KiB) and the
 * edge masks live on the task's stack (about 36 KiB); nothing is allocated
 * or shared. Tasks: one per (plane, block of output rows), as the log-step
 * kernel; the blocks of one plane within a call's task range are walked as
 * one (each walk has k_h - 1 rows of warm-up).
 */
#include "kernels.h"

#include "f32_cf_geom.h"
#include "simd_f32_avx2.h"

#include <math.h>
#include <stdalign.h>
#include <stdint.h>

#define VP_KMAX 15            /* largest kernel per axis taken */
#define VP_BUF_FLOATS 4096    /* one band of sanitised padded rows: 16 KiB */
#define VP_CHUNK_COLS 256     /* output columns per chunk of strips */
/* pipeline state vectors kept per strip between bands: a0, b, q and the last
 * ring, SW vectors each (SW = 1, P = 8, any k_h: 1 + 2 + 4 + 8 = 15; SW = 2,
 * P = 8, k9: 2 + 4 + 8 + 2 = 16), or the Gil-Werman prefix and slots
 * (SW = 2: k11 2 + 22, k13 2 + 26, k15 2 + 30 = 32) */
#define VP_STATE(SW) (16 * (SW) + 2)
#define VP_STATE_ALL (VP_CHUNK_COLS / 8 * VP_STATE(1)) /* every strip of a chunk, SW = 1 or 2 */
_Static_assert(VP_STATE(2) >= 2 * (VP_KMAX + 1), "the Gil-Werman prefix and k_h slots of a 2-vector strip");
_Static_assert(VP_STATE_ALL >= VP_CHUNK_COLS / 16 * VP_STATE(2), "the states of a chunk's 2-vector strips");
#define VP_SPAN_MAX (VP_CHUNK_COLS + 24) /* a chunk's padded taps: its columns + k - 1, to 8 */
#define VP_NT_MIN_BYTES (4 << 20)
#include "force_inline.h"
#define VP_AI MAXPOOL_AI

typedef struct vp_geom {
    int64_t H, W, Ho, Wo, kh, kw, ph, pw;
    int64_t nb; /* row blocks per plane */
    float start;
    int nt;  /* full output vectors go out with non-temporal stores */
    int opf; /* plain stores to an output beyond the caches: its lines are prefetched */
    int fe;  /* first-element start: the walks run from -inf, then vp_fe_nan where a band held a NaN */
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

/* The band copies' NaN test (chk): x's NaN lanes ORed into acc; two vectors
 * in one compare (unordered: either is NaN) */
#define VP_NAN_OR(acc, x) ((acc) = _mm256_or_ps((acc), _mm256_cmp_ps((x), (x), _CMP_UNORD_Q)))
#define VP_NAN_OR2(acc, x, y) ((acc) = _mm256_or_ps((acc), _mm256_cmp_ps((x), (y), _CMP_UNORD_Q)))

/* 32 values from x sanitised (max with vs) to b (aligned); with chk their
 * NaN lanes ORed into *n0, *n1 */
VP_AI void vp_copy32(const float *x, float *b, const __m256 vs, __m256 *n0, __m256 *n1, const int chk)
{
    const __m256 x0 = _mm256_loadu_ps(x), x1 = _mm256_loadu_ps(x + 8);
    const __m256 x2 = _mm256_loadu_ps(x + 16), x3 = _mm256_loadu_ps(x + 24);
    if (chk) {
        VP_NAN_OR2(*n0, x0, x1);
        VP_NAN_OR2(*n1, x2, x3);
    }
    _mm256_store_ps(b, _mm256_max_ps(x0, vs));
    _mm256_store_ps(b + 8, _mm256_max_ps(x1, vs));
    _mm256_store_ps(b + 16, _mm256_max_ps(x2, vs));
    _mm256_store_ps(b + 24, _mm256_max_ps(x3, vs));
}

/*
 * One band of nrows steps: rows [r0, r0 + nreal) of plane xp, columns
 * [u0, u0 + span) (span a multiple of 8, at most VP_SPAN_MAX), sanitised to
 * comb(s, x) (NaN and anything not above s become s), copied to buf at
 * pitch span; columns outside [0, W) and rows past nreal are s. With chk:
 * returns whether the input elements read (the band's rows, the chunk's
 * columns) hold a NaN (else 0).
 */
VP_AI int vp_fill_m(const float *xp, int64_t W, int64_t r0, int64_t nreal, int64_t nrows, int64_t u0, int64_t span,
                    float *buf, float s, const int chk)
{
    const __m256 vs = _mm256_set1_ps(s);
    __m256 n0 = _mm256_setzero_ps(), n1 = n0; /* NaN lanes seen (chk) */
    int64_t qa = u0 >= 0 ? 0 : (-u0 + 7) / 8 * 8; /* vectors [qa, qb) lie inside [0, W) */
    if (qa > span)
        qa = span;
    int64_t qb = qa;
    if (W > u0 + qa) {
        qb = qa + (W - (u0 + qa)) / 8 * 8;
        if (qb > span)
            qb = qa + (span - qa) / 8 * 8;
    }
    /* the edge vectors [0, qa) and [qb, span): their lanes inside [0, W),
     * once per band */
    __m256i em[VP_SPAN_MAX / 8];
    int ne = 0;
    for (int64_t q = 0; q < span; q += 8)
        if (q < qa || q >= qb)
            em[ne++] = vp_inside(u0 + q, W);
    const int nl = (int)(qa / 8); /* edge vectors on the left */
    for (int64_t r = 0; r < nrows; ++r) {
        float *b = buf + r * span;
        if (r >= nreal) {
            for (int64_t q = 0; q < span; q += 8)
                _mm256_store_ps(b + q, vs);
            continue;
        }
        const float *xr = xp + (r0 + r) * W;
        /* an edge vector: masked-off lanes are not read (the address is
         * formed as an integer) and are s */
        for (int e = 0; e < ne; ++e) {
            const int64_t q = e < nl ? 8 * e : qb + 8 * (e - nl);
            const __m256i m = em[e];
            const float *a = (const float *)((uintptr_t)xr + (uintptr_t)((u0 + q) * 4));
            const __m256 x = _mm256_maskload_ps(a, m); /* (masked-off lanes 0) */
            if (chk)
                VP_NAN_OR(n0, x);
            _mm256_store_ps(b + q, _mm256_blendv_ps(vs, _mm256_max_ps(x, vs), _mm256_castsi256_ps(m)));
        }
        /* the inside vectors, four at a time; the last four overlap the ones
         * before them when the count is not a multiple of four (the same
         * values stored twice) */
        const float *xi = xr + u0;
        int64_t q = qa;
        if (qb - qa >= 32) {
            for (;; q += 32) {
                if (q + 32 > qb)
                    q = qb - 32;
                vp_copy32(xi + q, b + q, vs, &n0, &n1, chk);
                if (q + 32 >= qb)
                    break;
            }
        } else {
            for (; q < qb; q += 8) {
                const __m256 x = _mm256_loadu_ps(xi + q);
                if (chk)
                    VP_NAN_OR(n0, x);
                _mm256_store_ps(b + q, _mm256_max_ps(x, vs));
            }
        }
    }
    return chk && _mm256_movemask_ps(_mm256_or_ps(n0, n1)) != 0;
}
static int vp_fill(const float *xp, int64_t W, int64_t r0, int64_t nreal, int64_t nrows, int64_t u0, int64_t span,
                   float *buf, float s, int chk)
{
    return chk ? vp_fill_m(xp, W, r0, nreal, nrows, u0, span, buf, s, 1)
               : vp_fill_m(xp, W, r0, nreal, nrows, u0, span, buf, s, 0);
}

/*
 * Gap layout fill (W a multiple of 8): nrows band rows, row t's W values
 * (sanitised, from xr + t * W; rows past nreal are s) at buf[G + t * pitch],
 * pitch = W + G, buf[0, G) and each row's following G values s. With chk:
 * returns whether the nreal rows hold a NaN (else 0).
 */
VP_AI int vp_fill_gap_m(const float *xr, int64_t W, int64_t nreal, int64_t nrows, int64_t G, float *buf, float s,
                        const int chk)
{
    const __m256 vs = _mm256_set1_ps(s);
    __m256 n0 = _mm256_setzero_ps(), n1 = n0; /* NaN lanes seen (chk) */
    for (int64_t q = 0; q < G; q += 8)
        _mm256_store_ps(buf + q, vs);
    float *b = buf + G;
    for (int64_t t = 0; t < nrows; ++t, b += W + G) {
        if (t < nreal) {
            const float *x = xr + t * W;
            int64_t q = 0;
            for (; q + 32 <= W; q += 32) {
                vp_copy32(x + q, b + q, vs, &n0, &n1, chk);
            }
            for (; q < W; q += 8) {
                const __m256 x0 = _mm256_loadu_ps(x + q);
                if (chk)
                    VP_NAN_OR(n0, x0);
                _mm256_store_ps(b + q, _mm256_max_ps(x0, vs));
            }
        } else {
            for (int64_t q = 0; q < W; q += 8)
                _mm256_store_ps(b + q, vs);
        }
        for (int64_t q = W; q < W + G; q += 8)
            _mm256_store_ps(b + q, vs);
    }
    return chk && _mm256_movemask_ps(_mm256_or_ps(n0, n1)) != 0;
}
static int vp_fill_gap(const float *xr, int64_t W, int64_t nreal, int64_t nrows, int64_t G, float *buf, float s,
                       int chk)
{
    return chk ? vp_fill_gap_m(xr, W, nreal, nrows, G, buf, s, 1) : vp_fill_gap_m(xr, W, nreal, nrows, G, buf, s, 0);
}

/* First-element start, the outputs whose first element is NaN: output rows
 * [ia, ib), columns [ja, jb) of the plane (xp, yp) take their window's first
 * element e00 = x[max(i - ph, 0)][max(j - pw, 0)] where it is NaN (the rest
 * keep the walk's result from -inf; see the top comment). Windows are never
 * empty, so j - pw <= W - 1. */
static __attribute__((noinline)) void vp_fe_nan(const float *xp, float *yp, const vp_geom *g, int64_t ia, int64_t ib,
                                                int64_t ja, int64_t jb)
{
    for (int64_t i = ia; i < ib; ++i) {
        const float *xr = xp + (i > g->ph ? i - g->ph : 0) * g->W;
        float *yr = yp + i * g->Wo;
        int64_t j = ja;
        if (j < g->pw) { /* first column 0 */
            const int64_t je = jb < g->pw ? jb : g->pw;
            if (xr[0] != xr[0])
                for (; j < je; ++j)
                    yr[j] = xr[0];
            j = je;
        }
        /* vectors; the last one ends at jb (overlapping the one before it:
         * the same values stored again) when [j, jb) is not whole vectors */
        for (; j < jb; j += 8) {
            if (j + 8 > jb) {
                if (jb - 8 < ja || jb - 8 < g->pw) {
                    for (; j < jb; ++j)
                        if (xr[j - g->pw] != xr[j - g->pw])
                            yr[j] = xr[j - g->pw];
                    break;
                }
                j = jb - 8;
            }
            const __m256 e = _mm256_loadu_ps(xr + j - g->pw);
            const __m256 m = _mm256_cmp_ps(e, e, _CMP_UNORD_Q);
            if (_mm256_movemask_ps(m))
                _mm256_maskstore_ps(yr + j, _mm256_castps_si256(m), e);
        }
    }
}

/* W pass for the compile-time kernel widths 7 and more: the band copy is
 * first turned into runs L_m (m taps each, vp_wruns), then a window is
 * ceil(k_w / m) of them: m + 1 + ceil(k_w / m) instructions per vector, 7
 * at k7 and k9 (m = 3) and 9 at k13 (m = 4), against 14 and 17 for the
 * log-step levels L_8 at k9 and k13 (three in-place passes of 4, then 2)
 * and k_w for the taps one by one. At k7 the count is the same as the taps'
 * (7), but with 4 maxima and 6 loads per vector instead of 6 and 7
 * (1x64x224x224 k7, alternated: 1,444-1,538 us against 1,666-1,698 us).
 * Below 7 the taps go one by one (0). */
VP_AI int64_t vp_wm(const int64_t kwc)
{
    return kwc < 7 ? 0 : kwc <= 11 ? 3 : 4; /* k11: 4 runs of 3; k15: 4 runs of 4 */
}

/*
 * Runs of m taps over a band copy (nrows rows at pitch span, in place): row
 * element i becomes L_m[i] = the scan of taps [i, i + m), combined right to
 * left (every tap is sanitised, so the earlier one may be the memory
 * operand). In place, front to back: the vector at i reads elements
 * [i, i + m + 7) and writes [i, i + 8), which no later vector reads. L_m is
 * computed on [0, O + kw - m) (rounded up to vectors), all a window of the O
 * output columns needs; the lanes past it (and the reads past a row's end,
 * into the next row or the buffer's slack) hold values no needed lane uses.
 */
VP_AI void vp_wruns(float *buf, int64_t nrows, int64_t span, int64_t O, int64_t kw, const int64_t m)
{
    const int64_t need = O + kw - m;
    for (int64_t r = 0; r < nrows; ++r) {
        float *b = buf + r * span;
#pragma GCC unroll 2
        for (int64_t i = 0; i < need; i += 8) {
            __m256 acc = _mm256_loadu_ps(b + i + m - 1);
#pragma GCC unroll 8
            for (int64_t c = m - 2; c >= 0; --c)
                acc = VP_COMB(_mm256_loadu_ps(b + i + c), acc);
            _mm256_store_ps(b + i, acc);
        }
    }
}

/*
 * The pipeline state of one strip, as rings indexed by the step s: a0[v] =
 * L_1[s - 1], b[s % 2][v] = L_2[s - 2], q[s % 4][v] = L_4[s - 4] and, for
 * compile-time kernels, h[s % d][v] = L_P[s - d] (or, when the unrolled
 * block length U is not a multiple of d, a shift register h[k] = L_P[s - 1
 * - k]). The walk goes in blocks of U steps starting at multiples of U, so
 * every ring index is a compile-time constant and the rings live in
 * registers without moves.
 */
typedef struct vp_regs {
    __m256 a0[2], b[2][2], q[4][2], h[7][2];
} vp_regs;

/* H pass by blocks (Gil-Werman) for the compile-time kernel heights 11 and
 * more: the block length k_h, else 0 (log-step levels). Per output vector
 * it takes 3 maxima (the prefix, the suffix pass, the combine) against 5
 * for the levels at k13 (L_1, L_2, L_4, L_8 and the combine), whose 12
 * state vectors per strip vector (24 at SW = 2) spilled; its state (the
 * prefix, and k_h vectors that hold the previous block's suffixes and the
 * current block's row results) lives in the strip's state in memory
 * (1x64x224x224 k13: 14.13 M -> 11.86 M instructions per call). At k9 the
 * levels' state fits (16 vectors) and bands of 9 rows instead of 16 cost
 * more than the two maxima saved: 12.5 M -> 14.0 M, so k9 keeps them. */
VP_AI int vp_gw(const int64_t khc)
{
    return khc >= 11 ? (int)khc : 0;
}

/* Steps per unrolled block: a multiple of every ring length (or the
 * Gil-Werman block) */
VP_AI int vp_block(const int P, const int64_t khc)
{
    if (vp_gw(khc))
        return vp_gw(khc);
    const int d = khc ? (int)khc - P : 0;
    if (d <= 1)
        return P;
    int u = P;
    while (u % d)
        u += P;
    return u <= 12 ? u : P;
}

/*
 * Step s (phase u = s mod U): the W pass over the sanitised row r (right to
 * left: every tap is already comb(s, x), so the earlier tap may be the
 * memory operand), then the H pipeline; out[v] = the output whose window
 * ends at this step.
 */
VP_AI void vp_step(const float *r, vp_regs *R, __m256 *ring, __m256 *gws, int64_t s, const int u, __m256 *out,
                   int64_t kw, int64_t d, const int P, const int SW, const int64_t khc, const int U, const int64_t WM)
{
    __m256 top[2];
    if (WM) {
        /* the band holds L_m along W: the window [0, kw) is the run at kw - m,
         * then those at the multiples of m below it, right to left */
#pragma GCC unroll 2
        for (int v = 0; v < SW; ++v) {
            top[v] = _mm256_loadu_ps(r + 8 * v + kw - WM);
#pragma GCC unroll 8
            for (int64_t c = (kw - WM - 1) / WM * WM; c >= 0; c -= WM)
                top[v] = VP_COMB(_mm256_loadu_ps(r + 8 * v + c), top[v]);
        }
    } else {
#pragma GCC unroll 2
        for (int v = 0; v < SW; ++v)
            top[v] = _mm256_loadu_ps(r + 8 * v + kw - 1);
#pragma GCC unroll 16
        for (int64_t c = kw - 2; c >= 0; --c) {
#pragma GCC unroll 2
            for (int v = 0; v < SW; ++v)
                top[v] = VP_COMB(_mm256_loadu_ps(r + 8 * v + c), top[v]);
        }
    }
    const int GW = vp_gw(khc);
    if (GW) {
        /* Gil-Werman along H, blocks of GW steps (step s = GW * b + u): the
         * prefix p = comb of the block's row results 0..u (in R->a0), slot
         * j of gws = the suffix comb of the previous block's row results
         * j..GW-1 until step j, then this block's row result j. The window
         * [s - GW + 1, s] is comb(suffix from u + 1, p) (adjacent ranges,
         * the earlier first), the whole block at u = GW - 1. At the block's
         * end the slots become its suffixes, right to left. */
#pragma GCC unroll 2
        for (int v = 0; v < SW; ++v) {
            const __m256 l = top[v];
            R->a0[v] = u == 0 ? l : VP_COMB(R->a0[v], l);
            out[v] = u == GW - 1 ? R->a0[v] : VP_COMB(gws[(u + 1) * SW + v], R->a0[v]);
            gws[u * SW + v] = l;
        }
        if (u == GW - 1)
#pragma GCC unroll 16
            for (int j = GW - 2; j >= 0; --j)
#pragma GCC unroll 2
                for (int v = 0; v < SW; ++v)
                    gws[j * SW + v] = VP_COMB(gws[j * SW + v], gws[(j + 1) * SW + v]);
        return;
    }
#pragma GCC unroll 2
    for (int v = 0; v < SW; ++v) {
        __m256 l = top[v];
        if (P >= 2) {
            const __m256 n = VP_COMB(R->a0[v], l);
            R->a0[v] = l;
            l = n;
        }
        if (P >= 4) {
            const __m256 n = VP_COMB(R->b[u & 1][v], l);
            R->b[u & 1][v] = l;
            l = n;
        }
        if (P >= 8) {
            const __m256 n = VP_COMB(R->q[u & 3][v], l);
            R->q[u & 3][v] = l;
            l = n;
        }
        if (khc && d && U % d == 0) {
            const int k = u % (int)d;
            const __m256 n = VP_COMB(R->h[k][v], l);
            R->h[k][v] = l;
            l = n;
        } else if (khc && d) {
            const __m256 n = VP_COMB(R->h[d - 1][v], l);
#pragma GCC unroll 8
            for (int k = (int)d - 1; k > 0; --k)
                R->h[k][v] = R->h[k - 1][v];
            R->h[0][v] = l;
            l = n;
        } else if (d) {
            const __m256 old = ring[((s - d) & (P - 1)) * SW + v];
            ring[(s & (P - 1)) * SW + v] = l;
            l = VP_COMB(old, l);
        }
        out[v] = l;
    }
}

enum { VP_ST_NT, VP_ST_U, VP_ST_PART };

/* The outputs of one step (output row i), stores of kind `mode` */
VP_AI void vp_store(__m256 *o, float *yr, int64_t nvalid,
                    const int SW, const int mode)
{
#pragma GCC unroll 2
    for (int v = 0; v < SW; ++v) {
        if (mode == VP_ST_NT)
            _mm256_stream_ps(yr + 8 * v, o[v]);
        else if (mode == VP_ST_U)
            _mm256_storeu_ps(yr + 8 * v, o[v]);
        else {
            const int64_t nl = nvalid - 8 * v;
            if (nl >= 8)
                _mm256_storeu_ps(yr + 8 * v, o[v]);
            else if (nl > 0)
                _mm256_maskstore_ps(yr + 8 * v,
                                    _mm256_cmpgt_epi32(_mm256_set1_epi32((int32_t)nl),
                                                       _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)),
                                    o[v]);
        }
    }
}

/*
 * One strip over one band: steps [s0, s1) (s0 a multiple of U; s1 too
 * unless this is the walk's last band, whose copy holds rows up to the next
 * multiple of U), step s reading the sanitised row
 * src + (s - s0) * pitch (the strip's taps), the pipeline state loaded from
 * and saved to st (VP_STATE(SW) vectors). The output row whose window ends at
 * step s >= emit0 is row i0 + (s - emit0), stored to yo + (s - emit0) * Wo
 * (columns j0 .. j0 + nvalid; nvalid <= 8 * SW, vectors past it are not
 * stored). khc/kwc: the kernel sizes when known at compile time (then the
 * last values of L_P are kept in registers, else in a ring in st), 0
 * otherwise.
 */
VP_AI void vp_band_m(const float *src, int64_t pitch, __m256 *st, uintptr_t pf, uintptr_t pfe, uintptr_t po,
                     uintptr_t poe, int64_t s0,
                     int64_t s1, int64_t emit0,
                     float *yo, const vp_geom *g, int64_t nvalid, const int P, const int SW, const int64_t khc,
                     const int64_t kwc, const int mode)
{
    const int64_t kw = kwc ? kwc : g->kw, kh = khc ? khc : g->kh;
    const int64_t d = kh - P;
    const int U = vp_block(P, khc);
    const int64_t WM = vp_wm(kwc);
    /* state slots: a0[v], b[2][v], q[4][v] (P >= 8), then h[k][v] or the ring */
    const int B = SW, Q = 3 * SW, HB = 3 * SW + (P >= 8 ? 4 * SW : 0);
    vp_regs R;
    __m256 *gws = st + SW; /* Gil-Werman slots (vp_gw): after the prefix */
#pragma GCC unroll 2
    for (int v = 0; v < SW; ++v) {
        R.a0[v] = st[v];
        if (vp_gw(khc))
            continue;
        R.b[0][v] = st[B + v];
        R.b[1][v] = st[B + SW + v];
        if (P >= 8)
#pragma GCC unroll 4
            for (int k = 0; k < 4; ++k)
                R.q[k][v] = st[Q + k * SW + v];
        if (khc)
#pragma GCC unroll 7
            for (int k = 0; k < (int)d; ++k)
                R.h[k][v] = st[HB + k * SW + v];
    }
    __m256 *ring = st + HB;
    const float *r = src;
    int64_t yoff = (s0 - emit0) * g->Wo; /* output offset of step s's row (used when s >= emit0) */
    const int64_t lim = s1 - emit0 > 0 ? s1 - emit0 : 0; /* steps emit0 <= s < s1 store */
    /* whole blocks of U steps; in the walk's last band the last block may run
     * past s1 over rows vp_fill set to the start value, and stores nothing
     * there (the state is not used again) */
    for (int64_t s = s0; s < s1;) {
        if (s >= emit0 && s + U <= lim + emit0 && pf + (uintptr_t)U * 64 <= pfe) {
            /* a run of common blocks: every step stores and prefetches a line
             * (blocks past the prefetch range take the tested form: a second
             * untested form cost 40 s of compile time and saved 2 % of the
             * instructions at k3, nothing at k7). The run is counted first
             * and walked by a loop that carries only the pointers: the
             * per-block tests and reloads were 29 instructions per block,
             * as many as k3's two steps. */
            int64_t nb = (lim + emit0 - s) / U;
            const int64_t nbp = (int64_t)((pfe - pf) / ((uintptr_t)U * 64));
            if (nbp < nb)
                nb = nbp;
            /* plain stores: a line of the next band's output per step while
             * its range lasts (else a harmless line of the band copy), so
             * the stores find their lines in the cache */
            uintptr_t pq = (uintptr_t)src, pinc = 0;
            if (mode != VP_ST_NT && po + (uintptr_t)U * 64 <= poe) {
                pq = po;
                pinc = 64;
                const int64_t nbo = (int64_t)((poe - po) / ((uintptr_t)U * 64));
                if (nbo < nb)
                    nb = nbo;
            }
            const int64_t Wo = g->Wo;
            float *yr = yo + yoff;
            for (int64_t b = 0; b < nb; ++b, s += U) {
#pragma GCC unroll 16
                for (int u = 0; u < U; ++u) {
                    __m256 o[2];
                    vp_step(r, &R, ring, gws, s + u, u, o, kw, d, P, SW, khc, U, WM);
                    _mm_prefetch((const char *)pf, _MM_HINT_T0);
                    pf += 64;
                    if (mode != VP_ST_NT) {
                        _mm_prefetch((const char *)pq, _MM_HINT_T0);
                        pq += pinc;
                    }
                    vp_store(o, yr, nvalid, SW, mode);
                    r += pitch;
                    yr += Wo;
                }
            }
            yoff += nb * U * Wo;
            po += (uintptr_t)(nb * U) * pinc;
            continue;
        }
#pragma GCC unroll 16
        for (int u = 0; u < U; ++u) {
            __m256 o[2];
            vp_step(r, &R, ring, gws, s + u, u, o, kw, d, P, SW, khc, U, WM);
            if (pf < pfe) { /* a line of the next band's input */
                _mm_prefetch((const char *)pf, _MM_HINT_T0);
                pf += 64;
            }
            if ((uint64_t)(s + u - emit0) < (uint64_t)lim)
                vp_store(o, yo + yoff, nvalid, SW, mode);
            r += pitch;
            yoff += g->Wo;
        }
        s += U;
    }
#pragma GCC unroll 2
    for (int v = 0; v < SW; ++v) {
        st[v] = R.a0[v];
        if (vp_gw(khc))
            continue;
        st[B + v] = R.b[0][v];
        st[B + SW + v] = R.b[1][v];
        if (P >= 8)
#pragma GCC unroll 4
            for (int k = 0; k < 4; ++k)
                st[Q + k * SW + v] = R.q[k][v];
        if (khc)
#pragma GCC unroll 7
            for (int k = 0; k < (int)d; ++k)
                st[HB + k * SW + v] = R.h[k][v];
    }
}

/* One band walked by every strip of a chunk (the strip loop of vp_plane) */
typedef struct vp_walk {
    const float *buf; /* the band copy */
    int64_t pitch;    /* its row pitch */
    int64_t base;     /* gap layout: buf + base is column 0 of the band's first row; 0 otherwise */
    int gap;
    __m256 *state; /* the chunk's strips' pipeline states */
    uintptr_t pfa, pfl, poa, pol; /* the next band's input and output lines to prefetch, a range per strip */
    int64_t s0, s1, emit0, i0, c0, c1, nstrips, lastn;
    float *yp; /* the plane's output */
} vp_walk;

/* The strips' walks of one band, out of line: one function per kernel
 * instance and store kind (VP_KERNEL below). Inlined into the plane loop,
 * the walk's loop reloaded its pointer steps and bounds from the stack (the
 * plane's and chunk's loop variables held the registers): 10 of k3's 44
 * instructions per block of two steps, and the file took 94 s to compile
 * (now 17 s). Non-temporal stores (mode VP_ST_NT) are chosen only where
 * every strip is whole (SW = 2 and Wo a multiple of 16, vp_impl); with
 * plain stores the last strip may be partial. */
VP_AI void vp_walk_m(const vp_walk *w, const vp_geom *g, const int P, const int SW, const int64_t khc,
                     const int64_t kwc, const int mode)
{
    const int64_t sc = 8 * SW;
    const int64_t c0 = w->c0, c1 = w->c1;
    for (int64_t st = c0; st < c1; ++st) {
        const uintptr_t pf = w->pfa + (uintptr_t)(st - c0) * w->pfl;
        const uintptr_t po = w->poa + (uintptr_t)(st - c0) * w->pol;
        const int64_t j0 = st * sc;
        const int64_t n = st == w->nstrips - 1 ? w->lastn : sc;
        const float *src = w->gap ? w->buf + w->base + j0 - g->pw : w->buf + (st - c0) * sc;
        __m256 *state = w->state + (st - c0) * VP_STATE(SW);
        float *yo = w->yp + w->i0 * g->Wo + j0;
        if (mode != VP_ST_NT && n < sc)
            vp_band_m(src, w->pitch, state, pf, pf + w->pfl, po, po + w->pol, w->s0, w->s1, w->emit0, yo, g, n, P,
                      SW, khc, kwc, VP_ST_PART);
        else
            vp_band_m(src, w->pitch, state, pf, pf + w->pfl, po, po + w->pol, w->s0, w->s1, w->emit0, yo, g, n, P,
                      SW, khc, kwc, mode);
    }
}
typedef void (*vp_walk_fn)(const vp_walk *w, const vp_geom *g);

/*
 * Output rows [i0, i1) of one plane. Step s of the walk is input row ra + s
 * (rows past the input feed s). Chunks of up to VP_CHUNK_COLS output columns
 * (strips of SW vectors); per chunk, bands of steps: the band's rows are
 * copied sanitised and padded (one contiguous read of the rows when the
 * chunk spans the plane), then every strip of the chunk walks the band,
 * its pipeline state kept between bands.
 */
VP_AI void vp_plane(const float *xp, float *yp, const vp_geom *g, int64_t i0, int64_t i1, const int P,
                    const int SW, const int64_t khc, const int64_t kwc, vp_walk_fn wnt, vp_walk_fn wu)
{
    alignas(32) float buf[VP_BUF_FLOATS + 16]; /* slack: vp_wruns reads up to m + 6 past the band */
    __m256 state[VP_STATE_ALL];
    const __m256 vs = _mm256_set1_ps(g->start);
    const int64_t sc = 8 * SW; /* columns per strip */
    const int64_t nstrips = (g->Wo + sc - 1) / sc;
    const int64_t lastn = g->Wo - (nstrips - 1) * sc; /* valid columns of the last strip */
    const int64_t spc = VP_CHUNK_COLS / sc;           /* strips per chunk */
    const int64_t kh = g->kh;
    const int64_t ra = i0 - g->ph > 0 ? i0 - g->ph : 0;
    int64_t rb = i1 - 1 - g->ph + kh - 1; /* last input row */
    if (rb > g->H - 1)
        rb = g->H - 1;
    const int64_t nreal = rb - ra + 1;
    const int64_t emit0 = i0 - g->ph + kh - 1 - ra; /* step of output row i0 */
    const int64_t nsteps = emit0 + (i1 - i0);
    for (int64_t c0 = 0; c0 < nstrips; c0 += spc) {
        const int64_t c1 = c0 + spc < nstrips ? c0 + spc : nstrips;
        const int64_t span = ((c1 - c0) * sc + g->kw - 1 + 7) / 8 * 8;
        const int64_t U = vp_block(P, khc);
        /* Gap layout, when the chunk spans the plane and rows are whole
         * vectors: the band's rows lie one after another at pitch W + G, each
         * followed by G start values that are the next row's left padding
         * too (G >= the columns a window reaches left of column 0 and right
         * of column W - 1, rounded up to a vector). Input column c of band
         * row t is buf[G + t * pitch + c]. Otherwise each row is a padded
         * copy of the chunk's columns at pitch span. */
        int64_t pitch = span, base = 0, band = VP_BUF_FLOATS / span / U * U;
        int gap = 0;
        if (c0 == 0 && c1 == nstrips && g->W % 8 == 0) {
            int64_t G = nstrips * sc + g->kw - 1 - g->pw - g->W; /* reach right of the row */
            if (G < g->pw)
                G = g->pw;
            G = (G + 8) / 8 * 8; /* at least one vector */
            const int64_t gb = (VP_BUF_FLOATS - G) / (g->W + G) / U * U;
            if (gb > 0) {
                gap = 1;
                pitch = g->W + G;
                base = G;
                band = gb;
            }
        }
        const int64_t u0 = c0 * sc - g->pw;
        for (int64_t k = 0; k < (c1 - c0) * VP_STATE(SW); ++k)
            state[k] = vs;
        /* first-element start: the end step of the last band whose copy read
         * a NaN (in the chunk's columns) */
        int64_t nan_hi = INT64_MIN / 2;
        for (int64_t s0 = 0; s0 < nsteps; s0 += band) {
            const int64_t s1 = s0 + band < nsteps ? s0 + band : nsteps;
            int64_t nr = nreal - s0;
            nr = nr < 0 ? 0 : nr > s1 - s0 ? s1 - s0 : nr;
            const int64_t nfill = (s1 - s0 + U - 1) / U * U;
            int nan;
            if (gap) {
                nan = vp_fill_gap(xp + (ra + s0) * g->W, g->W, nr, nfill, base, buf, g->start, g->fe);
                if (vp_wm(kwc)) /* one flat row: no window reaches past a gap */
                    vp_wruns(buf, 1, 0, base + nfill * pitch - g->kw + 1, g->kw, vp_wm(kwc));
            } else {
                nan = vp_fill(xp, g->W, ra + s0, nr, nfill, u0, span, buf, g->start, g->fe);
                if (vp_wm(kwc))
                    vp_wruns(buf, nfill, span, (c1 - c0) * sc, g->kw, vp_wm(kwc));
            }
            if (nan)
                nan_hi = s1;
            /* the next band's input rows, when the chunk spans the plane (one
             * contiguous range), are prefetched during this band's walks, a
             * line per step, the range split between the strips */
            uintptr_t pfa = 0, pfl = 0;
            if (c0 == 0 && c1 == nstrips && s1 < nreal) {
                const int64_t ne = nreal < s1 + band ? nreal : s1 + band;
                pfa = (uintptr_t)(xp + (ra + s1) * g->W) & ~(uintptr_t)63;
                const uintptr_t pfz = (uintptr_t)(xp + (ra + ne) * g->W);
                pfl = ((pfz - pfa) / (uintptr_t)(c1 - c0) + 63) & ~(uintptr_t)63;
            }
            /* with plain stores, the next band's output rows likewise */
            uintptr_t poa = 0, pol = 0;
            if (g->opf && c0 == 0 && c1 == nstrips) {
                const int64_t oa = s1 - emit0 > 0 ? s1 - emit0 : 0;
                const int64_t ob = s1 + band - emit0 < i1 - i0 ? s1 + band - emit0 : i1 - i0;
                if (ob > oa) {
                    poa = (uintptr_t)(yp + (i0 + oa) * g->Wo) & ~(uintptr_t)63;
                    const uintptr_t poz = (uintptr_t)(yp + (i0 + ob) * g->Wo);
                    pol = ((poz - poa) / (uintptr_t)(c1 - c0) + 63) & ~(uintptr_t)63;
                }
            }
            const vp_walk w = {buf,  pitch, base, gap,   state, pfa,     pfl,   poa, pol, s0,
                               s1,   emit0, i0,   c0,    c1,    nstrips, lastn, yp};
            (g->nt ? wnt : wu)(&w, g);
            /* First-element start: the output of step s (row i0 + s - emit0)
             * has its first tap at step max(i - ph, 0) - ra >= s - (k_h - 1);
             * where no band from step s0 - (k_h - 1) on read a NaN, the
             * band's outputs are the walk's from -inf (top comment) */
            if (g->fe && nan_hi > s0 - (kh - 1)) {
                const int64_t sa = s0 > emit0 ? s0 : emit0, sb = s1 < nsteps ? s1 : nsteps;
                if (sa < sb) {
                    if (g->nt)
                        _mm_sfence(); /* the streamed rows before the fix-up's stores to them */
                    vp_fe_nan(xp, yp, g, i0 + sa - emit0, i0 + sb - emit0, c0 * sc,
                              c1 * sc < g->Wo ? c1 * sc : g->Wo);
                }
            }
        }
    }
}

/* wnt/wu: the instance's walks (non-temporal, plain stores). With the
 * first-element start (fe), the walks run from -inf and the bands whose
 * outputs' first taps may hold a NaN are fixed up after (vp_plane,
 * vp_fe_nan). */
VP_AI void vp_impl(const struct maxpool_plan *p, const float *x, float *y, int64_t t0, int64_t t1, const int P,
                   const int SW, const int64_t khc, const int64_t kwc, vp_walk_fn wnt, vp_walk_fn wu)
{
    const int fe = p->desc.window_init == MAXPOOL_INIT_FIRST_ELEMENT;
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
    g.fe = fe;
    /* Outputs that do not fit the caches go out with non-temporal stores
     * (plain stores would read every output line first), but only where each
     * strip's store of a row is one whole 64-byte line (strips of 16 columns,
     * rows a multiple of 16 and the output 64-byte aligned): partial lines
     * written non-temporally cost far more (8x64x56x56 k3: 2.6 ms, against
     * 0.7 ms with plain stores). */
    g.nt = SW == 2 && p->n * p->c * g.Ho * g.Wo * 4 >= VP_NT_MIN_BYTES && g.Wo % 16 == 0 && ((uintptr_t)y & 63) == 0;
    /* Plain stores to such an output (partial lines, SW = 1) find their lines
     * prefetched a band ahead: a store that misses waits for the line's read
     * (1x64x224x224 k7 with plain stores took 3.3-3.6 ms against 1.6-1.8 ms
     * with non-temporal ones; k9/k13 at SW = 1: 4.2-4.7 ms, with these
     * prefetches 3.3-3.6 ms). */
    g.opf = !g.nt && p->n * p->c * g.Ho * g.Wo * 4 >= VP_NT_MIN_BYTES;
    /* The task range's blocks of one plane are walked as one: each walk
     * starts k_h - 1 rows before its first output row, so a plane split into
     * blocks for the threads would repeat that warm-up at every block
     * (1x4x224x224 k13: 8 blocks of 28 rows, 12 rows of warm-up each). */
    for (int64_t t = t0; t < t1;) {
        const int64_t plane = t / g.nb;
        const int64_t te = (plane + 1) * g.nb < t1 ? (plane + 1) * g.nb : t1; /* this plane's tasks: [t, te) */
        const int64_t i0 = t % g.nb * g.Ho / g.nb, i1 = (t % g.nb + te - t) * g.Ho / g.nb;
        const float *xp = x + plane * g.H * g.W;
        if (i0 < i1)
            vp_plane(xp, y + plane * g.Ho * g.Wo, &g, i0, i1, P, SW, khc, kwc, wnt, wu);
        t = te;
    }
    if (g.nt)
        _mm_sfence(); /* the streamed stores are visible before the task ends */
}

/* One kernel instance: P (the largest power of two <= k_h), the strip width
 * SW, the kernel sizes when compile-time (khc, kwc; 0 when not); its band
 * walks (non-temporal or plain stores) and its entry, for either start (the
 * first element's: vp_impl) */
#define VP_WALK_FN(name_, P_, SW_, khc_, kwc_, mode_)                                                              \
    static __attribute__((noinline)) void name_(const vp_walk *w, const vp_geom *g)                                \
    {                                                                                                              \
        vp_walk_m(w, g, P_, SW_, khc_, kwc_, mode_);                                                               \
    }
#define VP_KERNEL(name_, P_, SW_, khc_, kwc_)                                                                      \
    VP_WALK_FN(name_##_nt, P_, SW_, khc_, kwc_, VP_ST_NT)                                                          \
    VP_WALK_FN(name_##_u, P_, SW_, khc_, kwc_, VP_ST_U)                                                            \
    static void name_(const struct maxpool_plan *p, const float *x, float *y, int64_t t0, int64_t t1)             \
    {                                                                                                              \
        vp_impl(p, x, y, t0, t1, P_, SW_, khc_, kwc_, name_##_nt, name_##_u);                                      \
    }
/* the square kernels compiled for their sizes */
#define VP_SQUARE(k_, P_, SW_) VP_KERNEL(vp_k##k_, P_, SW_, k_, k_)
/* any kernel sizes with a given P */
#define VP_GENERIC(P_, SW_) VP_KERNEL(vp_p##P_, P_, SW_, 0, 0)

/* k9 and k13 walk strips of 2 vectors too, although k9's 16 state vectors
 * spill (and k13's Gil-Werman state lives in memory): that costs less than
 * strips of one vector, whose half-line stores cannot go out non-temporally
 * (1x64x224x224, both with the levels then: k9 3.5 -> 2.3 ms, k13 3.7 ->
 * 2.6 ms). */
/* (2x2 and 3x3 windows of the common kind go to f32_nchw_gen, gen_match.c:
 * the rest of them takes the generic P = 2 instance; build time) */
VP_SQUARE(5, 4, 2)
VP_SQUARE(7, 4, 2)
VP_SQUARE(9, 8, 2)
VP_SQUARE(11, 8, 2)
VP_SQUARE(13, 8, 2)
VP_SQUARE(15, 8, 2)
VP_GENERIC(8, 1)
VP_GENERIC(4, 2)
VP_GENERIC(2, 2)
VP_GENERIC(1, 2)

typedef void (*vp_kernel_fn)(const struct maxpool_plan *p, const float *x, float *y, int64_t t0, int64_t t1);

/* Kernel-size dispatch: the square kernels above, else the instance for P */
static vp_kernel_fn vp_pick(int64_t kh, int64_t kw)
{
#define VP_IF_SQUARE(k_)                                                                                           \
    if (kh == k_ && kw == k_)                                                                                      \
        return vp_k##k_;
    VP_IF_SQUARE(5)
    VP_IF_SQUARE(7)
    VP_IF_SQUARE(9)
    VP_IF_SQUARE(11)
    VP_IF_SQUARE(13)
    VP_IF_SQUARE(15)
#undef VP_IF_SQUARE
    if (kh >= 8)
        return vp_p8;
    if (kh >= 4)
        return vp_p4;
    if (kh >= 2)
        return vp_p2;
    return vp_p1;
}

void maxpool_f32_nchw_s1_vpipe_avx2(const struct maxpool_plan *p, const void *x, void *y, void *ind, int64_t t0,
                                    int64_t t1)
{
    (void)ind;
    vp_pick(p->axis[0].kernel, p->axis[1].kernel)(p, (const float *)x, (float *)y, t0, t1);
}

/* Bounds, stack scratch per task:
 *  - buf[VP_BUF_FLOATS + 16]: one band of nfill rows (nfill <= band, both
 *    multiples of the block U <= 15) at a pitch of span <= 272 floats (a
 *    chunk's 256 columns + k_w - 1 <= 270, to 8), band = 4096/span
 *    rounded down to U (>= U: 4096/272 = 15); or, in the gap layout,
 *    G + nfill*(W + G) <= 4096 (taken only when that band is >= U); the 16
 *    slack floats take vp_wruns' reads past the band (<= m + 6).
 *  - state[VP_STATE_ALL]: a chunk's strips times VP_STATE(SW) (static
 *    asserts above); vp_regs h[7]: d = k_h - P <= 3 for the squares.
 *  - em[VP_SPAN_MAX / 8]: the edge vectors of one span (<= 272/8).
 * All of it needs kernels 1..VP_KMAX on both axes; the pipeline's row
 * arithmetic (emit0 >= 0; vp_fe_nan's e00 row and columns inside the
 * input) needs no empty window (so pad_begin <= k - 1), stride and
 * dilation 1. Lane indices (edge masks) are int32: in and out <=
 * INT32_MAX - 64 per axis. No positions: values only, NaN ignored; either
 * start. */
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
