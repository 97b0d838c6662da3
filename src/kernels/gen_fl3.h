/* SPDX-License-Identifier: Apache-2.0 */
/* The type-generic kernels (gen_impl.h): channels-first, rank 3, depth
 * stride 1, slices first (values only). Included once by gen_impl.h, after
 * gen_fl.h (whose W pass and NaN fixes it calls). */

/* ---- channels-first 3-D, depth stride 1: slices first (values only) ---- *
 * Fixed windows of depth stride 1 and dilation 1, no indices, on the W
 * grid the W-first form takes (geo_flat: W stride 1 or 2, at most
 * GEN_BM_K W taps), no empty window along D or H. The max over a box is
 * taken as the max over D of each input slice's 2-D max: for a band of
 * output rows [ya, yb) of one plane, each input slice d once (in order):
 *  1. the W pass of the band's input lines of slice d (fl_wpass, gen_fl.h)
 *     to wb, the lines of the H padding as the neutral value;
 *  2. the H pass: each band row's max over its window's kh W lines (from
 *     the first line, in line order) to the ring slot of d (kd slots, each
 *     a band of rows);
 *  3. every output slice od whose D window ends at d: its band rows in the
 *     task range, the max over the window's slots in slice order, from the
 *     start value, stored.
 * Each input slice's W and H passes are done once per band, not once per
 * output slice (kd times). Exactness: the combine b = "x replaces b when x
 * > b (or x is NaN under propagation)" over two spans A then B of one
 * ordered sequence gives the scan of A then B: the first maximum (an equal
 * later key never replaces: -0/+0 and tie bits are the earlier span's),
 * the last NaN under propagation. Row-major window order is (slice, line,
 * column): W within a line, then lines within a slice, then slices (never
 * slices first: a depth-first reduction would pick the wrong one of -0 and
 * +0 or of two NaN payloads). The neutral value (padding) never replaces;
 * without propagation the W pass drops NaN (gen_fl.h). The first-element
 * start, the f16 NaN results and the rows whose first line holds a NaN
 * (first-element start, NaN ignored) are done as in the W-first form
 * (every window has a tap: no empty window). Scratch: wb and the ring,
 * GEN_FL3_BYTES on the stack. */

#define GEN_FL3_BYTES 32768
#define GEN_FL3_KMAX 16 /* kd, kh */
#ifdef GEN_FL3_TRACE
#include <stdio.h>
#define GEN_FL3_STR_(a) #a
#define GEN_FL3_STR(a) GEN_FL3_STR_(a)
#endif

/* W lines of a band of B rows */
#define GEN_FL3_NB(B, s1, kh, dl1) (((B) - 1) * (s1) + ((kh) - 1) * (dl1) + 1)

/* Rows per band where the form takes the plan (values only), else 0. */
static int64_t KFN(fl3_geo)(const struct maxpool_plan *p, const KFN(geo) * g, int wi)
{
    if (wi || p->rank != 3 || p->desc.window != MAXPOOL_WINDOW_FIXED || !g->fl_wl)
        return 0;
    const maxpool_axis *a0 = &p->axis[0], *a1 = &p->axis[1];
    if (a0->stride != 1 || a0->dilation != 1 || a0->kernel < 2 || a0->kernel > GEN_FL3_KMAX || a0->has_empty ||
        a1->kernel > GEN_FL3_KMAX || a1->has_empty || a1->stride > 64 || a1->dilation > 64)
        return 0;
    const int64_t O1 = g->out[1], O2 = g->out[2], kd = a0->kernel, kh = a1->kernel, s1 = a1->stride,
                  dl1 = a1->dilation, cap = (int64_t)(GEN_FL3_BYTES / sizeof(GKT));
    int64_t B = O1;
    while (B > 0 && GEN_FL3_NB(B, s1, kh, dl1) * O2 + VN + kd * (B * O2 + VN) > cap)
        --B;
    if (B < 1)
        return 0;
    const int64_t nband = (O1 + B - 1) / B;
    return (O1 + nband - 1) / nband; /* bands of equal height */
}

/* H pass: dst[i] = the max over lines j < kh of src[i + j*ls], from line
 * 0, i < n (whole vectors: up to VN past n, read and written); blocks of
 * 4 vectors (the line loop's overhead shared). Without propagation (no NaN
 * in the W results) from the last line back: GEN_FL3_C keeps the earlier
 * line unless the later lines' best is greater (the first maximum; the
 * load a memory operand). */
GAI void KFN(fl3_hp)(GKT *dst, const GKT *src, int64_t n, int64_t ls, int64_t kh, const int prop)
{
#define GEN_FL3_C(b, v) b = prop ? V_MAXP(b, v) : V_MAX(v, b)
    const int64_t step = prop ? ls : -ls;
    const GKT *const s0 = prop ? src : src + (kh - 1) * ls;
    int64_t i = 0;
    for (; i + 4 * VN <= n; i += 4 * VN) {
        const GKT *s = s0 + i;
        VT b0 = VK_LOAD(s), b1 = VK_LOAD(s + VN), b2 = VK_LOAD(s + 2 * VN), b3 = VK_LOAD(s + 3 * VN);
        for (int64_t j = 1; j < kh; ++j) {
            s += step;
            GEN_FL3_C(b0, VK_LOAD(s));
            GEN_FL3_C(b1, VK_LOAD(s + VN));
            GEN_FL3_C(b2, VK_LOAD(s + 2 * VN));
            GEN_FL3_C(b3, VK_LOAD(s + 3 * VN));
        }
        VK_STORE(dst + i, b0);
        VK_STORE(dst + i + VN, b1);
        VK_STORE(dst + i + 2 * VN, b2);
        VK_STORE(dst + i + 3 * VN, b3);
    }
    for (; i < n; i += VN) {
        const GKT *s = s0 + i;
        VT b = VK_LOAD(s);
        for (int64_t j = 1; j < kh; ++j) {
            s += step;
            GEN_FL3_C(b, VK_LOAD(s));
        }
        VK_STORE(dst + i, b);
    }
}

/* D pass: y[i] = the max over slots j < c of sp[j][i], from init, i < n,
 * in blocks of 4 vectors; for f16, whether some result is a NaN. (The
 * first-element start: from the neutral value, which gives the first
 * slot's key: the slots hold no NaN without propagation.) Without
 * propagation from the last slot back, the start value last (as fl3_hp:
 * the first maximum of start value, then slots). nt (GEN_FL_NT
 * types, y a multiple of a vector's bytes from 64-byte alignment): the
 * blocks stream out (whole 64-byte lines each), the vectors before the
 * first 64-byte boundary and after the last block plain. */
GAI uint64_t KFN(fl3_dp)(GT *y, const GKT *const *sp, int64_t c, int64_t n, const VT init, const int prop,
                         const int nt)
{
    uint64_t fix = 0;
    int64_t i = 0;
    const GKT *sq[GEN_FL3_KMAX]; /* the slots in combine order */
    for (int64_t j = 0; j < c; ++j)
        sq[j] = sp[prop ? j : c - 1 - j];
#define GEN_FL3_I(h) (prop ? V_MAXP(init, h) : (h))          /* the first slot in combine order */
#define GEN_FL3_E(b) (prop ? (b) : V_MAX(init, b))           /* after the last */
    for (; nt && i + 5 * VN <= n && ((uintptr_t)(y + i) & 63) != 0; i += VN) { /* (then a block still fits) */
        VT b = GEN_FL3_I(VK_LOAD(sq[0] + i));
        for (int64_t j = 1; j < c; ++j)
            GEN_FL3_C(b, VK_LOAD(sq[j] + i));
        b = GEN_FL3_E(b);
        fix |= (uint64_t)V_NANFIX(b);
        V_STORE(y + i, b);
    }
    for (; i + 4 * VN <= n; i += 4 * VN) {
        const GKT *s = sq[0] + i;
        VT b0 = GEN_FL3_I(VK_LOAD(s)), b1 = GEN_FL3_I(VK_LOAD(s + VN)), b2 = GEN_FL3_I(VK_LOAD(s + 2 * VN)),
           b3 = GEN_FL3_I(VK_LOAD(s + 3 * VN));
        for (int64_t j = 1; j < c; ++j) {
            s = sq[j] + i;
            GEN_FL3_C(b0, VK_LOAD(s));
            GEN_FL3_C(b1, VK_LOAD(s + VN));
            GEN_FL3_C(b2, VK_LOAD(s + 2 * VN));
            GEN_FL3_C(b3, VK_LOAD(s + 3 * VN));
        }
        b0 = GEN_FL3_E(b0);
        b1 = GEN_FL3_E(b1);
        b2 = GEN_FL3_E(b2);
        b3 = GEN_FL3_E(b3);
        fix |= (uint64_t)V_NANFIX(b0) | (uint64_t)V_NANFIX(b1) | (uint64_t)V_NANFIX(b2) | (uint64_t)V_NANFIX(b3);
        if (GEN_FL_NT && nt && ((uintptr_t)(y + i) & 63) == 0) {
            GEN_FL_STREAM(y + i, b0);
            GEN_FL_STREAM(y + i + VN, b1);
            GEN_FL_STREAM(y + i + 2 * VN, b2);
            GEN_FL_STREAM(y + i + 3 * VN, b3);
        } else {
            V_STORE(y + i, b0);
            V_STORE(y + i + VN, b1);
            V_STORE(y + i + 2 * VN, b2);
            V_STORE(y + i + 3 * VN, b3);
        }
    }
    for (; i < n; i += VN) { /* the last vector again over the last VN elements, or fewer than VN in all */
        const int64_t at = i + VN <= n ? i : n >= VN ? n - VN : 0;
        VT b = GEN_FL3_I(VK_LOAD(sq[0] + at));
        for (int64_t j = 1; j < c; ++j)
            GEN_FL3_C(b, VK_LOAD(sq[j] + at));
        b = GEN_FL3_E(b);
        if (n >= VN) {
            fix |= (uint64_t)V_NANFIX(b);
            V_STORE(y + at, b);
        } else {
            fix |= (uint64_t)V_NANFIX(b) & (((uint64_t)1 << n) - 1);
            V_STOREN(y, b, n);
        }
    }
#undef GEN_FL3_I
#undef GEN_FL3_E
    return fix;
}
#undef GEN_FL3_C

/* fl3_hp / fl3_dp with the NaN rule as a constant, out of line */
__attribute__((noinline)) static void KFN(fl3_hp_o)(GKT *dst, const GKT *src, int64_t n, int64_t ls, int64_t kh,
                                                    int prop)
{
    if (GFLOAT && prop)
        KFN(fl3_hp)(dst, src, n, ls, kh, 1);
    else
        KFN(fl3_hp)(dst, src, n, ls, kh, 0);
}

__attribute__((noinline)) static uint64_t KFN(fl3_dp_o)(GT *y, const GKT *const *sp, int64_t c, int64_t n,
                                                        const VT *init, int prop, int nt)
{
    if (GEN_FL_NT && nt)
        return GFLOAT && prop ? KFN(fl3_dp)(y, sp, c, n, *init, 1, 1) : KFN(fl3_dp)(y, sp, c, n, *init, 0, 1);
    if (GFLOAT && prop)
        return KFN(fl3_dp)(y, sp, c, n, *init, 1, 0);
    return KFN(fl3_dp)(y, sp, c, n, *init, 0, 0);
}

/* Tasks (output rows) [t0, t1) in bands of at most B rows of a plane. */
__attribute__((noinline)) static void KFN(fl3_run)(const struct maxpool_plan *p, const KFN(geo) * g, const GT *x,
                                                    GT *y, int64_t t0, int64_t t1, int64_t B, int prop)
{
    alignas(64) GKT buf[GEN_FL3_BYTES / sizeof(GKT)];
    const maxpool_axis *a1 = &p->axis[1];
    const int64_t D = g->in[0], H = g->in[1], W = g->in[2], O0 = g->out[0], O1 = g->out[1], O2 = g->out[2];
    const int64_t kd = p->axis[0].kernel, kh = a1->kernel, s1 = a1->stride, dl1 = a1->dilation, ph = a1->pad_begin;
    const int64_t *const st0 = g->st[0], *const cn0 = g->cn[0], rows = O0 * O1;
    const int64_t nbmax = GEN_FL3_NB(B, s1, kh, dl1), slot = B * O2 + VN;
    GKT *const wb = buf, *const ring = buf + nbmax * O2 + VN;
    const VT nv = V_SET1(g->neutral), init = V_SET1(g->fe ? g->neutral : g->init);
    const GKT *sp[GEN_FL3_KMAX];
    /* streaming stores: an output of at least GEN_FL_NT_MIN_BYTES whose vectors can reach 64-byte lines */
    const int nt = GEN_FL_NT && ((uintptr_t)y % (VN * sizeof(GT))) == 0 && (64 % (VN * sizeof(GT))) == 0 &&
                   p->n * p->c * p->out_spatial >= GEN_FL_NT_MIN_BYTES / (int64_t)sizeof(GT);
    (void)W;
#ifdef GEN_FL3_TRACE /* tests: show that the form runs */
    fprintf(stderr, "gen_fl3 " GEN_FL3_STR(KPREFIX) " rows %lld band %lld\n", (long long)(t1 - t0), (long long)B);
#endif
    for (int64_t nc = t0 / rows; nc * rows < t1; ++nc) {
        const int64_t ra = t0 > nc * rows ? t0 - nc * rows : 0, rb = t1 < (nc + 1) * rows ? t1 - nc * rows : rows;
        for (int64_t ya = 0; ya < O1; ya += B) {
            const int64_t yb = ya + B < O1 ? ya + B : O1;
            /* the output slices with band rows in [ra, rb) */
            int64_t odA = ra / O1, odB = (rb - 1) / O1;
            if (ra - odA * O1 >= yb)
                ++odA;
            if (rb - odB * O1 <= ya)
                --odB;
            if (odA > odB)
                continue;
            /* the band's W lines: virtual lines va + j (j < nb) of a slice, real ones [la, lb) */
            const int64_t va = ya * s1 - ph, nb = GEN_FL3_NB(yb - ya, s1, kh, dl1);
            const int64_t la = va > 0 ? va : 0, lb = va + nb < H ? va + nb : H;
            const int64_t dA = st0[odA], dB = st0[odB] + cn0[odB];
            int64_t od = odA;
            for (int64_t d = dA; d < dB; ++d) {
                /* 1. W pass */
                for (int64_t i = 0; i < (la - va) * O2; i += VN)
                    VK_STORE(wb + i, nv);
                if (lb > la)
                    KFN(fl_wpass_o)(g, x, (nc * D + d) * H + la, (nc * D + d) * H + lb, wb + (la - va) * O2,
                                    (int)g->S, prop);
                for (int64_t i = (lb > la ? lb : la) - va; i < nb; ++i) /* after the W pass (its last store may spill) */
                    for (int64_t o = 0; o < O2; o += VN)
                        VK_STORE(wb + i * O2 + o, nv);
                /* 2. H pass to the slot of d */
                GKT *const sd = ring + (d % kd) * slot;
                if (s1 == 1)
                    KFN(fl3_hp_o)(sd, wb, (yb - ya) * O2, dl1 * O2, kh, prop);
                else
                    for (int64_t r = 0; r < yb - ya; ++r)
                        KFN(fl3_hp_o)(sd + r * O2, wb + r * s1 * O2, O2, dl1 * O2, kh, prop);
                /* 3. the output slices whose window ends at d */
                for (; od <= odB && st0[od] + cn0[od] == d + 1; ++od) {
                    const int64_t h0 = ra - od * O1 > ya ? ra - od * O1 : ya, h1 = rb - od * O1 < yb ? rb - od * O1 : yb;
                    if (h0 >= h1)
                        continue;
                    const int64_t c = cn0[od];
                    for (int64_t j = 0; j < c; ++j)
                        sp[j] = ring + ((st0[od] + j) % kd) * slot + (h0 - ya) * O2;
                    const int64_t t = nc * rows + od * O1 + h0;
                    const uint64_t fix = KFN(fl3_dp_o)(y + t * O2, sp, c, (h1 - h0) * O2, &init, prop, nt);
#if GEN_TYPE == GEN_F16
                    if (fix)
                        for (int64_t q = 0; q < h1 - h0; ++q)
                            KFN(fl_nanfix)(p, g, x, y, t + q, prop);
#else
                    (void)fix;
#endif
#if GFLOAT
                    if (g->fl_fenan)
                        for (int64_t q = 0; q < h1 - h0; ++q)
                            if (KFN(fl_linenan)(g, x + (nc * D + st0[od]) * H * W + g->st[1][h0 + q] * W))
                                KFN(fl_fefix)(p, g, x, y, t + q);
#endif
                }
            }
        }
    }
    if (GEN_FL_NT && nt) /* the streamed lines visible before the call returns (other threads, the caller) */
        _mm_sfence();
}
