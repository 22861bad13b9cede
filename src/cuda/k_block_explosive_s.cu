/* Block scheme 'explosive*' of paper 003 (improved: P = P0 + P1, U = U0 + U1): its
 * kernels for every wavelet, element type, direction and buffering (one file
 * per scheme so that the instantiations compile in parallel).  Program: k_block_prog.cuh. */
#include "k_block_kernel.cuh"

BK_DEFINE_LAUNCHER(lwk_block_explosive_s, BK_EXPLOSIVE_S)
