/* test_gpu's cases of the small engine's launches of few items (included by test_gpu.c after make and
 * run_case): a pyramid's tail after the fused engines, and whole items of one to three arrays.  There
 * the axes whose lines have at most 32 samples run as the level's matrix (k_small.cu), the others
 * lift; the cases hold both in one launch (lines of 64 and more at the first levels), odd lengths
 * (the boundary folded into the matrix), both modes and layouts, all four directions (the adjoints'
 * transposed steps), float32 and float64, and int32 (always lifted).  The tails are named by the
 * plan's description. */
#ifndef LW_TEST_GPU_SMALL_CASES_H
#define LW_TEST_GPU_SMALL_CASES_H

static void small_tail_cases(int quick)
{
    static const struct {
        int rank, naxes;
        int64_t n[4], np[4];  /* the shape in symmetric mode, in periodic mode (even lengths) */
        const char *scheme; /* NULL: auto, whose fused engine's plan must name its small tail */
    } S[] = {
        {3, 3, {64, 64, 64}, {64, 64, 64}, NULL},            /* fused 3-D to 32^3, the tail from 16^3 */
        {3, 3, {70, 66, 80}, {80, 48, 96}, NULL},            /* fused 3-D, a tail of odd lengths */
        {2, 2, {600, 500}, {608, 512}, NULL},                /* fused 2-D, its tail */
        {3, 3, {13, 17, 19}, {16, 16, 16}, "small"},         /* one item, odd lengths */
        {2, 2, {40, 70}, {48, 64}, "small"},                 /* lines of 64 and more lifted, then matrices */
        {1, 1, {1000}, {1024}, "small"},                     /* one line, lifted down to 32, then matrices */
        {4, 3, {3, 12, 14, 15}, {3, 16, 16, 16}, "small"},   /* three items */
        {2, 2, {5, 300}, {8, 320}, "small"},                 /* a line of 5 beside lines of 300 */
    };
    static const lw_wavelet W[] = {LW_HAAR, LW_CDF53, LW_CDF97, LW_DD137, LW_D4, LW_DD97};
    static const lw_direction D[] = {LW_FORWARD, LW_INVERSE, LW_FORWARD_ADJOINT, LW_INVERSE_ADJOINT};
    static const lw_dtype T[] = {LW_FLOAT32, LW_FLOAT64, LW_INT32};
    const int ns = (int)(sizeof S / sizeof S[0]), nw = (int)(sizeof W / sizeof W[0]);
    long before = g_cases, k = 0, tails = 0;
    for (int i = 0; i < ns; i++)
        for (int wi = 0; wi < nw; wi++)
            for (int v = 0; v < 16; v++, k++) {
                if (k % (quick ? 23 : 3)) continue;
                gcase c;
                memset(&c, 0, sizeof c);
                c.rank = S[i].rank, c.naxes = S[i].naxes;
                c.m = (lw_mode)((v >> 2) & 1);
                for (int a = 0; a < c.rank; a++) c.shape[a] = c.m == LW_PERIODIC ? S[i].np[a] : S[i].n[a];
                for (int a = 0; a < c.naxes; a++) c.axes[a] = c.rank - c.naxes + a;
                c.dir = D[v & 3], c.lay = (lw_layout)((v >> 3) & 1);
                /* the adjoints: as auto routes them (the small engine takes the periodic ones' items) */
                c.w = W[wi], c.levels = -1, c.scheme = c.dir > LW_INVERSE ? NULL : S[i].scheme;
                c.t = T[(i + wi + v) % 3];
                if (c.t == LW_INT32 && (c.dir > LW_INVERSE || !(lw_wavelet_properties(c.w) & LW_WAVELET_INTEGER)))
                    c.t = LW_FLOAT32;
                c.devptr = (k / 3) & 1;
                if (!S[i].scheme) { /* the fused engines' plans end in a tail */
                    lw_plan *p = NULL;
                    char d[4096] = "";
                    int lmax = 0;
                    lw_max_levels(c.rank, c.shape, c.naxes, c.axes, &lmax);
                    lw_status st = make(&p, &c, lmax, LW_BACKEND_CUDA);
                    while (st == LW_ERR_ODD_PERIODIC && lmax > 1) st = make(&p, &c, --lmax, LW_BACKEND_CUDA);
                    CHECK(st == LW_OK && lw_plan_describe(p, d, sizeof d) == LW_OK, "small tail case %d: %s", i,
                          lw_last_error());
                    const int e = p ? lw_cuda_plan_engine(p) : -1;
                    if (e == LWE_TILE2D || e == LWE_FUSED3D) {
                        CHECK(strstr(d, "tail: small engine") != NULL, "small tail case %d: no tail in\n%s", i, d);
                        tails++;
                    }
                    lw_destroy(p);
                }
                run_case(&c);
            }
    printf("small engine, few items (matrices for short lines): %ld cases, %ld tails after a fused engine\n",
           g_cases - before, tails);
    if (!quick) CHECK(tails >= 12, "small tail cases: only %ld tails after a fused engine", tails);
}

#endif
