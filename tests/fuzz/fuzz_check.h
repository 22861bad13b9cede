/* Shared by the fuzz targets: what every successful or failed read must
 * satisfy, and the entry point the plain corpus driver (fuzz_driver.c) uses. */
#ifndef FUZZ_CHECK_H
#define FUZZ_CHECK_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lw_io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Each target defines this: run its reader on the bytes, abort() when the
 * reader breaks its contract, and return 1 when the input was accepted (a
 * well-formed array came back) or 0 when it was rejected (a clean error).
 * LLVMFuzzerTestOneInput calls it and ignores the outcome; the corpus
 * driver checks the outcome against the file's name. */
int lw_fuzz_read(const uint8_t *data, size_t size);

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

/* Check a reader's result (rc 0 = success) and free the array: 1 accepted,
 * 0 rejected. */
static inline int fuzz_outcome(int rc, lw_array *a, const char *err)
{
    if (rc == 0) {
        fuzz_check_array(a);
        lw_array_free(a);
        return 1;
    }
    fuzz_check_error(a, err);
    return 0;
}

#endif
