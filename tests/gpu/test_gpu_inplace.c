/* In place on the CUDA backend (in == out): the generic path walks lines too
 * long for a block's shared memory in place and reorders them to the Mallat
 * layout by cycles (src/cuda/inplace_exec.c), so every engine runs in place
 * with device memory beyond the array of at most 1% of it.
 *   - every wavelet x float32 / float64 / int32 x both modes x both layouts x
 *     forward / inverse (the adjoints on float) on shapes whose lines need the
 *     walk: a long 1-D signal (contiguous, chunked), tall 2-D columns, a batch
 *     of tall planes over axes (1, 2), a 3-D volume with a long middle axis,
 *     a line whose reorder has two cycles, a 2^16 line (many short cycles);
 *     the reorder along whole cycles from a table, with the leaders found by
 *     the kernel, and along cycles cut in pieces must each run;
 *     one level and the maximum; device pointers in place, some host pointers
 *     in place; each against the CPU reference (gpu_common.h);
 *   - device memory: 8192^2 float32 cdf97 1 and 5 levels, forward and inverse,
 *     a plan with LW_FLAG_IN_PLACE: the cudaMemGetInfo drop across plan +
 *     execute is at most 1% of the array, and lw_workspace_size reports no
 *     more than that;
 *   - LW_FLAG_IN_PLACE refusals: in != out; fs (its engine copies the
 *     input) at plan creation;
 *   - a timing line per case of the memory check, in place and out of place
 *     (information only; `liftwave bench --inplace` measures).
 *   - the in-place tile kernel's 2-D shapes (tile_sweep), in place and out of
 *     place, most of which must take the fused in-place kernels: the strip
 *     walker (inplace=tiles), or the tile kernel alone (inplace=ring);
 *   - the Mallat row reorder on row counts with few long cycles (cut in
 *     segments) and many short ones (whole), rowcycle_cases;
 *   - volumes, batches of narrow planes and a 4-D array in place in tuning
 *     auto (lines_sweep), most of which must run by passes of whole lines;
 *   - the interleaved engine out of place, level 1 by the fused 2-D tiles
 *     (il_fused_cases), and a forward pyramid's levels 2.. by a Mallat plan on
 *     level 1's compact lowpass, and the inverse's reverse (il_pyramid_cases);
 *   - batches of as many planes as SMs on the walker's whole-row strips
 *     (wide_batch_cases), where the tile kernel runs integer levels from in;
 *   - the compact route given up under a device memory budget (il_budget_cases);
 *   - planes held by thread-block clusters (plane_sweep), two axes a pass, in
 *     place and out of place, most of which must take the plane passes;
 *   LW_GPU_QUICK=1  the smaller shapes and fewer combinations (compute-sanitizer);
 *   LW_GPU_QUICK=2  only a few tile-kernel and plane-pass cases (racecheck, which runs slowly)
 *   LW_GPU_ONLY=a,b the named sweeps only (graph walk lines small planes tiles ring rowcycle d4_walker il_fused
 *                   il_pyramid wide_batch il_budget refusals copy memory), for a device run that tests one change
 * Exits 77 with "SKIP: no CUDA device" when there is no device. */
#define LW_GPU_NO_BIG_CASE
#include "gpu_common.h"

#include <stdio.h>
#include <stdlib.h>

static const shape_case shapes[] = {
    {1, 0, {0}, {50001}},               /* one long contiguous line: chunked walk */
    {2, 0, {0}, {3001, 67}},            /* tall columns: walk, odd length */
    {2, 0, {0}, {2048, 40}},            /* tall columns over several levels */
    {3, 2, {1, 2}, {3, 1500, 33}},      /* a batch of tall planes */
    {3, 0, {0}, {6, 1200, 17}},         /* 3-D, long middle axis */
    {1, 0, {0}, {100003}},              /* two cycles (one of 100002): the reorder cut in pieces */
    {1, 0, {0}, {65536}},               /* 2^16: cycles of 16 and shorter, leaders found by the kernel */
};
static const shape_case quick_shapes[] = {
    {1, 0, {0}, {30001}},
    {1, 0, {0}, {65536}},
    {2, 0, {0}, {2048, 40}}, /* the reorder from a leaders table (the lines outweigh it) */
    {2, 0, {0}, {1100, 35}},
};

static long g_walk_cases;

static void one(const shape_case *sc, lw_wavelet w, lw_dtype t, lw_mode m, lw_layout lay, lw_direction d, int levels,
                int devptr, const char *tuning)
{
    gcase c = case_of(sc, w, t, m, lay, d, levels, devptr);
    c.tuning = tuning;
    c.generic = sc->rank == 1 && w != LW_FS; /* the walk itself (auto: the line1d engine, test_gpu_line1d) */
    long before = g_cases;
    run_case(&c);
    g_walk_cases += g_cases - before;
}

/* the data types both sweeps run */
static const lw_dtype types[] = {LW_FLOAT32, LW_FLOAT64, LW_INT32};

#include "gpu_rowcycle_cases.h"

/* Point i of the grid the sweeps walk for each shape: wavelet x data type x
 * mode x layout x direction (the first nd), the direction fastest. */
typedef struct grid_pt {
    lw_wavelet w;
    lw_dtype t;
    lw_mode m;
    lw_layout lay;
    lw_direction d;
} grid_pt;
#define GRID_SIZE(nd) (LW_WAVELET_COUNT * 3 * 2 * 2 * (nd))

static grid_pt grid_at(int i, int nd)
{
    grid_pt p;
    p.d = (lw_direction)(i % nd), i /= nd;
    p.lay = (lw_layout)(i % 2), i /= 2;
    p.m = (lw_mode)(i % 2), i /= 2;
    p.t = types[i % 3], i /= 3;
    p.w = (lw_wavelet)i;
    return p;
}

static void sweep(int quick)
{
    const shape_case *S = quick ? quick_shapes : shapes;
    int ns = quick ? (int)(sizeof quick_shapes / sizeof *quick_shapes) : (int)(sizeof shapes / sizeof *shapes);
    long k = 0;
    const long pc_whole = g_ip_pc_whole, pc_found = g_ip_pc_found, pc_cut = g_ip_pc_cut;
    for (int si = 0; si < ns; si++)
        for (int i = 0; i < GRID_SIZE(4); i++, k++) {
            const grid_pt g = grid_at(i, 4);
            if (g.t == LW_INT32 && g.d >= 2) continue; /* integer adjoints: none */
            if (g.w == LW_FS && g.d >= 2) continue;    /* test_gpu_adjoint covers fs */
            if (quick && (k % 3) != 0) continue;
            /* some with short pieces of odd length: most cycles cut */
            one(&S[si], g.w, g.t, g.m, g.lay, g.d, (k / 4) % 2 ? -1 : 1, (k % 5) != 2,
                k % 6 == 1 ? "reorder_piece=37" : NULL);
        }
    printf("in-place walk cases: %ld run; Mallat reorder of walked lines: %ld passes along whole cycles from a "
           "table, %ld with the leaders found by the kernel, %ld along cycles cut in pieces\n",
           g_walk_cases, g_ip_pc_whole - pc_whole, g_ip_pc_found - pc_found, g_ip_pc_cut - pc_cut);
    CHECK(g_ip_pc_cut > pc_cut, "no walked pass reordered its lines along cycles cut in pieces");
    CHECK(g_ip_pc_whole > pc_whole, "no walked pass reordered its lines along whole cycles from a leaders table");
    CHECK(g_ip_pc_found > pc_found, "no walked pass reordered its lines with the leaders found by the kernel");
}

/* 2-D shapes for the fused in-place kernels (tile2d_inplace.c): partial
 * strips and tiles both ways, a batch of planes, a column stride (axes 0, 1
 * of a 3-D array: interleaved only, the Mallat rows must be contiguous), wide
 * and tall (row segments).  Every separable wavelet x float32 / float64 /
 * int32 x both layouts x forward / inverse, one level and the maximum, in
 * place on device pointers and (for the interleaved engine) out of place;
 * symmetric mode, and periodic on three shapes (a ring of strips, row
 * segments).  Most must run by the strip walker. */
static void tile_sweep(int quick, int ring)
{
    static const shape_case T[] = {
        {2, 0, {0}, {300, 517}},       {2, 0, {0}, {258, 1030}},    {3, 2, {1, 2}, {3, 130, 270}},
        {3, 2, {0, 1}, {130, 94, 3}},  {2, 0, {0}, {64, 2000}},     {2, 0, {0}, {1500, 40}},
        {2, 0, {0}, {1024, 1024}},
    };
    const int ns = quick >= 2 ? 1 : quick ? 2 : (int)(sizeof T / sizeof *T);
    long k = 0, before = g_ip_tiles, wbefore = g_ip_walker, rbefore = g_ip_ring_segs, cases = 0;
    for (int si = 0; si < ns; si++)
        for (int w = 0; w < LW_WAVELET_COUNT; w++)
            for (int ti = 0; ti < 3; ti++)
                for (int lay = 0; lay < 2; lay++)
                    for (int d = 0; d < 2; d++)
                        for (int v = 0; v < 3; v++, k++) {
                            if (w == LW_FS || (quick && k % (quick >= 2 ? 16 : 4))) continue;
                            const int oop = v == 2;
                            if (oop && lay == LW_MALLAT) continue;
                            gcase c;
                            memset(&c, 0, sizeof c);
                            c.rank = T[si].rank, c.naxes = T[si].naxes;
                            for (int i = 0; i < c.rank; i++) c.shape[i] = T[si].shape[i];
                            for (int i = 0; i < c.naxes; i++) c.axes[i] = T[si].axes[i];
                            c.w = (lw_wavelet)w, c.t = types[ti], c.lay = (lw_layout)lay, c.dir = (lw_direction)d;
                            /* periodic: a ring of strips (258 x 1030), and rows cut in segments
                             * whose ring wraps through the stash (all three: 1500 x 40 one strip) */
                            c.m = (si == 1 || si == 5 || si == 6) && v == 1 ? LW_PERIODIC : LW_SYMMETRIC;
                            c.levels = v == 0 ? 1 : -1, c.devptr = 1, c.inplace = !oop;
                            /* at any size (auto: where 2 MiB is within 1%); ring: the tile kernel only */
                            c.tuning = ring ? "inplace=ring" : "inplace=tiles";
                            run_case(&c);
                            cases += !oop;
                        }
    const long tiles = g_ip_tiles - before, walker = g_ip_walker - wbefore;
    printf("in-place tile cases (%s): %ld of %ld in-place cases ran by the fused in-place engines (%ld by the strip "
           "walker)\n", ring ? "ring" : "tiles", tiles, cases, walker);
    /* the rest: haar on odd lengths, Mallat on strided columns, periodic (not the tile kernel) */
    CHECK(tiles * 5 >= cases * 2, "only %ld of %ld in-place 2-D cases took the fused in-place engines", tiles, cases);
    if (ring) CHECK(walker == 0, "inplace=ring: %ld cases took the strip walker", walker);
    else CHECK(walker * 5 >= cases * 2, "only %ld of %ld in-place 2-D cases took the strip walker", walker, cases);
    if (!ring && ns > 1) {
        const long segs = g_ip_ring_segs - rbefore;
        printf("  of those, %ld periodic with their rows cut in segments (the wrap stashed)\n", segs);
        CHECK(segs > 0, "no periodic in-place case cut its rows in segments");
    }
}

/* d4 by the strip walker, which "auto" takes for it only on planes of 4096
 * each way: named here at smaller sizes.  Its first and last strips lift an
 * end segment on every row (the mirror refreshed before every step by move
 * sets, tile_lift.cuh reg_lift_segment); the widths put the line's end at
 * every offset a segment can have (width mod 8: 5, 6, 0, 3, 2, 7), with
 * several strips of 88 columns, a narrow last strip, row segments (tall
 * planes) and a batch; float32 and float64, both layouts (interleaved by
 * tile2d-il, Mallat by tile2d in place), forward and inverse, one level and
 * the maximum, symmetric and (one shape) periodic.  Most must take the
 * walker (the rest: a level it cannot walk, by the tile kernel). */
static void d4_walker_cases(int quick)
{
    static const shape_case T[] = {
        {2, 0, {0}, {300, 517}}, {2, 0, {0}, {258, 1030}}, {3, 2, {1, 2}, {3, 130, 272}},
        {2, 0, {0}, {1100, 179}}, {2, 0, {0}, {64, 2002}}, {2, 0, {0}, {97, 95}},
    };
    const int ns = (int)(sizeof T / sizeof *T);
    long k = 0, before = g_ip_walker, cases = 0;
    for (int si = 0; si < ns; si++)
        for (int ti = 0; ti < 2; ti++)
            for (int lay = 0; lay < 2; lay++)
                for (int d = 0; d < 2; d++)
                    for (int v = 0; v < 2; v++, k++) {
                        if (quick && k % (quick >= 2 ? 8 : 3)) continue;
                        gcase c = case_of(&T[si], LW_D4, types[ti], LW_SYMMETRIC, (lw_layout)lay, (lw_direction)d,
                                          v == 0 ? 1 : -1, 1);
                        if (si == 0 && v == 1) c.m = LW_PERIODIC; /* the width as it is: odd, refused past level 0 */
                        c.scheme = lay == LW_INTERLEAVED ? "tile2d-il" : "tile2d";
                        c.tuning = "inplace=tiles";
                        run_case(&c);
                        cases++;
                    }
    const long walker = g_ip_walker - before;
    printf("d4 walker cases: %ld of %ld in-place cases ran by the strip walker\n", walker, cases);
    CHECK(walker * 2 >= cases && walker > 0, "only %ld of %ld d4 in-place cases took the strip walker", walker, cases);
}

/* The interleaved engine out of place (tile2d-il): a forward's first level,
 * and a one-level inverse, by the fused 2-D tiles (k_tile2d_il.cu: each tile
 * and its halo read once, its rows of outputs written once), the other
 * levels in place on out by the walker.  One level names the engine (it
 * applies wherever the tiles run, even where the in-place engines cannot: in
 * place such a plan takes the generic passes), the maximum takes auto.  Every
 * separable wavelet x float32 / float64 / int32 (on the walker: the integer
 * transforms keep it) x both modes (periodic on even shapes) x forward /
 * inverse x one level and the maximum, on planes of whole aligned tiles, odd
 * lengths (a partial last tile; not haar, which the tiles lift on even
 * lengths only), 2 mod 4 columns (no vector rows; d4's last tile placed off a
 * 16-byte unit), a batch of planes, axes 0 and 2 of a volume (rows strided
 * past the batch), a tiny plane; device pointers, every fifth case host
 * pointers.  Each one-level float case must take the fused tiles. */
static void il_fused_cases(int quick)
{
    static const shape_case T[] = {
        {2, 0, {0}, {520, 1024}},     {2, 0, {0}, {301, 517}},      {2, 0, {0}, {258, 1030}},
        {3, 2, {1, 2}, {3, 130, 272}}, {3, 2, {0, 2}, {130, 3, 200}}, {2, 0, {0}, {6, 10}},
    };
    const int ns = quick >= 2 ? 1 : quick ? 3 : (int)(sizeof T / sizeof *T);
    long k = 0, before = g_il_fused, cases = 0, expected = 0;
    for (int si = 0; si < ns; si++) {
        int odd = 0;
        for (int i = 0; i < T[si].rank; i++) odd |= T[si].shape[i] % 2 != 0;
        for (int w = 0; w < LW_WAVELET_COUNT; w++)
            for (int ti = 0; ti < 3; ti++)
                for (int m = 0; m < 2; m++)
                    for (int d = 0; d < 2; d++)
                        for (int v = 0; v < 2; v++, k++) {
                            if (!(lw_wavelet_properties((lw_wavelet)w) & LW_WAVELET_SEPARABLE)) continue;
                            if (m == LW_PERIODIC && odd) continue;          /* odd periodic lengths: refused */
                            if (w == LW_HAAR && odd) continue;              /* haar on odd lengths: not tile2d */
                            if (quick && k % (quick >= 2 ? 16 : 4)) continue;
                            gcase c = case_of(&T[si], (lw_wavelet)w, types[ti], (lw_mode)m, LW_INTERLEAVED,
                                              (lw_direction)d, v == 0 ? 1 : -1, k % 5 != 2);
                            c.inplace = 0, c.scheme = v == 0 ? "tile2d-il" : NULL;
                            c.tuning = "inplace=tiles"; /* the in-place engines at any size, for levels 2.. */
                            run_case(&c);
                            cases++;
                            expected += v == 0 && types[ti] != LW_INT32;
                        }
    }
    const long fused = g_il_fused - before;
    printf("interleaved fused cases: %ld of %ld out-of-place cases ran level 1 by the fused 2-D tiles (%ld expected)\n",
           fused, cases, expected);
    CHECK(fused >= expected && expected > 0, "only %ld of %ld interleaved cases took the fused 2-D tiles (%ld expected)",
          fused, cases, expected);
}

/* The interleaved layout's pyramids out of place (tile2d_il_oop.c): forward,
 * level 1 by the fused 2-D tiles with its even rows kept compact, levels 2..
 * by a Mallat plan on that lowpass, the even rows then written whole; inverse,
 * the lowpass grid's coefficients gathered to the Mallat layout, levels L..2
 * by a Mallat plan, level 1 by the tiles with that lowpass.  Every separable
 * wavelet but haar (the local engine's) x float32 / float64 x both modes
 * (periodic on shapes of multiples of 8) x forward / inverse x 2, 3 and the
 * maximum levels, on aligned and odd planes (odd lengths at every level), a
 * batch of planes, axes 0 and 2 of a volume (rows strided past the batch),
 * the engine named (small planes would take the small engine) but for d4 on
 * planes of 512 each way with 2 and 3 levels, where auto must take it; device
 * pointers, every fourth case host pointers.  Every case must take the
 * route. */
static void il_pyramid_cases(int quick)
{
    static const shape_case T[] = {
        {2, 0, {0}, {520, 1024}}, {2, 0, {0}, {301, 517}}, {3, 2, {1, 2}, {3, 260, 272}},
        {3, 2, {0, 2}, {136, 3, 200}}, {2, 0, {0}, {1030, 774}},
    };
    static const shape_case Q[] = {{2, 0, {0}, {301, 517}}, {3, 2, {1, 2}, {3, 260, 272}}, {2, 0, {0}, {1030, 774}}};
    static const int lv[] = {2, 3, -1};
    const shape_case *S = quick ? Q : T;
    const int ns = quick >= 2 ? 1 : quick ? 3 : (int)(sizeof T / sizeof *T);
    long k = 0, before = g_il_compact, fwd = 0, cases = 0;
    for (int si = 0; si < ns; si++)
        for (int w = 0; w < LW_WAVELET_COUNT; w++)
            for (int ti = 0; ti < 2; ti++)
                for (int m = 0; m < 2; m++)
                    for (int li = 0; li < 3; li++)
                        for (int d = 0; d < 2; d++, k++) {
                            if (!(lw_wavelet_properties((lw_wavelet)w) & LW_WAVELET_SEPARABLE) || w == LW_HAAR) continue;
                            int by8 = 1;
                            for (int i = 0; i < S[si].rank; i++) by8 &= S[si].shape[i] % 8 == 0 || S[si].shape[i] == 3;
                            if (m == LW_PERIODIC && !by8) continue;
                            if (quick && k % (quick >= 2 ? 12 : 3)) continue;
                            gcase c = case_of(&S[si], (lw_wavelet)w, types[ti], (lw_mode)m, LW_INTERLEAVED,
                                              (lw_direction)d, lv[li], k % 4 != 1);
                            c.inplace = 0;
                            const int autod4 = w == LW_D4 && m == LW_SYMMETRIC && li < 2 && S[si].rank == 2 &&
                                               S[si].shape[0] >= 512 && S[si].shape[1] >= 512;
                            if (!autod4) c.scheme = "tile2d-il";
                            run_case(&c);
                            cases++;
                            fwd += d == 0;
                        }
    const long compact = g_il_compact - before;
    printf("interleaved pyramids: %ld of %ld cases (%ld forward) ran levels 2.. by a Mallat plan\n", compact, cases,
           fwd);
    CHECK(compact == cases && fwd > 0 && fwd < cases, "only %ld of %ld interleaved pyramids took the compact route",
          compact, cases);
}

/* plan c (out of place) and describe it: whether it takes the interleaved pyramids' compact route, and
 * (if ws) its workspace */
static int il_route_of(const gcase *c, size_t *ws, int *ooc)
{
    lw_plan *p = NULL;
    char d[4096] = "";
    CHECK(make(&p, c, c->levels, LW_BACKEND_CUDA) == LW_OK, "memory budget case: plan: %s", lw_last_error());
    if (!p) return -1;
    lw_plan_describe(p, d, sizeof d);
    if (ws) lw_workspace_size(p, ws);
    if (ooc) *ooc = strstr(d, "out of core") != NULL;
    lw_destroy(p);
    return strstr(d, "by a Mallat plan of their own") != NULL;
}

/* The interleaved pyramids' compact route needs half the array or more of
 * workspace (tile2d_il_oop.c); where the device cannot hold it the plan runs
 * without it (the in-place kernels on out, a little workspace) rather than
 * fail or stream: host pointers under a device_memory_limit between the two
 * needs stay whole on the device, and device pointers on a device whose free
 * memory is filled but for less than the route's workspace get a plan.  Both
 * directions, float32 cdf97, three levels, against the CPU reference. */
static void il_budget_cases(void)
{
    static const shape_case S = {2, 0, {0}, {1024, 1032}}, D = {2, 0, {0}, {4096, 4104}};
    for (int d = 0; d < 2; d++) {
        gcase c = case_of(&S, LW_CDF97, LW_FLOAT32, LW_SYMMETRIC, LW_INTERLEAVED, (lw_direction)d, 3, 0);
        c.inplace = 0, c.scheme = "tile2d-il";
        size_t ws = 0;
        int ooc = 0;
        CHECK(il_route_of(&c, &ws, &ooc) == 1 && !ooc, "memory budget: %s without a limit: not the compact route",
              d ? "inverse" : "forward");
        const uint64_t n = (uint64_t)S.shape[0] * (uint64_t)S.shape[1] * 4;
        c.mem_limit = 2 * n + n / 2 + ws / 2; /* the copies and a pyramid's lowpass, half the route's workspace */
        CHECK(il_route_of(&c, NULL, &ooc) == 0 && !ooc, "memory budget: %s under a limit of %llu bytes: %s",
              d ? "inverse" : "forward", (unsigned long long)c.mem_limit, ooc ? "streamed" : "the compact route");
        run_case(&c);

        /* device pointers, the device filled but for half the route's workspace */
        gcase g = case_of(&D, LW_CDF97, LW_FLOAT32, LW_SYMMETRIC, LW_INTERLEAVED, (lw_direction)d, 3, 1);
        g.inplace = 0, g.scheme = "tile2d-il";
        CHECK(il_route_of(&g, &ws, NULL) == 1, "memory budget: device pointers, %s: not the compact route",
              d ? "inverse" : "forward");
        const size_t bytes = (size_t)D.shape[0] * (size_t)D.shape[1] * 4;
        void *in = NULL, *out = NULL, *fill = NULL;
        size_t fr = 0, tot = 0;
        if (cudaMalloc(&in, bytes) != cudaSuccess || cudaMalloc(&out, bytes) != cudaSuccess ||
            cudaMemGetInfo(&fr, &tot) != cudaSuccess || fr < ws ||
            cudaMalloc(&fill, fr - ws / 2) != cudaSuccess) {
            cudaGetLastError();
            CHECK(0, "memory budget: cannot fill the device (%zu of %zu bytes free)", fr, tot);
            cudaFree(in), cudaFree(out);
            continue;
        }
        lw_plan *pc = NULL, *pr = NULL;
        const lw_status st = make(&pc, &g, 3, LW_BACKEND_CUDA);
        char dsc[4096] = "";
        if (pc) lw_plan_describe(pc, dsc, sizeof dsc);
        CHECK(st == LW_OK && !strstr(dsc, "by a Mallat plan of their own"),
              "memory budget: device pointers, %s, %zu bytes free: %s", d ? "inverse" : "forward", ws / 2,
              st == LW_OK ? "the compact route" : lw_last_error());
        cudaFree(fill); /* the plan holds what it chose; the kernels' launches need no squeeze */
        cudaFree(in), cudaFree(out);
        if (st == LW_OK && make(&pr, &g, 3, oracle_backend()) == LW_OK) {
            char txt[256];
            case_text(&g, lw_plan_config(pr), txt, sizeof txt);
            check_plans(&g, pr, pc, txt); /* destroys both */
        } else {
            CHECK(st != LW_OK, "memory budget: device pointers: reference plan: %s", lw_last_error());
            lw_destroy(pc), lw_destroy(pr);
        }
    }
    printf("memory budget: the interleaved pyramids without their compact route, host and device pointers\n");
}

/* Batches of at least as many planes as the device has SMs, each no wider
 * than the strip walker's whole-row strips (tile2d_inplace.c: "wide"): out
 * of place the interleaved engine runs the integer transforms' levels from in
 * by the in-place tile kernel (level 1 out of place, the others in place on
 * out), the float ones by the fused tiles' routes or, with il_compact=0, the
 * walker after level 1; in place the walker; and both with the tile kernel
 * instead of the walker (inplace=ring).  Every separable wavelet x
 * float32 / float64 / int32 x forward / inverse x 1, 2 and the maximum
 * levels x out of place (auto, il_compact=0, and with ring) and in place
 * (auto, ring), symmetric, on
 * an even and an odd plane shape (the engine named for one and two levels).
 * Every integer case out of place of one level, and the forwards of two, must
 * take the tile kernel's route (an inverse pyramid runs on out from its
 * coarsest level: the walker). */
static void wide_batch_cases(int quick)
{
    int dev = 0, sms = 0;
    if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess) {
        cudaGetLastError();
        CHECK(0, "wide batches: no multiprocessor count");
        return;
    }
    const shape_case T[] = {{3, 2, {1, 2}, {sms + 4, 40, 300}}, {3, 2, {1, 2}, {sms + 1, 37, 131}}};
    static const int lv[] = {1, 2, -1};
    const int ns = quick ? 1 : 2;
    long k = 0, before = g_il_oop_tile, expected = 0, cases = 0;
    for (int si = 0; si < ns; si++)
        for (int w = 0; w < LW_WAVELET_COUNT; w++)
            for (int ti = 0; ti < 3; ti++)
                for (int d = 0; d < 2; d++)
                    for (int li = 0; li < 3; li++)
                        for (int v = 0; v < 5; v++, k++) {
                            if (!(lw_wavelet_properties((lw_wavelet)w) & LW_WAVELET_SEPARABLE)) continue;
                            if (w == LW_HAAR && T[si].shape[2] % 2) continue; /* haar on odd lengths: not tile2d */
                            if (quick && k % (quick >= 2 ? 17 : 5)) continue;
                            gcase c = case_of(&T[si], (lw_wavelet)w, types[ti], LW_SYMMETRIC, LW_INTERLEAVED,
                                              (lw_direction)d, lv[li], 1);
                            static const char *tu[] = {NULL, "il_compact=0", NULL, "inplace=ring",
                                                       "il_compact=0,inplace=ring"};
                            c.inplace = v == 2 || v == 3, c.scheme = li < 2 ? "tile2d-il" : NULL; /* deep levels: maybe not */
                            c.tuning = tu[v];
                            const long before1 = g_il_oop_tile;
                            run_case(&c);
                            cases++;
                            const int want = types[ti] == LW_INT32 && (v < 2 || v == 4) && (d == 0 ? li < 2 : li == 0) &&
                                             (lw_wavelet_properties((lw_wavelet)w) & LW_WAVELET_INTEGER);
                            expected += want;
                            CHECK(!want || g_il_oop_tile > before1, "wide batch, shape %d, %s int32 %s %d levels: not by "
                                  "the tile kernel's route", si, lw_wavelet_name((lw_wavelet)w), d ? "inverse" : "forward",
                                  lv[li]);
                        }
    printf("wide batches: %ld of %ld cases ran from in by the in-place tile kernel (%ld expected)\n",
           g_il_oop_tile - before, cases, expected);
    CHECK(quick >= 2 || expected > 0, "no wide-batch case expected the tile kernel's route");
}

/* Passes of whole lines a block (k_lines.cu: rows and columns; in place
 * without workspace): volumes and batches of narrow planes (items larger
 * than the small engine takes) in tuning auto, every separable wavelet x float32 / float64 / int32 x both modes x both layouts x
 * forward / inverse, one level and the maximum, on odd and even sizes (odd
 * periodic lengths are padded by `one`).  Most must take those passes. */
static void lines_sweep(int quick)
{
    static const shape_case L[] = {
        {3, 0, {0}, {20, 36, 72}}, {3, 2, {1, 2}, {3, 130, 200}}, {3, 0, {0}, {9, 33, 70}},
        {2, 0, {0}, {130, 1030}},  {4, 3, {1, 2, 3}, {2, 12, 10, 40}},
    };
    const int ns = quick ? 2 : (int)(sizeof L / sizeof *L);
    long k = 0, before = g_ip_lines, cases = g_cases;
    for (int si = 0; si < ns; si++)
        for (int i = 0; i < GRID_SIZE(2); i++, k++) {
            const grid_pt g = grid_at(i, 2);
            if (g.w == LW_FS || (quick && (k % 4) != 0)) continue; /* fs: not separable */
            one(&L[si], g.w, g.t, g.m, g.lay, g.d, (k / 2) % 2 ? -1 : 1, 1, NULL);
        }
    const long lines = g_ip_lines - before;
    cases = g_cases - cases;
    printf("in-place line-pass cases: %ld of %ld in-place cases ran by passes of whole lines\n", lines, cases);
    /* the rest: the strip walker (2-D interleaved), fs, the small engine */
    CHECK(lines * 2 >= cases, "only %ld of %ld in-place cases took the passes of whole lines", lines, cases);
}

/* Batches of small items (each fits the small engine's block): out of place
 * the fused engines take 2-D Mallat plans (one launch a level costs less than
 * the small engine's phases), the small engine the rest (1-D, 3-D items of a
 * batch, interleaved); in place the small engine runs them all, without
 * workspace.  Every separable wavelet x float32 / float64 / int32 x both modes
 * x both layouts x forward / inverse, one level and the maximum, in place and
 * out of place (auto, the small engine named, the fused engines' tails with
 * tuning tail=fused), against the CPU reference. */
static void small_sweep(int quick)
{
    static const struct {
        shape_case sc;
        int oop_engine; /* auto's engine out of place, float32 cdf97 Mallat */
    } S[] = {
        {{3, 2, {1, 2}, {64, 32, 32}}, LWE_TILE2D}, {{2, 1, {1}, {16, 1024}}, LWE_SMALL},
        {{4, 3, {1, 2, 3}, {4, 16, 16, 16}}, LWE_SMALL}, {{2, 0, {0}, {48, 40}}, LWE_TILE2D},
        {{3, 2, {1, 2}, {9, 13, 11}}, LWE_TILE2D},
    };
    const int ns = (int)(sizeof S / sizeof *S);
    long k = 0, before = g_ip_small, cases = 0;
    for (int si = 0; si < ns; si++) {
        gcase c = case_of(&S[si].sc, LW_CDF97, LW_FLOAT32, LW_SYMMETRIC, LW_MALLAT, LW_FORWARD, -1, 1);
        lw_plan *p = NULL;
        CHECK(make(&p, &c, -1, LW_BACKEND_CUDA) == LW_OK && lw_cuda_plan_engine(p) == S[si].oop_engine,
              "small items, shape %d: engine %s, expected %s", si, p ? engine_name(lw_cuda_plan_engine(p)) : "none",
              engine_name(S[si].oop_engine));
        lw_destroy(p);
        for (int i = 0; i < GRID_SIZE(2); i++, k++) {
            const grid_pt g = grid_at(i, 2);
            if (g.w == LW_FS || (quick && (k % 5) != 0)) continue; /* fs: not separable */
            for (int v = 0; v < 4; v++) { /* out of place, in place, the small engine named, the fused tail */
                if (v >= 2 && g.t == LW_INT32 && !(lw_wavelet_properties(g.w) & LW_WAVELET_INTEGER)) continue;
                gcase c2 = case_of(&S[si].sc, g.w, g.t, g.m, g.lay, g.d, (k / 2) % 2 ? -1 : 1, 1);
                c2.inplace = v == 1;
                if (v == 2) c2.scheme = "small";
                if (v == 3) c2.tuning = "tail=fused";
                run_case(&c2);
                cases += v == 1;
            }
        }
    }
    const long small = g_ip_small - before;
    printf("in-place small-item cases: %ld of %ld in-place cases of fused-engine plans ran by the small engine\n", small,
           cases);
    /* the 2-D Mallat plans (a fifth of the grid's in-place cases at least) take the small engine in place */
    CHECK(small * 5 >= cases, "only %ld of %ld in-place small-item cases took the small engine", small, cases);
}

/* Plane passes (k_plane.cu: two axes of a level in one pass, planes held by
 * a thread-block cluster, bands of rows with halos): batches of planes, the
 * (y, x) planes of volumes, single images, planes of one to 16 bands (the
 * sizes below take 1, 2, 4, 8 or 16 blocks for 4- and 8-byte samples), odd
 * sizes (element-wise accesses), in place and out of place (scheme generic),
 * every separable wavelet x float32 / float64 / int32 x both modes x
 * both layouts x forward / inverse, one level and the maximum (the half
 * types: test_gpu_half).  Most must take the plane passes. */
static void plane_sweep(int quick)
{
    static const shape_case P[] = {
        {3, 2, {1, 2}, {3, 200, 200}}, {3, 0, {0}, {6, 300, 260}}, {2, 0, {0}, {520, 512}},
        {3, 2, {1, 2}, {2, 301, 157}}, {3, 2, {1, 2}, {2, 90, 96}},  {2, 0, {0}, {1030, 1024}},
        /* (the first six: the two-axis count below) columns taller than 16
         * bands: one-axis passes of sub-bands, in strips where a band of
         * whole rows would not fit a block */
        {2, 0, {0}, {2048, 64}},       {2, 0, {0}, {1500, 96}},      {2, 0, {0}, {3000, 768}},
    };
    const int ns = quick ? 3 : (int)(sizeof P / sizeof *P), every = quick == 2 ? 29 : quick ? 5 : 1;
    long k = 0, planes = 0, eligible = 0, cases = g_cases, axis0 = g_axis_planes;
    for (int si = 0; si < ns; si++)
        for (int i = 0; i < GRID_SIZE(2); i++, k++) {
            const grid_pt g = grid_at(i, 2);
            if (g.w == LW_FS || k % every) continue; /* fs: not separable */
            gcase c = case_of(&P[si], g.w, g.t, g.m, g.lay, g.d, (k / 2) % 2 ? -1 : 1, 1);
            c.inplace = (k % 7) != 3; /* some out of place, by the generic engine */
            c.generic = !c.inplace;
            const long p0 = g_planes, c0 = g_cases;
            run_case(&c);
            if (g.w != LW_D4 && si < 6) eligible += g_cases - c0, planes += g_planes - p0;
        }
    cases = g_cases - cases;
    printf("plane-pass cases: %ld of %ld cases (%ld but d4's) ran some level by plane passes\n", planes, cases,
           eligible);
    /* the rest: d4 (its one-sided steps: not the plane kernels), haar on odd
     * heights, the strip walker (2-D interleaved in place), the small engine */
    CHECK(planes * 2 >= eligible, "only %ld of %ld cases took the plane passes", planes, eligible);
    /* the 3-D shape's z axis (6 x 260 planes) and the tall images' columns
     * by the one-axis plane passes */
    printf("one-axis plane passes: %ld cases\n", g_axis_planes - axis0);
    CHECK(quick == 2 || g_axis_planes > axis0, "no case ran an axis alone by the plane kernels");
}

/* In place inside a CUDA graph capture, first thing in the process: a plane
 * pass's first launch of its kernel (the shared-memory opt-in and the cluster
 * query it runs once) happens during the capture. */
static void graph_cases(void)
{
    static const shape_case P[] = {{3, 2, {1, 2}, {3, 200, 200}}, {2, 0, {0}, {512, 520}}};
    static const lw_wavelet W[] = {LW_CDF97, LW_DD137, LW_HAAR};
    const long p0 = g_planes, c0 = g_cases;
    for (int si = 0; si < 2; si++)
        for (int wi = 0; wi < 3; wi++)
            for (int lay = 0; lay < 2; lay++)
                for (int d = 0; d < 2; d++) {
                    gcase c = case_of(&P[si], W[wi], wi == 1 ? LW_FLOAT64 : LW_FLOAT32, LW_SYMMETRIC, (lw_layout)lay,
                                      (lw_direction)d, 1, 1);
                    c.graph = 1;
                    run_case(&c);
                }
    printf("graph-capture cases: %ld, %ld by plane passes\n", g_cases - c0, g_planes - p0);
    CHECK(g_planes - p0 >= 12, "only %ld graph-captured cases took the plane passes", g_planes - p0);
    /* the other in-place routes captured: 2-D by the walker (its counters),
     * 3-D with levels past the planes, tall columns by strips */
    static const shape_case Q[] = {{2, 0, {0}, {2048, 2048}}, {3, 0, {0}, {40, 64, 64}}, {2, 0, {0}, {3000, 768}}};
    const long w0 = g_ip_walker, c1 = g_cases;
    for (int si = 0; si < 3; si++)
        for (int lay = 0; lay < 2; lay++)
            for (int d = 0; d < 2; d++) {
                gcase c = case_of(&Q[si], LW_CDF97, LW_FLOAT32, LW_SYMMETRIC, (lw_layout)lay, (lw_direction)d,
                                  si == 1 ? -1 : 1, 1);
                c.graph = 1;
                run_case(&c);
            }
    printf("graph-capture cases, other routes: %ld, %ld by the walker\n", g_cases - c1, g_ip_walker - w0);
}

/* device memory and time, 8192^2 float32 cdf97, in place against out of place */
static void memory_case(int levels, lw_direction d)
{
    const int64_t n0 = 8192, n1 = 8192, N = n0 * n1;
    const size_t bytes = (size_t)N * 4;
    lw_config cfg;
    lw_config_init(&cfg);
    cfg.rank = 2, cfg.shape[0] = n0, cfg.shape[1] = n1, cfg.levels = levels, cfg.direction = d;
    cfg.backend = LW_BACKEND_CUDA, cfg.flags = LW_FLAG_DEVICE_POINTERS | LW_FLAG_IN_PLACE;
    float *h = malloc(bytes);
    for (int64_t i = 0; i < N; i++) h[i] = (float)(lw_rng_unit() * 2 - 1);
    void *x = NULL, *y = NULL;
    CHECK(cudaMalloc(&x, bytes) == cudaSuccess, "cudaMalloc");
    cudaMemcpy(x, h, bytes, cudaMemcpyHostToDevice);
    cudaDeviceSynchronize();
    size_t f0 = 0, f1 = 0, tot = 0;
    cudaMemGetInfo(&f0, &tot);
    lw_plan *p = NULL, *po = NULL;
    CHECK(lw_plan_create(&p, &cfg) == LW_OK, "plan: %s", lw_last_error());
    if (p) {
        CHECK(lw_execute(p, x, x) == LW_OK, "in-place execute: %s", lw_last_error());
        cudaDeviceSynchronize();
        cudaMemGetInfo(&f1, &tot);
        size_t ws = 0;
        lw_workspace_size(p, &ws);
        long long extra = (long long)f0 - (long long)f1;
        char dsc0[4096] = "";
        lw_plan_describe(p, dsc0, sizeof dsc0);
        /* the fused routes: the tile kernel, the strip walker, or passes that each hold whole
           lines (row passes and strip passes of the columns) */
        const int tiles = strstr(dsc0, "in_place: tile kernel") != NULL || strstr(dsc0, "in_place: strip walker") != NULL ||
                          strstr(dsc0, "in_place: passes of whole lines") != NULL;
        printf("memory: 8192^2 cdf97 %d level(s) %s in place (%s): %lld bytes beyond the array (%.4f%%), workspace %zu\n",
               levels, lw_direction_str(d), tiles ? "fused in place" : "generic passes", extra,
               100.0 * (double)extra / (double)bytes, ws);
        CHECK(tiles, "8192^2 in place did not take a fused in-place engine");
        CHECK(extra <= (long long)(bytes / 100), "in place took %lld bytes beyond the array (more than 1%%)", extra);
        CHECK(ws <= bytes / 100, "lw_workspace_size %zu is more than 1%% of the array", ws);
        /* timing, information only: in place and out of place, median of 9 */
        CHECK(cudaMalloc(&y, bytes) == cudaSuccess, "cudaMalloc");
        CHECK(lw_execute(p, x, y) == LW_ERR_INVALID_ARGUMENT, "in != out with LW_FLAG_IN_PLACE accepted");
        cfg.flags = LW_FLAG_DEVICE_POINTERS;
        CHECK(lw_plan_create(&po, &cfg) == LW_OK, "plan: %s", lw_last_error());
        const float in_ms = gpu_time_ms(p, x, x, 0), out_ms = po ? gpu_time_ms(po, x, y, 0) : 0;
        char dsc[4096];
        const char *eng = "?";
        if (lw_plan_describe(p, dsc, sizeof dsc) == LW_OK && (eng = strstr(dsc, "engine: "))) {
            char *nl = strchr(eng, '\n');
            if (nl) *nl = 0;
        }
        printf("timing: 8192^2 cdf97 %d level(s) %-8s in place %.3f ms, out of place %.3f ms (%s)\n", levels,
               lw_direction_str(d), in_ms, out_ms, eng);
    }
    lw_destroy(p), lw_destroy(po);
    cudaFree(x), cudaFree(y);
    free(h);
}

/* tuning inplace=copy: the fused engine into a scratch copy, so in place must
 * equal the same plan out of place bit for bit; and the time of both */
static void copy_cases(void)
{
    static const struct {
        int rank;
        int64_t n[3];
        lw_wavelet w;
        int levels;
    } cs[] = {{2, {4096, 4096}, LW_CDF97, 1}, {2, {1000, 1502}, LW_DD137, 3}, {3, {128, 96, 130}, LW_CDF53, 2},
              {2, {8192, 8192}, LW_HAAR, 5}};
    for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++)
        for (int d = 0; d < 2; d++) {
            lw_config c;
            lw_config_init(&c);
            c.rank = cs[i].rank;
            int64_t N = 1;
            for (int a = 0; a < c.rank; a++) c.shape[a] = cs[i].n[a], N *= cs[i].n[a];
            c.wavelet = cs[i].w, c.levels = cs[i].levels, c.direction = (lw_direction)d;
            c.backend = LW_BACKEND_CUDA, c.flags = LW_FLAG_DEVICE_POINTERS, c.tuning = "inplace=copy";
            const size_t bytes = (size_t)N * 4;
            float *h = malloc(bytes), *g0 = malloc(bytes), *g1 = malloc(bytes);
            for (int64_t k = 0; k < N; k++) h[k] = (float)(lw_rng_unit() * 2 - 1);
            void *x = NULL, *y = NULL;
            cudaMalloc(&x, bytes), cudaMalloc(&y, bytes);
            lw_plan *p = NULL;
            CHECK(lw_plan_create(&p, &c) == LW_OK, "inplace=copy plan: %s", lw_last_error());
            if (p && x && y) {
                cudaMemcpy(x, h, bytes, cudaMemcpyHostToDevice);
                CHECK(lw_execute(p, x, y) == LW_OK, "out of place: %s", lw_last_error());
                CHECK(lw_execute(p, x, x) == LW_OK, "in place by copy: %s", lw_last_error());
                cudaDeviceSynchronize();
                cudaMemcpy(g0, y, bytes, cudaMemcpyDeviceToHost);
                cudaMemcpy(g1, x, bytes, cudaMemcpyDeviceToHost);
                CHECK(memcmp(g0, g1, bytes) == 0, "inplace=copy case %zu %s: in place differs from out of place", i,
                      d ? "inverse" : "forward");
                printf("timing: inplace=copy %s %lldx%lld%s L%d %-7s in place %.3f ms, out of place %.3f ms\n",
                       lw_wavelet_name(c.wavelet), (long long)c.shape[0], (long long)c.shape[1],
                       c.rank == 3 ? "x.." : "", c.levels, d ? "inverse" : "forward", gpu_time_ms(p, x, x, 0),
                       gpu_time_ms(p, x, y, 0));
            }
            lw_destroy(p);
            cudaFree(x), cudaFree(y);
            free(h), free(g0), free(g1);
        }
    /* with LW_FLAG_IN_PLACE a full-size copy is refused */
    lw_config c;
    lw_config_init(&c);
    c.rank = 2, c.shape[0] = c.shape[1] = 4096, c.backend = LW_BACKEND_CUDA;
    c.flags = LW_FLAG_DEVICE_POINTERS | LW_FLAG_IN_PLACE, c.tuning = "inplace=copy";
    lw_plan *p = NULL;
    CHECK(lw_plan_create(&p, &c) == LW_ERR_UNSUPPORTED && !p, "inplace=copy with LW_FLAG_IN_PLACE accepted");
}

static void refusals(void)
{
    lw_config c;
    lw_config_init(&c);
    c.rank = 2, c.shape[0] = 300, c.shape[1] = 200, c.wavelet = LW_FS, c.backend = LW_BACKEND_CUDA;
    c.flags = LW_FLAG_DEVICE_POINTERS | LW_FLAG_IN_PLACE;
    lw_plan *p = NULL;
    lw_status s = lw_plan_create(&p, &c);
    printf("refusal: fs over two axes in place only: %s\n", lw_last_error());
    CHECK(s == LW_ERR_UNSUPPORTED && !p, "fs 2-D with LW_FLAG_IN_PLACE: status %d", (int)s);
    c.shape[0] = 1; /* one active axis: the fs engine still copies */
    s = lw_plan_create(&p, &c);
    CHECK(s == LW_ERR_UNSUPPORTED && !p, "fs 1 x 200 with LW_FLAG_IN_PLACE: status %d", (int)s);
    c.wavelet = LW_CDF97, c.shape[0] = 300; /* a separable wavelet: accepted */
    s = lw_plan_create(&p, &c);
    CHECK(s == LW_OK, "cdf97 300 x 200 with LW_FLAG_IN_PLACE: %s", lw_last_error());
    lw_destroy(p);
}

/* Whether LW_GPU_ONLY (a comma list of sweep names) names this one; unset: every sweep */
static int wanted(const char *name)
{
    const char *only = getenv("LW_GPU_ONLY");
    if (!only || !*only) return 1;
    const size_t n = strlen(name);
    for (const char *p = only; (p = strstr(p, name)) != NULL; p += n)
        if ((p == only || p[-1] == ',') && (p[n] == ',' || p[n] == '\0')) return 1;
    return 0;
}

int main(void)
{
    int skip = gpu_test_begin(20261125);
    if (skip) return skip;
    const char *q = getenv("LW_GPU_QUICK");
    int quick = q ? (atoi(q) >= 2 ? 2 : 1) : 0;
    if (wanted("graph")) graph_cases();
    if (quick < 2 && wanted("walk")) sweep(quick);
    if (quick < 2 && wanted("lines")) lines_sweep(quick);
    if (quick < 2 && wanted("small")) small_sweep(quick);
    if (wanted("planes")) plane_sweep(quick);
    if (wanted("tiles")) tile_sweep(quick, 0);
    if (wanted("ring")) tile_sweep(quick, 1);
    if (quick < 2 && wanted("rowcycle")) rowcycle_cases(quick);
    if (wanted("d4_walker")) d4_walker_cases(quick);
    if (wanted("il_fused")) il_fused_cases(quick);
    if (wanted("il_pyramid")) il_pyramid_cases(quick);
    if (wanted("wide_batch")) wide_batch_cases(quick);
    if (!quick && wanted("il_budget")) il_budget_cases();
    if (wanted("refusals")) refusals();
    if (!quick && wanted("copy")) copy_cases();
    if (!quick && wanted("memory"))
        for (int L = 1; L <= 5; L += 4)
            for (int d = 0; d < 2; d++) memory_case(L, (lw_direction)d);
    for (int k = 0; k < LWE_COUNT; k++) printf("engine %-8s used by %ld cases\n", engine_name(k), g_engine_count[k]);
    cudaStreamDestroy(g_stream);
    return lw_test_finish("test_gpu_inplace");
}
