/* Line geometry of a plan's levels (line_geom.c): which lines a pass along
 * one transformed axis lifts, with what strides.  Host arithmetic, no CUDA;
 * the CUDA engines hand it to their kernels as lwk_lines. */
#ifndef LW_LINE_GEOM_H
#define LW_LINE_GEOM_H

#include "lw_internal.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A set of lines: the line axis plus up to 3 other dimensions (dlen[0] is the
 * fastest-varying one: neighbouring lines of one block differ in it). */
typedef struct lw_lines {
    int64_t n;       /* line length */
    int64_t lstride; /* elements between neighbours along a line */
    int nd;
    int64_t dlen[3], dstr[3];
    int64_t nlines;
} lw_lines;

/* Grid step of level k (0-based) in array elements: 2^k for the interleaved
 * layout, 1 for Mallat (whose level k works on a dense corner). */
int64_t lw_grid_step(const lw_plan *p, int k);
/* 1 if array axis ax is transformed. */
int lw_geo_is_axis(const lw_geometry *g, int ax);
/* Lines along transformed axis a (index into geo.axes) at level k, the other
 * dimensions sorted by stride. */
void lw_lines_for(const lw_plan *p, int k, int a, lw_lines *L);
/* Samples of one item's region at the input of level k (product of the
 * transformed lengths). */
int64_t lw_region_count(const lw_plan *p, int k);

#ifdef __cplusplus
}
#endif

#endif
