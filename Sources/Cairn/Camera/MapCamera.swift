/// The camera of one map: its position, the viewport and limits it lives in, the animation
/// that may be moving it, and the bookkeeping that turns changes into will-move / changed /
/// idle events. Every change goes through here, so the limits hold whatever moved it.
public struct MapCamera {
    var world: _WorldCamera
    public private(set) var viewport: Viewport
    public private(set) var limits: CameraLimits
    var animation: CameraAnimation?
    /// Set when the camera moved since the last frame; turned into one `cameraChanged`.
    var changedSinceFrame = false
    /// The cause of the movement in progress, nil when the camera is idle.
    var movingCause: CameraMoveCause?

    init(_ position: CameraPosition, viewport: Viewport, limits: CameraLimits) {
        self.viewport = viewport
        self.limits = limits
        world = _WorldCamera(position)
        world.normalize(limits)
    }

    public var position: CameraPosition { world.position }
    public var projection: CameraProjection { CameraProjection(world, viewport) }
    public var isAnimating: Bool { animation != nil }

    /// Where the camera is heading: the end of the running animation, or where it is. Steps
    /// (keys, zoom buttons) build on this, so two quick presses make two steps.
    var destination: MapCamera {
        var d = self
        if let a = animation { d.world = a.to }
        d.animation = nil
        return d
    }

    // MARK: Setting the stage

    mutating func setViewport(_ viewport: Viewport, events: inout MapEventQueue) {
        guard viewport != self.viewport else { return }
        self.viewport = viewport
        changedSinceFrame = true
    }

    mutating func setLimits(_ limits: CameraLimits, events: inout MapEventQueue) {
        self.limits = limits
        let before = world
        world.normalize(limits)
        if world != before { noteMove(.developer, events: &events) }
    }

    // MARK: Moves

    /// Records that the camera is moving for `cause`, announcing it when the movement is new
    /// or its cause changed.
    mutating func noteMove(_ cause: CameraMoveCause, events: inout MapEventQueue) {
        if movingCause != cause {
            movingCause = cause
            events.append(.cameraWillMove(cause))
        }
        changedSinceFrame = true
    }

    /// Jumps to a position, stopping any animation.
    mutating func move(to camera: _WorldCamera, cause: CameraMoveCause, events: inout MapEventQueue) {
        animation = nil
        set(camera, cause: cause, events: &events)
    }

    /// Sets the camera (clamped) and records the move if anything changed. A camera with a
    /// non-finite value (arithmetic that overflowed) is ignored: the camera never leaves its
    /// ranges, whatever a gesture computed.
    mutating func set(_ camera: _WorldCamera, cause: CameraMoveCause, events: inout MapEventQueue) {
        guard camera.isFinite else { return }
        var next = camera
        next.normalize(limits)
        if next != world {
            world = next
            noteMove(cause, events: &events)
        }
    }

    /// Starts an animation from the current camera at `time`, or with the next frame when nil
    /// (a call from the host, which may not have drawn for a while: the latest time seen could
    /// be long past, and the animation would be over before its first frame). A zero duration
    /// moves at once.
    mutating func animate(to target: _WorldCamera, duration: Double, easing: Easing, cause: CameraMoveCause,
                          anchorScreen: (x: Double, y: Double)? = nil, at time: Double?,
                          events: inout MapEventQueue) {
        guard target.isFinite else { return }
        var end = target
        end.normalize(limits)
        var anim = CameraAnimation(from: world, to: end, start: time, duration: duration < 0 ? 0 : duration,
                                   easing: easing, cause: cause, anchor: nil)
        if let s = anchorScreen, let g = projection.worldPoint(screenX: s.x, screenY: s.y) {
            anim.anchor = (s.x, s.y, g.x, g.y)
        }
        animation = anim
        noteMove(cause, events: &events)
        // A zero duration needs no time: its one step is the end.
        if let time { step(to: time, events: &events) } else if anim.duration == 0 { step(to: 0, events: &events) }
    }

    /// Stops an animation where it is (a finger touched the map).
    mutating func stopAnimation() { animation = nil }

    /// Advances the animation to `time`.
    mutating func step(to time: Double, events: inout MapEventQueue) {
        guard var anim = animation else { return }
        if anim.start == nil {
            anim.start = time
            animation = anim
        }
        var next = anim.camera(at: time)
        if let a = anim.anchor {
            next = anchored(next, worldX: a.worldX, worldY: a.worldY, screenX: a.screenX, screenY: a.screenY)
        }
        set(next, cause: anim.cause, events: &events)
        if anim.isFinished(at: time) { animation = nil }
    }

    /// Ends a frame: one `cameraChanged` if anything moved, and `cameraIdle` once nothing
    /// (animation, gesture, fling) keeps the camera moving.
    mutating func finishFrame(stillMoving: Bool, events: inout MapEventQueue) {
        if changedSinceFrame {
            events.append(.cameraChanged)
            changedSinceFrame = false
        }
        if movingCause != nil && animation == nil && !stillMoving {
            movingCause = nil
            events.append(.cameraIdle)
        }
    }

    // MARK: Geometry helpers for gestures and controls

    /// `camera` shifted so the ground point (worldX, worldY) lies under the screen point. Exact:
    /// the ground under a screen point is an affine function of the target.
    func anchored(_ camera: _WorldCamera, worldX: Double, worldY: Double,
                  screenX: Double, screenY: Double) -> _WorldCamera {
        var c = camera
        c.zoom = limits.clampZoom(c.zoom)
        c.tilt = limits.clampTilt(c.tilt)
        guard let w = CameraProjection(c, viewport).worldPoint(screenX: screenX, screenY: screenY) else { return camera }
        var dx = worldX - w.x
        dx -= _floor(dx + 0.5)
        c.x += dx
        c.y += worldY - w.y
        return c
    }

    /// The camera after dragging the ground under one screen point to another.
    func panned(from: (x: Double, y: Double), to: (x: Double, y: Double)) -> _WorldCamera {
        guard let g = projection.worldPoint(screenX: from.x, screenY: from.y) else { return world }
        return anchored(world, worldX: g.x, worldY: g.y, screenX: to.x, screenY: to.y)
    }

    /// The camera after changing zoom, bearing and tilt by the given amounts, keeping the
    /// ground under `pivot` still (or moving it to `pivotTo`, for a pinch that also pans).
    func transformed(zoomBy dz: Double = 0, rotateBy db: Double = 0, tiltBy dt: Double = 0,
                     pivot: (x: Double, y: Double), pivotTo: (x: Double, y: Double)? = nil) -> _WorldCamera {
        var next = world
        next.zoom += dz
        next.bearing += db
        next.tilt += dt
        guard let g = projection.worldPoint(screenX: pivot.x, screenY: pivot.y) else { return next }
        let to = pivotTo ?? pivot
        return anchored(next, worldX: g.x, worldY: g.y, screenX: to.x, screenY: to.y)
    }

    /// The screen centre of the padded view, where the target is drawn.
    var center: (x: Double, y: Double) { (viewport.centerX, viewport.centerY) }
}
