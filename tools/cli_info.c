/* `liftwave info`: version, backends, CUDA devices, file-format support. */
#include "cli_common.h"

#include <stdio.h>
#include <string.h>

#ifndef LW_GIT_COMMIT
#define LW_GIT_COMMIT "unknown"
#endif

static const char info_usage[] =
    "usage: liftwave info\n"
    "\n"
    "Print the version, the backends usable on this machine, the CUDA devices\n"
    "and the supported file formats.\n"
    "\n" LW_CLI_EXIT_TEXT;


/* Name of the backend `auto` picks for host data. */
static const char *auto_backend(void)
{
    lw_config c;
    lw_config_init(&c);
    c.rank = 1;
    c.shape[0] = 2;
    lw_plan *p = NULL;
    if (lw_plan_create(&p, &c) != LW_OK) return "none";
    const char *name = lw_plan_backend_name(p);
    lw_destroy(p);
    return name;
}

int lw_cli_info(int argc, char **argv)
{
    lw_cli_opts o;
    int rc = lw_cli_parse(argc, argv, 0, 0, info_usage, &o);
    if (rc == LW_EXIT_HELP) return LW_EXIT_OK;
    if (rc != LW_EXIT_OK) return rc;

    printf("liftwave %s (library %s, commit %s)\n", LW_VERSION_STRING, lw_version(), LW_GIT_COMMIT);
    printf("backends:\n");
    const lw_backend list[] = {LW_BACKEND_CPU, LW_BACKEND_CUDA, LW_BACKEND_CPU_REF};
    for (size_t i = 0; i < sizeof list / sizeof list[0]; i++)
        printf("  %-8s %s\n", lw_backend_name(list[i]), lw_backend_available(list[i]) ? "available" : "not available");
    printf("  %-8s -> %s\n", "auto", auto_backend());

    char devs[4096];
    int ndev = lw_cuda_device_info(devs, sizeof devs);
    if (ndev <= 0) {
        printf("CUDA devices: none\n");
    } else {
        printf("CUDA devices: %d\n", ndev);
        /* one line each; indent them */
        char *save = devs, *line;
        while ((line = save) && *line) {
            char *nl = strchr(line, '\n');
            if (nl) *nl = '\0';
            printf("  %s\n", line);
            save = nl ? nl + 1 : NULL;
            if (!save) break;
        }
    }
    printf("file formats: .npy .pgm .ppm .pnm .raw%s\n", lw_io_have_png() ? " .png" : " (no PNG: built without libpng)");
    printf("PNG support: %s\n", lw_io_have_png() ? "yes" : "no");
    printf("wavelets:");
    for (int w = 0; w < LW_WAVELET_COUNT; w++) printf(" %s", lw_wavelet_name((lw_wavelet)w));
    printf("\ninteger variants (--integer):");
    for (int w = 0; w < LW_WAVELET_COUNT; w++)
        if (lw_wavelet_properties((lw_wavelet)w) & LW_WAVELET_INTEGER) printf(" %s", lw_wavelet_name((lw_wavelet)w));
    printf("\nboundary modes: symmetric periodic\nlayouts: mallat interleaved\n");
    fflush(stdout);
    return LW_EXIT_OK;
}
