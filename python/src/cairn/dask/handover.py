"""The last step of a distributed run: the zooms below the hand-over zoom, on one worker.

Exactly, they would be the items the partitions leave at the hand-over zoom clustered down as
weighted items (a cluster keeps its double centroid, a point is rounded to float32, as the
engine weighs them). The module takes points only, and standing an item in by as many points
at its position rounds its centroid to float32, which moves decisions on the radius's edge. So
this worker clusters every point, in input order, and checks that the items it finds at the
hand-over zoom are the ones the partitions own, to the last bit: the zooms below come from a
clustering that agrees with the partitions where they meet."""

import numpy as np

from ..cluster_index import ClusterIndex
from ..errors import STATUS_BY_CODE, CairnError
from ..hierarchy import Hierarchy, lowest_member


def cluster_handover(options, handover_zoom, partition_count, *parts):
    """``{zoom: labels of every point}`` for the zooms below the hand-over zoom. ``parts`` are
    the partitions' results (``partition_count`` of them), then the chunks' points in input
    order."""
    results, chunks = parts[:partition_count], parts[partition_count:]
    if handover_zoom <= options["min_zoom"]:
        return {}
    owned = np.concatenate([r["handover"] for r in results]).reshape(-1, 4)
    owned = owned[np.argsort(owned[:, 0], kind="stable")]
    points = np.concatenate(chunks).reshape(-1, 2)
    with ClusterIndex(radius=options["radius"], extent=options["extent"], min_zoom=options["min_zoom"],
                      max_zoom=options["max_zoom"], min_points=options["min_points"]) as index:
        index.load_coordinates(points)
        h = Hierarchy(index)
        labels = {z: lowest_member(item) for z, item in h.levels() if z <= handover_zoom}
        ids, counts, lng, lat = h.items(handover_zoom)
    rank = np.full(len(h.ids), -1)
    rank[h.down_to(handover_zoom)] = labels[handover_zoom]
    found = np.column_stack([rank[ids], counts, lng, lat])
    found = found[np.argsort(found[:, 0], kind="stable")]
    if not np.array_equal(found, owned):
        raise CairnError(f"hand-over: the partitions' items at zoom {handover_zoom} are not the whole clustering's",
                         "INVALID_STATE", STATUS_BY_CODE["INVALID_STATE"])
    return {z: v for z, v in labels.items() if z < handover_zoom}
