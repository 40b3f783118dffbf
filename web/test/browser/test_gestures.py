"""Gestures on the demo page with real input in headless Chromium (features G2, G6): a mouse drag
pans so the grabbed ground stays under the pointer, the wheel, a pinch and a double tap zoom
about the pointer or fingers, a right-drag rotates and brings the compass, whose tap turns the
map north again, and each gesture switched off in the demo's panel is ignored while the
camera can still be moved from code."""

import math
import unittest

from demo_page import DemoTestCase


class GestureTest(DemoTestCase):
    # The North Atlantic, coasts at the sides: the gestures start on open sea, not on markers.
    start_camera = {"latitude": 40, "longitude": -30, "zoom": 3, "bearing": 0, "tilt": 0}

    def set_gesture(self, name, on):
        """Flips a gesture with the demo panel's checkbox, as a user would."""
        box = self.page.locator(f"input[data-setting={name}]")
        if on:
            box.check()
        else:
            box.uncheck()
        self.assertEqual(self.js(f"map.settings.{name}"), on)

    def assertMovesFromCode(self):
        """Programmatic camera changes are never limited by the gesture settings (G6)."""
        target = {"latitude": 10.5, "longitude": 20.25, "zoom": 6.5, "bearing": 30, "tilt": 20}
        self.move_camera(**target)
        camera = self.camera()
        for key, value in target.items():
            self.assertAlmostEqual(camera[key], value, places=6, msg=key)

    # ── the gestures ─────────────────────────────────────────────────────────────────────────

    def test_drag_pans_by_the_dragged_distance(self):
        start, end = {"x": 250, "y": 460}, {"x": 520, "y": 290}
        grabbed = self.ground(start)
        before = self.camera()
        held = self.mouse_drag(start, end, steps=15, during=lambda: self.screen(grabbed))
        self.assertNear(held, end, what="the grabbed ground while the button is down")
        self.settle()
        self.screenshot("gestures-drag-pan")
        # Released after holding still: no fling carries the map on.
        self.assertNear(self.screen(grabbed), end, what="the grabbed ground after the release")
        after = self.camera()
        self.assertGreater(abs(after["longitude"] - before["longitude"]), 5, after)
        self.assertEqual(after["zoom"], before["zoom"])

    def test_wheel_zooms_about_the_pointer(self):
        pointer = {"x": 260, "y": 250}
        under = self.ground(pointer)
        zoom = self.camera()["zoom"]
        self.page.mouse.move(*self.page_xy(pointer))
        self.page.mouse.wheel(0, -300)   # 300 px of wheel is one zoom level
        self.settle(after=0.2)
        self.screenshot("gestures-wheel-zoom")
        self.assertAlmostEqual(self.camera()["zoom"], zoom + 1, delta=0.01)
        self.assertNear(self.screen(under), pointer, what="the ground under the pointer")

    def test_pinch_zooms_about_the_fingers(self):
        mid = {"x": 330, "y": 420}

        def finger(dx, dy):
            return {"x": mid["x"] + dx, "y": mid["y"] + dy}

        under = self.ground(mid)
        zoom = self.camera()["zoom"]
        # Fingers spread along a diagonal from 100 to 300 px apart: three times as far.
        held = self.touch_gesture([(finger(-40, -30), finger(-120, -90)), (finger(40, 30), finger(120, 90))],
                                  during=lambda: self.screen(under))
        self.assertNear(held, mid, what="the ground under the fingers' midpoint while pinching")
        self.settle()
        self.screenshot("gestures-pinch-zoom")
        camera = self.camera()
        self.assertAlmostEqual(camera["zoom"], zoom + math.log2(3), delta=0.05)
        self.assertAlmostEqual(camera["bearing"], 0, delta=0.01)   # the fingers did not turn
        self.assertNear(self.screen(under), mid, what="the ground under the fingers' midpoint")

    def test_double_tap_zooms_in_one_level_at_the_tap(self):
        point = {"x": 480, "y": 330}
        under = self.ground(point)
        zoom = self.camera()["zoom"]
        self.page.mouse.dblclick(*self.page_xy(point))
        self.settle(after=0.1)
        self.screenshot("gestures-double-tap-zoom")
        self.assertAlmostEqual(self.camera()["zoom"], zoom + 1, delta=0.02)
        self.assertNear(self.screen(under), point, what="the ground under the double tap")

    def test_rotate_brings_the_compass_and_its_tap_turns_north(self):
        self.assertEqual(self.frame()["compass"]["opacity"], 0)
        # A right-drag rotates by 0.5° a pixel sideways and tilts with the vertical movement.
        self.mouse_drag({"x": 250, "y": 400}, {"x": 370, "y": 400}, button="right", steps=12)
        self.settle()
        frame = self.frame()
        self.screenshot("gestures-rotated-compass-shown")
        bearing = frame["camera"]["bearing"]
        self.assertGreater(min(bearing, 360 - bearing), 30, frame["camera"])
        compass = frame["compass"]
        self.assertGreater(compass["opacity"], 0)
        # The compass stands at the top right.
        self.assertGreater(compass["x"], self.box["width"] / 2)
        self.assertLess(compass["y"], self.box["height"] / 2)
        self.tap(compass)
        self.page.wait_for_function("map.lastFrame.camera.bearing === 0 && map.lastFrame.compass.opacity === 0",
                                    timeout=5_000)
        self.settle()
        self.screenshot("gestures-compass-tapped-north-up")
        self.assertEqual(self.frame()["compass"]["opacity"], 0)

    def test_two_fingers_sliding_up_tilt(self):
        # 0.25° a pixel: 120 px up is 30°.
        self.touch_gesture([({"x": 250, "y": 500}, {"x": 250, "y": 380}), ({"x": 400, "y": 500}, {"x": 400, "y": 380})])
        self.settle()
        self.screenshot("gestures-two-finger-tilt")
        camera = self.camera()
        self.assertAlmostEqual(camera["tilt"], 30, delta=3)
        self.assertAlmostEqual(camera["bearing"], 0, delta=0.01)

    # ── gestures switched off (G1, G6) ───────────────────────────────────────────────────────

    def test_drag_does_nothing_with_scroll_off(self):
        self.set_gesture("scrollGestures", False)
        before = self.camera()
        self.mouse_drag({"x": 250, "y": 460}, {"x": 520, "y": 290}, steps=15, hold=0)   # fast: would fling
        self.settle(after=0.2)
        self.screenshot("gestures-scroll-off-drag-ignored")
        self.assertEqual(self.camera(), before)
        self.assertMovesFromCode()

    def test_wheel_double_click_and_pinch_do_nothing_with_zoom_off(self):
        self.set_gesture("zoomGestures", False)
        before = self.camera()
        point = {"x": 300, "y": 300}
        self.page.mouse.move(*self.page_xy(point))
        self.page.mouse.wheel(0, -300)
        self.settle(after=0.2)
        self.assertEqual(self.camera(), before, "wheel")
        self.page.mouse.dblclick(*self.page_xy(point))
        self.settle(after=0.4)
        self.assertEqual(self.camera(), before, "double click")
        mid = {"x": 330, "y": 420}
        self.touch_gesture([({"x": mid["x"] - 50, "y": mid["y"]}, {"x": mid["x"] - 150, "y": mid["y"]}),
                            ({"x": mid["x"] + 50, "y": mid["y"]}, {"x": mid["x"] + 150, "y": mid["y"]})])
        self.settle(after=0.2)
        self.screenshot("gestures-zoom-off-ignored")
        self.assertAlmostEqual(self.camera()["zoom"], before["zoom"], places=9, msg="pinch")
        self.assertMovesFromCode()

    def test_rotate_does_nothing_with_rotate_off(self):
        self.set_gesture("rotateGestures", False)
        # Diagonally: the vertical part still tilts, which shows the drag reached the map.
        self.mouse_drag({"x": 250, "y": 450}, {"x": 400, "y": 350}, button="right", steps=12)
        self.settle()
        self.screenshot("gestures-rotate-off-tilt-only")
        camera = self.camera()
        self.assertEqual(camera["bearing"], 0)
        self.assertGreater(camera["tilt"], 10)
        self.assertEqual(self.frame()["compass"]["opacity"], 0)
        self.assertMovesFromCode()

    def test_tilt_does_nothing_with_tilt_off(self):
        self.set_gesture("tiltGestures", False)
        # A ctrl-drag with the left button does what a right-drag does.
        self.mouse_drag({"x": 250, "y": 450}, {"x": 400, "y": 350}, modifiers=("Control",), steps=12)
        self.settle()
        self.screenshot("gestures-tilt-off-rotate-only")
        camera = self.camera()
        self.assertEqual(camera["tilt"], 0)
        self.assertGreater(min(camera["bearing"], 360 - camera["bearing"]), 30)
        # Two fingers sliding up side by side tilt a touch screen: ignored too.
        self.touch_gesture([({"x": 250, "y": 500}, {"x": 250, "y": 380}), ({"x": 400, "y": 500}, {"x": 400, "y": 380})])
        self.settle()
        self.assertEqual(self.camera()["tilt"], 0)
        self.assertMovesFromCode()


if __name__ == "__main__":
    unittest.main()
