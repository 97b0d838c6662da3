/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The type-generic kernels ("gen"): max pooling of every element type but
 * f32 (which has its own tuned kernels), both layouts, spatial rank 1..3,
 * fixed or adaptive windows, every NaN policy, start value, empty-window
 * index and index type (row-major indices). Written once against the vector
 * layer vt_<isa>.h (GEN_TYPE selects the type's block there) and
 * instantiated by gen_<type>_<isa>.c with KPREFIX set; kernel names
 * <type>_nchw_gen_<isa> and <type>_nhwc_gen_<isa>.
 *
 * The scan is the reference's (reference.c), lane by lane: the running max
 * starts at the start value (or, first-element start, at the window's first
 * tap: that tap then meets itself again, which changes nothing), and tap x,
 * in row-major window order, replaces it when x > best (or x is NaN under
 * propagation). Each lane of a vector is one output element:
 *
 *  - channels-last (KFN(nhwc)): the lanes are VN channels of one output
 *    pixel, all with the same window; a tap is one vector load. One task is
 *    one output row (n, o0, o1) of every channel.
 *  - channels-first (KFN(nchw)): the lanes are VN output columns of one
 *    output row; one task is one output row (n, c, o0, o1). On a regular W
 *    grid (fixed windows, even adaptive windows) with stride 1 or 2, a tap
 *    (window line r, column tap k) is one load (stride 1) or the even lanes
 *    of two loads (V_EVEN, stride 2): blocks whose taps all lie inside the
 *    row are read in place (cf_vec); border blocks too, with precomputed
 *    lane masks that turn taps outside the row into the neutral value
 *    (-inf, or the lowest integer: it never replaces anything under either
 *    rule) and force each lane's first tap in under the first-element start
 *    (cf_bmask); a border block whose span would leave the input tensor
 *    copies its lines to a padded buffer instead (cf_border). Other W
 *    windows (strides >= 3, uneven adaptive) go lines first (lf_cols): the
 *    window's lines combined per input column with their line numbers, then
 *    each output column reduced with the row-major position as tie rule.
 *    What is left (dilated windows off the grid, rows of more lines than a
 *    lane numbers) gathers each tap's lanes into a buffer (cf_gather).
 *    Without indices, on the grid with stride 1 or 2, the W-first form
 *    (fl_run, below) comes before all these: each input line's W pass
 *    once, then each output row's max over its lines' W results.
 *
 * Indices: each lane carries the number t of the tap that last replaced it
 * (VI lanes as wide as the keys, so one compare mask selects both; all ones
 * = no position yet), turned into an input offset through the row's table
 * when the lanes are stored. Windows of more taps than a lane can number
 * (GEN_TAPS_LIMIT) take the scalar scan (KFN(sfold)), as do channel tails
 * and lanes whose stored bits could differ from the input's (V_NANFIX: f16
 * NaN results, which the conversion may quiet).
 *
 * Scratch, all on the stack and bounded by the constants below: ro[] window
 * lines (GEN_LINES_MAX; more: scalar scan), toff/tpos[] taps
 * (GEN_TAPS_MAX), the border copy sb[] (GEN_SPAN_MAX), the lines-first row
 * cv/cr[] (GEN_LF_CAP plus margins), the border lane masks in the geometry
 * (GEN_BM_MAX blocks of GEN_BM_K taps; further blocks take the copy), the
 * W-first form's W results wb[] (GEN_FL_BYTES; rows whose lines do not fit
 * take the other forms), its per-line NaN flags nanf[] (GEN_FL_BYTES / 4)
 * and line pointers lp[] (GEN_LINES_MAX): about 33 KiB at most.
 * Reads: the windows' input elements; in the stride-2 forms the odd
 * elements between them; in the masked border form and the W-first form's
 * first and last vector of a line, elements just outside the row
 * (neighbouring lines of the same tensor, never used), only when the
 * vector's whole span lies inside the input tensor.
 */
#include "../plan.h"

#include <stdalign.h>
#include <stdint.h>
#include <string.h>

#define KCAT_(a, b) a##b
#define KCAT(a, b) KCAT_(a, b)
#define KFN(n) KCAT(KPREFIX, n)
#ifndef GAI
#include "force_inline.h"
#define GAI MAXPOOL_AI
#endif

/* The first nl (< VN) lanes of v stored at p (the vector layer may have a
 * masked store) */
#ifndef V_STOREN
#define V_STOREN(p, v, nl)                                                                                         \
    do {                                                                                                           \
        alignas(64) GT t_[VN];                                                                                     \
        V_STORE(t_, (v));                                                                                          \
        memcpy((p), t_, (size_t)(nl) * sizeof(GT));                                                                \
    } while (0)
#endif

/* Window taps the vector forms number for indices, and window lines a row
 * table holds. */
#define GEN_TAPS_MAX 256
#define GEN_LINES_MAX 256
#define GEN_BM_MAX 8 /* border blocks of a row with precomputed lane masks (the others: line copies) */
#define GEN_BM_K 16  /* taps K of the windows those masks cover */
#define GEN_LF_CAP 512 /* input columns of one lines-first chunk */
#define GEN_SPAN_MAX 1024 /* elements of the border form's line copy: 2*VN + (K-1)*d at most (a multiple of VN) */
#define GEN_FL_BYTES 24576 /* W results (keys) of the lines-flat form's strip */
#define GEN_NONE ((VLANE) ~(VLANE)0)
#define GEN_TAPS_LIMIT ((int64_t)GEN_NONE < GEN_TAPS_MAX ? (int64_t)GEN_NONE : GEN_TAPS_MAX)

/* The start value (the plan's) and the neutral value (never replaces
 * anything: -inf, or the lowest integer) of the type. */
#if GEN_TYPE == GEN_F64
#define GEN_INIT(p) ((p)->init.f64)
#define GEN_NEUTRAL (-__builtin_inf())
#elif GEN_TYPE == GEN_F16
#define GEN_INIT(p) ((p)->init.u16bits)
#define GEN_NEUTRAL ((uint16_t)0xFC00u)
#elif GEN_TYPE == GEN_BF16
#define GEN_INIT(p) ((p)->init.u16bits)
#define GEN_NEUTRAL ((uint16_t)0xFF80u)
#elif GEN_TYPE == GEN_I8
#define GEN_INIT(p) ((p)->init.i8)
#define GEN_NEUTRAL INT8_MIN
#elif GEN_TYPE == GEN_U8
#define GEN_INIT(p) ((p)->init.u8)
#define GEN_NEUTRAL ((uint8_t)0)
#elif GEN_TYPE == GEN_I16
#define GEN_INIT(p) ((p)->init.i16)
#define GEN_NEUTRAL INT16_MIN
#elif GEN_TYPE == GEN_U16
#define GEN_INIT(p) ((p)->init.u16)
#define GEN_NEUTRAL ((uint16_t)0)
#elif GEN_TYPE == GEN_I32
#define GEN_INIT(p) ((p)->init.i32)
#define GEN_NEUTRAL INT32_MIN
#elif GEN_TYPE == GEN_I64
#define GEN_INIT(p) ((p)->init.i64)
#define GEN_NEUTRAL INT64_MIN
#endif

/* The loops over the NB vectors of a block (NB a constant after inlining)
 * unrolled at -O2 too */
#define GEN_UNROLL _Pragma("GCC unroll 4")

/* NaN test on a key (never true for the integers) */
#if GFLOAT
#define GEN_ISNAN(k) ((k) != (k))
#else
#define GEN_ISNAN(k) 0
#endif

typedef struct KFN(geo) {
    int64_t in[3], out[3], step[3]; /* the spatial axes right-aligned: rank 1 and 2 get leading axes of 1 */
    const int64_t *st[3], *cn[3];
    int64_t unit[2]; /* start 0, count 1: the window arrays of the added axes */
    GT init, neutral;
    int fe, empty_kind; /* first-element start; maxpool_empty_index */
    /* channels-first W axis on a regular grid (fixed windows; adaptive
     * windows of in/out taps when out divides in): column o's taps are
     * v0 + o*S + k*d, k < K, those outside [0, in) being padding; grid = 0:
     * no such grid (uneven adaptive windows) */
    int grid;
    int64_t v0, K, S, d;
    /* the input tensor [xbeg, xbeg + xlen): border blocks read in place
     * where the whole span of their lines lies inside it */
    const GT *xbeg;
    int64_t xlen;
    /* border blocks 0 .. nbm-1 of a row, in row order: for tap k, the lanes
     * whose tap lies inside the row (bvalid), and (first-element start) the
     * lanes whose window's first tap is k of line 0 (bfirst) */
    int nbm;
    VM bvalid[GEN_BM_MAX][GEN_BM_K], bfirst[GEN_BM_MAX][GEN_BM_K];
    /* the lines-flat form (values only): fl_wl W results per input line (0:
     * form not taken), fl_nl lines per strip */
    int64_t fl_wl, fl_nl;
    /* its lane masks of the first (0) and last (1) vector
     * of a line: for tap k, the full-resolution lanes (half h of 2*VN for
     * stride 2) whose tap lies inside the line; fl_mu: some lane does not */
    char fl_mu[2][GEN_BM_K];
    int fl_fenan; /* first-element start without propagation (floats): a NaN first tap stays */
    VM fl_m[2][2][GEN_BM_K];
} KFN(geo);

/* How the block of grid columns from o is done: NB = 4, 2, 1 vectors read
 * in place (every tap inside the row and the block inside the output row),
 * or 0: a border block of min(VN, out - o) columns. */
GAI int KFN(cf_kind)(const KFN(geo) * g, int64_t o)
{
    const int64_t v = g->v0 + o * g->S, ext = (g->K - 1) * g->d, in2 = g->in[2], O2 = g->out[2];
    if (v < 0)
        return 0;
    if (o + 4 * VN <= O2 && v + g->S * 4 * VN + ext <= in2)
        return 4;
    if (o + 2 * VN <= O2 && v + g->S * 2 * VN + ext <= in2)
        return 2;
    if (o + VN <= O2 && v + g->S * VN + ext <= in2)
        return 1;
    return 0;
}

/* The lane masks of the first GEN_BM_MAX border blocks of a row (grid
 * columns, S 1 or 2, K <= GEN_BM_K). */
static void KFN(geo_masks)(KFN(geo) * g)
{
    g->nbm = 0;
    if (!g->grid || g->S > 2 || g->K > GEN_BM_K || (g->K - 1) * g->d > GEN_SPAN_MAX - 2 * VN)
        return;
    const int64_t O2 = g->out[2], in2 = g->in[2];
    for (int64_t o = 0; o < O2 && g->nbm < GEN_BM_MAX;) {
        const int nb = KFN(cf_kind)(g, o);
        if (nb) {
            o += nb * VN;
            continue;
        }
        const int64_t nl = O2 - o < VN ? O2 - o : VN, v = g->v0 + o * g->S;
        for (int64_t k = 0; k < g->K; ++k) {
            alignas(64) VLANE lv[VN], lf[VN];
            for (int64_t l = 0; l < VN; ++l) {
                const int64_t pos = v + l * g->S + k * g->d;
                lv[l] = l < nl && pos >= 0 && pos < in2 ? GEN_NONE : 0;
                lf[l] = g->fe && l < nl && g->cn[2][o + l] > 0 && g->st[2][o + l] == pos ? GEN_NONE : 0;
            }
            g->bvalid[g->nbm][k] = VM_LANES(lv);
            g->bfirst[g->nbm][k] = VM_LANES(lf);
        }
        ++g->nbm;
        o += VN;
    }
}

static void KFN(geo_init)(const struct maxpool_plan *p, KFN(geo) * g)
{
    const int r = p->rank, sh = 3 - r;
    g->unit[0] = 0;
    g->unit[1] = 1;
    for (int i = 0; i < 3; ++i) {
        if (i < sh) {
            g->in[i] = g->out[i] = g->step[i] = 1;
            g->st[i] = &g->unit[0];
            g->cn[i] = &g->unit[1];
        } else {
            const maxpool_axis *a = &p->axis[i - sh];
            g->in[i] = a->in;
            g->out[i] = a->out;
            g->step[i] = a->step;
            g->st[i] = a->start;
            g->cn[i] = a->count;
        }
    }
    g->init = GEN_INIT(p);
    g->neutral = GEN_NEUTRAL;
    g->fe = p->desc.window_init == MAXPOOL_INIT_FIRST_ELEMENT;
    g->empty_kind = (int)p->desc.empty_index;
    /* the W grid */
    const maxpool_axis *w = &p->axis[r - 1];
    g->grid = 0;
    g->v0 = 0;
    g->K = g->S = g->d = 1;
    if (p->desc.window == MAXPOOL_WINDOW_FIXED) {
        g->grid = 1;
        g->v0 = -w->pad_begin;
        g->K = w->kernel;
        g->S = w->stride;
        g->d = w->dilation;
    } else if (w->in % w->out == 0) {
        g->grid = 1;
        g->K = g->S = w->in / w->out;
    }
}

/* The index of (n, c, s), s >= 0 a row-major spatial offset; s < 0: the
 * empty-window index of the window whose first taps are (s0, s1, s2). */
GAI void KFN(put_index)(const struct maxpool_plan *p, const KFN(geo) * g, void *ind, int64_t at, int64_t n,
                        int64_t c, int64_t s, int64_t s0, int64_t s1, int64_t s2)
{
    int64_t v;
    if (s >= 0)
        v = n * p->idx_n + c * p->idx_c + s;
    else if (g->empty_kind == MAXPOOL_EMPTY_INDEX_MINUS_ONE)
        v = -1;
    else if (g->empty_kind == MAXPOOL_EMPTY_INDEX_FIRST_TAP)
        v = n * p->idx_n + c * p->idx_c + (s0 * g->in[1] + s1) * g->in[2] + s2;
    else
        v = n * p->idx_n + c * p->idx_c;
    if (p->desc.index_type == MAXPOOL_INDEX_I32)
        ((int32_t *)ind)[at] = (int32_t)v;
    else
        ((int64_t *)ind)[at] = v;
}

/* One output element the scalar way (the reference's scan): the window
 * (s0 + j0*step0, s1 + j1*step1, s2 + j2*step2), j < c, of the plane at xp,
 * whose spatial positions are es elements apart. The value goes to *out;
 * returns the winner's spatial offset, -1 for none. */
static int64_t KFN(sfold)(const KFN(geo) * g, const GT *xp, int64_t es, int prop, int64_t s0, int64_t c0,
                          int64_t s1, int64_t c1, int64_t s2, int64_t c2, GT *out)
{
    GT best = g->init;
    GKT bk = GKEY(best);
    int64_t bs = -1;
    for (int64_t j0 = 0; j0 < c0; ++j0)
        for (int64_t j1 = 0; j1 < c1; ++j1) {
            const int64_t rs = ((s0 + j0 * g->step[0]) * g->in[1] + s1 + j1 * g->step[1]) * g->in[2] + s2;
            for (int64_t j2 = 0; j2 < c2; ++j2) {
                const int64_t s = rs + j2 * g->step[2];
                const GT v = xp[s * es];
                const GKT k = GKEY(v);
                if (k > bk || (prop && GEN_ISNAN(k)) || (g->fe && bs < 0)) {
                    best = v;
                    bk = k;
                    bs = s;
                }
            }
        }
    *out = best;
    return bs;
}

/* The rule on one tap x (tap number t) for every lane. */
GAI void KFN(upd)(VT *best, VI *bt, VT x, int64_t t, const int prop, const int wi)
{
    if (!wi) {
        *best = prop ? V_MAXP(*best, x) : V_MAX(*best, x);
    } else {
        VM m = V_GTM(x, *best);
        if (prop)
            m = VM_OR(m, V_NANM(x));
        *best = V_SEL(*best, x, m);
        *bt = VI_SEL(*bt, VI_SET1(t), m);
    }
}

/* ---- channels-last ------------------------------------------------------ */

/* NB vectors of channels [c, c + NB*VN) of one output pixel whose R taps are
 * at spatial offsets tpos[0..R) (R >= 1, R <= GEN_TAPS_LIMIT with indices). */
GAI void KFN(cl_block)(const struct maxpool_plan *p, const KFN(geo) * g, const GT *xn, GT *yo, void *ind,
                       int64_t ooff, int64_t n, int64_t c, const int64_t *tpos, int64_t R, const int64_t *ws,
                       const int NB, const int prop, const int wi)
{
    const int64_t C = p->c;
    VT best[4];
    VI bt[4];
    GEN_UNROLL
    for (int v = 0; v < NB; ++v) {
        if (g->fe) {
            best[v] = V_LOAD(xn + tpos[0] * C + c + v * VN);
            bt[v] = VI_SET1(0);
        } else {
            best[v] = V_SET1(g->init);
            bt[v] = VI_SET1(GEN_NONE);
        }
    }
    for (int64_t t = 0; t < R; ++t) {
        const GT *q = xn + tpos[t] * C + c;
        GEN_UNROLL
        for (int v = 0; v < NB; ++v)
            KFN(upd)(&best[v], &bt[v], V_LOAD(q + v * VN), t, prop, wi);
    }
    GEN_UNROLL
    for (int v = 0; v < NB; ++v) {
        const int64_t cv = c + v * VN;
        V_STORE(yo + cv, best[v]);
        const uint64_t fix = (uint64_t)V_NANFIX(best[v]); /* lane mask (f16 NaN lanes) */
        if (!wi && !fix)
            continue;
        alignas(64) VLANE lt[VN];
        if (wi)
            VI_STORE(lt, bt[v]);
        for (int l = 0; l < VN; ++l) {
            if ((fix >> l) & 1) { /* the scalar scan, bits as stored */
                GT val;
                const int64_t s =
                    KFN(sfold)(g, xn + cv + l, C, prop, ws[0], ws[3], ws[1], ws[4], ws[2], ws[5], &val);
                yo[cv + l] = val;
                if (wi)
                    KFN(put_index)(p, g, ind, ooff + cv + l, n, cv + l, s, ws[0], ws[1], ws[2]);
            } else if (wi) {
                const int64_t s = lt[l] == GEN_NONE ? -1 : tpos[lt[l]];
                KFN(put_index)(p, g, ind, ooff + cv + l, n, cv + l, s, ws[0], ws[1], ws[2]);
            }
        }
    }
}

/* Values only: NB vectors of channels [c, c + NB*VN) of one output pixel,
 * its window's R01 lines at pixel offsets lo[] (plus st2), cn2 taps each,
 * step2 pixels apart; taps loaded where they are, no tap table. */
GAI void KFN(cl_block_v)(const struct maxpool_plan *p, const KFN(geo) * g, const GT *xn, GT *yo, int64_t c,
                         const int64_t *lo, int64_t R01, const int64_t *ws, const int NB, const int prop)
{
    const int64_t C = p->c, st2 = ws[2], cn2 = ws[5], s2 = g->step[2] * C;
    VT best[4];
    GEN_UNROLL
    for (int v = 0; v < NB; ++v)
        best[v] = g->fe ? V_LOAD(xn + (lo[0] + st2) * C + c + v * VN) : V_SET1(g->init);
    for (int64_t r = 0; r < R01; ++r) {
        const GT *q = xn + (lo[r] + st2) * C + c;
        for (int64_t j = 0; j < cn2; ++j, q += s2)
            GEN_UNROLL
            for (int v = 0; v < NB; ++v)
                best[v] = prop ? V_MAXP(best[v], V_LOAD(q + v * VN)) : V_MAX(best[v], V_LOAD(q + v * VN));
    }
    GEN_UNROLL
    for (int v = 0; v < NB; ++v) {
        const int64_t cv = c + v * VN;
        V_STORE(yo + cv, best[v]);
        const uint64_t fix = (uint64_t)V_NANFIX(best[v]);
        for (int l = 0; fix && l < VN; ++l)
            if ((fix >> l) & 1) /* the scalar scan, bits as stored */
                KFN(sfold)(g, xn + cv + l, C, prop, ws[0], ws[3], ws[1], ws[4], ws[2], ws[5], &yo[cv + l]);
    }
}

GAI void KFN(cl_run)(const struct maxpool_plan *p, const KFN(geo) * g, const GT *x, GT *y, void *ind, int64_t t0,
                     int64_t t1, const int prop, const int wi)
{
    const int64_t C = p->c;
    const int64_t rows = g->out[0] * g->out[1];
    int64_t tpos[GEN_TAPS_MAX], lo[GEN_LINES_MAX];
    for (int64_t t = t0; t < t1; ++t) {
        const int64_t nn = t / rows, row = t % rows;
        const int64_t o0 = row / g->out[1], o1 = row % g->out[1];
        const GT *xn = x + nn * p->in_spatial * C;
        int64_t ws[6]; /* window start per axis, then count per axis */
        ws[0] = g->st[0][o0];
        ws[3] = g->cn[0][o0];
        ws[1] = g->st[1][o1];
        ws[4] = g->cn[1][o1];
        const int64_t R01 = ws[3] * ws[4]; /* the window's lines: pixel offsets lo[] (values only) */
        if (!wi && R01 <= GEN_LINES_MAX) {
            int64_t r = 0;
            for (int64_t j0 = 0; j0 < ws[3]; ++j0)
                for (int64_t j1 = 0; j1 < ws[4]; ++j1)
                    lo[r++] = ((ws[0] + j0 * g->step[0]) * g->in[1] + ws[1] + j1 * g->step[1]) * g->in[2];
        }
        for (int64_t o2 = 0; o2 < g->out[2]; ++o2) {
            ws[2] = g->st[2][o2];
            ws[5] = g->cn[2][o2];
            const int64_t ooff = ((nn * rows + row) * g->out[2] + o2) * C;
            GT *yo = y + ooff;
            const int64_t R = ws[3] * ws[4] * ws[5];
            int64_t c = 0;
            if (R == 0) { /* no input element: the start value, the empty index */
                for (; c < C; ++c) {
                    yo[c] = g->init;
                    if (wi)
                        KFN(put_index)(p, g, ind, ooff + c, nn, c, -1, ws[0], ws[1], ws[2]);
                }
                continue;
            }
            if (!wi && R01 <= GEN_LINES_MAX) {
                for (; c + 4 * VN <= C; c += 4 * VN)
                    KFN(cl_block_v)(p, g, xn, yo, c, lo, R01, ws, 4, prop);
                for (; c + VN <= C; c += VN)
                    KFN(cl_block_v)(p, g, xn, yo, c, lo, R01, ws, 1, prop);
            } else if (R <= (wi ? GEN_TAPS_LIMIT : GEN_TAPS_MAX)) {
                int64_t r = 0;
                for (int64_t j0 = 0; j0 < ws[3]; ++j0)
                    for (int64_t j1 = 0; j1 < ws[4]; ++j1) {
                        const int64_t rs =
                            ((ws[0] + j0 * g->step[0]) * g->in[1] + ws[1] + j1 * g->step[1]) * g->in[2] + ws[2];
                        for (int64_t j2 = 0; j2 < ws[5]; ++j2)
                            tpos[r++] = rs + j2 * g->step[2];
                    }
                for (; c + 4 * VN <= C; c += 4 * VN)
                    KFN(cl_block)(p, g, xn, yo, ind, ooff, nn, c, tpos, R, ws, 4, prop, wi);
                for (; c + VN <= C; c += VN)
                    KFN(cl_block)(p, g, xn, yo, ind, ooff, nn, c, tpos, R, ws, 1, prop, wi);
            }
            for (; c < C; ++c) { /* channel tail (and windows past the tap table): scalar */
                const int64_t s =
                    KFN(sfold)(g, xn + c, C, prop, ws[0], ws[3], ws[1], ws[4], ws[2], ws[5], &yo[c]);
                if (wi)
                    KFN(put_index)(p, g, ind, ooff + c, nn, c, s, ws[0], ws[1], ws[2]);
            }
        }
    }
}

/* ---- channels-first ----------------------------------------------------- */

/* One output row of one (n, c) plane. */
typedef struct KFN(row) {
    const GT *xp; /* the input plane */
    GT *yr;       /* the output row */
    void *ind;
    int64_t yoff, n, c; /* yoff: offset of yr[0] in the output (and indices) */
    int64_t s0, c0, s1, c1, R; /* its window lines: axis-0 and axis-1 start and count, R = c0*c1 */
    const int64_t *ro;   /* [R] the lines' offsets in the plane */
    const int64_t *toff; /* [R*K] regular tap t = r*K + k: ro[r] + k*d (with indices) */
} KFN(row);

/* Output column o gets val, the winner at spatial offset s (-1: none); fix:
 * the scalar scan decides instead (f16 NaN lanes, windows of too many taps). */
GAI void KFN(cf_put)(const struct maxpool_plan *p, const KFN(geo) * g, const KFN(row) * w, int64_t o, GT val,
                     int64_t s, int fix, const int prop, const int wi)
{
    if (fix)
        s = KFN(sfold)(g, w->xp, 1, prop, w->s0, w->c0, w->s1, w->c1, g->st[2][o], g->cn[2][o], &val);
    w->yr[o] = val;
    if (wi)
        KFN(put_index)(p, g, w->ind, w->yoff + o, w->n, w->c, s, w->s0, w->s1, g->st[2][o]);
}

/* Tap at q of VN grid columns S apart (S = 1 or 2). */
#define GEN_TAP(q, S) ((S) == 1 ? V_LOAD(q) : V_EVEN(V_LOAD(q), V_LOAD((q) + VN)))

/* The K taps of one window line (line base xr, tap numbers t0 + k) for NB
 * vectors of grid columns. */
GAI void KFN(cf_line)(VT *best, VI *bt, const GT *xr, int64_t t0, int64_t K, int64_t d, const int NB, const int S,
                      const int prop, const int wi)
{
    for (int64_t k = 0; k < K; ++k)
        GEN_UNROLL
        for (int v = 0; v < NB; ++v)
            KFN(upd)(&best[v], &bt[v], GEN_TAP(xr + k * d + v * VN * S, S), t0 + k, prop, wi);
}

/* Stores lanes [0, nl) of NB vectors of grid columns from ob on. */
GAI void KFN(cf_store)(const struct maxpool_plan *p, const KFN(geo) * g, const KFN(row) * w, int64_t ob,
                       int64_t nl, const VT *best, const VI *bt, const int NB, const int prop, const int wi)
{
    GEN_UNROLL
    for (int v = 0; v < NB; ++v) {
        const int64_t o0 = ob + v * VN;
        const uint64_t fix = (uint64_t)V_NANFIX(best[v]); /* lane mask (f16 NaN lanes) */
        if (!wi && !fix && nl == VN) {
            V_STORE(w->yr + o0, best[v]);
            continue;
        }
        if (!wi && !fix) { /* a row end: the lanes that exist */
            V_STOREN(w->yr + o0, best[v], nl);
            continue;
        }
        alignas(64) GT vals[VN];
        alignas(64) VLANE lt[VN];
        V_STORE(vals, best[v]);
        if (wi)
            VI_STORE(lt, bt[v]);
        for (int l = 0; l < nl; ++l) {
            const int64_t o = o0 + l;
            const int64_t s = !wi || lt[l] == GEN_NONE ? -1 : w->toff[lt[l]] + g->v0 + o * g->S;
            KFN(cf_put)(p, g, w, o, vals[l], s, (int)((fix >> l) & 1), prop, wi);
        }
    }
}

/* NB vectors of grid columns [ob, ob + NB*VN) whose taps all lie inside the
 * input row (read in place). */
GAI void KFN(cf_vec)(const struct maxpool_plan *p, const KFN(geo) * g, const KFN(row) * w, int64_t ob, const int NB,
                     const int S, const int prop, const int wi)
{
    const int64_t K = g->K, d = g->d;
    const GT *xb = w->xp + g->v0 + ob * S;
    VT best[4];
    VI bt[4];
    GEN_UNROLL
    for (int v = 0; v < NB; ++v) {
        if (g->fe) {
            best[v] = GEN_TAP(xb + w->ro[0] + v * VN * S, S);
            bt[v] = VI_SET1(0);
        } else {
            best[v] = V_SET1(g->init);
            bt[v] = VI_SET1(GEN_NONE);
        }
    }
    for (int64_t r = 0; r < w->R; ++r)
        KFN(cf_line)(best, bt, xb + w->ro[r], r * K, K, d, NB, S, prop, wi);
    KFN(cf_store)(p, g, w, ob, VN, best, bt, NB, prop, wi);
}

/* Grid columns [ob, ob + nl), nl <= VN, whose taps may lie outside the
 * input row (padding) or past the output row: each line's span is copied
 * to sb with the neutral value outside the row, and scanned there. With the
 * first-element start a lane starts at its window's first real tap (tap
 * number (st - v)/d of line 0). */
GAI void KFN(cf_border)(const struct maxpool_plan *p, const KFN(geo) * g, const KFN(row) * w, int64_t ob,
                        int64_t nl, const int S, const int prop, const int wi)
{
    const int64_t K = g->K, d = g->d, in2 = g->in[2], v = g->v0 + ob * S, span = S * VN + (K - 1) * d;
    const int64_t *st2 = g->st[2] + ob, *cn2 = g->cn[2] + ob;
    alignas(64) GT sb[GEN_SPAN_MAX];
    const int64_t a = v < 0 ? 0 : v > in2 ? in2 : v, e = v + span > in2 ? in2 : v + span;
    {
        const VT nv = V_SET1(g->neutral);
        for (int64_t i = 0; i < span; i += VN) /* sb holds GEN_SPAN_MAX >= span rounded up to VN */
            V_STORE(sb + i, nv);
    }
    VT best[1] = {V_SET1(g->init)};
    VI bt[1] = {VI_SET1(GEN_NONE)};
    if (g->fe) {
        alignas(64) GT buf[VN];
        alignas(64) VLANE lt[VN];
        for (int64_t l = 0; l < VN; ++l) {
            const int first = l < nl && cn2[l] > 0;
            buf[l] = first ? w->xp[w->ro[0] + st2[l]] : g->init;
            lt[l] = first ? (VLANE)((st2[l] - (v + l * S)) / d) : GEN_NONE;
        }
        best[0] = V_LOAD(buf);
        memcpy(&bt[0], lt, sizeof bt[0]);
    }
    for (int64_t r = 0; r < w->R; ++r) {
        if (e > a)
            memcpy(sb + (a - v), w->xp + w->ro[r] + a, (size_t)(e - a) * sizeof(GT));
        KFN(cf_line)(best, bt, sb, r * K, K, d, 1, S, prop, wi);
    }
    KFN(cf_store)(p, g, w, ob, nl, best, bt, 1, prop, wi);
}

/* Border block bi (columns [ob, ob + nl), nl <= VN) read in place: taps
 * outside the row become the neutral value through the lane masks; under
 * the first-element start a lane takes its window's first tap whatever it
 * holds (bfirst), as the reference's scan does. The caller has checked that
 * every line's span lies inside the input tensor. */
GAI void KFN(cf_bmask)(const struct maxpool_plan *p, const KFN(geo) * g, const KFN(row) * w, int64_t ob, int64_t nl,
                       int bi, const int S, const int prop, const int wi)
{
    const int64_t K = g->K, d = g->d;
    const GT *xb = w->xp + (g->v0 + ob * S);
    const VT nv = V_SET1(g->neutral);
    VT best[1] = {V_SET1(g->init)};
    VI bt[1] = {VI_SET1(GEN_NONE)};
    for (int64_t r = 0; r < w->R; ++r) {
        const GT *xr = xb + w->ro[r];
        for (int64_t k = 0; k < K; ++k) {
            const VT x = V_SEL(nv, GEN_TAP(xr + k * d, S), g->bvalid[bi][k]);
            if (g->fe && r == 0) {
                const VM f = g->bfirst[bi][k];
                if (!wi) {
                    best[0] = V_SEL(prop ? V_MAXP(best[0], x) : V_MAX(best[0], x), x, f);
                } else {
                    VM m = VM_OR(V_GTM(x, best[0]), f);
                    if (prop)
                        m = VM_OR(m, V_NANM(x));
                    best[0] = V_SEL(best[0], x, m);
                    bt[0] = VI_SEL(bt[0], VI_SET1(k), m);
                }
            } else {
                KFN(upd)(&best[0], &bt[0], x, r * K + k, prop, wi);
            }
        }
    }
    KFN(cf_store)(p, g, w, ob, nl, best, bt, 1, prop, wi);
}

/* Columns [ob, ob + nl), nl <= VN, any windows: each tap's lanes gathered
 * (a lane without tap k reads the neutral value). */
GAI void KFN(cf_gather)(const struct maxpool_plan *p, const KFN(geo) * g, const KFN(row) * w, int64_t ob,
                        int64_t nl, const int prop, const int wi)
{
    const int64_t *st2 = g->st[2] + ob, *cn2 = g->cn[2] + ob, d = g->step[2], R = w->R;
    const GT *xp = w->xp;
    int64_t KW = 0;
    for (int64_t l = 0; l < nl; ++l)
        KW = cn2[l] > KW ? cn2[l] : KW;
    if (wi && R * KW > GEN_TAPS_LIMIT) { /* more taps than a lane can number */
        for (int64_t l = 0; l < nl; ++l)
            KFN(cf_put)(p, g, w, ob + l, g->init, -1, 1, prop, wi);
        return;
    }
    alignas(64) GT buf[VN];
    alignas(64) VLANE lt[VN];
    for (int64_t l = 0; l < VN; ++l) {
        const int first = g->fe && l < nl && cn2[l] > 0;
        buf[l] = first ? xp[w->ro[0] + st2[l]] : g->init;
        lt[l] = first ? 0 : GEN_NONE;
    }
    VT best = V_LOAD(buf);
    VI bt;
    memcpy(&bt, lt, sizeof bt);
    for (int64_t r = 0; r < R; ++r) {
        const GT *xr = xp + w->ro[r];
        for (int64_t k = 0; k < KW; ++k) {
            for (int64_t l = 0; l < VN; ++l)
                buf[l] = l < nl && k < cn2[l] ? xr[st2[l] + k * d] : g->neutral;
            KFN(upd)(&best, &bt, V_LOAD(buf), r * KW + k, prop, wi);
        }
    }
    const uint64_t fix = (uint64_t)V_NANFIX(best);
    V_STORE(buf, best);
    if (wi)
        VI_STORE(lt, bt);
    for (int64_t l = 0; l < nl; ++l) {
        const int64_t t = wi ? (int64_t)lt[l] : 0;
        const int64_t s = !wi || lt[l] == GEN_NONE ? -1 : w->ro[t / KW] + st2[l] + (t % KW) * d;
        KFN(cf_put)(p, g, w, ob + l, buf[l], s, (int)((fix >> l) & 1), prop, wi);
    }
}

/* ---- channels-first, lines first (no grid: strides >= 3, uneven adaptive
 * windows) -------------------------------------------------------------- *
 * The R lines are combined first, a vector of input columns at a time, into
 * the best key per column and the number of the line it came from (first
 * maximum over the lines, last NaN under propagation; -inf and the lowest
 * integer never count). Each output column then reduces its taps over that
 * combined line in scalar code: a tap replaces the running best when it is
 * greater, or equal with an earlier (line, column) position, or (NaN
 * propagation) a NaN at a later position than a NaN best. Positions order
 * the taps as the row-major scan does, so the result is the reference's:
 * the first maximum, the last NaN, the first tap under the first-element
 * start (which starts at that tap, read from the input). The winner's bits
 * are read back from the input. Needs unit W steps and R <= GEN_TAPS_LIMIT. */

/* The lines of the row combined over NB vectors of input columns from u:
 * best key and line number to cv[], cr[]. */
GAI void KFN(lf_lines)(const KFN(row) * w, int64_t u, GKT *cv, VLANE *cr, const int NB, const int prop)
{
    VT best[2];
    VI bt[2];
    GEN_UNROLL
    for (int v = 0; v < NB; ++v) {
        best[v] = V_SET1(GEN_NEUTRAL);
        bt[v] = VI_SET1(GEN_NONE);
    }
    for (int64_t r = 0; r < w->R; ++r) {
        const GT *q = w->xp + w->ro[r] + u;
        GEN_UNROLL
        for (int v = 0; v < NB; ++v) {
            const VT x = V_LOAD(q + v * VN);
            VM m = V_GTM(x, best[v]);
            if (prop)
                m = VM_OR(m, V_NANM(x));
            best[v] = V_SEL(best[v], x, m);
            bt[v] = VI_SEL(bt[v], VI_SET1(r), m);
        }
    }
    GEN_UNROLL
    for (int v = 0; v < NB; ++v) {
        VK_STORE(cv + v * VN, best[v]);
        VI_STORE(cr + v * VN, bt[v]);
    }
}

/* Output columns [oa, ob) whose taps lie in input columns [ua, ua + GEN_LF_CAP). */
GAI void KFN(lf_chunk)(const struct maxpool_plan *p, const KFN(geo) * g, const KFN(row) * w, int64_t oa, int64_t ob,
                       int64_t ua, int64_t ub, GKT *cv, VLANE *cr, const int prop, const int wi)
{
    const int64_t in2 = g->in[2], R = w->R;
    const GT *xp = w->xp;
    int64_t u = ua;
    for (; u < ub && u + 2 * VN <= in2; u += 2 * VN) /* two vectors in flight */
        KFN(lf_lines)(w, u, cv + (u - ua), cr + (u - ua), 2, prop);
    if (u < ub && u + VN <= in2) {
        KFN(lf_lines)(w, u, cv + (u - ua), cr + (u - ua), 1, prop);
        u += VN;
    }
    if (u < ub && in2 >= VN) { /* the row's end: the last VN columns again (cv holds VN columns before ua) */
        const int64_t u1 = in2 - VN;
        KFN(lf_lines)(w, u1, cv + (u1 - ua), cr + (u1 - ua), 1, prop);
        u = ub;
    }
    for (; u < ub; ++u) { /* a row narrower than a vector */
        GKT bk = GKEY(g->neutral);
        VLANE br = GEN_NONE;
        for (int64_t r = 0; r < R; ++r) {
            const GKT k = GKEY(xp[w->ro[r] + u]);
            if (k > bk || (prop && GEN_ISNAN(k))) {
                bk = k;
                br = (VLANE)r;
            }
        }
        cv[u - ua] = bk;
        cr[u - ua] = br;
    }
    for (int64_t o = oa; o < ob; ++o) {
        const int64_t st = g->st[2][o], cnt = g->cn[2][o];
        GKT bk = GKEY(g->init);
        int64_t bs = -1; /* the best's position ro[line] + column, -1: none */
        if (g->fe && cnt > 0) {
            bk = GKEY(xp[w->ro[0] + st]);
            bs = w->ro[0] + st;
        }
        /* branch-free: the compares are data-dependent */
        for (int64_t u2 = st; u2 < st + cnt; ++u2) {
            const VLANE rl = cr[u2 - ua];
            const int valid = rl != GEN_NONE;
            const int64_t pos = w->ro[valid ? rl : 0] + u2;
            const GKT k = cv[u2 - ua];
            const int take = valid & ((k > bk) | ((bs >= 0) & (k == bk) & (pos < bs)) |
                                      (prop & GEN_ISNAN(k) & (!GEN_ISNAN(bk) | (pos > bs))));
            bk = take ? k : bk;
            bs = take ? pos : bs;
        }
        KFN(cf_put)(p, g, w, o, bs < 0 ? g->init : xp[bs], bs, 0, prop, wi);
    }
}

/* Every column of one output row, lines first, in chunks of input columns. */
GAI void KFN(lf_cols)(const struct maxpool_plan *p, const KFN(geo) * g, const KFN(row) * w, const int prop,
                      const int wi)
{
    /* VN columns of margin before the chunk (the row-end vector) and after it */
    alignas(64) GKT cvb[GEN_LF_CAP + 3 * 64];
    alignas(64) VLANE crb[GEN_LF_CAP + 3 * 64];
    GKT *cv = cvb + 64;
    VLANE *cr = crb + 64;
    const int64_t O2 = g->out[2];
    const int64_t *st2 = g->st[2], *cn2 = g->cn[2];
    int64_t o = 0;
    while (o < O2) {
        if (cn2[o] == 0 || cn2[o] > GEN_LF_CAP) { /* no tap, or a window wider than a chunk: scalar */
            KFN(cf_put)(p, g, w, o, g->init, -1, cn2[o] != 0, prop, wi);
            ++o;
            continue;
        }
        const int64_t ua = st2[o];
        int64_t ob = o + 1, ub = st2[o] + cn2[o];
        while (ob < O2 && cn2[ob] > 0 && st2[ob] >= ua && st2[ob] + cn2[ob] - ua <= GEN_LF_CAP) {
            if (st2[ob] + cn2[ob] > ub)
                ub = st2[ob] + cn2[ob];
            ++ob;
        }
        KFN(lf_chunk)(p, g, w, o, ob, ua, ub, cv, cr, prop, wi);
        o = ob;
    }
}

/* Every column of one output row on the grid, stride S. */
GAI void KFN(cf_cols)(const struct maxpool_plan *p, const KFN(geo) * g, const KFN(row) * w, const int S,
                      const int prop, const int wi)
{
    const int64_t O2 = g->out[2], span = S * VN + (g->K - 1) * g->d;
    const int64_t base = w->xp - g->xbeg; /* the plane's offset in the tensor */
    int bi = 0;
    for (int64_t o = 0; o < O2;) {
        const int nb = KFN(cf_kind)(g, o);
        if (nb == 4) {
            KFN(cf_vec)(p, g, w, o, 4, S, prop, wi);
        } else if (nb == 2) {
            KFN(cf_vec)(p, g, w, o, 2, S, prop, wi);
        } else if (nb == 1) {
            KFN(cf_vec)(p, g, w, o, 1, S, prop, wi);
        } else {
            const int64_t nl = O2 - o < VN ? O2 - o : VN, v = g->v0 + o * S;
            if (bi < g->nbm && base + w->ro[0] + v >= 0 && base + w->ro[w->R - 1] + v + span <= g->xlen)
                KFN(cf_bmask)(p, g, w, o, nl, bi, S, prop, wi);
            else
                KFN(cf_border)(p, g, w, o, nl, S, prop, wi);
            ++bi;
        }
        o += (nb ? nb : 1) * VN;
    }
}

GAI void KFN(cf_run)(const struct maxpool_plan *p, const KFN(geo) * g, const GT *x, GT *y, void *ind, int64_t t0,
                     int64_t t1, const int prop, const int wi)
{
    const int64_t rows = g->out[0] * g->out[1], O2 = g->out[2];
    int64_t ro[GEN_LINES_MAX], toff[GEN_TAPS_MAX];
    /* task t = ((n*C + c)*out0 + o0)*out1 + o1, decoded once, then counted */
    int64_t nc = t0 / rows, o0 = t0 % rows / g->out[1], o1 = t0 % rows % g->out[1];
    int64_t cn = nc / p->c, cc = nc % p->c;
    for (int64_t t = t0; t < t1; ++t) {
        if (t > t0 && ++o1 == g->out[1]) {
            o1 = 0;
            if (++o0 == g->out[0]) {
                o0 = 0;
                ++nc;
                if (++cc == p->c) {
                    cc = 0;
                    ++cn;
                }
            }
        }
        KFN(row) w;
        w.xp = x + nc * p->in_spatial;
        w.yoff = t * O2;
        w.yr = y + w.yoff;
        w.ind = ind;
        w.n = cn;
        w.c = cc;
        w.s0 = g->st[0][o0];
        w.c0 = g->cn[0][o0];
        w.s1 = g->st[1][o1];
        w.c1 = g->cn[1][o1];
        w.R = w.c0 * w.c1;
        w.ro = ro;
        w.toff = toff;
        if (w.R == 0 || w.R > GEN_LINES_MAX) { /* no input element, or more lines than the table: scalar */
            for (int64_t o = 0; o < O2; ++o)
                KFN(cf_put)(p, g, &w, o, g->init, -1, w.R != 0, prop, wi);
            continue;
        }
        int64_t r = 0;
        for (int64_t j0 = 0; j0 < w.c0; ++j0)
            for (int64_t j1 = 0; j1 < w.c1; ++j1)
                ro[r++] = ((w.s0 + j0 * g->step[0]) * g->in[1] + w.s1 + j1 * g->step[1]) * g->in[2];
        const int grid = g->grid && g->S <= 2 && (g->K - 1) * g->d <= GEN_SPAN_MAX - 2 * VN &&
                         (!wi || w.R * g->K <= GEN_TAPS_LIMIT);
        if (!grid) {
            if (g->step[2] == 1 && w.R < GEN_TAPS_LIMIT) {
                KFN(lf_cols)(p, g, &w, prop, wi);
            } else { /* every column gathered (scalar for windows of too many taps) */
                for (int64_t o = 0; o < O2; o += VN)
                    KFN(cf_gather)(p, g, &w, o, O2 - o < VN ? O2 - o : VN, prop, wi);
            }
            continue;
        }
        if (wi)
            for (int64_t q = 0; q < w.R; ++q)
                for (int64_t k = 0; k < g->K; ++k)
                    toff[q * g->K + k] = ro[q] + k * g->d;
        if (g->S == 1)
            KFN(cf_cols)(p, g, &w, 1, prop, wi);
        else
            KFN(cf_cols)(p, g, &w, 2, prop, wi);
    }
}

/* cf_run with the NaN rule and index output as constants, out of line: the
 * entry point and the lines-flat form's leftover rows share these. */
__attribute__((noinline)) static void KFN(cf_task)(const struct maxpool_plan *p, const KFN(geo) * g, const GT *x,
                                                   GT *y, void *ind, int64_t t0, int64_t t1, int prop, int wi)
{
    if (GFLOAT && prop) {
        if (wi)
            KFN(cf_run)(p, g, x, y, ind, t0, t1, 1, 1);
        else
            KFN(cf_run)(p, g, x, y, ind, t0, t1, 1, 0);
    } else {
        if (wi)
            KFN(cf_run)(p, g, x, y, ind, t0, t1, 0, 1);
        else
            KFN(cf_run)(p, g, x, y, ind, t0, t1, 0, 0);
    }
}

/* ---- channels-first, W first (values only) ----------------------------- *
 * On the W grid with stride S = 1 or 2 and no indices, the window's max is
 * taken W first, over strips of consecutive input lines of the tensor (the
 * rows of a task range, across planes too, while their lines fit the
 * buffer of GEN_FL_BYTES): each line's W pass once (every grid column's
 * max over its K taps, from the neutral value), in vectors of VN columns
 * read in place at full resolution, the even lanes kept once at the end
 * for stride 2; in a line's first and last vector the taps outside the
 * line become the neutral value through lane masks (fl_m); lines whose
 * vectors would read outside the tensor go the scalar way (fl_went). Then
 * the line pass, one output row after the other: each column's max over
 * its window lines' W results, from the start value. Ties and NaN come out
 * as in the row-major scan: the W pass keeps the first of equal keys and
 * (propagation) the last NaN of a line, the line pass the first line of
 * equal keys and the last line holding a NaN: the first maximum and the
 * last NaN in row-major order (a line without a non-NaN key gives the
 * neutral value, which never counts). The first-element start gives the
 * same result for the integers and under propagation, the first tap being
 * one of the taps, as long as every window has a W tap; without
 * propagation a NaN first tap stays (the reference's scan: nothing is
 * greater than a NaN), so there the rows whose first line holds a NaN
 * (each line is checked once) take each such window's first tap afterwards.
 * Windows of more than GEN_BM_K W taps and padding wider than a vector take
 * the other forms. Scratch: the strip's W results (keys),
 * GEN_FL_BYTES on the stack. */

static void KFN(geo_flat)(KFN(geo) * g, int wi, int prop)
{
    g->fl_wl = 0;
    const int64_t in2 = g->in[2], O2 = g->out[2], S = g->S;
    if (wi || !g->grid || S > 2)
        return;
    if (g->fe)
        for (int64_t o = 0; o < O2; ++o)
            if (g->cn[2][o] == 0)
                return;
    const int64_t wl = O2, nl = ((int64_t)(GEN_FL_BYTES / sizeof(GKT)) - VN) / wl;
    if (nl < 2)
        return;
    const int64_t olast = O2 >= VN ? O2 - VN : 0;
    /* lane masks for K <= GEN_BM_K taps, where the vectors between a line's
     * first and last have every tap inside the line; else the other forms */
    if (g->K > GEN_BM_K ||
        (olast > VN && (g->v0 + S * VN < 0 || g->v0 + S * (olast - 1) + (g->K - 1) * g->d >= in2)))
        return;
    g->fl_wl = wl;
    g->fl_nl = nl;
    g->fl_fenan = GFLOAT && g->fe && !prop;
    for (int m = 0; m < 2; ++m) {
        const int64_t ob = m == 0 ? 0 : olast;
        for (int64_t k = 0; k < g->K; ++k) {
            g->fl_mu[m][k] = 0;
            for (int h = 0; h < 2; ++h) {
                alignas(64) VLANE lv[VN];
                for (int64_t i = 0; i < VN; ++i) {
                    const int64_t f = h * VN + i; /* full-resolution lane: column ob + f/S where f % S == 0 */
                    const int64_t pos = g->v0 + S * ob + f + k * g->d;
                    const int used = f % S == 0 && ob + f / S < O2;
                    const int in = pos >= 0 && pos < in2;
                    lv[i] = !used || in ? GEN_NONE : 0;
                    if (h < S && used && !in)
                        g->fl_mu[m][k] = 1;
                }
                g->fl_m[m][h][k] = VM_LANES(lv);
            }
        }
    }
}

/* The W result of column o of the input line xl, the scalar way. */
static GKT KFN(fl_went)(const KFN(geo) * g, const GT *xl, int64_t o, int prop)
{
    GKT b = GKEY(g->neutral);
    for (int64_t k = 0; k < g->K; ++k) {
        const int64_t pos = g->v0 + g->S * o + k * g->d;
        if (pos >= 0 && pos < g->in[2]) {
            const GKT v = GKEY(xl[pos]);
            if (v > b || (prop && GEN_ISNAN(v)))
                b = v;
        }
    }
    return b;
}

/* The W results of grid columns [0, O2) of the tensor's lines [ga, gb) to
 * wb (line stride fl_wl). Each line in vectors of VN columns (the last
 * vector of a line again over the line's last VN columns), taps read in
 * place; in the line's first and last vector, taps outside the line
 * become the neutral value through the lane masks fl_m. A line whose
 * vectors would read outside the tensor (or that has no masks: K >
 * GEN_BM_K) goes the scalar way. */
/* One vector of W results at column o of the line xl: taps read in place,
 * those outside the line (first and last vector: m = 0, 1) made neutral
 * through the masks; K a constant where the caller can make it one. */
GAI VT KFN(fl_wvec)(const KFN(geo) * g, const GT *xl, int64_t o, const int64_t K, const int m, const int S,
                    const int prop)
{
    const int64_t d = g->d;
    const VT nv = V_SET1(g->neutral);
    const int z = GFLOAT && !prop; /* without propagation a NaN must not enter: max(x, -inf) drops it */
    const GT *q = xl + g->v0 + S * o;
    VT a = V_LOAD(q), b = S == 2 ? V_LOAD(q + VN) : a;
    if (m < 2 && g->fl_mu[m][0]) {
        a = V_SEL(nv, a, g->fl_m[m][0][0]);
        if (S == 2)
            b = V_SEL(nv, b, g->fl_m[m][1][0]);
    }
    if (z) {
        a = V_MAX(nv, a);
        if (S == 2)
            b = V_MAX(nv, b);
    }
    for (int64_t k = 1; k < K; ++k) {
        VT ta = V_LOAD(q + k * d), tb = S == 2 ? V_LOAD(q + VN + k * d) : ta;
        if (m < 2 && g->fl_mu[m][k]) {
            ta = V_SEL(nv, ta, g->fl_m[m][0][k]);
            if (S == 2)
                tb = V_SEL(nv, tb, g->fl_m[m][1][k]);
        }
        a = prop ? V_MAXP(a, ta) : V_MAX(a, ta);
        if (S == 2)
            b = prop ? V_MAXP(b, tb) : V_MAX(b, tb);
    }
    return S == 2 ? V_EVEN(a, b) : a;
}

/* A line's first (m = 0) or last (m = 1) vector of W results to dst, out of
 * line: each specialised caller calls this one function (build time). */
__attribute__((noinline)) static void KFN(fl_wedge)(const KFN(geo) * g, const GT *xl, GKT *dst, int64_t o, int m,
                                                    int S, int prop)
{
    const int64_t K = g->K;
    if (S == 1)
        VK_STORE(dst + o, prop ? KFN(fl_wvec)(g, xl, o, K, m, 1, 1) : KFN(fl_wvec)(g, xl, o, K, m, 1, 0));
    else
        VK_STORE(dst + o, prop ? KFN(fl_wvec)(g, xl, o, K, m, 2, 1) : KFN(fl_wvec)(g, xl, o, K, m, 2, 0));
}

/* The vectors between a line's first and last, K taps each. */
GAI void KFN(fl_wmid)(const KFN(geo) * g, const GT *xl, GKT *dst, int64_t olast, const int64_t K, const int S,
                      const int prop)
{
    for (int64_t o = VN; o < olast; o += VN)
        VK_STORE(dst + o, KFN(fl_wvec)(g, xl, o, K, 2, S, prop));
}

/* The W results of grid columns [0, O2) of the tensor's lines [ga, gb) to
 * wb (line stride fl_wl). Each line in vectors of VN columns (the last
 * vector of a line again over the line's last VN columns), taps read in
 * place; in the line's first and last vector, taps outside the line
 * become the neutral value through the lane masks fl_m. A line whose
 * vectors would read outside the tensor (or that has no masks: K >
 * GEN_BM_K) goes the scalar way. */
GAI void KFN(fl_wpass)(const KFN(geo) * g, const GT *x, int64_t ga, int64_t gb, GKT *wb, const int S, const int prop)
{
    const int64_t wl = g->fl_wl, in2 = g->in[2], K = g->K, d = g->d, v0 = g->v0, O2 = g->out[2];
    const int64_t olast = O2 >= VN ? O2 - VN : 0; /* the last vector's first column */
    const int64_t lo = v0, hi = v0 + S * olast + S * VN + (K - 1) * d; /* a line's reads [lo, hi) */
    for (int64_t l = ga; l < gb; ++l) {
        const GT *xl = x + l * in2;
        GKT *dst = wb + (l - ga) * wl;
        if (l * in2 + lo < 0 || l * in2 + hi > g->xlen) { /* (the tensor's first or last lines) */
            for (int64_t o = 0; o < O2; ++o)
                dst[o] = KFN(fl_went)(g, xl, o, prop);
            continue;
        }
        if (K == 3 && d == 1) { /* the common window: taps unrolled, edges inline */
            VK_STORE(dst, KFN(fl_wvec)(g, xl, 0, 3, 0, S, prop));
            KFN(fl_wmid)(g, xl, dst, olast, 3, S, prop);
            if (olast > 0)
                VK_STORE(dst + olast, KFN(fl_wvec)(g, xl, olast, 3, 1, S, prop));
            continue;
        }
        KFN(fl_wedge)(g, xl, dst, 0, 0, S, prop);
        KFN(fl_wmid)(g, xl, dst, olast, K, S, prop);
        if (olast > 0)
            KFN(fl_wedge)(g, xl, dst, olast, 1, S, prop);
    }
}

/* Lines [*ga, *ge) of the tensor that task (nc, o0, o1) reads; its line count. */
GAI int64_t KFN(fl_span)(const struct maxpool_plan *p, const KFN(geo) * g, int64_t nc, int64_t o0, int64_t o1,
                         int64_t *ga, int64_t *ge)
{
    const int64_t c0 = g->cn[0][o0], c1 = g->cn[1][o1];
    const int64_t l0 = nc * g->in[0] + g->st[0][o0], l1 = g->st[1][o1];
    (void)p;
    *ga = l0 * g->in[1] + l1;
    *ge = (l0 + (c0 > 0 ? c0 - 1 : 0) * g->step[0]) * g->in[1] + l1 + (c1 > 0 ? c1 - 1 : 0) * g->step[1] + 1;
    return c0 * c1;
}

/* The line pass over R lines lp[] at column o. */
GAI VT KFN(fl_hvec)(const KFN(geo) * g, const GKT *const *lp, int64_t o, const int64_t R, const int prop)
{
    const VT h0 = VK_LOAD(lp[0] + o);
    VT best = g->fe ? h0 : prop ? V_MAXP(V_SET1(g->init), h0) : V_MAX(V_SET1(g->init), h0);
    for (int64_t q = 1; q < R; ++q)
        best = prop ? V_MAXP(best, VK_LOAD(lp[q] + o)) : V_MAX(best, VK_LOAD(lp[q] + o));
    return best;
}

/* One output row (task t = (nc, o0, o1)) from the W results wb of lines from ga. */
GAI void KFN(fl_hrow)(const struct maxpool_plan *p, const KFN(geo) * g, const GT *x, GT *y, int64_t t, int64_t nc,
                      int64_t o0, int64_t o1, const GKT *wb, int64_t ga, const int prop)
{
    const int64_t O2 = g->out[2], wl = g->fl_wl;
    const int64_t c0 = g->cn[0][o0], c1 = g->cn[1][o1], R = c0 * c1;
    const int64_t l0 = nc * g->in[0] + g->st[0][o0], l1 = g->st[1][o1];
    const GKT *lp[GEN_LINES_MAX];
    int64_t r = 0;
    for (int64_t j0 = 0; j0 < c0; ++j0)
        for (int64_t j1 = 0; j1 < c1; ++j1)
            lp[r++] = wb + ((l0 + j0 * g->step[0]) * g->in[1] + l1 + j1 * g->step[1] - ga) * wl;
    GT *yr = y + t * O2;
    int64_t o = 0;
    uint64_t fix = 0; /* f16: some lane is NaN (V_NANFIX) */
    VT best;
    if (R == 3)
        for (; o + VN <= O2; o += VN) {
            best = KFN(fl_hvec)(g, lp, o, 3, prop);
            fix |= (uint64_t)V_NANFIX(best);
            V_STORE(yr + o, best);
        }
    else
        for (; o + VN <= O2; o += VN) {
            best = KFN(fl_hvec)(g, lp, o, R, prop);
            fix |= (uint64_t)V_NANFIX(best);
            V_STORE(yr + o, best);
        }
    if (o < O2) { /* the row's last VN columns again, or a row narrower than a vector */
        const int64_t ob = O2 >= VN ? O2 - VN : 0, nl = O2 - ob;
        best = KFN(fl_hvec)(g, lp, ob, R, prop);
        fix |= (uint64_t)V_NANFIX(best);
        if (nl == VN)
            V_STORE(yr + ob, best);
        else
            V_STOREN(yr + ob, best, nl);
    }
#if GEN_TYPE == GEN_F16
    if (fix) { /* NaN results the conversion may have quieted: the scalar scan */
        KFN(row) w;
        w.xp = x + nc * p->in_spatial;
        w.yr = yr;
        w.ind = NULL;
        w.yoff = t * O2;
        w.n = w.c = 0;
        w.s0 = g->st[0][o0];
        w.c0 = c0;
        w.s1 = g->st[1][o1];
        w.c1 = c1;
        w.R = R;
        for (int64_t q = 0; q < O2; ++q)
            if ((yr[q] & 0x7FFFu) > 0x7C00u)
                KFN(cf_put)(p, g, &w, q, yr[q], -1, 1, prop, 0);
    }
#else
    (void)fix;
    (void)x;
    (void)p;
    (void)nc;
#endif
}

#if GFLOAT
/* Whether the input line xl holds a NaN (fl_fenan). */
__attribute__((noinline)) static int KFN(fl_linenan)(const KFN(geo) * g, const GT *xl)
{
    const int64_t n = g->in[2];
    if (n < VN) {
        for (int64_t i = 0; i < n; ++i)
            if (GEN_ISNAN(GKEY(xl[i])))
                return 1;
        return 0;
    }
    VT acc = V_LOAD(xl + n - VN); /* NaN lanes stay NaN under V_MAXP */
    for (int64_t i = 0; i + VN <= n; i += VN)
        acc = V_MAXP(acc, V_LOAD(xl + i));
    alignas(64) GKT k[VN];
    VK_STORE(k, acc);
    for (int i = 0; i < VN; ++i)
        if (GEN_ISNAN(k[i]))
            return 1;
    return 0;
}

/* Output row t (task (nc, o0, o1)) under the first-element start without
 * propagation, its first line holding a NaN: each window whose first tap
 * is a NaN takes that tap (the reference's scan keeps it). */
__attribute__((noinline)) static void KFN(fl_fefix)(const struct maxpool_plan *p, const KFN(geo) * g, const GT *x,
                                                    GT *y, int64_t t, int64_t nc, int64_t o0, int64_t o1)
{
    const GT *xl = x + nc * p->in_spatial + (g->st[0][o0] * g->in[1] + g->st[1][o1]) * g->in[2];
    GT *yr = y + t * g->out[2];
    for (int64_t o = 0; o < g->out[2]; ++o) {
        const GT v = xl[g->st[2][o]]; /* every window has a W tap here (geo_flat) */
        if (GEN_ISNAN(GKEY(v)))
            yr[o] = v;
    }
}
#endif

/* Tasks [t0, t1) in strips of at most fl_nl input lines. */
GAI void KFN(fl_run)(const struct maxpool_plan *p, const KFN(geo) * g, const GT *x, GT *y, int64_t t0, int64_t t1,
                     const int S, const int prop)
{
    alignas(64) GKT wb[GEN_FL_BYTES / sizeof(GKT) + VN]; /* VN: the line pass's last vector may read past a line */
#if GFLOAT
    unsigned char nanf[GEN_FL_BYTES / 4]; /* fl_fenan: the strip's lines holding a NaN (fl_nl <= this: keys >= 4 bytes) */
#endif
    const int64_t O0 = g->out[0], O1 = g->out[1], rows = O0 * O1, nlmax = g->fl_nl;
    int64_t t = t0;
    while (t < t1) {
        int64_t nc = t / rows, o0 = t % rows / O1, o1 = t % rows % O1, ga, ge;
        const int64_t R = KFN(fl_span)(p, g, nc, o0, o1, &ga, &ge);
        if (R == 0 || R > GEN_LINES_MAX || ge - ga > nlmax) { /* the other forms */
            KFN(cf_task)(p, g, x, y, NULL, t, t + 1, prop, 0);
            ++t;
            continue;
        }
        /* the strip: the next tasks while their lines fit */
        int64_t te = t + 1, n2 = nc, p0 = o0, p1 = o1;
        while (te < t1) {
            if (++p1 == O1) {
                p1 = 0;
                if (++p0 == O0) {
                    p0 = 0;
                    ++n2;
                }
            }
            int64_t a2, e2;
            const int64_t R2 = KFN(fl_span)(p, g, n2, p0, p1, &a2, &e2);
            if (R2 == 0 || R2 > GEN_LINES_MAX || a2 < ga || e2 - ga > nlmax) /* (dilated windows: starts may go back) */
                break;
            ge = e2 > ge ? e2 : ge;
            ++te;
        }
        KFN(fl_wpass)(g, x, ga, ge, wb, S, prop);
#if GFLOAT
        if (g->fl_fenan)
            for (int64_t l = ga; l < ge; ++l)
                nanf[l - ga] = (unsigned char)KFN(fl_linenan)(g, x + l * g->in[2]);
#endif
        for (; t < te; ++t) {
            KFN(fl_hrow)(p, g, x, y, t, nc, o0, o1, wb, ga, prop);
#if GFLOAT
            if (g->fl_fenan && nanf[(nc * g->in[0] + g->st[0][o0]) * g->in[1] + g->st[1][o1] - ga])
                KFN(fl_fefix)(p, g, x, y, t, nc, o0, o1);
#endif
            if (++o1 == O1) {
                o1 = 0;
                if (++o0 == O0) {
                    o0 = 0;
                    ++nc;
                }
            }
        }
    }
}

/* ---- entry points: the NaN rule and index output as constants ----------- */

void KFN(nchw)(const struct maxpool_plan *p, const void *x, void *y, void *ind, int64_t t0, int64_t t1)
{
    KFN(geo) g;
    KFN(geo_init)(p, &g);
    g.xbeg = (const GT *)x;
    g.xlen = p->n * p->c * p->in_spatial;
    KFN(geo_masks)(&g);
    const int wi = p->desc.index_type != MAXPOOL_INDEX_NONE && ind != NULL;
    KFN(geo_flat)(&g, wi, GFLOAT && p->nan_propagate);
    if (g.fl_wl) {
        if (GFLOAT && p->nan_propagate) {
            if (g.S == 1)
                KFN(fl_run)(p, &g, x, y, t0, t1, 1, 1);
            else
                KFN(fl_run)(p, &g, x, y, t0, t1, 2, 1);
        } else {
            if (g.S == 1)
                KFN(fl_run)(p, &g, x, y, t0, t1, 1, 0);
            else
                KFN(fl_run)(p, &g, x, y, t0, t1, 2, 0);
        }
        return;
    }
    KFN(cf_task)(p, &g, x, y, ind, t0, t1, GFLOAT && p->nan_propagate, wi);
}

void KFN(nhwc)(const struct maxpool_plan *p, const void *x, void *y, void *ind, int64_t t0, int64_t t1)
{
    KFN(geo) g;
    KFN(geo_init)(p, &g);
    const int wi = p->desc.index_type != MAXPOOL_INDEX_NONE && ind != NULL;
    if (GFLOAT && p->nan_propagate) {
        if (wi)
            KFN(cl_run)(p, &g, x, y, ind, t0, t1, 1, 1);
        else
            KFN(cl_run)(p, &g, x, y, ind, t0, t1, 1, 0);
    } else {
        if (wi)
            KFN(cl_run)(p, &g, x, y, ind, t0, t1, 0, 1);
        else
            KFN(cl_run)(p, &g, x, y, ind, t0, t1, 0, 0);
    }
}
