/* The chunk schedule of host <-> device moves (staging.h): how a box is cut
 * in chunks of a ring buffer's size, how a chunk is shared among the copy
 * threads, and the staging configuration.  Pure C, no CUDA: the unit test
 * tests/unit/test_staging_sched.c runs it on the CPU. */
#include "staging.h"

#include <string.h>

/* the smallest chunk a transfer is cut in to spread it over the copy threads */
#define MIN_CHUNK ((size_t)256 << 10)

lw_box lw_box_linear(size_t n)
{
    lw_box b = {n, 1, 1, n, n, n, n};
    if (n == 0) b.ny = b.nz = 0;
    return b;
}

size_t lw_box_bytes(const lw_box *b)
{
    if (b->ny <= 0 || b->nz <= 0) return 0;
    return b->row * (size_t)b->ny * (size_t)b->nz;
}

size_t lw_chunk_bytes(const lw_chunk *c) { return c->nx * (size_t)c->ny * (size_t)c->nz; }

static int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

/* The three ways a box is cut, by what fits in `limit`. */
enum { CUT_PLANES, CUT_ROWS, CUT_BYTES };

static int cut_of(const lw_box *b, size_t limit)
{
    if (b->row * (size_t)b->ny <= limit) return CUT_PLANES;
    if (b->row <= limit) return CUT_ROWS;
    return CUT_BYTES;
}

int64_t lw_chunk_count(const lw_box *b, size_t limit)
{
    if (lw_box_bytes(b) == 0 || limit == 0) return 0;
    switch (cut_of(b, limit)) {
    case CUT_PLANES: return ceil_div(b->nz, (int64_t)(limit / (b->row * (size_t)b->ny)));
    case CUT_ROWS: return b->nz * ceil_div(b->ny, (int64_t)(limit / b->row));
    default: return b->nz * b->ny * ceil_div((int64_t)b->row, (int64_t)limit);
    }
}

void lw_chunk_at(const lw_box *b, size_t limit, int64_t i, lw_chunk *c)
{
    c->z0 = 0, c->nz = b->nz, c->y0 = 0, c->ny = b->ny, c->x0 = 0, c->nx = b->row;
    switch (cut_of(b, limit)) {
    case CUT_PLANES: {
        int64_t per = (int64_t)(limit / (b->row * (size_t)b->ny));
        c->z0 = i * per;
        c->nz = b->nz - c->z0 < per ? b->nz - c->z0 : per;
        break;
    }
    case CUT_ROWS: {
        int64_t per = (int64_t)(limit / b->row), cpp = ceil_div(b->ny, per);
        c->z0 = i / cpp, c->nz = 1;
        c->y0 = (i % cpp) * per;
        c->ny = b->ny - c->y0 < per ? b->ny - c->y0 : per;
        break;
    }
    default: {
        int64_t cpr = ceil_div((int64_t)b->row, (int64_t)limit), r = i / cpr;
        c->z0 = r / b->ny, c->nz = 1;
        c->y0 = r % b->ny, c->ny = 1;
        c->x0 = (size_t)(i % cpr) * limit;
        c->nx = b->row - c->x0 < limit ? b->row - c->x0 : limit;
        break;
    }
    }
}

size_t lw_chunk_row_host(const lw_box *b, const lw_chunk *c, int64_t r)
{
    return (size_t)(c->z0 + r / c->ny) * b->hplane + (size_t)(c->y0 + r % c->ny) * b->hpitch + c->x0;
}

size_t lw_chunk_row_dev(const lw_box *b, const lw_chunk *c, int64_t r)
{
    return (size_t)(c->z0 + r / c->ny) * b->dplane + (size_t)(c->y0 + r % c->ny) * b->dpitch + c->x0;
}

size_t lw_stage_chunk_for(const lw_stage_cfg *c, size_t bytes)
{
    size_t t = c->threads > 1 ? (size_t)c->threads : 1, per = (bytes + t - 1) / t;
    per = (per + 65535) & ~(size_t)65535;
    if (per < MIN_CHUNK) per = MIN_CHUNK;
    return per < c->chunk ? per : c->chunk;
}

void lw_stage_cfg_resolve(lw_stage_cfg *c, int64_t stage_kb, int64_t nbuf, int64_t threads, int pageable,
                          int64_t register_min_mb, int cores, size_t bytes)
{
    /* 2 MiB chunks: large enough that a chunk's copy costs far more than its
     * launch and its event, small enough that the rings stay within a
     * server's last-level cache, which the copy engines read and write too
     * (larger chunks moved less, bench/NOTES-matrix.md); twice as many
     * buffers per ring as copy threads, so that every thread has a buffer
     * while the copies of as many more are in flight.  Every core copies
     * (at most 16): one memcpy thread alone moves a fraction of what the
     * memory can, and far less once the copy engines use it too, while a
     * PCIe 5 x16 link moves both ways at once about as much as the memory
     * bandwidth a host's memcpy reaches; the calling thread is one of them
     * (it waits for the copies anyway). */
    c->threads = threads > 0 ? (int)threads : cores < 1 ? 1 : cores > 16 ? 16 : cores;
    if (threads <= 0) { /* small transfers: no more threads than chunks of the smallest size */
        size_t most = bytes / MIN_CHUNK;
        if (most < (size_t)c->threads) c->threads = most < 1 ? 1 : (int)most;
    }
    c->chunk = (size_t)(stage_kb > 0 ? stage_kb : 2048) << 10;
    c->chunk = lw_stage_chunk_for(c, bytes); /* a transfer of fewer chunks than threads: smaller buffers */
    c->nbuf = nbuf > 0 ? (int)nbuf : 2 * c->threads < 16 ? 16 : 2 * c->threads;
    if (c->nbuf < 2) c->nbuf = 2;
    if (bytes < c->chunk) c->chunk = bytes < 4096 ? 4096 : (bytes + 4095) & ~(size_t)4095;
    size_t need = (bytes + c->chunk - 1) / c->chunk;
    if (need < (size_t)c->nbuf) c->nbuf = need < 2 ? 2 : (int)need;
    c->pageable = pageable;
    c->register_min = register_min_mb > 0 ? (size_t)register_min_mb << 20 : 0;
}

void lw_chunk_copy(const lw_box *b, const lw_chunk *c, char *host, char *buf, int to_buf)
{
    const int64_t rows = c->nz * c->ny;
    if (b->hpitch == c->nx && (c->nz == 1 || b->hplane == b->hpitch * (size_t)c->ny)) { /* one range */
        char *h = host + lw_chunk_row_host(b, c, 0);
        if (to_buf) memcpy(buf, h, c->nx * (size_t)rows);
        else memcpy(h, buf, c->nx * (size_t)rows);
        return;
    }
    for (int64_t r = 0; r < rows; r++) {
        char *h = host + lw_chunk_row_host(b, c, r), *x = buf + (size_t)r * c->nx;
        if (to_buf) memcpy(x, h, c->nx);
        else memcpy(h, x, c->nx);
    }
}

int lw_stage_use_register(const lw_stage_cfg *c, size_t bytes)
{
    switch (c->pageable) {
    case LW_PAGEABLE_REGISTER: return 1;
    case LW_PAGEABLE_STAGE: return 0;
    default: return c->register_min > 0 && bytes >= c->register_min;
    }
}

int lw_slabs_plan(int64_t D, int halo, int64_t want, lw_slabs *s)
{
    s->D = D;
    s->E = (int64_t)(((halo < 0 ? 0 : halo) + 1) & ~1) + 2;
    if (want < 3) want = 3;
    int64_t z = (D + want - 1) / want;
    z = (z + 1) & ~(int64_t)1;
    if (z < 2 * s->E) z = 2 * s->E;
    s->Z = z;
    s->n = D / z; /* the remainder joins the last core */
    if (s->n > 0 && D - (s->n - 1) * z - z >= s->E) s->n++; /* a remainder of E or more is a core of its own */
    return s->n >= 3 ? 0 : -1;
}

void lw_slab_at(const lw_slabs *s, int64_t k, int64_t *z0, int64_t *z1, int64_t *e0, int64_t *e1)
{
    *z0 = k * s->Z;
    *z1 = k == s->n - 1 ? s->D : *z0 + s->Z;
    *e0 = *z0 - s->E < 0 ? 0 : *z0 - s->E;
    *e1 = *z1 + s->E > s->D ? s->D : *z1 + s->E;
}

int lw_slab_kind(const lw_slabs *s, int64_t k) { return k == 0 ? 0 : k == s->n - 1 ? 2 : 1; }
