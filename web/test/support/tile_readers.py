"""Real readers of the tiles cairn writes, for the JS tests: prints JSON on standard output.

  tile_readers.py mvt FILE...        every file decoded by mapbox-vector-tile
  tile_readers.py pmtiles FILE       the archive read by the pmtiles package: header, metadata,
                                     every tile (gunzipped and decoded by mapbox-vector-tile)

Each property comes as [value, Python type name], so the tests see how values were typed; a
feature's id is null when the tile gives it none.
"""
import gzip
import json
import sys

from mapbox_vector_tile.decoder import TileData
from pmtiles.reader import MmapSource, Reader, all_tiles


def typed(layers):
    out = {}
    for name, layer in layers.items():
        out[name] = {
            "extent": layer["extent"],
            "version": layer.get("version"),
            "features": [
                {
                    "id": f.get("id"),
                    "type": f["geometry"]["type"],
                    "coordinates": f["geometry"]["coordinates"],
                    "properties": {k: [v, type(v).__name__] for k, v in f["properties"].items()},
                }
                for f in layer["features"]
            ],
        }
    return out


def decode(data):
    tile = TileData(data, default_options={"y_coord_down": True})
    layers = tile.get_message()
    # The decoder gives a feature without an id the protobuf default, 0.
    for layer in tile.tile.layers:
        for feature, raw in zip(layers[layer.name]["features"], layer.features):
            if not raw.HasField("id"):
                feature["id"] = None
    return typed(layers)


def main():
    command, *paths = sys.argv[1:]
    if command == "mvt":
        result = [decode(open(p, "rb").read()) for p in paths]
    elif command == "pmtiles":
        with open(paths[0], "rb") as f:
            source = MmapSource(f)
            reader = Reader(source)
            header = reader.header()
            header = {k: (v.name if hasattr(v, "name") else v) for k, v in header.items()}
            tiles = []
            for (z, x, y), data in all_tiles(source):
                raw = gzip.decompress(data)
                tiles.append({"z": z, "x": x, "y": y, "bytes": len(raw), "layers": decode(raw)})
            result = {"header": header, "metadata": reader.metadata(), "tiles": tiles}
    else:
        raise SystemExit(f"unknown command {command}")
    json.dump(result, sys.stdout)


if __name__ == "__main__":
    main()
