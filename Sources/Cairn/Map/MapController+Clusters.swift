/// Cluster managers on the map (features C1–C4, C6, C7): each has its items and algorithm; the
/// map draws them every frame with the markers.
extension MapController {
    /// At most this many managers at once on one map.
    public static let maximumClusterManagers = 1024

    /// Adds a cluster manager; returns its number. A removed manager's slot is used again, with
    /// a new number (its generation changes), so a removed manager's number stays an error.
    public func addClusterManager(_ algorithm: ClusterAlgorithmKind,
                                  rendering: ClusterRendering = ClusterRendering()) throws(CairnError) -> Int32 {
        let manager = try ClusterManager(algorithm: algorithm, rendering: rendering)
        let slot: Int
        if let free = clusterManagers.firstIndex(where: { $0 == nil }) {
            slot = free
            // Numbers stay below 2^31: generations wrap after 2^21 reuses of a slot.
            clusterManagerGenerations[slot] = (clusterManagerGenerations[slot] + 1) & (1 << 21 - 1)
            clusterManagers[slot] = manager
        } else {
            guard clusterManagers.count < MapController.maximumClusterManagers else {
                throw .tooManyClusterManagers(limit: MapController.maximumClusterManagers)
            }
            slot = clusterManagers.count
            clusterManagers.append(manager)
            clusterManagerGenerations.append(0)
        }
        return clusterManagerNumber(slot: slot)
    }

    /// The number of the manager in a slot: its generation, then the slot.
    func clusterManagerNumber(slot: Int) -> Int32 {
        clusterManagerGenerations[slot] * Int32(MapController.maximumClusterManagers) + Int32(slot)
    }

    public func clusterManager(_ number: Int32) throws(CairnError) -> ClusterManager {
        clusterManagers[try clusterManagerSlot(number)]!
    }

    /// The slot of a live manager's number; `invalidHandle` for anything else.
    func clusterManagerSlot(_ number: Int32) throws(CairnError) -> Int {
        guard number >= 0 else { throw .invalidHandle }
        let slot = Int(number) % MapController.maximumClusterManagers
        guard slot < clusterManagers.count, clusterManagerNumber(slot: slot) == number, clusterManagers[slot] != nil else {
            throw .invalidHandle
        }
        return slot
    }

    /// Removes a manager and everything it draws (an item's open window closes).
    public func removeClusterManager(_ number: Int32) throws(CairnError) {
        clusterManagers[try clusterManagerSlot(number)] = nil
        if pendingTap?.owner == number { pendingTap = nil }
        closeWindowOfGoneItem()
    }

    /// Removes an item from a manager; its open window closes (it stays drawn until the next
    /// `cluster`, Google's rule, but has nothing left to show).
    public func removeClusterItem(_ number: Int32, item: Int64) throws(CairnError) {
        try clusterManager(number).remove(item)
        closeWindowOfGoneItem()
    }

    /// Empties a manager at once (C1 `clear`), closing an item's open window.
    public func clearClusterItems(_ number: Int32) throws(CairnError) {
        try clusterManager(number).clear()
        closeWindowOfGoneItem()
    }

    /// Closes the open window of an item its manager no longer holds (or of a manager gone): at
    /// once when the map removes it, and every frame for removals made on the manager itself.
    func closeWindowOfGoneItem() {
        guard case let .clusterItem(number, id)? = infoWindow.owner else { return }
        if (try? clusterManager(number).slot(of: id)) == nil { infoWindow.close(events: &events) }
    }

    /// Adds items to a manager: positions and an icon each (a registered icon or -1 for the
    /// default pin), whether each has a title or snippet (`ClusterItemText`), and their
    /// aggregated values (see `ClusterManager.add`); returns the first id (the rest follow by
    /// one). All or none.
    public func addClusterItems(_ number: Int32, latitudes: [Double], longitudes: [Double],
                                icons itemIcons: [Int32], text: [UInt8] = [], values: [Double] = []) throws(CairnError) -> Int64 {
        let manager = try clusterManager(number)
        for (i, icon) in itemIcons.enumerated() where icon >= 0 && icons.icon(icon) == nil {
            throw .invalidMarkerInBatch(index: i, field: MarkerProperties.Field.icon.rawValue)
        }
        return try manager.add(latitudes: latitudes, longitudes: longitudes, icons: itemIcons, text: text, values: values)
    }

    /// Adds items from [longitude, latitude] pairs, all with one registered icon (or -1, the pin).
    public func addClusterItems(_ number: Int32, lngLat: UnsafeBufferPointer<Double>,
                                icon: Int32) throws(CairnError) -> Int64 {
        let manager = try clusterManager(number)
        guard icon >= MarkerProperties.defaultPin, icon < 0 || icons.icon(icon) != nil else { throw .invalidMarker(.icon) }
        return try manager.add(lngLat: lngLat, icon: icon)
    }

    /// A manager's items become the points of a built hierarchical index, clustered as it is
    /// (see `ClusterManager.adopt`); returns the first id. With `positions` (room for 2 × the
    /// index's points), their longitude/latitude pairs are written there, as the items hold them.
    public func adoptClusterIndex(_ number: Int32, _ index: HierarchicalClusterIndex,
                                  positions: UnsafeMutableBufferPointer<Double>? = nil) throws(CairnError) -> Int64 {
        let manager = try clusterManager(number)
        if let positions, positions.count < 2 * index.pointCount { throw .invalidArgument }
        let first = try manager.adopt(index)
        if let positions {
            for i in 0..<manager.worldX.count {
                positions[2 * i] = WebMercator.longitude(x: manager.worldX[i])
                positions[2 * i + 1] = WebMercator.tabulatedLatitude(y: manager.worldY[i])
            }
        }
        return first
    }

    /// Clusters a manager's items as they are now, for the current camera (C1).
    public func cluster(_ number: Int32) throws(CairnError) {
        try clusterManager(number).cluster(zoom: camera.world.zoom)
    }

    /// `cluster` in steps (see `ClusterManager.beginCluster`): returns the steps left.
    public func beginCluster(_ number: Int32) throws(CairnError) -> Int {
        try clusterManager(number).beginCluster(zoom: camera.world.zoom)
    }

    /// The next step of a clustering `beginCluster` started: returns the steps left.
    public func clusterStep(_ number: Int32) throws(CairnError) -> Int {
        try clusterManager(number).clusterStep()
    }
}
