/// What an info window belongs to: a marker, or an item a cluster manager draws on its own
/// (feature C7: an item's tap ends in the marker default, M11, which opens its window).
public enum InfoWindowOwner: Equatable {
    case marker(Int64)
    case clusterItem(manager: Int32, item: Int64)

    /// The marker's id, or nil for an item.
    public var marker: Int64? {
        if case .marker(let id) = self { return id }
        return nil
    }

    /// The marker's or the item's id.
    public var id: Int64 {
        switch self {
        case .marker(let id), .clusterItem(_, let id): return id
        }
    }

    /// The item's cluster manager, or nil for a marker.
    public var manager: Int32? {
        if case .clusterItem(let manager, _) = self { return manager }
        return nil
    }

    /// Whether a drawn thing is this marker or item as itself (not a ghost flying into a cluster).
    func isDrawn(as item: SceneItem) -> Bool {
        guard item.id == id, !item.isGhost else { return false }
        switch self {
        case .marker: return item.kind == .marker
        case .clusterItem(let manager, _): return item.kind == .clusterItem && item.owner == manager
        }
    }
}

/// Where the open info window is this frame: centred above its owner's info-window anchor
/// (feature I1), with the size the host measured (text layout stays in the host).
public struct InfoWindowPlacement: Equatable {
    public var owner: InfoWindowOwner
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

/// Whose info window is open (at most one, I3), and the size the host measured for it. A marker
/// or cluster item with neither title nor snippet opens none (I2) unless the host may supply a
/// window of its own for it (I7): the marker's `customInfoWindow`, or `customWindows` for all.
public struct InfoWindowSelection: Equatable {
    public private(set) var owner: InfoWindowOwner?
    /// The selected marker, or nil (none, or an item).
    public var marker: Int64? { owner?.marker }
    public private(set) var width = 0.0, height = 0.0
    /// Set when a window opens or is measured: the next frame pans the map so it fits.
    var needsAutoPan = false
    /// The host may draw a window of its own for any marker or item (its custom window hooks are
    /// set): windows then open without text, and the host closes one it has nothing for.
    public var customWindows = false

    /// Whether selecting this marker opens a window.
    func opensWindow(_ m: MarkerProperties) -> Bool { m.hasTitle || m.hasSnippet || m.customInfoWindow || customWindows }

    /// Selects a marker (or none), reporting the closing and opening. Selecting the marker
    /// already open closes it and opens it again (I3), so the host redraws its content.
    mutating func select(_ id: Int64?, markers: MarkerStore, events: inout MapEventQueue) throws(CairnError) {
        if let id { _ = try markers.slot(of: id) }
        close(events: &events)
        guard let id, let props = try? markers.marker(id), opensWindow(props) else { return }
        open(.marker(id), events: &events)
    }

    /// Selects a cluster manager's item (the caller checked that it is there), closing the open
    /// window; the item's opens when it has a title or snippet (`hasText`), or custom windows may.
    mutating func selectClusterItem(manager: Int32, item: Int64, hasText: Bool, events: inout MapEventQueue) {
        close(events: &events)
        guard hasText || customWindows else { return }
        open(.clusterItem(manager: manager, item: item), events: &events)
    }

    private mutating func open(_ owner: InfoWindowOwner, events: inout MapEventQueue) {
        self.owner = owner
        width = 0
        height = 0
        needsAutoPan = true
        events.append(.infoWindowOpened(owner))
    }

    /// Closes the open window, if any.
    mutating func close(events: inout MapEventQueue) {
        guard let open = owner else { return }
        owner = nil
        events.append(.infoWindowClosed(open))
    }

    /// Closes the window of a marker that went away, without asking anything.
    mutating func removed(_ gone: InfoWindowOwner, events: inout MapEventQueue) {
        if owner == gone { close(events: &events) }
    }

    mutating func setSize(width: Double, height: Double) throws(CairnError) {
        guard width.isFinite, height.isFinite, width >= 0, height >= 0, width <= 10_000, height <= 10_000
        else { throw .invalidArgument }
        self.width = width
        self.height = height
        needsAutoPan = owner != nil
    }

    /// How far the map must move (screen pixels, to add to every point) so a window's or a
    /// popover's box lies inside the padded view with `margin` to spare; (0, 0) when it fits or
    /// is not measured. A box larger than the view keeps its top-left corner in view.
    static func autoPanShift(_ w: (minX: Double, minY: Double, width: Double, height: Double), _ v: Viewport,
                             margin: Double) -> (dx: Double, dy: Double) {
        guard w.width > 0, w.height > 0 else { return (0, 0) }
        func shift(_ lo: Double, _ size: Double, _ min: Double, _ max: Double) -> Double {
            if lo < min { return min - lo }
            if lo + size > max { return Swift.max(max - (lo + size), min - lo) }
            return 0
        }
        let p = v.padding
        return (shift(w.minX, w.width, p.left + margin, v.width - p.right - margin),
                shift(w.minY, w.height, p.top + margin, v.height - p.bottom - margin))
    }

    /// The window on screen: anchored at its owner's info-window anchor as drawn (turned and
    /// scaled with the icon). Nil when nothing is open or the owner is not drawn: a marker off
    /// screen or hidden by a collision, an item off screen or inside a cluster at this zoom.
    func placement(markers: MarkerStore, icons: IconRegistry, drawn: (InfoWindowOwner) -> SceneItem?) -> InfoWindowPlacement? {
        guard let owner, let item = drawn(owner),
              let a = _infoWindowAnchor(of: owner, drawnAs: item, markers: markers, icons: icons) else { return nil }
        return InfoWindowPlacement(owner: owner, anchorX: a.x, anchorY: a.y, width: width, height: height)
    }
}

/// Where a marker's or item's info-window anchor is on screen as `item` draws it: turned,
/// scaled and sheared with the icon (a window's tail points there, a popover stands there).
func _infoWindowAnchor(of owner: InfoWindowOwner, drawnAs item: SceneItem, markers: MarkerStore,
                       icons: IconRegistry) -> (x: Double, y: Double)? {
    // Where the window's tail points and where the item is anchored, in 0…1 of the icon.
    let icon = icons.iconOrPin(item.icon)
    // Items are drawn at their icon's own anchor, with Google's default window anchor.
    var window = (x: 0.5, y: 0.0), ground = (x: icon.anchorX, y: icon.anchorY)
    if let id = owner.marker {
        guard let slot = try? markers.slot(of: id) else { return nil }
        let m = markers.properties[slot]
        window = (m.infoWindowAnchorX, m.infoWindowAnchorY)
        ground = (m.groundAnchorX, m.groundAnchorY)
    }
    let c = icon.contentBox
    let o = item.screenOffset(dx: (window.x - ground.x) * (c.maxX - c.minX), dy: (window.y - ground.y) * (c.maxY - c.minY))
    return (item.x + o.x, item.y + o.y)
}
