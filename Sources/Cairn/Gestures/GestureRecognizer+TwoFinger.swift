/// Two-pointer gestures. Until something is recognised the fingers may still be a two-finger
/// tap. Two fingers sliding up or down together, side by side, tilt. Otherwise, once the
/// distance between them, their angle or their centroid changes beyond the thresholds, they
/// *transform* the map: pinch zooms about the centroid, the centroid's movement pans (when
/// scrolling is on), and once the angle has turned past `rotateThreshold` the map rotates too,
/// so a pinch can become a rotate midway.
extension GestureRecognizer {
    struct TwoFinger {
        var a: Int32, b: Int32
        var start: Double
        var startDistance: Double, startAngle: Double
        var startCentroid: (x: Double, y: Double)
        var centroid: (x: Double, y: Double)
        var distance: Double
        var angle: Double
        var transforming = false
        var rotating = false
        var tilting = false
        /// Which fingers moved since the gesture was last classified: browsers report each
        /// finger's move separately, so the pair is judged once both have reported.
        var movedA = false, movedB = false
    }

    static let rotateThreshold = 10.0
    /// Degrees of tilt per pixel the two fingers move up or down.
    static let touchTiltPerPixel = 0.25

    /// Centroid, distance and angle (degrees, screen y down) of the first two pointers.
    func twoFingerGeometry(_ a: Pointer, _ b: Pointer) -> (centroid: (x: Double, y: Double), distance: Double, angle: Double) {
        ((x: (a.x + b.x) / 2, y: (a.y + b.y) / 2), GestureRecognizer.distance(a.x, a.y, b.x, b.y),
         _atan2(b.y - a.y, b.x - a.x) * 180 / Double.pi)
    }

    mutating func startTwoFinger(map: MapController) {
        let a = pointers[0], b = pointers[1]
        let g = twoFingerGeometry(a, b)
        // A pan already in progress continues as a transform, so nothing jumps.
        var wasMoving = false
        if case .pan = mode { wasMoving = true }
        var canTap = false
        if case .press = mode { canTap = true }
        twoFingerTapStart = canTap ? b.downTime : nil
        pendingTap = nil
        secondTap = false
        mode = .twoFinger(TwoFinger(a: a.id, b: b.id, start: b.downTime, startDistance: g.distance,
                                    startAngle: g.angle, startCentroid: g.centroid, centroid: g.centroid,
                                    distance: g.distance, angle: g.angle, transforming: wasMoving))
    }

    mutating func twoFingerMove(_ id: Int32, time: Double, map: MapController) {
        guard case .twoFinger(var t) = mode, let ia = pointerIndex(t.a), let ib = pointerIndex(t.b) else { return }
        let a = pointers[ia], b = pointers[ib]
        let g = twoFingerGeometry(a, b)
        let s = map.settings
        if id == t.a { t.movedA = true }
        if id == t.b { t.movedB = true }
        if !t.transforming && !t.tilting && (t.movedA && t.movedB || oneFingerWentFar(a, b)) {
            t.movedA = false
            t.movedB = false
            let slopA = GestureRecognizer.slop(a.kind), slopB = GestureRecognizer.slop(b.kind)
            let dyA = a.y - a.downY, dyB = b.y - b.downY
            let dxA = a.x - a.downX, dxB = b.x - b.downX
            let sideBySide = abs(g.angle) < 45 || abs(g.angle) > 135
            let movedA = GestureRecognizer.distance(a.downX, a.downY, a.x, a.y) > slopA
            let movedB = GestureRecognizer.distance(b.downX, b.downY, b.x, b.y) > slopB
            let turned = abs(_shortestTurn(from: t.startAngle, to: g.angle)) > GestureRecognizer.rotateThreshold
            let stretched = abs(g.distance - t.startDistance) > slopA + slopB
            if movedA || movedB { twoFingerTapStart = nil }
            if sideBySide && dyA * dyB > 0 && abs(dyA) > slopA && abs(dyB) > slopB
                && abs(dyA) > 2 * abs(dxA) && abs(dyB) > 2 * abs(dxB) && !stretched && !turned {
                t.tilting = s.tiltGestures
                t.transforming = !s.tiltGestures
            } else if stretched || turned || movedA || movedB {
                t.transforming = true
            }
            if t.transforming || t.tilting {
                // Count the movement from the start, so what the fingers did while the gesture
                // was being recognised is not lost (the angle stays incremental: rotation only
                // begins past its threshold, without a jump).
                t.centroid = t.startCentroid
                t.distance = t.startDistance
            }
        }
        if t.tilting {
            let dy = g.centroid.y - t.centroid.y
            apply(map.camera.transformed(tiltBy: -dy * GestureRecognizer.touchTiltPerPixel, pivot: map.camera.center),
                  map: map)
        } else if t.transforming {
            if !t.rotating && s.rotateGestures
                && abs(_shortestTurn(from: t.startAngle, to: g.angle)) > GestureRecognizer.rotateThreshold {
                t.rotating = true
            }
            let dz = s.zoomGestures && t.distance > 0 && g.distance > 0 ? _log2(g.distance / t.distance) : 0
            // Fingers turning clockwise on screen turn the map clockwise: the bearing falls.
            let db = t.rotating ? -_shortestTurn(from: t.angle, to: g.angle) : 0
            if s.scrollGestures {
                apply(map.camera.transformed(zoomBy: dz, rotateBy: db, pivot: t.centroid, pivotTo: g.centroid), map: map)
            } else if dz != 0 || db != 0 {
                apply(map.camera.transformed(zoomBy: dz, rotateBy: db, pivot: map.camera.center), map: map)
            }
        }
        t.centroid = g.centroid
        t.distance = g.distance
        t.angle = g.angle
        mode = .twoFinger(t)
    }

    /// A finger that moved well past the slop while the other stayed still (a pinch or a
    /// rotation about one resting finger) is judged without waiting for the other.
    func oneFingerWentFar(_ a: Pointer, _ b: Pointer) -> Bool {
        GestureRecognizer.distance(a.downX, a.downY, a.x, a.y) > 4 * GestureRecognizer.slop(a.kind)
            || GestureRecognizer.distance(b.downX, b.downY, b.x, b.y) > 4 * GestureRecognizer.slop(b.kind)
    }

    /// One of the two fingers lifted (or a pointer was cancelled). With two or more pointers
    /// left the gesture starts again from them; with one, it becomes a press that pans once it
    /// moves (and zooms out if it lifts soon, ending a two-finger tap).
    mutating func twoFingerEnded(_ t: TwoFinger, time: Double, map: MapController) {
        let tapStart = twoFingerTapStart
        if pointers.count >= 2 {
            mode = .press(id: pointers[0].id)
            startTwoFinger(map: map)
            if case .twoFinger(var next) = mode {
                next.transforming = t.transforming
                mode = .twoFinger(next)
            }
            twoFingerTapStart = nil
            return
        }
        guard let last = pointers.first else {
            mode = .none
            gestureMoving = false
            return
        }
        // The remaining finger's movement counts from here.
        pointers[0].downX = last.x
        pointers[0].downY = last.y
        pointers[0].downTime = time
        velocity.reset()
        velocity.add(x: last.x, y: last.y, t: time)
        if t.transforming || t.tilting {
            mode = map.settings.scrollGestures ? .pan(id: last.id) : .dead
            twoFingerTapStart = nil
        } else {
            mode = .press(id: last.id)
            twoFingerTapStart = tapStart
            secondTap = false
        }
    }
}
