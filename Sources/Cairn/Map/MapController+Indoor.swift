/// Buildings with floors and the floor picker (feature G4): the host adds a building's footprint
/// and levels; the engine finds the prominent one, offers its levels on the picker, and draws a
/// marker placed on a level only while that level is shown.
extension MapController {
    /// Adds a building; returns its id (never 0, never given again).
    public func addIndoorBuilding(_ building: IndoorBuilding) throws(CairnError) -> Int32 {
        try indoor.add(building)
    }

    /// Removes a building; its markers are drawn again whatever their level.
    public func removeIndoorBuilding(_ id: Int32) throws(CairnError) {
        try indoor.remove(id, events: &events)
    }

    /// Shows a level of a building, as a tap on the picker does.
    public func activateIndoorLevel(building: Int32, level: Int) throws(CairnError) {
        try indoor.activate(building, level: level, events: &events)
    }

    /// The floor picker this frame, or nil when none shows.
    public var floorPicker: FloorPicker? { indoor.picker(camera.viewport, enabled: settings.indoorPicker) }
}
