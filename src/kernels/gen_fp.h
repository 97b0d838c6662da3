/* SPDX-License-Identifier: Apache-2.0 */
/* The type-generic kernels (gen_impl.h): channels-first, flat planes
 * (values only). Included once by gen_impl.h; f32 only (the other types
 * keep the W-first form: build time).
 *
 * Small planes (late CNN layers: up to 32 wide, 1024 elements) with W
 * stride 1 waste part of a vector per line in the W-first form (gen_fl.h:
 * a 14-wide line is 14 of 16 lanes, or 8 + 6 of 8) and pay its bookkeeping
 * per line and per row. Here a whole plane of H x W elements is one flat
 * array, in vectors of VN elements that run across line ends:
 *  - the W pass: flat position j = r*W + c gets column c's window max, taps
 *    x[j + v0 + k*d] in order, from the neutral value; a tap of an output
 *    column (c < OW) outside its line (padding, or a neighbouring line's
 *    element) and every tap of a lane past the plane become the neutral
 *    value through lane masks made once per call, per vector and tap (only
 *    the vectors with such lanes pay the selects; columns no output uses
 *    keep whatever they read). The results go to a buffer of lines: p0
 *    neutral lines (the top padding), the plane's lines, neutral lines (the
 *    bottom padding, and what the last vectors read past it), filled once
 *    per call.
 *  - the line pass, flat too: the window of output row o0 starts at buffer
 *    line o0*S0, so the value at buffer position j is the max over the W
 *    results at j + k0*d0*W, k0 < K0, in order: the first maximum and the
 *    last NaN in row-major order (the W pass keeps the first of equal keys
 *    and a line's last NaN, the line pass the first line of equal keys and
 *    the last line holding a NaN), then the start value (fixed start), as
 *    gen_fl.h's line pass.
 *  - output (o0, o) is the value at o0*S0*W + o: with S0 = 1 and OW = W
 *    the line pass's vectors are the output (stored as they are); else each
 *    vector starts at an output's position and takes the following outputs
 *    whose positions lie within VN, compacted by a lane permutation made
 *    once per call and stored at its first output (the next store writes
 *    over the lanes past them; a plane whose stores would pass the task
 *    range goes through a local buffer).
 * First-element start: as in gen_fl.h, the same results but for a NaN first
 * tap without propagation, which stays: a plane holding a NaN gives each
 * window whose first tap is one that tap. Reads: the plane and, in masked
 * lanes and lanes no output uses, elements just before and after it, where
 * they lie inside the tensor (else the plane is copied to a local buffer
 * first). Rows of a plane cut by the task range take the W-first form.
 * Measured (callgrind, avx2, instructions per output): GoogLeNet 14x14 k3
 * s1 p1 8.9 -> 5.4, 28x28 6.0 -> 4.8; with the line pass's one index, the
 * masks by tap and made per period, and the NaN check in the W pass's
 * loads (2026-11-27): 14x14 3.19, 28x28 2.64. W stride 2 was tried (full
 * resolution, then compacted; or gen_fl.h's W pass per plane) and is
 * slower than the W-first form there (AlexNet 13x13 k3 s2 18.3 -> 21-27):
 * half the flat lanes are odd columns, and per plane the W-first form's
 * set-up costs as much as it saves. */

#if GEN_TYPE == GEN_F32
#define GEN_FP 1
#else
#define GEN_FP 0
#endif

#if GEN_FP
#define GEN_FP_HW 1024 /* elements of a plane */
#define GEN_FP_W 32    /* its width */
#define GEN_FP_K 3     /* W taps */
#define GEN_FP_K0 8    /* H taps */
#define GEN_FP_WB 2048 /* the W results' buffer, elements */
#define GEN_FP_NV (GEN_FP_HW / VN + 1)
#define GEN_FP_NE (GEN_FP_WB / VN + 1)
#if VN == 16
#define GEN_FP_PERM(v, ix) _mm512_permutexvar_ps(_mm512_loadu_si512((const void *)(ix)), (v))
#else
#define GEN_FP_PERM(v, ix) _mm256_permutevar8x32_ps((v), _mm256_loadu_si256((const __m256i *)(const void *)(ix)))
#endif

/* AVX2 without propagation: a tap's masked lanes become -inf by one min
 * with a table of +inf (lanes that count) and -inf (masked), vminps(M, t),
 * which keeps t's bits where M is +inf (NaN included: the min returns its
 * second operand) and gives -inf (the neutral value) where M is -inf but
 * for a NaN tap, which then stays NaN: harmless without propagation (the
 * W pass's max drops NaN taps; the first-element start's NaN check reads
 * the loads before). A blend with the lane mask cost three instructions
 * here (gcc makes the mask's sign a compare first, then the blend). */
#if VN == 8
#define GEN_FP_MIN 1
#define GEN_FP_MINT(mx, t) _mm256_min_ps((mx), (t))
#else
#define GEN_FP_MIN 0
#define GEN_FP_MINT(mx, t) (t)
#endif

/* The tables of a call (fp_run). */
typedef struct KFN(fpt) {
    int64_t H, W, OH, OW, HW, nvw, v0, K, d, K0, d0, S0, p0;
    int64_t wbl, ne, spill, xlo, xhi;
    int ident, mu; /* mu: bit k, tap k has masked lanes in some vector */
    int32_t eh[GEN_FP_NE], eo[GEN_FP_NE]; /* the line pass's vectors: buffer position, first output */
    alignas(64) int32_t ei[GEN_FP_NE][VN]; /* their lane permutations */
    unsigned char mb[GEN_FP_NV];           /* the W pass's vectors: bit k, tap k has masked lanes */
    VM m[GEN_FP_K][GEN_FP_NV];             /* the lanes whose tap k counts (by tap: one index for all) */
#if GEN_FP_MIN
    VT mx[GEN_FP_K][GEN_FP_NV]; /* the same as +inf (counts) / -inf (masked), for fp_wp's min */
#endif
    int knan;                              /* the tap read at offset 0 (fp_wp's NaN check), else -1 */
} KFN(fpt);

/* The W-result buffer's length for plan p (0: too large). */
static int64_t KFN(fp_wbl)(const struct maxpool_plan *p, const KFN(geo) * g)
{
    const maxpool_axis *a0 = &p->axis[0];
    const int64_t H = g->in[1], W = g->in[2], OH = g->out[1], OW = g->out[2];
    const int64_t nvw = (H * W + VN - 1) / VN;
    const int64_t lines = a0->pad_begin + H, last = (OH - 1) * a0->stride + (a0->kernel - 1) * a0->dilation + 1;
    int64_t n = (lines > last ? lines : last) * W;
    const int64_t hn = ((OH - 1) * a0->stride) * W + OW; /* the line pass's positions */
    const int64_t ra = hn + VN + (a0->kernel - 1) * a0->dilation * W, wa = a0->pad_begin * W + nvw * VN;
    n = n > ra ? n : ra;
    n = n > wa ? n : wa;
    return n + VN <= GEN_FP_WB ? n + VN : 0;
}

/* Whether the flat-plane form takes plan p (values only). */
static int KFN(fp_geo)(const struct maxpool_plan *p, const KFN(geo) * g, int wi)
{
    if (!GEN_FP || wi || p->rank != 2 || p->desc.window != MAXPOOL_WINDOW_FIXED || !g->grid)
        return 0;
    const maxpool_axis *a0 = &p->axis[0];
    const int64_t H = g->in[1], W = g->in[2], OH = g->out[1], OW = g->out[2];
    if (W > GEN_FP_W || H * W > GEN_FP_HW || g->K > GEN_FP_K || -g->v0 > VN || a0->kernel > GEN_FP_K0 ||
        a0->pad_begin >= a0->kernel || OH < 1 || OW < 1 || OW > W || (g->K - 1) * g->d > VN ||
        OH * OW > GEN_FP_HW || g->S != 1)
        return 0;
    return KFN(geo_taps)(g, 1) && KFN(geo_taps)(g, 2) && KFN(fp_wbl)(p, g) > 0;
}

/* The tables of plan p. */
static void KFN(fp_init)(const struct maxpool_plan *p, const KFN(geo) * g, KFN(fpt) * T)
{
    const maxpool_axis *a0 = &p->axis[0];
    T->H = g->in[1];
    T->W = g->in[2];
    T->OH = g->out[1];
    T->OW = g->out[2];
    T->HW = T->H * T->W;
    T->nvw = (T->HW + VN - 1) / VN;
    T->v0 = g->v0;
    T->K = g->K;
    T->d = g->d;
    T->K0 = a0->kernel;
    T->d0 = a0->dilation;
    T->S0 = a0->stride;
    T->p0 = a0->pad_begin;
    T->wbl = KFN(fp_wbl)(p, g);
    T->xlo = T->v0 < 0 ? T->v0 : 0;
    T->xhi = (T->nvw - 1) * VN + T->v0 + (T->K - 1) * T->d + VN; /* (wbl: the neutral store at HW fits too) */
    if (T->xhi < T->HW)
        T->xhi = T->HW;
    const int64_t W = T->W;
    /* the masks repeat every P vectors (P * VN = lcm(W, VN)) but for the
     * lanes past the plane, all in the last vector: the first P made lane
     * by lane, the others copied, the last made again (this runs per call) */
    int64_t gw = W;
    for (int64_t r = VN; r;) { /* gw = gcd(W, VN) */
        const int64_t t = gw % r;
        gw = r;
        r = t;
    }
    const int64_t P = W / gw;
    T->mu = 0;
    for (int64_t v = 0; v < T->nvw; ++v) {
        if (v >= P && v < T->nvw - 1) {
            T->mb[v] = T->mb[v - P];
            for (int64_t k = 0; k < T->K; ++k) {
                T->m[k][v] = T->m[k][v - P];
#if GEN_FP_MIN
                T->mx[k][v] = T->mx[k][v - P];
#endif
            }
            continue;
        }
        T->mb[v] = 0;
        for (int64_t k = 0; k < T->K; ++k) {
            alignas(64) VLANE lv[VN];
#if GEN_FP_MIN
            alignas(64) GT fx[VN];
#endif
            for (int64_t l = 0; l < VN; ++l) {
                /* lanes of columns no output uses and lanes past the plane (made neutral after
                 * the pass: fp_run): anything */
                const int64_t j = v * VN + l, c = j % W, pos = c + T->v0 + k * T->d;
                const int used = j < T->HW && c < T->OW;
                const int in = !used || (pos >= 0 && pos < W);
                lv[l] = in ? GEN_NONE : 0;
#if GEN_FP_MIN
                fx[l] = in ? __builtin_inff() : -__builtin_inff();
#endif
                if (!in)
                    T->mb[v] |= (unsigned char)(1u << k);
            }
            T->m[k][v] = VM_LANES(lv);
#if GEN_FP_MIN
            T->mx[k][v] = V_LOAD(fx);
#endif
        }
    }
    for (int64_t v = 0; v < T->nvw; ++v)
        T->mu |= T->mb[v];
    T->knan = -1;
    for (int64_t k = 0; k < T->K; ++k)
        if (T->v0 + k * T->d == 0)
            T->knan = (int)k;
    const int64_t no = T->OH * T->OW;
    T->ident = T->S0 == 1 && T->OW == W;
    T->ne = 0;
    if (T->ident) {
        for (int64_t i = 0; i < no; i += VN) {
            T->eh[T->ne] = T->eo[T->ne] = (int32_t)i;
            for (int l = 0; l < VN; ++l)
                T->ei[T->ne][l] = l;
            ++T->ne;
        }
    } else {
        int64_t j0 = -1;
        int n = 0;
        for (int64_t o0 = 0; o0 < T->OH; ++o0)
            for (int64_t o = 0; o < T->OW; ++o) { /* each vector from a position up to VN - 1 past it */
                const int64_t j = o0 * T->S0 * W + o;
                if (j0 < 0 || j - j0 >= VN) {
                    j0 = j;
                    n = 0;
                    T->eh[T->ne] = (int32_t)j;
                    T->eo[T->ne] = (int32_t)(o0 * T->OW + o);
                    for (int l = 0; l < VN; ++l)
                        T->ei[T->ne][l] = 0;
                    ++T->ne;
                }
                T->ei[T->ne - 1][n++] = (int32_t)(j - j0);
            }
    }
    T->spill = T->eo[T->ne - 1] + VN; /* the stores' reach past a plane's first output */
}

/* Whether some lane of m is set. */
#if VN == 16
#define GEN_FP_ANY(m) ((m) != 0)
#else
#define GEN_FP_ANY(m) (_mm256_movemask_ps(m) != 0)
#endif

/* The W pass of the plane at xp to dst (buffer line p0), K taps; the taps
 * of the bits mm selected in every vector (the masks of the others lanes
 * all set: no branch per vector), mm < 0: T->mu; K and mm constants where
 * the caller makes them ones. kn >= 0 (a constant): tap kn reads at offset
 * 0, and the pass returns whether those loads (the plane's elements, and
 * lanes past it) held a NaN (fp_fefix's check, in the same loads). */
GAI int KFN(fp_wp)(const KFN(fpt) * T, const GT *xp, GKT *dst, const VT nv, const int64_t K, const int prop,
                   const int mm, const int kn)
{
    const int z = GFLOAT && !prop; /* without propagation a NaN must not enter (gen_fl.h) */
    const int64_t d = T->d, n = T->nvw * VN;
    const int mu = mm < 0 ? T->mu : mm;
    const GT *const q = xp + T->v0;
    VM nm = V_NANM(nv); /* (no lane) */
    _Pragma("GCC unroll 2") for (int64_t j = 0, v = 0; j < n; j += VN, ++v) {
        VT a = V_LOAD(q + j);
        if (kn == 0)
            nm = VM_OR(nm, V_NANM(a));
        if ((mu & 1) && GEN_FP_MIN && !prop)
            a = GEN_FP_MINT(T->mx[0][v], a);
        else if (mu & 1)
            a = V_SEL(nv, a, T->m[0][v]);
        if (z)
            a = V_MAX(nv, a);
        for (int64_t k = 1; k < K; ++k) {
            VT t = V_LOAD(q + j + k * d);
            if (kn == k)
                nm = VM_OR(nm, V_NANM(t));
            if (((mu >> k) & 1) && GEN_FP_MIN && !prop)
                t = GEN_FP_MINT(T->mx[k][v], t);
            else if ((mu >> k) & 1)
                t = V_SEL(nv, t, T->m[k][v]);
            a = prop ? V_MAXP(a, t) : V_MAX(a, t);
        }
        VK_STORE(dst + j, a);
    }
    return kn >= 0 && GEN_FP_ANY(nm);
}

/* The line pass and output of a plane: W results wb (buffer line 0),
 * output yp; init the start value (the neutral value under the first-element
 * start: the same results, one loop). ident: the line pass's vectors are the
 * output vectors (S0 = 1, OW = W), one index for both. */
GAI void KFN(fp_hp)(const KFN(fpt) * T, const GKT *wb, GT *yp, const VT init, const int64_t K0, const int prop,
                    const int ident)
{
    const int64_t ls = T->d0 * T->W;
    if (ident) {
        const int64_t n = T->ne * VN;
        _Pragma("GCC unroll 2") for (int64_t j = 0; j < n; j += VN) {
            VT h = VK_LOAD(wb + j);
            for (int64_t k = 1; k < K0; ++k)
                h = prop ? V_MAXP(h, VK_LOAD(wb + j + k * ls)) : V_MAX(h, VK_LOAD(wb + j + k * ls));
            V_STORE(yp + j, prop ? V_MAXP(init, h) : V_MAX(init, h));
        }
        return;
    }
    for (int64_t e = 0; e < T->ne; ++e) {
        const GKT *b = wb + T->eh[e];
        VT h = VK_LOAD(b);
        for (int64_t k = 1; k < K0; ++k)
            h = prop ? V_MAXP(h, VK_LOAD(b + k * ls)) : V_MAX(h, VK_LOAD(b + k * ls));
        h = prop ? V_MAXP(init, h) : V_MAX(init, h);
        V_STORE(yp + T->eo[e], GEN_FP_PERM(h, T->ei[e]));
    }
}

/* fp_wp and fp_hp with the tap counts and rules as constants where common, out of line.
 * fen (the first-element start without propagation): returns whether the
 * plane may hold a NaN (fp_fefix), from the pass's own loads where a tap
 * reads at offset 0 (pad 1, K = 3), else by a scan. */
__attribute__((noinline)) static int KFN(fp_wpass)(const KFN(fpt) * T, const GT *xp, GKT *dst, int prop, int fen)
{
    const VT nv = V_SET1(GEN_NEUTRAL);
    if (T->K == 3 && T->mu == 5 && T->knan == 1) { /* pad 1: the first and last column */
        if (GFLOAT && prop)
            return KFN(fp_wp)(T, xp, dst, nv, 3, 1, 5, -1);
        if (fen)
            return KFN(fp_wp)(T, xp, dst, nv, 3, 0, 5, 1);
        return KFN(fp_wp)(T, xp, dst, nv, 3, 0, 5, -1);
    }
#define GEN_FP_W_(P)                                                                                               \
    do {                                                                                                           \
        if (T->K == 3 && T->mu == 5)                                                                               \
            KFN(fp_wp)(T, xp, dst, nv, 3, P, 5, -1);                                                               \
        else if (T->K == 3)                                                                                        \
            KFN(fp_wp)(T, xp, dst, nv, 3, P, -1, -1);                                                              \
        else                                                                                                       \
            KFN(fp_wp)(T, xp, dst, nv, T->K, P, -1, -1);                                                           \
    } while (0)
    if (GFLOAT && prop)
        GEN_FP_W_(1);
    else
        GEN_FP_W_(0);
#undef GEN_FP_W_
#if GFLOAT
    return fen && KFN(gen_hasnan)(xp, T->HW); /* (a vector scan: the scalar one was 6 instructions per output) */
#else
    return 0;
#endif
}

__attribute__((noinline)) static void KFN(fp_hpass)(const KFN(fpt) * T, const GKT *wb, GT *yp, const KFN(geo) * g,
                                                    int prop)
{
    const VT init = V_SET1(g->fe ? GEN_NEUTRAL : g->init);
#define GEN_FP_H_(P, I)                                                                                            \
    do {                                                                                                           \
        if (T->K0 == 3)                                                                                            \
            KFN(fp_hp)(T, wb, yp, init, 3, P, I);                                                                  \
        else if (T->K0 == 2)                                                                                       \
            KFN(fp_hp)(T, wb, yp, init, 2, P, I);                                                                  \
        else                                                                                                       \
            KFN(fp_hp)(T, wb, yp, init, T->K0, P, I);                                                              \
    } while (0)
    if (GFLOAT && prop) {
        if (T->ident)
            GEN_FP_H_(1, 1);
        else
            GEN_FP_H_(1, 0);
    } else {
        if (T->ident)
            GEN_FP_H_(0, 1);
        else
            GEN_FP_H_(0, 0);
    }
#undef GEN_FP_H_
}

#if GFLOAT
/* First-element start without propagation, the plane at xp maybe holding
 * a NaN (fp_wpass): each window whose first tap is a NaN takes it (the
 * reference's scan). */
__attribute__((noinline)) static void KFN(fp_fefix)(const KFN(fpt) * T, const KFN(geo) * g, const GT *xp, GT *yp)
{
    for (int64_t o0 = 0; o0 < T->OH; ++o0) {
        const GT *xl = xp + g->st[1][o0] * T->W;
        for (int64_t o = 0; o < T->OW; ++o) {
            const GT v = xl[g->st[2][o]];
            if (GEN_ISNAN(GKEY(v)))
                yp[o0 * T->OW + o] = v;
        }
    }
}
#endif

/* Whole planes [pa, pb). */
__attribute__((noinline)) static void KFN(fp_run)(const struct maxpool_plan *p, const KFN(geo) * g, const GT *x,
                                                   GT *y, int64_t pa, int64_t pb, int prop)
{
    KFN(fpt) T;
    alignas(64) GKT wb[GEN_FP_WB];
    alignas(64) GT xc[GEN_FP_HW + 4 * VN + 2 * GEN_FP_K * VN]; /* a plane at the tensor's ends, VN before */
    alignas(64) GT yc[GEN_FP_HW + VN];                        /* the last plane's output */
    KFN(fp_init)(p, g, &T);
    for (int64_t i = 0; i < T.wbl; i += VN) /* (wbl <= GEN_FP_WB, a multiple of VN) */
        VK_STORE(wb + i, V_SET1(GEN_NEUTRAL));
    memset(xc, 0, sizeof xc);
    const int64_t HW = T.HW, no = T.OH * T.OW;
    const GT *const xend = g->xbeg + g->xlen;
    const int fenan = GFLOAT && g->fe && !prop;
    const VT nv = V_SET1(GEN_NEUTRAL);
    for (int64_t pl = pa; pl < pb; ++pl) {
        const GT *xp = x + pl * HW;
        if (xp + T.xlo < g->xbeg || xp + T.xhi > xend) {
            memcpy(xc + VN, xp, (size_t)HW * sizeof(GT));
            xp = xc + VN;
        }
        const int nan = KFN(fp_wpass)(&T, xp, wb + T.p0 * T.W, prop, fenan);
        VK_STORE(wb + T.p0 * T.W + HW, nv); /* the last vector's lanes past the plane: bottom padding again */
        GT *const yp = y + pl * no, *yo = pl * no + T.spill > pb * no ? yc : yp; /* stores past the range */
        KFN(fp_hpass)(&T, wb, yo, g, prop);
        if (yo != yp)
            memcpy(yp, yo, (size_t)no * sizeof(GT));
#if GFLOAT
        if (nan)
            KFN(fp_fefix)(&T, g, xp, yp);
#else
        (void)nan;
#endif
    }
}

/* Tasks [t0, t1): whole planes flat, the rows of partial planes the W-first
 * form (or the per-tap one). */
static void KFN(fp_tasks)(const struct maxpool_plan *p, const KFN(geo) * g, const void *x, void *y, int64_t t0,
                          int64_t t1, int prop)
{
    const int64_t rows = g->out[0] * g->out[1], pa = (t0 + rows - 1) / rows, pb = t1 / rows;
    int64_t ra[2] = {t0, pb * rows}, rb[2] = {pa * rows, t1};
    if (pa >= pb) {
        ra[0] = t0;
        rb[0] = t1;
        ra[1] = rb[1] = 0;
    } else {
        KFN(fp_run)(p, g, (const GT *)x, (GT *)y, pa, pb, prop);
    }
    for (int i = 0; i < 2; ++i)
        if (ra[i] < rb[i]) {
            if (g->fl_wl)
                KFN(fl_run)(p, g, x, y, ra[i], rb[i], (int)g->S, prop);
            else
                KFN(cf_task)(p, g, x, y, NULL, ra[i], rb[i], prop, 0);
        }
}
#endif
