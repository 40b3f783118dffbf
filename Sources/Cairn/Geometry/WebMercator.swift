/// Web Mercator projection between longitude/latitude in degrees and "world" coordinates,
/// where the whole map is the unit square: x grows east from 0 at -180°, y grows south from 0
/// at about 85.0511° N. This is the convention of supercluster and of 256-px map tiles
/// (tile pixel = world × 256 × 2^zoom), and the formulas are kept operation for operation the
/// same as supercluster's so that the float32 rounding of positions matches it exactly.
public enum WebMercator {
    /// Latitude beyond which Web Mercator is cut off (the map is square).
    public static let maxLatitude = 85.0511287798066

    /// World x of a longitude. Not wrapped: pass a longitude in -180...180.
    @inline(__always)
    public static func x(longitude: Double) -> Double {
        longitude / 360 + 0.5
    }

    /// World y of a latitude, clamped to the map (0 at the north edge, 1 at the south).
    @inline(__always)
    public static func y(latitude: Double) -> Double {
        let s = _sin(latitude * Double.pi / 180)
        let y = 0.5 - 0.25 * _log((1 + s) / (1 - s)) / Double.pi
        return y < 0 ? 0 : (y > 1 ? 1 : y)
    }

    /// Longitude of a world x.
    @inline(__always)
    public static func longitude(x: Double) -> Double {
        (x - 0.5) * 360
    }

    /// Latitude of a world y.
    @inline(__always)
    public static func latitude(y: Double) -> Double {
        let y2 = (180 - y * 360) * Double.pi / 180
        return 360 * _atan(_exp(y2)) / Double.pi - 90
    }

    /// `latitude(y:)` for results written by the thousand (a query's): within the map from a
    /// table of polynomials (`_LatitudeTable`), the same at the equator and the map's edges and
    /// within about 1.3e-13° elsewhere, at a fraction of the cost. The camera keeps the formula.
    @inline(__always)
    static func tabulatedLatitude(y: Double) -> Double {
        y >= 0 && y <= 1 ? _latitudeTable.latitude(y) : latitude(y: y)
    }

    /// A longitude folded into -180...180 (180 stays 180, 540 becomes 180, -190 becomes 170).
    public static func wrapLongitude(_ longitude: Double) -> Double {
        if longitude >= -180 && longitude <= 180 { return longitude }
        return _fmod(_fmod(longitude + 180, 360) + 360, 360) - 180
    }

    /// A latitude clamped to the Web Mercator limit, for display.
    public static func clampLatitude(_ latitude: Double) -> Double {
        latitude < -maxLatitude ? -maxLatitude : (latitude > maxLatitude ? maxLatitude : latitude)
    }
}
