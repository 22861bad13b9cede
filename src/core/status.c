/* Status strings, the per-thread last error, checked size arithmetic. */
#include "lw_internal.h"

#include <stdio.h>
#include <string.h>

static _Thread_local char lw_error_text[512];

const char *lw_status_string(lw_status s)
{
    switch (s) {
    case LW_OK: return "ok";
    case LW_ERR_INVALID_ARGUMENT: return "invalid argument";
    case LW_ERR_INVALID_SHAPE: return "invalid shape";
    case LW_ERR_INVALID_LEVELS: return "invalid number of levels";
    case LW_ERR_ODD_PERIODIC: return "odd length in periodic mode";
    case LW_ERR_UNSUPPORTED: return "unsupported combination";
    case LW_ERR_OUT_OF_MEMORY: return "out of memory";
    case LW_ERR_NO_BACKEND: return "backend not available";
    case LW_ERR_CUDA: return "CUDA error";
    case LW_ERR_DEVICE_OUT_OF_MEMORY: return "out of device memory";
    case LW_ERR_INTERNAL: return "internal error";
    case LW_ERR_INTEGER_OVERFLOW: return "integer result overflows int32";
    }
    return "unknown status";
}

lw_status lw_fail_at(const char *file, int line, lw_status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(lw_error_text, sizeof lw_error_text, fmt, ap);
    va_end(ap);
    if (file && n >= 0 && (size_t)n < sizeof lw_error_text) {
        const char *base = strrchr(file, '/');
        snprintf(lw_error_text + n, sizeof lw_error_text - (size_t)n, " [%s:%d]", base ? base + 1 : file, line);
    }
    return status;
}

void lw_clear_error(void) { lw_error_text[0] = '\0'; }

const char *lw_last_error(void) { return lw_error_text; }

int lw_mul_size(size_t a, size_t b, size_t *out)
{
    if (a != 0 && b > SIZE_MAX / a) return -1;
    *out = a * b;
    return 0;
}

int lw_mul_i64(int64_t a, int64_t b, int64_t *out)
{
    if (a < 0 || b < 0) return -1;
    if (a != 0 && b > INT64_MAX / a) return -1;
    *out = a * b;
    return 0;
}

const char *lw_version(void) { return LW_VERSION_STRING; }
