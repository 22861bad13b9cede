/* libFuzzer target: lw_npy_read_mem on arbitrary bytes must fail cleanly or
 * return a well-formed array. */
#include "fuzz_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    lw_array a;
    char err[256];
    if (lw_npy_read_mem(data, size, &a, err, sizeof err) == 0) {
        fuzz_check_array(&a);
        lw_array_free(&a);
    } else {
        fuzz_check_error(&a, err);
    }
    return 0;
}
