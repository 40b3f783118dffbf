import XCTest
@testable import CairnWasm
import Cairn

/// A frame asked for with too small a buffer, then again at once with room, is the frame one
/// call with room writes; a call to the map in between is seen by the second.
final class FrameRetryExportsTests: XCTestCase {
    /// A map over New York with markers and a manager's items, the camera moving.
    private func makeMap() -> Int32 {
        let h = cairn_map_create(40.7, -74, 3, 0, 0, 900, 700)
        XCTAssertGreaterThan(h, 0)
        let m = cairn_map_add_cluster_manager(h, 2, 4, 20, 40)
        XCTAssertGreaterThanOrEqual(m, 0)
        let n = 2000
        let lngLat = cairn_alloc(2 * n * 8)!
        for i in 0..<n {
            lngLat.storeBytes(of: -74 + Double(i % 50) * 0.7, toByteOffset: 16 * i, as: Double.self)
            lngLat.storeBytes(of: 40.7 + Double(i / 50) * 0.3, toByteOffset: 16 * i + 8, as: Double.self)
        }
        XCTAssertGreaterThanOrEqual(cairn_map_add_cluster_coordinates(h, m, lngLat, Int32(n), -1), 0)
        XCTAssertEqual(cairn_map_cluster(h, m), 0)
        XCTAssertEqual(cairn_free(lngLat), 0)
        XCTAssertEqual(cairn_map_animate_camera(h, 30, -60, 6, 20, 40, 1, 1), 0)
        return h
    }

    /// The frame at `time` through a buffer with room for any, asked for first with none when
    /// `retry` is set; the bits of the doubles it wrote (NaN marks fields without a value).
    private func frame(_ h: Int32, _ time: Double, retry: Bool) -> [UInt64] {
        let room = 1 << 20
        let out = cairn_alloc(room * 8)!
        defer { _ = cairn_free(out) }
        if retry { XCTAssertGreaterThan(cairn_map_frame(h, time, nil, 0), 0) }
        let size = Int(cairn_map_frame(h, time, out, Int32(room)))
        XCTAssertGreaterThan(size, 0)
        return (0..<size).map { out.load(fromByteOffset: 8 * $0, as: Double.self).bitPattern }
    }

    func testAFrameAskedForAgainWithRoomIsTheFrameOneCallWrites() {
        let once = makeMap(), twice = makeMap()
        defer {
            XCTAssertEqual(cairn_map_destroy(once), 0)
            XCTAssertEqual(cairn_map_destroy(twice), 0)
        }
        for (k, t) in [0.0, 0.1, 0.25, 0.6, 1.2, 1.5].enumerated() {
            let a = frame(once, t, retry: false), b = frame(twice, t, retry: k % 2 == 0)
            XCTAssertEqual(a.count, b.count, "frame at \(t)")
            XCTAssertNil((0..<min(a.count, b.count)).first { a[$0] != b[$0] }, "frame at \(t): the first double that differs")
        }
    }

    func testACallInBetweenIsSeenByTheFrameAskedForAgain() {
        let h = makeMap()
        defer { XCTAssertEqual(cairn_map_destroy(h), 0) }
        let before = frame(h, 0, retry: false)
        // Asked for without room, then a marker is added: the frame then written draws it.
        XCTAssertGreaterThan(cairn_map_frame(h, 0, nil, 0), 0)
        typealias F = _MarkerRecords.Field
        let record = cairn_alloc(_MarkerRecords.stride * 8)!, ids = cairn_alloc(8)!
        defer {
            _ = cairn_free(record)
            _ = cairn_free(ids)
        }
        for i in 0..<_MarkerRecords.stride { record.storeBytes(of: 0.0, toByteOffset: 8 * i, as: Double.self) }
        // A position alone: the engine's defaults give the rest.
        let given = Double(1 << F.latitude.rawValue | 1 << F.longitude.rawValue)
        for (field, value) in [(F.latitude, 40.7), (F.longitude, -74), (F.given, given)] {
            record.storeBytes(of: value, toByteOffset: 8 * field.rawValue, as: Double.self)
        }
        XCTAssertEqual(cairn_map_add_markers(h, record, 1, ids), 1)
        let after = frame(h, 0, retry: false)
        func drawn(_ f: [UInt64]) -> Double { Double(bitPattern: f[_FrameField.drawCount.rawValue]) }
        XCTAssertEqual(drawn(after), drawn(before) + 1)
    }
}
