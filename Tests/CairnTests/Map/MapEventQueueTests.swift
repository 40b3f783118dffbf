import XCTest
@testable import Cairn

final class MapEventQueueTests: XCTestCase {
    func testTheEventQueueIsBounded() throws {
        let map = MapController.make()
        for i in 0..<(MapEventQueue.capacity + 10) {
            try map.moveCamera(to: CameraPosition(latitude: 0, longitude: Double(i % 2), zoom: 3))
            map.frame(Double(i))
        }
        XCTAssertEqual(map.pendingEvents.count, MapEventQueue.capacity)
        XCTAssertGreaterThan(map.droppedEvents, 0)
    }
}
