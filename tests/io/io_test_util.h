/* Helpers shared by the file I/O tests: a scratch directory, writing bytes to
 * files, and checks that failed writes leave nothing behind. */
#ifndef IO_TEST_UTIL_H
#define IO_TEST_UTIL_H

#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lw_io.h"
#include "lw_test.h"

static char scratch[512];

/* Make a fresh scratch directory under base (or /tmp). */
static void scratch_make(const char *base)
{
    snprintf(scratch, sizeof scratch, "%s/lw_io_test.XXXXXX", base && *base ? base : "/tmp");
    if (!mkdtemp(scratch)) {
        perror("mkdtemp");
        exit(2);
    }
}

static const char *spath(const char *name)
{
    static char bufs[4][768];
    static int k;
    k = (k + 1) & 3;
    snprintf(bufs[k], sizeof bufs[k], "%s/%s", scratch, name);
    return bufs[k];
}

static inline int put_bytes(const char *path, const void *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t w = n ? fwrite(p, 1, n, f) : 0;
    return (fclose(f) == 0 && w == n) ? 0 : -1;
}

static inline int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* Number of entries in dir (excluding . and ..). */
static inline int dir_entries(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            n++;
    closedir(d);
    return n;
}

/* Remove every file in the scratch directory, then the directory. */
static void scratch_clean(void)
{
    DIR *d = opendir(scratch);
    if (!d)
        return;
    struct dirent *e;
    char p[1024];
    while ((e = readdir(d)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        snprintf(p, sizeof p, "%s/%s", scratch, e->d_name);
        if (unlink(p) != 0)
            rmdir(p);
    }
    closedir(d);
    rmdir(scratch);
}

/* Fill an array of the given shape/type with a reproducible pattern. */
static inline int make_array(lw_array *a, lw_io_type t, int rank, const int64_t *shape)
{
    char err[256];
    memset(a, 0, sizeof *a);
    a->type = t;
    a->rank = rank;
    for (int i = 0; i < rank; i++)
        a->shape[i] = shape[i];
    if (lw_array_alloc(a, err, sizeof err) != 0) {
        fprintf(stderr, "alloc: %s\n", err);
        return -1;
    }
    int64_t n;
    lw_array_count(a, &n, NULL);
    for (int64_t i = 0; i < n; i++) {
        uint64_t r = lw_rng_u64();
        switch (t) {
        case LW_IO_U8: ((uint8_t *)a->data)[i] = (uint8_t)r; break;
        case LW_IO_U16: ((uint16_t *)a->data)[i] = (uint16_t)r; break;
        case LW_IO_I16: ((int16_t *)a->data)[i] = (int16_t)(uint16_t)r; break;
        case LW_IO_I32: ((int32_t *)a->data)[i] = (int32_t)(uint32_t)r; break;
        case LW_IO_F32: ((float *)a->data)[i] = (float)(lw_rng_unit() * 2000.0 - 1000.0); break;
        case LW_IO_F64: ((double *)a->data)[i] = lw_rng_unit() * 2e6 - 1e6; break;
        }
    }
    return 0;
}

static inline int same_array(const lw_array *a, const lw_array *b)
{
    if (a->rank != b->rank || a->type != b->type)
        return 0;
    for (int i = 0; i < a->rank; i++)
        if (a->shape[i] != b->shape[i])
            return 0;
    size_t bytes;
    if (lw_array_count(a, NULL, &bytes) != 0)
        return 0;
    return memcmp(a->data, b->data, bytes) == 0;
}

/* err contains every one of the given substrings */
static inline int has(const char *err, const char *s) { return strstr(err, s) != NULL; }

#endif
