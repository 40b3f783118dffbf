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
from cairn.dask.halo import radius_at
from cairn.hierarchy import memberships

from conftest import clustered_points


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
    pts = hard_points(100_000, 11)
    paths = write_files(tmp_path, pts, 6)
    # A first halo of two radii at the hand-over zoom: too narrow near the dense spots.
    run = cluster_points(client, paths, max_zoom=16, partition_zoom=2, max_points=6_000, halo=radius_at(40, 512, 6) * 2)
    assert run.partitions >= 16
    assert run.reruns > 0, "the dense spots on partition edges need wider halos"
    expected = single_machine(pts, max_zoom=16)
    assert run.zooms == sorted(expected)
    for z in expected:
        assert np.array_equal(run.labels(z), expected[z]), f"zoom {z}"
    # Clusters really span partitions and the antimeridian stays apart, as in one index.
    east = pts[:, 0] > 179
    west = pts[:, 0] < -179
    assert not np.intersect1d(run.labels(0)[east], run.labels(0)[west]).size


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


def test_a_missing_column_is_refused_with_the_file(client, tmp_path):
    path = tmp_path / "other.csv"
    path.write_text("x,y\n1,2\n")
    with pytest.raises(CairnError) as info:
        cluster_points(client, [str(path)])
    assert info.value.code == "INVALID_ARGUMENT" and "other.csv" in str(info.value)
