/* test_gpu's batch cases of the fused 2-D engine (included by test_gpu.c after make and run_case). */
#ifndef LW_TEST_GPU_BATCH_CASES_H
#define LW_TEST_GPU_BATCH_CASES_H

/* The batched inverse's first level on the fused 2-D engine (tile2d_bands.c): plane
 * groups, last first, each reading its lowpass inside the output, the first planes
 * from a copy in scratch (device input) or inside the input (host pointers: its device
 * copy is the plan's).  The copy's bound (tuning tile2d_lead_kb) moves the split: under
 * a plane's lowpass the planes run in row bands, from one plane the groups, and from
 * the lowpass bands' size every plane reads its lowpass from scratch in one launch. */
static void lead_cases(int quick)
{
    static const int64_t S[][3] = {{16, 64, 64}, {9, 130, 66}, {40, 32, 48}, {5, 200, 72}, {3, 90, 1000}};
    static const int KB[] = {1, 4, 24, 16384};
    static const struct {
        lw_wavelet w;
        lw_dtype t;
    } WT[] = {{LW_CDF97, LW_FLOAT32}, {LW_D4, LW_FLOAT32}, {LW_HAAR, LW_FLOAT64}, {LW_DD137, LW_FLOAT32},
              {LW_CDF53, LW_INT32},   {LW_DD97, LW_FLOAT32}};
    const int ns = (int)(sizeof S / sizeof S[0]), nk = (int)(sizeof KB / sizeof KB[0]);
    const int nw = (int)(sizeof WT / sizeof WT[0]);
    long before = g_cases;
    for (int i = 0; i < (quick ? 2 : ns); i++)
        for (int k = 0; k < nk; k++)
            for (int v = 0; v < 4; v++) {
                gcase c;
                memset(&c, 0, sizeof c);
                c.rank = 3, c.naxes = 2, c.axes[0] = 1, c.axes[1] = 2;
                for (int a = 0; a < 3; a++) c.shape[a] = S[i][a];
                c.w = WT[(i + k + v) % nw].w, c.t = WT[(i + k + v) % nw].t, c.m = (lw_mode)(v >> 1);
                c.levels = 2 + (i + k) % 2, c.dir = LW_INVERSE, c.devptr = v & 1, c.scheme = "tile2d";
                const int64_t q = ((int64_t)1 << c.levels) - 1; /* periodic, haar: even lengths at every level */
                if (c.m == LW_PERIODIC || c.w == LW_HAAR) c.shape[1] = (c.shape[1] + q) & ~q, c.shape[2] = (c.shape[2] + q) & ~q;
                char tune[48];
                snprintf(tune, sizeof tune, "tile2d_lead_kb=%d", KB[k]);
                c.tuning = tune;
                /* the route the bound gives: a plane's lowpass in bytes against it */
                const int64_t rc1 = (c.shape[1] + 1) / 2 * ((c.shape[2] + 1) / 2) * (c.t == LW_FLOAT64 ? 8 : 4);
                const char *want = KB[k] == 16384 ? NULL : ((int64_t)KB[k] << 10) >= rc1 ? "plane groups" : "row bands";
                lw_plan *p = NULL;
                char d[4096] = "";
                CHECK(make(&p, &c, c.levels, LW_BACKEND_CUDA) == LW_OK && lw_plan_describe(p, d, sizeof d) == LW_OK,
                      "lead case %d/%d: %s", i, k, lw_last_error());
                if (!p) continue;
                CHECK(lw_cuda_plan_engine(p) == LWE_TILE2D, "lead case %d/%d: engine %s", i, k,
                      engine_name(lw_cuda_plan_engine(p)));
                if (want) CHECK(strstr(d, want) != NULL, "lead case %d/%d (%s): no %s in\n%s", i, k, tune, want, d);
                else CHECK(!strstr(d, "plane groups") && !strstr(d, "row bands"), "lead case %d/%d: bands in\n%s", i,
                           k, d);
                lw_destroy(p);
                run_case(&c);
            }
    printf("batched inverse's first level (tile2d_lead_kb): %ld cases\n", g_cases - before);
}

/* A batch in groups, each on a stream of the plan's own (tuning tile2d_groups): every
 * group count on batches it divides evenly or not, forward and inverse, one to three
 * levels, float32, float64 and int32, both modes, device pointers (the route the key
 * takes, named by the plan's description) and host pointers, a rank-4 batch (groups
 * along its first dimension), and a CUDA graph capturing the fork and join. */
static void group_cases(int quick)
{
    static const int64_t S[][5] = {{3, 7, 64, 96}, {3, 12, 130, 70}, {3, 5, 33, 300}, {4, 3, 2, 40, 36}, {3, 2, 64, 64}};
    static const struct {
        lw_wavelet w;
        lw_dtype t;
    } WT[] = {{LW_CDF97, LW_FLOAT32}, {LW_DD137, LW_FLOAT32}, {LW_CDF53, LW_INT32}, {LW_D4, LW_FLOAT32},
              {LW_HAAR, LW_FLOAT64},  {LW_DD97, LW_FLOAT32}};
    const int ns = (int)(sizeof S / sizeof S[0]), nw = (int)(sizeof WT / sizeof WT[0]);
    long before = g_cases;
    for (int i = 0; i < (quick ? 2 : ns); i++)
        for (int G = 2; G <= 4; G++)
            for (int v = 0; v < 8; v++) {
                gcase c;
                memset(&c, 0, sizeof c);
                c.rank = (int)S[i][0];
                for (int a = 0; a < c.rank; a++) c.shape[a] = S[i][1 + a];
                c.naxes = 2, c.axes[0] = c.rank - 2, c.axes[1] = c.rank - 1;
                c.w = WT[(i + G + v) % nw].w, c.t = WT[(i + G + v) % nw].t, c.m = (lw_mode)((v >> 1) & 1);
                c.levels = 1 + (i + v) % 3, c.dir = (lw_direction)(v & 1), c.devptr = v < 6, c.graph = v == 5;
                const int64_t q = ((int64_t)1 << c.levels) - 1; /* periodic, haar: even lengths at every level */
                if (c.m == LW_PERIODIC || c.w == LW_HAAR)
                    for (int a = c.rank - 2; a < c.rank; a++) c.shape[a] = (c.shape[a] + q) & ~q;
                c.scheme = "tile2d";
                char tune[48];
                snprintf(tune, sizeof tune, "tile2d_groups=%d", G);
                c.tuning = tune;
                lw_plan *p = NULL;
                char d[4096] = "";
                if (make(&p, &c, c.levels, LW_BACKEND_CUDA) != LW_OK) { /* the engine may not take the shape */
                    CHECK(strstr(lw_last_error(), "does not apply") != NULL, "group case %d/%d: %s", i, G, lw_last_error());
                    continue;
                }
                lw_plan_describe(p, d, sizeof d);
                /* device pointers take the groups where the batch has G items and no level goes to the small
                 * engine (host pointers: also unless level 1 runs in bands) */
                const int want = S[i][1] >= G && !strstr(d, "tail: small engine");
                if (c.devptr)
                    CHECK(want == (strstr(d, "groups along its first dimension") != NULL), "group case %d/%d (%s): %s\n%s",
                          i, G, tune, want ? "no groups" : "groups", d);
                lw_destroy(p);
                run_case(&c);
            }
    /* the auto rule: two groups on forward pyramids of at least two levels over at least 16 items
     * and 16 Mi samples; one group on the inverse, on fewer levels, items or samples */
    static const struct {
        int64_t b, r, c;
        int levels;
        lw_direction dir;
        int groups;
    } A[] = {{64, 512, 512, 3, LW_FORWARD, 1}, {64, 512, 512, 3, LW_INVERSE, 0}, {64, 512, 512, 2, LW_FORWARD, 1},
             {64, 512, 512, 1, LW_FORWARD, 0}, {15, 2048, 544, 3, LW_FORWARD, 0}, {64, 256, 512, 3, LW_FORWARD, 0}};
    for (int i = 0; i < (int)(sizeof A / sizeof A[0]); i++) {
        gcase c;
        memset(&c, 0, sizeof c);
        c.rank = 3, c.shape[0] = A[i].b, c.shape[1] = A[i].r, c.shape[2] = A[i].c;
        c.naxes = 2, c.axes[0] = 1, c.axes[1] = 2;
        c.w = LW_CDF97, c.t = LW_FLOAT32, c.m = LW_SYMMETRIC, c.levels = A[i].levels, c.dir = A[i].dir, c.devptr = 1;
        lw_plan *p = NULL;
        char d[4096] = "";
        if (make(&p, &c, c.levels, LW_BACKEND_CUDA) != LW_OK) {
            CHECK(0, "auto group case %d: %s", i, lw_last_error());
            continue;
        }
        lw_plan_describe(p, d, sizeof d);
        CHECK(A[i].groups == (strstr(d, "the batch in 2 groups along its first dimension") != NULL),
              "auto group case %d: %s\n%s", i, A[i].groups ? "not in two groups" : "in groups", d);
        lw_destroy(p);
        if (!quick && i == 0) run_case(&c);
    }
    printf("batches in groups on streams (tile2d_groups): %ld cases\n", g_cases - before);
}

#endif
