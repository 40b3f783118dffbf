"""Vector tiles and PMTiles archives from Python, read by the real readers (PyPI pmtiles and
mapbox-vector-tile) and compared with the command line's archive of the same points and with
get_tile's own features."""

import gzip
import json
import os
import subprocess

import mapbox_vector_tile
import numpy as np
import pytest

from cairn import CairnError, ClusterIndex

from conftest import clustered_points, decode, read_archive

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def with_antimeridian(points):
    extra = np.array([[180.0, 10.0], [-179.9999, 10.0], [179.99, -40.0], [-180.0, -40.0]] * 25)
    return np.vstack([points, extra])


def test_the_archive_holds_the_command_lines_tiles_and_metadata(tmp_path):
    pts = with_antimeridian(clustered_points(6000, 11))
    csv = tmp_path / "points.csv"
    csv.write_text("lng,lat\n" + "".join(f"{a!r},{b!r}\n" for a, b in pts.tolist()))
    subprocess.run(["node", os.path.join(REPO, "web", "bin", "cairn.js"), "cluster", str(csv),
                    "--pmtiles", str(tmp_path / "cli.pmtiles"), "--max-zoom", "7", "--attribution", "© test", "-q"],
                   check=True)
    index = ClusterIndex(max_zoom=7).load_coordinates(pts)
    progress = []
    written = index.write_pmtiles(tmp_path / "py.pmtiles", attribution="© test",
                                  on_progress=lambda *p: progress.append(p))
    assert progress == [("tiles", z + 1, 8) for z in range(8)]

    header, metadata, tiles = read_archive(tmp_path / "py.pmtiles")
    cli_header, cli_metadata, cli_tiles = read_archive(tmp_path / "cli.pmtiles")
    assert written == len(tiles) == len(cli_tiles) > 500
    assert {k: gzip.decompress(v) for k, v in tiles.items()} == {k: gzip.decompress(v) for k, v in cli_tiles.items()}
    assert metadata == cli_metadata
    assert metadata["attribution"] == "© test"
    assert metadata["vector_layers"][0]["fields"]["cluster_id"] == "Number"
    for field in ("tile_type", "tile_compression", "min_zoom", "max_zoom", "min_lon_e7", "max_lat_e7",
                  "center_zoom", "addressed_tiles_count", "tile_entries_count", "tile_contents_count", "clustered"):
        assert header[field] == cli_header[field], field
    assert (header["min_zoom"], header["max_zoom"]) == (0, 7)

    # Every tile decodes to getTile's features for it, at the archive's extent and buffer.
    for (z, x, y), data in tiles.items():
        features = decode(data)
        expected = index.get_tile(z, x, y, extent=4096, buffer=80)["features"]
        assert len(features) == len(expected)
        assert sorted((f["geometry"]["coordinates"][0], f["geometry"]["coordinates"][1],
                       f["properties"].get("point_count", 1)) for f in features) == \
            sorted((f["geometry"][0][0], f["geometry"][0][1], f["tags"].get("point_count", 1)) for f in expected)
    # And no non-empty tile is missing, checked tile by tile where that is cheap.
    for z in range(5):
        for x in range(2 ** z):
            for y in range(2 ** z):
                assert (index.get_tile(z, x, y, extent=4096, buffer=80) is not None) == ((z, x, y) in tiles)


def test_features_keep_their_properties_types_aggregates_and_ids(tmp_path):
    pts = clustered_points(3000, 5)
    features = [{"type": "Feature", "id": f"p{i}",
                 "properties": {"name": f"place {i}", "size": i % 7, "ratio": i / 8, "open": i % 2 == 0,
                                "gone": None, "tags": {"kind": "x", "n": i}} if i % 50 else None,
                 "geometry": {"type": "Point", "coordinates": p}}
                for i, p in enumerate(pts.tolist())]
    index = ClusterIndex(max_zoom=6, aggregates={"total": ("sum", "size")}).load(features)
    index.write_pmtiles(tmp_path / "a.pmtiles", extent=512, buffer=16, layer="clusters", feature_ids=True)
    _, metadata, tiles = read_archive(tmp_path / "a.pmtiles")
    fields = metadata["vector_layers"][0]["fields"]
    assert fields["name"] == "String" and fields["ratio"] == "Number" and fields["open"] == "Boolean"
    assert fields["total"] == "Number" and fields["tags"] == "String" and "gone" not in fields
    clusters = points = 0
    for (z, x, y), data in tiles.items():
        expected = {(f["geometry"][0][0], f["geometry"][0][1], f["id"] if (f["tags"] or {}).get("cluster") else None):
                    f for f in index.get_tile(z, x, y, extent=512, buffer=16)["features"]}
        for f in decode(data, extent=512):
            p = f["properties"]
            if p.get("cluster"):
                clusters += 1
                e = expected[(*f["geometry"]["coordinates"], f["id"])]["tags"]
                assert p == {"cluster": True, "cluster_id": f["id"], "point_count": e["point_count"],
                             "point_count_abbreviated": e["point_count_abbreviated"], "total": e["total"]}
            else:
                points += 1
                source = features[f["id"]]
                assert list(f["geometry"]["coordinates"]) in [[*k[:2]] for k in expected if k[2] is None]
                if source["properties"] is None:
                    assert p == {}
                else:
                    assert p == {"name": source["properties"]["name"], "size": source["properties"]["size"],
                                 "ratio": source["properties"]["ratio"], "open": source["properties"]["open"],
                                 "tags": json.dumps(source["properties"]["tags"])}
    assert clusters > 100 and points > 100


def test_cluster_ids_can_be_left_out_as_on_the_command_line(tmp_path, points):
    index = ClusterIndex(max_zoom=5).load_coordinates(points)
    index.write_pmtiles(tmp_path / "full.pmtiles", feature_ids=True)
    index.write_pmtiles(tmp_path / "bare.pmtiles", feature_ids=True, cluster_id=False)
    _, full_meta, full = read_archive(tmp_path / "full.pmtiles")
    _, bare_meta, bare = read_archive(tmp_path / "bare.pmtiles")
    assert "cluster_id" in full_meta["vector_layers"][0]["fields"]
    assert "cluster_id" not in bare_meta["vector_layers"][0]["fields"]
    assert full.keys() == bare.keys()
    for key in full:
        for f, g in zip(decode(full[key]), decode(bare[key])):
            assert g["id"] == f["id"]
            assert g["properties"] == {k: v for k, v in f["properties"].items() if k != "cluster_id"}
            if f["properties"].get("cluster"):
                assert f["id"] == f["properties"]["cluster_id"]
    assert os.path.getsize(tmp_path / "bare.pmtiles") < os.path.getsize(tmp_path / "full.pmtiles")


@pytest.mark.parametrize("cluster_id", [True, False])
def test_coordinates_make_the_same_archive_as_features_without_properties(tmp_path, cluster_id):
    # Coordinates alone take the engine's batch of tiles per call, features with properties
    # the tile-by-tile path: the same tiles either way, down to abbreviations of halves
    # (1,250 points: "1.3k", as supercluster's Math.round gives).
    rng = np.random.default_rng(5)
    pts = np.vstack([clustered_points(3000, 4), 30 + rng.normal(0, 1e-4, (1250, 2))])
    features = [{"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": p}}
                for p in pts.tolist()]
    paths = {}
    for name, index in [("coordinates", ClusterIndex(max_zoom=6).load_coordinates(pts)),
                        ("features", ClusterIndex(max_zoom=6).load(features))]:
        paths[name] = tmp_path / f"{name}.pmtiles"
        index.write_pmtiles(paths[name], feature_ids=True, cluster_id=cluster_id)
    _, meta, tiles = read_archive(paths["coordinates"])
    _, other_meta, other = read_archive(paths["features"])
    assert meta == other_meta
    assert {k: gzip.decompress(v) for k, v in tiles.items()} == {k: gzip.decompress(v) for k, v in other.items()}
    spot = [f for data in tiles.values() for f in decode(data) if f["properties"].get("point_count") == 1250]
    assert spot and spot[0]["properties"]["point_count_abbreviated"] == "1.3k"
    assert ("cluster_id" in spot[0]["properties"]) == cluster_id


def test_a_single_tile_as_mvt_and_the_tile_cover(points):
    index = ClusterIndex(max_zoom=8).load_coordinates(points)
    for z in range(6):
        cover = {tuple(t) for t in index.get_tile_cover(z).tolist()}
        ordered = index.get_tile_cover(z, order="pmtiles").tolist()
        assert {tuple(t) for t in ordered} == cover and len(ordered) == len(cover)
        for x in range(2 ** z):
            for y in range(2 ** z):
                tile = index.get_tile(z, x, y)
                if tile is None:
                    assert index.get_tile(z, x, y, format="mvt") is None
                    continue
                assert (x, y) in cover
                if z == 3:
                    features = mapbox_vector_tile.decode(index.get_tile(z, x, y, format="mvt", extent=512, buffer=40),
                                                         default_options={"y_coord_down": True})["clusters"]["features"]
                    assert sorted((*f["geometry"]["coordinates"], f["properties"].get("point_count", 1)) for f in features) == \
                        sorted((*f["geometry"][0], f["tags"].get("point_count", 1)) for f in tile["features"])
    assert index.get_tile_cover(1, order="pmtiles").tolist() == [[0, 0], [0, 1], [1, 1], [1, 0]]


def test_a_failed_run_leaves_the_earlier_file_and_no_temporaries(tmp_path, points):
    index = ClusterIndex(max_zoom=6).load_coordinates(points)
    target = tmp_path / "out.pmtiles"
    target.write_bytes(b"earlier")

    def stop(phase, done, total):
        if done == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        index.write_pmtiles(target, on_progress=stop)
    assert target.read_bytes() == b"earlier"
    assert sorted(os.listdir(tmp_path)) == ["out.pmtiles"]
    # The index and the module are fine afterwards.
    assert index.write_pmtiles(target) > 0
    assert read_archive(target)[0]["max_zoom"] == 6
    assert sorted(os.listdir(tmp_path)) == ["out.pmtiles"]


@pytest.mark.parametrize("options", [{"extent": 1000}, {"extent": 8}, {"extent": True}, {"extent": 4096.5},
                                     {"layer": ""}, {"layer": "  "}, {"buffer": -1}, {"buffer": 5000},
                                     {"on_progress": 3}])
def test_bad_options_are_refused_before_anything_is_written(tmp_path, points, options):
    index = ClusterIndex(max_zoom=4).load_coordinates(points)
    with pytest.raises(CairnError) as caught:
        index.write_pmtiles(tmp_path / "x.pmtiles", **options)
    assert caught.value.code == "INVALID_ARGUMENT"
    assert os.listdir(tmp_path) == []


def test_unusable_paths_and_indexes_are_errors(tmp_path, points):
    index = ClusterIndex(max_zoom=4).load_coordinates(points)
    with pytest.raises(CairnError, match="does not exist") as caught:
        index.write_pmtiles(tmp_path / "missing" / "x.pmtiles")
    assert caught.value.code == "INVALID_ARGUMENT"
    with pytest.raises(CairnError) as caught:
        ClusterIndex().write_pmtiles(tmp_path / "x.pmtiles")
    assert caught.value.code == "INVALID_STATE"
    index.close()
    with pytest.raises(CairnError):
        index.write_pmtiles(tmp_path / "x.pmtiles")
    with pytest.raises(CairnError) as caught:
        ClusterIndex().load_coordinates(points).get_tile(0, 0, 0, format="svg")
    assert caught.value.code == "INVALID_ARGUMENT"
    assert os.listdir(tmp_path) == []
