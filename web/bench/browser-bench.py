#!/usr/bin/env python3
"""The demo page's figures in headless Chromium: loading the million synthetic points from their
binary file into a cluster manager, and a scripted pan and zoom over them. Prints numbers;
asserts nothing.

    python3 web/bench/browser-bench.py [--runs N] [--seconds S] [--raster gpu|software|both] [--markdown FILE]

The load is timed in the page around `demo.load('synthetic')`: fetching and parsing the file,
clustering it in a worker (WorkerClusterIndex), showing the worker's index on the page
(ClusterIndex.from and the manager's useIndex), and the demo's wait for its progress text to
paint; a page timer meanwhile measures the page's longest stall. Each run has a
fresh page that started with no data (`?dataset=none`), so every load starts from nothing.

The pan and zoom runs in the page on requestAnimationFrame: each animation frame dispatches the
pointer and wheel events a user's mouse would send to the map, so the input takes a user's path
(the DOM listeners, the engine's batched input and its gesture recognizer) and its timing does
not hang on round trips of the DevTools protocol. Drags and wheel turns take turns every half
second; the zoom follows 3 → 12 → 3 over the run, wheeled about the place where the data is
most spread out, and the drags go round that place: a user looking around what they came to
see, and the busiest views this data has (a tight blob is one icon at any zoom).

Per frame: "engine" and "frame" are the map's own figures (the engine's part, and that plus
issuing the canvas calls, as `map.stats` records them); "until painted" runs from the frame's
start until the browser has also laid out, painted and committed it (a software canvas is
rasterised then, on the same thread); "between frames" is the pace a user sees.

Headless Chromium in a container has no GPU. With the browser tests' flags (`--raster gpu`) it
emulates one with SwiftShader, which rasterises and composites on the CPU, on every core it can
get; `--raster software` turns the GPU off so that Skia draws on the CPU directly. `--raster
both`, the default, runs the pan and zoom each way.
"""

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

# The browser tests' plumbing: the demo server and the flags Chromium needs in a container.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "test" / "browser"))
from harness import CHROMIUM_ARGS, DemoServer, missing_dependency  # noqa: E402

VIEWPORT = {"width": 1024, "height": 768}
PAGE = "/web/demo/?dataset=none&showcase=0"
DATA = Path(__file__).resolve().parents[1] / "demo" / "data" / "synthetic-1m.bin"
DATA_URL = "/web/demo/data/synthetic-1m.bin"
TARGETS = "targets: load 2 s; frame median 8 ms; engine p95 2 ms"

# Times the load in the page, and the page's longest stall meanwhile (a timer due every 16 ms,
# measured by how late it runs): the demo clusters the hierarchy in a worker and shows the
# worker's index on the page (`ClusterIndex.from`, then the manager's `useIndex`).
LOAD_JS = """async () => {
  const late = [];
  let due = performance.now() + 16;
  const timer = setInterval(() => { const now = performance.now(); late.push(now - due); due = now + 16; }, 16);
  const t0 = performance.now();
  try {
    const result = await demo.load('synthetic');
    return { ...result, totalMs: performance.now() - t0, stallMs: Math.max(0, ...late) };
  } finally {
    clearInterval(timer);
  }
}"""

# The scripted pan and zoom; resolves with every frame's figures.
PAN_ZOOM_JS = """async ({ seconds, dataUrl }) => {
  const { percentiles } = await import('/web/src/map/frame-stats.js');
  const element = document.getElementById('map');
  const box = element.getBoundingClientRect();
  const W = box.width, H = box.height;
  const target = map.canvas;   // what a real pointer would hit; the listeners sit on its parent
  const pointer = (type, x, y, pressed) => target.dispatchEvent(new PointerEvent(type, {
    pointerId: 1, pointerType: 'mouse', isPrimary: true,
    button: type === 'pointermove' ? -1 : 0, buttons: pressed ? 1 : 0,
    clientX: box.left + x, clientY: box.top + y, bubbles: true, cancelable: true, composed: true,
  }));
  const wheel = (x, y, deltaY) => target.dispatchEvent(new WheelEvent('wheel', {
    deltaY, deltaMode: WheelEvent.DOM_DELTA_PIXEL,
    clientX: box.left + x, clientY: box.top + y, bubbles: true, cancelable: true, composed: true,
  }));
  const frames = () => new Promise((resolve) => requestAnimationFrame(resolve));
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

  // The place to zoom into: the one-degree square where the data covers the most distinct
  // 0.025° squares (about 18 px at zoom 10). Those are points spread out, which stay many
  // separate things drawn as the zoom grows; counting points instead would pick a tight blob,
  // one cluster icon on empty ground at any zoom. Found from the file itself, so the route
  // follows the data rather than a place written down here.
  const { fetchPoints } = await import('/web/demo/points-file.js');
  const { lngLat, count } = await fetchPoints(dataUrl);
  const SUB = 40;
  const seen = new Uint8Array(360 * SUB * 180 * SUB);
  const distinct = new Int32Array(360 * 180);
  for (let i = 0; i < count; i++) {
    const sx = Math.min(360 * SUB - 1, Math.floor((lngLat[2 * i] + 180) * SUB));
    const sy = Math.min(180 * SUB - 1, Math.max(0, Math.floor((lngLat[2 * i + 1] + 90) * SUB)));
    const k = sy * 360 * SUB + sx;
    if (!seen[k]) { seen[k] = 1; distinct[Math.floor(sy / SUB) * 360 + Math.floor(sx / SUB)]++; }
  }
  let cell = 0;
  for (let c = 1; c < distinct.length; c++) if (distinct[c] > distinct[cell]) cell = c;
  const place = { latitude: Math.floor(cell / 360) - 90 + 0.5, longitude: (cell % 360) - 180 + 0.5 };

  // Start there at the low end of the zoom range; let the re-clustering and its animations
  // finish so the run starts from a still map.
  map.moveCamera({ ...place, zoom: 3, bearing: 0, tilt: 0 });
  await sleep(2000);

  // The wheel turns over the place while it is in view, as a user's pointer would rest on what
  // they zoom into; zooming out, and when it has gone, about the middle.
  const pivotFor = (zoomingIn) => {
    const p = zoomingIn ? map.pointForCoordinate(place) : null;
    return p && p.x >= 0 && p.x <= W && p.y >= 0 && p.y <= H ? p : { x: W / 2, y: H / 2 };
  };
  const SEGMENT = 0.5;            // seconds of dragging, then of wheeling, in turn
  const SWAY = 150;               // CSS pixels from the middle that the drags leave the place at
  const MIN_DRAG = 200;           // CSS pixels: every drag pans visibly, 400 px/s or more
  // The wheel closes the gap to the zoom wanted over about a tenth of a second, in steps of up
  // to one notch (100 px, a third of a level) per sixtieth of a second; the steps are scaled by
  // the time since the last frame so that a slow browser is not also given less zooming to do.
  const WHEEL_LAG = 0.1;
  const WHEEL_RATE = 6000;
  const WHEEL_PIXELS_PER_ZOOM = 300;   // the engine's rate for a plain wheel
  const zoomWanted = (t) => 7.5 - 4.5 * Math.cos(2 * Math.PI * t / seconds);

  // A drag grabs the place (or the middle, when it is out of view) and moves it to a point on
  // a circle about the middle that turns from one drag to the next: the pans go round the
  // place without losing it, as a user looks around what they came to see.
  const dragFor = (k) => {
    const seen = map.pointForCoordinate(place);
    const from = seen && seen.x >= 0 && seen.x <= W && seen.y >= 0 && seen.y <= H ? seen : { x: W / 2, y: H / 2 };
    const angle = k * 1.2;
    let to = { x: W / 2 + SWAY * Math.cos(angle), y: H / 2 + SWAY * Math.sin(angle) };
    const length = Math.hypot(to.x - from.x, to.y - from.y);
    if (length < MIN_DRAG) to = { x: from.x + MIN_DRAG * Math.cos(angle + Math.PI), y: from.y + MIN_DRAG * Math.sin(angle + Math.PI) };
    return { from, to, at: from };
  };

  // The map's figures stop when its canvas calls are issued; the browser then lays out, paints,
  // and (with a software canvas) rasterises those calls on the same thread before the next task
  // runs. A message posted at the end of the frame arrives after all that: its delay from the
  // frame's start is how long the frame held the main thread.
  const channel = new MessageChannel();
  channel.port1.onmessage = (e) => record.main.push(performance.now() - e.data);
  const record = { engine: [], total: [], main: [], items: [], at: [], zoom: [] };
  const stop = map.on('frame', ({ frame, engineMs, drawMs }) => {
    const now = performance.now();
    record.engine.push(engineMs);
    record.total.push(engineMs + drawMs);
    record.items.push(frame.items.length);
    record.at.push(now);
    record.zoom.push(frame.camera.zoom);
    channel.port2.postMessage(now - engineMs - drawMs);
  });
  // The figures come from every frame's event rather than map.stats, which remembers the last
  // 600 frames only (ten seconds at 60 Hz, fewer than a faster display draws); the percentiles
  // are its own. Reset anyway, so the demo's readout shows the run.
  map.stats.reset();
  const events = { pointer: 0, wheel: 0 };
  const start = await frames();
  let segment = -1, drag = null, pivot = null, last = start;
  const release = () => {
    if (!drag) return;
    pointer('pointerup', drag.at.x, drag.at.y, false); events.pointer++;
    drag = null;
  };
  for (;;) {
    const now = await frames();
    const t = (now - start) / 1000;
    const dt = (now - last) / 1000;
    last = now;
    if (t >= seconds) break;
    const k = Math.floor(t / SEGMENT);
    if (k !== segment) {
      release();
      segment = k;
      if (k % 2 === 0) {
        drag = dragFor(k);
        pointer('pointerdown', drag.from.x, drag.from.y, true); events.pointer++;
      } else {
        pivot = pivotFor(zoomWanted(t + SEGMENT) > map.camera.zoom);
      }
    }
    if (drag) {
      const f = Math.min(1, (t - k * SEGMENT) / (SEGMENT * 0.9));   // there a little before the release
      drag.at = { x: drag.from.x + (drag.to.x - drag.from.x) * f, y: drag.from.y + (drag.to.y - drag.from.y) * f };
      pointer('pointermove', drag.at.x, drag.at.y, true); events.pointer++;
    } else {
      const gap = zoomWanted(t) - map.camera.zoom;
      if (Math.abs(gap) > 0.01) {
        const most = Math.min(WHEEL_PIXELS_PER_ZOOM, WHEEL_RATE * dt);
        const pixels = -gap * WHEEL_PIXELS_PER_ZOOM * Math.min(1, dt / WHEEL_LAG);
        wheel(pivot.x, pivot.y, Math.max(-most, Math.min(most, pixels)));
        events.wheel++;
      }
    }
  }
  stop();      // the frames after the run's end are not the run's
  release();
  await sleep(100);   // the last frame's message
  channel.port1.close();
  const intervals = record.at.slice(1).map((a, i) => a - record.at[i]);
  const items = Float64Array.from(record.items).sort();
  return {
    width: W, height: H, seconds, events,
    frames: record.engine.length,
    engine: percentiles(Float64Array.from(record.engine)),
    total: percentiles(Float64Array.from(record.total)),
    main: percentiles(Float64Array.from(record.main)),
    interval: percentiles(Float64Array.from(intervals)),
    items: { min: items[0], median: items[items.length >> 1], max: items[items.length - 1] },
    zoom: { min: Math.min(...record.zoom), max: Math.max(...record.zoom) },
  };
}"""

# What each raster mode adds to the browser tests' flags.
RASTER = {
    "gpu": ([], "2D canvas, raster and compositing on an emulated GPU (SwiftShader, on the CPU)"),
    # --disable-gpu alone still rasterises the canvas on SwiftShader (only compositing turns to
    # software); without the software rasteriser, nothing is left but Skia on the CPU.
    "software": (["--disable-gpu", "--disable-software-rasterizer"],
                 "2D canvas, raster and compositing in software (Skia on the CPU)"),
}


def gpu_status(browser):
    """The browser's own word on its canvas: accelerated or not, and by what."""
    try:
        info = browser.new_browser_cdp_session().send("SystemInfo.getInfo")["gpu"]
    except Exception as error:  # an old Chromium without the domain: say so rather than fail
        return f"GPU status unknown ({error})"
    status = info.get("featureStatus", {})
    devices = [d.get("deviceString", "") for d in info.get("devices", []) if d.get("deviceString")]
    return (f"canvas {status.get('2d_canvas', '?')}, compositing {status.get('gpu_compositing', '?')}, "
            f"GPU {devices[0] if devices else 'none'}")


def new_page(browser, server):
    context = browser.new_context(viewport=VIEWPORT, device_scale_factor=1)
    page = context.new_page()
    page.set_default_timeout(120_000)
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    page.goto(server.origin + PAGE)
    try:
        page.wait_for_function("document.body.dataset.ready === 'true'")
    except Exception as error:
        # A page that never gets ready has usually said why (a module or the wasm failing to load).
        raise RuntimeError(f"the demo page did not get ready: {error}; the page said: {errors}") from None
    return context, page, errors


def load(browser, server):
    """One load in a fresh page; returns the figures and the page (still open) for a pan/zoom."""
    context, page, errors = new_page(browser, server)
    result = page.evaluate(LOAD_JS)
    if result["count"] != 1_000_000 or errors:
        raise RuntimeError(f"the load went wrong: {result} {errors}")
    return result, context, page


def seconds_range(values):
    lo, hi = min(values) / 1000, max(values) / 1000
    return f"{lo:.2f}" if f"{lo:.2f}" == f"{hi:.2f}" else f"{lo:.2f}–{hi:.2f}"


def load_parts(runs):
    """The load's parts: the download, the worker's clustering, showing its index on the page,
    and the rest (the demo's wait for its progress text to paint)."""
    return [
        ("download", [r["downloadMs"] for r in runs]),
        ("cluster in a worker", [r["clusterMs"] - r["pageMs"] for r in runs]),
        ("show it on the page", [r["pageMs"] for r in runs]),
        ("paint wait", [r["totalMs"] - r["downloadMs"] - r["clusterMs"] for r in runs]),
    ]


def report_load(runs):
    detail = ", ".join(f"{name} {seconds_range(values)}" for name, values in load_parts(runs))
    pages = "1 fresh page" if len(runs) == 1 else f"{len(runs)} fresh pages"
    print(f"chromium, 1,000,000 clustered points: load {seconds_range([r['totalMs'] for r in runs])} s ({detail}; "
          f"longest stall of the page {seconds_range([r['stallMs'] for r in runs])} s; {pages})", flush=True)


def report_pan_zoom(mode, r):
    ms = lambda v: f"{v:.1f}"  # noqa: E731 - the page's clock counts in 0.1 ms steps
    print(f"chromium pan/zoom {r['seconds']:g} s, {VIEWPORT['width']}×{VIEWPORT['height']}, {mode}: "
          f"{r['frames']} frames, "
          f"engine median {ms(r['engine']['median'])} ms p95 {ms(r['engine']['p95'])} ms, "
          f"frame median {ms(r['total']['median'])} ms p95 {ms(r['total']['p95'])} ms, "
          f"{r['items']['min']:.0f}–{r['items']['max']:.0f} items drawn (median {r['items']['median']:.0f})", flush=True)
    print(f"  map {r['width']:.0f}×{r['height']:.0f} beside the demo's panel, zoom {r['zoom']['min']:.1f}–{r['zoom']['max']:.1f}, "
          f"{r['events']['pointer']} pointer and {r['events']['wheel']} wheel events; "
          f"until painted median {ms(r['main']['median'])} ms p95 {ms(r['main']['p95'])} ms; "
          f"between frames median {ms(r['interval']['median'])} ms p95 {ms(r['interval']['p95'])} ms", flush=True)


def machine_line(chromium):
    """The date and machine line every benchmark's table starts with (web/bench/report.js)."""
    report = Path(__file__).resolve().parent / "report.js"
    try:
        return subprocess.run(["node", str(report), "machine", "--chromium", chromium], check=True,
                              capture_output=True, text=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError) as error:
        return f"Machine not described ({error})."


def markdown_table(header, rows):
    line = lambda cells: "| " + " | ".join(str(c).replace("|", "\\|") for c in cells) + " |"  # noqa: E731
    return "\n".join([line(header), line(["---"] * len(header))] + [line(r) for r in rows])


def write_markdown(path, chromium, runs, pans, seconds):
    """The benchmark's section of docs/performance.md."""
    ms = lambda v: f"{v:.1f} ms"  # noqa: E731 - the page's clock counts in 0.1 ms steps
    pages = "1 fresh page" if len(runs) == 1 else f"{len(runs)} fresh pages"
    rows = [
        [f"load of 1,000,000 points ({pages}): download, cluster in a worker, show it on the page",
         f"{seconds_range([r['totalMs'] for r in runs])} s ("
         + ", ".join(f"{name} {seconds_range(values)} s" for name, values in load_parts(runs)) + ")",
         "2 s"],
        ["same: the page's longest stall meanwhile (a 16 ms timer's lateness)", f"{seconds_range([r['stallMs'] for r in runs])} s", ""],
    ]
    for mode, r in pans:
        name = {"software": "software raster", "gpu": "emulated GPU (SwiftShader)"}[mode]
        rows += [
            [f"pan and zoom, {name}: frames in {r['seconds']:g} s", f"{r['frames']}", ""],
            ["same: engine, median / p95", f"{ms(r['engine']['median'])} / {ms(r['engine']['p95'])}", "p95 2 ms"],
            ["same: engine and drawing, median / p95", f"{ms(r['total']['median'])} / {ms(r['total']['p95'])}", "median 8 ms"],
            ["same: until painted, median / p95", f"{ms(r['main']['median'])} / {ms(r['main']['p95'])}", ""],
            ["same: between frames, median / p95", f"{ms(r['interval']['median'])} / {ms(r['interval']['p95'])}", ""],
            ["same: things drawn, fewest / median / most",
             f"{r['items']['min']:.0f} / {r['items']['median']:.0f} / {r['items']['max']:.0f}", ""],
        ]
    about = ("`python3 web/bench/browser-bench.py`: the demo page in headless Chromium, a "
             f"{VIEWPORT['width']}×{VIEWPORT['height']} window with the map beside the demo's panel. The load: the demo's "
             "1,000,000 synthetic points (`synthetic-1m.bin`) clustered in a worker (`WorkerClusterIndex`, radius 80), its "
             "index then shown by a hierarchical cluster manager (`ClusterIndex.from`, `useIndex`), each in a "
             f"fresh page. The pan and zoom: {seconds:g} s of pointer and wheel events dispatched to the map every animation "
             "frame, zoom 3 to 12 and back. \"Engine\" and \"engine and drawing\" are the map's own figures (`map.stats`); "
             "\"until painted\" runs until the browser has also painted the frame; \"between frames\" is the pace a user sees.")
    text = "\n\n".join(["## Browser: the demo page", f"*{machine_line(chromium)}*", about,
                         markdown_table(["measurement", "result", "target"], rows)])
    Path(path).write_text(text + "\n", encoding="utf-8")
    print(f"wrote {path}", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="loads, each in a fresh page (default 3)")
    parser.add_argument("--seconds", type=float, default=10, help="length of the pan and zoom (default 10)")
    parser.add_argument("--raster", choices=["gpu", "software", "both"], default="both",
                        help="how Chromium draws: its emulated GPU, software, or both runs (default)")
    parser.add_argument("--markdown", metavar="FILE", help="also write the figures as a Markdown table to FILE")
    args = parser.parse_args()

    reason = missing_dependency()
    if reason:
        sys.exit(f"browser-bench: {reason}")
    if not DATA.exists():
        sys.exit("browser-bench: web/demo/data/synthetic-1m.bin is missing (node web/demo/make-synthetic.js)")
    from playwright.sync_api import sync_playwright

    # Software first: its figures are the map's own, where the emulated GPU's are mostly SwiftShader's.
    modes = ["software", "gpu"] if args.raster == "both" else [args.raster]
    server = DemoServer()
    loads, pans, version = [], [], ""
    try:
        with sync_playwright() as playwright:
            for n, mode in enumerate(modes):
                flags, description = RASTER[mode]
                browser = playwright.chromium.launch(
                    executable_path=shutil.which("chromium"), headless=True, args=CHROMIUM_ARGS + flags)
                try:
                    version = browser.version
                    print(f"chromium {browser.version} headless, {description}: {gpu_status(browser)}", flush=True)
                    # The loads run in the first browser only: they are the engine's work, which
                    # the raster mode does not touch; the second gets one load for its pan and zoom.
                    runs, context, page = [], None, None
                    for _ in range(args.runs if n == 0 else 1):
                        if context:
                            context.close()
                        result, context, page = load(browser, server)
                        runs.append(result)
                    if n == 0:
                        report_load(runs)
                        loads = runs
                    pan = page.evaluate(PAN_ZOOM_JS, {"seconds": args.seconds, "dataUrl": DATA_URL})
                    report_pan_zoom(mode, pan)
                    pans.append((mode, pan))
                    context.close()
                finally:
                    browser.close()
    finally:
        server.stop()
    print(TARGETS)
    if args.markdown:
        write_markdown(args.markdown, version, loads, pans, args.seconds)


if __name__ == "__main__":
    main()
