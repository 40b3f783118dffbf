/// Why the camera started to move (Google's `onCameraMoveStarted` reasons).
public enum CameraMoveCause: Int32 {
    /// The user's fingers, mouse, wheel or keys.
    case gesture = 1
    /// The engine's own response to a user action: the compass, the my-location button, a
    /// tapped cluster or marker.
    case apiAnimation = 2
    /// The host program moved or animated the camera.
    case developer = 3
}

/// What happened on the map, in order, for the host to drain once per frame.
public enum MapEvent: Equatable {
    /// The camera is about to start moving (once per movement, and again if the cause changes).
    case cameraWillMove(CameraMoveCause)
    /// The camera changed during the last frame (at most once per frame).
    case cameraChanged
    /// The camera stopped: no gesture, animation or fling is moving it any more.
    case cameraIdle
    /// A confirmed single tap on the map (not a drag, not half of a double tap), for
    /// hit-testing: screen point and the ground coordinate under it (NaN above the horizon).
    case tap(x: Double, y: Double, latitude: Double, longitude: Double)
    /// A press held still for `GestureRecognizer.longPressDelay`.
    case longPress(x: Double, y: Double, latitude: Double, longitude: Double)
    /// The compass was tapped; the camera animates to bearing 0.
    case compassTapped
    /// The my-location button was tapped.
    case myLocationButtonTapped
    /// The engine needs the user's location (the my-location button was tapped and none is
    /// known): the host should ask the browser and call `setMyLocation`.
    case locationRequested
    /// A tap hit a marker. The host answers with `answerTap(consumed:)`; unless consumed, the
    /// marker is selected and centred (M11).
    case markerTapped(marker: Int64)
    /// A tap or long press on the open info window (I8).
    case infoWindowTapped(InfoWindowOwner)
    case infoWindowLongPressed(InfoWindowOwner)
    /// A window opened or closed (I3, I4, I8); reopening the same marker or item reports both.
    case infoWindowOpened(InfoWindowOwner)
    case infoWindowClosed(InfoWindowOwner)
    /// A tap hit a cluster icon or an item a cluster manager drew on its own (C7). The host
    /// answers with `answerTap(consumed:)`; unless consumed, a cluster zooms to where it splits
    /// and an item is selected (its window opens) and centred, as a marker is.
    case clusterTapped(manager: Int32, cluster: Int64, count: Int)
    case clusterItemTapped(manager: Int32, item: Int64)
    /// The open window's marker changed its title or snippet and tracks such changes (I6): the
    /// host redraws the window's content.
    case infoWindowContentChanged(InfoWindowOwner)
    /// A building became prominent (its floors are offered), or none is (-1) (G4).
    case indoorBuildingFocused(building: Int32)
    /// A building shows another level: picked on the floor picker, or set by the host (G4).
    case indoorLevelActivated(building: Int32, level: Int)
    /// A popover closed: by a tap elsewhere (`autoClose`) or by the host (V2).
    case popoverClosed(popover: Int32, marker: Int64)
    /// A popover went with its marker (removed, or every marker cleared): the host takes its
    /// content away.
    case popoverRemoved(popover: Int32, marker: Int64)

    /// A stable number per kind, for the ABI.
    public var kind: Int32 {
        switch self {
        case .cameraWillMove: return 1
        case .cameraChanged: return 2
        case .cameraIdle: return 3
        case .tap: return 4
        case .longPress: return 5
        case .compassTapped: return 6
        case .myLocationButtonTapped: return 7
        case .locationRequested: return 8
        case .markerTapped: return 9
        case .infoWindowTapped: return 10
        case .infoWindowLongPressed: return 11
        case .infoWindowOpened: return 12
        case .infoWindowClosed: return 13
        case .clusterTapped: return 14
        case .clusterItemTapped: return 15
        case .infoWindowContentChanged: return 16
        case .indoorBuildingFocused: return 17
        case .indoorLevelActivated: return 18
        case .popoverClosed: return 19
        case .popoverRemoved: return 20
        }
    }
}

/// The events waiting for the host. Bounded, so a host that never drains cannot make the
/// engine grow without limit: the oldest events are dropped first, and the count of dropped
/// events is kept.
public struct MapEventQueue {
    public private(set) var events: [MapEvent] = []
    public private(set) var dropped = 0
    public static let capacity = 1024

    mutating func append(_ event: MapEvent) {
        if events.count >= MapEventQueue.capacity {
            events.removeFirst()
            dropped += 1
        }
        events.append(event)
    }

    mutating func drain() -> [MapEvent] {
        let out = events
        events.removeAll(keepingCapacity: true)
        return out
    }
}
