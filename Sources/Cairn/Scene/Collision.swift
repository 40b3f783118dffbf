/// Screen-space collisions between markers and cluster icons (feature V4), every frame.
///
/// Required items are always shown; those that hide optional ones block their boxes. Optional
/// items are placed in priority order — higher `collisionPriority`, then higher zIndex, then
/// lower on screen, then id, so the result is deterministic — and each is shown only if it
/// overlaps no blocking box and no optional item already shown.
enum Collision {
    /// Grid cell size in pixels for finding boxes that may overlap.
    static let cellSize = 64.0

    /// Buffers kept from frame to frame, so a frame's collisions allocate nothing once warm.
    struct Scratch {
        var grid = _ScreenGrid(cellSize: Collision.cellSize)
        var optional: [UInt32] = []
        var order = _ScreenOrder()
    }

    /// Sets `hidden[i]` for each item collisions hide (`hidden` is resized to the items).
    /// `area` is the screen area the items lie in (others are found through its border cells).
    static func resolve(_ items: [SceneItem], area: (minX: Double, minY: Double, maxX: Double, maxY: Double),
                        hidden: inout [Bool], scratch: inout Scratch) {
        hidden.removeAll(keepingCapacity: true)
        hidden.append(contentsOf: repeatElement(false, count: items.count))
        scratch.optional.removeAll(keepingCapacity: true)
        scratch.grid.reset(covering: area)
        for i in 0..<items.count {
            switch items[i].collision {
            case .required: break
            case .requiredAndHidesOptional: scratch.grid.insert(Int32(i), items[i].box.bounds)
            case .optionalAndHidesLowerPriority: scratch.optional.append(UInt32(i))
            }
        }
        if scratch.optional.isEmpty { return }
        // Highest priority first: ascending by the negated priority, zIndex and screen y.
        let first = { (a: UInt32, b: UInt32) in outranks(items[Int(a)], items[Int(b)]) }
        if !scratch.order.sort(&scratch.optional, first: { -items[Int($0)].collisionPriority },
                               second: { -items[Int($0)].zIndex }, y: { -items[Int($0)].y }, less: first) {
            _stableSort(&scratch.optional, by: first)
        }
        for k in scratch.optional {
            let i = Int(k)
            let box = items[i].box
            let bounds = box.bounds
            var blocked = false
            scratch.grid.forEach(near: bounds) { other in
                if !blocked && items[Int(other)].box.overlaps(box) { blocked = true }
            }
            if blocked {
                hidden[i] = true
            } else {
                scratch.grid.insert(Int32(i), bounds)
            }
        }
    }

    static func outranks(_ a: SceneItem, _ b: SceneItem) -> Bool {
        if a.collisionPriority != b.collisionPriority { return a.collisionPriority > b.collisionPriority }
        if a.zIndex != b.zIndex { return a.zIndex > b.zIndex }
        if a.y != b.y { return a.y > b.y }
        if a.kind != b.kind { return a.kind.rawValue < b.kind.rawValue }
        if a.owner != b.owner { return a.owner < b.owner }
        return a.id < b.id
    }
}

/// Draw order (feature M10): higher zIndex on top; at equal zIndex the item lower on screen on top.
enum DrawOrder {
    static func below(_ a: SceneItem, _ b: SceneItem) -> Bool {
        if a.zIndex != b.zIndex { return a.zIndex < b.zIndex }
        if a.y != b.y { return a.y < b.y }
        if a.kind != b.kind { return a.kind.rawValue > b.kind.rawValue }
        if a.owner != b.owner { return a.owner < b.owner }
        return a.id < b.id
    }
}
