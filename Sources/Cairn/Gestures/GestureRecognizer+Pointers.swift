/// One-pointer gestures: press, tap, double tap, long press, pan with fling, the mouse
/// rotate-tilt drag, control taps, and the bookkeeping when pointers come and go.
extension GestureRecognizer {
    mutating func pointerDown(_ p: Pointer, button: Int32, modifiers: Int32, map: MapController) {
        guard pointerIndex(p.id) == nil, pointers.count < GestureRecognizer.maximumPointers else { return }
        stopMotion(map: map)
        pointers.append(p)
        if pointers.count == 2 {
            startTwoFinger(map: map)
            return
        }
        guard pointers.count == 1 else { return }
        secondTap = false
        if let tap = pendingTap {
            pendingTap = nil
            if p.downTime - tap.time <= GestureRecognizer.doubleTapTime,
               GestureRecognizer.distance(tap.x, tap.y, p.x, p.y) <= GestureRecognizer.doubleTapSlop {
                secondTap = true
            } else {
                map.reportTap(x: tap.x, y: tap.y)
            }
        }
        if let control = map.control(atX: p.x, y: p.y) {
            mode = .control(control, id: p.id)
        } else if p.kind == .mouse && (button == 2 || (button == 0 && modifiers & Modifier.control != 0)) {
            mode = map.settings.rotateGestures || map.settings.tiltGestures ? .mouseRotateTilt(id: p.id) : .dead
        } else if button == 0 || p.kind != .mouse {
            mode = .press(id: p.id)
        } else {
            mode = .dead
        }
        velocity.reset()
        velocity.add(x: p.x, y: p.y, t: p.downTime)
    }

    mutating func pointerMove(_ id: Int32, x: Double, y: Double, time: Double, map: MapController) {
        guard let i = pointerIndex(id) else { return }
        let previous = pointers[i]
        pointers[i].x = x
        pointers[i].y = y
        switch mode {
        case .press(let pid) where pid == id:
            let p = pointers[i]
            guard GestureRecognizer.distance(p.downX, p.downY, x, y) > GestureRecognizer.slop(p.kind) else { return }
            twoFingerTapStart = nil
            if map.settings.scrollGestures {
                mode = .pan(id: id)
                velocity.add(x: x, y: y, t: time)
                // The whole movement since the press, so the grabbed point stays under the finger.
                apply(map.camera.panned(from: (p.downX, p.downY), to: (x, y)), map: map)
            } else {
                mode = .dead
            }
        case .pan(let pid) where pid == id:
            // Settings apply at once (G1): a pan in progress stops when scrolling is turned off.
            guard map.settings.scrollGestures else {
                mode = .dead
                gestureMoving = false
                return
            }
            velocity.add(x: x, y: y, t: time)
            apply(map.camera.panned(from: (previous.x, previous.y), to: (x, y)), map: map)
        case .mouseRotateTilt(let pid) where pid == id:
            let s = map.settings
            let db = s.rotateGestures ? -(x - previous.x) * GestureRecognizer.mouseBearingPerPixel : 0
            let dt = s.tiltGestures ? -(y - previous.y) * GestureRecognizer.mouseTiltPerPixel : 0
            if db != 0 || dt != 0 {
                apply(map.camera.transformed(rotateBy: db, tiltBy: dt, pivot: map.camera.center), map: map)
            }
        case .twoFinger:
            twoFingerMove(id, time: time, map: map)
        default:
            break
        }
    }

    mutating func pointerUp(_ id: Int32, time: Double, cancelled: Bool, map: MapController) {
        guard let i = pointerIndex(id) else { return }
        let p = pointers.remove(at: i)
        switch mode {
        case .twoFinger(let t):
            twoFingerEnded(t, time: time, map: map)
            return
        case .press(let pid) where pid == id && !cancelled:
            mode = .none
            if let start = twoFingerTapStart {
                twoFingerTapStart = nil
                if time - start <= GestureRecognizer.twoFingerTapTime && map.settings.zoomGestures {
                    map.zoomStep(by: -1, about: nil)
                }
            } else {
                tapped(p, time: time, map: map)
            }
        case .pan(let pid) where pid == id:
            mode = .none
            if !cancelled {
                let v = velocity.velocity(at: time)
                fling = Fling(velocityX: v.x, velocityY: v.y, at: time)
            }
        case .control(let control, let pid) where pid == id && !cancelled:
            mode = .none
            if GestureRecognizer.distance(p.downX, p.downY, p.x, p.y) <= GestureRecognizer.slop(p.kind) {
                map.activate(control)
            }
        default:
            break
        }
        if pointers.isEmpty {
            mode = .none
            gestureMoving = false
            twoFingerTapStart = nil
        }
    }

    /// A press released within the slop: the second tap of a double tap zooms in at the point
    /// (or at the centre when scrolling is off); otherwise the tap waits to be confirmed, unless
    /// zoom gestures are off, in which case no double tap can follow and it is reported now.
    mutating func tapped(_ p: Pointer, time: Double, map: MapController) {
        if secondTap {
            secondTap = false
            if map.settings.zoomGestures {
                map.zoomStep(by: 1, about: map.settings.scrollGestures ? (p.x, p.y) : nil)
                return
            }
        }
        if map.settings.zoomGestures {
            pendingTap = (p.x, p.y, time)
        } else {
            map.reportTap(x: p.x, y: p.y)
        }
    }
}
