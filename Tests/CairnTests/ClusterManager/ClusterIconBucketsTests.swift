import XCTest
@testable import Cairn

final class ClusterIconBucketsTests: XCTestCase {
    func testC3_GoogleDefaultBucketsTextsAndColours() {
        let b = ClusterIconBuckets.standard
        XCTAssertEqual(b.text(for: 4), "4")
        XCTAssertEqual(b.text(for: 9), "9")
        XCTAssertEqual(b.text(for: 10), "10+")
        XCTAssertEqual(b.text(for: 49), "10+")
        XCTAssertEqual(b.text(for: 50), "50+")
        XCTAssertEqual(b.text(for: 199), "100+")
        XCTAssertEqual(b.text(for: 200), "200+")
        XCTAssertEqual(b.text(for: 1_000_000), "1000+")
        XCTAssertEqual(b.color(for: 5), 0x0099CC)
        XCTAssertEqual(b.color(for: 10), 0x0099CC)
        XCTAssertEqual(b.color(for: 60), 0x669900)
        XCTAssertEqual(b.color(for: 150), 0xFF8800)
        XCTAssertEqual(b.color(for: 500), 0xCC0000)
        XCTAssertEqual(b.color(for: 5000), 0x9933CC)
        XCTAssertLessThan(b.diameter(for: 5), b.diameter(for: 10))
        XCTAssertLessThan(b.diameter(for: 200), b.diameter(for: 1000))
    }

    func testC3_CustomBucketsAreValidated() throws {
        XCTAssertThrowsError(try ClusterIconBuckets(buckets: [])) { XCTAssertEqual($0 as? CairnError, .invalidBuckets(.empty)) }
        XCTAssertThrowsError(try ClusterIconBuckets(buckets: [0, 5])) { XCTAssertEqual($0 as? CairnError, .invalidBuckets(.notPositive)) }
        XCTAssertThrowsError(try ClusterIconBuckets(buckets: [5, 5])) { XCTAssertEqual($0 as? CairnError, .invalidBuckets(.notIncreasing)) }
        XCTAssertThrowsError(try ClusterIconBuckets(buckets: [5, 20], colors: [1])) {
            XCTAssertEqual($0 as? CairnError, .invalidBuckets(.colorCountMismatch))
        }
        let custom = try ClusterIconBuckets(buckets: [5, 25], colors: [0x112233, 0x445566])
        XCTAssertEqual(custom.text(for: 30), "25+")
        XCTAssertEqual(custom.color(for: 30), 0x445566)
        XCTAssertEqual(try ClusterIconBuckets(buckets: [2, 3, 4, 5, 6, 7]).colors.last, 0x9933CC, "the last standard colour stays")
    }

    func testC3_StandardColoursPastTheFifthBucketKeepTheLast() throws {
        let seven = try ClusterIconBuckets(buckets: [2, 3, 4, 5, 6, 7, 8])
        XCTAssertEqual(seven.colors, [0x0099CC, 0x669900, 0xFF8800, 0xCC0000, 0x9933CC, 0x9933CC, 0x9933CC])
        XCTAssertEqual(seven.color(for: 100), 0x9933CC)
    }

    func testC3_TheDiameterGrowsWithTheMeasuredLabelAsGooglesDoes() throws {
        // max(20, text size) + 3 × bucket + 6, the text size the larger of the label's width
        // and height; a count below the first bucket counts as the first bucket.
        let metrics = try ClusterLabelMetrics(advances: Array(repeating: 8, count: 10) + [9], height: 16)
        let b = ClusterIconBuckets.standard
        XCTAssertEqual(b.diameter(for: 5, metrics: metrics), 26, "\"5\": 8 wide, 16 high, at least 20")
        XCTAssertEqual(b.diameter(for: 10, metrics: metrics), 31, "\"10+\": 25")
        XCTAssertEqual(b.diameter(for: 60, metrics: metrics), 34, "\"50+\": 25, bucket 1")
        XCTAssertEqual(b.diameter(for: 150, metrics: metrics), 45, "\"100+\": 33, bucket 2")
        XCTAssertEqual(b.diameter(for: 5000, metrics: metrics), 59, "\"1000+\": 41, bucket 4")
        let tall = try ClusterLabelMetrics(advances: Array(repeating: 2, count: 11), height: 30)
        XCTAssertEqual(b.diameter(for: 7, metrics: tall), 36, "the height when it is the larger")
        var rendering = ClusterRendering()
        rendering.labelMetrics = metrics
        XCTAssertEqual(rendering.icon(for: 60), ClusterIcon(number: 50, plus: true, color: 0x669900, diameter: 34))
        XCTAssertEqual(rendering.icon(for: 7), ClusterIcon(number: 7, plus: false, color: 0x0099CC, diameter: 26))
        XCTAssertThrowsError(try ClusterLabelMetrics(advances: [1, 2], height: 16))
        XCTAssertThrowsError(try ClusterLabelMetrics(advances: Array(repeating: .nan, count: 11), height: 16))
    }
}
