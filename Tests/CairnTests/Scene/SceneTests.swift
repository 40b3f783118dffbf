import XCTest
@testable import Cairn

final class SceneTests: XCTestCase {
    func testM8_AMarkerStandsOnItsGroundAnchorAndIsHitOnItsIcon() throws {
        let map = MapController.make(zoom: 10)
        let id = try map.addMarker(marker(0, 0))
        map.frame(1)
        XCTAssertEqual(map.scene.items.count, 1)
        let item = map.scene.items[0]
        XCTAssertEqual(item.id, id)
        XCTAssertEqual(item.x, 400, accuracy: 1e-9)
        XCTAssertEqual(item.y, 300, accuracy: 1e-9)
        // The pin (27 × 43) stands on its tip: its box is centred 21.5 px above the anchor.
        XCTAssertEqual(item.box.centerY, 300 - 21.5, accuracy: 1e-9)
        XCTAssertEqual(map.scene.hit(x: 400, y: 280), .item(item))
        XCTAssertEqual(map.scene.hit(x: 400 + 13.5 + 3, y: 280), .item(item), "within the touch tolerance")
        XCTAssertNil(map.scene.hit(x: 400, y: 310))
    }

    func testAViewWiderThanTheWorldShowsMarkersAndClustersOnEveryCopyOfIt() throws {
        // Zoom 1: the world is 512 px wide, and an 1800-px view shows it three and a half times.
        let map = MapController.make(zoom: 1, width: 1800, height: 600)
        let id = try map.addMarker(marker(0, 90) { $0.hasTitle = true })
        let m = try map.addClusterManager(.hierarchical)
        _ = try map.addClusterItems(m, latitudes: [-40, -40, -40, -40], longitudes: [-60, -60, -60, -60], icons: [-1, -1, -1, -1])
        try map.cluster(m)
        map.frame(1)
        func xs(_ kind: SceneItemKind) -> [Double] { map.scene.items.filter { $0.kind == kind }.map(\.x).sorted() }
        // Longitude 90 is 128 px east of the centre (900) on the nearest copy; a copy every 512
        // px, as far as the scene's margin (256 px) beyond the view.
        let markers = xs(.marker), clusters = xs(.cluster)
        XCTAssertEqual(markers.count, 5, "\(markers)")
        for (x, expected) in zip(markers, [4.0, 516, 1028, 1540, 2052]) { XCTAssertEqual(x, expected, accuracy: 1e-9) }
        // The four items are one cluster, on every copy too (-60° is 85⅓ px west of the centre).
        XCTAssertEqual(clusters.count, 5, "\(clusters)")
        for (x, expected) in zip(clusters, [-1024.0, -512, 0, 512, 1024]) { XCTAssertEqual(x, 900 - 256.0 / 3 + expected, accuracy: 1e-3) }   // float32 positions
        // A tap on the farthest copy finds the marker.
        let far = try XCTUnwrap(map.scene.items.first { $0.kind == .marker && abs($0.x - 4) < 1e-6 })
        guard case .item(let hit)? = map.scene.hit(x: far.box.centerX, y: far.box.centerY) else { return XCTFail("no hit") }
        XCTAssertEqual(hit.id, id)
        // Its window opens over the copy nearest the view's centre.
        try map.selectMarker(id)
        try map.setInfoWindowSize(width: 120, height: 50)
        map.frame(1.5)
        XCTAssertEqual(try XCTUnwrap(map.scene.infoWindow).anchorX, 1028, accuracy: 1e-9)
        // Turned a quarter, the copies stand above and below each other: the window still stands
        // on the one nearest the centre, in view, not on the topmost one in the margin.
        try map.moveCamera(to: CameraPosition(latitude: 0, longitude: 90, zoom: 1, bearing: 90))
        map.frame(1.8)
        let turned = map.scene.items.filter { $0.kind == .marker }
        XCTAssertEqual(turned.count, 3, "\(turned.map { ($0.x, $0.y) })")
        func away(_ i: SceneItem) -> Double { (i.x - 900) * (i.x - 900) + (i.y - 300) * (i.y - 300) }
        let nearest = try XCTUnwrap(turned.min { away($0) < away($1) })
        let window = try XCTUnwrap(map.scene.infoWindow)
        XCTAssertEqual(window.anchorX, nearest.x, accuracy: 1e-6)
        XCTAssertEqual(window.anchorY, nearest.y - 43, accuracy: 1e-6)
        XCTAssertEqual(window.anchorY, 300 - 43, accuracy: 1e-6)
        // Zoom 4: the world (4096 px) is wider than the view and its margins: no copies to place.
        try map.moveCamera(to: CameraPosition(latitude: 0, longitude: 0, zoom: 4))
        map.frame(2)
        XCTAssertEqual(map.projection.worldCopiesEachSide(margin: Scene.margin), 0)
        XCTAssertEqual(xs(.marker).count, 1)
        XCTAssertEqual(xs(.marker).first ?? 0, 900 + 1024, accuracy: 1e-9)
    }

    func testCopiesOfTheWorldAreCappedAndBudgetedButEveryMarkerShowsOnce() throws {
        // Zoom 0 in a view 20,000 px wide: 78 worlds across. At most `maxWorldCopies` each side,
        // and copies beyond the nearest only while the scene holds under `copyBudget` items.
        let map = MapController.make(zoom: 0, width: 20_000, height: 600)
        let n = 30_000
        for i in 0..<n { _ = try map.addMarker(marker(Double(i % 120) - 60, Double(i % 359) - 179)) }
        map.frame(1)
        let items = map.scene.items
        XCTAssertLessThanOrEqual(items.count, Scene.copyBudget + n)
        XCTAssertGreaterThan(items.count, Scene.copyBudget / 2, "copies still show")
        XCTAssertEqual(Set(items.map(\.id)).count, n, "every marker, on its nearest copy at least")
        let xs = items.map(\.x)
        XCTAssertGreaterThan(xs.min()!, 10_000 - 256 * (Double(CameraProjection.maxWorldCopies) + 1))
        XCTAssertLessThan(xs.max()!, 10_000 + 256 * (Double(CameraProjection.maxWorldCopies) + 1))
    }

    func testM3M6M7_AlignmentInsetsAnchorsRotationAndFlatMarkers() throws {
        let map = MapController.make(zoom: 10, bearing: 90, tilt: 60)
        let icon = try map.registerIcon(Icon(width: 40, height: 40, insets: EdgeInsets(top: 0, left: 0, bottom: 10, right: 10)))
        _ = try map.addMarker(marker(0, 0) { $0.icon = icon; $0.groundAnchorX = 0.5; $0.groundAnchorY = 0.5; $0.rotation = 30 })
        _ = try map.addMarker(marker(0, 0) { $0.flat = true; $0.rotation = 30; $0.zIndex = 1 })
        map.frame(1)
        let upright = map.scene.items[0], flat = map.scene.items[1]
        XCTAssertEqual(upright.rotation, 30, "a normal marker faces the screen: its own rotation only")
        XCTAssertEqual(upright.box.halfWidth, 15, "the 10 px of insets do not count")
        XCTAssertEqual(upright.box.centerX, 400, accuracy: 1e-9, "anchored at the content's centre")
        // A flat marker lies on the ground: its axes are where the ground's take them. On the
        // ground it points 30° east of north; a metre that way and a metre across it, on screen:
        let p = map.projection
        let metre = 1 / 111_320.0, r = 30 * Double.pi / 180
        let o = p.screenPoint(latitude: 0, longitude: 0)!
        let up = p.screenPoint(latitude: _cos(r) * metre, longitude: _sin(r) * metre)!
        let right = p.screenPoint(latitude: -_sin(r) * metre, longitude: _cos(r) * metre)!
        let flatMetre = p.pixelsPerMeter(worldY: 0.5)
        let v = (x: up.x - o.x, y: up.y - o.y), w = (x: right.x - o.x, y: right.y - o.y)
        let length = (v.x * v.x + v.y * v.y).squareRoot()
        XCTAssertEqual(flat.rotation, _atan2(v.x, -v.y) * 180 / Double.pi, accuracy: 1e-4, "its vertical points where the ground's does")
        XCTAssertEqual(flat.scaleY, length / flatMetre, accuracy: 1e-4, "as long as the ground's")
        // Across it: the part of the ground's other axis perpendicular to the vertical.
        XCTAssertEqual(flat.scaleX, (w.x * -v.y + w.y * v.x) / length / flatMetre, accuracy: 1e-4)
        XCTAssertNotEqual(flat.scaleY, 0.5, accuracy: 0.1, "not the tilt's squeeze along the icon's own vertical")
        // And drawn as the ground's parallelogram: each of the icon's axes lands on the ground's,
        // the horizontal one leaning along the vertical (the shear).
        let iconUp = flat.screenOffset(dx: 0, dy: -1), iconRight = flat.screenOffset(dx: 1, dy: 0)
        XCTAssertEqual(iconUp.x, v.x / flatMetre, accuracy: 1e-4)
        XCTAssertEqual(iconUp.y, v.y / flatMetre, accuracy: 1e-4)
        XCTAssertEqual(iconRight.x, w.x / flatMetre, accuracy: 1e-4)
        XCTAssertEqual(iconRight.y, w.y / flatMetre, accuracy: 1e-4)
        XCTAssertGreaterThan(abs(flat.shear), 0.1, "the axes are not square on screen")
        // Taps and collisions see the whole parallelogram: each corner of the pin is in the box.
        for (u, v) in [(-13.5, -43.0), (13.5, -43), (-13.5, 0), (13.5, 0)] {
            let corner = flat.screenOffset(dx: u, dy: v)
            XCTAssertTrue(flat.box.contains(x: flat.x + corner.x, y: flat.y + corner.y, tolerance: 1e-9), "corner \(u), \(v)")
        }
        XCTAssertEqual(upright.shear, 0)
        // The host pins its image at the anchor, in fractions of the whole image: the content's
        // centre is 15 px into the 40 px icon; the pin stands on its tip.
        XCTAssertEqual([upright.anchorX, upright.anchorY], [15.0 / 40, 15.0 / 40])
        XCTAssertEqual([flat.anchorX, flat.anchorY], [0.5, 1])
    }

    func testTheImageAnchorOfMarkersClusterItemsAndClusters() throws {
        let map = MapController.make(zoom: 10)
        let icon = try map.registerIcon(Icon(width: 40, height: 20, insets: EdgeInsets(top: 4, left: 8, bottom: 0, right: 0),
                                             anchorX: 0, anchorY: 1))
        XCTAssertEqual(map.icons.icon(icon)?.imageFraction(x: 0.5, y: 0.5).x ?? 0, (8 + 16) / 40.0)
        _ = try map.addMarker(marker(0, 0) { $0.icon = icon; $0.groundAnchorX = 1; $0.groundAnchorY = 0 })
        let m = try map.addClusterManager(.none)
        _ = try map.addClusterItems(m, latitudes: [0.1, -0.1, -0.1], longitudes: [0.1, 0.1, -0.1], icons: [icon, -1, -1])
        let g = try map.addClusterManager(.grid)
        _ = try map.addClusterItems(g, latitudes: [0.2, 0.2, 0.2, 0.2], longitudes: [0.2, 0.2, 0.2, 0.2], icons: [-1, -1, -1, -1])
        try map.cluster(m)
        try map.cluster(g)
        map.frame(1)
        let items = map.scene.items
        let mark = try XCTUnwrap(items.first { $0.kind == .marker })
        XCTAssertEqual([mark.anchorX, mark.anchorY], [1, 4.0 / 20], "the marker's own ground anchor, insets counted")
        let withIcon = try XCTUnwrap(items.first { $0.kind == .clusterItem && $0.icon == icon })
        XCTAssertEqual([withIcon.anchorX, withIcon.anchorY], [8.0 / 40, 1], "an item stands on its icon's anchor")
        let pinned = items.filter { $0.kind == .clusterItem && $0.icon == -1 }
        XCTAssertEqual(pinned.count, 2)
        for p in pinned { XCTAssertEqual([p.anchorX, p.anchorY], [0.5, 1], "the pin, on its tip") }
        let cluster = try XCTUnwrap(items.first { $0.kind == .cluster })
        XCTAssertEqual([cluster.anchorX, cluster.anchorY], [0.5, 0.5], "a cluster's centre")
    }

    func testM9_AppearAnimationsPlayOnceFromTheFirstFrameAfterAdding() throws {
        let map = MapController.make(zoom: 10)
        map.frame(5)
        let pop = try map.addMarker(marker(0, 0) { $0.appearAnimation = .pop })
        _ = try map.addMarker(marker(0, 0.01) { $0.appearAnimation = .fadeIn; $0.zIndex = 1 })
        // The host may draw long after adding: the animation starts with its next frame.
        map.frame(20)
        XCTAssertEqual(map.scene.items.map(\.progress), [0, 0], "the first frame shows the start")
        map.frame(20.15)
        let item = try XCTUnwrap(map.scene.items.first { $0.id == pop })
        XCTAssertEqual(item.scaleX, Easing.easeOut.apply(0.5), accuracy: 1e-12)
        XCTAssertEqual(map.scene.items[1].opacity, Easing.easeOut.apply(0.5), accuracy: 1e-12)
        XCTAssertEqual(item.progress, 0.5, accuracy: 1e-12, "the animation's progress, uneased")
        XCTAssertEqual(map.scene.items[1].progress, 0.5, accuracy: 1e-12)
        map.frame(21)
        XCTAssertEqual(map.scene.items[0].scaleX, 1)
        XCTAssertEqual(map.scene.items[1].opacity, 1)
        XCTAssertEqual(map.scene.items.map(\.progress), [1, 1], "done")
        try map.updateMarker(pop, marker(0.001, 0.001) { $0.appearAnimation = .pop })
        map.frame(21.05)
        XCTAssertEqual(try XCTUnwrap(map.scene.items.first { $0.id == pop }).scaleX, 1, "an update does not replay it")
    }

    func testM10_DrawOrderIsZIndexThenLowerOnScreenOnTop() throws {
        let map = MapController.make(zoom: 10)
        let north = try map.addMarker(marker(0.01, 0))
        let south = try map.addMarker(marker(-0.01, 0))
        let top = try map.addMarker(marker(0.02, 0) { $0.zIndex = 5 })
        map.frame(1)
        XCTAssertEqual(map.scene.items.map(\.id), [north, south, top])
    }

    func testHitTestsUseTurnedFlatAndInsetBoxesAndTheTopmostWins() throws {
        let map = MapController.make(zoom: 10)
        let inset = try map.registerIcon(Icon(width: 40, height: 40, insets: EdgeInsets(top: 0, left: 0, bottom: 0, right: 20)))
        let a = try map.addMarker(marker(0, 0) { $0.icon = inset; $0.groundAnchorY = 0.5 })
        map.frame(1)
        XCTAssertNotNil(map.scene.hit(x: 400, y: 300))
        XCTAssertNil(map.scene.hit(x: 400 + 18, y: 300), "the transparent inset is not the icon")
        let turned = try map.addMarker(marker(0, 0.1) { $0.icon = inset; $0.groundAnchorY = 0.5; $0.rotation = 90 })
        map.frame(2)
        let t = map.scene.items.first { $0.id == turned }!
        // The content is 20 × 40; turned 90° it lies 40 wide and 20 tall.
        XCTAssertEqual(map.scene.hit(x: t.x + 17, y: t.y), .item(t))
        XCTAssertNil(map.scene.hit(x: t.x, y: t.y + 17))
        let flat = try map.addMarker(marker(0, -0.1) { $0.flat = true })
        try map.moveCamera(to: CameraPosition(latitude: 0, longitude: 0, zoom: 10, tilt: 60))
        map.frame(3)
        let f = map.scene.items.first { $0.id == flat }!
        XCTAssertNotNil(map.scene.hit(x: f.x, y: f.y - 20), "foreshortened to half: 21.5 px tall")
        XCTAssertNil(map.scene.hit(x: f.x, y: f.y - 30))
        let top = try map.addMarker(marker(0, 0) { $0.icon = inset; $0.groundAnchorY = 0.5; $0.zIndex = 3 })
        map.frame(4)
        guard case .item(let hit)? = map.scene.hit(x: 400, y: 300) else { return XCTFail("no hit") }
        XCTAssertEqual(hit.id, top, "overlapping: the one drawn on top (\(a) is below)")
    }

    /// The tap index holds each icon in the cell of its centre and reaches out by the largest
    /// icon: a big icon is hit at its far edge, cells away from its centre, and beside a small
    /// one; a marker anchored in the margin is hit where its icon reaches into the view.
    func testTapIndexFindsLargeIconsAtTheirEdgesAndIconsFromTheMargin() throws {
        let map = MapController.make(zoom: 10)
        let big = try map.registerIcon(Icon(width: 300, height: 300))
        let large = try map.addMarker(marker(0, 0) { $0.icon = big; $0.groundAnchorY = 0.5 })
        let pin = try map.addMarker(marker(0, 0.5))
        map.frame(1)
        guard case .item(let l)? = map.scene.hit(x: 400 - 148, y: 300 + 148) else { return XCTFail("no hit at the edge") }
        XCTAssertEqual(l.id, large)
        XCTAssertNil(map.scene.hit(x: 400 - 160, y: 300))
        let p = map.scene.items.first { $0.id == pin }!
        guard case .item(let q)? = map.scene.hit(x: p.x, y: p.y - 20) else { return XCTFail("no hit on the pin") }
        XCTAssertEqual(q.id, pin)
        // 0.6° west of the centre at zoom 10 is about 437 px: the anchor lies in the margin, the
        // 300-px icon's right edge at about 113 px from the view's left.
        let edge = try map.addMarker(marker(0, -0.6) { $0.icon = big; $0.groundAnchorY = 0.5 })
        map.frame(2)
        let e = map.scene.items.first { $0.id == edge }!
        XCTAssertLessThan(e.x, 0)
        guard case .item(let h)? = map.scene.hit(x: e.x + 145, y: 300) else { return XCTFail("no hit from the margin") }
        XCTAssertEqual(h.id, edge)
    }

    /// `drawn(_:)` and `withPlacedItems` give what `items` lists: every drawn item once, at its
    /// place in draw order, and hidden ones marked -1.
    func testDrawnItemsThroughEachAccessorAgree() throws {
        let map = MapController.make(zoom: 10)
        for k in 0..<40 {
            _ = try map.addMarker(marker(Double(k % 5) * 0.0004, Double(k / 5) * 0.0004) {
                $0.collision = k % 2 == 0 ? .optionalAndHidesLowerPriority : .required
                $0.zIndex = Double(k % 3)
            })
        }
        map.frame(1)
        let scene = map.scene
        let items = scene.items
        XCTAssertGreaterThan(scene.hiddenCount, 0, "the optional markers overlap")
        XCTAssertEqual(items.count, scene.drawnCount)
        for k in 0..<items.count { XCTAssertEqual(scene.drawn(k), items[k]) }
        for k in 1..<items.count { XCTAssertFalse(DrawOrder.below(items[k], items[k - 1]), "bottom to top") }
        scene.withPlacedItems { placed, positions in
            XCTAssertEqual(placed.count, items.count + scene.hiddenCount)
            XCTAssertEqual(positions.filter { $0 < 0 }.count, scene.hiddenCount)
            XCTAssertEqual(positions.filter { $0 >= 0 }.sorted(), (0..<Int32(items.count)).map { $0 })
            for i in 0..<placed.count where positions[i] >= 0 { XCTAssertEqual(placed[i], items[Int(positions[i])]) }
        }
    }

    func testM11_MarkerTapSelectsAndCentresUnlessConsumed() throws {
        let map = MapController.make(zoom: 10)
        let titled = try map.addMarker(marker(0.05, 0.05) { $0.hasTitle = true })
        map.frame(0)
        let p = map.scene.items[0]
        func tap(at t: Double) {
            map.down(1, p.x, p.y - 20, at: t)
            map.up(1, p.x, p.y - 20, at: t + 0.05)
            map.frame(t + 0.4)
        }
        tap(at: 1)
        XCTAssertEqual(map.drainEvents(), [.markerTapped(marker: titled)])
        map.answerTap(consumed: true)
        XCTAssertNil(map.selectedMarker)
        tap(at: 2)
        _ = map.drainEvents()
        map.answerTap(consumed: false)
        XCTAssertEqual(map.selectedMarker, titled)
        map.frame(3)
        map.frame(4)
        XCTAssertEqual(map.camera.position.latitude, 0.05, accuracy: 1e-9, "centred on the marker")
        XCTAssertEqual(map.drainEvents(), [.infoWindowOpened(.marker(titled)), .cameraWillMove(.apiAnimation),
                                           .cameraChanged, .cameraChanged, .cameraIdle])
        map.answerTap(consumed: false)
        XCTAssertEqual(map.drainEvents(), [], "a second answer does nothing")
    }

    func testM1_RemovingOrClearingClosesTheWindowAndUnknownIconsAreRefused() throws {
        let map = MapController.make(zoom: 10)
        let a = try map.addMarker(marker(0, 0) { $0.hasTitle = true })
        try map.selectMarker(a)
        try map.removeMarker(a)
        XCTAssertNil(map.selectedMarker)
        XCTAssertEqual(map.drainEvents().last, .infoWindowClosed(.marker(a)))
        XCTAssertThrowsError(try map.addMarker(marker(0, 0) { $0.icon = 3 })) { XCTAssertEqual($0 as? CairnError, .invalidMarker(.icon)) }
        XCTAssertThrowsError(try map.addMarkers([marker(0, 0), marker(0, 0) { $0.icon = 3 }])) {
            XCTAssertEqual($0 as? CairnError, .invalidMarkerInBatch(index: 1, field: MarkerProperties.Field.icon.rawValue))
        }
        let b = try map.addMarker(marker(0, 0) { $0.hasTitle = true })
        try map.selectMarker(b)
        map.clearMarkers()
        XCTAssertEqual(map.markers.count, 0)
        XCTAssertNil(map.selectedMarker)
        map.frame(1)
        XCTAssertTrue(map.scene.items.isEmpty)
    }

    func testM5_InvisibleTransparentAndFarAwayMarkersAreNotPlaced() throws {
        let map = MapController.make(zoom: 10)
        _ = try map.addMarker(marker(0, 0) { $0.visible = false })
        _ = try map.addMarker(marker(0, 0) { $0.opacity = 0 })
        _ = try map.addMarker(marker(10, 10))
        map.frame(1)
        XCTAssertTrue(map.scene.items.isEmpty)
    }

    func testTapsOnHundredThousandDrawnItemsFindTheTopmost() throws {
        let map = MapController.make(zoom: 14, width: 1600, height: 1200)
        var random = SeededRandom(seed: 11)
        let span = 1600.0 / (256 * 16384) * 360
        var batch: [MarkerProperties] = []
        for _ in 0..<100_000 {
            batch.append(marker((random.next() - 0.5) * span * 0.7, (random.next() - 0.5) * span))
        }
        _ = try map.addMarkers(batch)
        map.frame(1)
        XCTAssertGreaterThan(map.scene.items.count, 90_000)
        for k in 0..<200 {
            let x = Double(k % 20) * 80 + 20, y = Double(k / 20) * 120 + 20
            let hit = map.scene.hit(x: x, y: y)
            // The topmost is the last drawn item whose box holds the point.
            let expected = map.scene.items.last { $0.box.contains(x: x, y: y, tolerance: Scene.touchTolerance) }
            XCTAssertEqual(hit.map { if case .item(let i) = $0 { return i.id } else { return -1 } }, expected?.id)
        }
    }

    /// A scripted scene whose draw list is asserted with the same literals by the wasm test
    /// (web/test/engine/scene-script.test.js): the module must draw what the native build draws.
    func testScriptedSceneDrawsTheSharedLiterals() throws {
        let map = MapController.make(lat: 48.85, lng: 2.35, zoom: 12, bearing: 20, tilt: 30)
        let icon = try map.registerIcon(Icon(width: 30, height: 40, insets: EdgeInsets(top: 0, left: 0, bottom: 4, right: 0)))
        var a = MarkerProperties(latitude: 48.86, longitude: 2.34)
        a.icon = icon
        a.zIndex = 1
        a.collision = .requiredAndHidesOptional
        var b = MarkerProperties(latitude: 48.84, longitude: 2.36)
        b.flat = true
        b.rotation = 45
        var c = MarkerProperties(latitude: 48.8605, longitude: 2.3405)
        c.collision = .optionalAndHidesLowerPriority
        _ = try map.addMarkers([a, b, c])
        let m = try map.addClusterManager(.distance)
        _ = try map.addClusterItems(m, latitudes: [48.80, 48.801, 48.802, 48.803, 48.9],
                                    longitudes: [2.30, 2.301, 2.302, 2.303, 2.4], icons: [-1, -1, -1, -1, -1])
        try map.cluster(m)
        map.down(1, 400, 300, at: 0, kind: .mouse)
        map.move(1, 430, 310, at: 0.05)
        map.up(1, 430, 310, at: 0.3)
        map.frame(1)
        let drawn = map.scene.items.map { [Double($0.kind.rawValue), Double($0.id), $0.x, $0.y, $0.rotation, $0.scaleY] }
        XCTAssertEqual(drawn.count, SceneScriptLiterals.items.count)
        for (got, want) in zip(drawn, SceneScriptLiterals.items) {
            for k in 0..<6 { XCTAssertEqual(got[k], want[k], accuracy: 1e-6, "\(got) vs \(want)") }
        }
        XCTAssertEqual(map.scene.hiddenCount, 1)
    }
}

/// [kind, id, x, y, rotation, scaleY] per drawn item, bottom to top.
enum SceneScriptLiterals {
    static let items: [[Double]] = [
        [3, 5, 479.97899452732923, 112.29583726212834, 0, 1],                // the lone cluster item
        // flat: 45° − bearing 20° on the ground, squeezed by cos 30° up the screen
        [1, 1, 474.0910925357, 338.24289316590216, 28.30005243274795, 0.8914323018542589],
        [2, 8_589_934_592, 363.095907043208, 574.0750187823576, 0, 1],      // the cluster of four
        [1, 0, 387.43828981033084, 282.73160745564337, 0, 1],               // zIndex 1 on top; it hides marker 2
    ]
}
