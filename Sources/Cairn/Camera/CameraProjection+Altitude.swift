/// How a marker's altitude is measured (feature V3, Google's `AltitudeMode`).
public enum AltitudeMode: Int32 {
    /// On the ground whatever the altitude says (the default).
    case clampToGround = 0
    /// Metres above the ground under the marker.
    case relativeToGround = 1
    /// Metres above sea level.
    case absolute = 2
}

extension CameraProjection {
    /// The screen point of a marker at a longitude/latitude with an altitude in metres. The
    /// engine has no terrain: the ground is at sea level everywhere, so `relativeToGround` and
    /// `absolute` place a marker at the same height, and a negative altitude would sink it below
    /// the map, so it is drawn on the ground instead. Nil when behind the camera.
    public func screenPoint(latitude: Double, longitude: Double, altitude: Double,
                            mode: AltitudeMode) -> (x: Double, y: Double)? {
        let wy = WebMercator.y(latitude: WebMercator.clampLatitude(latitude))
        let wx = WebMercator.x(longitude: WebMercator.wrapLongitude(longitude))
        let meters = mode == .clampToGround || !(altitude > 0) || !altitude.isFinite ? 0 : altitude
        return screenPoint(worldX: wx, worldY: wy, altitude: meters * pixelsPerMeter(worldY: wy))
    }
}
