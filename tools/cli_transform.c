/* `liftwave forward` and `liftwave inverse`: read a file, run the planned
 * transform, write the result.  Nothing is written unless every step before
 * the (atomic) write succeeded. */
#include "cli_transform.h"

#include "cli_env.h"
#include "cli_meta_apply.h"
#include "cli_output.h"
#include "cli_stream.h"
#include "cli_video.h"

#include "cli_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COMMON_OPTIONS                                                                           \
    "  -w, --wavelet NAME   {wavelets} (default cdf97)\n"                                         \
    "  -l, --levels N|max   decomposition levels (default 1); max = as many as the shape\n"      \
    "                       allows (periodic: as many as keep every length even)\n"          \
    "  -m, --mode MODE      symmetric (default) or periodic (every length even at every level)\n" \
    "      --layout L       mallat (default: lowpass first, recursing into the corner) or\n"   \
    "                       interleaved (coefficients stay at their sample positions)\n"          \
    "      --integer        reversible integer transform on int32 ({integer_wavelets})\n"       \
    "      --axes A,B,...   axes to transform (at most 3; negative counts from the end);\n"      \
    "                       default: all axes, but 0,1 (channels as a batch) when IN or\n"      \
    "                       OUT is a colour image file (H,W,C)\n"                              \
    "  -b, --backend B      {backends} (default auto)\n"                                          \
    "      --scheme NAME    engine or GPU algorithm (default auto; bench --scheme list)\n"        \
    "      --shape S        shape of a .raw input, e.g. 512x512\n"                               \
    "      --dtype T        element type of a .raw input: uint8 uint16 int16 int32 float32 float64\n" \
    "      --force          inverse: options win over the parameters recorded in IN.json\n"   \
    "      --overwrite      allow OUT to be the input file (else an error)\n"                   \
    "      --memory-limit SIZE  memory for the transform's buffers, e.g. 256M, 4G (default:\n"    \
    "                       half the physical memory); a .npy/.raw array that does not fit\n"  \
    "                       is transformed out of core, in slabs (docs/OUT_OF_CORE.md)\n"      \
    "      --device-memory-limit SIZE  -b cuda: device memory a transform may hold (default:\n" \
    "                       what is free); a larger array streams through the device\n"        \
    "  -q, --quiet          no progress bar (one is drawn on a terminal for runs over 1 s)\n"   \
    "      --progress-after S  draw the bar once a run has lasted S seconds (default 1)\n"     \
    "      --planes P       video input: luma (default) or all (one output file per plane)\n"  \
    "  -v, --verbose        print what was done and the timings on stdout\n"                     \
    "  -h, --help           this help\n"                                                          \
    "\n"                                                                                          \
    "Files by extension: .npy, .pgm/.ppm/.pnm, .png, .raw (needs --shape and --dtype).\n"         \
    "Video (forward): IN = clip.y4m, or - for YUV4MPEG2 on stdin (ffmpeg -f yuv4mpegpipe -),\n"  \
    "or - with --shape HxW for raw 8-bit frames; the (T,H,W) transform of all the frames.\n"  \
    "Float path: uint8/uint16/int16/float32 data -> float32, int32/float64 -> float64.\n"       \
    "Integer path (--integer): integer data -> int32; float data is an error.\n"                 \
    ".npy and .raw outputs hold the transform's dtype.  Image outputs are rounded to\n"          \
    "nearest and written 8-bit (all values in 0..255) or 16-bit (0..65535), else an error.\n"  \
    "A forward writing .npy or .raw also writes OUT.json: the parameters (wavelet, levels,\n"  \
    "mode, layout, axes, integer, source dtype, library version) and a checksum.  An output\n" \
    "symlink is written through.\n"                                                           \
    "\n" LW_CLI_EXIT_TEXT

static const char forward_usage[] =
    "usage: liftwave forward IN OUT [options]\n"
    "\n"
    "Forward discrete wavelet transform of the array in IN, written to OUT.\n"
    "\n"
    "options:\n" COMMON_OPTIONS
    "\n"
    "example: liftwave forward photo.png coeffs.npy -w cdf97 -l 3\n";

static const char inverse_usage[] =
    "usage: liftwave inverse IN OUT [options]\n"
    "\n"
    "Inverse transform of the coefficients in IN, written to OUT; it undoes the forward\n"
    "exactly (bit-exact with --integer).  When IN has the IN.json that the forward wrote,\n"
    "its recorded parameters are the defaults and an option that contradicts them is an\n"
    "error (with --force: a warning, and the option wins).  Without IN.json, give the\n"
    "options the forward transform was made with.\n"
    "\n"
    "options:\n" COMMON_OPTIONS
    "\n"
    "example: liftwave inverse coeffs.npy photo.png\n";

int lw_cli_check_combination(const lw_cli_opts *o, int integer_check)
{
    if (o->integer && integer_check) {
        lw_config c;
        lw_config_init(&c);
        c.rank = 1;
        c.shape[0] = 2;
        c.dtype = LW_INT32;
        c.integer = 1;
        c.wavelet = o->wavelet;
        c.backend = LW_BACKEND_CPU_REF;
        lw_plan *p = NULL;
        lw_status st = lw_plan_create(&p, &c);
        lw_destroy(p);
        if (st == LW_ERR_UNSUPPORTED) {
            const char *e = lw_last_error();
            return lw_cli_fail(LW_EXIT_USAGE, "--integer: %s",
                               (e && e[0]) ? e : "this wavelet has no integer variant");
        }
    }
    if (o->scheme && strcmp(o->scheme, "auto") != 0) {
        unsigned where = lw_cli_scheme_where(o->scheme);
        int cpu = o->backend == LW_BACKEND_CPU || o->backend == LW_BACKEND_CPU_REF;
        if (!where)
            return lw_cli_fail(LW_EXIT_USAGE, "unknown scheme '%s' ('liftwave bench --scheme list' lists the schemes and engines)",
                               o->scheme);
        if ((cpu && !(where & LW_CLI_ON_CPU)) || (o->backend == LW_BACKEND_CUDA && !(where & LW_CLI_ON_CUDA)))
            return lw_cli_fail(LW_EXIT_USAGE, "scheme '%s' exists only on the %s backend, not %s", o->scheme,
                               where & LW_CLI_ON_CUDA ? "cuda" : "cpu", lw_backend_name(o->backend));
    }
    if (o->backend != LW_BACKEND_AUTO && !lw_backend_available(o->backend))
        return lw_cli_fail(LW_EXIT_DATA, "backend '%s' is not available on this machine%s",
                           lw_backend_name(o->backend),
                           o->backend == LW_BACKEND_CUDA ? " (no CUDA device, or built without CUDA)" : "");
    return LW_EXIT_OK;
}

int lw_cli_choose_axes(const lw_cli_opts *o, int rank, int image_io, lw_config *cfg)
{
    if (o->naxes > 0) {
        int ax[LW_MAX_AXES];
        for (int i = 0; i < o->naxes; i++) {
            int a = o->axes[i] < 0 ? o->axes[i] + rank : o->axes[i];
            if (a < 0 || a >= rank)
                return lw_cli_fail(LW_EXIT_DATA, "--axes: axis %d is out of range for this rank-%d array",
                                   o->axes[i], rank);
            ax[i] = a;
        }
        /* Sort (the transform always runs in increasing axis order). */
        for (int i = 1; i < o->naxes; i++)
            for (int j = i; j > 0 && ax[j - 1] > ax[j]; j--) {
                int t = ax[j];
                ax[j] = ax[j - 1];
                ax[j - 1] = t;
            }
        for (int i = 1; i < o->naxes; i++)
            if (ax[i] == ax[i - 1]) return lw_cli_fail(LW_EXIT_DATA, "--axes: axis %d is given twice", ax[i]);
        cfg->naxes = o->naxes;
        for (int i = 0; i < o->naxes; i++) cfg->axes[i] = ax[i];
        return LW_EXIT_OK;
    }
    if (rank == 3 && image_io) { /* colour image (H,W,C): channels are a batch */
        cfg->naxes = 2;
        cfg->axes[0] = 0;
        cfg->axes[1] = 1;
        return LW_EXIT_OK;
    }
    if (rank > LW_MAX_AXES)
        return lw_cli_fail(LW_EXIT_DATA, "a rank-%d array needs --axes (at most %d axes are transformed)", rank,
                           LW_MAX_AXES);
    cfg->naxes = 0;
    return LW_EXIT_OK;
}

int lw_cli_fill_config(const lw_cli_opts *o, int rank, const int64_t *shape, lw_dtype dt, lw_direction dir,
                       int image_io, lw_config *cfg)
{
    cfg->rank = rank;
    for (int i = 0; i < rank; i++) cfg->shape[i] = shape[i];
    int rc = lw_cli_choose_axes(o, rank, image_io, cfg);
    if (rc != LW_EXIT_OK) return rc;
    cfg->dtype = dt;
    cfg->integer = o->integer;
    cfg->wavelet = o->wavelet;
    cfg->mode = o->mode;
    cfg->layout = o->layout;
    cfg->levels = o->levels;
    cfg->direction = dir;
    cfg->backend = o->backend;
    cfg->scheme = o->scheme;
    cfg->device_memory_limit = o->device_memory_limit;
    cfg->tuning = lw_cli_env_tuning();
    return LW_EXIT_OK;
}

static int run_transform(int argc, char **argv, lw_direction dir)
{
    const char *usage = dir == LW_FORWARD ? forward_usage : inverse_usage;
    lw_cli_opts o;
    int rc = lw_cli_parse(argc, argv, LW_OPT_TRANSFORM | LW_OPT_RAW, 2, usage, &o);
    if (rc == LW_EXIT_HELP) return LW_EXIT_OK;
    if (rc != LW_EXIT_OK) return rc;
    const char *in = o.pos[0], *out = o.pos[1];
    if (lw_cli_is_video_input(in, &o)) {
        if (dir == LW_INVERSE)
            return lw_cli_fail(LW_EXIT_USAGE, "a video input ('%s') is for forward; the inverse takes the coefficient "
                               "file forward wrote", lw_cli_path(in));
        return lw_cli_video_forward(in, out, &o);
    }
    if (o.given_planes) return lw_cli_fail(LW_EXIT_USAGE, "--planes applies to video input (.y4m or -) only");
    if ((rc = lw_cli_check_input(in, &o)) != LW_EXIT_OK) return rc;
    if ((rc = lw_cli_check_output(out, 0)) != LW_EXIT_OK) return rc;
    if ((rc = lw_cli_check_combination(&o, dir == LW_FORWARD || (o.given & LW_GIVEN_WAVELET))) != LW_EXIT_OK) return rc;
    if ((rc = lw_cli_check_env_tuning()) != LW_EXIT_OK) return rc;
    if ((rc = lw_cli_check_not_input(in, out, &o)) != LW_EXIT_OK) return rc;

    int streamed = 0;
    if ((rc = lw_cli_stream_maybe(in, out, &o, dir, &streamed)) != LW_EXIT_OK || streamed) return rc;

    lw_array a, img;
    lw_plan *plan = NULL;
    memset(&img, 0, sizeof img);
    double t0 = lw_cli_now();
    if ((rc = lw_cli_read(in, &o, &a)) != LW_EXIT_OK) return rc;
    double t1 = lw_cli_now();
    char in_shape[96], in_type[16];
    lw_cli_shape_string(&a, in_shape, sizeof in_shape);
    snprintf(in_type, sizeof in_type, "%s", lw_io_type_name(a.type));
    lw_cli_meta meta;
    int have_meta = 0;
    memset(&meta, 0, sizeof meta);
    meta.source_dtype = a.type;
    meta.source_rank = a.rank;
    memcpy(meta.source_shape, a.shape, sizeof a.shape);
    char in_real[16384];
    if (dir == LW_INVERSE) {
        if ((rc = lw_cli_resolve(in, in_real, sizeof in_real)) != LW_EXIT_OK) goto done;
        if ((rc = lw_cli_meta_load(in_real, &a, &o, &meta, &have_meta)) != LW_EXIT_OK) goto done;
        if ((have_meta && (rc = lw_cli_meta_apply(&o, &meta, in)) != LW_EXIT_OK) ||
            (rc = lw_cli_check_combination(&o, 1)) != LW_EXIT_OK)
            goto done;
    }

    lw_dtype dt;
    if ((rc = lw_cli_to_work_type(&a, o.integer, &dt)) != LW_EXIT_OK) goto done;

    lw_config cfg;
    lw_config_init(&cfg);
    if (a.rank < 1 || a.rank > LW_MAX_RANK) {
        rc = lw_cli_fail(LW_EXIT_DATA, "'%s' holds a rank-%d array; liftwave takes rank 1..%d", lw_cli_path(in),
                         a.rank, LW_MAX_RANK);
        goto done;
    }
    int image_io = (lw_cli_is_image_path(in) || lw_cli_is_image_path(out));
    if ((rc = lw_cli_fill_config(&o, a.rank, a.shape, dt, dir, image_io, &cfg)) != LW_EXIT_OK) goto done;

    lw_status st = lw_plan_create(&plan, &cfg);
    if (st == LW_ERR_INVALID_LEVELS && cfg.naxes == 0 && a.rank == 3 && a.shape[2] <= 4) {
        rc = lw_cli_fail(LW_EXIT_DATA, "%s (a colour image H x W x C in .npy: --axes 0,1)", lw_last_error());
        goto done;
    }
    if (st != LW_OK) {
        rc = lw_cli_fail_lib(st);
        goto done;
    }
    const lw_config *pc = lw_plan_config(plan);
    if (have_meta && (rc = lw_cli_meta_check_levels(&o, &meta, in, pc->levels)) != LW_EXIT_OK) goto done;
    double t2 = lw_cli_now();
    st = lw_execute(plan, a.data, a.data);
    double t3 = lw_cli_now();
    if (st != LW_OK) {
        rc = lw_cli_fail_lib(st);
        goto done;
    }

    const lw_array *result = &a;
    if (lw_cli_is_image_path(out)) {
        if ((rc = lw_cli_to_image(&a, &img)) != LW_EXIT_OK) goto done;
        result = &img;
    }
    int record = dir == LW_FORWARD && result == &a && lw_cli_meta_format(out);
    if (record) {
        snprintf(meta.library_version, sizeof meta.library_version, "%s", lw_version());
        meta.wavelet = pc->wavelet;
        meta.levels = pc->levels;
        meta.mode = pc->mode;
        meta.layout = pc->layout;
        meta.naxes = pc->naxes;
        memcpy(meta.axes, pc->axes, sizeof meta.axes);
        meta.integer = pc->integer;
        meta.dtype = a.type;
        meta.rank = a.rank;
        memcpy(meta.shape, a.shape, sizeof a.shape);
        meta.checksum = lw_cli_checksum(a.data, (size_t)lw_cli_count(&a) * lw_io_type_size(a.type));
    }
    double t4 = lw_cli_now();
    if ((rc = lw_cli_write_output(out, result, record ? &meta : NULL)) != LW_EXIT_OK) goto done;
    double t5 = lw_cli_now();

    if (o.verbose) {
        char axes[32];
        lw_cli_axes_text(pc->naxes, pc->axes, axes, sizeof axes);
        printf("%s %s (%s %s) -> %s (%s): %s%s %s %s, %d level%s, axes %s, %s on %s; "
               "read %.3f ms, plan %.3f ms, transform %.3f ms, write %.3f ms\n",
               dir == LW_FORWARD ? "forward" : "inverse", in, in_shape, in_type, out,
               lw_io_type_name(result->type), lw_wavelet_name(pc->wavelet), o.integer ? " integer" : "",
               lw_mode_name(pc->mode), lw_layout_name(pc->layout), pc->levels, pc->levels == 1 ? "" : "s", axes,
               lw_dtype_name(dt), lw_plan_backend_name(plan), 1e3 * (t1 - t0), 1e3 * (t2 - t1),
               1e3 * (t3 - t2), 1e3 * (t5 - t4));
        fflush(stdout);
    }
    rc = LW_EXIT_OK;

done:
    lw_destroy(plan);
    lw_array_free(&img);
    lw_array_free(&a);
    return rc;
}

int lw_cli_forward(int argc, char **argv) { return run_transform(argc, argv, LW_FORWARD); }

int lw_cli_inverse(int argc, char **argv) { return run_transform(argc, argv, LW_INVERSE); }
