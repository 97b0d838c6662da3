/* SPDX-License-Identifier: Apache-2.0 */
/* The type-generic kernels (gen_impl.h): the vector-layer glue, the plan's
 * geometry as the kernels read it (KFN(geo)), index output and the scalar
 * fold. Included once by gen_impl.h. */

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
/* Taps a lane's tap number counts (0 .. limit-1) with GEN_NONE still distinct: GEN_NONE itself for 8-bit
 * lanes, else GEN_TAPS_MAX (compared unsigned: GEN_NONE of 64-bit lanes is -1 as an int64_t) */
#define GEN_TAPS_LIMIT ((uint64_t)GEN_NONE < GEN_TAPS_MAX ? (int64_t)GEN_NONE : GEN_TAPS_MAX)

/* The start value (the plan's) and the neutral value (never replaces
 * anything: -inf, or the lowest integer) of the type. */
#if GEN_TYPE == GEN_F64
#define GEN_INIT(p) ((p)->init.f64)
#define GEN_NEUTRAL (-__builtin_inf())
#elif GEN_TYPE == GEN_F32
#define GEN_INIT(p) ((p)->init.f32)
#define GEN_NEUTRAL (-__builtin_inff())
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

/* The W-first form's lane masks of a line's first (0) and last (1) vector,
 * per half (stride 2) and tap: m lanes whose tap lies inside the line; mu:
 * some lane does not (gen_fl.h). */
typedef struct KFN(flm) {
    VM m[2][2][GEN_BM_K];
    char mu[2][GEN_BM_K];
} KFN(flm);

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
    /* its lane masks of the first (0) and last (1) vector of a line: for
     * tap k, the full-resolution lanes (half h of 2*VN for stride 2) whose
     * tap lies inside the line */
    KFN(flm) fl_mk;
    int fl_pb;    /* stride 1: the W pass over padded line copies (fl_wlines1) */
    int fl_fenan; /* first-element start without propagation (floats): a NaN first tap stays */
    /* the W-first form with indices (gen_fli.h): lines per strip, lane
     * masks of a line's first (0) and last (1) vector of grid columns for
     * tap k (the lanes whose tap lies inside the line), fli_mu: some lane's
     * does not */
    int64_t fli_nl;
    char fli_mu[2][GEN_BM_K];
    VM fli_m[2][GEN_BM_K];
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
    } else if (w->out >= 2 && w->start[0] == 0) {
        /* adaptive windows that are a regular grid all the same (e.g. 13 -> 6: [2o, 2o + 3), K 3 S 2, as
         * in = S*(out - 1) + K): the grid forms take them */
        const int64_t K = w->count[0], S = w->start[1];
        int reg = S >= 1 && K >= 1;
        for (int64_t o = 0; o < w->out && reg; ++o)
            reg = w->start[o] == o * S && w->count[o] == K;
        if (reg) {
            g->grid = 1;
            g->K = K;
            g->S = S;
        }
    }
}

/* The index of (n, c, s), s >= 0 a row-major spatial offset; s < 0: the
 * empty-window index of the window whose first taps are (s0, s1, s2). */
/* Whether every window of axis a (1: H, 2: W) has a tap. */
static int KFN(geo_taps)(const KFN(geo) * g, int a)
{
    for (int64_t o = 0; o < g->out[a]; ++o)
        if (g->cn[a][o] == 0)
            return 0;
    return 1;
}

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
