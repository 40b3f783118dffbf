/// When the host should draw next: the engine knows everything that changes with time, so a
/// host draws while something does and sleeps otherwise (an idle map costs nothing).
extension MapController {
    /// How soon the map wants its next frame, in seconds after the latest time seen: 0 while
    /// something moves or changes with time (a camera animation or fling, the compass fading, a
    /// marker appearing, clusters flying apart or together) or events wait to be read; the time
    /// left on a timer the engine waits for (a tap's wait for a second one, a long press, a
    /// screen-space re-clustering after a zoom change, the end of a wheel gesture); infinity
    /// when nothing changes until the next input or call.
    public var nextFrameIn: Double {
        if !events.events.isEmpty || camera.isAnimating || camera.changedSinceFrame || gestures.fling != nil
            || compass.isFading { return 0 }
        if markerAppearing { return 0 }
        var wait = gestures.nextTimer(at: time)
        for case let manager? in clusterManagers { wait = Swift.min(wait, manager.nextChange(at: time)) }
        return wait
    }

    /// Whether a marker's appear animation (M9) plays at the latest time, or waits for its first
    /// frame. The times added are read first, one double per marker: this is asked every frame.
    private var markerAppearing: Bool {
        markers.addedAt.withUnsafeBufferPointer { added in
            for slot in 0..<added.count where time - added[slot] < _MarkerPlacement.appearDuration {
                if markers.live[slot] && markers.properties[slot].appearAnimation != .none { return true }
            }
            return false
        }
    }
}
