/// How a marker competes for space with others (feature V4).
public enum CollisionBehavior: Int32 {
    /// Always shown; hides nothing (the default).
    case required = 0
    /// Always shown; hides the optional markers it overlaps.
    case requiredAndHidesOptional = 1
    /// Shown only if it overlaps no required-and-hiding marker and no optional marker that wins.
    case optionalAndHidesLowerPriority = 2
}

/// How a marker appears when added (feature M9). It plays once, never when clusters re-form.
public enum AppearAnimation: Int32 {
    case none = 0
    /// Scales up from the ground anchor.
    case pop = 1
    case fadeIn = 2
}

/// Everything the engine knows about one marker (features M1–M12, V3, V4), with Google's defaults.
/// Text, images and the app's own value stay with the host; the engine keeps whether a title
/// or snippet exists (an info window opens only then, I2) and an opaque user-data handle.
public struct MarkerProperties: Equatable {
    public var latitude: Double
    public var longitude: Double
    public var altitudeMode: AltitudeMode = .clampToGround
    /// Metres; used by `relativeToGround` and `absolute`.
    public var altitude = 0.0
    /// A registered icon, or `MarkerProperties.defaultPin`.
    public var icon: Int32 = MarkerProperties.defaultPin
    /// Point of the icon on the marker's position, in 0...1 of the icon (bottom centre).
    public var groundAnchorX = 0.5, groundAnchorY = 1.0
    /// Point of the icon the info window points at (top centre).
    public var infoWindowAnchorX = 0.5, infoWindowAnchorY = 0.0
    /// Degrees clockwise about the ground anchor; for a flat marker 0 is north.
    public var rotation = 0.0
    /// Lies on the ground: turns with the bearing and is foreshortened by tilt.
    public var flat = false
    public var opacity = 1.0
    public var zIndex = 0.0
    public var visible = true
    public var collision: CollisionBehavior = .required
    public var collisionPriority = 0.0
    public var appearAnimation: AppearAnimation = .none
    public var hasTitle = false
    public var hasSnippet = false
    /// The host draws its own info window for this marker (I7), so one opens without text.
    public var customInfoWindow = false
    /// An open window redraws as soon as the title or snippet changes (I6); otherwise it shows
    /// the old content until reopened.
    public var tracksInfoWindowChanges = false
    /// The host's handle for its own value (Google's `userData`), handed back in events.
    public var userData: Int64 = 0
    /// The building (0 for none) and the level on it: such a marker is drawn only while that
    /// level is shown (G4).
    public var indoorBuilding: Int32 = 0
    public var indoorLevel: Int32 = 0

    /// The icon number of the pin Cairn draws itself (feature M2).
    public static let defaultPin: Int32 = -1

    /// Every property at its default, and no position yet: a marker made from these is refused
    /// until it is given one. A host that gives only some properties gets these for the others.
    public static let defaults = MarkerProperties(latitude: .nan, longitude: .nan)

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Which property made a marker invalid, for the error's detail.
    public enum Field: Int32 {
        case position = 1, altitude, icon, groundAnchor, infoWindowAnchor, rotation, opacity, zIndex,
             collisionPriority, indoorLevel
    }

    /// The first invalid property: NaN or infinite numbers, a latitude beyond ±90°, an opacity
    /// outside 0...1, an icon number below -1.
    func invalidField() -> Field? {
        if !(latitude.isFinite && longitude.isFinite && latitude >= -90 && latitude <= 90) { return .position }
        if !altitude.isFinite { return .altitude }
        if icon < MarkerProperties.defaultPin { return .icon }
        if !(groundAnchorX.isFinite && groundAnchorY.isFinite) { return .groundAnchor }
        if !(infoWindowAnchorX.isFinite && infoWindowAnchorY.isFinite) { return .infoWindowAnchor }
        if !rotation.isFinite { return .rotation }
        if !(opacity >= 0 && opacity <= 1) { return .opacity }
        if !zIndex.isFinite { return .zIndex }
        if !collisionPriority.isFinite { return .collisionPriority }
        return nil
    }
}
