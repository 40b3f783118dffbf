/// The items of a zoom group around points whose centre an edit fixes (points added or moved),
/// read once at the reach of the group's lowest level, for the repair's decisions at the group's
/// other levels: a group spans zooms whose items barely change, so one read serves them all,
/// where each level's decision would search the group again (see `HierarchicalClusterIndex+Edits`).
/// The group's items and their stored positions stay as they are until the repair is done; which
/// of them a level shows, the caller checks.
struct _NearItems {
    /// Above this many items a point keeps none: its levels search as usual.
    static let limit = 64

    private var slots = _ItemSlots(expected: 64)
    /// By slot: the lowest zoom of the group read, the centre read around, and the items read
    /// (`start..<start + count` of `items`; count -1 where they were too many).
    private var groupLow: [Int16] = []
    private var centreX: [Double] = []
    private var centreY: [Double] = []
    private var start: [Int32] = []
    private var count: [Int32] = []
    private(set) var items: [Int32] = []
    private(set) var x: [Float] = []
    private(set) var y: [Float] = []

    enum Kept {
        /// The items read for that group and centre, as a range of `items`, `x` and `y`.
        case read(Range<Int>)
        /// They were too many.
        case tooMany
        /// None are kept for that group and centre.
        case none
    }

    /// What is kept for `point` around `centre` in the group whose lowest zoom is `low`.
    func kept(_ point: Int32, groupLow low: Int, centre: (x: Double, y: Double)) -> Kept {
        guard let s = slots.slot(of: point), Int(groupLow[s]) == low,
              centreX[s] == centre.x, centreY[s] == centre.y else { return .none }
        if count[s] < 0 { return .tooMany }
        return .read(Int(start[s])..<Int(start[s] + count[s]))
    }

    /// Keeps `read` (nil: too many) for `point` around `centre` in the group whose lowest zoom
    /// is `low`, in place of what it kept before.
    mutating func keep(_ point: Int32, groupLow low: Int, centre: (x: Double, y: Double),
                       _ read: [(item: Int32, x: Float, y: Float)]?) -> Kept {
        let (s, isNew) = slots.insert(point)
        if isNew {
            groupLow.append(0); centreX.append(0); centreY.append(0); start.append(0); count.append(0)
        }
        groupLow[s] = Int16(low)
        (centreX[s], centreY[s]) = centre
        guard let read else {
            count[s] = -1
            return .tooMany
        }
        start[s] = Int32(items.count)
        count[s] = Int32(read.count)
        for r in read {
            items.append(r.item)
            x.append(r.x)
            y.append(r.y)
        }
        return .read(Int(start[s])..<items.count)
    }
}
