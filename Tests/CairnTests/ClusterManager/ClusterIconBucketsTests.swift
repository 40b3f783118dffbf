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
        XCTAssertEqual(try ClusterIconBuckets(buckets: [2, 3, 4, 5, 6, 7]).colors.last, 0x0099CC, "standard colours cycle")
    }
}
