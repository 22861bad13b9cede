/* Reference 1-D lifting of one line, one level, in interleaved order.
 * Written for clarity: every neighbour goes through the boundary mode. */
#include "../core/lw_internal.h"

static double step_sum_f(const lw_step *s, const double *x, int64_t t, int64_t n, lw_mode mode)
{
    double acc = 0.0;
    for (int i = 0; i < s->ntaps; i++) acc += s->weight[i] * x[lw_boundary_index(t + s->offset[i], n, mode)];
    return acc;
}

static int64_t step_delta_i(const lw_step *s, const int64_t *x, int64_t t, int64_t n, lw_mode mode)
{
    int64_t acc = s->iadd;
    for (int i = 0; i < s->ntaps; i++) acc += (int64_t)s->icoef[i] * x[lw_boundary_index(t + s->offset[i], n, mode)];
    return s->isign * lw_floor_shift(acc, s->ishift);
}

void lw_ref_lift_line_f(const lw_wavelet_def *w, lw_mode mode, double *x, int64_t n, int inverse)
{
    if (n < 2) return;
    if (!inverse) {
        for (int k = 0; k < w->nsteps; k++) {
            const lw_step *s = &w->steps[k];
            for (int64_t t = s->target_odd; t < n; t += 2) x[t] += step_sum_f(s, x, t, n, mode);
        }
        for (int64_t t = 0; t < n; t++) x[t] *= (t & 1) ? w->zeta_high : w->zeta_low;
    } else {
        for (int64_t t = 0; t < n; t++) x[t] /= (t & 1) ? w->zeta_high : w->zeta_low;
        for (int k = w->nsteps - 1; k >= 0; k--) {
            const lw_step *s = &w->steps[k];
            for (int64_t t = s->target_odd; t < n; t += 2) x[t] -= step_sum_f(s, x, t, n, mode);
        }
    }
}

void lw_ref_lift_line_i(const lw_wavelet_def *w, lw_mode mode, int64_t *x, int64_t n, int inverse)
{
    if (n < 2) return;
    if (!inverse) {
        for (int k = 0; k < w->nsteps; k++) {
            const lw_step *s = &w->steps[k];
            for (int64_t t = s->target_odd; t < n; t += 2) x[t] += step_delta_i(s, x, t, n, mode);
        }
    } else {
        for (int k = w->nsteps - 1; k >= 0; k--) {
            const lw_step *s = &w->steps[k];
            for (int64_t t = s->target_odd; t < n; t += 2) x[t] -= step_delta_i(s, x, t, n, mode);
        }
    }
}
