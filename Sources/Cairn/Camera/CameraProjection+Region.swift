/// The part of the ground the view shows (Google's `visibleRegion`): four corners, a
/// trapezoid when tilted, and its bounding box.
public struct VisibleRegion: Equatable {
    /// Corners in world coordinates, not wrapped: the bottom of the screen is near, the top far.
    public var nearLeft: (x: Double, y: Double)
    public var nearRight: (x: Double, y: Double)
    public var farRight: (x: Double, y: Double)
    public var farLeft: (x: Double, y: Double)

    public static func == (a: VisibleRegion, b: VisibleRegion) -> Bool {
        a.nearLeft == b.nearLeft && a.nearRight == b.nearRight && a.farRight == b.farRight && a.farLeft == b.farLeft
    }

    /// The corners in drawing order (near-left, near-right, far-right, far-left).
    public var corners: [(x: Double, y: Double)] { [nearLeft, nearRight, farRight, farLeft] }

    /// The bounding box in world coordinates: x not wrapped (may leave 0..<1), y clamped to 0...1.
    public var worldBounds: (minX: Double, minY: Double, maxX: Double, maxY: Double) { worldBounds(expandedBy: 0) }

    /// The bounding box grown by `d` world units on every side, then clamped as `worldBounds`.
    func worldBounds(expandedBy d: Double) -> (minX: Double, minY: Double, maxX: Double, maxY: Double) {
        var minX = nearLeft.x, maxX = nearLeft.x, minY = nearLeft.y, maxY = nearLeft.y
        for c in [nearRight, farRight, farLeft] {
            minX = c.x < minX ? c.x : minX
            maxX = c.x > maxX ? c.x : maxX
            minY = c.y < minY ? c.y : minY
            maxY = c.y > maxY ? c.y : maxY
        }
        minX -= d; maxX += d; minY -= d; maxY += d
        return (minX, minY < 0 ? 0 : (minY > 1 ? 1 : minY), maxX, maxY < 0 ? 0 : (maxY > 1 ? 1 : maxY))
    }

    /// The bounding box in degrees, in the form `getClusters` takes: west may be greater than
    /// east when the view crosses the antimeridian; a view of the whole world is -180...180.
    public var bounds: (west: Double, south: Double, east: Double, north: Double) { bounds(expandedBy: 0) }

    /// `bounds` grown by `d` world units on every side.
    public func bounds(expandedBy d: Double) -> (west: Double, south: Double, east: Double, north: Double) {
        let b = worldBounds(expandedBy: d)
        let south = WebMercator.latitude(y: b.maxY), north = WebMercator.latitude(y: b.minY)
        if b.maxX - b.minX >= 1 { return (-180, south, 180, north) }
        return (WebMercator.wrapLongitude(WebMercator.longitude(x: b.minX)), south,
                WebMercator.wrapLongitude(WebMercator.longitude(x: b.maxX)), north)
    }
}

extension CameraProjection {
    /// How far beyond the target the view is cut off, as a multiple of the camera distance.
    /// A tilted view with padding could otherwise reach to the horizon (infinitely many tiles).
    static let farLimit = 3.0

    /// The screen y above which nothing is drawn: the top of the view, or lower when the view
    /// would otherwise reach past `farLimit`.
    public var farClipY: Double {
        let f = CameraProjection.farLimit * distance
        let uy = -f * distance * cosTilt / (distance + f * sinTilt)
        let y = centerY + uy
        return y > 0 ? y : 0
    }

    /// The ground the whole view shows (padding included: the map draws under it).
    public var visibleRegion: VisibleRegion {
        let top = farClipY, w = viewport.width, h = viewport.height
        // Below the far clip every screen point hits the ground, so these are never nil.
        func ground(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
            worldPoint(screenX: x, screenY: y) ?? (targetX, targetY)
        }
        return VisibleRegion(nearLeft: ground(0, h), nearRight: ground(w, h),
                             farRight: ground(w, top), farLeft: ground(0, top))
    }
}
