"""Vector tiles of a distributed run: written where the clustering is, merged into one PMTiles
archive with the tiles one ``ClusterIndex.write_pmtiles`` of the same points holds.

Who writes a tile of zoom ``z``:
- below the hand-over zoom, the hand-over worker, from its index of every item there;
- at or above it, the partition whose core box holds the tile, from its own index: it shows
  every item within the tile's buffer, its own and its halo's, and the partition's run made
  sure those within a buffer of its core are certain (``cluster_partition``'s ``tile_margin``);
- every other tile ("shared": one that holds several partitions, or none, or lies on the
  world's east or west edge, whose buffer reaches round the antimeridian) from the items the
  partitions own near it, which each partition sends: an item is owned by the partition that
  holds its lowest point, so together they are every item there, each once.

Ids are the whole clustering's. A point's is its input index. A cluster's is supercluster's:
the point count, plus the position its seed stood at in the data of the zoom above the one it
was formed at, shifted by five bits, plus that zoom. That data is the items visible there in
rank order (their lowest points), so the position is how many items visible there rank lower:
a bit per rank, set by every partition for the items its points are in, and counted.
"""

import mmap
import os

import numpy as np

from ..cluster_index import ClusterIndex
from ..errors import STATUS_BY_CODE, CairnError
from ..hierarchy import Hierarchy, lowest_member
from ..vector_tiles import TILE_BATCH, ClusterTiles, stored_tiles

CALL = "cluster_points"


class TileSpec:
    """What the tiles of a run are: as ``ClusterIndex.write_pmtiles`` takes them, with the
    partitions' boxes (which tiles are whose) and the folder their tiles are written to."""

    def __init__(self, extent, buffer, layer, feature_ids, cluster_id, boxes, folder, total):
        self.extent, self.buffer, self.layer = extent, buffer, layer
        self.feature_ids, self.cluster_id = feature_ids, cluster_id
        self.folder = folder
        self.total = total
        # Box keys (x << 32 | y) by box zoom.
        self.boxes = {}
        for b in boxes:
            self.boxes.setdefault(b.z, []).append(b.x << 32 | b.y)
        self.boxes = {k: np.array(v, dtype=np.int64) for k, v in self.boxes.items()}

    def tiles(self, module):
        """The batch encoder of these tiles (points carry no properties of their own)."""
        return ClusterTiles(module, self.extent, self.buffer, self.layer, self.cluster_id, self.feature_ids)

    def shared(self, z, x, y):
        """Whether tiles (arrays x, y) of zoom z are shared: no box holds them, or they lie on
        the world's east or west edge."""
        local = np.zeros(len(x), dtype=bool)
        for k, keys in self.boxes.items():
            if k <= z:
                local |= np.isin((x >> (z - k)) << 32 | (y >> (z - k)), keys)
        return ~local | (x == 0) | (x == (1 << z) - 1)


# ── Ids ────────────────────────────────────────────────────────────────────────────────────

def rank_bits(result, total, zooms):
    """For each zoom, a bit per rank: set for the items a partition's points are in there."""
    out = {}
    for z in zooms:
        mask = np.zeros(total, dtype=bool)
        mask[result["labels"][z]] = True
        out[z] = np.packbits(mask, bitorder="little")
    return out


def merge_bits(a, b):
    return {z: a[z] | b[z] for z in a}


class Positions:
    """Where an item of rank ``r`` stands in the data of a zoom: how many items visible there
    rank lower (the bits of every partition merged)."""

    def __init__(self, bits, max_zoom):
        self.max_zoom = max_zoom
        self._words, self._before = {}, {}
        for z, b in bits.items():
            words = np.concatenate([b, np.zeros(-len(b) % 8, dtype=np.uint8)]).view("<u8")
            self._words[z] = words
            self._before[z] = np.concatenate([[0], np.cumsum(np.bitwise_count(words), dtype=np.int64)[:-1]])

    def of(self, z, ranks):
        if z == self.max_zoom + 1:          # every point is visible there, in input order
            return ranks
        w = ranks >> 6
        below = self._words[z][w] & ((np.uint64(1) << (ranks & 63).astype(np.uint64)) - np.uint64(1))
        return self._before[z][w] + np.bitwise_count(below)


def cluster_ids(formed, seeds, total, positions):
    """Whole-clustering ids of clusters formed at zooms ``formed`` whose seeds rank ``seeds``."""
    ids = np.empty(len(formed), dtype=np.int64)
    for z in np.unique(formed):
        at = formed == z
        ids[at] = total + (positions.of(int(z) + 1, seeds[at]) << 5) + int(z) + 1
    return ids


# ── Tiles ──────────────────────────────────────────────────────────────────────────────────

class RunFile:
    """The gzipped tiles one task writes, one after another in one file, and where each is."""

    def __init__(self, folder, name):
        self.path = os.path.join(folder, name)
        self._file = open(self.path, "wb")
        self._entries = []
        self._offset = 0

    def add_tiles(self, z, xy, tiles):
        """Tiles of zoom z at ``xy`` (an (n, 2) array); empty ones are left out."""
        xy, stored = stored_tiles(xy, tiles)
        if not stored:
            return
        lengths = np.fromiter(map(len, stored), dtype=np.int64, count=len(stored))
        offsets = self._offset + np.concatenate([[0], np.cumsum(lengths)[:-1]])
        self._file.write(b"".join(stored))
        self._offset += int(lengths.sum())
        self._entries.append(np.column_stack([np.full(len(stored), z), xy.astype(np.int64), offsets, lengths]))

    def finish(self):
        self._file.close()
        entries = np.concatenate(self._entries) if self._entries else np.empty((0, 5), dtype=np.int64)
        return {"path": self.path, "entries": entries.astype(np.int64)}


def write_tiles(run, tiles, index, z, xy, ids_of):
    """Writes tiles ``xy`` of zoom z of ``index`` to ``run``, a batch per engine call, with
    the whole clustering's ids: ``ids_of(records)`` for the records the index's features are."""
    for start in range(0, len(xy), TILE_BATCH):
        batch = xy[start:start + TILE_BATCH]
        records, ends = tiles.features(index, z, batch, CALL)
        if len(records):
            records[:, 0] = ids_of(records)
        run.add_tiles(z, batch, tiles.encode(records, ends, CALL))


def shared_tiles_near(z, x, y, spec):
    """For items at world positions x, y: the shared tiles of zoom z whose buffer may hold
    them (an item up to four times, the buffer taken a little wide): item numbers, tile x,
    tile y."""
    side = 1 << z
    m = spec.buffer / spec.extent * 1.001 + 1e-9
    items, tx, ty = [], [], []
    for dx in (-m, m):
        for dy in (-m, m):
            cx = np.floor(x * side + dx).astype(np.int64) % side   # round the antimeridian
            cy = np.clip(np.floor(y * side + dy).astype(np.int64), 0, side - 1)
            near = np.flatnonzero(spec.shared(z, cx, cy))
            items.append(near)
            tx.append(cx[near])
            ty.append(cy[near])
    key = np.unique(np.column_stack([np.concatenate(items), np.concatenate(tx), np.concatenate(ty)]), axis=0)
    return key[:, 0], key[:, 1], key[:, 2]


def write_partition_tiles(box, options, handover_zoom, spec, bits, *selections):
    """Writes the tiles inside a partition's core box (see the module's comment) and returns
    them with what others need: the items it owns near shared tiles (``shared``: zoom, tile x,
    tile y, id, count, world x, world y; a count above 1 is a cluster), the ids of its items at the hand-over zoom
    by rank (``handover_ids``), its points' bounds and the encoder's fields."""
    from .halo import partition_index, partition_points

    gidx, lng_lat, core = partition_points(box, selections)
    positions = Positions(bits, options["max_zoom"])
    with partition_index(options, handover_zoom, lng_lat) as index:
        h = Hierarchy(index)
        # Each item's lowest point, and so its rank and owner, from the levels it is seen at.
        lowest = np.zeros(len(h.ids), dtype=np.int64)
        for _, item in h.levels():
            lowest[item] = lowest_member(item)
        clusters = np.arange(len(h.ids)) >= h.n
        ids = gidx[lowest]
        ids[clusters] = cluster_ids(h.formed[clusters], gidx[lowest[clusters]], spec.total, positions)
        in_core = np.zeros(h.n, dtype=bool)
        in_core[core] = True
        tiles = spec.tiles(index._mod)
        run = RunFile(spec.folder, f"tiles-{box.z}-{box.x}-{box.y}.bin")
        shared = []
        try:
            for z in range(handover_zoom, options["max_zoom"] + 1):
                if z >= box.z:
                    cover = index.get_tile_cover(z, spec.extent, spec.buffer)
                    tx, ty = cover[:, 0], cover[:, 1]
                    mine = ((tx >> (z - box.z)) == box.x) & ((ty >> (z - box.z)) == box.y) & ~spec.shared(z, tx, ty)
                    write_tiles(run, tiles, index, z, cover[mine], lambda r: ids[h.item_of(r[:, 0].astype(np.int64))])
                items, counts, wx, wy = h.world_items(z)
                owned = in_core[lowest[items]]
                items, counts, wx, wy = items[owned], counts[owned], wx[owned], wy[owned]
                k, tx, ty = shared_tiles_near(z, wx, wy, spec)
                shared.append(np.column_stack([np.full(len(k), z), tx, ty, ids[items[k]], counts[k], wx[k], wy[k]]))
            written = run.finish()
        finally:
            tiles.close()
        at_handover = h.world_items(handover_zoom)[0]
        at_handover = at_handover[in_core[lowest[at_handover]]]
        bounds = index._query(lambda p, c: index._mod.fn["cairn_index_placed_bounds"](index._handle, p, c), CALL)[0]
        return {"tiles": written, "shared": np.concatenate(shared).reshape(-1, 7),
                "handover_ids": np.column_stack([gidx[lowest[at_handover]], ids[at_handover]]),
                "bounds": bounds, "fields": tiles.fields}


def write_shared_tiles(options, spec, *partitions):
    """Writes the shared tiles from the items the partitions sent for them: per zoom, the items
    stand as weighted items of an index one zoom lower, whose tiles of that zoom show them as
    they are."""
    sent = np.concatenate([p["shared"] for p in partitions]).reshape(-1, 7)
    run = RunFile(spec.folder, "tiles-shared.bin")
    fields = {}
    for z in np.unique(sent[:, 0]).astype(int).tolist():
        rows = sent[sent[:, 0] == z]
        _, first = np.unique(rows[:, 3], return_index=True)
        items = rows[np.sort(first)]
        with ClusterIndex(radius=options["radius"], extent=options["extent"], min_zoom=z - 1, max_zoom=z - 1) as index:
            index._load_weighted(items[:, [5, 6, 4]])
            tiles = spec.tiles(index._mod)
            try:
                cells = np.unique(rows[:, 1:3].astype(np.int64), axis=0)
                write_tiles(run, tiles, index, z, cells, lambda r: items[r[:, 0].astype(np.int64), 3])
            finally:
                tiles.close()
            fields = merge_fields([fields, tiles.fields])
    return {"tiles": run.finish(), "fields": fields}


def write_handover_tiles(index, h, spec, min_zoom, handover_zoom, item_ids):
    """Writes the tiles below the hand-over zoom from the hand-over's index of weighted items
    (``item_ids``: the whole clustering's id of each, in the index's order). Its clusters'
    ids are already the whole clustering's but for the point count (it counts items)."""
    m = h.n

    def ids_of(records):
        local = records[:, 0].astype(np.int64)
        return np.where(local < m, item_ids[np.minimum(local, m - 1)], local - m + spec.total)

    tiles = spec.tiles(index._mod)
    run = RunFile(spec.folder, "tiles-handover.bin")
    try:
        for z in range(min_zoom, handover_zoom):
            write_tiles(run, tiles, index, z, index.get_tile_cover(z, spec.extent, spec.buffer), ids_of)
        return {"tiles": run.finish(), "fields": tiles.fields}
    finally:
        tiles.close()


def summary(part):
    """What the client needs of a partition's tile task: its tiles, bounds and fields."""
    return {k: part[k] for k in ("tiles", "bounds", "fields")}


def merge_fields(fields):
    """The fields of several encoders, their value kinds together."""
    out = {}
    for f in fields:
        for name, kinds in f.items():
            out.setdefault(name, set()).update(kinds)
    return out


def merge_archive(path, spec, runs, fields, bounds, min_zoom, max_zoom, attribution, on_progress=None):
    """Writes the archive from the tasks' tile files, zoom by zoom in tile id order; returns
    the tiles written."""
    from .._module import get_module
    from ..vector_tiles import PMTilesWriter, hilbert_order, tile_metadata

    module = get_module()
    entries = np.concatenate([np.column_stack([np.full(len(r["entries"]), k), r["entries"]])
                              for k, r in enumerate(runs)]).reshape(-1, 6)
    files = [open(r["path"], "rb") for r in runs]
    maps = [mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) if os.fstat(f.fileno()).st_size else b"" for f in files]
    archive = PMTilesWriter(module, path, CALL)
    try:
        for z in range(min_zoom, max_zoom + 1):
            at = entries[entries[:, 1] == z]
            keys = at[:, 2] << 32 | at[:, 3]
            order = np.argsort(keys, kind="stable")
            keys = keys[order]
            if len(keys) > 1 and (keys[1:] == keys[:-1]).any():
                raise CairnError(f"{CALL}: a tile of zoom {z} was written twice", "INVALID_STATE",
                                 STATUS_BY_CODE["INVALID_STATE"])
            xy = hilbert_order(module, z, at[:, 2:4], CALL)
            rows = at[order[np.searchsorted(keys, xy[:, 0] << 32 | xy[:, 1])]]
            for start in range(0, len(rows), TILE_BATCH):
                batch = rows[start:start + TILE_BATCH]
                archive.add_stored_tiles(z, batch[:, 2:4], [maps[k][offset:offset + length]
                                                            for k, offset, length in batch[:, [0, 4, 5]].tolist()])
            for m in maps:
                if m:
                    m.madvise(mmap.MADV_DONTNEED)   # the zoom's pages are read: out of the resident set
            if on_progress is not None:
                on_progress("archive", z - min_zoom + 1, max_zoom - min_zoom + 1)
        archive.finish(tile_metadata(spec.layer, fields, min_zoom, max_zoom, bounds, attribution))
        return archive.tiles
    finally:
        archive.close()
        for m in maps:
            if m:
                m.close()
        for f in files:
            f.close()
