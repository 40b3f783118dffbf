/// A stable merge sort for the per-frame lists (collisions, draw order): O(n log n) with one
/// scratch copy. The stdlib sort is not stable, and slow in wasm.
func _stableSort<T>(_ items: inout [T], by less: (T, T) -> Bool) {
    let n = items.count
    if n < 32 {
        _insertionSort(&items, by: less)
        return
    }
    var buffer = items
    var width = 1
    while width < n {
        var start = 0
        while start < n {
            let mid = Swift.min(start + width, n), end = Swift.min(start + 2 * width, n)
            var a = start, b = mid, k = start
            while a < mid && b < end {
                // Take from the right run only when strictly less: equal items keep their order.
                if less(items[b], items[a]) {
                    buffer[k] = items[b]
                    b += 1
                } else {
                    buffer[k] = items[a]
                    a += 1
                }
                k += 1
            }
            while a < mid {
                buffer[k] = items[a]
                a += 1
                k += 1
            }
            while b < end {
                buffer[k] = items[b]
                b += 1
                k += 1
            }
            start += 2 * width
        }
        swap(&items, &buffer)
        width *= 2
    }
}
