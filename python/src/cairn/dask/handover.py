"""The last step of a distributed run: the zooms below the hand-over zoom, on one worker.

The partitions leave their items at the hand-over zoom: each one's rank (the input index of its
lowest point), point count and exact world position. Clustered as weighted items in rank order
(the engine's ``cairn_index_add_weighted``), they meet every decision below as the whole
clustering meets it, with one caveat: the weighted index adds a cluster's members in its own
order, which may not be the order the whole index would add them in, so a centroid can differ
in its last bits. That difference is bounded here, item by item and zoom by zoom, and no
decision may depend on it: no pair of items whose distance is within the bound of the radius,
where a centroid so perturbed is measured or could round to another float32. Such a pair needs
a distance equal to the radius to about fifteen digits; when one turns up, the run clusters
every point on one worker instead (``cluster_points``), while they fit one module."""

import numpy as np
from scipy.spatial import cKDTree

from ..cluster_index import ClusterIndex
from ..errors import STATUS_BY_CODE, CairnError
from ..hierarchy import Hierarchy, lowest_member
from .halo import radius_at

# A bound on how far apart two sums of the same k terms in [0, 1] (weighted means, then
# divided) can round, per term: 2(k - 1)u for the sums and 2u for the division, u = 2^-53,
# taken twice over.
PER_TERM = 2.0 ** -51
# The most a float32 rounding in [0, 1] moves when the double it rounds crosses a boundary.
FLOAT_STEP = 2.0 ** -23


def owned_items(results):
    """The items the partitions own at the hand-over zoom, by rank: (n, 4) rank, count, x, y."""
    owned = np.concatenate([r["handover"] for r in results]).reshape(-1, 4)
    return owned[np.argsort(owned[:, 0], kind="stable")]


def cluster_items(options, handover_zoom, partition_count, spec, *parts):
    """Clusters the partitions' items at the hand-over zoom down to the lowest zoom. Returns
    ``{"ranks", "labels"}``, ``labels[z]`` for each item (in rank order) the rank of the lowest
    item of its cluster at zoom ``z``; or ``{"doubt": (zoom, pairs)}`` when a decision could
    depend on the order of a centroid's sums. ``parts``: the partitions' results, then with a
    tile ``spec`` their tile tasks' results, whose ids the tiles below take (``"tiles"``)."""
    from .tiles import write_handover_tiles

    owned = owned_items(parts[:partition_count])
    ranks = owned[:, 0].astype(np.int64)
    with ClusterIndex(radius=options["radius"], extent=options["extent"], min_zoom=options["min_zoom"],
                      max_zoom=handover_zoom - 1, min_points=options["min_points"]) as index:
        index._load_weighted(owned[:, [2, 3, 1]])
        h = Hierarchy(index)
        doubt = _order_doubt(h, options, handover_zoom)
        if doubt:
            return {"doubt": doubt}
        labels = {z: ranks[lowest_member(item)] for z, item in h.levels() if z < handover_zoom}
        out = {"ranks": ranks, "labels": labels}
        if spec is not None:
            given = np.concatenate([p["handover_ids"] for p in parts[partition_count:]]).reshape(-1, 2)
            given = given[np.argsort(given[:, 0], kind="stable")]
            out["tiles"] = write_handover_tiles(index, h, spec, options["min_zoom"], handover_zoom, given[:, 1])
    return out


def _order_doubt(h, options, handover_zoom):
    """The first zoom (and how many pairs there) at which a decision could differ from the whole
    clustering's for the order of a centroid's sums, or None. ``delta`` bounds, per item, how
    far its centroid may lie from the whole clustering's in each coordinate: 0 for the items
    given (the partitions' own bits), and 0 for a cluster of exact members whose sums come out
    the same in any order (see `_sums_exact`); otherwise its members' largest plus the
    rounding of its sums."""
    delta = np.zeros(len(h.ids))
    above = h.world_items(handover_zoom)
    for z in range(handover_zoom - 1, options["min_zoom"] - 1, -1):
        ids, counts, x, y = above
        d = delta[ids]
        if d.any():
            pairs = _pairs_in_doubt(x, y, d, radius_at(options["radius"], options["extent"], z))
            if pairs:
                return z, pairs
        parent = h.down(ids, z)
        members = np.bincount(parent, minlength=len(h.ids))
        largest = np.zeros(len(h.ids))
        np.maximum.at(largest, parent, d)
        exact = (members <= 2) | _sums_exact(parent, counts, x, y, members)
        delta[parent] = np.where(exact & (largest == 0), 0.0, largest + members * PER_TERM)[parent]
        above = h.world_items(z)
    return None


def _sums_exact(parent, counts, x, y, members):
    """By item one zoom down: whether its weighted sums (each member's clustering position, a
    point's float32 rounding, times its point count) are exact whatever the order. They are
    when every term is a multiple of the smallest term's lowest bit and the total stays below
    2^53 of it: then no partial sum rounds. Points close together, the usual members, are."""
    exact = np.ones(len(members), dtype=bool)
    for c in (x, y):
        position = np.where(counts == 1, c.astype(np.float32).astype(np.float64), c)
        terms = position * counts
        lowest = np.full(len(members), np.inf)
        np.minimum.at(lowest, parent, _lowest_bit(terms))
        total = np.bincount(parent, weights=terms, minlength=len(members))
        exact &= total * (1 + members * 2.0 ** -52) < np.ldexp(lowest, 53)
    return exact


def _lowest_bit(t):
    """The value of each positive double's lowest set bit (infinite for 0)."""
    m, e = np.frexp(t)
    mantissa = (m * 2.0 ** 53).astype(np.int64)
    return np.where(t > 0, np.ldexp((mantissa & -mantissa).astype(np.float64), e - 53), np.inf)


def _pairs_in_doubt(x, y, d, r):
    """How many ordered pairs (seed, neighbour) of these items leave in doubt whether the
    neighbour lies within the radius: the distance from the seed's centroid to the neighbour's
    float32 position is within the seed's perturbation (``d``), plus the step the neighbour's
    float32 rounding may take with its own, of ``r``."""
    pad = d + 2.0 ** -52
    flips = (np.float32(x - pad) != np.float32(x + pad)) | (np.float32(y - pad) != np.float32(y + pad))
    step = np.where((d > 0) & flips, FLOAT_STEP, 0.0)
    fx, fy = x.astype(np.float32).astype(np.float64), y.astype(np.float32).astype(np.float64)
    reach = r + 3 * (d.max() + FLOAT_STEP)
    pairs = cKDTree(np.column_stack([x, y])).query_pairs(reach, output_type="ndarray")
    count = 0
    # Each pair both ways: the seed measured from its centroid, the neighbour at its float32 position.
    for seed, other in ((pairs[:, 0], pairs[:, 1]), (pairs[:, 1], pairs[:, 0])):
        shift = d[seed] + step[other]     # 0: both clusterings measure the same numbers
        dist = np.hypot(fx[other] - x[seed], fy[other] - y[seed])
        tolerance = np.sqrt(2) * shift + 1e-15 * r
        count += int(np.count_nonzero((shift > 0) & (np.abs(dist - r) <= tolerance)))
    return count


def cluster_all_points(options, handover_zoom, partition_count, *parts):
    """``{zoom: labels of every point}`` for the zooms below the hand-over zoom, from every
    point clustered on this worker; the items it finds at the hand-over zoom must be exactly
    (to the last bit) the ones the partitions own. ``parts`` are the partitions' results
    (``partition_count`` of them), then the chunks' points in input order."""
    results, chunks = parts[:partition_count], parts[partition_count:]
    owned = owned_items(results)
    points = np.concatenate(chunks).reshape(-1, 2)
    with ClusterIndex(radius=options["radius"], extent=options["extent"], min_zoom=options["min_zoom"],
                      max_zoom=options["max_zoom"], min_points=options["min_points"]) as index:
        index.load_coordinates(points)
        h = Hierarchy(index)
        labels = {z: lowest_member(item) for z, item in h.levels() if z <= handover_zoom}
        ids, counts, x, y = h.world_items(handover_zoom)
    rank = np.full(len(h.ids), -1)
    rank[h.down_to(handover_zoom)] = labels[handover_zoom]
    found = np.column_stack([rank[ids], counts, x, y])
    found = found[np.argsort(found[:, 0], kind="stable")]
    if not np.array_equal(found, owned):
        raise CairnError(f"hand-over: the partitions' items at zoom {handover_zoom} are not the whole clustering's",
                         "INVALID_STATE", STATUS_BY_CODE["INVALID_STATE"])
    return {z: v for z, v in labels.items() if z < handover_zoom}
