/// A popover (feature V2): content of the host's anchored to a marker. The engine holds its
/// state and places it; the host measures the content and shows it where each frame says.
public struct Popover: Equatable {
    public var marker: Int64
    /// Closed until opened.
    public internal(set) var isOpen = false
    /// A tap anywhere but on its marker or that marker's info window closes it.
    public var autoClose = true
    /// Opening it pans the map, as an info window's opening does, so it shows whole.
    public var autoPan = true
    /// The size the host measured for its content, in CSS pixels (0 until measured).
    public internal(set) var width = 0.0, height = 0.0
    /// Opened with `autoPan` and not panned yet: waits for its marker to be drawn and measured.
    var needsAutoPan = false
}

/// Where an open popover stands this frame: centred above its marker's info-window anchor as
/// drawn (turned and scaled with the icon), `Popovers.lift` higher, as the info window stands.
public struct PopoverPlacement: Equatable {
    public var popover: Int32
    public var marker: Int64
    /// False while the marker is not drawn (off screen, hidden by a collision, invisible): the
    /// popover is then not shown, and its box is meaningless.
    public var isShown: Bool
    /// The box's top-left corner on screen, and its size.
    public var minX: Double, minY: Double, width: Double, height: Double
}

/// A map's popovers, by id (ids are never used again), and where the open ones stand.
public struct Popovers {
    public private(set) var ids: [Int32] = []
    public private(set) var popovers: [Popover] = []
    private var nextID: Int32 = 1
    /// The open popovers as of the last frame, in the order they were added.
    public private(set) var placements: [PopoverPlacement] = []

    /// Pixels between the marker's info-window anchor and the popover's bottom edge.
    public static let lift = 4.0
    /// At most this many popovers on one map.
    public static let maximumCount = 4096

    /// The popover with this id; `invalidHandle` for one never added or removed.
    public func popover(_ id: Int32) throws(CairnError) -> Popover { popovers[try index(of: id)] }

    func index(of id: Int32) throws(CairnError) -> Int {
        guard let i = ids.firstIndex(of: id) else { throw .invalidHandle }
        return i
    }

    /// Adds a closed popover to a marker, with the defaults; returns its id.
    mutating func add(marker: Int64) throws(CairnError) -> Int32 {
        guard ids.count < Popovers.maximumCount, nextID < Int32.max else { throw .tooManyPoints }
        let id = nextID
        nextID += 1
        ids.append(id)
        popovers.append(Popover(marker: marker))
        return id
    }

    /// Opens or closes a popover and sets how it behaves (nil keeps a setting). One that opens
    /// pans into view (when `autoPan`); closing one reports it.
    mutating func set(_ id: Int32, open: Bool?, autoClose: Bool?, autoPan: Bool?,
                      events: inout MapEventQueue) throws(CairnError) {
        let i = try index(of: id)
        let wasOpen = popovers[i].isOpen
        var p = popovers[i]
        p.autoClose = autoClose ?? p.autoClose
        p.autoPan = autoPan ?? p.autoPan
        p.isOpen = open ?? p.isOpen
        if p.isOpen && !wasOpen { p.needsAutoPan = p.autoPan }
        if !p.isOpen || !p.autoPan { p.needsAutoPan = false }
        popovers[i] = p
        if wasOpen && !p.isOpen { events.append(.popoverClosed(popover: id, marker: p.marker)) }
    }

    mutating func setSize(_ id: Int32, width: Double, height: Double) throws(CairnError) {
        guard width.isFinite, height.isFinite, width >= 0, height >= 0, width <= 10_000, height <= 10_000
        else { throw .invalidArgument }
        let i = try index(of: id)
        popovers[i].width = width
        popovers[i].height = height
    }

    /// Takes a popover away (the host's own removal: nothing is reported).
    mutating func remove(_ id: Int32) throws(CairnError) {
        let i = try index(of: id)
        ids.remove(at: i)
        popovers.remove(at: i)
    }

    /// Takes away the popovers of markers that are gone (`marker` nil: every marker), reporting each.
    mutating func removeAll(ofMarker marker: Int64?, events: inout MapEventQueue) {
        var k = 0
        while k < ids.count {
            if marker == nil || popovers[k].marker == marker {
                events.append(.popoverRemoved(popover: ids[k], marker: popovers[k].marker))
                ids.remove(at: k)
                popovers.remove(at: k)
            } else {
                k += 1
            }
        }
    }

    /// A confirmed tap closes the open auto-closing popovers, except those of the marker it hit
    /// (or whose info window it hit).
    mutating func closeOnTap(except marker: Int64?, events: inout MapEventQueue) {
        for k in 0..<ids.count where popovers[k].isOpen && popovers[k].autoClose && popovers[k].marker != marker {
            popovers[k].isOpen = false
            popovers[k].needsAutoPan = false
            events.append(.popoverClosed(popover: ids[k], marker: popovers[k].marker))
        }
    }

    /// Places the open popovers at their markers' info-window anchors as drawn this frame.
    mutating func place(markers: MarkerStore, icons: IconRegistry, drawn: (InfoWindowOwner) -> SceneItem?) {
        placements.removeAll(keepingCapacity: true)
        for k in 0..<ids.count where popovers[k].isOpen {
            let p = popovers[k]
            var placement = PopoverPlacement(popover: ids[k], marker: p.marker, isShown: false, minX: 0, minY: 0,
                                             width: p.width, height: p.height)
            if let item = drawn(.marker(p.marker)),
               let a = _infoWindowAnchor(of: .marker(p.marker), drawnAs: item, markers: markers, icons: icons) {
                placement.isShown = true
                placement.minX = a.x - p.width / 2
                placement.minY = a.y - Popovers.lift - p.height
            }
            placements.append(placement)
        }
    }

    /// The first placed popover waiting to be panned into view, now measured and shown; it
    /// stops waiting (the user may then pan it away).
    mutating func takeAutoPan() -> PopoverPlacement? {
        for placement in placements where placement.isShown && placement.width > 0 && placement.height > 0 {
            guard let k = ids.firstIndex(of: placement.popover), popovers[k].needsAutoPan else { continue }
            popovers[k].needsAutoPan = false
            return placement
        }
        return nil
    }
}
