/// The first position in an ascending array whose value is not less than `key` (the count
/// when there is none).
func _lowerBound<T: Comparable>(_ sorted: [T], _ key: T) -> Int {
    sorted.withUnsafeBufferPointer { _lowerBound($0.baseAddress, count: $0.count, key) }
}

/// The same over `count` values in raw memory (`base` may be nil when `count` is 0).
func _lowerBound<T: Comparable>(_ base: UnsafePointer<T>?, count: Int, _ key: T) -> Int {
    guard let base else { return 0 }
    var lo = 0, hi = count
    while lo < hi {
        let mid = (lo + hi) >> 1
        if base[mid] < key { lo = mid + 1 } else { hi = mid }
    }
    return lo
}
