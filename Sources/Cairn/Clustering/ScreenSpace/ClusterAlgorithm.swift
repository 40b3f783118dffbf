/// A way of grouping items for the screen at one zoom (feature C2). Used generically, never as an
/// existential, so it compiles with Embedded Swift; an app can supply its own.
public protocol ClusterAlgorithm {
    /// Groups `items` for a camera at `zoom`, replacing what `result` held.
    func cluster(_ items: ClusterItemPositions, zoom: Double, into result: inout ClusterGroups)
}

/// The integer zoom Google's screen-space algorithms cluster for: the camera zoom rounded as
/// Google's cluster manager does, in single precision (`floorf(zoom + 0.5f)`, so a zoom within
/// a float's rounding of a half rounds up), within 0...30.
func _discreteZoom(_ zoom: Double) -> Int {
    guard zoom.isFinite else { return 0 }
    let z = (Float(zoom) + 0.5).rounded(.down)
    return z < 0 ? 0 : (z > 30 ? 30 : Int(z))
}
