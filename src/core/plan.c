/* Plan creation, execution and destruction: validation and backend dispatch. */
#include "lw_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void lw_config_init(lw_config *cfg)
{
    if (!cfg) return;
    memset(cfg, 0, sizeof *cfg);
    cfg->dtype = LW_FLOAT32;
    cfg->wavelet = LW_CDF97;
    cfg->mode = LW_SYMMETRIC;
    cfg->layout = LW_MALLAT;
    cfg->levels = 1;
    cfg->direction = LW_FORWARD;
    cfg->backend = LW_BACKEND_AUTO;
    cfg->scheme = NULL;
    cfg->gain[0] = cfg->gain[1] = 1.0;
}

/* Band gains: 0 means 1; anything else finite and nonzero, and only where
 * they are a per-axis scaling of a linear separable transform.  Folded into
 * the plan's copy of the wavelet's zetas, which every engine reads. */
static lw_status resolve_gains(lw_plan *p)
{
    const lw_config *c = &p->cfg;
    p->wavdef = *lw_wavelet_get(c->wavelet);
    p->wav = &p->wavdef;
    double g[2];
    for (int i = 0; i < 2; i++) {
        g[i] = c->gain[i] == 0.0 ? 1.0 : c->gain[i];
        if (!isfinite(g[i]))
            return lw_fail(LW_ERR_INVALID_ARGUMENT, "gain[%d] = %g: want a finite nonzero number (0 means 1)", i,
                           c->gain[i]);
        p->cfg.gain[i] = g[i];
    }
    if (g[0] == 1.0 && g[1] == 1.0) return LW_OK;
    if (c->integer)
        return lw_fail(LW_ERR_UNSUPPORTED, "gains %g, %g: the integer transforms have no scaling to change", g[0], g[1]);
    if (!p->wavdef.separable)
        return lw_fail(LW_ERR_UNSUPPORTED, "gains %g, %g: %s is not separable, so it has no per-axis bands to scale",
                       g[0], g[1], p->wavdef.name);
    p->wavdef.zeta_low *= g[0];
    p->wavdef.zeta_high *= g[1];
    return LW_OK;
}

static lw_status plan_create(lw_plan **out, const lw_config *cfg, const lw_wavelet_def *wav);

lw_status lw_plan_create(lw_plan **out, const lw_config *cfg) { return plan_create(out, cfg, NULL); }

lw_status lw_plan_create_with(lw_plan **out, const lw_config *cfg, const lw_wavelet_def *wav)
{
    return plan_create(out, cfg, wav);
}

static lw_status plan_create(lw_plan **out, const lw_config *cfg, const lw_wavelet_def *wav)
{
    if (!out) return lw_fail(LW_ERR_INVALID_ARGUMENT, "NULL plan pointer");
    *out = NULL;
    if (!cfg) return lw_fail(LW_ERR_INVALID_ARGUMENT, "NULL config");
    lw_clear_error();

    lw_plan *p = calloc(1, sizeof *p);
    if (!p) return lw_fail(LW_ERR_OUT_OF_MEMORY, "cannot allocate a plan");
    p->cfg = *cfg;
    const unsigned one_side = LW_FLAG_DEVICE_INPUT | LW_FLAG_DEVICE_OUTPUT;
    if ((p->cfg.flags & one_side) == one_side || (p->cfg.flags & LW_FLAG_DEVICE_POINTERS))
        p->cfg.flags = (p->cfg.flags & ~one_side) | LW_FLAG_DEVICE_POINTERS; /* both sides: device pointers */
    lw_status st = lw_geometry_init(&p->geo, cfg);
    if (st == LW_OK) st = lw_backend_choose(&p->cfg, &p->ops);
    if (st == LW_OK && (p->cfg.flags & one_side) && (p->cfg.flags & LW_FLAG_IN_PLACE))
        st = lw_fail(LW_ERR_INVALID_ARGUMENT, "LW_FLAG_IN_PLACE with one side on the device (LW_FLAG_DEVICE_INPUT or "
                                              "LW_FLAG_DEVICE_OUTPUT): in place both are the same array");
    if (st == LW_OK && cfg->scheme) {
        if (strlen(cfg->scheme) >= sizeof p->scheme)
            st = lw_fail(LW_ERR_INVALID_ARGUMENT, "scheme name too long");
        else
            strcpy(p->scheme, cfg->scheme);
    }
    if (st == LW_OK && (cfg->threads < 0 || cfg->threads > LW_MAX_THREADS))
        st = lw_fail(LW_ERR_INVALID_ARGUMENT, "threads = %d: want 0 (the OpenMP default) to %d", cfg->threads,
                     LW_MAX_THREADS);
    if (st == LW_OK && (cfg->flags & LW_FLAG_IN_PLACE) && (cfg->flags & LW_FLAG_DESTROY_INPUT))
        st = lw_fail(LW_ERR_INVALID_ARGUMENT, "LW_FLAG_IN_PLACE with LW_FLAG_DESTROY_INPUT: in place there is no "
                                              "separate input to destroy");
    if (st == LW_OK) st = resolve_gains(p);
    if (st == LW_OK && wav) p->wavdef = *wav; /* gains already in its zetas */
    if (st == LW_OK) st = lw_tuning_parse(cfg->tuning, &p->tune);
    if (st == LW_OK && cfg->tuning) strcpy(p->tuning, cfg->tuning); /* length checked by the parser */
    if (st != LW_OK) {
        free(p);
        return st;
    }
    if (!p->scheme[0]) strcpy(p->scheme, "auto");
    p->cfg.scheme = p->scheme;
    p->cfg.tuning = cfg->tuning ? p->tuning : NULL;
    p->cfg.levels = p->geo.levels;
    p->cfg.naxes = p->geo.naxes;
    for (int i = 0; i < p->geo.naxes; i++) p->cfg.axes[i] = p->geo.axes[i];
    p->cfg.backend = p->ops->id;
    p->cfg.direction = lw_direction_to_run(&p->cfg, &p->geo); /* an orthogonal adjoint runs the inverse */
    st = p->ops->plan(p);
    if (st != LW_OK) {
        free(p);
        return st;
    }
    *out = p;
    return LW_OK;
}

lw_status lw_execute(const lw_plan *plan, const void *in, void *out)
{
    if (!plan) return lw_fail(LW_ERR_INVALID_ARGUMENT, "NULL plan");
    if (!in || !out) return lw_fail(LW_ERR_INVALID_ARGUMENT, "NULL data pointer");
    if ((plan->cfg.flags & LW_FLAG_IN_PLACE) && in != out)
        return lw_fail(LW_ERR_INVALID_ARGUMENT, "the plan was made with LW_FLAG_IN_PLACE: in and out must be the same");
    if ((plan->cfg.flags & (LW_FLAG_DEVICE_INPUT | LW_FLAG_DEVICE_OUTPUT)) && in == out)
        return lw_fail(LW_ERR_INVALID_ARGUMENT, "one side on the device (LW_FLAG_DEVICE_INPUT / _OUTPUT): in and out "
                       "are different arrays, one on the device and one in host memory");
    return plan->ops->execute(plan, in, out);
}

void lw_destroy(lw_plan *plan)
{
    if (!plan) return;
    if (plan->ops && plan->ops->destroy) plan->ops->destroy(plan);
    free(plan);
}

const lw_config *lw_plan_config(const lw_plan *plan) { return plan ? &plan->cfg : NULL; }

const char *lw_plan_backend_name(const lw_plan *plan) { return plan ? plan->ops->name : "?"; }

lw_status lw_plan_describe(const lw_plan *plan, char *buf, size_t len)
{
    if (!plan || !buf || !len) return lw_fail(LW_ERR_INVALID_ARGUMENT, "NULL argument");
    const lw_config *c = &plan->cfg;
    buf[0] = 0;
    lw_appendf(buf, len, "backend: %s\nwavelet: %s%s\nmode: %s\nlayout: %s\ndtype: %s\ndirection: %s\nshape:",
               plan->ops->name, c->integer ? "integer " : "", lw_wavelet_name(c->wavelet), lw_mode_name(c->mode),
               lw_layout_name(c->layout), lw_dtype_name(c->dtype), lw_direction_str(c->direction));
    for (int i = 0; i < c->rank; i++) lw_appendf(buf, len, "%s%lld", i ? "x" : " ", (long long)c->shape[i]);
    lw_appendf(buf, len, "\naxes:");
    for (int i = 0; i < c->naxes; i++) lw_appendf(buf, len, " %d", c->axes[i]);
    lw_appendf(buf, len, "\nlevels: %d\nscheme: %s\n", c->levels, c->scheme);
    if (c->tuning) lw_appendf(buf, len, "tuning: %s\n", c->tuning);
    if (c->gain[0] != 1.0 || c->gain[1] != 1.0) lw_appendf(buf, len, "gain: %.17g %.17g\n", c->gain[0], c->gain[1]);
    size_t ws = 0;
    if (lw_workspace_size(plan, &ws) == LW_OK) lw_appendf(buf, len, "workspace_bytes: %zu\n", ws);
    if (plan->ops->describe) plan->ops->describe(plan, buf, len);
    return strlen(buf) + 1 < len ? LW_OK
                                 : lw_fail(LW_ERR_INVALID_ARGUMENT, "lw_plan_describe: buffer of %zu bytes too short", len);
}

lw_status lw_workspace_size(const lw_plan *plan, size_t *bytes)
{
    if (!plan || !bytes) return lw_fail(LW_ERR_INVALID_ARGUMENT, "NULL argument");
    if (!plan->ops->workspace) {
        *bytes = 0;
        return LW_OK;
    }
    return plan->ops->workspace(plan, bytes);
}

lw_status lw_set_stream(lw_plan *plan, void *stream)
{
    if (!plan) return lw_fail(LW_ERR_INVALID_ARGUMENT, "NULL plan");
    plan->stream = stream;
    return LW_OK;
}
