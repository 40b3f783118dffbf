import XCTest
@testable import CairnWasm
import Cairn

/// Buffers, layout constants and status codes over the C ABI.
final class MemoryExportsTests: XCTestCase {
    func testLayoutConstants() {
        XCTAssertEqual(cairn_abi_version(), 1)
        XCTAssertEqual(cairn_record_stride(), Int32(_RecordWriter.stride))
        XCTAssertEqual(cairn_status_count(), CairnError.codeCount)
    }

    func testAllocationsAreCheckedWhenFreed() {
        XCTAssertNil(cairn_alloc(0))
        XCTAssertNil(cairn_alloc(-8))
        XCTAssertNil(cairn_alloc(1 << 31 - 1 + 1))
        let p = cairn_alloc(64)!
        XCTAssertEqual(cairn_free(p + 8), -2, "not the start of a buffer")
        XCTAssertEqual(cairn_free(p), 0)
        XCTAssertEqual(cairn_free(p), -2, "freed twice")
        XCTAssertEqual(cairn_free(nil), -2)
    }
}
