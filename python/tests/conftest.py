import gzip

import numpy as np
import pytest


def clustered_points(n, seed, centres=40, spread=2.0):
    """``n`` points around random centres (clusters at every zoom), as an (n, 2) array."""
    rng = np.random.default_rng(seed)
    c = np.column_stack([rng.uniform(-170, 170, centres), rng.uniform(-70, 70, centres)])
    which = rng.integers(0, centres, n)
    pts = c[which] + rng.normal(0, spread, (n, 2)) * rng.uniform(0.01, 1, (n, 1))
    pts[:, 0] = np.clip(pts[:, 0], -180, 180)
    pts[:, 1] = np.clip(pts[:, 1], -85, 85)
    return pts


@pytest.fixture
def points():
    return clustered_points(8000, 7)


def read_archive(path):
    """A PMTiles archive as PyPI pmtiles reads it: header, metadata, {(z, x, y): stored bytes}."""
    from pmtiles.reader import MmapSource, Reader, all_tiles

    with open(path, "rb") as f:
        reader = Reader(MmapSource(f))
        header, metadata = reader.header(), reader.metadata()
        tiles = {key: data for key, data in all_tiles(reader.get_bytes)}
    return header, metadata, tiles


def decode(data, extent=4096):
    """A gzipped tile's features as PyPI mapbox-vector-tile decodes them (one layer, "clusters")."""
    import mapbox_vector_tile

    layers = mapbox_vector_tile.decode(gzip.decompress(data), default_options={"y_coord_down": True})
    assert list(layers) == ["clusters"]
    assert layers["clusters"]["extent"] == extent
    return layers["clusters"]["features"]
