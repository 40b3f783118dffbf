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
    // Per-frame buffers kept between frames: a frame with thousands of items then allocates
    // nothing once warm (allocating and growing them took a good part of a frame in wasm).
    private var placed: [SceneItem] = []
    private var hidden: [Bool] = []
    private var drawOrder: [UInt32] = []
    private var order = _ScreenOrder()
    private var collisions = Collision.Scratch()

    static let hitCellSize = 64.0
    /// Items whose anchor is this far outside the view are still placed: their icons may reach in.
    static let margin = 256.0
    /// Taps this close to an icon still hit it (fingers are wider than pixels).
    public static let touchTolerance = 4.0

    public init() {}

    /// Places, collides, orders and indexes this frame's items: what `clusterItems` appends
    /// (written straight into the frame's list: a few thousand items of about 170 bytes are
    /// not worth copying through a list of their own), then the markers.
    mutating func build(markers: MarkerStore, icons: IconRegistry, projection p: CameraProjection, time: Double,
                        selection: InfoWindowSelection, clusterItems: (inout [SceneItem]) -> Void) {
        placed.removeAll(keepingCapacity: true)
        clusterItems(&placed)
        let w = p.viewport.width, h = p.viewport.height, m = Scene.margin
        markers.forEach { id, slot in
            guard markers.properties[slot].visible, markers.properties[slot].opacity > 0,
                  let item = _MarkerPlacement.item(id: id, markers.properties[slot], worldX: markers.worldX[slot],
                                                   worldY: markers.worldY[slot], addedAt: markers.addedAt[slot],
                                                   projection: p, icons: icons, time: time),
                  item.x >= -m, item.x <= w + m, item.y >= -m, item.y <= h + m else { return }
            placed.append(item)
        }
        let area = (minX: -m, minY: -m, maxX: w + m, maxY: h + m)
        Collision.resolve(placed, area: area, hidden: &hidden, scratch: &collisions)
        // Sort item numbers, not the items (about 170 bytes each): by zIndex, then screen y.
        drawOrder.removeAll(keepingCapacity: true)
        for i in 0..<placed.count where !hidden[i] { drawOrder.append(UInt32(i)) }
        let all = placed
        let below = { (a: UInt32, b: UInt32) in DrawOrder.below(all[Int(a)], all[Int(b)]) }
        if !order.sort(&drawOrder, first: { all[Int($0)].zIndex }, second: { _ in 0 }, y: { all[Int($0)].y }, less: below) {
            _stableSort(&drawOrder, by: below)
        }
        items.removeAll(keepingCapacity: true)
        for i in drawOrder { items.append(all[Int(i)]) }
        hiddenCount = placed.count - items.count
        grid.reset(covering: area)
        for i in 0..<items.count { grid.insert(Int32(i), items[i].box.bounds) }
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
