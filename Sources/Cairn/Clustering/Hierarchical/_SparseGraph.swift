/// The items of a sparse zoom that have a neighbour, and their pairs. An item is referred to
/// by its position among the build's sorted points, or the point count plus its position among
/// the sorted clusters (`side`).
struct _SparseGraph {
    var pairs: [(UInt32, UInt32)] = []
    var side: [_ItemRecord] = []
    /// Each sorted cluster's index in the build's list of clusters, and whether it was absorbed
    /// (by that index).
    var sideList: [UInt32] = []
    var sideAbsorbed: [Bool] = []
    /// The nodes (item references, ascending), their entries, neighbours and rank order.
    private(set) var nodes: [UInt32] = []
    private var entries: [_ItemRecord] = []
    private var adjacencyStart: [Int] = []
    private var adjacency: [Int] = []
    private(set) var byRank: [Int] = []

    var nodeCount: Int { nodes.count }

    mutating func addPair(_ a: UInt32, _ b: UInt32) { pairs.append((a, b)) }

    func entry(_ node: Int) -> _ItemRecord { entries[node] }

    func neighbours(of node: Int) -> ArraySlice<Int> { adjacency[adjacencyStart[node]..<adjacencyStart[node + 1]] }

    /// Builds the nodes, adjacency and rank order from the pairs.
    mutating func finish(_ b: _ClusterBuild) {
        let n = b.count
        sideAbsorbed = [Bool](repeating: false, count: side.count)
        // Both ends of every pair, sorted (the sort carries values; these carry nothing).
        var refs: [UInt64] = []
        for (a, c) in pairs {
            refs.append(UInt64(a))
            refs.append(UInt64(c))
        }
        var unused = [UInt32](repeating: 0, count: refs.count)
        RadixSort.sort(keys: &refs, values: &unused, count: refs.count)
        nodes = []
        for r in refs where nodes.last != UInt32(r) { nodes.append(UInt32(r)) }
        func node(_ ref: UInt32) -> Int {
            var lo = 0, hi = nodes.count
            while lo < hi {
                let mid = (lo + hi) >> 1
                if nodes[mid] < ref { lo = mid + 1 } else { hi = mid }
            }
            return lo
        }
        entries = nodes.map { Int($0) < n ? b.entries[Int($0)] : side[Int($0) - n] }
        adjacencyStart = [Int](repeating: 0, count: nodes.count + 1)
        for (a, c) in pairs {
            adjacencyStart[node(a) + 1] += 1
            adjacencyStart[node(c) + 1] += 1
        }
        for k in 0..<nodes.count { adjacencyStart[k + 1] += adjacencyStart[k] }
        var next = adjacencyStart
        adjacency = [Int](repeating: 0, count: 2 * pairs.count)
        for (a, c) in pairs {
            let i = node(a), j = node(c)
            adjacency[next[i]] = j
            next[i] += 1
            adjacency[next[j]] = i
            next[j] += 1
        }
        var ranks = entries.map { UInt64($0.rank) }
        var order = (0..<nodes.count).map { UInt32($0) }
        RadixSort.sort(keys: &ranks, values: &order, count: ranks.count)
        byRank = order.map { Int($0) }
    }
}
