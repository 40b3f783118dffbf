import XCTest
@testable import CairnWasm
import Cairn

/// Popovers and the frame's `nextFrameIn` over the C ABI.
final class PopoverExportsTests: XCTestCase {
    private func read(_ p: UnsafeMutableRawPointer, _ i: Int) -> Double { p.load(fromByteOffset: 8 * i, as: Double.self) }

    /// A frame at `time` in a fresh buffer (freed by the caller), and where its popover records start.
    private func frame(_ h: Int32, _ time: Double) -> (out: UnsafeMutableRawPointer, popovers: Int) {
        let size = Int(cairn_map_frame(h, time, nil, 0))
        let out = cairn_alloc(size * 8)!
        XCTAssertEqual(Int(cairn_map_frame(h, time, out, Int32(size))), size)
        let start = _FrameField.count + Int(read(out, _FrameField.tileCount.rawValue)) * _FrameWriter.tileStride
            + Int(read(out, _FrameField.drawCount.rawValue)) * _FrameWriter.drawStride
            + Int(read(out, _FrameField.eventCount.rawValue)) * _FrameWriter.eventStride
        XCTAssertEqual(size, start + Int(read(out, _FrameField.popoverCount.rawValue)) * _FrameWriter.popoverStride)
        return (out, start)
    }

    private func addMarker(_ h: Int32) -> Double {
        let record = cairn_alloc(_MarkerRecords.stride * 8)!, ids = cairn_alloc(8)!
        defer { _ = cairn_free(record); _ = cairn_free(ids) }
        for i in 0..<_MarkerRecords.stride { record.storeBytes(of: 0.0, toByteOffset: 8 * i, as: Double.self) }
        record.storeBytes(of: 2.0, toByteOffset: 8 * _MarkerRecords.Field.flags.rawValue, as: Double.self)   // visible
        record.storeBytes(of: 0.5, toByteOffset: 8 * _MarkerRecords.Field.groundAnchorX.rawValue, as: Double.self)
        record.storeBytes(of: 1.0, toByteOffset: 8 * _MarkerRecords.Field.groundAnchorY.rawValue, as: Double.self)
        record.storeBytes(of: 0.5, toByteOffset: 8 * _MarkerRecords.Field.infoWindowAnchorX.rawValue, as: Double.self)
        record.storeBytes(of: 1.0, toByteOffset: 8 * _MarkerRecords.Field.opacity.rawValue, as: Double.self)
        record.storeBytes(of: -1.0, toByteOffset: 8 * _MarkerRecords.Field.icon.rawValue, as: Double.self)   // the pin
        record.storeBytes(of: Double(_MarkerRecords.allFields), toByteOffset: 8 * _MarkerRecords.Field.given.rawValue, as: Double.self)
        record.storeBytes(of: Double(_MarkerRecords.allFlags), toByteOffset: 8 * _MarkerRecords.Field.givenFlags.rawValue, as: Double.self)
        XCTAssertEqual(cairn_map_add_markers(h, record, 1, ids), 1)
        return read(ids, 0)
    }

    func testPopoversAreCheckedPlacedInTheFrameAndReportedClosedAndRemoved() {
        let h = cairn_map_create(0, 0, 10, 0, 0, 800, 600)
        defer { _ = cairn_map_destroy(h) }
        let marker = addMarker(h)
        XCTAssertEqual(cairn_map_add_popover(h, marker + 1, 1, 1), -CairnError.unknownMarker(id: 0).code)
        XCTAssertEqual(cairn_map_add_popover(h, 0.5, 1, 1), -CairnError.unknownMarker(id: 0).code)
        XCTAssertEqual(cairn_map_add_popover(h, marker, 8, 8), -CairnError.invalidArgument.code, "no such setting")
        XCTAssertEqual(cairn_map_add_popover(h, marker, 1, 2), -CairnError.invalidArgument.code, "a bit outside the mask")
        XCTAssertEqual(cairn_map_add_popover(h + 1, marker, 1, 1), -CairnError.invalidHandle.code)
        let closed = cairn_map_add_popover(h, marker, 0, 0)
        XCTAssertEqual(cairn_map_popover_state(h, closed), 6, "the defaults: closed, auto-close, auto-pan")
        XCTAssertEqual(cairn_map_remove_popover(h, closed), 0)
        let p = cairn_map_add_popover(h, marker, 1, 1)   // opened, the other settings the defaults
        XCTAssertGreaterThan(p, closed)
        XCTAssertEqual(cairn_map_popover_state(h, p), 7)
        XCTAssertEqual(cairn_map_popover_state(h, p + 1), -CairnError.invalidHandle.code)
        XCTAssertEqual(cairn_map_set_popover_size(h, p, 100, .nan), -CairnError.invalidArgument.code)
        XCTAssertEqual(cairn_map_set_popover_size(h, p, -1, 10), -CairnError.invalidArgument.code)
        XCTAssertEqual(cairn_map_set_popover_size(h, p + 1, 100, 50), -CairnError.invalidHandle.code)
        XCTAssertEqual(cairn_map_set_popover_size(h, p, 100, 50), 0)
        var (out, at) = frame(h, 1)
        XCTAssertEqual(read(out, _FrameField.popoverCount.rawValue), 1)
        XCTAssertEqual((0..<7).map { read(out, at + $0) }, [Double(p), marker, 1, 350, 300 - 43 - Popovers.lift - 50, 100, 50])
        _ = cairn_free(out)
        // Closed by the host: no record, and a close event with the popover and its marker.
        XCTAssertEqual(cairn_map_set_popover(h, p, 16, 0), -CairnError.invalidArgument.code)
        XCTAssertEqual(cairn_map_set_popover(h, p + 1, 1, 0), -CairnError.invalidHandle.code)
        XCTAssertEqual(cairn_map_set_popover(h, p, 5, 0), 0, "closed, without auto-pan")
        XCTAssertEqual(cairn_map_popover_state(h, p), 2, "auto-close kept")
        (out, at) = frame(h, 2)
        XCTAssertEqual(read(out, _FrameField.popoverCount.rawValue), 0)
        let event = at - _FrameWriter.eventStride
        XCTAssertEqual([read(out, event), read(out, event + 1), read(out, event + 2)],
                       [Double(MapEvent.popoverClosed(popover: 0, marker: 0).kind), Double(p), marker])
        _ = cairn_free(out)
        // Gone with its marker: reported, and unknown from then on.
        XCTAssertEqual(cairn_map_remove_marker(h, marker), 0)
        (out, at) = frame(h, 3)
        XCTAssertEqual(read(out, at - _FrameWriter.eventStride), Double(MapEvent.popoverRemoved(popover: 0, marker: 0).kind))
        XCTAssertEqual(cairn_map_popover_state(h, p), -CairnError.invalidHandle.code)
        XCTAssertEqual(cairn_map_remove_popover(h, p), -CairnError.invalidHandle.code)
        _ = cairn_free(out)
        let again = cairn_map_add_popover(h, addMarker(h), 0, 0)
        XCTAssertEqual(cairn_map_remove_popover(h, again), 0)
        XCTAssertEqual(cairn_map_remove_popover(h, again), -CairnError.invalidHandle.code)
    }

    func testTheFrameSaysWhenTheNextIsWanted() {
        let h = cairn_map_create(0, 0, 10, 0, 0, 800, 600)
        defer { _ = cairn_map_destroy(h) }
        var (out, _) = frame(h, 1)
        XCTAssertEqual(read(out, _FrameField.nextFrameIn.rawValue), .infinity, "still")
        _ = cairn_free(out)
        XCTAssertEqual(cairn_map_animate_camera(h, .nan, .nan, 11, .nan, .nan, 0.5, 1), 0)
        (out, _) = frame(h, 2)
        XCTAssertEqual(read(out, _FrameField.nextFrameIn.rawValue), 0, "animating")
        _ = cairn_free(out)
        (out, _) = frame(h, 2.5)
        XCTAssertEqual(read(out, _FrameField.nextFrameIn.rawValue), .infinity, "done")
        _ = cairn_free(out)
    }
}
