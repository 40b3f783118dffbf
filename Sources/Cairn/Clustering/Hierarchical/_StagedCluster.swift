/// A cluster formed during the greedy pass, stored once the pass is over.
struct _StagedCluster {
    var x: Double
    var y: Double
    var count: UInt32
    var rank: UInt32
}
