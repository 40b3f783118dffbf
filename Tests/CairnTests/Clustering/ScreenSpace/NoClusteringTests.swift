import XCTest
@testable import Cairn

final class NoClusteringTests: XCTestCase {
    func testC2d_NoClusteringShowsEveryItem() throws {
        var items = ClusterItemPositions()
        for k in 0..<5 { try items.append(latitude: 0, longitude: Double(k) * 1e-9) }
        var groups = ClusterGroups()
        NoClustering().cluster(items, zoom: 0, into: &groups)
        XCTAssertEqual(groups.count, 5)
        XCTAssertEqual(Array(groups.members), [0, 1, 2, 3, 4])
    }
}
