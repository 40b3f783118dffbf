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
        // Fields are read through a pointer: one field of a record of about 170 bytes, where a
        // read through the array copies the record whole.
        items.withUnsafeBufferPointer { items in
            for i in 0..<items.count {
                switch items[i].collision {
                case .required: break
                case .requiredAndHidesOptional: block(Int32(i), items, &scratch.grid)
                case .optionalAndHidesLowerPriority: scratch.optional.append(UInt32(i))
                }
            }
            if scratch.optional.isEmpty { return }
            // Highest priority first: ascending by the negated priority, zIndex and screen y.
            if !scratch.order.sort(&scratch.optional, first: { -items[Int($0)].collisionPriority },
                                   second: { -items[Int($0)].zIndex }, y: { -items[Int($0)].y },
                                   tie: { tie(items[Int($0)]) }) {
                _stableSort(&scratch.optional, by: { outranks(items[Int($0)], items[Int($1)]) })
            }
            hidden.withUnsafeMutableBufferPointer { hidden in
                for k in scratch.optional {
                    let i = Int(k)
                    let box = items[i].box
                    if scratch.grid.any(near: box.bounds, { items[Int($0)].box.overlaps(box) }) {
                        hidden[i] = true
                    } else {
                        block(Int32(i), items, &scratch.grid)
                    }
                }
            }
        }
    }

    /// Puts an item's box among those that hide optional items, unless the box last put in the
    /// cell it starts in is the same: a second box identical to one there hides nothing more
    /// (any box meets both or neither), and items piled on one point (their boxes alike, in
    /// order one after another) would otherwise make one list that every query there walks.
    @inline(__always)
    private static func block(_ i: Int32, _ items: UnsafeBufferPointer<SceneItem>, _ grid: inout _ScreenGrid) {
        let box = items[Int(i)].box
        if let last = grid.lastInserted(at: box.bounds), items[Int(last)].box == box { return }
        grid.insert(i, box.bounds)
    }

    /// What orders items of one priority, zIndex and row, as `_ScreenOrder` takes it.
    @inline(__always)
    static func tie(_ a: SceneItem) -> _ScreenOrder.Tie {
        _ScreenOrder.Tie(kind: a.kind.rawValue, owner: a.owner, id: a.id)
    }

    @inline(__always)
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
    /// What orders items of one zIndex and row, as `_ScreenOrder` takes it (kinds descending).
    @inline(__always)
    static func tie(_ a: SceneItem) -> _ScreenOrder.Tie {
        _ScreenOrder.Tie(kind: -a.kind.rawValue, owner: a.owner, id: a.id)
    }

    @inline(__always)
    static func below(_ a: SceneItem, _ b: SceneItem) -> Bool {
        if a.zIndex != b.zIndex { return a.zIndex < b.zIndex }
        if a.y != b.y { return a.y < b.y }
        if a.kind != b.kind { return a.kind.rawValue > b.kind.rawValue }
        if a.owner != b.owner { return a.owner < b.owner }
        return a.id < b.id
    }
}
