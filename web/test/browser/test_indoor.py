"""The floor picker (feature G4) on the demo page: the Louvre is a building with five levels. Zoomed
in on it, the picker shows at the bottom right with the shown level marked; a tap on another
level shows that level's marker and hides the others'."""

import unittest

from demo_page import DemoTestCase, colour_distance

LOUVRE = {"latitude": 48.8606, "longitude": 2.3335, "zoom": 17, "bearing": 0, "tilt": 0}
WHITE = (255, 255, 255)


class FloorPickerTest(DemoTestCase):

    def titles_drawn(self):
        return set(self.js("""() => map.lastFrame.items.filter((i) => i.kind === 'marker')
            .map((i) => map.engine.marker(i.id).title)"""))

    def test_picker_shows_the_louvre_levels_and_a_tap_shows_another_floor(self):
        self.js("""() => {
            window.heard = [];
            window.stopIndoor = [
                map.on('indoorBuildingFocus', (b) => { window.louvre = b; heard.push(['focus', b && b.levels.length]); }),
                map.on('indoorLevelActivate', ({ building, level }) => { heard.push(['level', building === louvre, level]); }),
            ];
        }""")
        try:
            self.move_camera(**LOUVRE)
            picker = self.frame()["floorPicker"]
            self.assertIsNotNone(picker, "no floor picker over the Louvre at zoom 17")
            self.assertEqual((picker["count"], picker["first"], picker["activeLevel"]), (5, 0, 2))
            self.assertEqual(self.js("heard"), [["focus", 5]])
            drawn = self.titles_drawn()
            self.assertIn("Venus de Milo", drawn, "level 0's marker")
            self.assertNotIn("Mona Lisa", drawn, "level 1 is not shown")
            image = self.screenshot_image("indoor-floor-picker")
            # White buttons, the shown level's dark: sample each button's left margin inside.
            left = picker["x"] - picker["size"] / 2 + 4
            for k in range(picker["count"]):
                pixel = image.pixel(*self.page_xy({"x": left, "y": picker["top"] + (k + 0.5) * picker["size"]}))
                if k == picker["activeLevel"] - picker["first"]:
                    self.assertGreater(colour_distance(pixel, WHITE), 100, f"button {k} should be marked")
                else:
                    self.assertLessEqual(colour_distance(pixel, WHITE), 10, f"button {k} should be white")
            # Level 1 ('1', the second button): the Mona Lisa shows, the Venus de Milo goes.
            self.tap({"x": picker["x"], "y": picker["top"] + 1.5 * picker["size"]})
            self.settle(after=0.2)
            self.assertEqual(self.js("heard")[1:], [["level", True, 1]])
            self.assertEqual(self.js("louvre.activeLevel"), 1)
            self.assertEqual(self.frame()["floorPicker"]["activeLevel"], 1)
            drawn = self.titles_drawn()
            self.assertIn("Mona Lisa", drawn)
            self.assertNotIn("Venus de Milo", drawn)
            self.screenshot("indoor-level-1")
            # A marker placed with the building's handle (not only its id) follows the levels too.
            self.js("() => { window.onHandle = map.addMarker({ position: { latitude: 48.8609, longitude: 2.3330 }, title: 'Handle', indoorLevel: { building: louvre, level: 1 } }); }")
            self.wait_for_frame()
            self.assertIn("Handle", self.titles_drawn())
            self.js("() => { louvre.activeLevel = 0; }")
            self.wait_for_frame()
            self.assertNotIn("Handle", self.titles_drawn())
            self.js("() => onHandle.remove()")
            # The setting hides the picker; back to the default level for the next test.
            self.js("() => { map.settings = { indoorPicker: false }; louvre.activeLevel = 2; }")
            self.wait_for_frame()
            self.assertIsNone(self.frame()["floorPicker"])
        finally:
            self.js("() => { for (const stop of stopIndoor) stop(); map.settings = { indoorPicker: true }; }")


if __name__ == "__main__":
    unittest.main()
