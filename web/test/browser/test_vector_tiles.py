"""The --mvt directory drawn by MapLibre GL JS (maplibre/srcjs/maplibre-gl.js from the PyPI
`maplibre` wheel, which the test command installs, copied here at test time) in headless
Chromium: clusters appear where getClusters puts them (pixel checks on a screenshot), and
nothing where it puts nothing."""

import importlib.util
import json
import math
import random
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

from harness import REPO, BrowserTestCase
from pixels import decode_png

CLI = REPO / "web" / "bin" / "cairn.js"
ZOOM = 1
CLUSTER_RGB = (220, 20, 60)
POINT_RGB = (30, 90, 220)
BACKGROUND_RGB = (255, 255, 255)

PAGE = """<!doctype html><meta charset=utf-8>
<link rel=stylesheet href="/vt/maplibre-gl.css">
<style>html, body, #map { margin: 0; width: 100%%; height: 100%%; }</style>
<div id=map></div>
<script src="/vt/maplibre-gl.js"></script>
<script>
  window.map = new maplibregl.Map({
    container: 'map', center: [0, 20], zoom: %(zoom)d, attributionControl: false, fadeDuration: 0,
    style: {
      version: 8,
      sources: { places: { type: 'vector', tiles: [location.origin + '/vt/tiles/{z}/{x}/{y}.mvt'], minzoom: 0, maxzoom: 5 } },
      layers: [
        { id: 'background', type: 'background', paint: { 'background-color': '#ffffff' } },
        { id: 'clusters', type: 'circle', source: 'places', 'source-layer': 'clusters', filter: ['has', 'point_count'],
          paint: { 'circle-color': 'rgb(%(cluster)s)', 'circle-radius': 9 } },
        { id: 'points', type: 'circle', source: 'places', 'source-layer': 'clusters', filter: ['!', ['has', 'point_count']],
          paint: { 'circle-color': 'rgb(%(point)s)', 'circle-radius': 4 } },
      ],
    },
  });
  window.map.on('idle', () => { window.idle = true; });
</script>"""


def maplibre_dir():
    """The wheel's srcjs folder, which holds MapLibre GL JS (found without importing the
    package, which would load its Python bindings)."""
    spec = importlib.util.find_spec("maplibre")
    if spec is None:
        raise RuntimeError("Python package maplibre not found (./build.sh test installs it)")
    return Path(spec.submodule_search_locations[0]) / "srcjs"


class VectorTilesOnMapLibreTest(BrowserTestCase):

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.work = Path(tempfile.mkdtemp(prefix="cairn-vt-browser-"))
        rng = random.Random(7)
        # Blobs of points and lone points spread over the world.
        features = []
        for lng, lat in ((-100, 40), (-60, -15), (10, 50), (30, 0), (100, 30), (140, -30)):
            for _ in range(40):
                features.append([lng + rng.gauss(0, 1.5), lat + rng.gauss(0, 1.5)])
        for _ in range(30):
            features.append([rng.uniform(-170, 170), rng.uniform(-60, 70)])
        csv = cls.work / "points.csv"
        csv.write_text("lng,lat\n" + "".join(f"{lng},{lat}\n" for lng, lat in features))
        subprocess.run(["node", str(CLI), "cluster", str(csv), "--mvt", str(cls.work / "tiles"), "--max-zoom", "5", "-q"],
                       check=True, cwd=REPO)
        zoom = subprocess.run(["node", str(CLI), "cluster", str(csv), "--zoom", str(ZOOM), "--max-zoom", "5", "-q"],
                              check=True, cwd=REPO, capture_output=True, text=True).stdout
        cls.items = json.loads(zoom)["features"]
        for name in ("maplibre-gl.js", "maplibre-gl.css"):
            shutil.copy(maplibre_dir() / name, cls.work / name)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.work, ignore_errors=True)
        super().tearDownClass()

    def serve_work(self, route):
        path = self.work / route.request.url.split("/vt/", 1)[1]
        if not path.is_file():
            # Empty tiles are not written; a host answers for them with nothing (204), which
            # MapLibre takes for an empty tile.
            return route.fulfill(status=204 if path.suffix == ".mvt" else 404, body="")
        kind = {".js": "text/javascript", ".css": "text/css", ".mvt": "application/vnd.mapbox-vector-tile"}.get(path.suffix, "application/octet-stream")
        return route.fulfill(status=200, content_type=kind, body=path.read_bytes())

    def test_clusters_are_drawn_where_getClusters_puts_them(self):
        self.page.route("**/vt/**", self.serve_work)
        self.page.route(self.url("/vt-page"), lambda route: route.fulfill(status=200, content_type="text/html", body=PAGE % {
            "zoom": ZOOM, "cluster": ",".join(map(str, CLUSTER_RGB)), "point": ",".join(map(str, POINT_RGB))}))
        self.page.goto(self.url("/vt-page"))
        self.page.wait_for_function("window.idle === true", timeout=60_000)
        rendered = self.page.evaluate("map.queryRenderedFeatures({layers: ['clusters', 'points']}).length")
        self.assertGreater(rendered, 0, "MapLibre drew features from the tiles")
        image = decode_png(self.screenshot("vector-tiles-maplibre").read_bytes())
        ratio = image.width / self.viewport["width"]
        clusters = [f for f in self.items if f["properties"].get("cluster")]
        self.assertGreater(len(clusters), 3)
        projected = self.page.evaluate("(all) => all.map(([lng, lat]) => { const p = map.project([lng, lat]); return [p.x, p.y]; })",
                                       [f["geometry"]["coordinates"] for f in self.items])
        width, height = self.viewport["width"], self.viewport["height"]
        checked = 0
        for f, (x, y) in zip(self.items, projected):
            if not (12 < x < width - 12 and 12 < y < height - 12):
                continue
            kind = "cluster" if f["properties"].get("cluster") else "point"
            rgb = CLUSTER_RGB if kind == "cluster" else POINT_RGB
            near = image.pixels((x - 1) * ratio, (y - 1) * ratio, (x + 2) * ratio, (y + 2) * ratio)
            # The item's own colour, or a cluster's drawn over a point (their circles may overlap).
            self.assertTrue(any(close(p, rgb) or close(p, CLUSTER_RGB) for p in near),
                            f"{kind} at {f['geometry']['coordinates']} ({x:.0f}, {y:.0f}): pixels {near[:3]}")
            checked += 1
        self.assertGreater(checked, 10)
        # Far from every item, the background only.
        far = [(gx, gy) for gx in range(20, width - 20, 40) for gy in range(20, height - 20, 40)
               if all(math.hypot(px - gx, py - gy) > 30 for px, py in projected)]
        self.assertGreater(len(far), 20)
        for gx, gy in far:
            self.assertTrue(close(image.pixel(gx * ratio, gy * ratio), BACKGROUND_RGB), f"empty place ({gx}, {gy})")


def close(a, b, tolerance=40):
    return all(abs(p - q) <= tolerance for p, q in zip(a, b))


if __name__ == "__main__":
    unittest.main()
