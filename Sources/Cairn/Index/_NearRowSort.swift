/// A stable sort of cell keys (`row << 32 | column`) that lie near a sorted reference: key `j`
/// in the row above, the same row or the row below `referenceRows[j]` (nondecreasing). A
/// zoom's new clusters are such keys: staged in the order of their seeds, each centroid within
/// the radius, one cell at most, of its seed. The keys split into three lists by that row
/// offset, each sorted but for the few places a column shifted (an insertion sort fixes them),
/// and one merge makes the order: a few passes that read and write in order, where the radix
/// sort scatters its writes.
///
/// Gives the same order as a stable sort of the keys for any reference, `order` holding the
/// keys' input positions (ties go by them); the reference only decides whether it is fast.
/// The lists go in the caller's memory, `_nearRowSortBytes(keys.count)` bytes at `lists`
/// (8-byte aligned). Returns false, with `keys` and `order` untouched, where it would not be
/// fast: a key not within one row of its reference, or columns too far out of order.
func _sortNearReferenceRows(_ keys: inout [UInt64], _ order: inout [UInt32], referenceRows: UnsafePointer<UInt32>,
                            lists: UnsafeMutableRawPointer) -> Bool {
    let m = keys.count
    guard order.count == m else { return false }
    if m < 2 { return true }
    // The three lists side by side, each closed by a sentinel so that merging needs no end
    // checks; list 0 holds the keys a row above their reference, 1 those in its row, 2 below.
    let listKeys = lists.bindMemory(to: UInt64.self, capacity: m + 3)
    let listOrder = (lists + (m + 3) * MemoryLayout<UInt64>.stride).bindMemory(to: UInt32.self, capacity: m + 3)
    let starts = keys.withUnsafeMutableBufferPointer { k in
        order.withUnsafeMutableBufferPointer { o in
            splitByRow(k, o, referenceRows: referenceRows, into: listKeys, listOrder)
        }
    }
    guard let starts else { return false }
    keys.withUnsafeMutableBufferPointer { k in
        order.withUnsafeMutableBufferPointer { o in
            mergeLists(listKeys, listOrder, starts: starts, into: k, o)
        }
    }
    return true
}

/// The bytes of `_sortNearReferenceRows`'s lists for `m` keys.
func _nearRowSortBytes(_ m: Int) -> Int { (m + 3) * (MemoryLayout<UInt64>.stride + MemoryLayout<UInt32>.stride) }

/// Copies the keys into their three lists, in input order, and sorts each; returns the lists'
/// starts. Nil if a key is not within one row of its reference or the lists need too many moves.
private func splitByRow(_ keys: UnsafeMutableBufferPointer<UInt64>, _ order: UnsafeMutableBufferPointer<UInt32>,
                        referenceRows: UnsafePointer<UInt32>, into listKeys: UnsafeMutablePointer<UInt64>,
                        _ listOrder: UnsafeMutablePointer<UInt32>) -> (Int, Int, Int)? {
    let m = keys.count
    @inline(__always) func list(_ j: Int) -> Int { Int(Int64(keys[j] >> 32) - Int64(referenceRows[j])) + 1 }
    return withUnsafeTemporaryAllocation(of: Int.self, capacity: 3) { ends in
        ends.initialize(repeating: 0)
        for j in 0..<m {
            let l = list(j)
            if UInt(bitPattern: l) > 2 { return nil }
            ends[l] += 1
        }
        let starts = (0, ends[0] + 1, ends[0] + ends[1] + 2)
        // Each list's sentinel, in the slot past its end (written one by one: a loop over an
        // array literal allocated the array on every sort).
        @inline(__always) func close(_ end: Int) {
            listKeys[end] = .max
            listOrder[end] = .max
        }
        close(starts.1 - 1)
        close(starts.2 - 1)
        close(m + 2)
        ends[0] = starts.0; ends[1] = starts.1; ends[2] = starts.2
        for j in 0..<m {
            let l = list(j)
            let w = ends[l]
            ends[l] = w + 1
            listKeys[w] = keys[j]
            listOrder[w] = order[j]
        }
        // A few moves per key for the columns a centroid shifted; many mean the keys are not
        // near their reference after all.
        var budget = 8 * m + 1024
        let sorted = RadixSort.insertionSort(listKeys + starts.0, listOrder + starts.0, count: ends[0] - starts.0, budget: &budget)
            && RadixSort.insertionSort(listKeys + starts.1, listOrder + starts.1, count: ends[1] - starts.1, budget: &budget)
            && RadixSort.insertionSort(listKeys + starts.2, listOrder + starts.2, count: ends[2] - starts.2, budget: &budget)
        return sorted ? starts : nil
    }
}

/// Merges the three sorted lists by key, then by order value (input positions, ascending in
/// each list), choosing each next key without a branch: which list it comes from is a coin flip.
private func mergeLists(_ listKeys: UnsafeMutablePointer<UInt64>, _ listOrder: UnsafeMutablePointer<UInt32>,
                        starts: (Int, Int, Int), into keys: UnsafeMutableBufferPointer<UInt64>,
                        _ order: UnsafeMutableBufferPointer<UInt32>) {
    @inline(__always) func before(_ k: UInt64, _ o: UInt32, _ k2: UInt64, _ o2: UInt32) -> Bool {
        (k < k2 ? 1 : 0) | ((k == k2 ? 1 : 0) & (o < o2 ? 1 : 0)) != 0
    }
    var h0 = starts.0, h1 = starts.1, h2 = starts.2
    for w in 0..<keys.count {
        let k0 = listKeys[h0], k1 = listKeys[h1], k2 = listKeys[h2]
        let o0 = listOrder[h0], o1 = listOrder[h1], o2 = listOrder[h2]
        let pick1 = before(k1, o1, k0, o0)
        let ka = pick1 ? k1 : k0, oa = pick1 ? o1 : o0
        let pick2 = before(k2, o2, ka, oa)
        keys[w] = pick2 ? k2 : ka
        order[w] = pick2 ? o2 : oa
        h2 &+= pick2 ? 1 : 0
        h1 &+= pick1 && !pick2 ? 1 : 0
        h0 &+= !pick1 && !pick2 ? 1 : 0
    }
}
