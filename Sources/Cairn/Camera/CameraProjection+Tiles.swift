/// One raster tile covering part of the view, with where its corners fall on the screen.
public struct CoveringTile: Equatable {
    public var z: Int
    /// Column without wrapping: -1 is the last column of the copy of the world to the west.
    public var x: Int
    public var y: Int
    /// Screen corners (top-left, top-right, bottom-right, bottom-left of the tile image). With
    /// tilt the tile is a trapezoid; renderers that can only draw affine images split it in two
    /// triangles.
    public var corners: [Double]

    /// The column to fetch: `x` folded into 0..<2^z.
    public var wrappedX: Int {
        let n = 1 << z
        return ((x % n) + n) % n
    }
}

extension CameraProjection {
    /// The tile zoom for this camera: the integer zoom nearest the camera's, so tiles show at
    /// 0.71 to 1.41 times their natural size, within `0...maxTileZoom`.
    public func tileZoom(maxTileZoom: Int = 22) -> Int {
        let z = Int(_round(zoom))
        return z < 0 ? 0 : (z > maxTileZoom ? maxTileZoom : z)
    }

    /// The tiles that cover the visible region, nearest the camera target first, at most
    /// `limit` of them.
    public func coveringTiles(maxTileZoom: Int = 22, limit: Int = 512) -> [CoveringTile] {
        let z = tileZoom(maxTileZoom: maxTileZoom)
        let n = Double(1 << z)
        let region = visibleRegion
        let quad = region.corners
        let b = region.worldBounds
        // The region is finite for any valid camera; refuse to convert anything else to Int.
        guard b.minX.isFinite, b.maxX.isFinite, b.minY.isFinite, b.maxY.isFinite,
              abs(b.minX) < 1e6, abs(b.maxX) < 1e6 else { return [] }
        let y0 = Int(_floor(b.minY * n)), y1 = Swift.min(Int(_floor(b.maxY * n)), (1 << z) - 1)
        let x0 = Int(_floor(b.minX * n)), x1 = Int(_floor(b.maxX * n))
        var found: [(tile: (Int, Int), distance: Double)] = []
        if y1 >= y0 && x1 >= x0 && (x1 - x0 + 1) * (y1 - y0 + 1) <= 64 * limit {
            for ty in y0...y1 {
                for tx in x0...x1 {
                    let rect = (Double(tx) / n, Double(ty) / n, Double(tx + 1) / n, Double(ty + 1) / n)
                    guard _quadMeetsRect(quad, rect) else { continue }
                    let dx = (Double(tx) + 0.5) / n - targetX, dy = (Double(ty) + 0.5) / n - targetY
                    found.append(((tx, ty), dx * dx + dy * dy))
                }
            }
        }
        _insertionSort(&found) { $0.distance < $1.distance }
        var tiles: [CoveringTile] = []
        for f in found.prefix(limit) {
            let (tx, ty) = f.tile
            let l = Double(tx) / n, r = Double(tx + 1) / n, t = Double(ty) / n, bt = Double(ty + 1) / n
            var corners: [Double] = []
            for (x, y) in [(l, t), (r, t), (r, bt), (l, bt)] {
                let p = clampedScreenPoint(worldX: x, worldY: y)
                corners.append(p.x)
                corners.append(p.y)
            }
            tiles.append(CoveringTile(z: z, x: tx, y: ty, corners: corners))
        }
        return tiles
    }

    /// Like `screenPointUnwrapped`, but a point behind the camera is pushed just in front of it
    /// so a tile straddling the camera still gets finite (if stretched) corners.
    func clampedScreenPoint(worldX: Double, worldY: Double) -> (x: Double, y: Double) {
        screenPoint(offsetX: (worldX - targetX) * worldSize, offsetY: (worldY - targetY) * worldSize, altitude: 0,
                    clampingDepth: true)!
    }
}

/// Whether a convex quadrilateral and an axis-aligned rectangle overlap (separating axes: the
/// caller has already tested the rectangle's own axes through the bounding box).
func _quadMeetsRect(_ quad: [(x: Double, y: Double)], _ rect: (Double, Double, Double, Double)) -> Bool {
    let (minX, minY, maxX, maxY) = rect
    let rectCorners = [(minX, minY), (maxX, minY), (maxX, maxY), (minX, maxY)]
    for i in 0..<4 {
        let a = quad[i], b = quad[(i + 1) % 4], c = quad[(i + 2) % 4]
        let ex = b.x - a.x, ey = b.y - a.y
        let inside = ex * (c.y - a.y) - ey * (c.x - a.x)
        if inside == 0 { continue }
        var separated = true
        for (x, y) in rectCorners where (ex * (y - a.y) - ey * (x - a.x)) * inside >= 0 {
            separated = false
            break
        }
        if separated { return false }
    }
    return true
}

/// A stable insertion sort for the short lists of the camera (tiles, pointers).
func _insertionSort<T>(_ items: inout [T], by less: (T, T) -> Bool) {
    if items.count < 2 { return }
    for i in 1..<items.count {
        let item = items[i]
        var j = i
        while j > 0 && less(item, items[j - 1]) {
            items[j] = items[j - 1]
            j -= 1
        }
        items[j] = item
    }
}
