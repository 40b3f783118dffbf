/// Markers, icons, selection and the answer to a marker tap (features M1, M3, M11, I3, I4).
extension MapController {
    /// Registers an icon the host will draw; returns its number for `MarkerProperties.icon`.
    public func registerIcon(_ icon: Icon) throws(CairnError) -> Int32 {
        try icons.register(icon)
    }

    /// Adds a marker (its appear animation starts with the next frame); returns its id.
    public func addMarker(_ marker: MarkerProperties) throws(CairnError) -> Int64 {
        try checkOnMap(marker)
        return try markers.add(marker, at: nil)
    }

    /// Adds markers all at once, or none when one is invalid.
    public func addMarkers(_ batch: [MarkerProperties]) throws(CairnError) -> [Int64] {
        for (i, m) in batch.enumerated() {
            if let field = mapField(m) { throw .invalidMarkerInBatch(index: i, field: field.rawValue) }
        }
        return try markers.add(batch, at: nil)
    }

    /// Replaces a marker's properties. `contentChanged` says the host changed its title or
    /// snippet (the text stays with the host): an open window of a marker that tracks changes
    /// then asks to be redrawn (I6).
    public func updateMarker(_ id: Int64, _ marker: MarkerProperties, contentChanged: Bool = false) throws(CairnError) {
        let before = try markers.marker(id)
        try checkOnMap(marker, unlessAsBefore: before)
        try markers.update(id, marker)
        guard contentChanged && marker.tracksInfoWindowChanges && infoWindow.marker == id else { return }
        // Without text, and no window of the host's to show instead, the window has nothing left (I2).
        if infoWindow.opensWindow(marker) {
            events.append(.infoWindowContentChanged(.marker(id)))
        } else {
            infoWindow.close(events: &events)
        }
    }

    public func removeMarker(_ id: Int64) throws(CairnError) {
        try markers.remove(id)
        infoWindow.removed(.marker(id), events: &events)
        popovers.removeAll(ofMarker: id, events: &events)
        if pendingTap?.kind == .marker && pendingTap?.id == id { pendingTap = nil }
    }

    /// Removes every marker and its popovers, and closes a marker's info window (M1 `clear()`;
    /// an item's stays).
    public func clearMarkers() {
        if infoWindow.marker != nil { infoWindow.close(events: &events) }
        popovers.removeAll(ofMarker: nil, events: &events)
        markers.removeAll()
        if pendingTap?.kind == .marker { pendingTap = nil }
    }

    /// The selected marker (I4): setting one opens its window, nil closes it (or an item's).
    public var selectedMarker: Int64? { infoWindow.marker }

    public func selectMarker(_ id: Int64?) throws(CairnError) {
        try infoWindow.select(id, markers: markers, events: &events)
    }

    /// Selects an item a cluster manager holds, as a tap's default does (C7, M11): the open
    /// window closes, and the item's opens wherever the manager draws it on its own, when it has
    /// a title or snippet or custom windows may be drawn (I2). Selecting the open one reopens it.
    public func selectClusterItem(manager number: Int32, item: Int64) throws(CairnError) {
        let manager = try clusterManager(number)
        let slot = try manager.slot(of: item)
        infoWindow.selectClusterItem(manager: number, item: item, hasText: manager.hasText(slot: slot), events: &events)
    }

    /// Whether the host may draw a window of its own for any marker or item (its custom window
    /// hooks, I7): windows then open without title or snippet.
    public var customInfoWindows: Bool {
        get { infoWindow.customWindows }
        set { infoWindow.customWindows = newValue }
    }

    /// Whose window is open: a marker or a cluster manager's item.
    public var selectedInfoWindowOwner: InfoWindowOwner? { infoWindow.owner }

    /// A marker's info-window anchor as the last frame drew it (popovers stand there, V2); nil
    /// while it is not drawn (off screen, hidden by a collision, invisible).
    public func infoWindowAnchor(ofMarker id: Int64) -> (x: Double, y: Double)? {
        guard let item = scene.drawnItem(.marker(id)) else { return nil }
        return _infoWindowAnchor(of: .marker(id), drawnAs: item, markers: markers, icons: icons)
    }

    /// The size of the open info window as the host laid it out, in CSS pixels.
    public func setInfoWindowSize(width: Double, height: Double) throws(CairnError) {
        try infoWindow.setSize(width: width, height: height)
    }

    /// The host's answer to the last `markerTapped`, `clusterTapped` or `clusterItemTapped`:
    /// unless its handler consumed the tap, the default runs — a marker is selected (its window
    /// opens) and centred (M11); a cluster zooms to where it splits, centred on it (C7); an item
    /// is selected and centred as a marker is (C7's default is M11's). Answering when no tap
    /// waits, or twice, does nothing.
    public func answerTap(consumed: Bool) {
        guard let item = pendingTap else { return }
        pendingTap = nil
        guard !consumed else { return }
        var target = camera.world
        switch item.kind {
        case .marker:
            guard let slot = try? markers.slot(of: item.id) else { return }
            try? infoWindow.select(item.id, markers: markers, events: &events)
            target.x = markers.worldX[slot]
            target.y = markers.worldY[slot]
        case .cluster:
            guard let manager = try? clusterManager(item.owner),
                  let e = try? manager.expansion(of: item.id) else { return }
            let zoom = e.zoom > target.zoom ? e.zoom : target.zoom + 1
            // A cluster that zooming cannot split spreads out where it is (C10).
            if (try? manager.spiderfyIfStuck(item.id, splitZoom: zoom, maxZoom: camera.limits.maxZoom,
                                             cameraZoom: target.zoom, worldX: e.worldX, worldY: e.worldY)) == true {
                return
            }
            target.x = e.worldX
            target.y = e.worldY
            target.zoom = zoom
        case .clusterItem:
            guard let manager = try? clusterManager(item.owner), let s = try? manager.slot(of: item.id) else { return }
            infoWindow.selectClusterItem(manager: item.owner, item: item.id, hasText: manager.hasText(slot: s), events: &events)
            target.x = manager.worldX[s]
            target.y = manager.worldY[s]
        }
        camera.animate(to: target, duration: CameraAnimation.defaultDuration, easing: .easeInOut, cause: .apiAnimation,
                       at: nil, events: &events)
    }

    /// The checks that need the map: a registered icon, a building's level that exists (an
    /// update may keep the level it had, on a building since removed).
    private func checkOnMap(_ m: MarkerProperties, unlessAsBefore before: MarkerProperties? = nil) throws(CairnError) {
        if let field = mapField(m, unlessAsBefore: before) { throw .invalidMarker(field) }
    }

    private func mapField(_ m: MarkerProperties, unlessAsBefore before: MarkerProperties? = nil) -> MarkerProperties.Field? {
        if m.icon >= 0 && icons.icon(m.icon) == nil { return .icon }
        let kept = before.map { $0.indoorBuilding == m.indoorBuilding && $0.indoorLevel == m.indoorLevel } ?? false
        if !kept && !indoor.isPlace(building: m.indoorBuilding, level: m.indoorLevel) { return .indoorLevel }
        return nil
    }
}
