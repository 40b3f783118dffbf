"""The Leaflet and MapLibre demo pages are reached from the demo's panel and draw Cairn's
clusters over their host's map, with no error on the page."""

import unittest

from harness import REPO, BrowserTestCase

VENDOR = REPO / "web" / "demo" / "vendor"


@unittest.skipUnless((VENDOR / "leaflet" / "leaflet.js").exists() and (VENDOR / "maplibre" / "maplibre-gl.js").exists(),
                     "the host libraries are not in web/demo/vendor (./build.sh test copies them)")
class HostDemoTest(BrowserTestCase):

    def reach(self, link, ready):
        self.open("/web/demo/?dataset=none&showcase=0")
        # Leaving the page while it still fetches its module would abort that fetch.
        self.page.wait_for_function("document.body.dataset.ready === 'true'", timeout=60_000)
        self.page.click(f"text={link}")
        self.page.wait_for_function(ready, timeout=90_000)

    def drawn(self, layer):
        frame = self.page.evaluate(f"{layer}.cairnMap.lastFrame")
        return [i for i in frame["items"] if i["kind"] == "cluster"]

    def test_the_leaflet_demo(self):
        self.reach("Cairn in Leaflet", "window.group !== undefined && /points and/.test(document.getElementById('readout').textContent)")
        self.assertTrue(self.page.url.endswith("/web/demo/leaflet/"), self.page.url)
        self.page.wait_for_function("group.cairnMap.lastFrame.items.some((i) => i.kind === 'cluster' && i.count > 100)")
        self.assertGreater(sum(c["count"] for c in self.drawn("group")), 1000)
        self.screenshot("demo-leaflet")

    def test_the_maplibre_demo(self):
        self.reach("Cairn in MapLibre", "window.layer !== undefined && /points and/.test(document.getElementById('readout').textContent)")
        self.assertTrue(self.page.url.endswith("/web/demo/maplibre/"), self.page.url)
        self.page.wait_for_function("layer.cairnMap.lastFrame.items.some((i) => i.kind === 'cluster' && i.count > 100)")
        self.assertGreater(sum(c["count"] for c in self.drawn("layer")), 1000)
        self.assertEqual(self.page.evaluate("layer.cairnMap.lastFrame.camera.tilt"), 40)
        self.screenshot("demo-maplibre")


if __name__ == "__main__":
    unittest.main()
