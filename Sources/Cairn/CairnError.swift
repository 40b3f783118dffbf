/// Every way a call into the engine can fail. Each case has a stable numeric `code`, which is
/// what crosses the WebAssembly boundary (negated, as a status), and a `detail` number that
/// says which point, option or id was at fault.
public enum CairnError: Error, Equatable {
    /// A handle that names no live object (never created, or destroyed).
    case invalidHandle
    /// An argument outside its domain (a NaN zoom, a negative limit, a bad buffer).
    case invalidArgument
    /// A clustering option out of range; `detail` is the `ClusterOptions.Field` raw value.
    case invalidOption(ClusterOptions.Field)
    /// A point whose longitude or latitude is NaN or infinite; `detail` is its index.
    case nonFiniteCoordinate(index: Int)
    /// A point whose latitude is beyond ±90°; `detail` is its index.
    case latitudeOutOfRange(index: Int)
    /// A cluster id that names no cluster of this index. (An id kept from other data may name a
    /// cluster here: ids say which zoom and slot, not which data.)
    case unknownCluster(id: Int64)
    /// A call made in the wrong state, such as adding points after the index was built or
    /// querying before.
    case invalidState
    /// More points than one index can hold.
    case tooManyPoints
    /// Not enough memory left to hold and build this many points; `detail` is the number of
    /// points that were to be added.
    case outOfMemory(points: Int)
    /// An aggregated property value that is infinite; `detail` is the point's index.
    case nonFiniteValue(index: Int)
    /// A malformed record in a batch (an input event with an unknown type or a NaN
    /// position); `detail` is its position in the batch. Nothing in the batch was applied.
    case invalidRecord(index: Int)
    /// A cluster icon bucket list that is empty, not positive or not strictly increasing, or
    /// whose colours do not match it; `detail` says which (`ClusterIconBuckets.Problem`).
    case invalidBuckets(ClusterIconBuckets.Problem)
    /// A marker id that names no live marker (removed, cleared, or never given).
    case unknownMarker(id: Int64)
    /// A marker property out of range; `detail` is the `MarkerProperties.Field`.
    case invalidMarker(MarkerProperties.Field)
    /// A marker in a batch with an invalid property; `detail` is its position × 16 plus the
    /// `MarkerProperties.Field` at fault (0 when the record itself did not decode). None was added.
    case invalidMarkerInBatch(index: Int, field: Int32)
    /// As many indexes live as the ABI has handles for; `detail` is that number.
    case tooManyIndexes(limit: Int)
    /// As many maps live as the ABI has handles for; `detail` is that number.
    case tooManyMaps(limit: Int)
    /// As many cluster managers on one map as it holds at once; `detail` is that number.
    case tooManyClusterManagers(limit: Int)
    /// As many markers on one map as it holds; `detail` is that number.
    case tooManyMarkers(limit: Int)
    /// As many items in one cluster manager as it holds; `detail` is that number.
    case tooManyItems(limit: Int)
    /// As many icons registered on one map as it numbers; `detail` is that number.
    case tooManyIcons(limit: Int)
    /// As many indoor buildings added to one map, over its life, as it numbers; `detail` is
    /// that number.
    case tooManyBuildings(limit: Int)
    /// A buffer refused as a saved index: truncated, not a saved index, of another format
    /// version, altered, or inconsistent; `detail` says which (`HierarchicalClusterIndex.SavedProblem`).
    case invalidSavedIndex(HierarchicalClusterIndex.SavedProblem)
    /// An edit names a point the index does not hold: never added, or removed; `detail` is the id.
    case unknownPoint(id: Int64)

    /// The stable status code (positive; the ABI returns it negated).
    public var code: Int32 {
        switch self {
        case .invalidHandle: return 1
        case .invalidArgument: return 2
        case .invalidOption: return 3
        case .nonFiniteCoordinate: return 4
        case .latitudeOutOfRange: return 5
        case .unknownCluster: return 6
        case .invalidState: return 7
        case .tooManyPoints: return 8
        case .outOfMemory: return 9
        case .nonFiniteValue: return 10
        case .invalidRecord: return 11
        case .invalidBuckets: return 12
        case .unknownMarker: return 13
        case .invalidMarker: return 14
        case .invalidMarkerInBatch: return 15
        case .tooManyIndexes: return 16
        case .tooManyMaps: return 17
        case .tooManyClusterManagers: return 18
        case .tooManyMarkers: return 19
        case .tooManyItems: return 20
        case .tooManyIcons: return 21
        case .tooManyBuildings: return 22
        case .invalidSavedIndex: return 23
        case .unknownPoint: return 24
        }
    }

    /// The number of distinct codes; codes run from 1 to this.
    public static let codeCount: Int32 = 24

    /// What the error is about: a point index, a cluster id, an option field, or 0.
    public var detail: Int64 {
        switch self {
        case .invalidOption(let field): return Int64(field.rawValue)
        case .nonFiniteCoordinate(let index), .latitudeOutOfRange(let index), .nonFiniteValue(let index),
             .invalidRecord(let index):
            return Int64(index)
        case .unknownCluster(let id), .unknownPoint(let id): return id
        case .outOfMemory(let points): return Int64(points)
        case .invalidBuckets(let problem): return Int64(problem.rawValue)
        case .invalidSavedIndex(let problem): return Int64(problem.rawValue)
        case .unknownMarker(let id): return id
        case .invalidMarker(let field): return Int64(field.rawValue)
        case .invalidMarkerInBatch(let index, let field): return Int64(index) * 16 + Int64(field)
        case .tooManyIndexes(let limit), .tooManyMaps(let limit), .tooManyClusterManagers(let limit),
             .tooManyMarkers(let limit), .tooManyItems(let limit), .tooManyIcons(let limit),
             .tooManyBuildings(let limit):
            return Int64(limit)
        default: return 0
        }
    }
}
