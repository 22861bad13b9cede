/* Tuning knobs of a plan: parsed once from lw_config.tuning at plan creation,
 * validated, and read by the engines from the plan (never from the
 * environment).  docs/TUNING.md documents each key; the table below is the
 * one place that names them. */
#include "lw_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { K_INT, K_BOOL, K_ENUM, K_PAIR };

typedef struct knob {
    const char *key;
    int kind;
    size_t off;      /* offset of the int64_t / int field in lw_tuning */
    int64_t lo, hi;  /* K_INT range */
    const char *values; /* K_ENUM: space-separated names, index = value */
    const char *about;
} knob;

#define OFF(f) offsetof(lw_tuning, f)

static const knob knobs[] = {
    {"simd", K_ENUM, OFF(simd), 0, 0, "auto scalar sse2 avx2 avx512",
     "cpu: SIMD path (auto: the best this CPU has); a path the CPU lacks is an error"},
    {"stream", K_ENUM, OFF(stream), 0, 0, "auto cached streaming",
     "cpu: stores of a level's output (auto: streaming once the output is well beyond the caches)"},
    {"ring_kb", K_INT, OFF(ring_kb), 0, 1 << 20, NULL,
     "cpu 3-D ring / planes chunk: KiB per thread (0: this core's L2, clamped to 256 KiB .. 2 MiB)"},
    {"prefetch", K_BOOL, OFF(prefetch), 0, 1, NULL, "cpu 3-D: prefetch the next planes (1)"},
    {"walk", K_BOOL, OFF(walk), 0, 1, NULL, "cpu 3-D: walk axis 1 in bands (1) rather than row by row (0)"},
    {"walk_kb", K_INT, OFF(walk_kb), 1, 1 << 16, NULL, "cpu 3-D: KiB of one band of the walk (24)"},
    {"split_min", K_INT, OFF(split_min), 0, 1 << 30, NULL,
     "cpu 3-D: fewest planes an idle thread splits off a running unit (2; 0: no splits)"},
    {"vol_split", K_PAIR, OFF(vol_split), 0, 0, NULL,
     "cpu 3-D: units as STRIPSxTILES (e.g. 4x4; 0x0: chosen from the thread count)"},
    {"stage_kb", K_INT, OFF(stage_kb), 0, 1 << 20, NULL,
     "cuda, pageable host memory: KiB of one pinned staging buffer (0: 4096)"},
    {"stage_buffers", K_INT, OFF(stage_buffers), 0, 64, NULL,
     "cuda, pageable host memory: pinned staging buffers per ring, two rings per concurrent call (0: 16; at least 2)"},
    {"copy_threads", K_INT, OFF(copy_threads), 0, 64, NULL,
     "cuda, pageable host memory: host threads copying to and from the staging buffers (0: half the cores, 1..8)"},
    {"pageable", K_ENUM, OFF(pageable), 0, 0, "auto stage register",
     "cuda, pageable host memory: staged through pinned buffers, or registered (cudaHostRegister) for each call "
     "(auto: register from register_min_mb, else stage)"},
    {"host_slabs", K_INT, OFF(host_slabs), 0, 4096, NULL,
     "cuda, host pointers, 3-D: level-1 slabs along axis 0, batches: groups of items, overlapping the copies "
     "with the transform (0: 16; 1, 2: the whole array at once)"},
    {"tile3d", K_ENUM, OFF(tile3d), 0, 0, "auto 16x64 16x64-p1 16x64-p3 32x64",
     "cuda fused 3-D, float32: tile of (y, x) and pairs prefetched along z (auto: by TMA (tile3d_load) the "
     "forwards of reach 4 and d4's 16x64, the others and every inverse 32x64; by the threads' copies 32x64, but "
     "d4's forward 16x64 and cdf53's inverse 16x64-p1; -p1 / -p3: 1 / 3 pairs prefetched instead of 2)"},
    {"tile3d_load", K_ENUM, OFF(tile3d_load), 0, 0, "auto threads",
     "cuda fused 3-D: how a block's window planes reach shared memory, auto (by the tensor memory accelerator, "
     "one box a plane, where it applies: float32 and the half types on sm_90 and newer, any tile variant, volumes "
     "or batches of items wider than a tile, symmetric mode, rows 16-byte aligned; else as threads) or threads "
     "(each thread copies its window points)"},
    {"tile3d_stages", K_ENUM, OFF(tile3d_stages), 0, 0, "auto staged serial",
     "cuda fused 3-D, float32 forwards: a step lifts one pair along z, y and x with a barrier between the stages "
     "(serial), or, as the inverses, pair a along z, a - 1 along y and a - 2 along x with one barrier (staged); "
     "auto: staged for the wavelets of reach 2 (cdf53, d4) whose window planes come by TMA, else serial"},
    {"tile3d_zruns", K_INT, OFF(tile3d_zruns), 0, 1024, NULL,
     "cuda fused 3-D: how many runs of output pairs along z each (y, x) tile is cut into, a block a run "
     "(0 auto: the fewest waves of resident blocks times one block's steps with its warm-up)"},
    {"tile3d_defaults", K_ENUM, OFF(tile3d_defaults), 0, 0, "auto wide narrow",
     "cuda fused 3-D, single float32 volumes: which measured ranking the auto tiles and loads follow, wide "
     "(memory buses of 6144 bits or more, an H200's: the defaults of tile3d and tile3d_load) or narrow (an H100's: "
     "the forwards of reach up to 4 on 32x64 tiles by TMA, the inverses of cdf97, dd97 and d4 by the threads' "
     "copies, every inverse on the threads' default tiles); auto: by the device's memory bus width"},
    {"inplace", K_ENUM, OFF(inplace), 0, 0, "auto lean copy tiles ring",
     "cuda, in == out on a fused engine: auto (2-D: the fused in-place kernels, the strip walker or else the "
     "tile kernel, where their workspace, in 2 MiB allocation units, is at most 1% of the array, some level "
     "does not run as one plane pass and, for the Mallat layout, some pass has lines too long for a block; else "
     "lean), "
     "lean (the generic passes in place, at most 1% more device memory), copy (the fused engine into a "
     "full-size scratch, then one device copy: the array's size more), tiles (2-D: the fused in-place "
     "kernels wherever they apply) or ring (2-D: as tiles, but the tile kernel and its ring of halo slots "
     "instead of the strip walker, for tests and measurements); cpu: copy runs the levels as out of place on "
     "a copy of the input (the array's size more memory, no row moves: where memory allows, faster for "
     "Mallat volumes), the others every level in the array where the engines allow"},
    {"ooc_slab_mb", K_INT, OFF(ooc_slab_mb), 0, 1 << 16, NULL,
     "cuda, out of core: MiB of rows a slab aims at, halos not counted (0: 64)"},
    {"ooc_pass_levels", K_INT, OFF(ooc_pass_levels), 0, 64, NULL,
     "cuda, out of core: most levels of axis 0 one pass over the slabs runs (0: as many as the halos fit)"},
    {"ooc_ahead", K_BOOL, OFF(ooc_ahead), 0, 1, NULL,
     "cuda, out of core: begin the next slab's uploads from the host before a slab runs (1), or after (0)"},
    {"ooc_stash", K_BOOL, OFF(ooc_stash), 0, 1, NULL,
     "cuda, out of core, an inverse out of place whose lowpass corner does not fit beside the slabs: the corner's "
     "levels first, from the input into the output's last rows, which the slabs then read (1), or the input "
     "copied to the output and every pass run in place there (0)"},
    {"local_block", K_ENUM, OFF(local_block), 0, 0, "auto wide narrow strided",
     "cuda local engine: a thread's block along the last axis, wide (32 bytes of samples on a launch's first "
     "level: vector accesses), narrow (2^levels samples: a warp's accesses contiguous) or strided (wide, its "
     "16-byte chunks 32 chunks apart: a warp's vector accesses contiguous) (auto: strided for samples of 4 "
     "or more bytes where it applies, else wide)"},
    {"local_bound", K_ENUM, OFF(local_bound), 0, 0, "auto none 4 5 6",
     "cuda local engine, blocks of 64 samples (2-D three levels, 3-D two): thread blocks an SM its kernels are "
     "compiled for (the registers a thread may use: none = as many as it takes, 4 / 5 / 6 = at most 128 / 96 / "
     "80, beyond which values spill to memory) (auto: measured per sample size and dimension)"},
    {"local_slabs", K_ENUM, OFF(local_slabs), 0, 0, "auto on off",
     "cuda local engine, blocks of 64 samples into the Mallat bands: level 1 lifted slab by slab (two samples deep "
     "along the first transformed axis; fewer registers, but each slab's loads wait for the previous slab's "
     "stores) or the whole block at once (auto: measured per sample size, dimension and direction)"},
    {"tile2d", K_ENUM, OFF(tile2d), 0, 0, "auto short long",
     "cuda fused 2-D engine: its tiles, short (16 rows of 128 columns: more, shorter blocks) or long (32 rows "
     "of 256 columns; 128 for 8-byte samples) (auto: short up to a size measured per wavelet, direction and "
     "sample size)"},
    {"tile2d_walk", K_INT, OFF(tile2d_walk), 0, 8, NULL,
     "cuda fused 2-D engine: how many tiles each block lifts in turn, a plane's row tiles or (batches) whole "
     "planes, so that a block's setup is paid once for them (0 auto: on one plane of 4096 tiles or more, up "
     "to four for the float32 forwards of wavelets with halos of 4 or more and d4's inverse; else 1)"},
    {"tile2d_ends", K_INT, OFF(tile2d_ends), 0, 1 << 24, NULL,
     "cuda fused 2-D engine, d4 in symmetric mode: the fewest row tiles of a plane with which the tiles at its "
     "first and last rows take a kernel of their own, the others lifting their columns without the mirror's "
     "moves (0 auto: 8 where that kernel runs beside the others' (tile2d_side), else 64)"},
    {"tile2d_lead_kb", K_INT, OFF(tile2d_lead_kb), 0, 1 << 24, NULL,
     "cuda fused 2-D pyramids, inverse: from the lowpass bands' size, they go to scratch and every level is one "
     "launch; below it, inside the output, level 1 running in row bands or plane groups, the planes left when "
     "the groups reach this many KiB reading a copy of theirs (0 auto: no bound where the input must be kept, "
     "1024 where it may be overwritten)"},
    {"tile2d_groups", K_INT, OFF(tile2d_groups), 0, 4, NULL,
     "cuda fused 2-D engine, out of place: a batch's items (its first dimension) in this many groups, each on a "
     "stream of its own, so that one group's lower levels overlap another's first level (0 auto: 2 for forward "
     "pyramids of 2+ levels over 16+ items and 16 Mi+ samples, else 1)"},
    {"tile2d_side", K_BOOL, OFF(tile2d_side), 0, 1, NULL,
     "cuda fused 2-D engine, d4 in symmetric mode, out of place: the end tiles' kernel on a "
     "stream of the plan's, at the same time as the other tiles' kernel (1), or after it on the caller's "
     "stream (0)"},
    {"il_compact", K_BOOL, OFF(il_compact), 0, 1, NULL,
     "cuda tile2d-il, pyramids out of place: levels 2.. by a Mallat plan of their own on the level-1 lowpass kept "
     "compact, level 1 by the fused 2-D tiles (1; a workspace of 0.58 to 0.83 of the array, dropped where the "
     "device cannot hold it), or the levels past the tiles' in place on out by the in-place kernels (0)"},
    {"tail", K_ENUM, OFF(tail), 0, 0, "auto fused small",
     "cuda fused pyramid engines (tile2d, fused3d): where the small engine takes over, fused (the fused engine "
     "runs every level it can, the small engine only those it cannot) or small (the small engine from the first "
     "level below the top that it holds, all in one launch) (auto: small)"},
    {"planes", K_ENUM, OFF(planes), 0, 0, "auto off",
     "cuda generic passes (every engine's in-place route): two axes of a level as one pass over planes that a "
     "thread-block cluster holds whole, and an axis crossing the contiguous one as planes of (that axis x the "
     "contiguous dimension) (auto: wherever a plane fits and its rows are contiguous), or off (one pass an axis)"},
    {"line1d_hold", K_INT, OFF(line1d_hold), 0, 1 << 30, NULL,
     "cuda long-line engine, in place and a pyramid's later levels: the most samples a level held in the resident "
     "blocks' shared memory, or one round of a level in rounds, takes at once (0: as many as the device holds); "
     "below that, levels run in rounds (for tests and measurements)"},
    {"reorder_piece", K_INT, OFF(reorder_piece), 0, 1 << 30, NULL,
     "cuda generic passes in place, Mallat layout, lines walked (longer than a block holds): the reorder to the "
     "Mallat order runs a walker a cycle, or, where some cycle is longer than this many positions, a walker a "
     "piece of at most this many after each piece's boundary sample is saved (0 auto: 1024, halved down to 128 "
     "while the walkers are fewer than 65536 and the pieces' table and saved samples stay within 1/256 of the "
     "lines or 256 KiB)"},
    {"register_min_mb", K_INT, OFF(register_min_mb), 0, 1 << 30, NULL,
     "cuda, pageable=auto: register buffers of at least this many MiB (0: never, always stage)"},
};
#define NKNOBS ((int)(sizeof knobs / sizeof knobs[0]))

void lw_tuning_defaults(lw_tuning *t)
{
    memset(t, 0, sizeof *t);
    t->prefetch = 1;
    t->walk = 1;
    t->walk_kb = 24;
    t->split_min = 2;
    t->ooc_ahead = 1;
    t->ooc_stash = 1;
    t->tile2d_side = 1;
    t->il_compact = 1;
}

static int enum_index(const char *values, const char *v, size_t vlen)
{
    int i = 0;
    for (const char *p = values; *p;) {
        const char *e = strchr(p, ' ');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (n == vlen && strncmp(p, v, n) == 0) return i;
        i++;
        p += n;
        if (*p == ' ') p++;
    }
    return -1;
}

static int parse_i64(const char *v, size_t n, int64_t *out)
{
    char buf[32];
    if (n == 0 || n >= sizeof buf) return -1;
    memcpy(buf, v, n);
    buf[n] = 0;
    char *end;
    errno = 0;
    long long x = strtoll(buf, &end, 10);
    if (errno || *end) return -1;
    *out = x;
    return 0;
}

static lw_status set_knob(lw_tuning *t, const knob *k, const char *v, size_t n)
{
    char *base = (char *)t + k->off;
    int64_t x = 0;
    switch (k->kind) {
    case K_ENUM: {
        int i = enum_index(k->values, v, n);
        if (i < 0)
            return lw_fail(LW_ERR_INVALID_ARGUMENT, "tuning: %s=%.*s is not one of: %s", k->key, (int)n, v,
                           k->values);
        *(int *)base = i;
        return LW_OK;
    }
    case K_BOOL:
    case K_INT:
        if (parse_i64(v, n, &x) || x < k->lo || x > k->hi)
            return lw_fail(LW_ERR_INVALID_ARGUMENT, "tuning: %s=%.*s must be an integer in [%lld, %lld]", k->key,
                           (int)n, v, (long long)k->lo, (long long)k->hi);
        if (k->kind == K_BOOL) *(int *)base = (int)x;
        else *(int64_t *)base = x;
        return LW_OK;
    case K_PAIR: {
        const char *xp = memchr(v, 'x', n);
        int64_t a = 0, b = 0;
        if (!xp || parse_i64(v, (size_t)(xp - v), &a) || parse_i64(xp + 1, n - (size_t)(xp - v) - 1, &b) || a < 0 ||
            b < 0 || a > (1 << 20) || b > (1 << 20) || ((a == 0) != (b == 0)))
            return lw_fail(LW_ERR_INVALID_ARGUMENT,
                           "tuning: %s=%.*s must be AxB with counts >= 1 (or 0x0 for automatic)", k->key, (int)n, v);
        ((int64_t *)base)[0] = a;
        ((int64_t *)base)[1] = b;
        return LW_OK;
    }
    }
    return lw_fail(LW_ERR_INTERNAL, "tuning: bad knob kind");
}

lw_status lw_tuning_parse(const char *s, lw_tuning *t)
{
    lw_tuning_defaults(t);
    if (!s) return LW_OK;
    if (strlen(s) >= LW_TUNING_MAX)
        return lw_fail(LW_ERR_INVALID_ARGUMENT, "tuning string longer than %d characters", LW_TUNING_MAX - 1);
    for (const char *p = s; *p;) {
        const char *e = strchr(p, ',');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (n) {
            const char *eq = memchr(p, '=', n);
            if (!eq)
                return lw_fail(LW_ERR_INVALID_ARGUMENT, "tuning: '%.*s' is not KEY=VALUE", (int)n, p);
            size_t kl = (size_t)(eq - p);
            const knob *k = NULL;
            for (int i = 0; i < NKNOBS && !k; i++)
                if (strlen(knobs[i].key) == kl && strncmp(knobs[i].key, p, kl) == 0) k = &knobs[i];
            if (!k) {
                char keys[256] = "";
                for (int i = 0; i < NKNOBS; i++) {
                    strncat(keys, i ? ", " : "", sizeof keys - strlen(keys) - 1);
                    strncat(keys, knobs[i].key, sizeof keys - strlen(keys) - 1);
                }
                return lw_fail(LW_ERR_INVALID_ARGUMENT, "tuning: unknown key '%.*s' (known: %s)", (int)kl, p, keys);
            }
            LW_TRY(set_knob(t, k, eq + 1, n - kl - 1));
        }
        p += n;
        if (*p == ',') p++;
    }
    return LW_OK;
}

int lw_tuning_count(void) { return NKNOBS; }

const char *lw_tuning_key(int i, const char **about)
{
    if (i < 0 || i >= NKNOBS) return NULL;
    if (about) *about = knobs[i].about;
    return knobs[i].key;
}
