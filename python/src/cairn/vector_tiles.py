"""Mapbox Vector Tiles and PMTiles archives of an index, the same tiles and archive layout as
the command line's ``--pmtiles``: the engine lists each zoom's tiles worth asking for (in
PMTiles tile id order), finds each tile's features, encodes the tile, keeps the archive's
directory (identical tiles stored once) and lays out its directories and header. Python turns
property values into the encoder's three kinds, gzips, and writes the file."""

import json
import math
import numbers
import os
import struct
import tempfile
import zlib

import numpy as np

from ._module import as_pointer
from .errors import argument_error, error_from_status, memory_error

DEFAULT_TILE_EXTENT = 4096
DEFAULT_LAYER = "clusters"
# The margin around a tile whose clusters and points it also holds, in 256ths of its extent:
# a symbol at a tile's edge is drawn whole by the tile on either side.
DEFAULT_TILE_BUFFER_256THS = 5
MIN_TILE_EXTENT = 16
MAX_TILE_EXTENT = 65536

# The header and root directory must fit in a client's first read of 16 KiB.
HEADER_BYTES = 127
FIRST_READ = 16384
# Entries per leaf directory to start from; doubled until the root fits.
FIRST_LEAF_SIZE = 4096
# Bytes of tile data gathered before a write.
CHUNK_BYTES = 4 << 20
# Tiles asked for, encoded or added to an archive in one engine call.
TILE_BATCH = 2048


def _gzip(data, level):
    """gzip with an empty header (no name, no time), so the same tile gives the same bytes."""
    c = zlib.compressobj(level, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    return c.compress(data) + c.flush()


def stored_tiles(xy, tiles):
    """The tiles worth storing of encoded ``tiles`` at ``xy`` (an (n, 2) array): the
    non-empty ones' positions and their bytes, gzipped as archives store them."""
    kept = [k for k, tile in enumerate(tiles) if tile]
    return np.asarray(xy)[kept], [_gzip(tiles[k], 6) for k in kept]


def check_tile_options(extent, buffer, layer, call):
    """The checks the command line makes of a vector tile's extent, buffer and layer."""
    if isinstance(extent, bool) or not isinstance(extent, numbers.Integral) \
            or not MIN_TILE_EXTENT <= extent <= MAX_TILE_EXTENT or extent & (extent - 1):
        raise argument_error(call, f"extent must be a power of two from {MIN_TILE_EXTENT} to {MAX_TILE_EXTENT}, "
                                   f"not {extent!r}")
    if buffer is None:
        buffer = DEFAULT_TILE_BUFFER_256THS * extent / 256
    if isinstance(buffer, bool) or not isinstance(buffer, numbers.Real) or not 0 <= buffer <= extent:
        raise argument_error(call, f"buffer must be a number from 0 to the extent ({extent}), not {buffer!r}")
    if not isinstance(layer, str) or not layer.strip():
        raise argument_error(call, f"layer must be a name, not {layer!r}")
    return int(extent), float(buffer), layer


class EngineBuffer:
    """A buffer in the module's memory, grown (never shrunk) as the bytes asked for need."""

    def __init__(self, module):
        self._mod = module
        self.ptr = 0
        self.size = 0

    def ensure(self, size, call):
        if self.size >= size:
            return self.ptr
        self.free()
        want = max(65536, 1 << max(0, math.ceil(math.log2(max(size, 1)))))
        ptr = self._mod.fn["cairn_alloc"](min(want, 2 ** 31 - 1)) & 0xFFFFFFFF
        if not ptr:
            raise memory_error(call, f"out of WebAssembly memory for {size} bytes")
        self.ptr, self.size = ptr, want
        return ptr

    def put(self, data, call):
        """Copies bytes into the buffer; returns its address."""
        ptr = self.ensure(len(data), call)
        if data:
            self._mod.uint8s(ptr, len(data))[:] = memoryview(data)
        return ptr

    def answer(self, run, call):
        """The bytes ``run(out, capacity)`` writes, asked again with room when they do not fit."""
        self.ensure(65536, call)
        while True:
            total = run(as_pointer(self.ptr), self.size)
            if total < 0:
                raise error_from_status(total, self._mod.fn["cairn_last_error_detail"](), call)
            if total <= self.size:
                return bytes(self._mod.uint8s(self.ptr, total))
            self.ensure(total, call)

    def free(self):
        if self.ptr:
            self._mod.fn["cairn_free"](as_pointer(self.ptr))
        self.ptr = 0
        self.size = 0


class TileEncoder:
    """Encodes tiles of point features through the engine (cairn_mvt_encode), and notes each
    property's value types for the archive's ``vector_layers``."""

    def __init__(self, module, extent, layer):
        self._mod = module
        self._extent = extent
        self._layer = layer.encode("utf-8")
        self._request = EngineBuffer(module)
        self._answer = EngineBuffer(module)
        self.fields = {}

    def encode(self, features, call):
        """``features`` as ``get_tile`` gives them, coordinates in units of the extent: the
        tile's bytes (empty for no features)."""
        keys = {}
        for f in features:
            for k in (f.get("tags") or {}):
                keys.setdefault(k, len(keys))
        out = bytearray(struct.pack("<II", self._extent, len(self._layer)))
        out += self._layer
        out += struct.pack("<I", len(keys))
        for k in keys:
            name = str(k).encode("utf-8")
            out += struct.pack("<I", len(name)) + name
        out += struct.pack("<I", len(features))
        for f in features:
            fid = f.get("id")
            x, y = f["geometry"][0]
            out += struct.pack("<dii", float(fid) if isinstance(fid, numbers.Real) and not isinstance(fid, bool) else math.nan,
                               int(x), int(y))
            count_at = len(out)
            out += b"\0\0\0\0"
            count = 0
            for k, v in (f.get("tags") or {}).items():
                if v is None:
                    continue
                if isinstance(v, str):
                    text = v.encode("utf-8")
                    out += struct.pack("<IBI", keys[k], 0, len(text)) + text
                    kind = "String"
                elif isinstance(v, bool):
                    out += struct.pack("<IBB", keys[k], 2, 1 if v else 0)
                    kind = "Boolean"
                elif isinstance(v, numbers.Real):
                    out += struct.pack("<IBd", keys[k], 1, float(v))
                    kind = "Number"
                else:
                    text = json.dumps(v, default=str).encode("utf-8")
                    out += struct.pack("<IBI", keys[k], 0, len(text)) + text
                    kind = "String"
                count += 1
                self.fields.setdefault(str(k), set()).add(kind)
            struct.pack_into("<I", out, count_at, count)
        request = self._request.put(out, call)
        self._answer.ensure(2 * len(out) + 64, call)
        return self._answer.answer(
            lambda p, c: self._mod.fn["cairn_mvt_encode"](as_pointer(request), len(out), p, c), call)

    def close(self):
        self._request.free()
        self._answer.free()


class ClusterTiles:
    """Vector tiles of a clustering whose points carry no properties of their own, a batch of
    tiles per engine call: their features (cairn_index_tiles_extent), then the tiles
    (cairn_mvt_encode_clusters), where a cluster has ``cluster``, ``cluster_id`` (unless
    ``cluster_id`` is false), ``point_count`` and ``point_count_abbreviated`` as ``get_tile``
    gives them, and with ``feature_ids`` every feature its id as the feature id. Notes the
    fields for ``vector_layers``."""

    def __init__(self, module, extent, buffer, layer, cluster_id=True, feature_ids=False):
        self._mod = module
        self.extent, self.buffer = int(extent), float(buffer)
        self._layer = layer.encode("utf-8")
        self._cluster_id = cluster_id
        self._properties = (1 if cluster_id else 0) | (2 if feature_ids else 0)
        self._pairs, self._ends, self._records, self._name, self._lengths, self._tiles = \
            (EngineBuffer(module) for _ in range(6))
        self.fields = {}

    def features(self, index, z, xy, call):
        """The features of tiles ``xy`` (an (n, 2) array of x, y) of zoom z of ``index`` (a
        ClusterIndex), with its engine ids: records [id, count, tile x, tile y], tile after
        tile, and where each tile's records end."""
        pairs = np.ascontiguousarray(xy, dtype=np.uint32)
        n = len(pairs)
        if n == 0:
            return np.empty((0, 4)), np.empty(0, dtype=np.int64)
        p = self._pairs.put(pairs.tobytes(), call)
        e = self._ends.ensure(4 * n, call)
        fn = self._mod.fn["cairn_index_tiles_extent"]
        records = index._query(lambda o, c: fn(index._handle, z, as_pointer(p), n, float(self.extent), self.buffer,
                                               as_pointer(e), o, c), call)
        return records, self._mod.int32s(e, n).astype(np.int64)

    def encode(self, records, ends, call):
        """The tiles of records [id, point count, tile x, tile y] (ids as the tiles show them)
        and their ends, as ``features`` gives them: one bytes object per tile, empty for a tile
        without features."""
        n = len(ends)
        if n == 0:
            return []
        records = np.ascontiguousarray(records, dtype=np.float64)
        r = self._records.put(records.tobytes(), call)
        e = self._ends.put(np.ascontiguousarray(ends, dtype=np.uint32).tobytes(), call)
        name = self._name.put(self._layer, call)
        lengths = self._lengths.ensure(4 * n, call)
        self._tiles.ensure(48 * len(records) + 64 * n, call)
        fn = self._mod.fn["cairn_mvt_encode_clusters"]
        data = self._tiles.answer(lambda o, c: fn(self.extent, as_pointer(name), len(self._layer), self._properties,
                                                  as_pointer(r), as_pointer(e), n, as_pointer(lengths), o, c), call)
        sizes = self._mod.int32s(lengths, n).astype(np.int64)
        self._note_fields(records[:, 1])
        offsets = np.concatenate([[0], np.cumsum(sizes)]).tolist()
        return [data[offsets[k]:offsets[k + 1]] for k in range(n)]

    def _note_fields(self, counts):
        from .cluster_index import abbreviate

        clusters = counts[counts > 1]
        if len(clusters) == 0:
            return
        for name in ("cluster", "cluster_id", "point_count") if self._cluster_id else ("cluster", "point_count"):
            self.fields.setdefault(name, set()).add("Boolean" if name == "cluster" else "Number")
        # Small counts stay numbers, large ones become text: the two ends tell which kinds occur.
        abbreviated = self.fields.setdefault("point_count_abbreviated", set())
        for count in (int(clusters.min()), int(clusters.max())):
            abbreviated.add("String" if isinstance(abbreviate(count), str) else "Number")

    def close(self):
        for b in (self._pairs, self._ends, self._records, self._name, self._lengths, self._tiles):
            b.free()


def tile_metadata(layer, fields, min_zoom, max_zoom, bounds, attribution):
    """The TileJSON-style description an archive carries, as the command line writes it."""
    described = {name: next(iter(kinds)) if len(kinds) == 1 else "Mixed" for name, kinds in fields.items()}
    meta = {"name": layer, "format": "pbf", "type": "overlay", "generator": "cairn",
            "minzoom": min_zoom, "maxzoom": max_zoom, "bounds": list(bounds),
            "center": [(bounds[0] + bounds[2]) / 2, (bounds[1] + bounds[3]) / 2, min_zoom]}
    if attribution is not None:
        meta["attribution"] = attribution
    meta["vector_layers"] = [{"id": layer, "fields": described, "minzoom": min_zoom, "maxzoom": max_zoom}]
    return meta


def hilbert_order(module, z, xy, call):
    """Tiles of zoom z, an (n, 2) array of x, y, sorted into PMTiles tile id order (the engine's
    cairn_tiles_hilbert_sort)."""
    pairs = np.ascontiguousarray(xy, dtype=np.uint32).reshape(-1)
    if len(pairs) == 0:
        return np.empty((0, 2), dtype=np.int64)
    buffer = EngineBuffer(module)
    try:
        ptr = buffer.put(pairs.tobytes(), call)
        status = module.fn["cairn_tiles_hilbert_sort"](z, as_pointer(ptr), len(pairs) // 2)
        if status < 0:
            raise error_from_status(status, module.fn["cairn_last_error_detail"](), call)
        return np.frombuffer(bytes(module.uint8s(ptr, pairs.nbytes)), dtype=np.uint32).reshape(-1, 2).astype(np.int64)
    finally:
        buffer.free()


class PMTilesWriter:
    """A PMTiles v3 archive written as the tiles come, in tile id order: new tile bytes go to a
    temporary data file next to the output at once, so memory holds only the directory. At the
    end the archive is put together in a second temporary file and renamed into place; until
    then (and after a failure, once closed) nothing is at the output's path."""

    def __init__(self, module, path, call):
        self._mod = module
        self._call = call
        self.path = os.fspath(path)
        folder = os.path.dirname(os.path.abspath(self.path))
        if not os.path.isdir(folder):
            raise argument_error(call, f"{self.path}: the folder {folder} does not exist")
        self._data = tempfile.NamedTemporaryFile(dir=folder, prefix=".cairn-", suffix=".data", delete=False)
        self._temporaries = [self._data.name]
        self._chunk = bytearray()
        self._tile = EngineBuffer(module)
        self._answer = EngineBuffer(module)
        self._batch = [EngineBuffer(module) for _ in range(4)]
        self._handle = self._check(module.fn["cairn_pmtiles_create"](), "cairn_pmtiles_create")
        self.tiles = 0

    def _check(self, status, what):
        if status < 0:
            raise error_from_status(status, self._mod.fn["cairn_last_error_detail"](), f"{self._call} ({what})")
        return status

    def add(self, z, x, y, tile):
        """Adds one encoded tile; tiles must come in tile id order."""
        self.add_stored(z, x, y, _gzip(tile, 6))

    def add_stored(self, z, x, y, stored):
        """Adds one tile already gzipped as ``add`` gzips it."""
        ptr = self._tile.put(stored, self._call)
        is_new = self._check(self._mod.fn["cairn_pmtiles_add"](self._handle, z, x, y, as_pointer(ptr), len(stored)),
                             "cairn_pmtiles_add")
        self.tiles += 1
        if is_new == 1:
            self._chunk += stored
            if len(self._chunk) >= CHUNK_BYTES:
                self._flush()

    def add_stored_tiles(self, z, xy, stored):
        """Adds tiles of zoom z in one engine call: ``xy`` an (n, 2) array of x, y in tile id
        order, ``stored`` their bytes gzipped as ``add`` gzips them."""
        n = len(stored)
        if n == 0:
            return
        blob = b"".join(stored)
        pairs = self._batch[0].put(np.ascontiguousarray(xy, dtype=np.uint32).tobytes(), self._call)
        lengths = self._batch[1].put(np.fromiter(map(len, stored), dtype=np.uint32, count=n).tobytes(), self._call)
        data = self._batch[2].put(blob, self._call)
        fresh = self._batch[3].ensure(n, self._call)
        added = self._check(self._mod.fn["cairn_pmtiles_add_tiles"](self._handle, z, as_pointer(pairs), as_pointer(lengths),
                                                                   as_pointer(data), n, as_pointer(fresh)),
                            "cairn_pmtiles_add_tiles")
        self.tiles += n
        if added == n:
            self._chunk += blob
        elif added:
            marks = self._mod.uint8s(fresh, n).tolist()
            self._chunk += b"".join(t for t, new in zip(stored, marks) if new)
        if len(self._chunk) >= CHUNK_BYTES:
            self._flush()

    def _flush(self):
        self._data.write(self._chunk)
        self._chunk = bytearray()

    def _bytes(self, run, what):
        return self._answer.answer(run, f"{self._call} ({what})")

    def _directories(self):
        fn = self._mod.fn
        whole = _gzip(self._bytes(lambda p, c: fn["cairn_pmtiles_root"](self._handle, 0, 0, 0, p, c), "cairn_pmtiles_root"), 9)
        if HEADER_BYTES + len(whole) <= FIRST_READ:
            return whole, []
        entries = self._check(fn["cairn_pmtiles_entry_count"](self._handle), "cairn_pmtiles_entry_count")
        leaf_size = FIRST_LEAF_SIZE
        lengths = EngineBuffer(self._mod)
        try:
            while True:
                count = -(-entries // leaf_size)
                leaves = [_gzip(self._bytes(lambda p, c, l=l: fn["cairn_pmtiles_leaf"](self._handle, leaf_size, l, p, c),
                                            "cairn_pmtiles_leaf"), 9) for l in range(count)]
                ptr = lengths.put(struct.pack(f"<{count}d", *(len(l) for l in leaves)), self._call)
                root = _gzip(self._bytes(lambda p, c: fn["cairn_pmtiles_root"](self._handle, leaf_size, as_pointer(ptr), count, p, c),
                                         "cairn_pmtiles_root"), 9)
                if HEADER_BYTES + len(root) <= FIRST_READ:
                    return root, leaves
                leaf_size *= 2
        finally:
            lengths.free()

    def finish(self, metadata):
        """Writes the archive and puts it in place."""
        self._flush()
        self._data.close()
        meta = _gzip(json.dumps(metadata, separators=(",", ":")).encode("utf-8"), 9)
        root, leaves = self._directories()
        fields = EngineBuffer(self._mod)
        try:
            ptr = fields.put(struct.pack("<12d", len(root), len(meta), sum(len(l) for l in leaves),
                                         metadata["minzoom"], metadata["maxzoom"], *metadata["bounds"],
                                         metadata["center"][2], metadata["center"][0], metadata["center"][1]), self._call)
            header = self._bytes(lambda p, c: self._mod.fn["cairn_pmtiles_header"](self._handle, as_pointer(ptr), p, c),
                                 "cairn_pmtiles_header")
        finally:
            fields.free()
        folder = os.path.dirname(os.path.abspath(self.path))
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".cairn-", suffix=".pmtiles", delete=False) as out:
            self._temporaries.append(out.name)
            for part in (header, root, meta, *leaves):
                out.write(part)
            with open(self._data.name, "rb") as data:
                while True:
                    block = data.read(CHUNK_BYTES)
                    if not block:
                        break
                    out.write(block)
        os.replace(out.name, self.path)
        self._temporaries.remove(out.name)

    def close(self):
        """Frees the engine's side and removes what is left of the temporary files."""
        if not self._data.closed:
            self._data.close()
        for name in self._temporaries:
            try:
                os.remove(name)
            except FileNotFoundError:
                pass
        self._temporaries = []
        if self._handle > 0:
            self._mod.fn["cairn_pmtiles_destroy"](self._handle)
        self._handle = 0
        self._tile.free()
        self._answer.free()
        for b in self._batch:
            b.free()
