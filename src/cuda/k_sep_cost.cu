/* Operation and barrier counts of the separable-pass schemes (k_sep.h), read
 * off the step tables the kernels lift with (tile_lift.cuh) and the kernels'
 * structure (k_sep_horiz.cu, k_sep_vert.cu, k_sep_dev.cuh); host code only.
 *
 * Operations: one per lifting-step tap or filter tap a kernel executes
 * (forward, scaling omitted, as the papers count).  A quad (2x2 samples) is
 * one coefficient pair on each of two lines in each pass:
 *   galiano     both convolution filters of a pair (their support, propagated
 *               through the steps: sep_conv_support, as the kernel loops)
 *   laan        every step once per pair (the sliding window keeps the
 *               intermediate values: nothing is computed twice)
 *   blazewicz1/4, kucis, the row pass of the vertical blazewicz: the register
 *               window of 2P + 2H samples is lifted whole (reg_lift), but
 *               only the dependency cone of the 2P stored outputs survives
 *               the compiler, so the cone is what runs (the paper's Fig. 1)
 * Barriers: __syncthreads per window position, summed over the kernels of a
 * level:
 *   galiano, blazewicz1/4, kucis   2 (chunk loaded; chunk consumed)
 *   laan                           1 + steps (chunk loaded; after each step)
 *   transpose                      2 (tile loaded; tile stored), two of them */
#include "k_sep_dev.cuh"

namespace {

constexpr int cost_conv_taps(int W)
{
    const sep_sup S = sep_conv_support(W, 1);
    return (S.hi[0] - S.lo[0] + 1) + (S.hi[1] - S.lo[1] + 1);
}

constexpr int cost_step_taps(int W)
{
    int n = 0;
    for (int s = 0; s < sh_nsteps(W); s++) n += sh_ntaps(W, s);
    return n;
}

/* taps evaluated for P pairs: the cone of outputs [H, H + 2P), last step first */
constexpr int cost_cone_taps(int W, int P)
{
    const int H = sh_halo(W), N = 2 * P + 2 * H;
    bool need[64] = {};
    for (int j = H; j < H + 2 * P; j++) need[j] = true;
    int taps = 0;
    for (int s = sh_nsteps(W) - 1; s >= 0; s--) {
        bool next[64] = {};
        for (int j = 0; j < N; j++) next[j] = need[j];
        for (int j = sh_par(W, s); j < N; j += 2) {
            bool inside = true; /* reg_lift leaves a target whose taps leave the window */
            for (int i = 0; i < sh_ntaps(W, s); i++) inside = inside && j + sh_off(W, s, i) >= 0 && j + sh_off(W, s, i) < N;
            if (!need[j] || !inside) continue;
            taps += sh_ntaps(W, s);
            for (int i = 0; i < sh_ntaps(W, s); i++) next[j + sh_off(W, s, i)] = true;
        }
        for (int j = 0; j < N; j++) need[j] = next[j];
    }
    return taps;
}

struct pass_cost {
    int taps, pairs, barriers; /* taps per `pairs` pairs of one line; barriers per window position */
};

constexpr pass_cost cost_hpass(int kind, int W)
{
    return kind == LWK_SEPH_GALIANO ? pass_cost{cost_conv_taps(W), 1, 2}
           : kind == LWK_SEPH_LAAN  ? pass_cost{cost_step_taps(W), 1, 1 + sh_nsteps(W)}
                                    : pass_cost{cost_cone_taps(W, sep_bz_pairs(kind)), sep_bz_pairs(kind), 2};
}

constexpr pass_cost cost_vpass(int kind, int W)
{
    return kind == LWK_SEPV_LAAN ? pass_cost{cost_step_taps(W), 1, 1 + sh_nsteps(W)}
           : kind == LWK_SEPV_KUCIS
               ? pass_cost{cost_cone_taps(W, KUCIS_ROWS / 2), KUCIS_ROWS / 2, 2}
               : pass_cost{cost_hpass(LWK_SEPH_BZ4, W).taps, cost_hpass(LWK_SEPH_BZ4, W).pairs, 2 + 2 * 2};
}

constexpr double cost_quad(pass_cost p) { return 2.0 * p.taps / p.pairs; }

/* CDF 9/7 as paper 000 describes the passes: 9 + 7 filter taps, 4 steps x 2
 * taps, 10 step evaluations for one pair (Fig. 1), 22 for four */
static_assert(cost_conv_taps(LW_CDF97) == 16 && cost_step_taps(LW_CDF97) == 8, "CDF 9/7 taps");
static_assert(cost_cone_taps(LW_CDF97, 1) == 20 && cost_cone_taps(LW_CDF97, 4) == 44, "CDF 9/7 cones");

} // namespace

extern "C" int lwk_sep_cost(int h, int v, int wavelet, double *ops, int *barriers)
{
    if (h < 0 || h >= LWK_SEPH_COUNT || v < 0 || v >= LWK_SEPV_COUNT) return 0;
    if (wavelet < 0 || wavelet >= LW_WAVELET_COUNT || !lwc_separable(wavelet)) return 0;
    const pass_cost a = cost_hpass(h, wavelet), b = cost_vpass(v, wavelet);
    if (ops) *ops = cost_quad(a) + cost_quad(b);
    if (barriers) *barriers = a.barriers + b.barriers;
    return 1;
}
