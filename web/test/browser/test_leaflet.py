"""Cairn's Leaflet layer in the real Leaflet (Debian's libjs-leaflet, copied into web/demo/vendor by
./build.sh test): its markers land on the pixels Leaflet's own markers do, at any zoom and through
Leaflet's zoom animation; a drag of Leaflet's map moves them in the same frame; a cluster click
zooms Leaflet to the cluster's expansion zoom; a marker click opens its Leaflet popup, or Cairn's
info window for a marker with a title."""

import unittest

from harness import REPO, BrowserTestCase
from pixels import decode_png

PAGE = "/web/test/browser/pages/leaflet.html"
VENDOR = REPO / "web" / "demo" / "vendor" / "leaflet" / "leaflet.js"
RED, BLUE = (255, 0, 0), (0, 0, 255)


def box_of(image, colour, tolerance=40):
    """The bounding box (left, top, right, bottom) of the pixels near a colour, or None."""
    xs, ys = [], []
    for y in range(image.height):
        for x in range(image.width):
            p = image.pixel(x, y)
            if all(abs(p[i] - colour[i]) <= tolerance for i in range(3)):
                xs.append(x)
                ys.append(y)
    return (min(xs), min(ys), max(xs) + 1, max(ys) + 1) if xs else None


@unittest.skipUnless(VENDOR.exists(), "Leaflet not copied into web/demo/vendor (./build.sh test does it)")
class LeafletLayerTest(BrowserTestCase):

    def setUp(self):
        super().setUp()
        self.open(PAGE)
        self.page.wait_for_function("window.ready === true")

    def js(self, script, arg=None):
        return self.page.evaluate(script, arg)

    def frames(self, n=2):
        """Waits n animation frames."""
        self.js("(n) => new Promise((done) => { const f = (k) => k ? requestAnimationFrame(() => f(k - 1)) : done(); f(n); })", n)

    def add_pair(self, lat, lng, host_offset_px=60):
        """A blue Cairn marker at (lat, lng) and a red Leaflet marker as far east on screen, and
        the Cairn layer on the map."""
        self.js("""([lat, lng]) => {
            window.group = markerClusterGroup();
            group.addLayer(L.marker([lat, lng], { icon: square('#0000ff', 12) }));
            map.addLayer(group);
            window.host = L.marker([lat, lng], { icon: square('#ff0000', 12) }).addTo(map);
        }""", [lat, lng])

    def host_box(self):
        """Where Leaflet drew its own marker's icon, in page pixels."""
        return self.js("(() => { const r = host._icon.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })()")

    def cairn_box(self, hide_host=True):
        """Where Cairn drew its marker, found in a screenshot by its colour."""
        if hide_host:
            self.js("host._icon.style.visibility = 'hidden'")
        image = decode_png(self.page.screenshot(clip={"x": 0, "y": 0, "width": 800, "height": 600}))
        if hide_host:
            self.js("host._icon.style.visibility = ''")
        return box_of(image, BLUE)

    def test_a_marker_lands_on_the_pixels_of_leaflets_own_marker_at_several_zooms(self):
        self.add_pair(48.8584, 2.2945)
        for zoom in (2, 5, 9.5, 13, 17):
            self.js("(z) => map.setView([48.8584, 2.2945], z, { animate: false })", zoom)
            self.js("(z) => map.panBy([137, -83], { animate: false })", zoom)  # off the centre
            self.frames(3)
            # Images load once; wait until the icon is drawn.
            self.page.wait_for_function("group.cairnMap.lastFrame.items.length === 1")
            host = self.host_box()
            cairn = self.cairn_box()
            self.assertIsNotNone(cairn, f"no Cairn marker drawn at zoom {zoom}")
            self.screenshot(f"leaflet-pixels-z{zoom}")
            for a, b in zip(host, cairn):
                self.assertAlmostEqual(a, b, delta=1, msg=f"zoom {zoom}: Leaflet's icon at {host}, Cairn's at {cairn}")

    def test_a_div_icon_marker_is_drawn_as_leaflet_lays_it_out(self):
        # The same divIcon shape twice: Cairn's with a blue box, Leaflet's own with a red one,
        # both with a 3 px green border and a label, styled by the page's CSS.
        self.js("""() => {
            const style = document.createElement('style');
            style.textContent = '.tag { border: 3px solid #00ff00; font: bold 12px sans-serif; color: #ffffff; }' +
                '.tag.cairn { background: #0000ff; } .tag.host { background: #ff0000; }';
            document.head.appendChild(style);
            const at = [48.8584, 2.2945];
            const icon = (kind) => L.divIcon({ className: `tag ${kind}`, html: 'A', iconSize: [30, 18], iconAnchor: [5, 24] });
            window.group = markerClusterGroup();
            group.addLayer(L.marker(at, { icon: icon('cairn') }));
            map.addLayer(group);
            window.host = L.marker(at, { icon: icon('host') }).addTo(map);
            map.setView([48.85, 2.30], 12, { animate: false });
        }""")
        self.frames(3)
        self.page.wait_for_function("group.cairnMap.lastFrame.items.length === 1")
        item = self.js("group.cairnMap.lastFrame.items[0]")
        # The border box is 36 x 24; Leaflet anchors it 5 px from its left, at its bottom.
        self.assertAlmostEqual(item["anchorX"], 5 / 36, delta=0.01)
        self.assertAlmostEqual(item["anchorY"], 1, delta=0.01)
        host = self.js("(() => { const r = host._icon.getBoundingClientRect(); return [r.left + 3, r.top + 3, r.right - 3, r.bottom - 3]; })()")
        self.js("host._icon.style.visibility = 'hidden'")
        image = decode_png(self.page.screenshot(clip={"x": 0, "y": 0, "width": 800, "height": 600}))
        self.js("host._icon.style.visibility = ''")
        self.screenshot("leaflet-div-icon")
        blue = box_of(image, BLUE)
        self.assertIsNotNone(blue, "the divIcon's background is not drawn")
        for a, b in zip(host, blue):
            self.assertAlmostEqual(a, b, delta=1, msg=f"Leaflet's divIcon inside its border at {host}, Cairn's at {blue}")
        green = box_of(image, (0, 255, 0))
        self.assertIsNotNone(green, "the divIcon's border is not drawn")
        for a, b, d in zip(blue, green, (-3, -3, 3, 3)):
            self.assertAlmostEqual(a + d, b, delta=1, msg=f"the border {green} around the box {blue}")
        text = [p for p in ((x, y) for y in range(blue[1], blue[3]) for x in range(blue[0], blue[2])) if min(image.pixel(*p)[:3]) > 200]
        self.assertGreater(len(text), 10, "the label is not drawn in its colour")

    def test_a_div_icon_without_an_anchor_is_anchored_where_leaflet_puts_it(self):
        # Leaflet anchors a divIcon at the middle of iconSize, and without a size at its
        # top left corner: each Cairn icon's anchor is the point of it Leaflet puts on the marker.
        result = self.js("""async () => {
            const at = [48.8584, 2.2945];
            map.setView(at, 12, { animate: false });
            const out = [];
            for (const size of [[13, 9], null]) {
                const options = { className: '', html: '<div style="width:13px;height:9px;background:#00f"></div>', iconSize: size };
                const group = markerClusterGroup();
                group.addLayer(L.marker(at, { icon: L.divIcon(options) }));
                map.addLayer(group);
                const host = L.marker(at, { icon: L.divIcon(options) }).addTo(map);
                await new Promise((d) => requestAnimationFrame(() => requestAnimationFrame(d)));
                const item = group.cairnMap.lastFrame.items[0];
                // Leaflet anchors its element by negative margins from the marker's point.
                const r = host._icon.getBoundingClientRect(), st = host._icon.style;
                const leaflet = [-(parseFloat(st.marginLeft) || 0) / r.width, -(parseFloat(st.marginTop) || 0) / r.height];
                out.push({ anchor: [item.anchorX, item.anchorY], leaflet });
                map.removeLayer(group);
                host.remove();
            }
            return out;
        }""")
        self.assertEqual(result[0]["anchor"], [0.5, 0.5])
        self.assertEqual(result[1]["anchor"], [0, 0])
        for r in result:
            for a, b in zip(r["anchor"], r["leaflet"]):
                self.assertAlmostEqual(a, b, places=6, msg=f"Cairn's anchor {r['anchor']}, Leaflet's {r['leaflet']}")

    def test_markers_follow_leaflets_zoom_animation_frame_by_frame(self):
        self.add_pair(48.8584, 2.2945)
        self.js("map.setView([48.85, 2.30], 12, { animate: false })")
        self.frames(3)
        # Leaflet's zoom animation held at points of its transition (the browser's own
        # transitions, paused; Leaflet's timer that ends the animation held back meanwhile):
        # Cairn's drawn marker against Leaflet's icon, which the transition moves.
        samples = self.js("""() => new Promise((done) => {
            const frame = () => new Promise((d) => requestAnimationFrame(d));
            const end = map._onZoomTransitionEnd;
            map._onZoomTransitionEnd = () => {};
            map.once('zoomanim', async () => {
                await frame(); await frame();
                const transitions = document.getAnimations();
                const out = [];
                for (const t of [40, 125, 210]) {
                    for (const a of transitions) { a.pause(); a.currentTime = t; }
                    await frame(); await frame();
                    const item = group.cairnMap.lastFrame.items[0];
                    const c = group.cairnMap.canvas.getBoundingClientRect();
                    const r = host._icon.getBoundingClientRect();
                    out.push({ at: t, transitions: transitions.length, host: [r.left + r.width / 2, r.top + r.height / 2],
                               cairn: [c.left + item.x, c.top + item.y], zoom: group.cairnMap.lastFrame.camera.zoom });
                }
                for (const a of transitions) a.finish();
                map._onZoomTransitionEnd = end;
                map.once('zoomend', () => done(out));
                end.call(map);
            });
            map.setZoom(13.5, { animate: true });
        })""")
        zooms = [s["zoom"] for s in samples]
        self.assertTrue(12 < zooms[0] < zooms[1] < zooms[2] < 13.5, samples)
        for s in samples:
            self.assertGreater(s["transitions"], 0, s)
            self.assertAlmostEqual(s["host"][0], s["cairn"][0], delta=1, msg=s)
            self.assertAlmostEqual(s["host"][1], s["cairn"][1], delta=1, msg=s)
        self.frames(3)
        self.assertAlmostEqual(self.js("group.cairnMap.lastFrame.camera.zoom"), 13.5, places=6)

    def test_a_drag_of_leaflets_map_moves_the_markers_in_the_same_frame(self):
        self.add_pair(48.8584, 2.2945)
        self.js("map.setView([48.8584, 2.2945], 10, { animate: false })")
        self.frames(3)
        # After each of Leaflet's move events (ours ran first), Cairn's frame is already drawn
        # for the camera Leaflet moved to: the marker is where Leaflet's is.
        self.js("""() => {
            window.moves = [];
            map.on('move', () => {
                const item = group.cairnMap.lastFrame.items[0];
                const c = group.cairnMap.canvas.getBoundingClientRect();
                const r = host._icon.getBoundingClientRect();
                moves.push([r.left + r.width / 2 - (c.left + item.x), r.top + r.height / 2 - (c.top + item.y)]);
            });
        }""")
        self.page.mouse.move(500, 300)
        self.page.mouse.down()
        for i in range(1, 16):
            self.page.mouse.move(500 - 11 * i, 300 + 7 * i)
        self.screenshot("leaflet-drag")
        mid = self.cairn_box()
        host = self.host_box()
        self.page.mouse.up()
        moves = self.js("moves")
        self.assertGreaterEqual(len(moves), 5, "Leaflet reported no drag")
        for dx, dy in moves:
            self.assertLessEqual(abs(dx), 0.5, moves)
            self.assertLessEqual(abs(dy), 0.5, moves)
        self.assertIsNotNone(mid)
        for a, b in zip(host, mid):
            self.assertAlmostEqual(a, b, delta=1, msg=f"mid-drag: Leaflet's icon at {host}, Cairn's at {mid}")

    def add_cluster(self):
        """Thirty markers close together, clustered at zoom 8; the cluster's draw item."""
        self.js("""() => {
            window.group = markerClusterGroup();
            window.clicks = [];
            group.on('clusterclick', (e) => clicks.push(e.layer.getChildCount()));
            for (let i = 0; i < 30; i++) group.addLayer(L.marker([45 + (i % 6) * 0.01, 5 + Math.floor(i / 6) * 0.01]));
            map.addLayer(group);
            map.setView([45.03, 5.02], 8, { animate: false });
        }""")
        self.page.wait_for_function("group.cairnMap.lastFrame && group.cairnMap.lastFrame.items.some((i) => i.kind === 'cluster')")
        return self.js("group.cairnMap.lastFrame.items.find((i) => i.kind === 'cluster')")

    def test_a_cluster_click_zooms_leaflet_to_the_expansion_zoom(self):
        cluster = self.add_cluster()
        self.assertEqual(cluster["count"], 30)
        expansion = self.js("(c) => group.cairnMap.engine.clusterManager(c.manager).getClusterExpansionZoom(c.id)", cluster)
        self.assertGreater(expansion, 8)
        self.screenshot("leaflet-cluster")
        self.page.mouse.click(cluster["x"], cluster["y"])
        self.page.wait_for_function("(z) => Math.abs(map.getZoom() - z) < 1e-9 && !group.cairnMap.lastFrame.animating", arg=expansion)
        self.frames(2)
        self.assertEqual(self.js("clicks"), [30])
        # The engine centred Leaflet on the cluster, and its own camera is Leaflet's.
        centre = self.js("[map.getCenter().lat, map.getCenter().lng]")
        self.assertAlmostEqual(centre[0], 45.025, delta=0.01)
        self.assertAlmostEqual(centre[1], 5.02, delta=0.01)
        camera = self.js("group.cairnMap.lastFrame.camera")
        self.assertAlmostEqual(camera["zoom"], expansion, places=6)
        self.assertAlmostEqual(camera["latitude"], centre[0], places=6)
        self.screenshot("leaflet-cluster-zoomed")

    def test_zoom_to_bounds_on_click_off_keeps_the_zoom(self):
        self.js("""() => { const make = markerClusterGroup; window.markerClusterGroup = (o) => make({ ...o, zoomToBoundsOnClick: false }); }""")
        cluster = self.add_cluster()
        self.page.mouse.click(cluster["x"], cluster["y"])
        self.page.wait_for_function("clicks.length === 1")
        self.frames(20)
        self.assertEqual(self.js("map.getZoom()"), 8)

    def test_a_marker_click_opens_its_leaflet_popup_over_it(self):
        self.js("""() => {
            window.group = markerClusterGroup();
            window.clicked = [];
            const m = L.marker([48.8584, 2.2945], { icon: square('#0000ff', 12) }).bindPopup('<b id="eiffel">Eiffel Tower</b>');
            m.on('click', () => clicked.push('marker'));
            group.on('click', (e) => clicked.push(e.layer === m ? 'group' : 'other'));
            group.addLayer(m);
            map.addLayer(group);
            map.setView([48.8584, 2.2945], 12, { animate: false });
        }""")
        self.page.wait_for_function("group.cairnMap.lastFrame && group.cairnMap.lastFrame.items.length === 1")
        item = self.js("group.cairnMap.lastFrame.items[0]")
        self.page.mouse.click(item["x"] + 3, item["y"] - 2)
        self.page.wait_for_selector("#eiffel", state="visible")
        self.assertEqual(self.js("clicked"), ["marker", "group"])
        tip = self.js("(() => { const r = document.querySelector('.leaflet-popup-tip').getBoundingClientRect(); return [r.left + r.width / 2, r.bottom]; })()")
        # The tip stands on the icon's top (popupAnchor [0, -6]).
        self.assertAlmostEqual(tip[0], item["x"], delta=2)
        self.assertLess(tip[1], item["y"] - 6 + 2)
        self.assertGreater(tip[1], item["y"] - 6 - 12)
        self.screenshot("leaflet-popup")

    def test_a_marker_with_a_title_opens_cairns_info_window(self):
        self.js("""() => {
            window.group = markerClusterGroup();
            group.addLayer(L.marker([48.8584, 2.2945], { icon: square('#0000ff', 12), title: 'Eiffel Tower' }));
            map.addLayer(group);
            map.setView([48.8584, 2.2945], 12, { animate: false });
        }""")
        self.page.wait_for_function("group.cairnMap.lastFrame && group.cairnMap.lastFrame.items.length === 1")
        item = self.js("group.cairnMap.lastFrame.items[0]")
        self.page.mouse.click(item["x"], item["y"])
        self.page.wait_for_function("group.cairnMap.lastFrame.infoWindow !== null && !group.cairnMap.lastFrame.animating")
        selected = self.js("group.cairnMap.selectedClusterItem.item.title")
        self.assertEqual(selected, "Eiffel Tower")
        window = self.js("group.cairnMap.lastFrame.infoWindow")
        image = decode_png(self.page.screenshot(clip={"x": 0, "y": 0, "width": 800, "height": 600}))
        # The window is drawn: white inside its box.
        box = image.pixels(window["left"] + 4, window["top"] + 4, window["left"] + window["width"] - 4, window["top"] + window["height"] - 12)
        white = sum(p == (255, 255, 255) for p in box) / len(box)
        self.assertGreater(white, 0.5, window)
        self.screenshot("leaflet-info-window")

    def test_the_layer_api_changes_what_the_engine_holds(self):
        result = self.js("""async () => {
            const frame = () => new Promise((d) => requestAnimationFrame(d));
            const out = {};
            try { markerClusterGroup({ bogus: 1 }); } catch (e) { out.option = [e.name, e.code, e.message]; }
            window.group = markerClusterGroup();
            try { group.addLayers('x'); } catch (e) { out.layers = [e.name, e.code]; }
            const a = L.marker([48.85, 2.35], { icon: square('#0000ff', 12) });
            const b = L.marker([48.86, 2.36], { icon: square('#0000ff', 12) });
            group.addLayers([a, b]);            // before the map: held until it is added
            map.addLayer(group);
            map.setView([48.855, 2.355], 15, { animate: false });
            await frame(); await frame();
            out.before = group.cairnMap.lastFrame.items.map((i) => [i.kind, Math.round(i.x), Math.round(i.y)]);
            a.setLatLng([48.855, 2.355]);       // moved: the engine knows once refreshed
            group.refreshClusters(a);
            await frame(); await frame();
            const p = map.latLngToContainerPoint([48.855, 2.355]);
            out.moved = group.cairnMap.lastFrame.items.some((i) => Math.abs(i.x - p.x) < 0.5 && Math.abs(i.y - p.y) < 0.5);
            // The markers' events reach the group's handlers while they are its own, and after
            // removal only their own other parents' (b keeps one of its own).
            group.on('custom', () => {});
            const other = L.layerGroup().on('other', () => {});
            b.addEventParent(other);
            out.listens = [a.listens('custom', true), b.listens('custom', true), b.listens('other', true)];
            group.removeLayer(b);
            out.listensAfter = [a.listens('custom', true), b.listens('custom', true), b.listens('other', true)];
            await frame(); await frame();
            out.afterRemove = [group.getLayers().length, group.hasLayer(b), group.cairnMap.lastFrame.items.length];
            const bounds = group.getBounds();
            out.bounds = [bounds.getSouth(), bounds.getNorth()];
            group.clearLayers();
            await frame(); await frame();
            out.cleared = [group.getLayers().length, group.cairnMap.lastFrame.items.length];
            map.removeLayer(group);
            out.removed = [group.cairnMap, document.querySelectorAll('.cairn-leaflet-layer').length];
            return out;
        }""")
        self.assertEqual(result["option"][:2], ["CairnError", "INVALID_ARGUMENT"])
        self.assertIn("bogus", result["option"][2])
        self.assertEqual(result["layers"], ["CairnError", "INVALID_ARGUMENT"])
        self.assertEqual(len(result["before"]), 2)
        self.assertTrue(result["moved"])
        self.assertEqual(result["listens"], [True, True, True])
        self.assertEqual(result["listensAfter"], [True, False, True])
        self.assertEqual(result["afterRemove"], [1, False, 1])
        self.assertEqual(result["bounds"], [48.855, 48.855])
        self.assertEqual(result["cleared"], [0, 0])
        self.assertEqual(result["removed"], [None, 0])

    def test_disable_clustering_at_zoom_and_spiderfy_on_max_zoom(self):
        result = self.js("""async () => {
            const frame = () => new Promise((d) => requestAnimationFrame(d));
            const settle = async () => { for (let i = 0; i < 60 && (group.cairnMap.lastFrame.animating
                || group.cairnMap.lastFrame.items.some((i) => i.progress < 1)); i++) await frame(); await frame(); };
            window.group = markerClusterGroup({ disableClusteringAtZoom: 12 });
            for (let i = 0; i < 20; i++) group.addLayer(L.marker([45 + (i % 5) * 0.002, 5 + Math.floor(i / 5) * 0.002]));
            map.addLayer(group);
            const kinds = () => group.cairnMap.lastFrame.items.map((i) => i.kind).sort().join(',');
            const out = {};
            map.setView([45.004, 5.003], 11, { animate: false });
            await frame(); await settle();
            out.at11 = kinds();
            map.setView([45.004, 5.003], 12, { animate: false });
            await frame(); await settle();
            out.at12 = kinds();
            map.removeLayer(group);
            // Ten markers on one spot: at Leaflet's deepest zoom (made 16, where the engine
            // still clusters them) a click spreads them out.
            map.setMaxZoom(16);
            window.group = markerClusterGroup();
            for (let i = 0; i < 10; i++) group.addLayer(L.marker([46, 6]));
            map.addLayer(group);
            map.setView([46, 6], 16, { animate: false });
            await frame(); await settle();
            out.stacked = kinds();
            return out;
        }""")
        self.assertIn("cluster", result["at11"])
        self.assertEqual(result["at12"], ",".join(["clusterItem"] * 20))
        self.assertEqual(result["stacked"], "cluster")
        cluster = self.js("group.cairnMap.lastFrame.items[0]")
        self.page.mouse.click(cluster["x"], cluster["y"])
        self.page.wait_for_function("group.cairnMap.lastFrame.items.filter((i) => i.kind === 'clusterItem' && i.leg).length === 10")
        self.assertEqual(self.js("map.getZoom()"), 16)
        self.assertEqual(self.js("group.cairnMap.engine.limits.maxZoom"), 16)
        self.screenshot("leaflet-spiderfied")


if __name__ == "__main__":
    unittest.main()
