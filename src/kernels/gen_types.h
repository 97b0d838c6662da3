/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The element types of the type-generic kernels (gen_impl.h): GEN_TYPE is
 * one of these in a gen_<type>_<isa>.c file, and selects that type's block
 * of the vector layer (vt_<isa>.h). f32 has its own tuned kernels (f32_*);
 * its channels-first gen instantiation (GEN_F32) takes the plans where the
 * gen forms are faster (f32_match.c).
 */
#ifndef MAXPOOL_GEN_TYPES_H
#define MAXPOOL_GEN_TYPES_H

#define GEN_F64 1
#define GEN_F16 2
#define GEN_BF16 3
#define GEN_I8 4
#define GEN_U8 5
#define GEN_I16 6
#define GEN_U16 7
#define GEN_I32 8
#define GEN_I64 9
#define GEN_F32 10

/* Keys are f32 vectors (f32 itself, f16 and bf16 widened) */
#define GEN_KEYS_PS (GEN_TYPE == GEN_F32 || GEN_TYPE == GEN_F16 || GEN_TYPE == GEN_BF16)

#endif
