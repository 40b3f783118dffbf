/// The 127-byte header of a PMTiles v3 archive. The layout of the sections is fixed here: the
/// root directory right after the header (the spec wants it inside the first 16 KiB), then the
/// metadata, the leaf directories and the tile data.
public struct PMTilesHeader {
    public static let size = 127
    /// Compression codes of the spec.
    public static let gzip: UInt8 = 2
    /// Tile type code of Mapbox Vector Tiles.
    public static let mvt: UInt8 = 1
    /// Room for the header and root directory together.
    public static let firstReadSize = 16_384

    public var rootLength: UInt64 = 0
    public var metadataLength: UInt64 = 0
    public var leavesLength: UInt64 = 0
    public var dataLength: UInt64 = 0
    public var addressedTiles: UInt64 = 0
    public var entries: UInt64 = 0
    public var contents: UInt64 = 0
    public var minZoom: UInt8 = 0
    public var maxZoom: UInt8 = 0
    /// west, south, east, north in degrees.
    public var bounds: (Double, Double, Double, Double) = (-180, -85.05112878, 180, 85.05112878)
    public var centerZoom: UInt8 = 0
    public var center: (lng: Double, lat: Double) = (0, 0)

    public init() {}

    /// The header, with the directory's counts and data length.
    public init(directory: PMTilesDirectory) {
        dataLength = directory.dataLength
        addressedTiles = directory.addressedTiles
        entries = UInt64(directory.entryCount)
        contents = UInt64(directory.contentCount)
    }

    public func serialize() throws(CairnError) -> [UInt8] {
        guard UInt64(PMTilesHeader.size) + rootLength <= UInt64(PMTilesHeader.firstReadSize), minZoom <= maxZoom,
              centerZoom >= minZoom, centerZoom <= maxZoom else { throw .invalidArgument }
        var out: [UInt8] = [0x50, 0x4D, 0x54, 0x69, 0x6C, 0x65, 0x73, 3]   // "PMTiles", version 3
        func u64(_ v: UInt64) { for k in 0..<8 { out.append(UInt8(truncatingIfNeeded: v >> UInt64(8 * k))) } }
        func e7(_ degrees: Double) throws(CairnError) {
            guard degrees.isFinite, degrees.magnitude <= 180 else { throw .invalidArgument }
            let v = Int32((degrees * 10_000_000).rounded())
            for k in 0..<4 { out.append(UInt8(truncatingIfNeeded: v >> Int32(8 * k))) }
        }
        let rootOffset = UInt64(PMTilesHeader.size)
        let metadataOffset = rootOffset + rootLength
        let leavesOffset = metadataOffset + metadataLength
        let dataOffset = leavesOffset + leavesLength
        u64(rootOffset); u64(rootLength)
        u64(metadataOffset); u64(metadataLength)
        u64(leavesOffset); u64(leavesLength)
        u64(dataOffset); u64(dataLength)
        u64(addressedTiles); u64(entries); u64(contents)
        // Clustered: the tile data is in tile id order (the host adds tiles in that order).
        out.append(1)
        out.append(PMTilesHeader.gzip)
        out.append(PMTilesHeader.gzip)
        out.append(PMTilesHeader.mvt)
        out.append(minZoom)
        out.append(maxZoom)
        try e7(bounds.0); try e7(bounds.1); try e7(bounds.2); try e7(bounds.3)
        out.append(centerZoom)
        try e7(center.lng); try e7(center.lat)
        return out
    }
}
