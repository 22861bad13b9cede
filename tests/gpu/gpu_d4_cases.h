/* test_gpu's d4 cases (included by test_gpu.c after expect_engine and gpu_fused3d_cases.h). */
#ifndef LW_TEST_GPU_D4_CASES_H
#define LW_TEST_GPU_D4_CASES_H

/* d4 in symmetric mode on the fused 2-D engine: its steps are one-sided, so a
 * window that reaches past an edge of the image refreshes its mirrored samples
 * before every step (tile_lift.cuh, reg_lift_line).  Tiny and odd sizes (one
 * tile holds both edges; the last tile holds a single row or column), float32
 * and float64, one level and max, a batch (axes 1, 2) and 3-D on the fused
 * planes ("3d-yx": one level, and pyramids whose levels 2.. run as passes in
 * place on the lowpass octant, the inverse's planes reading it compact from
 * scratch); every case must reach the engine it names, and "auto" takes the
 * fused engines for d4 on planes of 4096 each way, or of 512 for up to three
 * levels, else the passes (cuda_exec.c, mirror_worth); 3-D volumes take the
 * fused 3-D engine (d4_fused3d_cases). */
static void d4_tile_cases(int quick)
{
    static const struct {
        int rank;
        int64_t n[3];
        lw_dtype t;
        int levels;
        const char *scheme;
        int engine;
        int batch; /* rank 3: axes 1, 2 */
    } D[] = {
        {2, {2, 2, 0}, LW_FLOAT32, 1, "tile2d", LWE_TILE2D, 0},       {2, {3, 5, 0}, LW_FLOAT32, -1, "tile2d", LWE_TILE2D, 0},
        {2, {5, 3, 0}, LW_FLOAT64, 1, "tile2d", LWE_TILE2D, 0},       {2, {33, 65, 0}, LW_FLOAT32, 3, "tile2d", LWE_TILE2D, 0},
        {2, {65, 257, 0}, LW_FLOAT64, -1, "tile2d", LWE_TILE2D, 0},   {2, {97, 300, 0}, LW_FLOAT32, 2, "tile2d", LWE_TILE2D, 0},
        {2, {1000, 1001, 0}, LW_FLOAT32, 1, "tile2d", LWE_TILE2D, 0}, {2, {1025, 770, 0}, LW_FLOAT32, 4, "tile2d", LWE_TILE2D, 0},
        {2, {4096, 4100, 0}, LW_FLOAT32, 2, NULL, LWE_TILE2D, 0},     {2, {600, 800, 0}, LW_FLOAT32, 1, NULL, LWE_TILE2D, 0},
        {2, {600, 800, 0}, LW_FLOAT32, 3, NULL, LWE_TILE2D, 0},       {2, {500, 800, 0}, LW_FLOAT32, 1, NULL, LWE_GENERIC, 0},
        {2, {600, 800, 0}, LW_FLOAT32, 4, NULL, LWE_GENERIC, 0},      {3, {4, 256, 256}, LW_FLOAT32, 1, NULL, LWE_GENERIC, 1},
        {3, {4, 520, 512}, LW_FLOAT32, 1, NULL, LWE_TILE2D, 1},       {3, {4, 512, 512}, LW_FLOAT32, 3, NULL, LWE_TILE2D, 1},
        {3, {20, 512, 530}, LW_FLOAT32, 2, NULL, LWE_FUSED3D, 0},     {3, {20, 500, 530}, LW_FLOAT32, 1, NULL, LWE_FUSED3D, 0},
        {3, {3, 41, 67}, LW_FLOAT32, 2, "tile2d", LWE_TILE2D, 0},     {3, {40, 30, 50}, LW_FLOAT32, 1, "3d-yx", LWE_TILE3D, 0},
        {3, {31, 22, 66}, LW_FLOAT64, 1, "3d-yx", LWE_TILE3D, 0},     {3, {40, 30, 50}, LW_FLOAT32, 2, "3d-yx", LWE_TILE3D, 0},
        {3, {33, 47, 65}, LW_FLOAT32, -1, "3d-yx", LWE_TILE3D, 0},    {3, {17, 20, 34}, LW_FLOAT64, 3, "3d-yx", LWE_TILE3D, 0},
        {3, {16, 90, 160}, LW_FLOAT32, 3, "3d-yx", LWE_TILE3D, 0},
    };
    const int n = (int)(sizeof D / sizeof D[0]);
    for (int i = 0; i < n; i++) {
        if (quick && (D[i].n[0] * (D[i].n[1] > 0 ? D[i].n[1] : 1) > 40000)) continue;
        for (int v = 0; v < 4; v++) {
            gcase c;
            memset(&c, 0, sizeof c);
            c.rank = D[i].rank;
            for (int a = 0; a < 3; a++) c.shape[a] = D[i].n[a];
            if (D[i].rank == 3 && (D[i].engine == LWE_TILE2D || D[i].batch))
                c.naxes = 2, c.axes[0] = 1, c.axes[1] = 2; /* a batch of planes */
            c.w = LW_D4, c.m = LW_SYMMETRIC, c.t = D[i].t, c.levels = D[i].levels, c.scheme = D[i].scheme;
            c.dir = (lw_direction)(v & 1), c.devptr = v >= 2, c.inplace = v == 3;
            if (!c.inplace) expect_engine(&c, D[i].engine);
            run_case(&c);
        }
    }
    /* both tile shapes (tuning tile2d=long, =short) on lines about as long
     * as their windows (32 or 16 rows + 8, 8 + 8 columns): from there on a
     * window meets one end and refreshes its mirror by fixed moves, at every
     * offset of the trailing end; shorter images run the kernels that pick
     * the images by selects */
    static const int64_t L[][2] = {{39, 64}, {40, 15}, {40, 16}, {41, 17}, {42, 23}, {47, 40}, {71, 33},
                                   {72, 100}, {100, 41}, {23, 300}, {300, 9}, {129, 131},
                                   {23, 64},  {24, 16}, {25, 17}, {31, 15}, {33, 90}};
    for (size_t i = 0; i < sizeof L / sizeof L[0]; i++)
        for (int v = 0; v < 8; v++) {
            gcase c;
            memset(&c, 0, sizeof c);
            c.rank = 2, c.shape[0] = L[i][0], c.shape[1] = L[i][1];
            c.w = LW_D4, c.m = LW_SYMMETRIC, c.t = v & 2 ? LW_FLOAT64 : LW_FLOAT32, c.levels = 1 + (int)(i % 3);
            c.scheme = "tile2d", c.tuning = v & 4 ? "tile2d=short" : "tile2d=long";
            c.dir = (lw_direction)(v & 1), c.devptr = (int)(i % 2);
            expect_engine(&c, LWE_TILE2D);
            run_case(&c);
        }
    /* the last tile moved to end at the image's end (reg_lift_placed): widths
     * and heights just past one or two tiles (long 32 x 256, short 16 x 128),
     * where the tile before the last reaches past the end by 1-3 samples */
    static const int64_t P[][2] = {{33, 257}, {35, 259}, {36, 260}, {65, 513}, {67, 515}, {17, 129},
                                   {19, 131}, {20, 132}, {34, 258}, {68, 516}, {40, 262}};
    for (size_t i = 0; i < sizeof P / sizeof P[0]; i++)
        for (int v = 0; v < 4; v++) {
            gcase c;
            memset(&c, 0, sizeof c);
            c.rank = 2, c.shape[0] = P[i][0], c.shape[1] = P[i][1];
            c.w = LW_D4, c.m = LW_SYMMETRIC, c.t = i % 4 == 3 ? LW_FLOAT64 : LW_FLOAT32, c.levels = 1;
            c.scheme = "tile2d", c.tuning = v & 2 ? "tile2d=short" : "tile2d=long";
            c.dir = (lw_direction)(v & 1), c.devptr = (int)(i % 2);
            expect_engine(&c, LWE_TILE2D);
            run_case(&c);
        }
    /* the kernels of k_tile2d.cu's EDGE kinds: images of 2 to 7 row tiles take
     * one kernel with the move sets both ways (TE_ALL); images of 8 row tiles or
     * more lift the end row tiles in a launch of their own (TE_EDGE: grid y indexes
     * the first two and the last two row tiles) and the rest plainly (TE_INNER,
     * which skips them); in periodic mode TE_INNER takes every tile.  Either tile
     * shape, blocks walking 1-3 row tiles of a plane or planes of a batch, one and
     * two levels (the second level of the tall ones: 32 or more row tiles) */
    static const int64_t E[][3] = {{1, 64, 300}, {1, 96, 264},   {1, 130, 520},  {1, 161, 777}, {3, 72, 300},
                                   {2, 100, 292}, {1, 200, 130}, {1, 2085, 300}, {2, 2050, 132}};
    static const char *const ET[] = {"tile2d=long", "tile2d=long,tile2d_walk=2", "tile2d=long,tile2d_walk=3",
                                     "tile2d=short,tile2d_walk=2"};
    for (size_t i = 0; i < sizeof E / sizeof E[0]; i++)
        for (int v = 0; v < 16; v++) {
            if ((v & 8) && ((E[i][1] | E[i][2]) & 1)) continue; /* periodic: even lengths */
            if (quick && E[i][1] > 1000 && v >= 4) continue;  /* the sanitizers: the tall ones' first tunings */
            gcase c;
            memset(&c, 0, sizeof c);
            if (E[i][0] > 1) { /* a batch of planes: axes 1, 2 */
                c.rank = 3, c.shape[0] = E[i][0], c.shape[1] = E[i][1], c.shape[2] = E[i][2];
                c.naxes = 2, c.axes[0] = 1, c.axes[1] = 2;
            } else {
                c.rank = 2, c.shape[0] = E[i][1], c.shape[1] = E[i][2];
            }
            c.w = LW_D4, c.m = v & 8 ? LW_PERIODIC : LW_SYMMETRIC, c.t = LW_FLOAT32, c.levels = 1 + (int)(i % 2);
            c.scheme = "tile2d", c.tuning = ET[(v >> 1) & 3];
            c.dir = (lw_direction)(v & 1), c.devptr = (int)(i % 2);
            expect_engine(&c, LWE_TILE2D);
            run_case(&c);
        }
    /* where the end row tiles' launch goes: on device pointers beside the other
     * tiles' on a stream of the plan's (tile2d_side, the default; planes of 8 row
     * tiles or more split), forked from the call's stream and joined back, also
     * inside a CUDA graph capture; after them on the call's stream (tile2d_side=0:
     * from 64 row tiles, so these take TE_ALL); the threshold named (tile2d_ends=4:
     * 4-7 row tiles, the first two and the last two overlapping or adjacent).
     * Host pointers, device pointers and a captured graph, one level and max */
    static const int64_t S[][3] = {{1, 256, 300}, {1, 300, 520}, {3, 512, 512}, {2, 130, 260}, {5, 257, 129}};
    static const char *const ST[] = {"tile2d=long", "tile2d=short", "tile2d=long,tile2d_side=0",
                                     "tile2d=long,tile2d_ends=4"};
    for (size_t i = 0; i < sizeof S / sizeof S[0]; i++)
        for (int v = 0; v < 24; v++) {
            if (quick && v >= 12) continue;
            gcase c;
            memset(&c, 0, sizeof c);
            if (S[i][0] > 1) {
                c.rank = 3, c.shape[0] = S[i][0], c.shape[1] = S[i][1], c.shape[2] = S[i][2];
                c.naxes = 2, c.axes[0] = 1, c.axes[1] = 2;
            } else {
                c.rank = 2, c.shape[0] = S[i][1], c.shape[1] = S[i][2];
            }
            const int how = (v >> 1) % 3; /* host, device, graph */
            c.w = LW_D4, c.m = LW_SYMMETRIC, c.t = LW_FLOAT32, c.levels = i % 2 ? -1 : 1;
            c.scheme = "tile2d", c.tuning = ST[(v / 6) & 3];
            c.dir = (lw_direction)(v & 1), c.devptr = how > 0, c.graph = how == 2;
            expect_engine(&c, LWE_TILE2D);
            run_case(&c);
        }
}

/* d4 in symmetric mode on the fused 3-D engine: the z stream refreshes its
 * mirror images per step (t3_zmirror), the y and x windows by fixed move
 * sets where the tiles can be placed for them (t3_lift, t3_long: 24 / 40
 * rows or more for the 16- / 32-row tiles, 64 or at least 68 columns; the
 * last tile moved to end at the line's end), else in a local copy.  Tiny
 * and odd sizes (2-sample axes, the last z pair holding one plane), one
 * level to max, float32 and float64, every tile variant by name (variant
 * 32x64 on lines shorter than its windows runs 16x64), "auto" on
 * volumes of the matrix's kinds, and a sweep of the lengths around the
 * fixed move sets' limits: the last tile moved by 0-3 samples, the one
 * before it reaching past the end by 1-3 (H = 4) or not at all, with the
 * direction's default tiles and (float32) the other height. */
static void d4_fused3d_cases(int quick)
{
    static const struct {
        int64_t n[3];
        lw_dtype t;
        int levels;
        const char *scheme;
        int engine;
    } D[] = {
        {{2, 2, 2}, LW_FLOAT32, 1, "fused3d", LWE_FUSED3D},     {{3, 5, 7}, LW_FLOAT32, -1, "fused3d", LWE_FUSED3D},
        {{5, 3, 2}, LW_FLOAT64, 1, "fused3d", LWE_FUSED3D},     {{17, 20, 34}, LW_FLOAT64, 3, "fused3d", LWE_FUSED3D},
        {{33, 47, 65}, LW_FLOAT32, -1, "fused3d", LWE_FUSED3D}, {{40, 30, 50}, LW_FLOAT32, 2, "fused3d", LWE_FUSED3D},
        {{16, 90, 160}, LW_FLOAT32, 3, "fused3d", LWE_FUSED3D}, {{65, 47, 131}, LW_FLOAT32, 1, "fused3d", LWE_FUSED3D},
        {{31, 22, 66}, LW_FLOAT64, 1, "fused3d", LWE_FUSED3D},  {{20, 23, 100}, LW_FLOAT32, 1, "fused3d", LWE_FUSED3D},
        {{20, 24, 15}, LW_FLOAT32, 1, "fused3d", LWE_FUSED3D},  {{9, 24, 16}, LW_FLOAT32, 1, "fused3d", LWE_FUSED3D},
        {{11, 39, 17}, LW_FLOAT32, 2, "fused3d", LWE_FUSED3D},  {{12, 40, 16}, LW_FLOAT32, 1, "fused3d", LWE_FUSED3D},
        {{7, 41, 33}, LW_FLOAT64, 1, "fused3d", LWE_FUSED3D},   {{16, 135, 240}, LW_FLOAT32, 3, "fused3d", LWE_FUSED3D},
        /* auto: the fused engine from 2^21 samples, or 2^18 for one level */
        {{64, 64, 64}, LW_FLOAT32, 1, NULL, LWE_FUSED3D},   {{64, 64, 64}, LW_FLOAT32, -1, NULL, LWE_GENERIC},
        {{20, 512, 530}, LW_FLOAT32, 2, NULL, LWE_FUSED3D}, {{16, 135, 240}, LW_FLOAT32, 3, NULL, LWE_GENERIC},
        {{32, 256, 256}, LW_FLOAT32, -1, NULL, LWE_FUSED3D},
    };
    const int n = (int)(sizeof D / sizeof D[0]);
    for (int i = 0; i < n; i++) {
        if (quick && D[i].n[0] * D[i].n[1] * D[i].n[2] > 40000) continue;
        for (int v = 0; v < 4 + T3_NVAR * (D[i].scheme != NULL && !quick); v++) {
            gcase c;
            memset(&c, 0, sizeof c);
            c.rank = 3;
            for (int a = 0; a < 3; a++) c.shape[a] = D[i].n[a];
            c.w = LW_D4, c.m = LW_SYMMETRIC, c.t = D[i].t, c.levels = D[i].levels, c.scheme = D[i].scheme;
            c.dir = (lw_direction)(v & 1), c.devptr = v >= 2 && v < 4, c.inplace = v == 3;
            if (v >= 4) c.tuning = t3_var[(i + v) % T3_NVAR]; /* variants, forward and inverse, host pointers */
            if (!c.inplace) expect_engine(&c, D[i].engine);
            run_case(&c);
        }
    }
    if (quick) return;
    static const int64_t ny[] = {24, 25, 33, 35, 40, 41, 65, 67, 68}, nx[] = {64, 68, 69, 71, 129, 131, 132};
    static const int64_t nz[] = {2, 3, 7, 6};
    int k = 0;
    for (size_t i = 0; i < sizeof ny / sizeof ny[0]; i++)
        for (size_t j = 0; j < sizeof nx / sizeof nx[0]; j++, k++)
            for (int v = 0; v < 4; v++) { /* v 2, 3: the other tile height (float32) */
                gcase c;
                memset(&c, 0, sizeof c);
                c.rank = 3, c.shape[0] = nz[k % 4], c.shape[1] = ny[i], c.shape[2] = nx[j];
                c.w = LW_D4, c.m = LW_SYMMETRIC, c.t = k % 5 == 4 ? LW_FLOAT64 : LW_FLOAT32, c.levels = 1;
                if (v >= 2 && c.t != LW_FLOAT32) continue;
                if (v >= 2) c.tuning = v == 2 ? "tile3d=32x64" : "tile3d=16x64"; /* the forward's, the inverse's other */
                c.scheme = "fused3d", c.dir = (lw_direction)(v & 1), c.devptr = k % 2;
                expect_engine(&c, LWE_FUSED3D);
                run_case(&c);
            }
}

#endif