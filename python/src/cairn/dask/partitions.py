"""Spatial partitions of a distributed run: Web Mercator tiles, split further where the data is
dense, from a histogram of the points on a fine grid."""

import numpy as np

# The histogram's grid: 2^GRID_ZOOM cells a side; the finest a partition can be.
GRID_ZOOM = 10


def world_xy(lng_lat):
    """Web Mercator world coordinates in [0, 1]², as the engine computes them."""
    x = lng_lat[:, 0] / 360 + 0.5
    s = np.sin(lng_lat[:, 1] * np.pi / 180)
    with np.errstate(divide="ignore"):
        y = 0.5 - 0.25 * np.log((1 + s) / (1 - s)) / np.pi
    return np.clip(x, 0, 1), np.clip(y, 0, 1)


def grid_cells(x, y):
    side = 1 << GRID_ZOOM
    return np.minimum((x * side).astype(np.int64), side - 1), np.minimum((y * side).astype(np.int64), side - 1)


def histogram(lng_lat):
    """Points per grid cell, as a (side, side) array indexed [row y, column x]."""
    side = 1 << GRID_ZOOM
    cx, cy = grid_cells(*world_xy(lng_lat))
    return np.bincount(cy * side + cx, minlength=side * side).reshape(side, side)


class Box:
    """A tile of the grid, ``z/x/y``: its core holds the points whose grid cell lies in it."""

    def __init__(self, z, x, y):
        self.z, self.x, self.y = z, x, y

    @property
    def bounds(self):
        """(west, north, east, south) in world coordinates."""
        s = 1.0 / (1 << self.z)
        return self.x * s, self.y * s, (self.x + 1) * s, (self.y + 1) * s

    def cells(self):
        """The grid cells it covers: column and row ranges."""
        k = GRID_ZOOM - self.z
        return (self.x << k, (self.x + 1) << k), (self.y << k, (self.y + 1) << k)

    def holds(self, cx, cy):
        (x0, x1), (y0, y1) = self.cells()
        return (cx >= x0) & (cx < x1) & (cy >= y0) & (cy < y1)

    def __repr__(self):
        return f"{self.z}/{self.x}/{self.y}"


def split(counts, start_zoom, max_points):
    """Tiles at ``start_zoom`` that hold points, each split into its four children while it
    holds more than ``max_points`` (down to the grid's cells)."""
    out = []
    todo = [Box(start_zoom, x, y) for y in range(1 << start_zoom) for x in range(1 << start_zoom)]
    while todo:
        box = todo.pop()
        (x0, x1), (y0, y1) = box.cells()
        n = int(counts[y0:y1, x0:x1].sum())
        if n == 0:
            continue
        if n > max_points and box.z < GRID_ZOOM:
            todo += [Box(box.z + 1, 2 * box.x + i, 2 * box.y + j) for j in (0, 1) for i in (0, 1)]
        else:
            out.append((box, n))
    return out
