/* The cycle leaders of the Mallat reorder (src/core/cycles.c), as the
 * in-place CUDA path uses them: walking every cycle from its leader moving
 * each sample to its Mallat place must give the out-of-place reorder, and
 * the reverse walk must bring it back; every leader is the smallest position
 * of its cycle and every cycle longer than one has exactly one.
 * The cycle segments (the CUDA row reorder's blocks): they cover every
 * position once, at most `walkers` of them where the cycles are fewer, and
 * their walkers, run interleaved in random orders load by load and store by
 * store with each final store waiting only for the segment before to have
 * read its last position (the kernel's flags), give the reorder both ways.
 * The cycle pieces (the CUDA line reorder's walkers): they tile the cycles
 * longer than one, none longer than asked, their neighbour indices chain
 * each cycle, and walkers run interleaved in random orders after the saves
 * (each piece's first, or last for the inverse) give the reorder both ways. */
#include "core/cycles.h"
#include "lw_test.h"

#include <stdlib.h>
#include <string.h>

static void walk(int64_t *x, int64_t n, const int32_t *lead, int64_t nc, int inverse)
{
    for (int64_t c = 0; c < nc; c++) {
        int64_t L = lead[c], p = L;
        if (!inverse) {
            int64_t v = x[p];
            do {
                int64_t q = lw_mallat_pos(p, n), t = x[q];
                x[q] = v, v = t, p = q;
            } while (p != L);
        } else {
            int64_t first = x[p];
            for (;;) {
                int64_t q = lw_mallat_pos(p, n);
                if (q == L) {
                    x[p] = first;
                    break;
                }
                x[p] = x[q], p = q;
            }
        }
    }
}

static void check_n(int64_t n)
{
    int64_t nc = lw_mallat_cycle_leaders(n, NULL, 0);
    CHECK(nc >= 0, "n %lld: count failed", (long long)n);
    if (nc < 0) return;
    int32_t *lead = malloc((size_t)(nc ? nc : 1) * sizeof *lead);
    int64_t *x = malloc((size_t)n * sizeof *x), *want = malloc((size_t)n * sizeof *want);
    CHECK(lw_mallat_cycle_leaders(n, lead, nc) == nc, "n %lld: second count differs", (long long)n);
    for (int64_t i = 0; i < n; i++) x[i] = i, want[lw_mallat_pos(i, n)] = i;
    /* leaders: the smallest of their cycles, ascending, one per cycle longer than one */
    int64_t covered = 0;
    for (int64_t c = 0; c < nc; c++) {
        CHECK(c == 0 || lead[c] > lead[c - 1], "n %lld: leaders not ascending", (long long)n);
        int64_t p = lead[c], len = 0;
        do {
            CHECK(p >= lead[c], "n %lld: leader %d is not its cycle's smallest", (long long)n, (int)lead[c]);
            p = lw_mallat_pos(p, n), len++;
        } while (p != lead[c] && len <= n);
        CHECK(len > 1, "n %lld: a fixed point listed as a leader", (long long)n);
        covered += len;
    }
    int64_t fixed = 0;
    for (int64_t i = 0; i < n; i++) fixed += lw_mallat_pos(i, n) == i;
    CHECK(covered + fixed == n, "n %lld: cycles cover %lld of %lld positions", (long long)n, (long long)(covered + fixed),
          (long long)n);
    walk(x, n, lead, nc, 0);
    int ok = 1;
    for (int64_t i = 0; i < n; i++) ok &= x[i] == want[i];
    CHECK(ok, "n %lld: the forward walk is not the Mallat reorder", (long long)n);
    walk(x, n, lead, nc, 1);
    ok = 1;
    for (int64_t i = 0; i < n; i++) ok &= x[i] == i;
    CHECK(ok, "n %lld: the reverse walk does not restore the order", (long long)n);
    free(lead), free(x), free(want);
}

/* one walker a segment, stepped in a random order: its state is the
 * segment's progress (0: save the first position; 1 .. len - 1: move the
 * next one; len: wait for the segment before, then store the saved one) */
typedef struct {
    int64_t q, saved, step, done;
    int read_last; /* its last position has been read (the kernel's flag) */
} walker;

static int emulate(int64_t *x, int64_t n, int inverse, const int32_t *sg, int64_t ns, unsigned seed)
{
    walker *w = calloc((size_t)ns, sizeof *w);
    int64_t left = ns;
    srand(seed);
    for (int64_t b = 0; b < ns; b++) w[b].q = sg[3 * b];
    while (left) {
        int64_t b = rand() % ns, tries = 0;
        while ((w[b].done || (w[b].step == sg[3 * b + 1] && !w[sg[3 * b + 2]].read_last)) && tries++ < ns)
            b = (b + 1) % ns;
        if (tries > ns) {
            free(w);
            return 0; /* every walker left waits: a deadlock */
        }
        walker *v = &w[b];
        const int64_t len = sg[3 * b + 1];
        if (v->step == 0) {
            v->saved = x[v->q];
            v->read_last = len == 1;
        } else if (v->step < len) {
            const int64_t s = inverse ? lw_mallat_pos(v->q, n) : lw_mallat_src(v->q, n);
            x[v->q] = x[s];
            v->read_last = v->step == len - 1;
            v->q = s;
        } else {
            const int64_t f = sg[3 * b];
            x[inverse ? lw_mallat_src(f, n) : lw_mallat_pos(f, n)] = v->saved;
            v->done = 1, left--;
        }
        v->step++;
    }
    free(w);
    return 1;
}

static void check_segments(int64_t n, int inverse, int64_t walkers)
{
    const int64_t ns = lw_mallat_cycle_segments(n, inverse, walkers, NULL, 0);
    const int64_t cyc = lw_mallat_cycle_segments(n, inverse, 0, NULL, 0);
    CHECK(ns > 0 && cyc > 0, "n %lld: segments not counted", (long long)n);
    if (ns <= 0 || cyc <= 0) return;
    CHECK(ns >= cyc && (cyc >= walkers ? ns == cyc : ns <= walkers), "n %lld walkers %lld: %lld segments, %lld cycles",
          (long long)n, (long long)walkers, (long long)ns, (long long)cyc);
    int32_t *sg = malloc((size_t)ns * 3 * sizeof *sg);
    int64_t *x = malloc((size_t)n * sizeof *x), *want = malloc((size_t)n * sizeof *want);
    char *hit = calloc((size_t)n, 1);
    CHECK(lw_mallat_cycle_segments(n, inverse, walkers, sg, ns) == ns, "n %lld: second count differs", (long long)n);
    int ok = 1;
    for (int64_t b = 0; b < ns; b++) {
        int64_t q = sg[3 * b];
        ok &= sg[3 * b + 1] >= 1 && sg[3 * b + 2] >= 0 && sg[3 * b + 2] < ns;
        for (int64_t i = 0; ok && i < sg[3 * b + 1]; i++) {
            ok &= !hit[q];
            hit[q] = 1;
            q = inverse ? lw_mallat_pos(q, n) : lw_mallat_src(q, n);
        }
        /* the segment after this one in its cycle starts where it ends */
        int64_t nx = -1;
        for (int64_t c = 0; ok && c < ns; c++)
            if (sg[3 * c + 2] == b) nx = c;
        ok &= nx >= 0 && sg[3 * nx] == q;
    }
    for (int64_t i = 0; i < n; i++) ok &= hit[i];
    CHECK(ok, "n %lld inverse %d walkers %lld: segments do not tile the cycles", (long long)n, inverse,
          (long long)walkers);
    for (int64_t i = 0; i < n; i++)
        if (inverse) x[lw_mallat_pos(i, n)] = i, want[i] = i;
        else x[i] = i, want[lw_mallat_pos(i, n)] = i;
    for (unsigned seed = 1; ok && seed <= 3; seed++) {
        int64_t *y = malloc((size_t)n * sizeof *y);
        memcpy(y, x, (size_t)n * sizeof *y);
        int done = emulate(y, n, inverse, sg, ns, seed);
        CHECK(done, "n %lld inverse %d walkers %lld: the walkers deadlock", (long long)n, inverse, (long long)walkers);
        for (int64_t i = 0; done && i < n; i++) ok &= y[i] == want[i];
        CHECK(ok, "n %lld inverse %d walkers %lld seed %u: wrong order", (long long)n, inverse, (long long)walkers,
              seed);
        free(y);
    }
    free(sg), free(x), free(want), free(hit);
}

/* The pieces' walkers (k_permute.cu's cut path) after the saves, a step of
 * a random walker at a time; every walker reads and writes only its own
 * positions and its saved neighbour's content. */
static void walk_pieces(int64_t *x, int64_t n, const int32_t *pc, int64_t np, int inverse, unsigned seed)
{
    int64_t *saved = malloc((size_t)np * sizeof *saved), *q = malloc((size_t)np * sizeof *q),
            *carry = malloc((size_t)np * sizeof *carry);
    char *done = calloc((size_t)np, 1);
    for (int64_t t = 0; t < np; t++) saved[t] = x[pc[4 * t + (inverse ? 1 : 0)]];
    for (int64_t t = 0; t < np; t++) q[t] = pc[4 * t], carry[t] = saved[pc[4 * t + (inverse ? 2 : 3)]];
    srand(seed);
    for (int64_t left = np; left;) {
        int64_t b = rand() % np;
        while (done[b]) b = (b + 1) % np;
        const int64_t l = pc[4 * b + 1];
        if (!inverse) { /* p <- src(p) up to l, then l <- the next piece's first */
            if (q[b] == l) x[l] = carry[b], done[b] = 1, left--;
            else x[q[b]] = x[lw_mallat_src(q[b], n)], q[b] = lw_mallat_src(q[b], n);
        } else { /* p <- the content before it, from f (the previous piece's last) to l */
            const int64_t t = x[q[b]];
            x[q[b]] = carry[b], carry[b] = t;
            if (q[b] == l) done[b] = 1, left--;
            else q[b] = lw_mallat_src(q[b], n);
        }
    }
    free(saved), free(q), free(carry), free(done);
}

static void check_pieces(int64_t n, int64_t piece)
{
    const int64_t np = lw_mallat_cycle_pieces(n, piece, NULL, 0), nc = lw_mallat_cycle_leaders(n, NULL, 0);
    const int64_t longest = lw_mallat_cycle_longest(n);
    CHECK(np >= nc && nc >= 0 && longest >= 1, "n %lld piece %lld: %lld pieces, %lld cycles", (long long)n,
          (long long)piece, (long long)np, (long long)nc);
    if (np < 0 || nc < 0) return;
    int32_t *pc = malloc((size_t)(np ? np : 1) * 4 * sizeof *pc);
    int64_t *x = malloc((size_t)n * sizeof *x), *want = malloc((size_t)n * sizeof *want);
    char *hit = calloc((size_t)n, 1);
    CHECK(lw_mallat_cycle_pieces(n, piece, pc, np) == np, "n %lld: second count differs", (long long)n);
    int ok = 1;
    int64_t seen_longest = 1;
    for (int64_t b = 0; ok && b < np; b++) {
        const int64_t pv = pc[4 * b + 2], nx = pc[4 * b + 3];
        ok &= pv >= 0 && pv < np && nx >= 0 && nx < np && pc[4 * pv + 3] == b && pc[4 * nx + 2] == b;
        int64_t p = pc[4 * b], len = 1;
        for (; ok; p = lw_mallat_src(p, n), len++) {
            ok &= !hit[p] && len <= (piece < 1 ? n : piece);
            hit[p] = 1;
            if (p == pc[4 * b + 1]) break;
        }
        ok &= lw_mallat_src(p, n) == pc[4 * nx]; /* the next piece starts where this one ends */
        if (nx == b) seen_longest = len > seen_longest ? len : seen_longest;
    }
    for (int64_t i = 0; i < n; i++) ok &= hit[i] || lw_mallat_src(i, n) == i;
    if (piece < 1) ok &= np == nc && seen_longest == longest;
    CHECK(ok, "n %lld piece %lld: the pieces do not tile the cycles", (long long)n, (long long)piece);
    for (int inv = 0; ok && inv < 2; inv++)
        for (unsigned seed = 1; seed <= 2; seed++) {
            for (int64_t i = 0; i < n; i++)
                if (inv) x[lw_mallat_pos(i, n)] = i, want[i] = i;
                else x[i] = i, want[lw_mallat_pos(i, n)] = i;
            walk_pieces(x, n, pc, np, inv, seed);
            int same = 1;
            for (int64_t i = 0; i < n; i++) same &= x[i] == want[i];
            CHECK(same, "n %lld piece %lld inverse %d seed %u: wrong order", (long long)n, (long long)piece, inv, seed);
        }
    free(pc), free(x), free(want), free(hit);
}

int main(void)
{
    for (int64_t n = 1; n <= 400; n++)
        for (int64_t piece = 0; piece <= 40; piece += n % 5 + 1) check_pieces(n, piece);
    const int64_t piece_big[] = {3001, 50001, 100003, 786432, 1000003};
    for (size_t i = 0; i < sizeof piece_big / sizeof piece_big[0]; i++) {
        check_pieces(piece_big[i], 1024);
        check_pieces(piece_big[i], 0);
    }
    CHECK(lw_mallat_cycle_longest(100003) == 100002, "100003: longest cycle %lld", (long long)lw_mallat_cycle_longest(100003));
    CHECK(lw_mallat_cycle_longest(16384) == 14, "16384: longest cycle %lld", (long long)lw_mallat_cycle_longest(16384));
    for (int64_t n = 1; n <= 400; n++)
        for (int inv = 0; inv < 2; inv++)
            for (int64_t wk = 0; wk <= 40; wk += n % 7 + 1) check_segments(n, inv, wk);
    const int64_t seg_big[] = {1080, 3000, 16000, 16384};
    for (size_t i = 0; i < sizeof seg_big / sizeof seg_big[0]; i++)
        for (int inv = 0; inv < 2; inv++) {
            check_segments(seg_big[i], inv, 132);
            check_segments(seg_big[i], inv, 1);
        }
    for (int64_t n = 1; n <= 3000; n++) check_n(n);
    const int64_t big[] = {16384, 16385, 46341, 65536, 100003, 1 << 20};
    for (size_t i = 0; i < sizeof big / sizeof big[0]; i++) check_n(big[i]);
    CHECK(lw_mallat_cycle_leaders(0, NULL, 0) == -1, "n 0 accepted");
    CHECK(lw_mallat_cycle_leaders((int64_t)1 << 32, NULL, 0) == -1, "n 2^32 accepted");
    return lw_test_finish("test_cycles");
}
