/* Operation and barrier counts of the block schemes (k_block_api.cuh), read
 * off the same programs the kernels run, and the paper's Table 2; host code
 * only. */
#include "k_block_api.cuh"
#include "k_block_prog.cuh"

static_assert((int)LWK_BLOCK_NSCHEMES == (int)BK_NSCHEMES && (int)LWK_BLOCK_POLYPHASE_S == (int)BK_POLYPHASE_S,
              "scheme ids differ");

/* Barina, Kula and Zemcik (paper 003), Table 2 "Number of operations and
 * memory barriers examined for various wavelets", in the paper's row order:
 * scaling omitted; CDF 9/7 as two connected schemes; barriers = one per
 * spatial step (our double buffering). */
struct bk_table2_row {
    int scheme, wavelet, barriers, ops;
};
static constexpr bk_table2_row bk_table2[] = {
    {BK_SWELDENS, LW_CDF53, 4, 16},     {BK_IWAHASHI, LW_CDF53, 3, 24},     {BK_IWAHASHI_S, LW_CDF53, 3, 18},
    {BK_EXPLOSIVE, LW_CDF53, 3, 24},    {BK_EXPLOSIVE_S, LW_CDF53, 3, 18},  {BK_MONOLITHIC, LW_CDF53, 2, 24},
    {BK_MONOLITHIC_S, LW_CDF53, 2, 18}, {BK_POLYPHASE, LW_CDF53, 1, 63},    {BK_POLYPHASE_S, LW_CDF53, 1, 23},
    {BK_CONVOLUTION, LW_CDF53, 1, 64},

    {BK_SWELDENS, LW_CDF97, 8, 32},     {BK_IWAHASHI, LW_CDF97, 6, 48},     {BK_IWAHASHI_S, LW_CDF97, 6, 36},
    {BK_EXPLOSIVE, LW_CDF97, 6, 48},    {BK_EXPLOSIVE_S, LW_CDF97, 6, 36},  {BK_MONOLITHIC, LW_CDF97, 4, 48},
    {BK_MONOLITHIC_S, LW_CDF97, 4, 36}, {BK_POLYPHASE, LW_CDF97, 2, 126},   {BK_POLYPHASE_S, LW_CDF97, 2, 46},
    {BK_CONVOLUTION, LW_CDF97, 1, 256},

    {BK_SWELDENS, LW_DD137, 4, 32},     {BK_IWAHASHI, LW_DD137, 3, 64},     {BK_IWAHASHI_S, LW_DD137, 3, 50},
    {BK_EXPLOSIVE, LW_DD137, 3, 64},    {BK_EXPLOSIVE_S, LW_DD137, 3, 50},  {BK_MONOLITHIC, LW_DD137, 2, 64},
    {BK_MONOLITHIC_S, LW_DD137, 2, 50}, {BK_POLYPHASE, LW_DD137, 1, 255},   {BK_POLYPHASE_S, LW_DD137, 1, 203},
    {BK_CONVOLUTION, LW_DD137, 1, 256},
};
#define BK_NTABLE2 ((int)(sizeof bk_table2 / sizeof bk_table2[0]))

/* Every entry of Table 2 equals the count of the program our kernels run
 * (one constant expression per entry: the convolution's programs are long). */
template <int I> struct bk_table2_check {
    static constexpr bk_table2_row t = bk_table2[I];
    static constexpr bk_prog p = bk_make(t.scheme, t.wavelet, 0, 0);
    static_assert(bk_ops(p) == t.ops, "operations differ from the paper's Table 2");
    static_assert(bk_barriers(p, 0) == t.barriers, "barriers differ from the paper's Table 2");
    static constexpr int next = bk_table2_check<I + 1>::next;
};
template <> struct bk_table2_check<BK_NTABLE2> {
    static constexpr int next = 0;
};
static_assert(bk_table2_check<0>::next == 0, "Table 2 checked");

extern "C" int lwk_block_cost(int scheme, int wavelet, int single, int *ops, int *barriers, int *halo)
{
    if (scheme < 0 || scheme >= BK_NSCHEMES) return 0;
    if (wavelet < 0 || wavelet >= LW_WAVELET_COUNT || !bk_runs(wavelet)) return 0;
    const bk_prog p = bk_make(scheme, wavelet, 0, 0);
    const bk_region g = bk_regions(p);
    if (ops) *ops = bk_ops(p);
    if (barriers) *barriers = bk_barriers(p, single);
    if (halo) *halo = g.lo_c[p.n] + g.sh_c[p.n];
    return 1;
}

extern "C" int lwk_block_table2(int scheme, int wavelet, int *ops, int *barriers)
{
    for (int i = 0; i < BK_NTABLE2; i++)
        if (bk_table2[i].scheme == scheme && bk_table2[i].wavelet == wavelet) {
            if (ops) *ops = bk_table2[i].ops;
            if (barriers) *barriers = bk_table2[i].barriers;
            return 1;
        }
    return 0;
}
