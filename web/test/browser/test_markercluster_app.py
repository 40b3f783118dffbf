"""An app written for Leaflet.markercluster (web/demo/leaflet/markercluster-app.js, its common API:
options, iconCreateFunction, addLayers, removeLayer, getLayers, the clusterclick and click events,
zoomToShowLayer, bindPopup and openPopup) runs unchanged on Cairn's layer, and does the same on
Debian's Leaflet.markercluster, which checks that it is a real app of that library."""

import unittest

from harness import REPO, BrowserTestCase

PAGE = "/web/demo/leaflet/markercluster-app.html"
VENDOR = REPO / "web" / "demo" / "vendor" / "leaflet" / "leaflet.markercluster.js"


@unittest.skipUnless(VENDOR.exists(), "Leaflet.markercluster not copied into web/demo/vendor (./build.sh test does it)")
class MarkerClusterAppTest(BrowserTestCase):

    def js(self, script, arg=None):
        return self.page.evaluate(script, arg)

    def start(self, peer):
        self.open(PAGE + ("?peer=1" if peer else ""))
        self.page.wait_for_function("window.ready === true && window.app !== undefined", timeout=60_000)

    def show_place_5(self):
        """zoomToShowLayer, then openPopup in its callback: the popup of Place 5 is shown."""
        self.js("new Promise((done) => app.show(app.markers[5], done))")
        self.page.wait_for_selector(".leaflet-popup .place", state="visible")
        self.assertEqual(self.js("document.querySelector('.leaflet-popup .place').textContent"), "Place 5")
        self.assertIn("shown Place 5", self.js("app.log"))

    def test_the_app_on_leaflet_markercluster(self):
        self.start(peer=True)
        self.assertEqual(self.js("app.count()"), 2000)
        self.assertTrue(self.js("app.group instanceof L.MarkerClusterGroup"))
        self.screenshot("markercluster-app-peer")
        zoom = self.js("app.map.getZoom()")
        self.page.click(".marker-cluster-large")
        self.page.wait_for_function("(z) => app.map.getZoom() > z", arg=zoom)
        self.assertTrue(any(e.startswith("clusterclick ") for e in self.js("app.log")))
        self.show_place_5()

    def test_the_same_app_on_cairns_layer(self):
        self.start(peer=False)
        self.assertEqual(self.js("app.count()"), 2000)
        self.assertFalse(self.js("'MarkerClusterGroup' in L"), "Leaflet.markercluster was loaded")
        self.page.wait_for_function("app.group.cairnMap.lastFrame && app.group.cairnMap.lastFrame.items.some((i) => i.kind === 'cluster')")
        self.screenshot("markercluster-app-cairn")
        # The look of iconCreateFunction's divIcon, from Leaflet.markercluster's CSS: a large
        # cluster's outer ring is its orange, drawn by Cairn on its canvas.
        frame = self.js("app.group.cairnMap.lastFrame")
        big = max((i for i in frame["items"] if i["kind"] == "cluster"), key=lambda i: i["count"])
        self.assertGreaterEqual(big["count"], 100)
        zoom = self.js("app.map.getZoom()")
        self.page.mouse.click(big["x"], big["y"])
        self.page.wait_for_function("(z) => app.map.getZoom() > z && !app.group.cairnMap.lastFrame.animating", arg=zoom)
        self.assertIn(f"clusterclick {big['count']}", self.js("app.log"))
        self.show_place_5()
        self.screenshot("markercluster-app-cairn-popup")
        # A click on a marker drawn on its own: the app's click handler and the marker's popup.
        self.js("app.map.closePopup()")
        # Leaflet fades a closed popup out before it removes it.
        self.page.wait_for_selector(".leaflet-popup", state="detached")
        item = self.js("""(() => {
            const f = app.group.cairnMap.lastFrame;
            return f.items.find((i) => i.kind === 'clusterItem' && i.opacity === 1 && i.x > 40 && i.x < 984 && i.y > 60 && i.y < 740);
        })()""")
        self.assertIsNotNone(item, "no marker drawn on its own")
        pin = self.js("(id) => app.group.cairnMap.lastFrame.items.find((i) => i.id === id && i.kind === 'clusterItem').anchorY", item["id"])
        self.assertGreater(pin, 0.5)  # Leaflet's default icon stands on its tip
        self.page.mouse.click(item["x"], item["y"] - 20)
        self.page.wait_for_function("app.log.some((e) => e.startsWith('click '))")
        title = next(e for e in self.js("app.log") if e.startswith("click "))[len("click "):]
        self.assertRegex(title, r"^(Place \d+|Eiffel Tower)$")
        self.page.wait_for_selector(".leaflet-popup .place", state="visible")
        self.assertEqual(self.js("[...document.querySelectorAll('.leaflet-popup .place')].map((e) => e.textContent)"), [title])


if __name__ == "__main__":
    unittest.main()
