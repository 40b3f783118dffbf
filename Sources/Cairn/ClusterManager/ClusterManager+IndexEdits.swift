/// A hierarchical manager's next clustering as an edit of the index it shows: the items moved,
/// removed and added since are handed to `HierarchicalClusterIndex.edit`, which repairs what
/// they reach and gives what a build of the items would. A few changes among a million items
/// then cost a repair, not a build.
///
/// The index's point i stays slot i: slots are not squeezed while the index is edited, so a
/// removed item's slot stays (removed in the index too) and an added one takes the next slot,
/// as the index numbers the points it adds. Slots are squeezed, and the index built afresh, when
/// the edit would not be cheaper: more changes than the index repairs (it would build afresh
/// itself, in one step, where `clusterAsync` builds a zoom at a time), a repair that reads more
/// than a build would, more removed slots than items, new options, or aggregated properties
/// (the index does not edit those).
extension ClusterManager {
    /// Records that an item of the latest clustering moved or left, for the next edit. Past one
    /// change per slot the list stops growing: the next clustering then builds afresh.
    func noteChange(slot s: Int) {
        guard algorithm == .hierarchical, s < clusteredSlots, changedSlots.count <= clusteredSlots else { return }
        changedSlots.append(Int32(s))
    }

    /// Clusters the items by editing the index shown; false, with nothing changed, where it
    /// must be built afresh instead.
    func editIndex() throws(CairnError) -> Bool {
        guard algorithm == .hierarchical, indexIsEditable, let index, index.isBuilt,
              index.options == rendering.hierarchy, index.options.minPoints == 2,
              index.smallClustersBelow == rendering.minimumClusterSize,
              index.pointCount == clusteredSlots, changedSlots.count <= clusteredSlots,
              ids.count - count <= count else { return false }
        let n0 = clusteredSlots
        // Each changed slot once (an item may have moved many times), in slot order.
        changedSlots.sort()
        var removing: [Int32] = [], moving: [Int32] = []
        var moved = _WorldPositions()
        var last: Int32 = -1
        for s in changedSlots where s != last {
            last = s
            if alive[Int(s)] {
                moving.append(s)
                moved.append(worldX[Int(s)], worldY[Int(s)])
            } else {
                removing.append(s)
            }
        }
        // Items added since take the index's next ids, those removed again included (they are
        // removed by a second edit: a batch removes only points the index held before it).
        var added = _WorldPositions()
        var addedGone: [Int32] = []
        added.reserveCapacity(ids.count - n0)
        for s in n0..<ids.count {
            added.append(worldX[s], worldY[s])
            if !alive[s] { addedGone.append(Int32(s)) }
        }
        guard added.count + removing.count + moving.count > 0 else { return finishEdit(of: index, movedSlots: [], from: n0) }
        let applied = try removing.withUnsafeBufferPointer { r throws(CairnError) in
            try moving.withUnsafeBufferPointer { m throws(CairnError) in
                try index.edit(adding: added, placedElsewhere: 0, removing: r, moving: m, to: moved, buildsAfresh: false)
            }
        }
        guard applied else { return false }
        if !addedGone.isEmpty {
            try addedGone.withUnsafeBufferPointer { r throws(CairnError) in
                _ = try index.edit(adding: _WorldPositions(), placedElsewhere: 0, removing: r,
                                   moving: UnsafeBufferPointer(start: nil, count: 0), to: _WorldPositions())
            }
        }
        return finishEdit(of: index, movedSlots: moving, from: n0)
    }

    /// The edited index becomes what the drawing shows: the snapshot's moved items where they
    /// are now, the added ones after it.
    private func finishEdit(of index: HierarchicalClusterIndex, movedSlots: [Int32], from n0: Int) -> Bool {
        for s in movedSlots {
            snapshot[Int(s)].x = worldX[Int(s)]
            snapshot[Int(s)].y = worldY[Int(s)]
        }
        snapshot.reserveCapacity(ids.count)
        for s in n0..<ids.count { snapshot.append(_ClusteredItem(x: worldX[s], y: worldY[s], id: ids[s], icon: icons[s])) }
        clusteredSlots = ids.count
        changedSlots.removeAll(keepingCapacity: true)
        generation += 1
        spiderfied = nil
        showClusters(of: index)
        return true
    }
}
