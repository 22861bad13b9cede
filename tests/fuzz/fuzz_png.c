/* libFuzzer target: lw_png_read_mem on arbitrary bytes must fail cleanly or
 * return a well-formed array. */
#include "fuzz_check.h"

int lw_fuzz_read(const uint8_t *data, size_t size)
{
    lw_array a;
    char err[256] = "";
    return fuzz_outcome(lw_png_read_mem(data, size, &a, err, sizeof err), &a, err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    lw_fuzz_read(data, size);
    return 0;
}
