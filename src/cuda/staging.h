/* Host memory <-> device moves for host-pointer plans of the CUDA backend.
 *
 * A transfer is a box: nz planes of ny rows of `row` bytes, with its own row
 * and plane pitches on the host side and on the device side (a contiguous
 * range, a quadrant of a Mallat image, the detail part of a volume).
 *
 * Pinned host memory (cudaMallocHost, or registered) goes straight through
 * the copy engines.  Pageable memory goes through a stager: a ring of pinned
 * buffers, each reused only once the copy it fed (or that filled it) has
 * finished (an event per buffer); a pool of host threads, each taking whole
 * chunks, memcpys between the user's buffer and the rings while the copy
 * engines move other chunks.  Or, by the plan's tuning, the user's buffer is registered
 * (cudaHostRegister) for the call and moved like pinned memory.
 *
 * staging_sched.c: the chunk schedule (pure C, unit-tested on the CPU);
 * staging_ring.c: the rings, the copy threads and the copies;
 * staging_pin.c: which host ranges are pinned, registered by whom. */
#ifndef LW_STAGING_H
#define LW_STAGING_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- schedule (no CUDA) ------------------------------------------------------ */

typedef struct lw_box {
    size_t row;              /* bytes per row */
    int64_t ny, nz;          /* rows per plane, planes */
    size_t hpitch, hplane;   /* host: bytes between rows, between planes */
    size_t dpitch, dplane;   /* device: the same */
} lw_box;

/* A piece of a box: planes [z0, z0+nz), rows [y0, y0+ny) of each, bytes
 * [x0, x0+nx) of each row.  A chunk is whole planes, or rows of one plane, or
 * a segment of one row, so that it is one 1-D, 2-D or (planes) 3-D copy. */
typedef struct lw_chunk {
    int64_t z0, nz, y0, ny;
    size_t x0, nx;
} lw_chunk;

/* A contiguous range of n bytes as a box. */
lw_box lw_box_linear(size_t n);
/* Bytes in a box / in a chunk. */
size_t lw_box_bytes(const lw_box *b);
size_t lw_chunk_bytes(const lw_chunk *c);
/* Number of chunks of at most `limit` bytes (limit >= 1) the box is cut in,
 * and chunk i of them (in order: planes, rows, bytes).  An empty box has 0. */
int64_t lw_chunk_count(const lw_box *b, size_t limit);
void lw_chunk_at(const lw_box *b, size_t limit, int64_t i, lw_chunk *c);
/* Byte offsets of row r of a chunk (rows linear: row r is plane z0 + r / ny,
 * row y0 + r % ny) on the host and on the device side of the box; in the
 * compact ring buffer it is at r * c->nx. */
size_t lw_chunk_row_host(const lw_box *b, const lw_chunk *c, int64_t r);
size_t lw_chunk_row_dev(const lw_box *b, const lw_chunk *c, int64_t r);
/* Copy a chunk between the host side of its box (host: the box's first
 * byte) and a compact buffer (row r at r * c->nx): to_buf 1 host -> buffer,
 * 0 buffer -> host.  One memcpy where the chunk's rows are contiguous on the
 * host. */
void lw_chunk_copy(const lw_box *b, const lw_chunk *c, char *host, char *buf, int to_buf);

/* 3-D volumes in slabs of planes along axis 0 (staging_slabs.c): slab k
 * computes output planes [z0, z1) (its core) from input planes [e0, e1),
 * the core with a margin of E planes each side (clipped to the volume), E
 * even and beyond the wavelet's reach, so that the artificial edges of the
 * slab touch no core plane.  Cores are Z planes (Z even, Z >= 2E), the last
 * one Z .. Z+E-1 (never thinner than E, so that every middle slab is
 * Z + 2E long).  Slab shapes: first Z+E, middle Z+2E, last
 * D - (n-1)Z + E. */
typedef struct lw_slabs {
    int64_t D, Z, E, n;
} lw_slabs;
/* Cut D planes in about `want` slabs for a wavelet of reach `halo`;
 * 0, or -1 when fewer than 3 slabs fit (then the volume runs whole). */
int lw_slabs_plan(int64_t D, int halo, int64_t want, lw_slabs *s);
void lw_slab_at(const lw_slabs *s, int64_t k, int64_t *z0, int64_t *z1, int64_t *e0, int64_t *e1);
/* Which of the three slab shapes slab k has: 0 first, 1 middle, 2 last. */
int lw_slab_kind(const lw_slabs *s, int64_t k);

/* How a plan moves pageable memory (tuning keys stage_kb, stage_buffers,
 * copy_threads, pageable, register_min_mb; docs/TUNING.md). */
enum { LW_PAGEABLE_AUTO = 0, LW_PAGEABLE_STAGE = 1, LW_PAGEABLE_REGISTER = 2 };
typedef struct lw_stage_cfg {
    size_t chunk;          /* bytes of one ring buffer */
    int nbuf;              /* ring buffers (>= 2) */
    int threads;           /* copy threads, the calling one included (>= 1) */
    int pageable;          /* LW_PAGEABLE_* */
    size_t register_min;   /* auto: register buffers of at least this many bytes (0: never) */
} lw_stage_cfg;

/* Resolve the tuning values (0 = automatic) into a configuration for a
 * machine with `cores` online cores and transfers of `bytes` each way: the
 * ring never holds much more than one transfer (smaller buffers, fewer of
 * them, at least 2), so that small plans pin little memory. */
void lw_stage_cfg_resolve(lw_stage_cfg *c, int64_t stage_kb, int64_t nbuf, int64_t threads, int pageable,
                          int64_t register_min_mb, int cores, size_t bytes);
/* The chunk size for a transfer of `bytes`: the buffers' size, or less (at
 * least 256 KiB), so that each copy thread gets a chunk of it. */
size_t lw_stage_chunk_for(const lw_stage_cfg *c, size_t bytes);
/* 1: register a pageable buffer of `bytes` for the call; 0: stage it. */
int lw_stage_use_register(const lw_stage_cfg *c, size_t bytes);

#ifdef __cplusplus
}
#endif

#endif
