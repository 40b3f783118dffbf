/// The cluster icon buckets of Google's default icon generator (feature C3): a cluster of N below
/// the first bucket shows "N"; otherwise the largest bucket ≤ N and "+". Each bucket has a
/// colour; a circle's diameter grows with its label's measured size and its bucket.
public struct ClusterIconBuckets: Equatable {
    public private(set) var buckets: [Int]
    /// Colours as 0xRRGGBB, one per bucket.
    public private(set) var colors: [UInt32]

    /// Google's bucket colours, in bucket order.
    public static let standardColors: [UInt32] = [0x0099CC, 0x669900, 0xFF8800, 0xCC0000, 0x9933CC]

    public static let standard = try! ClusterIconBuckets(buckets: [10, 50, 100, 200, 1000])

    /// Why a bucket list was refused.
    public enum Problem: Int32 {
        case empty = 1
        case notPositive = 2
        case notIncreasing = 3
        case colorCountMismatch = 4
    }

    /// Buckets must be non-empty, positive and strictly increasing, with one colour each (or
    /// none, for the standard colours: buckets past the fifth keep the last, as Google's do).
    public init(buckets: [Int], colors: [UInt32] = []) throws(CairnError) {
        if let problem = ClusterIconBuckets.check(buckets, colors) { throw .invalidBuckets(problem) }
        self.buckets = buckets
        let standard = ClusterIconBuckets.standardColors
        self.colors = colors.isEmpty ? buckets.indices.map { standard[Swift.min($0, standard.count - 1)] } : colors
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

    /// The number the label shows, and whether a "+" follows it: (7, false), (10, true).
    public func label(for count: Int) -> (number: Int, plus: Bool) {
        let b = bucket(for: count)
        return b < 0 ? (count, false) : (buckets[b], true)
    }

    /// The label: "7", "10+", "1000+".
    public func text(for count: Int) -> String {
        let (number, plus) = label(for: count)
        return plus ? String(number) + "+" : String(number)
    }

    public func color(for count: Int) -> UInt32 {
        colors[Swift.max(bucket(for: count), 0)]
    }

    /// Circle diameter in points, Google's: the label's measured size (the larger of its width
    /// and height, at least 20), 3 more per bucket past the first (a count below the first
    /// bucket counts as the first), and 6.
    public func diameter(for count: Int, metrics: ClusterLabelMetrics = .standard) -> Double {
        let (number, plus) = label(for: count)
        return Swift.max(20, metrics.size(ofNumber: number, plus: plus)) + 3 * Double(Swift.max(bucket(for: count), 0)) + 6
    }
}

/// How big the host draws cluster labels (white, bold, at `fontSize` points), measured by the
/// host, which alone can measure text: the advance of each character a label uses ("0"…"9",
/// "+") and the line's height. The engine sizes cluster icons (and their tap targets) from it.
public struct ClusterLabelMetrics: Equatable {
    /// Google's label font size, in points (bold).
    public static let fontSize = 14.0
    /// The characters measured, in the order of `advances`.
    public static let characters = "0123456789+"

    public private(set) var advances: [Double]
    public private(set) var height: Double

    /// Metrics of a typical bold sans-serif at `fontSize`, for hosts that do not measure
    /// (a headless engine): digits 0.556 em, "+" 0.584 em, a line 1.117 em.
    public static let standard = try! ClusterLabelMetrics(
        advances: Array(repeating: 0.556 * fontSize, count: 10) + [0.584 * fontSize], height: 1.117 * fontSize)

    /// One finite advance ≥ 0 per character of `characters`, and a finite height ≥ 0.
    public init(advances: [Double], height: Double) throws(CairnError) {
        guard advances.count == ClusterLabelMetrics.characters.utf8.count,
              advances.allSatisfy({ $0.isFinite && $0 >= 0 && $0 <= 1000 }),
              height.isFinite, height >= 0, height <= 1000 else { throw .invalidArgument }
        self.advances = advances
        self.height = height
    }

    /// The label's size as Google takes it: the larger of its width and its height.
    func size(ofNumber number: Int, plus: Bool) -> Double {
        var width = plus ? advances[10] : 0
        var n = Swift.max(number, 0)
        repeat {
            width += advances[n % 10]
            n /= 10
        } while n > 0
        return Swift.max(width, height)
    }
}

/// How a host draws one cluster's icon (feature C3), all of it the engine's: its label (a
/// number, with "+" after a bucket), its colour and its circle's diameter in points.
public struct ClusterIcon: Equatable {
    public var number: Int
    public var plus: Bool
    public var color: UInt32
    public var diameter: Double
}

extension ClusterRendering {
    /// The icon of a cluster of `count` items, by this rendering's buckets and label metrics.
    public func icon(for count: Int) -> ClusterIcon {
        let (number, plus) = buckets.label(for: count)
        return ClusterIcon(number: number, plus: plus, color: buckets.color(for: count),
                           diameter: buckets.diameter(for: count, metrics: labelMetrics))
    }
}
