/// PMTiles v3 tile ids: every tile of zooms below z comes first (4^0 + … + 4^(z-1) of them), then
/// zoom z's tiles along a Hilbert curve, so that tiles near each other on the map are near each
/// other in the archive.
public enum HilbertTileID {
    /// The id of tile z/x/y (z up to 31; x, y inside 0..<2^z).
    public static func id(z: Int, x: UInt32, y: UInt32) -> UInt64 {
        var base: UInt64 = 0
        for level in 0..<z { base += UInt64(1) << UInt64(2 * level) }
        let n = UInt64(1) << UInt64(z)
        var px = UInt64(x)
        var py = UInt64(y)
        var d: UInt64 = 0
        var s = n >> 1
        while s > 0 {
            let rx: UInt64 = (px & s) != 0 ? 1 : 0
            let ry: UInt64 = (py & s) != 0 ? 1 : 0
            d += s * s * ((3 * rx) ^ ry)
            // Rotate the quadrant so the curve's pieces join end to end.
            if ry == 0 {
                if rx == 1 {
                    px = n - 1 - px
                    py = n - 1 - py
                }
                let t = px
                px = py
                py = t
            }
            s >>= 1
        }
        return base + d
    }

    /// Sorts `count` tiles of zoom z, given as x, y pairs, into tile id order.
    public static func sort(z: Int, pairs: UnsafeMutableBufferPointer<UInt32>, count: Int) {
        guard count > 1 else { return }
        var keys = [UInt64](repeating: 0, count: count)
        var order = [UInt32](repeating: 0, count: count)
        for k in 0..<count {
            keys[k] = id(z: z, x: pairs[2 * k], y: pairs[2 * k + 1])
            order[k] = UInt32(k)
        }
        RadixSort.sort(keys: &keys, values: &order, count: count)
        let copy = Array(pairs[0..<(2 * count)])
        for k in 0..<count {
            pairs[2 * k] = copy[2 * Int(order[k])]
            pairs[2 * k + 1] = copy[2 * Int(order[k]) + 1]
        }
    }
}
