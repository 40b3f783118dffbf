/// Timing curves for camera animations.
public enum Easing: Int32 {
    case linear = 0
    /// Slow start and end (cubic): programmatic moves.
    case easeInOut = 1
    /// Fast start, slow end (cubic): zoom steps that answer a tap or a key.
    case easeOut = 2

    func apply(_ t: Double) -> Double {
        let t = t < 0 ? 0 : (t > 1 ? 1 : t)
        switch self {
        case .linear: return t
        case .easeInOut: return t < 0.5 ? 4 * t * t * t : 1 - (2 - 2 * t) * (2 - 2 * t) * (2 - 2 * t) / 2
        case .easeOut: return 1 - (1 - t) * (1 - t) * (1 - t)
        }
    }
}

/// A camera moving from one position to another over a fixed time. The target travels the
/// short way round the world and the bearing the short way round the compass. With an
/// `anchor`, the ground point that was under that screen point at the start stays under it
/// throughout (zooming in at a tapped point) instead of the target moving in a straight line.
struct CameraAnimation {
    var from: _WorldCamera
    var to: _WorldCamera
    /// When it started; nil until the first frame after a programmatic call asked for it (see
    /// `MapCamera.animate`).
    var start: Double?
    var duration: Double
    var easing: Easing
    var cause: CameraMoveCause
    var anchor: (screenX: Double, screenY: Double, worldX: Double, worldY: Double)?

    /// Programmatic animations without a duration take this long (seconds).
    static let defaultDuration = MapController.defaultAnimationDuration
    /// A one-level zoom step (double tap, two-finger tap, +/- keys).
    static let zoomStepDuration = 0.3

    func isFinished(at time: Double) -> Bool { duration <= 0 || start.map { time >= $0 + duration } == true }

    /// The camera at `time` (the end position once the time is past the end), before anchoring.
    func camera(at time: Double) -> _WorldCamera {
        let f = duration <= 0 ? 1 : start.map { easing.apply((time - $0) / duration) } ?? 0
        var dx = to.x - from.x
        dx -= _floor(dx + 0.5)
        return _WorldCamera(x: from.x + dx * f, y: from.y + (to.y - from.y) * f,
                            zoom: from.zoom + (to.zoom - from.zoom) * f,
                            bearing: from.bearing + _shortestTurn(from: from.bearing, to: to.bearing) * f,
                            tilt: from.tilt + (to.tilt - from.tilt) * f)
    }
}
