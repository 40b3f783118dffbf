import XCTest
@testable import Cairn

final class VectorTileEncoderClustersTests: XCTestCase {
    private func text(_ s: String) -> AbbreviatedPointCount { .text(Array(s.utf8)) }

    /// supercluster's abbreviations, halves rounded up as JavaScript's Math.round does.
    func testAbbreviatedPointCounts() {
        XCTAssertEqual(AbbreviatedPointCount(2), .number(2))
        XCTAssertEqual(AbbreviatedPointCount(999), .number(999))
        XCTAssertEqual(AbbreviatedPointCount(1000), text("1k"))
        XCTAssertEqual(AbbreviatedPointCount(1234), text("1.2k"))
        XCTAssertEqual(AbbreviatedPointCount(1250), text("1.3k"), "a half rounds up")
        XCTAssertEqual(AbbreviatedPointCount(9950), text("10k"))
        XCTAssertEqual(AbbreviatedPointCount(10_000), text("10k"))
        XCTAssertEqual(AbbreviatedPointCount(12_345), text("12k"))
        XCTAssertEqual(AbbreviatedPointCount(12_500), text("13k"), "a half rounds up")
        XCTAssertEqual(AbbreviatedPointCount(1_234_567), text("1235k"))
    }

    private func encoder() throws -> VectorTileEncoder {
        try Array("c".utf8).withUnsafeBufferPointer { try VectorTileEncoder(name: $0, extent: 4096) }
    }

    /// A cluster and a point as the tags a caller would give them, byte for byte; without
    /// `.clusterID` the cluster has no cluster_id, without `.featureIDs` no feature has an id.
    func testClusterFeaturesEqualTheirTags() throws {
        func key(_ s: String, _ body: (UnsafeBufferPointer<UInt8>) -> Void) { Array(s.utf8).withUnsafeBufferPointer(body) }
        for properties: ClusterTileProperties in [[], [.clusterID], [.featureIDs], [.clusterID, .featureIDs]] {
            var e = try encoder()
            e.addClusterFeature(id: 4096 + 33, pointCount: 1250, x: 10, y: -4, properties: properties)
            e.addClusterFeature(id: 17, pointCount: 1, x: 4000, y: 4100, properties: properties)
            var expected = try encoder()
            let ids = properties.contains(.featureIDs)
            expected.beginPoint(id: ids ? 4096 + 33 : nil, x: 10, y: -4)
            key("cluster") { expected.tag($0, bool: true) }
            if properties.contains(.clusterID) { key("cluster_id") { expected.tag($0, number: 4096 + 33) } }
            key("point_count") { expected.tag($0, number: 1250) }
            key("point_count_abbreviated") { k in Array("1.3k".utf8).withUnsafeBufferPointer { expected.tag(k, string: $0) } }
            expected.beginPoint(id: ids ? 17 : nil, x: 4000, y: 4100)
            XCTAssertEqual(e.finish(), expected.finish(), "\(properties.rawValue)")
        }
    }
}
