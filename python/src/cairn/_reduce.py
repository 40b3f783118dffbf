"""supercluster's ``map`` and ``reduce`` options: cluster properties computed by the caller's
own functions. A cluster's are folded the first time a query returns it (from its children's,
each folded the same way or mapped from a point's properties) and kept until the next load, so
a load costs nothing more."""

from .errors import STATUS_BY_CODE, error_from_status


class ClusterReduce:
    def __init__(self, map_fn, reduce_fn):
        self._map = map_fn
        self._reduce = reduce_fn
        self._done = {}
        self._folding = set()

    def clear(self):
        self._done.clear()

    @property
    def busy(self):
        """Whether the caller's map or reduce is running."""
        return bool(self._folding)

    def of(self, cluster, index, call):
        """A cluster's accumulated properties: a copy of its first child's, into which reduce
        folds each other child's. Children come in the engine's order, so a reduce whose result
        does not depend on the order gives supercluster's values. Shared: callers copy it."""
        known = self._done.get(cluster)
        if known is not None:
            return known
        if cluster in self._folding:
            raise error_from_status(STATUS_BY_CODE["INVALID_STATE"], cluster, call,
                                    "a query inside map or reduce returned a cluster being folded")
        self._folding.add(cluster)
        try:
            accumulated = None
            for k, (cid, count, lng, lat) in enumerate(index._child_records(cluster, call).tolist()):
                if count > 1:
                    props = self.of(cid, index, call)
                else:
                    props = index._point_properties(cid, lng, lat)
                    props = self._map(props) if self._map else props
                if k == 0:
                    # The first is copied, so the fold never changes a point's or another cluster's own.
                    accumulated = dict(props or {})
                else:
                    self._reduce(accumulated, props)
            self._done[cluster] = accumulated
            return accumulated
        finally:
            self._folding.discard(cluster)
