/// Turns raw pointer, wheel and key events into camera changes and tap events (features G6, G8),
/// gated by the UI settings. It keeps the pointers that are down and one mode at a time; the
/// map's camera, events and controls are reached through the `MapController` it is given.
///
/// Modes: a single pointer starts as a *press* (a tap, double tap or long press while it stays
/// within the slop), becomes a *pan* when it moves further, or a *rotate-tilt* drag with the
/// secondary mouse button or ctrl. A second pointer turns any of these into a *two-finger*
/// gesture: pinch, rotate and pan together, or tilt on its own (see `+TwoFinger`).
struct GestureRecognizer {
    struct Pointer {
        var id: Int32
        var kind: PointerKind
        var x: Double, y: Double
        var downX: Double, downY: Double
        var downTime: Double
    }

    enum Mode {
        case none
        /// One pointer down and still within the slop: a tap candidate.
        case press(id: Int32)
        case pan(id: Int32)
        case mouseRotateTilt(id: Int32)
        /// Pointers down that do nothing (the gesture is off, or the long press fired).
        case dead
        /// A press that began on a control: a tap there activates it, nothing else happens.
        case control(MapControl, id: Int32)
        case twoFinger(TwoFinger)
    }

    // Google's and the platforms' customary thresholds, in CSS pixels and seconds.
    static let touchSlop = 8.0
    static let mouseSlop = 4.0
    static let doubleTapTime = 0.3
    static let doubleTapSlop = 40.0
    static let longPressDelay = 0.5
    static let twoFingerTapTime = 0.4
    /// Mouse rotate-tilt drag: degrees per pixel.
    static let mouseBearingPerPixel = 0.5
    static let mouseTiltPerPixel = 0.25
    /// How long the camera counts as moving after the last wheel event (wheel has no "up").
    static let wheelHold = 0.15

    var pointers: [Pointer] = []
    var mode = Mode.none
    var velocity = _VelocityTracker()
    var fling: Fling?
    /// A single tap waiting to see whether a second one follows.
    var pendingTap: (x: Double, y: Double, time: Double)?
    /// The current press is the second tap of a double tap.
    var secondTap = false
    /// Two fingers touched and lifted without moving: when the last lifts in time, zoom out.
    var twoFingerTapStart: Double?
    /// The camera is being moved by a pointer gesture.
    var gestureMoving = false
    var lastWheel = -Double.infinity

    static let maximumPointers = 10

    func pointerIndex(_ id: Int32) -> Int? {
        pointers.firstIndex { $0.id == id }
    }

    static func slop(_ kind: PointerKind) -> Double { kind == .mouse ? mouseSlop : touchSlop }

    static func distance(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) -> Double {
        ((ax - bx) * (ax - bx) + (ay - by) * (ay - by)).squareRoot()
    }

    /// Whether anything the recognizer does is still moving the camera at `time`.
    func isMoving(at time: Double) -> Bool {
        gestureMoving || fling != nil || time < lastWheel + GestureRecognizer.wheelHold
    }

    /// Seconds from `time` until a timer of the recognizer fires on its own: a single tap
    /// confirmed once no second tap came, a long press, the end of a wheel gesture; infinity
    /// when none is waiting.
    func nextTimer(at time: Double) -> Double {
        var wait = Double.infinity
        if let tap = pendingTap { wait = Swift.min(wait, tap.time + GestureRecognizer.doubleTapTime - time) }
        if case .press(let id) = mode, let i = pointerIndex(id), !secondTap {
            wait = Swift.min(wait, pointers[i].downTime + GestureRecognizer.longPressDelay - time)
        }
        if time < lastWheel + GestureRecognizer.wheelHold { wait = Swift.min(wait, lastWheel + GestureRecognizer.wheelHold - time) }
        return Swift.max(0, wait)
    }

    // MARK: Dispatch

    mutating func handle(_ event: InputEvent, time: Double, map: MapController) {
        expireTimers(time: time, map: map)
        switch event {
        case let .pointerDown(id, kind, x, y, button, modifiers, _):
            pointerDown(Pointer(id: id, kind: kind, x: x, y: y, downX: x, downY: y, downTime: time),
                        button: button, modifiers: modifiers, map: map)
        case let .pointerMove(id, x, y, _):
            pointerMove(id, x: x, y: y, time: time, map: map)
        case let .pointerUp(id, x, y, _):
            pointerMove(id, x: x, y: y, time: time, map: map)
            pointerUp(id, time: time, cancelled: false, map: map)
        case let .pointerCancel(id, _):
            pointerUp(id, time: time, cancelled: true, map: map)
        case let .wheel(x, y, _, dy, wheelMode, modifiers, _):
            wheel(x: x, y: y, deltaY: dy, mode: wheelMode, modifiers: modifiers, time: time, map: map)
        case let .key(command, modifiers, _):
            key(command, modifiers: modifiers, time: time, map: map)
        }
    }

    /// Time-driven changes: a single tap confirmed when no second tap came, a long press, the
    /// fling glide.
    mutating func advance(to time: Double, map: MapController) {
        expireTimers(time: time, map: map)
        if fling != nil && !map.settings.scrollGestures { fling = nil }
        if var f = fling {
            let step = f.step(to: time)
            let c = map.camera.center
            map.camera.set(map.camera.panned(from: c, to: (c.x + step.dx, c.y + step.dy)),
                           cause: .gesture, events: &map.events)
            fling = step.finished ? nil : f
        }
    }

    mutating func expireTimers(time: Double, map: MapController) {
        if let tap = pendingTap, time > tap.time + GestureRecognizer.doubleTapTime {
            pendingTap = nil
            map.reportTap(x: tap.x, y: tap.y)
        }
        if case .press(let id) = mode, let i = pointerIndex(id), !secondTap,
           time - pointers[i].downTime >= GestureRecognizer.longPressDelay {
            mode = .dead
            map.reportLongPress(x: pointers[i].x, y: pointers[i].y)
        }
    }

    /// A finger on the map stops whatever was moving it.
    mutating func stopMotion(map: MapController) {
        fling = nil
        map.camera.stopAnimation()
    }

    mutating func apply(_ camera: _WorldCamera, map: MapController) {
        gestureMoving = true
        map.camera.set(camera, cause: .gesture, events: &map.events)
    }
}
