/* The CUDA generic pass runs the adjoint steps on windows of a line: a
 * segment of outputs plus a halo of halo + 1 samples each side (clamped to
 * the line in symmetric mode, unwrapped in periodic mode with several
 * segments), the transposed steps in gather form (src/core/adjoint_step.h,
 * LW_ADJ_WINDOW), and only the segment's own outputs stored.  This test
 * replays that schedule on the host, step for step as k_pass.cu does it (no
 * device here), with short segments so that every line is cut many times,
 * and compares with the reference's scatter form: every wavelet x mode x
 * both adjoints x Mallat / interleaved x lengths 2..130 x segment lengths. */
#include "core/adjoint_step.h"
#include "liftwave.h"
#include "lw_test.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

LW_DEFINE_ADJ_GATHER(adj_window, double, double, static inline, LW_ADJ_WINDOW)

static int64_t mallat_pos(int64_t i, int64_t n) { return (i & 1) ? (n + 1) / 2 + (i >> 1) : (i >> 1); }

/* lwd_adj_step of lw_cuda_dev.cuh */
static double adj_step(const lw_wavelet_def *w, int s, double x, const double *row, int64_t w0, int64_t wl,
                       int64_t pos, int64_t n, int mode, int unwrapped, int dir)
{
    const lw_step *st = &w->steps[s];
    double wt[LW_MAX_TAPS];
    for (int i = 0; i < st->ntaps; i++) wt[i] = dir > 0 ? st->weight[i] : -st->weight[i];
    if (unwrapped || lw_adj_interior(pos, n, lw_adj_reach(st->ntaps, st->offset))) {
        double acc = 0;
        for (int i = 0; i < st->ntaps; i++) acc += wt[i] * LW_ADJ_WINDOW(row, pos - st->offset[i], w0, wl);
        return x + acc;
    }
    return x + adj_window(row, w0, wl, pos, n, mode, st->ntaps, st->offset, wt);
}

/* One level of one line (array order in src, out to dst) as pass_kernel
 * schedules it with segments of seg outputs. */
static void windowed(const lw_wavelet_def *w, lw_mode mode, int mallat, lw_direction dir, const double *src,
                     double *dst, int64_t n, int64_t seg)
{
    const int inverse = dir == LW_FORWARD_ADJOINT, sd = inverse ? 1 : -1; /* pass: inverse != adjoint */
    const int64_t H = w->halo + 1, nseg = (n + seg - 1) / seg;
    const int ext = mode == LW_PERIODIC && nseg > 1;
    double *row = malloc(sizeof(double) * (size_t)(seg + 2 * H + n));
    for (int64_t sg = 0; sg < nseg; sg++) {
        int64_t s0 = sg * seg, s1 = s0 + seg < n ? s0 + seg : n, w0, w1;
        if (nseg == 1) w0 = 0, w1 = n;
        else if (ext) w0 = s0 - H, w1 = s1 + H;
        else w0 = s0 - H > 0 ? s0 - H : 0, w1 = s1 + H < n ? s1 + H : n;
        const int64_t wl = w1 - w0;
        for (int64_t j = 0; j < wl; j++) {
            int64_t pm = ext ? lw_boundary_index(w0 + j, n, LW_PERIODIC) : w0 + j;
            row[j] = src[mallat && inverse ? mallat_pos(pm, n) : pm];
        }
        if (inverse)
            for (int64_t j = 0; j < wl; j++) row[j] *= ((w0 + j) & 1) ? w->zeta_high : w->zeta_low;
        for (int ss = 0; ss < w->nsteps; ss++) {
            int s = inverse ? w->nsteps - 1 - ss : ss, par = !w->steps[s].target_odd;
            int64_t first = w0 + (((int)(w0 & 1)) != par ? 1 : 0);
            for (int64_t pos = first; pos < w1; pos += 2)
                row[pos - w0] = adj_step(w, s, row[pos - w0], row, w0, wl, pos, n, mode, ext, sd);
        }
        if (!inverse)
            for (int64_t j = 0; j < wl; j++) row[j] /= ((w0 + j) & 1) ? w->zeta_high : w->zeta_low;
        for (int64_t pos = s0; pos < s1; pos++) dst[mallat && !inverse ? mallat_pos(pos, n) : pos] = row[pos - w0];
    }
    free(row);
}

/* The reference: the same level through lw_ref_lift_line_f. */
static void reference(const lw_wavelet_def *w, lw_mode mode, int mallat, lw_direction dir, const double *src,
                      double *dst, int64_t n)
{
    double *x = malloc(sizeof(double) * (size_t)n);
    for (int64_t i = 0; i < n; i++) x[i] = src[mallat && dir == LW_FORWARD_ADJOINT ? mallat_pos(i, n) : i];
    lw_ref_lift_line_f(w, mode, x, n, dir);
    for (int64_t i = 0; i < n; i++) dst[mallat && dir == LW_INVERSE_ADJOINT ? mallat_pos(i, n) : i] = x[i];
    free(x);
}

int main(void)
{
    lw_test_seed(1919);
    static const int64_t segs[] = {4, 6, 10, 16, 1 << 20};
    long cases = 0;
    for (int wi = 0; wi < LW_WAVELET_COUNT; wi++) {
        const lw_wavelet_def *w = lw_wavelet_get((lw_wavelet)wi);
        for (int m = 0; m < 2; m++)
            for (int mallat = 0; mallat < 2; mallat++)
                for (int d = LW_FORWARD_ADJOINT; d <= LW_INVERSE_ADJOINT; d++)
                    for (int64_t n = 2; n <= 130; n++) {
                        if (m == LW_PERIODIC && (n & 1)) continue;
                        double *x = malloc(sizeof(double) * (size_t)n), *a = malloc(sizeof(double) * (size_t)n),
                               *b = malloc(sizeof(double) * (size_t)n);
                        for (int64_t i = 0; i < n; i++) x[i] = lw_rng_unit() * 2 - 1;
                        reference(w, (lw_mode)m, mallat, (lw_direction)d, x, a, n);
                        for (size_t si = 0; si < sizeof segs / sizeof segs[0]; si++) {
                            windowed(w, (lw_mode)m, mallat, (lw_direction)d, x, b, n, segs[si]);
                            double err = 0;
                            for (int64_t i = 0; i < n; i++) err = fmax(err, fabs(a[i] - b[i]));
                            CHECK(err <= 1e-13, "%s %s %s %s n %lld seg %lld: max diff %g", w->name,
                                  m ? "periodic" : "symmetric", mallat ? "mallat" : "interleaved",
                                  d == LW_FORWARD_ADJOINT ? "forward-adjoint" : "inverse-adjoint", (long long)n,
                                  (long long)segs[si], err);
                            cases++;
                        }
                        free(x), free(a), free(b);
                    }
    }
    CHECK(cases > 5000, "only %ld cases", cases);
    printf("%ld windowed lines against the reference\n", cases);
    return lw_test_finish("adjoint_window");
}
