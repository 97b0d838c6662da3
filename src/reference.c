/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The portable scalar reference kernel: every dtype, layout, rank, window
 * kind and index convention. One task is one (n, c) plane. Every specialised
 * kernel is tested bit-for-bit against this one.
 *
 * Windows come from maxpool_axis_window (closed form), never from the
 * plan's window arrays, so the reference takes every plan, bounded or not.
 *
 * The running max of a window starts at the plan's start value with the
 * empty-window index, and element x (scanned in row-major window order)
 * replaces it when x > best, or (NaN propagation) when x is NaN.
 */
#include "dtype.h"
#include "plan.h"
#include "shape.h"

#include <string.h>

int64_t maxpool_reference_tasks(const struct maxpool_plan *p) { return p->n * p->c; }

/* Memory strides of one plane's elements: offset of (n, c, s) = n*sn + c*sc + s*ss. */
typedef struct strides3 {
    int64_t sn, sc, ss;
} strides3;

static strides3 plane_strides(const struct maxpool_plan *p, int64_t spatial)
{
    strides3 s;
    if (p->desc.layout == MAXPOOL_CHANNELS_LAST) {
        s.sn = spatial * p->c;
        s.sc = 1;
        s.ss = p->c;
    } else {
        s.sn = p->c * spatial;
        s.sc = spatial;
        s.ss = 1;
    }
    return s;
}

/* KEY converts an element to the type it is compared in (f16/bf16 widen to f32). */
#define KEY_SAME(v) (v)
#define KEY_F16(v) maxpool_f16_to_f32(v)
#define KEY_BF16(v) maxpool_bf16_to_f32(v)

#define DEFINE_REFERENCE(NAME, T, KT, KEY, INIT_FIELD)                                                               \
    static void NAME(const struct maxpool_plan *p, const T *x, T *y, void *ind, int64_t t0, int64_t t1)            \
    {                                                                                                              \
        const int r = p->rank;                                                                                     \
        const strides3 xs = plane_strides(p, p->in_spatial), ys = plane_strides(p, p->out_spatial);               \
        const T init = p->init.INIT_FIELD;                                                                         \
        const int propagate = p->nan_propagate;                                                                    \
        const int first_element = p->desc.window_init == MAXPOOL_INIT_FIRST_ELEMENT;                               \
        const int adaptive = p->desc.window == MAXPOOL_WINDOW_ADAPTIVE;                                            \
        int64_t in_mul[MAXPOOL_MAX_SPATIAL]; /* row-major spatial strides of the input plane */                    \
        int64_t m = 1;                                                                                             \
        for (int i = r - 1; i >= 0; --i) {                                                                         \
            in_mul[i] = m;                                                                                         \
            m *= p->axis[i].in;                                                                                    \
        }                                                                                                          \
        for (int64_t t = t0; t < t1; ++t) {                                                                        \
            const int64_t n = t / p->c, c = t % p->c;                                                              \
            const T *xp = x + n * xs.sn + c * xs.sc;                                                               \
            int64_t oc[MAXPOOL_MAX_SPATIAL] = {0};                                                                 \
            int64_t start[MAXPOOL_MAX_SPATIAL], count[MAXPOOL_MAX_SPATIAL];                                        \
            for (int i = 0; i < r; ++i)                                                                            \
                maxpool_axis_window(&p->axis[i], adaptive, 0, &start[i], &count[i]);                               \
            for (int64_t os = 0; os < p->out_spatial; ++os) {                                                      \
                int64_t base = 0; /* row-major offset of the first tap; only formed when it is inside */          \
                int empty = 0;                                                                                     \
                for (int i = 0; i < r; ++i)                                                                        \
                    empty |= count[i] == 0;                                                                        \
                if (!empty)                                                                                        \
                    for (int i = 0; i < r; ++i)                                                                    \
                        base += start[i] * in_mul[i];                                                              \
                T best = init;                                                                                     \
                KT best_key = KEY(init);                                                                           \
                int64_t best_s = -1;                                                                               \
                if (!empty) {                                                                                      \
                    int64_t tc[MAXPOOL_MAX_SPATIAL] = {0}; /* tap odometer, last axis fastest */                  \
                    for (;;) {                                                                                     \
                        int64_t s = base;                                                                          \
                        for (int i = 0; i < r; ++i)                                                                \
                            s += tc[i] * p->axis[i].step * in_mul[i];                                              \
                        const T v = xp[s * xs.ss];                                                                 \
                        const KT k = KEY(v);                                                                       \
                        if (k > best_key || (propagate && k != k) || (first_element && best_s < 0)) {              \
                            best = v;                                                                              \
                            best_key = k;                                                                          \
                            best_s = s;                                                                            \
                        }                                                                                          \
                        int i = r - 1;                                                                             \
                        while (i >= 0 && ++tc[i] == count[i])                                                      \
                            tc[i--] = 0;                                                                           \
                        if (i < 0)                                                                                 \
                            break;                                                                                 \
                    }                                                                                              \
                }                                                                                                  \
                const int64_t yo = n * ys.sn + c * ys.sc + os * ys.ss;                                             \
                y[yo] = best;                                                                                      \
                if (ind) {                                                                                         \
                    const int64_t idx =                                                                            \
                        best_s >= 0 ? maxpool_index_of(p, n, c, best_s) : maxpool_empty_index_of(p, n, c, start);  \
                    maxpool_store_index(p, ind, yo, idx);                                                          \
                }                                                                                                  \
                for (int i = r - 1; i >= 0; --i) { /* next output position; its windows in closed form */          \
                    if (++oc[i] == p->axis[i].out)                                                                 \
                        oc[i] = 0;                                                                                 \
                    maxpool_axis_window(&p->axis[i], adaptive, oc[i], &start[i], &count[i]);                       \
                    if (oc[i] != 0)                                                                                \
                        break;                                                                                     \
                }                                                                                                  \
            }                                                                                                      \
        }                                                                                                          \
    }

DEFINE_REFERENCE(ref_f32, float, float, KEY_SAME, f32)
DEFINE_REFERENCE(ref_f64, double, double, KEY_SAME, f64)
DEFINE_REFERENCE(ref_f16, uint16_t, float, KEY_F16, u16bits)
DEFINE_REFERENCE(ref_bf16, uint16_t, float, KEY_BF16, u16bits)
DEFINE_REFERENCE(ref_i8, int8_t, int8_t, KEY_SAME, i8)
DEFINE_REFERENCE(ref_u8, uint8_t, uint8_t, KEY_SAME, u8)
DEFINE_REFERENCE(ref_i16, int16_t, int16_t, KEY_SAME, i16)
DEFINE_REFERENCE(ref_u16, uint16_t, uint16_t, KEY_SAME, u16)
DEFINE_REFERENCE(ref_i32, int32_t, int32_t, KEY_SAME, i32)
DEFINE_REFERENCE(ref_i64, int64_t, int64_t, KEY_SAME, i64)

void maxpool_reference_kernel(const struct maxpool_plan *p, const void *x, void *y, void *ind, int64_t t0, int64_t t1)
{
    if (p->desc.index_type == MAXPOOL_INDEX_NONE)
        ind = NULL;
    switch (p->desc.dtype) {
    case MAXPOOL_F32: ref_f32(p, x, y, ind, t0, t1); break;
    case MAXPOOL_F64: ref_f64(p, x, y, ind, t0, t1); break;
    case MAXPOOL_F16: ref_f16(p, x, y, ind, t0, t1); break;
    case MAXPOOL_BF16: ref_bf16(p, x, y, ind, t0, t1); break;
    case MAXPOOL_I8: ref_i8(p, x, y, ind, t0, t1); break;
    case MAXPOOL_U8: ref_u8(p, x, y, ind, t0, t1); break;
    case MAXPOOL_I16: ref_i16(p, x, y, ind, t0, t1); break;
    case MAXPOOL_U16: ref_u16(p, x, y, ind, t0, t1); break;
    case MAXPOOL_I32: ref_i32(p, x, y, ind, t0, t1); break;
    case MAXPOOL_I64: ref_i64(p, x, y, ind, t0, t1); break;
    case MAXPOOL_DTYPE_COUNT: break;
    }
}
