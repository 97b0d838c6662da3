/* SPDX-License-Identifier: Apache-2.0 */
/* Which plans the f32 kernels take and how many tasks they split into
 * (portable: the ISA-specific files hold only the kernels). Every kernel
 * here gets only plans with maxpool_plan.bounded (dispatch.c): window arrays
 * present, per axis out, kernel, stride, dilation, dilated kernel and pads
 * <= 4*in + 64. Above each match function: the kernel's fixed-size scratch,
 * the index range it sees, and what keeps that range inside. */
#include "kernels.h"

#include "f32_cf_geom.h"
#include "f32_cf_linesfirst.h"
#include "f32_nchw_s1_logstep_geom.h"

/* f32_nchw_rows_* (f32_nchw_rows_impl.h), stack scratch per task:
 *  - sval/spos[CF_SLOT_FLOATS]: nslots slots of chs = chunk + VW (the last
 *    vector group of a slot may run VW - 1 past its ncp columns); nslots =
 *    s0*s1 <= CF_MAX_SLOTS (else streaming: 2 slots) and chunk <=
 *    (CF_SLOT_FLOATS/nslots - VW) rounded to VW: nslots*chs <= 2048.
 *  - tags/vals/poss[CF_MAX_SLOTS]: lines of a window, count0*count1 <=
 *    extent0*extent1 <= s0*s1 <= 32 (cf_geom_init; streaming otherwise).
 *  - lbuf[CF_LBUF_FLOATS]: the padded copy of a border group, u1 - u0 <=
 *    2048 (wpadded), else the scalar column loop.
 *  - lbuf/lpos[CF_TCAP] as the log-step W pass' tables: span + 2*VW <= 1024
 *    (wlog), else the vector groups.
 *  - ft/fg/fem[CF_FT_CAP + 16]: ncp <= chunk <= CF_FT_CAP columns.
 * Positions are int32 in every mode (position lanes, the first-element
 * gather at the window's first tap): in_spatial <= INT32_MAX, and with
 * indices max_offset <= INT32_MAX (empty windows' first taps). */
int maxpool_f32_nchw_rows_match(const struct maxpool_plan *p) { return cf_match_pos32(p); }
/* The same kernel (same scratch and conditions) for stride-1, dilation-1 W windows of 6 and more. */
int maxpool_f32_nchw_largek_match(const struct maxpool_plan *p) { return cf_match_largek(p); }
/* f32_nchw_linesfirst_* (f32_nchw_linesfirst_impl.h), stack scratch per task:
 *  - cv/cl[CF_LF_CAP + 16]: the combined row of a column chunk, U = u1 - u0
 *    <= CF_LF_CAP (wchunk adds windows while the union fits; the first
 *    non-empty one always does: W extent <= CF_LF_CAP, checked here), the
 *    line pass writing up to U rounded up to VW.
 *  - wst/wcn[CF_LF_COLS + 16], gmax, rv/rp: at most CF_LF_COLS columns a
 *    chunk, empty windows included (wchunk).
 *  - loff[CF_LF_MAXLINES]: lines of a window in batches of 256.
 * Positions are int32 (the tie rule needs them without index output too):
 * in_spatial <= INT32_MAX (cf_match_pos32), max_offset with indices. */
int maxpool_f32_nchw_linesfirst_match(const struct maxpool_plan *p) { return cf_match_linesfirst(p); }
/* The AVX-512 instantiation ranks first only on rows of more than 16 input
 * columns: on narrower rows its line pass is one vector as at AVX2, and its
 * W reduce's 16-lane gathers fetch twice the elements of the AVX2 ones for
 * the same few columns (measured, 2x256x13x13 -> 6x6 + indices: 480 against
 * 398 us; 15 -> 4: 218 against 168; 3-D 14 -> 5: 406 against 382; wide rows
 * favour AVX-512: 56 -> 7, 1,271 against 1,418); there the AVX2 one does. */
int maxpool_f32_nchw_linesfirst_wide_match(const struct maxpool_plan *p)
{
    return cf_match_linesfirst(p) && p->axis[p->rank - 1].in > 16;
}
int64_t maxpool_f32_nchw_rows_tasks(const struct maxpool_plan *p) { return cf_tasks(p); }
/* f32_nchw_s1_logstep_*: scratch and conditions above ls_match
 * (f32_nchw_s1_logstep_geom.h). */
int maxpool_f32_nchw_s1_logstep_match(const struct maxpool_plan *p) { return ls_match(p); }
int64_t maxpool_f32_nchw_s1_logstep_tasks(const struct maxpool_plan *p) { return ls_tasks(p); }

/* f32_nhwc_* (f32_nhwc_impl.h), stack scratch per task:
 *  - to[KFN_MAX_ROWS]: the fast path's row offsets, taken only when the
 *    window's rows count0*count1 <= 16.
 *  - wbuf[KFN_WBUF]: the W-first line buffer, taken only when out_w*C <=
 *    8192 (and rank 2, values only, C a multiple of VW).
 *  - best/bi[8]: NB <= 8 channel vectors.
 * Input reads go through the window arrays (never padding); the
 * positions are only converted to int32 (no int32 arithmetic), and are
 * written only with indices: then in_spatial and max_offset <= INT32_MAX. */
int maxpool_f32_nhwc_match(const struct maxpool_plan *p)
{
    if (p->desc.dtype != MAXPOOL_F32 || p->desc.layout != MAXPOOL_CHANNELS_LAST || p->rank < 1 || p->rank > 3)
        return 0;
    if (p->desc.index_type != MAXPOOL_INDEX_NONE &&
        (p->desc.index_order != MAXPOOL_INDEX_ROW_MAJOR || p->in_spatial > INT32_MAX || p->max_offset > INT32_MAX))
        return 0;
    return 1;
}

int64_t maxpool_f32_nhwc_tasks(const struct maxpool_plan *p)
{
    int64_t rows = 1;
    for (int i = 0; i < p->rank - 1; ++i)
        rows *= p->axis[i].out;
    return p->n * rows;
}
