/// Insets from the edges of the view, in CSS pixels (feature G5). Padding moves the camera's
/// centre and the controls away from the edges; the map still draws under it.
public struct EdgeInsets: Equatable {
    public var top: Double
    public var left: Double
    public var bottom: Double
    public var right: Double

    public static let zero = EdgeInsets(top: 0, left: 0, bottom: 0, right: 0)

    public init(top: Double, left: Double, bottom: Double, right: Double) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }
}

/// The size of the map view in CSS pixels and its padding.
public struct Viewport: Equatable {
    public var width: Double
    public var height: Double
    public var padding: EdgeInsets

    /// Views larger than this are surely a unit mistake (device pixels squared, metres…).
    public static let maximumSide = 100_000.0

    public init(width: Double, height: Double, padding: EdgeInsets = .zero) {
        self.width = width
        self.height = height
        self.padding = padding
    }

    /// A viewport with a positive finite size, and finite, non-negative padding that leaves
    /// some of the view uncovered in each direction.
    func validated() throws(CairnError) -> Viewport {
        let p = padding
        guard width.isFinite, height.isFinite, width >= 1, height >= 1,
              width <= Viewport.maximumSide, height <= Viewport.maximumSide,
              p.top.isFinite, p.left.isFinite, p.bottom.isFinite, p.right.isFinite,
              p.top >= 0, p.left >= 0, p.bottom >= 0, p.right >= 0,
              p.left + p.right < width, p.top + p.bottom < height
        else { throw .invalidArgument }
        return self
    }

    /// The screen point the camera target appears at: the centre of the padded area.
    var centerX: Double { padding.left + (width - padding.left - padding.right) / 2 }
    var centerY: Double { padding.top + (height - padding.top - padding.bottom) / 2 }
}
