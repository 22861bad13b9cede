/* The fused multi-level 2-D engine's block body without a GPU: st2's
 * schedule, fetch, vertical and horizontal phases (src/cuda/stream2d_body.cuh,
 * the code the kernel runs) run on the host as a block runs them, tick by
 * tick, every thread's phase before the next phase begins, on planes of
 * float64 samples with shared memory poisoned (NaN) at the start.  Against
 * the cpu backend's 2-D transform of the same batch in float64 (within 1e-12
 * of max |reference|): every separable wavelet, forward and inverse, the
 * transposed rows of the non-orthonormal ones against the cpu adjoints, 1-3
 * levels, several plane shapes (rows down to the fewest the schedule takes),
 * batches of planes.  Built where nvcc is; needs no device. */
#include "core/lw_internal.h"
#include "cuda/stream2d_body.cuh"
#include "lw_test.h"
#include "lw_test_plan.h"

#include <math.h>
#include <string.h>
#include <vector>

static long g_planes;

/* every plane of the batch as a block runs it */
template <int W, int INV> static void emulate(const lwk_stream2d &p)
{
    typedef st2<double, W, INV> K;
    struct regs {
        double v[K::NCOLT][K::NW];
    };
    std::vector<double> smw(K::smem() / sizeof(double) + 2);
    unsigned char *sm = (unsigned char *)smw.data();
    std::vector<regs> rg(K::NT);
    const int64_t planes = p.blen[0] * p.blen[1];
    for (int64_t bb = 0; bb < planes; bb++) {
        for (double &x : smw) x = NAN;
        memset(rg.data(), 0, rg.size() * sizeof(regs));
        st_geo g;
        K::geo(p.levels, (int)p.rows, (int)p.cols, g);
        typename K::planes pl;
        pl.p = &p, pl.b1 = bb % p.blen[1], pl.b0 = bb / p.blen[1];
        for (int t = 0; t < K::D; t++)
            for (int tid = 0; tid < K::NT; tid++) K::fetch(g, pl, sm, t, tid);
        for (int t = 0; t < g.ticks; t++) {
            for (int tid = 0; tid < K::NT; tid++) K::fetch(g, pl, sm, t + K::D, tid);
            for (int tid = 0; tid < K::NT; tid++) K::vertical(p.w, g, sm, rg[tid].v, t, tid);
            for (int tid = 0; tid < K::NT; tid++) K::horizontal(p.w, g, pl, sm, t, tid);
        }
        g_planes++;
    }
}

static lwk_plane plane(void *base, int64_t rs, int64_t bs0)
{
    lwk_plane q;
    memset(&q, 0, sizeof q);
    q.p = base, q.rs = rs, q.bs[0] = bs0;
    return q;
}

/* wv on nb planes of r x c, forward or inverse (inv); transposed: its transposed rows, whose
 * inverse is the adjoint of the forward and whose forward the adjoint of the inverse */
static void one(lw_wavelet wv, int transposed, int inv, int nb, int r, int c, int J)
{
    const lw_direction dir = inv ? LW_INVERSE : LW_FORWARD;
    const lw_direction cdir = !transposed ? dir : inv ? LW_FORWARD_ADJOINT : LW_INVERSE_ADJOINT;
    lw_plan *p = NULL;
    int64_t shape[3] = {nb, r, c};
    int axes[2] = {1, 2};
    if (lw_test_plan(&p, 3, shape, 2, axes, wv, LW_PERIODIC, LW_MALLAT, LW_FLOAT64, J, cdir, LW_BACKEND_CPU) != LW_OK) {
        CHECK(0, "plan %s", lw_wavelet_name(wv));
        return;
    }
    const int64_t n = (int64_t)nb * r * c;
    std::vector<double> x(n), ref(n), got(n, NAN);
    uint64_t s = 0x9e3779b97f4a7c15ull * (uint64_t)(r * 131 + c * 7 + wv * 3 + dir + 11 * transposed + J);
    for (int64_t i = 0; i < n; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        x[i] = (double)(s >> 11) / 9007199254740992.0 - 0.5;
    }
    CHECK(lw_execute(p, x.data(), ref.data()) == LW_OK, "execute");
    lw_destroy(p);

    lw_wavelet_def td;
    const lw_wavelet_def *d = lw_wavelet_get(wv);
    if (transposed) lw_wavelet_transpose(d, &td), d = &td;
    lwk_stream2d t;
    memset(&t, 0, sizeof t);
    lwk_wave_from_def(&t.w, d, 0);
    t.rows = r, t.cols = c, t.blen[0] = nb, t.blen[1] = 1, t.levels = J;
    double *coef = inv ? x.data() : got.data();
    t.img = plane(inv ? got.data() : x.data(), c, (int64_t)r * c);
    t.low = plane(coef, c, (int64_t)r * c);
    for (int j = 0; j < J; j++) t.det[j] = plane(coef, c, (int64_t)r * c);
    const int wid = t.w.id;
    const int ran = (int)lwc_dispatch_all(wid, [&](auto wc) -> cudaError_t {
        constexpr int W = decltype(wc)::value;
        if constexpr (lwc_separable(W)) {
            if (inv) emulate<W, 1>(t);
            else emulate<W, 0>(t);
            return cudaSuccess;
        }
        return cudaErrorInvalidValue;
    });
    CHECK(ran == (int)cudaSuccess, "%s: no kernel", lw_wavelet_name(wv));
    double mx = 0, dm = 0;
    for (int64_t i = 0; i < n; i++) {
        mx = fmax(mx, fabs(ref[i]));
        const double e = fabs(ref[i] - got[i]);
        dm = e > dm || e != e ? e : dm;
    }
    CHECK(dm <= 1e-12 * (mx > 1 ? mx : 1), "%s%s %s %dx%dx%d J=%d: max diff %g", lw_wavelet_name(wv),
          transposed ? " (transposed rows)" : "", inv ? "inverse" : "forward", nb, r, c, J, dm);
}

int main(void)
{
    static const lw_wavelet ws[] = {LW_HAAR, LW_CDF53, LW_CDF97, LW_DD137, LW_D4, LW_DD97};
    static const int shapes[][2] = {{256, 64}, {96, 128}, {160, 512}, {128, 32}};
    for (lw_wavelet wv : ws)
        for (int tr = 0; tr < 2; tr++) {
            if (tr && lw_wavelet_get(wv)->orthonormal) continue;
            for (int d = 0; d < 2; d++)
                for (int J = 1; J <= ST_LMAX; J++)
                    for (const auto &sh : shapes) {
                        lwk_wave w;
                        lwk_wave_from_def(&w, lw_wavelet_get(wv), 0);
                        if (tr) {
                            lw_wavelet_def td;
                            lw_wavelet_transpose(lw_wavelet_get(wv), &td);
                            lwk_wave_from_def(&w, &td, 0);
                        }
                        if (!lwk_stream2d_supported(LWK_F32, &w, LW_PERIODIC, sh[0], sh[1], J)) continue;
                        one(wv, tr, d, J == 2 ? 3 : 2, sh[0], sh[1], J);
                    }
        }
    printf("%ld planes\n", g_planes);
    CHECK(g_planes > 0, "no case ran");
    return lw_test_finish("test_stream2d");
}
