/* The long-line engine (cuda engine "line1d", src/cuda/line1d_exec.c): one
 * transformed axis along contiguous lines too long for the small engine.
 *   - every separable wavelet x float32 / float64 / int32 x both modes x both
 *     layouts x forward / inverse, on 1-D signals (odd, a power of two, two
 *     reorder cycles, a million samples, one too long for the device to hold
 *     at level 1) and batches of long rows (one and two batch dimensions);
 *     one level, three and the maximum; out of place and in place, device
 *     and host pointers; each against the CPU reference (gpu_common.h), and
 *     each must run by the engine;
 *   - the routes: levels held in shared memory (in place, a pyramid's later
 *     levels), out of place a level the device cannot hold staged in the
 *     scratch, in place by the generic path, must each run;
 *   - haar in auto, whose plans the local engine takes: in place by this
 *     engine's route;
 *   - LW_FLAG_IN_PLACE plans: no workspace where every level is held;
 *   - a timing line (information only) per length: in place and out of place.
 *   LW_GPU_QUICK=1  the smaller shapes and fewer combinations (compute-sanitizer)
 * Exits 77 with "SKIP: no CUDA device" when there is no device. */
#define LW_GPU_NO_BIG_CASE
#include "gpu_common.h"

#include <stdio.h>
#include <stdlib.h>

static const shape_case shapes[] = {
    {1, 0, {0}, {20001}},     /* odd */
    {1, 0, {0}, {65536}},     /* 2^16 */
    {1, 0, {0}, {100003}},    /* prime-ish: partial last segment, odd at every level */
    {2, 1, {1}, {3, 40001}},  /* a batch of long rows */
    {3, 1, {2}, {2, 3, 30000}}, /* two batch dimensions */
    {1, 0, {0}, {1000003}},   /* a million samples */
};
/* longer than the device holds at levels 1 and 2 (about 7.4 M float samples
 * on an H100): in place those go the generic way; out of place level 2 reads
 * its input (forward) or lowpass (inverse) staged in the scratch, level 3 is
 * held; both layouts */
static const shape_case huge = {1, 0, {0}, {16777259}};
static const shape_case quick_shapes[] = {
    {1, 0, {0}, {20001}},
    {2, 1, {1}, {3, 20000}},
};

static long g_l1_cases, g_l1_held, g_l1_generic, g_l1_staged, g_l1_rounds, g_l1_pairs;

static void one_t(const shape_case *sc, lw_wavelet w, lw_dtype t, lw_mode m, lw_layout lay, lw_direction d,
                  int levels, int devptr, int inplace, const char *tuning)
{
    gcase c = case_of(sc, w, t, m, lay, d, levels, devptr);
    c.inplace = inplace;
    c.scheme = w == LW_HAAR ? "line1d" : NULL;
    c.tuning = tuning;
    int L = levels;
    if (L == -1) lw_max_levels(c.rank, c.shape, c.naxes, c.axes, &L);
    /* the plan alone first: its engine and routes */
    gcase dc = c; /* the plan on device pointers (gpu_common.h's make) */
    dc.devptr = 1;
    lw_plan *p = NULL;
    if (make(&p, &dc, L, LW_BACKEND_CUDA) != LW_OK) {
        lw_clear_error();
        run_case(&c); /* refused: the reference must refuse it too */
        return;
    }
    char dsc[4096] = "";
    lw_plan_describe(p, dsc, sizeof dsc);
    const char *l1 = strstr(dsc, "line1d: ");
    int held = 0, of = 0, staged = 0, rounds = 0, pairs = 0;
    const char *st = l1 ? strstr(l1, "out of place ") : NULL, *rd = l1 ? strstr(l1, "; in place ") : NULL;
    if (l1) sscanf(l1, "line1d: %d of %d", &held, &of);
    if (st) sscanf(st, "out of place %d staged", &staged);
    if (rd) sscanf(rd, "; in place %d in rounds (%d of them", &rounds, &pairs);
    CHECK(lw_cuda_plan_engine(p) == LWE_LINE1D && l1, "%s %s %s %s %s length %lld levels %d: engine %s, not line1d",
          lw_wavelet_name(w), lw_dtype_name(t), lw_mode_name(m), lw_layout_name(lay), lw_direction_str(d),
          (long long)c.shape[c.rank - 1], L, engine_name(lw_cuda_plan_engine(p)));
    lw_destroy(p);
    /* in place every level the engine runs writes what it reads: held, in
     * rounds, or by the generic path */
    if (inplace) g_l1_held += held > 0, g_l1_generic += held + rounds < of, g_l1_rounds += rounds > 0, g_l1_pairs += pairs > 0;
    else g_l1_staged += staged > 0;
    run_case(&c);
    g_l1_cases++;
}

static void one(const shape_case *sc, lw_wavelet w, lw_dtype t, lw_mode m, lw_layout lay, lw_direction d, int levels,
                int devptr, int inplace)
{
    one_t(sc, w, t, m, lay, d, levels, devptr, inplace, NULL);
}

static const lw_dtype types[] = {LW_FLOAT32, LW_FLOAT64, LW_INT32};
#define GRID (LW_WAVELET_COUNT * 3 * 2 * 2 * 2)

static void sweep(int quick)
{
    const shape_case *S = quick ? quick_shapes : shapes;
    const int ns = quick ? (int)(sizeof quick_shapes / sizeof *quick_shapes) : (int)(sizeof shapes / sizeof *shapes);
    long k = 0;
    for (int si = 0; si < ns; si++) {
        const int big = S[si].shape[S[si].rank - 1] * (S[si].rank > 1 ? 3 : 1) > 200000;
        for (int i = 0; i < GRID; i++, k++) {
            int j = i;
            const lw_direction d = (lw_direction)(j % 2);
            j /= 2;
            const lw_layout lay = (lw_layout)(j % 2);
            j /= 2;
            const lw_mode m = (lw_mode)(j % 2);
            j /= 2;
            const lw_dtype t = types[j % 3];
            j /= 3;
            const lw_wavelet w = (lw_wavelet)j;
            if (w == LW_FS) continue; /* not separable: the fs engine */
            if ((quick || big) && (k % 5) != 0) continue;
            const int levels = (k / 2) % 3 == 0 ? 1 : (k / 2) % 3 == 1 ? 3 : -1;
            one(&S[si], w, t, m, lay, d, levels, (k % 7) != 3, (k / 3) % 2);
        }
    }
    if (!quick) /* the route a level takes where the device cannot hold it */
        for (int i = 0; i < 24; i++)
            one(&huge, i < 8 ? LW_CDF97 : i < 16 ? LW_D4 : LW_CDF53, LW_FLOAT32, LW_SYMMETRIC,
                i < 16 ? LW_MALLAT : LW_INTERLEAVED, (lw_direction)(i % 2), (i / 4) % 2 ? 3 : 1, 1, (i / 2) % 2);
    printf("line1d cases: %ld run; in place with a level held in shared memory: %ld, with a level by the generic path: "
           "%ld; out of place with a level staged: %ld\n",
           g_l1_cases, g_l1_held, g_l1_generic, g_l1_staged);
    CHECK(g_l1_held > 0, "no case held a level in shared memory");
    if (!quick) CHECK(g_l1_generic > 0, "no case ran a level by the generic path");
    if (!quick) CHECK(g_l1_staged > 0, "no case staged a level out of place");
}

/* In place, a level the device cannot hold runs in rounds: whole lines, as
 * many a round as it holds, or pieces of a line, each round saving the raw
 * samples the next reaches back to; the Mallat layout's pieces in pairs
 * whose halves then move as rows along cycles (where a pair size divides
 * half the line, else the generic path).  Lines longer than the device
 * holds: 2^24 (pairs of 2 x 8192), an odd length whose half 8192 divides
 * (the last pair one sample short), a batch of two lines of 2^23, six lines
 * of 3 M (whole lines, two a round); with tuning line1d_hold, the same
 * routes on short lines for every wavelet, type, mode, layout and
 * direction: rounds of pairs (2 x 8192, 2 x 4000 with a third round
 * shorter, 2 x 2000 on two batch dimensions), an odd half (the Mallat
 * layout by the generic path), whole lines two a round */
static void rounds(int quick)
{
    static const shape_case big[] = {
        {1, 0, {0}, {16777216}}, {1, 0, {0}, {16793599}}, {2, 1, {1}, {2, 8388608}}, {2, 1, {1}, {6, 3000000}}};
    static const struct {
        shape_case sc;
        const char *tuning;
    } small[] = {
        {{1, 0, {0}, {65536}}, "line1d_hold=20000"},         {{1, 0, {0}, {40000}}, "line1d_hold=17000"},
        {{1, 0, {0}, {40001}}, "line1d_hold=9000"},          {{2, 1, {1}, {3, 32768}}, "line1d_hold=20000"},
        {{3, 1, {2}, {2, 2, 20000}}, "line1d_hold=9000"},    {{2, 1, {1}, {5, 24000}}, "line1d_hold=50000"},
    };
    const long r0 = g_l1_rounds, p0 = g_l1_pairs;
    long k = 0;
    for (int si = 0; si < (int)(sizeof small / sizeof *small); si++)
        for (int i = 0; i < GRID; i++, k++) {
            const lw_wavelet w = (lw_wavelet)(i / 24);
            if (w == LW_FS || (k % (quick ? 16 : 3)) != 0) continue;
            one_t(&small[si].sc, w, types[(i / 8) % 3], (lw_mode)((i / 4) % 2), (lw_layout)((i / 2) % 2),
                  (lw_direction)(i % 2), (k / 3) % 3 == 0 ? 1 : (k / 3) % 3 == 1 ? 3 : -1, (k % 5) != 2, 1,
                  small[si].tuning);
        }
    if (!quick)
        for (int i = 0; i < 48; i++) {
            static const lw_wavelet ws[] = {LW_CDF97, LW_D4, LW_HAAR, LW_DD137};
            const lw_wavelet w = ws[i % 4];
            const lw_dtype t = i % 3 == 2 && w != LW_D4 && w != LW_CDF97 ? LW_INT32 : i % 3 == 1 ? LW_FLOAT64 : LW_FLOAT32;
            one(&big[(i / 4) % 4], w, t, (lw_mode)((i / 2 + i / 8) % 2), (lw_layout)((i + i / 16) % 2),
                (lw_direction)((i + i / 4) % 2), (i / 3) % 2 ? 3 : 1, 1, 1);
        }
    printf("rounds: %ld cases in place with a level in rounds, %ld in pairs\n", g_l1_rounds - r0, g_l1_pairs - p0);
    CHECK(g_l1_rounds > r0, "no case ran a level in rounds");
    CHECK(g_l1_pairs > p0, "no case ran a level in rounds of pairs");
}

/* haar on lengths that 2^levels divides: auto takes the local engine, whose
 * Mallat plans in place take the long-line engine's route, the small engine
 * its lower levels (every level of 65536: i >= 16) */
static void local_route(int quick)
{
    static const shape_case S[] = {{1, 0, {0}, {65536}}, {2, 1, {1}, {3, 40000}}};
    for (int i = 0; i < (quick ? 4 : 20); i++) {
        gcase c = case_of(&S[i < 16 ? i % 2 : 0], LW_HAAR, i % 4 < 2 ? LW_FLOAT32 : LW_INT32, (lw_mode)((i / 4) % 2),
                          LW_MALLAT, (lw_direction)((i / 2) % 2), i >= 16 ? -1 : (i / 8) ? 3 : 1, 1);
        lw_plan *p = NULL;
        CHECK(make(&p, &c, c.levels, LW_BACKEND_CUDA) == LW_OK, "haar local route plan: %s", lw_last_error());
        char dsc[4096] = "";
        if (p) lw_plan_describe(p, dsc, sizeof dsc);
        CHECK(p && lw_cuda_plan_engine(p) == LWE_LOCAL && strstr(dsc, "line1d (in place): "),
              "haar %s length %lld: engine %s without the long-line route in place", lw_dtype_name(c.t),
              (long long)c.shape[c.rank - 1], p ? engine_name(lw_cuda_plan_engine(p)) : "none");
        lw_destroy(p);
        run_case(&c);
    }
}

/* LW_FLAG_IN_PLACE: every level held, no workspace; timing lines */
static void inplace_plans(int quick)
{
    const int64_t lens[] = {1000003, 1 << 20, 1 << 24};
    for (int li = 0; li < (quick ? 1 : 3); li++)
        for (int L = 1; L <= 5; L += 4) {
            lw_config c;
            lw_config_init(&c);
            c.rank = 1, c.shape[0] = lens[li], c.levels = L, c.backend = LW_BACKEND_CUDA;
            c.flags = LW_FLAG_DEVICE_POINTERS | LW_FLAG_IN_PLACE;
            lw_plan *p = NULL, *q = NULL;
            CHECK(lw_plan_create(&p, &c) == LW_OK, "in-place plan %lld L%d: %s", (long long)lens[li], L, lw_last_error());
            c.flags = LW_FLAG_DEVICE_POINTERS;
            CHECK(lw_plan_create(&q, &c) == LW_OK, "plan %lld L%d: %s", (long long)lens[li], L, lw_last_error());
            if (!p || !q) {
                lw_destroy(p), lw_destroy(q);
                continue;
            }
            size_t ws = 1;
            lw_workspace_size(p, &ws);
            const int held_all = lens[li] <= 4000000;
            if (held_all) CHECK(ws == 0, "%lld samples L%d in place: workspace %zu, every level held", (long long)lens[li], L, ws);
            float *x = NULL, *y = NULL;
            const size_t bytes = (size_t)lens[li] * sizeof(float);
            if (cudaMalloc((void **)&x, bytes) == cudaSuccess && cudaMalloc((void **)&y, bytes) == cudaSuccess) {
                cudaMemset(x, 0, bytes);
                lw_set_stream(p, 0), lw_set_stream(q, 0);
                printf("time: cdf97 float32 %lld samples, %d level(s): in place %.3f ms (workspace %zu bytes), out of "
                       "place %.3f ms\n",
                       (long long)lens[li], L, gpu_time_ms(p, x, x, 0), ws, gpu_time_ms(q, x, y, 0));
            }
            cudaFree(x), cudaFree(y);
            lw_destroy(p), lw_destroy(q);
        }
}

int main(void)
{
    int skip = gpu_test_begin(20261207);
    if (skip) return skip;
    const char *qs = getenv("LW_GPU_QUICK");
    const int quick = qs && atoi(qs) > 0;
    sweep(quick);
    local_route(quick);
    inplace_plans(quick);
    rounds(quick);
    for (int k = 0; k < LWE_COUNT; k++) printf("engine %-8s used by %ld cases\n", engine_name(k), g_engine_count[k]);
    cudaStreamDestroy(g_stream);
    return lw_test_finish("test_gpu_line1d");
}
