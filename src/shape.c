/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Shape inference and lowering to the canonical per-axis windows.
 *
 * Fixed windows (every auto_pad and rounding mode) become, per axis, the
 * effective pad_begin, the output size and the regular tap pattern
 * o*stride - pad_begin + j*dilation; adaptive windows are
 * [floor(o*in/out), ceil((o+1)*in/out)). All arithmetic is int64 with
 * overflow checks and floor division that is right for negative numerators.
 */
#include "shape.h"

#include "checked.h"
#include "dtype.h"
#include "error.h"

#include <string.h>

static const char *const axis_field_names[] = {"kernel", "stride", "dilation"};

static maxpool_status check_enums(const maxpool_desc *d, maxpool_error *err)
{
    if (d->spatial_rank < 1 || d->spatial_rank > MAXPOOL_MAX_SPATIAL)
        return maxpool_fail(err, MAXPOOL_ERR_INVALID_ATTRIBUTE, "spatial_rank=%d must be in [1, %d]", d->spatial_rank,
                            MAXPOOL_MAX_SPATIAL);
    if ((int)d->dtype < 0 || d->dtype >= MAXPOOL_DTYPE_COUNT)
        return maxpool_fail(err, MAXPOOL_ERR_UNSUPPORTED, "dtype=%d is not a maxpool_dtype", (int)d->dtype);
    if (d->layout != MAXPOOL_CHANNELS_FIRST && d->layout != MAXPOOL_CHANNELS_LAST)
        return maxpool_fail(err, MAXPOOL_ERR_INVALID_ATTRIBUTE, "layout=%d is not a maxpool_layout", (int)d->layout);
    if (d->window != MAXPOOL_WINDOW_FIXED && d->window != MAXPOOL_WINDOW_ADAPTIVE)
        return maxpool_fail(err, MAXPOOL_ERR_INVALID_ATTRIBUTE, "window=%d is not a maxpool_window_kind",
                            (int)d->window);
    if ((int)d->auto_pad < 0 || d->auto_pad > MAXPOOL_PAD_SAME_LOWER)
        return maxpool_fail(err, MAXPOOL_ERR_INVALID_ATTRIBUTE, "auto_pad=%d is not a maxpool_auto_pad",
                            (int)d->auto_pad);
    if ((int)d->rounding < 0 || d->rounding > MAXPOOL_ROUND_CEIL_TORCH)
        return maxpool_fail(err, MAXPOOL_ERR_INVALID_ATTRIBUTE, "rounding=%d is not a maxpool_rounding",
                            (int)d->rounding);
    if ((int)d->index_type < 0 || d->index_type > MAXPOOL_INDEX_I64)
        return maxpool_fail(err, MAXPOOL_ERR_INVALID_ATTRIBUTE, "index_type=%d is not a maxpool_index_type",
                            (int)d->index_type);
    if (d->index_axis < 0 || d->index_axis > d->spatial_rank + 1)
        return maxpool_fail(err, MAXPOOL_ERR_INVALID_ATTRIBUTE, "index_axis=%d must be in [0, %d] (spatial_rank %d + 1)",
                            d->index_axis, d->spatial_rank + 1, d->spatial_rank);
    if (d->index_order != MAXPOOL_INDEX_ROW_MAJOR && d->index_order != MAXPOOL_INDEX_COL_MAJOR &&
        d->index_order != MAXPOOL_INDEX_CHANNELS_LAST)
        return maxpool_fail(err, MAXPOOL_ERR_INVALID_ATTRIBUTE, "index_order=%d is not a maxpool_index_order",
                            (int)d->index_order);
    if (d->nan_policy != MAXPOOL_NAN_IGNORE && d->nan_policy != MAXPOOL_NAN_PROPAGATE)
        return maxpool_fail(err, MAXPOOL_ERR_INVALID_ATTRIBUTE, "nan_policy=%d is not a maxpool_nan_policy",
                            (int)d->nan_policy);
    if (d->empty_value != MAXPOOL_EMPTY_LOWEST && d->empty_value != MAXPOOL_EMPTY_NEG_INF)
        return maxpool_fail(err, MAXPOOL_ERR_INVALID_ATTRIBUTE, "empty_value=%d is not a maxpool_empty_value",
                            (int)d->empty_value);
    if (d->empty_index != MAXPOOL_EMPTY_INDEX_MINUS_ONE && d->empty_index != MAXPOOL_EMPTY_INDEX_FIRST_TAP &&
        d->empty_index != MAXPOOL_EMPTY_INDEX_PLANE_START)
        return maxpool_fail(err, MAXPOOL_ERR_INVALID_ATTRIBUTE, "empty_index=%d is not a maxpool_empty_index",
                            (int)d->empty_index);
    if (d->window_init != MAXPOOL_INIT_EMPTY_VALUE && d->window_init != MAXPOOL_INIT_FIRST_ELEMENT)
        return maxpool_fail(err, MAXPOOL_ERR_INVALID_ATTRIBUTE, "window_init=%d is not a maxpool_window_init",
                            (int)d->window_init);
    if ((int)d->max_isa < 0 || d->max_isa > MAXPOOL_ISA_NEON)
        return maxpool_fail(err, MAXPOOL_ERR_INVALID_ATTRIBUTE, "max_isa=%d is not a maxpool_isa", (int)d->max_isa);
    if (d->index_axis > 2 && d->index_order != MAXPOOL_INDEX_ROW_MAJOR)
        return maxpool_fail(err, MAXPOOL_ERR_UNSUPPORTED,
                            "index_axis=%d (within spatial axes) takes index_order ROW_MAJOR only (index_order=%d)",
                            d->index_axis, (int)d->index_order);
    if (d->index_axis > 2 && d->empty_index == MAXPOOL_EMPTY_INDEX_FIRST_TAP)
        return maxpool_fail(err, MAXPOOL_ERR_UNSUPPORTED,
                            "index_axis=%d (within spatial axes) takes empty_index MINUS_ONE or PLANE_START, not "
                            "FIRST_TAP",
                            d->index_axis);
    if (d->index_order == MAXPOOL_INDEX_CHANNELS_LAST && d->index_axis > 1)
        return maxpool_fail(err, MAXPOOL_ERR_UNSUPPORTED,
                            "index_order CHANNELS_LAST takes index_axis 0 or 1 (index_axis=%d)", d->index_axis);
    return MAXPOOL_OK;
}

static maxpool_status check_axis_attributes(const maxpool_desc *d, maxpool_error *err)
{
    for (int i = 0; i < d->spatial_rank; ++i) {
        if (d->window == MAXPOOL_WINDOW_ADAPTIVE) {
            if (d->output_size[i] < 1)
                return maxpool_fail(err, MAXPOOL_ERR_INVALID_ATTRIBUTE, "output_size[%d]=%lld must be >= 1", i,
                                    (long long)d->output_size[i]);
            continue;
        }
        const int64_t v[3] = {d->kernel[i], d->stride[i], d->dilation[i]};
        for (int f = 0; f < 3; ++f)
            if (v[f] < 1)
                return maxpool_fail(err, MAXPOOL_ERR_INVALID_ATTRIBUTE, "%s[%d]=%lld must be >= 1",
                                    axis_field_names[f], i, (long long)v[f]);
        if (d->auto_pad == MAXPOOL_PAD_EXPLICIT) {
            if (d->pad_begin[i] < 0)
                return maxpool_fail(err, MAXPOOL_ERR_INVALID_ATTRIBUTE, "pad_begin[%d]=%lld must be >= 0", i,
                                    (long long)d->pad_begin[i]);
            if (d->pad_end[i] < 0)
                return maxpool_fail(err, MAXPOOL_ERR_INVALID_ATTRIBUTE, "pad_end[%d]=%lld must be >= 0", i,
                                    (long long)d->pad_end[i]);
        }
    }
    return MAXPOOL_OK;
}

/* Output size and effective pads of fixed-window axis i. Every value the
 * windows are later computed from is checked here: o*stride for o < out,
 * o*stride - pad_begin + j*dilation for the taps that can be inside, the
 * effective end pad. Attributes whose arithmetic would leave int64 are an
 * error (MAXPOOL_ERR_OVERFLOW), never undefined behaviour. */
static maxpool_status lower_fixed_axis(const maxpool_desc *d, int i, maxpool_axis *ax, maxpool_error *err)
{
    const int64_t in = ax->in, k = d->kernel[i], s = d->stride[i], dil = d->dilation[i];
    int64_t ek, pb = 0, pe = 0, span, out, last, end;
    if (!maxpool_mul(k - 1, dil, &ek) || !maxpool_add(ek, 1, &ek))
        return maxpool_fail(err, MAXPOOL_ERR_OVERFLOW, "kernel[%d]=%lld with dilation[%d]=%lld overflows int64", i,
                            (long long)k, i, (long long)dil);
    if (d->auto_pad == MAXPOOL_PAD_SAME_UPPER || d->auto_pad == MAXPOOL_PAD_SAME_LOWER) {
        /* pads that make ceil(in/s) windows fit; the size then follows the rounding */
        int64_t total, want = maxpool_ceildiv(in, s);
        if (!maxpool_mul(want - 1, s, &total) || !maxpool_add(total, ek, &total))
            return maxpool_fail(err, MAXPOOL_ERR_OVERFLOW, "axis %d: SAME padding overflows int64", i);
        total -= in;
        if (total < 0)
            total = 0;
        pb = d->auto_pad == MAXPOOL_PAD_SAME_UPPER ? total / 2 : total - total / 2;
        pe = total - pb;
    } else if (d->auto_pad == MAXPOOL_PAD_EXPLICIT) {
        pb = d->pad_begin[i];
        pe = d->pad_end[i];
    }
    if (!maxpool_add(in, pb, &span) || !maxpool_add(span, pe, &span))
        return maxpool_fail(err, MAXPOOL_ERR_OVERFLOW, "axis %d: input %lld + pads %lld + %lld overflows int64", i,
                            (long long)in, (long long)pb, (long long)pe);
    if (d->require_kernel_fits && ek > span)
        return maxpool_fail(err, MAXPOOL_ERR_INVALID_SHAPE,
                            "axis %d: the dilated kernel %lld (kernel %lld, dilation %lld) is larger than the padded "
                            "input %lld (input %lld, pads %lld+%lld)",
                            i, (long long)ek, (long long)k, (long long)dil, (long long)span, (long long)in,
                            (long long)pb, (long long)pe);
    span -= ek; /* span >= 0 > -ek: no overflow */
    if (d->rounding == MAXPOOL_ROUND_FLOOR)
        out = maxpool_floordiv(span, s) + 1;
    else
        out = maxpool_ceildiv(span, s) + 1;
    if (out < 1)
        return maxpool_fail(err, MAXPOOL_ERR_INVALID_SHAPE,
                            "axis %d: output size would be %lld (input %lld, pads %lld+%lld, dilated kernel %lld, "
                            "stride %lld); it must be >= 1",
                            i, (long long)out, (long long)in, (long long)pb, (long long)pe, (long long)ek,
                            (long long)s);
    /* the last window's first tap, (out-1)*s - pb, and its end (out-1)*s + ek:
     * under ceil rounding up to s-1 past the padded input */
    if (!maxpool_mul(out - 1, s, &last) || !maxpool_add(last, ek, &end))
        return maxpool_fail(err, MAXPOOL_ERR_OVERFLOW,
                            "axis %d: the last window (output %lld, stride %lld, dilated kernel %lld) overflows int64",
                            i, (long long)out, (long long)s, (long long)ek);
    /* ceil_torch: a last window that would start in the end padding is dropped */
    if (d->rounding == MAXPOOL_ROUND_CEIL_TORCH && out > 1 && last >= in + pb) {
        --out;
        last -= s;
        end -= s;
    }
    ax->out = out;
    ax->step = dil;
    ax->kernel = k;
    ax->stride = s;
    ax->dilation = dil;
    ax->pad_begin = pb;
    ax->pad_end = end - in - pb; /* effective; may be negative; end <= in + pb + pe + s - 1 */
    return MAXPOOL_OK;
}

void maxpool_axis_window(const maxpool_axis *ax, int adaptive, int64_t o, int64_t *start, int64_t *count)
{
    if (adaptive) { /* o*in < out*in, checked at plan time */
        int64_t b = (o * ax->in) / ax->out;                     /* floor(o*in/out) */
        int64_t e = maxpool_ceildiv((o + 1) * ax->in, ax->out); /* ceil((o+1)*in/out), exclusive */
        *start = b;
        *count = e - b;
        return;
    }
    /* taps p0 + j*dilation, j < kernel; p0 in [-pad_begin, in + pad_end) */
    const int64_t p0 = o * ax->stride - ax->pad_begin, d = ax->dilation;
    int64_t j0 = 0, first = p0;
    if (p0 < 0) { /* first tap at or after 0: p0 + j0*d = (p0 mod d), without forming j0*d */
        const int64_t r = (-p0) % d;
        j0 = (-p0) / d + (r != 0);
        first = r ? d - r : 0;
    }
    int64_t j1 = maxpool_floordiv(ax->in - 1 - p0, d); /* in - 1 - p0 <= in - 1 + pad_begin */
    if (j1 > ax->kernel - 1)
        j1 = ax->kernel - 1;
    *start = first;
    *count = j1 >= j0 ? j1 - j0 + 1 : 0;
}

/* ceil((m*y + l) / a) for m, y, l >= 0, a >= 1, whose result fits int64:
 * the product in 128 bits (__int128 where the compiler has it; two 64-bit
 * halves elsewhere, e.g. 32-bit x86). */
static int64_t mul_add_ceil_div(int64_t m, int64_t y, int64_t l, int64_t a)
{
#ifdef __SIZEOF_INT128__
    return (int64_t)(((__int128)m * y + l + a - 1) / a);
#else
    const uint64_t um = (uint64_t)m, uy = (uint64_t)y, ua = (uint64_t)a;
    const uint64_t m0 = um & 0xffffffffu, m1 = um >> 32, y0 = uy & 0xffffffffu, y1 = uy >> 32;
    const uint64_t p00 = m0 * y0, p01 = m0 * y1, p10 = m1 * y0, p11 = m1 * y1;
    const uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
    uint64_t lo = (mid << 32) | (p00 & 0xffffffffu);
    uint64_t hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
    const uint64_t add = (uint64_t)l + (ua - 1); /* l < 2^63, a - 1 < 2^63: no wrap */
    lo += add;
    hi += lo < add;
    /* (hi:lo) / a, the quotient known to fit: long division, one bit a step */
    uint64_t q = 0, rem = hi % ua;
    for (int i = 63; i >= 0; --i) {
        const uint64_t top = rem >> 63;
        rem = (rem << 1) | ((lo >> i) & 1u);
        q <<= 1;
        if (top || rem >= ua) {
            rem -= ua;
            q |= 1u;
        }
    }
    return (int64_t)q;
#endif
}

/* The least x >= 0 with l <= (a*x) mod m <= r, or -1 when there is none
 * (0 <= a < m, 0 <= l <= r < m). Euclid-like: each level at least halves m,
 * so the depth is below 64. */
static int64_t first_mod_in_range(int64_t a, int64_t m, int64_t l, int64_t r)
{
    if (l == 0)
        return 0;
    if (a == 0)
        return -1;
    if (a > m - a) /* (m-a)x mod m = m - (ax mod m) whenever ax mod m != 0, and 0 is outside [l, r] */
        return first_mod_in_range(m - a, m, m - r, m - l);
    const int64_t x = l / a + (l % a != 0); /* least x with a*x >= l */
    if (x <= r / a) /* a*x <= r, without forming a*x */
        return x;
    /* [l, r] holds no multiple of a: a*x - m*y lies in [l, r] for the least y
     * with (-m*y) mod a in [l mod a, r mod a]; then x = ceil((l + m*y) / a) */
    const int64_t y = first_mod_in_range((a - m % a) % a, a, l % a, r % a);
    if (y < 0)
        return -1;
    return mul_add_ceil_div(m, y, l, a);
}

/* Whether some window of fixed-window axis ax holds no input element, in
 * closed form. Windows wholly before (after) the input include the first
 * (last) one. Otherwise every window has p0 = o*s - pb >= -(k-1)*d and
 * p0 <= in-1; one with p0 >= 0 holds p0, one with p0 < 0 holds an element
 * exactly when its first tap at or after 0, p0 mod d, is below in — always
 * when d <= in. So the question is whether (o*s - pb) mod d >= in for some
 * o with o*s <= pb - 1: a linear congruence over a range. */
int maxpool_axis_has_empty_window(const maxpool_axis *ax)
{
    int64_t start, count;
    maxpool_axis_window(ax, 0, 0, &start, &count);
    if (count == 0)
        return 1;
    maxpool_axis_window(ax, 0, ax->out - 1, &start, &count);
    if (count == 0)
        return 1;
    const int64_t d = ax->dilation, pb = ax->pad_begin, in = ax->in;
    if (d <= in || pb == 0)
        return 0;
    int64_t ob = (pb - 1) / ax->stride; /* last o with p0 < 0 */
    if (ob > ax->out - 1)
        ob = ax->out - 1;
    const int64_t a = ax->stride % d, b = (d - pb % d) % d; /* p0 mod d = (a*o + b) mod d */
    if (b >= in)
        return 1; /* o = 0 */
    const int64_t o = first_mod_in_range(a, d, in - b, d - 1 - b);
    return o >= 0 && o <= ob;
}

/* Largest value of an axis' regular-form numbers that the specialised
 * kernels are offered (maxpool_plan.bounded): a small multiple of the
 * input size. */
static int64_t axis_bound(const maxpool_axis *ax) { return 4 * ax->in + 64; }

int maxpool_geometry_bounded(const struct maxpool_plan *p)
{
    if (p->in_spatial > MAXPOOL_BOUNDED_PLANE)
        return 0;
    for (int i = 0; i < p->rank; ++i) {
        const maxpool_axis *ax = &p->axis[i];
        const int64_t b = axis_bound(ax); /* in <= MAXPOOL_BOUNDED_PLANE: no overflow */
        if (ax->out > b)
            return 0;
        if (p->desc.window == MAXPOOL_WINDOW_ADAPTIVE)
            continue;
        if (ax->stride > b || ax->dilation > b || ax->kernel > b || ax->pad_begin > b || ax->pad_end > b ||
            (ax->kernel - 1) * ax->dilation + 1 > b) /* the dilated kernel fits int64 (lower_fixed_axis) */
            return 0;
    }
    return 1;
}

maxpool_status maxpool_infer(const maxpool_desc *d, const int64_t *shape, struct maxpool_plan *p, maxpool_error *err)
{
    maxpool_status st;
    if (!d)
        return maxpool_fail(err, MAXPOOL_ERR_NULL_POINTER, "desc is NULL");
    if (!shape)
        return maxpool_fail(err, MAXPOOL_ERR_NULL_POINTER, "input_shape is NULL");
    if ((st = check_enums(d, err)) != MAXPOOL_OK || (st = check_axis_attributes(d, err)) != MAXPOOL_OK)
        return st;
    const int orig_index_axis = d->index_axis;

    memset(p, 0, sizeof *p);
    p->desc = *d;
    const int r = d->spatial_rank, tr = r + 2;
    const int cl = d->layout == MAXPOOL_CHANNELS_LAST;
    for (int i = 0; i < tr; ++i) {
        if (shape[i] < 0)
            return maxpool_fail(err, MAXPOOL_ERR_INVALID_SHAPE, "input_shape[%d]=%lld must be >= 0", i,
                                (long long)shape[i]);
        p->input_shape[i] = shape[i];
    }
    p->rank = r;
    p->n = shape[0];
    p->c = cl ? shape[tr - 1] : shape[1];
    const int sp0 = cl ? 1 : 2; /* position of the first spatial dim in memory order */

    int64_t in_elems = 1, out_elems = 1;
    p->in_spatial = p->out_spatial = 1;
    for (int i = 0; i < r; ++i) {
        maxpool_axis *ax = &p->axis[i];
        ax->in = shape[sp0 + i];
        if (ax->in < 1)
            return maxpool_fail(err, MAXPOOL_ERR_INVALID_SHAPE, "input_shape[%d]=%lld: spatial sizes must be >= 1",
                                sp0 + i, (long long)ax->in);
        if (d->window == MAXPOOL_WINDOW_ADAPTIVE) {
            int64_t prod;
            ax->out = d->output_size[i];
            ax->step = 1;
            if (!maxpool_mul(ax->in, ax->out, &prod)) /* o*in and (o+1)*in for o < out */
                return maxpool_fail(err, MAXPOOL_ERR_OVERFLOW, "axis %d: input %lld times output_size %lld overflows",
                                    i, (long long)ax->in, (long long)ax->out);
        } else if ((st = lower_fixed_axis(d, i, ax, err)) != MAXPOOL_OK) {
            return st;
        }
        if (!maxpool_mul(p->in_spatial, ax->in, &p->in_spatial) ||
            !maxpool_mul(p->out_spatial, ax->out, &p->out_spatial))
            return maxpool_fail(err, MAXPOOL_ERR_OVERFLOW, "spatial size overflows int64 at axis %d", i);
    }
    /* output shape in memory order */
    p->output_shape[0] = p->n;
    p->output_shape[cl ? tr - 1 : 1] = p->c;
    for (int i = 0; i < r; ++i)
        p->output_shape[sp0 + i] = p->axis[i].out;

    const int64_t esz = (int64_t)maxpool_dtype_size(d->dtype);
    const int64_t isz = d->index_type == MAXPOOL_INDEX_I64 ? 8 : 4;
    /* Sizes in bytes, with N and C counted as at least 1: an empty tensor
     * (N or C = 0) whose other dimensions multiply past int64 is refused too,
     * so every partial product of the shapes (C * spatial, the index
     * multipliers) fits, in whatever order a caller forms it. */
    const int64_t n1 = p->n > 0 ? p->n : 1, c1 = p->c > 0 ? p->c : 1;
    if (!maxpool_mul(n1, c1, &in_elems) || !maxpool_mul(in_elems, p->in_spatial, &in_elems) ||
        !maxpool_mul(in_elems, esz, &(int64_t){0}))
        return maxpool_fail(err, MAXPOOL_ERR_OVERFLOW, "input tensor size overflows");
    if (!maxpool_mul(n1, c1, &out_elems) || !maxpool_mul(out_elems, p->out_spatial, &out_elems) ||
        !maxpool_mul(out_elems, esz > isz ? esz : isz, &(int64_t){0}))
        return maxpool_fail(err, MAXPOOL_ERR_OVERFLOW, "output tensor size overflows");

    /* Windows with no input element: rejected on request; with FIRST_TAP
     * their index can name a coordinate past the input end. */
    int64_t max_coord[MAXPOOL_MAX_SPATIAL];
    for (int i = 0; i < r; ++i) {
        const maxpool_axis *ax = &p->axis[i];
        max_coord[i] = ax->in - 1;
        if (d->window == MAXPOOL_WINDOW_ADAPTIVE) /* adaptive windows are never empty */
            continue;
        p->axis[i].has_empty = maxpool_axis_has_empty_window(ax);
        if (!ax->has_empty)
            continue;
        if (d->reject_empty_windows)
            return maxpool_fail(err, MAXPOOL_ERR_INVALID_ATTRIBUTE,
                                "axis %d: a window holds no input element (pad_begin %lld, pad_end %lld, "
                                "kernel %lld, dilation %lld, input %lld)",
                                i, (long long)ax->pad_begin, (long long)ax->pad_end, (long long)ax->kernel,
                                (long long)ax->dilation, (long long)ax->in);
        /* only FIRST_TAP names such positions; a first tap is either the
         * window's first tap (largest for the last window) or lies below the
         * dilation */
        if (d->empty_index != MAXPOOL_EMPTY_INDEX_FIRST_TAP)
            continue;
        const int64_t last_first = (ax->out - 1) * ax->stride - ax->pad_begin;
        if (last_first > max_coord[i])
            max_coord[i] = last_first;
        if (ax->dilation - 1 > max_coord[i])
            max_coord[i] = ax->dilation - 1;
    }

    /* index convention; conventions the kernels do not compute become the
     * within-plane row-major offset (index_axis 2) plus a post-transform */
    p->idx_post = MAXPOOL_IDX_POST_NONE;
    if (d->index_type != MAXPOOL_INDEX_NONE && (d->index_axis > 2 || d->index_order == MAXPOOL_INDEX_CHANNELS_LAST)) {
        p->idx_post = d->index_axis > 2 ? MAXPOOL_IDX_POST_MOD : MAXPOOL_IDX_POST_CHANNELS_LAST;
        p->desc.index_axis = 2;
        p->desc.index_order = MAXPOOL_INDEX_ROW_MAJOR;
        d = &p->desc; /* the kernels' convention from here on */
    }
    if (d->index_type != MAXPOOL_INDEX_NONE) {
        int64_t mul = 1, max_spatial = 0;
        for (int i = 0; i < r; ++i) { /* column-major multipliers */
            p->idx_col_mul[i] = mul;
            if (!maxpool_mul(mul, p->axis[i].in, &mul))
                return maxpool_fail(err, MAXPOOL_ERR_OVERFLOW, "index range overflows int64");
        }
        mul = 1;
        for (int i = r - 1; i >= 0; --i) { /* row-major multipliers */
            p->idx_row_mul[i] = mul;
            mul *= p->axis[i].in; /* no overflow: bounded by the column-major product above */
        }
        mul = 1;
        for (int i = r - 1; i >= 0; --i) { /* largest spatial index either order can produce */
            int64_t term;
            int64_t m = d->index_order == MAXPOOL_INDEX_COL_MAJOR ? p->idx_col_mul[i] : mul;
            if (!maxpool_mul(max_coord[i], m, &term) || !maxpool_add(max_spatial, term, &max_spatial))
                return maxpool_fail(err, MAXPOOL_ERR_OVERFLOW, "index range overflows int64");
            mul *= p->axis[i].in;
        }
        p->idx_c = d->index_axis <= 1 ? p->in_spatial : 0;
        p->idx_n = d->index_axis == 0 ? p->c * p->in_spatial : 0;
        int64_t max_index = max_spatial; /* + (n-1)*idx_n + (c-1)*idx_c <= input elements */
        if (p->n > 0 && p->c > 0 &&
            !maxpool_add(max_index, (p->n - 1) * p->idx_n + (p->c - 1) * p->idx_c, &max_index))
            return maxpool_fail(err, MAXPOOL_ERR_OVERFLOW, "index range overflows int64");
        if (d->index_type == MAXPOOL_INDEX_I32 && max_index > INT32_MAX)
            return maxpool_fail(err, MAXPOOL_ERR_OVERFLOW,
                                "index_type=i32: indices up to %lld do not fit int32 (index_axis=%d%s)",
                                (long long)max_index, orig_index_axis,
                                p->idx_post == MAXPOOL_IDX_POST_NONE ? ""
                                : p->idx_post == MAXPOOL_IDX_POST_MOD
                                    ? "; the within-plane offset, computed first, must fit"
                                    : "");
        if (p->idx_post == MAXPOOL_IDX_POST_MOD) {
            const int a = orig_index_axis - 2; /* first spatial axis kept: the modulus divides in_spatial */
            int64_t m = 1;
            for (int i = a; i < r; ++i)
                m *= p->axis[i].in;
            p->idx_post_mod = m;
        } else if (p->idx_post == MAXPOOL_IDX_POST_CHANNELS_LAST) {
            /* largest index: max_spatial*C + (C-1) + (N-1)*C*in_spatial */
            const int64_t cpos = p->c > 0 ? p->c : 1;
            int64_t top;
            p->idx_post_n = orig_index_axis == 0 ? cpos * p->in_spatial : 0; /* fits: the input size was checked */
            if (!maxpool_mul(max_spatial, cpos, &top) || !maxpool_add(top, cpos - 1, &top) ||
                (p->n > 0 && !maxpool_add(top, (p->n - 1) * p->idx_post_n, &top)))
                return maxpool_fail(err, MAXPOOL_ERR_OVERFLOW, "index range overflows int64");
            if (d->index_type == MAXPOOL_INDEX_I32 && top > INT32_MAX)
                return maxpool_fail(err, MAXPOOL_ERR_OVERFLOW,
                                    "index_type=i32: channels-last indices up to %lld do not fit int32 "
                                    "(index_axis=%d)",
                                    (long long)top, orig_index_axis);
        }
    }
    /* the kernels' in-plane offsets (row-major), saturated */
    {
        int64_t m = 1, off = 0, term;
        for (int i = r - 1; i >= 0; --i) {
            if (!maxpool_mul(max_coord[i], m, &term) || !maxpool_add(off, term, &off)) {
                off = INT64_MAX;
                break;
            }
            m *= p->axis[i].in; /* <= in_spatial */
        }
        p->max_offset = off;
    }
    p->init = maxpool_start_value(d->dtype, d->empty_value);
    p->nan_propagate = d->nan_policy == MAXPOOL_NAN_PROPAGATE;
    return MAXPOOL_OK;
}
