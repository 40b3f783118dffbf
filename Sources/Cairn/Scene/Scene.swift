/// What the map draws this frame and what a tap would hit: markers (and cluster icons) placed
/// on screen, with collisions resolved and in draw order, plus the open info window. Rebuilt
/// once per frame; taps are tested against the last build.
public struct Scene {
    /// Drawn items, bottom to top, as a new array (frames read them one at a time through
    /// `drawnCount` and `drawn(_:)`, which copy nothing).
    public var items: [SceneItem] { (0..<drawnCount).map { drawn($0) } }
    /// How many items are drawn.
    public var drawnCount: Int { drawOrder.count }
    /// The `k`th drawn item from the bottom.
    @inlinable
    public func drawn(_ k: Int) -> SceneItem { placed[Int(drawOrder[k])] }

    /// Lends the placed items, as they lie in memory, with each one's place in draw order (0 at
    /// the bottom, -1 for those collisions hid): a host copying thousands of items out reads
    /// them in order instead of jumping around in draw order, and copies no record on the way.
    @inlinable
    public func withPlacedItems<R>(_ body: (UnsafeBufferPointer<SceneItem>, UnsafeBufferPointer<Int32>) -> R) -> R {
        placed.withUnsafeBufferPointer { items in drawPosition.withUnsafeBufferPointer { body(items, $0) } }
    }

    /// Items that collisions hid this frame.
    public var hiddenCount: Int { placed.count - drawOrder.count }
    /// The open info window on screen, if any.
    public private(set) var infoWindow: InfoWindowPlacement?
    private var grid = _ScreenGrid(cellSize: Scene.hitCellSize, byCentre: true)
    // Per-frame buffers kept between frames: a frame with thousands of items then allocates
    // nothing once warm (allocating and growing them took a good part of a frame in wasm).
    // Items stay where they were placed; the draw order lists the shown ones' places (items
    // of about 170 bytes were copied into a list of their own in draw order).
    @usableFromInline var placed: [SceneItem] = []
    @usableFromInline var drawOrder: [UInt32] = []
    /// Each placed item's place in `drawOrder`, -1 for hidden ones.
    @usableFromInline var drawPosition: [Int32] = []
    private var hidden: [Bool] = []
    private var order = _ScreenOrder()
    private var collisions = Collision.Scratch()

    static let hitCellSize = 64.0
    /// Items whose anchor is this far outside the view are still placed: their icons may reach in.
    static let margin = 256.0
    /// Whether an item anchored at a screen point is placed: in the view or its margin.
    static func places(_ x: Double, _ y: Double, in v: Viewport) -> Bool {
        x >= -margin && x <= v.width + margin && y >= -margin && y <= v.height + margin
    }

    /// Taps this close to an icon still hit it (fingers are wider than pixels).
    public static let touchTolerance = 4.0

    public init() {}

    /// Places, collides, orders and indexes this frame's items: what `clusterItems` appends
    /// (written straight into the frame's list: a few thousand items of about 170 bytes are
    /// not worth copying through a list of their own), then the markers.
    mutating func build(markers: MarkerStore, icons: IconRegistry, indoor: IndoorMaps, projection p: CameraProjection,
                        time: Double, selection: InfoWindowSelection, clusterItems: (inout [SceneItem]) -> Void) {
        placed.removeAll(keepingCapacity: true)
        center = (p.viewport.centerX, p.viewport.centerY)
        let copies = p.worldCopiesEachSide(margin: Scene.margin)
        showsCopies = copies > 0
        clusterItems(&placed)
        placeMarkers(markers, icons: icons, indoor: indoor, projection: p, copies: copies, time: time)
        let m = Scene.margin
        let area = (minX: -m, minY: -m, maxX: p.viewport.width + m, maxY: p.viewport.height + m)
        Collision.resolve(placed, area: area, hidden: &hidden, scratch: &collisions)
        orderShown()
        indexForTaps(area)
        infoWindow = selection.placement(markers: markers, icons: icons) { drawnItem($0) }
    }

    /// How a marker or item is drawn this frame, nil when it is not: where a view wider than the
    /// world shows it on several copies, the one nearest the view's centre (where its window
    /// goes); of those at one place, the topmost, as taps find it.
    func drawnItem(_ owner: InfoWindowOwner) -> SceneItem? {
        let drawn = drawOrder.reversed().lazy.map { self.placed[Int($0)] }
        guard showsCopies else { return drawn.first { owner.isDrawn(as: $0) } }
        var best: SceneItem?
        var distance = Double.infinity
        for item in drawn where owner.isDrawn(as: item) {
            let dx = item.x - center.x, dy = item.y - center.y, d = dx * dx + dy * dy
            if d < distance {
                best = item
                distance = d
            }
        }
        return best
    }

    /// The view's centre, and whether copies of the world may show (see `worldCopiesEachSide`),
    /// as of the last build.
    private var center = (x: 0.0, y: 0.0)
    private var showsCopies = false

    /// Copies of the world beyond the nearest are placed only while fewer items than this are
    /// placed: at the lowest zooms a wide view of many items would otherwise place each many times.
    static let copyBudget = 200_000

    /// The copies of the world to place an item on, counted from the one nearest the target:
    /// `-copies...copies`, or the nearest alone once `placed` items have spent the budget.
    static func copies(_ copies: Int, placed: Int) -> ClosedRange<Int> {
        let k = placed < copyBudget ? copies : 0
        return -k...k
    }

    /// Appends the visible markers whose anchor lies in the view or its margin (and, for a marker
    /// on a building's level, while that level is shown), on every copy of the world in view.
    private mutating func placeMarkers(_ markers: MarkerStore, icons: IconRegistry, indoor: IndoorMaps,
                                       projection p: CameraProjection, copies: Int, time: Double) {
        markers.forEach { id, slot in
            let m = markers.properties[slot]
            guard m.visible, m.opacity > 0, indoor.shows(building: m.indoorBuilding, level: m.indoorLevel) else { return }
            for copy in Scene.copies(copies, placed: placed.count) {
                guard let item = _MarkerPlacement.item(id: id, m, worldX: markers.worldX[slot], worldY: markers.worldY[slot],
                                                       addedAt: markers.addedAt[slot], projection: p, icons: icons,
                                                       time: time, copy: copy),
                      Scene.places(item.x, item.y, in: p.viewport) else { continue }
                placed.append(item)
            }
        }
    }

    /// The draw order of the items collisions left shown, and each placed item's place in it.
    /// Item numbers are sorted, not the items: by zIndex, then screen y.
    private mutating func orderShown() {
        drawOrder.removeAll(keepingCapacity: true)
        for i in 0..<placed.count where !hidden[i] { drawOrder.append(UInt32(i)) }
        let all = placed
        let below = { (a: UInt32, b: UInt32) in DrawOrder.below(all[Int(a)], all[Int(b)]) }
        if !order.sort(&drawOrder, first: { all[Int($0)].zIndex }, second: { _ in 0 }, y: { all[Int($0)].y }, less: below) {
            _stableSort(&drawOrder, by: below)
        }
        drawPosition.removeAll(keepingCapacity: true)
        drawPosition.append(contentsOf: repeatElement(-1, count: placed.count))
        for k in 0..<drawOrder.count { drawPosition[Int(drawOrder[k])] = Int32(k) }
    }

    /// The tap index: draw positions (the topmost hit wins) by the cell of each box's centre,
    /// filled in memory order.
    private mutating func indexForTaps(_ area: (minX: Double, minY: Double, maxX: Double, maxY: Double)) {
        grid.reset(covering: area)
        let all = placed, positions = drawPosition
        grid.insertByCentre(count: all.count) { i in positions[i] < 0 ? nil : (positions[i], all[i].box.bounds) }
    }

    /// What lies under a screen point, topmost first: the info window, then the highest drawn
    /// item whose content box (within the touch tolerance) contains it.
    public func hit(x: Double, y: Double) -> SceneHit? {
        if let window = infoWindow, window.contains(x: x, y: y) { return .infoWindow(window.owner) }
        let t = Scene.touchTolerance
        var best = -1
        grid.forEach(near: (x - t, y - t, x + t, y + t)) { i in
            let item = drawn(Int(i))
            if Int(i) > best && !item.isGhost && item.box.contains(x: x, y: y, tolerance: t) { best = Int(i) }
        }
        return best < 0 ? nil : .item(drawn(best))
    }
}

/// The answer of a hit test.
public enum SceneHit: Equatable {
    case infoWindow(InfoWindowOwner)
    case item(SceneItem)
}
