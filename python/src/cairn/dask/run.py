"""A distributed run on Dask: read and check the points, split them into spatial partitions,
cluster each partition with a halo down to the hand-over zoom (redone with a wider halo while
any decision about its own points could depend on points beyond the halo), then cluster the
items left at the hand-over zoom down to the lowest zoom on one worker, as weighted items."""

import numpy as np

from ..cluster_index import MAX_POINTS, ClusterIndex
from ..errors import STATUS_BY_CODE, CairnError
from . import halo as halo_run
from .handover import cluster_all_points, cluster_items
from .inputs import checked, read_file
from .partitions import histogram, split


class DaskClustering:
    """What a run found: ``labels(z)``, and how it was split."""

    def __init__(self, labels, partitions, reruns, handover_items, handover_zoom, handover_points):
        self._labels = labels
        self.partitions = partitions          # how many spatial partitions
        self.reruns = reruns                  # partition runs redone with a wider halo
        self.handover_items = handover_items  # items left at the hand-over zoom
        self.handover_zoom = handover_zoom
        # Whether the zooms below the hand-over zoom were clustered from every point rather than
        # from the items (see `handover`): None when the items served.
        self.handover_points = handover_points

    @property
    def zooms(self):
        return sorted(self._labels)

    def labels(self, z):
        """For every input point (in input order: files in the order given, rows in file
        order), the input index of the lowest point of the cluster it is in at zoom ``z``:
        two points share a label exactly when they share a cluster (a point alone is its own)."""
        return self._labels[z]


def cluster_points(client, source, *, lng="lng", lat="lat", radius=40, extent=512, min_zoom=0, max_zoom=16,
                   min_points=2, handover_zoom=None, partition_zoom=2, max_points=4_000_000, halo=None):
    """Clusters points on a Dask cluster exactly as one ``ClusterIndex`` would.

    ``source``: a list of CSV or Parquet files (each read on a worker, so they must be where
    the workers can read them), or a Dask DataFrame; ``lng`` and ``lat`` name its columns.
    Partitions are the tiles of ``partition_zoom`` that hold points, split while one holds
    more than ``max_points``. ``handover_zoom`` (default ``partition_zoom + 4``, within the
    zooms) is where partitions stop and one worker takes over; ``halo`` (world units, default
    sixteen radii at the hand-over zoom) the first halo, doubled on each rerun."""
    ClusterIndex(radius=radius, extent=extent, min_zoom=min_zoom, max_zoom=max_zoom, min_points=min_points).close()
    if min_points != 2:
        # With more, a seed's neighbours too few to cluster move after it in the data order,
        # so an item's rank is no longer its lowest point, which the halos and the hand-over
        # rely on.
        raise CairnError(f"cluster_points: min_points must be 2 (got {min_points!r})", "INVALID_ARGUMENT",
                         STATUS_BY_CODE["INVALID_ARGUMENT"])
    options = {"radius": float(radius), "extent": float(extent), "min_zoom": min_zoom, "max_zoom": max_zoom,
               "min_points": min_points}
    if handover_zoom is None:
        handover_zoom = partition_zoom + 4
    handover_zoom = min(max(handover_zoom, min_zoom), max_zoom)
    chunks = _chunks(client, source, lng, lat)
    sizes = client.gather([client.submit(len, c) for c in chunks])
    offsets = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
    total = int(sum(sizes))
    counts = sum(client.gather([client.submit(histogram, c) for c in chunks]))
    boxes = [box for box, _ in split(counts, partition_zoom, max_points)]
    first_halo = halo if halo is not None else 16 * halo_run.radius_at(radius, extent, handover_zoom)

    def submit(box, width):
        parts = [client.submit(halo_run.select, c, int(o), box, width, pure=False) for c, o in zip(chunks, offsets)]
        return client.submit(halo_run.cluster_partition, box, width, options, handover_zoom, *parts, pure=False)

    from distributed import as_completed
    running = {submit(box, first_halo): (box, first_halo) for box in boxes}
    done = []
    reruns = 0
    queue = as_completed(list(running))
    for future in queue:
        box, width = running.pop(future)
        result = future.result()
        if result["ok"]:
            done.append(future)
            continue
        reruns += 1
        wider = submit(box, width * 2)
        running[wider] = (box, width * 2)
        queue.add(wider)
    labels = {}
    for result in client.gather(done):
        for z, values in result["labels"].items():
            if z not in labels:
                labels[z] = np.full(total, -1, dtype=np.int64)
            labels[z][result["points"]] = values
    handover_points = None
    if handover_zoom > min_zoom:
        below = client.submit(cluster_items, options, handover_zoom, len(done), *done).result()
        if "doubt" in below:
            zoom, pairs = below["doubt"]
            handover_points = f"{pairs} pairs at zoom {zoom} within rounding of the radius"
            if total > MAX_POINTS:
                raise CairnError(f"cluster_points: the hand-over's clustering is in doubt ({handover_points}) and "
                                 f"{total} points are too many to cluster on one worker instead", "INVALID_STATE",
                                 STATUS_BY_CODE["INVALID_STATE"])
            labels.update(client.submit(cluster_all_points, options, handover_zoom, len(done), *done, *chunks).result())
        else:
            # Each point's item at the hand-over zoom is named by its rank; its clusters below are that item's.
            at = np.searchsorted(below["ranks"], labels[handover_zoom])
            labels.update({z: v[at] for z, v in below["labels"].items()})
    if any((v < 0).any() for v in labels.values()):
        raise CairnError("cluster_points: some points were not in any partition's result", "INVALID_STATE",
                         STATUS_BY_CODE["INVALID_STATE"])
    handover_items = sum(len(r["handover"]) for r in client.gather(done))
    return DaskClustering(labels, len(boxes), reruns, handover_items, handover_zoom, handover_points)


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
