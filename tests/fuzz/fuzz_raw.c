/* libFuzzer target for lw_raw_read_mem.  The first bytes choose the spec:
 * byte 0 the element type (mod 6), byte 1 the rank (1..4), then one byte per
 * axis (length 1..256 or, with the top bit of byte 0, an absurd length);
 * the rest is the file.  Fewer than 2 bytes: rejected without a read. */
#include "fuzz_check.h"

int lw_fuzz_read(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    lw_raw_spec spec;
    memset(&spec, 0, sizeof spec);
    spec.type = (lw_io_type)((data[0] & 0x7f) % 6);
    spec.have_type = 1;
    spec.rank = 1 + data[1] % LW_IO_MAX_RANK;
    size_t pos = 2;
    for (int i = 0; i < spec.rank; i++) {
        uint8_t b = pos < size ? data[pos] : 0;
        pos++;
        spec.shape[i] = (data[0] & 0x80) ? (int64_t)1 << (b % 63) : (int64_t)b + 1;
    }
    if (pos > size)
        pos = size;
    lw_array a;
    char err[256] = "";
    return fuzz_outcome(lw_raw_read_mem(data + pos, size - pos, &spec, &a, err, sizeof err), &a, err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    lw_fuzz_read(data, size);
    return 0;
}
