/* SPDX-License-Identifier: Apache-2.0 */
/* The type-generic kernels (gen_impl.h): channels-first, stride 1, the
 * planes across the lanes (8- and 16-bit integers, values only). Included
 * once by gen_impl.h, after gen_fls.h (its fallback: fls_geo must take the
 * plan, and the rows of planes the task holds in part go there). */

/* ---- channels-first, stride 1, planes across the lanes ----------------- *
 * The f32 cblock kernels' form (f32_nchw_s1_cblock_impl.h) on the vector
 * layer: a group of up to VN planes is transposed so that one vector holds
 * one position of the group's planes (lane l: plane l), then van Herk /
 * Gil-Werman running maxima along W and along H (3 maxima per element and
 * axis, whatever the kernel size), then transposed back. In strips of
 * output rows [oy0, oy1) reading input rows [a, b):
 *  1. positions [a W, b W) of the planes, transposed, to T (one vector a
 *     position, flat: no padding);
 *  2. each row of T through the W pass to R (Wo + K - 1 vectors a row);
 *  3. R through the H pass (Wo lines side by side) to O (in T's place);
 *  4. O transposed back to the output planes, max(start value, .).
 * A pass (cb_pass) over an axis of n elements with pad_begin pb: the padded
 * axis is cut into blocks of k from 0; output o's window [o, o + k) is its
 * block's suffix (hc, built right to left) and the next block's prefix up
 * to o + k - 1 (gc, left to right). The padding is never read: a padded
 * position contributes nothing (the maximum over the window's real part,
 * the neutral value if none). Integers only: the maximum is the scan's
 * result whatever the order of its combines, and every start (the
 * first-element start too: the window's first element then meets itself
 * again) gives max(start, window).
 * The transpose (cb_tr): log2(VN) stages, each pairing vectors k and
 * k + VN/2 into 2k, 2k + 1: first the in-lane interleaves (VC_UNLO/HI,
 * log2 of a 128-bit lane's elements), then the 128-bit blocks' (VC_BLO/HI,
 * VC_SB stages). Output vector j then holds column rho(j) of the input
 * with lane l from input vector rho^-1(l), rho(j) = j rotated right by
 * VC_SB bits: loading input vector r from row rho(r) and storing output
 * vector j as row rho(j) makes it the plain transpose (either way).
 * Scratch: GEN_CB_BYTES on cb_group's stack (T, R) and its transposes'
 * 2 VN vectors (8 KiB for u8 at avx512): gcc -fstack-usage, u8 avx512,
 * cb_group 54.6 KiB + cb_run 1.6 + the entry 3.7 (include/maxpool.h
 * promises 80); fls_run, called beside it from cb_run, is not stacked on
 * it.
 * Tasks: the planes wholly inside [t0, t1), VN at a time (a group of fewer
 * than VN/2: gen_fls.h), the rest of the rows to fls_run. */

#define GEN_CB_BYTES 49152
#define GEN_CB_LG (__builtin_ctz(VN))                                 /* log2(VN) */
#define GEN_CB_RHO(j) (((j) >> VC_SB) | (((j) & ((1 << VC_SB) - 1)) << (GEN_CB_LG - VC_SB)))
#define GEN_CB_CAP ((int64_t)(GEN_CB_BYTES / sizeof(VT)))
#define GEN_CB_UNROLL _Pragma("GCC unroll 64")

/* Output rows a strip where the form takes the plan (values only; fls_geo
 * took it, with kh, ph), else 0. Each strip must hold at least VN input and
 * output positions (the transposes' last chunks overlap, inside the strip),
 * every W window a real element. */
static int64_t KFN(cb_geo)(const struct maxpool_plan *p, const KFN(geo) * g, int64_t kh, int64_t ph)
{
    const int64_t H = g->in[1], W = g->in[2], O1 = g->out[1], Wo = g->out[2], K = g->K, pw = -g->v0;
    /* measured (docs/performance.md, "gen_cb"): 1x512x20x20 k5/k13 0.5-0.9 of gen_fls.h's time; rows of
     * 40 (1x256x40x40 k5) 1.1-1.4x its time (its vectors full there, our strips redo kh - 1 rows) */
    if (p->n * p->c < VN / 2 || H * W < VN || W > 32)
        return 0;
    for (int64_t o = 0; o < Wo; ++o) /* W windows [o - pw, o - pw + K) meet the row */
        if (o - pw >= W || o - pw + K <= 0)
            return 0;
    /* a strip: T (rg W + VN), R (ph + nr rows of Wo), nr <= min(S + kh - 1, H) */
    const int64_t rg = ((VN + W - 1) / W + 3) / 4 * 4;
    int64_t S = O1;
    while (S > 0 && rg * W + VN + (ph + (S + kh - 1 < H ? S + kh - 1 : H)) * Wo > GEN_CB_CAP)
        --S;
    if (S < 1)
        return 0;
    const int64_t ns = (O1 + S - 1) / S;
    S = (O1 + ns - 1) / ns;
    for (int64_t oy0 = 0; oy0 < O1; oy0 += S) {
        const int64_t oy1 = oy0 + S < O1 ? oy0 + S : O1;
        if ((oy1 - oy0) * Wo < VN)
            return 0;
    }
    return S;
}

/* Transposes v[0..VN) (v[r] input row r); returns the result (t or v). */
GAI VT *KFN(cb_tr)(VT *v, VT *t)
{
    VT *s = v, *d = t;
    _Pragma("GCC unroll 8") for (int st = 0; st < GEN_CB_LG; ++st) {
        if (st < GEN_CB_LG - VC_SB) {
            GEN_CB_UNROLL
            for (int k = 0; k < VN / 2; ++k) {
                d[2 * k] = VC_UNLO(s[k], s[k + VN / 2]);
                d[2 * k + 1] = VC_UNHI(s[k], s[k + VN / 2]);
            }
        } else {
            GEN_CB_UNROLL
            for (int k = 0; k < VN / 2; ++k) {
                d[2 * k] = VC_BLO(s[k], s[k + VN / 2]);
                d[2 * k + 1] = VC_BHI(s[k], s[k + VN / 2]);
            }
        }
        VT *const e = s;
        s = d;
        d = e;
    }
    return s;
}

/* One block [b0, e = b0 + k) of the padded axis for the M lines at x, out
 * (line stride xl, ol): outputs [b0, oe = min(e, nout)); real part of the
 * suffixes [rlo, rhi), of the next block's prefixes [g0, gr), the
 * prefixes' end ge. Each x element is read before out at the same place is
 * written (in place: x == out, xs == os, outputs before pb at negative
 * offsets). */
GAI void KFN(cb_blk)(const VT *xi, int64_t xs, int64_t xl, VT *oi, int64_t os, int64_t ol, int64_t b0, int64_t oe,
                     int64_t rlo, int64_t rhi, int64_t g0, int64_t gr, int64_t ge, int64_t k, const VT nv,
                     const int M)
{
    VT h[4], gv[4];
    GEN_UNROLL for (int m = 0; m < M; ++m)
        h[m] = gv[m] = nv;
    int64_t u = oe - 1;
    for (; u >= rhi; --u)
        GEN_UNROLL for (int m = 0; m < M; ++m)
            oi[u * os + m * ol] = h[m];
    const int64_t u1 = oe > rlo ? oe : rlo;
    for (u = rhi - 1; u >= u1; --u) /* (past the outputs: the suffix only) */
        GEN_UNROLL for (int m = 0; m < M; ++m)
            h[m] = V_MAX(h[m], xi[u * xs + m * xl]);
    for (; u >= rlo; --u)
        GEN_UNROLL for (int m = 0; m < M; ++m) {
            h[m] = V_MAX(h[m], xi[u * xs + m * xl]);
            oi[u * os + m * ol] = h[m];
        }
    for (; u >= b0; --u)
        GEN_UNROLL for (int m = 0; m < M; ++m)
            oi[u * os + m * ol] = h[m];
    /* the prefixes of the next block [e, u] with the suffixes of output u - k + 1 */
    for (u = g0; u < gr; ++u)
        GEN_UNROLL for (int m = 0; m < M; ++m) {
            gv[m] = V_MAX(gv[m], xi[u * xs + m * xl]);
            VT *const o = oi + (u - k + 1) * os + m * ol;
            *o = V_MAX(*o, gv[m]);
        }
    for (; u < ge; ++u)
        GEN_UNROLL for (int m = 0; m < M; ++m) {
            VT *const o = oi + (u - k + 1) * os + m * ol;
            *o = V_MAX(*o, gv[m]);
        }
}

/* One axis, nl lines (line i at x + i * xl, out + i * ol): out[o * os] = the
 * maximum of x[(u - pb) * xs] over the window's real part, u in [o, o + k)
 * and [pb, pb + n) (neutral if none), o < nout. Blocks outside, lines
 * inside, 4 at a time. In place (x == out): output o at x[(o - pb) * xs]. */
GAI void KFN(cb_pass)(const VT *x, int64_t xs, int64_t xl, VT *out, int64_t os, int64_t ol, int64_t nl, int64_t n,
                      int64_t pb, int64_t k, int64_t nout, const VT nv)
{
    x -= pb * xs;
    if ((const VT *)out == x + pb * xs)
        out -= pb * os;
    for (int64_t b0 = 0; b0 < nout; b0 += k) {
        const int64_t e = b0 + k, oe = e < nout ? e : nout, ge = oe - 1 + k;
        int64_t rhi = e < pb + n ? e : pb + n, rlo = b0 > pb ? b0 : pb;
        rhi = rhi < b0 ? b0 : rhi;
        rlo = rlo > rhi ? rhi : rlo;
        const int64_t g0 = e > pb ? e : pb, gr = ge < pb + n ? ge : pb + n;
        int64_t i = 0;
        for (; i + 4 <= nl; i += 4)
            KFN(cb_blk)(x + i * xl, xs, xl, out + i * ol, os, ol, b0, oe, rlo, rhi, g0, gr, ge, k, nv, 4);
        for (; i < nl; ++i)
            KFN(cb_blk)(x + i * xl, xs, xl, out + i * ol, os, ol, b0, oe, rlo, rhi, g0, gr, ge, k, nv, 1);
    }
}

/* The planes xp[0..np) (np <= VN) to their outputs yp[0..np): output rows
 * in strips of S. */
__attribute__((noinline)) static void KFN(cb_group)(const KFN(geo) * g, const GT *const *xp, GT *const *yp, int np,
                                                     int64_t S, int64_t kh, int64_t ph)
{
    alignas(64) VT buf[GEN_CB_CAP]; /* (here, not in cb_run: fls_run's scratch is not stacked on it) */
    const int64_t H = g->in[1], W = g->in[2], O1 = g->out[1], Wo = g->out[2], K = g->K, pw = -g->v0;
    const VT nv = V_SET1(g->neutral), init = V_SET1(g->fe ? g->neutral : g->init);
    const int wi = !g->fe && g->init != g->neutral;
    VT v[VN], t[VN];
    const int64_t rg = ((VN + W - 1) / W + 3) / 4 * 4; /* input rows a chunk of T */
    VT *const T = buf, *const R0 = buf + rg * W + VN + ph * Wo;
    for (int64_t oy0 = 0; oy0 < O1; oy0 += S) {
        const int64_t oy1 = oy0 + S < O1 ? oy0 + S : O1, a = oy0 - ph > 0 ? oy0 - ph : 0,
                      b = oy1 - 1 - ph + kh < H ? oy1 - 1 - ph + kh : H, nr = b - a, pbh = a + ph - oy0;
        /* 1, 2. rg rows at a time transposed to T, through the W pass to R (row r - a at R0 + (r - a) Wo) */
        for (int64_t r = a; r < b; r += rg) {
            /* positions [tb, te) hold rows [r, re): at least VN of them, inside the plane (H W >= VN) */
            const int64_t re = r + rg < b ? r + rg : b, tb0 = re * W - VN < r * W ? re * W - VN : r * W,
                          tb = tb0 > 0 ? tb0 : 0, te = re * W > tb + VN ? re * W : tb + VN;
            for (int64_t q = tb; q < te; q += VN) {
                const int64_t qq = q + VN <= te ? q : te - VN;
                GEN_CB_UNROLL
                for (int i = 0; i < VN; ++i)
                    v[i] = V_LOAD(xp[GEN_CB_RHO(i)] + qq);
                const VT *const d = KFN(cb_tr)(v, t);
                VT *const tq = T + (qq - tb);
                GEN_CB_UNROLL
                for (int j = 0; j < VN; ++j)
                    tq[GEN_CB_RHO(j)] = d[j];
            }
            KFN(cb_pass)(T + (r * W - tb), 1, W, R0 + (r - a) * Wo, 1, Wo, re - r, W, pw, K, Wo, nv);
        }
        /* 3. H pass in place: output row oy at R0 + (oy - oy0 - pbh) Wo */
        KFN(cb_pass)(R0, Wo, 1, R0, Wo, 1, Wo, nr, pbh, kh, oy1 - oy0, nv);
        /* 4. transposed back */
        const int64_t p0 = oy0 * Wo, p1 = oy1 * Wo;
        const VT *const O = R0 - pbh * Wo;
        for (int64_t q = p0; q < p1; q += VN) {
            const int64_t qq = q + VN <= p1 ? q : p1 - VN;
            const VT *const oq = O + (qq - p0);
            GEN_CB_UNROLL
            for (int i = 0; i < VN; ++i)
                v[i] = oq[GEN_CB_RHO(i)];
            const VT *const d = KFN(cb_tr)(v, t);
            GEN_CB_UNROLL
            for (int j = 0; j < VN; ++j) {
                const int pl = GEN_CB_RHO(j);
                if (pl < np)
                    V_STORE(yp[pl] + qq, wi ? V_MAX(init, d[j]) : d[j]);
            }
        }
    }
}

/* Tasks (output rows) [t0, t1): the whole planes in groups (cb_group), the
 * rest by fls_run (nlmax: fls_geo's lines a strip). */
__attribute__((noinline)) static void KFN(cb_run)(const struct maxpool_plan *p, const KFN(geo) * g, const GT *x,
                                                   GT *y, int64_t t0, int64_t t1, int64_t S, int64_t nlmax,
                                                   int64_t kh, int64_t ph)
{
    const int64_t O1 = g->out[1], pi = p->in_spatial, po = O1 * g->out[2];
    int64_t c0 = (t0 + O1 - 1) / O1, c1 = t1 / O1;
    if (c1 <= c0) {
        KFN(fls_run)(p, g, x, y, t0, t1, nlmax, kh, ph, 0);
        return;
    }
    if (t0 < c0 * O1)
        KFN(fls_run)(p, g, x, y, t0, c0 * O1, nlmax, kh, ph, 0);
    const GT *xp[VN];
    GT *yp[VN];
    for (int np; c0 + VN / 2 <= c1; c0 += np) {
        np = (int)(c1 - c0 < VN ? c1 - c0 : VN);
        for (int i = 0; i < VN; ++i) { /* (planes past np: the first one's input, never stored) */
            xp[i] = x + (c0 + (i < np ? i : 0)) * pi;
            yp[i] = y + (c0 + (i < np ? i : 0)) * po;
        }
        KFN(cb_group)(g, xp, yp, np, S, kh, ph);
    }
    if (c0 * O1 < t1)
        KFN(fls_run)(p, g, x, y, c0 * O1, t1, nlmax, kh, ph, 0);
}
