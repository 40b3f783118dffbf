/// Where the map's buttons sit: square buttons of `size` pixels, `margin` pixels inside the
/// padded edges of the view (feature G5: padding moves the controls). Taps within `tolerance`
/// pixels of a button still hit it.
public enum ControlLayout {
    public static let size = 40.0
    public static let margin = 12.0
    public static let tolerance = 4.0

    /// Centre of the compass: top right.
    static func compassCenter(_ v: Viewport) -> (x: Double, y: Double) {
        (v.width - v.padding.right - margin - size / 2, v.padding.top + margin + size / 2)
    }

    /// Centre of the my-location button: bottom right.
    static func myLocationCenter(_ v: Viewport) -> (x: Double, y: Double) {
        (v.width - v.padding.right - margin - size / 2, v.height - v.padding.bottom - margin - size / 2)
    }

    static func hits(_ center: (x: Double, y: Double), x: Double, y: Double) -> Bool {
        let half = size / 2 + tolerance
        return x >= center.x - half && x <= center.x + half && y >= center.y - half && y <= center.y + half
    }
}

/// The controls a tap can land on: the compass, the my-location button, a level's button on
/// the floor picker (G4), for the building it showed when the finger went down.
public enum MapControl: Equatable {
    case compass
    case myLocationButton
    case level(building: Int32, level: Int)
}
