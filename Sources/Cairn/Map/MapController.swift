/// One interactive map: the camera, the gesture recognizer that moves it, the controls and
/// the queue of events for the host. The host feeds it input events and the time, and reads
/// back the camera, the controls and the events once per frame (features G1–G8).
///
/// Time is the host's clock in seconds. It never runs backwards: an event stamped earlier than
/// one already seen is handled as if it came at the later time.
public final class MapController {
    public internal(set) var camera: MapCamera
    /// Gestures and controls; a change applies from the next event (G1).
    public var settings = UISettings()
    public internal(set) var compass = Compass()
    public internal(set) var myLocation = MyLocation()
    var gestures = GestureRecognizer()
    var events = MapEventQueue()
    public internal(set) var markers = MarkerStore()
    public internal(set) var icons = IconRegistry()
    /// What was drawn in the last frame; taps are tested against it.
    public internal(set) var scene = Scene()
    public internal(set) var infoWindow = InfoWindowSelection()
    /// Popovers anchored to markers, and where the open ones stand (V2).
    public internal(set) var popovers = Popovers()
    /// Buildings with floors, the prominent one and the levels shown (G4).
    public internal(set) var indoor = IndoorMaps()
    /// Cluster managers by slot (nil once removed); see `addClusterManager` for their numbers.
    public internal(set) var clusterManagers: [ClusterManager?] = []
    var clusterManagerGenerations: [Int32] = []
    /// A tap reported to the host and waiting for its answer.
    var pendingTap: SceneItem?
    /// Programmatic animations take this long (seconds), with this easing, unless told otherwise.
    public static let defaultAnimationDuration = 0.5
    public static let defaultEasing = Easing.easeInOut
    /// The latest time seen.
    public private(set) var time = 0.0

    public init(camera position: CameraPosition, viewport: Viewport,
                limits: CameraLimits = .standard) throws(CairnError) {
        camera = MapCamera(try position.validated(), viewport: try viewport.validated(), limits: try limits.validated())
    }

    /// The projection of the current camera.
    public var projection: CameraProjection { camera.projection }

    /// The highest zoom the tile source has; the covering tiles never ask for more.
    public var maxTileZoom = MapController.defaultMaxTileZoom {
        didSet {
            maxTileZoom = maxTileZoom < 0 ? 0 : (maxTileZoom > MapController.tileZoomCeiling ? MapController.tileZoomCeiling : maxTileZoom)
        }
    }

    /// Google's tiles go to zoom 22; no tile source goes beyond 30.
    public static let defaultMaxTileZoom = 22
    public static let tileZoomCeiling = 30

    /// Takes the events that happened since the last call, oldest first.
    public func drainEvents() -> [MapEvent] { events.drain() }

    /// The events waiting, without taking them.
    public var pendingEvents: [MapEvent] { events.events }

    /// Events lost because the host let more than `MapEventQueue.capacity` pile up.
    public var droppedEvents: Int { events.dropped }

    /// Whether a gesture, animation or fling is moving the camera (between will-move and idle).
    public var isCameraMoving: Bool { camera.movingCause != nil || gestures.isMoving(at: time) }

    /// The raster tiles covering the view at the current camera, nearest first.
    public var coveringTiles: [CoveringTile] { projection.coveringTiles(maxTileZoom: maxTileZoom) }

    /// Moves the clock forward (never back) and returns the time to use.
    func clock(_ t: Double) throws(CairnError) -> Double {
        guard t.isFinite else { throw .invalidArgument }
        if t > time { time = t }
        return time
    }

    // MARK: Input and frames

    /// Whether the map takes a key pressed with these modifiers (feature G8): not with ctrl, alt
    /// or meta, which leave it to the browser or the system (ctrl+plus zooms the page, alt+left
    /// goes back). The host lets the browser act on a key the map does not take.
    public static func takesKey(_ command: KeyCommand, modifiers: Int32) -> Bool {
        GestureRecognizer.takesKey(command, modifiers: modifiers)
    }

    /// Handles one input event. Events with NaN or infinite numbers, or positions beyond
    /// ±`InputEvent.maximumMagnitude`, are rejected with an error and change nothing; events for pointers that are not down are ignored.
    public func handle(_ event: InputEvent) throws(CairnError) {
        guard event.isValid else { throw .invalidArgument }
        let t = try clock(event.time)
        gestures.handle(event, time: t, map: self)
    }

    /// Brings everything to `time`: animations, the fling, tap confirmation, long press, the
    /// compass fade; then emits `cameraChanged` / `cameraIdle` for the frame, places the info
    /// window and the popovers, and pans a newly opened one into view.
    public func advance(to time: Double) throws(CairnError) {
        let t = try clock(time)
        gestures.advance(to: t, map: self)
        camera.step(to: t, events: &events)
        markers.stampAdded(at: t)
        closeWindowOfGoneItem()
        compass.update(bearing: camera.world.bearing, enabled: settings.compassButton, time: t)
        camera.finishFrame(stillMoving: gestures.isMoving(at: t), events: &events)
        indoor.updateFocus(targetX: camera.world.x, targetY: camera.world.y, zoom: camera.world.zoom, events: &events)
        let p = projection
        scene.build(markers: markers, icons: icons, indoor: indoor, projection: p, time: t, selection: infoWindow) { placed in
            for (n, manager) in clusterManagers.enumerated() {
                guard let manager else { continue }
                manager.followZoom(p.position, time: t)
                if let spider = manager.spiderfied, spider.zoom != p.zoom { manager.unspiderfy() }
                manager.sceneItems(owner: clusterManagerNumber(slot: n), projection: p, icons: icons, time: t, into: &placed)
            }
        }
        popovers.place(markers: markers, icons: icons) { scene.drawnItem($0) }
        autoPan()
    }

    /// Pans the map so a newly opened or measured info window, then a newly opened popover, fits
    /// in the padded view (once each: the user may then pan it away). Each waits for a running
    /// animation (the centring after a tap, another's pan) to end, for its owner to be drawn,
    /// and for the host's measurement.
    func autoPan() {
        guard !camera.isAnimating else { return }
        if infoWindow.needsAutoPan, let window = scene.infoWindow, window.width > 0 {
            infoWindow.needsAutoPan = false
            if pan(toShow: (window.minX, window.minY, window.width, window.height)) { return }
        }
        while let p = popovers.takeAutoPan() {
            if pan(toShow: (p.minX, p.minY, p.width, p.height)) { return }
        }
    }

    /// Starts the auto-pan animation that brings a box on screen inside the padded view with
    /// `infoWindowMargin` to spare; false when it is inside already.
    private func pan(toShow box: (minX: Double, minY: Double, width: Double, height: Double)) -> Bool {
        let shift = InfoWindowSelection.autoPanShift(box, camera.viewport, margin: MapController.infoWindowMargin)
        guard shift.dx != 0 || shift.dy != 0 else { return false }
        var base = camera.destination
        base.world = camera.world
        let c = base.center
        camera.animate(to: base.panned(from: c, to: (c.x + shift.dx, c.y + shift.dy)),
                       duration: CameraAnimation.zoomStepDuration, easing: .easeOut, cause: .apiAnimation, at: time,
                       events: &events)
        return true
    }

    /// Pixels kept between an auto-panned info window or popover and the padded edges.
    public static let infoWindowMargin = 10.0

    // MARK: Programmatic camera (never gated by the UI settings)

    public func moveCamera(to position: CameraPosition) throws(CairnError) {
        camera.move(to: _WorldCamera(try position.validated()), cause: .developer, events: &events)
    }

    /// Animates from the current camera, starting with the next frame (the host may not have
    /// drawn for a while, and the latest time seen would be long past). Without a duration or
    /// an easing, the defaults (`defaultAnimationDuration`, `defaultEasing`).
    public func animateCamera(to position: CameraPosition, duration: Double? = nil,
                              easing: Easing? = nil) throws(CairnError) {
        let duration = duration ?? MapController.defaultAnimationDuration
        guard duration.isFinite, duration >= 0 else { throw .invalidArgument }
        gestures.fling = nil
        camera.animate(to: _WorldCamera(try position.validated()), duration: duration,
                       easing: easing ?? MapController.defaultEasing, cause: .developer, at: nil, events: &events)
    }

    /// Shows a longitude/latitude box with `padding` pixels to spare inside the padded view
    /// (none when nil), north up and flat; animated when `duration` > 0 (nil: at once).
    public func showBounds(west: Double, south: Double, east: Double, north: Double, padding: Double? = nil,
                           duration: Double? = nil) throws(CairnError) {
        let duration = duration ?? 0
        guard duration.isFinite, duration >= 0 else { throw .invalidArgument }
        let target = try camera.fitting(west: west, south: south, east: east, north: north, padding: padding ?? 0)
        gestures.fling = nil
        camera.animate(to: target, duration: duration, easing: MapController.defaultEasing, cause: .developer, at: nil,
                       events: &events)
    }

    /// Zooms by `amount` levels keeping the ground under a screen point still (the padded
    /// centre when nil), animated when `duration` > 0 (nil: at once).
    public func zoom(by amount: Double, aboutX x: Double? = nil, y: Double? = nil,
                     duration: Double? = nil) throws(CairnError) {
        let duration = duration ?? 0
        func onScreen(_ v: Double?) -> Bool { v.map { $0.isFinite && abs($0) <= InputEvent.maximumMagnitude } ?? true }
        guard amount.isFinite, duration.isFinite, duration >= 0, onScreen(x), onScreen(y) else { throw .invalidArgument }
        let pivot = x != nil && y != nil ? (x: x!, y: y!) : nil
        gestures.fling = nil
        zoomStep(by: amount, about: pivot, cause: .developer, duration: duration, startingNextFrame: true)
    }

    public func stopAnimation() { camera.stopAnimation() }

    // MARK: Stage

    public func setViewport(_ viewport: Viewport) throws(CairnError) {
        camera.setViewport(try viewport.validated(), events: &events)
    }

    public func setLimits(_ limits: CameraLimits) throws(CairnError) {
        camera.setLimits(try limits.validated(), events: &events)
    }

    /// The camera's range and the tile source's highest zoom, each one not given (nil) taking
    /// its default (`CameraLimits.standard`, `defaultMaxTileZoom`). Nothing changes when one
    /// is out of range.
    public func setLimits(minZoom: Double?, maxZoom: Double?, maxTilt: Double?, maxTileZoom: Int?) throws(CairnError) {
        let s = CameraLimits.standard
        let tiles = maxTileZoom ?? MapController.defaultMaxTileZoom
        guard tiles >= 0, tiles <= MapController.tileZoomCeiling else { throw .invalidArgument }
        try setLimits(CameraLimits(minZoom: minZoom ?? s.minZoom, maxZoom: maxZoom ?? s.maxZoom, maxTilt: maxTilt ?? s.maxTilt))
        self.maxTileZoom = tiles
    }

    /// The user's location for the dot and the my-location button, `accuracy` metres around it
    /// (0, unknown, when nil). When a tap of the button was waiting for it, the camera now
    /// animates there.
    public func setMyLocation(latitude: Double, longitude: Double, accuracy: Double? = nil) throws(CairnError) {
        try myLocation.set(latitude: latitude, longitude: longitude, accuracy: accuracy ?? 0)
        if myLocation.awaitingLocation {
            myLocation.awaitingLocation = false
            goToMyLocation()
        }
    }

    public func clearMyLocation() { myLocation.clear() }
}
