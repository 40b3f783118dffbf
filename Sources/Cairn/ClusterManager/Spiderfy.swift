/// Spreading out the items of a cluster that can never split (feature C10): items at one place
/// stay one cluster at every zoom, so a tap on it lays them out around its centre, each on a
/// leg, until the next tap elsewhere or a zoom change. Fewer than `spiralThreshold` items go on
/// a circle; more go on a spiral so they do not overlap however many there are.
public struct Spiderfy: Equatable {
    /// The cluster that is spread out and its centre in world coordinates.
    public var cluster: Int64
    public var centerX: Double, centerY: Double
    /// The items, as positions in the manager's clustered snapshot.
    public var members: [Int32]
    /// The camera zoom when it opened: a zoom change folds it back.
    public var zoom: Double

    public static let spiralThreshold = 9
    /// Pixels between neighbouring items on the circle, and along the spiral.
    public static let circleSpacing = 28.0
    public static let spiralSpacing = 30.0
    /// The spiral's first radius and how fast it widens (pixels per turn).
    public static let spiralStart = 12.0
    public static let spiralGrowth = 30.0

    /// Screen offsets from the centre for `count` items.
    public static func offsets(count: Int) -> [(x: Double, y: Double)] {
        var out: [(x: Double, y: Double)] = []
        if count < spiralThreshold {
            // A circle long enough for the items to sit `circleSpacing` apart.
            let radius = Swift.max(circleSpacing * Double(count) / (2 * Double.pi), circleSpacing)
            for i in 0..<count {
                let a = -Double.pi / 2 + 2 * Double.pi * Double(i) / Double(count)
                out.append((radius * _cos(a), radius * _sin(a)))
            }
            return out
        }
        // An Archimedean spiral r = start + growth·θ/2π, stepping so arcs are `spiralSpacing` long.
        var angle = 0.0
        for _ in 0..<count {
            let r = spiralStart + spiralGrowth * angle / (2 * Double.pi)
            out.append((r * _cos(angle), r * _sin(angle)))
            angle += spiralSpacing / Swift.max(r, 1)
        }
        return out
    }
}
