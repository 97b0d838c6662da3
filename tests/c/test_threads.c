/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Concurrency and reuse: a plan is immutable, so one plan run at the same time
 * from several pthreads, each on its own buffers, must give the same bits as
 * single runs; and a plan run many times (inputs alternating) must give the
 * same bits every time. Covers several dtypes, both layouts, indices, and
 * num_threads 1 and 3 inside each pthread (OpenMP teams nested in pthreads);
 * and many plans created, run and destroyed from several pthreads at once.
 */
#define _POSIX_C_SOURCE 200809L

#include "maxpool.h"
#include "test_support.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NTHREADS 4
#define RUNS_PER_THREAD 40

typedef struct job {
    const maxpool_plan *plan;
    const void *x;
    void *y, *ind;
    const void *y_want, *ind_want;
    size_t ybytes, ibytes;
    int runs;
    int mismatches;
    int bad_status;
} job;

static void *worker(void *arg)
{
    job *j = arg;
    for (int r = 0; r < j->runs; ++r) {
        memset(j->y, 0xCD, j->ybytes);
        if (j->ind)
            memset(j->ind, 0xCD, j->ibytes);
        if (maxpool_run(j->plan, j->x, j->y, j->ind) != MAXPOOL_OK)
            ++j->bad_status;
        if (memcmp(j->y, j->y_want, j->ybytes) != 0 || (j->ind && memcmp(j->ind, j->ind_want, j->ibytes) != 0))
            ++j->mismatches;
    }
    return NULL;
}

static void fill_random(ts_rng *r, maxpool_dtype t, void *x, int64_t n)
{
    const size_t es = maxpool_dtype_size(t);
    unsigned char *p = x;
    for (int64_t i = 0; i < n; ++i) {
        uint64_t v = ts_rng_next(r);
        /* few distinct values (ties), NaNs now and then for float types */
        switch (t) {
        case MAXPOOL_F32: {
            float f = (float)(int)(v % 7) - 3.0f;
            if (v % 53 == 0)
                f = (float)NAN;
            memcpy(p + (size_t)i * es, &f, 4);
            break;
        }
        case MAXPOOL_F16: {
            uint16_t h = ts_f32_to_f16((float)(int)(v % 9) - 4.0f);
            if (v % 41 == 0)
                h = 0x7E00;
            memcpy(p + (size_t)i * es, &h, 2);
            break;
        }
        case MAXPOOL_BF16: {
            uint16_t h = ts_f32_to_bf16((float)(int)(v % 9) - 4.0f);
            memcpy(p + (size_t)i * es, &h, 2);
            break;
        }
        default: {
            uint64_t b = v % 11;
            memcpy(p + (size_t)i * es, &b, es); /* little-endian: the low bytes */
            break;
        }
        }
    }
}

static void concurrent_case(const char *name, const maxpool_desc *d, const int64_t *shape, uint64_t seed)
{
    ts_set_context("%s", name);
    maxpool_plan *plan = NULL;
    maxpool_error err;
    if (!CHECK_MSG(maxpool_plan_create(d, shape, &plan, &err) == MAXPOOL_OK, "%s: %s", name, err.message))
        return;
    const int64_t nin = maxpool_plan_input_elements(plan), nout = maxpool_plan_output_elements(plan);
    const size_t es = maxpool_dtype_size(d->dtype);
    const size_t is = d->index_type == MAXPOOL_INDEX_I32 ? 4 : 8;
    const int with_ind = d->index_type != MAXPOOL_INDEX_NONE;
    ts_rng r;
    ts_rng_seed(&r, seed);

    job jobs[NTHREADS];
    void *bufs[NTHREADS][5];
    for (int t = 0; t < NTHREADS; ++t) {
        void *x = malloc((size_t)nin * es);
        fill_random(&r, d->dtype, x, nin);
        void *yw = malloc((size_t)nout * es), *iw = malloc((size_t)nout * is);
        CHECK_STATUS(maxpool_run(plan, x, yw, with_ind ? iw : NULL), MAXPOOL_OK); /* single run: the expectation */
        bufs[t][0] = x;
        bufs[t][1] = yw;
        bufs[t][2] = iw;
        bufs[t][3] = malloc((size_t)nout * es);
        bufs[t][4] = malloc((size_t)nout * is);
        jobs[t] = (job){plan, x, bufs[t][3], with_ind ? bufs[t][4] : NULL, yw, iw,
                        (size_t)nout * es, (size_t)nout * is, RUNS_PER_THREAD, 0, 0};
    }
    /* inputs differ between threads, so a mix-up shows */
    CHECK(nout == 0 || memcmp(bufs[0][1], bufs[1][1], (size_t)nout * es) != 0 ||
          (with_ind && memcmp(bufs[0][2], bufs[1][2], (size_t)nout * is) != 0));

    pthread_t th[NTHREADS];
    int started[NTHREADS];
    for (int t = 0; t < NTHREADS; ++t)
        started[t] = pthread_create(&th[t], NULL, worker, &jobs[t]) == 0;
    for (int t = 0; t < NTHREADS; ++t) {
        CHECK(started[t]);
        if (started[t])
            pthread_join(th[t], NULL);
        CHECK_MSG(jobs[t].bad_status == 0, "%s: thread %d: %d runs returned an error", name, t, jobs[t].bad_status);
        CHECK_MSG(jobs[t].mismatches == 0, "%s: thread %d: %d of %d runs differ from the single run", name, t,
                  jobs[t].mismatches, RUNS_PER_THREAD);
    }

    /* the single-threaded expectation again, from a scalar-only plan (another kernel) */
    maxpool_desc ds = *d;
    ds.num_threads = 1;
    ds.max_isa = MAXPOOL_ISA_SCALAR;
    maxpool_plan *sp = NULL;
    if (CHECK(maxpool_plan_create(&ds, shape, &sp, NULL) == MAXPOOL_OK)) {
        void *y = malloc((size_t)nout * es + 1), *ind = malloc((size_t)nout * is + 1);
        for (int t = 0; t < NTHREADS; ++t) {
            CHECK_STATUS(maxpool_run(sp, bufs[t][0], y, with_ind ? ind : NULL), MAXPOOL_OK);
            CHECK_BITS_EQ(y, bufs[t][1], nout, es, "values vs the scalar plan");
            if (with_ind)
                CHECK_BITS_EQ(ind, bufs[t][2], nout, is, "indices vs the scalar plan");
        }
        free(y);
        free(ind);
        maxpool_plan_destroy(sp);
    }
    for (int t = 0; t < NTHREADS; ++t)
        for (int k = 0; k < 5; ++k)
            free(bufs[t][k]);
    maxpool_plan_destroy(plan);
    ts_set_context("%s", "");
}

/* One plan, many runs, inputs alternating: every run gives the first run's bits. */
static void reuse_case(void)
{
    ts_set_context("reuse");
    maxpool_desc d;
    maxpool_desc_init(&d, 2);
    d.kernel[0] = d.kernel[1] = 3;
    d.stride[0] = d.stride[1] = 2;
    d.pad_begin[0] = d.pad_end[1] = 1;
    d.rounding = MAXPOOL_ROUND_CEIL;
    d.index_type = MAXPOOL_INDEX_I64;
    d.num_threads = 3;
    const int64_t shape[4] = {2, 5, 19, 23};
    maxpool_plan *p = NULL;
    if (!CHECK(maxpool_plan_create(&d, shape, &p, NULL) == MAXPOOL_OK))
        return;
    const int64_t nin = maxpool_plan_input_elements(p), nout = maxpool_plan_output_elements(p);
    ts_rng r;
    ts_rng_seed(&r, 99);
    float *xa = malloc((size_t)nin * 4), *xb = malloc((size_t)nin * 4);
    fill_random(&r, MAXPOOL_F32, xa, nin);
    fill_random(&r, MAXPOOL_F32, xb, nin);
    float *ya = malloc((size_t)nout * 4), *yb = malloc((size_t)nout * 4), *y = malloc((size_t)nout * 4);
    int64_t *ia = malloc((size_t)nout * 8), *ib = malloc((size_t)nout * 8), *ind = malloc((size_t)nout * 8);
    CHECK_STATUS(maxpool_run(p, xa, ya, ia), MAXPOOL_OK);
    CHECK_STATUS(maxpool_run(p, xb, yb, ib), MAXPOOL_OK);
    int bad = 0;
    for (int it = 0; it < 500; ++it) {
        const int a = it % 2 == 0;
        memset(y, it & 0xff, (size_t)nout * 4);
        memset(ind, it & 0xff, (size_t)nout * 8);
        bad += maxpool_run(p, a ? xa : xb, y, ind) != MAXPOOL_OK;
        bad += memcmp(y, a ? ya : yb, (size_t)nout * 4) != 0;
        bad += memcmp(ind, a ? ia : ib, (size_t)nout * 8) != 0;
    }
    CHECK_EQ_INT(bad, 0);
    /* the plan's queries do not change either */
    int64_t os[4];
    maxpool_plan_output_shape(p, os);
    /* ceil((19+1-3)/2)+1 = 10, ceil((23+1-3)/2)+1 = 12 */
    CHECK(os[0] == 2 && os[1] == 5 && os[2] == 10 && os[3] == 12);
    free(xa);
    free(xb);
    free(ya);
    free(yb);
    free(y);
    free(ia);
    free(ib);
    free(ind);
    maxpool_plan_destroy(p);

    /* many plans created and destroyed */
    int fails = 0;
    for (int it = 0; it < 300; ++it) {
        maxpool_plan *q = NULL;
        d.kernel[1] = 1 + it % 5;
        fails += maxpool_plan_create(&d, shape, &q, NULL) != MAXPOOL_OK;
        maxpool_plan_destroy(q);
    }
    CHECK_EQ_INT(fails, 0);
    ts_set_context("%s", "");
}

/* Many plans created, run and destroyed at the same time from several
 * pthreads (plan creation reads the CPU features and the environment;
 * nothing in it may be shared state): each thread walks the same list of
 * descriptors, bounded and not (pads far past the input: the reference with
 * closed-form windows), and must get the bits a single thread got. */
#define CREATE_DESCS 12
typedef struct create_job {
    const maxpool_desc *descs;
    const int64_t *shape;
    const float *x;
    const float *y_want; /* [CREATE_DESCS][CREATE_MAX_OUT] */
    int failures;
} create_job;
#define CREATE_MAX_OUT 4096

static int create_and_run(const maxpool_desc *d, const int64_t *shape, const float *x, float *y)
{
    maxpool_plan *p = NULL;
    if (maxpool_plan_create(d, shape, &p, NULL) != MAXPOOL_OK)
        return 1;
    int bad = maxpool_plan_output_elements(p) > CREATE_MAX_OUT;
    if (!bad)
        bad = maxpool_run(p, x, y, NULL) != MAXPOOL_OK;
    maxpool_plan_destroy(p);
    return bad;
}

static void *create_worker(void *arg)
{
    create_job *j = arg;
    float *y = malloc(CREATE_MAX_OUT * sizeof *y);
    for (int rep = 0; rep < 30; ++rep)
        for (int k = 0; k < CREATE_DESCS; ++k) {
            memset(y, 0xa5, CREATE_MAX_OUT * sizeof *y);
            j->failures += create_and_run(&j->descs[k], j->shape, j->x, y);
            j->failures += memcmp(y, j->y_want + (size_t)k * CREATE_MAX_OUT, CREATE_MAX_OUT * sizeof *y) != 0;
        }
    free(y);
    return NULL;
}

static void concurrent_create_case(void)
{
    ts_set_context("concurrent plan creation");
    maxpool_desc descs[CREATE_DESCS];
    const int64_t shape[4] = {1, 3, 11, 13};
    for (int k = 0; k < CREATE_DESCS; ++k) {
        maxpool_desc *d = &descs[k];
        maxpool_desc_init(d, 2);
        d->kernel[0] = 1 + k % 4;
        d->kernel[1] = 1 + (k + 1) % 3;
        d->stride[0] = 1 + k % 2;
        d->stride[1] = 1 + k % 3;
        d->layout = k % 3 == 2 ? MAXPOOL_CHANNELS_LAST : MAXPOOL_CHANNELS_FIRST;
        d->rounding = (maxpool_rounding)(k % 3);
        d->num_threads = 1 + k % 2;
        if (k % 4 == 3) { /* not bounded by the input: pads far past it */
            d->pad_begin[1] = 120 + k; /* > 4*13 + 64 */
            d->pad_end[0] = 4;
            d->stride[1] = 7;
        }
    }
    float x[3 * 11 * 13];
    ts_rng r;
    ts_rng_seed(&r, 7);
    for (size_t i = 0; i < sizeof x / sizeof x[0]; ++i)
        x[i] = (float)ts_rng_range(&r, -100, 100);
    float *want = malloc((size_t)CREATE_DESCS * CREATE_MAX_OUT * sizeof *want);
    memset(want, 0xa5, (size_t)CREATE_DESCS * CREATE_MAX_OUT * sizeof *want);
    int bad = 0;
    for (int k = 0; k < CREATE_DESCS; ++k)
        bad += create_and_run(&descs[k], shape, x, want + (size_t)k * CREATE_MAX_OUT);
    CHECK_EQ_INT(bad, 0);
    pthread_t th[NTHREADS];
    create_job jobs[NTHREADS];
    int started[NTHREADS];
    for (int t = 0; t < NTHREADS; ++t) {
        jobs[t] = (create_job){descs, shape, x, want, 0};
        started[t] = pthread_create(&th[t], NULL, create_worker, &jobs[t]) == 0;
        CHECK(started[t]);
    }
    for (int t = 0; t < NTHREADS; ++t)
        if (started[t]) {
            pthread_join(th[t], NULL);
            CHECK_EQ_INT(jobs[t].failures, 0);
        }
    free(want);
    ts_set_context("%s", "");
}

/* maxpool_plan_threads: num_threads capped by the task count, 1 below
 * MAXPOOL_PARALLEL_MIN_BYTES (read at plan creation), 1 without OpenMP. */
static void threads_threshold_case(void)
{
    maxpool_desc d;
    maxpool_desc_init(&d, 2);
    d.kernel[0] = d.kernel[1] = 2;
    d.stride[0] = d.stride[1] = 2;
    d.num_threads = 2;
    const int64_t small[4] = {1, 16, 8, 8};      /* 5 KiB */
    const int64_t big[4] = {1, 64, 112, 112};    /* 3.2 MB in, 0.8 MB out */
    const int64_t one_task[4] = {1, 1, 2, 2};     /* one plane: one task */
    const int64_t below[4] = {1, 32, 28, 28};     /* 100,352 + 25,088 bytes: under the 131,072 default */
    const int64_t above[4] = {1, 40, 28, 28};     /* 125,440 + 31,360 bytes: over it */
    const char *saved = getenv("MAXPOOL_PARALLEL_MIN_BYTES");
    char keep[64] = "";
    if (saved)
        snprintf(keep, sizeof keep, "%s", saved);
    struct {
        const char *env;
        const int64_t *shape;
        int want; /* with OpenMP */
    } cs[] = {
        {NULL, small, 1}, {NULL, big, 2}, {"0", small, 2}, {"0", one_task, 1}, {"5000000", big, 1}, {"junk", small, 1},
        {NULL, below, 1}, {NULL, above, 2},
    };
    for (size_t i = 0; i < sizeof cs / sizeof cs[0]; ++i) {
        if (cs[i].env)
            setenv("MAXPOOL_PARALLEL_MIN_BYTES", cs[i].env, 1);
        else
            unsetenv("MAXPOOL_PARALLEL_MIN_BYTES");
        maxpool_plan *p = NULL;
        CHECK_EQ_INT(maxpool_plan_create(&d, cs[i].shape, &p, NULL), MAXPOOL_OK);
#ifdef _OPENMP
        CHECK_MSG(maxpool_plan_threads(p) == cs[i].want, "case %zu: threads %d, want %d", i, maxpool_plan_threads(p),
                  cs[i].want);
#else
        CHECK_EQ_INT(maxpool_plan_threads(p), 1);
#endif
        maxpool_plan_destroy(p);
    }
    d.num_threads = 1;
    unsetenv("MAXPOOL_PARALLEL_MIN_BYTES");
    maxpool_plan *p = NULL;
    CHECK_EQ_INT(maxpool_plan_create(&d, big, &p, NULL), MAXPOOL_OK);
    CHECK_EQ_INT(maxpool_plan_threads(p), 1);
    maxpool_plan_destroy(p);
    CHECK_EQ_INT(maxpool_plan_threads(NULL), 0);
    if (saved)
        setenv("MAXPOOL_PARALLEL_MIN_BYTES", keep, 1);
}

int main(int argc, char **argv)
{
    (void)argc;
    ts_parallel_always();
    ts_omp_passive(argv);
    maxpool_desc d;

    for (int threads = 1; threads <= 3; threads += 2) {
        char name[96];
        maxpool_desc_init(&d, 2);
        d.kernel[0] = d.kernel[1] = 3;
        d.stride[0] = d.stride[1] = 2;
        d.pad_begin[0] = d.pad_begin[1] = d.pad_end[0] = d.pad_end[1] = 1;
        d.index_type = MAXPOOL_INDEX_I64;
        d.num_threads = threads;
        {
            const int64_t s[4] = {2, 8, 33, 37};
            snprintf(name, sizeof name, "f32 NCHW k3 s2 p1, num_threads %d", threads);
            concurrent_case(name, &d, s, 1);
        }
        d.layout = MAXPOOL_CHANNELS_LAST;
        d.nan_policy = MAXPOOL_NAN_PROPAGATE;
        d.window_init = MAXPOOL_INIT_FIRST_ELEMENT;
        {
            const int64_t s[4] = {2, 21, 19, 24};
            snprintf(name, sizeof name, "f32 NHWC k3 s2 p1 NaN propagate, first-element init, num_threads %d", threads);
            concurrent_case(name, &d, s, 2);
        }
        maxpool_desc_init(&d, 1);
        d.kernel[0] = 5;
        d.dilation[0] = 2;
        d.rounding = MAXPOOL_ROUND_CEIL_TORCH;
        d.dtype = MAXPOOL_F16;
        d.index_type = MAXPOOL_INDEX_I32;
        d.index_axis = 2;
        d.num_threads = threads;
        {
            const int64_t s[3] = {3, 4, 301};
            snprintf(name, sizeof name, "f16 1-D k5 d2, num_threads %d", threads);
            concurrent_case(name, &d, s, 3);
        }
        maxpool_desc_init(&d, 3);
        d.kernel[0] = d.kernel[1] = d.kernel[2] = 2;
        d.auto_pad = MAXPOOL_PAD_SAME_LOWER;
        d.dtype = MAXPOOL_I8;
        d.index_type = MAXPOOL_INDEX_I64;
        d.index_order = MAXPOOL_INDEX_COL_MAJOR;
        d.num_threads = threads;
        {
            const int64_t s[5] = {2, 3, 7, 9, 8};
            snprintf(name, sizeof name, "i8 3-D same_lower col-major, num_threads %d", threads);
            concurrent_case(name, &d, s, 4);
        }
        maxpool_desc_init(&d, 3);
        d.window = MAXPOOL_WINDOW_ADAPTIVE;
        d.output_size[0] = 3;
        d.output_size[1] = 4;
        d.output_size[2] = 11;
        d.dtype = MAXPOOL_BF16;
        d.index_type = MAXPOOL_INDEX_I32;
        d.num_threads = threads;
        {
            const int64_t s[5] = {2, 3, 5, 9, 7};
            snprintf(name, sizeof name, "bf16 adaptive 3-D, num_threads %d", threads);
            concurrent_case(name, &d, s, 5);
        }
    }
    reuse_case();
    concurrent_create_case();
    threads_threshold_case();
    return ts_finish();
}
