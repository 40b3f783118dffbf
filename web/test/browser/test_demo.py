"""The demo page as a whole in headless Chromium: it loads without errors and draws the cities,
the screenshot has the right colours where the frame says a cluster and a pin are (features C3,
M2), switching to a million synthetic points loads them and keeps the map drawing (C11), and
the map draws only while something changes.
Gestures and taps have their own files (test_gestures.py, test_markers.py)."""

import math
import sys
import unittest
from collections import Counter

from demo_page import BUCKET_COLOURS, PIN_RED, DemoTestCase, colour_distance, rgb
from test_data import generated

# Sprites are copied to the screen pixel for pixel; a little room for colour conversion.
COLOUR_TOLERANCE = 12


class DemoPageTest(DemoTestCase):
    # Each test here wants the page as it loads (one replaces the data set).
    shared_page = False

    def test_loads_and_draws_the_cities(self):
        # open_demo waited for the cities; the harness fails the test on any console error.
        frame = self.frame()
        self.assertGreater(len(frame["items"]), 0)
        kinds = Counter(item["kind"] for item in frame["items"])
        self.assertGreater(kinds["cluster"], 0, kinds)
        self.assertGreater(kinds["marker"], 0, kinds)   # the styled markers around Paris and Lyon
        self.assertEqual(self.js("demo.manager.itemCount"), self.js("demo.loaded.names.length"))
        image = self.screenshot_image("demo-loaded")
        # Non-blank: the map's canvas shows land, sea, clusters and pins, not one flat colour.
        box = self.box
        sample = [image.pixel(x, y) for y in range(int(box["y"]) + 4, int(box["y"] + box["height"]) - 4, 8)
                  for x in range(int(box["x"]) + 4, int(box["x"] + box["width"]) - 4, 8)]
        colours = Counter(sample)
        self.assertGreater(len(colours), 50)
        self.assertLess(colours.most_common(1)[0][1] / len(sample), 0.8, colours.most_common(3))

    def test_screenshot_colours_match_the_clusters_and_pins_drawn(self):
        frame = self.frame()
        items = frame["items"]
        image = self.screenshot_image("demo-pixels-clusters-and-pins")
        at = lambda p: image.pixel(self.box["x"] + p["x"], self.box["y"] + p["y"])   # noqa: E731

        # Clusters: the disc in the bucket's colour. The label covers the centre in white, so
        # look above and below it, inside the disc.
        checked = set()
        for index, item in enumerate(items):
            if item["kind"] != "cluster" or not self.in_view(item) or max(item["icon"], 0) in checked:
                continue
            diameter = self.js("(item) => demo.manager.iconFor(item).diameter", item)
            points = [{"x": item["x"], "y": item["y"] + dy * diameter} for dy in (-0.28, 0.28)]
            if not all(self.uncovered(items, index, p) for p in points):
                continue
            expected = rgb(BUCKET_COLOURS[max(item["icon"], 0)])
            for p in points:
                self.assertLessEqual(colour_distance(at(p), expected), COLOUR_TOLERANCE,
                                     f"cluster of {item['count']} (bucket {item['icon']}) at {p}: {at(p)}, expected {expected}")
            checked.add(max(item["icon"], 0))
        self.assertGreaterEqual(len(checked), 2, "too few clusters clear of others to check")

        # Default pins (the cities drawn on their own): red just above the tip.
        pins = 0
        for index, item in enumerate(items):
            p = {"x": item["x"], "y": item["y"] - 10}
            if item["kind"] in ("marker", "clusterItem") and item["icon"] == -1 and self.in_view(p) \
                    and self.uncovered(items, index, p) and pins < 5:
                self.assertLessEqual(colour_distance(at(p), rgb(PIN_RED)), COLOUR_TOLERANCE,
                                     f"{item['kind']} {item['id']} at {p}: {at(p)}")
                pins += 1
        self.assertGreater(pins, 0, "no default pin clear of others to check")

        # Empty map, well away from every item: neither pin red nor a cluster colour.
        empty = next((p for p in ({"x": x, "y": y} for y in range(60, 700, 20) for x in range(60, 700, 20))
                      if self.in_view(p) and self.uncovered(items, -1, p, margin=30)), None)
        self.assertIsNotNone(empty, "no empty spot in the view")
        for colour in [PIN_RED] + BUCKET_COLOURS:
            self.assertGreater(colour_distance(at(empty), rgb(colour)), 3 * COLOUR_TOLERANCE,
                               f"empty map at {empty} is {at(empty)}, like {colour}")

    def test_panel_numbers_out_of_range_are_taken_back_to_the_fields_limits(self):
        # A radius the engine refuses, a zoom left empty, a size below 1: each field shows and
        # uses its nearest allowed value (or its default), and the cities are clustered again.
        self.js("""() => {
            document.querySelector('#radius').value = '100000';
            document.querySelector('#maximumClusterZoom').value = '';
            document.querySelector('#minimumClusterSize').value = '-3';
        }""")
        self.js("demo.load('cities')")
        fields = self.js("""() => ['#radius', '#maximumClusterZoom', '#minimumClusterSize']
            .map((id) => document.querySelector(id).value)""")
        self.assertEqual(fields, ["400", "20", "1"])
        self.assertEqual(self.js("demo.manager.itemCount"), self.js("demo.loaded.names.length"))
        self.settle()
        self.assertGreater(sum(1 for i in self.frame()["items"] if i["kind"] == "cluster"), 0)

    @generated("synthetic-1m.bin")
    def test_switching_to_a_million_points(self):
        # Clustered in a worker: a page timer due every 16 ms runs on time while the worker
        # clusters (between the download and the page's showing of the worker's index).
        result = self.js("""async () => {
            const late = [];
            let due = performance.now() + 16;
            const timer = setInterval(() => { const now = performance.now(); late.push([now - due, now]); due = now + 16; }, 16);
            try {
                const t0 = performance.now();
                const r = await demo.load('synthetic');
                // One more run of the timer, so a stall at the very end is measured too.
                await new Promise((done) => setTimeout(done, 50));
                return { ...r, t0, late };
            } finally {
                clearInterval(timer);
            }
        }""")
        start = result["t0"] + result["downloadMs"]
        end = start + result["clusterMs"] - result["pageMs"]
        during = sorted(lateness for lateness, at in result["late"] if at - lateness >= start and at <= end)
        most = max(lateness for lateness, _ in result["late"])
        print(f"\n  synthetic 1M: {result['count']:,} points, download {result['downloadMs']:.0f} ms, "
              f"clustering {result['clusterMs']:.0f} ms (in a worker; {result['pageMs']:.0f} ms of it on the page), "
              f"timers late by {during[-1]:.0f} ms at most while the worker clustered, {most:.0f} ms over the whole load",
              file=sys.stderr)
        self.assertTrue(result["inWorker"])
        self.assertGreater(len(during), 20, "the timer ran while the worker clustered")
        self.assertLess(during[-1], 100, "the page answers while the worker clusters")
        self.assertLess(result["pageMs"], 0.5 * result["clusterMs"], "most of the clustering is the worker's")
        self.assertEqual(result["count"], 1_000_000)
        self.assertEqual(self.js("demo.manager.itemCount"), 1_000_000)
        self.assertIsNone(self.js("demo.loaded.names"))
        # Frames keep coming: count them through a half-second zoom animation.
        frames = self.js("""() => new Promise((resolve) => {
            let count = 0;
            const stop = map.on('frame', () => { count++; });
            map.animateCamera({ zoom: 4 }, { duration: 0.5 });
            setTimeout(() => { stop(); resolve(count); }, 1000);
        })""")
        self.settle()
        self.screenshot("demo-synthetic-million")
        self.assertGreaterEqual(frames, 10)
        frame = self.frame()
        self.assertAlmostEqual(frame["camera"]["zoom"], 4, places=6)
        number = self.js("demo.manager.number")
        clustered = [i for i in frame["items"] if i["kind"] != "marker"]
        self.assertGreater(len(clustered), 0)
        self.assertTrue(all(i["manager"] == number for i in clustered), "items of the old manager are still drawn")
        self.assertGreater(sum(i["count"] for i in clustered), 10_000)



class FrameScheduleTest(DemoTestCase):
    """CairnMap asks for frames while the engine says something changes (`frame.nextFrameIn`) or
    the page does (a view marker drawn every frame, a tile or image loaded), and not otherwise."""

    # Open sea, away from the showcase's pulsing view marker (drawn every frame while in view).
    QUIET = {"latitude": -30, "longitude": -140, "zoom": 5, "bearing": 0, "tilt": 0}

    def count_frames(self):
        """From now on, `window.__frames` counts the frames drawn and `__waits` collects their nextFrameIn."""
        self.js("""() => {
            window.__stopFrames?.();
            window.__frames = 0;
            window.__waits = [];
            window.__stopFrames = map.on('frame', ({ frame }) => { __frames++; __waits.push(frame.nextFrameIn); });
        }""")

    def frames(self):
        return self.js("window.__frames")

    def test_frames_stop_at_rest_and_resume_on_input(self):
        self.move_camera(**self.QUIET)
        self.assertEqual(self.frame()["nextFrameIn"], math.inf, "the engine waits for nothing")
        try:
            self.count_frames()
            self.page.wait_for_timeout(1000)
            self.assertEqual(self.frames(), 0, "at rest the map draws nothing")
            # A wheel turn over the map: frames while it zooms, none once its gesture is over.
            self.page.mouse.move(*self.page_xy(self.centre()))
            self.page.mouse.wheel(0, -120)
            self.page.wait_for_function("window.__frames > 0", timeout=5000)
            self.settle()
            self.assertEqual(self.frame()["nextFrameIn"], math.inf)
            self.assertGreater(self.camera()["zoom"], self.QUIET["zoom"], "the wheel zoomed in")
            self.count_frames()
            self.page.wait_for_timeout(1000)
            self.assertEqual(self.frames(), 0, "and they stop again")
        finally:
            self.js("() => window.__stopFrames()")

    def test_a_tap_waits_on_a_timer_not_on_a_stream_of_frames(self):
        # The engine reports a tap 0.3 s after it ends, unless a second one comes (feature G6): the
        # map asks for one frame when that wait is over instead of drawing all through it.
        self.move_camera(**self.QUIET)
        items = self.frame()["items"]
        point = next(p for p in ({"x": x, "y": y} for y in range(100, 600, 37) for x in range(100, 900, 41))
                     if self.in_view(p) and self.uncovered(items, -1, p))
        self.js("() => { window.__taps = 0; window.__stopTap = map.on('tap', () => { __taps++; }); }")
        try:
            self.count_frames()
            self.tap(point)
            self.page.wait_for_function("window.__taps === 1", timeout=5000)
            self.page.wait_for_timeout(300)
            waits = self.js("window.__waits")
            self.assertTrue(any(0 < w <= 0.3 for w in waits), f"a frame said how long the double-tap wait had left: {waits}")
            self.assertEqual(waits[-1], math.inf, "then nothing")
            # The press, the release and the timer's frame (one more at most, for a timer that
            # fired a little early).
            self.assertLessEqual(self.frames(), 4, f"frames during the wait: {waits}")
            self.assertEqual(self.js("window.__taps"), 1)
        finally:
            self.js("() => { window.__stopTap(); window.__stopFrames(); }")

if __name__ == "__main__":
    unittest.main()
