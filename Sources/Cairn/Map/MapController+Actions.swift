/// What gestures and controls ask of the map: reporting taps, the one-level zoom steps, and
/// the controls' default behaviours. The gesture recognizer calls these while it is being
/// mutated, so none of them may touch `gestures`.
extension MapController {
    /// A confirmed tap: on the info window, on a marker (the host answers before the default
    /// runs), or on the map, which closes the info window (Google's behaviour). It closes the
    /// auto-closing popovers first, but those of the marker it hit or whose window it hit (V2).
    func reportTap(x: Double, y: Double) {
        pendingTap = nil
        let hit = scene.hit(x: x, y: y)
        switch hit {
        case .infoWindow(let owner)?: popovers.closeOnTap(except: owner.marker, events: &events)
        case .item(let item)?: popovers.closeOnTap(except: item.kind == .marker ? item.id : nil, events: &events)
        case nil: popovers.closeOnTap(except: nil, events: &events)
        }
        switch hit {
        case .infoWindow(let owner)?:
            events.append(.infoWindowTapped(owner))
        case .item(let item)?:
            pendingTap = item
            switch item.kind {
            case .marker: events.append(.markerTapped(marker: item.id))
            case .cluster: events.append(.clusterTapped(manager: item.owner, cluster: item.id, count: Int(item.count)))
            case .clusterItem: events.append(.clusterItemTapped(manager: item.owner, item: item.id))
            }
        case nil:
            for case let manager? in clusterManagers { manager.unspiderfy() }
            let c = projection.coordinate(screenX: x, screenY: y)
            events.append(.tap(x: x, y: y, latitude: c?.latitude ?? .nan, longitude: c?.longitude ?? .nan))
            try? infoWindow.select(nil, markers: markers, events: &events)
        }
    }

    func reportLongPress(x: Double, y: Double) {
        if case .infoWindow(let owner)? = scene.hit(x: x, y: y) {
            events.append(.infoWindowLongPressed(owner))
            return
        }
        let c = projection.coordinate(screenX: x, screenY: y)
        events.append(.longPress(x: x, y: y, latitude: c?.latitude ?? .nan, longitude: c?.longitude ?? .nan))
    }

    /// Zooms by `amount` (animated over `duration`) about a screen point, or the centre. Called
    /// from inside the gesture recognizer, so it must not touch `gestures` (exclusive access).
    /// A gesture's step starts at its event's time; an API call's with the next frame.
    func zoomStep(by amount: Double, about pivot: (x: Double, y: Double)?, cause: CameraMoveCause = .gesture,
                  duration: Double = CameraAnimation.zoomStepDuration, startingNextFrame: Bool = false) {
        var target = camera.destination.world
        target.zoom += amount
        camera.animate(to: target, duration: duration, easing: .easeOut, cause: cause, anchorScreen: pivot,
                       at: startingNextFrame ? nil : time, events: &events)
    }

    // MARK: Controls

    /// The control under a screen point, if a visible, enabled one is there.
    public func control(atX x: Double, y: Double) -> MapControl? {
        let v = camera.viewport
        if settings.compassButton && compass.isTappable && ControlLayout.hits(ControlLayout.compassCenter(v), x: x, y: y) {
            return .compass
        }
        if settings.myLocationButton && ControlLayout.hits(ControlLayout.myLocationCenter(v), x: x, y: y) {
            return .myLocationButton
        }
        guard let picker = floorPicker, let level = picker.level(atX: x, y: y) else { return nil }
        return .level(building: picker.building, level: level)
    }

    /// Centres of the compass and the my-location button on screen.
    public var compassCenter: (x: Double, y: Double) { ControlLayout.compassCenter(camera.viewport) }
    public var myLocationButtonCenter: (x: Double, y: Double) { ControlLayout.myLocationCenter(camera.viewport) }

    /// A control's default behaviour: the compass turns the map north; the my-location button
    /// goes to the user's location, or asks the host for it first; a level's button shows that
    /// level of the prominent building.
    func activate(_ control: MapControl) {
        switch control {
        case .compass:
            events.append(.compassTapped)
            var target = camera.world
            target.bearing = 0
            camera.animate(to: target, duration: CameraAnimation.defaultDuration, easing: .easeInOut,
                           cause: .apiAnimation, at: time, events: &events)
        case .myLocationButton:
            events.append(.myLocationButtonTapped)
            if myLocation.isKnown {
                goToMyLocation()
            } else {
                myLocation.awaitingLocation = true
                events.append(.locationRequested)
            }
        case let .level(building, level):
            indoor.picked(building, level: level, enabled: settings.indoorPicker, events: &events)
        }
    }

    /// Flies to the user's location, from the next frame: the host may answer the request long
    /// after the last frame.
    func goToMyLocation() {
        var target = camera.world
        target.x = WebMercator.x(longitude: myLocation.longitude)
        target.y = WebMercator.y(latitude: WebMercator.clampLatitude(myLocation.latitude))
        camera.animate(to: target, duration: CameraAnimation.defaultDuration, easing: .easeInOut,
                       cause: .apiAnimation, at: nil, events: &events)
    }

    /// The location dot on screen and its accuracy circle's radius in pixels, when known and
    /// in front of the camera.
    public var locationDot: (x: Double, y: Double, radius: Double)? {
        guard myLocation.isKnown else { return nil }
        let p = projection
        guard let s = p.screenPoint(latitude: myLocation.latitude, longitude: myLocation.longitude) else { return nil }
        let wy = WebMercator.y(latitude: WebMercator.clampLatitude(myLocation.latitude))
        return (s.x, s.y, myLocation.accuracy * p.pixelsPerMeter(worldY: wy))
    }
}
