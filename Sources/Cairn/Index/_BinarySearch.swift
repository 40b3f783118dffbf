/// The first position in an ascending array whose value is not less than `key` (the count
/// when there is none).
func _lowerBound<T: Comparable>(_ sorted: [T], _ key: T) -> Int {
    var lo = 0, hi = sorted.count
    while lo < hi {
        let mid = (lo + hi) / 2
        if sorted[mid] < key { lo = mid + 1 } else { hi = mid }
    }
    return lo
}
