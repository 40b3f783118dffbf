/// Popovers (feature V2): content of the host's anchored to a marker. The engine holds each
/// one's state, places the open ones every frame where the marker's info window would stand,
/// pans a newly opened one into view as it pans an info window, closes the auto-closing ones on
/// a tap elsewhere and removes a marker's popovers with it; the host measures and shows them.
extension MapController {
    /// Adds a popover to a marker with `Popover`'s defaults for what is not given (nil); returns
    /// its id. Opened at once when `open` (and then panned into view when `autoPan`, once
    /// measured and drawn).
    public func addPopover(marker: Int64, open: Bool? = nil, autoClose: Bool? = nil,
                           autoPan: Bool? = nil) throws(CairnError) -> Int32 {
        _ = try markers.slot(of: marker)
        let id = try popovers.add(marker: marker)
        try popovers.set(id, open: open, autoClose: autoClose, autoPan: autoPan, events: &events)
        return id
    }

    /// Opens or closes a popover and sets how it behaves (nil keeps a setting); one that opens
    /// pans into view (when `autoPan`), one that closes is reported (`popoverClosed`).
    public func setPopover(_ id: Int32, open: Bool? = nil, autoClose: Bool? = nil, autoPan: Bool? = nil) throws(CairnError) {
        try popovers.set(id, open: open, autoClose: autoClose, autoPan: autoPan, events: &events)
    }

    /// The size of a popover's content as the host laid it out, in CSS pixels.
    public func setPopoverSize(_ id: Int32, width: Double, height: Double) throws(CairnError) {
        try popovers.setSize(id, width: width, height: height)
    }

    /// Takes a popover away (nothing is reported: the host asked).
    public func removePopover(_ id: Int32) throws(CairnError) {
        try popovers.remove(id)
    }

    /// A popover's state; `invalidHandle` once it is removed (by the host, or with its marker).
    public func popover(_ id: Int32) throws(CairnError) -> Popover {
        try popovers.popover(id)
    }
}
