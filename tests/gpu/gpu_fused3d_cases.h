/* test_gpu's cases of the fused 3-D engine (included by test_gpu.c after
 * expect_engine, before gpu_d4_cases.h, which names the tile variants too). */
#ifndef LW_TEST_GPU_FUSED3D_CASES_H
#define LW_TEST_GPU_FUSED3D_CASES_H

/* the fused 3-D engine's tile variants by name (tuning key tile3d) */
static const char *const t3_var[] = {"tile3d=16x64", "tile3d=16x64-p1", "tile3d=16x64-p3", "tile3d=32x64"};
#define T3_NVAR ((int)(sizeof t3_var / sizeof t3_var[0]))

static void pyramid3d_cases(int quick)
{
    static const struct {
        int64_t n[3];
        lw_wavelet w;
        lw_mode m;
        lw_dtype t;
        int levels;
    } P3[] = {
        {{65, 47, 131}, LW_CDF97, LW_SYMMETRIC, LW_FLOAT32, -1}, {{64, 64, 64}, LW_CDF97, LW_SYMMETRIC, LW_FLOAT32, 3},
        {{40, 36, 72}, LW_CDF53, LW_SYMMETRIC, LW_FLOAT64, 2},   {{32, 48, 64}, LW_HAAR, LW_PERIODIC, LW_FLOAT32, -1},
        {{24, 40, 48}, LW_D4, LW_PERIODIC, LW_FLOAT32, 3},       {{33, 30, 70}, LW_DD97, LW_SYMMETRIC, LW_FLOAT32, 3},
        {{17, 9, 250}, LW_CDF97, LW_SYMMETRIC, LW_FLOAT64, -1},  {{3, 65, 90}, LW_CDF97, LW_SYMMETRIC, LW_FLOAT32, 2},
        {{20, 18, 40}, LW_CDF97, LW_SYMMETRIC, LW_FLOAT32, 3},   {{16, 16, 32}, LW_D4, LW_PERIODIC, LW_FLOAT64, 2},
        {{40, 36, 72}, LW_DD137, LW_SYMMETRIC, LW_FLOAT32, 3},   {{33, 30, 70}, LW_DD137, LW_SYMMETRIC, LW_FLOAT64, -1},
    };
    int n = (int)(sizeof P3 / sizeof P3[0]);
    /* v 0-3: forward and inverse from host and device pointers, and in
     * place; v 4.. (float32): every tile variant named, forward and
     * inverse, device pointers */
    for (int i = quick ? n - 2 : 0; i < n; i++)
        for (int v = 0; v < 4 + 2 * T3_NVAR; v++) {
            if (v >= 4 && P3[i].t != LW_FLOAT32) continue;
            gcase c;
            memset(&c, 0, sizeof c);
            c.rank = 3, c.shape[0] = P3[i].n[0], c.shape[1] = P3[i].n[1], c.shape[2] = P3[i].n[2];
            c.w = P3[i].w, c.t = P3[i].t, c.levels = P3[i].levels, c.m = P3[i].m, c.scheme = "fused3d";
            c.dir = (lw_direction)(v & 1), c.devptr = v >= 2, c.inplace = v == 3;
            if (v >= 4) c.tuning = t3_var[(v - 4) >> 1];
            if (!c.inplace) expect_engine(&c, LWE_FUSED3D);
            run_case(&c);
        }
}

/* Batches of volumes (rank 4 over axes 1..3: (N, Z, Y, X), as (B*C, T, H, W)
 * video batches): one launch a level for every item, the pyramids' octants
 * item after item in the workspace, the small engine's tail over the batch.
 * Named (the small engine takes batches of items it holds whole), every
 * wavelet the engine takes, odd sizes, both modes, float64, forward and
 * inverse from host and device pointers and in place; float32 also in every
 * tile variant; then what auto takes. */
static void batch3d_cases(int quick)
{
    static const struct {
        int64_t n[4];
        lw_wavelet w;
        lw_mode m;
        lw_dtype t;
        int levels;
    } B[] = {
        {{3, 40, 36, 72}, LW_CDF97, LW_SYMMETRIC, LW_FLOAT32, 1}, {{3, 40, 36, 72}, LW_CDF97, LW_SYMMETRIC, LW_FLOAT32, -1},
        {{2, 65, 47, 131}, LW_DD137, LW_SYMMETRIC, LW_FLOAT32, 2}, {{4, 24, 40, 48}, LW_D4, LW_PERIODIC, LW_FLOAT32, 2},
        {{2, 33, 30, 70}, LW_DD97, LW_SYMMETRIC, LW_FLOAT64, -1},  {{5, 20, 18, 40}, LW_CDF53, LW_SYMMETRIC, LW_FLOAT32, 3},
        {{3, 16, 16, 32}, LW_HAAR, LW_PERIODIC, LW_FLOAT32, 2},    {{2, 17, 9, 250}, LW_CDF97, LW_SYMMETRIC, LW_FLOAT64, 1},
        {{7, 9, 20, 34}, LW_CDF97, LW_SYMMETRIC, LW_FLOAT32, 2},   {{2, 40, 64, 128}, LW_D4, LW_SYMMETRIC, LW_FLOAT32, 1},
    };
    const int n = (int)(sizeof B / sizeof B[0]);
    for (int i = 0; i < n; i++)
        for (int v = 0; v < 4 + 2 * T3_NVAR; v++) {
            if (v >= 4 && (B[i].t != LW_FLOAT32 || (quick && v > 5))) continue;
            gcase c;
            memset(&c, 0, sizeof c);
            c.rank = 4, c.naxes = 3, c.axes[0] = 1, c.axes[1] = 2, c.axes[2] = 3;
            for (int a = 0; a < 4; a++) c.shape[a] = B[i].n[a];
            c.w = B[i].w, c.t = B[i].t, c.levels = B[i].levels, c.m = B[i].m, c.scheme = "fused3d";
            c.dir = (lw_direction)(v & 1), c.devptr = v >= 2, c.inplace = v == 3;
            if (v >= 4) c.tuning = t3_var[(v - 4) >> 1];
            if (!c.inplace) expect_engine(&c, LWE_FUSED3D);
            run_case(&c);
        }
    /* auto: the fused engine for items the small engine does not hold, the small one for those it does */
    static const struct {
        int64_t n[4];
        int levels, engine;
    } A[] = {{{2, 64, 64, 64}, 2, LWE_FUSED3D}, {{3, 33, 70, 130}, -1, LWE_FUSED3D}, {{6, 8, 16, 16}, 2, LWE_SMALL}};
    for (size_t i = 0; i < sizeof A / sizeof A[0]; i++)
        for (int v = 0; v < 4; v++) {
            gcase c;
            memset(&c, 0, sizeof c);
            c.rank = 4, c.naxes = 3, c.axes[0] = 1, c.axes[1] = 2, c.axes[2] = 3;
            for (int a = 0; a < 4; a++) c.shape[a] = A[i].n[a];
            c.w = LW_CDF97, c.t = LW_FLOAT32, c.levels = A[i].levels, c.m = LW_SYMMETRIC;
            c.dir = (lw_direction)(v & 1), c.devptr = v >= 2;
            expect_engine(&c, A[i].engine);
            run_case(&c);
        }
}

/* The fused 3-D engine's planes by the tensor memory accelerator (float32,
 * symmetric mode, rows 16-byte aligned: x a multiple of 4), each
 * case also with the threads' copies (tuning tile3d_load=threads), so both
 * paths meet the reference: every wavelet the engine takes, one level and
 * pyramids (the inverse then reads the octant apart through its own map),
 * edge tiles with a few rows or columns, lines just over twice the reach
 * (the mirror images at both ends in one window), z shorter than the
 * pipeline.  The inverse takes TMA where x / 2 is a multiple of 4 too (6 x 14 x
 * 16, 100 x 33 x 64, 4 x 18 x 24, 64 x 40 x 200); on the other shapes it
 * falls back to the threads' copies.  Then the forwards staged and serial
 * (tile3d_stages; auto takes one of them, the inverses are always staged) and every tile variant
 * named (TMA takes each), both directions, one level; then the auto choices
 * of either memory's ranking (tile3d_defaults: the device picks one of them
 * unnamed, so the other runs only where named), both directions, one level
 * and pyramids; last, batches of volumes as the first cases.  quick: a
 * subset for the sanitizers. */
static void tma3d_cases(int quick)
{
    static const int64_t N[][3] = {{37, 50, 68}, {16, 34, 132}, {6, 14, 16}, {100, 33, 64},
                                   {21, 97, 260}, {4, 18, 24},   {64, 40, 200}};
    static const lw_wavelet W[] = {LW_CDF97, LW_CDF53, LW_DD137, LW_D4, LW_DD97, LW_HAAR};
    const int nn = quick ? 3 : (int)(sizeof N / sizeof N[0]), nw = quick ? 3 : (int)(sizeof W / sizeof W[0]);
    for (int i = 0; i < nn; i++)
        for (int j = 0; j < nw; j++)
            for (int v = 0; v < 20 + 2 * T3_NVAR; v++) {
                /* haar runs on this engine in symmetric mode on even lengths only */
                if (W[j] == LW_HAAR && ((N[i][0] | N[i][1] | N[i][2]) & 1)) continue;
                gcase c;
                memset(&c, 0, sizeof c);
                c.rank = 3, c.shape[0] = N[i][0], c.shape[1] = N[i][1], c.shape[2] = N[i][2];
                c.w = W[j], c.t = LW_FLOAT32, c.m = LW_SYMMETRIC, c.scheme = "fused3d";
                /* v 8..11: the forward staged and serial, one level and max levels */
                const int stages = v >= 8 && v < 12, ranked = v >= 12 + 2 * T3_NVAR;
                c.dir = stages ? LW_FORWARD : (lw_direction)(v & 1);
                c.levels = ((v < 8 || ranked) && (v & 2)) || (stages && (v & 1)) ? -1 : 1, c.devptr = !(i == 1 && v < 4);
                c.tuning = ranked   ? ((v & 4) ? "tile3d_defaults=wide" : "tile3d_defaults=narrow")
                           : v >= 12 ? t3_var[(v - 12) >> 1]
                           : stages ? (v < 10 ? "tile3d_stages=staged" : "tile3d_stages=serial")
                           : (v & 4) ? "tile3d_load=threads"
                                     : NULL;
                expect_engine(&c, LWE_FUSED3D);
                run_case(&c);
            }
    /* batches of volumes (axes 1..3): the item is the maps' fourth dimension;
     * the pyramids' octants pass between levels compact, items n0 n1 n2 apart
     * (TMA where that is a multiple of 4 samples) */
    static const int64_t NB[][4] = {{3, 16, 34, 132}, {2, 21, 40, 64}, {4, 6, 14, 16}};
    const int nb = quick ? 1 : (int)(sizeof NB / sizeof NB[0]);
    for (int i = 0; i < nb; i++)
        for (int j = 0; j < nw; j++)
            for (int v = 0; v < 12; v++) { /* v 8..11: the 16 x 64 and 32 x 64 tiles named */
                if (W[j] == LW_HAAR && ((NB[i][1] | NB[i][2] | NB[i][3]) & 1)) continue;
                gcase c;
                memset(&c, 0, sizeof c);
                c.rank = 4, c.naxes = 3, c.axes[0] = 1, c.axes[1] = 2, c.axes[2] = 3;
                for (int a = 0; a < 4; a++) c.shape[a] = NB[i][a];
                c.w = W[j], c.t = LW_FLOAT32, c.m = LW_SYMMETRIC, c.scheme = "fused3d";
                c.dir = (lw_direction)(v & 1), c.levels = (v & 2) ? -1 : 1, c.devptr = 1;
                c.tuning = v >= 8 ? t3_var[v < 10 ? 0 : 3] : (v & 4) ? "tile3d_load=threads" : NULL;
                expect_engine(&c, LWE_FUSED3D);
                run_case(&c);
            }
}

/* The fused 3-D engine: one level on odd sizes and the pyramids, every tile
 * variant by name (float32), the batches of volumes, the other plane orders. */
static void fused3d_cases(void)
{
    /* the fused 3-D engine (streams (y, x) tiles along z): odd sizes, sizes under
     * one tile, z shorter than the pipeline's depth, many runs along z, periodic,
     * float64, every wavelet it takes; each case must reach the engine */
    static const struct {
        int64_t n[3];
        lw_wavelet w;
        lw_mode m;
        lw_dtype t;
    } F3[] = {
        {{65, 47, 131}, LW_CDF97, LW_SYMMETRIC, LW_FLOAT32},  {{20, 30, 30}, LW_CDF53, LW_SYMMETRIC, LW_FLOAT32},
        {{34, 66, 130}, LW_HAAR, LW_PERIODIC, LW_FLOAT32},    {{18, 36, 72}, LW_D4, LW_PERIODIC, LW_FLOAT32},
        {{2, 80, 100}, LW_CDF97, LW_SYMMETRIC, LW_FLOAT32},   {{3, 65, 90}, LW_CDF97, LW_SYMMETRIC, LW_FLOAT32},
        {{4, 18, 200}, LW_D4, LW_PERIODIC, LW_FLOAT32},       {{2, 50, 130}, LW_HAAR, LW_PERIODIC, LW_FLOAT32},
        {{5, 17, 150}, LW_CDF53, LW_SYMMETRIC, LW_FLOAT32},   {{7, 9, 250}, LW_CDF97, LW_SYMMETRIC, LW_FLOAT32},
        {{101, 20, 40}, LW_CDF97, LW_SYMMETRIC, LW_FLOAT32},  {{40, 40, 40}, LW_CDF97, LW_PERIODIC, LW_FLOAT32},
        {{66, 33, 67}, LW_CDF53, LW_SYMMETRIC, LW_FLOAT32},   {{30, 20, 66}, LW_HAAR, LW_SYMMETRIC, LW_FLOAT32},
        {{13, 20, 34}, LW_CDF97, LW_SYMMETRIC, LW_FLOAT64},   {{12, 20, 34}, LW_D4, LW_PERIODIC, LW_FLOAT64},
        {{31, 17, 33}, LW_CDF53, LW_SYMMETRIC, LW_FLOAT64},   {{10, 24, 40}, LW_HAAR, LW_SYMMETRIC, LW_FLOAT64},
        {{3, 41, 77}, LW_CDF97, LW_SYMMETRIC, LW_FLOAT64},    {{37, 29, 70}, LW_DD137, LW_SYMMETRIC, LW_FLOAT32},
        {{20, 26, 40}, LW_DD137, LW_PERIODIC, LW_FLOAT32},    {{13, 15, 31}, LW_DD137, LW_SYMMETRIC, LW_FLOAT64},
        {{4, 30, 90}, LW_DD137, LW_SYMMETRIC, LW_FLOAT32},    {{70, 5, 9}, LW_DD137, LW_SYMMETRIC, LW_FLOAT32},
    };
    /* v 0-3: forward and inverse from host and device pointers, and in place;
     * v 4-11 (float32): every tile variant named, forward and inverse */
    for (size_t i = 0; i < sizeof F3 / sizeof F3[0]; i++)
        for (int v = 0; v < 4 + 2 * T3_NVAR; v++) {
            if (v >= 4 && F3[i].t != LW_FLOAT32) continue;
            gcase c;
            memset(&c, 0, sizeof c);
            c.rank = 3, c.shape[0] = F3[i].n[0], c.shape[1] = F3[i].n[1], c.shape[2] = F3[i].n[2];
            c.w = F3[i].w, c.t = F3[i].t, c.levels = 1, c.m = F3[i].m;
            c.dir = (lw_direction)(v & 1), c.devptr = v >= 2, c.inplace = v == 3;
            if (v >= 4) c.tuning = t3_var[(v - 4) >> 1];
            /* named: haar volumes of even lengths take the local engine by default */
            if (c.w == LW_DD137 || c.w == LW_HAAR) c.scheme = "fused3d";
            if (!c.inplace) expect_engine(&c, LWE_FUSED3D);
            run_case(&c);
        }
    /* the fused 3-D engine by name on pyramids: the lowpass octant passes
     * from level to level through compact buffers (odd sizes, max levels down
     * to 2-sample axes, periodic, float64, every wavelet it takes) */
    pyramid3d_cases(0);
    batch3d_cases(0);
    tma3d_cases(0);
    /* runs along z named (tile3d_zruns): one run a tile, several with a short
     * last one or empty ones, more than the pairs (clamped); d4 refreshes its
     * mirror at the z ends of each run's window */
    static const int64_t Z3[][3] = {{65, 47, 131}, {37, 29, 70}, {40, 40, 72}, {9, 24, 80}};
    static const lw_wavelet ZW[] = {LW_CDF97, LW_DD137, LW_D4, LW_CDF53};
    static const char *zr[] = {"tile3d_zruns=1", "tile3d_zruns=3", "tile3d_zruns=7", "tile3d_zruns=1024"};
    for (int i = 0; i < 4; i++)
        for (int v = 0; v < 8; v++) {
            gcase c;
            memset(&c, 0, sizeof c);
            c.rank = 3, c.shape[0] = Z3[i][0], c.shape[1] = Z3[i][1], c.shape[2] = Z3[i][2];
            c.w = ZW[i], c.t = LW_FLOAT32, c.m = LW_SYMMETRIC, c.scheme = "fused3d", c.devptr = 1;
            c.dir = (lw_direction)(v & 1), c.levels = (v >> 1) == 1 ? -1 : 1, c.tuning = zr[v >> 1];
            expect_engine(&c, LWE_FUSED3D);
            run_case(&c);
        }
    /* the other 3-D plane order */
    static const int64_t S3[][3] = {{64, 64, 64}, {66, 96, 130}, {30, 20, 300}};
    static const char *sch[] = {"3d-zx", "3d-yx", "3d-zx"};
    for (int i = 0; i < 3; i++)
        for (int v = 0; v < 4; v++) {
            gcase c;
            memset(&c, 0, sizeof c);
            c.rank = 3, c.shape[0] = S3[i][0], c.shape[1] = S3[i][1], c.shape[2] = S3[i][2];
            c.w = i == 1 ? LW_DD137 : LW_CDF97, c.t = i == 2 ? LW_FLOAT64 : LW_FLOAT32, c.levels = 1;
            c.m = i == 2 ? LW_PERIODIC : LW_SYMMETRIC;
            c.dir = (lw_direction)(v & 1), c.devptr = v >= 2, c.inplace = v == 3, c.scheme = sch[i];
            run_case(&c);
        }
}

#endif
