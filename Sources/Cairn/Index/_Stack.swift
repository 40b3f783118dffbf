/// A stack of 32-bit values in raw memory that grows by doubling. A Swift array as a stack
/// checks its capacity and that it has one owner at every push, which costs as much as the work
/// of the loops it serves; this checks capacity only. Whoever keeps one calls `deallocate()`.
struct _Stack {
    private var base: UnsafeMutablePointer<UInt32>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int = 1024) {
        self.capacity = Swift.max(capacity, 1)
        base = UnsafeMutablePointer<UInt32>.allocate(capacity: self.capacity)
    }

    func deallocate() { base.deallocate() }

    var isEmpty: Bool { count == 0 }

    /// The value on top (the stack must not be empty).
    @inline(__always)
    var top: UInt32 { base[count - 1] }

    @inline(__always)
    mutating func push(_ value: UInt32) {
        if count == capacity { grow() }
        base[count] = value
        count += 1
    }

    @inline(__always)
    mutating func pop() { count -= 1 }

    mutating func removeAll() { count = 0 }

    private mutating func grow() {
        let bigger = UnsafeMutablePointer<UInt32>.allocate(capacity: 2 * capacity)
        bigger.update(from: base, count: count)
        base.deallocate()
        base = bigger
        capacity *= 2
    }
}
