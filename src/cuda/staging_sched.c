/* The chunk schedule of host <-> device moves (staging.h): how a box is cut
 * in chunks of a ring buffer's size, how a chunk is shared among the copy
 * threads, and the staging configuration.  Pure C, no CUDA: the unit test
 * tests/unit/test_staging_sched.c runs it on the CPU. */
#include "staging.h"

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

void lw_chunk_part_at(const lw_chunk *c, int k, int parts, lw_chunk_part *p)
{
    int64_t rows = c->nz * c->ny;
    if (parts < 1) parts = 1;
    if (rows > 1 || parts == 1) {
        p->r0 = rows * k / parts;
        p->rows = rows * (k + 1) / parts - p->r0;
        p->x0 = 0, p->nx = c->nx;
        return;
    }
    /* one row: byte ranges, 64-byte aligned so that threads do not share lines */
    size_t units = (c->nx + 63) / 64;
    size_t u0 = units * (size_t)k / (size_t)parts, u1 = units * (size_t)(k + 1) / (size_t)parts;
    p->r0 = 0, p->rows = rows;
    p->x0 = u0 * 64 < c->nx ? u0 * 64 : c->nx;
    size_t x1 = u1 * 64 < c->nx ? u1 * 64 : c->nx;
    p->nx = x1 - p->x0;
}

size_t lw_chunk_row_host(const lw_box *b, const lw_chunk *c, int64_t r)
{
    return (size_t)(c->z0 + r / c->ny) * b->hplane + (size_t)(c->y0 + r % c->ny) * b->hpitch + c->x0;
}

size_t lw_chunk_row_dev(const lw_box *b, const lw_chunk *c, int64_t r)
{
    return (size_t)(c->z0 + r / c->ny) * b->dplane + (size_t)(c->y0 + r % c->ny) * b->dpitch + c->x0;
}

int lw_copy_threads_for(size_t bytes, int threads, size_t min_per_thread)
{
    if (threads < 1) threads = 1;
    if (min_per_thread == 0) return threads;
    size_t t = bytes / min_per_thread;
    if (t < 1) t = 1;
    return t < (size_t)threads ? (int)t : threads;
}

void lw_stage_cfg_resolve(lw_stage_cfg *c, int64_t stage_kb, int64_t nbuf, int64_t threads, int pageable,
                          int64_t register_min_mb, int cores, size_t bytes)
{
    /* 4 MiB chunks: large enough that a chunk's copy costs far more than its
     * launch (~10 us at 25 GB/s is 250 KB), small enough that the first
     * chunk's memcpy delays the pipeline little; 16 per ring hold two row
     * bands of a 16384-wide float image, so that a band's download never
     * waits for the previous band's */
    c->chunk = (size_t)(stage_kb > 0 ? stage_kb : 4096) << 10;
    c->nbuf = nbuf > 0 ? (int)nbuf : 16;
    if (c->nbuf < 2) c->nbuf = 2;
    if (bytes < c->chunk) c->chunk = bytes < 4096 ? 4096 : (bytes + 4095) & ~(size_t)4095;
    size_t need = (bytes + c->chunk - 1) / c->chunk;
    if (need < (size_t)c->nbuf) c->nbuf = need < 2 ? 2 : (int)need;
    /* one memcpy thread moves roughly 8-12 GB/s: four keep up with one
     * direction of a PCIe 5 x16 link and eight with both, but never more
     * than half the cores (the caller's own threads run too) */
    if (threads > 0) {
        c->threads = (int)threads;
    } else {
        int t = cores / 2;
        c->threads = t < 1 ? 1 : t > 8 ? 8 : t;
    }
    c->pageable = pageable;
    c->register_min = register_min_mb > 0 ? (size_t)register_min_mb << 20 : 0;
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
