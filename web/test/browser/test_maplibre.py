"""Cairn's MapLibre layer in the real MapLibre GL JS (PyPI's maplibre package ships it; ./build.sh
test copies it into web/demo/vendor), drawing WebGL with SwiftShader: its points land on the
pixels of MapLibre's own markers at several zooms, bearings and pitches; a drag of MapLibre's map
moves them in the frame MapLibre draws; a cluster click zooms MapLibre to the cluster's
expansion zoom; a point click opens its MapLibre popup."""

import unittest

import math

from harness import REPO, BrowserTestCase
from pixels import decode_png
from test_leaflet import BLUE, box_of

PAGE = "/web/test/browser/pages/maplibre.html"
VENDOR = REPO / "web" / "demo" / "vendor" / "maplibre" / "maplibre-gl.js"
EIFFEL = [2.2945, 48.8584]


@unittest.skipUnless(VENDOR.exists(), "MapLibre not copied into web/demo/vendor (./build.sh test does it)")
class MapLibreLayerTest(BrowserTestCase):

    def setUp(self):
        super().setUp()
        self.open(PAGE)
        self.page.wait_for_function("window.ready === true", timeout=60_000)

    def js(self, script, arg=None):
        return self.page.evaluate(script, arg)

    def idle(self):
        """Until MapLibre has drawn everything asked of it, and Cairn's frame is current."""
        self.js("() => new Promise((done) => { if (map.loaded() && !map.isMoving()) requestAnimationFrame(() => requestAnimationFrame(done)); else map.once('idle', () => requestAnimationFrame(() => requestAnimationFrame(done))); })")

    def add_point_and_marker(self, lng_lat, flat=False):
        """A blue Cairn point and MapLibre's own red marker at the same place (both lying flat
        on the map, with `flat`)."""
        self.js("""([at, flat]) => {
            const blue = document.createElement('canvas');
            blue.width = blue.height = 12;
            const b = blue.getContext('2d'); b.fillStyle = '#0000ff'; b.fillRect(0, 0, 12, 12);
            window.layer = new MapLibreClusterLayer({ flat, icon: { image: blue, width: 12, height: 12, anchor: { x: 0.5, y: 0.5 } } });
            layer.addCoordinates(at);
            map.addLayer(layer);
            const red = document.createElement('div');
            red.style.cssText = 'width:12px;height:12px;background:#ff0000;';
            const alignment = flat ? { pitchAlignment: 'map', rotationAlignment: 'map' } : {};
            window.host = new maplibregl.Marker({ element: red, anchor: 'center', ...alignment }).setLngLat(at).addTo(map);
        }""", [lng_lat, flat])

    def host_box(self):
        return self.js("(() => { const r = host.getElement().getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })()")

    def cairn_box(self):
        self.js("host.getElement().style.visibility = 'hidden'")
        image = decode_png(self.page.screenshot(clip={"x": 0, "y": 0, "width": 800, "height": 600}))
        self.js("host.getElement().style.visibility = ''")
        return box_of(image, BLUE)

    def assert_on_host_marker(self, kind, name, delta):
        """Cairn's point is drawn where MapLibre drew its own marker (their boxes, in pixels)."""
        host, cairn = self.host_box(), self.cairn_box()
        self.assertIsNotNone(cairn, f"no Cairn point drawn at {name}")
        self.screenshot(f"maplibre-{kind}-{name.replace(' ', '-')}")
        for a, b in zip(host, cairn):
            self.assertAlmostEqual(a, b, delta=delta, msg=f"{name}: MapLibre's marker at {host}, Cairn's point at {cairn}")
        return host

    def test_a_point_lands_on_the_pixels_of_maplibres_own_marker_under_bearing_and_pitch(self):
        self.add_point_and_marker(EIFFEL)
        for zoom, bearing, pitch in ((3, 0, 0), (8.5, 0, 0), (12, 30, 0), (12, 0, 45), (14.3, -120, 60), (16, 75, 30)):
            # Off the centre, where pitch and bearing move a point most.
            self.js("""([z, b, p]) => {
                map.jumpTo({ center: [2.2945, 48.8584], zoom: z, bearing: b, pitch: p });
                map.jumpTo({ center: map.unproject([400 - 170, 300 + 110]) });
            }""", [zoom, bearing, pitch])
            self.idle()
            host = self.assert_on_host_marker("pixels", f"z{zoom} b{bearing} p{pitch}", 1)
            # Off the centre (pitch moves it from where it was put), still in the view.
            self.assertGreater(abs((host[0] + host[2]) / 2 - 400) + abs((host[1] + host[3]) / 2 - 300), 120, host)
            self.assertTrue(0 < host[0] < 800 and 0 < host[1] < 600, host)
            camera = self.js("layer.cairnMap.lastFrame.camera")
            self.assertAlmostEqual(camera["zoom"], zoom + 1, places=6)
            self.assertAlmostEqual(camera["tilt"], pitch, places=6)

    def test_flat_points_lie_on_the_map_as_maplibres_map_aligned_marker_does(self):
        self.add_point_and_marker(EIFFEL, flat=True)
        for zoom, bearing, pitch in ((12, 0, 60), (12, 0, 0), (13, 0, 45)):
            self.js("""([z, b, p]) => map.jumpTo({ center: [2.2945, 48.8584], zoom: z, bearing: b, pitch: p })""", [zoom, bearing, pitch])
            self.idle()
            # (MapLibre's map-aligned marker, and Cairn's flat point.)
            self.assert_on_host_marker("flat", f"z{zoom} b{bearing} p{pitch}", 1.5)
            item = self.js("layer.cairnMap.lastFrame.items[0]")
            self.assertAlmostEqual(item["scaleY"], math.cos(math.radians(pitch)), places=6)
        # Turned with the map: the icon's vertical points where the map's north does.
        self.js("map.jumpTo({ bearing: 30, pitch: 0 })")
        self.idle()
        self.assertAlmostEqual(self.js("layer.cairnMap.lastFrame.items[0].rotation"), -30, places=6)

    def test_while_the_engine_animates_the_camera_its_points_are_drawn_in_maplibres_frame(self):
        # After each animation frame has been painted (a task queued from the frame), Cairn's
        # canvas must show the point where the frame MapLibre drew last has it: not a frame
        # ahead (the engine moves MapLibre, which draws that camera in its next frame).
        self.add_point_and_marker(EIFFEL)
        self.js("map.jumpTo({ center: [2.2945, 48.8584], zoom: 10 }); host.getElement().style.visibility = 'hidden'")
        self.idle()
        samples = self.js("""() => new Promise((done) => {
            const canvas = [...map.getCanvasContainer().querySelectorAll('canvas')].find((c) => c !== map.getCanvas());
            const ctx = canvas.getContext('2d');
            let drawnAt = map.project([2.2945, 48.8584]);
            map.on('render', () => { drawnAt = map.project([2.2945, 48.8584]); });
            const out = [];
            let running = true;
            const sample = () => {
                const img = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
                let sx = 0, n = 0;
                for (let i = 0; i < img.length; i += 4) if (img[i + 2] > 200 && img[i] < 60 && img[i + 3] > 200) { sx += (i / 4) % canvas.width; n++; }
                const r = canvas.width / canvas.clientWidth;
                if (n) out.push([(sx / n + 0.5) / r, drawnAt.x]);
            };
            const loop = () => { if (!running) return; setTimeout(sample, 0); requestAnimationFrame(loop); };
            requestAnimationFrame(loop);
            layer.cairnMap.animateCamera({ latitude: 48.8584, longitude: 2.2945 + 0.05, zoom: 10.5 }, { duration: 1.2 });
            setTimeout(() => { running = false; done(out); }, 1800);
        })""")
        moving = [(cairn, host) for (cairn, host), (_, before) in zip(samples[1:], samples) if abs(host - before) > 1]
        self.assertGreater(len(moving), 8, samples)
        for cairn, host in moving:
            self.assertAlmostEqual(cairn, host, delta=1, msg=f"Cairn's point at x {cairn:.1f}, MapLibre's frame has it at {host:.1f}: {samples}")
        self.assertAlmostEqual(self.js("map.getZoom()"), 9.5, places=6)

    def test_a_drag_moves_the_points_in_the_frame_maplibre_draws(self):
        self.add_point_and_marker(EIFFEL)
        self.js("map.jumpTo({ center: [2.2945, 48.8584], zoom: 10, pitch: 40, bearing: 20 })")
        self.idle()
        # At each frame MapLibre draws (its render event, after the layers'), Cairn's frame was
        # drawn for the camera MapLibre drew with: the point is where MapLibre projects it.
        self.js("""() => {
            window.renders = [];
            map.on('render', () => {
                const frame = layer.cairnMap.lastFrame, item = frame.items[0];
                const p = map.project([2.2945, 48.8584]);
                renders.push([p.x - item.x, p.y - item.y, map.getCenter().lng - frame.camera.longitude]);
            });
        }""")
        self.page.mouse.move(400, 300)
        self.page.mouse.down()
        for i in range(1, 16):
            self.page.mouse.move(400 - 9 * i, 300 + 6 * i)
            self.js("() => new Promise((done) => requestAnimationFrame(done))")
        mid_host, mid = self.host_box(), self.cairn_box()
        self.page.mouse.up()
        renders = self.js("renders")
        self.assertGreaterEqual(len(renders), 5, "MapLibre drew no frames while dragged")
        for dx, dy, dlng in renders:
            self.assertLessEqual(abs(dx), 0.5, renders)
            self.assertLessEqual(abs(dy), 0.5, renders)
            self.assertLessEqual(abs(dlng), 1e-9, renders)
        self.assertIsNotNone(mid)
        for a, b in zip(mid_host, mid):
            self.assertAlmostEqual(a, b, delta=1, msg=f"mid-drag: MapLibre's marker at {mid_host}, Cairn's at {mid}")
        self.screenshot("maplibre-drag")

    def add_cluster(self, options=None):
        self.js("""(options) => {
            window.layer = new MapLibreClusterLayer(options);
            window.clicks = [];
            layer.on('clusterclick', (e) => { clicks.push(e); });
            const features = [];
            for (let i = 0; i < 30; i++) {
                features.push({ type: 'Feature', properties: { name: `p${i}` },
                                geometry: { type: 'Point', coordinates: [5 + Math.floor(i / 6) * 0.01, 45 + (i % 6) * 0.01] } });
            }
            layer.addGeoJSON({ type: 'FeatureCollection', features });
            map.addLayer(layer);
            map.jumpTo({ center: [5.02, 45.025], zoom: 7 });
        }""", options or {})
        self.idle()
        self.page.wait_for_function("layer.cairnMap.lastFrame && layer.cairnMap.lastFrame.items.some((i) => i.kind === 'cluster')")
        return self.js("layer.cairnMap.lastFrame.items.find((i) => i.kind === 'cluster')")

    def test_a_cluster_click_zooms_maplibre_to_the_expansion_zoom(self):
        cluster = self.add_cluster()
        self.assertEqual(cluster["count"], 30)
        expansion = self.js("(c) => layer.cairnMap.engine.clusterManager(c.manager).getClusterExpansionZoom(c.id)", cluster)
        self.screenshot("maplibre-cluster")
        self.page.mouse.click(cluster["x"], cluster["y"])
        # MapLibre's zoom is the engine's less one (512-pixel tiles).
        self.page.wait_for_function("(z) => Math.abs(map.getZoom() + 1 - z) < 1e-6 && !layer.cairnMap.lastFrame.animating", arg=expansion)
        self.idle()
        clicks = self.js("clicks")
        self.assertEqual(len(clicks), 1)
        self.assertEqual(clicks[0]["count"], 30)
        self.assertAlmostEqual(clicks[0]["expansionZoom"], expansion - 1)
        centre = self.js("map.getCenter()")
        self.assertAlmostEqual(centre["lng"], 5.02, delta=0.01)
        self.assertAlmostEqual(centre["lat"], 45.025, delta=0.01)
        self.screenshot("maplibre-cluster-zoomed")

    def test_a_point_click_opens_its_maplibre_popup(self):
        self.js("""() => {
            window.layer = new MapLibreClusterLayer({ popup: ({ properties }) => `<b id="popup">${properties.name}</b>` });
            layer.addGeoJSON({ type: 'FeatureCollection', features: [
                { type: 'Feature', properties: { name: 'Eiffel Tower' }, geometry: { type: 'Point', coordinates: [2.2945, 48.8584] } }] });
            map.addLayer(layer);
            map.jumpTo({ center: [2.2945, 48.8584], zoom: 12, pitch: 30 });
        }""")
        self.idle()
        self.page.wait_for_function("layer.cairnMap.lastFrame.items.length === 1")
        item = self.js("layer.cairnMap.lastFrame.items[0]")
        pin = self.js("layer.cairnMap.engine.pinSize")
        # The pin's body, above its tip.
        self.page.mouse.click(item["x"], item["y"] - pin["height"] / 2)
        self.page.wait_for_selector("#popup", state="visible")
        self.assertEqual(self.js("document.querySelector('#popup').textContent"), "Eiffel Tower")
        tip = self.js("(() => { const r = document.querySelector('.maplibregl-popup-tip').getBoundingClientRect(); return [r.left + r.width / 2, r.bottom]; })()")
        self.assertAlmostEqual(tip[0], item["x"], delta=2)
        self.assertAlmostEqual(tip[1], item["y"] - pin["height"], delta=3)
        self.screenshot("maplibre-popup")

    def test_bad_input_is_refused_and_the_layer_comes_off_cleanly(self):
        result = self.js("""async () => {
            const out = {};
            try { new MapLibreClusterLayer({ bogus: 1 }); } catch (e) { out.option = [e.name, e.code]; }
            window.layer = new MapLibreClusterLayer();
            try { layer.addGeoJSON(null); } catch (e) { out.geojson = [e.name, e.code]; }
            try { layer.addCoordinates([1, 2, 3]); } catch (e) { out.odd = [e.name, e.code]; }
            layer.addCoordinates([2.35, 48.85, 2.36, 48.86]);
            map.addLayer(layer);
            map.jumpTo({ center: [2.355, 48.855], zoom: 14 });
            await new Promise((d) => map.once('idle', d));
            out.drawn = layer.cairnMap.lastFrame.items.length;
            layer.clear();
            map.triggerRepaint();
            await new Promise((d) => map.once('idle', d));
            out.cleared = layer.cairnMap.lastFrame.items.length;
            map.removeLayer('cairn');
            out.removed = [layer.cairnMap, map.getCanvasContainer().children.length];
            return out;
        }""")
        self.assertEqual(result["option"], ["CairnError", "INVALID_ARGUMENT"])
        self.assertEqual(result["geojson"], ["CairnError", "INVALID_ARGUMENT"])
        self.assertEqual(result["odd"], ["CairnError", "INVALID_ARGUMENT"])
        self.assertEqual(result["drawn"], 2)
        self.assertEqual(result["cleared"], 0)
        self.assertEqual(result["removed"], [None, 1])

    def test_a_point_with_a_title_opens_cairns_info_window(self):
        self.js("""() => {
            window.layer = new MapLibreClusterLayer();
            window.clicked = [];
            layer.on('click', (e) => { clicked.push(e.properties.title); });
            layer.addGeoJSON({ type: 'FeatureCollection', features: [
                { type: 'Feature', properties: { title: 'Louvre' }, geometry: { type: 'Point', coordinates: [2.3376, 48.8606] } }] });
            map.addLayer(layer);
            map.jumpTo({ center: [2.3376, 48.8606], zoom: 13, pitch: 50, bearing: 40 });
        }""")
        self.idle()
        self.page.wait_for_function("layer.cairnMap.lastFrame.items.length === 1")
        item = self.js("layer.cairnMap.lastFrame.items[0]")
        pin = self.js("layer.cairnMap.engine.pinSize")
        self.page.mouse.click(item["x"], item["y"] - pin["height"] / 2)
        self.page.wait_for_function("layer.cairnMap.lastFrame.infoWindow !== null && !layer.cairnMap.lastFrame.animating")
        self.idle()
        self.assertEqual(self.js("clicked"), ["Louvre"])
        self.assertEqual(self.js("layer.cairnMap.selectedClusterItem.item.title"), "Louvre")
        # The engine centred the point (its default), and MapLibre followed it there.
        centre = self.js("map.getCenter()")
        self.assertAlmostEqual(centre["lng"], 2.3376, delta=1e-4)
        self.assertAlmostEqual(centre["lat"], 48.8606, delta=1e-4)
        self.assertAlmostEqual(self.js("map.getPitch()"), 50, places=6)
        self.screenshot("maplibre-info-window")


if __name__ == "__main__":
    unittest.main()
