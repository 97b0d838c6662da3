/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Output-shape tables. Every expected value is a literal worked out by hand
 * from the formulas in the spec texts (OpenVINO MaxPool-8/-14, ONNX MaxPool,
 * aclnnAdaptiveMaxPool3d; where a text and its system disagree, the system):
 *   floor      out = floor((in + pb + pe - ek) / s) + 1,  ek = (k-1)*d + 1
 *   ceil       out = ceil((in + pb + pe - ek) / s) + 1
 *   ceil_torch ceil, then out -= 1 when (out-1)*s >= in + pb
 *   valid      pb = pe = 0, rounding as above (3x3 k2 s2 ceil -> 2x2)
 *   same_*     total = max(0, (ceil(in/s)-1)*s + ek - in),
 *              upper: pb = floor(total/2), lower: pb = total - floor(total/2),
 *              then out by the rounding over those pads: floor gives
 *              ceil(in/s) (the ONNX text); ceil can give one more, which is
 *              what OpenVINO computes (probed with the openvino package:
 *              in 2, k1, s3, same_upper, ceil -> 2 outputs, the second empty)
 *   adaptive   window o = [floor(o*in/out), ceil((o+1)*in/out))
 * Each 1-D row is also run on the ascending input 1..in (f32, int64
 * indices, -1 for empty windows): the index of output 0 and of the last
 * output is the last input element that window covers, which shows where the
 * windows lie (the pad split of SAME, the extra window of ceil).
 */
#include "maxpool.h"
#include "plan.h"
#include "shape.h"
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define E MAXPOOL_PAD_EXPLICIT
#define V MAXPOOL_PAD_VALID
#define SU MAXPOOL_PAD_SAME_UPPER
#define SL MAXPOOL_PAD_SAME_LOWER
#define FL MAXPOOL_ROUND_FLOOR
#define CE MAXPOOL_ROUND_CEIL
#define CT MAXPOOL_ROUND_CEIL_TORCH
#define ERR (-1) /* want_out: MAXPOOL_ERR_INVALID_SHAPE */

typedef struct row1d {
    int line;
    int64_t in, k, s, d, pb, pe;
    maxpool_auto_pad ap;
    maxpool_rounding rd;
    int64_t want_out;  /* ERR: the plan is rejected */
    int64_t want_pb;   /* effective pad_begin */
    int64_t first_idx; /* index output 0 picks on ascending input (-1: empty window) */
    int64_t last_idx;  /* index the last output picks */
} row1d;

#define R(...) {__LINE__, __VA_ARGS__}

static const row1d rows[] = {
    /* explicit, floor / ceil / ceil_torch */
    R(5, 3, 1, 1, 0, 0, E, FL, 3, 0, 2, 4),
    R(5, 3, 2, 1, 0, 0, E, FL, 2, 0, 2, 4),
    R(6, 3, 2, 1, 0, 0, E, FL, 2, 0, 2, 4),
    R(6, 3, 2, 1, 0, 0, E, CE, 3, 0, 2, 5),
    R(6, 3, 2, 1, 0, 0, E, CT, 3, 0, 2, 5),
    R(7, 3, 2, 1, 0, 0, E, CE, 3, 0, 2, 6), /* divisible: ceil == floor */
    R(7, 3, 2, 1, 0, 0, E, FL, 3, 0, 2, 6),
    /* OpenVINO issue 18731: 5, k2 s2 pads 1/1: ceil 4 (last window all padding), ceil_torch 3 */
    R(5, 2, 2, 1, 1, 1, E, FL, 3, 1, 0, 4),
    R(5, 2, 2, 1, 1, 1, E, CE, 4, 1, 0, -1),
    R(5, 2, 2, 1, 1, 1, E, CT, 3, 1, 0, 4),
    /* MaxPool-14 example 5: 3, k2 s2 pads 1/1 */
    R(3, 2, 2, 1, 1, 1, E, FL, 2, 1, 0, 2),
    R(3, 2, 2, 1, 1, 1, E, CE, 3, 1, 0, -1),
    R(3, 2, 2, 1, 1, 1, E, CT, 2, 1, 0, 2),
    /* PyTorch issue 45357: k1 s2 no padding, 6 and 7 */
    R(6, 1, 2, 1, 0, 0, E, FL, 3, 0, 0, 4),
    R(6, 1, 2, 1, 0, 0, E, CE, 4, 0, 0, -1),
    R(6, 1, 2, 1, 0, 0, E, CT, 3, 0, 0, 4),
    R(7, 1, 2, 1, 0, 0, E, CT, 4, 0, 0, 6),
    /* PyTorch issue 57178: 32, k1 s2 */
    R(32, 1, 2, 1, 0, 0, E, FL, 16, 0, 0, 30),
    R(32, 1, 2, 1, 0, 0, E, CE, 17, 0, 0, -1),
    R(32, 1, 2, 1, 0, 0, E, CT, 16, 0, 0, 30),
    /* the drop rule compares with in + pad_begin, not the end pad */
    R(4, 2, 2, 1, 1, 0, E, FL, 2, 1, 0, 2),
    R(4, 2, 2, 1, 1, 0, E, CT, 3, 1, 0, 3),
    /* dilations */
    R(7, 3, 1, 2, 0, 0, E, FL, 3, 0, 4, 6),
    R(7, 3, 2, 2, 0, 0, E, FL, 2, 0, 4, 6),
    R(7, 3, 2, 2, 0, 0, E, CE, 2, 0, 4, 6),
    R(8, 3, 2, 2, 0, 0, E, FL, 2, 0, 4, 6),
    R(8, 3, 2, 2, 0, 0, E, CE, 3, 0, 4, 6),
    R(8, 3, 2, 2, 0, 0, E, CT, 3, 0, 4, 6),
    R(4, 2, 1, 3, 0, 0, E, FL, 1, 0, 3, 3),
    /* kernel larger than the input */
    R(2, 3, 1, 1, 0, 0, E, FL, ERR, 0, 0, 0),
    R(2, 3, 2, 1, 0, 0, E, FL, ERR, 0, 0, 0), /* floor(-1/2)+1 = 0; truncation would say 1 */
    R(2, 3, 2, 1, 0, 0, E, CE, 1, 0, 1, 1),   /* ceil(-1/2)+1 = 1 */
    R(2, 3, 2, 1, 0, 0, E, CT, 1, 0, 1, 1),
    R(2, 4, 2, 1, 0, 0, E, CE, ERR, 0, 0, 0), /* ceil(-2/2)+1 = 0 */
    R(1, 3, 1, 1, 1, 1, E, FL, 1, 1, 0, 0),
    R(1, 2, 1, 1, 1, 0, E, FL, 1, 1, 0, 0),
    /* pads larger than the kernel: windows wholly in padding are empty */
    R(2, 1, 1, 1, 3, 3, E, FL, 8, 3, -1, -1),
    /* valid (given pads are ignored) */
    R(3, 2, 2, 1, 0, 0, V, FL, 1, 0, 1, 1),
    R(3, 2, 2, 1, 0, 0, V, CE, 2, 0, 1, 2), /* 3x3 k2 s2 valid+ceil -> 2x2 (ORT, OpenVINO; not the texts' 1x1) */
    R(3, 2, 2, 1, 0, 0, V, CT, 2, 0, 1, 2),
    R(5, 1, 3, 1, 0, 0, V, FL, 2, 0, 0, 3),
    R(5, 1, 3, 1, 0, 0, V, CE, 3, 0, 0, -1),
    R(5, 1, 3, 1, 0, 0, V, CT, 2, 0, 0, 3),
    R(10, 3, 3, 1, 0, 0, V, FL, 3, 0, 2, 8),
    R(10, 3, 3, 1, 0, 0, V, CE, 4, 0, 2, 9),
    R(10, 3, 3, 1, 0, 0, V, CT, 4, 0, 2, 9),
    R(10, 3, 2, 2, 0, 0, V, FL, 3, 0, 4, 8),
    R(10, 3, 2, 2, 0, 0, V, CE, 4, 0, 4, 8),
    R(5, 2, 2, 1, 1, 1, V, FL, 2, 0, 1, 3),
    R(2, 3, 1, 1, 0, 0, V, FL, ERR, 0, 0, 0),
    R(2, 3, 1, 1, 0, 0, V, CE, ERR, 0, 0, 0),
    R(2, 3, 2, 1, 0, 0, V, CE, 1, 0, 1, 1),
    /* same_upper / same_lower: out = ceil(in/s), odd pad at the end / the start */
    R(5, 3, 1, 1, 0, 0, SU, FL, 5, 1, 1, 4),
    R(5, 3, 1, 1, 0, 0, SL, FL, 5, 1, 1, 4),
    R(5, 3, 2, 1, 0, 0, SU, FL, 3, 1, 1, 4),
    R(5, 3, 2, 1, 0, 0, SL, FL, 3, 1, 1, 4),
    R(6, 3, 2, 1, 0, 0, SU, FL, 3, 0, 2, 5),
    R(6, 3, 2, 1, 0, 0, SL, FL, 3, 1, 1, 5),
    R(7, 4, 3, 1, 0, 0, SU, FL, 3, 1, 2, 6),
    R(7, 4, 3, 1, 0, 0, SL, FL, 3, 2, 1, 6),
    R(4, 4, 1, 1, 0, 0, SU, FL, 4, 1, 2, 3),
    R(4, 4, 1, 1, 0, 0, SL, FL, 4, 2, 1, 3),
    R(5, 3, 1, 2, 0, 0, SU, FL, 5, 2, 2, 4),
    R(6, 3, 2, 2, 0, 0, SU, FL, 3, 1, 3, 5),
    R(6, 3, 2, 2, 0, 0, SL, FL, 3, 2, 2, 4),
    R(7, 1, 3, 1, 0, 0, SU, FL, 3, 0, 0, 6),
    R(8, 1, 3, 1, 0, 0, SL, FL, 3, 0, 0, 6), /* total -1 clamps to 0 */
    R(2, 1, 5, 1, 0, 0, SU, FL, 1, 0, 0, 0),
    R(6, 3, 2, 1, 5, 5, SU, CT, 3, 0, 2, 5), /* given pads do not apply */
    R(6, 3, 2, 1, 5, 5, SL, CE, 3, 1, 1, 5),
    R(2, 1, 3, 1, 0, 0, SU, CE, 2, 0, 0, -1), /* openvino: same_upper + ceil, total 0 -> 2 outputs */
    R(2, 1, 3, 1, 0, 0, SU, FL, 1, 0, 0, 0),
    R(9, 2, 2, 1, 0, 0, SU, FL, 5, 0, 1, 8), /* out 5, total 1: upper pb 0, window 4 = {8, pad} */
    R(9, 2, 2, 1, 0, 0, SL, FL, 5, 1, 0, 8), /* lower pb 1: window 0 = {pad, 0}, window 4 = {7, 8} */
};

static const char *pad_name(maxpool_auto_pad a)
{
    static const char *const n[] = {"explicit", "valid", "same_upper", "same_lower"};
    return n[a];
}

static const char *round_name(maxpool_rounding r)
{
    static const char *const n[] = {"floor", "ceil", "ceil_torch"};
    return n[r];
}

static void check_row(const row1d *w)
{
    ts_set_context("row at line %d: in %lld k %lld s %lld d %lld pads %lld/%lld %s %s", w->line, (long long)w->in,
                   (long long)w->k, (long long)w->s, (long long)w->d, (long long)w->pb, (long long)w->pe,
                   pad_name(w->ap), round_name(w->rd));
    maxpool_desc d;
    maxpool_desc_init(&d, 1);
    d.kernel[0] = w->k;
    d.stride[0] = w->s;
    d.dilation[0] = w->d;
    d.pad_begin[0] = w->pb;
    d.pad_end[0] = w->pe;
    d.auto_pad = w->ap;
    d.rounding = w->rd;
    d.index_type = MAXPOOL_INDEX_I64;
    const int64_t shape[3] = {1, 1, w->in};
    int64_t out[3] = {-7, -7, -7};
    maxpool_error err;
    maxpool_status st = maxpool_output_shape(&d, shape, out, &err);
    maxpool_plan *p = NULL;
    maxpool_status st2 = maxpool_plan_create(&d, shape, &p, NULL);
    if (w->want_out == ERR) {
        CHECK_STATUS(st, MAXPOOL_ERR_INVALID_SHAPE);
        CHECK_STATUS(st2, MAXPOOL_ERR_INVALID_SHAPE);
        CHECK(p == NULL);
        CHECK_CONTAINS(err.message, "axis 0");
        maxpool_plan_destroy(p);
        return;
    }
    CHECK_STATUS(st, MAXPOOL_OK);
    CHECK_EQ_I64(out[0], 1);
    CHECK_EQ_I64(out[1], 1);
    CHECK_EQ_I64(out[2], w->want_out);
    CHECK_STATUS(st2, MAXPOOL_OK);
    if (!p)
        return;
    int64_t pout[3] = {-7, -7, -7};
    maxpool_plan_output_shape(p, pout);
    CHECK_EQ_I64(pout[2], w->want_out);
    if (!CHECK_EQ_I64(maxpool_plan_output_elements(p), w->want_out)) {
        maxpool_plan_destroy(p);
        return;
    }
    CHECK_EQ_I64(maxpool_plan_input_elements(p), w->in);
    CHECK_EQ_I64(p->axis[0].pad_begin, w->want_pb);

    float *x = malloc((size_t)w->in * sizeof *x);
    for (int64_t i = 0; i < w->in; ++i)
        x[i] = (float)(i + 1);
    float *y = malloc((size_t)w->want_out * sizeof *y);
    int64_t *ind = malloc((size_t)w->want_out * sizeof *ind);
    CHECK_STATUS(maxpool_run(p, x, y, ind), MAXPOOL_OK);
    CHECK_EQ_I64(ind[0], w->first_idx);
    CHECK_EQ_I64(ind[w->want_out - 1], w->last_idx);
    /* the value agrees with the index: x[i] = i + 1, or -FLT_MAX when empty */
    for (int64_t o = 0; o < w->want_out; ++o) {
        const float want = ind[o] >= 0 ? (float)(ind[o] + 1) : -3.40282347e38f;
        CHECK_MSG(y[o] == want, "y[%lld] = %g, want %g", (long long)o, (double)y[o], (double)want);
    }
    free(x);
    free(y);
    free(ind);
    maxpool_plan_destroy(p);
}

/* Adaptive windows: out = output_size; window bounds written out by hand. */
static void check_adaptive(int64_t in, int64_t out, const int64_t *starts, const int64_t *ends)
{
    ts_set_context("adaptive in %lld out %lld", (long long)in, (long long)out);
    maxpool_desc d;
    maxpool_desc_init(&d, 1);
    d.window = MAXPOOL_WINDOW_ADAPTIVE;
    d.output_size[0] = out;
    d.index_type = MAXPOOL_INDEX_I64;
    /* output_size wins over the fixed-window fields */
    d.kernel[0] = 100;
    d.stride[0] = 7;
    const int64_t shape[3] = {1, 1, in};
    int64_t os[3];
    CHECK_STATUS(maxpool_output_shape(&d, shape, os, NULL), MAXPOOL_OK);
    CHECK_EQ_I64(os[2], out);
    maxpool_plan *p = NULL;
    CHECK_STATUS(maxpool_plan_create(&d, shape, &p, NULL), MAXPOOL_OK);
    if (!p)
        return;
    for (int64_t o = 0; o < out; ++o) { /* closed form, and the window arrays when the plan's kernel has them */
        int64_t st, cn;
        maxpool_axis_window(&p->axis[0], 1, o, &st, &cn);
        CHECK_EQ_I64(st, starts[o]);
        CHECK_EQ_I64(cn, ends[o] - starts[o]);
        if (p->axis[0].start) {
            CHECK_EQ_I64(p->axis[0].start[o], starts[o]);
            CHECK_EQ_I64(p->axis[0].count[o], ends[o] - starts[o]);
        }
    }
    /* observable: on ascending input output o picks the window's last element,
     * on descending input its first */
    float *x = malloc((size_t)in * sizeof *x), *y = malloc((size_t)out * sizeof *y);
    int64_t *ind = malloc((size_t)out * sizeof *ind);
    for (int64_t i = 0; i < in; ++i)
        x[i] = (float)i;
    CHECK_STATUS(maxpool_run(p, x, y, ind), MAXPOOL_OK);
    for (int64_t o = 0; o < out; ++o)
        CHECK_EQ_I64(ind[o], ends[o] - 1);
    for (int64_t i = 0; i < in; ++i)
        x[i] = (float)(in - i);
    CHECK_STATUS(maxpool_run(p, x, y, ind), MAXPOOL_OK);
    for (int64_t o = 0; o < out; ++o)
        CHECK_EQ_I64(ind[o], starts[o]);
    free(x);
    free(y);
    free(ind);
    maxpool_plan_destroy(p);
}

static void adaptive_tables(void)
{
    { const int64_t s[] = {0, 1, 3}, e[] = {2, 4, 5}; check_adaptive(5, 3, s, e); }
    { const int64_t s[] = {0, 2, 5, 7}, e[] = {3, 5, 8, 10}; check_adaptive(10, 4, s, e); }
    /* out > in: overlapping windows of one or two elements */
    { const int64_t s[] = {0, 0, 1, 1, 2}, e[] = {1, 2, 2, 3, 3}; check_adaptive(3, 5, s, e); }
    { const int64_t s[] = {0, 0, 0}, e[] = {1, 1, 1}; check_adaptive(1, 3, s, e); }
    { const int64_t s[] = {0, 1, 2, 3}, e[] = {1, 2, 3, 4}; check_adaptive(4, 4, s, e); }
    { const int64_t s[] = {0}, e[] = {7}; check_adaptive(7, 1, s, e); }
    { const int64_t s[] = {0, 2, 4}, e[] = {3, 5, 7}; check_adaptive(7, 3, s, e); }
    /* 3-D (aclnn style): each axis independently */
    ts_set_context("adaptive 3-D");
    maxpool_desc d;
    maxpool_desc_init(&d, 3);
    d.window = MAXPOOL_WINDOW_ADAPTIVE;
    d.output_size[0] = 2;
    d.output_size[1] = 5;
    d.output_size[2] = 1;
    const int64_t shape[5] = {2, 3, 4, 3, 9}, want[5] = {2, 3, 2, 5, 1};
    int64_t out[5];
    CHECK_STATUS(maxpool_output_shape(&d, shape, out, NULL), MAXPOOL_OK);
    CHECK_BITS_EQ(out, want, 5, 8, "adaptive 3-D shape");
    d.layout = MAXPOOL_CHANNELS_LAST;
    const int64_t shape_cl[5] = {2, 4, 3, 9, 3}, want_cl[5] = {2, 2, 5, 1, 3};
    CHECK_STATUS(maxpool_output_shape(&d, shape_cl, out, NULL), MAXPOOL_OK);
    CHECK_BITS_EQ(out, want_cl, 5, 8, "adaptive 3-D channels-last shape");
}

/* Multi-axis, per-axis attributes, both layouts; checks output_shape against plan. */
static void check_nd(const char *what, const maxpool_desc *d, const int64_t *shape, const int64_t *want)
{
    ts_set_context("%s", what);
    const int tr = d->spatial_rank + 2;
    int64_t out[MAXPOOL_MAX_SPATIAL + 2], pout[MAXPOOL_MAX_SPATIAL + 2];
    CHECK_STATUS(maxpool_output_shape(d, shape, out, NULL), MAXPOOL_OK);
    CHECK_BITS_EQ(out, want, tr, 8, what);
    maxpool_plan *p = NULL;
    CHECK_STATUS(maxpool_plan_create(d, shape, &p, NULL), MAXPOOL_OK);
    if (p) {
        maxpool_plan_output_shape(p, pout);
        CHECK_BITS_EQ(pout, want, tr, 8, what);
        maxpool_plan_destroy(p);
    }
}

static void nd_tables(void)
{
    maxpool_desc d;
    /* 2-D 7x6, k3 s2: H floor(4/2)+1 = 3, W floor(3/2)+1 = 2 */
    maxpool_desc_init(&d, 2);
    d.kernel[0] = d.kernel[1] = 3;
    d.stride[0] = d.stride[1] = 2;
    { const int64_t s[] = {2, 3, 7, 6}, w[] = {2, 3, 3, 2}; check_nd("2-D NCHW", &d, s, w); }
    d.layout = MAXPOOL_CHANNELS_LAST;
    { const int64_t s[] = {2, 7, 6, 3}, w[] = {2, 3, 2, 3}; check_nd("2-D NHWC", &d, s, w); }
    d.rounding = MAXPOOL_ROUND_CEIL; /* H ceil(4/2)+1 = 3, W ceil(3/2)+1 = 3 */
    { const int64_t s[] = {2, 7, 6, 3}, w[] = {2, 3, 3, 3}; check_nd("2-D NHWC ceil", &d, s, w); }

    /* 3-D, every axis different: in 5,6,8; k 3,2,1; s 2,2,3; d 1,2,1; pads 1/1, 0/1, 0/0
     *   axis 0: ek 3, span 5+2-3 = 4:  floor 3, ceil 3, torch 3
     *   axis 1: ek 3, span 6+1-3 = 4:  floor 3, ceil 3, torch 3
     *   axis 2: ek 1, span 8-1 = 7:    floor 3, ceil 4, torch: 3*3 = 9 >= 8 -> 3 */
    maxpool_desc_init(&d, 3);
    const int64_t k[] = {3, 2, 1}, s[] = {2, 2, 3}, dl[] = {1, 2, 1}, pb[] = {1, 0, 0}, pe[] = {1, 1, 0};
    for (int i = 0; i < 3; ++i) {
        d.kernel[i] = k[i];
        d.stride[i] = s[i];
        d.dilation[i] = dl[i];
        d.pad_begin[i] = pb[i];
        d.pad_end[i] = pe[i];
    }
    { const int64_t sh[] = {1, 2, 5, 6, 8}, w[] = {1, 2, 3, 3, 3}; check_nd("3-D floor", &d, sh, w); }
    d.rounding = MAXPOOL_ROUND_CEIL;
    { const int64_t sh[] = {1, 2, 5, 6, 8}, w[] = {1, 2, 3, 3, 4}; check_nd("3-D ceil", &d, sh, w); }
    d.rounding = MAXPOOL_ROUND_CEIL_TORCH;
    { const int64_t sh[] = {1, 2, 5, 6, 8}, w[] = {1, 2, 3, 3, 3}; check_nd("3-D ceil_torch", &d, sh, w); }
    d.layout = MAXPOOL_CHANNELS_LAST;
    d.rounding = MAXPOOL_ROUND_CEIL;
    { const int64_t sh[] = {1, 5, 6, 8, 2}, w[] = {1, 3, 3, 4, 2}; check_nd("3-D NDHWC ceil", &d, sh, w); }
    /* same_lower on 3-D with floor: ceil(5/2)=3, ceil(6/2)=3, ceil(8/3)=3 */
    d.auto_pad = MAXPOOL_PAD_SAME_LOWER;
    d.rounding = MAXPOOL_ROUND_FLOOR;
    { const int64_t sh[] = {1, 5, 6, 8, 2}, w[] = {1, 3, 3, 3, 2}; check_nd("3-D NDHWC same_lower", &d, sh, w); }

    /* rank 8, all ones kernel 2 on size 3: out 2 each */
    maxpool_desc_init(&d, 8);
    for (int i = 0; i < 8; ++i)
        d.kernel[i] = 2;
    { const int64_t sh[] = {1, 1, 3, 3, 3, 3, 3, 3, 3, 3}, w[] = {1, 1, 2, 2, 2, 2, 2, 2, 2, 2};
      check_nd("8-D", &d, sh, w); }

    /* sizes past float precision (PyTorch PR 14405): in = 2^24 + 1, k1 s1 -> 2^24 + 1 (float says
     * 2^24); in = 2^25 + 3, k3 s2 -> floor((2^25)/2) + 1 = 2^24 + 1; ceil: the same (divisible).
     * Shape inference only. (Sizes near 2^40 are valid too, but shape inference walks every
     * window of an axis, which takes minutes there: see the test report.) */
    maxpool_desc_init(&d, 1);
    d.dtype = MAXPOOL_U8;
    {
        const int64_t sh[] = {1, 1, (INT64_C(1) << 24) + 1};
        int64_t out[3];
        ts_set_context("in 2^24+1");
        CHECK_STATUS(maxpool_output_shape(&d, sh, out, NULL), MAXPOOL_OK);
        CHECK_EQ_I64(out[2], (INT64_C(1) << 24) + 1);
        d.kernel[0] = 3;
        d.stride[0] = 2;
        const int64_t sh2[] = {1, 1, (INT64_C(1) << 25) + 3};
        CHECK_STATUS(maxpool_output_shape(&d, sh2, out, NULL), MAXPOOL_OK);
        CHECK_EQ_I64(out[2], (INT64_C(1) << 24) + 1);
        d.rounding = MAXPOOL_ROUND_CEIL;
        CHECK_STATUS(maxpool_output_shape(&d, sh2, out, NULL), MAXPOOL_OK);
        CHECK_EQ_I64(out[2], (INT64_C(1) << 24) + 1);
        const int64_t sh3[] = {1, 1, (INT64_C(1) << 25) + 4}; /* ceil((2^25+1)/2) + 1 = 2^24 + 2 */
        CHECK_STATUS(maxpool_output_shape(&d, sh3, out, NULL), MAXPOOL_OK);
        CHECK_EQ_I64(out[2], (INT64_C(1) << 24) + 2);
        d.rounding = MAXPOOL_ROUND_FLOOR; /* floor((2^25+1)/2) + 1 = 2^24 + 1 */
        CHECK_STATUS(maxpool_output_shape(&d, sh3, out, NULL), MAXPOOL_OK);
        CHECK_EQ_I64(out[2], (INT64_C(1) << 24) + 1);
    }
}

/* Empty tensors: N = 0 or C = 0. The shape is computed, run succeeds, writes nothing. */
static void empty_tensors(void)
{
    struct {
        maxpool_layout layout;
        int64_t shape[4], want[4];
    } cases[] = {
        {MAXPOOL_CHANNELS_FIRST, {0, 3, 5, 5}, {0, 3, 4, 4}},
        {MAXPOOL_CHANNELS_FIRST, {2, 0, 5, 5}, {2, 0, 4, 4}},
        {MAXPOOL_CHANNELS_LAST, {0, 5, 5, 3}, {0, 4, 4, 3}},
        {MAXPOOL_CHANNELS_LAST, {2, 5, 5, 0}, {2, 4, 4, 0}},
        {MAXPOOL_CHANNELS_FIRST, {0, 0, 5, 5}, {0, 0, 4, 4}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        ts_set_context("empty tensor case %zu", i);
        maxpool_desc d;
        maxpool_desc_init(&d, 2);
        d.layout = cases[i].layout;
        d.kernel[0] = d.kernel[1] = 2;
        d.index_type = MAXPOOL_INDEX_I64;
        d.num_threads = 3;
        check_nd("empty tensor", &d, cases[i].shape, cases[i].want);
        maxpool_plan *p = NULL;
        CHECK_STATUS(maxpool_plan_create(&d, cases[i].shape, &p, NULL), MAXPOOL_OK);
        if (!p)
            continue;
        CHECK_EQ_I64(maxpool_plan_output_elements(p), 0);
        CHECK_EQ_I64(maxpool_plan_input_elements(p), 0);
        float x[4] = {1, 2, 3, 4}, y[4] = {-5, -5, -5, -5};
        int64_t ind[4] = {77, 77, 77, 77};
        CHECK_STATUS(maxpool_run(p, x, y, ind), MAXPOOL_OK);
        CHECK(y[0] == -5 && y[1] == -5 && y[2] == -5 && y[3] == -5);
        CHECK(ind[0] == 77 && ind[1] == 77 && ind[2] == 77 && ind[3] == 77);
        maxpool_plan_destroy(p);
    }
}

int main(void)
{
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; ++i)
        check_row(&rows[i]);
    adaptive_tables();
    nd_tables();
    empty_tensors();
    ts_set_context("%s", "");
    return ts_finish();
}
