/// One item as a cluster manager's last `cluster()` took it: world position, id and icon in one
/// record. Frames read these for thousands of items scattered over up to millions: one record
/// costs one cache miss, where parallel arrays would cost one per array.
struct _ClusteredItem {
    var x: Double
    var y: Double
    var id: Int64
    var icon: Int32
}
