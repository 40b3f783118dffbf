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
        r[F.given.rawValue] = Double(_MarkerRecords.allFields)
        r[F.givenFlags.rawValue] = Double(_MarkerRecords.allFlags)
        edit(&r)
        return r
    }

    /// A record giving only a position (none when nil), then the fields `edit` sets (each one
    /// it sets is given).
    private func sparse(_ position: (Double, Double)?, _ edit: [(_MarkerRecords.Field, Double)] = []) -> [Double] {
        typealias F = _MarkerRecords.Field
        var r = [Double](repeating: 0, count: _MarkerRecords.stride)
        var given = 0
        if let (lat, lng) = position {
            r[F.latitude.rawValue] = lat
            r[F.longitude.rawValue] = lng
            given = 1 << F.latitude.rawValue | 1 << F.longitude.rawValue
        }
        for (f, v) in edit {
            r[f.rawValue] = v
            given |= 1 << f.rawValue
        }
        r[F.given.rawValue] = Double(given)
        return r
    }

    private func readRecord(_ h: Int32, _ id: Double) -> [Double] {
        let out = cairn_alloc(_MarkerRecords.stride * 8)!
        defer { _ = cairn_free(out) }
        XCTAssertEqual(cairn_map_marker(h, id, out), 0)
        return (0..<_MarkerRecords.stride).map { read(out, $0) }
    }

    func testARecordGivesSomeFieldsAndTheEngineKeepsTheRest() throws {
        typealias F = _MarkerRecords.Field
        let h = cairn_map_create(0, 0, 10, 0, 0, 800, 600)
        defer { _ = cairn_map_destroy(h) }
        let map = try _Registry.map(h)
        let ids = cairn_alloc(16)!
        defer { _ = cairn_free(ids) }
        // Only a position: every other property is the engine's default.
        let plain = doubles(sparse((10, 20)))
        XCTAssertEqual(cairn_map_add_markers(h, plain, 1, ids), 1)
        let id = read(ids, 0)
        XCTAssertEqual(try map.markers.marker(Int64(id)), MarkerProperties(latitude: 10, longitude: 20))
        // Written back whole, and read again it is the same marker.
        let back = readRecord(h, id)
        XCTAssertEqual(back[F.given.rawValue], Double(_MarkerRecords.allFields))
        XCTAssertEqual(back[F.flags.rawValue], 2, "visible, by default")
        let again = doubles(back)
        XCTAssertEqual(cairn_map_add_markers(h, again, 1, ids), 1)
        XCTAssertEqual(try map.markers.marker(Int64(read(ids, 0))), MarkerProperties(latitude: 10, longitude: 20))
        // An update gives some fields and flags; the others stay as they are.
        var change = sparse(nil, [(.opacity, 0.5), (.flags, 1 + 4)])
        change[F.givenFlags.rawValue] = 1 + 2   // flat given on, visible given off; the title flag not given
        let update = doubles(change)
        XCTAssertEqual(cairn_map_update_marker(h, id, update), 0)
        var expected = MarkerProperties(latitude: 10, longitude: 20)
        expected.opacity = 0.5
        expected.flat = true
        expected.visible = false
        XCTAssertEqual(try map.markers.marker(Int64(id)), expected)
        let zIndex = doubles(sparse(nil, [(.zIndex, 3)]))
        XCTAssertEqual(cairn_map_update_marker(h, id, zIndex), 0)
        expected.zIndex = 3
        XCTAssertEqual(try map.markers.marker(Int64(id)), expected, "earlier changes stay")
        // No position: refused, naming it; a field given a bad value is refused, one not given is not read.
        let none = doubles(sparse(nil, [(.opacity, 1)]))
        XCTAssertEqual(cairn_map_add_markers(h, none, 1, ids), -CairnError.invalidMarkerInBatch(index: 0, field: 0).code)
        XCTAssertEqual(cairn_last_error_detail(), Double(MarkerProperties.Field.position.rawValue), "record 0, its position")
        let badMode = doubles(sparse((0, 0), [(.altitudeMode, 9)]))
        XCTAssertEqual(cairn_map_add_markers(h, badMode, 1, ids), -CairnError.invalidMarkerInBatch(index: 0, field: 0).code)
        var ignored = sparse((0, 0))
        ignored[F.altitudeMode.rawValue] = 9
        ignored[F.opacity.rawValue] = .nan
        let quiet = doubles(ignored)
        XCTAssertEqual(cairn_map_add_markers(h, quiet, 1, ids), 1)
        for bad in [(F.given, Double(_MarkerRecords.allFields + 1)), (.given, 0.5), (.givenFlags, 64), (.givenFlags, -1)] {
            var r = sparse((0, 0))
            r[bad.0.rawValue] = bad.1
            let p = doubles(r)
            XCTAssertEqual(cairn_map_update_marker(h, id, p), -CairnError.invalidArgument.code, "\(bad)")
            _ = cairn_free(p)
        }
        XCTAssertEqual(try map.markers.marker(Int64(id)), expected, "the refused updates changed nothing")
        XCTAssertEqual(cairn_map_marker(h, id + 4_294_967_296, ids), -CairnError.unknownMarker(id: 0).code, "another generation of its slot")
        XCTAssertEqual(cairn_map_marker(h, id, nil), -CairnError.invalidArgument.code)
        for p in [plain, again, update, zIndex, none, badMode, quiet] { _ = cairn_free(p) }
    }

    func testDrawRecordsCarryTheImagesAnchor() {
        let h = cairn_map_create(0, 0, 10, 0, 0, 800, 600)
        defer { _ = cairn_map_destroy(h) }
        let icon = cairn_map_register_icon(h, 40, 20, 0, 8, 0, 0, .nan, .nan)
        XCTAssertEqual(cairn_map_register_icon(h, 40, 20, 0, 0, 0, 0, .infinity, 0), -CairnError.invalidArgument.code)
        XCTAssertEqual(try _Registry.map(h).icons.icon(icon), Icon(width: 40, height: 20, insets: EdgeInsets(top: 0, left: 8, bottom: 0, right: 0)),
                       "an anchor not given is the engine's default")
        let ids = cairn_alloc(16)!
        let records = doubles(sparse((0, 0), [(.icon, Double(icon)), (.groundAnchorX, 0.5), (.groundAnchorY, 0.5)]))
        XCTAssertEqual(cairn_map_add_markers(h, records, 1, ids), 1)
        let size = Int(cairn_map_frame(h, 1, nil, 0))
        let out = cairn_alloc(size * 8)!
        XCTAssertEqual(Int(cairn_map_frame(h, 1, out, Int32(size))), size)
        let draw = _FrameField.count + Int(read(out, _FrameField.tileCount.rawValue)) * _FrameWriter.tileStride
        XCTAssertEqual([read(out, draw + 16), read(out, draw + 17)], [(8 + 16) / 40.0, 0.5], "the content's centre, past the inset")
        for p in [ids, records, out] { _ = cairn_free(p) }
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
        XCTAssertEqual([read(out, draw + 16), read(out, draw + 17)], [0.5, 1], "the pin stands on its tip")
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
