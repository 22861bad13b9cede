/* Shared by the fuzz targets: what every successful or failed read must satisfy. */
#ifndef FUZZ_CHECK_H
#define FUZZ_CHECK_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lw_io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A read that succeeded gives a valid array; touch every byte so a short
 * allocation shows up under ASan. */
static inline void fuzz_check_array(const lw_array *a)
{
    size_t bytes;
    if (lw_array_check(a, NULL, &bytes, NULL, 0) != 0)
        abort();
    const volatile unsigned char *p = a->data;
    unsigned char acc = 0;
    for (size_t i = 0; i < bytes; i++)
        acc ^= p[i];
    (void)acc;
}

/* A read that failed leaves no data and a one-line, non-empty message. */
static inline void fuzz_check_error(const lw_array *a, const char *err)
{
    if (a->data != NULL || err[0] == 0 || strchr(err, '\n') != NULL)
        abort();
}

#endif
