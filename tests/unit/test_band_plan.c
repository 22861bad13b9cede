/* Row-band plans of the fused 2-D engine (src/core/band_plan.c) on the CPU:
 * for random level-1 geometries the forward always has a plan, and every plan
 * (forward and inverse) covers the plane's rows once, in order, within
 * LW_BANDS_MAX bands, with plane groups covering every plane; an inverse
 * group never writes the lowpass rows a later launch reads, and the first
 * planes' lowpass copy (lead) stays within its bound and, inside `in`, within
 * planes the groups consumed. */
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
    const int64_t N = g->R * g->C, rc1 = g->hr * g->hc;
    CHECK(b.ng >= 0 && b.ng <= LW_BANDS_MAX && b.g[0] == g->nb, "inverse groups start at nb (ng=%d)", b.ng);
    for (int i = 0; i < b.ng; i++)
        CHECK(b.g[i + 1] < b.g[i] && b.g[i + 1] * N >= b.g[i] * rc1,
              "inverse group [%lld, %lld) writes lowpass rows it or a later launch reads", (long long)b.g[i + 1],
              (long long)b.g[i]);
    CHECK(allow || b.stash == 0, "no stash inside `in` unless allowed");
    if (b.lead) {
        CHECK(b.g[b.ng] == b.lead && b.n == 0 && b.x == 0, "lead %lld: the groups end at it, no row bands",
              (long long)b.lead);
        CHECK(b.lead * rc1 <= g->lead_max, "lead copy of %lld samples over its bound %lld", (long long)(b.lead * rc1),
              (long long)g->lead_max);
        CHECK(b.stash == 0 || (b.stash == 2 && b.lead < g->nb && b.lead * rc1 <= (g->nb - b.lead) * N),
              "lead copy inside `in` beyond the consumed planes");
        return;
    }
    CHECK(g->lead_max < rc1, "the first planes' lowpass fits the copy: no row bands needed");
    CHECK(b.g[b.ng] == 1, "inverse groups end at plane 1");
    CHECK(b.n >= 1 && b.n <= LW_BANDS_MAX && b.b[0] == g->R && b.b[b.n] == b.x, "inverse bands span R..x (n=%d)",
          b.n);
    for (int i = 0; i < b.n; i++) CHECK(b.b[i] > b.b[i + 1], "inverse band %d is empty or reversed", i);
    CHECK(b.x >= 0 && b.x < g->R, "stash rows %lld of %lld", (long long)b.x, (long long)g->R);
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
        /* none, or room for 0 .. 5 planes' lowpass */
        g.lead_max = lw_rng_range(0, 1) ? lw_rng_range(0, 5) * g.hr * g.hc + lw_rng_range(0, 100) : 0;
        check_fwd(&g);
        check_inv(&g, 0);
        check_inv(&g, 1);
        n++;
    }
    printf("%d geometries\n", n);
    return lw_test_finish("test_band_plan");
}
