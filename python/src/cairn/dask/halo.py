"""One partition of a distributed run: its points and a halo of neighbouring points clustered
from the highest zoom down to the hand-over zoom, and every clustering decision that could
depend on points outside the halo found, so that the partition is redone with a wider halo
when any decision about its own points is one of them.

The engine's clustering is supercluster's greedy one: at each zoom the items of the zoom above
are visited by rank (the input index of their lowest point); an item is a seed exactly when no
earlier-ranked item within the radius is a seed, and a seed's cluster is it and the later items
within the radius that no earlier seed took. So an item's decision reads only the earlier-ranked
items within the radius, and a cluster's members only its seed's neighbours. What the halo
cannot see lies in a region ``W`` (outside the halo at first); an item is *uncertain* when it is
within the radius of ``W``, was uncertain a zoom above, or an earlier-ranked neighbour is
uncertain; a cluster is certain when its members are, its seed's neighbours are, and its seed
is not near ``W``. One zoom down, ``W`` grows by the radius around itself, the uncertain items
and the seeds of uncertain clusters: whatever the full data makes differently lies there.
Nothing here decides a cluster: the engine did, and this reads its answers.
"""

import numpy as np
from scipy.spatial import cKDTree

from ..cluster_index import ClusterIndex
from ..hierarchy import Hierarchy, lowest_member
from .partitions import grid_cells, world_xy

# Slack on every distance compared: the engine compares float32 positions, whose rounding near
# 1.0 is about 6e-8; a pair it might see within the radius is always taken as within it.
SLACK = 3e-7


def radius_at(radius, extent, z):
    """The clustering radius at zoom z in world units (supercluster's)."""
    return radius / (extent * 2.0 ** z)


def run_box(box, halo):
    w, n, e, s = box.bounds
    return max(0.0, w - halo), max(0.0, n - halo), min(1.0, e + halo), min(1.0, s + halo)


def select(lng_lat, offset, box, halo):
    """The points of a chunk inside the run box of ``box`` with ``halo``: global indices (the
    chunk starts at ``offset``) and positions."""
    x, y = world_xy(lng_lat)
    w, n, e, s = run_box(box, halo)
    keep = np.flatnonzero((x >= w) & (x <= e) & (y >= n) & (y <= s))
    return offset + keep, lng_lat[keep]


def partition_points(box, selections):
    """A partition's points from the chunks' selections, in input order (the engine's ranks):
    their global indices, positions, and which of them are the core's."""
    gidx = np.concatenate([s[0] for s in selections])
    lng_lat = np.concatenate([s[1] for s in selections]).reshape(-1, 2)
    order = np.argsort(gidx, kind="stable")
    gidx, lng_lat = gidx[order], lng_lat[order]
    px, py = world_xy(lng_lat)
    return gidx, lng_lat, np.flatnonzero(box.holds(*grid_cells(px, py)))


def partition_index(options, handover_zoom, lng_lat):
    """The index of a partition's points, from the highest zoom down to the hand-over zoom."""
    index = ClusterIndex(radius=options["radius"], extent=options["extent"], min_zoom=handover_zoom,
                         max_zoom=options["max_zoom"], min_points=options["min_points"])
    return index.load_coordinates(lng_lat)


def cluster_partition(box, halo, options, handover_zoom, *selections, tile_margin=None):
    """Clusters a partition with its halo; see the module's comment. Returns a dict: ``ok``
    (every item holding a point of the core is certain at every zoom down to the hand-over
    zoom), ``uncertain`` (how many such items were not), and when ok ``points`` (the core's
    global indices), ``labels`` ({zoom: global index of the lowest point of each core point's
    item}) and ``handover`` (the items the core owns at the hand-over zoom: rank, count and
    exact world x, y). With ``tile_margin`` (a tile's buffer over its extent), the items
    within that buffer of the core at each zoom must be certain too: the partition writes the
    tiles inside its core, and they show them (see ``tiles``)."""
    gidx, lng_lat, core = partition_points(box, selections)
    o = options
    with partition_index(options, handover_zoom, lng_lat) as index:
        h = Hierarchy(index)
        bounds = run_box(box, halo)
        open_sides = (bounds[0] > 0, bounds[1] > 0, bounds[2] < 1, bounds[3] < 1)
        size = len(h.ids)
        certain = np.ones(size, dtype=bool)          # by item number, for the items of the zoom above
        taint = np.empty((0, 3))                     # x, y, radius: the parts of W around items
        margin = 0.0                                 # W's depth inside the run box's open sides
        item = np.arange(h.n, dtype=np.int64)        # each point's item at the zoom above
        labels = {}
        above = h.items(o["max_zoom"] + 1)
        for z in range(o["max_zoom"], handover_zoom - 1, -1):
            ids, _, lng, lat = above
            ax, ay = world_xy(np.column_stack([lng, lat]))
            r = radius_at(o["radius"], o["extent"], z) + SLACK
            near = _near_outside(ax, ay, bounds, open_sides, margin + r) | _near_taint(ax, ay, taint, r)
            rank = lowest_member(item)
            item_rank = np.full(size, np.iinfo(np.int64).max)
            item_rank[item] = rank
            doubt, neighbour_doubt = _spread_doubt(np.column_stack([ax, ay]), item_rank[ids], ~certain[ids] | near, r)
            parent = h.down(ids, z)
            # Each cluster's seed is its lowest-ranked member.
            down_rank = np.full(size, np.iinfo(np.int64).max)
            np.minimum.at(down_rank, parent, item_rank[ids])
            seed = item_rank[ids] == down_rank[parent]
            bad = np.zeros(size, dtype=bool)
            np.logical_or.at(bad, parent, doubt | (seed & (neighbour_doubt | near)))
            # W one zoom down: the old W, the uncertain items and the uncertain clusters' seeds, grown by the radius.
            grow = doubt | (seed & bad[parent])
            taint[:, 2] += r
            taint = np.concatenate([taint, np.column_stack([ax[grow], ay[grow], np.full(grow.sum(), r)])])
            margin += r
            certain = ~bad
            item = h.down(item, z)
            held = np.unique(item[core])
            above = h.items(z)
            if tile_margin is not None:
                held = np.union1d(held, above[0][_near_box(*world_xy(np.column_stack(above[2:])), box,
                                                           tile_margin / 2.0 ** z + SLACK)])
            uncertain = int(np.count_nonzero(bad[held]))
            if uncertain:
                return {"ok": False, "uncertain": uncertain, "zoom": z}
            labels[z] = gidx[lowest_member(item)[core]]
        # The items the core owns at the hand-over zoom: their lowest point is in the core.
        ids, counts, x, y = h.world_items(handover_zoom)
        in_core = np.zeros(h.n, dtype=bool)
        in_core[core] = True
        rank_of = np.full(size, -1)
        rank_of[item] = lowest_member(item)
        owned = in_core[rank_of[ids]]
        handover = np.column_stack([gidx[rank_of[ids[owned]]], counts[owned], x[owned], y[owned]])
        labels[o["max_zoom"] + 1] = gidx[core]
        return {"ok": True, "uncertain": 0, "points": gidx[core], "labels": labels, "handover": handover}


def _spread_doubt(xy, rank, doubt, r):
    """Doubt spread from the items in doubt to every later-ranked item within ``r`` of one,
    and so on; and which items have a neighbour in doubt. Only the neighbourhoods of items in
    doubt are searched (a dense spot far from the halo's edge costs nothing)."""
    tree = cKDTree(xy)
    doubt = doubt.copy()
    neighbour_doubt = np.zeros(len(xy), dtype=bool)
    frontier = np.flatnonzero(doubt)
    while len(frontier):
        found = tree.query_ball_point(xy[frontier], r)
        lengths = np.fromiter((len(f) for f in found), dtype=np.int64, count=len(found))
        near = np.concatenate([np.asarray(f, dtype=np.int64) for f in found]) if lengths.sum() else np.empty(0, np.int64)
        source = np.repeat(frontier, lengths)
        neighbour_doubt[near[near != source]] = True
        later = near[(rank[near] > rank[source]) & ~doubt[near]]
        frontier = np.unique(later)
        doubt[frontier] = True
    return doubt, neighbour_doubt


def _near_box(x, y, box, distance):
    """Whether each position lies in the box or within ``distance`` of it."""
    w, n, e, s = box.bounds
    return (x >= w - distance) & (x <= e + distance) & (y >= n - distance) & (y <= s + distance)


def _near_outside(x, y, bounds, open_sides, distance):
    """Whether each position lies within ``distance`` of the world outside the run box."""
    w, n, e, s = bounds
    near = np.zeros(len(x), dtype=bool)
    for is_open, gap in zip(open_sides, (x - w, y - n, e - x, s - y)):
        if is_open:
            near |= gap <= distance
    return near


def _near_taint(x, y, taint, r):
    """Whether each position lies within ``r`` of a part of W (a disc around an item)."""
    near = np.zeros(len(x), dtype=bool)
    if len(taint) == 0 or len(x) == 0:
        return near
    tree = cKDTree(np.column_stack([x, y]))
    for hits in tree.query_ball_point(taint[:, :2], taint[:, 2] + r):
        near[hits] = True
    return near
