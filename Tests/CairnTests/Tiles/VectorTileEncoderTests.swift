import XCTest
@testable import Cairn

final class VectorTileEncoderTests: XCTestCase {
    private func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

    private func encode(_ build: (inout VectorTileEncoder) -> Void, name: String = "c", extent: UInt32 = 4096) throws -> [UInt8] {
        var encoder = try bytes(name).withUnsafeBufferPointer { try VectorTileEncoder(name: $0, extent: extent) }
        build(&encoder)
        return encoder.finish()
    }

    private func tag(_ e: inout VectorTileEncoder, _ key: String, number: Double) {
        bytes(key).withUnsafeBufferPointer { e.tag($0, number: number) }
    }

    /// One point with an id and no properties, byte for byte: tile.layers (3) holding version 2,
    /// name, the feature (id 7, type POINT, MoveTo(1) with zigzag(25) = 50 and zigzag(-3) = 5),
    /// and the extent 4096 (varint 0x80 0x20).
    func testOnePointByteForByte() throws {
        let tile = try encode { $0.beginPoint(id: 7, x: 25, y: -3) }
        let feature: [UInt8] = [0x08, 7, 0x18, 1, 0x22, 3, 9, 50, 5]
        let layer: [UInt8] = [0x78, 2, 0x0A, 1, 0x63, 0x12, UInt8(feature.count)] + feature + [0x28, 0x80, 0x20]
        XCTAssertEqual(tile, [0x1A, UInt8(layer.count)] + layer)
    }

    /// Values typed as readers expect, each stored once: 3 as uint (field 5), -2 as sint
    /// (field 6, zigzag 3), 1.5 as double (field 3), true as bool (field 7), a string (field 1).
    func testValueTypesAndSharedKeysAndValues() throws {
        let tile = try encode { e in
            e.beginPoint(id: nil, x: 0, y: 0)
            tag(&e, "n", number: 3)
            tag(&e, "m", number: -2)
            e.beginPoint(id: nil, x: 1, y: 1)
            tag(&e, "n", number: 3)
            tag(&e, "m", number: 1.5)
            bytes("b").withUnsafeBufferPointer { e.tag($0, bool: true) }
            bytes("s").withUnsafeBufferPointer { k in bytes("hé").withUnsafeBufferPointer { e.tag(k, string: $0) } }
        }
        let f1: [UInt8] = [0x12, 4, 0, 0, 1, 1, 0x18, 1, 0x22, 3, 9, 0, 0]
        let f2: [UInt8] = [0x12, 8, 0, 0, 1, 2, 2, 3, 3, 4, 0x18, 1, 0x22, 3, 9, 2, 2]
        var layer: [UInt8] = [0x78, 2, 0x0A, 1, 0x63]
        layer += [0x12, UInt8(f1.count)] + f1 + [0x12, UInt8(f2.count)] + f2
        for k in ["n", "m", "b", "s"] { layer += [0x1A, 1] + bytes(k) }
        layer += [0x22, 2, 0x28, 3]                                  // uint 3
        layer += [0x22, 2, 0x30, 3]                                  // sint -2
        layer += [0x22, 9, 0x19] + [0, 0, 0, 0, 0, 0, 0xF8, 0x3F]    // double 1.5
        layer += [0x22, 2, 0x38, 1]                                  // bool true
        layer += [0x22, 5, 0x0A, 3, 0x68, 0xC3, 0xA9]                // string "hé"
        layer += [0x28, 0x80, 0x20]
        XCTAssertEqual(tile, [0x1A, UInt8(layer.count)] + layer)
    }

    func testNumbersBeyondWholeRangeAreDoubles() throws {
        for (value, field) in [(9_007_199_254_740_992.0, UInt8(0x28)), (1e300, 0x19), (-0.5, 0x19), (0, 0x28), (-9_007_199_254_740_992.0, 0x30)] {
            let tile = try encode { e in
                e.beginPoint(id: nil, x: 0, y: 0)
                tag(&e, "v", number: value)
            }
            // The value message is the last before the extent: its field key follows its length.
            guard let at = tile.lastIndex(of: 0x22) else { return XCTFail("no value in \(value)") }
            XCTAssertEqual(tile[at + 2], field, "\(value)")
        }
    }

    func testEmptyTileHasNoBytesAndBadLayersAreRefused() throws {
        XCTAssertEqual(try encode { _ in }, [])
        XCTAssertThrowsError(try [UInt8]().withUnsafeBufferPointer { try VectorTileEncoder(name: $0, extent: 4096) })
        XCTAssertThrowsError(try bytes("c").withUnsafeBufferPointer { try VectorTileEncoder(name: $0, extent: 0) })
    }

    func testZigzag() {
        XCTAssertEqual([0, -1, 1, -2, 2, 2_147_483_647, -2_147_483_648].map { _ProtobufWriter.zigzag($0) },
                       [0, 1, 2, 3, 4, 4_294_967_294, 4_294_967_295])
    }
}
