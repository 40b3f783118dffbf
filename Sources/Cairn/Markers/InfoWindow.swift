/// Where the open info window is this frame: centred above the marker's info-window anchor
/// (SPEC I1), with the size the host measured (text layout stays in the host).
public struct InfoWindowPlacement: Equatable {
    public var marker: Int64
    /// The anchor point on screen (the tip of the window's tail).
    public var anchorX: Double, anchorY: Double
    public var width: Double, height: Double

    /// The window's box: centred on the anchor horizontally, above it.
    public var minX: Double { anchorX - width / 2 }
    public var minY: Double { anchorY - height }

    func contains(x: Double, y: Double) -> Bool {
        width > 0 && height > 0 && x >= minX && x <= minX + width && y >= minY && y <= anchorY
    }
}

/// Which marker's info window is open (at most one, I3), and the size the host measured for
/// it. A marker with neither title nor snippet opens none (I2) unless the host supplies a
/// custom window for it (I7).
public struct InfoWindowSelection: Equatable {
    public private(set) var marker: Int64?
    public private(set) var width = 0.0, height = 0.0
    /// Set when a window opens or is measured: the next frame pans the map so it fits.
    var needsAutoPan = false

    /// Whether selecting this marker opens a window.
    static func opensWindow(_ m: MarkerProperties) -> Bool { m.hasTitle || m.hasSnippet || m.customInfoWindow }

    /// Selects a marker (or none), reporting the closing and opening. Selecting the marker
    /// already open closes it and opens it again (I3), so the host redraws its content.
    mutating func select(_ id: Int64?, markers: MarkerStore, events: inout MapEventQueue) throws(CairnError) {
        if let id { _ = try markers.slot(of: id) }
        if let open = marker {
            events.append(.infoWindowClosed(marker: open))
            marker = nil
        }
        guard let id, let props = try? markers.marker(id), InfoWindowSelection.opensWindow(props) else { return }
        marker = id
        width = 0
        height = 0
        needsAutoPan = true
        events.append(.infoWindowOpened(marker: id))
    }

    /// Closes the window of a marker that went away, without asking anything.
    mutating func markerRemoved(_ id: Int64, events: inout MapEventQueue) {
        guard marker == id else { return }
        marker = nil
        events.append(.infoWindowClosed(marker: id))
    }

    mutating func setSize(width: Double, height: Double) throws(CairnError) {
        guard width.isFinite, height.isFinite, width >= 0, height >= 0, width <= 10_000, height <= 10_000
        else { throw .invalidArgument }
        self.width = width
        self.height = height
        needsAutoPan = marker != nil
    }

    /// How far the map must move (screen pixels, to add to every point) so the window lies
    /// inside the padded view with `margin` to spare; (0, 0) when it fits or is not measured.
    /// A window larger than the view keeps its top-left corner in view.
    static func autoPanShift(_ w: InfoWindowPlacement, _ v: Viewport, margin: Double) -> (dx: Double, dy: Double) {
        guard w.width > 0, w.height > 0 else { return (0, 0) }
        func shift(_ lo: Double, _ size: Double, _ min: Double, _ max: Double) -> Double {
            if lo < min { return min - lo }
            if lo + size > max { return Swift.max(max - (lo + size), min - lo) }
            return 0
        }
        let p = v.padding
        return (shift(w.minX, w.width, p.left + margin, v.width - p.right - margin),
                shift(w.minY, w.height + 0, p.top + margin, v.height - p.bottom - margin))
    }

    /// The window on screen: anchored at the marker's info-window anchor as drawn (turned and
    /// scaled with the icon). Nil when nothing is open or the marker is not drawn.
    func placement(markers: MarkerStore, icons: IconRegistry, projection p: CameraProjection, time: Double,
                   drawnMarker: (Int64) -> SceneItem?) -> InfoWindowPlacement? {
        guard let id = marker, let slot = try? markers.slot(of: id), let item = drawnMarker(id) else { return nil }
        let m = markers.properties[slot]
        let icon = icons.icon(m.icon) ?? Icon(width: DefaultPin.width, height: DefaultPin.height)
        let c = icon.contentBox
        let dx = (m.infoWindowAnchorX - m.groundAnchorX) * (c.maxX - c.minX) * item.scaleX
        let dy = (m.infoWindowAnchorY - m.groundAnchorY) * (c.maxY - c.minY) * item.scaleY
        let box = item.box
        return InfoWindowPlacement(marker: id, anchorX: item.x + dx * box.cos - dy * box.sin,
                                   anchorY: item.y + dx * box.sin + dy * box.cos, width: width, height: height)
    }
}
