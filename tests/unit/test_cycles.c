/* The cycle leaders of the Mallat reorder (src/core/cycles.c), as the
 * in-place CUDA path uses them: walking every cycle from its leader moving
 * each sample to its Mallat place must give the out-of-place reorder, and
 * the reverse walk must bring it back; every leader is the smallest position
 * of its cycle and every cycle longer than one has exactly one. */
#include "core/cycles.h"
#include "lw_test.h"

#include <stdlib.h>

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

int main(void)
{
    for (int64_t n = 1; n <= 3000; n++) check_n(n);
    const int64_t big[] = {16384, 16385, 46341, 65536, 100003, 1 << 20};
    for (size_t i = 0; i < sizeof big / sizeof big[0]; i++) check_n(big[i]);
    CHECK(lw_mallat_cycle_leaders(0, NULL, 0) == -1, "n 0 accepted");
    CHECK(lw_mallat_cycle_leaders((int64_t)1 << 32, NULL, 0) == -1, "n 2^32 accepted");
    return lw_test_finish("test_cycles");
}
