/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Plan selection of the channels-first lines-first kernel
 * (f32_nchw_linesfirst_impl.h), shared by its implementation and the
 * portable match function.
 */
#ifndef MAXPOOL_F32_CF_LINESFIRST_H
#define MAXPOOL_F32_CF_LINESFIRST_H

#include "f32_cf_geom.h"

/* Columns of the combined-row buffer; one W window must fit. */
#define CF_LF_CAP 2048

/* Plans the lines-first kernel takes: those whose W windows have no vector W
 * pass in the row kernel (CF_W_SCALAR: uneven adaptive windows, stride >= 3,
 * stride 2 with dilation), with in-plane positions in int32 (it tracks them
 * with or without index output), a W window that fits its buffer, and more
 * than one line per window (with one line the combine is a copy, and the
 * row kernel's scalar W pass is as fast as the gathered W reduce: measured
 * 1.5-2x in favour of the row kernel on 1-D k3s3 and adaptive 4096->100).
 * The scratch bounds are listed above maxpool_f32_nchw_linesfirst_match
 * (f32_match.c). */
static inline int cf_match_linesfirst(const struct maxpool_plan *p)
{
    if (!cf_match_pos32(p))
        return 0;
    cf_geom g;
    cf_geom_init(p, &g);
    return g.wmode == CF_W_SCALAR && g.aw.extent <= CF_LF_CAP && g.a0.extent * g.a1.extent >= 2;
}

#endif
