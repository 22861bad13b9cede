/* lw_execute_bands on host memory: every backend that runs here (cpu, cpu-ref,
 * and cuda with host pointers where a device is present) against lw_execute
 * on a Mallat array, bit for bit, on random cases (every wavelet, both modes,
 * float32/float64/int32/half, 1-4 dimensions with batch axes, odd lengths,
 * 0..4 levels, gains, the three band layouts of lw_test_bands.h); then the
 * band geometry and the refusals. */
#include "lw_test_bands.h"

static void geometry(void)
{
    lw_config cfg;
    lw_config_init(&cfg);
    cfg.rank = 3, cfg.shape[0] = 2, cfg.shape[1] = 9, cfg.shape[2] = 6;
    cfg.naxes = 2, cfg.axes[0] = 1, cfg.axes[1] = 2, cfg.levels = 2, cfg.backend = LW_BACKEND_CPU;
    lw_plan *p = NULL;
    CHECK(lw_plan_create(&p, &cfg) == LW_OK, "plan: %s", lw_last_error());
    if (!p) return;
    CHECK(lw_band_count(p) == 7, "2 levels of 2 axes: 7 bands, not %d", lw_band_count(p));
    /* lowpass 9 -> 5 -> 3, 6 -> 3 -> 2 */
    static const int64_t want[7][3] = {{2, 3, 2}, {2, 3, 1}, {2, 2, 2}, {2, 2, 1}, {2, 5, 3}, {2, 4, 3}, {2, 4, 3}};
    static const unsigned wmask[7] = {0, 1, 2, 3, 1, 2, 3};
    static const int wlev[7] = {2, 2, 2, 2, 1, 1, 1};
    for (int i = 0; i < 7; i++) {
        int64_t sh[3];
        int lev;
        unsigned m;
        CHECK(lw_band_shape(p, i, sh, &lev, &m) == LW_OK, "band %d", i);
        CHECK(sh[0] == want[i][0] && sh[1] == want[i][1] && sh[2] == want[i][2] && lev == wlev[i] && m == wmask[i],
              "band %d: shape %lldx%lldx%lld level %d mask %u", i, (long long)sh[0], (long long)sh[1], (long long)sh[2],
              lev, m);
    }
    CHECK(lw_band_shape(p, 7, NULL, NULL, NULL) == LW_ERR_INVALID_ARGUMENT, "band 7 of 7 refused");
    CHECK(lw_band_shape(p, -1, NULL, NULL, NULL) == LW_ERR_INVALID_ARGUMENT, "band -1 refused");
    float x[108] = {0};
    CHECK(lw_execute_bands(p, x, NULL) == LW_ERR_INVALID_ARGUMENT, "NULL bands refused");
    lw_band b[7];
    memset(b, 0, sizeof b);
    CHECK(lw_execute_bands(p, x, b) == LW_ERR_INVALID_ARGUMENT, "NULL band data refused");
    CHECK(lw_execute_bands(NULL, x, b) == LW_ERR_INVALID_ARGUMENT, "NULL plan refused");
    lw_destroy(p);
    cfg.layout = LW_INTERLEAVED;
    CHECK(lw_plan_create(&p, &cfg) == LW_OK, "interleaved plan");
    CHECK(lw_band_count(p) == 0, "interleaved: no bands");
    CHECK(lw_execute_bands(p, x, b) == LW_ERR_INVALID_ARGUMENT, "interleaved refused");
    CHECK(lw_band_shape(p, 0, NULL, NULL, NULL) == LW_ERR_INVALID_ARGUMENT, "interleaved band shape refused");
    lw_destroy(p);
    cfg.layout = LW_MALLAT, cfg.flags = LW_FLAG_IN_PLACE;
    CHECK(lw_plan_create(&p, &cfg) == LW_OK, "in-place plan");
    CHECK(lw_execute_bands(p, x, b) == LW_ERR_INVALID_ARGUMENT, "LW_FLAG_IN_PLACE refused");
    lw_destroy(p);
    CHECK(lw_band_count(NULL) == 0, "NULL plan: 0 bands");
}

int main(void)
{
    geometry();
    static const lw_dtype dts[] = {LW_FLOAT32, LW_FLOAT64, LW_INT32, LW_FLOAT16, LW_BFLOAT16};
    static const lw_backend bks[] = {LW_BACKEND_CPU, LW_BACKEND_CPU_REF, LW_BACKEND_CUDA};
    for (int b = 0; b < 3; b++) {
        if (!lw_backend_available(bks[b])) {
            printf("bands: backend %s not available here: its cases are not run\n", lw_backend_name(bks[b]));
            continue;
        }
        bands_mem m = {0};
        m.backend = bks[b];
        lw_rng_seed(0xba5d + (uint64_t)b);
        int ran = 0, refused = 0;
        for (int i = 0; i < 300; i++) {
            bands_case c;
            bands_random_case(&c, dts, 5, 19);
            if (bands_run_case(&c, &m)) ran++;
            else refused++;
        }
        printf("bands on %s (host memory): %d cases, %d plans refused by the backend\n", lw_backend_name(bks[b]), ran,
               refused);
        CHECK(ran > 200, "%s: only %d of 300 cases ran", lw_backend_name(bks[b]), ran);
    }
    return lw_test_finish("test_bands");
}
