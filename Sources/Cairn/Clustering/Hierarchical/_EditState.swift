/// What an edit of a built index (`HierarchicalClusterIndex+Edits`) knows of the items it
/// touches: every item added, removed, moved, made, dissolved or given another parent, and every
/// item it looked at again. Items get a slot on first touch; the arrays below are by slot.
final class _EditState {
    var slots = _ItemSlots(expected: 1024)
    /// Item reads the repair may still make (searches count each item they look at); below
    /// zero it stops (`HierarchicalClusterIndex+Edits`).
    var budget = 0
    /// Flags (`added`, `moved`, `dead`) by slot.
    var flags: [UInt8] = []
    /// The item's parent when it was first touched: its parent before the edit.
    var oldParent: [Int32] = []
    /// A moved item's new exact world position (by slot; unused for the others): a moved
    /// point's, or the centroid of an old cluster whose members changed (`newCount` points).
    /// A cluster's stored position and count stay the old ones until the storage is laid out.
    var newX: [Double] = []
    var newY: [Double] = []
    var newCount: [UInt32] = []
    /// Per-zoom marks, each the zoom it was set at (-1 never): in the level's list of items
    /// that appear, queued for a new decision, decided, with sums of members that left and
    /// joined (an old cluster of that zoom).
    var appearsAt: [Int16] = []
    var queuedAt: [Int16] = []
    var decidedAt: [Int16] = []
    var deltaAt: [Int16] = []
    /// The zoom at which a seed that stands at the level again elsewhere kept the members still
    /// within its radius there (see `HierarchicalClusterIndex+Edits`): should it stop seeding,
    /// its decision sends them to decide again.
    var membersKeptAt: [Int16] = []
    /// The decision of the zoom `decidedAt` names: the rank of the seed that absorbs the item,
    /// or `UInt32.max` where the item is a seed itself.
    var decision: [UInt32] = []
    /// What joined an old cluster less what left it: position times points, and points.
    var deltaX: [Double] = []
    var deltaY: [Double] = []
    var deltaCount: [Int] = []
    /// The slots a zoom's repair looks at for items that appear or leave: those that were or are
    /// visible at the level last looked at, and every slot from `unlooked` on (made since). An
    /// item visible at a level neither before nor after the edit is absorbed or gone in both,
    /// and so at every level below: the repair need not look at it again.
    var lookAt: [Int32] = []
    var unlooked = 0
    /// The items near points added or moved, read once per zoom group (see `_NearItems`).
    var near = _NearItems()

    static let added: UInt8 = 1       // a point added by the edit, or a cluster it made
    static let moved: UInt8 = 2       // a point given a new position, or a cluster other members
    static let dead: UInt8 = 4        // a point removed, or a cluster dissolved

    /// The slot of `item`, made if needed with `parent` as its parent before the edit.
    @inline(__always)
    func slot(_ item: Int32, parent: Int32) -> Int {
        let (s, isNew) = slots.insert(item)
        if isNew {
            flags.append(0)
            oldParent.append(parent)
            newX.append(0)
            newY.append(0)
            newCount.append(0)
            appearsAt.append(-1)
            queuedAt.append(-1)
            decidedAt.append(-1)
            deltaAt.append(-1)
            membersKeptAt.append(-1)
            decision.append(0)
            deltaX.append(0)
            deltaY.append(0)
            deltaCount.append(0)
        }
        return s
    }

    @inline(__always)
    func has(_ s: Int, _ flag: UInt8) -> Bool { flags[s] & flag != 0 }

    /// Items whose place in space or whose content is not what the zoom groups hold: added,
    /// moved or made by the edit.
    @inline(__always)
    func isNewHere(_ s: Int) -> Bool { flags[s] & (_EditState.added | _EditState.moved) != 0 }
}

/// The items that appear at one level (new, moved, made or freed), sorted by cell of a grid
/// whose cells are at least the clustering radius wide, so a radius search reads 3×3 cells.
struct _AppearingItems {
    var keys: [UInt64] = []
    var items: [Int32] = []
    var grid = _ClusterGrid(scale: 1)

    /// Calls `body` with the items whose cell lies in the 3×3 cells around `(x, y)`.
    func forEach(near x: Float, _ y: Float, _ body: (Int32) -> Void) {
        if items.isEmpty { return }
        let row = grid.cell(y), column = grid.cell(x)
        let firstColumn = column > 0 ? column - 1 : 0
        for r in (row > 0 ? row - 1 : 0)...(row + 1) {
            forEach(keys: (r << 32) | firstColumn, through: (r << 32) | (column + 1), body)
        }
    }

    /// Calls `body` with the items of the cell `key`.
    func forEach(inCell key: UInt64, _ body: (Int32) -> Void) {
        if !items.isEmpty { forEach(keys: key, through: key, body) }
    }

    /// The items whose keys lie in `from...to`.
    private func forEach(keys from: UInt64, through to: UInt64, _ body: (Int32) -> Void) {
        var k = _lowerBound(keys, from)
        while k < keys.count && keys[k] <= to {
            body(items[k])
            k += 1
        }
    }
}
