/* The recorded parameters of a coefficient file as the defaults of inverse
 * and view: options left out take the recorded values; an option that
 * contradicts them is an error naming both (a warning with --force, and
 * the option wins). */
#include "cli_meta_apply.h"

#include <stdio.h>
#include <string.h>

/* Does the sidecar describe this array (shape, type and the checksum of
 * its bytes)?  (A sidecar left next to a file that was rewritten since
 * would otherwise give wrong parameters.) */
static const char *mismatch(const lw_cli_meta *m, int rank, const int64_t *shape, lw_io_type type, uint64_t sum)
{
    if (m->rank != rank || memcmp(m->shape, shape, sizeof(int64_t) * (size_t)rank) != 0) return "its shape";
    if (m->dtype != type) return "its dtype";
    if (m->checksum != sum) return "its content";
    return NULL;
}

int lw_cli_meta_load_described(const char *data_path, int rank, const int64_t *shape, lw_io_type type,
                               uint64_t (*sum)(void *ctx), void *ctx, const lw_cli_opts *o, lw_cli_meta *m,
                               int *have)
{
    int found = 0;
    *have = 0;
    int rc = lw_cli_meta_read(data_path, m, &found);
    if (rc != LW_EXIT_OK || !found) return rc;
    const char *what = mismatch(m, rank, shape, type, m->rank == rank && m->dtype == type ? sum(ctx) : 0);
    if (what) {
        if (!o->force)
            return lw_cli_fail(LW_EXIT_DATA,
                               "'%s.json' does not describe '%s' (%s changed since the forward wrote both); "
                               "remove the .json file, or give --force to ignore it",
                               lw_cli_path(data_path), lw_cli_path(data_path), what);
        lw_cli_warn("'%s.json' does not describe '%s' (%s changed); ignored (--force)", lw_cli_path(data_path),
                    lw_cli_path(data_path), what);
        return LW_EXIT_OK;
    }
    *have = 1;
    return LW_EXIT_OK;
}

static uint64_t array_sum(void *ctx)
{
    const lw_array *a = ctx;
    return lw_cli_checksum(a->data, (size_t)lw_cli_count(a) * lw_io_type_size(a->type));
}

int lw_cli_meta_load(const char *data_path, const lw_array *a, const lw_cli_opts *o, lw_cli_meta *m, int *have)
{
    return lw_cli_meta_load_described(data_path, a->rank, a->shape, a->type, array_sum, (void *)a, o, m, have);
}

/* One contradiction between "given" (the option as written) and "recorded"
 * (what the file was made with): an error, or with --force a warning. */
static int conflict(const lw_cli_opts *o, const char *data_path, const char *given, const char *recorded)
{
    if (o->force) {
        lw_cli_warn("%s overrides %s, recorded in '%s.json' (--force)", given, recorded, lw_cli_path(data_path));
        return LW_EXIT_OK;
    }
    return lw_cli_fail(LW_EXIT_DATA,
                       "%s contradicts '%s', made with %s (recorded in its .json); leave the option out, "
                       "or give --force to override",
                       given, lw_cli_path(data_path), recorded);
}

/* conflict() for an option with a value: "--levels 3" against "--levels 2". */
static int conflict_value(const lw_cli_opts *o, const char *data_path, const char *opt, const char *given,
                          const char *recorded)
{
    char g[96], r[96];
    snprintf(g, sizeof g, "%s %s", opt, given);
    snprintf(r, sizeof r, "%s %s", opt, recorded);
    return conflict(o, data_path, g, r);
}

/* The options' axes resolved against the rank and sorted; -1 when one is
 * out of range or repeated (the transform reports that itself later). */
static int resolve_axes(const lw_cli_opts *o, int rank, int *ax)
{
    for (int i = 0; i < o->naxes; i++) {
        int a = o->axes[i] < 0 ? o->axes[i] + rank : o->axes[i];
        if (a < 0 || a >= rank) return -1;
        int j = i;
        for (; j > 0 && ax[j - 1] > a; j--) ax[j] = ax[j - 1];
        ax[j] = a;
    }
    for (int i = 1; i < o->naxes; i++)
        if (ax[i] == ax[i - 1]) return -1;
    return 0;
}

int lw_cli_meta_apply(lw_cli_opts *o, const lw_cli_meta *m, const char *data_path)
{
    char g[64], r[64];
    int rc;
    if ((o->given & LW_GIVEN_WAVELET) && o->wavelet != m->wavelet) {
        if ((rc = conflict_value(o, data_path, "--wavelet", lw_wavelet_name(o->wavelet), lw_wavelet_name(m->wavelet))))
            return rc;
    } else {
        o->wavelet = m->wavelet;
    }
    if ((o->given & LW_GIVEN_LEVELS) && o->levels != LW_LEVELS_MAX && o->levels != m->levels) {
        snprintf(g, sizeof g, "%d", o->levels);
        snprintf(r, sizeof r, "%d", m->levels);
        if ((rc = conflict_value(o, data_path, "--levels", g, r))) return rc;
    } else if (!(o->given & LW_GIVEN_LEVELS)) {
        o->levels = m->levels;
    }
    if ((o->given & LW_GIVEN_MODE) && o->mode != m->mode) {
        if ((rc = conflict_value(o, data_path, "--mode", lw_mode_name(o->mode), lw_mode_name(m->mode)))) return rc;
    } else {
        o->mode = m->mode;
    }
    if ((o->given & LW_GIVEN_LAYOUT) && o->layout != m->layout) {
        if ((rc = conflict_value(o, data_path, "--layout", lw_layout_name(o->layout), lw_layout_name(m->layout))))
            return rc;
    } else {
        o->layout = m->layout;
    }
    if (o->given & LW_GIVEN_AXES) {
        int ax[LW_MAX_AXES];
        int same = resolve_axes(o, m->rank, ax) == 0 && o->naxes == m->naxes &&
                   memcmp(ax, m->axes, sizeof(int) * (size_t)m->naxes) == 0;
        if (!same) {
            lw_cli_axes_text(o->naxes, o->axes, g, sizeof g);
            lw_cli_axes_text(m->naxes, m->axes, r, sizeof r);
            if ((rc = conflict_value(o, data_path, "--axes", g, r))) return rc;
        }
    } else {
        o->naxes = m->naxes;
        memcpy(o->axes, m->axes, sizeof(int) * (size_t)m->naxes);
    }
    if ((o->given & LW_GIVEN_INTEGER) && !m->integer) {
        if ((rc = conflict(o, data_path, "--integer", "the float transform"))) return rc;
    } else {
        o->integer = m->integer;
    }
    return LW_EXIT_OK;
}

int lw_cli_meta_check_levels(const lw_cli_opts *o, const lw_cli_meta *m, const char *data_path, int levels)
{
    if (!(o->given & LW_GIVEN_LEVELS) || o->levels != LW_LEVELS_MAX || levels == m->levels) return LW_EXIT_OK;
    char g[64], r[64];
    snprintf(g, sizeof g, "max (%d here)", levels);
    snprintf(r, sizeof r, "%d", m->levels);
    return conflict_value(o, data_path, "--levels", g, r);
}
