/* The halo a slab needs: how far one level of a wavelet carries the
 * influence of a sample.  Measured on the library itself (an impulse
 * through a one-level transform of a short signal, interleaved so that
 * coefficients stay at their sample positions), so that it follows the
 * wavelet's lifting steps whatever they are; the integer variants use the
 * same steps as the float ones. */
#include "lw_stream.h"

#include <string.h>

#define PROBE_N 64

int lw_stream_halo(lw_wavelet w, lw_direction dir, int64_t *halo, char *err, size_t errlen)
{
    lw_config c;
    lw_config_init(&c);
    c.rank = 1;
    c.shape[0] = PROBE_N;
    c.dtype = LW_FLOAT64;
    c.wavelet = w;
    c.layout = LW_INTERLEAVED;
    c.direction = dir;
    c.backend = LW_BACKEND_CPU_REF;
    lw_plan *p = NULL;
    if (lw_plan_create(&p, &c) != LW_OK) return lw_io_fail(err, errlen, "%s", lw_last_error());
    double x[PROBE_N], y[PROBE_N];
    int64_t reach = 0;
    for (int at = PROBE_N / 2 - 2; at < PROBE_N / 2 + 2; at++) {
        memset(x, 0, sizeof x);
        x[at] = 1.0;
        if (lw_execute(p, x, y) != LW_OK) {
            lw_destroy(p);
            return lw_io_fail(err, errlen, "%s", lw_last_error());
        }
        for (int j = 0; j < PROBE_N; j++)
            if (y[j] != 0.0) {
                int64_t d = j > at ? j - at : at - j;
                if (d > reach) reach = d;
            }
    }
    lw_destroy(p);
    if (reach >= PROBE_N / 2 - 4)
        return lw_io_fail(err, errlen, "wavelet %s reaches too far to be streamed", lw_wavelet_name(w));
    /* a margin of two samples, kept even so that a slab starts on an even row */
    reach += 2;
    *halo = (reach + 1) / 2 * 2;
    return 0;
}
