/// Which of a clustered tile's optional properties its features carry.
public struct ClusterTileProperties: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// A cluster's id as the `cluster_id` property.
    public static let clusterID = ClusterTileProperties(rawValue: 1)
    /// A cluster's id, and a point's, as the feature's id.
    public static let featureIDs = ClusterTileProperties(rawValue: 2)
}

/// How supercluster abbreviates a cluster's point count: below 1,000 the count itself, up to
/// 9,999 thousands with one decimal ("1.2k", the decimal left out when it is 0), from 10,000
/// whole thousands ("12k"), rounding halves up.
public enum AbbreviatedPointCount: Equatable, Sendable {
    case number(Int)
    case text([UInt8])

    public init(_ count: Int) {
        guard count >= 1000 else {
            self = .number(count)
            return
        }
        var text: [UInt8] = []
        if count >= 10_000 {
            _appendDecimal(Int((Double(count) / 1000).rounded(.toNearestOrAwayFromZero)), to: &text)
        } else {
            let tenths = Int((Double(count) / 100).rounded(.toNearestOrAwayFromZero))
            _appendDecimal(tenths / 10, to: &text)
            if tenths % 10 != 0 {
                text.append(UInt8(ascii: "."))
                text.append(UInt8(ascii: "0") + UInt8(tenths % 10))
            }
        }
        text.append(UInt8(ascii: "k"))
        self = .text(text)
    }
}

/// The decimal digits of `value` (zero or above).
private func _appendDecimal(_ value: Int, to bytes: inout [UInt8]) {
    let start = bytes.count
    var v = value
    repeat {
        bytes.append(UInt8(ascii: "0") + UInt8(v % 10))
        v /= 10
    } while v > 0
    bytes[start...].reverse()
}

extension VectorTileEncoder {
    /// Adds a cluster (`pointCount` above 1) or a point of a clustering whose points carry no
    /// properties of their own, as a clustered tile shows it: a cluster with `cluster` (true),
    /// `cluster_id` (with `.clusterID`), `point_count` and `point_count_abbreviated`, in that
    /// order; a point with no properties. With `.featureIDs` either has `id` as its feature id.
    public mutating func addClusterFeature(id: UInt64, pointCount: Int, x: Int32, y: Int32,
                                           properties: ClusterTileProperties) {
        beginPoint(id: properties.contains(.featureIDs) ? id : nil, x: x, y: y)
        guard pointCount > 1 else { return }
        ("cluster" as StaticString).withUTF8Buffer { tag($0, bool: true) }
        if properties.contains(.clusterID) {
            ("cluster_id" as StaticString).withUTF8Buffer { tag($0, number: Double(id)) }
        }
        ("point_count" as StaticString).withUTF8Buffer { tag($0, number: Double(pointCount)) }
        ("point_count_abbreviated" as StaticString).withUTF8Buffer { key in
            switch AbbreviatedPointCount(pointCount) {
            case .number(let n): tag(key, number: Double(n))
            case .text(let text): text.withUnsafeBufferPointer { tag(key, string: $0) }
            }
        }
    }
}
