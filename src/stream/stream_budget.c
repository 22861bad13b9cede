/* Memory limits: parsing "--memory-limit 256M", the default, and how the
 * limit is shared between the slab buffers and what the library needs
 * besides them. */
#define _POSIX_C_SOURCE 200809L
#include "lw_stream.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int lw_stream_parse_size(const char *text, uint64_t *bytes)
{
    if (!text || !isdigit((unsigned char)text[0])) return -1;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno) return -1;
    uint64_t mul = 1;
    switch (toupper((unsigned char)*end)) {
    case 'K': mul = 1ull << 10; end++; break;
    case 'M': mul = 1ull << 20; end++; break;
    case 'G': mul = 1ull << 30; end++; break;
    case 'T': mul = 1ull << 40; end++; break;
    default: break;
    }
    if (mul > 1 && (*end == 'i' || *end == 'I')) end++;
    if (*end == 'B' || *end == 'b') end++;
    if (*end || v == 0 || v > UINT64_MAX / mul) return -1;
    *bytes = (uint64_t)v * mul;
    return 0;
}

uint64_t lw_stream_default_limit(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
    uint64_t phys = (pages > 0 && psize > 0) ? (uint64_t)pages * (uint64_t)psize : (4ull << 30);
    uint64_t lim = phys / 2;
    return lim < (64ull << 20) ? (64ull << 20) : lim;
}

void lw_stream_size_text(uint64_t b, char *buf, size_t len)
{
    if (b >= (1ull << 30) && b % (1ull << 30) == 0)
        snprintf(buf, len, "%llu GiB", (unsigned long long)(b >> 30));
    else if (b >= (1ull << 20))
        snprintf(buf, len, "%.4g MiB", (double)b / (1 << 20));
    else if (b >= (1ull << 10))
        snprintf(buf, len, "%.4g KiB", (double)b / (1 << 10));
    else
        snprintf(buf, len, "%llu bytes", (unsigned long long)b);
}

/* What the library takes besides the arrays, per execute: the CPU backend
 * runs every level out of place (src/cpu/fast_backend.c), so lw_stream runs
 * plans out of place too (an in-place execute would first copy the input);
 * with several levels it holds the lowpass of the inner levels, at most
 * 1/2^d + 1/4^d of the array for d transformed axes; and a few lines per
 * thread (FIXED_OVERHEAD).  Measured with /usr/bin/time in
 * bench/NOTES-outofcore.md. */
#define FIXED_OVERHEAD (64ull << 10)

int lw_stream_fits(uint64_t work_bytes, int d, int levels, uint64_t limit)
{
    uint64_t inner = 0;
    if (levels > 1) inner = d <= 1 ? work_bytes / 4 * 3 : d == 2 ? work_bytes / 16 * 5 : work_bytes / 64 * 9;
    uint64_t need = 2 * work_bytes + inner + FIXED_OVERHEAD;
    return need <= limit;
}

int64_t lw_stream_max_slab_rows(int64_t outer, int64_t inner, size_t es, int64_t halo, uint64_t bytes)
{
    uint64_t row = (uint64_t)outer * (uint64_t)inner * es;
    uint64_t per_row = 2 * row; /* the slab and the plan's output */
    if (bytes <= FIXED_OVERHEAD || per_row == 0) return 0;
    uint64_t rows = (bytes - FIXED_OVERHEAD) / per_row;
    if (rows < (uint64_t)(2 * halo + 2)) return 0;
    int64_t out = (int64_t)rows - 2 * halo;
    return out / 2 * 2;
}

uint64_t lw_stream_min_bytes(int64_t outer, int64_t inner, size_t es, int64_t halo)
{
    return (uint64_t)((2 * halo + 2) * outer * inner) * es * 2 + FIXED_OVERHEAD;
}
