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

/* The transpose of step s scaled by sign (+1: the step, -1: its inverse), in
 * scatter form, which is its definition: the step adds w_i * x[ext(t + o_i)]
 * to every target t, so its transpose adds w_i * x[t] to x[ext(t + o_i)].
 * Targets are read and sources written (the other parity: offsets are odd and
 * both modes keep parity), so the order of the loop does not matter; near the
 * ends several (t, i) fold onto one source and all of them add up. */
static void step_transpose_f(const lw_step *s, double sign, double *x, int64_t n, lw_mode mode)
{
    for (int64_t t = s->target_odd; t < n; t += 2)
        for (int i = 0; i < s->ntaps; i++) x[lw_boundary_index(t + s->offset[i], n, mode)] += sign * s->weight[i] * x[t];
}

/* One level of a line: F = Z P_n .. P_1 (P_k the steps, Z the scaling) and
 * F^-1; the adjoints F^T = P_1^T .. P_n^T Z and F^-T = Z^-1 P_n^-T .. P_1^-T,
 * where P_k^-1 is step k with its weights negated. */
void lw_ref_lift_line_f(const lw_wavelet_def *w, lw_mode mode, double *x, int64_t n, lw_direction dir)
{
    if (n < 2) return;
    if (dir == LW_FORWARD_ADJOINT) {
        for (int64_t t = 0; t < n; t++) x[t] *= (t & 1) ? w->zeta_high : w->zeta_low;
        for (int k = w->nsteps - 1; k >= 0; k--) step_transpose_f(&w->steps[k], 1.0, x, n, mode);
    } else if (dir == LW_INVERSE_ADJOINT) {
        for (int k = 0; k < w->nsteps; k++) step_transpose_f(&w->steps[k], -1.0, x, n, mode);
        for (int64_t t = 0; t < n; t++) x[t] /= (t & 1) ? w->zeta_high : w->zeta_low;
    } else if (dir == LW_FORWARD) {
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

void lw_ref_lift_line_i(const lw_wavelet_def *w, lw_mode mode, int64_t *x, int64_t n, lw_direction dir)
{
    if (n < 2) return;
    if (dir == LW_FORWARD) { /* integer plans are never adjoint (validated) */
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
