"""A small PNG reader for screenshots, with the standard library only (zlib and struct), so the
browser tests can check colours at points without an imaging package.

It reads what Chromium writes for a screenshot: 8 bits per channel, greyscale, RGB, or either
with alpha, not interlaced. Anything else is refused with a ValueError rather than misread.
"""

import struct
import zlib

SIGNATURE = b"\x89PNG\r\n\x1a\n"
# Channels per pixel by PNG colour type: grey, RGB, grey + alpha, RGBA (no palettes).
CHANNELS = {0: 1, 2: 3, 4: 2, 6: 4}


class Image:
    """Decoded pixels: `pixel(x, y)` is an (r, g, b) tuple, alpha dropped."""

    def __init__(self, width, height, channels, data):
        self.width = width
        self.height = height
        self.channels = channels
        self.data = data  # rows top to bottom, `channels` bytes per pixel, no filter bytes

    def pixel(self, x, y):
        x, y = int(round(x)), int(round(y))
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise IndexError(f"pixel ({x}, {y}) is outside the {self.width} x {self.height} image")
        i = (y * self.width + x) * self.channels
        if self.channels < 3:
            return (self.data[i],) * 3
        return tuple(self.data[i:i + 3])

    def pixels(self, left, top, right, bottom):
        """Every pixel of the box left <= x < right, top <= y < bottom, clipped to the image."""
        left, top = max(0, int(left)), max(0, int(top))
        right, bottom = min(self.width, int(right)), min(self.height, int(bottom))
        return [self.pixel(x, y) for y in range(top, bottom) for x in range(left, right)]


def decode_png(png):
    """The image in PNG bytes (as `page.screenshot()` returns them)."""
    if png[:8] != SIGNATURE:
        raise ValueError("not a PNG file")
    offset = 8
    header = None
    compressed = []
    while offset < len(png):
        length, kind = struct.unpack(">I4s", png[offset:offset + 8])
        body = png[offset + 8:offset + 8 + length]
        offset += 12 + length  # length, type, body, CRC
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            compressed.append(body)
        elif kind == b"IEND":
            break
    if header is None:
        raise ValueError("PNG without an IHDR chunk")
    width, height, depth, colour, _compression, _filter, interlace = header
    if depth != 8 or colour not in CHANNELS or interlace != 0:
        raise ValueError(f"unsupported PNG: depth {depth}, colour type {colour}, interlace {interlace}")
    channels = CHANNELS[colour]
    raw = zlib.decompress(b"".join(compressed))
    return Image(width, height, channels, unfilter(raw, width, height, channels))


def unfilter(raw, width, height, bpp):
    """Undoes PNG's per-row filters (None, Sub, Up, Average, Paeth)."""
    stride = width * bpp
    if len(raw) < height * (stride + 1):
        raise ValueError("PNG data is shorter than its header says")
    out = bytearray(height * stride)
    previous = bytes(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind = raw[start]
        line = bytearray(raw[start + 1:start + 1 + stride])
        if kind == 1:  # Sub: add the byte one pixel to the left
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 0xFF
        elif kind == 2:  # Up: add the byte above
            line = bytearray((a + b) & 0xFF for a, b in zip(line, previous))
        elif kind == 3:  # Average of left and above
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + previous[i]) >> 1)) & 0xFF
        elif kind == 4:  # Paeth: whichever of left, above, upper-left is nearest their sum
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = previous[i]
                c = previous[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                predictor = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + predictor) & 0xFF
        elif kind != 0:
            raise ValueError(f"PNG row {y} has unknown filter type {kind}")
        out[y * stride:(y + 1) * stride] = line
        previous = line
    return out
