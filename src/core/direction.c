/* Directions: their names, and which direction a plan runs (an adjoint of an
 * orthogonal transform runs as its inverse).  docs/ADJOINT.md has the math. */
#include "lw_internal.h"

static const char *const direction_names[] = {"forward", "inverse", "forward-adjoint", "inverse-adjoint"};

const char *lw_direction_str(lw_direction d)
{
    return ((unsigned)d < sizeof direction_names / sizeof direction_names[0]) ? direction_names[d] : "?";
}

/* Every transformed length with n > 1 is even at the input of every level. */
static int even_at_every_level(const lw_geometry *geo)
{
    for (int k = 0; k < geo->levels; k++)
        for (int a = 0; a < geo->naxes; a++)
            if (geo->len[k][a] > 1 && (geo->len[k][a] & 1)) return 0;
    return 1;
}

/* The float transform is orthogonal: an orthonormal wavelet whose boundary
 * mode keeps it so.  Periodic extension does for every orthonormal lifting
 * wavelet; symmetric extension only when no step ever reads outside its line,
 * which holds for steps that stay inside even lines (lw_wavelet_inside_pairs,
 * haar) on lengths even at every level; and only with band gains of +-1. */
static int orthogonal(const lw_config *cfg, const lw_geometry *geo, const lw_wavelet_def *w)
{
    if (!w || !w->orthonormal || cfg->integer) return 0;
    /* band gains other than +-1 (0 means 1) scale the bands: no longer orthogonal */
    for (int i = 0; i < 2; i++)
        if (cfg->gain[i] != 0.0 && cfg->gain[i] != 1.0 && cfg->gain[i] != -1.0) return 0;
    if (cfg->mode == LW_PERIODIC) return 1;
    return lw_wavelet_inside_pairs(w) && even_at_every_level(geo);
}

lw_direction lw_direction_to_run(const lw_config *cfg, const lw_geometry *geo)
{
    if (!lw_dir_adjoint(cfg->direction) || !orthogonal(cfg, geo, lw_wavelet_get(cfg->wavelet)))
        return cfg->direction;
    return cfg->direction == LW_FORWARD_ADJOINT ? LW_INVERSE : LW_FORWARD;
}
