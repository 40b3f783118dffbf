/// The markers of one map in flat storage (struct of arrays) addressed by dense slots, with
/// stable ids: an id is (generation << 32) | slot, so a removed marker's id stays an error even
/// after its slot holds another marker (features M1, B).
public struct MarkerStore {
    /// Properties by slot; a free slot keeps its last value and `live[slot] == false`.
    public private(set) var properties: [MarkerProperties] = []
    /// World positions by slot, kept beside the properties for the per-frame passes.
    public private(set) var worldX: [Double] = []
    public private(set) var worldY: [Double] = []
    /// When each marker was added (the map's clock), for its appear animation: the first
    /// frame's time after the call (`stampAdded`), since the host may not have drawn for a while.
    public private(set) var addedAt: [Double] = []
    /// Slots added since the last frame, whose `addedAt` that frame's time becomes.
    private var unstamped: [Int32] = []
    public private(set) var live: [Bool] = []
    private var generations: [UInt32] = []
    private var freeSlots: [Int32] = []
    public private(set) var count = 0

    /// At most this many markers per map: slots are 32-bit and ids must stay exact in a double.
    public static let capacity = 1 << 24

    public init() {}

    /// The id of the marker in `slot`.
    func id(ofSlot slot: Int) -> Int64 { Int64(generations[slot]) << 32 | Int64(slot) }

    /// The slot of a live marker's id; `unknownMarker` for anything else.
    public func slot(of id: Int64) throws(CairnError) -> Int {
        // Compare in 64 bits before converting: Int is 32 bits in wasm, where a slot part of
        // 2^31 or more would trap.
        let low = id & 0xFFFF_FFFF, generation = id >> 32
        guard id >= 0, low < Int64(live.count), live[Int(low)], Int64(generations[Int(low)]) == generation else {
            throw .unknownMarker(id: id)
        }
        return Int(low)
    }

    public func contains(_ id: Int64) -> Bool { (try? slot(of: id)) != nil }

    /// Adds a marker; returns its id. Invalid properties are refused (`invalidMarker` names
    /// the property) and nothing is added. Its appear animation starts at `time`, or with the
    /// next frame when nil (see `stampAdded`).
    public mutating func add(_ marker: MarkerProperties, at time: Double?) throws(CairnError) -> Int64 {
        if let field = marker.invalidField() { throw .invalidMarker(field) }
        guard count < MarkerStore.capacity else { throw .tooManyMarkers(limit: MarkerStore.capacity) }
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = Int(free)
            generations[slot] &+= 1
            if generations[slot] >= 1 << 21 { generations[slot] = 0 }  // ids stay below 2^53
        } else {
            slot = live.count
            properties.append(marker)
            worldX.append(0)
            worldY.append(0)
            addedAt.append(0)
            live.append(false)
            generations.append(0)
        }
        live[slot] = true
        if let time {
            addedAt[slot] = time
        } else {
            addedAt[slot] = .infinity   // not shown as appeared before its first frame
            unstamped.append(Int32(slot))
        }
        count += 1
        store(marker, slot)
        return id(ofSlot: slot)
    }

    /// Adds many markers at once: all or none (the error's marker is named by its position).
    public mutating func add(_ markers: [MarkerProperties], at time: Double?) throws(CairnError) -> [Int64] {
        for (i, m) in markers.enumerated() {
            if let field = m.invalidField() { throw .invalidMarkerInBatch(index: i, field: field.rawValue) }
        }
        guard count + markers.count <= MarkerStore.capacity else { throw .tooManyMarkers(limit: MarkerStore.capacity) }
        var ids: [Int64] = []
        ids.reserveCapacity(markers.count)
        for m in markers { ids.append(try add(m, at: time)) }
        return ids
    }

    /// Starts the appear animations of the markers added since the last frame at this frame's
    /// time.
    public mutating func stampAdded(at time: Double) {
        for slot in unstamped { addedAt[Int(slot)] = time }
        unstamped.removeAll(keepingCapacity: true)
    }

    /// Replaces a marker's properties (changing the position moves it; the appear animation
    /// does not play again).
    public mutating func update(_ id: Int64, _ marker: MarkerProperties) throws(CairnError) {
        let slot = try slot(of: id)
        if let field = marker.invalidField() { throw .invalidMarker(field) }
        store(marker, slot)
    }

    public func marker(_ id: Int64) throws(CairnError) -> MarkerProperties {
        properties[try slot(of: id)]
    }

    public mutating func remove(_ id: Int64) throws(CairnError) {
        let slot = try slot(of: id)
        live[slot] = false
        freeSlots.append(Int32(slot))
        count -= 1
    }

    /// Removes every marker; every id given so far becomes unknown.
    public mutating func removeAll() {
        for slot in 0..<live.count where live[slot] {
            live[slot] = false
            freeSlots.append(Int32(slot))
        }
        count = 0
    }

    /// Visits the live markers in slot order.
    public func forEach(_ body: (_ id: Int64, _ slot: Int) -> Void) {
        for slot in 0..<live.count where live[slot] { body(id(ofSlot: slot), slot) }
    }

    private mutating func store(_ marker: MarkerProperties, _ slot: Int) {
        properties[slot] = marker
        worldX[slot] = WebMercator.x(longitude: WebMercator.wrapLongitude(marker.longitude))
        worldY[slot] = WebMercator.y(latitude: marker.latitude)
    }
}
