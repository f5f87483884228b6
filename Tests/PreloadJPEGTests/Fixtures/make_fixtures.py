#!/usr/bin/env python3
"""Writes the JPEG plugin's test fixtures into this folder: JPEGs made by two encoders (Pillow,
and libjpeg-turbo's cjpeg from `apt-get install libjpeg-turbo-progs`; a YCCK file by a few lines
of C against libjpeg, compiled here with `cc ... -ljpeg`), and next to each NAME.jpg the pixels
Pillow decodes from it, as raw RGBA8 rows (NAME.rgba; alpha 255). For the EXIF orientation set,
NAME.upright.rgba holds Pillow's `ImageOps.exif_transpose` of the decode.

Run from anywhere: python3 Tests/PreloadJPEGTests/Fixtures/make_fixtures.py
The damaged twins (cut files, corrupted bytes) are made by the tests from these files."""
import io
import math
import os
import random
import subprocess
import tempfile

from PIL import Image, ImageOps

HERE = os.path.dirname(os.path.abspath(__file__))
WIDTH, HEIGHT = 61, 37  # odd sides: partial blocks and MCUs on both edges


def photo(width=WIDTH, height=HEIGHT, seed=1):
    """Photo-like RGB content: smooth gradients, a few waves, some noise."""
    rng = random.Random(seed)
    image = Image.new("RGB", (width, height))
    pixels = []
    for y in range(height):
        for x in range(width):
            r = 128 + 100 * math.sin(x / 7.0) * math.cos(y / 11.0) + rng.randint(-12, 12)
            g = 255 * x / max(width - 1, 1) * 0.7 + 40 * math.sin((x + y) / 5.0) + rng.randint(-12, 12)
            b = 255 * y / max(height - 1, 1) * 0.8 + 30 * math.cos(x / 3.0) + rng.randint(-12, 12)
            pixels.append(tuple(max(0, min(255, int(v))) for v in (r, g, b)))
    image.putdata(pixels)
    return image


def path(name):
    return os.path.join(HERE, name)


def write_expected(name, decoded):
    with open(path(name), "wb") as out:
        out.write(decoded.convert("RGB").convert("RGBA").tobytes())


def expect_pillow_decode(jpeg):
    """NAME.rgba: what Pillow decodes from NAME.jpg (CMYK through Pillow's own conversion)."""
    with Image.open(path(jpeg)) as image:
        image.load()
        write_expected(jpeg[:-4] + ".rgba", image)


def pillow(name, image, **options):
    image.save(path(name), "JPEG", **options)
    expect_pillow_decode(name)


def cjpeg(name, image, *arguments):
    with tempfile.TemporaryDirectory() as scratch:
        source = os.path.join(scratch, "in.ppm" if image.mode == "RGB" else "in.pgm")
        image.save(source)
        with open(path(name), "wb") as out:
            subprocess.run(["cjpeg", *arguments, source], stdout=out, check=True)
    expect_pillow_decode(name)


def run_c(source_text, arguments, input_bytes, name):
    """Compiles `source_text` against libjpeg and runs it, writing its output to fixture `name`."""
    with tempfile.TemporaryDirectory() as scratch:
        source, program = os.path.join(scratch, "writer.c"), os.path.join(scratch, "writer")
        with open(source, "w") as out:
            out.write(source_text)
        subprocess.run(["cc", "-O1", "-o", program, source, "-ljpeg"], check=True)
        with open(path(name), "wb") as out:
            subprocess.run([program, *map(str, arguments)], input=input_bytes, stdout=out, check=True)


MANY_SCANS_WRITER = r"""
#include <stdio.h>
#include <stdlib.h>
#include <jpeglib.h>
/* usage: many-scans WIDTH HEIGHT < grey rows > out.jpg
   A valid progressive script for one component: the DC coefficient in 3 scans, then each AC
   coefficient in a scan of its own refined bit by bit: 3 + 63 * 8 = 507 scans (cjpeg's
   -scans takes at most 100). */
int main(int argc, char **argv) {
    int width = atoi(argv[1]), height = atoi(argv[2]);
    unsigned char *pixels = malloc((size_t)width * height);
    if (fread(pixels, 1, (size_t)width * height, stdin) != (size_t)width * height) return 1;
    static jpeg_scan_info scans[507];
    int count = 0;
    for (int al = 2; al >= 0; al--) {
        jpeg_scan_info *s = &scans[count++];
        s->comps_in_scan = 1; s->component_index[0] = 0; s->Ss = 0; s->Se = 0;
        s->Ah = al == 2 ? 0 : al + 1; s->Al = al;
    }
    for (int k = 1; k < 64; k++)
        for (int al = 7; al >= 0; al--) {
            jpeg_scan_info *s = &scans[count++];
            s->comps_in_scan = 1; s->component_index[0] = 0; s->Ss = k; s->Se = k;
            s->Ah = al == 7 ? 0 : al + 1; s->Al = al;
        }
    struct jpeg_compress_struct cinfo; struct jpeg_error_mgr error;
    cinfo.err = jpeg_std_error(&error);
    jpeg_create_compress(&cinfo);
    jpeg_stdio_dest(&cinfo, stdout);
    cinfo.image_width = width; cinfo.image_height = height;
    cinfo.input_components = 1; cinfo.in_color_space = JCS_GRAYSCALE;
    jpeg_set_defaults(&cinfo);
    cinfo.scan_info = scans; cinfo.num_scans = count;
    jpeg_start_compress(&cinfo, TRUE);
    while (cinfo.next_scanline < cinfo.image_height) {
        JSAMPROW row = pixels + (size_t)cinfo.next_scanline * width;
        jpeg_write_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    return 0;
}
"""


YCCK_WRITER = r"""
#include <stdio.h>
#include <stdlib.h>
#include <jpeglib.h>
/* usage: ycck WIDTH HEIGHT < inverted-CMYK rows > out.jpg */
int main(int argc, char **argv) {
    int width = atoi(argv[1]), height = atoi(argv[2]);
    unsigned char *pixels = malloc((size_t)width * height * 4);
    if (fread(pixels, 4, (size_t)width * height, stdin) != (size_t)width * height) return 1;
    struct jpeg_compress_struct cinfo; struct jpeg_error_mgr error;
    cinfo.err = jpeg_std_error(&error);
    jpeg_create_compress(&cinfo);
    jpeg_stdio_dest(&cinfo, stdout);
    cinfo.image_width = width; cinfo.image_height = height;
    cinfo.input_components = 4; cinfo.in_color_space = JCS_CMYK;
    jpeg_set_defaults(&cinfo);
    jpeg_set_colorspace(&cinfo, JCS_YCCK);  /* writes an Adobe segment, transform 2 */
    jpeg_set_quality(&cinfo, 90, TRUE);
    jpeg_start_compress(&cinfo, TRUE);
    while (cinfo.next_scanline < cinfo.image_height) {
        JSAMPROW row = pixels + (size_t)cinfo.next_scanline * width * 4;
        jpeg_write_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    return 0;
}
"""


def ycck(name, image):
    """A YCCK JPEG (Photoshop's usual CMYK JPEG), written by libjpeg from Pillow's CMYK
    samples in Adobe's inverted polarity, as Pillow itself writes CMYK."""
    inverted = bytes(255 - value for value in image.convert("CMYK").tobytes())
    run_c(YCCK_WRITER, [image.width, image.height], inverted, name)
    expect_pillow_decode(name)


def orientation_set():
    """exif-1.jpg ... exif-8.jpg: one small image (wider than tall) with each orientation."""
    image = photo(13, 7, seed=5)
    for orientation in range(1, 9):
        name = f"exif-{orientation}.jpg"
        exif = Image.Exif()
        exif[0x0112] = orientation
        pillow(name, image, quality=92, subsampling=0, exif=exif)
        with Image.open(path(name)) as decoded:
            decoded.load()
            write_expected(f"exif-{orientation}.upright.rgba", ImageOps.exif_transpose(decoded))


def main():
    colour = photo()
    grey = colour.convert("L")
    pillow("pillow-444.jpg", colour, quality=90, subsampling=0)
    pillow("pillow-422.jpg", colour, quality=90, subsampling=1)
    pillow("pillow-420.jpg", colour, quality=85, subsampling=2)
    pillow("pillow-progressive-420.jpg", colour, quality=85, subsampling=2, progressive=True)
    pillow("pillow-grey.jpg", grey, quality=90)
    pillow("pillow-cmyk.jpg", colour.convert("CMYK"), quality=90)
    cjpeg("cjpeg-440.jpg", colour, "-quality", "90", "-sample", "1x2")
    cjpeg("cjpeg-411.jpg", colour, "-quality", "90", "-sample", "4x1")
    cjpeg("cjpeg-progressive-444.jpg", colour, "-quality", "90", "-sample", "1x1", "-progressive")
    cjpeg("cjpeg-grey-progressive.jpg", grey, "-quality", "90", "-progressive")
    cjpeg("cjpeg-rgb.jpg", colour, "-quality", "90", "-rgb")
    cjpeg("cjpeg-arithmetic.jpg", colour, "-quality", "90", "-arithmetic")
    # A restart marker every MCU row: 3 rows of 16 pixels at 4:2:0.
    cjpeg("cjpeg-restart.jpg", colour, "-quality", "90", "-restart", "1")
    ycck("ycck.jpg", colour)
    orientation_set()
    run_c(MANY_SCANS_WRITER, [8, 8], photo(8, 8, seed=3).convert("L").tobytes(), "many-scans.jpg")
    # 4096x4096 flat grey, progressive and arithmetic coded: about 200 bytes that take tens of
    # milliseconds to decode (64 MiB of RGBA), for the cancellation tests. No .rgba: it is grey.
    cjpeg("large-flat.jpg", Image.new("L", (4096, 4096), 128), "-quality", "50", "-progressive", "-arithmetic")
    # 4096x256 flat grey, sequential: 64 chunks of 4 rows, for cancelling between rows.
    cjpeg("wide-flat.jpg", Image.new("L", (4096, 256), 128), "-quality", "50", "-arithmetic")
    for name in ("large-flat.rgba", "wide-flat.rgba"):
        os.remove(path(name))


if __name__ == "__main__":
    main()
