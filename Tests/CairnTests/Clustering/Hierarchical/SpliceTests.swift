import XCTest
@testable import Cairn

/// The in-place splice of a list: the same list as taking the items out and putting the others
/// in one by one, and runs and landing places that say where everything went.
final class SpliceTests: XCTestCase {
    func testSpliceEqualsRemovingAndInsertingOneByOne() {
        var rng = SeededRandom(seed: 17)
        for round in 0..<300 {
            let count = Int(rng.next() * 60)
            let list = (0..<count).map { Int32($0) }
            var leaving = (0..<count).filter { _ in rng.next() < 0.2 }
            if round % 7 == 0 { leaving = Array(0..<count) }
            let entering = (0..<Int(rng.next() * 12)).map { k in (at: Int(rng.next() * Double(count + 1)), item: Int32(1000 + k)) }
                .sorted { $0.at < $1.at }
            // Expected: each entering item before the old place it names, the leaving ones gone.
            var expected: [Int32] = []
            var e = 0
            for place in 0...count {
                while e < entering.count && entering[e].at == place {
                    expected.append(entering[e].item)
                    e += 1
                }
                if place < count && !leaving.contains(place) { expected.append(list[place]) }
            }
            var spliced = list
            let (runs, landed) = _Splice.apply(&spliced, leaving: leaving, entering: entering)
            XCTAssertEqual(spliced, expected, "round \(round)")
            XCTAssertEqual(landed.map { spliced[$0] }, entering.map(\.item), "round \(round): where the entering items landed")
            for t in runs {
                XCTAssertEqual(Array(spliced[(t.from + t.shift)..<(t.from + t.shift + t.count)]), Array(list[t.from..<(t.from + t.count)]),
                               "round \(round): run \(t)")
            }
            XCTAssertEqual(runs.reduce(0) { $0 + $1.count }, count - leaving.count, "round \(round): every kept item in a run")
        }
    }
}
