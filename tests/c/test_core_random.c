/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Randomised cases: the library against a deliberately naive N-D max pool
 * written here with a different algorithm.
 *
 * The naive model
 *   - computes the output sizes itself, from the spec texts' formulas, by
 *     counting window positions (no division): floor keeps the windows that
 *     end inside the padded input, ceil the ones whose start is less than one
 *     stride past the last floor window, ceil_torch drops a last window that
 *     starts in the end padding, SAME pads for ceil(in/stride) windows with the
 *     odd pad at the end (upper) or start (lower), and the size then follows
 *     the rounding (OpenVINO: SAME + ceil can add a window); adaptive windows come from
 *     searching the smallest/largest integer bounds;
 *   - materialises the padded tensor as a map padded cell -> input element,
 *     with padding cells marked absent;
 *   - for every output, walks all kernel taps with an odometer over the
 *     padded tensor (row-major, last axis fastest), skipping absent cells,
 *     and applies the update rule of maxpool.h;
 *   - computes every index from logical coordinates (N, C, D1..Dn) whatever
 *     the memory layout; the running max starts at the start value with the
 *     empty index (-1, the first tap at or after 0 on every axis, or the
 *     plane's first element), which a window keeps when nothing beats it;
 *     with window_init FIRST_ELEMENT the first element scanned always
 *     replaces the start (NaN included).
 *
 * Each case runs two plans (1 thread / AUTO ISA, and 3 threads / a random ISA
 * ceiling); both must match the model bit for bit, NaN payloads included.
 * MAXPOOL_TEST_SEED and MAXPOOL_TEST_CASES override the seed and case count.
 */
#include "maxpool.h"
#include "test_support.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_OUT 256 /* per axis, for the adaptive window tables */
#define GUARD 64    /* bytes after each output buffer that must stay untouched */

/* ------------------------------------------------------------------------ */
/* Element types as the model sees them                                     */
/* ------------------------------------------------------------------------ */

static int is_float(maxpool_dtype t) { return t <= MAXPOOL_BF16; }

static size_t esize(maxpool_dtype t)
{
    static const size_t s[] = {4, 8, 2, 2, 1, 1, 2, 2, 4, 8};
    return s[t];
}

/* A comparison key: floats exactly as double, integers as int64. */
typedef struct key {
    double f;
    int64_t i;
    int nan;
} key;

static key key_of(maxpool_dtype t, uint64_t bits)
{
    key k = {0, 0, 0};
    switch (t) {
    case MAXPOOL_F32: { uint32_t u = (uint32_t)bits; float f; memcpy(&f, &u, 4); k.f = f; break; }
    case MAXPOOL_F64: { double d; memcpy(&d, &bits, 8); k.f = d; break; }
    case MAXPOOL_F16: k.f = ts_f16_to_f32((uint16_t)bits); break;
    case MAXPOOL_BF16: k.f = ts_bf16_to_f32((uint16_t)bits); break;
    case MAXPOOL_I8: k.i = (int8_t)(uint8_t)bits; break;
    case MAXPOOL_U8: k.i = (uint8_t)bits; break;
    case MAXPOOL_I16: k.i = (int16_t)(uint16_t)bits; break;
    case MAXPOOL_U16: k.i = (uint16_t)bits; break;
    case MAXPOOL_I32: k.i = (int32_t)(uint32_t)bits; break;
    case MAXPOOL_I64: k.i = (int64_t)bits; break;
    default: break;
    }
    if (is_float(t))
        k.nan = isnan(k.f);
    return k;
}

static int key_gt(maxpool_dtype t, key a, key b) { return is_float(t) ? a.f > b.f : a.i > b.i; }

/* The start value's bits, written out per type. */
static uint64_t start_bits(maxpool_dtype t, maxpool_empty_value ev)
{
    const int inf = ev == MAXPOOL_EMPTY_NEG_INF;
    switch (t) {
    case MAXPOOL_F32: return inf ? 0xFF800000u : 0xFF7FFFFFu;
    case MAXPOOL_F64: return inf ? 0xFFF0000000000000ull : 0xFFEFFFFFFFFFFFFFull;
    case MAXPOOL_F16: return inf ? 0xFC00u : 0xFBFFu;
    case MAXPOOL_BF16: return inf ? 0xFF80u : 0xFF7Fu;
    case MAXPOOL_I8: return 0x80u;
    case MAXPOOL_U8: return 0;
    case MAXPOOL_I16: return 0x8000u;
    case MAXPOOL_U16: return 0;
    case MAXPOOL_I32: return 0x80000000u;
    case MAXPOOL_I64: return 0x8000000000000000ull;
    default: return 0;
    }
}

static void put_bits(void *base, int64_t i, size_t es, uint64_t bits)
{
    unsigned char *p = (unsigned char *)base + (size_t)i * es;
    switch (es) {
    case 1: { uint8_t v = (uint8_t)bits; memcpy(p, &v, 1); break; }
    case 2: { uint16_t v = (uint16_t)bits; memcpy(p, &v, 2); break; }
    case 4: { uint32_t v = (uint32_t)bits; memcpy(p, &v, 4); break; }
    case 8: memcpy(p, &bits, 8); break;
    }
}

/* ------------------------------------------------------------------------ */
/* Value palettes: few distinct values so ties are common                    */
/* ------------------------------------------------------------------------ */

static uint64_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static uint64_t f64_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

/* A value of type t as bits from a "float-ish" choice. */
static uint64_t float_value(maxpool_dtype t, float v)
{
    switch (t) {
    case MAXPOOL_F32: return f32_bits(v);
    case MAXPOOL_F64: return f64_bits((double)v);
    case MAXPOOL_F16: return ts_f32_to_f16(v);
    case MAXPOOL_BF16: return ts_f32_to_bf16(v);
    default: return 0;
    }
}

/* Special float bit patterns: NaNs with payloads and signs, lowest, subnormals. */
static uint64_t special_float(maxpool_dtype t, ts_rng *r)
{
    static const uint32_t f32s[] = {0x7FC00000u, 0xFFC00000u, 0x7FC00001u, 0x7F800001u /* sNaN */, 0xFFFFFFFFu,
                                    0xFF7FFFFFu /* lowest */, 0x7F7FFFFFu, 0x00000001u, 0x80000001u};
    static const uint64_t f64s[] = {0x7FF8000000000000ull, 0xFFF8000000000000ull, 0x7FF8000000000005ull,
                                    0x7FF0000000000001ull, 0xFFEFFFFFFFFFFFFFull, 0x7FEFFFFFFFFFFFFFull,
                                    0x0000000000000001ull, 0x8000000000000001ull};
    static const uint16_t f16s[] = {0x7E00u, 0xFE00u, 0x7E01u, 0x7C01u, 0xFBFFu, 0x7BFFu, 0x0001u, 0x8001u};
    static const uint16_t bf16s[] = {0x7FC0u, 0xFFC0u, 0x7FC1u, 0x7F81u, 0xFF7Fu, 0x7F7Fu, 0x0001u, 0x8001u};
    switch (t) {
    case MAXPOOL_F32: return f32s[ts_rng_range(r, 0, 8)];
    case MAXPOOL_F64: return f64s[ts_rng_range(r, 0, 7)];
    case MAXPOOL_F16: return f16s[ts_rng_range(r, 0, 7)];
    case MAXPOOL_BF16: return bf16s[ts_rng_range(r, 0, 7)];
    default: return 0;
    }
}

static uint64_t int_value(maxpool_dtype t, ts_rng *r)
{
    int64_t lo, hi;
    switch (t) {
    case MAXPOOL_I8: lo = INT8_MIN; hi = INT8_MAX; break;
    case MAXPOOL_U8: lo = 0; hi = UINT8_MAX; break;
    case MAXPOOL_I16: lo = INT16_MIN; hi = INT16_MAX; break;
    case MAXPOOL_U16: lo = 0; hi = UINT16_MAX; break;
    case MAXPOOL_I32: lo = INT32_MIN; hi = INT32_MAX; break;
    default: lo = INT64_MIN; hi = INT64_MAX; break;
    }
    int64_t v;
    switch (ts_rng_range(r, 0, 9)) {
    case 0: v = lo; break;
    case 1: v = lo + 1; break;
    case 2: v = hi; break;
    case 3: v = ts_rng_range(r, lo, hi); break;
    default: v = ts_rng_range(r, -3, 3); break;
    }
    if (v < lo)
        v = lo;
    return (uint64_t)v;
}

typedef struct palette {
    int n;
    uint64_t v[8];
} palette;

static void make_palette(maxpool_dtype t, ts_rng *r, palette *p)
{
    p->n = (int)ts_rng_range(r, 1, 6);
    const int nan_heavy = is_float(t) && ts_rng_chance(r, 1, 4);
    for (int i = 0; i < p->n; ++i) {
        if (!is_float(t)) {
            p->v[i] = int_value(t, r);
            continue;
        }
        static const float plain[] = {-2.0f, -1.0f, -0.0f, 0.0f, 0.5f, 1.0f, 2.0f, 3.0f};
        int pick = (int)ts_rng_range(r, 0, nan_heavy ? 5 : 11);
        if (pick < 8)
            p->v[i] = float_value(t, plain[pick]);
        else if (pick == 8)
            p->v[i] = float_value(t, INFINITY);
        else if (pick == 9)
            p->v[i] = float_value(t, -INFINITY);
        else
            p->v[i] = special_float(t, r);
        if (nan_heavy && ts_rng_chance(r, 1, 2)) { /* a NaN, one of several payloads and signs */
            p->v[i] = special_float(t, r);
            if (!key_of(t, p->v[i]).nan)
                p->v[i] = float_value(t, ts_rng_chance(r, 1, 2) ? NAN : -NAN);
        }
    }
}

/* ------------------------------------------------------------------------ */
/* The naive model                                                          */
/* ------------------------------------------------------------------------ */

typedef struct nax {
    int64_t in, out;
    int adaptive;
    int64_t k, s, d, pb; /* fixed windows; pb is the effective begin pad */
    int64_t P;           /* padded extent */
    int64_t ast[MAX_OUT], aend[MAX_OUT]; /* adaptive windows [ast, aend) */
} nax;

typedef struct model {
    int r;
    int64_t n, c;
    nax ax[MAXPOOL_MAX_SPATIAL];
    int64_t in_spatial, out_spatial;
    int any_empty;
} model;

/* The number of o >= 0 for which pred holds, for a predicate monotone in o. */
#define COUNT_WHILE(var, cond, result)                                                                             \
    do {                                                                                                           \
        int64_t var = 0;                                                                                           \
        while (cond)                                                                                               \
            ++var;                                                                                                 \
        result = var;                                                                                              \
    } while (0)

/* Output size and pads of one axis; returns the expected status. */
static maxpool_status model_axis(const maxpool_desc *d, int i, int64_t in, nax *a)
{
    memset(a, 0, sizeof *a);
    a->in = in;
    if (d->window == MAXPOOL_WINDOW_ADAPTIVE) {
        a->adaptive = 1;
        a->out = d->output_size[i];
        if (a->out > MAX_OUT)
            return MAXPOOL_ERR_UNSUPPORTED; /* not generated */
        for (int64_t o = 0; o < a->out; ++o) {
            /* start: the largest b with b*out <= o*in; end: the smallest e with e*out >= (o+1)*in */
            int64_t b = 0, e;
            while ((b + 1) * a->out <= o * in)
                ++b;
            e = b;
            while (e * a->out < (o + 1) * in)
                ++e;
            a->ast[o] = b;
            a->aend[o] = e;
        }
        a->P = in;
        return MAXPOOL_OK;
    }
    const int64_t k = d->kernel[i], s = d->stride[i], dil = d->dilation[i];
    const int64_t ek = (k - 1) * dil + 1;
    int64_t out, pb, pe;
    a->k = k;
    a->s = s;
    a->d = dil;
    if (d->auto_pad == MAXPOOL_PAD_SAME_UPPER || d->auto_pad == MAXPOOL_PAD_SAME_LOWER) {
        COUNT_WHILE(o, o * s < in, out); /* ceil(in / s) */
        int64_t total = (out - 1) * s + ek - in;
        if (total < 0)
            total = 0;
        int64_t half = 0;
        while (2 * (half + 1) <= total)
            ++half; /* floor(total / 2) */
        pb = d->auto_pad == MAXPOOL_PAD_SAME_UPPER ? half : total - half;
        pe = total - pb;
    } else {
        pb = d->auto_pad == MAXPOOL_PAD_EXPLICIT ? d->pad_begin[i] : 0;
        pe = d->auto_pad == MAXPOOL_PAD_EXPLICIT ? d->pad_end[i] : 0;
    }
    { /* the size follows the rounding over those pads (SAME: OpenVINO's rule) */
        const int64_t L = in + pb + pe;
        if (d->rounding == MAXPOOL_ROUND_FLOOR)
            COUNT_WHILE(o, o * s + ek <= L, out); /* windows ending inside the padded input */
        else
            COUNT_WHILE(o, (o - 1) * s + ek < L, out); /* ... and one more if any element is left over */
        if (d->rounding == MAXPOOL_ROUND_CEIL_TORCH && out >= 1 && (out - 1) * s >= in + pb)
            --out;
    }
    a->out = out;
    a->pb = pb;
    if (out < 1)
        return MAXPOOL_ERR_INVALID_SHAPE;
    a->P = pb + in;
    if ((out - 1) * s + ek > a->P)
        a->P = (out - 1) * s + ek;
    return MAXPOOL_OK;
}

/* Whether output o of an axis has no input element, and its first tap at or after 0. */
static int model_window_empty(const nax *a, int64_t o, int64_t *first_tap)
{
    if (a->adaptive) {
        *first_tap = a->ast[o];
        return a->aend[o] <= a->ast[o];
    }
    int64_t c = o * a->s - a->pb;
    while (c < 0)
        c += a->d;
    *first_tap = c;
    for (int64_t j = 0; j < a->k; ++j) {
        int64_t q = o * a->s + j * a->d - a->pb;
        if (q >= 0 && q < a->in)
            return 0;
    }
    return 1;
}

static maxpool_status model_build(const maxpool_desc *d, const int64_t *shape, model *m)
{
    const int r = d->spatial_rank, cl = d->layout == MAXPOOL_CHANNELS_LAST;
    /* index conventions the core refuses in combination (maxpool.h) */
    if (d->index_axis > 2 &&
        (d->index_order != MAXPOOL_INDEX_ROW_MAJOR || d->empty_index == MAXPOOL_EMPTY_INDEX_FIRST_TAP))
        return MAXPOOL_ERR_UNSUPPORTED;
    if (d->index_order == MAXPOOL_INDEX_CHANNELS_LAST && d->index_axis > 1)
        return MAXPOOL_ERR_UNSUPPORTED;
    m->r = r;
    m->n = shape[0];
    m->c = cl ? shape[r + 1] : shape[1];
    m->in_spatial = m->out_spatial = 1;
    m->any_empty = 0;
    for (int i = 0; i < r; ++i) {
        maxpool_status st = model_axis(d, i, shape[cl ? 1 + i : 2 + i], &m->ax[i]);
        if (st != MAXPOOL_OK)
            return st;
        m->in_spatial *= m->ax[i].in;
        m->out_spatial *= m->ax[i].out;
    }
    for (int i = 0; i < r; ++i)
        for (int64_t o = 0; o < m->ax[i].out; ++o) {
            int64_t ft;
            m->any_empty |= model_window_empty(&m->ax[i], o, &ft);
        }
    if (m->any_empty && d->reject_empty_windows)
        return MAXPOOL_ERR_INVALID_ATTRIBUTE;
    return MAXPOOL_OK;
}

/* Memory offset of logical element (n, c, s) of a tensor with `spatial` positions. */
static int64_t mem_offset(int cl, int64_t C, int64_t spatial, int64_t n, int64_t c, int64_t s)
{
    return cl ? (n * spatial + s) * C + c : (n * C + c) * spatial + s;
}

/* Runs the model: y gets the output bits, ind the logical indices (int64). */
static void model_run(const maxpool_desc *d, const model *m, const void *x, void *y, int64_t *ind)
{
    const int r = m->r, cl = d->layout == MAXPOOL_CHANNELS_LAST;
    const maxpool_dtype t = d->dtype;
    const size_t es = esize(t);

    /* the padded tensor: cell -> row-major input offset, or -1 (absent) */
    int64_t P = 1;
    for (int i = 0; i < r; ++i)
        P *= m->ax[i].P;
    int64_t *cell = malloc((size_t)(P > 0 ? P : 1) * sizeof *cell);
    {
        int64_t q[MAXPOOL_MAX_SPATIAL] = {0};
        for (int64_t f = 0; f < P; ++f) {
            int64_t s = 0;
            int absent = 0;
            for (int i = 0; i < r; ++i) {
                const int64_t coord = q[i] - m->ax[i].pb;
                if (coord < 0 || coord >= m->ax[i].in)
                    absent = 1;
                s = s * m->ax[i].in + coord;
            }
            cell[f] = absent ? -1 : s;
            for (int i = r - 1; i >= 0; --i) {
                if (++q[i] < m->ax[i].P)
                    break;
                q[i] = 0;
            }
        }
    }

    /* index multipliers of the spatial part, in the requested order */
    int64_t mul[MAXPOOL_MAX_SPATIAL];
    if (d->index_order == MAXPOOL_INDEX_COL_MAJOR) {
        int64_t acc = 1;
        for (int i = 0; i < r; ++i) {
            mul[i] = acc;
            acc *= m->ax[i].in;
        }
    } else {
        int64_t acc = 1;
        for (int i = r - 1; i >= 0; --i) {
            mul[i] = acc;
            acc *= m->ax[i].in;
        }
    }
    int64_t idx_n = d->index_axis == 0 ? m->c * m->in_spatial : 0;
    int64_t idx_c = d->index_axis <= 1 ? m->in_spatial : 0;
    if (d->index_axis > 2) /* a spatial dimension: only the coordinates of spatial axes index_axis-2.. count */
        for (int i = 0; i < d->index_axis - 2; ++i)
            mul[i] = 0;
    if (d->index_order == MAXPOOL_INDEX_CHANNELS_LAST) { /* offset in a row-major (N, D..., C) tensor */
        for (int i = 0; i < r; ++i)
            mul[i] *= m->c;
        idx_c = 1;
        idx_n = d->index_axis == 0 ? m->c * m->in_spatial : 0;
    }
    const uint64_t sbits = start_bits(t, d->empty_value);
    const key skey = key_of(t, sbits);
    /* every input element's bits and key, in memory order */
    const int64_t in_elems = m->n * m->c * m->in_spatial;
    uint64_t *xb = malloc((size_t)(in_elems > 0 ? in_elems : 1) * sizeof *xb);
    key *xk = malloc((size_t)(in_elems > 0 ? in_elems : 1) * sizeof *xk);
    for (int64_t i = 0; i < in_elems; ++i) {
        xb[i] = ts_elem_bits(x, i, es);
        xk[i] = key_of(t, xb[i]);
    }

    for (int64_t n = 0; n < m->n; ++n)
        for (int64_t c = 0; c < m->c; ++c) {
            int64_t o[MAXPOOL_MAX_SPATIAL] = {0};
            for (int64_t os = 0; os < m->out_spatial; ++os) {
                /* the window's extent in taps, and the empty index */
                int64_t ntap[MAXPOOL_MAX_SPATIAL], ft_index = 0;
                for (int i = 0; i < r; ++i) {
                    const nax *a = &m->ax[i];
                    int64_t ft;
                    model_window_empty(a, o[i], &ft);
                    ft_index += ft * mul[i];
                    ntap[i] = a->adaptive ? a->aend[o[i]] - a->ast[o[i]] : a->k;
                }
                uint64_t best_bits = sbits;
                key best = skey;
                int64_t best_index = -1; /* MAXPOOL_EMPTY_INDEX_MINUS_ONE */
                if (d->empty_index == MAXPOOL_EMPTY_INDEX_FIRST_TAP)
                    best_index = n * idx_n + c * idx_c + ft_index;
                else if (d->empty_index == MAXPOOL_EMPTY_INDEX_PLANE_START)
                    best_index = n * idx_n + c * idx_c;
                int taken = 0; /* whether an element has replaced the start */
                int any_tap = 1;
                for (int i = 0; i < r; ++i)
                    any_tap &= ntap[i] > 0;
                int64_t j[MAXPOOL_MAX_SPATIAL] = {0};
                while (any_tap) {
                    int64_t f = 0;
                    for (int i = 0; i < r; ++i) {
                        const nax *a = &m->ax[i];
                        const int64_t q = a->adaptive ? a->ast[o[i]] + j[i] : o[i] * a->s + j[i] * a->d;
                        f = f * a->P + q;
                    }
                    const int64_t s = cell[f];
                    if (s >= 0) {
                        const int64_t xo = mem_offset(cl, m->c, m->in_spatial, n, c, s);
                        const uint64_t b = xb[xo];
                        const key kx = xk[xo];
                        if (key_gt(t, kx, best) || (d->nan_policy == MAXPOOL_NAN_PROPAGATE && kx.nan) ||
                            (d->window_init == MAXPOOL_INIT_FIRST_ELEMENT && !taken)) {
                            taken = 1;
                            best = kx;
                            best_bits = b;
                            /* logical coordinates of s, then the index */
                            int64_t rem = s, sp = 0;
                            for (int i = r - 1; i >= 0; --i) {
                                sp += (rem % m->ax[i].in) * mul[i];
                                rem /= m->ax[i].in;
                            }
                            best_index = n * idx_n + c * idx_c + sp;
                        }
                    }
                    int i = r - 1;
                    for (; i >= 0; --i) {
                        if (++j[i] < ntap[i])
                            break;
                        j[i] = 0;
                    }
                    if (i < 0)
                        break;
                }
                const int64_t yo = mem_offset(cl, m->c, m->out_spatial, n, c, os);
                put_bits(y, yo, es, best_bits);
                ind[yo] = best_index;
                for (int i = r - 1; i >= 0; --i) {
                    if (++o[i] < m->ax[i].out)
                        break;
                    o[i] = 0;
                }
            }
        }
    free(cell);
    free(xb);
    free(xk);
}

/* ------------------------------------------------------------------------ */
/* Case generation                                                          */
/* ------------------------------------------------------------------------ */

static const char *const pad_names[] = {"explicit", "valid", "same_upper", "same_lower"};
static const char *const round_names[] = {"floor", "ceil", "ceil_torch"};

static void describe(char *buf, size_t size, int id, const maxpool_desc *d, const int64_t *shape)
{
    int len = snprintf(buf, size, "case %d: %s %s rank %d shape [", id, maxpool_dtype_name(d->dtype),
                       d->layout == MAXPOOL_CHANNELS_LAST ? "NDC" : "NCD", d->spatial_rank);
    for (int i = 0; i < d->spatial_rank + 2 && len < (int)size; ++i)
        len += snprintf(buf + len, size - (size_t)len, "%s%lld", i ? "," : "", (long long)shape[i]);
    if (d->window == MAXPOOL_WINDOW_ADAPTIVE) {
        len += snprintf(buf + len, size - (size_t)len, "] adaptive out [");
        for (int i = 0; i < d->spatial_rank && len < (int)size; ++i)
            len += snprintf(buf + len, size - (size_t)len, "%s%lld", i ? "," : "", (long long)d->output_size[i]);
    } else {
        len += snprintf(buf + len, size - (size_t)len, "] %s %s k/s/d/pb/pe", pad_names[d->auto_pad],
                        round_names[d->rounding]);
        for (int i = 0; i < d->spatial_rank && len < (int)size; ++i)
            len += snprintf(buf + len, size - (size_t)len, " %lld/%lld/%lld/%lld/%lld", (long long)d->kernel[i],
                            (long long)d->stride[i], (long long)d->dilation[i], (long long)d->pad_begin[i],
                            (long long)d->pad_end[i]);
        len += snprintf(buf + len, size - (size_t)len, " [");
    }
    if (len < (int)size)
        snprintf(buf + len, size - (size_t)len, "] idx %d axis %d %s nan %s empty %s/%s reject %d init %s",
                 (int)d->index_type, d->index_axis, d->index_order == MAXPOOL_INDEX_COL_MAJOR ? "col" : d->index_order == MAXPOOL_INDEX_CHANNELS_LAST ? "nhwc" : "row",
                 d->nan_policy ? "propagate" : "ignore", d->empty_value ? "-inf" : "lowest",
                 d->empty_index == MAXPOOL_EMPTY_INDEX_FIRST_TAP     ? "first_tap"
                 : d->empty_index == MAXPOOL_EMPTY_INDEX_PLANE_START ? "plane_start"
                                                                     : "-1",
                 d->reject_empty_windows, d->window_init == MAXPOOL_INIT_FIRST_ELEMENT ? "first" : "empty");
}

static void gen_case(ts_rng *r, maxpool_desc *d, int64_t *shape)
{
    int rank;
    const int64_t pick = ts_rng_range(r, 0, 99);
    if (pick < 25)
        rank = 1;
    else if (pick < 60)
        rank = 2;
    else if (pick < 80)
        rank = 3;
    else if (pick < 92)
        rank = 4;
    else
        rank = (int)ts_rng_range(r, 5, MAXPOOL_MAX_SPATIAL);
    maxpool_desc_init(d, rank);
    /* f32 a little more often: it has the most specialised kernels */
    d->dtype = ts_rng_chance(r, 1, 6) ? MAXPOOL_F32 : (maxpool_dtype)ts_rng_range(r, 0, MAXPOOL_DTYPE_COUNT - 1);
    d->layout = ts_rng_chance(r, 1, 2) ? MAXPOOL_CHANNELS_LAST : MAXPOOL_CHANNELS_FIRST;
    d->window = ts_rng_chance(r, 1, 5) ? MAXPOOL_WINDOW_ADAPTIVE : MAXPOOL_WINDOW_FIXED;

    const int big = rank <= 2 && ts_rng_chance(r, 1, 8); /* long rows / many channels for SIMD paths */
    int64_t maxin, maxk, nc_max;
    switch (rank) {
    case 1: maxin = big ? 70 : 24; maxk = 5; nc_max = 3; break;
    case 2: maxin = big ? 40 : 10; maxk = 4; nc_max = 3; break;
    case 3: maxin = 6; maxk = 3; nc_max = 3; break;
    case 4: maxin = 4; maxk = 3; nc_max = 2; break;
    default: maxin = 3; maxk = 2; nc_max = 2; break;
    }
    int64_t n = ts_rng_range(r, 1, nc_max), c = ts_rng_range(r, 1, big ? 19 : nc_max);
    if (ts_rng_chance(r, 1, 30))
        n = 0;
    else if (ts_rng_chance(r, 1, 30))
        c = 0;
    shape[0] = n;
    const int sp0 = d->layout == MAXPOOL_CHANNELS_LAST ? 1 : 2;
    shape[d->layout == MAXPOOL_CHANNELS_LAST ? rank + 1 : 1] = c;

    d->auto_pad = (maxpool_auto_pad)(ts_rng_chance(r, 1, 2) ? MAXPOOL_PAD_EXPLICIT : ts_rng_range(r, 1, 3));
    d->rounding = (maxpool_rounding)ts_rng_range(r, 0, 2);
    for (int i = 0; i < rank; ++i) {
        const int64_t in = ts_rng_range(r, 1, maxin);
        shape[sp0 + i] = in;
        d->output_size[i] = ts_rng_range(r, 1, in + 3);
        d->kernel[i] = ts_rng_range(r, 1, maxk);
        d->stride[i] = ts_rng_range(r, 1, 3);
        d->dilation[i] = ts_rng_chance(r, 3, 5) ? 1 : ts_rng_range(r, 2, 3);
        const int64_t ek = (d->kernel[i] - 1) * d->dilation[i] + 1;
        if (ts_rng_chance(r, 4, 5)) { /* the usual: pads within half the dilated kernel */
            d->pad_begin[i] = ts_rng_range(r, 0, ek / 2);
            d->pad_end[i] = ts_rng_range(r, 0, ek / 2);
        } else { /* anything: empty windows, windows wholly in padding */
            d->pad_begin[i] = ts_rng_range(r, 0, ek + 2);
            d->pad_end[i] = ts_rng_range(r, 0, ek + 2);
        }
    }
    d->index_type = (maxpool_index_type)ts_rng_range(r, 0, 2);
    /* index_axis up to the last dimension (OpenVINO's spatial axis); the channels-last order (TensorFlow) */
    d->index_axis = (int)(ts_rng_chance(r, 1, 4) ? ts_rng_range(r, 0, rank + 1) : ts_rng_range(r, 0, 2));
    d->index_order = ts_rng_chance(r, 1, 3)   ? MAXPOOL_INDEX_COL_MAJOR
                     : ts_rng_chance(r, 1, 4) ? MAXPOOL_INDEX_CHANNELS_LAST
                                              : MAXPOOL_INDEX_ROW_MAJOR;
    d->nan_policy = ts_rng_chance(r, 1, 2) ? MAXPOOL_NAN_PROPAGATE : MAXPOOL_NAN_IGNORE;
    d->empty_value = ts_rng_chance(r, 1, 2) ? MAXPOOL_EMPTY_NEG_INF : MAXPOOL_EMPTY_LOWEST;
    d->empty_index = (maxpool_empty_index)ts_rng_range(r, 0, 2); /* -1, first tap, plane start */
    d->reject_empty_windows = ts_rng_chance(r, 1, 10);
    d->window_init = ts_rng_chance(r, 1, 4) ? MAXPOOL_INIT_FIRST_ELEMENT : MAXPOOL_INIT_EMPTY_VALUE;
}

/* ------------------------------------------------------------------------ */
/* Running one case                                                         */
/* ------------------------------------------------------------------------ */

/* Which kernels the plans chose, and how often. */
static struct {
    const char *name;
    long count;
} kernels_seen[64];

static void note_kernel(const char *name)
{
    for (int i = 0; i < 64; ++i) {
        if (!kernels_seen[i].name)
            kernels_seen[i].name = name;
        if (strcmp(kernels_seen[i].name, name) == 0) {
            ++kernels_seen[i].count;
            return;
        }
    }
}

typedef struct stats {
    long cases, ran, errors_expected, empty_tensors, with_empty_windows;
    long by_rank[MAXPOOL_MAX_SPATIAL + 1];
} stats;

/* Runs plan on x; checks y and indices against the model's, and the guards. */
static void run_and_compare(const maxpool_desc *d, const int64_t *shape, const void *x, const void *y_exp,
                            const int64_t *ind_exp, int64_t out_elems, int threads, maxpool_isa isa)
{
    maxpool_desc dd = *d;
    dd.num_threads = threads;
    dd.max_isa = isa;
    maxpool_plan *plan = NULL;
    maxpool_error err;
    maxpool_status st = maxpool_plan_create(&dd, shape, &plan, &err);
    if (!CHECK_MSG(st == MAXPOOL_OK && plan, "plan_create failed: status %d: %s", (int)st, err.message))
        return;
    if (!CHECK_EQ_I64(maxpool_plan_output_elements(plan), out_elems)) {
        maxpool_plan_destroy(plan);
        return;
    }

    const size_t es = esize(d->dtype);
    const size_t is = d->index_type == MAXPOOL_INDEX_I32 ? 4 : 8;
    const size_t ybytes = (size_t)out_elems * es, ibytes = (size_t)out_elems * is;
    unsigned char *y = malloc(ybytes + GUARD), *ind = malloc(ibytes + GUARD);
    memset(y, 0xA5, ybytes + GUARD);
    memset(ind, 0x5A, ibytes + GUARD);

    note_kernel(maxpool_plan_kernel_name(plan));
    st = maxpool_run(plan, x, y, d->index_type == MAXPOOL_INDEX_NONE ? NULL : ind);
    char what[128];
    snprintf(what, sizeof what, "y (threads %d, isa %s, kernel %s)", threads, maxpool_isa_name(isa),
             maxpool_plan_kernel_name(plan));
    if (CHECK_MSG(st == MAXPOOL_OK, "maxpool_run status %d", (int)st)) {
        CHECK_BITS_EQ(y, y_exp, out_elems, es, what);
        if (d->index_type != MAXPOOL_INDEX_NONE) {
            unsigned char *ie = malloc(ibytes + 1);
            for (int64_t i = 0; i < out_elems; ++i)
                put_bits(ie, i, is, (uint64_t)ind_exp[i]);
            snprintf(what, sizeof what, "indices (threads %d, isa %s, kernel %s)", threads, maxpool_isa_name(isa),
                     maxpool_plan_kernel_name(plan));
            CHECK_BITS_EQ(ind, ie, out_elems, is, what);
            free(ie);
        }
    }
    int guard_ok = 1;
    for (size_t i = 0; i < GUARD; ++i)
        guard_ok &= y[ybytes + i] == 0xA5 && ind[ibytes + i] == 0x5A;
    if (d->index_type == MAXPOOL_INDEX_NONE)
        for (size_t i = 0; i < ibytes; ++i)
            guard_ok &= ind[i] == 0x5A;
    CHECK_MSG(guard_ok, "bytes after the output (or an unrequested index buffer) were written");
    free(y);
    free(ind);
    maxpool_plan_destroy(plan);
}

static void run_case(int id, ts_rng *r, stats *stt)
{
    maxpool_desc d;
    int64_t shape[MAXPOOL_MAX_SPATIAL + 2];
    gen_case(r, &d, shape);
    char desc[768];
    describe(desc, sizeof desc, id, &d, shape);
    ts_set_context("%s", desc);
    ++stt->cases;

    model m;
    const maxpool_status want = model_build(&d, shape, &m);
    const int tr = d.spatial_rank + 2;

    /* shape inference agrees with the model, both ways of asking */
    int64_t oshape[MAXPOOL_MAX_SPATIAL + 2];
    maxpool_error err;
    memset(&err, 0, sizeof err);
    maxpool_status st = maxpool_output_shape(&d, shape, oshape, &err);
    CHECK_MSG(st == want, "maxpool_output_shape status %d, model %d (%s)", (int)st, (int)want, err.message);
    if (want != MAXPOOL_OK) {
        maxpool_plan *p = (maxpool_plan *)&err; /* must be reset to NULL */
        st = maxpool_plan_create(&d, shape, &p, NULL);
        CHECK_MSG(st == want && p == NULL, "plan_create status %d, model %d", (int)st, (int)want);
        if (p && st == MAXPOOL_OK)
            maxpool_plan_destroy(p);
        ++stt->errors_expected;
        return;
    }
    const int cl = d.layout == MAXPOOL_CHANNELS_LAST;
    int64_t mshape[MAXPOOL_MAX_SPATIAL + 2];
    mshape[0] = m.n;
    mshape[cl ? tr - 1 : 1] = m.c;
    for (int i = 0; i < d.spatial_rank; ++i)
        mshape[(cl ? 1 : 2) + i] = m.ax[i].out;
    if (!CHECK_BITS_EQ(oshape, mshape, tr, sizeof(int64_t), "output shape"))
        return; /* running would write past the model-sized buffers */

    const int64_t in_elems = m.n * m.c * m.in_spatial, out_elems = m.n * m.c * m.out_spatial;
    const size_t es = esize(d.dtype);
    stt->empty_tensors += out_elems == 0;
    stt->with_empty_windows += m.any_empty;
    ++stt->by_rank[d.spatial_rank];

    /* input: drawn from a small palette */
    palette pal;
    make_palette(d.dtype, r, &pal);
    void *x = malloc((size_t)(in_elems > 0 ? in_elems : 1) * es);
    for (int64_t i = 0; i < in_elems; ++i)
        put_bits(x, i, es, pal.v[ts_rng_range(r, 0, pal.n - 1)]);

    void *y_exp = malloc((size_t)(out_elems > 0 ? out_elems : 1) * es);
    int64_t *ind_exp = malloc((size_t)(out_elems > 0 ? out_elems : 1) * sizeof *ind_exp);
    model_run(&d, &m, x, y_exp, ind_exp);

    static const maxpool_isa isas[] = {MAXPOOL_ISA_AUTO, MAXPOOL_ISA_SCALAR, MAXPOOL_ISA_SSE2, MAXPOOL_ISA_AVX2,
                                       MAXPOOL_ISA_AVX512};
    run_and_compare(&d, shape, x, y_exp, ind_exp, out_elems, 1, MAXPOOL_ISA_AUTO);
    run_and_compare(&d, shape, x, y_exp, ind_exp, out_elems, 3, isas[ts_rng_range(r, 0, 4)]);
    ++stt->ran;
    free(x);
    free(y_exp);
    free(ind_exp);
}

/* ------------------------------------------------------------------------ */
/* Hand-checked cases for the model itself (so a wrong model cannot hide    */
/* a wrong library): values from the spec texts' examples.                  */
/* ------------------------------------------------------------------------ */

static void model_self_check(void)
{
    ts_set_context("model self-check");
    /* OpenVINO MaxPool-8 example 1 (row 1's misprint fixed: OpenVINO computes 3 / 2): 3x3, k2 s1 pads 1/1 */
    maxpool_desc d;
    maxpool_desc_init(&d, 2);
    d.kernel[0] = d.kernel[1] = 2;
    d.pad_begin[0] = d.pad_begin[1] = d.pad_end[0] = d.pad_end[1] = 1;
    d.index_type = MAXPOOL_INDEX_I64;
    const int64_t shape[4] = {1, 1, 3, 3};
    const float xin[9] = {-1, 2, 3, 4, 5, -6, -7, 8, 9};
    model m;
    CHECK_EQ_INT(model_build(&d, shape, &m), MAXPOOL_OK);
    CHECK_EQ_I64(m.ax[0].out, 4);
    CHECK_EQ_I64(m.ax[1].out, 4);
    float y[16];
    int64_t ind[16];
    model_run(&d, &m, xin, y, ind);
    const float ye[16] = {-1, 2, 3, 3, 4, 5, 5, 3, 4, 8, 9, 9, -7, 8, 9, 9};
    const int64_t ie[16] = {0, 1, 2, 2, 3, 4, 4, 2, 3, 7, 8, 8, 6, 7, 8, 8};
    CHECK_BITS_EQ(y, ye, 16, 4, "model: OpenVINO example 1 values");
    CHECK_BITS_EQ(ind, ie, 16, 8, "model: OpenVINO example 1 indices");

    /* ceil_torch example 5: 3x3, k2 s2 pads 1/1 -> 2x2 [[1,3],[7,9]], indices [[0,2],[6,8]] */
    d.stride[0] = d.stride[1] = 2;
    d.rounding = MAXPOOL_ROUND_CEIL_TORCH;
    const float x5[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    CHECK_EQ_INT(model_build(&d, shape, &m), MAXPOOL_OK);
    CHECK_EQ_I64(m.ax[0].out, 2);
    model_run(&d, &m, x5, y, ind);
    const float y5[4] = {1, 3, 7, 9};
    const int64_t i5[4] = {0, 2, 6, 8};
    CHECK_BITS_EQ(y, y5, 4, 4, "model: ceil_torch example values");
    CHECK_BITS_EQ(ind, i5, 4, 8, "model: ceil_torch example indices");
    /* plain ceil keeps the third window, which starts in the end padding: 3x3 */
    d.rounding = MAXPOOL_ROUND_CEIL;
    CHECK_EQ_INT(model_build(&d, shape, &m), MAXPOOL_OK);
    CHECK_EQ_I64(m.ax[0].out, 3);

    /* VALID + ceil 3x3 k2 s2 -> 2x2 [[5,3],[8,9]] (OpenVINO example 6) */
    d.auto_pad = MAXPOOL_PAD_VALID;
    const float x6[9] = {-1, 2, 3, 4, 5, -6, -7, 8, 9};
    CHECK_EQ_INT(model_build(&d, shape, &m), MAXPOOL_OK);
    model_run(&d, &m, x6, y, ind);
    const float y6[4] = {5, 3, 8, 9};
    CHECK_EQ_I64(m.ax[0].out, 2);
    CHECK_BITS_EQ(y, y6, 4, 4, "model: valid+ceil example values");

    /* adaptive: in 5 -> out 3: windows [0,2) [1,4) [3,5) */
    maxpool_desc_init(&d, 1);
    d.window = MAXPOOL_WINDOW_ADAPTIVE;
    d.output_size[0] = 3;
    const int64_t s1[3] = {1, 1, 5};
    CHECK_EQ_INT(model_build(&d, s1, &m), MAXPOOL_OK);
    CHECK(m.ax[0].ast[0] == 0 && m.ax[0].aend[0] == 2);
    CHECK(m.ax[0].ast[1] == 1 && m.ax[0].aend[1] == 4);
    CHECK(m.ax[0].ast[2] == 3 && m.ax[0].aend[2] == 5);

    /* NaN: propagate takes the last NaN (its payload), ignore never takes one */
    maxpool_desc_init(&d, 1);
    d.kernel[0] = 4;
    d.index_type = MAXPOOL_INDEX_I64;
    const int64_t s4[3] = {1, 1, 4};
    uint32_t xn[4] = {0x3F800000u, 0x7FC00001u, 0x40000000u, 0xFFC00002u};
    uint32_t yn;
    int64_t in_;
    CHECK_EQ_INT(model_build(&d, s4, &m), MAXPOOL_OK);
    model_run(&d, &m, xn, &yn, &in_);
    CHECK_EQ_U64(yn, 0x40000000u);
    CHECK_EQ_I64(in_, 2);
    d.nan_policy = MAXPOOL_NAN_PROPAGATE;
    model_run(&d, &m, xn, &yn, &in_);
    CHECK_EQ_U64(yn, 0xFFC00002u);
    CHECK_EQ_I64(in_, 3);
    ts_set_context("%s", "");
}

int main(int argc, char **argv)
{
    (void)argc;
    ts_parallel_always();
    ts_omp_passive(argv);
    const uint64_t seed = ts_seed_from_env(20240611u);
    long ncases = 8000;
    const char *env = getenv("MAXPOOL_TEST_CASES");
    if (env && *env)
        ncases = strtol(env, NULL, 10);
    model_self_check();

    ts_rng r;
    ts_rng_seed(&r, seed);
    stats stt;
    memset(&stt, 0, sizeof stt);
    const clock_t t0 = clock();
    for (long i = 0; i < ncases; ++i)
        run_case((int)i, &r, &stt);
    ts_set_context("%s", "");
    printf("%ld cases: %ld ran, %ld expected plan errors, %ld empty tensors, %ld with empty windows; by rank:",
           stt.cases, stt.ran, stt.errors_expected, stt.empty_tensors, stt.with_empty_windows);
    for (int i = 1; i <= MAXPOOL_MAX_SPATIAL; ++i)
        printf(" %ld", stt.by_rank[i]);
    printf("; %.2f s CPU\nkernels:", (double)(clock() - t0) / CLOCKS_PER_SEC);
    for (int i = 0; i < 64 && kernels_seen[i].name; ++i)
        printf(" %s=%ld", kernels_seen[i].name, kernels_seen[i].count);
    printf("\n");
    /* the sweep must actually exercise what it claims */
    CHECK(stt.ran > ncases / 2);
    CHECK(ncases < 500 || stt.with_empty_windows > 0);
    return ts_finish();
}
