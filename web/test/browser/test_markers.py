"""Taps on what the demo draws (features C7, M11, I1, I3): a cluster zooms to where it splits, a
marker opens its info window with its own title (one window at a time), and a city drawn as a
cluster item opens a window with the city's name, which the demo shows with a marker of its own."""

import unittest

from demo_page import PIN_TAP_LIFT, DemoTestCase, colour_distance

PARIS = {"latitude": 48.86, "longitude": 2.33, "zoom": 13, "bearing": 0, "tilt": 0}
# Showcase markers with the default info window (others have a popover or a custom window).
PLAIN_WINDOWS = ["Louvre", "Eiffel Tower", "Notre-Dame", "Sacré-Cœur"]
WHITE = (255, 255, 255)


class MarkerTapTest(DemoTestCase):

    def titled_markers(self, items):
        """Index, item and title of each showcase marker drawn, by the marker's id."""
        titles = self.js("(ids) => ids.map((id) => map.engine.marker(id).title)",
                         [i["id"] for i in items if i["kind"] == "marker"])
        found, k = [], 0
        for index, item in enumerate(items):
            if item["kind"] == "marker":
                found.append((index, item, titles[k]))
                k += 1
        return found

    def tappable(self, items, title):
        """The drawn marker with this title whose body nothing covers, and where to tap it."""
        for index, item, t in self.titled_markers(items):
            point = {"x": item["x"], "y": item["y"] - PIN_TAP_LIFT}
            if t == title and self.in_view(point) and self.uncovered(items, index, point):
                return item, point
        self.fail(f"no tappable marker titled {title!r} among {[t for _, _, t in self.titled_markers(items)]}")

    @staticmethod
    def window_box(window, inset=6):
        """The inside of an info window's bubble: its box, less the rounded corners and the
        tail at the bottom (the window's (x, y) is the tail's tip)."""
        tail = 8
        return (window["x"] - window["width"] / 2 + inset, window["y"] - window["height"] + inset,
                window["x"] + window["width"] / 2 - inset, window["y"] - tail - inset)

    @staticmethod
    def white_share(image, box):
        pixels = image.pixels(*box)
        return sum(colour_distance(p, WHITE) <= 5 for p in pixels) / max(1, len(pixels))

    def assertWindowAt(self, item, marker_id, title):
        """The frame's one window belongs to the marker with this title and stands on it."""
        frame = self.frame()
        window = frame["infoWindow"]
        self.assertIsNotNone(window, "no info window in the frame")
        self.assertEqual(window["marker"], marker_id)
        self.assertEqual(frame["selectedMarker"], marker_id)
        self.assertEqual(self.js("map.selectedMarker && map.selectedMarker.title"), title)
        drawn = next(i for i in frame["items"] if i["kind"] == "marker" and i["id"] == marker_id)
        # Centred above the marker, its tail at the top of the pin (infoWindowAnchor (0.5, 0)).
        self.assertAlmostEqual(window["x"], drawn["x"], delta=1)
        self.assertTrue(drawn["y"] - 60 <= window["y"] <= drawn["y"] - 30, (window, drawn))
        # The default window is drawn on the canvas, not as page content.
        self.assertEqual(self.page.locator("[data-cairn-info-window]").count(), 0)
        return window, drawn

    # ── clusters ─────────────────────────────────────────────────────────────────────────────

    def test_cluster_tap_zooms_to_its_expansion_zoom(self):
        frame = self.frame()
        items = frame["items"]
        choice = None
        for index, item in enumerate(items):
            if item["kind"] == "cluster" and self.in_view(item, inset=80) and self.uncovered(items, index, item):
                choice = item
                break
        self.assertIsNotNone(choice, "no cluster clear of other items in the starting view")
        expansion = self.js("(id) => demo.manager.getClusterExpansionZoom(id)", choice["id"])
        self.assertGreater(expansion, frame["camera"]["zoom"])
        place = self.ground(choice)
        self.tap(choice)
        self.settle(after=0.4)
        self.screenshot("markers-cluster-tapped-expanded")
        self.assertAlmostEqual(self.camera()["zoom"], expansion, delta=0.01)
        # Centred on the cluster (C7).
        self.assertNear(self.screen(place), self.centre(), what="the tapped cluster's place")

    # ── markers and their info windows ───────────────────────────────────────────────────────

    def test_marker_tap_opens_its_window_and_another_tap_moves_it(self):
        self.move_camera(**PARIS)
        items = self.frame()["items"]
        first, point = self.tappable(items, PLAIN_WINDOWS[0])
        self.tap(point)
        self.settle(after=0.4)
        image = self.screenshot_image("markers-info-window-louvre")
        window, drawn = self.assertWindowAt(first, first["id"], PLAIN_WINDOWS[0])
        # The default tap also centres the marker (M11).
        self.assertNear(drawn, self.centre(), what="the tapped marker")
        self.assertGreater(self.white_share(image, self.window_box(window)), 0.7, window)

        # Another marker: its window replaces the first one (I3).
        items = self.frame()["items"]
        second, point = self.tappable(items, PLAIN_WINDOWS[1])
        self.tap(point)
        self.settle(after=0.4)
        image = self.screenshot_image("markers-info-window-moved-to-eiffel-tower")
        window, drawn = self.assertWindowAt(second, second["id"], PLAIN_WINDOWS[1])
        self.assertNear(drawn, self.centre(), what="the second marker")
        box = self.window_box(window)
        self.assertGreater(self.white_share(image, box), 0.7, window)
        # Where the first window would be now, above its marker, nothing white is left.
        louvre = next(i for i in self.frame()["items"] if i["kind"] == "marker" and i["id"] == first["id"])
        old = {**window, "x": louvre["x"], "y": louvre["y"] - (drawn["y"] - window["y"]),
               "width": 60, "height": 40}
        old_box = self.window_box(old, inset=0)
        self.assertTrue(old_box[2] < box[0] or old_box[0] > box[2] or old_box[3] < box[1] or old_box[1] > box[3],
                        "the markers are too close to tell their windows apart")
        self.assertLess(self.white_share(image, old_box), 0.1, "a window is still drawn over the first marker")

    def isolated_city(self):
        """A city of the starting view drawn on its own, approached to zoom 12: its id, name,
        draw item and where to tap it."""
        items = self.frame()["items"]
        city = next((item for index, item in enumerate(items)
                     if item["kind"] == "clusterItem" and self.in_view(item, inset=80)
                     and self.uncovered(items, index, {"x": item["x"], "y": item["y"] - PIN_TAP_LIFT})), None)
        self.assertIsNotNone(city, "no city drawn on its own in the starting view")
        position = self.js("(id) => demo.manager.item(id).position", city["id"])
        name = self.js("(id) => demo.loaded.names[id - demo.loaded.first]", city["id"])
        self.move_camera(**position, zoom=12)
        items = self.frame()["items"]
        index, item = next(((k, i) for k, i in enumerate(items) if i["kind"] == "clusterItem" and i["id"] == city["id"]),
                           (None, None))
        self.assertIsNotNone(item, f"{name} is not drawn as a city of its own at zoom 12")
        point = {"x": item["x"], "y": item["y"] - PIN_TAP_LIFT}
        self.assertTrue(self.uncovered(items, index, point), f"{name} is covered at zoom 12")
        return city["id"], name, item, point

    def popover_box(self):
        """The Opéra's popover on the page, or None while it is closed or hidden."""
        return self.js("""() => {
            const el = document.querySelector('[data-cairn-overlay]');
            if (!el || el.style.display === 'none' || el.style.visibility === 'hidden') return null;
            const r = el.getBoundingClientRect(), m = document.querySelector('#map').getBoundingClientRect();
            return { left: r.left - m.left, right: r.right - m.left, top: r.top - m.top, bottom: r.bottom - m.top };
        }""")

    def test_popover_opens_above_its_marker_and_closes_on_a_tap_elsewhere(self):
        # V2: the demo's Opéra marker opens a popover (its tap consumed, so no info window); it
        # stands above the pin as an info window would, follows it, and closes on a tap on
        # another marker or on the map.
        self.move_camera(**PARIS)
        opera, point = self.tappable(self.frame()["items"], "Opéra Garnier")
        self.tap(point)
        self.settle(after=0.4)
        box = self.popover_box()
        self.assertIsNotNone(box, "the popover did not open")
        self.assertIsNone(self.js("map.selectedMarker"), "the tap was the popover's")
        frame = self.frame()
        drawn = next(i for i in frame["items"] if i["kind"] == "marker" and i["id"] == opera["id"])
        self.assertAlmostEqual((box["left"] + box["right"]) / 2, drawn["x"], delta=2)
        self.assertTrue(drawn["y"] - 43 - 10 <= box["bottom"] <= drawn["y"] - 43, (box, drawn))
        self.screenshot("markers-popover-open")
        # A tap on another marker closes it (and opens that marker's window).
        _, eiffel = self.tappable(frame["items"], "Eiffel Tower")
        self.tap(eiffel)
        self.settle(after=0.4)
        self.assertIsNone(self.popover_box(), "another marker's tap closes it")
        # Opened again, a tap on the map closes it.
        self.js("map.selectedMarker = null")
        _, point = self.tappable(self.frame()["items"], "Opéra Garnier")
        self.tap(point)
        self.settle(after=0.4)
        self.assertIsNotNone(self.popover_box())
        self.tap({"x": 20, "y": 20})
        self.settle(after=0.4)
        self.assertIsNone(self.popover_box(), "a map tap closes it")

    def test_a_popover_opened_near_the_edge_pans_the_map_until_it_is_the_engines_margin_inside(self):
        # V2 with I1's rule: opened near the top edge, the engine pans the map until the popover's
        # top is 10 px inside the view (the info window's margin), and the element stands where
        # the frame places it.
        self.move_camera(**PARIS)
        place = self.ground({"x": self.box["width"] / 2 + 100, "y": 30})
        self.js("""(place) => {
            window.edge = map.addMarker({ position: place, title: 'Edge' });
            const content = document.createElement('div');
            content.style.cssText = 'width:160px;height:80px;background:#fff;';
            window.edgePopover = map.addPopover(edge, content, { open: true });
        }""", place)
        try:
            self.settle(after=0.5)
            placed = next(p for p in self.frame()["popovers"] if p["popover"] == self.js("edgePopover.id"))
            self.assertTrue(placed["shown"])
            self.assertEqual((placed["width"], placed["height"]), (160, 80), "as the page measured it")
            self.assertAlmostEqual(placed["y"], 10, delta=1e-6)
            box = self.js("""() => {
                const r = edgePopover.element.getBoundingClientRect(), m = document.querySelector('#map').getBoundingClientRect();
                return { left: r.left - m.left, top: r.top - m.top };
            }""")
            self.assertAlmostEqual(box["top"], 10, delta=1)
            self.assertAlmostEqual(box["left"], placed["x"], delta=1)
            self.assertTrue(self.js("edgePopover.isOpen"))
        finally:
            self.js("() => { edgePopover.remove(); edge.remove(); }")
        self.assertFalse(self.js("edgePopover.isOpen"), "removed")

    def test_city_tap_opens_a_window_with_its_name(self):
        # An isolated city of the starting view, approached until it is far from any other.
        _, name, item, point = self.isolated_city()
        self.tap(point)
        self.settle(after=0.4)
        image = self.screenshot_image("markers-city-info-window")
        self.assertEqual(self.js("map.selectedMarker && map.selectedMarker.title"), name)
        window = self.frame()["infoWindow"]
        self.assertIsNotNone(window)
        # The demo's marker stands on the city, so its window does too.
        self.assertAlmostEqual(window["x"], item["x"], delta=1)
        self.assertGreater(self.white_share(image, self.window_box(window)), 0.7, window)
        # The demo's marker would stay for the next test on this page (a failed test's page is
        # not used again).
        self.js("map.selectedMarker.remove()")

    def test_tap_on_an_item_removed_since_clustering_is_answered(self):
        # Removed items stay drawn until the next cluster() (Google's rule), so they can be
        # tapped. The app's handlers have no item to be given, the engine's default has nothing
        # to centre on (the item is gone), and the map goes on: no error, frames keep coming.
        city, _, item, point = self.isolated_city()
        self.js("(id) => demo.manager.removeItem(id)", city)
        before = self.js("map.camera")
        self.tap(point)
        self.settle(after=0.4)
        self.assertIsNone(self.js("map.selectedMarker"), "the demo's item handler was not called")
        self.assertEqual(self.js("map.camera"), before, "nothing to centre on")
        self.move_camera(zoom=11)     # frames still come (the harness also fails on page errors)
        self.assertAlmostEqual(self.js("map.lastFrame.camera.zoom"), 11, places=6)
        self.js("demo.manager.cluster()")
        self.wait_for_frame()
        self.assertFalse(any(i["kind"] == "clusterItem" and i["id"] == city for i in self.frame()["items"]),
                         "gone once clustered again")

    def test_an_items_own_title_opens_its_window_and_an_item_without_text_none(self):
        # C7 then M11: an item the app's handlers leave alone is selected, and its window shows
        # its title and snippet; one with neither opens none and closes the open one (I2, I3).
        # The items stand on open sea, away from the demo's cities and markers.
        self.js("""() => {
            window.own = map.addClusterManager({ algorithm: 'grid' });
            own.addItems([{ position: { latitude: -40, longitude: -30 }, title: 'Buoy', snippet: 'Station 7' },
                          { position: { latitude: -40, longitude: -29.9 } }]);
            own.cluster();
            window.said = [];
            window.stops = ['infoWindowOpen', 'infoWindowClose'].map((type) =>
                map.on(type, (o) => { said.push([type, o.manager === own ? o.item.title : 'other']); }));
        }""")
        try:
            self.move_camera(latitude=-40, longitude=-29.95, zoom=11, bearing=0, tilt=0)
            manager = self.js("own.number")
            drawn = {i["id"]: i for i in self.frame()["items"] if i["kind"] == "clusterItem" and i["manager"] == manager}
            self.assertEqual(len(drawn), 2, "both items drawn on their own")
            titled, bare = sorted(drawn)
            self.tap({"x": drawn[titled]["x"], "y": drawn[titled]["y"] - PIN_TAP_LIFT})
            self.settle(after=0.4)
            frame = self.frame()
            window = frame["infoWindow"]
            self.assertIsNotNone(window, "no info window in the frame")
            self.assertEqual((window["manager"], window["item"]), (manager, titled))
            self.assertEqual(frame["selectedItem"], {"manager": manager, "item": titled})
            self.assertEqual(self.js("map.selectedClusterItem && map.selectedClusterItem.item.snippet"), "Station 7")
            self.assertIsNone(self.js("map.selectedMarker"), "an item is not a marker")
            self.assertEqual(self.js("said"), [["infoWindowOpen", "Buoy"]])
            image = self.screenshot_image("markers-item-info-window")
            self.assertGreater(MarkerTapTest.white_share(image, MarkerTapTest.window_box(window)), 0.7, window)
            item = next(i for i in frame["items"] if i["kind"] == "clusterItem" and i["manager"] == manager
                        and i["id"] == titled)
            self.assertAlmostEqual(window["x"], item["x"], delta=1)
            # The untitled item: the titled one's window closes, none opens.
            item = next(i for i in frame["items"] if i["kind"] == "clusterItem" and i["manager"] == manager
                        and i["id"] == bare)
            self.tap({"x": item["x"], "y": item["y"] - PIN_TAP_LIFT})
            self.settle(after=0.4)
            self.assertEqual(self.js("said"), [["infoWindowOpen", "Buoy"], ["infoWindowClose", "Buoy"]])
            self.assertIsNone(self.js("map.selectedClusterItem"))
            self.assertIsNone(self.frame()["infoWindow"])
            # Selected from the program; removing the item closes its window, and the app hears
            # of it with what it was given at the opening (the item's options are gone by then).
            self.js("""(id) => {
                said.length = 0;
                stops.push(map.on('infoWindowOpen', (o) => { window.given = o; }));
                map.selectedClusterItem = { manager: own, id };
            }""", titled)
            self.settle(after=0.3)
            self.assertTrue(self.js("map.selectedClusterItem === given"), "the same object while open")
            self.js("(id) => own.removeItem(id)", titled)
            self.assertIsNone(self.js("map.selectedClusterItem"), "closed at once")
            self.settle(after=0.2)
            self.assertEqual(self.js("said"), [["infoWindowOpen", "Buoy"], ["infoWindowClose", "Buoy"]])
            self.assertIn("must be {manager, id}", self.js(
                "() => { try { map.selectedClusterItem = { manager: own, id: 99999 }; } catch (e) { return e.message; } }"))
        finally:
            self.js("() => { for (const stop of stops) stop(); own.destroy(); }")


class WorldCopiesTest(DemoTestCase):
    """Where the map is wider than the world (zoomed far out), its clusters show on each copy
    of the world in view, and a tap on any copy is a tap on that cluster."""

    def test_clusters_show_and_answer_taps_on_every_copy_of_the_world(self):
        self.move_camera(latitude=20, longitude=0, zoom=0.6, bearing=0, tilt=0)
        self.screenshot("world-copies")
        copies = {}
        for c in self.frame()["items"]:
            if c["kind"] == "cluster":
                copies.setdefault((c["manager"], c["id"]), []).append(c)
        repeated = [sorted(v, key=lambda c: c["x"]) for v in copies.values() if len(v) > 1]
        self.assertTrue(repeated, "no cluster is drawn on more than one copy")
        world = 256 * 2 ** 0.6
        for drawn in repeated:
            for a, b in zip(drawn, drawn[1:]):
                self.assertAlmostEqual(b["x"] - a["x"], world, delta=0.01)
        # A tap on the copy farthest from the centre (and well inside the map) names its cluster.
        inside = [c for v in repeated for c in v
                  if 20 < c["x"] < self.box["width"] - 20 and 20 < c["y"] < self.box["height"] - 20]
        far = max(inside, key=lambda c: abs(c["x"] - self.box["width"] / 2))
        self.js("() => { window.tappedCluster = null; "
                "window.stopTap = map.on('clusterTap', (t) => { window.tappedCluster = t.id; return true; }); }")
        try:
            self.tap({"x": far["x"], "y": far["y"]})
            self.page.wait_for_function("window.tappedCluster !== null", timeout=5000)
            self.assertEqual(self.js("window.tappedCluster"), far["id"])
        finally:
            self.js("() => window.stopTap()")


class ClusterAggregateTest(DemoTestCase):
    """C9 on the page: a manager's aggregated properties reach its drawCluster callback."""

    def test_draw_cluster_is_given_the_clusters_aggregates(self):
        self.js("""() => {
            window.given = [];
            window.own = map.addClusterManager({
                algorithm: 'grid', aggregates: { people: ['sum', 'population'] },
                drawCluster: (ctx, c) => { given.push([c.count, c.aggregates.people]); ctx.fillStyle = '#333';
                                           ctx.fillRect(0, 0, c.diameter, c.diameter); },
            });
            own.addItems([1, 2, 3, 4, 5].map((k) => ({ position: { latitude: -40 + k * 0.001, longitude: -30 },
                                                       userData: { population: k * 100 } })));
            own.cluster();
        }""")
        try:
            self.move_camera(latitude=-40, longitude=-30, zoom=8, bearing=0, tilt=0)
            self.settle(after=0.5)   # screen-space clusters follow a new zoom after 0.2 s (C6)
            self.assertIn([5, 1500], self.js("given"))
            # Zooming out, the clusters before fly into the new ones with ids of the clustering
            # before: their icons keep the values they had, and frames go on (no page error).
            self.js("() => { own.addItems([{ position: { latitude: -39.99, longitude: -30 }, userData: { population: 1 } }]); own.cluster(); }")
            self.js("() => map.animateCamera({ zoom: 4 }, { duration: 0.3 })")
            self.settle(after=1.0)
            self.assertIn([6, 1501], self.js("given"))
            # A map icon another map made is refused (its number would name another icon here);
            # this map's own is taken.
            refused = self.js("""() => {
                const Icon = map.pinIcon({ background: '#123456' }).constructor;
                const out = [];
                for (const add of [() => own.addItem({ position: { latitude: 0, longitude: 0 }, icon: new Icon(99999, 10, 10) }),
                                   () => own.addCoordinates(new Float64Array([0, 0]), { icon: new Icon(99999, 10, 10) })]) {
                    try { add(); out.push('taken'); } catch (e) { out.push(e.message.includes("this map's icon()") ? 'refused' : e.message); }
                }
                own.addItem({ position: { latitude: 0, longitude: 0 }, icon: map.pinIcon({ background: '#123456' }) });
                return out;
            }""")
            self.assertEqual(refused, ["refused", "refused"])
            # setClusterIcons takes only this map's managers: anything else (nothing at all, a
            # look-alike) is a clear error, not a TypeError from inside the map.
            codes = self.js("""() => [null, undefined, {}, { number: own.number }].map((m) => {
                try { map.setClusterIcons(m, {}); return 'taken'; } catch (e) { return e.code ?? e.name; } })""")
            self.assertEqual(codes, ["INVALID_ARGUMENT"] * 4)
        finally:
            self.js("() => own.destroy()")


class MarkerHandleTest(DemoTestCase):
    """A marker's handle through the public API (feature M1): its properties read and write the
    marker in the engine, what a getter returns is a copy, and a removed marker is gone."""

    def test_no_window_for_a_marker_without_text_when_the_hooks_give_none(self):
        # The demo's hooks build a window only for markers that ask for one (I7); a marker with
        # neither title nor snippet then has nothing to show, and no window opens (I2).
        self.js("""() => {
            window.bare = map.addMarker({ position: { latitude: 48.86, longitude: 2.33 } });
            window.opened = [];
            window.stopOpened = map.on('infoWindowOpen', (m) => { opened.push(m === bare); });
            window.stopClosed = map.on('infoWindowClose', (m) => { opened.push('closed'); });
            map.selectedMarker = bare;
        }""")
        self.settle(after=0.3)
        try:
            self.assertEqual(self.js("opened"), [], "neither open nor close is said")
            self.assertIsNone(self.js("map.selectedMarker"))
            frame = self.frame()
            self.assertIsNone(frame["infoWindow"])
            self.assertIsNone(frame["selectedMarker"])
        finally:
            self.js("() => { stopOpened(); stopClosed(); bare.remove(); }")

    def test_handle_properties_update_the_marker_and_removal_ends_it(self):
        result = self.js("""() => {
          const m = map.addMarker({ position: { latitude: 10, longitude: 20 }, title: 'Handle' });
          const out = { id: m.id };
          const p = m.position;
          p.latitude = 50;                       // a copy: the marker stays
          out.after = m.position.latitude;
          m.title = 'Renamed';
          m.rotation = 30;
          m.set({ opacity: 0.5, zIndex: 3 });
          const e = map.engine.marker(m.id);
          out.engine = { title: e.title, rotation: e.rotation, opacity: e.opacity, zIndex: e.zIndex,
                         latitude: e.position.latitude };
          out.count = map.markerCount;
          m.remove();
          out.onMap = m.onMap;
          out.countAfter = map.markerCount;
          try { m.title = 'x'; out.threw = false; } catch (error) { out.threw = String(error.message); }
          return out;
        }""")
        self.assertEqual(result["after"], 10)
        self.assertEqual(result["engine"], {"title": "Renamed", "rotation": 30, "opacity": 0.5, "zIndex": 3,
                                            "latitude": 10})
        self.assertFalse(result["onMap"])
        self.assertEqual(result["countAfter"], result["count"] - 1)
        self.assertIn("removed", result["threw"])

    def test_a_view_marker_is_drawn_through_changes_of_its_view_until_removed(self):
        # feature M4: a view drawn by a callback, then another view, then none; each change draws.
        self.js("""() => {
          window.__view = map.addMarker({ position: map.camera, view: (ctx, { width, height }) => {
            ctx.fillStyle = '#ff00ff'; ctx.fillRect(0, 0, width, height); }, viewSize: { width: 30, height: 30 },
            groundAnchor: { x: 0.5, y: 0.5 }, zIndex: 100 });
        }""")
        self.wait_for_frame()
        self.settle()
        drawn = lambda: [i for i in self.frame()["items"] if i["kind"] == "marker" and i["id"] == self.js("__view.id")]  # noqa: E731
        self.assertEqual(len(drawn()), 1)
        centre = drawn()[0]
        self.assertLess(colour_distance(self.screenshot_image("markers-view-first").pixel(centre["x"], centre["y"]),
                                        (255, 0, 255)), 40, "the first view's magenta")
        self.js("""() => { __view.view = (ctx, { width, height }) => { ctx.fillStyle = '#00ffff'; ctx.fillRect(0, 0, width, height); }; }""")
        self.wait_for_frame()
        self.settle()
        self.assertEqual(len(drawn()), 1, "still drawn with its new view")
        self.assertLess(colour_distance(self.screenshot_image("markers-view-second").pixel(centre["x"], centre["y"]),
                                        (0, 255, 255)), 40, "the second view's cyan")
        self.js("__view.remove()")
        self.wait_for_frame()
        self.assertEqual([i for i in self.frame()["items"] if i["kind"] == "marker" and i["id"] == self.js("__view.id")], [])


if __name__ == "__main__":
    unittest.main()
