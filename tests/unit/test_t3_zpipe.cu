/* The fused 3-D engine's z pipeline without a GPU: t3_zadvance (the code
 * the kernel runs, src/cuda/k_tile3d_stream.cuh) fed one line as a block of
 * t3s_body feeds one point's z stream: the raw pairs through the boundary
 * mode (the inverse's from their Mallat places), every run of output pairs a
 * launch would split the line into, the mirror refreshed per step in
 * symmetric mode where the wavelet needs it (d4), the window both as a ring of
 * registers and moved a pair a step (t3s_body's two forms).  Against the cpu backend's
 * one-level 1-D transform in float64 (within 1e-12 of max |reference|).
 * Cases: every separable wavelet (haar on even lengths in symmetric mode),
 * both modes (periodic on even lengths), forward and inverse, lengths 2-70,
 * 1-6 runs.  Built where nvcc is (the pipeline is CUDA C++); needs no
 * device. */
#include "core/lw_internal.h"
#include "cuda/k_tile3d_stream.cuh"
#include "lw_test.h"
#include "lw_test_plan.h"

#include <math.h>
#include <string.h>
#include <vector>

static long g_lines, g_refreshed;

/* the line x (interleaved samples forward, Mallat bands inverse) through one
 * point's pipeline, split into `runs` runs as t3s_body splits it */
template <int W, int INV, bool RING>
static void pipeline(const lwk_wave &w, lw_mode mode, const std::vector<double> &x, std::vector<double> &y, int runs)
{
    constexpr t3_zsched Z = t3_make_zsched(W, INV);
    constexpr int NW = Z.nw, JO = Z.jo, WU = (sh_halo(W) + 1) / 2;
    const int64_t n = (int64_t)x.size(), h = (n + 1) / 2;
    auto map = [&](int64_t i) {
        int64_t m = lw_boundary_index(i, n, mode);
        return INV ? ((m & 1) ? h + (m >> 1) : (m >> 1)) : m;
    };
    const int64_t per = (h + runs - 1) / runs;
    for (int bz = 0; bz < runs; bz++) {
        const int64_t kb = bz * per, ke = kb + per < h ? kb + per : h;
        if (kb >= ke) continue;
        const int64_t m0 = kb - WU;
        const int na = (int)(ke - kb) + WU + Z.dp;
        double v[NW];
        for (int j = 0; j < NW; j++) v[j] = 0;
        for (int a = 0; a < na; a++) {
            const int64_t m = m0 + a, k = m - Z.dp;
            const int64_t base = 2 * m - (NW - 2);
            int el = 0, et = 0;
            const bool refresh = !tile_once_mirror_exact(W) && mode != LW_PERIODIC && t3_zends(base, n, NW, el, et);
            g_refreshed += refresh;
            /* the window's rotation as t3s_body keeps it (RING), or a window
             * that moves a pair a step */
            constexpr int NR = RING ? NW / 2 : 1;
            double o0 = 0, o1 = 0;
            t3_zrot<NR>(a % NR, [&](auto rc) {
                constexpr int ROT = decltype(rc)::value;
                t3_zadvance<double, W, INV, ROT, !RING>(v, x[map(2 * m)], x[map(2 * m + 1)], w, refresh, el, et);
                o0 = v[t3_zphys<NW>(JO, ROT)], o1 = v[t3_zphys<NW>(JO + 1, ROT)];
            });
            if (k < kb) continue;
            if (INV) {
                y[2 * k] = o0;
                if (2 * k + 1 < n) y[2 * k + 1] = o1;
            } else {
                y[k] = lwd_scale<double>(w, o0, 0, 1);
                if (2 * k + 1 < n) y[h + k] = lwd_scale<double>(w, o1, 1, 1);
            }
        }
    }
    g_lines++;
}

/* gain: the band gains of the plan (1, 1: none), folded into the wavelet the pipeline lifts, as a
 * CUDA plan's kernels get it (lwk_wave_from_def of the plan's wavelet) */
static void one(lw_wavelet wv, lw_mode mode, lw_direction dir, int64_t n, int runs, const double *gain)
{
    lw_plan *p = NULL;
    int64_t shape[1] = {n};
    int axes[1] = {0};
    lw_config c;
    lw_test_config(&c, 1, shape, 1, axes, wv, mode, LW_MALLAT, LW_FLOAT64, 1, dir, LW_BACKEND_CPU);
    c.gain[0] = gain[0], c.gain[1] = gain[1];
    if (lw_plan_create(&p, &c) != LW_OK) {
        CHECK(0, "plan %d n=%lld: %s", (int)wv, (long long)n, lw_last_error());
        return;
    }
    std::vector<double> x(n), ref(n);
    uint64_t s = 0x9e3779b97f4a7c15ull * (uint64_t)(n * 131 + wv * 7 + dir);
    for (int64_t i = 0; i < n; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        x[i] = (double)(s >> 11) / 9007199254740992.0 - 0.5;
    }
    CHECK(lw_execute(p, x.data(), ref.data()) == LW_OK, "execute");
    lwk_wave w;
    lwk_wave_from_def(&w, p->wav, 0);
    for (int ring = 0; ring < 2; ring++) { /* the window as a ring of registers, and moved */
        std::vector<double> got(n, NAN);
        lwc_dispatch((int)wv, [&](auto wc) -> cudaError_t {
            constexpr int W = decltype(wc)::value;
            if constexpr (lwc_separable(W)) {
                auto run = [&](auto rc) {
                    constexpr bool R = decltype(rc)::value;
                    if (dir == LW_INVERSE) pipeline<W, 1, R>(w, mode, x, got, runs);
                    else pipeline<W, 0, R>(w, mode, x, got, runs);
                };
                if (ring) run(std::true_type{});
                else run(std::false_type{});
            }
            return cudaSuccess;
        });
        double mx = 0, dm = 0;
        for (int64_t i = 0; i < n; i++) {
            mx = fmax(mx, fabs(ref[i]));
            const double d = fabs(ref[i] - got[i]);
            dm = d > dm || d != d ? d : dm;
        }
        CHECK(dm <= 1e-12 * (mx > 1 ? mx : 1), "%s %s %s n=%lld runs=%d %s gains %g %g: max diff %g",
              lw_wavelet_name(wv), mode == LW_PERIODIC ? "periodic" : "symmetric",
              dir == LW_INVERSE ? "inverse" : "forward", (long long)n, runs, ring ? "ring" : "moved", gain[0], gain[1],
              dm);
    }
    lw_destroy(p);
}

int main(void)
{
    static const lw_wavelet ws[] = {LW_HAAR, LW_CDF53, LW_CDF97, LW_DD137, LW_D4, LW_DD97};
    /* none, and pytorch_wavelets' scaling of bior2.2 / bior4.4 (cdf53 and dd137 have unit factors) */
    static const double g1[2] = {1.0, 1.0}, g2[2] = {1.4142135623730951, -0.70710678118654746};
    static const double *const gains[] = {g1, g2};
    for (lw_wavelet wv : ws)
        for (int m = 0; m < 2; m++)
            for (int d = 0; d < 2; d++)
                for (int64_t n = 2; n <= 70; n++) {
                    const lw_mode mode = m ? LW_PERIODIC : LW_SYMMETRIC;
                    if ((mode == LW_PERIODIC || wv == LW_HAAR) && n % 2) continue;
                    for (int runs = 1; runs <= 6; runs++)
                        for (const double *g : gains) one(wv, mode, d ? LW_INVERSE : LW_FORWARD, n, runs, g);
                }
    printf("%ld lines, %ld refreshed steps\n", g_lines, g_refreshed);
    CHECK(g_refreshed > 0, "d4 in symmetric mode refreshed no step");
    return lw_test_finish("test_t3_zpipe");
}
