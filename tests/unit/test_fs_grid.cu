/* The cuda Faber-Schauder engine without a GPU: the launches of
 * lw_cuda_run_fs (src/cuda/fs_exec.c) with each launch's thread body
 * (src/cuda/k_fs.cu, the code the kernels run) executed on the host over
 * every block and thread, against the cpu backend.
 *
 * Forward: the one launch over the level-0 cells.  Inverse: the shared-memory
 * tail (each phase over all threads, as between its barriers) from the level
 * lwk_fs_tail_level picks, or from the coarsest level (no tail: every level a
 * grid launch), then one grid launch per level into the two region buffers.
 * Threads run in launch order and, for the in-place interleaved inverse (the
 * one run in place as it is), also in reverse order, where a thread reading a
 * sample another one overwrites would show.  Every case runs with the grid
 * bodies' 32-bit indices (what the kernels take for arrays under 2^30
 * elements) and again with 64-bit ones.
 *
 * Cases: 1-D, 2-D, 3-D over random lengths 1-19 (2-D up to 70; periodic:
 * rounded up to a multiple of 2, 4 or 8), with 0-2 batch dims before or
 * after, 1-4 levels where the shape allows them, and max, both modes (periodic on
 * even lengths), both layouts, float32, float64 and int32.  float32 within
 * 1e-5 and float64 within 1e-12 of max |reference|; int32 exact.  Built where
 * nvcc is (the bodies are CUDA C++); needs no device. */
#define LWK_FS_HD __host__ __device__ __forceinline__
#define LWK_FS_NO_KERNELS
#include "cuda/k_fs.cu"

#include "core/lw_internal.h"
#include "cuda/cuda_exec.h"
#include "lw_test.h"
#include "lw_test_plan.h"

#include <math.h>
#include <string.h>
#include <vector>

static long g_cases, g_tail, g_grid_levels, g_reversed, g_wide_runs;
static bool g_wide; /* the grid bodies index in int64_t (else int, as the kernels do for arrays under 2^30) */

/* every thread of the grid launch for level k (k < 0: the forward) */
template <class T, int NA, bool MALLAT>
static void grid_launch(const lwk_fs &f, int k, const T *src, T *dst, T *r0, T *r1, bool reverse)
{
    dim3 g, b;
    if (!fs_dims(&f, k < 0 ? 0 : k, &g, &b)) return;
    const int64_t nthr = (int64_t)g.x * g.y * g.z * b.x * b.y;
    for (int64_t i0 = 0; i0 < nthr; i0++) {
        int64_t i = reverse ? nthr - 1 - i0 : i0;
        fs_idx t;
        t.tx = (unsigned)(i % b.x), i /= b.x;
        t.ty = (unsigned)(i % b.y), i /= b.y;
        t.bx = (unsigned)(i % g.x), i /= g.x;
        t.by = (unsigned)(i % g.y), i /= g.y;
        t.bz = (unsigned)i;
        t.gy = g.y, t.gz = g.z, t.bdx = b.x, t.bdy = b.y;
        if (g_wide) {
            if (k < 0) fs_grid_body<T, NA, MALLAT, false, int64_t>(f, 0, src, dst, NULL, NULL, t);
            else fs_grid_body<T, NA, MALLAT, true, int64_t>(f, k, src, dst, r0, r1, t);
        } else {
            if (k < 0) fs_grid_body<T, NA, MALLAT, false, int>(f, 0, src, dst, NULL, NULL, t);
            else fs_grid_body<T, NA, MALLAT, true, int>(f, k, src, dst, r0, r1, t);
        }
    }
}

/* the tail launch: per batch item, each phase over all its threads */
template <class T, int NA, bool MALLAT>
static void tail_launch(const lwk_fs &f, int k0, const T *src, T *dst, T *r0, T *r1)
{
    std::vector<T> W(FS_TAIL_BYTES / sizeof(T));
    const unsigned nthr = FS_TAIL_THREADS;
    for (int64_t b = 0; b < f.nbatch; b++) {
        const int64_t base = fs_batch_base(f, b);
        for (unsigned t = 0; t < nthr; t++) fs_tail_load<T, NA, MALLAT>(f, k0, src, W.data(), base, t, nthr);
        for (int k = f.levels - 1; k >= k0; k--)
            for (unsigned t = 0; t < nthr; t++) fs_tail_step<T, NA>(f, k0, k, W.data(), t, nthr);
        for (unsigned t = 0; t < nthr; t++) fs_tail_store<T, NA>(f, k0, W.data(), dst, r0, r1, b, base, t, nthr);
    }
}

/* lw_cuda_run_fs's launch sequence; no_tail: every inverse level a grid launch */
template <class T, int NA, bool MALLAT>
static void run(const lwk_fs &f, lw_direction dir, int dtype, const T *src, T *dst, bool no_tail, bool reverse)
{
    if (dir == LW_FORWARD) {
        grid_launch<T, NA, MALLAT>(f, -1, src, dst, NULL, NULL, reverse);
        return;
    }
    std::vector<T> r1((size_t)(f.levels >= 2 ? lwk_fs_region(&f, 1) : 0) + 1);
    std::vector<T> r0((size_t)(f.levels >= 3 ? lwk_fs_region(&f, 2) : 0) + 1);
    const int k0 = no_tail ? f.levels : lwk_fs_tail_level(&f, dtype);
    if (k0 < f.levels) tail_launch<T, NA, MALLAT>(f, k0, src, dst, r0.data(), r1.data()), g_tail++;
    for (int k = k0 - 1; k >= 0; k--) grid_launch<T, NA, MALLAT>(f, k, src, dst, r0.data(), r1.data(), reverse), g_grid_levels++;
}

template <class T>
static void run_t(const lwk_fs &f, lw_direction dir, int dtype, const T *src, T *dst, bool no_tail, bool reverse)
{
    switch (f.na * 2 + (f.mallat ? 1 : 0)) {
    case 2: run<T, 1, false>(f, dir, dtype, src, dst, no_tail, reverse); break;
    case 3: run<T, 1, true>(f, dir, dtype, src, dst, no_tail, reverse); break;
    case 4: run<T, 2, false>(f, dir, dtype, src, dst, no_tail, reverse); break;
    case 5: run<T, 2, true>(f, dir, dtype, src, dst, no_tail, reverse); break;
    case 6: run<T, 3, false>(f, dir, dtype, src, dst, no_tail, reverse); break;
    default: run<T, 3, true>(f, dir, dtype, src, dst, no_tail, reverse); break;
    }
}

static double at(lw_dtype t, const std::vector<char> &v, size_t i)
{
    return t == LW_FLOAT32 ? ((const float *)v.data())[i]
                           : t == LW_FLOAT64 ? ((const double *)v.data())[i] : ((const int32_t *)v.data())[i];
}

static void one(int rank, const int64_t *shape, int naxes, const int *axes, lw_mode mode, lw_layout lay, lw_dtype t,
                int levels, lw_direction dir, bool in_place, bool no_tail)
{
    lw_plan *p = NULL;
    lw_status st = lw_test_plan(&p, rank, shape, naxes, axes, LW_FS, mode, lay, t, LW_LEVELS_MAX, dir, LW_BACKEND_CPU);
    CHECK(st == LW_OK, "plan: %s", lw_last_error());
    if (st != LW_OK) return;
    const int lmax = p->geo.levels;
    if (lmax == 0) { /* no level: the cuda backend copies (no fs launch) */
        lw_destroy(p);
        return;
    }
    if (levels != LW_LEVELS_MAX && levels < lmax) {
        lw_destroy(p);
        st = lw_test_plan(&p, rank, shape, naxes, axes, LW_FS, mode, lay, t, levels, dir, LW_BACKEND_CPU);
        CHECK(st == LW_OK, "plan: %s", lw_last_error());
        if (st != LW_OK) return;
    }
    const size_t n = (size_t)p->geo.total, es = t == LW_FLOAT64 ? 8 : 4;
    std::vector<char> in(n * es), ref(n * es), got(n * es, 0);
    for (size_t i = 0; i < n; i++) {
        if (t == LW_FLOAT32) ((float *)in.data())[i] = (float)(lw_rng_unit() * 2 - 1);
        else if (t == LW_FLOAT64) ((double *)in.data())[i] = lw_rng_unit() * 2 - 1;
        else ((int32_t *)in.data())[i] = (int32_t)lw_rng_range(-1000, 1000);
    }
    st = lw_execute(p, in.data(), ref.data());
    CHECK(st == LW_OK, "cpu execute: %s", lw_last_error());
    lwk_fs f;
    lw_cuda_fs_setup(p, &f);
    const int dtype = t == LW_FLOAT32 ? LWK_F32 : t == LW_FLOAT64 ? LWK_F64 : LWK_I32;
    for (int run_i = 0; run_i < (in_place ? 2 : 1) + 1; run_i++) {
        const bool rev = in_place && run_i == 1;
        g_wide = run_i == (in_place ? 2 : 1);
        g_wide_runs += g_wide;
        const void *src = in.data();
        void *dst = got.data();
        if (in_place) memcpy(got.data(), in.data(), n * es), src = got.data();
        if (t == LW_FLOAT32) run_t<float>(f, dir, dtype, (const float *)src, (float *)dst, no_tail, rev);
        else if (t == LW_FLOAT64) run_t<double>(f, dir, dtype, (const double *)src, (double *)dst, no_tail, rev);
        else run_t<int32_t>(f, dir, dtype, (const int32_t *)src, (int32_t *)dst, no_tail, rev);
        g_reversed += rev;
        double mx = 0, dm = 0;
        for (size_t i = 0; i < n; i++) {
            mx = fmax(mx, fabs(at(t, ref, i)));
            const double d = fabs(at(t, ref, i) - at(t, got, i));
            dm = d > dm || d != d ? d : dm;
        }
        const double tol = t == LW_FLOAT32 ? 1e-5 : t == LW_FLOAT64 ? 1e-12 : 0;
        char sh[64];
        int o = 0;
        for (int i = 0; i < rank; i++) o += snprintf(sh + o, sizeof sh - o, "%s%lld", i ? "x" : "", (long long)shape[i]);
        CHECK(dm <= tol * (mx > 1 ? mx : 1), "fs %s axes %d..%d %s %s %s levels %d %s%s%s%s: max diff %g", sh, axes[0],
              axes[naxes - 1], mode == LW_PERIODIC ? "periodic" : "symmetric", lay == LW_MALLAT ? "mallat" : "interleaved",
              t == LW_FLOAT32 ? "f32" : t == LW_FLOAT64 ? "f64" : "i32", p->geo.levels,
              dir == LW_INVERSE ? "inverse" : "forward", in_place ? (rev ? " in place reversed" : " in place") : "",
              no_tail ? " no tail" : "", g_wide ? " int64" : "", dm);
    }
    g_cases++;
    lw_destroy(p);
}

int main(void)
{
    lw_rng_seed(lw_test_seed(20261128));
    static const lw_dtype types[] = {LW_FLOAT32, LW_FLOAT64, LW_INT32};
    for (int it = 0; it < 900; it++) {
        const int na = 1 + it % 3, nbd = (int)lw_rng_range(0, na == 3 ? 1 : 2), rank = na + nbd;
        const lw_mode mode = lw_rng_range(0, 2) ? LW_SYMMETRIC : LW_PERIODIC;
        int64_t shape[4];
        int axes[3], k = 0;
        const int first = (int)lw_rng_range(0, nbd); /* the transformed axes start here, contiguous */
        for (int i = 0; i < rank; i++) {
            const bool tr = i >= first && i < first + na;
            int64_t len = tr ? lw_rng_range(1, na == 2 ? 70 : 19) : lw_rng_range(1, 3);
            if (tr && mode == LW_PERIODIC) { /* even at every level it runs: a multiple of 2^j */
                const int64_t q = (int64_t)1 << lw_rng_range(1, 3);
                len = (len + q - 1) / q * q;
            }
            shape[i] = len;
            if (tr) axes[k++] = i;
        }
        const lw_layout lay = lw_rng_range(0, 1) ? LW_MALLAT : LW_INTERLEAVED;
        const lw_dtype t = types[it / 3 % 3];
        const lw_direction dir = lw_rng_range(0, 1) ? LW_INVERSE : LW_FORWARD;
        const int levels = lw_rng_range(0, 2) ? LW_LEVELS_MAX : (int)lw_rng_range(1, 4);
        const bool in_place = dir == LW_INVERSE && lay == LW_INTERLEAVED && lw_rng_range(0, 1);
        one(rank, shape, na, axes, mode, lay, t, levels, dir, in_place, false);
        if (dir == LW_INVERSE) one(rank, shape, na, axes, mode, lay, t, levels, dir, in_place, true);
    }
    /* the matrix's shapes, scaled down: a cube and a batch of squares */
    static const int64_t cube[3] = {40, 36, 34}, batch[3] = {3, 66, 64};
    static const int a3[3] = {0, 1, 2}, a2[2] = {1, 2};
    for (int d = 0; d < 2; d++)
        for (int lay = 0; lay < 2; lay++) {
            const lw_direction dir = d ? LW_INVERSE : LW_FORWARD;
            const lw_layout l = lay ? LW_MALLAT : LW_INTERLEAVED;
            for (int lv : {1, LW_LEVELS_MAX}) {
                one(3, cube, 3, a3, LW_SYMMETRIC, l, LW_FLOAT32, lv, dir, false, false);
                one(3, batch, 2, a2, LW_SYMMETRIC, l, LW_FLOAT32, lv, dir, false, false);
            }
        }
    printf("%ld cases, %ld tail launches, %ld grid inverse levels, %ld reversed runs, %ld with int64_t indices\n",
           g_cases, g_tail, g_grid_levels, g_reversed, g_wide_runs);
    CHECK(g_tail > 0 && g_grid_levels > 0 && g_reversed > 0 && g_wide_runs > 0, "a launch kind was not exercised");
    return lw_test_finish("test_fs_grid");
}
