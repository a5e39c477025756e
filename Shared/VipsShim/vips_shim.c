#include "vips_shim.h"

#include <string.h>
#include <vips/vips.h>

int huddle_vips_start(int threads) {
    if (VIPS_INIT("huddle")) return -1;
    /* Loaders libvips marks untrusted (ImageMagick, PDF, SVG, MATLAB, …) are never used on uploads. */
    vips_block_untrusted_set(TRUE);
    vips_cache_set_max(0);
    vips_cache_set_max_mem(0);
    vips_concurrency_set(threads > 0 ? threads : 1);
    return 0;
}

static void *note_exif(VipsImage *image, const char *field, GValue *value, void *a) {
    huddle_vips_header *header = a;
    if (vips_isprefix("exif-ifd3-", field)) header->has_gps = 1;
    if (!strcmp(field, VIPS_META_EXIF_NAME)) header->has_exif = 1;
    return NULL;
}

int huddle_vips_read_header(const void *bytes, size_t length, huddle_vips_header *header) {
    memset(header, 0, sizeof(*header));
    header->orientation = 1;
    const char *loader = vips_foreign_find_load_buffer(bytes, length);
    if (!loader) return -1;
    g_strlcpy(header->loader, loader, sizeof(header->loader));
    VipsImage *image = vips_image_new_from_buffer(bytes, length, "", "access", VIPS_ACCESS_SEQUENTIAL, NULL);
    if (!image) return -1;
    header->width = vips_image_get_width(image);
    header->height = vips_image_get_height(image);
    int orientation;
    if (vips_image_get_typeof(image, VIPS_META_ORIENTATION) && !vips_image_get_int(image, VIPS_META_ORIENTATION, &orientation))
        header->orientation = orientation;
    const char *compression;
    if (vips_image_get_typeof(image, "heif-compression") && !vips_image_get_string(image, "heif-compression", &compression))
        g_strlcpy(header->compression, compression, sizeof(header->compression));
    vips_image_map(image, note_exif, header);
    g_object_unref(image);
    return 0;
}

int huddle_vips_variant(
    const void *bytes, size_t length, int size, int quality, void **out, size_t *out_length, int *width, int *height) {
    VipsImage *thumbnail = NULL, *flat = NULL, *srgb = NULL;
    int failed = -1;
    /* Shrinks on load where the format allows (JPEG, HEIF), turns by the EXIF orientation, and
       imports an embedded colour profile to sRGB. */
    if (vips_thumbnail_buffer((void *)bytes, length, &thumbnail, size, "height", size, "size", VIPS_SIZE_DOWN, NULL)) goto done;
    VipsImage *current = thumbnail;
    if (vips_image_hasalpha(current)) {
        VipsArrayDouble *white = vips_array_double_newv(3, 255.0, 255.0, 255.0);
        int flattened = vips_flatten(current, &flat, "background", white, NULL);
        vips_area_unref(VIPS_AREA(white));
        if (flattened) goto done;
        current = flat;
    }
    if (vips_colourspace(current, &srgb, VIPS_INTERPRETATION_sRGB, NULL)) goto done;
    if (vips_jpegsave_buffer(srgb, out, out_length, "Q", quality, "strip", TRUE, "optimize_coding", TRUE, NULL)) goto done;
    *width = vips_image_get_width(srgb);
    *height = vips_image_get_height(srgb);
    failed = 0;
done:
    if (srgb) g_object_unref(srgb);
    if (flat) g_object_unref(flat);
    if (thumbnail) g_object_unref(thumbnail);
    return failed;
}

int huddle_vips_sample_jpeg(int width, int height, int orientation, void **out, size_t *out_length) {
    VipsImage *noise = NULL, *grey = NULL, *rgb = NULL;
    int failed = -1;
    if (vips_gaussnoise(&noise, width, height, "mean", 128.0, "sigma", 24.0, NULL)) goto done;
    if (vips_cast_uchar(noise, &grey, NULL)) goto done;
    VipsImage *bands[3] = {grey, grey, grey};
    if (vips_bandjoin(bands, &rgb, 3, NULL)) goto done;
    vips_image_set_int(rgb, VIPS_META_ORIENTATION, orientation);
    /* libvips writes the EXIF block from these fields when it saves. */
    vips_image_set_string(rgb, "exif-ifd0-Make", "Huddle");
    vips_image_set_string(rgb, "exif-ifd3-GPSLatitudeRef", "N");
    vips_image_set_string(rgb, "exif-ifd3-GPSLatitude", "59/1 26/1 1234/100");
    vips_image_set_string(rgb, "exif-ifd3-GPSLongitudeRef", "E");
    vips_image_set_string(rgb, "exif-ifd3-GPSLongitude", "24/1 44/1 3456/100");
    if (vips_jpegsave_buffer(rgb, out, out_length, "Q", 85, NULL)) goto done;
    failed = 0;
done:
    if (rgb) g_object_unref(rgb);
    if (grey) g_object_unref(grey);
    if (noise) g_object_unref(noise);
    return failed;
}

int huddle_vips_emblem_jpeg(int size, int kind, const double *background, const double *figure, void **out, size_t *out_length) {
    VipsImage *black = NULL, *coloured = NULL, *canvas = NULL, *bytes = NULL;
    int failed = -1;
    double ink[3] = {figure[0], figure[1], figure[2]};
    double back[3] = {background[0], background[1], background[2]};
    double ones[3] = {1, 1, 1};
    if (vips_black(&black, size, size, "bands", 3, NULL)) goto done;
    if (vips_linear(black, &coloured, ones, (double *)background, 3, NULL)) goto done;
    if (vips_cast_uchar(coloured, &bytes, NULL)) goto done;
    /* Drawing changes an image in place: it must be in memory. */
    if (!(canvas = vips_image_copy_memory(bytes))) goto done;
    if (kind == 0) {
        if (vips_draw_circle(canvas, ink, 3, size / 2, size * 2 / 5, size / 5, "fill", TRUE, NULL)) goto done;
        if (vips_draw_circle(canvas, ink, 3, size / 2, size * 21 / 20, size * 2 / 5, "fill", TRUE, NULL)) goto done;
    } else {
        if (vips_draw_circle(canvas, ink, 3, size / 2, size / 2, size * 2 / 5, "fill", TRUE, NULL)) goto done;
        if (vips_draw_circle(canvas, back, 3, size / 2, size / 2, size * 3 / 10, "fill", TRUE, NULL)) goto done;
        if (vips_draw_circle(canvas, ink, 3, size / 2, size / 2, size / 6, "fill", TRUE, NULL)) goto done;
    }
    if (vips_jpegsave_buffer(canvas, out, out_length, "Q", 90, NULL)) goto done;
    failed = 0;
done:
    if (canvas) g_object_unref(canvas);
    if (bytes) g_object_unref(bytes);
    if (coloured) g_object_unref(coloured);
    if (black) g_object_unref(black);
    return failed;
}

void huddle_vips_free(void *pointer) { g_free(pointer); }

void huddle_vips_take_error(char *buffer, size_t size) {
    g_strlcpy(buffer, vips_error_buffer(), size);
    vips_error_clear();
}
