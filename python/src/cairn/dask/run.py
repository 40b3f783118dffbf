"""A distributed run on Dask: read and check the points, split them into spatial partitions,
cluster each partition with a halo down to the hand-over zoom (redone with a wider halo while
any decision about its own points could depend on points beyond the halo), then cluster the
items left at the hand-over zoom down to the lowest zoom on one worker, as weighted items."""

import os
import shutil
import tempfile

import numpy as np

from ..cluster_index import MAX_POINTS, ClusterIndex
from ..errors import STATUS_BY_CODE, CairnError, argument_error
from ..vector_tiles import DEFAULT_LAYER, DEFAULT_TILE_EXTENT, check_tile_options
from . import halo as halo_run
from . import tiles as tile_run
from .tiles import TileSpec
from .handover import cluster_all_points, cluster_items
from .inputs import checked, read_file
from .partitions import histogram, split


class DaskClustering:
    """What a run found: ``labels(z)``, how it was split, and the tiles it wrote."""

    def __init__(self, labels, partitions, reruns, handover_items, handover_zoom, handover_points, tiles):
        self._labels = labels
        self.partitions = partitions          # how many spatial partitions
        self.reruns = reruns                  # partition runs redone with a wider halo
        self.handover_items = handover_items  # items left at the hand-over zoom
        self.handover_zoom = handover_zoom
        # Whether the zooms below the hand-over zoom were clustered from every point rather than
        # from the items (see `handover`): None when the items served.
        self.handover_points = handover_points
        self.tiles = tiles                    # tiles written to the archive, or None

    @property
    def zooms(self):
        return sorted(self._labels or ())

    def labels(self, z):
        """For every input point (in input order: files in the order given, rows in file
        order), the input index of the lowest point of the cluster it is in at zoom ``z``:
        two points share a label exactly when they share a cluster (a point alone is its own)."""
        if self._labels is None:
            raise CairnError("labels: the run was made with labels=False", "INVALID_STATE",
                             STATUS_BY_CODE["INVALID_STATE"])
        return self._labels[z]


def cluster_points(client, source, *, lng="lng", lat="lat", radius=40, extent=512, min_zoom=0, max_zoom=16,
                   min_points=2, handover_zoom=None, partition_zoom=2, max_points=4_000_000, halo=None,
                   labels=True, pmtiles=None, tile_extent=DEFAULT_TILE_EXTENT, tile_buffer=None, layer=DEFAULT_LAYER,
                   attribution=None, feature_ids=False, cluster_id=True, on_progress=None):
    """Clusters points on a Dask cluster exactly as one ``ClusterIndex`` would.

    ``source``: a list of CSV or Parquet files (each read on a worker, so they must be where
    the workers can read them), or a Dask DataFrame; ``lng`` and ``lat`` name its columns.
    Partitions are the tiles of ``partition_zoom`` that hold points, split while one holds
    more than ``max_points``. ``handover_zoom`` (default ``partition_zoom + 4``, within the
    zooms) is where partitions stop and one worker takes over; ``halo`` (world units, default
    sixteen radii at the hand-over zoom) the first halo, doubled on each rerun.

    ``pmtiles``: a path to write the clustering's vector tiles to, as one PMTiles archive with
    the tiles ``ClusterIndex.write_pmtiles`` writes for the same points (``tile_extent``,
    ``tile_buffer``, ``layer``, ``attribution``, ``feature_ids`` and ``cluster_id`` as there);
    the workers write their tiles into a temporary folder beside it, so it must be where they
    can write. ``labels=False`` keeps the points' labels off the client (a large run).

    ``on_progress(phase, done, total)`` is called as partitions are clustered ("partitions",
    redone ones counted again in the total), their tiles written ("tiles") and the archive's
    zooms laid out ("archive")."""
    call = "cluster_points"
    ClusterIndex(radius=radius, extent=extent, min_zoom=min_zoom, max_zoom=max_zoom, min_points=min_points).close()
    if min_points != 2:
        # With more, a seed's neighbours too few to cluster move after it in the data order,
        # so an item's rank is no longer its lowest point, which the halos and the hand-over
        # rely on.
        raise argument_error(call, f"min_points must be 2 (got {min_points!r})")
    options = {"radius": float(radius), "extent": float(extent), "min_zoom": min_zoom, "max_zoom": max_zoom,
               "min_points": min_points}
    if handover_zoom is None:
        handover_zoom = partition_zoom + 4
    handover_zoom = min(max(handover_zoom, min_zoom), max_zoom)
    tile_margin = None
    if pmtiles is not None:
        tile_extent, tile_buffer, layer = check_tile_options(tile_extent, tile_buffer, layer, call)
        pmtiles = os.fspath(pmtiles)
        if not os.path.isdir(os.path.dirname(os.path.abspath(pmtiles))):
            raise argument_error(call, f"{pmtiles}: its folder does not exist")
        if max_zoom < 1:
            raise argument_error(call, "tiles need max_zoom 1 or more")
        # Shared tiles are drawn from an index one zoom below them (see `tiles`).
        handover_zoom = max(handover_zoom, 1)
        tile_margin = tile_buffer / tile_extent
    chunks = _chunks(client, source, lng, lat)
    sizes = client.gather([client.submit(len, c) for c in chunks])
    offsets = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
    total = int(sum(sizes))
    if total == 0:
        raise argument_error(call, "the source holds no points")
    counts = sum(client.gather([client.submit(histogram, c) for c in chunks]))
    boxes = [box for box, _ in split(counts, partition_zoom, max_points)]
    first_halo = halo if halo is not None else 16 * halo_run.radius_at(radius, extent, handover_zoom)

    def submit(box, width):
        parts = [client.submit(halo_run.select, c, int(o), box, width, pure=False) for c, o in zip(chunks, offsets)]
        future = client.submit(halo_run.cluster_partition, box, width, options, handover_zoom, *parts,
                               tile_margin=tile_margin, pure=False)
        return future, parts

    from distributed import as_completed
    # The client asks each partition only whether it is done; its labels stay on the workers,
    # and without `labels` they are dropped there once the tiles' rank bits are taken from them.
    rank_zooms = range(handover_zoom + 1, max_zoom + 1)
    running = {}

    def start(box, width):
        future, parts = submit(box, width)
        outcome = client.submit(_outcome, future, pure=False)
        running[outcome] = (future, box, width, parts)
        return outcome

    queue = as_completed([start(box, first_halo) for box in boxes])
    done = []
    reruns = 0
    bits = mine = None
    for outcome in queue:
        future, box, width, parts = running.pop(outcome)
        ok = outcome.result()
        if on_progress is not None:
            on_progress("partitions", len(done) + reruns + 1, len(boxes) + reruns + (0 if ok else 1))
        if ok:
            if pmtiles is not None:
                mine = client.submit(tile_run.rank_bits, future, total, rank_zooms, pure=False)
                bits = mine if bits is None else client.submit(tile_run.merge_bits, bits, mine, pure=False)
            done.append((future if labels else client.submit(_without_labels, future, pure=False), box, parts))
            continue
        reruns += 1
        queue.add(start(box, width * 2))
    future = outcome = mine = None   # dropped, so the workers can let go of what only they held
    results = [f for f, _, _ in done]
    point_labels = _labels(client, results, total) if labels else None
    handover_points = None
    tiles = None
    spec = None
    folder = tempfile.mkdtemp(dir=os.path.dirname(os.path.abspath(pmtiles)), prefix=".cairn-tiles-") if pmtiles else None
    try:
        tile_parts = []
        if pmtiles is not None:
            spec = TileSpec(tile_extent, tile_buffer, layer, feature_ids, cluster_id, boxes, folder, total)
            tile_parts = [client.submit(tile_run.write_partition_tiles, box, options, handover_zoom, spec, bits, *parts,
                                        pure=False) for _, box, parts in done]
            shared = client.submit(tile_run.write_shared_tiles, options, spec, *tile_parts, pure=False)
            summaries = []
            for k, future in enumerate(as_completed([client.submit(tile_run.summary, p) for p in tile_parts]), 1):
                summaries.append(future.result())
                if on_progress is not None:
                    on_progress("tiles", k, len(tile_parts))
        if handover_zoom > min_zoom:
            below = client.submit(cluster_items, options, handover_zoom, len(results), spec, *results, *tile_parts,
                                  pure=False).result()
            if "doubt" in below:
                zoom, pairs = below["doubt"]
                handover_points = f"{pairs} pairs at zoom {zoom} within rounding of the radius"
                if total > MAX_POINTS or spec is not None:
                    raise CairnError(f"{call}: the hand-over's clustering is in doubt ({handover_points}) and cannot "
                                     f"be clustered from every point on one worker instead"
                                     f"{' while writing tiles' if spec is not None else f' ({total} points)'}",
                                     "INVALID_STATE", STATUS_BY_CODE["INVALID_STATE"])
                if point_labels is not None:
                    point_labels.update(client.submit(cluster_all_points, options, handover_zoom, len(results), *results,
                                                      *chunks).result())
            elif point_labels is not None:
                # Each point's item at the hand-over zoom is named by its rank; its clusters below are that item's.
                at = np.searchsorted(below["ranks"], point_labels[handover_zoom])
                point_labels.update({z: v[at] for z, v in below["labels"].items()})
        if spec is not None:
            runs = [s["tiles"] for s in summaries] + [shared.result()["tiles"]]
            fields = [s["fields"] for s in summaries] + [shared.result()["fields"]]
            if handover_zoom > min_zoom:
                runs.append(below["tiles"]["tiles"])
                fields.append(below["tiles"]["fields"])
            bounds = np.array([s["bounds"] for s in summaries]).reshape(-1, 4)
            bounds = [bounds[:, 0].min(), bounds[:, 1].min(), bounds[:, 2].max(), bounds[:, 3].max()] if len(bounds) \
                else [-180.0, -85.0511287798066, 180.0, 85.0511287798066]
            tiles = tile_run.merge_archive(pmtiles, spec, runs, tile_run.merge_fields(fields), bounds, min_zoom,
                                           max_zoom, attribution, on_progress)
    finally:
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)
    handover_items = sum(client.gather([client.submit(_handover_count, f) for f in results]))
    return DaskClustering(point_labels if labels else None, len(boxes), reruns, handover_items, handover_zoom,
                          handover_points, tiles)


def _labels(client, results, total):
    """Every point's label at every zoom down to the hand-over zoom, from the partitions."""
    labels = {}
    for result in client.gather(results):
        for z, values in result["labels"].items():
            if z not in labels:
                labels[z] = np.full(total, -1, dtype=np.int64)
            labels[z][result["points"]] = values
    if any((v < 0).any() for v in labels.values()):
        raise CairnError("cluster_points: some points were not in any partition's result", "INVALID_STATE",
                         STATUS_BY_CODE["INVALID_STATE"])
    return labels


def _outcome(result):
    return result["ok"]


def _without_labels(result):
    """A partition's result without what only the labels need."""
    return {k: v for k, v in result.items() if k not in ("labels", "points")}


def _handover_count(result):
    return len(result["handover"])


def _chunks(client, source, lng, lat):
    """Futures of the points of each file or partition, read and checked on the workers."""
    if isinstance(source, (list, tuple)):
        return [client.submit(read_file, str(path), lng, lat, pure=False) for path in source]
    try:
        delayed = source.to_delayed()
    except AttributeError:
        raise CairnError("cluster_points: source must be a list of CSV or Parquet files or a Dask DataFrame",
                         "INVALID_ARGUMENT", STATUS_BY_CODE["INVALID_ARGUMENT"]) from None
    frames = client.compute(delayed)
    return [client.submit(checked, f, lng, lat, f"partition {k}", pure=False) for k, f in enumerate(frames)]
