import Cairn

// Memory the host fills and reads: points to load, query results. Every buffer an export takes
// must come from here, which is how exports check pointers without trusting the caller.

/// Allocates `byteCount` bytes (16-byte aligned); returns null when the size is not positive or
/// memory is exhausted.
@_expose(wasm, "cairn_alloc") @_cdecl("cairn_alloc")
public func cairn_alloc(_ byteCount: Int) -> UnsafeMutableRawPointer? {
    guard byteCount > 0, byteCount <= _maxBufferBytes else { return nil }
    // posix_memalign reports exhaustion; Swift's allocate would trap.
    var allocated: UnsafeMutableRawPointer? = nil
    guard _posixMemalign(&allocated, 16, byteCount) == 0, let pointer = allocated else { return nil }
    _Registry.bufferStarts.append(UInt(bitPattern: pointer))
    _Registry.bufferSizes.append(byteCount)
    return pointer
}

/// Frees a buffer from `cairn_alloc`. Returns 0, or -2 for a pointer that is not a live buffer.
@_expose(wasm, "cairn_free") @_cdecl("cairn_free")
public func cairn_free(_ pointer: UnsafeMutableRawPointer?) -> Int32 {
    guard let pointer else { return _Registry.fail(.invalidArgument) }
    let start = UInt(bitPattern: pointer)
    guard let i = _Registry.bufferStarts.firstIndex(of: start) else { return _Registry.fail(.invalidArgument) }
    _Registry.bufferStarts.remove(at: i)
    _Registry.bufferSizes.remove(at: i)
    pointer.deallocate()
    return 0
}

/// Version of this ABI; the JS bindings refuse a module whose version they do not know.
@_expose(wasm, "cairn_abi_version") @_cdecl("cairn_abi_version")
public func cairn_abi_version() -> Int32 { 1 }

/// Doubles per result record: [id, point count, x, y].
@_expose(wasm, "cairn_record_stride") @_cdecl("cairn_record_stride")
public func cairn_record_stride() -> Int32 { Int32(_RecordWriter.stride) }

/// Largest buffer `cairn_alloc` gives, in bytes.
@_expose(wasm, "cairn_buffer_limit") @_cdecl("cairn_buffer_limit")
public func cairn_buffer_limit() -> Int32 { Int32(_maxBufferBytes) }

/// Status codes run from -1 to -this.
@_expose(wasm, "cairn_status_count") @_cdecl("cairn_status_count")
public func cairn_status_count() -> Int32 { CairnError.codeCount }

/// The detail of the last error: the index of a bad point, the field of a bad option, the id of
/// an unknown cluster.
@_expose(wasm, "cairn_last_error_detail") @_cdecl("cairn_last_error_detail")
public func cairn_last_error_detail() -> Double { _Registry.lastErrorDetail }

/// Largest single buffer: 1 GiB, well inside wasm32's 4 GiB, so a bad size is refused rather
/// than failing inside the allocator (which would trap).
let _maxBufferBytes = 1 << 30

@_extern(c, "posix_memalign")
func _posixMemalign(_ pointer: UnsafeMutablePointer<UnsafeMutableRawPointer?>, _ alignment: Int, _ size: Int) -> Int32
