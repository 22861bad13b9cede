/* The fused multi-level 2-D engine (stream2d: periodic mode, up to three
 * levels a launch, a thread block a plane) for test_gpu.c: batches of planes
 * of several shapes, every separable wavelet (haar through the named tile2d
 * engine), 1 to max levels (a group of three, then further groups, tile2d
 * levels and the small tail), forward, inverse and both adjoints (the
 * transposed rows), host and device pointers, float32 (the half types:
 * test_gpu_half.c).  Every plan must run a stream2d group. */
static void stream2d_cases(int quick)
{
    static const lw_wavelet ws[] = {LW_CDF53, LW_CDF97, LW_DD137, LW_D4, LW_DD97, LW_HAAR};
    static const int64_t shp[][3] = {{4, 64, 128}, {3, 96, 64}, {2, 160, 512}, {5, 128, 32}, {3, 256, 256}};
    static const int lv[] = {1, 2, 3, 4, -1};
    static const lw_direction dirs[] = {LW_FORWARD, LW_INVERSE, LW_FORWARD_ADJOINT, LW_INVERSE_ADJOINT};
    const long before = g_cases, ran = g_stream2d;
    for (int wi = 0; wi < (int)(sizeof ws / sizeof ws[0]); wi++)
        for (int si = 0; si < (int)(sizeof shp / sizeof shp[0]); si++)
            for (int li = 0; li < (int)(sizeof lv / sizeof lv[0]); li++)
                for (int di = 0; di < 4; di++) {
                    if (quick && (wi + si + li + di) % 6) continue;
                    if (ws[wi] == LW_HAAR && di >= 2) continue; /* its adjoints are its inverse / forward */
                    gcase c;
                    memset(&c, 0, sizeof c);
                    c.rank = 3, c.naxes = 2, c.axes[0] = 1, c.axes[1] = 2;
                    for (int a = 0; a < 3; a++) c.shape[a] = shp[si][a];
                    c.w = ws[wi], c.m = LW_PERIODIC, c.lay = LW_MALLAT, c.t = LW_FLOAT32;
                    c.levels = lv[li], c.dir = dirs[di], c.devptr = (si + di) & 1;
                    c.scheme = ws[wi] == LW_HAAR ? "tile2d" : NULL;
                    c.tuning = "stream2d=on";
                    const long s0 = g_stream2d;
                    run_case(&c);
                    CHECK(g_stream2d > s0, "stream2d case %s %lldx%lldx%lld levels %d dir %d ran no stream2d group",
                          lw_wavelet_name(c.w), (long long)c.shape[0], (long long)c.shape[1], (long long)c.shape[2],
                          c.levels, (int)c.dir);
                }
    /* one image (no batch), host pointers: the host pipeline's bands, then the groups */
    for (int di = 0; di < 2; di++) {
        gcase c;
        memset(&c, 0, sizeof c);
        c.rank = 2, c.shape[0] = 384, c.shape[1] = 512, c.w = LW_CDF97, c.m = LW_PERIODIC, c.t = LW_FLOAT32;
        c.levels = 4, c.dir = dirs[di], c.devptr = 0, c.tuning = "stream2d=on";
        run_case(&c);
    }
    printf("stream2d cases: %ld run, %ld by the engine\n", g_cases - before, g_stream2d - ran);
}
