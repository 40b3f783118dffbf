/// Taking items out of a list and putting others in, in place: between two changes the kept
/// items keep their order and shift by as many places as entered less left before them, so
/// only the runs with a shift move, each with one copy of memory (a nudged item leaves and
/// enters nearby: a short run).
enum _Splice {
    /// A run of kept items: its first old place, its length, and how far it moved.
    typealias Run = (from: Int, count: Int, shift: Int)

    /// `list` with the items at `leaving` (increasing places) taken out and `entering` put in,
    /// each before the old place it names (in order of place; ties land in the order given).
    /// Returns the runs of kept items and the places the entering items landed at.
    @discardableResult
    static func apply(_ list: inout [Int32], leaving: [Int], entering: [(at: Int, item: Int32)]) -> (runs: [Run], landed: [Int]) {
        let oldCount = list.count, count = oldCount - leaving.count + entering.count
        var runs: [Run] = [], landed: [Int] = []
        landed.reserveCapacity(entering.count)
        var r = 0, shift = 0, l = 0, k = 0
        func run(upTo end: Int) {
            if end > r { runs.append((r, end - r, shift)) }
            r = end
        }
        while l < leaving.count || k < entering.count {
            if k < entering.count && (l == leaving.count || entering[k].at <= leaving[l]) {
                run(upTo: entering[k].at)
                landed.append(r + shift)
                shift += 1
                k += 1
            } else {
                run(upTo: leaving[l])
                r += 1
                shift -= 1
                l += 1
            }
        }
        run(upTo: oldCount)
        if count > oldCount {
            if list.capacity < count { list.reserveCapacity(count + oldCount / 64) }
            list.append(contentsOf: repeatElement(-1, count: count - oldCount))
        }
        if count > 0 {
            list.withUnsafeMutableBufferPointer { items in
                let base = UnsafeMutableRawPointer(items.baseAddress!)
                @inline(__always) func move(_ t: Run) {
                    (base + 4 * (t.from + t.shift)).copyMemory(from: base + 4 * t.from, byteCount: 4 * t.count)
                }
                // Runs shifted down move first, in order, then those shifted up, in reverse:
                // neither writes over items a run still to move has to read.
                for t in runs where t.shift < 0 { move(t) }
                for t in runs.reversed() where t.shift > 0 { move(t) }
                for (t, place) in landed.enumerated() { items[place] = entering[t].item }
            }
        }
        if count < oldCount { list.removeLast(oldCount - count) }
        return (runs, landed)
    }
}
