/// What the map draws this frame and what a tap would hit: markers (and cluster icons) placed
/// on screen, with collisions resolved and in draw order, plus the open info window. Rebuilt
/// once per frame; taps are tested against the last build.
public struct Scene {
    /// Drawn items, bottom to top.
    public private(set) var items: [SceneItem] = []
    /// Items that collisions hid this frame.
    public private(set) var hiddenCount = 0
    /// The open info window on screen, if any.
    public private(set) var infoWindow: InfoWindowPlacement?
    private var grid = _ScreenGrid(cellSize: Scene.hitCellSize)

    static let hitCellSize = 64.0
    /// Items whose anchor is this far outside the view are still placed: their icons may reach in.
    static let margin = 256.0
    /// Taps this close to an icon still hit it (fingers are wider than pixels).
    public static let touchTolerance = 4.0

    public init() {}

    mutating func build(markers: MarkerStore, extra: [SceneItem], icons: IconRegistry, projection p: CameraProjection,
                        time: Double, selection: InfoWindowSelection) {
        var placed = extra
        placed.reserveCapacity(extra.count + markers.count)
        let w = p.viewport.width, h = p.viewport.height, m = Scene.margin
        markers.forEach { id, slot in
            let props = markers.properties[slot]
            guard props.visible, props.opacity > 0,
                  let item = _MarkerPlacement.item(id: id, props, worldX: markers.worldX[slot], worldY: markers.worldY[slot],
                                                   addedAt: markers.addedAt[slot], projection: p, icons: icons, time: time),
                  item.x >= -m, item.x <= w + m, item.y >= -m, item.y <= h + m else { return }
            placed.append(item)
        }
        let hidden = Collision.hidden(placed)
        // Sort small keys, not the items (about 170 bytes each, moved a dozen times by a merge
        // sort): zIndex, then screen y, then the position in `placed` for ties.
        var keys: [(z: Double, y: Double, i: Int32)] = []
        keys.reserveCapacity(placed.count)
        for i in 0..<placed.count where !hidden[i] { keys.append((placed[i].zIndex, placed[i].y, Int32(i))) }
        _stableSort(&keys) { a, b in
            a.z != b.z ? a.z < b.z : (a.y != b.y ? a.y < b.y : DrawOrder.below(placed[Int(a.i)], placed[Int(b.i)]))
        }
        items.removeAll(keepingCapacity: true)
        for k in keys { items.append(placed[Int(k.i)]) }
        hiddenCount = placed.count - items.count
        grid = _ScreenGrid(cellSize: Scene.hitCellSize)
        for (i, item) in items.enumerated() { grid.insert(Int32(i), item.box.bounds) }
        infoWindow = selection.placement(markers: markers, icons: icons, drawn: items, projection: p, time: time)
    }

    /// What lies under a screen point, topmost first: the info window, then the highest drawn
    /// item whose content box (within the touch tolerance) contains it.
    public func hit(x: Double, y: Double) -> SceneHit? {
        if let window = infoWindow, window.contains(x: x, y: y) { return .infoWindow(marker: window.marker) }
        let t = Scene.touchTolerance
        var best = -1
        grid.forEach(near: (x - t, y - t, x + t, y + t)) { i in
            if Int(i) > best && items[Int(i)].box.contains(x: x, y: y, tolerance: t) { best = Int(i) }
        }
        return best < 0 ? nil : .item(items[best])
    }
}

/// The answer of a hit test.
public enum SceneHit: Equatable {
    case infoWindow(marker: Int64)
    case item(SceneItem)
}
