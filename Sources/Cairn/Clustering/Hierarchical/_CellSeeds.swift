/// The seeds of one zoom of an edit's repair, by cell of the zoom's grid (`_ClusterGrid`), for
/// decisions where the items crowd: a decision reads only seeds, and seeds lie more than a
/// radius apart, so a cell holds a few of them however many items it holds. Each cell is read
/// once, when a decision first needs it, and kept current as decisions make and unmake seeds
/// (the repair decides in rank order and a decision reads only seeds ranked before it, whose
/// own decisions are final by then).
struct _CellSeeds {
    struct Seed {
        var rank: UInt32
        var item: Int32
        var x: Double
        var y: Double
    }

    let grid: _ClusterGrid
    private var cells = _Slots<UInt64>(expected: 64)
    private var seeds: [[Seed]] = []
    /// The cells where a search read a crowd: decisions there read the seeds instead.
    private var crowded = _Slots<UInt64>(expected: 16)

    init(grid: _ClusterGrid) { self.grid = grid }

    /// Whether a search from the float32 position `(x, y)` read a crowd.
    func isCrowded(_ x: Float, _ y: Float) -> Bool { crowded.slot(of: grid.key(x: x, y: y)) != nil }

    mutating func markCrowded(_ x: Float, _ y: Float) { _ = crowded.insert(grid.key(x: x, y: y)) }

    /// Calls `body` with every seed in the 3×3 cells around the float32 position `(x, y)`,
    /// reading a cell first with `read` (which appends its seeds) where no decision has yet.
    mutating func forEach(near x: Float, _ y: Float, read: (UInt64, inout [Seed]) -> Void, _ body: (Seed) -> Void) {
        let row = grid.cell(y), column = grid.cell(x)
        for r in (row > 0 ? row - 1 : 0)...(row + 1) {
            for c in (column > 0 ? column - 1 : 0)...(column + 1) {
                let key = r << 32 | c
                let (s, isNew) = cells.insert(key)
                if isNew {
                    var list: [Seed] = []
                    read(key, &list)
                    seeds.append(list)
                }
                for seed in seeds[s] { body(seed) }
            }
        }
    }

    /// Records a new decision of `item`, at the float32 position `(x, y)`: a seed now or not.
    /// (Cells not read yet will read it as it is when they are.)
    mutating func update(_ item: Int32, at x: Float, _ y: Float, isSeed: Bool, _ seed: () -> Seed) {
        guard let s = cells.slot(of: grid.key(x: x, y: y)) else { return }
        if let k = seeds[s].firstIndex(where: { $0.item == item }) {
            if !isSeed { seeds[s].remove(at: k) }
        } else if isSeed {
            seeds[s].append(seed())
        }
    }
}
