"""supercluster's API over the engine's hierarchical cluster index.

The engine owns every clustering decision; this class moves data across the boundary:
coordinates in (in chunks through one wasm buffer), flat result records out (through one
reusable buffer), and GeoJSON-like dicts built from those records, with the clusters'
properties from supercluster's ``map`` and ``reduce`` when given (``_reduce.py``).
"""

import math
import numbers

import numpy as np

from ._module import as_pointer, clamp_int32, get_module
from ._reduce import ClusterReduce
from ._results import ResultRecords
from .errors import (STATUS_BY_CODE, CairnError, argument_error, error_from_status, memory_error,
                     option_error)
from .vector_tiles import (DEFAULT_LAYER, DEFAULT_TILE_EXTENT, TILE_BATCH, ClusterTiles, PMTilesWriter, TileEncoder,
                           check_tile_options, stored_tiles, tile_metadata)

# Points per cairn_index_add call: big enough that crossings cost nothing, small enough that
# the staging buffer (16 bytes per point) stays at 1 MiB.
CHUNK_POINTS = 65536
# The most points one index holds (the 32-bit module's limit).
MAX_POINTS = 1 << 24

# Aggregate operations by name, with the engine's numbers for them.
AGGREGATE_OPERATIONS = {"sum": 0, "min": 1, "max": 2, "count": 3, "mean": 4}

# supercluster's defaults, so that switching libraries changes no output.
DEFAULTS = {"min_zoom": 0, "max_zoom": 16, "min_points": 2, "radius": 40.0, "extent": 512.0,
            "generate_id": False}
# supercluster's option names, taken as well as the Python ones.
CAMEL = {"minZoom": "min_zoom", "maxZoom": "max_zoom", "minPoints": "min_points", "generateId": "generate_id"}


def abbreviate(count):
    """supercluster's abbreviation: 12345 -> '12k', 1234 -> '1.2k', 123 -> 123."""
    # Halves round up, as JavaScript's Math.round (Python's round takes them to even).
    if count >= 10000:
        return f"{math.floor(count / 1000 + 0.5)}k"
    if count >= 1000:
        return f"{math.floor(count / 100 + 0.5) / 10:g}k"
    return count


def _number(value):
    """A number from what a caller passed; anything that is not one becomes NaN, which the
    engine refuses with an error naming it."""
    if isinstance(value, bool) or value is None:
        return math.nan
    try:
        return float(value)
    except (TypeError, ValueError):
        return math.nan


def _value(properties, name):
    """The value an aggregate reads of a point's properties: a number, else none (NaN)."""
    v = properties.get(name) if isinstance(properties, dict) else None
    return float(v) if isinstance(v, numbers.Real) and not isinstance(v, bool) else math.nan


def _scan_features(features, reject):
    """The coordinates of the Point features that have a geometry, and their indices; anything
    else is passed to ``reject(index, problem)``, which raises."""
    coords = []
    kept_index = []
    for i, f in enumerate(features):
        if not isinstance(f, dict):
            reject(i, "is not a GeoJSON feature")
        g = f.get("geometry")
        if g is None:
            continue
        if not isinstance(g, dict) or g.get("type") != "Point":
            kind = g.get("type") if isinstance(g, dict) else None
            reject(i, f"has a {kind} geometry, not a Point" if isinstance(kind, str)
                   else "has a geometry without a type, not a Point")
        c = g.get("coordinates")
        if not isinstance(c, (list, tuple)) or len(c) < 2:
            reject(i, "has no [lng, lat] coordinates")
        coords.append((_number(c[0]), _number(c[1])))
        kept_index.append(i)
    return coords, kept_index


def _pairs(value, call, what):
    """An (n, 2) float64 array of lng, lat pairs from an (n, 2) or flat array-like."""
    try:
        array = np.ascontiguousarray(value, dtype=np.float64)
    except (TypeError, ValueError) as error:
        raise argument_error(call, f"{what} must be an array of lng, lat pairs ({error})") from None
    if not ((array.ndim == 2 and array.shape[1] == 2) or (array.ndim == 1 and array.size % 2 == 0)):
        raise argument_error(call, f"{what} must be an (n, 2) array of lng, lat pairs, got shape {array.shape}")
    return array.reshape(-1, 2)


class ClusterIndex:
    """A hierarchical cluster index with supercluster's API: ``load`` points once, then query
    the clusters of any box at any zoom. Results are supercluster's: the same clusters at every
    zoom, points returned as the caller's own features, ids counting input positions.

    Options (supercluster's names are taken too: ``minZoom``, ``maxZoom``, ``minPoints``,
    ``generateId``): ``radius`` 40, ``extent`` 512, ``min_zoom`` 0, ``max_zoom`` 16,
    ``min_points`` 2, ``generate_id`` False, ``aggregates`` ``{name: (operation, property)}``,
    ``map`` and ``reduce`` (supercluster's property folding). ``log`` and ``node_size`` are
    accepted and ignored.
    """

    def __init__(self, options=None, **kwargs):
        given = dict(options or {})
        given.update(kwargs)
        self._mod = get_module()
        self.options = self._resolve(given)
        self._aggregates = self._resolve_aggregates(given.get("aggregates"))
        self._columns = []
        self._handle = 0
        self._closed = False
        self.points = None
        self._feature_of = None   # engine point -> input index, when load() skipped features
        self._id_shift = 0        # added to the engine's cluster ids: ids lie above every input index
        self._results = ResultRecords(self._mod, self._error)
        reduce = given.get("reduce")
        self._reducer = ClusterReduce(given.get("map"), reduce) if reduce else None
        self._handle = self._create()

    # ── options ──────────────────────────────────────────────────────────────────────────

    @staticmethod
    def _resolve(given):
        options = dict(DEFAULTS)
        for key, value in given.items():
            key = CAMEL.get(key, key)
            if key in options and value is not None:
                options[key] = value
        for key in ("radius", "extent"):
            if isinstance(options[key], bool) or not isinstance(options[key], numbers.Real):
                raise option_error(key, f"option {key} must be a number, got {options[key]!r}")
            options[key] = float(options[key])
        for key in ("min_zoom", "max_zoom", "min_points"):
            v = options[key]
            if isinstance(v, bool) or not isinstance(v, numbers.Real) or not float(v).is_integer():
                raise option_error(key, f"option {key} must be an integer, got {v!r}")
            options[key] = int(v)
        for key in ("map", "reduce"):
            if given.get(key) and not callable(given[key]):
                raise option_error(key, f"option {key} must be a function, got {given[key]!r}")
        options["generate_id"] = bool(options["generate_id"])
        return options

    @staticmethod
    def _resolve_aggregates(given):
        if not given:
            return []
        if not isinstance(given, dict):
            raise option_error("aggregates", "option aggregates must be a dict {name: (operation, property)}")
        out = []
        for name, spec in given.items():
            operation, prop = spec if isinstance(spec, (list, tuple)) and len(spec) == 2 else (None, None)
            if operation not in AGGREGATE_OPERATIONS or not isinstance(prop, str):
                raise option_error("aggregates", f"aggregate {name} must be (operation, property) with operation one of "
                                                 f"{', '.join(AGGREGATE_OPERATIONS)}")
            out.append((name, AGGREGATE_OPERATIONS[operation], prop))
        return out

    # ── loading ──────────────────────────────────────────────────────────────────────────

    def load(self, features):
        """Loads GeoJSON-like Point features (dicts), replacing what was loaded, and clusters
        every zoom; returns the index. The list is kept, not copied (``index.points``): queries
        return its own dicts for points. Features whose geometry is None or missing are skipped,
        but indices keep counting input positions."""
        self._check_usable("load")
        if not isinstance(features, (list, tuple)):
            raise argument_error("load", "features must be a list of GeoJSON Point features")
        n = len(features)
        coords, kept_index = _scan_features(features, lambda i, problem: self._reject(i, problem))
        lng_lat = np.array(coords, dtype=np.float64).reshape(-1, 2)
        feature_of = None if len(kept_index) == n else np.array(kept_index, dtype=np.int64)
        self._ingest(lng_lat, feature_of, None, "load")
        self.points = features
        self._feature_of = feature_of
        self._id_shift = n - len(kept_index)
        kept = [features[i] for i in kept_index] if feature_of is not None else features
        self._add_aggregates(lambda prop: np.array([_value(f.get("properties"), prop) for f in kept],
                                                   dtype=np.float64), "load")
        return self

    def load_coordinates(self, lng_lat, values=None, on_progress=None):
        """Loads points from longitude/latitude pairs: an (n, 2) array (or a flat one of even
        length), replacing what was loaded; returns the index. No object is made per point and
        the index keeps no reference to the array. ``values`` gives, for each property an
        aggregate reads, one number per point (NaN for none). ``on_progress(phase, done,
        total)`` is called as points are added (phase "add") and zooms clustered ("cluster")."""
        self._check_usable("load_coordinates")
        array = _pairs(lng_lat, "load_coordinates", "lng_lat")
        n = len(array)
        self._ingest(array, None, on_progress, "load_coordinates")
        self.points = None

        def values_for(prop):
            given = None if values is None else values.get(prop)
            if given is None:
                raise argument_error("load_coordinates", f"aggregate property {prop} needs values[{prop!r}] with one number per point")
            column = np.asarray(given, dtype=np.float64).reshape(-1)
            if len(column) != n:
                raise argument_error("load_coordinates", f"values[{prop!r}] has {len(column)} numbers for {n} points")
            return column

        self._add_aggregates(values_for, "load_coordinates")
        return self

    def update(self, add=None, remove=None, move=None):
        """Adds, removes and moves points of a loaded index in one batch, repairing only what
        the changes reach: afterwards every query answers as a fresh load of the points left,
        in the same order, would. Point ids (input indices) stay; points added take the next
        ones; a removed id is never used again. Cluster ids are numbered again (those of a fresh
        load, plus the points removed so far). All or nothing: on an error nothing changes.

        ``add``: for an index filled by ``load``, GeoJSON Point features (appended to
        ``index.points``; features without geometry are skipped but counted); for one filled by
        ``load_coordinates``, lng, lat pairs. ``remove``: point ids. ``move``: a list of
        ``{"id": id, "coordinates": [lng, lat]}``, or a pair ``(ids, lng_lat)`` of arrays. Returns
        the id of the first point added. Needs ``min_points`` 2 and no aggregates."""
        call = "update"
        self._check_usable(call)
        if self._reducer is not None and self._reducer.busy:
            raise self._error(STATUS_BY_CODE["INVALID_STATE"], call, "map or reduce is running: update after the query")
        fn = self._mod.fn
        engine_points = fn["cairn_index_point_count"](self._handle)
        if engine_points < 0:
            raise self._error(engine_points, call)
        features = self.points
        before = len(features) if features is not None else engine_points
        added_feature_of = None
        if features is not None:
            add = [] if add is None else add
            if not isinstance(add, (list, tuple)):
                raise argument_error(call, "add must be a list of GeoJSON Point features (the index was filled by load)")

            def reject(i, problem):
                raise CairnError(f"{call}: feature {i} of add {problem}", "INVALID_ARGUMENT", STATUS_BY_CODE["INVALID_ARGUMENT"], i)

            coords, kept = _scan_features(add, reject)
            pairs = np.array(coords, dtype=np.float64).reshape(-1, 2)
            added_feature_of = [before + i for i in kept]
        else:
            pairs = _pairs(np.empty(0) if add is None else add, call, "add")
        remove_ids = np.array([self._engine_point(i, engine_points, call) for i in ([] if remove is None else remove)],
                              dtype=np.int32)
        move_ids, move_pairs, moved_public = self._moves(move, engine_points, call)

        buffers = []

        def place(data, view):
            if data.size == 0:
                return 0
            ptr = fn["cairn_alloc"](data.nbytes) & 0xFFFFFFFF
            if not ptr:
                raise memory_error(call, "out of WebAssembly memory")
            buffers.append(ptr)
            view(ptr, data.size)[:] = data.reshape(-1)
            return as_pointer(ptr)

        try:
            a = place(pairs, self._mod.doubles)
            r = place(remove_ids, self._mod.int32s)
            mi = place(move_ids, self._mod.int32s)
            mp = place(move_pairs, self._mod.doubles)
            first = fn["cairn_index_edit"](self._handle, a, len(pairs), r, len(remove_ids), mi, mp, len(move_ids))
        finally:
            for ptr in buffers:
                fn["cairn_free"](as_pointer(ptr))
        if first < 0:
            code = self._codes(first)
            detail = fn["cairn_last_error_detail"]()
            if code in ("NON_FINITE_COORDINATE", "LATITUDE_OUT_OF_RANGE", "UNKNOWN_POINT"):
                # A point's detail is its engine id: name it as the caller does.
                d = int(detail)
                detail = added_feature_of[d - engine_points] if added_feature_of is not None and d >= engine_points \
                    else self._input_index(d) if 0 <= d < engine_points else d
            raise self._error(first, call, "update() takes a loaded index with min_points 2 and no aggregates"
                              if code == "INVALID_STATE" else None, detail)
        if self._reducer is not None:
            self._reducer.clear()
        if features is None:
            return first
        if not isinstance(features, list):
            self.points = features = list(features)
        features.extend(add)
        if self._feature_of is not None or len(added_feature_of) != len(add):
            old = self._feature_of if self._feature_of is not None else np.arange(first, dtype=np.int64)
            self._feature_of = np.concatenate([old, np.array(added_feature_of, dtype=np.int64)])
        for k, public in enumerate(moved_public):
            old = features[public]
            features[public] = {**old, "geometry": {"type": "Point", "coordinates": [float(move_pairs[k, 0]), float(move_pairs[k, 1])]}}
        self._id_shift = len(features) - fn["cairn_index_point_count"](self._handle)
        return before

    def _moves(self, move, engine_points, call):
        """The engine ids, new positions and public ids of ``move``."""
        if move is None:
            return np.empty(0, dtype=np.int32), np.empty((0, 2)), []
        if isinstance(move, tuple) and len(move) == 2:
            public = [v for v in np.asarray(move[0]).reshape(-1).tolist()]
            positions = _pairs(move[1], call, "move's lng_lat")
            if len(positions) != len(public):
                raise argument_error(call, f"move has {len(public)} ids and {len(positions)} positions")
        else:
            if not isinstance(move, (list, tuple)):
                raise argument_error(call, "move must be a list of {'id': id, 'coordinates': [lng, lat]} or (ids, lng_lat)")
            public, coords = [], []
            for k, m in enumerate(move):
                c = m.get("coordinates") if isinstance(m, dict) else None
                if not isinstance(c, (list, tuple)) or len(c) < 2:
                    raise argument_error(call, f"move {k} must be {{'id': id, 'coordinates': [lng, lat]}}")
                public.append(m.get("id"))
                coords.append((_number(c[0]), _number(c[1])))
            positions = np.array(coords, dtype=np.float64).reshape(-1, 2)
        ids = np.array([self._engine_point(i, engine_points, call) for i in public], dtype=np.int32)
        return ids, positions, public

    def _engine_point(self, public, engine_points, call):
        """The engine's id of the point a caller names by its input index."""
        unknown = lambda: error_from_status(STATUS_BY_CODE["UNKNOWN_POINT"], public if isinstance(public, numbers.Real) else math.nan, call)
        if isinstance(public, bool) or not isinstance(public, numbers.Integral) and not (
                isinstance(public, numbers.Real) and float(public).is_integer()):
            raise unknown()
        public = int(public)
        if public < 0:
            raise unknown()
        if self._feature_of is None:
            if public >= engine_points:
                raise unknown()
            return public
        # feature_of is increasing: find the engine point of this input index.
        k = int(np.searchsorted(self._feature_of, public))
        if k >= len(self._feature_of) or int(self._feature_of[k]) != public:
            raise unknown()
        return k

    # ── queries ──────────────────────────────────────────────────────────────────────────

    def get_clusters(self, bbox, zoom):
        """The clusters and points at ``zoom`` inside ``[west, south, east, north]``, as
        GeoJSON-like dicts. A box whose west lies east of its east crosses the antimeridian."""
        return self._features(self.get_cluster_records(bbox, zoom, _engine_ids=True), "get_clusters")

    def get_cluster_records(self, bbox, zoom, _engine_ids=False):
        """``get_clusters`` as an (n, 4) float64 array of records ``[id, point count, lng, lat]``:
        a record with count 1 is a point and its id its input index, a larger count a cluster."""
        w, s, e, n = self._bbox(bbox, "get_clusters")
        z = _number(zoom)
        records = self._query(lambda p, c: self._mod.fn["cairn_index_clusters"](self._handle, w, s, e, n, z, p, c),
                              "get_clusters", "bbox and zoom must be numbers")
        return records if _engine_ids else self._public_records(records)

    def get_aggregates(self, name, cluster_ids):
        """Aggregate ``name`` of each cluster in ``cluster_ids``, as a float64 array."""
        call = "get_aggregates"
        position = next((k for k, a in enumerate(self._aggregates) if a[0] == name), -1)
        if position < 0:
            raise argument_error(call, f"no aggregate named {name!r} in the options")
        self._check_usable(call)
        if len(self._columns) != len(self._aggregates):
            raise self._error(STATUS_BY_CODE["INVALID_STATE"], call)
        ids = np.asarray(cluster_ids, dtype=np.float64).reshape(-1)
        engine = ids - self._id_shift
        points = len(self._feature_of) if self._feature_of is not None else 0
        if self._id_shift:
            bad = np.flatnonzero(~(engine >= points))
            if len(bad):
                raise self._error(STATUS_BY_CODE["UNKNOWN_CLUSTER"], call, None, ids[bad[0]])
        return self._aggregate_values(engine, [position], call)[0]

    def get_children(self, cluster_id):
        """The clusters and points a cluster was formed from, one zoom closer in."""
        cid = _number(cluster_id)
        engine = cid - self._id_shift
        records = self._query(lambda p, c: self._mod.fn["cairn_index_children"](self._handle, engine, p, c),
                              "get_children", None, cid)
        return self._features(records, "get_children")

    def get_leaves(self, cluster_id, limit=10, offset=0):
        """The points inside a cluster, ``offset`` skipped, at most ``limit`` (``math.inf`` for
        all; 0 or None means 10, as in supercluster)."""
        cid = _number(cluster_id)
        engine = cid - self._id_shift
        lim = _number(limit or 10)
        off = _number(offset or 0)
        if off == math.inf:
            off = float(2 ** 53 - 1)
        records = self._query(lambda p, c: self._mod.fn["cairn_index_leaves"](self._handle, engine, lim, off, p, c),
                              "get_leaves", "limit and offset must be numbers >= 0", cid)
        return self._features(records, "get_leaves")

    def get_leaf_indices(self, cluster_id):
        """The input indices of every point inside a cluster, as an int64 array."""
        cid = _number(cluster_id)
        engine = cid - self._id_shift
        records = self._query(lambda p, c: self._mod.fn["cairn_index_leaves"](self._handle, engine, math.inf, 0.0, p, c),
                              "get_leaves", None, cid)
        ids = records[:, 0].astype(np.int64)
        return self._feature_of[ids] if self._feature_of is not None else ids

    def get_parent_links(self):
        """Every item's parent in one call: an (items, 2) int64 array ``[id, parent id or -1]``,
        the points (ids are input indices) then the clusters in the order they were formed."""
        call = "get_parent_links"
        self._check_usable(call)
        fn = self._mod.fn
        total = fn["cairn_index_parents"](self._handle, 0, 0)
        if total < 0:
            raise self._error(total, call)
        if total == 0:
            return np.empty((0, 2), dtype=np.int64)
        ptr = fn["cairn_alloc"](min(total * 16, 2 ** 31 - 1)) & 0xFFFFFFFF
        if not ptr:
            raise memory_error(call, f"out of WebAssembly memory for {total} items")
        try:
            status = fn["cairn_index_parents"](self._handle, as_pointer(ptr), total)
            if status < 0:
                raise self._error(status, call)
            links = self._mod.doubles(ptr, 2 * total).reshape(total, 2).astype(np.int64)
        finally:
            fn["cairn_free"](as_pointer(ptr))
        if self._feature_of is not None:
            n = len(self._feature_of)
            points = links[:, 0] < n
            links[points, 0] = self._feature_of[links[points, 0]]
            links[~points, 0] += self._id_shift
            links[links[:, 1] >= 0, 1] += self._id_shift
        return links

    def get_cluster_expansion_zoom(self, cluster_id):
        """The zoom at which a cluster splits into several children."""
        cid = _number(cluster_id)
        self._check_usable("get_cluster_expansion_zoom")
        status = self._mod.fn["cairn_index_expansion_zoom"](self._handle, cid - self._id_shift)
        if status < 0:
            raise self._error(status, "get_cluster_expansion_zoom", None, cid)
        return status

    def get_tile(self, z, x, y, format="json", extent=None, buffer=None, layer=DEFAULT_LAYER):
        """The features of tile z/x/y in supercluster's format, or None when it is empty:
        ``{"features": [{"type": 1, "geometry": [[x, y]], "tags": {...}, "id": ...}]}``, in units
        of ``extent`` (the index's unless given), the tile padded by ``buffer`` of those units
        (the radius unless given). ``format="mvt"``: the same tile as Mapbox Vector Tile bytes,
        one layer named ``layer``, extent 4096 unless given."""
        call = "get_tile"
        if format not in ("json", "mvt"):
            raise argument_error(call, f"format must be 'json' or 'mvt', not {format!r}")
        if format == "mvt":
            extent, _, layer = check_tile_options(DEFAULT_TILE_EXTENT if extent is None else extent, 0, layer, call)
        tile = self._tile_features(z, x, y, extent, buffer, call)
        if format == "json" or tile is None:
            return tile
        encoder = TileEncoder(self._mod, extent, layer)
        try:
            return encoder.encode(tile["features"], call)
        finally:
            encoder.close()

    def get_tile_cover(self, z, extent=None, buffer=None, order="columns"):
        """The tiles of zoom z worth asking ``get_tile`` for with the same ``extent`` and
        ``buffer``: every tile that holds a feature, each once (now and then a neighbour that
        turns out empty), as an (n, 2) array of x, y, by column then row or in PMTiles tile id
        order (``order="pmtiles"``)."""
        call = "get_tile_cover"
        if order not in ("columns", "pmtiles"):
            raise argument_error(call, f"order must be 'columns' or 'pmtiles', not {order!r}")
        zi = self._integer(z, "z", call)
        scale, margin = self._tile_scale(extent, buffer)
        self._check_usable(call)
        fn = self._mod.fn
        capacity = 1 << 14
        while True:
            ptr = fn["cairn_alloc"](capacity * 8) & 0xFFFFFFFF
            if not ptr:
                raise memory_error(call, f"out of WebAssembly memory for {capacity} tiles")
            try:
                total = fn["cairn_index_tile_cover"](self._handle, zi, scale, margin, 1 if order == "pmtiles" else 0,
                                                    as_pointer(ptr), capacity)
                if total < 0:
                    raise self._error(total, call, "z must be 0...30, the extent above 0 and the buffer 0...extent")
                if total <= capacity:
                    return self._mod.int32s(ptr, 2 * total).view(np.uint32).reshape(total, 2).astype(np.int64)
                capacity = total
            finally:
                fn["cairn_free"](as_pointer(ptr))

    def write_pmtiles(self, path, extent=DEFAULT_TILE_EXTENT, buffer=None, layer=DEFAULT_LAYER, attribution=None,
                      feature_ids=False, cluster_id=True, on_progress=None):
        """Writes every non-empty tile of zooms ``min_zoom``...``max_zoom`` as gzipped Mapbox
        Vector Tiles into one PMTiles archive at ``path``, as ``cairn cluster --pmtiles`` does:
        one layer (``layer``) of clusters with their properties and aggregates and of points with
        their properties; ``extent`` a power of two, ``buffer`` in its units (5/256 of it unless
        given); ``feature_ids``: clusters carry their id and points their input index as feature
        ids; ``cluster_id=False`` leaves that property out (with ``feature_ids`` the id stays as
        the feature id). Written to a temporary file and renamed into place, so a failed run
        leaves nothing.
        ``on_progress("tiles", zooms_done, zooms)`` after each zoom. Returns the tiles written."""
        call = "write_pmtiles"
        extent, buffer, layer = check_tile_options(extent, buffer, layer, call)
        if on_progress is not None and not callable(on_progress):
            raise argument_error(call, "on_progress must be a function")
        self._check_usable(call)
        bounds = self._query(lambda p, c: self._mod.fn["cairn_index_placed_bounds"](self._handle, p, c), call)[0].tolist()
        zooms = range(self.options["min_zoom"], self.options["max_zoom"] + 1)
        encoder = TileEncoder(self._mod, extent, layer)
        # Without properties of the points' own, map and reduce, or aggregates, the engine makes
        # every tile's properties itself, a batch of tiles per call.
        batched = self.points is None and self._reducer is None and not self._columns
        tiles = ClusterTiles(self._mod, extent, buffer, layer, cluster_id, feature_ids)
        archive = PMTilesWriter(self._mod, path, call)
        try:
            for done, z in enumerate(zooms, 1):
                cover = self.get_tile_cover(z, extent, buffer, "pmtiles")
                for start in range(0, len(cover) if batched else 0, TILE_BATCH):
                    xy = cover[start:start + TILE_BATCH]
                    records, ends = tiles.features(self, z, xy, call)
                    archive.add_stored_tiles(z, *stored_tiles(xy, tiles.encode(self._public_records(records), ends, call)))
                for x, y in ([] if batched else cover.tolist()):
                    tile = self._tile_features(z, x, y, extent, buffer, call, vector_ids=feature_ids)
                    if tile is not None and not cluster_id:
                        for f in tile["features"]:
                            if f["tags"].get("cluster"):
                                del f["tags"]["cluster_id"]
                    if tile is not None:
                        archive.add(z, x, y, encoder.encode(tile["features"], call))
                if on_progress is not None:
                    on_progress("tiles", done, len(zooms))
            archive.finish(tile_metadata(layer, tiles.fields if batched else encoder.fields, zooms[0], zooms[-1], bounds,
                                         attribution))
            return archive.tiles
        finally:
            archive.close()
            encoder.close()
            tiles.close()

    def _tile_scale(self, extent, buffer):
        """A tile query's extent and buffer as the engine takes them (a negative buffer: the
        radius); a caller's negative buffer becomes NaN, which the engine refuses."""
        scale = _number(self.options["extent"] if extent is None else extent)
        margin = -1.0 if buffer is None else _number(buffer)
        return scale, (math.nan if margin < 0 and buffer is not None else margin)

    def _tile_features(self, z, x, y, extent, buffer, call, vector_ids=None):
        """getTile's features in units of ``extent``; with ``vector_ids`` set, as vector tiles of
        an archive carry them: points without their index tag, feature ids only when it is
        true (a cluster's id, a point's input index)."""
        zi, xi, yi = (self._integer(v, name, call) for v, name in ((z, "z"), (x, "x"), (y, "y")))
        scale, margin = self._tile_scale(extent, buffer)
        records = self._query(lambda p, c: self._mod.fn["cairn_index_tile_extent"](self._handle, zi, xi, yi, scale, margin, p, c),
                              call, "z must be 0...30, x and y in 0...2^z - 1, the extent above 0, the buffer 0...extent")
        if len(records) == 0:
            return None
        features = []
        clusters = []
        for rid, count, tx, ty in records.tolist():
            if count > 1:
                public = self._public_id(rid)
                f = {"type": 1, "geometry": [[tx, ty]], "tags": self._cluster_properties(public, count)}
                if vector_ids is not False:
                    f["id"] = public
                clusters.append((rid, f, "tags"))
            else:
                index = self._input_index(rid)
                feature = self.points[index] if self.points is not None else None
                if vector_ids is None:
                    tags = feature.get("properties") if feature is not None else {"index": index}
                    point_id = index if self.options["generate_id"] else feature.get("id") if feature is not None else None
                else:
                    tags = (feature.get("properties") or {}) if feature is not None else {}
                    point_id = index if vector_ids else None
                f = {"type": 1, "geometry": [[tx, ty]], "tags": tags}
                if point_id is not None:
                    f["id"] = point_id
            features.append(f)
        self._complete_clusters(clusters, call)
        return {"features": features}

    @property
    def point_count(self):
        """Points held (features without geometry are not)."""
        self._check_usable("point_count")
        return self._mod.fn["cairn_index_point_count"](self._handle)

    def close(self):
        """Frees the engine's memory for the index at once; the index cannot be used after."""
        if self._closed:
            return
        self._closed = True
        if self._handle:
            self._mod.fn["cairn_index_destroy"](self._handle)
        self._handle = 0
        self._results.free()
        self.points = None
        self._feature_of = None

    destroy = close

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        if self._mod.shut_down:
            return   # the process is ending: its memory goes with it, and the module may be gone
        try:
            self.close()
        except Exception:
            pass

    # supercluster's method names.
    getClusters = get_clusters
    getChildren = get_children
    getLeaves = get_leaves
    getClusterExpansionZoom = get_cluster_expansion_zoom
    getTile = get_tile
    loadCoordinates = load_coordinates

    # ── internals ────────────────────────────────────────────────────────────────────────

    def _create(self):
        o = self.options
        handle = self._mod.fn["cairn_index_create"](o["radius"], o["extent"], clamp_int32(o["min_zoom"]),
                                                    clamp_int32(o["max_zoom"]), clamp_int32(o["min_points"]))
        if handle < 0:
            raise self._error(handle, "ClusterIndex")
        return handle

    def _check_usable(self, call):
        if self._closed:
            raise CairnError(f"{call}: this ClusterIndex was closed", "INVALID_HANDLE", STATUS_BY_CODE["INVALID_HANDLE"])
        if self._reducer is not None and self._reducer.busy and call.startswith("load"):
            raise self._error(STATUS_BY_CODE["INVALID_STATE"], call, "map or reduce is running: load after the query")

    def _ingest(self, lng_lat, feature_of, on_progress, call, add="cairn_index_add"):
        """Replaces the engine index with a fresh one holding ``lng_lat`` (or, with ``add``
        another export, its records) and clusters every zoom. On failure the index is left
        empty (and built), never half loaded."""
        fn = self._mod.fn
        self._replace_engine_index()
        count = len(lng_lat)
        staging = 0
        try:
            if count > 0:
                room = min(CHUNK_POINTS, count)
                staging = fn["cairn_alloc"](room * 8 * lng_lat.shape[1]) & 0xFFFFFFFF
                if not staging:
                    raise memory_error(call, "out of WebAssembly memory")
                # Room for every point up front, so the engine's arrays never grow by copying.
                status = fn["cairn_index_reserve"](self._handle, clamp_int32(count))
                if status < 0:
                    raise self._error(status, call)
                for start in range(0, count, room):
                    chunk = lng_lat[start:start + room]
                    # A fresh view each round: the add below may grow memory and move it.
                    self._mod.doubles(staging, chunk.size)[:] = chunk.reshape(-1)
                    status = fn[add](self._handle, as_pointer(staging), len(chunk))
                    if status < 0:
                        detail = fn["cairn_last_error_detail"]()
                        point = status in (STATUS_BY_CODE["NON_FINITE_COORDINATE"], STATUS_BY_CODE["LATITUDE_OUT_OF_RANGE"])
                        if point and feature_of is not None and 0 <= detail < len(feature_of):
                            detail = int(feature_of[int(detail)])
                        raise self._error(status, call, None, detail)
                    if on_progress:
                        on_progress("add", start + len(chunk), count)
            total = 0
            done = 0
            while True:
                left = fn["cairn_index_build_step"](self._handle)
                if left < 0:
                    raise self._error(left, call)
                done += 1
                total = total or left + 1
                if on_progress:
                    on_progress("cluster", done, total)
                if left == 0:
                    break
        except BaseException:
            self._reset_empty()
            raise
        finally:
            if staging:
                fn["cairn_free"](as_pointer(staging))

    def _load_weighted(self, records):
        """Loads weighted items, an (n, 3) array ``[world x, world y, weight]`` (the engine's
        ``cairn_index_add_weighted``): each stands for ``weight`` points, so that the zooms
        below another index's zoom cluster from its items there. Ids are item positions."""
        self._check_usable("load_weighted")
        array = np.ascontiguousarray(records, dtype=np.float64).reshape(-1, 3)
        self._ingest(array, None, None, "load_weighted", add="cairn_index_add_weighted")
        return self

    def _world_items(self, zoom):
        """Every item visible at ``zoom``: an (n, 4) array ``[engine id, count, world x, world
        y]`` with the exact world positions, which longitudes and latitudes would round."""
        z = _number(zoom)
        return self._query(lambda p, c: self._mod.fn["cairn_index_world_items"](self._handle, z, p, c),
                           "world_items", "zoom must be a number")

    def _replace_engine_index(self):
        """Forgets what was loaded and gives the index a fresh, empty engine index."""
        self.points = None
        self._feature_of = None
        self._id_shift = 0
        self._columns = []
        if self._reducer is not None:
            self._reducer.clear()
        # Destroy before creating: wasm memory never shrinks, so the old index's memory should
        # be free for the new one to reuse.
        if self._handle:
            self._mod.fn["cairn_index_destroy"](self._handle)
        self._handle = 0
        self._handle = self._create()

    def _reset_empty(self):
        """Leaves the index empty and built (queries return nothing), after a failed load."""
        self._replace_engine_index()
        while self._mod.fn["cairn_index_build_step"](self._handle) > 0:
            pass

    def _add_aggregates(self, values_for, call):
        """Computes every declared aggregate in the engine, one column each; a failure leaves
        the index empty."""
        fn = self._mod.fn
        try:
            for name, operation, prop in self._aggregates:
                values = values_for(prop)
                ptr = fn["cairn_alloc"](max(1, len(values)) * 8) & 0xFFFFFFFF
                if not ptr:
                    raise memory_error(call, "out of WebAssembly memory")
                try:
                    self._mod.doubles(ptr, len(values))[:] = values
                    column = fn["cairn_index_aggregate_add"](self._handle, operation, as_pointer(ptr), len(values))
                finally:
                    fn["cairn_free"](as_pointer(ptr))
                if column < 0:
                    detail = fn["cairn_last_error_detail"]()
                    if column == STATUS_BY_CODE["NON_FINITE_VALUE"]:
                        detail = self._input_index(detail)
                    raise self._error(column, call, f"aggregate {name}", detail)
                self._columns.append(column)
        except BaseException:
            self._reset_empty()
            raise

    def _aggregate_values(self, engine_ids, which, call):
        """The values of aggregates ``which`` (positions) for clusters by engine id."""
        fn = self._mod.fn
        n = len(engine_ids)
        if n == 0:
            return [np.empty(0) for _ in which]
        id_ptr = fn["cairn_alloc"](n * 8) & 0xFFFFFFFF
        out_ptr = fn["cairn_alloc"](n * 8) & 0xFFFFFFFF
        try:
            if not id_ptr or not out_ptr:
                raise memory_error(call, "out of WebAssembly memory")
            self._mod.doubles(id_ptr, n)[:] = engine_ids
            out = []
            for a in which:
                status = fn["cairn_index_aggregate_values"](self._handle, self._columns[a], as_pointer(id_ptr), n, as_pointer(out_ptr))
                if status < 0:
                    raise self._error(status, call, None, fn["cairn_last_error_detail"]() + self._id_shift)
                out.append(self._mod.doubles(out_ptr, n).copy())
            return out
        finally:
            for p in (id_ptr, out_ptr):
                if p:
                    fn["cairn_free"](as_pointer(p))

    def _query(self, run, call, hint=None, cluster_id=None):
        self._check_usable(call)
        return self._results.query(run, call, hint, cluster_id)

    def _public_records(self, records):
        if self._feature_of is not None and len(records):
            points = records[:, 1] == 1
            records[points, 0] = self._feature_of[records[points, 0].astype(np.int64)]
            records[~points, 0] += self._id_shift
        return records

    def _features(self, records, call):
        out = []
        clusters = []
        for rid, count, lng, lat in records.tolist():
            if count > 1:
                public = self._public_id(rid)
                f = {"type": "Feature", "id": public, "properties": self._cluster_properties(public, count),
                     "geometry": {"type": "Point", "coordinates": [lng, lat]}}
                clusters.append((rid, f, "properties"))
            else:
                f = self._point_feature(self._input_index(rid), lng, lat)
            out.append(f)
        self._complete_clusters(clusters, call)
        return out

    def _complete_clusters(self, clusters, call):
        """Adds to the clusters a query returned what their records do not hold: the properties
        of map and reduce (under the cluster's own fields, which win) and the aggregates."""
        if not clusters:
            return
        if self._reducer is not None:
            for rid, f, key in clusters:
                f[key] = {**self._reducer.of(rid, self, call), **f[key]}
        if self._columns:
            ids = np.array([c[0] for c in clusters], dtype=np.float64)
            columns = self._aggregate_values(ids, range(len(self._columns)), call)
            for (name, _, _), values in zip(self._aggregates, columns):
                for (_, f, key), v in zip(clusters, values.tolist()):
                    f[key][name] = v

    @staticmethod
    def _cluster_properties(public, count):
        count = int(count)
        return {"cluster": True, "cluster_id": public, "point_count": count, "point_count_abbreviated": abbreviate(count)}

    def _public_id(self, engine_id):
        return int(engine_id) + self._id_shift

    def _input_index(self, engine_point):
        engine_point = int(engine_point)
        return int(self._feature_of[engine_point]) if self._feature_of is not None else engine_point

    def _point_feature(self, index, lng, lat):
        if self.points is not None:
            return self.points[index]
        return {"type": "Feature", "properties": {"index": index}, "geometry": {"type": "Point", "coordinates": [lng, lat]}}

    # What the fold of map and reduce reads (see _reduce.py).
    def _child_records(self, engine_cluster, call):
        return self._results.query(lambda p, c: self._mod.fn["cairn_index_children"](self._handle, engine_cluster, p, c), call)

    def _point_properties(self, engine_point, lng, lat):
        return self._point_feature(self._input_index(engine_point), lng, lat).get("properties")

    @staticmethod
    def _bbox(bbox, call):
        try:
            if len(bbox) < 4:
                raise TypeError
            return tuple(_number(bbox[i]) for i in range(4))
        except TypeError:
            raise argument_error(call, "bbox must be [west_lng, south_lat, east_lng, north_lat]") from None

    @staticmethod
    def _integer(value, name, call):
        v = _number(value)
        if not math.isfinite(v) or not v.is_integer():
            raise argument_error(call, f"{name} must be an integer, got {value!r}")
        return clamp_int32(v)

    def _reject(self, index, problem):
        self._reset_empty()
        raise CairnError(f"load: feature {index} {problem}", "INVALID_ARGUMENT", STATUS_BY_CODE["INVALID_ARGUMENT"], index)

    def _error(self, status, call, hint=None, detail=None):
        entry = self._codes(status)
        if entry == "INVALID_HANDLE" and self._closed:
            hint = "close() was called"
        if entry == "INVALID_STATE" and not hint:
            hint = "nothing is loaded yet: call load() or load_coordinates() first"
        d = detail if detail is not None else self._mod.fn["cairn_last_error_detail"]()
        return error_from_status(status, d, call, hint)

    @staticmethod
    def _codes(status):
        from .errors import STATUS_CODES
        entry = STATUS_CODES.get(-status)
        return entry[0] if entry else None
