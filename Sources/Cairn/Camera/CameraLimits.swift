/// The range the camera may take: zoom between `minZoom` and `maxZoom`, tilt up to `maxTilt`.
/// Gestures and programmatic moves alike are clamped to it.
public struct CameraLimits: Equatable {
    public var minZoom: Double
    public var maxZoom: Double
    public var maxTilt: Double

    /// Google's maps stop at zoom 22 (tiles exist up to 21 or 22); tilt beyond 60° shows
    /// mostly sky-less horizon with a flat map, so it is the default ceiling.
    public static let standard = CameraLimits(minZoom: 0, maxZoom: 22, maxTilt: 60)
    /// The largest zoom any camera may have: beyond it world coordinates lose precision.
    public static let zoomCeiling = 30.0
    /// Tilt must stay well short of 90° so the horizon never reaches the centre of the view.
    public static let tiltCeiling = 75.0

    public init(minZoom: Double, maxZoom: Double, maxTilt: Double) {
        self.minZoom = minZoom
        self.maxZoom = maxZoom
        self.maxTilt = maxTilt
    }

    /// Limits with `minZoom <= maxZoom` inside 0...zoomCeiling and tilt within 0...tiltCeiling.
    func validated() throws(CairnError) -> CameraLimits {
        guard minZoom.isFinite, maxZoom.isFinite, maxTilt.isFinite,
              minZoom >= 0, maxZoom <= CameraLimits.zoomCeiling, minZoom <= maxZoom,
              maxTilt >= 0, maxTilt <= CameraLimits.tiltCeiling
        else { throw .invalidArgument }
        return self
    }

    func clampZoom(_ zoom: Double) -> Double {
        zoom < minZoom ? minZoom : (zoom > maxZoom ? maxZoom : zoom)
    }

    func clampTilt(_ tilt: Double) -> Double {
        tilt < 0 ? 0 : (tilt > maxTilt ? maxTilt : tilt)
    }
}
