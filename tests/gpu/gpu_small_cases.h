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
        int64_t n[4];
        const char *scheme; /* NULL: auto, whose plan must name its small tail */
    } S[] = {
        {3, 3, {64, 64, 64}, NULL},          /* fused 3-D to 32^3, the tail from 16^3 */
        {3, 3, {37, 45, 29}, "small"},       /* one item, odd lengths */
        {3, 3, {70, 66, 80}, NULL},          /* fused 3-D, a tail of odd lengths */
        {2, 2, {96, 128}, "small"},          /* lines of 96 and 128 lifted, then matrices */
        {2, 2, {600, 500}, NULL},            /* fused 2-D, its tail */
        {1, 1, {1000}, "small"},             /* one line, lifted to 32, then matrices */
        {4, 3, {3, 20, 18, 21}, "small"},    /* three items */
        {2, 2, {5, 300}, "small"},           /* a line of 5 beside lines of 300 */
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
                for (int a = 0; a < c.rank; a++) c.shape[a] = S[i].n[a];
                for (int a = 0; a < c.naxes; a++) c.axes[a] = c.rank - c.naxes + a;
                c.w = W[wi], c.levels = -1, c.scheme = S[i].scheme;
                c.dir = D[v & 3], c.m = (lw_mode)((v >> 2) & 1), c.lay = (lw_layout)((v >> 3) & 1);
                c.t = T[(i + wi + v) % 3];
                if (c.t == LW_INT32 && (c.dir > LW_INVERSE || !(lw_wavelet_properties(c.w) & LW_WAVELET_INTEGER)))
                    c.t = LW_FLOAT32;
                c.devptr = (k / 3) & 1;
                if (c.m == LW_PERIODIC) /* even lengths at every level */
                    for (int a = 0; a < c.naxes; a++) {
                        int64_t *n = &c.shape[c.rank - c.naxes + a];
                        *n = (*n + 31) & ~(int64_t)31;
                    }
                if (!c.scheme) { /* the fused engines' plans end in a tail */
                    lw_plan *p = NULL;
                    char d[4096] = "";
                    int lmax = 0;
                    lw_max_levels(c.rank, c.shape, c.naxes, c.axes, &lmax);
                    CHECK(make(&p, &c, lmax, LW_BACKEND_CUDA) == LW_OK && lw_plan_describe(p, d, sizeof d) == LW_OK,
                          "small tail case %d: %s", i, lw_last_error());
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
    if (!quick) CHECK(tails >= 20, "small tail cases: only %ld tails after a fused engine", tails);
}

#endif
