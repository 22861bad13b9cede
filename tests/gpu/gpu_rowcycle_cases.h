/* The Mallat layout's row reorder in place (k_rowcycle.cu), included by
 * test_gpu_inplace.c: row counts whose cycles are few and long (1080 rows: 6
 * cycles of up to 492 rows, 3000: 4 of up to 1499, a batch of planes of 300
 * rows: 7 each), which the plan cuts in segments for the blocks the device
 * holds (each segment's last row handed to the next segment's block by a
 * flag), and counts whose cycles outnumber those blocks (4096 rows: 352
 * cycles of at most 12; 16384: 1182 of at most 14), moved whole.  Mallat
 * layout, in place on device pointers, by the strip walker (inplace=tiles)
 * and the tile kernel (inplace=ring), by turns; cdf97, cdf53 and haar,
 * float32 / float64 / int32, forward and inverse, one level and the maximum,
 * each against the reference.  Levels of both kinds must run. */
static void rowcycle_cases(int quick)
{
    static const shape_case T[] = {
        {2, 0, {0}, {1080, 1920}}, {2, 0, {0}, {3000, 24}},  {3, 2, {1, 2}, {5, 300, 64}},
        {2, 0, {0}, {4096, 40}},   {2, 0, {0}, {16384, 8}},
    };
    static const lw_wavelet W[] = {LW_CDF97, LW_CDF53, LW_HAAR};
    static const char *tunes[] = {"inplace=tiles", "inplace=ring"};
    const long cut0 = g_ip_rc_cut, whole0 = g_ip_rc_whole;
    long k = 0;
    for (size_t si = 0; si < sizeof T / sizeof *T; si++)
        for (size_t w = 0; w < sizeof W / sizeof *W; w++)
            for (int ti = 0; ti < 3; ti++)
                for (int d = 0; d < 2; d++)
                    for (int v = 0; v < 2; v++, k++) {
                        if (quick && k % 4) continue;
                        gcase c = case_of(&T[si], W[w], types[ti], LW_SYMMETRIC, LW_MALLAT, (lw_direction)d,
                                          v == 0 ? 1 : -1, 1);
                        c.tuning = tunes[k % 2];
                        run_case(&c);
                    }
    const long cut = g_ip_rc_cut - cut0, whole = g_ip_rc_whole - whole0;
    printf("in-place row reorder cases: %ld levels along cycles cut in segments, %ld along whole cycles\n", cut, whole);
    CHECK(cut > 0, "no in-place Mallat level cut its row cycles in segments");
    CHECK(whole > 0, "no in-place Mallat level moved its rows along whole cycles");
}
