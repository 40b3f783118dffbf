/// How much the heap can still grow. A 32-bit WebAssembly module has at most 4 GiB, and an
/// allocation that fails there traps (aborts the module), so an index refuses points it could
/// not build rather than fail halfway. Natively the answer is "plenty".
enum _AddressSpace {
    /// Bytes between the heap's end and 4 GiB in a 32-bit build; `Int64.max` natively.
    static var remaining: Int64 {
        #if _pointerBitWidth(_32)
        let top = UInt64(UInt(bitPattern: _sbrk(0)))
        return Int64(bitPattern: (UInt64(1) << 32) &- top)
        #else
        return Int64.max
        #endif
    }

    /// What building the index needs per point beyond the point itself (60 to 68 bytes per
    /// point at the peak, see the README), with a margin.
    static let buildBytesPerPoint: Int64 = 112

    /// Grows a 32-bit WebAssembly heap in one step by room for `byteCount` bytes that are about to
    /// be allocated. The allocator grows the memory by what each allocation lacks, and every
    /// growth costs the host more than its size suggests: V8 replaces the memory's buffer object
    /// and counts the whole memory again towards its garbage collector's limit, so it collects
    /// after nearly every growth. The block is freed at once and the allocations that follow
    /// take it again, so this costs no memory they would not take anyway. Its pages are written
    /// once first, in order: the host maps a page at its first write, and those first writes
    /// cost more scattered through the build than in one sweep here. Natively it does nothing.
    static func prepareHeap(forAllocating byteCount: Int) {
        #if _pointerBitWidth(_32)
        guard byteCount > 0 else { return }
        // posix_memalign, not malloc: the optimizer deletes an unused malloc and its free.
        var block: UnsafeMutableRawPointer? = nil
        if _posixMemalign(&block, 16, byteCount) == 0, let block {
            _touchPages(block, byteCount)
            block.deallocate()
        }
        #endif
    }
}

/// Writes one byte in every 4 KiB page of a block. Not optimized: the stores are dead to the
/// compiler (the block is freed next), but they make the host map the pages now.
@_optimize(none)
func _touchPages(_ block: UnsafeMutableRawPointer, _ byteCount: Int) {
    var offset = 0
    while offset < byteCount {
        block.storeBytes(of: 0, toByteOffset: offset, as: UInt8.self)
        offset += 4096
    }
}

/// `buffer`, which holds at least `capacity` elements, with its room cut to `capacity`: the
/// allocator splits the block where it lies and frees the rest (it may move it instead, copying
/// the bytes that fit, hence `BitwiseCopyable`). The buffer must come from `allocate`, which is
/// `malloc`'s family on the targets built (not on Windows, whose aligned blocks `realloc` must
/// not take). If the allocator fails, the buffer stays as it was.
func _shrink<T: BitwiseCopyable>(_ buffer: UnsafeMutablePointer<T>, toCapacity capacity: Int) -> UnsafeMutablePointer<T> {
    guard let shrunk = _realloc(UnsafeMutableRawPointer(buffer), capacity * MemoryLayout<T>.stride) else { return buffer }
    return shrunk.bindMemory(to: T.self, capacity: capacity)
}

@_extern(c, "realloc") func _realloc(_ block: UnsafeMutableRawPointer?, _ byteCount: Int) -> UnsafeMutableRawPointer?
@_extern(c, "sbrk") func _sbrk(_ increment: Int) -> UnsafeMutableRawPointer?
@_extern(c, "posix_memalign")
func _posixMemalign(_ result: UnsafeMutablePointer<UnsafeMutableRawPointer?>, _ alignment: Int, _ byteCount: Int) -> Int32
