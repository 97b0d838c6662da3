/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Channels-last rank-2 rows, values only, W first, with a line buffer:
 * included by f32_nhwc_impl.h (KFN, VF and KFN(update) defined).
 *
 * An output row's windows span the input rows to[0..R-1]. Each input row r
 * gives every output pixel a W partial: the scan of the pixel's W taps in
 * row r from the start value. The output is the scan of the R partials in
 * row order, which is the reference's row-major scan: for scans A and B run
 * from the same start value (never NaN), update(scan(A), scan(B)) equals
 * the scan of A then B, because
 *   - under propagation, if B holds a NaN, both end at B's last NaN;
 *   - else, if scan(A) is a (propagated) NaN, nothing in B replaces it, and
 *     scan(B) is no NaN, which the update leaves;
 *   - else (NaN ignored or absent) the scan of A then B ends at B's first
 *     maximum when that is greater than scan(A), and at scan(A) otherwise;
 *     scan(B) is that first maximum, or else a value not greater than
 *     scan(A) (the start value or B's maximum), which the update leaves.
 *
 * When the H stride is the window height less one (k3 s2), the last input
 * row of output row oh is the first of row oh+1 (the caller compares the
 * rows themselves, not the strides). Its W partials, kept in the caller's
 * line buffer (OW*C floats), are read back instead of being recomputed
 * from a row that has left L1 by then. Per output vector of k3 s2: 7 loads
 * (6 input, 1 buffer), 8 updates and 2 stores, where the row-major scan
 * takes 9 loads and 9 updates and reads every shared row twice. The pixels
 * go in order and each pixel's channels in order, so the input rows stream
 * as in the plain scan (walking the row in channel strips was slower).
 */

/* One pixel, channels [0, NB*VW): its RC computed rows r0..r2 at offset
 * off, the window n taps wide at steps of dq floats; bo/yo: its buffer and
 * output slots. The output takes the buffer's partial first when useb; the
 * buffer receives the last computed row's partial. Windows of 3 taps (the
 * common case) address each tap from a pointer of its own, so a load is a
 * pointer and a constant. */
CF_AI void KFN(wpix)(const float *r0, const float *r1, const float *r2, int64_t off, int64_t n, int64_t dq, float *bo,
                     float *yo, VF vinit, const int RC, const int useb, const int NB, const int K3, const int prop)
{
    const float *const rp[3] = {r0 + off, r1 + off, r2 + off};
    const int64_t d1 = K3 ? dq : 0; /* no pointers past a narrower window */
    const float *const t[3][3] = {{rp[0], rp[0] + d1, rp[0] + 2 * d1},
                                  {rp[1], rp[1] + d1, rp[1] + 2 * d1},
                                  {rp[2], rp[2] + d1, rp[2] + 2 * d1}};
    VI dummy = VI_SET1(0);
    for (int v = 0; v < NB; ++v) {
        VF acc = useb ? VF_LOAD(bo + v * VW) : vinit, w = vinit; /* vinit: replaced by row 0's partial */
        for (int r = 0; r < RC; ++r) {
            w = vinit;
            if (K3)
                for (int j = 0; j < 3; ++j)
                    KFN(update)(&w, &dummy, VF_LOAD(t[r][j] + v * VW), dummy, prop, 0);
            else
                for (int64_t j = 0; j < n; ++j)
                    KFN(update)(&w, &dummy, VF_LOAD(rp[r] + j * dq + v * VW), dummy, prop, 0);
            if (r == 0 && !useb)
                acc = w;
            else
                KFN(update)(&acc, &dummy, w, dummy, prop, 0);
        }
        VF_STORE(bo + v * VW, w);
        VF_STORE(yo + v * VW, acc);
    }
}

/* One output row: every pixel, its channels in blocks of 8 vectors, then
 * single vectors (C is a multiple of VW). C of exactly 8 vectors (64
 * channels with AVX2) has a loop of its own, without the channel loop's
 * pointer updates. */
CF_AI void KFN(wrow_impl)(const float *const *rp, const int64_t *st2, const int64_t *cn2, int64_t OW, int64_t C,
                          int64_t dq, float *buf, float *yo, VF vinit, const int RC, const int useb, const int prop)
{
    /* the row bases as locals: the stores (may_alias vector types) would
     * otherwise make the compiler reload them from rp[] after every store */
    const float *r0 = rp[0], *r1 = RC > 1 ? rp[1] : r0, *r2 = RC > 2 ? rp[2] : r0;
    if (C == 8 * VW) {
        for (int64_t o2 = 0; o2 < OW; ++o2, buf += C, yo += C) {
            const int64_t n = cn2[o2], off = n > 0 ? st2[o2] * C : 0; /* an empty window's start may lie past W */
            if (n == 3)
                KFN(wpix)(r0, r1, r2, off, 3, dq, buf, yo, vinit, RC, useb, 8, 1, prop);
            else
                KFN(wpix)(r0, r1, r2, off, n, dq, buf, yo, vinit, RC, useb, 8, 0, prop);
        }
        return;
    }
    for (int64_t o2 = 0; o2 < OW; ++o2, buf += C, yo += C) {
        const int64_t n = cn2[o2], off = n > 0 ? st2[o2] * C : 0;
        int64_t c = 0;
        if (n == 3) {
            for (; c + 8 * VW <= C; c += 8 * VW)
                KFN(wpix)(r0, r1, r2, off + c, 3, dq, buf + c, yo + c, vinit, RC, useb, 8, 1, prop);
            for (; c < C; c += VW)
                KFN(wpix)(r0, r1, r2, off + c, 3, dq, buf + c, yo + c, vinit, RC, useb, 1, 1, prop);
        } else {
            for (; c < C; c += VW)
                KFN(wpix)(r0, r1, r2, off + c, n, dq, buf + c, yo + c, vinit, RC, useb, 1, 0, prop);
        }
    }
}

/* One non-inlined instance per (computed rows, buffer row first, NaN
 * policy): each keeps its registers to itself. */
#define KFN_WROW_DEF(rc_, useb_, prop_)                                                                            \
    static __attribute__((noinline)) void KFN(wrow_##rc_##useb_##prop_)(const float *const *rp, const int64_t *st2, \
                                                                         const int64_t *cn2, int64_t OW,           \
                                                                         int64_t C, int64_t dq, float *buf,        \
                                                                         float *yo, VF vinit)                      \
    {                                                                                                              \
        KFN(wrow_impl)(rp, st2, cn2, OW, C, dq, buf, yo, vinit, rc_, useb_, prop_);                                \
    }
#define KFN_WROW_DEF_P(rc_, useb_) KFN_WROW_DEF(rc_, useb_, 0) KFN_WROW_DEF(rc_, useb_, 1)
KFN_WROW_DEF_P(1, 0)
KFN_WROW_DEF_P(2, 0)
KFN_WROW_DEF_P(3, 0)
KFN_WROW_DEF_P(1, 1)
KFN_WROW_DEF_P(2, 1)
KFN_WROW_DEF_P(3, 1)
#undef KFN_WROW_DEF_P
#undef KFN_WROW_DEF

/* An output row through the W-first path: R input rows at xn + to[r], the
 * first taken from the buffer when useb; 1 <= R - useb <= 3. yo: the
 * output row; buf: the line buffer, which ends up holding row to[R-1]. */
static void KFN(wrow)(const float *xn, const int64_t *to, int64_t R, int useb, const int64_t *st2, const int64_t *cn2,
                      int64_t OW, int64_t C, int64_t dq, float *buf, float *yo, float init, int prop)
{
    typedef void (*wrow_fn)(const float *const *, const int64_t *, const int64_t *, int64_t, int64_t, int64_t,
                            float *, float *, VF);
    /* [useb][computed rows - 1][prop] */
    static const wrow_fn fns[2][3][2] = {
        {{KFN(wrow_100), KFN(wrow_101)}, {KFN(wrow_200), KFN(wrow_201)}, {KFN(wrow_300), KFN(wrow_301)}},
        {{KFN(wrow_110), KFN(wrow_111)}, {KFN(wrow_210), KFN(wrow_211)}, {KFN(wrow_310), KFN(wrow_311)}},
    };
    const float *rp[3];
    const int64_t RC = R - useb;
    for (int64_t r = 0; r < RC; ++r)
        rp[r] = xn + to[r + useb];
    fns[useb][RC - 1][prop ? 1 : 0](rp, st2, cn2, OW, C, dq, buf, yo, VF_SET1(init));
}
