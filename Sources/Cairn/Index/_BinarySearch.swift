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

/// The first position at or after `start` whose value is not less than `key`, for callers that
/// know every value before `start` is less: probes 1, 2, 4, … places on, then a binary search
/// in the last step, so that an answer a few places on costs a few reads nearby rather than a
/// search over the whole array.
func _lowerBound<T: Comparable>(_ base: UnsafePointer<T>, count: Int, _ key: T, from start: Int) -> Int {
    var lo = start, probe = start, step = 1
    while probe < count && base[probe] < key {
        lo = probe + 1
        probe += step
        step <<= 1
    }
    var hi = min(probe, count)
    while lo < hi {
        let mid = (lo + hi) >> 1
        if base[mid] < key { lo = mid + 1 } else { hi = mid }
    }
    return lo
}
