/* Fused 3-D engine (float32, one level, Mallat): one kernel reads the volume
 * once and writes the eight bands once.
 *
 * A block owns a TY x TX tile of (y, x) outputs plus the halo, and slides
 * along z in chunks of TZ planes (the next chunk's halo planes were just read
 * by the same block, so they come from cache):
 *   1. every thread takes window points (y, x) and lifts their TZ + 2*HALO
 *      z-samples in registers (loads coalesced along x);
 *   2. the chunk (TZ planes of the window) sits in shared memory; every thread
 *      lifts (z, x) columns along y in registers;
 *   3. every thread lifts 8 outputs of a (z, y) row along x and writes the
 *      lowpass / highpass halves with 16-byte stores.
 * The step structure comes from k_tile2d's tables (same boundary rules: the
 * window is loaded through the mode once, valid for periodic mode and the
 * symmetric-tap wavelets).  The inverse runs the same axis order (z, y, x):
 * for float data that changes only rounding. */
#include "lw_cuda_dev.cuh"
#include "tile_lift.cuh"

#define T3_TX 64
#define T3_K 8
#define T3_THREADS 256

/* Tile shape (TZ, TY) and the blocks per SM the register budget aims at.
 * Measured on an H100 (bench/NOTES-cuda.md): 16 x 16 x 64 with 2 blocks per SM
 * beat 8x16, 16x8 and 8x8 tiles at 3 or 4 blocks per SM (more halo traffic). */
template <int V> struct t3cfg;
template <> struct t3cfg<0> { enum { TZ = 16, TY = 16, MINB = 2 }; };

template <int W, int INV, int V>
__global__ void __launch_bounds__(T3_THREADS, t3cfg<V>::MINB) tile3_vh(lwk_tile3d t, const float *src, float *dst)
{
    constexpr int T3_TZ = t3cfg<V>::TZ, T3_TY = t3cfg<V>::TY;
    constexpr int H = sh_halo(W), WY = T3_TY + 2 * H, WX = T3_TX + 2 * H, NZ = T3_TZ + 2 * H;
    constexpr int DIR = INV ? -1 : 1;
    extern __shared__ __align__(16) unsigned char smem_raw[];
    float(*sm)[WY][WX] = (float(*)[WY][WX])smem_raw;
    const lwk_wave &w = t.w;
    const int tid = threadIdx.x;
    const int64_t nz = t.n[0], ny = t.n[1], nx = t.n[2];
    const int64_t hz = (nz + 1) / 2, hy = (ny + 1) / 2, hx = (nx + 1) / 2;
    const int64_t sz = t.st[0], sy = t.st[1];
    const int64_t y0 = (int64_t)blockIdx.y * T3_TY, x0 = (int64_t)blockIdx.x * T3_TX;
    const int64_t zchunks = (nz + T3_TZ - 1) / T3_TZ;
    const int64_t per = (zchunks + gridDim.z - 1) / gridDim.z;
    const int64_t zc0 = blockIdx.z * per, zc1 = zc0 + per < zchunks ? zc0 + per : zchunks;
    const bool vec = (sy % 4) == 0 && (sz % 4) == 0 && (INV || (hx % 4) == 0);

    for (int64_t zc = zc0; zc < zc1; zc++) {
        const int64_t z0 = zc * T3_TZ;
        const bool zin = z0 - H >= 0 && z0 + T3_TZ + H <= nz;
        /* 1. z lifting, one window point (y, x) at a time per thread */
        for (int pt = tid; pt < WY * WX; pt += T3_THREADS) {
            const int py = pt / WX, px = pt - py * WX;
            int64_t ym = y0 - H + py, xm = x0 - H + px;
            ym = (ym >= 0 && ym < ny) ? ym : lwd_bidx(ym, ny, t.mode);
            xm = (xm >= 0 && xm < nx) ? xm : lwd_bidx(xm, nx, t.mode);
            if (INV) ym = (ym & 1) ? hy + (ym >> 1) : (ym >> 1), xm = (xm & 1) ? hx + (xm >> 1) : (xm >> 1);
            const float *p = src + ym * sy + xm;
            float v[NZ];
#pragma unroll
            for (int j = 0; j < NZ; j++) {
                int64_t zm = z0 - H + j;
                if (!zin) zm = (zm >= 0 && zm < nz) ? zm : lwd_bidx(zm, nz, t.mode);
                if (INV) zm = (zm & 1) ? hz + (zm >> 1) : (zm >> 1);
                v[j] = __ldg(p + zm * sz);
            }
            reg_lift<W, DIR>(v, w);
#pragma unroll
            for (int j = 0; j < T3_TZ; j++) sm[j][py][px] = v[H + j];
        }
        __syncthreads();
        /* 2. y lifting of (z, x) columns, in place in shared memory */
        for (int c = tid; c < T3_TZ * WX; c += T3_THREADS) {
            const int z = c / WX, px = c - z * WX;
            float v[WY];
#pragma unroll
            for (int j = 0; j < WY; j++) v[j] = sm[z][j][px];
            reg_lift<W, DIR>(v, w);
#pragma unroll
            for (int j = 0; j < T3_TY; j++) sm[z][H + j][px] = v[H + j];
        }
        __syncthreads();
        /* 3. x lifting of (z, y) rows, 8 outputs per task, band stores */
        constexpr int SEGS = T3_TX / T3_K, NU = T3_K + 2 * H;
        for (int task = tid; task < T3_TZ * T3_TY * SEGS; task += T3_THREADS) {
            const int seg = task % SEGS, row = task / SEGS;
            const int z = row / T3_TY, yy = row - z * T3_TY;
            const int64_t zg = z0 + z, yg = y0 + yy, xb = x0 + seg * T3_K;
            if (zg >= nz || yg >= ny || xb >= nx) continue;
            float u[NU];
#pragma unroll
            for (int i = 0; i < NU; i++) u[i] = sm[z][H + yy][seg * T3_K + i];
            reg_lift<W, DIR>(u, w);
            if (INV) {
                float *op = dst + zg * sz + yg * sy + xb;
                if (xb + T3_K <= nx) {
                    store4<float>(op, u[H], u[H + 1], u[H + 2], u[H + 3], vec);
                    store4<float>(op + 4, u[H + 4], u[H + 5], u[H + 6], u[H + 7], vec);
                } else {
                    for (int i = 0; i < T3_K && xb + i < nx; i++) op[i] = u[H + i];
                }
            } else {
                const int64_t mz = (zg & 1) ? hz + (zg >> 1) : (zg >> 1);
                const int64_t my = (yg & 1) ? hy + (yg >> 1) : (yg >> 1);
                float *row_p = dst + mz * sz + my * sy;
                float *lo = row_p + (xb >> 1), *hi = row_p + hx + (xb >> 1);
                if (xb + T3_K <= nx) {
                    store4<float>(lo, u[H], u[H + 2], u[H + 4], u[H + 6], vec);
                    store4<float>(hi, u[H + 1], u[H + 3], u[H + 5], u[H + 7], vec);
                } else {
                    for (int i = 0; i < T3_K && xb + i < nx; i++) {
                        if (i & 1) hi[i >> 1] = u[H + i];
                        else lo[i >> 1] = u[H + i];
                    }
                }
            }
        }
        __syncthreads();
    }
}

template <int W, int INV, int V>
static cudaError_t t3_launch_v(const lwk_tile3d *t, const void *src, void *dst, cudaStream_t s)
{
    constexpr int H = sh_halo(W), T3_TZ = t3cfg<V>::TZ, T3_TY = t3cfg<V>::TY;
    const size_t smem = (size_t)T3_TZ * (T3_TY + 2 * H) * (T3_TX + 2 * H) * sizeof(float);
    static int attr_done;
    if (!attr_done) {
        cudaError_t e = cudaFuncSetAttribute(tile3_vh<W, INV, V>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
        if (e != cudaSuccess) return e;
        attr_done = 1;
    }
    int64_t gx = (t->n[2] + T3_TX - 1) / T3_TX, gy = (t->n[1] + T3_TY - 1) / T3_TY;
    int64_t zch = (t->n[0] + T3_TZ - 1) / T3_TZ;
    if (gx > 0x7fffffff || gy > 65535) return cudaErrorInvalidConfiguration;
    /* enough blocks for two per SM, each sliding over a run of z chunks */
    static int sms;
    if (!sms) {
        int dev = 0;
        if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess)
            sms = 132;
    }
    int64_t gz = (t3cfg<V>::MINB * sms + gx * gy - 1) / (gx * gy);
    if (gz > zch) gz = zch;
    if (gz < 1) gz = 1;
    tile3_vh<W, INV, V><<<dim3((unsigned)gx, (unsigned)gy, (unsigned)gz), T3_THREADS, smem, s>>>(*t, (const float *)src,
                                                                                         (float *)dst);
    return cudaGetLastError();
}

template <int W, int INV> static cudaError_t t3_launch(const lwk_tile3d *t, const void *src, void *dst, cudaStream_t s)
{
    return t3_launch_v<W, INV, 0>(t, src, dst, s);
}

extern "C" int lwk_tile3d_supported(int dtype, const lwk_wave *w, int mode, const int64_t *n)
{
    if (dtype != LWK_F32) return 0;
    for (int a = 0; a < 3; a++)
        if (!lwk_tile2d_supported(dtype, w, mode, n[a], 2)) return 0;
    return w->id != LW_DD137; /* its halo leaves one block per SM: the two-pass path is as good */
}

extern "C" cudaError_t lwk_tile3d_run(const lwk_tile3d *t, int inverse, const void *src, void *dst, cudaStream_t s)
{
    switch (t->w.id) {
    case LW_HAAR: return inverse ? t3_launch<0, 1>(t, src, dst, s) : t3_launch<0, 0>(t, src, dst, s);
    case LW_CDF53: return inverse ? t3_launch<1, 1>(t, src, dst, s) : t3_launch<1, 0>(t, src, dst, s);
    case LW_CDF97: return inverse ? t3_launch<2, 1>(t, src, dst, s) : t3_launch<2, 0>(t, src, dst, s);
    case LW_D4: return inverse ? t3_launch<4, 1>(t, src, dst, s) : t3_launch<4, 0>(t, src, dst, s);
    }
    return cudaErrorInvalidValue;
}
