/* The registries through the public API: wavelets, backends, engines and
 * tuning keys are listed, named and parsed from one table each; an engine
 * forced by lw_config.scheme runs (or is refused clearly); lw_plan_describe
 * says what a plan does. */
#include "liftwave.h"
#include "lw_test.h"

#include <math.h>
#include <string.h>

static void backends(void)
{
    for (int i = 0; i < LW_BACKEND_COUNT; i++) {
        lw_backend b;
        const char *n = lw_backend_name((lw_backend)i);
        CHECK(n && strcmp(n, "?") != 0, "backend %d has a name", i);
        CHECK(lw_backend_parse(n, &b) == LW_OK && (int)b == i, "backend '%s' parses back", n);
    }
    lw_backend b;
    CHECK(lw_backend_parse("gpu", &b) == LW_ERR_INVALID_ARGUMENT && strstr(lw_last_error(), "cpu-ref"),
          "unknown backend lists the names: %s", lw_last_error());
    CHECK(lw_backend_available(LW_BACKEND_CPU) && lw_backend_available(LW_BACKEND_CPU_REF), "cpu backends");
    CHECK(strcmp(lw_backend_name((lw_backend)LW_BACKEND_COUNT), "?") == 0, "past the table");
}

static lw_status plan2(lw_plan **p, int rank, const int64_t *shape, const char *scheme, int threads, lw_backend b)
{
    lw_config c;
    lw_config_init(&c);
    c.rank = rank;
    for (int i = 0; i < rank; i++) c.shape[i] = shape[i];
    c.scheme = scheme;
    c.threads = threads;
    c.backend = b;
    c.levels = 2;
    return lw_plan_create(p, &c);
}

static void cpu_engines(void)
{
    int n = lw_engine_count(LW_BACKEND_CPU);
    CHECK(n == 5, "cpu engines: %d", n);
    int seen_nd = 0, seen_vol = 0, seen_adjoint = 0, seen_planes = 0;
    for (int i = 0; i < n; i++) {
        const char *about = NULL, *name = lw_engine_name(LW_BACKEND_CPU, i, &about);
        CHECK(name && about && *about, "engine %d named and described", i);
        seen_nd += name && !strcmp(name, "nd");
        seen_vol += name && !strcmp(name, "vol");
        seen_adjoint += name && !strcmp(name, "adjoint");
        seen_planes += name && !strcmp(name, "planes");
    }
    CHECK(seen_nd == 1 && seen_vol == 1 && seen_adjoint == 1 && seen_planes == 1, "nd, vol, planes and adjoint listed");
    CHECK(lw_engine_name(LW_BACKEND_CPU, n, NULL) == NULL, "past the list");
    CHECK(lw_engine_count(LW_BACKEND_CPU_REF) == 0, "cpu-ref is one engine");

    /* a 3-D volume: vol by default; nd forced gives the same result */
    int64_t v[3] = {20, 18, 33};
    enum { N = 20 * 18 * 33 };
    static float x[N], ya[N], yn[N];
    for (int i = 0; i < N; i++) x[i] = (float)(lw_rng_unit() - 0.5);
    lw_plan *pa = NULL, *pn = NULL, *pv = NULL;
    CHECK(plan2(&pa, 3, v, NULL, 2, LW_BACKEND_CPU) == LW_OK, "auto plan: %s", lw_last_error());
    CHECK(plan2(&pn, 3, v, "nd", 2, LW_BACKEND_CPU) == LW_OK, "nd plan: %s", lw_last_error());
    CHECK(plan2(&pv, 3, v, "vol", 2, LW_BACKEND_CPU) == LW_OK, "vol plan: %s", lw_last_error());
    if (pa && pn) {
        char d[4096];
        CHECK(lw_plan_describe(pa, d, sizeof d) == LW_OK, "describe: %s", lw_last_error());
        CHECK(strstr(d, "backend: cpu\n") && strstr(d, "engines: vol vol") && strstr(d, "threads: 2\n") &&
                  strstr(d, "simd: ") && strstr(d, "levels: 2\n") && strstr(d, "shape: 20x18x33\n"),
              "auto plan describes itself:\n%s", d);
        CHECK(lw_plan_describe(pn, d, sizeof d) == LW_OK && strstr(d, "engines: nd nd"), "forced nd:\n%s", d);
        CHECK(lw_plan_describe(pn, d, 16) == LW_ERR_INVALID_ARGUMENT && strlen(d) == 15, "short buffer");
        CHECK(lw_execute(pa, x, ya) == LW_OK && lw_execute(pn, x, yn) == LW_OK, "execute");
        double e = 0, m = 0;
        for (int i = 0; i < N; i++) e = fmax(e, fabs(ya[i] - yn[i])), m = fmax(m, fabs(ya[i]));
        CHECK(e <= 1e-5 * m, "nd and vol agree: %g", e);
    }
    lw_destroy(pa);
    lw_destroy(pn);
    lw_destroy(pv);
    /* vol does not apply to a 1-D line; an unknown name lists the engines */
    int64_t l[1] = {64};
    lw_plan *p = NULL;
    CHECK(plan2(&p, 1, l, "vol", 0, LW_BACKEND_CPU) == LW_ERR_UNSUPPORTED && strstr(lw_last_error(), "'vol'"),
          "vol on a line: %s", lw_last_error());
    CHECK(plan2(&p, 1, l, "planes", 0, LW_BACKEND_CPU) == LW_ERR_UNSUPPORTED && strstr(lw_last_error(), "'planes'"),
          "planes on a line: %s", lw_last_error());
    CHECK(plan2(&p, 1, l, "warp", 0, LW_BACKEND_CPU) == LW_ERR_UNSUPPORTED && strstr(lw_last_error(), "nd"),
          "unknown engine: %s", lw_last_error());
    CHECK(plan2(&p, 1, l, "nd", 0, LW_BACKEND_CPU_REF) == LW_ERR_UNSUPPORTED, "cpu-ref takes no engine name");
    CHECK(p == NULL, "no plan on failure");
    /* debug builds name the place that failed; release builds do not */
    CHECK(plan2(&p, 1, l, NULL, LW_MAX_THREADS + 1, LW_BACKEND_CPU) == LW_ERR_INVALID_ARGUMENT, "threads");
#ifdef NDEBUG
    CHECK(strstr(lw_last_error(), ".c:") == NULL, "release message without a place: %s", lw_last_error());
#else
    CHECK(strstr(lw_last_error(), " [plan.c:") != NULL, "debug message with its place: %s", lw_last_error());
#endif
}

/* A cpu plan with `tuning`: created, or (refused: a key) refused with that key in the message. */
static void enum_key(const char *tuning, const char *refused)
{
    lw_plan *p = NULL;
    lw_config c;
    lw_config_init(&c);
    c.rank = 3, c.shape[0] = c.shape[1] = c.shape[2] = 8, c.backend = LW_BACKEND_CPU;
    c.tuning = tuning;
    const lw_status st = lw_plan_create(&p, &c);
    if (refused)
        CHECK(st == LW_ERR_INVALID_ARGUMENT && strstr(lw_last_error(), refused), "%s refused: %s", tuning, lw_last_error());
    else
        CHECK(st == LW_OK, "%s: %s", tuning, lw_last_error());
    lw_destroy(p);
}

static void tuning_keys(void)
{
    int n = lw_tuning_count();
    CHECK(n >= 8, "tuning keys: %d", n);
    for (int i = 0; i < n; i++) {
        const char *about = NULL, *k = lw_tuning_key(i, &about);
        CHECK(k && about && *about, "key %d", i);
    }
    CHECK(lw_tuning_key(n, NULL) == NULL, "past the keys");
    /* every key is documented in docs/TUNING.md, as a table row `key` */
    FILE *f = fopen(LW_SOURCE_DIR "/docs/TUNING.md", "rb");
    CHECK(f != NULL, "docs/TUNING.md readable");
    if (f) {
        static char doc[1 << 17];
        size_t len = fread(doc, 1, sizeof doc - 1, f);
        doc[len] = 0;
        fclose(f);
        for (int i = 0; i < n; i++) {
            char row[80];
            snprintf(row, sizeof row, "| `%s` |", lw_tuning_key(i, NULL));
            CHECK(strstr(doc, row) != NULL, "tuning key %s is not documented in docs/TUNING.md", lw_tuning_key(i, NULL));
        }
    }
    /* the enum keys: their names parse, another value is refused naming the key */
    enum_key("tile3d=32x64", NULL);
    enum_key("tile3d=8x8", "tile3d");
    enum_key("tile3d_stages=staged", NULL);
    enum_key("tile3d_stages=serial", NULL);
    enum_key("tile3d_stages=three", "tile3d_stages");
    enum_key("tile2d=long,tile3d=auto", NULL);
    enum_key("tile2d=wide", "tile2d");
    enum_key("planes=off", NULL);
    enum_key("planes=on", "planes");
    enum_key("tail=fused", NULL);
    enum_key("tail=small,tile2d=short", NULL);
    enum_key("tail=tiles", "tail");
    enum_key("local_bound=5,local_slabs=off", NULL);
    enum_key("local_bound=none,local_slabs=auto", NULL);
    enum_key("local_bound=3", "local_bound");
    enum_key("local_slabs=1", "local_slabs");
    /* an integer key beside an enum key whose name it begins with */
    enum_key("tile2d_walk=4,tile2d=long", NULL);
    enum_key("tile2d_walk=0", NULL);
    enum_key("tile2d_walk=9", "tile2d_walk");
    enum_key("tile2d_walk=auto", "tile2d_walk");
    enum_key("tile3d_zruns=0", NULL);
    enum_key("tile3d_zruns=1024", NULL);
    enum_key("tile3d_zruns=1025", "tile3d_zruns");
    enum_key("tile3d_zruns=-1", "tile3d_zruns");
    enum_key("tile3d_defaults=narrow,tile3d=auto", NULL);
    enum_key("tile3d_defaults=wide", NULL);
    enum_key("tile3d_defaults=h100", "tile3d_defaults");
}

int main(void)
{
    lw_test_seed(777);
    backends();
    cpu_engines();
    tuning_keys();
    return lw_test_finish("test_registry");
}
