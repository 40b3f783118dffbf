"""ClusterIndex.update: after batches of adds, removes and moves, the index answers as a fresh
load of the points left would (point ids kept, cluster ids past the removed points), and bad
batches change nothing."""

import math

import numpy as np
import pytest

from cairn import CairnError, ClusterIndex
from conftest import clustered_points

WORLD = [-180, -90, 180, 90]


def feature(lng, lat, i):
    return {"type": "Feature", "properties": {"name": f"p{i}"}, "geometry": {"type": "Point", "coordinates": [lng, lat]}}


def shown(index, zooms=range(0, 18)):
    """Every zoom's clusters and points: ids, counts, positions, and each cluster's leaves."""
    out = []
    for z in zooms:
        for f in index.get_clusters(WORLD, z):
            p = f["properties"]
            lng, lat = f["geometry"]["coordinates"]
            if p.get("cluster"):
                leaves = sorted(int(i) for i in index.get_leaf_indices(p["cluster_id"]))
                out.append((z, "cluster", p["cluster_id"], p["point_count"], round(lng, 9), round(lat, 9), leaves))
            else:
                out.append((z, "point", p.get("name", p.get("index")), round(lng, 9), round(lat, 9)))
    return sorted(out, key=repr)


def test_updates_of_features_answer_as_a_fresh_load_of_index_points():
    pts = clustered_points(3000, 11, centres=12, spread=0.5)
    features = [feature(lng, lat, i) for i, (lng, lat) in enumerate(pts.tolist())]
    features[7] = {"type": "Feature", "properties": {"name": "no place"}, "geometry": None}
    index = ClusterIndex(maxZoom=14).load(features)
    rng = np.random.default_rng(5)
    next_name = len(features)
    removed = set()
    for batch in range(4):
        live = [i for i in range(len(index.points)) if i not in removed and index.points[i]["geometry"] is not None]
        chosen = rng.choice(live, 12, replace=False).tolist()
        remove, moving = chosen[:4], chosen[4:]
        move = [{"id": i, "coordinates": [pts[i % len(pts), 0] + rng.normal(0, 0.01), pts[i % len(pts), 1]]} for i in moving]
        # Across the antimeridian, one without a geometry, and one on a point just moved.
        add = [feature(179.9999, 10, next_name), feature(-179.9999, 10, next_name + 1),
               {"type": "Feature", "properties": {"name": "skipped"}, "geometry": None},
               feature(*move[0]["coordinates"], next_name + 3)]
        next_name += len(add)
        first = index.update(add=add, remove=remove, move=move)
        assert first == len(index.points) - len(add)
        removed.update(remove)
        # What the docs promise: a fresh load of index.points with the removed ones' geometry null.
        again = [dict(f, geometry=None) if i in removed else f for i, f in enumerate(index.points)]
        assert shown(index) == shown(ClusterIndex(maxZoom=14).load(again)), f"batch {batch}"
        assert index.get_tile(0, 0, 0) == ClusterIndex(maxZoom=14).load(again).get_tile(0, 0, 0)
        for m in move:
            assert index.points[m["id"]]["geometry"]["coordinates"] == m["coordinates"]


def test_updates_of_coordinates_take_arrays_and_keep_point_ids():
    pts = clustered_points(4000, 3)
    index = ClusterIndex().load_coordinates(pts)
    ids = np.array([5, 17, 2000])
    to = pts[ids] + 0.001
    first = index.update(add=np.array([[10.0, 10.0], [10.00001, 10.0]]), remove=[1, 3999], move=(ids, to))
    assert first == 4000
    model = pts.copy()
    model[ids] = to
    model = np.vstack([model, [[10.0, 10.0], [10.00001, 10.0]]])
    live = np.array([i for i in range(len(model)) if i not in (1, 3999)])
    fresh = ClusterIndex().load_coordinates(model[live])
    # The fresh load's point k is point live[k] here; its cluster ids are two lower.
    for z in (0, 5, 10, 16):
        ours = sorted((f["properties"].get("cluster_id", -1), f["properties"].get("index", -1), f["properties"].get("point_count", 1))
                      for f in index.get_clusters(WORLD, z))
        theirs = sorted((f["properties"]["cluster_id"] + 2 if f["properties"].get("cluster") else -1,
                         int(live[f["properties"]["index"]]) if not f["properties"].get("cluster") else -1,
                         f["properties"].get("point_count", 1)) for f in fresh.get_clusters(WORLD, z))
        assert ours == theirs, f"zoom {z}"
    pair = [f for f in index.get_clusters([9, 9, 11, 11], 16) if f["properties"].get("cluster")]
    assert [sorted(index.get_leaf_indices(f["properties"]["cluster_id"]).tolist()) for f in pair] == [[4000, 4001]]


def test_bad_updates_are_refused_with_the_point_named_and_change_nothing():
    pts = clustered_points(500, 2)
    index = ClusterIndex().load_coordinates(pts)
    state = {"before": shown(index, range(0, 17, 4))}

    def refused(code, detail=None, **changes):
        with pytest.raises(CairnError) as caught:
            index.update(**changes)
        assert caught.value.code == code
        if detail is not None:
            assert caught.value.detail == detail
        assert shown(index, range(0, 17, 4)) == state["before"]

    refused("UNKNOWN_POINT", 500, remove=[500])
    refused("UNKNOWN_POINT", remove=[-1])
    refused("UNKNOWN_POINT", move=[{"id": 1.5, "coordinates": [0, 0]}])
    refused("INVALID_ARGUMENT", remove=[3], move=[{"id": 3, "coordinates": [0, 0]}])
    refused("LATITUDE_OUT_OF_RANGE", 9, move=[{"id": 9, "coordinates": [0, 91]}])
    refused("NON_FINITE_COORDINATE", 501, add=[[0, 0], [math.nan, 0]])
    refused("INVALID_ARGUMENT", add=[1, 2, 3])
    refused("INVALID_ARGUMENT", move=[{"id": 2}])
    index.update(remove=[4])
    state["before"] = shown(index, range(0, 17, 4))
    refused("UNKNOWN_POINT", 4, remove=[4])
    with pytest.raises(CairnError) as caught:
        ClusterIndex(minPoints=3).load_coordinates(pts).update(remove=[0])
    assert caught.value.code == "INVALID_STATE"
    with pytest.raises(CairnError) as caught:
        ClusterIndex().load([feature(0, 0, 0)]).update(add=[{"type": "Feature", "geometry": {"type": "LineString"}}])
    assert caught.value.code == "INVALID_ARGUMENT" and "feature 0 of add" in str(caught.value)
