import XCTest
@testable import Cairn

/// Collisions between markers (feature V4): behaviours, priorities, ties and turned boxes.
final class CollisionTests: XCTestCase {
    func testV4_CollisionBehavioursAndPriorities() throws {
        let map = MapController.make(zoom: 10)
        func at(_ dx: Double, _ edit: (inout MarkerProperties) -> Void) throws -> Int64 {
            // 10 px apart at zoom 10 is 10 / (256 × 1024) of the world.
            try map.addMarker(marker(0, dx * 360 / 262_144, edit))
        }
        let plain = try at(0) { _ in }
        let hider = try at(100) { $0.collision = .requiredAndHidesOptional }
        let hiddenByHider = try at(105) { $0.collision = .optionalAndHidesLowerPriority; $0.collisionPriority = 99 }
        let low = try at(200) { $0.collision = .optionalAndHidesLowerPriority; $0.collisionPriority = 1 }
        let high = try at(205) { $0.collision = .optionalAndHidesLowerPriority; $0.collisionPriority = 2 }
        let besidePlain = try at(5) { $0.collision = .optionalAndHidesLowerPriority }
        let tieLow = try at(300) { $0.collision = .optionalAndHidesLowerPriority }
        let tieHigh = try at(305) { $0.collision = .optionalAndHidesLowerPriority; $0.zIndex = 1 }
        map.frame(1)
        let shown = Set(map.scene.items.map(\.id))
        XCTAssertTrue(shown.contains(plain))
        XCTAssertTrue(shown.contains(hider))
        XCTAssertFalse(shown.contains(hiddenByHider), "a required-and-hiding marker beats any optional one")
        XCTAssertTrue(shown.contains(high))
        XCTAssertFalse(shown.contains(low), "higher priority wins")
        XCTAssertTrue(shown.contains(besidePlain), "plain required markers hide nothing")
        XCTAssertTrue(shown.contains(tieHigh))
        XCTAssertFalse(shown.contains(tieLow), "equal priority: higher zIndex wins")
        XCTAssertEqual(map.scene.hiddenCount, 3)
    }

    func testV4EqualOptionalMarkersTheLowerOnScreenWins() throws {
        let map = MapController.make(zoom: 10)
        let upper = try map.addMarker(marker(0.002, 0) { $0.collision = .optionalAndHidesLowerPriority })
        let lower = try map.addMarker(marker(0, 0) { $0.collision = .optionalAndHidesLowerPriority })
        map.frame(1)
        XCTAssertEqual(map.scene.items.map(\.id), [lower], "\(upper) overlaps and sits higher: it yields")
    }

    func testV4RotatedIconsCollideByTheirTurnedBoxes() throws {
        let map = MapController.make(zoom: 10)
        let icon = try map.registerIcon(Icon(width: 80, height: 6))
        // Two long thin icons anchored at their centres 30 px apart vertically: upright they miss;
        // turned 90° they cross.
        func bar(_ lat: Double, rotation: Double, _ collision: CollisionBehavior) -> MarkerProperties {
            marker(lat, 0) { $0.icon = icon; $0.groundAnchorY = 0.5; $0.rotation = rotation; $0.collision = collision }
        }
        let dy = 30.0 / 262_144 * 360   // 30 px at zoom 10, near the equator
        _ = try map.addMarker(bar(0, rotation: 0, .requiredAndHidesOptional))
        let apart = try map.addMarker(bar(dy, rotation: 0, .optionalAndHidesLowerPriority))
        map.frame(1)
        XCTAssertTrue(map.scene.items.contains { $0.id == apart })
        try map.updateMarker(apart, bar(dy, rotation: 90, .optionalAndHidesLowerPriority))
        map.frame(2)
        XCTAssertFalse(map.scene.items.contains { $0.id == apart }, "turned, it crosses the other")
    }
}
