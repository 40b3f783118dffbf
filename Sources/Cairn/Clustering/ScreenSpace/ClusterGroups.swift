/// The result of clustering for one zoom: clusters with a position, and their members as item
/// numbers (positions in `ClusterItemPositions`), each item in one cluster at most (Google's
/// distance algorithm leaves out items beyond its map).
public struct ClusterGroups {
    public private(set) var x: [Double] = []
    public private(set) var y: [Double] = []
    /// Members of cluster c: `members[memberStart[c] ..< memberStart[c + 1]]`.
    public private(set) var memberStart: [Int32] = [0]
    public private(set) var members: [Int32] = []

    public init() {}

    public var count: Int { x.count }

    public func size(of cluster: Int) -> Int { Int(memberStart[cluster + 1] - memberStart[cluster]) }

    public func members(of cluster: Int) -> ArraySlice<Int32> {
        members[Int(memberStart[cluster])..<Int(memberStart[cluster + 1])]
    }

    /// Empties the result, keeping its room: what an algorithm does first.
    public mutating func removeAll() {
        x.removeAll(keepingCapacity: true)
        y.removeAll(keepingCapacity: true)
        memberStart.removeAll(keepingCapacity: true)
        memberStart.append(0)
        members.removeAll(keepingCapacity: true)
    }

    /// Adds a cluster at world position (x, y) (the unit square, as `ClusterItemPositions`
    /// holds items) with its members, as item numbers.
    public mutating func append(x: Double, y: Double, members list: some Sequence<Int32>) {
        self.x.append(x)
        self.y.append(y)
        members.append(contentsOf: list)
        memberStart.append(Int32(members.count))
    }
}
