/// How much the heap can still grow. A 32-bit WebAssembly module has at most 4 GiB, and an
/// allocation that fails there traps (aborts the module), so an index refuses points it could
/// not build rather than fail halfway. Natively the answer is "plenty".
enum _AddressSpace {
    /// Bytes between the heap's end and 4 GiB in a 32-bit build; `Int64.max` natively.
    static var remaining: Int64 {
        guard Int.bitWidth == 32 else { return Int64.max }
        let top = UInt64(UInt(bitPattern: _sbrk(0)))
        return Int64(bitPattern: (UInt64(1) << 32) &- top)
    }

    /// What building the index needs per point beyond the point itself (measured: about 95
    /// bytes per point at the peak, see the README), with a margin.
    static let buildBytesPerPoint: Int64 = 112
}

@_extern(c, "sbrk") func _sbrk(_ increment: Int) -> UnsafeMutableRawPointer?
