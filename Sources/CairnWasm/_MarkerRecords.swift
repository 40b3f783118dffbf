import Cairn

/// Decodes marker records from the host and encodes them back: `stride` doubles each, in the
/// order of `Field`. A record carries only what the host was given (`given`, `givenFlags`); the
/// other fields keep a base's values: `MarkerProperties.defaults` for a marker added, its current
/// properties for one updated. Enumerations and flags must be exact; numbers are checked by
/// `MarkerProperties` itself.
enum _MarkerRecords {
    enum Field: Int {
        case latitude, longitude, altitudeMode, altitude, icon, groundAnchorX, groundAnchorY
        case infoWindowAnchorX, infoWindowAnchorY, rotation
        /// Bits: 1 flat, 2 visible, 4 has title, 8 has snippet, 16 custom info window, 32 tracks
        /// info window changes, 64 (updates only) the title or snippet changed.
        case flags
        case opacity, zIndex, collision, collisionPriority, appearAnimation, userData
        /// The building (0 for none) and its level the marker is on (G4).
        case indoorBuilding, indoorLevel
        /// The fields given: bit i for the field numbered i (the flags' own bit is not used:
        /// `givenFlags` names the flags given).
        case given
        /// The bits of `flags` given (1 to 32).
        case givenFlags
    }

    static let stride = Field.givenFlags.rawValue + 1
    /// Every field before `given`, and every flag but the update's 64.
    static let allFields: Int32 = (1 << Int32(Field.given.rawValue)) - 1
    static let allFlags: Int32 = 63

    /// The record at `i` over `base`: the fields and flags it gives replace the base's.
    static func decode(_ r: UnsafeMutableBufferPointer<Double>, at i: Int,
                       over base: MarkerProperties) throws(CairnError) -> MarkerProperties {
        let at = i * stride
        func value(_ f: Field) -> Double { r[at + f.rawValue] }
        func integer(_ f: Field, _ range: ClosedRange<Int32>) throws(CairnError) -> Int32 {
            let v = value(f)
            guard v.isFinite, v == v.rounded(.down), v >= Double(range.lowerBound), v <= Double(range.upperBound)
            else { throw .invalidArgument }
            return Int32(v)
        }
        let given = try integer(.given, 0...allFields)
        let givenFlags = try integer(.givenFlags, 0...allFlags)
        let flags = try integer(.flags, 0...127)
        func has(_ f: Field) -> Bool { given & (1 << Int32(f.rawValue)) != 0 }
        func flag(_ bit: Int32, _ kept: Bool) -> Bool { givenFlags & bit != 0 ? flags & bit != 0 : kept }
        var m = base
        if has(.latitude) { m.latitude = value(.latitude) }
        if has(.longitude) { m.longitude = value(.longitude) }
        if has(.altitudeMode) {
            guard let mode = AltitudeMode(rawValue: try integer(.altitudeMode, 0...2)) else { throw .invalidArgument }
            m.altitudeMode = mode
        }
        if has(.altitude) { m.altitude = value(.altitude) }
        // Below -1 is the store's to refuse, naming the field.
        if has(.icon) { m.icon = try integer(.icon, Int32.min...Int32.max) }
        if has(.groundAnchorX) { m.groundAnchorX = value(.groundAnchorX) }
        if has(.groundAnchorY) { m.groundAnchorY = value(.groundAnchorY) }
        if has(.infoWindowAnchorX) { m.infoWindowAnchorX = value(.infoWindowAnchorX) }
        if has(.infoWindowAnchorY) { m.infoWindowAnchorY = value(.infoWindowAnchorY) }
        if has(.rotation) { m.rotation = value(.rotation) }
        m.flat = flag(1, m.flat)
        m.visible = flag(2, m.visible)
        m.hasTitle = flag(4, m.hasTitle)
        m.hasSnippet = flag(8, m.hasSnippet)
        m.customInfoWindow = flag(16, m.customInfoWindow)
        m.tracksInfoWindowChanges = flag(32, m.tracksInfoWindowChanges)
        if has(.opacity) { m.opacity = value(.opacity) }
        if has(.zIndex) { m.zIndex = value(.zIndex) }
        if has(.collision) {
            guard let c = CollisionBehavior(rawValue: try integer(.collision, 0...2)) else { throw .invalidArgument }
            m.collision = c
        }
        if has(.collisionPriority) { m.collisionPriority = value(.collisionPriority) }
        if has(.appearAnimation) {
            guard let a = AppearAnimation(rawValue: try integer(.appearAnimation, 0...2)) else { throw .invalidArgument }
            m.appearAnimation = a
        }
        if has(.userData) {
            let data = value(.userData)
            guard data.isFinite, data == data.rounded(.down), abs(data) <= 9_007_199_254_740_991 else { throw .invalidArgument }
            m.userData = Int64(data)
        }
        if has(.indoorBuilding) { m.indoorBuilding = try integer(.indoorBuilding, 0...Int32.max) }
        if has(.indoorLevel) { m.indoorLevel = try integer(.indoorLevel, 0...Int32(IndoorBuilding.maximumLevels - 1)) }
        return m
    }

    /// Writes `m` as record `i` of `r`, every field given.
    static func encode(_ m: MarkerProperties, to r: UnsafeMutableBufferPointer<Double>, at i: Int) {
        let at = i * stride
        func put(_ f: Field, _ v: Double) { r[at + f.rawValue] = v }
        func bit(_ on: Bool, _ b: Int32) -> Int32 { on ? b : 0 }
        put(.latitude, m.latitude)
        put(.longitude, m.longitude)
        put(.altitudeMode, Double(m.altitudeMode.rawValue))
        put(.altitude, m.altitude)
        put(.icon, Double(m.icon))
        put(.groundAnchorX, m.groundAnchorX)
        put(.groundAnchorY, m.groundAnchorY)
        put(.infoWindowAnchorX, m.infoWindowAnchorX)
        put(.infoWindowAnchorY, m.infoWindowAnchorY)
        put(.rotation, m.rotation)
        put(.flags, Double(bit(m.flat, 1) | bit(m.visible, 2) | bit(m.hasTitle, 4) | bit(m.hasSnippet, 8)
                           | bit(m.customInfoWindow, 16) | bit(m.tracksInfoWindowChanges, 32)))
        put(.opacity, m.opacity)
        put(.zIndex, m.zIndex)
        put(.collision, Double(m.collision.rawValue))
        put(.collisionPriority, m.collisionPriority)
        put(.appearAnimation, Double(m.appearAnimation.rawValue))
        put(.userData, Double(m.userData))
        put(.indoorBuilding, Double(m.indoorBuilding))
        put(.indoorLevel, Double(m.indoorLevel))
        put(.given, Double(allFields))
        put(.givenFlags, Double(allFlags))
    }

    /// Whether an update record says the title or snippet changed.
    static func contentChanged(_ r: UnsafeMutableBufferPointer<Double>) -> Bool {
        let flags = r[Field.flags.rawValue]
        return flags.isFinite && flags >= 0 && flags <= 127 && Int(flags) & 64 != 0
    }

    /// New markers: every record decoded over the defaults, or an error naming the first bad one
    /// (nothing is added then).
    static func decodeAll(_ r: UnsafeMutableBufferPointer<Double>, count: Int) throws(CairnError) -> [MarkerProperties] {
        var out: [MarkerProperties] = []
        out.reserveCapacity(count)
        for i in 0..<count {
            do throws(CairnError) {
                out.append(try decode(r, at: i, over: MarkerProperties.defaults))
            } catch {
                throw .invalidMarkerInBatch(index: i, field: 0)
            }
        }
        return out
    }
}
