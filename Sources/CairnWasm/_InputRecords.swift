import Cairn

/// Decodes input event records from the host: `stride` doubles each,
/// [type, time, id, x, y, a, b, c, modifiers], where type is
/// 1 pointer down (a = pointer kind, b = button), 2 pointer move, 3 pointer up,
/// 4 pointer cancel, 5 wheel (a = deltaX, b = deltaY, c = delta mode), 6 key (id = command).
/// Every field is checked; an invalid record is an error whose detail is its position.
enum _InputRecords {
    static let stride = 9

    static func decode(_ r: UnsafeMutableBufferPointer<Double>, at i: Int) throws(CairnError) -> InputEvent {
        let base = i * stride
        let time = r[base + 1], x = r[base + 3], y = r[base + 4], a = r[base + 5], b = r[base + 6], c = r[base + 7]
        func integer(_ v: Double, _ range: ClosedRange<Int32>) throws(CairnError) -> Int32 {
            guard v.isFinite, v == v.rounded(.down), v >= Double(range.lowerBound), v <= Double(range.upperBound)
            else { throw .invalidArgument }
            return Int32(v)
        }
        let type = try integer(r[base], 1...6)
        let modifiers = try integer(r[base + 8], 0...15)
        switch type {
        case 1, 2, 3, 4:
            let id = try integer(r[base + 2], Int32.min...Int32.max)
            if type == 4 { return .pointerCancel(id: id, time: time) }
            if type == 2 { return .pointerMove(id: id, x: x, y: y, time: time) }
            if type == 3 { return .pointerUp(id: id, x: x, y: y, time: time) }
            guard let kind = PointerKind(rawValue: try integer(a, 0...2)) else { throw .invalidArgument }
            return .pointerDown(id: id, kind: kind, x: x, y: y, button: try integer(b, 0...4), modifiers: modifiers,
                                time: time)
        case 5:
            guard let mode = WheelMode(rawValue: try integer(c, 0...2)) else { throw .invalidArgument }
            return .wheel(x: x, y: y, deltaX: a, deltaY: b, mode: mode, modifiers: modifiers, time: time)
        default:
            guard let command = KeyCommand(rawValue: try integer(r[base + 2], 1...6)) else { throw .invalidArgument }
            return .key(command, modifiers: modifiers, time: time)
        }
    }

    /// All records decoded, or the first bad one's error (with its position as the detail):
    /// a batch is taken whole or not at all.
    static func decodeAll(_ r: UnsafeMutableBufferPointer<Double>, count: Int) throws(CairnError) -> [InputEvent] {
        var events: [InputEvent] = []
        events.reserveCapacity(count)
        for i in 0..<count {
            do throws(CairnError) {
                let e = try decode(r, at: i)
                guard e.isValid else { throw .invalidArgument }
                events.append(e)
            } catch {
                throw .invalidRecord(index: i)
            }
        }
        return events
    }
}
