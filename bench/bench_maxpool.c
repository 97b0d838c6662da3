/* SPDX-License-Identifier: Apache-2.0 */
/*
 * maxpool benchmark: every element type, hot cache, median of many repetitions, against a
 * memory-bandwidth floor measured in the same run (see docs/performance.md).
 *
 *   maxpool_bench [--case NAME[,NAME...]] [--threads N] [--isa NAME] [--quick]
 *                 [--csv] [--json FILE] [--time SECONDS] [--no-peers] [--list]
 *                 [--iters N]
 *
 * Per case it reports:
 *   time     median seconds of one maxpool_run with a reused plan (1 thread),
 *            from samples that alternate with the floor's (below)
 *   GB/s     (input bytes + output bytes + index bytes) / time
 *   floor    median time of a tuned streaming kernel over the same buffers:
 *            reads the input buffer once (AVX2 loads + max-reduce), writes the
 *            output buffer (+ index buffer) once, interleaved in chunks
 *   ratio    the median over the paired samples of time / floor: each sample
 *            times the kernel, then at once the floor (the better of plain and
 *            non-temporal stores, chosen by an earlier measurement), so a
 *            load spike on this shared machine hits both
 *   memcpy   median time of memcpy() of (bytes / 2) between two scratch
 *            buffers: the same total traffic, half read, half written
 *   N thr    with --threads N >= 2: time with desc.num_threads = N and the
 *            speedup over 1 thread
 *   oneDNN   when built with it: max pooling in the case's plain format and
 *            in oneDNN's blocked format (reorders not timed)
 *
 * --iters N runs each selected case N times with nothing else (no floor, no
 * timing, no peers): for valgrind --tool=callgrind --toggle-collect=maxpool_run.
 */
#define _POSIX_C_SOURCE 200809L

#include "bench_common.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define BENCH_X86 1
#endif

/* ------------------------------------------------------------------------ */
/* Cases                                                                    */
/* ------------------------------------------------------------------------ */

#define CF MAXPOOL_CHANNELS_FIRST
#define CL MAXPOOL_CHANNELS_LAST
#define NOIDX MAXPOOL_INDEX_NONE
#define I64 MAXPOOL_INDEX_I64
#define I32 MAXPOOL_INDEX_I32

static bench_case CASES[] = { /* not const: --dtype rewrites the selected cases */
    {"nchw_1x64x112_k3s2", "1x64x112x112 NCHW k3 s2 p1", 2, CF, {1, 64, 112, 112}, 0,
     {3, 3}, {2, 2}, {1, 1}, {0}, NOIDX, 0, MAXPOOL_F32, 0},
    {"nchw_32x64x112_k3s2", "32x64x112x112 NCHW k3 s2 p1", 2, CF, {32, 64, 112, 112}, 0,
     {3, 3}, {2, 2}, {1, 1}, {0}, NOIDX, 0, MAXPOOL_F32, 0},
    {"nchw_32x64x112_k3s2_i64", "32x64x112x112 NCHW k3 s2 p1 + int64 idx", 2, CF, {32, 64, 112, 112}, 0,
     {3, 3}, {2, 2}, {1, 1}, {0}, I64, 0, MAXPOOL_F32, 0},
    {"ncdhw_1x32x32x112_k3s2", "1x32x32x112x112 NCDHW k3 s2 p1", 3, CF, {1, 32, 32, 112, 112}, 0,
     {3, 3, 3}, {2, 2, 2}, {1, 1, 1}, {0}, NOIDX, 0, MAXPOOL_F32, 0},
    {"ncw_32x256x4096_k3s1", "32x256x4096 NCW k3 s1 p1", 1, CF, {32, 256, 4096}, 0,
     {3}, {1}, {1}, {0}, NOIDX, 0, MAXPOOL_F32, 0},
    {"spp_1x512x20_k13s1", "1x512x20x20 NCHW k13 s1 p6 (SPP)", 2, CF, {1, 512, 20, 20}, 0,
     {13, 13}, {1, 1}, {6, 6}, {0}, NOIDX, 0, MAXPOOL_F32, 0},
    {"nchw_1x64x224_k7s1", "1x64x224x224 NCHW k7 s1 p3", 2, CF, {1, 64, 224, 224}, 0,
     {7, 7}, {1, 1}, {3, 3}, {0}, NOIDX, 0, MAXPOOL_F32, 0},
    /* the same plane with k3 and k13: time independent of the kernel size? */
    {"nchw_1x64x224_k3s1", "1x64x224x224 NCHW k3 s1 p1", 2, CF, {1, 64, 224, 224}, 0,
     {3, 3}, {1, 1}, {1, 1}, {0}, NOIDX, 0, MAXPOOL_F32, 0},
    {"nchw_1x64x224_k13s1", "1x64x224x224 NCHW k13 s1 p6", 2, CF, {1, 64, 224, 224}, 0,
     {13, 13}, {1, 1}, {6, 6}, {0}, NOIDX, 0, MAXPOOL_F32, 0},
    {"adaptive3d_2x64x16x56_i64", "2x64x16x56x56 adaptive->4x7x7 + int64 idx", 3, CF, {2, 64, 16, 56, 56}, 1,
     {0}, {0}, {0}, {4, 7, 7}, I64, 0, MAXPOOL_F32, 0},
    {"nhwc_1x112x64_k3s2", "1x112x112x64 NHWC k3 s2 p1", 2, CL, {1, 112, 112, 64}, 0,
     {3, 3}, {2, 2}, {1, 1}, {0}, NOIDX, 0, MAXPOOL_F32, 0},
    {"nhwc_32x112x64_k3s2", "32x112x112x64 NHWC k3 s2 p1", 2, CL, {32, 112, 112, 64}, 0,
     {3, 3}, {2, 2}, {1, 1}, {0}, NOIDX, 0, MAXPOOL_F32, 0},
    {"tiny_1x16x8_k2s2", "1x16x8x8 NCHW k2 s2 (per-call cost)", 2, CF, {1, 16, 8, 8}, 0,
     {2, 2}, {2, 2}, {0, 0}, {0}, NOIDX, 1, MAXPOOL_F32, 0},
    /* the other element types (issue 18): the stems per type, NHWC stems, a batch with indices, adaptive 3-D */
#define TYPE_STEM(t, DT)                                                                                           \
    {"nchw_1x64x112_k3s2_" #t, "1x64x112x112 NCHW k3 s2 p1 " #t, 2, CF, {1, 64, 112, 112}, 0,                     \
     {3, 3}, {2, 2}, {1, 1}, {0}, NOIDX, 0, DT, 0}
    TYPE_STEM(f64, MAXPOOL_F64), TYPE_STEM(f16, MAXPOOL_F16), TYPE_STEM(bf16, MAXPOOL_BF16),
    TYPE_STEM(i8, MAXPOOL_I8), TYPE_STEM(u8, MAXPOOL_U8), TYPE_STEM(i16, MAXPOOL_I16),
    TYPE_STEM(u16, MAXPOOL_U16), TYPE_STEM(i32, MAXPOOL_I32), TYPE_STEM(i64, MAXPOOL_I64),
#undef TYPE_STEM
#define TYPE_NHWC(t, DT)                                                                                           \
    {"nhwc_1x112x64_k3s2_" #t, "1x112x112x64 NHWC k3 s2 p1 " #t, 2, CL, {1, 112, 112, 64}, 0,                     \
     {3, 3}, {2, 2}, {1, 1}, {0}, NOIDX, 0, DT, 0}
    TYPE_NHWC(u8, MAXPOOL_U8), TYPE_NHWC(f16, MAXPOOL_F16), TYPE_NHWC(bf16, MAXPOOL_BF16),
#undef TYPE_NHWC
    {"nchw_32x64x112_k3s2_i64_f16", "32x64x112x112 NCHW k3 s2 p1 f16 + int64 idx", 2, CF, {32, 64, 112, 112}, 0,
     {3, 3}, {2, 2}, {1, 1}, {0}, I64, 0, MAXPOOL_F16, 0},
    {"adaptive3d_2x64x16x56_i32_f16", "2x64x16x56x56 adaptive->4x7x7 f16 + int32 idx", 3, CF, {2, 64, 16, 56, 56},
     1, {0}, {0}, {0}, {4, 7, 7}, I32, 0, MAXPOOL_F16, 0},
    {"adaptive3d_2x64x16x56_i32_bf16", "2x64x16x56x56 adaptive->4x7x7 bf16 + int32 idx", 3, CF,
     {2, 64, 16, 56, 56}, 1, {0}, {0}, {0}, {4, 7, 7}, I32, 0, MAXPOOL_BF16, 0},
    /* real networks (issue 19): classic and modern CNN stems and late layers, odd sizes, SPP(F) necks,
     * 3-D video nets, adaptive heads; f32 */
    {"net_alexnet_1x64x55_k3s2", "AlexNet pool1 1x64x55x55 k3 s2 p0", 2, CF, {1, 64, 55, 55}, 0,
     {3, 3}, {2, 2}, {0, 0}, {0}, NOIDX, 0, MAXPOOL_F32, 0},
    {"onnx_alexnet_1x64x55_k3s2", "AlexNet 1x64x55x55 k3 s2 p0, ONNX start (first element)", 2, CF, {1, 64, 55, 55}, 0,
     {3, 3}, {2, 2}, {0, 0}, {0}, NOIDX, 0, MAXPOOL_F32, 1},
    {"net_alexnet_1x192x27_k3s2", "AlexNet pool2 1x192x27x27 k3 s2 p0", 2, CF, {1, 192, 27, 27}, 0,
     {3, 3}, {2, 2}, {0, 0}, {0}, NOIDX, 0, MAXPOOL_F32, 0},
    {"onnx_alexnet_1x192x27_k3s2", "AlexNet 1x192x27x27 k3 s2 p0, ONNX start (first element)", 2, CF, {1, 192, 27, 27}, 0,
     {3, 3}, {2, 2}, {0, 0}, {0}, NOIDX, 0, MAXPOOL_F32, 1},
    {"net_alexnet_1x256x13_k3s2", "AlexNet pool5 1x256x13x13 k3 s2 p0", 2, CF, {1, 256, 13, 13}, 0,
     {3, 3}, {2, 2}, {0, 0}, {0}, NOIDX, 0, MAXPOOL_F32, 0},
    {"net_inception3_1x64x147_k3s2", "Inception-v3 1x64x147x147 k3 s2 p0", 2, CF, {1, 64, 147, 147}, 0,
     {3, 3}, {2, 2}, {0, 0}, {0}, NOIDX, 0, MAXPOOL_F32, 0},
    {"net_inception3_1x192x71_k3s2", "Inception-v3 1x192x71x71 k3 s2 p0", 2, CF, {1, 192, 71, 71}, 0,
     {3, 3}, {2, 2}, {0, 0}, {0}, NOIDX, 0, MAXPOOL_F32, 0},
    {"net_resnet_1x64x113_k3s2", "the ResNet stem with odd H, W: 1x64x113x113 k3 s2 p1", 2, CF, {1, 64, 113, 113}, 0,
     {3, 3}, {2, 2}, {1, 1}, {0}, NOIDX, 0, MAXPOOL_F32, 0},
    {"net_vgg_1x64x224_k2s2", "VGG pool1 1x64x224x224 k2 s2", 2, CF, {1, 64, 224, 224}, 0,
     {2, 2}, {2, 2}, {0, 0}, {0}, NOIDX, 0, MAXPOOL_F32, 0},
    {"net_vgg_1x512x14_k2s2", "VGG pool5 1x512x14x14 k2 s2", 2, CF, {1, 512, 14, 14}, 0,
     {2, 2}, {2, 2}, {0, 0}, {0}, NOIDX, 0, MAXPOOL_F32, 0},
    {"net_googlenet_1x192x28_k3s1", "GoogLeNet inception pool 1x192x28x28 k3 s1 p1", 2, CF, {1, 192, 28, 28}, 0,
     {3, 3}, {1, 1}, {1, 1}, {0}, NOIDX, 0, MAXPOOL_F32, 0},
    {"onnx_googlenet_1x192x28_k3s1", "GoogLeNet 1x192x28x28 k3 s1 p1, ONNX start (first element)", 2, CF, {1, 192, 28, 28}, 0,
     {3, 3}, {1, 1}, {1, 1}, {0}, NOIDX, 0, MAXPOOL_F32, 1},
    {"net_googlenet_1x480x14_k3s1", "GoogLeNet inception pool 1x480x14x14 k3 s1 p1", 2, CF, {1, 480, 14, 14}, 0,
     {3, 3}, {1, 1}, {1, 1}, {0}, NOIDX, 0, MAXPOOL_F32, 0},
    {"net_sppf_1x512x20_k5s1", "YOLOv5 SPPF 1x512x20x20 k5 s1 p2", 2, CF, {1, 512, 20, 20}, 0,
     {5, 5}, {1, 1}, {2, 2}, {0}, NOIDX, 0, MAXPOOL_F32, 0},
    {"onnx_sppf_1x512x20_k5s1", "SPPF 1x512x20x20 k5 s1 p2, ONNX start (first element)", 2, CF, {1, 512, 20, 20}, 0,
     {5, 5}, {1, 1}, {2, 2}, {0}, NOIDX, 0, MAXPOOL_F32, 1},
    {"net_sppf_1x256x40_k5s1", "SPPF at 1280: 1x256x40x40 k5 s1 p2", 2, CF, {1, 256, 40, 40}, 0,
     {5, 5}, {1, 1}, {2, 2}, {0}, NOIDX, 0, MAXPOOL_F32, 0},
    {"onnx_sppf_1x256x40_k5s1", "SPPF 1x256x40x40 k5 s1 p2, ONNX start (first element)", 2, CF, {1, 256, 40, 40}, 0,
     {5, 5}, {1, 1}, {2, 2}, {0}, NOIDX, 0, MAXPOOL_F32, 1},
    {"net_r3d_1x64x16x56_k3s2", "3-D ResNet 1x64x16x56x56 k3 s2 p1", 3, CF, {1, 64, 16, 56, 56}, 0,
     {3, 3, 3}, {2, 2, 2}, {1, 1, 1}, {0}, NOIDX, 0, MAXPOOL_F32, 0},
    {"net_c3d_1x128x16x56_k2s2", "C3D pool2 1x128x16x56x56 k2 s2", 3, CF, {1, 128, 16, 56, 56}, 0,
     {2, 2, 2}, {2, 2, 2}, {0, 0, 0}, {0}, NOIDX, 0, MAXPOOL_F32, 0},
    {"net_adaptive_8x256x13_i64", "adaptive head 8x256x13x13 -> 6x6 + int64 idx", 2, CF, {8, 256, 13, 13}, 1,
     {0}, {0}, {0}, {6, 6}, I64, 0, MAXPOOL_F32, 0},
    {"net_adaptive_1x512x7_global", "global max 1x512x7x7 -> 1x1", 2, CF, {1, 512, 7, 7}, 1,
     {0}, {0}, {0}, {1, 1}, NOIDX, 0, MAXPOOL_F32, 0},
    {"net_adaptive_1x512x7_global_i32", "global max 1x512x7x7 -> 1x1 + int32 idx", 2, CF, {1, 512, 7, 7}, 1,
     {0}, {0}, {0}, {1, 1}, I32, 0, MAXPOOL_F32, 0},
    {"net_adaptive_1x512x7_global_i64", "global max 1x512x7x7 -> 1x1 + int64 idx", 2, CF, {1, 512, 7, 7}, 1,
     {0}, {0}, {0}, {1, 1}, I64, 0, MAXPOOL_F32, 0},
    {"net_nhwc_1x7x512_global", "global max NHWC 1x7x7x512 -> 1x1", 2, CL, {1, 7, 7, 512}, 1,
     {0}, {0}, {0}, {1, 1}, NOIDX, 0, MAXPOOL_F32, 0},
    {"net_nhwc_1x56x256_k3s2", "NHWC mid-network 1x56x56x256 k3 s2 p1", 2, CL, {1, 56, 56, 256}, 0,
     {3, 3}, {2, 2}, {1, 1}, {0}, NOIDX, 0, MAXPOOL_F32, 0},
    {"net_nhwc_1x147x64_k3s2", "NHWC Inception-v3 1x147x147x64 k3 s2 p0", 2, CL, {1, 147, 147, 64}, 0,
     {3, 3}, {2, 2}, {0, 0}, {0}, NOIDX, 0, MAXPOOL_F32, 0},
    /* adaptive heads with indices (issue 19): divisible, uneven, 1-D, 3-D */
    {"net_adaptive_8x512x14_i64", "adaptive head 8x512x14x14 -> 7x7 + int64 idx", 2, CF, {8, 512, 14, 14}, 1,
     {0}, {0}, {0}, {7, 7}, I64, 0, MAXPOOL_F32, 0},
    {"net_adaptive_4x256x15_i64", "adaptive uneven 4x256x15x15 -> 4x4 + int64 idx", 2, CF, {4, 256, 15, 15}, 1,
     {0}, {0}, {0}, {4, 4}, I64, 0, MAXPOOL_F32, 0},
    {"net_adaptive1d_8x512x100_i64", "adaptive 1-D 8x512x100 -> 12 + int64 idx", 1, CF, {8, 512, 100}, 1,
     {0}, {0}, {0}, {12}, I64, 0, MAXPOOL_F32, 0},
    {"net_adaptive3d_2x256x8x14_i64", "adaptive 3-D 2x256x8x14x14 -> 2x5x5 + int64 idx", 3, CF, {2, 256, 8, 14, 14},
     1, {0}, {0}, {0}, {2, 5, 5}, I64, 0, MAXPOOL_F32, 0},
    /* the same adaptive heads channels-last (issue 19: "both layouts") */
    {"net_nhwc_adaptive_8x13x256_i64", "adaptive head NHWC 8x13x13x256 -> 6x6 + int64 idx", 2, CL, {8, 13, 13, 256}, 1,
     {0}, {0}, {0}, {6, 6}, I64, 0, MAXPOOL_F32, 0},
    {"net_nhwc_adaptive_8x14x512_i64", "adaptive head NHWC 8x14x14x512 -> 7x7 + int64 idx", 2, CL, {8, 14, 14, 512}, 1,
     {0}, {0}, {0}, {7, 7}, I64, 0, MAXPOOL_F32, 0},
    {"net_nhwc_adaptive_4x15x256_i64", "adaptive uneven NHWC 4x15x15x256 -> 4x4 + int64 idx", 2, CL, {4, 15, 15, 256},
     1, {0}, {0}, {0}, {4, 4}, I64, 0, MAXPOOL_F32, 0},
    {"net_nwc_adaptive1d_8x100x512_i64", "adaptive 1-D NWC 8x100x512 -> 12 + int64 idx", 1, CL, {8, 100, 512}, 1,
     {0}, {0}, {0}, {12}, I64, 0, MAXPOOL_F32, 0},
    {"net_ndhwc_adaptive3d_2x8x14x256_i64", "adaptive 3-D NDHWC 2x8x14x14x256 -> 2x5x5 + int64 idx", 3, CL,
     {2, 8, 14, 14, 256}, 1, {0}, {0}, {0}, {2, 5, 5}, I64, 0, MAXPOOL_F32, 0},
    /* 3-D stride-1 windows (issue 19): k3 and a large kernel */
    {"net_3d_1x32x16x56_k3s1", "3-D stride 1 1x32x16x56x56 k3 s1 p1", 3, CF, {1, 32, 16, 56, 56}, 0,
     {3, 3, 3}, {1, 1, 1}, {1, 1, 1}, {0}, NOIDX, 0, MAXPOOL_F32, 0},
    {"net_3d_1x16x16x56_k7s1", "3-D stride 1 1x16x16x56x56 k7 s1 p3", 3, CF, {1, 16, 16, 56, 56}, 0,
     {7, 7, 7}, {1, 1, 1}, {3, 3, 3}, {0}, NOIDX, 0, MAXPOOL_F32, 0},
    {"3d_1x32x16x56_k3s1_f16", "3-D stride 1 1x32x16x56x56 k3 s1 p1 f16", 3, CF, {1, 32, 16, 56, 56}, 0,
     {3, 3, 3}, {1, 1, 1}, {1, 1, 1}, {0}, NOIDX, 0, MAXPOOL_F16, 0},
};
#define NCASES ((int)(sizeof CASES / sizeof CASES[0]))

/* ------------------------------------------------------------------------ */
/* Timing                                                                   */
/* ------------------------------------------------------------------------ */

static double g_target_s = 0.35; /* time budget per measurement */
static int g_min_samples = 5;
static const double MIN_SAMPLE_S = 50e-6;
static const int MAX_SAMPLES = 2001;

double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Warm-up: at least 2 calls and ~5% of the budget (caches, page faults,
 * lazy thread-pool start); one call when it alone is slower than the budget
 * (e.g. the reference kernel on a big case). Its rate sets the sample size:
 * returns the calls per sample (>= MIN_SAMPLE_S) and the seconds per call
 * in *per. */
static int64_t warm_inner(bench_fn fn, void *ctx, double *per)
{
    double t0 = bench_now(), el;
    int64_t calls = 0;
    do {
        fn(ctx);
        ++calls;
        el = bench_now() - t0;
        if (calls == 1 && el > g_target_s)
            break;
    } while (calls < 2 || (el < 0.05 * g_target_s && calls < 1000000));
    *per = el / (double)calls > 0 ? el / (double)calls : 1e-9;
    int64_t inner = (int64_t)ceil(MIN_SAMPLE_S / *per);
    return inner < 1 ? 1 : inner;
}

/* Sorts the per-call sample times t and fills r. */
static void stats_of(double *t, int samples, int64_t inner, bench_stats *r)
{
    qsort(t, (size_t)samples, sizeof(double), cmp_double);
    r->median = samples % 2 ? t[samples / 2] : 0.5 * (t[samples / 2 - 1] + t[samples / 2]);
    r->min = t[0];
    r->p10 = t[(samples - 1) / 10];
    r->p90 = t[(samples - 1) - (samples - 1) / 10];
    r->samples = samples;
    r->inner = inner;
}

static double *xsamples(int n)
{
    double *t = malloc(sizeof(double) * (size_t)n);
    if (!t) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    return t;
}

double bench_measure(bench_fn fn, void *ctx, bench_stats *st)
{
    double per;
    const int64_t inner = warm_inner(fn, ctx, &per);
    int samples = (int)(g_target_s / (per * (double)inner));
    /* slow calls (reference kernels, slow peers) keep the total bounded */
    int min_samples = per > 1.0 ? 1 : per > 0.2 && g_min_samples > 3 ? 3 : g_min_samples;
    if (samples < min_samples)
        samples = min_samples;
    if (samples > MAX_SAMPLES)
        samples = MAX_SAMPLES;
    double *t = xsamples(samples);
    for (int s = 0; s < samples; ++s) {
        double a = bench_now();
        for (int64_t i = 0; i < inner; ++i)
            fn(ctx);
        t[s] = (bench_now() - a) / (double)inner;
    }
    bench_stats r;
    stats_of(t, samples, inner, &r);
    free(t);
    if (st)
        *st = r;
    return r.median;
}

static double bench_measure_paired(bench_fn fa, void *ca, bench_fn fb, void *cb, bench_stats *sa, bench_stats *sb)
{
    double pa, pb;
    const int64_t ia = warm_inner(fa, ca, &pa), ib = warm_inner(fb, cb, &pb);
    int samples = (int)(2.0 * g_target_s / (pa * (double)ia + pb * (double)ib));
    /* as bench_measure: slow calls (e.g. --isa scalar on a big case) keep the total bounded */
    const double per = pa + pb;
    const int min_samples = per > 1.0 ? 1 : per > 0.2 && g_min_samples > 3 ? 3 : g_min_samples;
    if (samples < min_samples)
        samples = min_samples;
    if (samples > MAX_SAMPLES)
        samples = MAX_SAMPLES;
    double *t = xsamples(3 * samples);
    double *ta = t, *tb = t + samples, *q = t + 2 * samples;
    for (int s = 0; s < samples; ++s) {
        double a = bench_now();
        for (int64_t i = 0; i < ia; ++i)
            fa(ca);
        double b = bench_now();
        for (int64_t i = 0; i < ib; ++i)
            fb(cb);
        double e = bench_now();
        ta[s] = (b - a) / (double)ia;
        tb[s] = (e - b) / (double)ib;
        q[s] = ta[s] / tb[s];
    }
    bench_stats rq;
    stats_of(ta, samples, ia, sa);
    stats_of(tb, samples, ib, sb);
    stats_of(q, samples, 1, &rq);
    free(t);
    return rq.median;
}

/* ------------------------------------------------------------------------ */
/* Buffers and data                                                         */
/* ------------------------------------------------------------------------ */

static void *xalloc(size_t bytes)
{
    size_t n = (bytes + 63) / 64 * 64;
    if (n == 0)
        n = 64;
    void *p = aligned_alloc(64, n);
    if (!p) {
        fprintf(stderr, "maxpool_bench: cannot allocate %zu bytes\n", n);
        exit(2);
    }
    memset(p, 0, n); /* fault the pages in now, not in the timed region */
    return p;
}

static uint64_t g_rng = 0x9E3779B97F4A7C15ull;
static inline uint64_t rng_next(void)
{
    /* xorshift64* */
    g_rng ^= g_rng >> 12;
    g_rng ^= g_rng << 25;
    g_rng ^= g_rng >> 27;
    return g_rng * 0x2545F4914F6CDD1Dull;
}

/* Uniform floats in [-1, 1), no NaN, few ties. */
static void fill_random(float *x, int64_t n)
{
    for (int64_t i = 0; i < n; ++i)
        x[i] = (float)((double)(rng_next() >> 40) / (double)(1ull << 23) - 1.0);
}

static size_t dtype_size(maxpool_dtype t)
{
    static const size_t sz[MAXPOOL_DTYPE_COUNT] = {4, 8, 2, 2, 1, 1, 2, 2, 4, 8};
    return sz[t];
}

/* n elements of type t: f32 as fill_random; f64 the same values widened;
 * f16 and bf16 random finite values (exponents 1..30 / 100..140, random
 * sign and mantissa); the integers random bits. No NaN. */
static void fill_random_typed(void *x, int64_t n, maxpool_dtype t)
{
    if (t == MAXPOOL_F32) {
        fill_random(x, n);
        return;
    }
    for (int64_t i = 0; i < n; ++i) {
        const uint64_t b = rng_next();
        switch (t) {
        case MAXPOOL_F64: ((double *)x)[i] = (double)(b >> 40) / (double)(1ull << 23) - 1.0; break;
        case MAXPOOL_F16: ((uint16_t *)x)[i] = (uint16_t)((b & 0x83ffu) | ((1 + (b >> 16) % 30) << 10)); break;
        case MAXPOOL_BF16: ((uint16_t *)x)[i] = (uint16_t)((b & 0x807fu) | ((100 + (b >> 16) % 41) << 7)); break;
        default: memcpy((char *)x + i * (int64_t)dtype_size(t), &b, dtype_size(t)); break;
        }
    }
}

/* ------------------------------------------------------------------------ */
/* The floor: a tuned single-thread stream over the same buffers            */
/* ------------------------------------------------------------------------ */

typedef struct floor_ctx {
    const float *in;
    int64_t in_n; /* floats */
    float *out;
    int64_t out_n; /* floats */
    int64_t *idx;
    int64_t idx_n; /* int64 elements (0: none) */
    int64_t chunks;
    /* memcpy floor */
    void *msrc, *mdst;
    size_t mbytes;
} floor_ctx;

/* Chunks of ~4 KiB of writes, each with its share of the input read first:
 * reads and writes interleave the way a pooling kernel's do. */
/* Outputs at least this large also try the non-temporal-store floor. */
#define NT_MIN_BYTES (4 << 20)

static int64_t floor_chunks(int64_t out_bytes)
{
    int64_t k = out_bytes / 4096;
    return k < 1 ? 1 : k;
}

static void floor_scalar(void *vctx)
{
    floor_ctx *f = vctx;
    for (int64_t c = 0; c < f->chunks; ++c) {
        int64_t i0 = f->in_n * c / f->chunks, i1 = f->in_n * (c + 1) / f->chunks;
        int64_t o0 = f->out_n * c / f->chunks, o1 = f->out_n * (c + 1) / f->chunks;
        float a0 = -FLT_MAX, a1 = -FLT_MAX, a2 = -FLT_MAX, a3 = -FLT_MAX;
        int64_t i = i0;
        for (; i + 4 <= i1; i += 4) {
            a0 = f->in[i] > a0 ? f->in[i] : a0;
            a1 = f->in[i + 1] > a1 ? f->in[i + 1] : a1;
            a2 = f->in[i + 2] > a2 ? f->in[i + 2] : a2;
            a3 = f->in[i + 3] > a3 ? f->in[i + 3] : a3;
        }
        for (; i < i1; ++i)
            a0 = f->in[i] > a0 ? f->in[i] : a0;
        float m = fmaxf(fmaxf(a0, a1), fmaxf(a2, a3));
        for (int64_t o = o0; o < o1; ++o)
            f->out[o] = m;
        if (f->idx_n) {
            int64_t j0 = f->idx_n * c / f->chunks, j1 = f->idx_n * (c + 1) / f->chunks;
            for (int64_t j = j0; j < j1; ++j)
                f->idx[j] = (int64_t)m;
        }
    }
}

#ifdef BENCH_X86
/* Stores m over out[o0, o1): plain stores, or non-temporal ones (nt) that skip
 * the read-for-ownership, which wins once the output is far larger than the LLC. */
static inline __attribute__((always_inline, target("avx2"))) void store_range(float *out, int64_t o0, int64_t o1,
                                                                              __m256 m, int nt)
{
    float ms = _mm256_cvtss_f32(m);
    int64_t o = o0;
    if (nt) {
        while (o < o1 && ((uintptr_t)(out + o) & 31u))
            out[o++] = ms;
        for (; o + 32 <= o1; o += 32) {
            _mm256_stream_ps(out + o, m);
            _mm256_stream_ps(out + o + 8, m);
            _mm256_stream_ps(out + o + 16, m);
            _mm256_stream_ps(out + o + 24, m);
        }
        for (; o + 8 <= o1; o += 8)
            _mm256_stream_ps(out + o, m);
    } else {
        for (; o + 32 <= o1; o += 32) {
            _mm256_storeu_ps(out + o, m);
            _mm256_storeu_ps(out + o + 8, m);
            _mm256_storeu_ps(out + o + 16, m);
            _mm256_storeu_ps(out + o + 24, m);
        }
        for (; o + 8 <= o1; o += 8)
            _mm256_storeu_ps(out + o, m);
    }
    for (; o < o1; ++o)
        out[o] = ms;
}

static inline __attribute__((always_inline, target("avx2"))) void floor_avx2_body(floor_ctx *f, int nt)
{
    for (int64_t c = 0; c < f->chunks; ++c) {
        int64_t i0 = f->in_n * c / f->chunks, i1 = f->in_n * (c + 1) / f->chunks;
        const float *in = f->in;
        __m256 a0 = _mm256_set1_ps(-FLT_MAX), a1 = a0, a2 = a0, a3 = a0;
        int64_t i = i0;
        for (; i + 32 <= i1; i += 32) {
            a0 = _mm256_max_ps(a0, _mm256_loadu_ps(in + i));
            a1 = _mm256_max_ps(a1, _mm256_loadu_ps(in + i + 8));
            a2 = _mm256_max_ps(a2, _mm256_loadu_ps(in + i + 16));
            a3 = _mm256_max_ps(a3, _mm256_loadu_ps(in + i + 24));
        }
        for (; i + 8 <= i1; i += 8)
            a0 = _mm256_max_ps(a0, _mm256_loadu_ps(in + i));
        __m256 m = _mm256_max_ps(_mm256_max_ps(a0, a1), _mm256_max_ps(a2, a3));
        for (; i < i1; ++i)
            m = _mm256_max_ps(m, _mm256_set1_ps(in[i]));
        store_range(f->out, f->out_n * c / f->chunks, f->out_n * (c + 1) / f->chunks, m, nt);
        if (f->idx_n) /* the int64 index buffer, as pairs of floats: same bytes */
            store_range((float *)f->idx, 2 * (f->idx_n * c / f->chunks), 2 * (f->idx_n * (c + 1) / f->chunks), m, nt);
    }
    if (nt)
        _mm_sfence();
}

__attribute__((target("avx2"))) static void floor_avx2(void *vctx) { floor_avx2_body(vctx, 0); }
__attribute__((target("avx2"))) static void floor_avx2_nt(void *vctx) { floor_avx2_body(vctx, 1); }
#endif

static int have_avx2(void)
{
#ifdef BENCH_X86
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2");
#else
    return 0;
#endif
}

static void floor_memcpy(void *vctx)
{
    floor_ctx *f = vctx;
    memcpy(f->mdst, f->msrc, f->mbytes);
}

/* ------------------------------------------------------------------------ */
/* maxpool runs and the spot check                                          */
/* ------------------------------------------------------------------------ */

typedef struct run_ctx {
    const maxpool_plan *plan;
    const float *x;
    float *y;
    void *idx;
    maxpool_status status;
} run_ctx;

static void run_maxpool(void *vctx)
{
    run_ctx *r = vctx;
    maxpool_status s = maxpool_run(r->plan, r->x, r->y, r->idx);
    if (s != MAXPOOL_OK)
        r->status = s;
}

static void make_desc(const bench_case *c, int threads, maxpool_isa isa, maxpool_desc *d)
{
    maxpool_desc_init(d, c->rank);
    d->dtype = c->dtype;
    d->layout = c->layout;
    for (int a = 0; a < c->rank; ++a) {
        if (c->adaptive) {
            d->output_size[a] = c->output_size[a];
        } else {
            d->kernel[a] = c->kernel[a];
            d->stride[a] = c->stride[a];
            d->pad_begin[a] = c->pad[a];
            d->pad_end[a] = c->pad[a];
        }
    }
    if (c->adaptive)
        d->window = MAXPOOL_WINDOW_ADAPTIVE;
    d->index_type = c->index_type;
    if (c->first_element)
        d->window_init = MAXPOOL_INIT_FIRST_ELEMENT;
    d->index_axis = 2; /* PyTorch: flat within each (n, c) plane */
    d->num_threads = threads;
    d->max_isa = isa;
}

/* Window of output position o along one axis: [*b, *e). */
static void window_of(const bench_case *c, int a, int64_t in, int64_t out, int64_t o, int64_t *b, int64_t *e)
{
    if (c->adaptive) {
        *b = o * in / out;
        *e = ((o + 1) * in + out - 1) / out;
    } else {
        int64_t s = o * c->stride[a] - c->pad[a];
        int64_t t = s + c->kernel[a];
        *b = s < 0 ? 0 : s;
        *e = t > in ? in : t;
    }
}

/* Recomputes `count` random outputs naively; returns the number that differ. */
static int64_t spot_check(const bench_problem *pr, const int64_t *idx, int count)
{
    const bench_case *c = pr->c;
    int64_t bad = 0;
    int64_t in_plane = 1, out_plane = 1;
    for (int a = 0; a < c->rank; ++a) {
        in_plane *= pr->in_sp[a];
        out_plane *= pr->out_sp[a];
    }
    for (int t = 0; t < count; ++t) {
        /* every output when count covers them, else random ones plus the first and last */
        int64_t q = (int64_t)(rng_next() % (uint64_t)pr->out_elems);
        if (count >= pr->out_elems || t == 0)
            q = t;
        if (count < pr->out_elems && t == 1)
            q = pr->out_elems - 1;
        if (q >= pr->out_elems)
            break;
        /* logical coordinates of memory position q */
        int64_t n, ch, os = 0, o[BENCH_MAX_RANK];
        if (c->layout == MAXPOOL_CHANNELS_FIRST) {
            os = q % out_plane;
            ch = (q / out_plane) % pr->ch;
            n = q / out_plane / pr->ch;
        } else {
            ch = q % pr->ch;
            os = (q / pr->ch) % out_plane;
            n = q / pr->ch / out_plane;
        }
        int64_t rem = os;
        for (int a = c->rank - 1; a >= 0; --a) {
            o[a] = rem % pr->out_sp[a];
            rem /= pr->out_sp[a];
        }
        int64_t b[BENCH_MAX_RANK], e[BENCH_MAX_RANK], cur[BENCH_MAX_RANK];
        int empty = 0;
        for (int a = 0; a < c->rank; ++a) {
            window_of(c, a, pr->in_sp[a], pr->out_sp[a], o[a], &b[a], &e[a]);
            cur[a] = b[a];
            if (e[a] <= b[a])
                empty = 1;
        }
        float best = -FLT_MAX;
        int64_t best_i = -1;
        while (!empty) {
            int64_t s = 0;
            for (int a = 0; a < c->rank; ++a)
                s = s * pr->in_sp[a] + cur[a];
            int64_t mem = c->layout == MAXPOOL_CHANNELS_FIRST ? (n * pr->ch + ch) * in_plane + s
                                                              : (n * in_plane + s) * pr->ch + ch;
            float v = pr->x[mem];
            if (v > best) {
                best = v;
                best_i = s;
            }
            int a = c->rank - 1;
            while (a >= 0 && ++cur[a] == e[a]) {
                cur[a] = b[a];
                --a;
            }
            if (a < 0)
                break;
        }
        const int64_t got_i = !idx ? 0 : pr->c->index_type == I32 ? (int64_t)((const int32_t *)(const void *)idx)[q] : idx[q];
        if (memcmp(&best, &pr->y[q], sizeof best) != 0 || (idx && got_i != best_i))
            ++bad;
    }
    return bad;
}

/* Types other than f32: the whole output (and indices) against the same plan
 * at the scalar ceiling (the reference kernel). Returns the differing count. */
static int64_t full_check(const bench_case *c, const void *x, const void *y, const void *idx, int64_t no)
{
    maxpool_desc d;
    make_desc(c, 1, MAXPOOL_ISA_SCALAR, &d);
    maxpool_plan *p = NULL;
    if (maxpool_plan_create(&d, c->shape, &p, NULL) != MAXPOOL_OK)
        return no;
    const size_t es = dtype_size(c->dtype), is = c->index_type == I64 ? 8 : 4;
    void *yr = xalloc((size_t)no * es), *ir = c->index_type != NOIDX ? xalloc((size_t)no * is) : NULL;
    maxpool_run(p, x, yr, ir);
    int64_t bad = 0;
    for (int64_t i = 0; i < no; ++i)
        bad += memcmp((const char *)y + i * (int64_t)es, (const char *)yr + i * (int64_t)es, es) != 0 ||
               (ir && memcmp((const char *)idx + i * (int64_t)is, (const char *)ir + i * (int64_t)is, is) != 0);
    free(yr);
    free(ir);
    maxpool_plan_destroy(p);
    return bad;
}

/* ------------------------------------------------------------------------ */
/* Output                                                                   */
/* ------------------------------------------------------------------------ */

typedef struct case_result {
    const bench_case *c;
    const char *kernel;
    double bytes, in_bytes, out_bytes, idx_bytes;
    bench_stats t1, tn, fl, mc;
    int threads;
    int floor_nt; /* the floor used non-temporal stores */
    double ratio; /* median of the paired samples' time / floor */
    double plan_create_s;
    int64_t check_bad;
    int check_n;
    int failed;
    char fail[320];
    peer_result dnnl_plain, dnnl_blocked;
} case_result;

static void print_us(char *buf, size_t n, double s)
{
    if (!(s > 0))
        snprintf(buf, n, "-");
    else if (s < 10e-6)
        snprintf(buf, n, "%.3f", s * 1e6);
    else if (s < 1e-3)
        snprintf(buf, n, "%.1f", s * 1e6);
    else
        snprintf(buf, n, "%.0f", s * 1e6);
}

static void print_header(int threads, int have_dnnl, int csv)
{
    if (csv) {
        printf("case,kernel,bytes,time_us,gbps,floor_us,floor_gbps,ratio_floor,memcpy_us,ratio_memcpy");
        if (threads > 1)
            printf(",t%d_us,speedup%d", threads, threads);
        if (have_dnnl)
            printf(",onednn_plain_us,onednn_plain_impl,onednn_blocked_us,onednn_blocked_impl");
        printf(",check\n");
        return;
    }
    printf("%-27s %-24s %9s %10s %6s %10s %6s %6s %10s", "case", "kernel", "MB", "time_us", "GB/s", "floor_us",
           "GB/s", "x_flr", "memcpy_us");
    if (threads > 1)
        printf(" %9s %5s", "2thr_us", "spdup");
    if (have_dnnl)
        printf(" %10s  %10s", "dnnl_us", "dnnl_blk");
    printf("\n");
}

static void print_row(const case_result *r, int have_dnnl, int csv)
{
    char t1[32], fl[32], mc[32], tn[32], dp[32], db[32];
    if (r->failed) {
        if (csv)
            printf("%s,FAILED,,,,,,,,\n", r->c->name);
        else
            printf("%-27s FAILED: %s\n", r->c->name, r->fail);
        return;
    }
    print_us(t1, sizeof t1, r->t1.median);
    print_us(fl, sizeof fl, r->fl.median);
    if (r->floor_nt)
        strcat(fl, "*");
    print_us(mc, sizeof mc, r->mc.median);
    print_us(tn, sizeof tn, r->threads > 1 ? r->tn.median : 0);
    print_us(dp, sizeof dp, r->dnnl_plain.ok ? r->dnnl_plain.seconds : 0);
    print_us(db, sizeof db, r->dnnl_blocked.ok ? r->dnnl_blocked.seconds : 0);
    const char *check = r->check_bad ? "MISMATCH" : "ok";
    if (csv) {
        printf("%s,%s,%.0f,%s,%.2f,%s,%.2f,%.3f,%s,%.3f", r->c->name, r->kernel, r->bytes, t1,
               r->bytes / r->t1.median / 1e9, fl, r->bytes / r->fl.median / 1e9, r->ratio, mc,
               r->t1.median / r->mc.median);
        if (r->threads > 1)
            printf(",%s,%.2f", tn, r->t1.median / r->tn.median);
        if (have_dnnl)
            printf(",%s,%s,%s,%s", dp, r->dnnl_plain.ok ? r->dnnl_plain.impl : "", db,
                   r->dnnl_blocked.ok ? r->dnnl_blocked.impl : "");
        printf(",%s\n", check);
        return;
    }
    printf("%-27s %-24s %9.2f %10s %6.2f %10s %6.2f %6.2f %10s", r->c->name, r->kernel, r->bytes / 1e6, t1,
           r->bytes / r->t1.median / 1e9, fl, r->bytes / r->fl.median / 1e9, r->ratio, mc);
    if (r->threads > 1)
        printf(" %9s %5.2f", tn, r->t1.median / r->tn.median);
    if (have_dnnl)
        printf(" %10s%c %10s", dp, r->dnnl_plain.mismatch ? '!' : ' ', db);
    if (r->check_bad)
        printf("  CHECK: %lld/%d outputs differ", (long long)r->check_bad, r->check_n);
    printf("\n");
    fflush(stdout);
}

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; ++s) {
        if (*s == '"' || *s == '\\')
            fputc('\\', f);
        if ((unsigned char)*s < 0x20)
            continue;
        fputc(*s, f);
    }
    fputc('"', f);
}

static void json_stats(FILE *f, const char *key, const bench_stats *s)
{
    fprintf(f, "\"%s\": {\"median\": %.9g, \"min\": %.9g, \"p10\": %.9g, \"p90\": %.9g, \"samples\": %d, \"inner\": %lld}",
            key, s->median, s->min, s->p10, s->p90, s->samples, (long long)s->inner);
}

static void json_peer(FILE *f, const char *key, const peer_result *p)
{
    fprintf(f, "\"%s\": {\"ok\": %s, \"seconds\": %.9g, \"impl\": ", key, p->ok ? "true" : "false",
            p->ok ? p->seconds : 0.0);
    json_str(f, p->impl);
    fprintf(f, ", \"note\": ");
    json_str(f, p->note);
    fprintf(f, ", \"mismatch\": %s}", p->mismatch ? "true" : "false");
}

static void cpu_model(char *buf, size_t n)
{
    snprintf(buf, n, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) == 0) {
            char *p = strchr(line, ':');
            if (p) {
                p += 1 + (p[1] == ' ');
                p[strcspn(p, "\n")] = 0;
                snprintf(buf, n, "%s", p);
            }
            break;
        }
    }
    fclose(f);
}

/* ------------------------------------------------------------------------ */
/* One case                                                                 */
/* ------------------------------------------------------------------------ */

static int g_threads = 1, g_peers = 1, g_have_avx2 = 0;
static maxpool_isa g_isa = MAXPOOL_ISA_AUTO;

static void run_case(const bench_case *c, case_result *r)
{
    memset(r, 0, sizeof *r);
    r->c = c;
    r->threads = g_threads;
    r->kernel = "?";
    maxpool_desc d;
    make_desc(c, 1, g_isa, &d);
    maxpool_error err;
    maxpool_plan *plan = NULL;
    double tc = bench_now();
    maxpool_status st = maxpool_plan_create(&d, c->shape, &plan, &err);
    r->plan_create_s = bench_now() - tc;
    if (st != MAXPOOL_OK) {
        r->failed = 1;
        snprintf(r->fail, sizeof r->fail, "plan_create: %s", err.message);
        return;
    }
    r->kernel = maxpool_plan_kernel_name(plan);

    bench_problem pr;
    memset(&pr, 0, sizeof pr);
    pr.c = c;
    int64_t oshape[MAXPOOL_MAX_SPATIAL + 2];
    maxpool_plan_output_shape(plan, oshape);
    pr.n = c->shape[0];
    pr.ch = c->layout == MAXPOOL_CHANNELS_FIRST ? c->shape[1] : c->shape[c->rank + 1];
    int sp0 = c->layout == MAXPOOL_CHANNELS_FIRST ? 2 : 1;
    for (int a = 0; a < c->rank; ++a) {
        pr.in_sp[a] = c->shape[sp0 + a];
        pr.out_sp[a] = oshape[sp0 + a];
    }
    pr.in_elems = maxpool_plan_input_elements(plan);
    pr.out_elems = maxpool_plan_output_elements(plan);

    const size_t es = dtype_size(c->dtype), is = c->index_type == I64 ? 8 : 4;
    float *x = xalloc((size_t)pr.in_elems * es);
    float *y = xalloc((size_t)pr.out_elems * es);
    int64_t *idx = c->index_type != NOIDX ? xalloc((size_t)pr.out_elems * is) : NULL;
    fill_random_typed(x, pr.in_elems, c->dtype);
    pr.x = x;
    pr.y = y;
    r->in_bytes = (double)pr.in_elems * (double)es;
    r->out_bytes = (double)pr.out_elems * (double)es;
    r->idx_bytes = idx ? (double)pr.out_elems * (double)is : 0.0;
    r->bytes = r->in_bytes + r->out_bytes + r->idx_bytes;

    /* maxpool, 1 thread */
    run_ctx rc = {plan, x, y, idx, MAXPOOL_OK};
    bench_measure(run_maxpool, &rc, &r->t1);
    if (rc.status != MAXPOOL_OK) {
        r->failed = 1;
        snprintf(r->fail, sizeof r->fail, "maxpool_run: %s", maxpool_strerror(rc.status));
        goto done;
    }
    /* correctness of what was timed (y holds the last run's output) */
    if (c->dtype == MAXPOOL_F32) {
        r->check_n = c->per_call ? (int)pr.out_elems : 2000;
        r->check_bad = spot_check(&pr, idx, r->check_n);
    } else {
        r->check_n = (int)pr.out_elems;
        r->check_bad = full_check(c, x, y, idx, pr.out_elems);
    }

    /* the floor over the same buffers, then memcpy of the same total traffic */
    floor_ctx fc;
    memset(&fc, 0, sizeof fc);
    /* the same bytes as floats (int64 for the indices); xalloc rounds up to 64 bytes */
    fc.in = x;
    fc.in_n = ((int64_t)r->in_bytes + 3) / 4;
    fc.out = y;
    fc.out_n = ((int64_t)r->out_bytes + 3) / 4;
    fc.idx = idx;
    fc.idx_n = ((int64_t)r->idx_bytes + 7) / 8;
    fc.chunks = floor_chunks((int64_t)(r->out_bytes + r->idx_bytes));
#ifdef BENCH_X86
    bench_measure(g_have_avx2 ? floor_avx2 : floor_scalar, &fc, &r->fl);
    /* Outputs beyond the caches: the floor is the better of plain and
     * non-temporal stores (a kernel may use either). */
    if (g_have_avx2 && r->out_bytes + r->idx_bytes >= (double)NT_MIN_BYTES) {
        bench_stats nt;
        bench_measure(floor_avx2_nt, &fc, &nt);
        if (nt.median < r->fl.median) {
            r->fl = nt;
            r->floor_nt = 1;
        }
    }
#else
    bench_measure(floor_scalar, &fc, &r->fl);
#endif
    /* The reported time, floor and ratio: the kernel and the chosen floor
     * timed in alternating samples, so both see the same machine state (this
     * machine is shared: a floor measured a second apart from the kernel
     * varied up to 2x); the ratio is the median of the per-sample ratios. */
    {
        bench_fn ffn = floor_scalar;
#ifdef BENCH_X86
        if (g_have_avx2)
            ffn = r->floor_nt ? floor_avx2_nt : floor_avx2;
#endif
        r->ratio = bench_measure_paired(run_maxpool, &rc, ffn, &fc, &r->t1, &r->fl);
    }
    fc.mbytes = (size_t)(r->bytes / 2);
    fc.msrc = xalloc(fc.mbytes);
    fc.mdst = xalloc(fc.mbytes);
    memset(fc.msrc, 1, fc.mbytes);
    bench_measure(floor_memcpy, &fc, &r->mc);
    free(fc.msrc);
    free(fc.mdst);

    /* maxpool, N threads */
    if (g_threads > 1) {
        maxpool_desc dn;
        make_desc(c, g_threads, g_isa, &dn);
        maxpool_plan *pn = NULL;
        if (maxpool_plan_create(&dn, c->shape, &pn, &err) == MAXPOOL_OK) {
            run_ctx rn = {pn, x, y, idx, MAXPOOL_OK};
            bench_measure(run_maxpool, &rn, &r->tn);
            maxpool_plan_destroy(pn);
        }
    }

    /* restore maxpool's output for the peers' comparison */
    maxpool_run(plan, x, y, idx);
#ifdef MAXPOOL_BENCH_HAVE_ONEDNN
    if (g_peers && c->dtype == MAXPOOL_F32)
        peer_onednn_run(&pr, &r->dnnl_plain, &r->dnnl_blocked);
#endif
done:
    maxpool_plan_destroy(plan);
    free(x);
    free(y);
    free(idx);
}

#ifdef _OPENMP
/* Cost of an empty parallel region with n threads: what every multi-threaded
 * maxpool_run pays at least (on a loaded machine, a scheduling delay). */
static volatile int g_sink;
static int g_fj_threads = 2;
static void omp_fork_join(void *ctx)
{
    (void)ctx;
#pragma omp parallel num_threads(g_fj_threads)
    {
        if (omp_get_thread_num() == 1)
            g_sink = 1;
    }
}
#endif

static int case_selected(const bench_case *c, const char *sel)
{
    if (!sel)
        return 1;
    char buf[512];
    snprintf(buf, sizeof buf, "%s", sel);
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ","))
        if (strcmp(tok, c->name) == 0 || strstr(c->name, tok))
            return 1;
    return 0;
}

static void usage(void)
{
    printf("usage: maxpool_bench [--case NAME[,NAME...]] [--threads N] [--isa auto|scalar|sse2|avx2|avx512|neon]\n"
           "                     [--quick] [--csv] [--json FILE] [--time SECONDS] [--no-peers] [--list]\n"
           "                     [--iters N] [--dtype f32|f64|f16|bf16|i8|u8|i16|u16|i32|i64]\n"
           "  --case     run the cases whose name equals or contains NAME (see --list)\n"
           "  --threads  also time each case with desc.num_threads = N (N >= 2) and print the speedup\n"
           "  --isa      kernel ISA ceiling (desc.max_isa); the floor always uses the best ISA\n"
           "  --quick    short timing budget (CI smoke run)\n"
           "  --time     timing budget of one measurement in seconds (default 0.35; quick 0.03)\n"
           "  --iters N  run each selected case N times and exit (for callgrind), nothing timed\n"
           "  --dtype T  run the selected cases with element type T instead of their own\n");
}

static int parse_dtype(const char *s)
{
    for (int t = 0; t < MAXPOOL_DTYPE_COUNT; ++t)
        if (strcmp(s, maxpool_dtype_name((maxpool_dtype)t)) == 0)
            return t;
    fprintf(stderr, "maxpool_bench: unknown dtype '%s'\n", s);
    exit(2);
}

static maxpool_isa parse_isa(const char *s)
{
    static const maxpool_isa all[] = {MAXPOOL_ISA_AUTO, MAXPOOL_ISA_SCALAR, MAXPOOL_ISA_SSE2,
                                      MAXPOOL_ISA_AVX2, MAXPOOL_ISA_AVX512, MAXPOOL_ISA_NEON};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i)
        if (strcmp(s, maxpool_isa_name(all[i])) == 0)
            return all[i];
    fprintf(stderr, "maxpool_bench: unknown ISA '%s'\n", s);
    exit(2);
}

/* callgrind mode: plan once, run n times */
static int run_iters(const bench_case *c, long n)
{
    maxpool_desc d;
    make_desc(c, 1, g_isa, &d);
    maxpool_plan *plan = NULL;
    maxpool_error err;
    if (maxpool_plan_create(&d, c->shape, &plan, &err) != MAXPOOL_OK) {
        fprintf(stderr, "%s: %s\n", c->name, err.message);
        return 1;
    }
    int64_t ni = maxpool_plan_input_elements(plan), no = maxpool_plan_output_elements(plan);
    const size_t es = dtype_size(c->dtype);
    float *x = xalloc((size_t)ni * es), *y = xalloc((size_t)no * es);
    void *idx = c->index_type != NOIDX ? xalloc((size_t)no * 8) : NULL;
    fill_random_typed(x, ni, c->dtype);
    for (long i = 0; i < n; ++i)
        maxpool_run(plan, x, y, idx);
    printf("%s: kernel %s, %ld runs\n", c->name, maxpool_plan_kernel_name(plan), n);
    maxpool_plan_destroy(plan);
    free(x);
    free(y);
    free(idx);
    return 0;
}

int main(int argc, char **argv)
{
    const char *sel = NULL, *json_path = NULL;
    int csv = 0, quick = 0, list = 0;
    long iters = 0;
    int dtype = -1;
    double time_s = 0;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define NEEDV                                                                                                      \
    do {                                                                                                           \
        if (!v) {                                                                                                  \
            fprintf(stderr, "maxpool_bench: %s needs a value\n", a);                                               \
            return 2;                                                                                              \
        }                                                                                                          \
        ++i;                                                                                                       \
    } while (0)
        if (strcmp(a, "--case") == 0) {
            NEEDV;
            sel = v;
        } else if (strcmp(a, "--threads") == 0) {
            NEEDV;
            g_threads = atoi(v);
        } else if (strcmp(a, "--isa") == 0) {
            NEEDV;
            g_isa = parse_isa(v);
        } else if (strcmp(a, "--json") == 0) {
            NEEDV;
            json_path = v;
        } else if (strcmp(a, "--time") == 0) {
            NEEDV;
            time_s = atof(v);
        } else if (strcmp(a, "--iters") == 0) {
            NEEDV;
            iters = atol(v);
        } else if (strcmp(a, "--dtype") == 0) {
            NEEDV;
            dtype = parse_dtype(v);
        } else if (strcmp(a, "--quick") == 0) {
            quick = 1;
        } else if (strcmp(a, "--csv") == 0) {
            csv = 1;
        } else if (strcmp(a, "--no-peers") == 0) {
            g_peers = 0;
        } else if (strcmp(a, "--list") == 0) {
            list = 1;
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage();
            return 0;
        } else {
            fprintf(stderr, "maxpool_bench: unknown option '%s'\n", a);
            usage();
            return 2;
        }
    }
    if (dtype >= 0)
        for (int i = 0; i < NCASES; ++i)
            if (case_selected(&CASES[i], sel))
                CASES[i].dtype = (maxpool_dtype)dtype;
    if (list) {
        for (int i = 0; i < NCASES; ++i)
            printf("%-27s %s\n", CASES[i].name, CASES[i].what);
        return 0;
    }
    if (iters > 0) {
        int rc = 0;
        for (int i = 0; i < NCASES; ++i)
            if (case_selected(&CASES[i], sel))
                rc |= run_iters(&CASES[i], iters);
        return rc;
    }
    if (quick) {
        g_target_s = 0.03;
        g_min_samples = 3;
    }
    if (time_s > 0)
        g_target_s = time_s;
    g_have_avx2 = have_avx2();
    int have_dnnl = 0;
#ifdef MAXPOOL_BENCH_HAVE_ONEDNN
    have_dnnl = g_peers;
#endif

    char cpu[256];
    cpu_model(cpu, sizeof cpu);
    time_t now = time(NULL);
    char date[64];
    strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S UTC", gmtime(&now));
    const char *env_isa = getenv("MAXPOOL_ISA");
    char thr[32] = "";
    if (g_threads > 1)
        snprintf(thr, sizeof thr, " and %d", g_threads);
    if (!csv) {
        printf("maxpool_bench: %s | cpu isa %s, --isa %s%s%s | floor %s | threads 1%s | %s\n", cpu,
               maxpool_isa_name(maxpool_cpu_isa()), maxpool_isa_name(g_isa), env_isa ? ", MAXPOOL_ISA=" : "",
               env_isa ? env_isa : "", g_have_avx2 ? "avx2" : "scalar", thr, date);
#ifdef MAXPOOL_BENCH_HAVE_ONEDNN
        if (have_dnnl)
            printf("peer: oneDNN %s (1 thread)\n", peer_onednn_version());
#endif
        printf("times: median per call in microseconds; x_flr = time / floor; MB = input + output + index bytes;\n"
               "floor*: non-temporal stores were faster than plain ones\n");
    }
    double fork_join_s = 0;
#ifdef _OPENMP
    if (g_threads > 1) {
        bench_stats fj;
        g_fj_threads = g_threads;
        fork_join_s = bench_measure(omp_fork_join, NULL, &fj);
        if (!csv)
            printf("OpenMP fork/join with %d threads (empty parallel region): %.2f us median\n", g_threads,
                   fork_join_s * 1e6);
    }
#endif
    print_header(g_threads, have_dnnl, csv);

    case_result *res = calloc((size_t)NCASES, sizeof *res);
    int nres = 0, bad = 0;
    for (int i = 0; i < NCASES; ++i) {
        if (!case_selected(&CASES[i], sel))
            continue;
        run_case(&CASES[i], &res[nres]);
        print_row(&res[nres], have_dnnl, csv);
        if (res[nres].failed || res[nres].check_bad)
            bad = 1;
        ++nres;
    }
    if (nres == 0) {
        fprintf(stderr, "maxpool_bench: no case matches '%s' (see --list)\n", sel ? sel : "");
        free(res);
        return 2;
    }
    for (int i = 0; i < nres && !csv; ++i)
        if (res[i].c->per_call && !res[i].failed)
            printf("%s: %.1f ns per maxpool_run with a reused plan (target <= 300 ns); plan create %.2f us\n",
                   res[i].c->name, res[i].t1.median * 1e9, res[i].plan_create_s * 1e6);

    if (json_path) {
        FILE *f = fopen(json_path, "w");
        if (!f) {
            fprintf(stderr, "maxpool_bench: cannot write %s\n", json_path);
            free(res);
            return 2;
        }
        fprintf(f, "{\n  \"tool\": \"maxpool_bench\",\n  \"date\": ");
        json_str(f, date);
        fprintf(f, ",\n  \"cpu\": ");
        json_str(f, cpu);
        fprintf(f, ",\n  \"cpu_isa\": \"%s\",\n  \"isa\": \"%s\",\n  \"maxpool_isa_env\": ",
                maxpool_isa_name(maxpool_cpu_isa()), maxpool_isa_name(g_isa));
        json_str(f, env_isa ? env_isa : "");
        fprintf(f, ",\n  \"omp_fork_join_s\": %.9g", fork_join_s);
        fprintf(f, ",\n  \"floor_isa\": \"%s\",\n  \"threads\": %d,\n  \"quick\": %s,\n  \"target_s\": %g,\n",
                g_have_avx2 ? "avx2" : "scalar", g_threads, quick ? "true" : "false", g_target_s);
#ifdef MAXPOOL_BENCH_HAVE_ONEDNN
        fprintf(f, "  \"onednn\": ");
        json_str(f, have_dnnl ? peer_onednn_version() : "");
        fprintf(f, ",\n");
#endif
        fprintf(f, "  \"cases\": [\n");
        for (int i = 0; i < nres; ++i) {
            const case_result *r = &res[i];
            fprintf(f, "    {\"name\": ");
            json_str(f, r->c->name);
            fprintf(f, ", \"what\": ");
            json_str(f, r->c->what);
            fprintf(f, ", \"kernel\": ");
            json_str(f, r->kernel);
            fprintf(f, ", \"failed\": %s", r->failed ? "true" : "false");
            if (r->failed) {
                fprintf(f, ", \"error\": ");
                json_str(f, r->fail);
                fprintf(f, "}%s\n", i + 1 < nres ? "," : "");
                continue;
            }
            fprintf(f, ",\n     \"bytes\": %.0f, \"in_bytes\": %.0f, \"out_bytes\": %.0f, \"idx_bytes\": %.0f,"
                       " \"plan_create_s\": %.9g, \"check_bad\": %lld, \"check_n\": %d, \"floor_nt\": %s,"
                       " \"ratio\": %.6g,\n     ",
                    r->bytes, r->in_bytes, r->out_bytes, r->idx_bytes, r->plan_create_s, (long long)r->check_bad,
                    r->check_n, r->floor_nt ? "true" : "false", r->ratio);
            json_stats(f, "t1", &r->t1);
            fprintf(f, ",\n     ");
            json_stats(f, "floor", &r->fl);
            fprintf(f, ",\n     ");
            json_stats(f, "memcpy", &r->mc);
            if (r->threads > 1) {
                fprintf(f, ",\n     \"nthreads\": %d, ", r->threads);
                json_stats(f, "tn", &r->tn);
            }
            if (have_dnnl) {
                fprintf(f, ",\n     ");
                json_peer(f, "onednn_plain", &r->dnnl_plain);
                fprintf(f, ",\n     ");
                json_peer(f, "onednn_blocked", &r->dnnl_blocked);
            }
            fprintf(f, "}%s\n", i + 1 < nres ? "," : "");
        }
        fprintf(f, "  ]\n}\n");
        fclose(f);
    }
    free(res);
    return bad ? 1 : 0;
}
