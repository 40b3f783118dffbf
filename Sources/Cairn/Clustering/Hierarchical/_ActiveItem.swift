/// An item with a neighbour: its rank, its position and where its three candidate runs start,
/// so the greedy pass, which visits items in random order, finds them with no search back.
/// Where the runs end is found only for the items visited as seeds: in a crowded cell that is
/// one item in thousands.
struct _ActiveItem {
    var rank: UInt32
    var position: UInt32
    var aboveStart: UInt32
    var sameStart: UInt32
    var belowStart: UInt32

    init(rank: UInt32, position: Int, starts: (Int, Int, Int)) {
        self.rank = rank
        self.position = UInt32(position)
        aboveStart = UInt32(starts.0)
        sameStart = UInt32(starts.1)
        belowStart = UInt32(starts.2)
    }

    @inline(__always)
    func runs(_ items: _SortedItems) -> (Range<Int>, Range<Int>, Range<Int>) {
        items.candidateRuns(of: Int(position), starts: (Int(aboveStart), Int(sameStart), Int(belowStart)))
    }
}
