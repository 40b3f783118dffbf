/// Sorts active records by rank in place: a most-significant-digit radix sort (8-bit digits,
/// each bucket permuted in place by cycles, small buckets by insertion).
///
/// In place because the records are the build's largest scratch at the zooms where most items
/// have neighbours: an out-of-place sort would add its own copy to the memory peak. Ranks are
/// unique among the items of a zoom, so stability does not matter.
enum _RankSort {
    static func sort(_ records: UnsafeMutablePointer<_ActiveItem>, count: Int) {
        if count < 2 { return }
        var top: UInt32 = 0
        for i in 0..<count where records[i].rank > top { top = records[i].rank }
        var shift: UInt32 = 0
        while shift < 24 && (top >> (shift + 8)) != 0 { shift += 8 }
        // One table of 256 bucket heads and ends per digit level (at most four levels).
        let table = UnsafeMutablePointer<Int>.allocate(capacity: 4 * 512)
        defer { table.deallocate() }
        sort(records, 0, count, shift, table)
    }

    private static func sort(_ a: UnsafeMutablePointer<_ActiveItem>, _ lo: Int, _ hi: Int, _ shift: UInt32,
                             _ table: UnsafeMutablePointer<Int>) {
        if hi - lo <= 32 {
            insertionSort(a, lo, hi)
            return
        }
        let heads = table + Int(shift / 8) * 512
        let ends = heads + 256
        for d in 0..<256 { heads[d] = 0 }
        for i in lo..<hi { heads[Int((a[i].rank >> shift) & 255)] += 1 }
        var sum = lo
        for d in 0..<256 {
            let n = heads[d]
            heads[d] = sum
            sum += n
            ends[d] = sum
        }
        // Walk each bucket; a record found in the wrong bucket moves to where its bucket's next
        // free slot is, and the record it displaces continues the cycle.
        for d in 0..<256 {
            while heads[d] < ends[d] {
                var record = a[heads[d]]
                var digit = Int((record.rank >> shift) & 255)
                while digit != d {
                    let at = heads[digit]
                    heads[digit] = at + 1
                    swap(&record, &a[at])
                    digit = Int((record.rank >> shift) & 255)
                }
                a[heads[d]] = record
                heads[d] += 1
            }
        }
        if shift == 0 { return }
        var start = lo
        for d in 0..<256 {
            let end = ends[d]
            if end - start > 1 { sort(a, start, end, shift - 8, table) }
            start = end
        }
    }

    private static func insertionSort(_ a: UnsafeMutablePointer<_ActiveItem>, _ lo: Int, _ hi: Int) {
        if hi - lo < 2 { return }
        for i in (lo + 1)..<hi {
            let record = a[i]
            var j = i
            while j > lo && a[j - 1].rank > record.rank {
                a[j] = a[j - 1]
                j -= 1
            }
            a[j] = record
        }
    }
}
