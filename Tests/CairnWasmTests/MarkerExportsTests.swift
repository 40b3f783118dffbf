import XCTest
@testable import CairnWasm
import Cairn

/// Markers over the C ABI: records in, ids out, the draw list in the frame.
final class MarkerExportsTests: XCTestCase {
    private func doubles(_ values: [Double]) -> UnsafeMutableRawPointer {
        let p = cairn_alloc(max(values.count, 1) * 8)!
        for (i, v) in values.enumerated() { p.storeBytes(of: v, toByteOffset: 8 * i, as: Double.self) }
        return p
    }

    private func read(_ p: UnsafeMutableRawPointer, _ i: Int) -> Double { p.load(fromByteOffset: 8 * i, as: Double.self) }

    /// A record with Google's defaults at a position, then edits.
    private func record(_ lat: Double, _ lng: Double, _ edit: (inout [Double]) -> Void = { _ in }) -> [Double] {
        typealias F = _MarkerRecords.Field
        var r = [Double](repeating: 0, count: _MarkerRecords.stride)
        r[F.latitude.rawValue] = lat
        r[F.longitude.rawValue] = lng
        r[F.icon.rawValue] = -1
        r[F.groundAnchorX.rawValue] = 0.5
        r[F.groundAnchorY.rawValue] = 1
        r[F.infoWindowAnchorX.rawValue] = 0.5
        r[F.flags.rawValue] = 6  // visible, has a title
        r[F.opacity.rawValue] = 1
        edit(&r)
        return r
    }

    func testMarkersGoInAsRecordsAndComeOutAsDrawRecords() {
        let h = cairn_map_create(0, 0, 10, 0, 0, 800, 600)
        defer { _ = cairn_map_destroy(h) }
        XCTAssertEqual(cairn_map_layout(5), Int32(_MarkerRecords.stride))
        XCTAssertEqual(cairn_map_register_icon(h, 32, 32, 0, 0, 0, 0, 0.5, 0.5), 0)
        XCTAssertEqual(cairn_map_register_icon(h, 0, 32, 0, 0, 0, 0, 0.5, 0.5), -CairnError.invalidArgument.code)
        let bad = doubles(record(0, 0) + record(0, 0) { $0[_MarkerRecords.Field.collision.rawValue] = 7 })
        let ids = cairn_alloc(16)!
        XCTAssertEqual(cairn_map_add_markers(h, bad, 2, ids), -CairnError.invalidMarkerInBatch(index: 0, field: 0).code)
        XCTAssertEqual(cairn_last_error_detail(), 16, "record 1, which did not decode")
        let good = doubles(record(0, 0) + record(0, 0.001) { $0[_MarkerRecords.Field.icon.rawValue] = 0; $0[_MarkerRecords.Field.zIndex.rawValue] = 2 })
        XCTAssertEqual(cairn_map_add_markers(h, good, 2, ids), 2)
        let first = read(ids, 0), second = read(ids, 1)
        XCTAssertNotEqual(first, second)
        let size = Int(cairn_map_frame(h, 1, nil, 0))
        var out = cairn_alloc(size * 8)!
        XCTAssertEqual(Int(cairn_map_frame(h, 1, out, Int32(size))), size)
        XCTAssertEqual(read(out, _FrameField.drawCount.rawValue), 2)
        let tiles = Int(read(out, _FrameField.tileCount.rawValue))
        let draw = _FrameField.count + tiles * _FrameWriter.tileStride
        XCTAssertEqual(read(out, draw), 1, "a marker")
        XCTAssertEqual(read(out, draw + 1), first)
        XCTAssertEqual(read(out, draw + 2), 400, accuracy: 1e-9)
        XCTAssertEqual(read(out, draw + _FrameWriter.drawStride + 1), second, "higher zIndex on top")
        XCTAssertEqual(read(out, draw + _FrameWriter.drawStride + 8), 0, "its icon")
        // Select, then remove: the window opens and closes.
        XCTAssertEqual(cairn_map_select_marker(h, first), 1, "its window opened")
        XCTAssertEqual(cairn_map_set_info_window_size(h, 100, 40), 0)
        let larger = Int(cairn_map_frame(h, 2, nil, 0))
        XCTAssertEqual(larger, size + _FrameWriter.eventStride, "the opening is an event")
        let out2 = cairn_alloc(larger * 8)!
        XCTAssertEqual(Int(cairn_map_frame(h, 2, out2, Int32(larger))), larger)
        _ = cairn_free(out)
        out = out2
        XCTAssertEqual(read(out, _FrameField.infoWindowOpen.rawValue), 1)
        XCTAssertEqual(read(out, _FrameField.infoWindowY.rawValue), 300 - 43, accuracy: 1e-9)
        XCTAssertEqual(read(out, _FrameField.infoWindowMarker.rawValue), first)
        XCTAssertEqual(read(out, _FrameField.selectedMarker.rawValue), first)
        XCTAssertEqual(read(out, _FrameField.infoWindowManager.rawValue), -1, "a marker's")
        XCTAssertEqual(read(out, _FrameField.selectedManager.rawValue), -1)
        let events = _FrameField.count + tiles * _FrameWriter.tileStride + 2 * _FrameWriter.drawStride
        XCTAssertEqual(read(out, events), Double(MapEvent.infoWindowOpened(.marker(0)).kind))
        XCTAssertEqual([read(out, events + 1), read(out, events + 2)], [first, -1], "the marker, no manager")
        let selection = cairn_alloc(16)!
        XCTAssertEqual(cairn_map_selection(h, selection), 1)
        XCTAssertEqual([read(selection, 0), read(selection, 1)], [first, -1])
        XCTAssertEqual(cairn_map_selection(h, nil), -CairnError.invalidArgument.code)
        XCTAssertEqual(cairn_map_selection(h + 1, selection), -CairnError.invalidHandle.code)
        // An item of a cluster manager (one with a title, then one without any text): the titled
        // one's window takes the place of the marker's.
        let manager = cairn_map_add_cluster_manager(h, 2, 4, 20, 40)
        let item = doubles([0, 0.002, -1, 1, 0, 0.003, -1, 0])
        let itemID = cairn_map_add_cluster_items(h, manager, item, 2)
        XCTAssertEqual(cairn_map_select_cluster_item(h, manager, itemID + 2), -CairnError.unknownMarker(id: 0).code)
        XCTAssertEqual(cairn_map_select_cluster_item(h, manager + 1, itemID), -CairnError.invalidHandle.code)
        XCTAssertEqual(cairn_map_select_cluster_item(h, manager, itemID), 1, "its window opened")
        XCTAssertEqual(cairn_map_selection(h, selection), 1)
        XCTAssertEqual([read(selection, 0), read(selection, 1)], [itemID, Double(manager)])
        XCTAssertEqual(cairn_map_remove_cluster_item(h, manager, itemID), 0)
        XCTAssertEqual(cairn_map_selection(h, selection), 0, "its removal closed it")
        XCTAssertEqual(cairn_map_select_cluster_item(h, manager, itemID + 1), 0, "no text: no window (I2)")
        XCTAssertEqual(cairn_map_selection(h, selection), 0)
        XCTAssertEqual(cairn_map_set_custom_info_windows(h, 2), -CairnError.invalidArgument.code)
        XCTAssertEqual(cairn_map_set_custom_info_windows(h, 1), 0)
        XCTAssertEqual(cairn_map_select_cluster_item(h, manager, itemID + 1), 1, "the host may draw one of its own")
        XCTAssertEqual(cairn_map_set_custom_info_windows(h, 0), 0)
        XCTAssertEqual(cairn_map_select_cluster_item(h, manager, itemID + 1), 0)
        _ = cairn_free(selection)
        _ = cairn_free(item)
        XCTAssertEqual(cairn_map_select_marker(h, first), 1)
        XCTAssertEqual(cairn_map_remove_marker(h, first), 0)
        XCTAssertEqual(cairn_map_remove_marker(h, first), -CairnError.unknownMarker(id: 0).code)
        XCTAssertEqual(cairn_map_select_marker(h, 1.5), -CairnError.unknownMarker(id: 0).code)
        XCTAssertEqual(cairn_map_select_marker(h, -1), 0)
        let one = doubles(record(1, 1) { $0[_MarkerRecords.Field.opacity.rawValue] = 2 })
        XCTAssertEqual(cairn_map_update_marker(h, second, one), -CairnError.invalidMarker(.opacity).code)
        XCTAssertEqual(cairn_map_answer_tap(h, 2), -CairnError.invalidArgument.code)
        XCTAssertEqual(cairn_map_answer_tap(h, 0), 0, "no tap waiting: nothing happens")
        XCTAssertEqual(cairn_map_clear_markers(h), 0)
        XCTAssertEqual(cairn_map_remove_marker(h, second), -CairnError.unknownMarker(id: 0).code)
        for p in [bad, ids, good, out, one] { _ = cairn_free(p) }
    }
}
