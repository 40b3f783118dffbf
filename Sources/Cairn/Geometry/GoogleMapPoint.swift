/// Google's map points (the Maps SDK's `GMSMapPoint`, what its utility library clusters in):
/// the world as the square [-1, 1] × [-1, 1], x growing east from -1 at -180° (`longitude / 180`),
/// y growing north from 0 at the equator to 1 at about 85.0511° N, not clamped (beyond it |y| > 1,
/// infinite at the poles). The screen-space algorithms compute in these units so that their
/// rounding, and so every exact tie, falls as Google's does; `WebMercator`'s unit square rounds
/// differently (its x is shifted by 0.5).
public enum GoogleMapPoint {
    /// x of a longitude in -180...180.
    @inline(__always)
    public static func x(longitude: Double) -> Double {
        longitude / 180
    }

    /// y of a latitude: the Mercator northing over π (the same formula as `WebMercator.y`, unclamped).
    @inline(__always)
    public static func y(latitude: Double) -> Double {
        let s = _sin(latitude * Double.pi / 180)
        return 0.5 * _log((1 + s) / (1 - s)) / Double.pi
    }

    /// Whether a point lies on Google's map, the square its quadtree holds: latitudes beyond
    /// ±85.0511° do not.
    @inline(__always)
    static func isOnMap(x: Double, y: Double) -> Bool {
        x >= -1 && x <= 1 && y >= -1 && y <= 1
    }

    /// World x (`WebMercator`'s unit square) of a map point's x, folded into 0...1.
    static func worldX(_ x: Double) -> Double {
        var w = (x + 1) / 2
        if w > 1 { w -= 1 }
        if w < 0 { w += 1 }
        return w
    }

    /// World y of a map point's y, clamped to the map.
    static func worldY(_ y: Double) -> Double {
        let w = (1 - y) / 2
        return w < 0 ? 0 : (w > 1 ? 1 : w)
    }
}
