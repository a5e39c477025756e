#ifndef HUDDLE_VIPS_SHIM_H
#define HUDDLE_VIPS_SHIM_H

#include <stddef.h>

/* libvips' C API passes options as NULL-terminated variadic arguments, which Swift cannot call:
   these functions make the few calls Huddle needs with fixed arguments. */

/* Starts libvips once for the process, with untrusted loaders blocked, no operation cache and
   `threads` worker threads per image; 0 on success. */
int huddle_vips_start(int threads);

typedef struct {
    int width;
    int height;
    /* EXIF orientation, 1 to 8; 1 when the image has none. */
    int orientation;
    /* libvips' loader for the bytes, e.g. "jpegload_buffer"; empty when none knows them. */
    char loader[64];
    /* For HEIF loads: "hevc" (HEIC) or "av1" (AVIF); empty otherwise. */
    char compression[16];
    /* Whether the image carries an EXIF block, and GPS fields in it. */
    int has_exif;
    int has_gps;
} huddle_vips_header;

/* What the bytes are and their size, read from the header without decoding the pixels;
   0 on success, -1 when no loader takes them or the header cannot be read. */
int huddle_vips_read_header(const void *bytes, size_t length, huddle_vips_header *header);

/* A variant at most `size` pixels on its longest side (never upscaled), turned upright, in sRGB,
   flattened on white, without metadata (EXIF, GPS, XMP, ICC), as a JPEG of `quality`. `*out` is
   freed with huddle_vips_free; 0 on success. */
int huddle_vips_variant(
    const void *bytes, size_t length, int size, int quality, void **out, size_t *out_length, int *width, int *height);

/* A JPEG of noise `width` × `height` with an EXIF orientation and a GPS position in Tallinn, as a
   phone writes one: for tests and the benchmark. */
int huddle_vips_sample_jpeg(int width, int height, int orientation, void **out, size_t *out_length);

/* A square picture for the demo: a background of one colour and a figure of another, drawn as
 * circles (`kind` 0: a head and shoulders, for a profile picture; 1: a ring and a disc, for a logo). */
int huddle_vips_emblem_jpeg(int size, int kind, const double *background, const double *figure, void **out, size_t *out_length);

void huddle_vips_free(void *pointer);

/* libvips' error text since the last call, copied into `buffer` (truncated to `size`), and cleared. */
void huddle_vips_take_error(char *buffer, size_t size);

#endif
