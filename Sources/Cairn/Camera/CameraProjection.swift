/// The transform between the ground (world coordinates, optionally with an altitude) and the
/// screen (CSS pixels from the top-left of the view) for one camera and viewport.
///
/// The model: the map is a plane scaled to `256 × 2^zoom` pixels per world unit and rotated by
/// the bearing about the target; a pinhole camera hangs above the target at `distance` pixels,
/// tilted about the screen's horizontal axis, and projects onto the screen with the target at
/// the centre of the padded area. With tilt 0 this is exactly the flat 2D map. The vertical
/// field of view is fixed (tan(fov/2) = 1/3, about 36.9°), so `distance = 1.5 × height`.
public struct CameraProjection {
    public let viewport: Viewport
    /// The camera target in world coordinates (x in 0..<1).
    public let targetX: Double
    public let targetY: Double
    public let zoom: Double
    public let bearing: Double
    public let tilt: Double
    /// Pixels per world unit: 256 × 2^zoom.
    public let worldSize: Double
    /// Distance from the camera to the target, in pixels.
    public let distance: Double
    let cosBearing: Double, sinBearing: Double
    let cosTilt: Double, sinTilt: Double
    let centerX: Double, centerY: Double

    /// 1 / tan(half the vertical field of view).
    static let focalRatio = 1.5

    init(_ camera: _WorldCamera, _ viewport: Viewport) {
        self.viewport = viewport
        targetX = camera.x
        targetY = camera.y
        zoom = camera.zoom
        bearing = camera.bearing
        tilt = camera.tilt
        worldSize = 256 * _exp2(camera.zoom)
        distance = CameraProjection.focalRatio * viewport.height
        let b = camera.bearing * Double.pi / 180, t = camera.tilt * Double.pi / 180
        cosBearing = _cos(b)
        sinBearing = _sin(b)
        cosTilt = _cos(t)
        sinTilt = _sin(t)
        centerX = viewport.centerX
        centerY = viewport.centerY
    }

    /// The camera as a position.
    public var position: CameraPosition {
        _WorldCamera(x: targetX, y: targetY, zoom: zoom, bearing: bearing, tilt: tilt).position
    }

    // MARK: Ground → screen

    /// The screen point of a world point `altitude` pixels above the ground, taking the copy
    /// of the world that is nearest the target (the world repeats east-west), or the `copy`th
    /// copy east (west when negative) of that one. Nil when the point is behind the camera.
    public func screenPoint(worldX: Double, worldY: Double, altitude: Double = 0, copy: Int = 0) -> (x: Double, y: Double)? {
        var dx = worldX - targetX
        dx -= _floor(dx + 0.5)
        dx += Double(copy)
        return screenPoint(offsetX: dx * worldSize, offsetY: (worldY - targetY) * worldSize, altitude: altitude)
    }

    /// How many copies of the world east and west of the one nearest the target may hold a
    /// point within `margin` pixels of the view: 0 unless the view and its margins are wider
    /// than the world (the lowest zooms), where what is on the map shows on every copy. At most
    /// `maxWorldCopies`: a view many worlds wide shows the nearest ones.
    public func worldCopiesEachSide(margin: Double) -> Int {
        let b = visibleRegion.worldBounds(expandedBy: margin / worldSize)
        let reach = Swift.max(targetX - b.minX, b.maxX - targetX)
        return reach <= 0.5 ? 0 : Int(Swift.min(_ceil(reach - 0.5), Double(CameraProjection.maxWorldCopies)))
    }

    /// Copies of the world drawn on each side at most (a 4K view at zoom 0 shows about 8).
    public static let maxWorldCopies = 8

    /// The screen point of a world point without choosing a copy of the world: x = 1.25 is a
    /// quarter of the way across the copy east of the main one.
    public func screenPointUnwrapped(worldX: Double, worldY: Double, altitude: Double = 0) -> (x: Double, y: Double)? {
        screenPoint(offsetX: (worldX - targetX) * worldSize, offsetY: (worldY - targetY) * worldSize,
                    altitude: altitude)
    }

    /// The screen point of a longitude/latitude (nearest copy of the world).
    public func screenPoint(latitude: Double, longitude: Double, altitude: Double = 0) -> (x: Double, y: Double)? {
        screenPoint(worldX: WebMercator.x(longitude: WebMercator.wrapLongitude(longitude)),
                    worldY: WebMercator.y(latitude: WebMercator.clampLatitude(latitude)), altitude: altitude)
    }

    /// Offsets are map pixels east and south of the target, before rotation. With
    /// `clampingDepth`, a point behind the camera is pushed just in front of it instead of
    /// having no position (tile corners, which must stay finite).
    func screenPoint(offsetX: Double, offsetY: Double, altitude: Double,
                     clampingDepth: Bool = false) -> (x: Double, y: Double)? {
        let sx = offsetX * cosBearing + offsetY * sinBearing
        let sy = offsetY * cosBearing - offsetX * sinBearing
        var depth = distance - sy * sinTilt - altitude * cosTilt
        if clampingDepth {
            depth = Swift.max(depth, distance * 1e-3)
        } else {
            guard depth > distance * 1e-6 else { return nil }
        }
        let k = distance / depth
        return (centerX + sx * k, centerY + (sy * cosTilt - altitude * sinTilt) * k)
    }

    // MARK: Screen → ground

    /// The world point on the ground under a screen point, not wrapped (x may leave 0..<1 when
    /// the view shows another copy of the world) and not clamped in y. Nil above the horizon.
    public func worldPoint(screenX: Double, screenY: Double) -> (x: Double, y: Double)? {
        guard let (sx, sy) = groundOffset(screenX: screenX, screenY: screenY) else { return nil }
        let dx = sx * cosBearing - sy * sinBearing
        let dy = sx * sinBearing + sy * cosBearing
        return (targetX + dx / worldSize, targetY + dy / worldSize)
    }

    /// The longitude/latitude under a screen point (longitude wrapped, latitude clamped).
    public func coordinate(screenX: Double, screenY: Double) -> (latitude: Double, longitude: Double)? {
        guard let (x, y) = worldPoint(screenX: screenX, screenY: screenY) else { return nil }
        return (WebMercator.latitude(y: y < 0 ? 0 : (y > 1 ? 1 : y)),
                WebMercator.wrapLongitude(WebMercator.longitude(x: x)))
    }

    /// Rotated ground offset (pixels right of and below the target, on the ground plane) under
    /// a screen point: the inverse of `screenPoint(offsetX:offsetY:altitude: 0)`.
    func groundOffset(screenX: Double, screenY: Double) -> (Double, Double)? {
        let ux = screenX - centerX, uy = screenY - centerY
        let den = distance * cosTilt + uy * sinTilt
        guard den > distance * 1e-6 else { return nil }
        let sy = uy * distance / den
        let depth = distance - sy * sinTilt
        return (ux * depth / distance, sy)
    }

    /// The screen y of the horizon (the ground at infinite distance); -infinity with no tilt.
    public var horizonY: Double {
        sinTilt <= 0 ? -Double.infinity : centerY - distance * cosTilt / sinTilt
    }

    // MARK: Altitude

    /// Pixels per metre on the ground at a world y, at this zoom.
    public func pixelsPerMeter(worldY: Double) -> Double {
        let latitude = WebMercator.latitude(y: worldY) * Double.pi / 180
        return worldSize / (_cos(latitude) * CameraProjection.earthCircumference)
    }

    /// The equator's length in metres on the WGS 84 sphere that Web Mercator uses.
    public static let earthCircumference = 2 * Double.pi * 6_378_137.0
}
