/* The table of backends: names, validation of lw_config.backend, the AUTO
 * choice and the lists shown to users all come from it. */
#include "lw_internal.h"
#include "half.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* indexed by lw_backend; AUTO has no ops */
static const lw_backend_ops *const table[LW_BACKEND_COUNT] = {
    [LW_BACKEND_AUTO] = NULL,
    [LW_BACKEND_CPU] = &lw_backend_cpu,
    [LW_BACKEND_CUDA] = &lw_backend_cuda,
    [LW_BACKEND_CPU_REF] = &lw_backend_cpu_ref,
};

const lw_backend_ops *lw_backend_get(lw_backend b)
{
    return ((int)b >= 0 && (int)b < LW_BACKEND_COUNT) ? table[b] : NULL;
}

const char *lw_backend_name(lw_backend b)
{
    if (b == LW_BACKEND_AUTO) return "auto";
    const lw_backend_ops *o = lw_backend_get(b);
    return o ? o->name : "?";
}

lw_status lw_backend_parse(const char *name, lw_backend *b)
{
    for (int i = 0; name && b && i < LW_BACKEND_COUNT; i++)
        if (strcmp(name, lw_backend_name((lw_backend)i)) == 0) {
            *b = (lw_backend)i;
            return LW_OK;
        }
    char names[96] = "";
    for (int i = 0; i < LW_BACKEND_COUNT; i++) lw_appendf(names, sizeof names, "%s%s", i ? ", " : "", lw_backend_name((lw_backend)i));
    return lw_fail(LW_ERR_INVALID_ARGUMENT, "unknown backend '%s' (%s)", name ? name : "(null)", names);
}

int lw_backend_available(lw_backend b)
{
    if (b == LW_BACKEND_AUTO) return 1;
    const lw_backend_ops *o = lw_backend_get(b);
    return o && o->available();
}

lw_status lw_backend_choose(const lw_config *cfg, const lw_backend_ops **ops)
{
    int devptr = (cfg->flags & (LW_FLAG_DEVICE_POINTERS | LW_FLAG_DEVICE_INPUT | LW_FLAG_DEVICE_OUTPUT)) != 0;
    *ops = NULL;
    if (cfg->backend == LW_BACKEND_AUTO) {
        for (int i = 0; i < LW_BACKEND_COUNT; i++) {
            const lw_backend_ops *o = table[i];
            /* the half storage types in host memory stay on the host backends (the cuda
             * backend runs them on device pointers, or when named) */
            int dtype_ok = !(lw_dtype_is_half(cfg->dtype) && o && o->device_pointers && !devptr);
            if (o && o->auto_rank > 0 && (!devptr || o->device_pointers) && dtype_ok && o->available() &&
                (!*ops || o->auto_rank < (*ops)->auto_rank))
                *ops = o;
        }
        if (!*ops)
            return lw_fail(LW_ERR_NO_BACKEND, "no backend is available for %s on this machine",
                           devptr ? "device pointers (no CUDA device, or built without CUDA)" : "this plan");
        return LW_OK;
    }
    const lw_backend_ops *o = lw_backend_get(cfg->backend);
    if (!o) return lw_fail(LW_ERR_INVALID_ARGUMENT, "unknown backend value %d", (int)cfg->backend);
    if (!o->available())
        return lw_fail(LW_ERR_NO_BACKEND, "backend '%s' is not available on this machine%s", o->name,
                       o->device_pointers ? " (no CUDA device, or built without CUDA)" : "");
    if (devptr && !o->device_pointers)
        return lw_fail(LW_ERR_INVALID_ARGUMENT, "device pointers need the cuda backend");
    *ops = o;
    return LW_OK;
}

int lw_engine_count(lw_backend b)
{
    const lw_backend_ops *o = lw_backend_get(b);
    return o && o->engine_count ? o->engine_count() : 0;
}

const char *lw_engine_name(lw_backend b, int i, const char **about)
{
    const lw_backend_ops *o = lw_backend_get(b);
    return o && o->engine_name ? o->engine_name(i, about) : NULL;
}

void lw_appendf(char *buf, size_t len, const char *fmt, ...)
{
    if (!buf || !len) return;
    size_t n = 0;
    while (n < len - 1 && buf[n]) n++;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + n, len - n, fmt, ap);
    va_end(ap);
}
