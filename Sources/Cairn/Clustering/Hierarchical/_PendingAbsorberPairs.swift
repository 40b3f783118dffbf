/// The absorber pairs the space-order sweep has found for the items of the row it is in and
/// the row below, not yet listed by item: the sweep measures each pair once, from the item
/// earlier in sorted order, so an item's pairs arrive while its own row and the row above are
/// swept. Each pair is `dependent << 32 | absorber` (positions). Raw memory that grows by
/// doubling, with a per-item count for listing a row; whoever keeps one calls `deallocate()`.
struct _PendingAbsorberPairs {
    private(set) var pairs: UnsafeMutablePointer<UInt64>
    private var capacity: Int
    var count = 0
    /// Scratch for `listRow`: per item of the row, its pair count, then where its list goes;
    /// all zero between rows, so a row clears only the items it used.
    private var perItem: UnsafeMutablePointer<UInt32>
    private var perItemCapacity: Int

    init() {
        capacity = 1024
        pairs = UnsafeMutablePointer<UInt64>.allocate(capacity: capacity)
        perItemCapacity = 1024
        perItem = UnsafeMutablePointer<UInt32>.allocate(capacity: perItemCapacity)
        perItem.initialize(repeating: 0, count: perItemCapacity)
    }

    func deallocate() {
        pairs.deallocate()
        perItem.deallocate()
    }

    /// Makes room for `extra` more pairs (the sweep writes every candidate, kept or not).
    @inline(__always)
    mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(count + extra) }
    }

    private mutating func grow(_ needed: Int) {
        let bigger = UnsafeMutablePointer<UInt64>.allocate(capacity: Swift.max(2 * capacity, needed))
        bigger.update(from: pairs, count: count)
        pairs.deallocate()
        pairs = bigger
        capacity = Swift.max(2 * capacity, needed)
    }

    /// Lists the pairs of the items at positions `row` (a whole row, every row before it listed
    /// already) by item, in position order: each item with pairs is added to `dependent`, its
    /// absorbers go to `absorbers[edges...]`, sorted by rank, and its end to
    /// `edgeStart[dependents + 1]`. The pairs of the row below stay. Returns false, having listed
    /// nothing, when the lists would pass `capacity`.
    mutating func listRow(_ row: Range<Int>, _ e: UnsafeMutablePointer<_ItemRecord>, dependent: _Bitset,
                          absorbers: UnsafeMutablePointer<UInt32>, edgeStart: UnsafeMutablePointer<UInt32>,
                          edges: inout Int, dependents: inout Int, capacity: Int) -> Bool {
        if count == 0 { return true }
        let length = row.count
        if length > perItemCapacity {
            perItem.deallocate()
            perItemCapacity = Swift.max(2 * perItemCapacity, length)
            perItem = UnsafeMutablePointer<UInt32>.allocate(capacity: perItemCapacity)
            perItem.initialize(repeating: 0, count: perItemCapacity)
        }
        // Counts per item (zero between rows), and the items with pairs to the dependents.
        let first = row.lowerBound, end = row.upperBound
        var listed = 0
        for i in 0..<count {
            let d = Int(pairs[i] >> 32)
            if d < end {
                perItem[d - first] += 1
                dependent.insert(d)
                listed += 1
            }
        }
        if listed == 0 { return true }
        if edges + listed > capacity {
            dependent.forEach(in: row) { d in
                perItem[d - first] = 0
                dependent.remove(d)
            }
            return false
        }
        // Counts to starts.
        var at = edges
        let firstDependent = dependents
        dependent.forEach(in: row) { d in
            let c = Int(perItem[d - first])
            perItem[d - first] = UInt32(at)
            at += c
            dependents += 1
            edgeStart[dependents] = UInt32(at)
        }
        // The row's pairs to their lists; the row below's move to the front.
        var kept = 0
        for i in 0..<count {
            let pair = pairs[i]
            let d = Int(pair >> 32)
            if d < end {
                let slot = Int(perItem[d - first])
                absorbers[slot] = UInt32(truncatingIfNeeded: pair)
                perItem[d - first] = UInt32(slot + 1)
            } else {
                pairs[kept] = pair
                kept += 1
            }
        }
        count = kept
        dependent.forEach(in: row) { perItem[$0 - first] = 0 }
        // By rank, so that resolving an item can stop at its first absorber that is a seed,
        // without reading the ranks again (see `resolveClaims`).
        for k in firstDependent..<dependents {
            let start = Int(edgeStart[k]), size = Int(edgeStart[k + 1]) - start
            if size > 1 { _sortByRank(absorbers + start, count: size, e) }
        }
        edges = at
        return true
    }
}

/// Sorts an item's few possible absorbers by rank (insertion sort: there are one to three for
/// most items).
@inline(__always)
func _sortByRank(_ absorbers: UnsafeMutablePointer<UInt32>, count: Int, _ e: UnsafeMutablePointer<_ItemRecord>) {
    for i in 1..<count {
        let a = absorbers[i]
        let rank = e[Int(a)].rank
        var k = i
        while k > 0 && e[Int(absorbers[k - 1])].rank > rank {
            absorbers[k] = absorbers[k - 1]
            k -= 1
        }
        absorbers[k] = a
    }
}
