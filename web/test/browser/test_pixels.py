"""pixels.py, the PNG reader the screenshot checks rely on: every row filter PNG has, in each
colour type it accepts, decodes to the pixels that were encoded, and what it cannot read is
refused. No browser needed."""

import random
import struct
import unittest
import zlib

from pixels import decode_png

CHANNELS = {0: 1, 2: 3, 4: 2, 6: 4}


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else (b if pb <= pc else c)


def encode_png(rows, width, colour, filters, interlace=0, depth=8):
    """A PNG of these rows (bytes, `width` pixels each), row y filtered with filters[y % len]."""
    bpp = CHANNELS[colour]
    previous = bytes(width * bpp)
    data = bytearray()
    for y, row in enumerate(rows):
        kind = filters[y % len(filters)]
        out = bytearray()
        for i, value in enumerate(row):
            left = row[i - bpp] if i >= bpp else 0
            up = previous[i]
            upper_left = previous[i - bpp] if i >= bpp else 0
            predictor = [0, left, up, (left + up) >> 1, paeth(left, up, upper_left)][kind]
            out.append((value - predictor) & 0xFF)
        data += bytes([kind]) + out
        previous = row

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", width, len(rows), depth, colour, 0, 0, interlace)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(bytes(data))) + chunk(b"IEND", b"")


class PngTest(unittest.TestCase):

    def rows(self, width, height, bpp, seed):
        rng = random.Random(seed)
        return [bytes(rng.randrange(256) for _ in range(width * bpp)) for _ in range(height)]

    def test_every_filter_and_colour_type_round_trips(self):
        width, height = 7, 6
        for colour, bpp in CHANNELS.items():
            for filters in ([0], [1], [2], [3], [4], [0, 1, 2, 3, 4]):
                with self.subTest(colour=colour, filters=filters):
                    rows = self.rows(width, height, bpp, seed=colour * 10 + len(filters))
                    image = decode_png(encode_png(rows, width, colour, filters))
                    self.assertEqual((image.width, image.height), (width, height))
                    self.assertEqual(bytes(image.data), b"".join(rows))
                    for x, y in ((0, 0), (width - 1, height - 1), (3, 2)):
                        i = x * bpp
                        expected = tuple(rows[y][i:i + 3]) if bpp >= 3 else (rows[y][i],) * 3
                        self.assertEqual(image.pixel(x, y), expected)

    def test_pixels_of_a_box_are_clipped_to_the_image(self):
        rows = [b"".join(bytes([x * 10, y * 10, 7]) for x in range(4)) for y in range(3)]
        image = decode_png(encode_png(rows, 4, 2, [1]))
        self.assertEqual(image.pixels(2, 1, 10, 10), [(20, 10, 7), (30, 10, 7), (20, 20, 7), (30, 20, 7)])
        with self.assertRaises(IndexError):
            image.pixel(4, 0)

    def test_what_it_cannot_read_is_refused(self):
        rows = self.rows(2, 2, 3, seed=1)
        for reason, png in (
            ("not a PNG", b"GIF89a" + bytes(20)),
            ("interlaced", encode_png(rows, 2, 2, [0], interlace=1)),
            ("16 bits", encode_png(rows, 2, 2, [0], depth=16)),
            ("cut short", encode_png(rows[:1], 2, 2, [0]).replace(struct.pack(">II", 2, 1), struct.pack(">II", 2, 2), 1)),
        ):
            with self.subTest(reason), self.assertRaises(ValueError):
                decode_png(png)


if __name__ == "__main__":
    unittest.main()
