/// The device behind a pointer (Pointer Events' `pointerType`).
public enum PointerKind: Int32 {
    case mouse = 0
    case touch = 1
    case pen = 2
}

/// How a wheel event's deltas are measured (`WheelEvent.deltaMode`).
public enum WheelMode: Int32 {
    case pixel = 0
    case line = 1
    case page = 2
}

/// Keyboard commands the map understands (feature G8). The host maps its key names to these.
public enum KeyCommand: Int32 {
    case panLeft = 1
    case panUp = 2
    case panRight = 3
    case panDown = 4
    case zoomIn = 5
    case zoomOut = 6
}

/// Modifier keys held during an event, as bits.
public enum Modifier {
    public static let shift: Int32 = 1
    public static let control: Int32 = 2
    public static let alt: Int32 = 4
    public static let meta: Int32 = 8
}

/// One raw input event, in CSS pixels relative to the map view's top-left, with its time in
/// seconds (any clock, as long as it is the one `advance(to:)` uses).
public enum InputEvent: Equatable {
    /// `button`: 0 primary, 1 middle, 2 secondary (as `PointerEvent.button`).
    case pointerDown(id: Int32, kind: PointerKind, x: Double, y: Double, button: Int32, modifiers: Int32, time: Double)
    case pointerMove(id: Int32, x: Double, y: Double, time: Double)
    case pointerUp(id: Int32, x: Double, y: Double, time: Double)
    case pointerCancel(id: Int32, time: Double)
    case wheel(x: Double, y: Double, deltaX: Double, deltaY: Double, mode: WheelMode, modifiers: Int32, time: Double)
    case key(KeyCommand, modifiers: Int32, time: Double)

    public var time: Double {
        switch self {
        case .pointerDown(_, _, _, _, _, _, let t), .pointerMove(_, _, _, let t), .pointerUp(_, _, _, let t),
             .pointerCancel(_, let t), .wheel(_, _, _, _, _, _, let t), .key(_, _, let t):
            return t
        }
    }

    /// Screen positions and wheel deltas beyond this many pixels are refused: no screen is that
    /// large, and products of such numbers would overflow to infinity.
    public static let maximumMagnitude = 10_000_000.0

    /// Whether every number in the event is finite and every position and delta within
    /// ±`maximumMagnitude`.
    public var isValid: Bool {
        func ok(_ v: Double) -> Bool { v.isFinite && abs(v) <= InputEvent.maximumMagnitude }
        switch self {
        case let .pointerDown(_, _, x, y, _, _, t), let .pointerMove(_, x, y, t), let .pointerUp(_, x, y, t):
            return ok(x) && ok(y) && t.isFinite
        case let .pointerCancel(_, t), let .key(_, _, t):
            return t.isFinite
        case let .wheel(x, y, dx, dy, _, _, t):
            return ok(x) && ok(y) && ok(dx) && ok(dy) && t.isFinite
        }
    }
}
