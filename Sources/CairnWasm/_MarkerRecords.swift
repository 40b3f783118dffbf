import Cairn

/// Decodes marker records from the host: `stride` doubles each, in the order of `Field`.
/// Enumerations and flags must be exact; numbers are checked by `MarkerProperties` itself.
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
    }

    static let stride = Field.indoorLevel.rawValue + 1

    static func decode(_ r: UnsafeMutableBufferPointer<Double>, at i: Int) throws(CairnError) -> MarkerProperties {
        let base = i * stride
        func value(_ f: Field) -> Double { r[base + f.rawValue] }
        func integer(_ f: Field, _ range: ClosedRange<Int32>) throws(CairnError) -> Int32 {
            let v = value(f)
            guard v.isFinite, v == v.rounded(.down), v >= Double(range.lowerBound), v <= Double(range.upperBound)
            else { throw .invalidArgument }
            return Int32(v)
        }
        var m = MarkerProperties(latitude: value(.latitude), longitude: value(.longitude))
        guard let altitudeMode = AltitudeMode(rawValue: try integer(.altitudeMode, 0...2)),
              let collision = CollisionBehavior(rawValue: try integer(.collision, 0...2)),
              let appear = AppearAnimation(rawValue: try integer(.appearAnimation, 0...2)) else { throw .invalidArgument }
        let flags = try integer(.flags, 0...127)
        m.altitudeMode = altitudeMode
        m.altitude = value(.altitude)
        m.icon = try integer(.icon, Int32.min...Int32.max)  // below -1 is the store's to refuse, naming the field
        m.groundAnchorX = value(.groundAnchorX)
        m.groundAnchorY = value(.groundAnchorY)
        m.infoWindowAnchorX = value(.infoWindowAnchorX)
        m.infoWindowAnchorY = value(.infoWindowAnchorY)
        m.rotation = value(.rotation)
        m.flat = flags & 1 != 0
        m.visible = flags & 2 != 0
        m.hasTitle = flags & 4 != 0
        m.hasSnippet = flags & 8 != 0
        m.customInfoWindow = flags & 16 != 0
        m.tracksInfoWindowChanges = flags & 32 != 0
        m.opacity = value(.opacity)
        m.zIndex = value(.zIndex)
        m.collision = collision
        m.collisionPriority = value(.collisionPriority)
        m.appearAnimation = appear
        let data = value(.userData)
        guard data.isFinite, data == data.rounded(.down), abs(data) <= 9_007_199_254_740_991 else { throw .invalidArgument }
        m.userData = Int64(data)
        m.indoorBuilding = try integer(.indoorBuilding, 0...Int32.max)
        m.indoorLevel = try integer(.indoorLevel, 0...Int32(IndoorBuilding.maximumLevels - 1))
        return m
    }

    /// Whether an update record says the title or snippet changed.
    static func contentChanged(_ r: UnsafeMutableBufferPointer<Double>) -> Bool {
        let flags = r[Field.flags.rawValue]
        return flags.isFinite && flags >= 0 && flags <= 127 && Int(flags) & 64 != 0
    }

    /// All records decoded, or an error naming the first bad one (nothing is added then).
    static func decodeAll(_ r: UnsafeMutableBufferPointer<Double>, count: Int) throws(CairnError) -> [MarkerProperties] {
        var out: [MarkerProperties] = []
        out.reserveCapacity(count)
        for i in 0..<count {
            do throws(CairnError) {
                out.append(try decode(r, at: i))
            } catch {
                throw .invalidMarkerInBatch(index: i, field: 0)
            }
        }
        return out
    }
}
