import XCTest
@testable import Cairn

final class UISettingsTests: XCTestCase {
    func testDefaultsAreGooglesAndTheBitsFollowThePropertyOrder() {
        let s = UISettings()
        XCTAssertEqual([s.scrollGestures, s.zoomGestures, s.tiltGestures, s.rotateGestures],
                       [true, true, true, true], "gestures on")
        XCTAssertEqual([s.compassButton, s.myLocationButton], [false, false], "buttons off")
        XCTAssertTrue(s.indoorPicker, "the floor picker on")
        XCTAssertEqual(s.bits, 0b1001111)
        XCTAssertEqual(UISettings.count, 7)
        XCTAssertEqual(UISettings.allBits, 127)
        for bits in [Int32(0), 1, 0b1010101, 127] { XCTAssertEqual(UISettings(bits: bits).bits, bits) }
    }

    func testSettingsNotGivenKeepTheirDefaults() {
        XCTAssertEqual(UISettings(bits: 0, given: 0), UISettings(), "nothing given: the defaults")
        XCTAssertEqual(UISettings(bits: 127, given: 0), UISettings(), "bits not given do not count")
        for i in 0..<UISettings.count {
            let bit: Int32 = 1 << i
            // The one setting given, turned the other way; the rest stay as they were by default.
            let flipped = UISettings(bits: ~UISettings().bits & bit, given: bit)
            XCTAssertEqual(flipped.bits, UISettings().bits ^ bit, "setting \(i)")
        }
        var compass = UISettings()
        compass.compassButton = true
        XCTAssertEqual(UISettings(bits: 16, given: 16), compass)
        XCTAssertEqual(UISettings(bits: 0, given: 127), UISettings(bits: 0), "everything given")
    }
}
