extension MapCamera {
    /// The camera that shows a longitude/latitude box as large as possible inside the padded
    /// view plus `padding` more pixels on every side, north up and untilted (as Google's
    /// `newLatLngBounds`). A box with west > east crosses the antimeridian. Throws for
    /// non-finite values, south > north, or a padding that leaves no room.
    func fitting(west: Double, south: Double, east: Double, north: Double,
                 padding: Double) throws(CairnError) -> _WorldCamera {
        guard west.isFinite, south.isFinite, east.isFinite, north.isFinite, padding.isFinite,
              padding >= 0, south <= north else { throw .invalidArgument }
        let w = WebMercator.wrapLongitude(west), e = WebMercator.wrapLongitude(east)
        let x0 = WebMercator.x(longitude: w)
        var x1 = WebMercator.x(longitude: e)
        // A box 360° wide or wider is the whole world once, from its west edge; otherwise an
        // east edge west of the west edge crosses the antimeridian.
        if east - west >= 360 { x1 = x0 + 1 } else if x1 < x0 { x1 += 1 }
        let y0 = WebMercator.y(latitude: WebMercator.clampLatitude(north))
        let y1 = WebMercator.y(latitude: WebMercator.clampLatitude(south))
        let p = viewport.padding
        let availableWidth = viewport.width - p.left - p.right - 2 * padding
        let availableHeight = viewport.height - p.top - p.bottom - 2 * padding
        guard availableWidth > 0, availableHeight > 0 else { throw .invalidArgument }
        let spanX = (x1 - x0) * 256, spanY = (y1 - y0) * 256
        var zoom = limits.maxZoom
        if spanX > 0 || spanY > 0 {
            let zx = spanX > 0 ? _log2(availableWidth / spanX) : limits.maxZoom
            let zy = spanY > 0 ? _log2(availableHeight / spanY) : limits.maxZoom
            zoom = zx < zy ? zx : zy
        }
        return _WorldCamera(x: (x0 + x1) / 2, y: (y0 + y1) / 2, zoom: limits.clampZoom(zoom), bearing: 0, tilt: 0)
    }
}
