"""The last step of a distributed run: the items every partition left at the hand-over zoom,
clustered down to the lowest zoom on one worker.

The module takes points, not weighted items, so each item goes in as as many points as it holds,
all at its position, in the order of the items' ranks: at the zoom below the hand-over zoom the
engine then sees each item as it would (the same position, the same weight, the same rank
order). That holds while ``min_points`` is at most 2: with more, an item alone with fewer points
than ``min_points`` would stay whole in a full run but come apart here, so the run refuses
``min_points`` above 2. The items' points count against the module's limit of points."""

import numpy as np

from ..cluster_index import ClusterIndex
from ..errors import STATUS_BY_CODE, CairnError
from ..hierarchy import memberships


def cluster_handover(options, handover_zoom, *results):
    """``(ranks, {zoom: label of each item})`` for the zooms below the hand-over zoom, where
    ``ranks`` are the items' ranks (sorted) and a label is the rank of the lowest item of the
    cluster an item is in at that zoom."""
    items = np.concatenate([r["handover"] for r in results]).reshape(-1, 4)
    items = items[np.argsort(items[:, 0], kind="stable")]
    ranks = items[:, 0].astype(np.int64)
    counts = items[:, 1].astype(np.int64)
    if handover_zoom <= options["min_zoom"]:
        return ranks, {}
    first = np.concatenate([[0], np.cumsum(counts)[:-1]])
    points = np.repeat(items[:, 2:4], counts, axis=0)
    with ClusterIndex(radius=options["radius"], extent=options["extent"], min_zoom=options["min_zoom"],
                      max_zoom=handover_zoom - 1, min_points=options["min_points"]) as index:
        index.load_coordinates(points)
        labels = memberships(index)
    owner = np.repeat(np.arange(len(items)), counts)     # each point's item
    out = {}
    for z in range(options["min_zoom"], handover_zoom):
        lowest = labels[z]
        # Every point of an item must share its cluster: the item's first point's label.
        if not np.array_equal(lowest, lowest[first][owner]):
            raise CairnError(f"hand-over: an item came apart at zoom {z}", "INVALID_STATE", STATUS_BY_CODE["INVALID_STATE"])
        out[z] = ranks[owner[lowest[first]]]
    return ranks, out
