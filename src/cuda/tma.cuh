/* Hopper's tensor memory accelerator (TMA, compute capability 9.0 and up):
 * one instruction copies a box of a tensor (described by a CUtensorMap made on
 * the host) into shared memory, out-of-range elements filled with zeros, and
 * counts its bytes on an mbarrier that the consumers wait on.  Compiled for an
 * older architecture these helpers do nothing; the host launches kernels that
 * use them only where the kernel's binary is sm_90 or newer (t3_tma_ready). */
#ifndef LW_TMA_CUH
#define LW_TMA_CUH

#include <cuda.h>
#include <stdint.h>

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define LWD_HAVE_TMA 1
#else
#define LWD_HAVE_TMA 0
#endif

__device__ __forceinline__ unsigned lwd_smem_addr(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }

/* an mbarrier expecting one arrival a phase (the thread that issues the copies) */
__device__ __forceinline__ void lwd_mbar_init(uint64_t *bar)
{
#if LWD_HAVE_TMA
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n" ::"r"(lwd_smem_addr(bar)) : "memory");
#endif
}

/* after the inits, before the block barrier that publishes them: visible to
 * the copies (the async proxy) too */
__device__ __forceinline__ void lwd_mbar_init_fence()
{
#if LWD_HAVE_TMA
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
#endif
}

/* the issuing thread's arrival, announcing the bytes the phase's copies bring */
__device__ __forceinline__ void lwd_mbar_expect(uint64_t *bar, unsigned bytes)
{
#if LWD_HAVE_TMA
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(lwd_smem_addr(bar)), "r"(bytes)
                 : "memory");
#endif
}

/* wait until the phase of this parity has completed */
__device__ __forceinline__ void lwd_mbar_wait(uint64_t *bar, unsigned parity)
{
#if LWD_HAVE_TMA
    const unsigned a = lwd_smem_addr(bar);
    unsigned done = 0;
    do {
        asm volatile("{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                     " selp.u32 %0, 1, 0, p;\n}\n"
                     : "=r"(done)
                     : "r"(a), "r"(parity)
                     : "memory");
    } while (!done);
#endif
}

/* box of a 3-D tensor map at element coordinates (x, y, z) (innermost first;
 * negative or past the end: zeros) into shared memory at dst (128-byte
 * aligned), its bytes counted on bar */
__device__ __forceinline__ void lwd_tma_load3(void *dst, const CUtensorMap *map, int x, int y, int z, uint64_t *bar)
{
#if LWD_HAVE_TMA
    asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%2, %3, %4}], [%5];\n" ::"r"(lwd_smem_addr(dst)),
                 "l"((uint64_t)(uintptr_t)map), "r"(x), "r"(y), "r"(z), "r"(lwd_smem_addr(bar))
                 : "memory");
#endif
}

/* the same for a 4-D tensor map, at (x, y, z, w) */
__device__ __forceinline__ void lwd_tma_load4(void *dst, const CUtensorMap *map, int x, int y, int z, int w, uint64_t *bar)
{
#if LWD_HAVE_TMA
    asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%2, %3, %4, %5}], [%6];\n" ::"r"(lwd_smem_addr(dst)),
                 "l"((uint64_t)(uintptr_t)map), "r"(x), "r"(y), "r"(z), "r"(w), "r"(lwd_smem_addr(bar))
                 : "memory");
#endif
}

#endif
