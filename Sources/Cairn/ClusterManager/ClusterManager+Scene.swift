/// What a cluster manager draws this frame (feature C4): in or near the view, groups of at least
/// `minimumClusterSize` as cluster icons while the camera zoom is at most `maximumClusterZoom`,
/// everything else as its items.
extension ClusterManager {
    /// A cluster icon's id: for the hierarchical index its cluster id; for screen-space groups
    /// the group number with the clustering's generation above bit 32, so an id from before a
    /// re-clustering is refused rather than naming another group.
    func groupID(_ group: Int) -> Int64 { (generation & 0xF_FFFF) << 32 | Int64(group) }

    func group(ofID id: Int64) throws(CairnError) -> Int {
        let low = id & 0xFFFF_FFFF
        guard id >= 0, id >> 32 == generation & 0xF_FFFF, low < Int64(groups.count) else { throw .unknownCluster(id: id) }
        return Int(low)
    }

    /// One drawn entity with what transitions need: its world position, a member item,
    /// (hierarchical) the index item it is drawn as, -1 otherwise, and the copy of the world it
    /// is drawn on (counted from the one nearest the target; a view wider than the world shows
    /// everything on each copy).
    struct Drawn {
        var item: SceneItem
        var worldX: Double, worldY: Double
        var member: Int
        var node: Int32 = -1
        var copy = 0
    }

    func sceneItems(owner: Int32, projection p: CameraProjection, icons: IconRegistry, time: Double,
                    into out: inout [SceneItem]) {
        var drawn = spareDrawn
        spareDrawn = []
        drawn.removeAll(keepingCapacity: true)
        itemLie = flatItems ? _flatOnScreen(rotation: 0, projection: p) : _uprightIcon
        collect(owner: owner, projection: p, icons: icons, into: &drawn)
        animate(&drawn, owner: owner, projection: p, time: time)
        out.reserveCapacity(out.count + drawn.count + (transition?.ghosts.count ?? 0))
        for d in drawn { out.append(d.item) }
        appendGhosts(projection: p, time: time, into: &out)
    }

    /// Items of the hierarchical index listed before they are placed, at most this many at a
    /// time (see `placeListed`).
    static let placeBatch = 64
    /// How far the default icons reach from their anchor: the pin is 43 px high, the largest
    /// cluster circle about 62 px wide.
    static let defaultIconReach = 64.0

    private func collect(owner: Int32, projection p: CameraProjection, icons: IconRegistry, into out: inout [Drawn]) {
        let asClusters = p.zoom <= rendering.maximumClusterZoom
        // Items a little outside the view too: their icons may reach in. As far as the largest
        // icon they may have (the default pin and cluster circles are under 64 px), not the
        // markers' whole `Scene.margin`, which would place twice the items a frame. (The margin
        // is in pixels at the target's scale; the far side of a tilted view is smaller, and its
        // far clip hides what it misses.)
        let margin = Swift.min(Scene.margin, Swift.max(Self.defaultIconReach, icons.longestSide))
        let copies = p.worldCopiesEachSide(margin: margin)
        if let index, algorithm == .hierarchical {
            // Entries: a point of the snapshot (≥ 0), or a cluster drawn as its icon (~cluster).
            var listed: [Int32] = []
            listed.reserveCapacity(Self.placeBatch)
            func list(_ entry: Int32) {
                listed.append(entry)
                if listed.count == Self.placeBatch {
                    placeListed(listed, index: index, owner: owner, projection: p, icons: icons, copies: copies, into: &out)
                    listed.removeAll(keepingCapacity: true)
                }
            }
            let b = p.visibleRegion.bounds(expandedBy: margin / p.worldSize)
            let n = snapshot.count
            try? index.forEachVisibleItem(west: b.west, south: b.south, east: b.east, north: b.north, zoom: p.zoom) { item in
                let c = Int(item) - n
                if c < 0 { return list(item) }
                let count = Int(index.clusterPoints[c])
                if asClusters && count >= rendering.minimumClusterSize {
                    list(~Int32(c))
                } else if count < smallBelow {
                    for k in Int(smallStart[c])..<Int(smallStart[c + 1]) { list(smallPoints[k]) }
                } else {
                    index.forEachLeafItem(of: item) { leaf in list(leaf) }
                }
            }
            placeListed(listed, index: index, owner: owner, projection: p, icons: icons, copies: copies, into: &out)
            return
        }
        func draw(_ g: Int) {
            if asClusters && groups.size(of: g) >= rendering.minimumClusterSize {
                addCluster(id: groupID(g), count: groups.size(of: g), worldX: groups.x[g], worldY: groups.y[g],
                           member: Int(groups.members(of: g).first!), owner: owner, projection: p, icons: icons,
                           copies: copies, into: &out)
            } else {
                for member in groups.members(of: g) {
                    addItem(Int(member), snapshot[Int(member)], owner: owner, projection: p, icons: icons, copies: copies,
                            into: &out)
                }
            }
        }
        // Groups in their order (the copy budget counts what came before), all of them, or on one
        // copy of the world those whose box meets the view's: the same, less those that would
        // place nothing.
        guard copies == 0, groups.count >= Self.indexedGroupsFrom, let view = Scene.placedWorldBoxes(p) else {
            for g in 0..<groups.count { draw(g) }
            return
        }
        guard markGroups(meeting: view) else {
            for g in 0..<groups.count { draw(g) }
            return
        }
        for w in 0..<groupMarks.count {
            var bits = groupMarks[w]
            while bits != 0 {
                draw(w << 6 | bits.trailingZeroBitCount)
                bits &= bits &- 1
            }
        }
    }

    /// Screen-space clusterings of at least this many groups are indexed for frames.
    static let indexedGroupsFrom = 256

    /// Marks in `groupMarks` the groups whose box (around the group and its items) meets one of
    /// `view`, indexing the boxes first when the clustering is new; false, marking nothing,
    /// when one of `view` holds them all.
    private func markGroups(meeting view: [(minX: Double, minY: Double, maxX: Double, maxY: Double)]) -> Bool {
        if groupIndex.generation != generation {
            let boxes = _BoxIndex(count: groups.count) { g in
                var minX = groups.x[g], minY = groups.y[g], maxX = minX, maxY = minY
                for m in groups.members(of: g) {
                    let s = snapshot[Int(m)]
                    minX = Swift.min(minX, s.x)
                    minY = Swift.min(minY, s.y)
                    maxX = Swift.max(maxX, s.x)
                    maxY = Swift.max(maxY, s.y)
                }
                return (minX, minY, maxX, maxY)
            }
            groupIndex = (generation, boxes)
        }
        if let all = groupIndex.boxes.bounds,
           view.contains(where: { $0.minX <= all.minX && $0.minY <= all.minY && $0.maxX >= all.maxX && $0.maxY >= all.maxY }) {
            return false
        }
        let words = (groups.count + 63) / 64
        groupMarks.removeAll(keepingCapacity: true)
        groupMarks.append(contentsOf: repeatElement(0, count: words))
        groupMarks.withUnsafeMutableBufferPointer { marks in
            for box in view {
                groupIndex.boxes.forEach(meeting: box) { g in marks[g >> 6] |= 1 << UInt64(g & 63) }
            }
        }
        return true
    }

    /// Places a batch of listed entries in order. Their records lie scattered over up to
    /// millions of items: read first, in a loop of their own, their cache misses overlap, where
    /// reading each just before placing it waited for each (the densest frames of a million
    /// items spent a third of their time there).
    private func placeListed(_ listed: [Int32], index: HierarchicalClusterIndex, owner: Int32, projection p: CameraProjection,
                             icons: IconRegistry, copies: Int, into out: inout [Drawn]) {
        let m = listed.count
        // A cluster's entry reads its centroid into the record's place.
        withUnsafeTemporaryAllocation(of: _ClusteredItem.self, capacity: m) { read in
            snapshot.withUnsafeBufferPointer { items in
                for k in 0..<m {
                    let e = Int(listed[k])
                    if e >= 0 {
                        read[k] = items[e]
                    } else {
                        let at = index.clusterPositions[~e]
                        read[k] = _ClusteredItem(x: at.x, y: at.y, id: -1, icon: 0)
                    }
                }
            }
            for k in 0..<m {
                let e = Int(listed[k])
                if e >= 0 {
                    addItem(e, read[k], owner: owner, projection: p, icons: icons, copies: copies, into: &out)
                } else {
                    let c = read[k]
                    let node = Int32(snapshot.count + ~e)
                    addCluster(id: index.publicID(ofItem: node), count: Int(index.clusterPoints[~e]), worldX: c.x, worldY: c.y,
                               member: ~e < clusterMember.count ? Int(clusterMember[~e]) : 0, node: node,
                               owner: owner, projection: p, icons: icons, copies: copies, into: &out)
                }
            }
        }
    }

    private func addItem(_ i: Int, _ item: _ClusteredItem, owner: Int32, projection p: CameraProjection,
                         icons: IconRegistry, copies: Int, into out: inout [Drawn]) {
        forEachPlace(worldX: item.x, worldY: item.y, copies: copies, placed: out.count, projection: p) { s, copy in
            out.append(Drawn(item: itemScene(owner: owner, item, at: s, icons: icons), worldX: item.x, worldY: item.y,
                             member: i, copy: copy))
        }
    }

    /// Where a world position is drawn in the view or its margin, on each copy of the world
    /// that shows it (see `Scene.copies`), trying only those that may.
    private func forEachPlace(worldX: Double, worldY: Double, copies: Int, placed: Int, projection p: CameraProjection,
                              _ body: ((x: Double, y: Double), Int) -> Void) {
        guard let near = Scene.copies(Scene.copies(copies, placed: placed), placing: worldX, worldY, projection: p) else { return }
        for copy in near {
            guard let s = p.screenPoint(worldX: worldX, worldY: worldY, copy: copy), Scene.places(s.x, s.y, in: p.viewport)
            else { continue }
            body(s, copy)
        }
    }

    private func addCluster(id: Int64, count: Int, worldX: Double, worldY: Double, member: Int, node: Int32 = -1, owner: Int32,
                            projection p: CameraProjection, icons: IconRegistry, copies: Int, into out: inout [Drawn]) {
        forEachPlace(worldX: worldX, worldY: worldY, copies: copies, placed: out.count, projection: p) { s, copy in
            appendCluster(id: id, count: count, worldX: worldX, worldY: worldY, member: member, node: node, owner: owner, at: s,
                          copy: copy, icons: icons, into: &out)
        }
    }

    /// A cluster's icon at a screen point, or its items on their legs while it is spread out.
    private func appendCluster(id: Int64, count: Int, worldX: Double, worldY: Double, member: Int, node: Int32, owner: Int32,
                               at s: (x: Double, y: Double), copy: Int, icons: IconRegistry, into out: inout [Drawn]) {
        if let spider = spiderfied, spider.cluster == id {
            // Spread out: the items on their legs instead of the icon.
            for (k, o) in Spiderfy.offsets(count: spider.members.count).enumerated() {
                let i = Int(spider.members[k])
                var item = itemScene(owner: owner, snapshot[i], at: (s.x + o.x, s.y + o.y), icons: icons)
                item.hasLeg = true
                item.legX = s.x
                item.legY = s.y
                out.append(Drawn(item: item, worldX: worldX, worldY: worldY, member: i, copy: copy))
            }
            return
        }
        out.append(Drawn(item: clusterScene(owner: owner, id: id, count: count, at: s),
                         worldX: worldX, worldY: worldY, member: member, node: node, copy: copy))
    }

    /// C5: starts a transition when the clustering drawn changes zoom, and moves this frame's
    /// entities out of their clusters (zooming in; zooming out, `appendGhosts` adds the old
    /// ones flying into theirs).
    private func animate(_ drawn: inout [Drawn], owner: Int32, projection p: CameraProjection, time: Double) {
        let asClusters = p.zoom <= rendering.maximumClusterZoom
        let zoom = algorithm == .hierarchical ? ((try? index?.limitZoom(p.zoom)) ?? nil) ?? 0 : (groupsZoom ?? 0)
        let key = _DrawnKey(zoom: zoom, asClusters: asClusters, generation: generation)
        if key != lastKey {
            let state = currentState(cameraZoom: p.zoom)
            if animatesClusters, let old = lastKey, let before = lastState, old.generation == key.generation
                || algorithm != .hierarchical, old.zoom != key.zoom, !lastDrawn.isEmpty {
                var t = ClusterTransition(start: time, zoomingIn: key.zoom > old.zoom, before: before, ghosts: [])
                if !t.zoomingIn {
                    t.ghosts.reserveCapacity(lastDrawn.count)
                    for d in lastDrawn where d.member < snapshot.count {
                        let to = state.position(ofItem: d.member, drawnAs: d.node, manager: self)
                        if to.x != d.worldX || to.y != d.worldY {
                            t.ghosts.append((d.item, d.worldX, d.worldY, to.x, to.y, d.copy))
                        }
                    }
                }
                transition = t
            }
            lastKey = key
            lastState = state
        }
        // Kept once this frame's entities are placed: sharing the list before moving them would
        // copy it whole on the first move, every frame of a transition.
        defer {
            spareDrawn = lastDrawn   // its only owner once replaced: next frame fills it again
            lastDrawn = drawn
        }
        guard let t = transition else { return }
        if t.isFinished(at: time) {
            transition = nil
            return
        }
        guard t.zoomingIn else { return }
        let f = t.progress(at: time)
        for k in 0..<drawn.count where drawn[k].member < snapshot.count && !drawn[k].item.hasLeg {
            let from = t.before.position(ofItem: drawn[k].member, drawnAs: drawn[k].node, manager: self)
            ClusterManager.place(&drawn[k].item, worldX: from.x + (drawn[k].worldX - from.x) * f,
                                 worldY: from.y + (drawn[k].worldY - from.y) * f, copy: drawn[k].copy, projection: p)
            drawn[k].item.progress = f
        }
    }

    /// Zooming out, what was drawn before flies into its new place, fading, drawn after this
    /// frame's entities (straight into the scene's list: transitions need nothing more of them).
    private func appendGhosts(projection p: CameraProjection, time: Double, into out: inout [SceneItem]) {
        guard let t = transition, !t.zoomingIn else { return }
        let f = t.progress(at: time)
        for g in t.ghosts {
            var item = g.item
            ClusterManager.place(&item, worldX: g.fromX + (g.toX - g.fromX) * f, worldY: g.fromY + (g.toY - g.fromY) * f,
                                 copy: g.copy, projection: p)
            item.opacity *= 1 - f
            item.progress = f
            item.isGhost = true
            out.append(item)
        }
    }

    /// Moves a drawn item (and its box) to a world position, on a copy of the world.
    private static func place(_ item: inout SceneItem, worldX: Double, worldY: Double, copy: Int, projection p: CameraProjection) {
        guard let s = p.screenPoint(worldX: worldX, worldY: worldY, copy: copy) else { return }
        item.box.centerX += s.x - item.x
        item.box.centerY += s.y - item.y
        item.x = s.x
        item.y = s.y
    }

    private func itemScene(owner: Int32, _ item: _ClusteredItem, at s: (x: Double, y: Double),
                           icons: IconRegistry) -> SceneItem {
        let icon = icons.iconOrPin(item.icon)
        let c = icon.contentBox
        let lie = itemLie
        let box = _iconBox(at: s, width: c.maxX - c.minX, height: c.maxY - c.minY, anchorX: icon.anchorX,
                           anchorY: icon.anchorY, lie: lie)
        let anchor = icon.imageFraction(x: icon.anchorX, y: icon.anchorY)
        return SceneItem(kind: .clusterItem, id: item.id, owner: owner, x: s.x, y: s.y, rotation: lie.rotation,
                         scaleX: lie.scaleX, scaleY: lie.scaleY, opacity: 1, icon: item.icon, zIndex: 0, box: box,
                         collision: .required, collisionPriority: 0, count: 1, shear: lie.shear, anchorX: anchor.x,
                         anchorY: anchor.y)
    }

    private func clusterScene(owner: Int32, id: Int64, count: Int, at s: (x: Double, y: Double)) -> SceneItem {
        let radius = rendering.icon(for: count).diameter / 2
        return SceneItem(kind: .cluster, id: id, owner: owner, x: s.x, y: s.y, rotation: 0, scaleX: 1, scaleY: 1,
                         opacity: 1, icon: Int32(rendering.buckets.bucket(for: count)), zIndex: 0,
                         box: OrientedBox(centerX: s.x, centerY: s.y, halfWidth: radius, halfHeight: radius),
                         collision: .required, collisionPriority: 0, count: Int32(clamping: count))
    }

    /// The items of a cluster, as positions in the snapshot.
    func members(of id: Int64) throws(CairnError) -> [Int32] {
        if let index, algorithm == .hierarchical {
            var out: [Int32] = []
            index.forEachLeafItem(of: try index.clusterItem(publicID: id)) { out.append($0) }
            return out
        }
        return Array(groups.members(of: try group(ofID: id)))
    }

    /// Spreads a cluster out when zooming in cannot split it: its items all lie at one place,
    /// or splitting needs a zoom beyond `maxZoom`. Returns whether it did.
    func spiderfyIfStuck(_ id: Int64, splitZoom: Double, maxZoom: Double, cameraZoom: Double,
                         worldX: Double, worldY: Double) throws(CairnError) -> Bool {
        let items = try members(of: id)
        guard let first = items.first else { return false }
        let x0 = snapshot[Int(first)].x, y0 = snapshot[Int(first)].y
        let together = items.allSatisfy { snapshot[Int($0)].x == x0 && snapshot[Int($0)].y == y0 }
        guard together || splitZoom > maxZoom else { return false }
        spiderfied = Spiderfy(cluster: id, centerX: worldX, centerY: worldY, members: items, zoom: cameraZoom)
        return true
    }

    /// Folds a spread-out cluster back (a tap elsewhere, a zoom change).
    func unspiderfy() { spiderfied = nil }

    /// Where a tapped cluster should take the camera by default (C7): its position and the
    /// zoom at which it splits (`expansionZoom`).
    func expansion(of id: Int64) throws(CairnError) -> (worldX: Double, worldY: Double, zoom: Double) {
        let zoom = Double(try expansionZoom(of: id))
        if let index, algorithm == .hierarchical {
            let (x, y) = index.reportedPosition(try index.clusterItem(publicID: id))
            return (x, y, zoom)
        }
        let g = try group(ofID: id)
        return (groups.x[g], groups.y[g], zoom)
    }
}
