/// Writes one layer of point features as a Mapbox Vector Tile (MVT spec 2.1): each feature a
/// POINT with one MoveTo, its properties as indices into the layer's keys and values, each key
/// and value stored once. Feature coordinates are in tile units of `extent` and may lie
/// outside 0..<extent (the tile's buffer).
///
/// Numbers are typed as MVT readers expect: whole numbers up to 2^53 in magnitude as `uint`
/// (zero and above) or `sint` (below zero), every other number as `double`.
public struct VectorTileEncoder {
    public let extent: UInt32
    private let name: [UInt8]
    private var features = _ProtobufWriter()
    private var keys = _ByteTable()
    private var values = _ByteTable()
    /// The open feature: its id, position and tags (key, value numbers) until the next begins.
    private var open: (id: UInt64?, x: Int32, y: Int32)?
    private var tags: [UInt32] = []
    private var scratch = _ProtobufWriter()
    public private(set) var featureCount = 0

    /// Layer types of the MVT spec's `GeomType` and geometry commands.
    static let pointType: UInt64 = 1
    static let moveToOnce: UInt64 = 1 | (1 << 3)
    static let version: UInt64 = 2
    /// Largest magnitude typed as an integer: beyond it doubles are no longer whole by exactness.
    static let largestWhole = 9_007_199_254_740_992.0

    public init(name: UnsafeBufferPointer<UInt8>, extent: UInt32) throws(CairnError) {
        // The spec: a layer has a name, and an extent readers can scale by.
        guard name.count > 0, extent > 0 else { throw .invalidArgument }
        self.name = Array(name)
        self.extent = extent
    }

    /// Starts a point feature at (x, y).
    public mutating func beginPoint(id: UInt64?, x: Int32, y: Int32) {
        flush()
        open = (id, x, y)
        featureCount += 1
    }

    public mutating func tag(_ key: UnsafeBufferPointer<UInt8>, string: UnsafeBufferPointer<UInt8>) {
        scratch.removeAll()
        scratch.bytesField(1, string)
        addTag(key)
    }

    public mutating func tag(_ key: UnsafeBufferPointer<UInt8>, number: Double) {
        scratch.removeAll()
        if number == number.rounded(.towardZero), number.magnitude <= VectorTileEncoder.largestWhole {
            if number >= 0 {
                scratch.varintField(5, UInt64(number))
            } else {
                scratch.varintField(6, _ProtobufWriter.zigzag(Int64(number)))
            }
        } else {
            scratch.fixed64Field(3, number.bitPattern)
        }
        addTag(key)
    }

    public mutating func tag(_ key: UnsafeBufferPointer<UInt8>, bool: Bool) {
        scratch.removeAll()
        scratch.varintField(7, bool ? 1 : 0)
        addTag(key)
    }

    private mutating func addTag(_ key: UnsafeBufferPointer<UInt8>) {
        guard open != nil else { return }
        let k = keys.number(of: key)
        let v = scratch.bytes.withUnsafeBufferPointer { values.number(of: $0) }
        tags.append(UInt32(k))
        tags.append(UInt32(v))
    }

    /// Writes the open feature into the layer.
    private mutating func flush() {
        guard let feature = open else { return }
        open = nil
        var body = _ProtobufWriter()
        if let id = feature.id { body.varintField(1, id) }
        if !tags.isEmpty {
            var packed = _ProtobufWriter()
            for t in tags { packed.varint(UInt64(t)) }
            body.bytesField(2, packed.bytes)
        }
        body.varintField(3, VectorTileEncoder.pointType)
        var geometry = _ProtobufWriter()
        geometry.varint(VectorTileEncoder.moveToOnce)
        geometry.varint(_ProtobufWriter.zigzag(Int64(feature.x)))
        geometry.varint(_ProtobufWriter.zigzag(Int64(feature.y)))
        body.bytesField(4, geometry.bytes)
        features.bytesField(2, body.bytes)
        tags.removeAll(keepingCapacity: true)
    }

    /// The tile: one layer holding the features so far, or no bytes at all when there are
    /// none (an empty tile).
    public mutating func finish() -> [UInt8] {
        flush()
        guard featureCount > 0 else { return [] }
        var layer = _ProtobufWriter()
        layer.varintField(15, VectorTileEncoder.version)
        layer.bytesField(1, name)
        layer.append(features.bytes)
        keys.storage.withUnsafeBufferPointer { all in
            for k in 0..<keys.count { layer.bytesField(3, UnsafeBufferPointer(rebasing: all[keys.range(k)])) }
        }
        values.storage.withUnsafeBufferPointer { all in
            for k in 0..<values.count { layer.bytesField(4, UnsafeBufferPointer(rebasing: all[values.range(k)])) }
        }
        layer.varintField(5, UInt64(extent))
        var tile = _ProtobufWriter()
        tile.bytesField(3, layer.bytes)
        return tile.bytes
    }
}
