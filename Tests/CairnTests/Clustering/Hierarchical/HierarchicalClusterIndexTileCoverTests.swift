import XCTest
@testable import Cairn

/// The tile cover: every tile a tile query finds something in is listed, once, in the order
/// asked, and the list is not much longer than the non-empty tiles.
final class HierarchicalClusterIndexTileCoverTests: XCTestCase {
    /// Seeded points with blobs, some on the antimeridian and near the poles' limit.
    private func points() -> [Double] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func random() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(UInt64(1) << 53)
        }
        var out: [Double] = []
        for _ in 0..<1500 { out += [random() * 360 - 180, random() * 170 - 85] }
        for blob in 0..<20 {
            let lng = Double(blob * 37 % 360) - 180, lat = Double(blob * 23 % 140) - 70
            for _ in 0..<100 { out += [lng + (random() - 0.5) * 0.5, lat + (random() - 0.5) * 0.5] }
        }
        for _ in 0..<200 { out += [random() < 0.5 ? 180 : -180 + random() * 1e-6, random() * 170 - 85] }
        out += [179.9999, 85.05, -179.9999, -85.05, 0, 0]
        return out
    }

    func testTheCoverHoldsEveryNonEmptyTileOnceInColumnOrder() throws {
        let index = try Fixtures.makeIndex(points(), ClusterOptions(radius: 40, extent: 512, maxZoom: 8))
        for (extent, buffer) in [(4096.0, Optional(80.0)), (4096, 0), (512, nil), (256, 256)] as [(Double, Double?)] {
            for z in 0...6 {
                let cover = try index.tileCover(z: z, tileExtent: extent, buffer: buffer)
                var listed = Set<UInt64>()
                var previous: UInt64? = nil
                for k in stride(from: 0, to: cover.count, by: 2) {
                    let key = UInt64(cover[k]) << 32 | UInt64(cover[k + 1])
                    if let previous { XCTAssertLessThan(previous, key, "column then row, each once") }
                    previous = key
                    listed.insert(key)
                }
                var nonEmpty = 0
                for x in 0..<(1 << z) {
                    for y in 0..<(1 << z) {
                        var any = false
                        try index.forEachTileFeature(z: z, x: x, y: y, tileExtent: extent, buffer: buffer) { _ in any = true }
                        guard any else { continue }
                        nonEmpty += 1
                        XCTAssertTrue(listed.contains(UInt64(x) << 32 | UInt64(y)), "tile \(z)/\(x)/\(y) (extent \(extent), buffer \(String(describing: buffer))) is missing")
                    }
                }
                XCTAssertLessThanOrEqual(listed.count, nonEmpty + nonEmpty / 20 + 2, "zoom \(z): few empty tiles listed")
            }
        }
    }

    func testTileIDOrderIsThePMTilesOrder() throws {
        let index = try Fixtures.makeIndex(points(), ClusterOptions(maxZoom: 10))
        for z in [0, 3, 9, 12] {
            let columns = try index.tileCover(z: z, tileExtent: 4096, buffer: 80)
            let ordered = try index.tileCover(z: z, tileExtent: 4096, buffer: 80, order: .tileID)
            XCTAssertEqual(ordered.count, columns.count)
            let ids = stride(from: 0, to: ordered.count, by: 2).map { HilbertTileID.id(z: z, x: ordered[$0], y: ordered[$0 + 1]) }
            XCTAssertEqual(ids, ids.sorted())
            XCTAssertEqual(Set(ids).count, ids.count)
            let columnIDs = stride(from: 0, to: columns.count, by: 2).map { HilbertTileID.id(z: z, x: columns[$0], y: columns[$0 + 1]) }
            XCTAssertEqual(Set(columnIDs), Set(ids))
        }
    }

    func testBadArgumentsAndStatesAreErrors() throws {
        let index = try HierarchicalClusterIndex()
        XCTAssertThrowsError(try index.tileCover(z: 0)) { XCTAssertEqual($0 as? CairnError, .invalidState) }
        try index.add(longitude: 0, latitude: 0)
        index.build()
        XCTAssertEqual(try index.tileCover(z: 0), [0, 0])
        for (z, extent, buffer) in [(31, 4096.0, 0.0), (-1, 4096, 0), (3, 0, 0), (3, .nan, 0), (3, 4096, 5000), (3, 4096, .infinity)] {
            XCTAssertThrowsError(try index.tileCover(z: z, tileExtent: extent, buffer: buffer)) {
                XCTAssertEqual($0 as? CairnError, .invalidArgument)
            }
        }
    }
}
