"""The demo page under test: a `BrowserTestCase` that opens web/demo/, reads the map's frames and
camera through the page's `window.map` (the CairnMap) and `window.demo`, waits for the map to
come to rest, and drives it with real input: Playwright's mouse, and touches through the
DevTools protocol (so the page sees genuine touch pointer events, which setPointerCapture
accepts, unlike PointerEvents made in script).

Positions are CSS pixels relative to the map's element (`#map`), as the map's own API gives
them; `page_xy` turns them into page coordinates for the mouse. Times are seconds on the page's
clock (performance.now() / 1000), the clock the map's frames are stamped with.
"""

import itertools
import math

from harness import BrowserTestCase
from pixels import decode_png

DEMO = "/web/demo/"

# Cluster colours by bucket (feature C3), the first also below the first bucket (icon -1).
BUCKET_COLOURS = ["#0099cc", "#669900", "#ff8800", "#cc0000", "#9933cc"]
PIN_RED = "#ea4335"  # the default pin's body (feature M2)
# The default pin is 27 x 43 CSS pixels with its tip at the item's (x, y); its head's centre is
# 29.5 px above the tip. A tap 20 px above the tip lands on the body.
PIN_WIDTH, PIN_HEIGHT = 27, 43
PIN_TAP_LIFT = 20

_tokens = itertools.count()


def rgb(hex_colour):
    h = hex_colour.lstrip("#")
    return tuple(int(h[i:i + 2], 16) for i in (0, 2, 4))


def colour_distance(a, b):
    return max(abs(x - y) for x, y in zip(a, b))


class DemoTestCase(BrowserTestCase):
    """The demo page loaded with the cities and at rest, for each test.

    Loading the page clusters 144,563 cities, seconds of work, so by default the tests of a
    class share one page: between tests its camera, gesture settings and selection go back to
    the start (`reset`). A test that fails leaves an unknown state behind, so the next one
    gets a new page. A class whose tests change more than that (another data set) sets
    `shared_page = False` for a new page per test.
    """

    shared_page = True
    # The map draws on a 2D canvas, which needs no GPU. Without one Chromium then composites in
    # software, and answers each input event several times faster than through SwiftShader's
    # emulated GL (about 0.02 s against 0.1-0.3 s a mouse move on a busy two-core machine):
    # that is most of what the gesture tests wait for.
    browser_args = ("--disable-gpu",)
    start_camera = {"latitude": 30, "longitude": 10, "zoom": 2, "bearing": 0, "tilt": 0}
    _shared = None   # the class's page: (context, page, map box, list of its errors)

    @classmethod
    def tearDownClass(cls):
        cls._drop_shared()
        super().tearDownClass()

    @classmethod
    def _drop_shared(cls):
        if cls._shared is not None:
            try:
                cls._shared[0].close()
            except Exception:  # the browser may be gone already; nothing left to close then
                pass
            cls._shared = None

    def setUp(self):
        if not self.shared_page:
            super().setUp()
            self.open_demo()
            return
        cls = type(self)
        if cls._shared is None:
            super().setUp()
            self.open_demo()
            cls._shared = (self.context, self.page, self.box, self.errors)
        else:
            # The harness's listeners on the page append to the list of the test that opened
            # it: this test takes over that list, emptied.
            self.context, self.page, self.box, self.errors = cls._shared
            self.errors.clear()
            self._errors_allowed = False
            try:
                self.reset()
            except Exception:
                cls._drop_shared()   # tearDown does not run after a failed setUp
                raise

    def tearDown(self):
        if not self.shared_page:
            super().tearDown()
            return
        if not self._outcome_ok():
            type(self)._drop_shared()
        elif not self._errors_allowed:
            self.assertEqual(self.errors, [], "the page reported errors")

    def open_demo(self):
        self.open(DEMO)
        # Loading and clustering the cities takes seconds, more on a busy machine.
        self.page.wait_for_function("document.body.dataset.ready === 'true'", timeout=60_000)
        self.box = self.page.locator("#map").bounding_box()
        self.move_camera(**self.start_camera)

    def reset(self):
        """The shared page as a test expects to find it: every gesture and control on, no
        marker selected, the starting camera, at rest."""
        self.js("""(camera) => {
            const on = {};
            for (const box of document.querySelectorAll('input[data-setting]')) {
                box.checked = true;
                on[box.dataset.setting] = true;
            }
            map.settings = on;
            map.selectedMarker = null;
            map.moveCamera(camera);
        }""", self.start_camera)
        self.wait_for_frame()
        self.settle()

    # ── reading the page ─────────────────────────────────────────────────────────────────────

    def js(self, expression, arg=None):
        return self.page.evaluate(expression, arg)

    def frame(self):
        """The last frame the map drew, without its tiles (the tests never need them)."""
        return self.js("(() => { const { tiles, ...f } = map.lastFrame; return f; })()")

    def camera(self):
        return self.js("map.camera")

    def ground(self, point):
        """The place under a point of the map, or None above the horizon."""
        return self.js("(p) => map.coordinateForPoint(p)", point)

    def screen(self, place):
        """Where a place is on the map now."""
        return self.js("(c) => map.pointForCoordinate(c)", place)

    def page_xy(self, point):
        return self.box["x"] + point["x"], self.box["y"] + point["y"]

    def centre(self):
        """The middle of the map, where the camera's target is (the demo sets no padding)."""
        return {"x": self.box["width"] / 2, "y": self.box["height"] / 2}

    def assertNear(self, point, expected, tolerance=2, what="point"):
        """Two points of the map within `tolerance` CSS pixels."""
        self.assertIsNotNone(point, f"{what} is off the map")
        gap = math.hypot(point["x"] - expected["x"], point["y"] - expected["y"])
        self.assertLessEqual(gap, tolerance, f"{what} at ({point['x']:.1f}, {point['y']:.1f}), "
                                             f"expected ({expected['x']:.1f}, {expected['y']:.1f})")

    def screenshot_image(self, name):
        """A screenshot of the page saved as a CI artefact, and its pixels."""
        return decode_png(self.screenshot(name).read_bytes())

    # ── waiting ──────────────────────────────────────────────────────────────────────────────

    def settle(self, after=0.0, calm=0.15, timeout=15_000):
        """Waits until the map has been at rest for `calm` seconds, counted from `after` seconds
        from now at the earliest (a tap is only recognised 0.3 s after it ends, and what it
        does, a zoom or a selection, starts a frame later still).

        At rest: the camera neither moves nor animates, and what is drawn stays where it is
        (clusters re-form 0.2 s after the zoom's integer changes, then fly for 0.5 s, which
        the frame's `animating` does not cover).
        """
        key = f"__settle{next(_tokens)}"
        self.page.wait_for_function("""([key, after, calm]) => {
            const now = performance.now() / 1000;
            const state = (window[key] ??= { start: now + after, calmSince: null, drawn: '' });
            const f = map.lastFrame;
            if (!f) return false;
            const drawn = f.items.map((i) =>
                `${i.kind}${i.id}@${Math.round(i.x)},${Math.round(i.y)},${i.opacity.toFixed(2)},${i.scaleX.toFixed(2)}`).join(' ');
            const changed = drawn !== state.drawn;
            state.drawn = drawn;
            if (now < state.start || f.moving || f.animating || changed) {
                state.calmSince = null;
                return false;
            }
            state.calmSince ??= now;
            return now - state.calmSince >= calm;
        }""", arg=[key, after, calm], timeout=timeout)

    def wait_for_frame(self):
        """Waits for a frame drawn after this call (the map draws one for any input)."""
        self.js("""() => new Promise((resolve) => {
            const t = performance.now() / 1000;
            const check = () => (map.lastFrame && map.lastFrame.time >= t ? resolve() : requestAnimationFrame(check));
            map.requestFrame();
            requestAnimationFrame(check);
        })""")

    def move_camera(self, **camera):
        self.js("(c) => map.moveCamera(c)", camera)
        self.wait_for_frame()
        self.settle()

    # ── input ────────────────────────────────────────────────────────────────────────────────

    def mouse_drag(self, start, end, steps=10, button="left", modifiers=(), hold=0.15, during=None):
        """Presses at `start`, moves to `end` in `steps` moves and, after holding still for
        `hold` seconds (so the release has no speed and starts no fling), releases. Once a
        frame has drawn the last move, `during()` runs with the button still down; its result
        is returned."""
        mouse, keyboard = self.page.mouse, self.page.keyboard
        x0, y0 = self.page_xy(start)
        x1, y1 = self.page_xy(end)
        for key in modifiers:
            keyboard.down(key)
        mouse.move(x0, y0)
        mouse.down(button=button)
        for i in range(1, steps + 1):
            mouse.move(x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps)
        self.wait_for_frame()
        result = during() if during else None
        if hold:
            self.page.wait_for_timeout(hold * 1000)
        mouse.up(button=button)
        for key in modifiers:
            keyboard.up(key)
        return result

    def tap(self, point):
        """A mouse click: a tap for the map once 0.3 s pass without a second one."""
        self.page.mouse.click(*self.page_xy(point))

    def touch_gesture(self, paths, steps=12, hold=0.15, during=None):
        """Fingers down at the first point of each path, moved to the last in `steps` moves
        (one touch event per step, about a frame apart), held still for `hold` seconds and
        lifted. `paths` is a list of (start, end) points of the map, one per finger; `during()`
        runs as in `mouse_drag`."""
        cdp = self.context.new_cdp_session(self.page)

        def points(fraction):
            out = []
            for finger, (a, b) in enumerate(paths):
                x, y = self.page_xy({"x": a["x"] + (b["x"] - a["x"]) * fraction,
                                     "y": a["y"] + (b["y"] - a["y"]) * fraction})
                out.append({"x": x, "y": y, "id": finger})
            return out

        cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": points(0)})
        for i in range(1, steps + 1):
            cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": points(i / steps)})
            self.page.wait_for_timeout(16)
        self.wait_for_frame()
        result = during() if during else None
        if hold:
            self.page.wait_for_timeout(hold * 1000)
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        cdp.detach()
        return result

    # ── what is drawn where ──────────────────────────────────────────────────────────────────

    @staticmethod
    def footprint(item):
        """An item's box on screen (left, top, right, bottom), generously: a pin stands on its
        tip, a cluster is a disc centred on its point (56 px across at most)."""
        if item["kind"] == "cluster":
            r = 28
            return item["x"] - r, item["y"] - r, item["x"] + r, item["y"] + r
        return item["x"] - PIN_WIDTH / 2, item["y"] - PIN_HEIGHT, item["x"] + PIN_WIDTH / 2, item["y"] + 4

    def uncovered(self, items, index, point, margin=4):
        """Whether nothing drawn over items[index] (the items after it: frames list them bottom
        to top) comes within `margin` of `point`, so a pixel there or a tap there is its.
        With `index` -1, whether the point is clear of every item."""
        for other in items[index + 1:]:
            left, top, right, bottom = self.footprint(other)
            if left - margin <= point["x"] <= right + margin and top - margin <= point["y"] <= bottom + margin:
                return False
        return True

    def in_view(self, point, inset=40):
        """Inside the map with room around it, and away from the controls in its corners."""
        w, h = self.box["width"], self.box["height"]
        if not (inset <= point["x"] <= w - inset and inset <= point["y"] <= h - inset):
            return False
        return not ((point["x"] > w - 90 and point["y"] < 90) or (point["x"] > w - 90 and point["y"] > h - 90))
