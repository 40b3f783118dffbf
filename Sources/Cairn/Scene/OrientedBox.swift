/// A rectangle on screen turned by an angle: how a marker's icon covers the screen. Used for
/// collisions (two boxes overlap) and hit-testing (a point lies inside, with a tolerance).
public struct OrientedBox: Equatable {
    /// Centre of the box.
    public var centerX: Double, centerY: Double
    /// Half the width and height, before turning.
    public var halfWidth: Double, halfHeight: Double
    /// cos and sin of the clockwise turn on screen.
    public var cos: Double, sin: Double

    public init(centerX: Double, centerY: Double, halfWidth: Double, halfHeight: Double, cos: Double = 1, sin: Double = 0) {
        self.centerX = centerX
        self.centerY = centerY
        self.halfWidth = halfWidth
        self.halfHeight = halfHeight
        self.cos = cos
        self.sin = sin
    }

    /// The axis-aligned box around it.
    public var bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double) {
        let ex = abs(halfWidth * cos) + abs(halfHeight * sin)
        let ey = abs(halfWidth * sin) + abs(halfHeight * cos)
        return (centerX - ex, centerY - ey, centerX + ex, centerY + ey)
    }

    /// Whether a point lies inside, or within `tolerance` pixels of the box.
    public func contains(x: Double, y: Double, tolerance: Double = 0) -> Bool {
        let dx = x - centerX, dy = y - centerY
        // Into the box's own axes (turned back).
        let u = dx * cos + dy * sin
        let v = -dx * sin + dy * cos
        return abs(u) <= halfWidth + tolerance && abs(v) <= halfHeight + tolerance
    }

    /// Whether two boxes overlap (separating axes: the two axes of each box). Touching edges
    /// do not count.
    public func overlaps(_ other: OrientedBox) -> Bool {
        let dx = other.centerX - centerX, dy = other.centerY - centerY
        // The four axes one by one: an array of them would be allocated on every call, and
        // collisions call this for every pair of neighbours every frame.
        return !separates(cos, sin, dx, dy, other) && !separates(-sin, cos, dx, dy, other)
            && !separates(other.cos, other.sin, dx, dy, other) && !separates(-other.sin, other.cos, dx, dy, other)
    }

    /// Whether the axis (ax, ay) separates this box from `other`, whose centre is (dx, dy) away.
    @inline(__always)
    private func separates(_ ax: Double, _ ay: Double, _ dx: Double, _ dy: Double, _ other: OrientedBox) -> Bool {
        let distance = abs(dx * ax + dy * ay)
        let r1 = abs(halfWidth * (cos * ax + sin * ay)) + abs(halfHeight * (-sin * ax + cos * ay))
        let r2 = abs(other.halfWidth * (other.cos * ax + other.sin * ay))
            + abs(other.halfHeight * (-other.sin * ax + other.cos * ay))
        return distance >= r1 + r2
    }
}
