/* `liftwave view`: render a 2-D coefficient pyramid as an 8-bit picture.
 *
 * Every band (the three detail bands of each level and the final lowpass) is
 * stretched to its own range, and the bands are separated by 1-pixel white
 * lines.  The lines are inserted between bands, never drawn over
 * coefficients, so the picture is slightly larger than the array: each axis
 * that splits gains one pixel per level.  A band shorter than its nested
 * neighbour region (which holds the deeper levels' lines) is padded with
 * white.
 *
 * Layout along one axis with lowpass lengths r[0] = n > r[1] > ... > r[L]:
 *   R[L] = r[L];  R[k-1] = R[k] + 1 + (r[k-1] - r[k])
 * the level-k lowpass region occupies [0, R[k]), the separator sits at R[k],
 * the level-k highpass band starts at R[k] + 1. */
#include "cli_view.h"

#include "cli_common.h"
#include "cli_meta_apply.h"
#include "cli_output.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char view_usage[] =
    "usage: liftwave view COEFFS OUT.png|OUT.pgm|OUT.ppm [options]\n"
    "\n"
    "Draw the coefficient pyramid in COEFFS (a 2-D array, or H x W x C colour)\n"
    "as an 8-bit picture: every band stretched to its own range, bands separated\n"
    "by white lines.  The band geometry (--levels, --layout) comes from COEFFS.json,\n"
    "written by the forward; without it give the options the forward was made with\n"
    "(only --levels and --layout change the picture; the others are accepted so the\n"
    "forward command line can be reused).  An option that contradicts COEFFS.json is\n"
    "an error (with --force: a warning).\n"
    "\n"
    "options:\n"
    "  -l, --levels N|max   levels of the transform (default: recorded, else 1)\n"
    "      --layout L       mallat (default) or interleaved (de-interleaved for display)\n"
    "      --stretch S      robust (default): lowpass 0.5..99.5 percentile, details\n"
    "                       symmetric around 0 (mid gray) to the 99.5 percentile of |x|;\n"
    "                       minmax: every band from its min to its max\n"
    "  -w, -m, --integer, -b, --scheme, --axes 0,1   accepted, not needed\n"
    "      --shape S, --dtype T   for a .raw COEFFS file\n"
    "      --force, --overwrite   as for inverse\n"
    "  -v, --verbose        print what was drawn on stdout\n"
    "  -h, --help           this help\n"
    "\n"
    "example: liftwave view coeffs.npy pyramid.png\n"
    "\n" LW_CLI_EXIT_TEXT;

#define HIST_BINS 4096

/* Value range of a band for display.  sym: detail band (range symmetric
 * around zero in robust mode). */
typedef struct band_ref {
    const double *p; /* plane */
    int64_t stride;  /* row stride */
    int64_t r0, r1, c0, c1;
} band_ref;

static void band_minmax(const band_ref *b, int absval, double *mn, double *mx, int64_t *count)
{
    double lo = INFINITY, hi = -INFINITY;
    int64_t n = 0;
    for (int64_t i = b->r0; i < b->r1; i++)
        for (int64_t j = b->c0; j < b->c1; j++) {
            double v = b->p[i * b->stride + j];
            if (isnan(v)) continue;
            if (absval) v = fabs(v);
            if (isinf(v)) continue;
            if (v < lo) lo = v;
            if (v > hi) hi = v;
            n++;
        }
    *mn = lo;
    *mx = hi;
    *count = n;
}

/* Approximate percentiles (histogram of HIST_BINS bins over [mn, mx]). */
static void band_percentiles(const band_ref *b, int absval, double mn, double mx, int64_t n, double plo,
                             double phi, double *out_lo, double *out_hi)
{
    int64_t hist[HIST_BINS];
    memset(hist, 0, sizeof hist);
    double scale = (HIST_BINS - 1) / (mx - mn);
    if (!isfinite(scale) || !(scale > 0)) { /* range too small or too large to bin */
        *out_lo = mn;
        *out_hi = mx;
        return;
    }
    for (int64_t i = b->r0; i < b->r1; i++)
        for (int64_t j = b->c0; j < b->c1; j++) {
            double v = b->p[i * b->stride + j];
            if (isnan(v)) continue;
            if (absval) v = fabs(v);
            if (isinf(v)) continue;
            double pos = (v - mn) * scale;
            hist[pos <= 0 ? 0 : pos >= HIST_BINS - 1 ? HIST_BINS - 1 : (int)pos]++;
        }
    double want_lo = plo * (double)n, want_hi = phi * (double)n;
    int64_t acc = 0;
    int blo = 0, bhi = HIST_BINS - 1, have_lo = 0;
    for (int k = 0; k < HIST_BINS; k++) {
        acc += hist[k];
        if (!have_lo && (double)acc > want_lo) {
            blo = k;
            have_lo = 1;
        }
        if ((double)acc >= want_hi) {
            bhi = k;
            break;
        }
    }
    *out_lo = mn + blo / scale;
    *out_hi = mn + (bhi + 1) / scale;
    if (*out_hi > mx) *out_hi = mx;
}

/* Display range: values in [lo, hi] map to 0..255. */
static void band_range(const band_ref *b, int detail, lw_cli_stretch stretch, double *lo, double *hi)
{
    double mn, mx;
    int64_t n;
    if (stretch == LW_STRETCH_MINMAX || !detail) {
        band_minmax(b, 0, &mn, &mx, &n);
        *lo = mn;
        *hi = mx;
        if (n > 0 && mx > mn && stretch == LW_STRETCH_ROBUST)
            band_percentiles(b, 0, mn, mx, n, 0.005, 0.995, lo, hi);
        return;
    }
    band_minmax(b, 1, &mn, &mx, &n);
    double a = mx;
    if (n > 0 && mx > mn) {
        double plo;
        band_percentiles(b, 1, mn, mx, n, 0.0, 0.995, &plo, &a);
    }
    *lo = -a;
    *hi = a;
}

typedef struct picture {
    uint8_t *px;
    int64_t w;  /* width in pixels */
    int ch;     /* 1 or 3 */
} picture;

/* Draw the band [r0,r1) x [c0,c1) of plane at (orow, ocol) into channel c. */
static void draw_band(const band_ref *b, int detail, lw_cli_stretch stretch, picture *pic, int c, int64_t orow,
                      int64_t ocol)
{
    if (b->r1 <= b->r0 || b->c1 <= b->c0) return;
    double lo, hi;
    band_range(b, detail, stretch, &lo, &hi);
    double scale = 255.0 / (hi - lo);
    int flat = !(hi > lo) || !isfinite(lo) || !isfinite(hi) || !isfinite(scale);
    for (int64_t i = b->r0; i < b->r1; i++) {
        uint8_t *row = pic->px + ((orow + i - b->r0) * pic->w + ocol) * pic->ch + c;
        for (int64_t j = b->c0; j < b->c1; j++, row += pic->ch) {
            double v = b->p[i * b->stride + j], g;
            if (flat)
                g = 128;
            else
                g = (v - lo) * scale;
            *row = (uint8_t)(!(g > 0) ? 0 : g >= 255 ? 255 : g + 0.5); /* NaN -> 0 */
        }
    }
}

/* Lowpass lengths r[0..L] and output extents R[0..L] along one axis. */
#define VIEW_MAX_LEVELS 64

typedef struct axis_geo {
    int64_t r[VIEW_MAX_LEVELS + 1];
    int64_t R[VIEW_MAX_LEVELS + 1];
    int split;
} axis_geo;

static void axis_geo_init(axis_geo *g, int64_t n, int levels)
{
    g->split = n > 1;
    for (int k = 0; k <= levels; k++) g->r[k] = lw_lowpass_length(n, k);
    g->R[levels] = g->r[levels];
    for (int k = levels; k >= 1; k--) g->R[k - 1] = g->split ? g->R[k] + 1 + (g->r[k - 1] - g->r[k]) : g->R[k];
}

/* De-interleaving for display.  Along an axis, index i first becomes a
 * highpass sample at level ctz(i) + 1 (i = 0: never).  A 2-D sample (i, j)
 * is a coefficient of level k = min(level(i), level(j)) (a final lowpass when
 * k > L); at that level each axis puts it in its highpass part (lowpass
 * length + i >> k) when it is odd there, else in its lowpass part (i >> k).
 * The position thus depends on both indices, not on each axis alone. */
static int axis_level(int64_t i, int levels)
{
    int k = 1;
    while (k <= levels && !((i >> (k - 1)) & 1)) k++;
    return k; /* levels + 1: lowpass through every level */
}

static int64_t mallat_pos(int64_t i, int li, int k, const axis_geo *g, int levels)
{
    if (k > levels) return i >> levels;
    return li == k ? g->r[k] + (i >> k) : i >> k;
}

static void deinterleave(const double *src, double *dst, int64_t H, int64_t W, const int *rl, const int *cl,
                         const axis_geo *rg, const axis_geo *cg, int levels)
{
    for (int64_t i = 0; i < H; i++)
        for (int64_t j = 0; j < W; j++) {
            int k = rl[i] < cl[j] ? rl[i] : cl[j];
            int64_t mi = mallat_pos(i, rl[i], k, rg, levels), mj = mallat_pos(j, cl[j], k, cg, levels);
            dst[mi * W + mj] = src[i * W + j];
        }
}

static void render_plane(const double *p, int64_t W, const axis_geo *rg, const axis_geo *cg, int levels,
                         lw_cli_stretch stretch, picture *pic, int c)
{
    for (int k = 1; k <= levels; k++) {
        band_ref hl = {p, W, 0, rg->r[k], cg->r[k], cg->r[k - 1]};
        band_ref lh = {p, W, rg->r[k], rg->r[k - 1], 0, cg->r[k]};
        band_ref hh = {p, W, rg->r[k], rg->r[k - 1], cg->r[k], cg->r[k - 1]};
        draw_band(&hl, 1, stretch, pic, c, 0, cg->R[k] + 1);
        draw_band(&lh, 1, stretch, pic, c, rg->R[k] + 1, 0);
        draw_band(&hh, 1, stretch, pic, c, rg->R[k] + 1, cg->R[k] + 1);
    }
    band_ref ll = {p, W, 0, rg->r[levels], 0, cg->r[levels]};
    draw_band(&ll, 0, stretch, pic, c, 0, 0);
}

static int has_ext(const char *path, const char *ext)
{
    size_t n = strlen(path), m = strlen(ext);
    if (n < m) return 0;
    for (size_t i = 0; i < m; i++) {
        char a = path[n - m + i], b = ext[i];
        if (a >= 'A' && a <= 'Z') a = (char)(a - 'A' + 'a');
        if (a != b) return 0;
    }
    return 1;
}

/* Check that the axes (--axes, or recorded by the forward) are 0 and 1. */
static int check_axes(const lw_cli_opts *o, int rank)
{
    if (o->naxes == 0) return LW_EXIT_OK;
    if (!(o->given & LW_GIVEN_AXES) && !(o->naxes == 2 && o->axes[0] == 0 && o->axes[1] == 1)) {
        char ax[32];
        lw_cli_axes_text(o->naxes, o->axes, ax, sizeof ax);
        return lw_cli_fail(LW_EXIT_DATA, "view draws pyramids over axes 0,1 only; these coefficients were made "
                           "over axes %s (recorded in their .json)", ax);
    }
    int seen0 = 0, seen1 = 0;
    for (int i = 0; i < o->naxes; i++) {
        int a = o->axes[i] < 0 ? o->axes[i] + rank : o->axes[i];
        if (a == 0) seen0++;
        else if (a == 1) seen1++;
        else return lw_cli_fail(LW_EXIT_DATA, "view draws pyramids over axes 0,1 only (--axes names axis %d)", a);
    }
    if (o->naxes != 2 || seen0 != 1 || seen1 != 1)
        return lw_cli_fail(LW_EXIT_DATA, "view draws pyramids over axes 0,1 only");
    return LW_EXIT_OK;
}

int lw_cli_view(int argc, char **argv)
{
    lw_cli_opts o;
    int rc = lw_cli_parse(argc, argv, LW_OPT_TRANSFORM | LW_OPT_RAW | LW_OPT_VIEW, 2, view_usage, &o);
    if (rc == LW_EXIT_HELP) return LW_EXIT_OK;
    if (rc != LW_EXIT_OK) return rc;
    const char *in = o.pos[0], *out = o.pos[1];
    if ((rc = lw_cli_check_input(in, &o)) != LW_EXIT_OK) return rc;
    if ((rc = lw_cli_check_output(out, 1)) != LW_EXIT_OK) return rc;
    if ((rc = lw_cli_check_not_input(in, out, &o)) != LW_EXIT_OK) return rc;

    lw_array a, pic_arr;
    double *plane = NULL, *tmp = NULL;
    int *rmap = NULL, *cmap = NULL; /* per-axis levels (interleaved layout) */
    memset(&pic_arr, 0, sizeof pic_arr);
    if ((rc = lw_cli_read(in, &o, &a)) != LW_EXIT_OK) return rc;
    lw_cli_meta meta;
    int have_meta = 0;
    char in_real[16384];
    if ((rc = lw_cli_resolve(in, in_real, sizeof in_real)) != LW_EXIT_OK ||
        (rc = lw_cli_meta_load(in_real, &a, &o, &meta, &have_meta)) != LW_EXIT_OK ||
        (have_meta && (rc = lw_cli_meta_apply(&o, &meta, in)) != LW_EXIT_OK))
        goto done;

    char shape[96];
    lw_cli_shape_string(&a, shape, sizeof shape);
    int64_t C = a.rank == 3 ? a.shape[2] : 1;
    if (a.rank != 2 && !(a.rank == 3 && C >= 1 && C <= 4)) {
        rc = lw_cli_fail(LW_EXIT_DATA, "view draws 2-D pyramids: '%s' holds a %s array (need HxW or HxWxC, C <= 4)",
                         lw_cli_path(in), shape);
        goto done;
    }
    if ((rc = check_axes(&o, a.rank)) != LW_EXIT_OK) goto done;
    int64_t H = a.shape[0], W = a.shape[1];
    int lmax = 0;
    int64_t hw[2] = {H, W};
    lw_status st = lw_max_levels(2, hw, 0, NULL, &lmax);
    if (st != LW_OK) {
        rc = lw_cli_fail_lib(st);
        goto done;
    }
    int levels = o.levels == LW_LEVELS_MAX || lmax == 0 ? lmax : o.levels; /* lmax 0: 1x1, the identity */
    if (have_meta && (rc = lw_cli_meta_check_levels(&o, &meta, in, levels)) != LW_EXIT_OK) goto done;
    if (levels > lmax) {
        rc = lw_cli_fail(LW_EXIT_DATA, "%d levels requested but a %lldx%lld array allows at most %d", levels,
                         (long long)H, (long long)W, lmax);
        goto done;
    }
    int colour = C >= 3;
    if (colour && has_ext(out, ".pgm")) {
        rc = lw_cli_fail(LW_EXIT_DATA, "'%s' is gray only: write this colour pyramid as .png or .ppm",
                         lw_cli_path(out));
        goto done;
    }
    int och = (colour || has_ext(out, ".ppm")) ? 3 : 1;

    axis_geo rg, cg;
    axis_geo_init(&rg, H, levels);
    axis_geo_init(&cg, W, levels);
    pic_arr.rank = och == 3 ? 3 : 2;
    pic_arr.shape[0] = rg.R[0];
    pic_arr.shape[1] = cg.R[0];
    pic_arr.shape[2] = och;
    pic_arr.type = LW_IO_U8;
    char err[256] = "";
    if (lw_array_alloc(&pic_arr, err, sizeof err) != 0) {
        rc = lw_cli_fail(LW_EXIT_DATA, "%s", err[0] ? err : "out of memory");
        goto done;
    }
    memset(pic_arr.data, 255, (size_t)(rg.R[0] * cg.R[0] * och));
    picture pic = {pic_arr.data, cg.R[0], och};

    plane = malloc((size_t)(H * W) * sizeof *plane);
    if (o.layout == LW_INTERLEAVED) {
        tmp = malloc((size_t)(H * W) * sizeof *tmp);
        rmap = malloc((size_t)H * sizeof *rmap);
        cmap = malloc((size_t)W * sizeof *cmap);
    }
    if (!plane || (o.layout == LW_INTERLEAVED && (!tmp || !rmap || !cmap))) {
        rc = lw_cli_fail(LW_EXIT_DATA, "out of memory for a %s picture", shape);
        goto done;
    }
    if (rmap) {
        for (int64_t i = 0; i < H; i++) rmap[i] = axis_level(i, levels);
        for (int64_t j = 0; j < W; j++) cmap[j] = axis_level(j, levels);
    }
    int nplanes = colour ? 3 : 1;
    for (int c = 0; c < nplanes; c++) {
        for (int64_t i = 0; i < H * W; i++) plane[i] = lw_cli_get(&a, i * C + c);
        if (rmap) {
            deinterleave(plane, tmp, H, W, rmap, cmap, &rg, &cg, levels);
            double *t = plane;
            plane = tmp;
            tmp = t;
        }
        render_plane(plane, W, &rg, &cg, levels, o.stretch, &pic, c);
    }
    if (och == 3 && !colour) {
        uint8_t *px = pic_arr.data;
        for (int64_t i = 0; i < rg.R[0] * cg.R[0]; i++) px[3 * i + 1] = px[3 * i + 2] = px[3 * i];
    }
    if ((rc = lw_cli_write_output(out, &pic_arr, NULL)) != LW_EXIT_OK) goto done;
    if (o.verbose) {
        printf("view %s (%s %s) -> %s (%lldx%lld %s), %s layout, %d level%s, %s stretch\n", in, shape,
               lw_io_type_name(a.type), out, (long long)rg.R[0], (long long)cg.R[0], och == 3 ? "RGB" : "gray",
               lw_layout_name(o.layout), levels, levels == 1 ? "" : "s",
               o.stretch == LW_STRETCH_ROBUST ? "robust" : "minmax");
        fflush(stdout);
    }
    rc = LW_EXIT_OK;

done:
    free(plane);
    free(tmp);
    free(rmap);
    free(cmap);
    lw_array_free(&pic_arr);
    lw_array_free(&a);
    return rc;
}
