/* A plain main() for the fuzz targets, so the seed corpora run as ordinary
 * tests with any compiler:
 *     fuzzcorpus_<fmt> [--expect=names|reject] PATH...
 * runs the target's reader (lw_fuzz_read) once on every file named, or found
 * in the directories named (not recursive), and checks the outcome:
 *   names (default)  a file whose name starts with "bad_" must be rejected,
 *                    one starting with "crash-" (a crasher kept from fuzzing)
 *                    may go either way, every other file must be accepted;
 *   reject           every file must be rejected (e.g. PNG files in a build
 *                    without libpng).
 * A reader that breaks its contract aborts (fuzz_check.h).  Exit status 1
 * when an outcome is wrong, a path cannot be read or nothing was run. */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int lw_fuzz_read(const uint8_t *data, size_t size);

enum expect_mode { EXPECT_NAMES, EXPECT_REJECT };

/* 1 accepted, 0 rejected, -1 unreadable. */
static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return -1;
    }
    size_t cap = 4096, len = 0;
    uint8_t *buf = malloc(cap);
    for (;;) {
        if (!buf) {
            fclose(f);
            fprintf(stderr, "%s: out of memory\n", path);
            return -1;
        }
        len += fread(buf + len, 1, cap - len, f);
        if (len < cap)
            break;
        cap *= 2;
        buf = realloc(buf, cap);
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        fprintf(stderr, "%s: read error\n", path);
        return -1;
    }
    /* an exact-size copy, so reads past the end show up under ASan */
    uint8_t *exact = malloc(len ? len : 1);
    if (!exact) {
        free(buf);
        return -1;
    }
    memcpy(exact, buf, len);
    free(buf);
    int accepted = lw_fuzz_read(exact, len);
    free(exact);
    return accepted;
}

/* 0 when the outcome is the expected one (printing why not otherwise). */
static int check_outcome(const char *path, int accepted, enum expect_mode mode)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    int want; /* 1 accept, 0 reject, -1 either */
    if (mode == EXPECT_REJECT)
        want = 0;
    else if (strncmp(base, "bad_", 4) == 0)
        want = 0;
    else if (strncmp(base, "crash-", 6) == 0)
        want = -1;
    else
        want = 1;
    if (want < 0 || want == accepted)
        return 0;
    fprintf(stderr, "FAIL: %s was %s, expected %s\n", path, accepted ? "accepted" : "rejected",
            want ? "accepted" : "rejected");
    return 1;
}

static void one(const char *path, enum expect_mode mode, int *runs, int *unreadable, int *wrong)
{
    int r = run_file(path);
    (*runs)++;
    if (r < 0)
        (*unreadable)++;
    else
        *wrong += check_outcome(path, r, mode);
}

static int cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int main(int argc, char **argv)
{
    int runs = 0, fails = 0, wrong = 0;
    enum expect_mode mode = EXPECT_NAMES;
    int first = 1;
    if (argc > 1 && strncmp(argv[1], "--expect=", 9) == 0) {
        if (strcmp(argv[1] + 9, "names") == 0)
            mode = EXPECT_NAMES;
        else if (strcmp(argv[1] + 9, "reject") == 0)
            mode = EXPECT_REJECT;
        else {
            fprintf(stderr, "unknown %s (names or reject)\n", argv[1]);
            return 2;
        }
        first = 2;
    }
    for (int i = first; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            perror(argv[i]);
            fails++;
            continue;
        }
        if (!S_ISDIR(st.st_mode)) {
            one(argv[i], mode, &runs, &fails, &wrong);
            continue;
        }
        DIR *d = opendir(argv[i]);
        if (!d) {
            perror(argv[i]);
            fails++;
            continue;
        }
        char **names = NULL;
        size_t n = 0, cap = 0;
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (e->d_name[0] == '.')
                continue;
            if (n == cap) {
                cap = cap ? 2 * cap : 64;
                char **nn = realloc(names, cap * sizeof *names);
                if (!nn)
                    break;
                names = nn;
            }
            size_t l = strlen(argv[i]) + strlen(e->d_name) + 2;
            names[n] = malloc(l);
            if (names[n])
                snprintf(names[n++], l, "%s/%s", argv[i], e->d_name);
        }
        closedir(d);
        qsort(names, n, sizeof *names, cmp);
        for (size_t k = 0; k < n; k++) {
            one(names[k], mode, &runs, &fails, &wrong);
            free(names[k]);
        }
        free(names);
    }
    printf("ran %d inputs, %d unreadable, %d with the wrong outcome\n", runs, fails, wrong);
    return (fails || wrong || runs == 0) ? 1 : 0;
}
