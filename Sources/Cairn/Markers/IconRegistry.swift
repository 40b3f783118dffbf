/// The icons the host registered (feature M3): each is an image the host decodes and draws once
/// per source; the engine needs only its size in CSS pixels, the transparent padding that does
/// not count for anchoring and hit-testing (alignment insets), and a default ground anchor.
public struct Icon: Equatable {
    public var width: Double
    public var height: Double
    public var insets: EdgeInsets
    public var anchorX: Double
    public var anchorY: Double

    public init(width: Double, height: Double, insets: EdgeInsets = .zero, anchorX: Double = 0.5, anchorY: Double = 1) {
        self.width = width
        self.height = height
        self.insets = insets
        self.anchorX = anchorX
        self.anchorY = anchorY
    }

    /// The box that counts (the image minus its insets), in pixels from the image's top-left.
    public var contentBox: (minX: Double, minY: Double, maxX: Double, maxY: Double) {
        (insets.left, insets.top, width - insets.right, height - insets.bottom)
    }

    /// A point given in 0…1 of the content box (an anchor), in 0…1 of the whole image: where the
    /// host's image is pinned to the item's screen point.
    public func imageFraction(x: Double, y: Double) -> (x: Double, y: Double) {
        let c = contentBox
        return ((c.minX + x * (c.maxX - c.minX)) / width, (c.minY + y * (c.maxY - c.minY)) / height)
    }
}

public struct IconRegistry {
    public private(set) var icons: [Icon] = []
    /// The longest side of any icon registered, in pixels (0 before the first).
    public private(set) var longestSide = 0.0

    /// Icons larger than this are surely a unit mistake.
    public static let maximumSide = 4096.0

    public init() {}

    /// Registers an icon; returns its number. Sizes must be positive and finite, insets leave
    /// some of the image, the anchor is finite.
    public mutating func register(_ icon: Icon) throws(CairnError) -> Int32 {
        let i = icon.insets
        guard icon.width.isFinite, icon.height.isFinite, icon.width > 0, icon.height > 0,
              icon.width <= IconRegistry.maximumSide, icon.height <= IconRegistry.maximumSide,
              i.top >= 0, i.left >= 0, i.bottom >= 0, i.right >= 0,
              i.left + i.right < icon.width, i.top + i.bottom < icon.height,
              icon.anchorX.isFinite, icon.anchorY.isFinite
        else { throw .invalidArgument }
        guard icons.count < Int(Int32.max) else { throw .tooManyIcons(limit: Int(Int32.max)) }
        icons.append(icon)
        longestSide = Swift.max(longestSide, icon.width, icon.height)
        return Int32(icons.count - 1)
    }

    public func icon(_ number: Int32) -> Icon? {
        number >= 0 && Int(number) < icons.count ? icons[Int(number)] : nil
    }

    /// The icon a marker or item with this number is drawn with: its own, or the default pin.
    func iconOrPin(_ number: Int32) -> Icon {
        icon(number) ?? Icon(width: DefaultPin.width, height: DefaultPin.height)
    }
}
