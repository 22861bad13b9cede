/* C interface of the block schemes of paper 003 (kernels: k_block_*.cu,
 * table: scheme_block.c).  Plain C: included by scheme_block.c too. */
#ifndef LW_K_BLOCK_API_CUH
#define LW_K_BLOCK_API_CUH

#include "lw_cuda.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The schemes, in id order: X(ID, launcher).  The ids (LWK_BLOCK_<ID>, and
 * BK_<ID> in the kernels' k_block_prog.cuh), the launcher declarations and
 * the launcher table (scheme_block.c) are generated from this list. */
#define LWK_BLOCK_SCHEME_LIST(X)                    \
    X(SWELDENS, lwk_block_sweldens)                 \
    X(IWAHASHI, lwk_block_iwahashi)                 \
    X(EXPLOSIVE, lwk_block_explosive)               \
    X(MONOLITHIC, lwk_block_monolithic)             \
    X(POLYPHASE, lwk_block_polyphase)               \
    X(CONVOLUTION, lwk_block_convolution)           \
    X(IWAHASHI_S, lwk_block_iwahashi_s)             \
    X(EXPLOSIVE_S, lwk_block_explosive_s)           \
    X(MONOLITHIC_S, lwk_block_monolithic_s)         \
    X(POLYPHASE_S, lwk_block_polyphase_s)

#define LWK_BLOCK_ID(ID, fn) LWK_BLOCK_##ID,
enum { LWK_BLOCK_SCHEME_LIST(LWK_BLOCK_ID) LWK_BLOCK_NSCHEMES };
#undef LWK_BLOCK_ID

/* One level over a batch of planes, the lwk_tile2d_forward / _inverse
 * contract: forward a = src, b = LL band, c = detail bands; inverse a = LL
 * band, b = detail bands, c = dst.  single: single buffering (float32 and
 * int32 only).  cudaErrorInvalidValue for a case the scheme does not take. */
typedef cudaError_t (*lwk_block_fn)(int dtype, int inverse, int single, const lwk_tile2d *t, lwk_plane a,
                                    lwk_plane b, lwk_plane c, cudaStream_t s);
#define LWK_BLOCK_DECL(ID, fn) \
    cudaError_t fn(int, int, int, const lwk_tile2d *, lwk_plane, lwk_plane, lwk_plane, cudaStream_t);
LWK_BLOCK_SCHEME_LIST(LWK_BLOCK_DECL)
#undef LWK_BLOCK_DECL

/* Arithmetic operations per quad (one FMA per filter tap, scaling not
 * counted) and barriers per level, as the kernels run them, for (scheme,
 * wavelet, buffering); also the tile overlap (quads of halo per side, rows
 * and columns summed over both sides).  0 if the scheme does not take the
 * wavelet.  Host code (k_block_cost.cu): no device needed. */
int lwk_block_cost(int scheme, int wavelet, int single, int *ops, int *barriers, int *halo);

/* The paper's Table 2 entry of (scheme, wavelet): operations and barriers
 * (one per spatial step: double buffering).  0 if the table has none. */
int lwk_block_table2(int scheme, int wavelet, int *ops, int *barriers);

#ifdef __cplusplus
}
#endif

#endif
