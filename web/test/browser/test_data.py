"""The demo's generated data in the browser: points files stream in through points-file.js with
progress and without stalling the page, and the land outlines and cities land where they belong
(drawn into a screenshot to look at)."""

import unittest

from harness import BrowserTestCase, REPO

DATA = REPO / "web" / "demo" / "data"


def generated(name):
    maker = "node web/demo/make-synthetic.js" if name.startswith("synthetic") else "python3 web/demo/prepare-data.py"
    return unittest.skipUnless((DATA / name).exists(), f"web/demo/data/{name} not generated ({maker})")


class DataTest(BrowserTestCase):
    viewport = {"width": 1200, "height": 900}

    def load(self, path):
        """fetchPoints in the page: counts, progress, and the longest pause of the page's timers."""
        self.open_blank()
        return self.page.evaluate("""async (path) => {
            const { fetchPoints } = await import('/web/demo/points-file.js');
            let longest = 0, last = performance.now();
            const ticker = setInterval(() => {
                const now = performance.now();
                longest = Math.max(longest, now - last);
                last = now;
            }, 5);
            const progress = [];
            const points = await fetchPoints(path, (p) => progress.push(p));
            clearInterval(ticker);
            let inRange = true;
            for (let i = 0; i < points.count; i++) {
                const lng = points.lngLat[2 * i], lat = points.lngLat[2 * i + 1];
                if (!(lng >= -180 && lng <= 180 && lat >= -90 && lat <= 90)) inRange = false;
            }
            return {
                count: points.count,
                names: points.names ? points.names.length : null,
                first: points.names ? points.names[0] : null,
                population: points.population !== null,
                inRange,
                progressCalls: progress.length,
                last: progress.at(-1),
                longestPauseMs: longest,
            };
        }""", path)

    @generated("cities.bin")
    def test_cities_stream_in_with_names(self):
        result = self.load("/web/demo/data/cities.bin")
        size = (DATA / "cities.bin").stat().st_size
        self.assertGreaterEqual(result["count"], 100_000)
        self.assertEqual(result["names"], result["count"])
        self.assertTrue(result["inRange"])
        self.assertGreater(result["progressCalls"], 1)
        self.assertEqual(result["last"], {"loaded": size, "total": size})

    @generated("synthetic-1m.bin")
    def test_a_million_points_do_not_stall_the_page(self):
        result = self.load("/web/demo/data/synthetic-1m.bin")
        self.assertEqual(result["count"], 1_000_000)
        self.assertIsNone(result["names"])
        self.assertFalse(result["population"])
        self.assertTrue(result["inRange"])
        # Reading 8 MB and widening 2,000,000 floats takes tens of milliseconds; a second would
        # mean the page froze.
        self.assertLess(result["longestPauseMs"], 1000, result)

    @generated("land.json")
    @generated("cities.bin")
    def test_land_and_cities_line_up(self):
        self.open_blank()
        hits = self.page.evaluate("""async () => {
            const { fetchPoints } = await import('/web/demo/points-file.js');
            const rings = await (await fetch('/web/demo/data/land.json')).json();
            const cities = await fetchPoints('/web/demo/data/cities.bin');
            const width = 1200, height = 900;
            const canvas = document.createElement('canvas');
            canvas.width = width; canvas.height = height;
            document.body.style.margin = '0';
            document.body.append(canvas);
            const g = canvas.getContext('2d');
            // Web Mercator, the world's square scaled to the canvas width, latitudes to ±80.
            const x = (lng) => (lng + 180) / 360 * width;
            const y = (lat) => {
                const s = Math.sin(Math.max(-80, Math.min(80, lat)) * Math.PI / 180);
                return height / 2 - width * Math.log((1 + s) / (1 - s)) / (4 * Math.PI);
            };
            g.fillStyle = '#a9d3f5';
            g.fillRect(0, 0, width, height);
            g.fillStyle = '#f2efe6';
            g.strokeStyle = '#9a9a8a';
            for (const ring of rings) {
                g.beginPath();
                ring.forEach(([lng, lat], i) => (i ? g.lineTo(x(lng), y(lat)) : g.moveTo(x(lng), y(lat))));
                g.closePath();
                g.fill();
                g.stroke();
            }
            // Which cities fall on land: read the land colour under each before drawing them.
            const land = g.getImageData(0, 0, width, height).data;
            let onLand = 0, counted = 0;
            for (let i = 0; i < cities.count; i += 7) {
                const px = Math.floor(x(cities.lngLat[2 * i])), py = Math.floor(y(cities.lngLat[2 * i + 1]));
                if (px < 0 || py < 0 || px >= width || py >= height) continue;
                counted++;
                const o = 4 * (py * width + px);
                if (land[o] !== 0xa9 || land[o + 1] !== 0xd3 || land[o + 2] !== 0xf5) onLand++;
            }
            g.fillStyle = 'rgba(200, 40, 40, 0.5)';
            for (let i = 0; i < cities.count; i++) {
                g.fillRect(x(cities.lngLat[2 * i]) - 0.5, y(cities.lngLat[2 * i + 1]) - 0.5, 1, 1);
            }
            return { rings: rings.length, onLand, counted };
        }""")
        self.screenshot("data-land-and-cities")
        self.assertGreater(hits["rings"], 100)
        # Coastal towns at 1:110m fall in the sea now and then; most must be on land.
        self.assertGreater(hits["onLand"] / hits["counted"], 0.9, hits)


if __name__ == "__main__":
    unittest.main()
