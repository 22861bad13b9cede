/* The cuda "local" engine without a GPU: its launches as the engine plans
 * them (src/cuda/local_exec.c: views over in, out and the workspace) and
 * each launch's thread body (src/cuda/local_body.cuh, the code the kernel
 * runs) executed on the host over every block, against the cpu backend.
 *
 * Cases: haar (float32, float64, float16, bfloat16) and the integer haar
 * (int32); 1-D, 2-D and 3-D along the trailing axes, with 0-2 batch axes,
 * and followed by one dim (channels last: HWC, NHWC, THWC);
 * 1 to 9 levels (one to three launches; lengths chosen so that some launches
 * take the wide block and some the narrow one); both layouts; forward and
 * inverse; out of place, in place (interleaved; its coefficients moved as
 * whole blocks, the lowpass apart on later inverse launches out of place),
 * level 1 slab by slab and the whole block (local_slabs=on / off: 2-D three
 * levels a launch, 3-D two, every type),
 * local_block=narrow where the wide block would run, local_block=strided
 * (the warp-strided map: 11 shapes of every dtype), and arrays one element off
 * their alignment (the scalar accesses).  float32 within 1e-5 and float64
 * within 1e-12 of max |reference|; int32 exact; the half types within
 * (1 + 3 R) units of the cpu half result, R the launches' intermediate
 * roundings.  Also: where the engine must not apply (other wavelets,
 * lengths not multiples of 2^levels, axes not adjacent, adjoints); and the
 * bands of lw_execute_bands each in a buffer of its own (float32, float64,
 * int32), against the cpu's lw_execute_bands.
 * Built where nvcc is (the body is CUDA C++); needs no device. */
#include "core/half.h"
#include "core/lw_internal.h"
#include "cuda/local_exec.h"
#include "cuda/local_body.cuh"
#include "lw_test.h"
#include "lw_test_plan.h"

#include <math.h>
#include <string.h>
#include <vector>

static long g_cases, g_launches, g_wide, g_narrow, g_scalar, g_whole, g_low_apart, g_strided, g_ran_strided, g_slabs[4];
static int g_block = LW_LOCAL_BLOCK_AUTO; /* the plans' tuning local_block */
static int g_slabs_tune;                   /* the plans' tuning local_slabs: 0 auto, 1 on, 2 off */
static long g_bands_whole[4];              /* launches of 64-sample blocks into the bands, whole (by D) */
static int g_inner = 0;                    /* 1: a dim after the transformed ones (channels last) */
static long g_inner_launches;

/* every block of launch k on the host */
static cudaError_t run_on_host(int dtype, const lwk_local *k)
{
    return lc_select(dtype, k, [&](auto tag) -> cudaError_t {
        typedef decltype(tag) T;
        typedef typename T::type S;
        const int64_t items = lc_items(k, lc_block<S, T::d, T::f, T::xm>::XL);
        constexpr bool can = lc_slabbed_t<S, T::d, T::f, T::xm>();
        if (k->slabs && !can) return cudaErrorInvalidValue;
        for (int64_t it = 0; it < items; it++) {
            if (k->slabs) lc_item<S, T::w, T::d, T::f, T::xm, T::inv, can>(*k, it);
            else lc_item<S, T::w, T::d, T::f, T::xm, T::inv>(*k, it);
        }
        (T::wide ? g_wide : g_narrow)++;
        g_ran_strided += T::xm == 2;
        g_slabs[T::d] += k->slabs;
        g_bands_whole[T::d] += can && !k->whole && !k->slabs;
        return cudaSuccess;
    });
}

static void fill(lw_dtype t, void *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const double x = lw_rng_unit() * 2 - 1;
        switch (t) {
        case LW_FLOAT32: ((float *)p)[i] = (float)x; break;
        case LW_FLOAT64: ((double *)p)[i] = x; break;
        case LW_INT32: ((int32_t *)p)[i] = (int32_t)lw_rng_range(-1000, 1000); break;
        case LW_FLOAT16: ((uint16_t *)p)[i] = lw_f32_to_f16((float)x); break;
        default: ((uint16_t *)p)[i] = lw_f32_to_bf16((float)x); break;
        }
    }
}

static const char *tname(lw_dtype t)
{
    return t == LW_FLOAT32 ? "f32" : t == LW_FLOAT64 ? "f64" : t == LW_INT32 ? "i32" : t == LW_FLOAT16 ? "f16" : "bf16";
}

/* cpu plans of the case in direction dir and forward (their geometry and wavelet are the engine's input) */
static void cpu_plans(lw_dtype t, int rank, const int64_t *shape, int D, int L, lw_layout lay, lw_direction dir,
                      lw_plan **p, lw_plan **pf)
{
    int axes[3];
    for (int a = 0; a < D; a++) axes[a] = rank - g_inner - D + a;
    *p = *pf = NULL;
    lw_test_plan(p, rank, shape, D, axes, LW_HAAR, LW_SYMMETRIC, lay, t, L, dir, LW_BACKEND_CPU);
    lw_test_plan(pf, rank, shape, D, axes, LW_HAAR, LW_SYMMETRIC, lay, t, L, LW_FORWARD, LW_BACKEND_CPU);
}

/* the engine's schedule for plan p, as lw_cuda_choose fills the fields it reads */
static void sched_of(const lw_plan *p, lw_cuda_sched *s)
{
    memset(s, 0, sizeof *s);
    s->dtype = (int)p->cfg.dtype;
    s->esize = lw_dtype_size(p->cfg.dtype);
    s->bytes = (size_t)p->geo.total * s->esize;
    lwk_wave_from_def(&s->w, p->wav, p->cfg.integer);
}

/* One case: rank / shape, D trailing axes, L levels. */
static void one_case(lw_dtype t, int rank, const int64_t *shape, int D, int L, lw_layout lay, lw_direction dir,
                     int inplace, int misalign)
{
    lw_plan *p, *pf;
    cpu_plans(t, rank, shape, D, L, lay, dir, &p, &pf);
    char txt[200], dims[80] = "";
    for (int d = 0; d < rank; d++)
        snprintf(dims + strlen(dims), sizeof dims - strlen(dims), "%s%lld", d ? "x" : "", (long long)shape[d]);
    snprintf(txt, sizeof txt, "%s %s D %d L %d%s %s %s%s%s", tname(t), dims, D, L, g_inner ? " channels last" : "",
             lay == LW_MALLAT ? "mallat" : "interleaved", dir == LW_FORWARD ? "fwd" : "inv", inplace ? " in place" : "",
             misalign ? " misaligned" : "");
    CHECK(p && pf, "%s: plan: %s", txt, lw_last_error());
    if (!p || !pf) return;
    lw_cuda_sched s;
    p->tune.local_block = g_block, p->tune.local_slabs = g_slabs_tune;
    sched_of(p, &s);
    CHECK(lw_local_applies(p, &s), "%s: the engine should apply", txt);
    lw_local_workspace(p, &s);
    const size_t es = s.esize, n = (size_t)p->geo.total, al = 16 / es;
    std::vector<unsigned char> x((n + al) * es), in((n + al) * es), ref(n * es), out((n + al) * es), scr(s.scratch + 64);
    void *xs = x.data() + (misalign ? es : 0), *ins = in.data() + (misalign ? es : 0), *outs = out.data() + (misalign ? es : 0);
    fill(t, xs, n);
    /* the input: samples (forward), their forward coefficients (inverse) */
    if (dir == LW_FORWARD) memcpy(ins, xs, n * es);
    else CHECK(lw_execute(pf, xs, ins) == LW_OK, "%s: cpu forward: %s", txt, lw_last_error());
    CHECK(lw_execute(p, ins, ref.data()) == LW_OK, "%s: cpu: %s", txt, lw_last_error());
    memset(outs, 0x5a, n * es);
    const void *src = ins;
    if (inplace) memcpy(outs, ins, n * es), src = outs;
    const int G = lw_local_launches(p);
    for (int i = 0; i < G; i++) {
        lwk_local k;
        lw_local_launch_at(p, &s, i, src, outs, NULL, scr.data(), &k);
        g_scalar += k.src.al < 16 || k.dst.al < 16;
        g_whole += k.whole, g_low_apart += k.low_apart, g_strided += k.strided;
        CHECK(!k.wide || g_block != LW_LOCAL_BLOCK_NARROW, "%s: local_block=narrow took the wide block", txt);
        CHECK(k.ninner == g_inner, "%s: %d inner batch dims planned", txt, k.ninner);
        CHECK(!g_inner || (!k.wide && !k.strided), "%s: channels last took a wide block", txt);
        g_inner_launches += k.ninner > 0;
        CHECK(k.whole == (lay == LW_INTERLEAVED), "%s: whole blocks %d", txt, k.whole);
        CHECK(!k.slabs || (g_slabs_tune != 2 && !k.whole), "%s: level 1 slab by slab against local_slabs", txt);
        CHECK(run_on_host(s.dtype, &k) == cudaSuccess, "%s: launch %d has no instantiation (D %d F %d wide %d)", txt, i,
              k.D, k.F, k.wide);
        g_launches++;
    }
    double mx = 0, err = 0;
    size_t worst = 0;
    for (size_t i = 0; i < n; i++) {
        const double r = lw_sample_as_double(ref.data(), t, i), v = lw_sample_as_double(outs, t, i), d = fabs(r - v);
        mx = fabs(r) > mx ? fabs(r) : mx;
        if (!(d <= err)) err = d == d ? d : INFINITY, worst = i;
    }
    double tol;
    if (t == LW_INT32) tol = 0;
    else if (t == LW_FLOAT64) tol = 1e-12 * mx;
    else if (t == LW_FLOAT32) tol = 1e-5 * mx;
    else tol = (1 + 3.0 * (G - 1)) * (t == LW_FLOAT16 ? 1.0 / 1024 : 1.0 / 128) * (mx > 1 ? mx : 1);
    CHECK(err <= tol, "%s: max error %g (allowed %g) at %zu: local %g cpu %g", txt, err, tol, worst,
          lw_sample_as_double(outs, t, worst), lw_sample_as_double(ref.data(), t, worst));
    g_cases++;
    lw_destroy(p);
    lw_destroy(pf);
}

/* lw_execute_bands' direct path: every band a buffer of its own, rows padded
 * by `pad` elements (pad 1: odd strides, the scalar accesses) */
static void bands_case(lw_dtype t, int rank, const int64_t *shape, int D, int L, lw_direction dir, int pad)
{
    lw_plan *p, *pf;
    cpu_plans(t, rank, shape, D, L, LW_MALLAT, dir, &p, &pf);
    CHECK(p && pf, "bands %s D %d L %d: plan: %s", tname(t), D, L, lw_last_error());
    if (!p || !pf) return;
    lw_cuda_sched s;
    sched_of(p, &s);
    lw_local_workspace(p, &s);
    const size_t es = s.esize, n = (size_t)p->geo.total;
    const int nb = lw_band_count(p);
    /* the bands: ours (the engine's) and the reference's (cpu), each row padded */
    std::vector<std::vector<unsigned char>> mine(nb), theirs(nb);
    std::vector<lw_band> bm(nb), bt(nb);
    std::vector<size_t> cnt(nb);
    for (int i = 0; i < nb; i++) {
        int64_t sh[LW_MAX_RANK];
        lw_band_shape(p, i, sh, NULL, NULL);
        int64_t st = 1;
        for (int d = rank - 1; d >= 0; d--) {
            bm[i].strides[d] = bt[i].strides[d] = st;
            st *= sh[d] + (d == rank - 1 ? pad : 0);
        }
        cnt[i] = (size_t)st;
        mine[i].assign((size_t)st * es + 16, 0), theirs[i].assign((size_t)st * es + 16, 0);
        bm[i].data = mine[i].data(), bt[i].data = theirs[i].data();
    }
    std::vector<unsigned char> x(n * es), y(n * es, 0), yref(n * es, 0), scr(s.scratch + 64);
    fill(t, x.data(), n);
    if (dir == LW_INVERSE) { /* both sides read the same coefficients */
        CHECK(lw_execute_bands(pf, x.data(), bt.data()) == LW_OK, "bands: cpu forward: %s", lw_last_error());
        for (int i = 0; i < nb; i++) mine[i] = theirs[i], bm[i].data = mine[i].data();
        CHECK(lw_execute_bands(p, yref.data(), bt.data()) == LW_OK, "bands: cpu inverse: %s", lw_last_error());
    } else {
        CHECK(lw_execute_bands(p, x.data(), bt.data()) == LW_OK, "bands: cpu forward: %s", lw_last_error());
    }
    for (int i = 0; i < lw_local_launches(p); i++) {
        lwk_local k;
        lw_local_launch_at(p, &s, i, x.data(), y.data(), bm.data(), scr.data(), &k);
        CHECK(run_on_host(s.dtype, &k) == cudaSuccess, "bands: no instantiation");
    }
    double err = 0, mx = 0;
    if (dir == LW_INVERSE) {
        for (size_t j = 0; j < n; j++) {
            const double r = lw_sample_as_double(yref.data(), t, j), d = fabs(r - lw_sample_as_double(y.data(), t, j));
            mx = fabs(r) > mx ? fabs(r) : mx, err = d > err || d != d ? d : err;
        }
    } else {
        for (int i = 0; i < nb; i++)
            for (size_t j = 0; j < cnt[i]; j++) {
                const double r = lw_sample_as_double(theirs[i].data(), t, j);
                const double d = fabs(r - lw_sample_as_double(mine[i].data(), t, j));
                mx = fabs(r) > mx ? fabs(r) : mx, err = d > err || d != d ? d : err;
            }
    }
    const double tol = t == LW_INT32 ? 0 : t == LW_FLOAT64 ? 1e-12 * mx : 1e-5 * mx;
    CHECK(err <= tol, "bands %s rank %d D %d L %d %s pad %d: max error %g (allowed %g)", tname(t), rank, D, L,
          dir == LW_FORWARD ? "fwd" : "inv", pad, err, tol);
    g_cases++;
    lw_destroy(p);
    lw_destroy(pf);
}

/* plans the engine must not take */
static void refusals(void)
{
    struct {
        lw_wavelet w;
        int rank;
        int64_t shape[4];
        int naxes, axes[3], levels;
        lw_direction dir;
        const char *why;
    } cs[] = {
        {LW_CDF53, 2, {64, 64}, 2, {0, 1}, 1, LW_FORWARD, "cdf53 reads outside its pairs"},
        {LW_HAAR, 2, {64, 66}, 2, {0, 1}, 2, LW_FORWARD, "66 is not a multiple of 4"},
        {LW_HAAR, 1, {7}, 1, {0}, 1, LW_FORWARD, "odd length"},
        {LW_HAAR, 3, {8, 4, 16}, 2, {0, 2}, 1, LW_FORWARD, "axes not adjacent"},
        {LW_HAAR, 4, {8, 16, 2, 3}, 2, {0, 1}, 1, LW_FORWARD, "two dims after the axes"},
        {LW_HAAR, 2, {64, 64}, 2, {0, 1}, 1, LW_FORWARD_ADJOINT, "adjoint direction (gain 2: not orthogonal)"},
    };
    for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
        lw_config cfg;
        lw_config_init(&cfg);
        cfg.wavelet = cs[i].w, cfg.rank = cs[i].rank, cfg.naxes = cs[i].naxes, cfg.levels = cs[i].levels;
        cfg.direction = cs[i].dir;
        if (lw_dir_adjoint(cfg.direction)) cfg.gain[0] = 2; /* else haar's adjoint runs as its inverse */
        for (int d = 0; d < cfg.rank; d++) cfg.shape[d] = cs[i].shape[d];
        for (int a = 0; a < cfg.naxes; a++) cfg.axes[a] = cs[i].axes[a];
        cfg.backend = LW_BACKEND_CPU;
        lw_plan *p = NULL;
        lw_plan_create(&p, &cfg);
        CHECK(p != NULL, "refusal case %zu: plan: %s", i, lw_last_error());
        if (!p) continue;
        lw_cuda_sched s;
        sched_of(p, &s);
        CHECK(!lw_local_applies(p, &s), "the engine applies where it must not: %s", cs[i].why);
        lw_destroy(p);
    }
}

struct shp {
    int rank, D, L;
    int64_t s[4];
};

/* shape h of type t in both layouts and directions, out of place; in place (interleaved); and
 * one element off alignment where misaligned */
static void layouts_case(lw_dtype t, const shp &h, bool misaligned)
{
    for (int lay = 0; lay < 2; lay++)
        for (int dir = 0; dir < 2; dir++) {
            const lw_layout l = lay ? LW_INTERLEAVED : LW_MALLAT;
            const lw_direction d = dir ? LW_INVERSE : LW_FORWARD;
            one_case(t, h.rank, h.s, h.D, h.L, l, d, 0, 0);
            if (l == LW_INTERLEAVED) one_case(t, h.rank, h.s, h.D, h.L, l, d, 1, 0);
            if (misaligned) one_case(t, h.rank, h.s, h.D, h.L, l, d, 0, 1);
        }
}

int main(void)
{
    lw_test_seed(20261127);
    static const lw_dtype types[] = {LW_FLOAT32, LW_FLOAT64, LW_INT32, LW_FLOAT16, LW_BFLOAT16};
    /* shapes: {rank, D, L, shape...}; transformed lengths multiples of 2^L, some with wide blocks at the
     * first launch only, some never (lengths 2^L times odd numbers) */
    const shp shapes[] = {
        {1, 1, 1, {64}},          {1, 1, 3, {8 * 5}},       {1, 1, 6, {64 * 3}},     {2, 1, 2, {3, 4 * 9}},
        {1, 1, 9, {512}},         {2, 2, 1, {6, 10}},       {2, 2, 1, {16, 64}},     {2, 2, 2, {12, 20}},
        {2, 2, 3, {24, 40}},      {2, 2, 4, {48, 80}},      {2, 2, 5, {64, 96}},     {2, 2, 7, {128, 256}},
        {3, 2, 2, {3, 8, 32}},    {4, 2, 3, {2, 3, 16, 24}}, {4, 2, 1, {2, 2, 6, 8}}, {3, 3, 1, {4, 6, 8}},
        {3, 3, 1, {2, 4, 32}},    {3, 3, 2, {8, 12, 16}},   {3, 3, 3, {8, 16, 24}},  {3, 3, 5, {32, 32, 64}},
        {4, 3, 2, {3, 4, 8, 16}}, {4, 3, 1, {2, 2, 2, 2}},
    };
    for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++)
        for (size_t ti = 0; ti < sizeof types / sizeof types[0]; ti++)
            layouts_case(types[ti], shapes[si], (si + ti) % 3 == 0);
    /* level 1 slab by slab and whole, every type, 2-D three levels a launch and 3-D two */
    const shp sl[] = {{2, 2, 3, {24, 40}}, {4, 2, 3, {2, 3, 16, 24}}, {3, 3, 2, {8, 12, 16}}, {4, 3, 4, {2, 16, 32, 48}}};
    for (g_slabs_tune = 1; g_slabs_tune <= 2; g_slabs_tune++)
        for (size_t si = 0; si < sizeof sl / sizeof sl[0]; si++)
            for (size_t ti = 0; ti < sizeof types / sizeof types[0]; ti++)
                layouts_case(types[ti], sl[si], (si + ti) % 3 == 0);
    g_slabs_tune = 0;
    /* local_block=narrow where the wide block would be taken */
    g_block = LW_LOCAL_BLOCK_NARROW;
    for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si += 2)
        for (int lay = 0; lay < 2; lay++)
            for (int dir = 0; dir < 2; dir++)
                one_case(si % 4 ? LW_BFLOAT16 : LW_FLOAT32, shapes[si].rank, shapes[si].s, shapes[si].D, shapes[si].L,
                         lay ? LW_INTERLEAVED : LW_MALLAT, dir ? LW_INVERSE : LW_FORWARD, 0, 0);
    /* local_block=strided: x-blocks a multiple of 32 (float32 wide blocks are 8 samples, bfloat16 16,
     * float64 4), one and more launches, batches, in place */
    static const struct {
        lw_dtype t;
        shp sh;
    } ST[] = {
        {LW_FLOAT32, {1, 1, 2, {512}}},        {LW_FLOAT32, {2, 2, 1, {4, 256}}},      {LW_FLOAT32, {2, 2, 2, {8, 512}}},
        {LW_FLOAT32, {3, 3, 1, {2, 4, 256}}},  {LW_FLOAT32, {3, 2, 1, {3, 2, 512}}},   {LW_FLOAT32, {2, 2, 5, {64, 1024}}},
        {LW_BFLOAT16, {2, 2, 1, {2, 512}}},    {LW_BFLOAT16, {1, 1, 3, {1024}}},       {LW_FLOAT16, {3, 3, 1, {2, 2, 512}}},
        {LW_FLOAT64, {2, 2, 1, {2, 128}}},     {LW_INT32, {2, 2, 2, {4, 512}}},
    };
    g_block = LW_LOCAL_BLOCK_STRIDED;
    const long strided0 = g_strided;
    for (size_t si = 0; si < sizeof ST / sizeof ST[0]; si++) layouts_case(ST[si].t, ST[si].sh, si % 4 == 0);
    CHECK(g_strided - strided0 >= 40, "local_block=strided took the warp-strided map in %ld launches",
          g_strided - strided0);
    /* channels last: a dim after the transformed ones (an image's colours, NHWC, THWC), the inner batch
     * dim of the kernel (narrow blocks, scalar accesses), whatever local_block asks */
    static const shp IN[] = {
        {3, 2, 1, {8, 16, 3}},    {3, 2, 3, {16, 32, 3}}, {4, 2, 2, {2, 8, 16, 4}},  {4, 3, 2, {8, 8, 16, 3}},
        {3, 1, 3, {2, 64, 2}},    {4, 2, 2, {5, 8, 16, 3}}, {3, 2, 4, {48, 80, 1}}, {4, 3, 1, {4, 6, 8, 2}},
        {4, 1, 5, {3, 2, 96, 2}},
    };
    static const int blocks[] = {LW_LOCAL_BLOCK_AUTO, LW_LOCAL_BLOCK_STRIDED, LW_LOCAL_BLOCK_WIDE};
    g_inner = 1;
    for (size_t si = 0; si < sizeof IN / sizeof IN[0]; si++)
        for (size_t ti = 0; ti < sizeof types / sizeof types[0]; ti++) {
            g_block = blocks[(si + ti) % 3];
            layouts_case(types[ti], IN[si], (si + ti) % 3 == 0);
        }
    g_block = LW_LOCAL_BLOCK_AUTO;
    CHECK(g_inner_launches >= 300, "channels last ran in %ld launches", g_inner_launches);
    for (int dir = 0; dir < 2; dir++)
        for (int pad = 0; pad < 2; pad++) {
            static const int64_t hwc[3] = {16, 24, 3};
            bands_case(LW_FLOAT32, 3, hwc, 2, 2, dir ? LW_INVERSE : LW_FORWARD, pad);
        }
    g_inner = 0;
    static const struct shp B[] = {{4, 2, 2, {2, 3, 16, 24}}, {4, 2, 3, {2, 3, 64, 64}}, {4, 3, 2, {2, 8, 16, 32}},
                                   {3, 3, 5, {32, 32, 64}},  {2, 1, 5, {3, 96}}};
    for (size_t si = 0; si < sizeof B / sizeof B[0]; si++)
        for (int ti = 0; ti < 3; ti++)
            for (int dir = 0; dir < 2; dir++)
                for (int pad = 0; pad < 2; pad++)
                    bands_case(types[ti], B[si].rank, B[si].s, B[si].D, B[si].L, dir ? LW_INVERSE : LW_FORWARD, pad);
    refusals();
    printf("local engine on the host: %ld cases, %ld launches (%ld wide blocks, %ld narrow), %ld with scalar "
           "accesses, %ld moving whole blocks (%ld with the lowpass apart), %ld warp-strided, %ld channels last, "
           "level 1 slab by slab in %ld (2-D) and %ld (3-D), whole into the bands in %ld and %ld\n",
           g_cases, g_launches, g_wide, g_narrow, g_scalar, g_whole, g_low_apart, g_strided, g_inner_launches,
           g_slabs[2], g_slabs[3], g_bands_whole[2], g_bands_whole[3]);
    CHECK(g_wide > 0 && g_narrow > 0 && g_scalar > 0 && g_whole > 0 && g_low_apart > 0, "every access path taken");
    CHECK(g_slabs[2] > 0 && g_slabs[3] > 0 && g_bands_whole[2] > 0 && g_bands_whole[3] > 0,
          "level 1 slab by slab and whole, 2-D and 3-D blocks");
    CHECK(g_ran_strided == g_strided, "%ld launches planned warp-strided, %ld ran so", g_strided, g_ran_strided);
    return lw_test_finish("test_local_body");
}
