"""A built index's clustering as arrays, zoom by zoom: which item each point is in at every
zoom, and each zoom's items with the item each goes into one zoom down. Read from the engine
(its parent links and the items of each zoom); nothing is clustered here."""

import numpy as np

WORLD = (-180.0, -90.0, 180.0, 90.0)


class Hierarchy:
    """The parent links of an index loaded with ``load_coordinates``, by item number: points
    ``0 … n-1``, then the clusters in the order they were formed."""

    def __init__(self, index):
        self.index = index
        self.n = n = index.point_count
        self.max_zoom = index.options["max_zoom"]
        self.min_zoom = index.options["min_zoom"]
        links = index.get_parent_links()
        self.ids = links[:, 0]
        # Public ids are supercluster's, not in item order: look them up.
        self._by_id = np.argsort(self.ids, kind="stable")
        self._sorted_ids = self.ids[self._by_id]
        self.parent = np.where(links[:, 1] >= 0, self.item_of(links[:, 1]), -1)
        # A cluster's public id holds its origin zoom, one above the zoom it was formed at.
        self.formed = np.where(self.ids < n, self.max_zoom + 1, ((self.ids - n) & 31) - 1)

    def item_of(self, public_ids):
        """Item numbers of public ids (the engine's ``publicID(ofItem:)``: a point's is its input
        index, a cluster's supercluster's id)."""
        return self._by_id[np.searchsorted(self._sorted_ids, public_ids)]

    def down(self, items, z):
        """The items at zoom ``z`` that items visible at ``z + 1`` go into."""
        p = self.parent[items]
        moved = p >= 0
        moved[moved] = self.formed[p[moved]] == z
        return np.where(moved, p, items)

    def items(self, z):
        """The items visible at zoom ``z``: item numbers (sorted), point counts, lng, lat."""
        r = self.index.get_cluster_records(WORLD, z, _engine_ids=True)
        items = self.item_of(r[:, 0].astype(np.int64))
        order = np.argsort(items)
        return items[order], r[order, 1].astype(np.int64), r[order, 2], r[order, 3]

    def world_items(self, z):
        """``items`` with the exact world positions: item numbers (sorted), point counts, x, y."""
        r = self.index._world_items(z)
        items = self.item_of(r[:, 0].astype(np.int64))
        order = np.argsort(items)
        return items[order], r[order, 1].astype(np.int64), r[order, 2], r[order, 3]

    def down_to(self, z):
        """The item each point is in at zoom ``z``."""
        item = np.arange(self.n, dtype=np.int64)
        for zoom in range(self.max_zoom, z - 1, -1):
            item = self.down(item, zoom)
        return item

    def levels(self):
        """Yields ``(z, item of each point at z)`` from ``max_zoom + 1`` down to ``min_zoom``."""
        item = np.arange(self.n, dtype=np.int64)
        yield self.max_zoom + 1, item
        for z in range(self.max_zoom, self.min_zoom - 1, -1):
            item = self.down(item, z)
            yield z, item


def lowest_member(item):
    """For points (by position) and the item each is in: each point's item's lowest point,
    which is the item's rank (its seed's origin). The lowest point of an item is where it
    first occurs."""
    _, first, inverse = np.unique(item, return_index=True, return_inverse=True)
    return first[inverse].astype(np.int64)


def memberships(index):
    """``{zoom: labels}`` from ``min_zoom`` to ``max_zoom + 1``: ``labels[i]`` is the index of
    the lowest point of the item point ``i`` is in at that zoom, so two points share a label
    exactly when they share a cluster at that zoom."""
    h = Hierarchy(index)
    return {z: lowest_member(item) for z, item in h.levels()}
