/// Where the index placed its points. The engine wraps longitudes into ±180° and clamps
/// latitudes to the square world's edge; a host that describes the data (a tile archive's
/// bounds) or hands points back as given asks here instead of repeating those rules.
extension HierarchicalClusterIndex {
    /// The bounds of the points as placed, in degrees; nil when there are none.
    public var placedBounds: (west: Double, south: Double, east: Double, north: Double)? {
        guard livePointCount > 0 else { return nil }
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        pointPositions.xy.withUnsafeBufferPointer { xy in
            var k = 0
            while k < xy.count {
                if isRemoved(k / 2) {
                    k += 2
                    continue
                }
                minX = Swift.min(minX, xy[k])
                maxX = Swift.max(maxX, xy[k])
                minY = Swift.min(minY, xy[k + 1])
                maxY = Swift.max(maxY, xy[k + 1])
                k += 2
            }
        }
        // World y grows southward.
        return (WebMercator.longitude(x: minX), WebMercator.latitude(y: maxY),
                WebMercator.longitude(x: maxX), WebMercator.latitude(y: minY))
    }

    /// Whether the engine places a point other than at the coordinates given.
    static func placesElsewhere(longitude: Double, latitude: Double) -> Bool {
        WebMercator.wrapLongitude(longitude) != longitude || WebMercator.clampLatitude(latitude) != latitude
    }
}
