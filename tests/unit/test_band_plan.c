/* Row-band plans of the fused 2-D engine (src/core/band_plan.c) on the CPU:
 * for random level-1 geometries the forward always has a plan, and every plan
 * (forward and inverse) covers the plane's rows once, in order, within
 * LW_BANDS_MAX bands, with plane groups covering every plane. */
#include "core/band_plan.h"
#include "liftwave.h"
#include "lw_test.h"

static void check_fwd(const lw_band_geo *g)
{
    lw_bands b;
    int ok = lw_bands_plan_fwd(g, &b) == 0;
    CHECK(ok, "forward plan for R=%lld C=%lld H=%d nb=%lld", (long long)g->R, (long long)g->C, g->H,
          (long long)g->nb);
    if (!ok) return;
    CHECK(b.n >= 1 && b.n <= LW_BANDS_MAX && b.b[0] == 0 && b.b[b.n] == g->R, "forward bands span 0..R (n=%d)", b.n);
    for (int i = 0; i < b.n; i++) CHECK(b.b[i] < b.b[i + 1], "forward band %d is empty or reversed", i);
    CHECK(b.ng >= 0 && b.ng <= LW_BANDS_MAX, "forward groups %d", b.ng);
    if (g->nb > 1) {
        CHECK(b.g[0] == 1 && b.g[b.ng] == g->nb, "forward groups span planes 1..nb");
        for (int i = 0; i < b.ng; i++) CHECK(b.g[i] < b.g[i + 1], "forward group %d", i);
    }
}

static void check_inv(const lw_band_geo *g, int allow)
{
    lw_bands b;
    if (lw_bands_plan_inv(g, allow, &b) != 0) return; /* short planes may have none: the caller then uses scratch */
    CHECK(b.n >= 1 && b.n <= LW_BANDS_MAX && b.b[0] == g->R && b.b[b.n] == b.x, "inverse bands span R..x (n=%d)",
          b.n);
    for (int i = 0; i < b.n; i++) CHECK(b.b[i] > b.b[i + 1], "inverse band %d is empty or reversed", i);
    CHECK(b.x >= 0 && b.x < g->R, "stash rows %lld of %lld", (long long)b.x, (long long)g->R);
    CHECK(allow || b.stash == 0, "no stash inside `in` unless allowed");
}

int main(void)
{
    lw_test_seed(4242);
    static const int halos[] = {2, 4, 6};
    int n = 0;
    for (int it = 0; it < 3000; it++) {
        lw_band_geo g = {0};
        g.R = lw_rng_range(16, 3000);
        g.C = lw_rng_range(2, 2000);
        g.mode = (int)lw_rng_range(0, 1);
        if (g.mode == LW_PERIODIC) g.R += g.R & 1, g.C += g.C & 1;
        g.hr = (g.R + 1) / 2, g.hc = (g.C + 1) / 2;
        g.nb = lw_rng_range(0, 3) == 0 ? lw_rng_range(2, 6) : 1;
        g.H = halos[lw_rng_range(0, 2)];
        g.stash_cheap = lw_rng_range(0, 64);
        check_fwd(&g);
        check_inv(&g, 0);
        check_inv(&g, 1);
        n++;
    }
    printf("%d geometries\n", n);
    return lw_test_finish("test_band_plan");
}
