"""ClusterIndex through the installed package: the same results as the JavaScript
ClusterIndex on the same module, the shapes supercluster users expect, and errors with the
engine's codes."""

import json
import math
import os
import subprocess
import sys

import numpy as np
import pytest

import cairn
from cairn import CairnError, ClusterIndex

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WORLD = [-180, -90, 180, 90]


def js_reference(options, lng_lat, values=None, zooms=range(0, 18), tiles=()):
    request = {"options": options, "lngLat": lng_lat.reshape(-1).tolist(), "values": values or {},
               "clusterZooms": list(zooms), "tiles": [list(t) for t in tiles]}
    run = subprocess.run(["node", os.path.join(REPO, "python", "tests", "reference.mjs")],
                         input=json.dumps(request).encode(), capture_output=True, check=True)
    return json.loads(run.stdout)


def test_package_runs_the_module_built_from_this_repository():
    module = cairn.get_module()
    assert os.path.dirname(module.path) == os.path.dirname(cairn.__file__)
    with open(module.path, "rb") as a, open(os.path.join(REPO, "web", "dist", "cairn.wasm"), "rb") as b:
        assert a.read() == b.read()
    assert module.abi_version == cairn.ABI_VERSION
    # Every status the module defines has a name here, and no more.
    from cairn.errors import STATUS_CODES
    assert sorted(STATUS_CODES) == list(range(1, module.status_count + 1))


def test_every_zoom_equals_the_javascript_cluster_index(points):
    options = {"radius": 60, "maxZoom": 16, "aggregates": {"total": ["sum", "w"]}}
    w = np.arange(len(points), dtype=np.float64) % 7
    ref = js_reference(options, points, {"w": w.tolist()}, tiles=[(0, 0, 0), (3, 4, 2), (5, 9, 12)])
    index = ClusterIndex(radius=60, maxZoom=16, aggregates={"total": ("sum", "w")}).load_coordinates(points, values={"w": w})
    for z, expected in ref["zooms"].items():
        got = index.get_clusters(WORLD, int(z))
        assert len(got) == len(expected)
        key = lambda f: (f["properties"].get("cluster_id", -1), f["properties"].get("index", -1))
        for g, e in zip(sorted(got, key=key), sorted(expected, key=key)):
            assert g["properties"] == e["properties"]
            assert g["geometry"]["coordinates"] == pytest.approx(e["geometry"]["coordinates"], abs=1e-12)
    assert ref["children"], "the reference returned clusters"
    for cid, expected in ref["children"].items():
        cid = int(cid)
        assert sorted(c["properties"].get("cluster_id", -1) for c in index.get_children(cid)) == \
            sorted(c["properties"].get("cluster_id", -1) for c in expected)
        leaves = sorted(f["properties"]["index"] for f in index.get_leaves(cid, math.inf))
        assert leaves == ref["leaves"][str(cid)]
        assert sorted(index.get_leaf_indices(cid).tolist()) == leaves
        assert index.get_cluster_expansion_zoom(cid) == ref["expansion"][str(cid)]
    for key, expected in ref["tiles"].items():
        z, x, y = map(int, key.split("/"))
        got = index.get_tile(z, x, y)
        assert (got is None) == (expected is None)
        if got:
            order = lambda f: (f["geometry"], str(f.get("id")))
            assert sorted(got["features"], key=order) == sorted(expected["features"], key=order)


def test_cluster_records_are_numpy_and_leaves_add_up(points):
    index = ClusterIndex(max_zoom=14).load_coordinates(points)
    for z in (0, 4, 9, 15):
        records = index.get_cluster_records(WORLD, z)
        assert records.dtype == np.float64 and records.shape[1] == 4
        assert records[:, 1].sum() == len(points)    # every point in exactly one item per zoom
    clusters = records = index.get_cluster_records(WORLD, 3)
    clusters = records[records[:, 1] > 1]
    for cid, count, _, _ in clusters[:20]:
        assert len(index.get_leaf_indices(cid)) == count
    # Pages of get_leaves together hold every leaf once.
    cid, count = clusters[0, 0], int(clusters[0, 1])
    pages = [f["properties"]["index"] for off in range(0, count, 10) for f in index.get_leaves(cid, 10, off)]
    assert sorted(pages) == sorted(index.get_leaf_indices(cid).tolist())


def test_aggregates_are_those_of_each_cluster_s_leaves(points):
    rng = np.random.default_rng(3)
    pop = rng.uniform(0, 100, len(points))
    pop[::5] = np.nan                                  # none for every fifth point
    aggregates = {op: (op, "pop") for op in cairn.AGGREGATE_OPERATIONS}
    index = ClusterIndex(aggregates=aggregates).load_coordinates(points, values={"pop": pop})
    features = [f for f in index.get_clusters(WORLD, 5) if f["properties"].get("cluster")][:30]
    assert features
    for f in features:
        leaves = index.get_leaf_indices(f["id"])
        v = pop[leaves]
        have = v[~np.isnan(v)]
        p = f["properties"]
        assert p["sum"] == pytest.approx(have.sum())
        assert p["count"] == len(have)
        if len(have):
            assert p["min"] == have.min() and p["max"] == have.max()
            assert p["mean"] == pytest.approx(have.mean())
    ids = np.array([f["id"] for f in features], dtype=np.float64)
    assert index.get_aggregates("sum", ids) == pytest.approx([f["properties"]["sum"] for f in features])


def test_geojson_load_keeps_the_caller_s_features_and_skips_missing_geometry():
    features = [{"type": "Feature", "id": f"p{i}", "properties": {"n": i},
                 "geometry": {"type": "Point", "coordinates": [10 + i * 1e-4, 20]}} for i in range(50)]
    features[3] = {"type": "Feature", "properties": {"n": 3}, "geometry": None}
    seen = []
    index = ClusterIndex(map=lambda p: {"n": p["n"]}, reduce=lambda acc, p: acc.update(n=acc["n"] + p["n"]),
                         aggregates={"top": ("max", "n")}).load(features)
    assert index.point_count == 49
    assert index.get_clusters(WORLD, 20)[0] is features[0]          # points come back as themselves
    (cluster,) = index.get_clusters(WORLD, 0)
    p = cluster["properties"]
    assert p["point_count"] == 49 and p["n"] == sum(range(50)) - 3 and p["top"] == 49
    assert cluster["id"] >= len(features)                           # ids lie above every input index
    leaves = index.get_leaves(cluster["id"], math.inf)
    assert features[3] not in leaves and len(leaves) == 49 and all(any(l is f for f in features) for l in leaves)
    tile = index.get_tile(20, *_tile_of(10 + 4e-4, 20, 20))
    assert any(f.get("id") == "p4" and f["tags"] == {"n": 4} for f in tile["features"])


def _tile_of(lng, lat, z):
    x = (lng + 180) / 360
    s = math.sin(math.radians(lat))
    y = 0.5 - 0.25 * math.log((1 + s) / (1 - s)) / math.pi
    return int(x * 2 ** z), int(y * 2 ** z)


def test_boxes_across_the_antimeridian():
    pts = np.array([[179.5, 0], [-179.5, 0], [0, 0]])
    index = ClusterIndex(max_zoom=4).load_coordinates(pts)
    got = sorted(f["properties"]["index"] for f in index.get_clusters([179, -10, -179, 10], 5))
    assert got == [0, 1]


@pytest.mark.parametrize("bad, code, detail", [
    ([[0, 0], [1, math.nan]], "NON_FINITE_COORDINATE", 1),
    ([[0, 0], [0, 0], [1, 91]], "LATITUDE_OUT_OF_RANGE", 2),
])
def test_bad_points_are_refused_with_their_index_and_load_nothing(bad, code, detail):
    index = ClusterIndex().load_coordinates([[5, 5]])
    with pytest.raises(CairnError) as info:
        index.load_coordinates(bad)
    assert info.value.code == code and info.value.detail == detail and info.value.status < 0
    assert str(detail) in str(info.value)
    assert index.point_count == 0 and index.get_clusters(WORLD, 0) == []


def test_errors_carry_the_engine_s_codes():
    with pytest.raises(CairnError) as info:
        ClusterIndex(radius=-1)
    assert (info.value.code, info.value.detail) == ("INVALID_OPTION", 0)
    with pytest.raises(CairnError) as info:
        ClusterIndex(min_zoom=5, max_zoom=3)
    assert info.value.code == "INVALID_OPTION" and info.value.detail == 3
    with pytest.raises(CairnError) as info:
        ClusterIndex(aggregates={"x": ("median", "v")})
    assert info.value.code == "INVALID_OPTION"
    index = ClusterIndex()
    with pytest.raises(CairnError) as info:
        index.get_clusters(WORLD, 0)
    assert info.value.code == "INVALID_STATE"
    index.load_coordinates(np.zeros((3, 2)))
    for call in (index.get_children, index.get_leaves, index.get_cluster_expansion_zoom):
        with pytest.raises(CairnError) as info:
            call(123456789)
        assert (info.value.code, info.value.detail) == ("UNKNOWN_CLUSTER", 123456789)
    with pytest.raises(CairnError) as info:
        index.get_tile(2, 9, 0)
    assert info.value.code == "INVALID_ARGUMENT"
    with pytest.raises(CairnError) as info:
        index.load([{"type": "Feature", "geometry": {"type": "LineString", "coordinates": []}}])
    assert (info.value.code, info.value.detail) == ("INVALID_ARGUMENT", 0)
    with pytest.raises(CairnError) as info:
        ClusterIndex(aggregates={"s": ("sum", "v")}).load_coordinates([[0, 0], [1, 1]], values={"v": [1, math.inf]})
    assert (info.value.code, info.value.detail) == ("NON_FINITE_VALUE", 1)
    with pytest.raises(CairnError) as info:
        ClusterIndex(aggregates={"s": ("sum", "v")}).load_coordinates([[0, 0]])
    assert info.value.code == "INVALID_ARGUMENT"
    with pytest.raises(CairnError) as info:
        index.load_coordinates(np.zeros((3, 3)))
    assert info.value.code == "INVALID_ARGUMENT"
    index.close()
    with pytest.raises(CairnError) as info:
        index.get_clusters(WORLD, 0)
    assert info.value.code == "INVALID_HANDLE"


def test_closed_indexes_give_their_memory_back():
    module = cairn.get_module()
    pts = np.random.default_rng(1).uniform(-60, 60, (200000, 2))
    start = module.memory_bytes()
    for _ in range(2):
        with ClusterIndex() as index:
            index.load_coordinates(pts)
    grown = module.memory_bytes()
    for _ in range(6):
        with ClusterIndex() as index:
            index.load_coordinates(pts)
    # A leak would keep each load's points and clusters (megabytes); allocator slack is a page or two.
    assert module.memory_bytes() - grown <= 256 * 1024 < 200000 * 16
    assert grown >= start


def test_an_index_alive_at_exit_does_not_crash_the_interpreter(tmp_path):
    # A failed test's report keeps its index alive until the interpreter tears everything
    # down, wasmtime's store included, in no set order: the run must end as failed, not crash.
    (tmp_path / "test_kept.py").write_text(
        "import numpy as np\n"
        "from cairn import ClusterIndex\n"
        "def test_fails():\n"
        "    index = ClusterIndex().load_coordinates(np.zeros((10, 2)))\n"
        "    assert index.get_clusters([-180, -90, 180, 90], 0) == []\n")
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path / "test_kept.py")],
                         capture_output=True, cwd=tmp_path)
    assert run.returncode == 1, (run.returncode, run.stdout.decode()[-2000:], run.stderr.decode()[-2000:])
