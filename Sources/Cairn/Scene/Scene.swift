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
    /// The tap index (see `hit`), built the first time a tap is tested after a build: most
    /// frames see no tap, and filling it is a pass over every item's box.
    private var taps = _TapIndex()
    /// Counts builds, so the tap index knows which frame it holds (a copy of the scene from an
    /// earlier frame shares it, and builds its own when asked).
    private var frameNumber = 0
    /// The area items are placed in, as of the last build.
    private var area = (minX: 0.0, minY: 0.0, maxX: 0.0, maxY: 0.0)
    /// Markers placed in the last build that hide or yield to others (cluster managers' items
    /// are all required: they do neither).
    private var collidingMarkers = 0
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

    /// The world boxes (x and y in 0…1; two where x wraps) holding every ground point that
    /// `places` on the copy of the world nearest the target (a little larger, never smaller),
    /// or nil where that is unbounded: the view and its margin reach the horizon.
    static func placedWorldBoxes(_ p: CameraProjection) -> [(minX: Double, minY: Double, maxX: Double, maxY: Double)]? {
        let w = p.viewport.width + margin, h = p.viewport.height + margin
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        var farScale = 1.0
        // The view is a rectangle, the ground a plane: below the horizon the one maps to a
        // quadrilateral of the other, its corners under the rectangle's.
        for (x, y) in [(-margin, -margin), (w, -margin), (w, h), (-margin, h)] {
            guard let (sx, sy) = p.groundOffset(screenX: x, screenY: y) else { return nil }
            farScale = Swift.max(farScale, (p.distance - sy * p.sinTilt) / p.distance)
            let dx = sx * p.cosBearing - sy * p.sinBearing, dy = sx * p.sinBearing + sy * p.cosBearing
            minX = Swift.min(minX, dx)
            minY = Swift.min(minY, dy)
            maxX = Swift.max(maxX, dx)
            maxY = Swift.max(maxY, dy)
        }
        // Four pixels at the far edge more, for rounding; in world units.
        let pad = 4 * farScale + 1e-9 * Swift.max(maxX - minX, maxY - minY)
        let a = Swift.max((minX - pad) / p.worldSize, -0.5), b = Swift.min((maxX + pad) / p.worldSize, 0.5)
        let y0 = p.targetY + (minY - pad) / p.worldSize, y1 = p.targetY + (maxY + pad) / p.worldSize
        // A point is drawn on the nearest copy at its offset from the target taken within ±half
        // a world: offsets a…b, at x = target + offset, wrapped into 0…1.
        if b - a >= 1 { return [(0, y0, 1, y1)] }
        let lo = p.targetX + a, hi = p.targetX + b
        if lo < 0 { return [(0, y0, hi, y1), (lo + 1, y0, 1, y1)] }
        if hi > 1 { return [(lo, y0, 1, y1), (0, y0, hi - 1, y1)] }
        return [(lo, y0, hi, y1)]
    }

    /// Taps this close to an icon still hit it (fingers are wider than pixels).
    public static let touchTolerance = 4.0

    public init() {}

    /// Places, collides and orders this frame's items: what `clusterItems` appends (written
    /// straight into the frame's list: a few thousand items of about 170 bytes are not worth
    /// copying through a list of their own; cluster managers' items are all required), then the
    /// markers. The tap index follows when a tap first asks for it.
    mutating func build(markers: MarkerStore, icons: IconRegistry, indoor: IndoorMaps, projection p: CameraProjection,
                        time: Double, selection: InfoWindowSelection, clusterItems: (inout [SceneItem]) -> Void) {
        placed.removeAll(keepingCapacity: true)
        center = (p.viewport.centerX, p.viewport.centerY)
        let copies = p.worldCopiesEachSide(margin: Scene.margin)
        showsCopies = copies > 0
        clusterItems(&placed)
        placeMarkers(markers, icons: icons, indoor: indoor, projection: p, copies: copies, time: time)
        let m = Scene.margin
        area = (minX: -m, minY: -m, maxX: p.viewport.width + m, maxY: p.viewport.height + m)
        if collidingMarkers > 0 {
            Collision.resolve(placed, area: area, hidden: &hidden, scratch: &collisions)
        } else {
            // Nothing hides or yields: every item shows.
            hidden.removeAll(keepingCapacity: true)
            hidden.append(contentsOf: repeatElement(false, count: placed.count))
        }
        orderShown()
        frameNumber &+= 1
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
    /// placed: at the lowest zooms a wide view of many items would otherwise place each many
    /// times (seven copies of 100,000 items is 700,000 icons a frame). Past it, an item shows on
    /// the copy nearest the view's centre alone; tens of thousands of icons fill the view anyway.
    static let copyBudget = 50_000

    /// The copies of the world to place an item on, counted from the one nearest the target:
    /// `-copies...copies`, or the nearest alone once `placed` items have spent the budget.
    static func copies(_ copies: Int, placed: Int) -> ClosedRange<Int> {
        let k = placed < copyBudget ? copies : 0
        return -k...k
    }

    /// The copies of the world in `range` on which a ground point (`altitude` pixels above it)
    /// may be placed, nil for none. A point's copies lie on a line across the screen, and each
    /// edge of the view and its margin, and the camera's near plane, bounds them on one side
    /// (each condition is linear in the copy, once multiplied by the depth), so only those in
    /// between, and one more each side for rounding, are worth projecting: a wide view of the
    /// lowest zooms, or one tilted to the horizon, holds up to 17 copies, a point shows on a few.
    static func copies(_ range: ClosedRange<Int>, placing worldX: Double, _ worldY: Double, altitude: Double = 0,
                       projection p: CameraProjection) -> ClosedRange<Int>? {
        if range.lowerBound == range.upperBound { return range }
        var dx = worldX - p.targetX
        dx -= _floor(dx + 0.5)
        let size = p.worldSize, d = p.distance
        // Copy c is c worlds east: its offsets, turned, and its depth, as a + b·c.
        let ox = dx * size, oy = (worldY - p.targetY) * size
        let sx = ox * p.cosBearing + oy * p.sinBearing, sxStep = size * p.cosBearing
        let sy = oy * p.cosBearing - ox * p.sinBearing, syStep = -size * p.sinBearing
        let depth = d - sy * p.sinTilt - altitude * p.cosTilt, depthStep = -syStep * p.sinTilt
        let up = sy * p.cosTilt - altitude * p.sinTilt, upStep = syStep * p.cosTilt
        var lo = Double(range.lowerBound), hi = Double(range.upperBound)
        // Keeps the copies c with a + b·c ≥ 0; false when there are none.
        func keep(_ a: Double, _ b: Double) -> Bool {
            if b > 0 {
                lo = Swift.max(lo, -a / b)
            } else if b < 0 {
                hi = Swift.min(hi, -a / b)
            } else if !(a >= 0) {
                return false
            }
            return true
        }
        let left = p.centerX + margin, right = p.viewport.width + margin - p.centerX
        let top = p.centerY + margin, bottom = p.viewport.height + margin - p.centerY
        guard keep(depth - d * 1e-6, depthStep),
              keep(left * depth + sx * d, left * depthStep + sxStep * d),
              keep(right * depth - sx * d, right * depthStep - sxStep * d),
              keep(top * depth + up * d, top * depthStep + upStep * d),
              keep(bottom * depth - up * d, bottom * depthStep - upStep * d) else { return nil }
        // A bound far outside the range (a step near zero puts one near infinity), or not a
        // number, must not reach Int(), which traps on it.
        let below = Double(range.lowerBound) - 1, above = Double(range.upperBound) + 1
        lo = lo >= below ? Swift.min(lo, above) : below
        hi = hi <= above ? Swift.max(hi, below) : above
        let first = Swift.max(range.lowerBound, Int(_floor(lo)) - 1), last = Swift.min(range.upperBound, Int(_ceil(hi)) + 1)
        return first <= last ? first...last : nil
    }

    /// Appends the visible markers whose anchor lies in the view or its margin (and, for a marker
    /// on a building's level, while that level is shown), on every copy of the world in view.
    private mutating func placeMarkers(_ markers: MarkerStore, icons: IconRegistry, indoor: IndoorMaps,
                                       projection p: CameraProjection, copies: Int, time: Double) {
        collidingMarkers = 0
        markers.forEach { id, slot in
            let m = markers.properties[slot]
            guard m.visible, m.opacity > 0, indoor.shows(building: m.indoorBuilding, level: m.indoorLevel) else { return }
            var range = Scene.copies(copies, placed: placed.count)
            // Markers on the ground: only the copies that may show them (those above it stand
            // higher on screen than their ground point).
            if m.altitudeMode == .clampToGround || !(m.altitude > 0) {
                guard let near = Scene.copies(range, placing: markers.worldX[slot], markers.worldY[slot], projection: p)
                else { return }
                range = near
            }
            for copy in range {
                guard let item = _MarkerPlacement.item(id: id, m, worldX: markers.worldX[slot], worldY: markers.worldY[slot],
                                                       addedAt: markers.addedAt[slot], projection: p, icons: icons,
                                                       time: time, copy: copy),
                      Scene.places(item.x, item.y, in: p.viewport) else { continue }
                placed.append(item)
                if m.collision != .required { collidingMarkers += 1 }
            }
        }
    }

    /// The draw order of the items collisions left shown, and each placed item's place in it.
    /// Item numbers are sorted, not the items: by zIndex, then screen y.
    private mutating func orderShown() {
        drawOrder.removeAll(keepingCapacity: true)
        for i in 0..<placed.count where !hidden[i] { drawOrder.append(UInt32(i)) }
        // The items' fields are read through a pointer: the sort reads a few fields of records of
        // about 170 bytes, which a read through the array copies whole.
        let sorted = placed.withUnsafeBufferPointer { all in
            order.sort(&drawOrder, first: { all[Int($0)].zIndex }, second: { _ in 0 }, y: { all[Int($0)].y },
                       tie: { DrawOrder.tie(all[Int($0)]) })
        }
        if !sorted {
            let all = placed
            _stableSort(&drawOrder, by: { DrawOrder.below(all[Int($0)], all[Int($1)]) })
        }
        drawPosition.removeAll(keepingCapacity: true)
        drawPosition.append(contentsOf: repeatElement(-1, count: placed.count))
        drawOrder.withUnsafeBufferPointer { order in
            drawPosition.withUnsafeMutableBufferPointer { positions in
                for k in 0..<order.count { positions[Int(order[k])] = Int32(k) }
            }
        }
    }

    /// The tap index of the last build: draw positions (the topmost hit wins) by the cell of
    /// each box's centre, filled in memory order the first time it is asked for.
    private func tapGrid() -> _TapIndex {
        if taps.frame != frameNumber {
            taps.grid.reset(covering: area)
            placed.withUnsafeBufferPointer { all in
                drawPosition.withUnsafeBufferPointer { positions in
                    taps.grid.insertByCentre(count: all.count) { i in positions[i] < 0 ? nil : (positions[i], all[i].box.bounds) }
                }
            }
            taps.frame = frameNumber
        }
        return taps
    }

    /// What lies under a screen point, topmost first: the info window, then the highest drawn
    /// item whose content box (within the touch tolerance) contains it.
    public func hit(x: Double, y: Double) -> SceneHit? {
        if let window = infoWindow, window.contains(x: x, y: y) { return .infoWindow(window.owner) }
        let t = Scene.touchTolerance
        var best = -1
        tapGrid().grid.forEach(near: (x - t, y - t, x + t, y + t)) { i in
            let item = drawn(Int(i))
            if Int(i) > best && !item.isGhost && item.box.contains(x: x, y: y, tolerance: t) { best = Int(i) }
        }
        return best < 0 ? nil : .item(drawn(best))
    }
}

/// A scene's tap index, held by reference so that a scene fills it when a tap first asks.
final class _TapIndex {
    var grid = _ScreenGrid(cellSize: Scene.hitCellSize, byCentre: true)
    /// The build it holds (see `Scene.frameNumber`), -1 before the first.
    var frame = -1
}

/// The answer of a hit test.
public enum SceneHit: Equatable {
    case infoWindow(InfoWindowOwner)
    case item(SceneItem)
}
