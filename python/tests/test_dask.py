"""Exact distributed clustering on a Dask LocalCluster started here: the membership of every
point at every zoom equals one ClusterIndex's on the same points."""

import os
import signal
import threading
import time

import numpy as np
import pandas as pd
import pytest

distributed = pytest.importorskip("distributed")

from cairn import CairnError, ClusterIndex
from cairn.dask import cluster_points
from cairn.dask import handover
from cairn.dask.halo import cluster_partition, radius_at
from cairn.dask.partitions import Box
from cairn.hierarchy import memberships

from conftest import clustered_points, decode, read_archive


@pytest.fixture(scope="module")
def client():
    # Worker processes: each loads its own module; one thread each, as an index wants.
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as c:
            yield c


def hard_points(n, seed):
    """Clustered points with dense spots on partition edges (so that decisions there reach
    beyond a first halo) and points on both sides of the antimeridian."""
    rng = np.random.default_rng(seed)
    spread = clustered_points(n * 6 // 10, seed)
    spots = []
    for lng, lat in [(0, 0), (-90, 30), (90, -40), (0.2, 66.6), (45, 0)]:
        k = n // 20
        spots.append(np.column_stack([lng + rng.normal(0, 0.05, k), lat + rng.normal(0, 0.05, k)]))
    k = n - len(spread) - sum(len(s) for s in spots)
    side = rng.choice([-1, 1], k)
    antimeridian = np.column_stack([side * (180 - rng.exponential(0.3, k)), rng.normal(10, 3, k)])
    antimeridian[:, 0] = np.clip(antimeridian[:, 0], -180, 179.999999)
    pts = np.concatenate([spread, *spots, antimeridian])
    return pts[rng.permutation(len(pts))]


def write_files(directory, pts, parts):
    paths = []
    for k, chunk in enumerate(np.array_split(pts, parts)):
        frame = pd.DataFrame({"name": [f"p{k}"] * len(chunk), "lng": chunk[:, 0], "lat": chunk[:, 1]})
        path = directory / (f"points-{k}.parquet" if k % 2 else f"points-{k}.csv")
        frame.to_parquet(path) if k % 2 else frame.to_csv(path, index=False)
        paths.append(str(path))
    return paths


def single_machine(pts, **options):
    with ClusterIndex(**options).load_coordinates(pts) as index:
        return memberships(index)


def test_every_zoom_equals_one_cluster_index(client, tmp_path):
    pts = hard_points(1_000_000, 11)
    paths = write_files(tmp_path, pts, 6)
    # A first halo of two radii at the hand-over zoom: too narrow near the dense spots.
    run = cluster_points(client, paths, max_zoom=16, partition_zoom=2, max_points=60_000, halo=radius_at(40, 512, 6) * 2)
    assert run.partitions >= 16
    assert run.reruns > 0, "the dense spots on partition edges need wider halos"
    assert run.handover_points is None, "the zooms below the hand-over come from the partitions' items"
    expected = single_machine(pts, max_zoom=16)
    assert run.zooms == sorted(expected)
    for z in expected:
        assert np.array_equal(run.labels(z), expected[z]), f"zoom {z}"
    # Clusters really span partitions and the antimeridian stays apart, as in one index.
    east = pts[:, 0] > 179
    west = pts[:, 0] < -179
    assert not np.intersect1d(run.labels(0)[east], run.labels(0)[west]).size


def features(data):
    """A tile's features as comparable values, in no particular order."""
    return sorted((f.get("id"), tuple(f["geometry"]["coordinates"]), sorted(f["properties"].items()))
                  for f in decode(data))


def test_the_run_writes_the_archive_one_index_writes(client, tmp_path):
    pts = hard_points(60_000, 21)
    paths = write_files(tmp_path, pts, 4)
    # Small partitions, deep ones at the dense spots: tiles inside one partition, tiles across
    # several, and tiles on the antimeridian, at every zoom from the hand-over zoom up.
    run = cluster_points(client, paths, max_zoom=12, partition_zoom=2, max_points=4_000, labels=False,
                         halo=radius_at(40, 512, 6) * 2, pmtiles=tmp_path / "run.pmtiles", feature_ids=True,
                         attribution="© test")
    assert run.partitions >= 16 and run.tiles > 1000
    with pytest.raises(CairnError):
        run.labels(3)
    with ClusterIndex(max_zoom=12).load_coordinates(pts) as index:
        written = index.write_pmtiles(tmp_path / "one.pmtiles", feature_ids=True, attribution="© test")
    header, metadata, tiles = read_archive(tmp_path / "run.pmtiles")
    one_header, one_metadata, one_tiles = read_archive(tmp_path / "one.pmtiles")
    assert run.tiles == written == len(tiles)
    assert sorted(tiles) == sorted(one_tiles)
    for key in one_tiles:
        assert features(tiles[key]) == features(one_tiles[key]), key
    assert metadata == one_metadata
    for field in ("min_zoom", "max_zoom", "min_lon_e7", "max_lat_e7", "addressed_tiles_count", "clustered"):
        assert header[field] == one_header[field], field
    assert not [name for name in os.listdir(tmp_path) if name.startswith(".cairn")], "no temporary files are left"


def test_a_dask_dataframe_gives_the_same_clusters(client):
    dd = pytest.importorskip("dask.dataframe")
    pts = hard_points(40_000, 5)
    frame = dd.from_pandas(pd.DataFrame({"lon": pts[:, 0], "lat": pts[:, 1]}), npartitions=3)
    run = cluster_points(client, frame, lng="lon", max_zoom=14, radius=60, partition_zoom=2, max_points=4_000)
    expected = single_machine(pts, max_zoom=14, radius=60)
    for z in expected:
        assert np.array_equal(run.labels(z), expected[z]), f"zoom {z}"


def test_a_worker_killed_during_a_run_changes_nothing(client, tmp_path):
    pts = hard_points(30_000, 3)
    paths = write_files(tmp_path, pts, 4)
    outcome = {}

    def run():
        try:
            outcome["run"] = cluster_points(client, paths, max_zoom=15, partition_zoom=2, max_points=3_000)
        except BaseException as error:  # re-raised below, in the test's thread
            outcome["error"] = error

    thread = threading.Thread(target=run)
    thread.start()
    killed = None
    deadline = time.monotonic() + 120
    while killed is None and thread.is_alive() and time.monotonic() < deadline:
        busy = [w for w, keys in client.processing().items() if any("cluster_partition" in str(k) for k in keys)]
        if busy:
            killed = client.run(os.getpid, workers=busy[:1])[busy[0]]
            os.kill(killed, signal.SIGKILL)
        time.sleep(0.05)
    thread.join()
    if "error" in outcome:
        raise outcome["error"]
    assert killed is not None, "a worker was killed while it clustered a partition"
    assert killed not in client.run(os.getpid).values()
    expected = single_machine(pts, max_zoom=15)
    for z in expected:
        assert np.array_equal(outcome["run"].labels(z), expected[z]), f"zoom {z}"


def test_the_hand_over_clusters_the_items_or_every_point_when_in_doubt(monkeypatch):
    # In this process: one partition holding the world, its items at the hand-over zoom 6.
    pts = hard_points(20_000, 8)
    options = {"radius": 40.0, "extent": 512.0, "min_zoom": 0, "max_zoom": 12, "min_points": 2}
    part = cluster_partition(Box(0, 0, 0), 0.0, options, 6, (np.arange(len(pts)), pts))
    assert part["ok"]
    expected = single_machine(pts, max_zoom=12)
    below = handover.cluster_items(options, 6, 1, None, part)
    assert "doubt" not in below
    at = np.searchsorted(below["ranks"], part["labels"][6])
    for z in range(6):
        assert np.array_equal(below["labels"][z][at], expected[z]), f"zoom {z}"
    # A bound on the sums' rounding far too wide puts decisions in doubt; every point then.
    monkeypatch.setattr(handover, "PER_TERM", 1e-4)
    zoom, pairs = handover.cluster_items(options, 6, 1, None, part)["doubt"]
    assert zoom < 6 and pairs > 0
    every = handover.cluster_all_points(options, 6, 1, part, pts)
    for z in range(6):
        assert np.array_equal(every[z], expected[z]), f"zoom {z}"


def test_pairs_on_the_radius_within_a_centroid_s_rounding_are_in_doubt():
    r = 1e-3
    x = np.array([0.5, 0.5 + r, 0.5 + 2.5 * r])
    y = np.array([0.25, 0.25, 0.25])
    # The float32 positions decide: place the second exactly one radius from the first's centroid.
    x[1] = float(np.float32(0.5 + r))
    r = x[1] - x[0]
    assert handover._pairs_in_doubt(x, y, np.zeros(3), r) == 0, "nothing perturbed, nothing in doubt"
    assert handover._pairs_in_doubt(x, y, np.array([1e-15, 0, 0]), r) == 1
    assert handover._pairs_in_doubt(x, y, np.array([0, 0, 1e-15]), r) == 0, "the third is far from both"


def test_min_points_other_than_two_is_refused(client):
    with pytest.raises(CairnError) as info:
        cluster_points(client, [], min_points=3)
    assert info.value.code == "INVALID_ARGUMENT" and "min_points" in str(info.value)


@pytest.mark.parametrize("value, code, text", [
    ("abc", "NON_FINITE_COORDINATE", "row 3 (line 4)"),
    ("95", "LATITUDE_OUT_OF_RANGE", "row 3 (line 4): latitude '95'"),
])
def test_bad_rows_are_refused_with_the_file_and_row(client, tmp_path, value, code, text):
    good = tmp_path / "good.csv"
    good.write_text("lng,lat\n1,2\n3,4\n")
    bad = tmp_path / "bad.csv"
    bad.write_text(f"lng,lat\n1,2\n3,4\n5,{value}\n7,8\n")
    with pytest.raises(CairnError) as info:
        cluster_points(client, [str(good), str(bad)])
    assert info.value.code == code and info.value.detail == 3
    assert str(info.value).startswith("bad.csv: " + text)


def refusal(client, paths, **options):
    """The message of the INVALID_ARGUMENT a run of ``paths`` with ``options`` is refused with."""
    with pytest.raises(CairnError) as info:
        cluster_points(client, [str(p) for p in paths], **options)
    assert info.value.code == "INVALID_ARGUMENT"
    return str(info.value)


def test_a_missing_column_is_refused_with_the_file(client, tmp_path):
    path = tmp_path / "other.csv"
    path.write_text("x,y\n1,2\n")
    assert "other.csv" in refusal(client, [path])


def test_a_source_without_points_and_bad_tile_options_are_refused(client, tmp_path):
    path = tmp_path / "empty.csv"
    path.write_text("lng,lat\n")
    assert "no points" in refusal(client, [path])
    good = tmp_path / "good.csv"
    good.write_text("lng,lat\n1,2\n3,4\n")
    for options, text in [({"tile_extent": 1000}, "power of two"), ({"layer": " "}, "layer"),
                          ({"pmtiles": tmp_path / "missing" / "out.pmtiles"}, "does not exist")]:
        assert text in refusal(client, [good], **{"pmtiles": tmp_path / "out.pmtiles", **options}), options
    assert not (tmp_path / "out.pmtiles").exists()
    assert not [name for name in os.listdir(tmp_path) if name.startswith(".cairn")]
