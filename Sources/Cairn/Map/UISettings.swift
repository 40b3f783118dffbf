/// Which gestures and controls are on (features G1–G4, G6). Changes apply to the next event;
/// they never limit what the host does to the camera programmatically.
public struct UISettings: Equatable {
    /// Drag to pan (with fling), and the panning part of pinch and double tap.
    public var scrollGestures = true
    /// Double tap, two-finger tap, pinch, wheel and +/- keys.
    public var zoomGestures = true
    /// Two-finger vertical drag, and right- or ctrl-drag up and down.
    public var tiltGestures = true
    /// Two-finger rotation, and right- or ctrl-drag sideways.
    public var rotateGestures = true
    /// The compass, shown while the bearing is not 0 (off by default, as Google's).
    public var compassButton = false
    /// The my-location button (off by default, as Google's).
    public var myLocationButton = false
    /// The floor picker, shown while a building with floors is prominent (on by default, as
    /// Google's `indoorLevelPicker`).
    public var indoorPicker = true

    public init() {}

    /// The settings as bits, in the order of the properties, for the ABI.
    public var bits: Int32 {
        var b: Int32 = 0
        for (i, on) in [scrollGestures, zoomGestures, tiltGestures, rotateGestures, compassButton,
                        myLocationButton, indoorPicker].enumerated() where on {
            b |= 1 << Int32(i)
        }
        return b
    }

    /// The settings `given` names take their bit from `bits`; the others keep their defaults
    /// (the host says only what it was told).
    public init(bits: Int32, given: Int32) {
        self.init(bits: (bits & given) | (UISettings().bits & ~given))
    }

    public init(bits: Int32) {
        scrollGestures = bits & 1 != 0
        zoomGestures = bits & 2 != 0
        tiltGestures = bits & 4 != 0
        rotateGestures = bits & 8 != 0
        compassButton = bits & 16 != 0
        myLocationButton = bits & 32 != 0
        indoorPicker = bits & 64 != 0
    }

    /// How many settings there are: bit i is the i-th property above.
    public static let count: Int32 = 7

    /// Bits that name a setting; others are an error.
    public static let allBits: Int32 = (1 << count) - 1
}
