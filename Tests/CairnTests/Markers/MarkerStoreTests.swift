import XCTest
@testable import Cairn

final class MarkerStoreTests: XCTestCase {
    func testM1M8M12_MarkersHaveGoogleDefaultsAndStableIds() throws {
        var store = MarkerStore()
        let a = try store.add(MarkerProperties(latitude: 10, longitude: 20), at: 0)
        var props = MarkerProperties(latitude: -33.9, longitude: 151.2)
        props.hasTitle = true
        props.zIndex = 3
        props.userData = 42
        let b = try store.add(props, at: 1)
        XCTAssertNotEqual(a, b)
        XCTAssertEqual(store.count, 2)
        let m = try store.marker(a)
        XCTAssertEqual(m.groundAnchorX, 0.5)
        XCTAssertEqual(m.groundAnchorY, 1)
        XCTAssertEqual(m.infoWindowAnchorY, 0)
        XCTAssertEqual(m.opacity, 1)
        XCTAssertEqual(m.collision, .required)
        XCTAssertEqual(m.appearAnimation, .none)
        XCTAssertEqual(m.icon, MarkerProperties.defaultPin)
        XCTAssertEqual(try store.marker(b).userData, 42)
        XCTAssertEqual(store.addedAt[try store.slot(of: b)], 1)
        XCTAssertEqual(store.worldX[try store.slot(of: a)], WebMercator.x(longitude: 20))
    }

    func testARemovedIdIsAnErrorEvenWhenItsSlotIsReused() throws {
        var store = MarkerStore()
        let a = try store.add(MarkerProperties(latitude: 0, longitude: 0), at: 0)
        try store.remove(a)
        let b = try store.add(MarkerProperties(latitude: 1, longitude: 1), at: 0)
        XCTAssertEqual(try store.slot(of: b), 0, "the slot is reused")
        XCTAssertThrowsError(try store.marker(a)) { XCTAssertEqual($0 as? CairnError, .unknownMarker(id: a)) }
        XCTAssertThrowsError(try store.remove(a))
        XCTAssertThrowsError(try store.update(a, MarkerProperties(latitude: 5, longitude: 5)))
        XCTAssertEqual(try store.marker(b).latitude, 1, "the new marker is untouched")
        for bad: Int64 in [-1, 99, Int64.max, 1 << 40] { XCTAssertFalse(store.contains(bad)) }
        store.removeAll()
        XCTAssertEqual(store.count, 0)
        XCTAssertFalse(store.contains(b))
        var seen = 0
        store.forEach { _, _ in seen += 1 }
        XCTAssertEqual(seen, 0)
    }

    func testUpdatesMoveMarkersAndInvalidPropertiesAreRefused() throws {
        var store = MarkerStore()
        let a = try store.add(MarkerProperties(latitude: 0, longitude: 0), at: 0)
        var moved = MarkerProperties(latitude: 45, longitude: 190)
        moved.rotation = 90
        try store.update(a, moved)
        XCTAssertEqual(store.worldX[0], WebMercator.x(longitude: -170), accuracy: 1e-15, "longitude wraps")
        XCTAssertEqual(store.addedAt[0], 0, "an update does not replay the appear animation")
        let cases: [(MarkerProperties.Field, (inout MarkerProperties) -> Void)] = [
            (.position, { $0.latitude = .nan }), (.position, { $0.latitude = 91 }), (.altitude, { $0.altitude = .infinity }),
            (.icon, { $0.icon = -2 }), (.groundAnchor, { $0.groundAnchorX = .nan }),
            (.infoWindowAnchor, { $0.infoWindowAnchorY = .nan }), (.rotation, { $0.rotation = .nan }),
            (.opacity, { $0.opacity = 1.5 }), (.opacity, { $0.opacity = .nan }), (.zIndex, { $0.zIndex = .nan }),
            (.collisionPriority, { $0.collisionPriority = -.infinity }),
        ]
        for (field, spoil) in cases {
            var bad = MarkerProperties(latitude: 0, longitude: 0)
            spoil(&bad)
            XCTAssertThrowsError(try store.add(bad, at: 0)) { XCTAssertEqual($0 as? CairnError, .invalidMarker(field)) }
            XCTAssertThrowsError(try store.update(a, bad)) { XCTAssertEqual($0 as? CairnError, .invalidMarker(field)) }
        }
        XCTAssertEqual(store.count, 1)
        XCTAssertEqual(try store.marker(a), moved, "refused updates change nothing")
    }

    func testABatchIsAddedWholeOrNotAtAll() throws {
        var store = MarkerStore()
        var bad = MarkerProperties(latitude: 0, longitude: 0)
        bad.opacity = -1
        let batch = [MarkerProperties(latitude: 1, longitude: 1), bad, MarkerProperties(latitude: 2, longitude: 2)]
        XCTAssertThrowsError(try store.add(batch, at: 0)) { XCTAssertEqual($0 as? CairnError, .invalidMarkerInBatch(index: 1, field: MarkerProperties.Field.opacity.rawValue)) }
        XCTAssertEqual(store.count, 0)
        let ids = try store.add([MarkerProperties(latitude: 1, longitude: 1), MarkerProperties(latitude: 2, longitude: 2)], at: 0)
        XCTAssertEqual(ids.count, 2)
        XCTAssertEqual(Set(ids).count, 2)
    }

    func testIconsAreValidated() throws {
        var icons = IconRegistry()
        let pin = try icons.register(Icon(width: 32, height: 48, insets: EdgeInsets(top: 0, left: 4, bottom: 6, right: 4)))
        XCTAssertEqual(pin, 0)
        let box = icons.icon(pin)!.contentBox
        XCTAssertEqual(box.minX, 4)
        XCTAssertEqual(box.maxX, 28)
        XCTAssertEqual(box.maxY, 42)
        XCTAssertNil(icons.icon(1))
        XCTAssertNil(icons.icon(-1))
        for bad in [Icon(width: 0, height: 10), Icon(width: .nan, height: 10), Icon(width: 10, height: 1e6),
                    Icon(width: 10, height: 10, insets: EdgeInsets(top: 0, left: 5, bottom: 0, right: 5)),
                    Icon(width: 10, height: 10, insets: EdgeInsets(top: -1, left: 0, bottom: 0, right: 0)),
                    Icon(width: 10, height: 10, anchorX: .infinity)] {
            XCTAssertThrowsError(try icons.register(bad))
        }
        XCTAssertEqual(icons.icons.count, 1)
    }
}

extension MarkerStoreTests {
    func testIdsWithALargeSlotPartAreUnknownNotATrap() throws {
        var store = MarkerStore()
        _ = try store.add(MarkerProperties(latitude: 0, longitude: 0), at: 0)
        for id: Int64 in [0x8000_0000, 0xFFFF_FFFF, (1 << 32) | 0x8000_0000, 1 << 52] {
            XCTAssertThrowsError(try store.slot(of: id)) { XCTAssertEqual($0 as? CairnError, .unknownMarker(id: id)) }
        }
    }
}
