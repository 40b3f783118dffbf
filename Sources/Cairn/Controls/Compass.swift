/// The compass's life cycle (feature G2): shown at full opacity while the bearing is not 0;
/// when the bearing returns to 0 it fades out over `fadeDuration`; a tap animates the bearing
/// to 0. It cannot be forced visible at bearing 0.
public struct Compass {
    /// When the fade-out began, or nil while the bearing is not 0 or the fade is done.
    var fadeStart: Double?
    /// Whether the compass was visible at the last update (so a fade starts only after it was).
    var wasShown = false
    public private(set) var opacity = 0.0
    /// Degrees to rotate the needle so it points north on screen.
    public private(set) var rotation = 0.0

    public static let fadeDuration = 0.25

    /// Brings the state up to `time` for the current bearing.
    mutating func update(bearing: Double, enabled: Bool, time: Double) {
        rotation = bearing == 0 ? 0 : -bearing
        guard enabled else {
            opacity = 0
            wasShown = false
            fadeStart = nil
            return
        }
        if bearing != 0 {
            opacity = 1
            wasShown = true
            fadeStart = nil
            return
        }
        if wasShown {
            wasShown = false
            fadeStart = time
        }
        if let start = fadeStart {
            let f = (time - start) / Compass.fadeDuration
            opacity = f >= 1 ? 0 : 1 - f
            if f >= 1 { fadeStart = nil }
        } else {
            opacity = 0
        }
    }

    /// Whether it is fading out: its opacity changes with time.
    var isFading: Bool { fadeStart != nil }

    /// A tap hits the compass only while it can be seen.
    var isTappable: Bool { opacity > 0 }
}

/// The my-location button and the location dot (feature G3): the last location the host gave,
/// and whether a tap is waiting for one.
public struct MyLocation {
    public private(set) var latitude = Double.nan
    public private(set) var longitude = Double.nan
    /// Accuracy radius in metres (0 when unknown).
    public private(set) var accuracy = 0.0
    /// A tap asked for the location and the camera should go there when it arrives.
    var awaitingLocation = false

    public var isKnown: Bool { latitude.isFinite && longitude.isFinite }

    mutating func set(latitude: Double, longitude: Double, accuracy: Double) throws(CairnError) {
        guard latitude.isFinite, longitude.isFinite, accuracy.isFinite, accuracy >= 0,
              latitude >= -90, latitude <= 90 else { throw .invalidArgument }
        self.latitude = latitude
        self.longitude = WebMercator.wrapLongitude(longitude)
        self.accuracy = accuracy
    }

    mutating func clear() {
        latitude = .nan
        longitude = .nan
        accuracy = 0
        awaitingLocation = false
    }
}
