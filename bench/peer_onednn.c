/* SPDX-License-Identifier: Apache-2.0 */
/*
 * oneDNN peer for maxpool_bench (compiled only when libdnnl is found).
 *
 * Max pooling through oneDNN's C API, 1 thread, on the same input values:
 *  - plain:   the case's own layout (abc/abcd/abcde for channels-first,
 *             acb/acdb/acdeb for channels-last); its output is compared
 *             bit-exactly with maxpool's;
 *  - blocked: oneDNN's preferred blocked layout for this CPU (aBcd8b on AVX2,
 *             aBcd16b on AVX-512); data is written straight into it, so the
 *             reorders a real graph would need are not timed.
 * Index cases use forward_training, which makes oneDNN write its workspace
 * (the winning tap's offset inside the window, u8/s32) instead of int64 flat
 * indices: the nearest thing it has. Adaptive cases run as the equivalent
 * fixed window (kernel = stride = in / out) when every axis divides evenly.
 * Works with the oneDNN 2.x (desc_init) and 3.x (primitive_desc_create) APIs.
 */
#define _POSIX_C_SOURCE 200809L

#include "bench_common.h"

#include <dnnl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#if DNNL_VERSION_MAJOR >= 3
typedef dnnl_memory_desc_t md_t;   /* a handle */
#define MD_ARG(m) (m)
#else
typedef dnnl_memory_desc_t md_t;   /* a struct */
#define MD_ARG(m) (&(m))
#endif

static char g_version[64];

const char *peer_onednn_version(void)
{
    const dnnl_version_t *v = dnnl_version();
    snprintf(g_version, sizeof g_version, "%d.%d.%d (%s)", v->major, v->minor, v->patch,
             v->cpu_runtime == DNNL_RUNTIME_OMP ? "omp" : v->cpu_runtime == DNNL_RUNTIME_TBB ? "tbb" : "seq/other");
    return g_version;
}

typedef struct exec_ctx {
    dnnl_primitive_t prim;
    dnnl_stream_t stream;
    int nargs;
    dnnl_exec_arg_t args[3];
    dnnl_status_t status;
} exec_ctx;

static void exec_fn(void *vctx)
{
    exec_ctx *e = vctx;
    dnnl_status_t s = dnnl_primitive_execute(e->prim, e->stream, e->nargs, e->args);
    if (s == dnnl_success)
        s = dnnl_stream_wait(e->stream);
    if (s != dnnl_success)
        e->status = s;
}

static int blocked16(void)
{
    dnnl_cpu_isa_t isa = dnnl_get_effective_cpu_isa();
    return ((unsigned)isa & 0x28u) != 0; /* avx512_mic (0x8) / avx512_core (0x20) bits */
}

static dnnl_format_tag_t tag_for(int ndims, int layout, int blocked)
{
    if (blocked) {
        int b16 = blocked16();
        switch (ndims) {
        case 3: return b16 ? dnnl_aBc16b : dnnl_aBc8b;
        case 4: return b16 ? dnnl_aBcd16b : dnnl_aBcd8b;
        default: return b16 ? dnnl_aBcde16b : dnnl_aBcde8b;
        }
    }
    if (layout == MAXPOOL_CHANNELS_FIRST)
        return ndims == 3 ? dnnl_abc : ndims == 4 ? dnnl_abcd : dnnl_abcde;
    return ndims == 3 ? dnnl_acb : ndims == 4 ? dnnl_acdb : dnnl_acdeb;
}

static const char *tag_name(int ndims, int layout, int blocked)
{
    if (blocked)
        return blocked16() ? (ndims == 3 ? "aBc16b" : ndims == 4 ? "aBcd16b" : "aBcde16b")
                           : (ndims == 3 ? "aBc8b" : ndims == 4 ? "aBcd8b" : "aBcde8b");
    if (layout == MAXPOOL_CHANNELS_FIRST)
        return ndims == 3 ? "abc" : ndims == 4 ? "abcd" : "abcde";
    return ndims == 3 ? "acb" : ndims == 4 ? "acdb" : "acdeb";
}

/* One measurement; returns 0 on success. */
static int run_one(const bench_problem *pr, int blocked, peer_result *out)
{
    const bench_case *c = pr->c;
    int ndims = c->rank + 2;
    dnnl_dims_t src_dims, dst_dims, strides, kernel, dil, pl, pr_;
    src_dims[0] = dst_dims[0] = pr->n;
    src_dims[1] = dst_dims[1] = pr->ch;
    for (int a = 0; a < c->rank; ++a) {
        src_dims[2 + a] = pr->in_sp[a];
        dst_dims[2 + a] = pr->out_sp[a];
        dil[a] = 0; /* oneDNN counts dilation from 0 */
        if (c->adaptive) {
            if (pr->in_sp[a] % pr->out_sp[a] != 0) {
                snprintf(out->note, sizeof out->note, "adaptive axis %d not divisible", a);
                return -1;
            }
            kernel[a] = strides[a] = pr->in_sp[a] / pr->out_sp[a];
            pl[a] = pr_[a] = 0;
        } else {
            kernel[a] = c->kernel[a];
            strides[a] = c->stride[a];
            pl[a] = c->pad[a];
            /* oneDNN wants the right pad that makes the output size exact */
            pr_[a] = (pr->out_sp[a] - 1) * c->stride[a] + c->kernel[a] - pr->in_sp[a] - c->pad[a];
            if (pr_[a] < 0)
                pr_[a] = 0;
        }
    }
    dnnl_format_tag_t tag = tag_for(ndims, c->layout, blocked);
    snprintf(out->impl, sizeof out->impl, "%s", tag_name(ndims, c->layout, blocked));
    int training = c->index_type != MAXPOOL_INDEX_NONE;
    dnnl_prop_kind_t prop = training ? dnnl_forward_training : dnnl_forward_inference;

    dnnl_engine_t eng = NULL;
    dnnl_stream_t stream = NULL;
    dnnl_primitive_desc_t pd = NULL;
    dnnl_primitive_t prim = NULL;
    dnnl_memory_t msrc = NULL, mdst = NULL, mws = NULL;
    int rc = -1;
    md_t src_md, dst_md;
#if DNNL_VERSION_MAJOR >= 3
    src_md = dst_md = NULL;
#endif

    if (dnnl_engine_create(&eng, dnnl_cpu, 0) != dnnl_success || dnnl_stream_create(&stream, eng, dnnl_stream_default_flags) != dnnl_success) {
        snprintf(out->note, sizeof out->note, "engine/stream creation failed");
        goto done;
    }
#if DNNL_VERSION_MAJOR >= 3
    if (dnnl_memory_desc_create_with_tag(&src_md, ndims, src_dims, dnnl_f32, tag) != dnnl_success ||
        dnnl_memory_desc_create_with_tag(&dst_md, ndims, dst_dims, dnnl_f32, tag) != dnnl_success)
        goto done;
    if (dnnl_pooling_forward_primitive_desc_create(&pd, eng, prop, dnnl_pooling_max, src_md, dst_md, strides, kernel,
                                                   dil, pl, pr_, NULL) != dnnl_success) {
        snprintf(out->note, sizeof out->note, "pooling primitive desc failed");
        goto done;
    }
#else
    if (dnnl_memory_desc_init_by_tag(&src_md, ndims, src_dims, dnnl_f32, tag) != dnnl_success ||
        dnnl_memory_desc_init_by_tag(&dst_md, ndims, dst_dims, dnnl_f32, tag) != dnnl_success)
        goto done;
    dnnl_pooling_v2_desc_t desc;
    if (dnnl_pooling_v2_forward_desc_init(&desc, prop, dnnl_pooling_max, &src_md, &dst_md, strides, kernel, dil, pl,
                                          pr_) != dnnl_success ||
        dnnl_primitive_desc_create(&pd, &desc, NULL, eng, NULL) != dnnl_success) {
        snprintf(out->note, sizeof out->note, "pooling primitive desc failed");
        goto done;
    }
#endif
    const char *impl = NULL;
    if (dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &impl) == dnnl_success && impl)
        snprintf(out->impl, sizeof out->impl, "%s:%s", tag_name(ndims, c->layout, blocked), impl);
    if (dnnl_primitive_create(&prim, pd) != dnnl_success)
        goto done;
    if (dnnl_memory_create(&msrc, MD_ARG(src_md), eng, DNNL_MEMORY_ALLOCATE) != dnnl_success ||
        dnnl_memory_create(&mdst, MD_ARG(dst_md), eng, DNNL_MEMORY_ALLOCATE) != dnnl_success)
        goto done;
    exec_ctx e;
    memset(&e, 0, sizeof e);
    e.prim = prim;
    e.stream = stream;
    e.args[0].arg = DNNL_ARG_SRC;
    e.args[0].memory = msrc;
    e.args[1].arg = DNNL_ARG_DST;
    e.args[1].memory = mdst;
    e.nargs = 2;
    if (training) {
#if DNNL_VERSION_MAJOR >= 3
        const_dnnl_memory_desc_t ws = dnnl_primitive_desc_query_md(pd, dnnl_query_workspace_md, 0);
        if (ws && dnnl_memory_desc_get_size(ws) > 0) {
            if (dnnl_memory_create(&mws, ws, eng, DNNL_MEMORY_ALLOCATE) != dnnl_success)
                goto done;
#else
        const dnnl_memory_desc_t *ws = dnnl_primitive_desc_query_md(pd, dnnl_query_workspace_md, 0);
        if (ws && dnnl_memory_desc_get_size(ws) > 0) {
            if (dnnl_memory_create(&mws, ws, eng, DNNL_MEMORY_ALLOCATE) != dnnl_success)
                goto done;
#endif
            e.args[2].arg = DNNL_ARG_WORKSPACE;
            e.args[2].memory = mws;
            e.nargs = 3;
            snprintf(out->note, sizeof out->note, "forward_training: workspace instead of int64 indices");
        }
    }

    /* Input: the same values as maxpool's, in the plain layout (which is the
     * case's memory order); the blocked layout gets the same bytes in its own
     * order (the values stay a random permutation, the timing is the same). */
    void *sp = NULL, *dp = NULL;
    dnnl_memory_get_data_handle(msrc, &sp);
    dnnl_memory_get_data_handle(mdst, &dp);
    size_t src_bytes = dnnl_memory_desc_get_size(MD_ARG(src_md));
    size_t in_bytes = (size_t)pr->in_elems * sizeof(float);
    memset(sp, 0, src_bytes);
    memcpy(sp, pr->x, in_bytes < src_bytes ? in_bytes : src_bytes);
    memset(dp, 0, dnnl_memory_desc_get_size(MD_ARG(dst_md)));

    exec_fn(&e);
    if (e.status != dnnl_success) {
        snprintf(out->note, sizeof out->note, "execute failed (%d)", (int)e.status);
        goto done;
    }
    if (!blocked)
        out->mismatch = memcmp(dp, pr->y, (size_t)pr->out_elems * sizeof(float)) != 0;
    bench_stats st;
    out->seconds = bench_measure(exec_fn, &e, &st);
    out->ok = e.status == dnnl_success;
    rc = out->ok ? 0 : -1;
done:
    if (mws)
        dnnl_memory_destroy(mws);
    if (msrc)
        dnnl_memory_destroy(msrc);
    if (mdst)
        dnnl_memory_destroy(mdst);
    if (prim)
        dnnl_primitive_destroy(prim);
    if (pd)
        dnnl_primitive_desc_destroy(pd);
#if DNNL_VERSION_MAJOR >= 3
    if (src_md)
        dnnl_memory_desc_destroy(src_md);
    if (dst_md)
        dnnl_memory_desc_destroy(dst_md);
#endif
    if (stream)
        dnnl_stream_destroy(stream);
    if (eng)
        dnnl_engine_destroy(eng);
    return rc;
}

void peer_onednn_run(const bench_problem *pr, peer_result *plain, peer_result *blocked)
{
    memset(plain, 0, sizeof *plain);
    memset(blocked, 0, sizeof *blocked);
#ifdef _OPENMP
    int saved = omp_get_max_threads();
    omp_set_num_threads(1); /* oneDNN's OpenMP runtime follows the calling thread's setting */
#endif
    run_one(pr, 0, plain);
    run_one(pr, 1, blocked);
#ifdef _OPENMP
    omp_set_num_threads(saved);
#endif
}
