/// One item as a cluster manager's last `cluster()` took it: world position, id and icon in one
/// record. Frames read these for thousands of items scattered over up to millions: one record
/// is one cache miss where four parallel arrays were four.
struct _SnapshotItem {
    var x: Double
    var y: Double
    var id: Int64
    var icon: Int32
}
