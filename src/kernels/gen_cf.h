/* SPDX-License-Identifier: Apache-2.0 */
/* The type-generic kernels (gen_impl.h): channels-first, the per-tap form's
 * pieces (one output row: in-place vectors, masked and copied border
 * blocks, gathered taps). Included once by gen_impl.h. */

/* ---- channels-first ----------------------------------------------------- */

/* One output row of one (n, c) plane. */
typedef struct KFN(row) {
    const GT *xp; /* the input plane */
    GT *yr;       /* the output row */
    void *ind;
    int64_t yoff, n, c; /* yoff: offset of yr[0] in the output (and indices) */
    int64_t s0, c0, s1, c1, R; /* its window lines: axis-0 and axis-1 start and count, R = c0*c1 */
    const int64_t *ro;   /* [R] the lines' offsets in the plane */
    const int64_t *toff; /* [R*K] regular tap t = r*K + k: ro[r] + k*d - tb (with indices) */
    int64_t tb;          /* toff's base (cf_run: ro[0], the table the same for rows of the same line counts) */
    int64_t ib;          /* GEN_CFPOS with indices: n*idx_n + c*idx_c + tb + v0, column o's lane base + o*S */
    int i32;             /* int32 indices */
} KFN(row);

/* The per-tap form's VI lanes with indices: with 32-bit lanes (the vector
 * layer's VI_POS_* ops) each lane holds its winner's window position,
 * toff[t] (below 2^32 - 1, cf_run), so the store adds the row's base and
 * needs no table; else the tap number t, turned into a position through
 * toff[] by cfi_store (gen_cfi.h). */
#ifdef VI_POS_ST64
#define GEN_CFPOS 1
#else
#define GEN_CFPOS 0
#endif
/* The lane value of tap t (tv: the row's toff, read with indices only) */
#define GEN_TV(tv, t, wi) (GEN_CFPOS && (wi) ? (tv)[t] : (t))

/* Output row t of plane nc (n*C + c), window rows (o0, o1): its plane,
 * output and window lines (the caller sets n, c, ro, toff). */
GAI void KFN(row_set)(const struct maxpool_plan *p, const KFN(geo) * g, KFN(row) * w, const GT *x, GT *y, void *ind,
                      int64_t t, int64_t nc, int64_t o0, int64_t o1)
{
    w->xp = x + nc * p->in_spatial;
    w->yoff = t * g->out[2];
    w->yr = y + w->yoff;
    w->ind = ind;
    w->s0 = g->st[0][o0];
    w->c0 = g->cn[0][o0];
    w->s1 = g->st[1][o1];
    w->c1 = g->cn[1][o1];
    w->R = w->c0 * w->c1;
    w->tb = 0;
}

/* The row loops' task cursor (cf_task, cfs_task): task t = ((n*C + c)*out0
 * + o0)*out1 + o1 decoded once at the first task, then counted. */
typedef struct KFN(tcur) {
    int64_t nc, o0, o1, n, c;
} KFN(tcur);

GAI void KFN(tcur_init)(const struct maxpool_plan *p, const KFN(geo) * g, KFN(tcur) * k, int64_t t0)
{
    const int64_t rows = g->out[0] * g->out[1];
    k->nc = t0 / rows;
    k->o0 = t0 % rows / g->out[1];
    k->o1 = t0 % rows % g->out[1];
    k->n = k->nc / p->c;
    k->c = k->nc % p->c;
}

/* Row t (the cursor's task; next: advance the cursor first) into w, with its n and c. */
GAI void KFN(tcur_row)(const struct maxpool_plan *p, const KFN(geo) * g, KFN(tcur) * k, int next, KFN(row) * w,
                       const GT *x, GT *y, void *ind, int64_t t)
{
    if (next && ++k->o1 == g->out[1]) {
        k->o1 = 0;
        if (++k->o0 == g->out[0]) {
            k->o0 = 0;
            ++k->nc;
            if (++k->c == p->c) {
                k->c = 0;
                ++k->n;
            }
        }
    }
    KFN(row_set)(p, g, w, x, y, ind, t, k->nc, k->o0, k->o1);
    w->n = k->n;
    w->c = k->c;
}

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

static void KFN(cfi_store)(const struct maxpool_plan *p, const KFN(geo) * g, const KFN(row) * w, int64_t o0,
                           int64_t nl, VT best, VI bt, int prop);

/* Tap at q of VN grid columns S apart (S = 1 or 2). */
#define GEN_TAP(q, S) ((S) == 1 ? V_LOAD(q) : V_EVEN(V_LOAD(q), V_LOAD((q) + VN)))
/* The same in the vector layer's lane order (V_EVEN_L: stride 2 without the
 * cross-lane permute; the lanes put back once, V_LORD / VI_LORD, by cf_vec) */
#ifndef V_EVEN_L
#define V_EVEN_L(a, b) V_EVEN(a, b)
#define V_LORD(v) (v)
#define VI_LORD(v) (v)
#endif
#define GEN_TAP_L(q, S) ((S) == 1 ? V_LOAD(q) : V_EVEN_L(V_LOAD(q), V_LOAD((q) + VN)))

/* The K taps of one window line (line base xr, tap numbers t0 + k, their
 * lane values GEN_TV(tv, t0 + k)) for NB vectors of grid columns; lo: the
 * lanes in the vector layer's order (GEN_TAP_L). */
GAI void KFN(cf_line)(VT *best, VI *bt, const GT *xr, const int64_t *tv, int64_t t0, int64_t K, int64_t d,
                      const int NB, const int S, const int lo, const int prop, const int wi)
{
    for (int64_t k = 0; k < K; ++k)
        GEN_UNROLL
        for (int v = 0; v < NB; ++v) {
            const GT *q = xr + k * d + v * VN * S;
            KFN(upd)(&best[v], &bt[v], lo ? GEN_TAP_L(q, S) : GEN_TAP(q, S), GEN_TV(tv, t0 + k, wi), prop, wi);
        }
}

/* Stores lanes [0, nl) of NB vectors of grid columns from ob on. */
GAI void KFN(cf_store)(const struct maxpool_plan *p, const KFN(geo) * g, const KFN(row) * w, int64_t ob,
                       int64_t nl, const VT *best, const VI *bt, const int NB, const int S, const int prop,
                       const int wi)
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
#if GEN_CFPOS
        if (wi && nl == VN && !fix && !VI_POS_NONE(bt[v])) { /* positions in the lanes: the indices in line */
            V_STORE(w->yr + o0, best[v]);
            if (w->i32)
                VI_POS_ST32((int32_t *)w->ind + w->yoff + o0, bt[v], w->ib + o0 * S, S);
            else
                VI_POS_ST64((int64_t *)w->ind + w->yoff + o0, bt[v], w->ib + o0 * S, S);
            continue;
        }
#endif
        if (wi) { /* out of line (gen_cfi.h) */
            KFN(cfi_store)(p, g, w, o0, nl, best[v], bt[v], prop);
            continue;
        }
        alignas(64) GT vals[VN];
        alignas(64) VLANE lt[VN];
        V_STORE(vals, best[v]);
        if (wi)
            VI_STORE(lt, bt[v]);
        for (int l = 0; l < nl; ++l) {
            const int64_t o = o0 + l;
            const int64_t s = !wi || lt[l] == GEN_NONE ? -1 : w->toff[lt[l]] + w->tb + g->v0 + o * g->S;
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
            best[v] = GEN_TAP_L(xb + w->ro[0] + v * VN * S, S);
            bt[v] = VI_SET1(0);
        } else {
            best[v] = V_SET1(g->init);
            bt[v] = VI_SET1(GEN_NONE);
        }
    }
    for (int64_t r = 0; r < w->R; ++r)
        KFN(cf_line)(best, bt, xb + w->ro[r], w->toff, r * K, K, d, NB, S, 1, prop, wi);
    if (S == 2) /* (the lanes in column order again) */
        GEN_UNROLL
        for (int v = 0; v < NB; ++v) {
            best[v] = V_LORD(best[v]);
            if (wi)
                bt[v] = VI_LORD(bt[v]);
        }
    KFN(cf_store)(p, g, w, ob, VN, best, bt, NB, S, prop, wi);
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
            lt[l] = first ? (VLANE)(GEN_CFPOS ? st2[l] - (v + l * S) : (st2[l] - (v + l * S)) / d) : GEN_NONE;
        }
        best[0] = V_LOAD(buf);
        memcpy(&bt[0], lt, sizeof bt[0]);
    }
    for (int64_t r = 0; r < w->R; ++r) {
        if (e > a)
            memcpy(sb + (a - v), w->xp + w->ro[r] + a, (size_t)(e - a) * sizeof(GT));
        KFN(cf_line)(best, bt, sb, w->toff, r * K, K, d, 1, S, 0, prop, wi);
    }
    KFN(cf_store)(p, g, w, ob, nl, best, bt, 1, S, prop, wi);
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
    int64_t r = 0;
    if (g->fe) { /* line 0: each lane's first tap comes in whatever it holds */
        for (int64_t k = 0; k < K; ++k) {
            const VT x = V_SEL(nv, GEN_TAP(xb + w->ro[0] + k * d, S), g->bvalid[bi][k]);
            const VM f = g->bfirst[bi][k];
            if (!wi) {
                best[0] = V_SEL(prop ? V_MAXP(best[0], x) : V_MAX(best[0], x), x, f);
            } else {
                VM m = VM_OR(V_GTM(x, best[0]), f);
                if (prop)
                    m = VM_OR(m, V_NANM(x));
                best[0] = V_SEL(best[0], x, m);
                bt[0] = VI_SEL(bt[0], VI_SET1(GEN_TV(w->toff, k, wi)), m);
            }
        }
        r = 1;
    }
    for (; r < w->R; ++r) {
        const GT *xr = xb + w->ro[r];
        for (int64_t k = 0; k < K; ++k)
            KFN(upd)(&best[0], &bt[0], V_SEL(nv, GEN_TAP(xr + k * d, S), g->bvalid[bi][k]), GEN_TV(w->toff, r * K + k, wi),
                     prop, wi);
    }
    KFN(cf_store)(p, g, w, ob, nl, best, bt, 1, S, prop, wi);
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
