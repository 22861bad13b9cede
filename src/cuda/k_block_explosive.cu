/* Block scheme 'explosive' of paper 003: its kernels, every wavelet,
 * element type, direction and buffering (one file per scheme so that the
 * instantiations compile in parallel).  Program: k_block_prog.cuh. */
#include "k_block_kernel.cuh"

BK_DEFINE_LAUNCHER(lwk_block_explosive, BK_EXPLOSIVE)
