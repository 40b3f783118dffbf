/// The cluster icon buckets of Google's default icon generator (feature C3): a cluster of N below
/// the first bucket shows "N"; otherwise the largest bucket ≤ N and "+". Each bucket has a
/// colour and the circle grows with the bucket.
public struct ClusterIconBuckets: Equatable {
    public private(set) var buckets: [Int]
    /// Colours as 0xRRGGBB, one per bucket.
    public private(set) var colors: [UInt32]

    public static let standard = try! ClusterIconBuckets(buckets: [10, 50, 100, 200, 1000],
                                                         colors: [0x0099CC, 0x669900, 0xFF8800, 0xCC0000, 0x9933CC])

    /// Why a bucket list was refused.
    public enum Problem: Int32 {
        case empty = 1
        case notPositive = 2
        case notIncreasing = 3
        case colorCountMismatch = 4
    }

    /// Buckets must be non-empty, positive and strictly increasing, with one colour each (or
    /// none, to take the standard colours in turn).
    public init(buckets: [Int], colors: [UInt32] = []) throws(CairnError) {
        if let problem = ClusterIconBuckets.check(buckets, colors) { throw .invalidBuckets(problem) }
        self.buckets = buckets
        let standard: [UInt32] = [0x0099CC, 0x669900, 0xFF8800, 0xCC0000, 0x9933CC]
        self.colors = colors.isEmpty ? buckets.indices.map { standard[$0 % standard.count] } : colors
    }

    static func check(_ buckets: [Int], _ colors: [UInt32]) -> Problem? {
        guard !buckets.isEmpty else { return .empty }
        for (i, b) in buckets.enumerated() {
            if b <= 0 { return .notPositive }
            if i > 0 && b <= buckets[i - 1] { return .notIncreasing }
        }
        if !colors.isEmpty && colors.count != buckets.count { return .colorCountMismatch }
        return nil
    }

    /// The bucket a cluster of `count` falls in: -1 below the first bucket (whose colour the
    /// first bucket's is used for), else the index of the largest bucket ≤ count.
    public func bucket(for count: Int) -> Int {
        var found = -1
        for (i, b) in buckets.enumerated() where count >= b { found = i }
        return found
    }

    /// The label: "7", "10+", "1000+".
    public func text(for count: Int) -> String {
        let b = bucket(for: count)
        return b < 0 ? String(count) : String(buckets[b]) + "+"
    }

    public func color(for count: Int) -> UInt32 {
        colors[Swift.max(bucket(for: count), 0)]
    }

    /// Circle diameter in points: 30 for the smallest clusters, 4 more per bucket (GMU grows
    /// its default icons with the bucket in about these steps).
    public func diameter(for count: Int) -> Double {
        30 + 4 * Double(bucket(for: count) + 1)
    }
}
