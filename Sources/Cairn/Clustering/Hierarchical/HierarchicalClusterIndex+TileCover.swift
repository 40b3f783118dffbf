/// Which tiles of a zoom are worth asking for. A tile shows the items inside it and within its
/// padding, and the tiles at x = 0 and x = 2^z − 1 show those across the antimeridian (see
/// `forEachTileFeature`), so the tiles around each item visible at the zoom are all that can
/// hold something: a tile pyramid costs its items and its non-empty tiles, never 4^z queries.
/// The cover is generous by a float32 rounding of a position (a tile it lists may turn out
/// empty), and never leaves out a tile that is not.
extension HierarchicalClusterIndex {
    /// The order of a tile cover: by column then row, or by PMTiles tile id (a Hilbert curve).
    public enum TileOrder: Sendable {
        case columns
        case tileID
    }

    /// The tiles of zoom `z` that may hold a feature, with the padding `forEachTileFeature`
    /// gives for the same `tileExtent` and `buffer`, as x, y pairs, each tile once.
    public func tileCover(z: Int, tileExtent: Double? = nil, buffer: Double? = nil,
                          order: TileOrder = .columns) throws(CairnError) -> [UInt32] {
        let padding = try tileScaleAndPadding(z: z, tileExtent: tileExtent, buffer: buffer).padding
        let zoom = try limitZoom(Double(z))
        let size = 1 << z
        let side = Double(size)
        // Items are found in the zoom's grid by float32 positions: a tile within a float32
        // rounding of a position may be one the tile query finds it in.
        let margin = padding + side * 0x1p-22 + 1e-9
        var keys: [UInt64] = []
        forEachItem(minX: 0, minY: 0, maxX: 1, maxY: 1, zoom: zoom) { item in
            let pos = reportedPosition(item)
            let x = pos.x * side, y = pos.y * side
            let firstRow = Swift.max(0, Int(_floor(y - margin)))
            let lastRow = Swift.min(size - 1, Int(_floor(y + margin)))
            guard firstRow <= lastRow else { return }
            let lastColumn = Int(_floor(x + margin))
            var column = Int(_floor(x - margin))
            while column <= lastColumn {
                let wrapped = UInt64((column % size + size) % size)
                for row in firstRow...lastRow { keys.append(wrapped << 32 | UInt64(row)) }
                column += 1
            }
        }
        var values = [UInt32](repeating: 0, count: keys.count)
        RadixSort.sort(keys: &keys, values: &values, count: keys.count)
        var pairs: [UInt32] = []
        pairs.reserveCapacity(2 * keys.count)
        var last = UInt64.max
        for key in keys where key != last {
            pairs.append(UInt32(truncatingIfNeeded: key >> 32))
            pairs.append(UInt32(truncatingIfNeeded: key))
            last = key
        }
        if order == .tileID {
            pairs.withUnsafeMutableBufferPointer { HilbertTileID.sort(z: z, pairs: $0, count: $0.count / 2) }
        }
        return pairs
    }
}
