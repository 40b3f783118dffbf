/// Screen-space collisions between markers and cluster icons (SPEC V4), every frame.
///
/// Required items are always shown; those that hide optional ones block their boxes. Optional
/// items are placed in priority order — higher `collisionPriority`, then higher zIndex, then
/// lower on screen, then id, so the result is deterministic — and each is shown only if it
/// overlaps no blocking box and no optional item already shown.
enum Collision {
    /// Grid cell size in pixels for finding boxes that may overlap.
    static let cellSize = 64.0

    /// Whether each item is hidden.
    static func hidden(_ items: [SceneItem]) -> [Bool] {
        var hidden = [Bool](repeating: false, count: items.count)
        var optional: [Int] = []
        var grid = _ScreenGrid(cellSize: cellSize)
        for (i, item) in items.enumerated() {
            switch item.collision {
            case .required: break
            case .requiredAndHidesOptional: grid.insert(Int32(i), item.box.bounds)
            case .optionalAndHidesLowerPriority: optional.append(i)
            }
        }
        _stableSort(&optional) { a, b in outranks(items[a], items[b]) }
        for i in optional {
            let box = items[i].box
            var blocked = false
            grid.forEach(near: box.bounds) { other in
                if !blocked && items[Int(other)].box.overlaps(box) { blocked = true }
            }
            if blocked {
                hidden[i] = true
            } else {
                grid.insert(Int32(i), box.bounds)
            }
        }
        return hidden
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

/// Draw order (SPEC M10): higher zIndex on top; at equal zIndex the item lower on screen on top.
enum DrawOrder {
    static func below(_ a: SceneItem, _ b: SceneItem) -> Bool {
        if a.zIndex != b.zIndex { return a.zIndex < b.zIndex }
        if a.y != b.y { return a.y < b.y }
        if a.kind != b.kind { return a.kind.rawValue > b.kind.rawValue }
        if a.owner != b.owner { return a.owner < b.owner }
        return a.id < b.id
    }
}
