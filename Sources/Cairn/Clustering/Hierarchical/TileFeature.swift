/// One feature of a vector tile (supercluster's `getTile` content): integer coordinates inside
/// the tile's extent, which may fall slightly outside it (the tile is padded by the radius).
public struct TileFeature: Equatable {
    public var id: Int64
    public var pointCount: Int
    public var isCluster: Bool
    public var x: Int
    public var y: Int

    public init(id: Int64, pointCount: Int, isCluster: Bool, x: Int, y: Int) {
        self.id = id
        self.pointCount = pointCount
        self.isCluster = isCluster
        self.x = x
        self.y = y
    }
}
