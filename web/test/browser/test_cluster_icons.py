"""Cluster icons as a page draws them (feature C3): the engine sizes each icon by Google's rule,
`max(20, text size) + 3 × bucket + 6`, from the label metrics the page measured, and the icon on
the screen has that diameter in the bucket's colour."""

import unittest

from harness import BrowserTestCase
from pixels import decode_png

PAGE = """async (sizes) => {
  const { init, CairnMap } = await import('/web/src/index.js');
  const { measureClusterLabels } = await import('/web/src/render/cluster-icon.js');
  await init();
  document.body.style.margin = '0';
  const div = document.createElement('div');
  div.style.cssText = 'width: 800px; height: 500px';
  document.body.append(div);
  window.map = new CairnMap(div, { camera: { latitude: 0, longitude: 0, zoom: 5 } });
  const manager = map.addClusterManager({ algorithm: 'distance' });
  // Clusters of `sizes[k]` items on one point each, 6 degrees apart in longitude.
  const lngLat = [];
  sizes.forEach((n, k) => { for (let i = 0; i < n; i++) lngLat.push(-15 + 6 * k, 0); });
  manager.addCoordinates(new Float64Array(lngLat));
  manager.cluster();
  await new Promise((resolve) => {
    const check = () => (map.lastFrame && map.lastFrame.items.length === sizes.length ? resolve() : requestAnimationFrame(check));
    map.requestFrame();
    requestAnimationFrame(check);
  });
  const metrics = measureClusterLabels(map.engine.clusterLabelFontSize);
  return { items: map.lastFrame.items, metrics };
}"""


class ClusterIconSizeTest(BrowserTestCase):

    def test_diameters_are_googles_rule_over_the_measured_labels_and_drawn_so(self):
        self.open_blank()
        sizes = [7, 12, 60, 150, 250, 1200]
        result = self.page.evaluate(PAGE, sizes)
        metrics = result["metrics"]
        clusters = sorted((i for i in result["items"] if i["kind"] == "cluster"), key=lambda i: i["x"])
        self.assertEqual([c["count"] for c in clusters], sizes)
        advance = dict(zip("0123456789+", metrics["advances"]))
        for c in clusters:
            icon = c["clusterIcon"]
            text = icon["text"]
            size = max(sum(advance[ch] for ch in text), metrics["height"])
            bucket = max(c["icon"], 0)
            self.assertAlmostEqual(icon["diameter"], max(20, size) + 3 * bucket + 6, places=9, msg=text)
        self.assertEqual([c["clusterIcon"]["text"] for c in clusters], ["7", "10+", "50+", "100+", "200+", "1000+"])
        # The labels grow the icons: "1000+" is wider than 20 pixels at 14 px bold, "7" is not.
        self.assertGreater(clusters[-1]["clusterIcon"]["diameter"], 20 + 3 * 4 + 6)
        self.assertAlmostEqual(clusters[0]["clusterIcon"]["diameter"], 26, places=9)

        # On screen: the disc's colour reaches just inside the diameter and not beyond it.
        image = decode_png(self.screenshot("cluster-icons").read_bytes())
        for c in clusters:
            icon = c["clusterIcon"]
            colour = tuple(int(icon["color"][i:i + 2], 16) for i in (1, 3, 5))
            r = icon["diameter"] / 2
            inside = image.pixel(c["x"], c["y"] - (r - 2))
            outside = image.pixel(c["x"], c["y"] - (r + 2))
            self.assertLessEqual(max(abs(a - b) for a, b in zip(inside, colour)), 40, (icon, inside))
            self.assertGreater(max(abs(a - b) for a, b in zip(outside, colour)), 40, (icon, outside))


if __name__ == "__main__":
    unittest.main()
