/* One level of the transform as a pass of slabs along the slowest
 * transformed axis s.  Output rows [a, b) of a slab come from a transform
 * of rows [a - halo, b + halo) (clipped at the array's ends in symmetric
 * mode, wrapped around in periodic mode) through a one-level plan of that
 * slab's shape; the halo is at least the wavelet's reach, so the rows kept
 * never see the slab's cut edges and equal the whole array's.  Slabs start
 * on even rows, so that every row keeps its parity (lowpass or highpass).
 *
 * Row positions along s (all in the region's coordinates):
 *   samples           0 .. N-1
 *   Mallat coeffs     lowpass j at row j (j < NL = ceil(N/2)), highpass j at
 *                     NL + j; a slab of m rows holds its own lowpass in
 *                     rows [0, ceil(m/2)) and highpass after them
 *   interleaved       coefficient at its sample position */
#include "lw_stream.h"

#include <stdlib.h>
#include <string.h>

static int64_t mod(int64_t x, int64_t m) { return ((x % m) + m) % m; }

/* Read count rows starting at (unwrapped) index start of a sequence of
 * `period` rows that begins at region row `base` into buffer rows from
 * brow, wrapping around the period; then lay the overlay over them. */
static int read_wrapped(const lw_spass *p, int64_t base, int64_t period, int64_t start, int64_t count, void *buf,
                        int64_t brows, int64_t brow, void *otmp)
{
    lw_dtype wt = p->cfg1->dtype;
    while (count > 0) {
        int64_t i = mod(start, period);
        int64_t k = period - i < count ? period - i : count;
        if (lw_sview_read_rows(p->src, p->s, base + i, k, buf, wt, brows, brow, p->io) != 0) return -1;
        if (p->overlay && lw_sview_overlay_rows(p->overlay, p->ostep, p->src, p->s, base + i, k, buf, wt, brows, brow,
                                                otmp, p->io) != 0)
            return -1;
        start += k;
        count -= k;
        brow += k;
    }
    return 0;
}

static int write_rows(const lw_spass *p, int64_t row0, int64_t n, const void *buf, int64_t brows, int64_t brow)
{
    return lw_sview_write_rows(p->dst, p->s, row0, n, buf, p->cfg1->dtype, brows, brow, p->io);
}

int lw_stream_pass(const lw_spass *p)
{
    const lw_config *c1 = p->cfg1;
    int s = p->s;
    int64_t N = c1->shape[s], h = p->halo, R = p->slab_rows;
    int periodic = c1->mode == LW_PERIODIC, mallat = c1->layout == LW_MALLAT, fwd = c1->direction == LW_FORWARD;
    int64_t NL = (N + 1) / 2;
    int64_t outer = lw_sview_outer(p->src, s), inner = lw_sview_inner(p->src, s);
    size_t es = lw_dtype_size(c1->dtype);
    int whole = R + 2 * h >= N;
    int64_t maxm = whole ? N : R + 2 * h;
    /* out of place: an in-place execute would copy the slab first */
    void *buf = malloc((size_t)(outer * maxm * inner) * es), *res = malloc((size_t)(outer * maxm * inner) * es);
    void *otmp = NULL;
    if (p->overlay) otmp = malloc((size_t)(outer * lw_sview_inner(p->overlay, s)) * es);
    if (!buf || !res || (p->overlay && !otmp)) {
        free(buf);
        free(res);
        free(otmp);
        return lw_io_fail(p->io->err, sizeof p->io->err, "out of memory (slab of %lld rows)", (long long)maxm);
    }
    lw_plan *plan = NULL;
    int64_t plan_m = -1;
    int rc = 0;
    for (int64_t a = 0, b; a < N && rc == 0; a = b) {
        int64_t e, f;
        if (whole) {
            e = 0;
            b = f = N;
        } else {
            b = a + R < N ? a + R : N;
            e = a - h;
            f = b + h;
            if (!periodic) {
                if (e < 0) e = 0;
                if (f > N) f = N;
            }
        }
        int64_t m = f - e, mL = (m + 1) / 2;
        if (m != plan_m) {
            lw_destroy(plan);
            plan = NULL;
            lw_config c = *c1;
            c.shape[s] = m;
            if (lw_plan_create(&plan, &c) != LW_OK) {
                rc = lw_io_fail(p->io->err, sizeof p->io->err, "%s", lw_last_error());
                break;
            }
            plan_m = m;
        }
        if (fwd || !mallat) {
            rc = read_wrapped(p, 0, N, e, m, buf, m, 0, otmp);
        } else {
            rc = read_wrapped(p, 0, NL, e / 2, mL, buf, m, 0, otmp);
            if (rc == 0) rc = read_wrapped(p, NL, N - NL, e / 2, m - mL, buf, m, mL, otmp);
        }
        if (rc != 0) break;
        if (lw_execute(plan, buf, res) != LW_OK) {
            rc = lw_io_fail(p->io->err, sizeof p->io->err, "%s", lw_last_error());
            break;
        }
        if (fwd && mallat) {
            int64_t lo = a / 2, nl = (b + 1) / 2 - lo, nh = b / 2 - lo;
            rc = write_rows(p, lo, nl, res, m, (a - e) / 2);
            if (rc == 0) rc = write_rows(p, NL + lo, nh, res, m, mL + (a - e) / 2);
        } else {
            rc = write_rows(p, a, b - a, res, m, a - e);
        }
        if (p->done) *p->done += (b - a) * outer * inner;
        if (p->progress) p->progress(p->progress_ctx, p->done ? *p->done : 0, p->total);
    }
    lw_destroy(plan);
    free(buf);
    free(res);
    free(otmp);
    return rc;
}
