/// A building with floors (feature G4): its footprint on the ground and its levels, counted from
/// the top as Google lists them (level 0 is the highest), and the level shown, which starts at
/// the default one.
public struct IndoorBuilding: Equatable {
    /// The footprint's corners in world coordinates, as one ring (longitudes unwrapped next to
    /// the first corner, so a footprint across the antimeridian stays in one piece).
    let cornersX: [Double], cornersY: [Double]
    public let levelCount: Int
    public let defaultLevel: Int
    public internal(set) var activeLevel: Int

    /// At most this many levels.
    public static let maximumLevels = 256
    /// At most this many corners.
    public static let maximumCorners = 4096

    /// A footprint of at least three corners (latitude, longitude pairs in order around it), and
    /// the level shown first (nil: the top one, as Google's).
    public init(latitudes: [Double], longitudes: [Double], levelCount: Int, defaultLevel: Int? = nil) throws(CairnError) {
        let defaultLevel = defaultLevel ?? 0
        let n = latitudes.count
        guard n == longitudes.count, n >= 3, n <= IndoorBuilding.maximumCorners,
              levelCount >= 1, levelCount <= IndoorBuilding.maximumLevels, defaultLevel >= 0, defaultLevel < levelCount
        else { throw .invalidArgument }
        var xs: [Double] = [], ys: [Double] = []
        for i in 0..<n {
            let lat = latitudes[i], lng = longitudes[i]
            guard lat.isFinite, lng.isFinite else { throw .nonFiniteCoordinate(index: i) }
            guard lat >= -90, lat <= 90 else { throw .latitudeOutOfRange(index: i) }
            var x = WebMercator.x(longitude: WebMercator.wrapLongitude(lng))
            if i > 0 { x = _nearestCopy(x, to: xs[0]) }
            xs.append(x)
            ys.append(WebMercator.y(latitude: lat))
        }
        cornersX = xs
        cornersY = ys
        self.levelCount = levelCount
        self.defaultLevel = defaultLevel
        activeLevel = defaultLevel
    }

    /// Whether a world point lies inside the footprint (even-odd rule).
    func contains(x: Double, y: Double) -> Bool {
        let px = _nearestCopy(x, to: cornersX[0])
        var inside = false
        var j = cornersX.count - 1
        for i in 0..<cornersX.count {
            let yi = cornersY[i], yj = cornersY[j]
            if (yi > y) != (yj > y) {
                let cross = cornersX[i] + (y - yi) / (yj - yi) * (cornersX[j] - cornersX[i])
                if px < cross { inside.toggle() }
            }
            j = i
        }
        return inside
    }
}

/// The copy of world x (one world apart from the next) nearest to `reference`.
func _nearestCopy(_ x: Double, to reference: Double) -> Double {
    if x - reference > 0.5 { return x - 1 }
    if reference - x > 0.5 { return x + 1 }
    return x
}
