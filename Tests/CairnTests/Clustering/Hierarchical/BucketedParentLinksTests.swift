import XCTest
@testable import Cairn

/// The parent links staging holds back by bucket of id: every link added reaches its parent
/// array (points' or clusters'), through full buckets written early and the rest at the end.
final class BucketedParentLinksTests: XCTestCase {
    func testEveryLinkReachesItsParentArray() {
        let pointCount = 200_000, clusterCount = 3000
        var pointParent = [Int32](repeating: -1, count: pointCount)
        var clusterParent = [Int32](repeating: -1, count: clusterCount)
        let counts = [UInt32](repeating: 2, count: clusterCount)
        var rng = SeededRandom(seed: 17)
        // Every other point and cluster, in random order: 64 buckets of 4,096 ids get about
        // 2,000 links each, so buckets fill and are written before the end.
        var ids = Array(stride(from: 0, to: pointCount, by: 2)) + Array(stride(from: pointCount, to: pointCount + clusterCount, by: 2))
        for i in stride(from: ids.count - 1, to: 0, by: -1) { ids.swapAt(i, Int(rng.next() * Double(i + 1))) }
        counts.withUnsafeBufferPointer { cp in
            pointParent.withUnsafeMutableBufferPointer { pp in
                clusterParent.withUnsafeMutableBufferPointer { cpp in
                    let positions = _ClusteringPositions(pointCount: pointCount, clusterXY: UnsafeBufferPointer(start: nil, count: 0))
                    let items = _ItemAccess(positions: positions, points: cp, pointParent: pp, clusterParent: cpp)
                    // Room for 1,024 links a bucket, and for 3 (a small build's block).
                    for byteCount in [1 << 20, 64 * 3 * 8] {
                        let memory = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: 8)
                        defer { memory.deallocate() }
                        let writes = _BucketedParentLinks(memory: memory, byteCount: byteCount, idLimit: pointCount + clusterCount, items: items)
                        for id in ids { writes.add(Int32(id), parent: Int32(id % 977 + 100_000)) }
                        writes.finish()
                    }
                }
            }
        }
        for p in 0..<pointCount { XCTAssertEqual(pointParent[p], p % 2 == 0 ? Int32(p % 977 + 100_000) : -1, "point \(p)") }
        for c in 0..<clusterCount {
            let id = pointCount + c
            XCTAssertEqual(clusterParent[c], c % 2 == 0 ? Int32(id % 977 + 100_000) : -1, "cluster \(c)")
        }
    }
}
