#!/usr/bin/env python3
"""Cairn's Leaflet and MapLibre layers beside the clustering of those libraries' own, in one
headless Chromium run: Leaflet.markercluster (Debian's libjs-leaflet.markercluster) against Cairn's
Leaflet layer with the same L.Markers at 10,000, 50,000 and 100,000 points (and Cairn's layer
alone at 1,000,000, given as coordinates), and MapLibre GL JS's GeoJSON source with `cluster: true`
against Cairn's MapLibre layer at 100,000 and 1,000,000. Prints numbers; asserts nothing.

    python3 web/bench/host-bench.py [--sizes-leaflet N,N,…] [--sizes-maplibre N,N,…] [--markdown FILE]

Each case runs in a fresh page (web/bench/hosts/host-bench.html), on the demo's synthetic points:
the Leaflet cases in one browser with software raster, the MapLibre ones in another with WebGL
on SwiftShader. Load: from creating the cluster layer (the libraries loaded, Cairn's WebAssembly module
instantiated, the markers or features already made) until the clusters are drawn. Heap: the
page's JS heap after a garbage collection, after the load (MapLibre's worker, where its GeoJSON
source clusters, is not counted). Pan: a mouse drag dispatched one step per animation frame
(MapLibre: a panBy per frame), and 30 frames after it; zoom: three animated zooms in and three
out. Frame times are the intervals between animation frames, so they include the browser's
painting.
"""

import argparse
import importlib.util
import os
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "test" / "browser"))
from harness import CHROMIUM_ARGS, DemoServer, missing_dependency  # noqa: E402

# The browser benchmark's machine line and table writer, shared by the browser tables.
_spec = importlib.util.spec_from_file_location("browser_bench", Path(__file__).resolve().parent / "browser-bench.py")
_browser_bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_browser_bench)
machine_line, markdown_table = _browser_bench.machine_line, _browser_bench.markdown_table
# Leaflet draws with the DOM and 2D canvases: software raster, as the demo's own benchmark runs
# (SwiftShader's emulated GPU is slower for them on this machine). MapLibre needs WebGL: SwiftShader.
SOFTWARE = _browser_bench.RASTER["software"][0]

VIEWPORT = {"width": 1024, "height": 768}
PAGE = "/web/bench/hosts/host-bench.html"
REPO = Path(__file__).resolve().parents[2]
VENDOR = REPO / "web" / "demo" / "vendor"
# The page's JS heap, to the byte, and a garbage collection before reading it.
FLAGS = ["--enable-precise-memory-info", "--js-flags=--expose-gc"]
NAMES = {
    "leaflet-markercluster": "Leaflet.markercluster",
    "leaflet-cairn": "Cairn's Leaflet layer",
    "leaflet-cairn-coordinates": "Cairn's Leaflet layer, addCoordinates",
    "maplibre-geojson": "MapLibre GeoJSON source, cluster: true",
    "maplibre-cairn": "Cairn's MapLibre layer, addCoordinates",
}


def run_case(browser, server, case, n):
    page = browser.new_page(viewport=VIEWPORT)
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(f"{server.origin}{PAGE}?case={case}")
        page.wait_for_function("window.ready === true", timeout=120_000)
        result = page.evaluate("(n) => bench.run(n)", n)
    finally:
        page.close()
    if errors:
        raise RuntimeError(f"{case} at {n}: {errors}")
    result.update(case=case, n=n)
    r = result
    print(f"{NAMES[case]}, {n:,} points: load {r['loadMs'] / 1000:.2f} s, heap {r['heapMB']:.0f} MB, "
          f"pan median {r['pan']['median']:.1f} ms p95 {r['pan']['p95']:.1f} ms max {r['pan']['max']:.1f} ms, "
          f"zoom median {r['zoom']['median']:.1f} ms p95 {r['zoom']['p95']:.1f} ms max {r['zoom']['max']:.1f} ms, "
          f"{r['drawn']} drawn", flush=True)
    return result


def rows_of(results):
    frames = lambda f: f"{f['median']:.1f} / {f['p95']:.1f} / {f['max']:.1f}"  # noqa: E731
    return [[NAMES[r["case"]], f"{r['n']:,}", f"{r['loadMs'] / 1000:.2f} s", f"{r['heapMB']:.0f} MB",
             frames(r["pan"]), frames(r["zoom"])] for r in results]


def ratios(results, peer, cairn):
    """Cairn's load speed over the peer's, at each size both ran."""
    out = []
    for p in (r for r in results if r["case"] == peer):
        c = next((r for r in results if r["case"] == cairn and r["n"] == p["n"]), None)
        if c:
            out.append(f"{p['n']:,}: {p['loadMs'] / c['loadMs']:.0f}×")
    return ", ".join(out)


def load_average():
    """The machine's 1-minute load average, or None where the system does not tell."""
    try:
        return os.getloadavg()[0]
    except (AttributeError, OSError):
        return None


def write_markdown(path, chromium, leaflet, maplibre, loads):
    header = ["layer", "points", "load", "JS heap", "pan frames: median / p95 / max (ms)", "zoom frames: median / p95 / max (ms)"]
    about = ("`python3 web/bench/host-bench.py`: headless Chromium, a "
             f"{VIEWPORT['width']}×{VIEWPORT['height']} map without a basemap, each case in a fresh page, on the demo's "
             "synthetic points; the Leaflet cases with software raster, the MapLibre ones with WebGL on SwiftShader. Load: from making the cluster layer (the libraries loaded, Cairn's "
             "WebAssembly module instantiated, the markers or features already made) until the clusters are drawn. Heap: the page's JS heap after a "
             "garbage collection (MapLibre's worker, where its GeoJSON source clusters, is not counted). Frames: intervals "
             "between animation frames during a mouse drag (MapLibre: a `panBy` each frame) and 30 frames after it, and "
             "during three animated zooms in and three out.")
    if None not in loads:
        about += f" The machine's load average (1 minute) was {loads[0]:.1f} at the start and {loads[1]:.1f} at the end."
    parts = ["## Browser: Cairn in Leaflet and MapLibre", f"*{machine_line(chromium)}*", about]
    if leaflet:
        parts += ["Leaflet 1.7 (Debian's `libjs-leaflet`) with Leaflet.markercluster (`libjs-leaflet.markercluster`), "
                  f"both layers given the same `L.Marker`s. Cairn's load is faster by {ratios(leaflet, 'leaflet-markercluster', 'leaflet-cairn')}.",
                  markdown_table(header, rows_of(leaflet))]
    if maplibre:
        parts += ["MapLibre GL JS (PyPI's `maplibre` package), WebGL on SwiftShader: MapLibre's own clustering (a GeoJSON "
                  f"source, `cluster: true`, drawn as circles) against Cairn's layer. Cairn shows its clusters sooner by "
                  f"{ratios(maplibre, 'maplibre-geojson', 'maplibre-cairn')}.",
                  markdown_table(header, rows_of(maplibre))]
    Path(path).write_text("\n\n".join(parts) + "\n", encoding="utf-8")
    print(f"wrote {path}", flush=True)


def sizes(text):
    return [int(s) for s in text.split(",") if s]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes-leaflet", type=sizes, default=[10_000, 50_000, 100_000])
    parser.add_argument("--cairn-alone", type=int, default=1_000_000, help="Cairn's Leaflet layer alone (0: not run)")
    parser.add_argument("--sizes-maplibre", type=sizes, default=[100_000, 1_000_000])
    parser.add_argument("--markdown", metavar="FILE", help="also write the figures as a Markdown table to FILE")
    args = parser.parse_args()
    reason = missing_dependency()
    if reason or not (VENDOR / "leaflet" / "leaflet.markercluster.js").exists() or not (VENDOR / "maplibre" / "maplibre-gl.js").exists():
        print(f"host-bench: cannot run: {reason or 'the host libraries are not in web/demo/vendor (./build.sh bench copies them)'}",
              file=sys.stderr)
        return 1
    from playwright.sync_api import sync_playwright
    start_load = load_average()
    server = DemoServer()
    try:
        with sync_playwright() as p:
            launch = lambda extra: p.chromium.launch(executable_path=shutil.which("chromium"), headless=True,  # noqa: E731
                                                      args=CHROMIUM_ARGS + FLAGS + extra)
            browser = launch(SOFTWARE)
            version = browser.version
            leaflet = []
            for n in args.sizes_leaflet:
                for case in ("leaflet-markercluster", "leaflet-cairn"):
                    leaflet.append(run_case(browser, server, case, n))
            if args.cairn_alone:
                leaflet.append(run_case(browser, server, "leaflet-cairn-coordinates", args.cairn_alone))
            browser.close()
            browser = launch([])
            maplibre = []
            for n in args.sizes_maplibre:
                for case in ("maplibre-geojson", "maplibre-cairn"):
                    maplibre.append(run_case(browser, server, case, n))
            browser.close()
    finally:
        server.stop()
    if args.markdown:
        write_markdown(args.markdown, version, leaflet, maplibre, (start_load, load_average()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
