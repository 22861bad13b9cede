/* Operation and barrier counts of the block schemes (k_block_api.cuh), read
 * off the same programs the kernels run; host code only. */
#include "k_block_api.cuh"
#include "k_block_prog.cuh"

static_assert((int)LWK_BLOCK_NSCHEMES == (int)BK_NSCHEMES && (int)LWK_BLOCK_POLYPHASE_S == (int)BK_POLYPHASE_S,
              "scheme ids differ");

template <int S> struct bk_cost97 {
    static constexpr bk_prog p = bk_make(S, LW_CDF97, 0, 0);
    static constexpr int ops = bk_ops(p), bar = bk_barriers(p, 0);
};
#define BK_CHECK97(S, NAME)                                                                   \
    static_assert(bk_cost97<S>::ops == LWK_BLOCK_OPS97_##NAME, "ops of " #NAME " changed");   \
    static_assert(bk_cost97<S>::bar == LWK_BLOCK_BAR97_##NAME, "barriers of " #NAME " changed")
BK_CHECK97(BK_SWELDENS, SWELDENS);
BK_CHECK97(BK_IWAHASHI, IWAHASHI);
BK_CHECK97(BK_EXPLOSIVE, EXPLOSIVE);
BK_CHECK97(BK_MONOLITHIC, MONOLITHIC);
BK_CHECK97(BK_POLYPHASE, POLYPHASE);
BK_CHECK97(BK_CONVOLUTION, CONVOLUTION);
BK_CHECK97(BK_IWAHASHI_S, IWAHASHI_S);
BK_CHECK97(BK_EXPLOSIVE_S, EXPLOSIVE_S);
BK_CHECK97(BK_MONOLITHIC_S, MONOLITHIC_S);
BK_CHECK97(BK_POLYPHASE_S, POLYPHASE_S);

/* the paper's Table 2 (CDF 5/3 and DD 13/7 columns) where our programs agree */
static_assert(bk_ops(bk_make(BK_MONOLITHIC_S, LW_CDF53, 0, 0)) == 18, "Table 2");
static_assert(bk_ops(bk_make(BK_POLYPHASE, LW_CDF53, 0, 0)) == 63, "Table 2");
static_assert(bk_ops(bk_make(BK_POLYPHASE_S, LW_DD137, 0, 0)) == 203, "Table 2");
static_assert(bk_ops(bk_make(BK_IWAHASHI_S, LW_DD137, 0, 0)) == 50, "Table 2");

extern "C" int lwk_block_cost(int scheme, int wavelet, int single, int *ops, int *barriers, int *halo)
{
    if (scheme < 0 || scheme >= BK_NSCHEMES) return 0;
    if (wavelet != LW_CDF53 && wavelet != LW_CDF97 && wavelet != LW_DD137) return 0;
    const bk_prog p = bk_make(scheme, wavelet, 0, 0);
    const bk_region g = bk_regions(p);
    if (ops) *ops = bk_ops(p);
    if (barriers) *barriers = bk_barriers(p, single);
    if (halo) *halo = g.lo_c[p.n] + g.sh_c[p.n];
    return 1;
}
