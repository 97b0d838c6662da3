/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The type-generic kernels ("gen"): max pooling of every element type but
 * f32 (which has its own tuned kernels; its channels-first instantiation
 * takes the plans where these forms are faster), both layouts, spatial rank 1..3,
 * fixed or adaptive windows, every NaN policy, start value, empty-window
 * index and index type (row-major indices). Written once against the vector
 * layer vt_<isa>.h (GEN_TYPE selects the type's block there) and
 * instantiated by gen_<type>_<isa>.c with KPREFIX set; kernel names
 * <type>_nchw_gen_<isa> and <type>_nhwc_gen_<isa>.
 *
 * One file per part, included below in this order: gen_geo.h (vector-layer
 * glue, geometry, index output, scalar fold), gen_cf.h (channels-first
 * per-tap pieces), gen_cfi.h (their index store), gen_cl.h (channels-last),
 * gen_lf.h (lines first), gen_cf_run.h (their row loop), gen_fl.h (W
 * first), gen_vf.h (integers: lines first, one W pass per output row),
 * gen_fp.h (f32 small planes of W stride 1 as flat arrays), gen_fr.h (f32
 * rows of W stride 2 in one vector), gen_fl3.h (3-D, depth stride 1: slices
 * first, values only; its 32 KiB band scratch instead of fl_run's), gen_fls.h
 * (stride 1, log step), gen_cb.h (stride 1, the 8- and 16-bit integers'
 * planes across the lanes: GEN_CB, vt_<isa>.h), gen_fli.h (W first with indices), gen_clw.h
 * (channels-last W first), gen_glob.h (global windows), gen_cfs.h (rows of
 * one vector with indices), gen_cfa.h (short adaptive rows with indices),
 * gen_cft.h (f32 small adaptive planes with indices, planes across lanes);
 * this file keeps the entry points.
 *
 * The scan is the reference's (reference.c), lane by lane: the running max
 * starts at the start value (or, first-element start, at the window's first
 * tap: that tap then meets itself again, which changes nothing), and tap x,
 * in row-major window order, replaces it when x > best (or x is NaN under
 * propagation). Each lane of a vector is one output element:
 *
 *  - channels-last (KFN(nhwc)): the lanes are VN channels of one output
 *    pixel, all with the same window; a tap is one vector load. One task is
 *    one output row (n, o0, o1) of every channel. Values only with at least
 *    a vector of channels: the W-first form (clw_run, gen_clw.h), a line
 *    shared with the next output row scanned once into a line buffer.
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
 *    copies its lines to a padded buffer instead (cf_border; one copy for
 *    both strides, cf_border_o: docs/performance.md "Build cost"). Other W
 *    windows (strides >= 3, uneven adaptive) go lines first (lf_cols): the
 *    window's lines combined per input column with their line numbers, then
 *    each output column reduced with the row-major position as tie rule.
 *    What is left (dilated windows off the grid, rows of more lines than a
 *    lane numbers) gathers each tap's lanes into a buffer (cf_gather).
 *    Without indices, on the grid with stride 1 or 2, the W-first form
 *    (fl_run, below) comes before all these: each input line's W pass
 *    once, then each output row's max over its lines' W results; the
 *    integers with W stride 2 and 2 or 3 taps go lines first instead
 *    (gen_vf.h: one W pass per output row), f32 small planes flat
 *    (gen_fp.h) or a row in one vector (gen_fr.h).
 *
 * Indices: each lane carries the number t of the tap that last replaced it
 * (VI lanes as wide as the keys, so one compare mask selects both; all ones
 * = no position yet), turned into an input offset through the row's table
 * when the lanes are stored (gen_cfi.h: a vector gather from that table).
 * With indices, W kernels of 5 to 16 taps on the grid with stride 1 or 2
 * go W first too (fli_task, gen_fli.h: the W pass keeps each result's tap,
 * the line pass its line, as the same tap numbers). Windows of more taps
 * than a lane can number
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
 * and row tables (2 x GEN_FL_ROWS); the W-first form with indices' strip
 * of keys and tap numbers (gen_fli.h); the channels-last W-first form's
 * line buffer (GEN_CLW_BYTES) and line pointers (GEN_LINES_MAX). Deepest
 * chain (gcc -fstack-usage, f64 at avx2): the entry 12 KiB, fl_run 35 KiB
 * (or fli_task 31), their fallback cf_task 15 and lf_cols 14: about
 * 77 KiB (include/maxpool.h promises 80).
 * Reads: the windows' input elements; in the stride-2 forms the odd
 * elements between them; in the masked border form and the W-first form's
 * first and last vector of a line, elements just outside the row
 * (neighbouring lines of the same tensor, never used), only when the
 * vector's whole span lies inside the input tensor.
 */
#include "gen_geo.h"
#include "gen_cf.h"
#include "gen_cfi.h"
#ifndef GEN_NCHW_ONLY /* (after gen_cfi.h: its index store) */
#include "gen_cl.h"
#endif
#include "gen_lf.h"
#include "gen_cf_run.h"
#include "gen_fl.h"
#include "gen_vf.h"
#include "gen_fp.h"
#include "gen_fr.h"
#include "gen_fl3.h"
#ifndef GEN_NCHW_ONLY
#include "gen_fls.h"
#endif
#if defined(GEN_CB) && !defined(GEN_NCHW_ONLY)
#include "gen_cb.h"
#endif
#ifndef GEN_NCHW_ONLY /* (f32 with indices: adaptive heads, rows of one vector, gen_cfs.h) */
#include "gen_fli.h"
#endif
#ifndef GEN_NCHW_ONLY /* f32 (gen_f32_<isa>.c): channels-first only, f32_nhwc_* keep channels-last */
#include "gen_clw.h"
#endif
#include "gen_glob.h"
#include "gen_cfs.h"
#include "gen_cfa.h"
#include "gen_cft.h"

/* ---- entry points: the NaN rule and index output as constants ----------- */

void KFN(nchw)(const struct maxpool_plan *p, const void *x, void *y, void *ind, int64_t t0, int64_t t1)
{
    KFN(geo) g;
    KFN(geo_init)(p, &g);
    g.xbeg = (const GT *)x;
    g.xlen = p->n * p->c * p->in_spatial;
    const int wi = p->desc.index_type != MAXPOOL_INDEX_NONE && ind != NULL;
    if (KFN(gl_is)(&g)) { /* global windows (gen_glob.h) */
        KFN(gl_task)(p, &g, (const GT *)x, (GT *)y, ind, t0, t1, GFLOAT && p->nan_propagate, wi);
        return;
    }
#if GEN_FR
    if (KFN(fri_geo)(p, &g, wi)) { /* with indices: 2x2 windows on a stride-2 grid, rows of one vector (gen_fr.h) */
        KFN(fri_run)(p, &g, x, y, ind, t0, t1, GFLOAT && p->nan_propagate);
        return;
    }
    if (KFN(fr_geo)(p, &g, wi)) { /* rows in one vector, W stride >= 2 (gen_fr.h) */
        KFN(fr_run)(&g, x, y, t0, t1, GFLOAT && p->nan_propagate);
        return;
    }
#endif
    KFN(geo_masks)(&g);
#if GEN_VF
    KFN(vfg) vf; /* integer keys: lines first, the W pass on the combined line (gen_vf.h) */
    if (!wi && p->rank < 3 && KFN(vf_geo)(&g, wi, &vf)) {
        KFN(vf_run)(p, &g, &vf, (const GT *)x, (GT *)y, t0, t1);
        return;
    }
#endif
#ifndef GEN_NCHW_ONLY /* (f32 takes its s1 kernels there: f32_match.c, gen_match.c) */
    int64_t kh, ph;
    const int64_t fls = KFN(fls_geo)(p, &g, wi, &kh, &ph);
    if (fls) { /* stride 1, log step (gen_fls.h); 8- and 16-bit integers: planes across the lanes (gen_cb.h) */
#ifdef GEN_CB
        const int64_t cbs = KFN(cb_geo)(p, &g, kh, ph);
        if (cbs) {
            KFN(cb_run)(p, &g, x, y, t0, t1, cbs, fls, kh, ph);
            return;
        }
#endif
        KFN(fls_run)(p, &g, x, y, t0, t1, fls, kh, ph, GFLOAT && p->nan_propagate);
        return;
    }
#endif
    KFN(geo_flat)(&g, wi, GFLOAT && p->nan_propagate);
#ifndef GEN_NCHW_ONLY
    if (wi && KFN(fli_geo)(&g)) { /* W first with indices (gen_fli.h) */
        KFN(fli_task)(p, &g, x, y, ind, t0, t1, GFLOAT && p->nan_propagate);
        return;
    }
#endif
#if GEN_TYPE == GEN_F32
    if (wi && KFN(cft_geo)(p, &g)) { /* small adaptive planes with indices, planes across lanes (gen_cft.h) */
        KFN(cft_tasks)(p, &g, (const GT *)x, (GT *)y, ind, t0, t1, GFLOAT && p->nan_propagate);
        return;
    }
#endif
    if (wi && KFN(cfa_geo)(p, &g)) { /* short adaptive rows with indices (gen_cfa.h) */
        KFN(cfa_task)(p, &g, x, y, ind, t0, t1, GFLOAT && p->nan_propagate);
        return;
    }
    if (wi && KFN(cfs_geo)(p, &g)) { /* rows of one vector with indices (gen_cfs.h) */
        KFN(cfs_task)(p, &g, x, y, ind, t0, t1, GFLOAT && p->nan_propagate);
        return;
    }
#if GEN_FP
    if (KFN(fp_geo)(p, &g, wi)) { /* small planes flat (gen_fp.h) */
        KFN(fp_tasks)(p, &g, x, y, t0, t1, GFLOAT && p->nan_propagate);
        return;
    }
#endif
    const int64_t fl3 = KFN(fl3_geo)(p, &g, wi);
    if (fl3) { /* rank 3, depth stride 1: slices first (gen_fl3.h) */
        KFN(fl3_run)(p, &g, x, y, t0, t1, fl3, GFLOAT && p->nan_propagate);
        return;
    }
#if GEN_VF
    if (!wi && p->rank == 3 && KFN(vf_geo)(&g, wi, &vf)) { /* (rank 3: after the slices-first form) */
        KFN(vf_run)(p, &g, &vf, (const GT *)x, (GT *)y, t0, t1);
        return;
    }
#endif
    if (g.fl_wl) {
        KFN(fl_run)(p, &g, x, y, t0, t1, (int)g.S, GFLOAT && p->nan_propagate);
        return;
    }
    KFN(cf_task)(p, &g, x, y, ind, t0, t1, GFLOAT && p->nan_propagate, wi);
}

#ifndef GEN_NCHW_ONLY
void KFN(nhwc)(const struct maxpool_plan *p, const void *x, void *y, void *ind, int64_t t0, int64_t t1)
{
    KFN(geo) g;
    KFN(geo_init)(p, &g);
    const int wi = p->desc.index_type != MAXPOOL_INDEX_NONE && ind != NULL;
    if (!wi) { /* values only: W first (gen_clw.h), or channels narrower than a vector */
        if (p->c >= VN)
            KFN(clw_run)(p, &g, x, y, t0, t1, GFLOAT && p->nan_propagate);
        else
            KFN(cl_run_v)(p, &g, x, y, t0, t1, GFLOAT && p->nan_propagate);
        return;
    }
    if (GFLOAT && p->nan_propagate)
        KFN(cl_run)(p, &g, x, y, ind, t0, t1, 1, 1);
    else
        KFN(cl_run)(p, &g, x, y, ind, t0, t1, 0, 1);
}
#endif
