/* The strip walker's memory pattern alone (issue 15; bench/NOTES-walker-plain.md): does reading and
 * writing back a 16384^2 float32 array in place by strips of SW columns (plus a margin of HA columns
 * each side, read only), in bands of BH rows walked top to bottom by a block a row segment, run at the
 * device copy's rate, or is the pattern itself (pieces of (SW + 2 HA) x 4 bytes a row, 748 blocks
 * spread over the rows) slow?  No lifting, no shared memory use, no waits between blocks: each block
 * loads a group of its band's pieces into registers (16-byte loads, up to PT a thread in flight) and
 * stores its own columns back, so what is left is the access pattern.
 *
 *   nvcc -O3 -arch=sm_90 -o walk_pattern bench/exp/walk_pattern.cu && ./walk_pattern [rows cols]
 *
 * Variants (each timed as the median of 20 launches after 3 warm-ups, CUDA events, the same run's
 * device-to-device copy of the array as the bound):
 *   rows      every row whole, grid-stride over 16-byte pieces (the pattern's best case)
 *   walk SW   strips of SW columns, row segments as the library's walker picks them (resident blocks /
 *             strips, at most 8), a block walking its segment's bands; SW = 88 is the walker's
 *   tile SW   the same pieces, a block a band of a strip (no walking: as many blocks as bands), the
 *             grid in band-major order (the blocks resident together cover a few neighbouring bands)
 *   tile-sm   the same, strip-major order (the blocks resident together cover few strips, all bands)
 *   walk-step/L  walk, but a block starts its k-th band only once the blocks have done k - L bands on
 *             the mean (one counter; the time includes zeroing it)
 *   tip SW    in place with no stash: persistent blocks (256 threads, as many as are resident) take
 *             tiles of BH rows x SW columns in band-major order by tickets; each loads its whole window
 *             (H = 4 rows and HA columns of halo each way) into shared memory, raises its tile's flag,
 *             waits for the flags of the eight tiles around it (whose windows overlap its own tile:
 *             they must have read it before it is overwritten) and stores its tile.  Loads never
 *             wait, so no chain of waits forms; the oldest tile waits only on tiles at most a band
 *             and one tile later, which run as long as more than (tiles a band + 2) blocks are
 *             resident.  The time includes zeroing the flags.
 *   tip-nw SW the same without the waits (not in place safe: the cost of the waits is the difference)
 * A block reserves SMEM bytes of shared memory it does not use, so that as many blocks are resident
 * an SM as for the walker (32000 bytes: 7 an SM on an H100).  The values written are the values read
 * (times a factor of 1 given at run time), so the array stays finite however often it runs. */
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x)                                                                                    \
    do {                                                                                         \
        cudaError_t e_ = (x);                                                                    \
        if (e_ != cudaSuccess) {                                                                 \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
            exit(1);                                                                             \
        }                                                                                        \
    } while (0)

enum { THREADS = 96, PT = 8, HA = 4, BH = 32, TIP_THREADS = 256, TIP_H = 4 };

struct pattern {
    float *a;
    long long rows, cols; /* cols: a multiple of 4 */
    int sw;               /* strip width (columns, a multiple of 4) */
    long long strips, segs, seg_rows;
    int walk;             /* 1: a block walks its segment's bands; 0: a block a band, band-major;
                             2: a block a band, strip-major; 3: walk, in step (lead) */
    int lead;             /* walk 3: bands a block may run ahead of the blocks' mean */
    unsigned int *done;   /* walk 3: bands done, all blocks together (zeroed before each launch) */
    float f;              /* 1.0f, given at run time */
};

__host__ __device__ __forceinline__ long long lmin(long long x, long long y) { return x < y ? x : y; }

/* One band [r0, r1) of strip s: its pieces (16 bytes, the strip's columns and the margins inside the
 * array) loaded a group of PT a thread at a time, the strip's own pieces stored back.  32-bit index
 * arithmetic inside a band, so that the loop's cost stays small beside its memory traffic. */
__device__ __forceinline__ void band(const pattern &p, long long s, long long r0, long long r1)
{
    const long long c0 = s * p.sw - HA, c1 = lmin((s + 1) * p.sw + HA, p.cols);
    const long long lo = c0 < 0 ? 0 : c0;
    const int own0 = (int)(s * p.sw - lo), own1 = (int)(lmin((s + 1) * p.sw, p.cols) - lo);
    const int per_row = (int)((c1 - lo) / 4), n = per_row * (int)(r1 - r0);
    float *base = p.a + r0 * p.cols + lo;
    for (int g = 0; g < n; g += THREADS * PT) {
        float4 v[PT];
        float *at[PT];
#pragma unroll
        for (int j = 0; j < PT; j++) {
            const int i = g + (int)threadIdx.x + j * THREADS;
            at[j] = nullptr;
            if (i < n) {
                const int r = i / per_row, c = (i - r * per_row) * 4;
                at[j] = (c >= own0 && c < own1) ? base + (long long)r * p.cols + c : nullptr;
                v[j] = *reinterpret_cast<const float4 *>(base + (long long)r * p.cols + c);
            }
        }
#pragma unroll
        for (int j = 0; j < PT; j++) {
            if (!at[j]) continue;
            float4 w = v[j];
            w.x *= p.f, w.y *= p.f, w.z *= p.f, w.w *= p.f;
            *reinterpret_cast<float4 *>(at[j]) = w;
        }
    }
}

__global__ void __launch_bounds__(THREADS) strips_kernel(pattern p)
{
    extern __shared__ float reserve[]; /* only to hold the walker's blocks an SM */
    if (p.walk == 1 || p.walk == 3) {
        const long long s = blockIdx.x % p.strips, seg = blockIdx.x / p.strips;
        const long long top = seg * p.seg_rows, bot = lmin(top + p.seg_rows, p.rows);
        unsigned int k = 0;
        for (long long r = top; r < bot; r += BH, k++) {
            if (p.walk == 3 && k > (unsigned)p.lead) { /* wait until the blocks' mean is within lead bands */
                if (threadIdx.x == 0) {
                    const unsigned int need = (k - p.lead) * gridDim.x;
                    while (*(volatile unsigned int *)p.done < need) __nanosleep(200);
                }
                __syncthreads();
            }
            band(p, s, r, lmin(r + BH, bot));
            if (p.walk == 3) {
                __syncthreads();
                if (threadIdx.x == 0) atomicAdd(p.done, 1u);
            }
        }
    } else {
        const long long bands = (p.rows + BH - 1) / BH;
        const long long s = p.walk == 2 ? blockIdx.x / bands : blockIdx.x % p.strips;
        const long long b = p.walk == 2 ? blockIdx.x % bands : blockIdx.x / p.strips;
        if (b < bands) band(p, s, b * BH, lmin(b * BH + BH, p.rows));
    }
    if (p.f == 12345.f) reserve[threadIdx.x] = 0.f; /* never: keeps the reservation */
}

/* tip: see the header.  flags[0] is the ticket counter, flags[1 + t] tile t's "window loaded". */
__global__ void __launch_bounds__(TIP_THREADS) tip_kernel(float *a, long long rows, long long cols, int sw,
                                                         unsigned int *flags, int wait, float f)
{
    extern __shared__ float4 win[];
    __shared__ long long tk;
    const long long strips = (cols + sw - 1) / sw, bands = (rows + BH - 1) / BH, tiles = strips * bands;
    const int wq = (sw + 2 * HA) / 4; /* 16-byte pieces a window row */
    for (;;) {
        __syncthreads(); /* the window is free, tk may be rewritten */
        if (threadIdx.x == 0) tk = atomicAdd(flags, 1u);
        __syncthreads();
        const long long t = tk;
        if (t >= tiles) break;
        const long long b = t / strips, s = t % strips, r0 = b * BH - TIP_H, c0 = s * sw - HA;
        const int nr = BH + 2 * TIP_H;
        for (int i = threadIdx.x; i < nr * wq; i += TIP_THREADS) {
            const long long r = r0 + i / wq, c = c0 + (long long)(i % wq) * 4;
            if (r >= 0 && r < rows && c >= 0 && c < cols) win[i] = *reinterpret_cast<const float4 *>(a + r * cols + c);
        }
        __syncthreads(); /* every load of the window done */
        if (threadIdx.x == 0) {
            __threadfence();
            atomicExch(flags + 1 + t, 1u);
        }
        if (wait && threadIdx.x < 9 && threadIdx.x != 4) {
            const long long nb = b + (int)threadIdx.x / 3 - 1, ns = s + (int)threadIdx.x % 3 - 1;
            if (nb >= 0 && nb < bands && ns >= 0 && ns < strips) {
                const volatile unsigned int *g = flags + 1 + nb * strips + ns;
                while (*g == 0) __nanosleep(32);
            }
            __threadfence();
        }
        __syncthreads();
        const int oq = sw / 4;
        for (int i = threadIdx.x; i < BH * oq; i += TIP_THREADS) {
            const long long r = b * BH + i / oq, c = s * sw + (long long)(i % oq) * 4;
            if (r < rows && c < cols) {
                float4 w = win[(i / oq + TIP_H) * wq + HA / 4 + i % oq];
                w.x *= f, w.y *= f, w.z *= f, w.w *= f;
                *reinterpret_cast<float4 *>(a + r * cols + c) = w;
            }
        }
    }
}

__global__ void rows_kernel(float4 *a, long long n4, float f)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n4; i += (long long)gridDim.x * blockDim.x) {
        float4 w = a[i];
        w.x *= f, w.y *= f, w.z *= f, w.w *= f;
        a[i] = w;
    }
}

template <class F> static double median_ms(F launch)
{
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    for (int i = 0; i < 3; i++) launch();
    CK(cudaDeviceSynchronize());
    std::vector<float> t;
    for (int i = 0; i < 20; i++) {
        CK(cudaEventRecord(e0));
        launch();
        CK(cudaEventRecord(e1));
        CK(cudaEventSynchronize(e1));
        float ms = 0;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        t.push_back(ms);
    }
    CK(cudaGetLastError());
    std::sort(t.begin(), t.end());
    CK(cudaEventDestroy(e0));
    CK(cudaEventDestroy(e1));
    return t[t.size() / 2];
}

int main(int argc, char **argv)
{
    const long long rows = argc > 1 ? atoll(argv[1]) : 16384, cols = argc > 2 ? atoll(argv[2]) : 16384;
    const int smem = argc > 3 ? atoi(argv[3]) : 32000;
    if (rows < 1 || cols < 8 || cols % 4 || smem < 0) {
        fprintf(stderr, "usage: walk_pattern [rows cols (a multiple of 4)] [reserved shared bytes a block]\n");
        return 2;
    }
    const size_t bytes = (size_t)rows * (size_t)cols * sizeof(float);
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    float *a, *b;
    CK(cudaMalloc(&a, bytes));
    CK(cudaMalloc(&b, bytes));
    CK(cudaMemset(a, 0, bytes));
    CK(cudaFuncSetAttribute(strips_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    int per_sm = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, strips_kernel, THREADS, smem));
    const long long resident = (long long)per_sm * prop.multiProcessorCount;
    const double copy = median_ms([&] { CK(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice)); });
    printf("# %s, %lld x %lld float32 (%.0f MiB), %d blocks of %d threads an SM (%d B reserved), copy %.3f ms\n",
           prop.name, rows, cols, bytes / 1048576.0, per_sm, THREADS, smem, copy);
    printf("%-10s %6s %6s %6s %8s %9s %8s\n", "variant", "SW", "strips", "segs", "blocks", "ms", "of copy");
    const float one = 1.0f;
    const double r = median_ms([&] {
        rows_kernel<<<prop.multiProcessorCount * 16, 256>>>(reinterpret_cast<float4 *>(a), (long long)(bytes / 16), one);
    });
    printf("%-10s %6s %6s %6s %8s %9.3f %8.3f\n", "rows", "-", "-", "-", "-", r, copy / r);
    unsigned int *done;
    CK(cudaMalloc(&done, sizeof(unsigned int)));
    static const char *names[] = {"tile", "walk", "tile-sm", "walk-step"};
    for (int sw : {88, 120, 184, 248, 376, 504, 1016}) {
        for (int walk : {1, 3, 0, 2}) {
            for (int lead : {1, 4}) {
                if (walk != 3 && lead != 1) continue;
                pattern p{a, rows, cols, sw, (cols + sw - 1) / sw, 1, rows, walk, lead, done, one};
                long long blocks;
                if (walk == 1 || walk == 3) {
                    long long v = resident / p.strips;
                    const long long bands = (rows + BH - 1) / BH;
                    v = std::max(1LL, std::min({v, 8LL, bands}));
                    const long long bands_seg = (bands + v - 1) / v;
                    p.seg_rows = bands_seg * BH, p.segs = (bands + bands_seg - 1) / bands_seg;
                    blocks = p.strips * p.segs;
                    /* in step needs every block resident at once (the walker's rule gives that) */
                    if (walk == 3 && blocks > resident) continue;
                } else {
                    p.segs = (rows + BH - 1) / BH;
                    blocks = p.strips * p.segs;
                }
                const double t = median_ms([&] {
                    if (walk == 3) CK(cudaMemsetAsync(done, 0, sizeof(unsigned int)));
                    strips_kernel<<<(unsigned)blocks, THREADS, smem>>>(p);
                });
                char name[32];
                snprintf(name, sizeof name, walk == 3 ? "%s/%d" : "%s", names[walk], lead);
                printf("%-10s %6d %6lld %6lld %8lld %9.3f %8.3f\n", name, sw, p.strips,
                       walk == 1 || walk == 3 ? p.segs : 0LL, blocks, t, copy / t);
            }
        }
    }
    /* tip: in place with no stash, tiles in band-major order */
    for (int sw : {120, 248, 504}) {
        const size_t wsm = (size_t)(sw + 2 * HA) * (BH + 2 * TIP_H) * sizeof(float);
        CK(cudaFuncSetAttribute(tip_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)wsm));
        int tper = 0;
        CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&tper, tip_kernel, TIP_THREADS, wsm));
        const long long tres = (long long)tper * prop.multiProcessorCount, strips = (cols + sw - 1) / sw;
        const long long tiles = strips * ((rows + BH - 1) / BH);
        if (tres < strips + 2) {
            printf("tip %d: %lld resident blocks, not more than a band's %lld tiles + 2: skipped\n", sw, tres, strips);
            continue;
        }
        unsigned int *fl;
        CK(cudaMalloc(&fl, (size_t)(tiles + 1) * sizeof(unsigned int)));
        for (int wait : {1, 0}) {
            const double t = median_ms([&] {
                CK(cudaMemsetAsync(fl, 0, (size_t)(tiles + 1) * sizeof(unsigned int)));
                tip_kernel<<<(unsigned)tres, TIP_THREADS, wsm>>>(a, rows, cols, sw, fl, wait, one);
            });
            printf("%-10s %6d %6lld %6s %8lld %9.3f %8.3f\n", wait ? "tip" : "tip-nw", sw, strips, "-", tres, t, copy / t);
        }
        CK(cudaFree(fl));
    }
    CK(cudaFree(done));
    CK(cudaFree(a));
    CK(cudaFree(b));
    return 0;
}
