/* C interface of the block schemes of paper 003 (kernels: k_block_*.cu,
 * table: scheme_block.c).  Plain C: included by scheme_block.c too. */
#ifndef LW_K_BLOCK_API_CUH
#define LW_K_BLOCK_API_CUH

#include "lw_cuda.h"

#ifdef __cplusplus
extern "C" {
#endif

/* scheme ids (the order of BK_* in k_block_prog.cuh) */
enum {
    LWK_BLOCK_SWELDENS = 0,
    LWK_BLOCK_IWAHASHI,
    LWK_BLOCK_EXPLOSIVE,
    LWK_BLOCK_MONOLITHIC,
    LWK_BLOCK_POLYPHASE,
    LWK_BLOCK_CONVOLUTION,
    LWK_BLOCK_IWAHASHI_S,
    LWK_BLOCK_EXPLOSIVE_S,
    LWK_BLOCK_MONOLITHIC_S,
    LWK_BLOCK_POLYPHASE_S,
    LWK_BLOCK_NSCHEMES
};

/* One level over a batch of planes, the lwk_tile2d_forward / _inverse
 * contract: forward a = src, b = LL band, c = detail bands; inverse a = LL
 * band, b = detail bands, c = dst.  single: single buffering (float32 and
 * int32 only).  cudaErrorInvalidValue for a case the scheme does not take. */
typedef cudaError_t (*lwk_block_fn)(int dtype, int inverse, int single, const lwk_tile2d *t, lwk_plane a,
                                    lwk_plane b, lwk_plane c, cudaStream_t s);
cudaError_t lwk_block_sweldens(int, int, int, const lwk_tile2d *, lwk_plane, lwk_plane, lwk_plane, cudaStream_t);
cudaError_t lwk_block_iwahashi(int, int, int, const lwk_tile2d *, lwk_plane, lwk_plane, lwk_plane, cudaStream_t);
cudaError_t lwk_block_explosive(int, int, int, const lwk_tile2d *, lwk_plane, lwk_plane, lwk_plane, cudaStream_t);
cudaError_t lwk_block_monolithic(int, int, int, const lwk_tile2d *, lwk_plane, lwk_plane, lwk_plane, cudaStream_t);
cudaError_t lwk_block_polyphase(int, int, int, const lwk_tile2d *, lwk_plane, lwk_plane, lwk_plane, cudaStream_t);
cudaError_t lwk_block_convolution(int, int, int, const lwk_tile2d *, lwk_plane, lwk_plane, lwk_plane, cudaStream_t);
cudaError_t lwk_block_iwahashi_s(int, int, int, const lwk_tile2d *, lwk_plane, lwk_plane, lwk_plane, cudaStream_t);
cudaError_t lwk_block_explosive_s(int, int, int, const lwk_tile2d *, lwk_plane, lwk_plane, lwk_plane, cudaStream_t);
cudaError_t lwk_block_monolithic_s(int, int, int, const lwk_tile2d *, lwk_plane, lwk_plane, lwk_plane, cudaStream_t);
cudaError_t lwk_block_polyphase_s(int, int, int, const lwk_tile2d *, lwk_plane, lwk_plane, lwk_plane, cudaStream_t);

/* Arithmetic operations per quad (one FMA per filter tap, scaling not
 * counted) and barriers per level, as the kernels run them, for (scheme,
 * wavelet, buffering); also the tile overlap (quads of halo per side, rows
 * and columns summed over both sides).  0 if the scheme does not take the
 * wavelet. */
int lwk_block_cost(int scheme, int wavelet, int single, int *ops, int *barriers, int *halo);

/* CDF 9/7 forward, double buffering: the lwk_scheme table's ops_per_quad and
 * barriers (k_block_cost.cu checks them against the programs at compile time) */
#define LWK_BLOCK_OPS97_SWELDENS 32
#define LWK_BLOCK_OPS97_IWAHASHI 48
#define LWK_BLOCK_OPS97_EXPLOSIVE 48
#define LWK_BLOCK_OPS97_MONOLITHIC 48
#define LWK_BLOCK_OPS97_POLYPHASE 126
#define LWK_BLOCK_OPS97_CONVOLUTION 256
#define LWK_BLOCK_OPS97_IWAHASHI_S 36
#define LWK_BLOCK_OPS97_EXPLOSIVE_S 36
#define LWK_BLOCK_OPS97_MONOLITHIC_S 36
#define LWK_BLOCK_OPS97_POLYPHASE_S 46
#define LWK_BLOCK_BAR97_SWELDENS 8
#define LWK_BLOCK_BAR97_IWAHASHI 6
#define LWK_BLOCK_BAR97_EXPLOSIVE 6
#define LWK_BLOCK_BAR97_MONOLITHIC 4
#define LWK_BLOCK_BAR97_POLYPHASE 2
#define LWK_BLOCK_BAR97_CONVOLUTION 1
#define LWK_BLOCK_BAR97_IWAHASHI_S 6
#define LWK_BLOCK_BAR97_EXPLOSIVE_S 6
#define LWK_BLOCK_BAR97_MONOLITHIC_S 4
#define LWK_BLOCK_BAR97_POLYPHASE_S 2

#ifdef __cplusplus
}
#endif

#endif
