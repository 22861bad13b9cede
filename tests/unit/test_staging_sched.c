/* The chunk schedule of the CUDA backend's host moves (src/cuda/staging.h)
 * on the CPU: for random boxes (pitched rows, planes) and chunk limits, the
 * chunks cover every byte of the box once, in order, each within the limit
 * and of one of the three shapes (whole planes, rows of one plane, a segment
 * of one row); the stager's chunk copy fills the compact buffer with the
 * chunk's rows in order; and a box moved host -> ring buffer -> device and back through the same
 * offsets the stager uses arrives intact, untouched bytes between rows
 * included.  Also the staging configuration, the register-or-stage rule,
 * the slab schedule of 3-D volumes and the tuning keys that set them. */
#include "core/lw_internal.h"
#include "cuda/staging.h"
#include "lw_test.h"

#include <string.h>

static size_t box_span_host(const lw_box *b)
{
    return (size_t)(b->nz - 1) * b->hplane + (size_t)(b->ny - 1) * b->hpitch + b->row;
}

static size_t box_span_dev(const lw_box *b)
{
    return (size_t)(b->nz - 1) * b->dplane + (size_t)(b->ny - 1) * b->dpitch + b->row;
}

static lw_box random_box(void)
{
    lw_box b;
    b.row = (size_t)lw_rng_range(1, 700);
    b.ny = lw_rng_range(1, 9);
    b.nz = lw_rng_range(1, 6);
    b.hpitch = b.row + (size_t)(lw_rng_range(0, 2) ? 0 : lw_rng_range(0, 50));
    b.dpitch = b.row + (size_t)(lw_rng_range(0, 2) ? 0 : lw_rng_range(0, 50));
    b.hplane = b.hpitch * (size_t)b.ny + (size_t)(lw_rng_range(0, 2) ? 0 : lw_rng_range(0, 90));
    b.dplane = b.dpitch * (size_t)b.ny + (size_t)(lw_rng_range(0, 2) ? 0 : lw_rng_range(0, 90));
    return b;
}

/* host -> compact buffer -> device, then device -> buffer -> host, by the
 * stager's own chunk copy */
static void move_box(const lw_box *b, size_t limit)
{
    size_t hs = box_span_host(b), ds = box_span_dev(b);
    unsigned char *h = malloc(hs), *d = malloc(ds), *back = malloc(hs), *buf = malloc(limit);
    unsigned char *cover = calloc(hs, 1);
    for (size_t i = 0; i < hs; i++) h[i] = (unsigned char)(lw_rng_u64() | 1); /* never 0 */
    memset(d, 0, ds);
    memset(back, 0, hs);
    int64_t n = lw_chunk_count(b, limit);
    size_t total = 0;
    lw_chunk prev = {0, 0, 0, 0, 0, 0};
    for (int64_t i = 0; i < n; i++) {
        lw_chunk c;
        lw_chunk_at(b, limit, i, &c);
        size_t cb = lw_chunk_bytes(&c);
        total += cb;
        CHECK(cb >= 1 && cb <= limit, "chunk %lld of %zu bytes, limit %zu", (long long)i, cb, limit);
        int planes = c.y0 == 0 && c.ny == b->ny && c.x0 == 0 && c.nx == b->row;
        int rows = c.nz == 1 && c.x0 == 0 && c.nx == b->row;
        int seg = c.nz == 1 && c.ny == 1;
        CHECK(planes || rows || seg, "chunk %lld is neither planes, rows nor a row segment", (long long)i);
        CHECK(c.z0 >= 0 && c.z0 + c.nz <= b->nz && c.y0 >= 0 && c.y0 + c.ny <= b->ny && c.x0 + c.nx <= b->row,
              "chunk %lld inside the box", (long long)i);
        if (i) { /* in order: starts where the previous one ended */
            int64_t pe = (prev.z0 + prev.nz - 1) * b->ny + prev.y0 + prev.ny - 1, cs = c.z0 * b->ny + c.y0;
            CHECK(cs == pe + (prev.x0 + prev.nx == b->row) && (cs != pe || c.x0 == prev.x0 + prev.nx),
                  "chunk %lld follows chunk %lld", (long long)i, (long long)i - 1);
        }
        prev = c;
        /* upload: the chunk into the compact buffer, row r at r * nx, then the "DMA" */
        memset(buf, 0, limit);
        lw_chunk_copy(b, &c, (char *)h, (char *)buf, 1);
        int inbuf = 1;
        for (int64_t r = 0; r < c.nz * c.ny; r++) {
            size_t ho = lw_chunk_row_host(b, &c, r);
            inbuf &= memcmp(buf + (size_t)r * c.nx, h + ho, c.nx) == 0;
            for (size_t x = 0; x < c.nx; x++) cover[ho + x]++;
        }
        for (size_t x = cb; x < limit; x++) inbuf &= buf[x] == 0;
        CHECK(inbuf, "chunk %lld in its buffer, nothing beyond (%zu bytes)", (long long)i, cb);
        for (int64_t r = 0; r < c.nz * c.ny; r++) memcpy(d + lw_chunk_row_dev(b, &c, r), buf + (size_t)r * c.nx, c.nx);
    }
    CHECK(total == lw_box_bytes(b), "chunks hold %zu of %zu bytes", total, lw_box_bytes(b));
    /* download through the same schedule */
    for (int64_t i = 0; i < n; i++) {
        lw_chunk c;
        lw_chunk_at(b, limit, i, &c);
        for (int64_t r = 0; r < c.nz * c.ny; r++) memcpy(buf + (size_t)r * c.nx, d + lw_chunk_row_dev(b, &c, r), c.nx);
        lw_chunk_copy(b, &c, (char *)back, (char *)buf, 0);
    }
    /* every byte of the box once, back intact; nothing between rows written */
    int once = 1, same = 1;
    for (int64_t z = 0; z < b->nz; z++)
        for (int64_t y = 0; y < b->ny; y++) {
            size_t o = (size_t)z * b->hplane + (size_t)y * b->hpitch;
            same &= memcmp(back + o, h + o, b->row) == 0;
            for (size_t x = 0; x < b->row; x++) {
                once &= cover[o + x] == 1;
                cover[o + x] = 0;
            }
        }
    for (size_t i = 0; i < hs; i++) once &= cover[i] == 0 && (back[i] == 0 || back[i] == h[i]);
    CHECK(once, "every byte of box row=%zu ny=%lld nz=%lld once (limit %zu)", b->row, (long long)b->ny,
          (long long)b->nz, limit);
    CHECK(same, "round trip of box row=%zu ny=%lld nz=%lld (limit %zu)", b->row, (long long)b->ny, (long long)b->nz,
          limit);
    free(h), free(d), free(back), free(buf), free(cover);
}

/* slabs: cores tile [0, D) in order, margins even and clipped, the three shapes */
static void check_slabs(int64_t D, int halo, int64_t want)
{
    lw_slabs s;
    if (lw_slabs_plan(D, halo, want, &s) != 0) {
        CHECK(s.n < 3 && D < 2 * s.Z + s.E, "D=%lld halo %d: no slabs but n=%lld", (long long)D, halo, (long long)s.n);
        return;
    }
    CHECK(s.E % 2 == 0 && s.E > halo && s.Z % 2 == 0 && s.Z >= 2 * s.E && s.n >= 3, "D=%lld: E=%lld Z=%lld n=%lld",
          (long long)D, (long long)s.E, (long long)s.Z, (long long)s.n);
    int64_t next = 0, len[3] = {-1, -1, -1};
    int ok = 1;
    for (int64_t k = 0; k < s.n; k++) {
        int64_t z0, z1, e0, e1;
        lw_slab_at(&s, k, &z0, &z1, &e0, &e1);
        ok &= z0 == next && z1 > z0 && z0 % 2 == 0 && e0 % 2 == 0;
        ok &= e0 == (z0 - s.E < 0 ? 0 : z0 - s.E) && e1 == (z1 + s.E > D ? D : z1 + s.E);
        ok &= (z1 - z0 >= s.E) && (k == s.n - 1 || z1 - z0 == s.Z);
        int kind = lw_slab_kind(&s, k);
        if (len[kind] < 0) len[kind] = e1 - e0;
        ok &= len[kind] == e1 - e0; /* one plan per shape */
        ok &= kind == 2 || (e1 - e0) % 2 == 0;
        next = z1;
    }
    ok &= next == D && len[0] == s.Z + s.E && len[1] == s.Z + 2 * s.E && len[2] == D - (s.n - 1) * s.Z + s.E;
    CHECK(ok, "slabs of D=%lld halo %d want %lld (E=%lld Z=%lld n=%lld)", (long long)D, halo, (long long)want,
          (long long)s.E, (long long)s.Z, (long long)s.n);
}

int main(void)
{
    lw_test_seed(16);
    for (int t = 0; t < 3000; t++) {
        lw_box b = random_box();
        size_t lim = (size_t)lw_rng_range(1, (int64_t)(lw_box_bytes(&b) + 100));
        move_box(&b, lim);
    }
    /* the three cuts on a known box: 4 planes of 3 rows of 100 bytes */
    lw_box b = {100, 3, 4, 128, 512, 100, 300};
    CHECK(lw_chunk_count(&b, 700) == 2, "700 bytes: 2 planes per chunk -> 2 chunks");
    CHECK(lw_chunk_count(&b, 250) == 8, "250 bytes: 2 rows per chunk, 2 chunks per plane -> 8");
    CHECK(lw_chunk_count(&b, 40) == 36, "40 bytes: 3 segments per row -> 36");
    lw_chunk c;
    lw_chunk_at(&b, 40, 5, &c);
    CHECK(c.z0 == 0 && c.y0 == 1 && c.x0 == 80 && c.nx == 20, "segment 5 is row 1, bytes 80..99");
    lw_box e = lw_box_linear(0);
    CHECK(lw_chunk_count(&e, 4096) == 0 && lw_box_bytes(&e) == 0, "an empty box has no chunk");
    lw_box l = lw_box_linear(10000);
    CHECK(lw_chunk_count(&l, 4096) == 3, "10000 linear bytes in 4096-byte chunks: 3");
    /* configuration: automatic values and the register rule */
    lw_stage_cfg s;
    const size_t G = (size_t)1 << 30;
    lw_stage_cfg_resolve(&s, 0, 0, 0, LW_PAGEABLE_AUTO, 0, 16, G);
    CHECK(s.chunk == (size_t)2 << 20 && s.nbuf == 32 && s.threads == 16, "defaults on 16 cores: 2 MiB x 32, 16 threads");
    CHECK(lw_stage_chunk_for(&s, G) == s.chunk && lw_stage_chunk_for(&s, (size_t)33 << 20) == (size_t)2 << 20 && lw_stage_chunk_for(&s, (size_t)17 << 20) == (size_t)17 << 16 &&
              lw_stage_chunk_for(&s, 1000) == (size_t)256 << 10,
          "chunks: the buffer's size, a 16th of a 17 MiB box, 256 KiB at least");
    lw_stage_cfg_resolve(&s, 0, 0, 0, LW_PAGEABLE_AUTO, 0, 64, G);
    CHECK(s.threads == 16 && s.nbuf == 32, "64 cores: 16 copy threads");
    lw_stage_cfg_resolve(&s, 0, 0, 0, LW_PAGEABLE_AUTO, 0, 16, (size_t)10 << 20);
    CHECK(s.chunk == (size_t)640 << 10 && s.nbuf == 16, "10 MiB transfers: 16 buffers of 640 KiB");
    lw_stage_cfg_resolve(&s, 0, 0, 0, LW_PAGEABLE_AUTO, 0, 16, 10000);
    CHECK(s.chunk == 12288 && s.nbuf == 2 && s.threads == 1, "10000-byte transfers: 2 buffers of 12 KiB, 1 thread");
    lw_stage_cfg_resolve(&s, 0, 0, 0, LW_PAGEABLE_AUTO, 0, 16, (size_t)1 << 20);
    CHECK(s.threads == 4 && s.chunk == (size_t)256 << 10, "1 MiB transfers: 4 threads of 256 KiB chunks");
    lw_stage_cfg_resolve(&s, 0, 0, 6, LW_PAGEABLE_AUTO, 0, 16, 10000);
    CHECK(s.threads == 6, "copy_threads given: kept whatever the size");
    CHECK(!lw_stage_use_register(&s, (size_t)1 << 30), "auto without register_min_mb stages");
    lw_stage_cfg_resolve(&s, 0, 0, 0, LW_PAGEABLE_AUTO, 0, 2, G);
    CHECK(s.threads == 2 && s.nbuf == 16, "2 cores: 2 copy threads, 16 buffers");
    lw_stage_cfg_resolve(&s, 64, 1, 3, LW_PAGEABLE_AUTO, 256, 16, G);
    CHECK(s.chunk == 65536 && s.nbuf == 2 && s.threads == 3, "explicit values (1 buffer raised to 2)");
    CHECK(lw_stage_use_register(&s, (size_t)256 << 20) && !lw_stage_use_register(&s, ((size_t)256 << 20) - 1),
          "auto registers from register_min_mb");
    lw_stage_cfg_resolve(&s, 0, 0, 0, LW_PAGEABLE_REGISTER, 0, 16, G);
    CHECK(lw_stage_use_register(&s, 1), "pageable=register always registers");
    lw_stage_cfg_resolve(&s, 0, 0, 0, LW_PAGEABLE_STAGE, 1, 16, G);
    CHECK(!lw_stage_use_register(&s, (size_t)1 << 30), "pageable=stage never registers");
    for (int64_t D = 1; D < 400; D++)
        for (int halo = 0; halo <= 6; halo++) check_slabs(D, halo, 16);
    for (int t = 0; t < 2000; t++) check_slabs(lw_rng_range(1, 5000), (int)lw_rng_range(0, 8), lw_rng_range(1, 64));
    lw_slabs sl;
    CHECK(lw_slabs_plan(512, 2, 16, &sl) == 0 && sl.Z == 32 && sl.E == 4 && sl.n == 16, "512 planes, halo 2: 16 x 32");
    CHECK(lw_slabs_plan(20, 2, 16, &sl) == 0 && sl.n == 3, "20 planes, halo 2: cores 8, 8, 4");
    CHECK(lw_slabs_plan(19, 2, 16, &sl) != 0, "19 planes, halo 2: the last core would be 3 < E: fewer than 3 slabs");
    /* the tuning keys: parsed at plan creation, bad values named */
    lw_tuning tu;
    CHECK(lw_tuning_parse("stage_kb=64,stage_buffers=3,copy_threads=5,pageable=register,register_min_mb=9,host_slabs=7",
                          &tu) == LW_OK &&
              tu.stage_kb == 64 && tu.stage_buffers == 3 && tu.copy_threads == 5 && tu.pageable == LW_PAGEABLE_REGISTER &&
              tu.register_min_mb == 9 && tu.host_slabs == 7,
          "cuda host-memory keys parse: %s", lw_last_error());
    CHECK(lw_tuning_parse(NULL, &tu) == LW_OK && !tu.stage_kb && !tu.stage_buffers && !tu.copy_threads &&
              tu.pageable == LW_PAGEABLE_AUTO && !tu.host_slabs,
          "defaults are 0 (automatic) and pageable=auto");
    static const char *bad[] = {"stage_buffers=65", "stage_kb=-1", "copy_threads=65", "pageable=pinned",
                                "host_slabs=x", "register_min_mb="};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char key[32];
        snprintf(key, sizeof key, "%.*s", (int)(strchr(bad[i], '=') - bad[i]), bad[i]);
        lw_status st = lw_tuning_parse(bad[i], &tu);
        CHECK(st == LW_ERR_INVALID_ARGUMENT && strstr(lw_last_error(), key), "%s: status %d, '%s'", bad[i], (int)st,
              lw_last_error());
    }
    return lw_test_finish("staging_sched");
}
