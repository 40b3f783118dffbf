/// The buildings with floors a map knows (feature G4), the one that is prominent, and which of
/// their levels is shown. A building is prominent (focused) while the camera looks at a point
/// inside its footprint from zoom 16 on; the floor picker offers its levels, and markers placed
/// on a level of a building are drawn only while that level is shown.
public struct IndoorMaps {
    /// Buildings by id, in the order added (ids only grow).
    public private(set) var ids: [Int32] = []
    public private(set) var buildings: [IndoorBuilding] = []
    private var nextID: Int32 = 1
    /// The prominent building, if any.
    public private(set) var focused: Int32?

    /// From this camera zoom on, a building under the camera's target is prominent.
    public static let focusZoom = 16.0

    public init() {}

    mutating func add(_ building: IndoorBuilding) throws(CairnError) -> Int32 {
        guard nextID < Int32.max else { throw .tooManyBuildings(limit: Int(Int32.max) - 1) }
        ids.append(nextID)
        buildings.append(building)
        nextID += 1
        return nextID - 1
    }

    /// The building with this id; `invalidHandle` for one never added or removed.
    public func building(_ id: Int32) throws(CairnError) -> IndoorBuilding {
        buildings[try slot(of: id)]
    }

    /// Whether a marker may be placed there: on no building (0), or on a level of one.
    func isPlace(building: Int32, level: Int32) -> Bool {
        building == 0 || ((try? self.building(building)).map { level >= 0 && Int(level) < $0.levelCount } ?? false)
    }

    private func slot(of id: Int32) throws(CairnError) -> Int {
        guard let i = ids.firstIndex(of: id) else { throw .invalidHandle }
        return i
    }

    mutating func remove(_ id: Int32, events: inout MapEventQueue) throws(CairnError) {
        let i = try slot(of: id)
        ids.remove(at: i)
        buildings.remove(at: i)
        if focused == id {
            focused = nil
            events.append(.indoorBuildingFocused(building: -1))
        }
    }

    /// Shows a level of a building (the picker's choice, or the host's).
    mutating func activate(_ id: Int32, level: Int, events: inout MapEventQueue) throws(CairnError) {
        let i = try slot(of: id)
        guard level >= 0, level < buildings[i].levelCount else { throw .invalidArgument }
        guard buildings[i].activeLevel != level else { return }
        buildings[i].activeLevel = level
        events.append(.indoorLevelActivated(building: id, level: level))
    }

    /// Finds the prominent building for a camera: the first added whose footprint holds the
    /// target, from `focusZoom` on. Reports a change.
    mutating func updateFocus(targetX: Double, targetY: Double, zoom: Double, events: inout MapEventQueue) {
        var found: Int32?
        if zoom >= IndoorMaps.focusZoom {
            for i in 0..<buildings.count where buildings[i].contains(x: targetX, y: targetY) {
                found = ids[i]
                break
            }
        }
        guard found != focused else { return }
        focused = found
        events.append(.indoorBuildingFocused(building: found ?? -1))
    }

    /// Whether a marker on a level of a building is drawn: only while that level is shown. A
    /// marker on no building (or on one since removed) is always drawn.
    func shows(building: Int32, level: Int32) -> Bool {
        guard building > 0, let b = try? self.building(building) else { return true }
        return b.activeLevel == Int(level)
    }

    /// The picker's buttons this frame: the prominent building's levels that fit the view, or
    /// nil when there is no picker (none prominent, a single level, or the setting off).
    func picker(_ v: Viewport, enabled: Bool) -> FloorPicker? {
        guard enabled, let id = focused, let b = try? building(id), b.levelCount >= 2 else { return nil }
        return FloorPicker(building: id, levelCount: b.levelCount, activeLevel: b.activeLevel, viewport: v)
    }

    /// A tap on a level's button: shown if the picker still offers that building's levels (the
    /// focus or the setting may have changed while the finger was down).
    mutating func picked(_ building: Int32, level: Int, enabled: Bool, events: inout MapEventQueue) {
        guard enabled, focused == building else { return }
        try? activate(building, level: level, events: &events)
    }
}

/// The floor picker on screen (G4): a column of level buttons near the bottom right, above the
/// my-location button's place, as many as fit between it and the compass's, the shown level
/// among them. When not all levels fit, at least three must, so the shown level always has its
/// neighbours on either side to step to; a view too short for that has no picker.
public struct FloorPicker: Equatable {
    public let building: Int32
    public let activeLevel: Int
    /// The first level shown (from the top) and how many.
    public let first: Int, count: Int
    /// The column's centre x and the top of its first button.
    public let centerX: Double, top: Double

    init?(building: Int32, levelCount: Int, activeLevel: Int, viewport v: Viewport) {
        let size = ControlLayout.size, gap = ControlLayout.margin
        let bottom = ControlLayout.myLocationCenter(v).y - size / 2 - gap
        let ceiling = ControlLayout.compassCenter(v).y + size / 2 + gap
        let fit = bottom > ceiling ? Int((bottom - ceiling) / size) : 0
        guard fit >= Swift.min(levelCount, 3) else { return nil }
        count = Swift.min(levelCount, fit)
        // The shown level stays in the window, as near its middle as the ends allow.
        first = Swift.min(Swift.max(0, activeLevel - count / 2), levelCount - count)
        self.building = building
        self.activeLevel = activeLevel
        centerX = ControlLayout.myLocationCenter(v).x
        top = bottom - Double(count) * size
    }

    /// The level whose button is under a screen point (within the controls' tolerance).
    func level(atX x: Double, y: Double) -> Int? {
        let size = ControlLayout.size, t = ControlLayout.tolerance
        guard abs(x - centerX) <= size / 2 + t, y >= top - t, y <= top + Double(count) * size + t else { return nil }
        let k = Swift.min(count - 1, Swift.max(0, Int((y - top) / size)))
        return first + k
    }
}
