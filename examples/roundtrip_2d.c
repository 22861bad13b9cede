/* Smallest complete use of libliftwave: plan a 2-D CDF 9/7 pyramid, run it
 * forward and back, report the round-trip error.  Build against an installed
 * liftwave with:  cc roundtrip_2d.c $(pkg-config --cflags --libs liftwave) -lm */
#include <liftwave.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    enum { H = 61, W = 100 };
    float *img = malloc(sizeof(float) * H * W), *coef = malloc(sizeof(float) * H * W);
    if (!img || !coef) return 1;
    for (int i = 0; i < H * W; i++) img[i] = (float)((i * 7919) % 256);

    lw_config cfg;
    lw_config_init(&cfg);
    cfg.rank = 2;
    cfg.shape[0] = H;
    cfg.shape[1] = W;
    cfg.levels = LW_LEVELS_MAX;
    cfg.backend = LW_BACKEND_CPU;
    lw_plan *fwd = NULL, *inv = NULL;
    if (lw_plan_create(&fwd, &cfg) != LW_OK) {
        fprintf(stderr, "plan: %s\n", lw_last_error());
        return 1;
    }
    cfg.direction = LW_INVERSE;
    if (lw_plan_create(&inv, &cfg) != LW_OK) {
        fprintf(stderr, "plan: %s\n", lw_last_error());
        return 1;
    }
    lw_status s = lw_execute(fwd, img, coef);
    if (s == LW_OK) s = lw_execute(inv, coef, coef);
    if (s != LW_OK) {
        fprintf(stderr, "execute: %s\n", lw_last_error());
        return 1;
    }
    double err = 0;
    for (int i = 0; i < H * W; i++) err = fmax(err, fabs(coef[i] - img[i]));
    printf("liftwave %s: %d levels, max round-trip error %.3g\n", lw_version(), lw_plan_config(fwd)->levels, err);
    lw_destroy(fwd);
    lw_destroy(inv);
    free(img);
    free(coef);
    return err < 1e-3 ? 0 : 1;
}
