/// Items to cluster for the screen: world positions (the unit square of `WebMercator`) in
/// insertion order, which the algorithms of Google's utility library depend on.
public struct ClusterItemPositions {
    public private(set) var x: [Double] = []
    public private(set) var y: [Double] = []

    public init() {}

    /// Positions already in world coordinates (both arrays the same length).
    init(x: [Double], y: [Double]) {
        self.x = x
        self.y = y
    }

    public var count: Int { x.count }

    /// Appends an item; NaN or infinite coordinates and latitudes beyond ±90° are refused.
    public mutating func append(latitude: Double, longitude: Double) throws(CairnError) {
        guard latitude.isFinite, longitude.isFinite else { throw .nonFiniteCoordinate(index: count) }
        guard latitude >= -90, latitude <= 90 else { throw .latitudeOutOfRange(index: count) }
        x.append(WebMercator.x(longitude: WebMercator.wrapLongitude(longitude)))
        y.append(WebMercator.y(latitude: latitude))
    }

    public mutating func removeAll() {
        x.removeAll()
        y.removeAll()
    }
}

/// The result of clustering for one zoom: clusters with a position, and their members as item
/// numbers (positions in `ClusterItemPositions`), each item in exactly one cluster.
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

    mutating func removeAll() {
        x.removeAll(keepingCapacity: true)
        y.removeAll(keepingCapacity: true)
        memberStart.removeAll(keepingCapacity: true)
        memberStart.append(0)
        members.removeAll(keepingCapacity: true)
    }

    mutating func append(x: Double, y: Double, members list: some Sequence<Int32>) {
        self.x.append(x)
        self.y.append(y)
        members.append(contentsOf: list)
        memberStart.append(Int32(members.count))
    }
}

/// A way of grouping items for the screen at one zoom (SPEC C2). Used generically, never as an
/// existential, so it compiles with Embedded Swift; an app can supply its own.
public protocol ClusterAlgorithm {
    /// Groups `items` for a camera at `zoom`, replacing what `result` held.
    func cluster(_ items: ClusterItemPositions, zoom: Double, into result: inout ClusterGroups)
}

/// The integer zoom Google's screen-space algorithms cluster for: the camera zoom rounded,
/// within 0...30.
func _discreteZoom(_ zoom: Double) -> Int {
    guard zoom.isFinite else { return 0 }
    let z = _round(zoom)
    return z < 0 ? 0 : (z > 30 ? 30 : Int(z))
}

/// C2d: every item on its own.
public struct NoClustering: ClusterAlgorithm {
    public init() {}

    public func cluster(_ items: ClusterItemPositions, zoom: Double, into result: inout ClusterGroups) {
        result.removeAll()
        for i in 0..<items.count {
            result.append(x: items.x[i], y: items.y[i], members: CollectionOfOne(Int32(i)))
        }
    }
}
