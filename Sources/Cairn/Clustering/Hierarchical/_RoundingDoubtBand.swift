/// The squared distances, around the radius, at which measuring to an item's float32 position
/// instead of its clustering position could change whether it lies within the radius.
///
/// A cluster's clustering position is its double centroid, which the build's records keep only
/// rounded to float32 (`_ItemRecord`). In world coordinates, 0...1, where centroids lie (see
/// `_ClusteringPositions`), the rounding moves each coordinate by at most 2^-25, so a distance
/// by at most 2^-25·√2 (`shift`). A distance to the rounding shorter than the radius by more
/// than that lies within it measured to the centroid too, and one longer by more lies outside;
/// only between is the centroid needed. The margins also take 1e-12 of the squared radius, far
/// more than the roundings of the computations (about 1e-16 of it each).
struct _RoundingDoubtBand {
    /// The band's middle and half its width, so that one comparison tells whether a squared
    /// distance lies in it.
    let middle: Double
    let halfWidth: Double

    init(r2: Double) {
        let shift = 0x1p-25 * 2.0.squareRoot() * (1 + 0x1p-20)
        let r = r2.squareRoot()
        let low = r - shift
        let inner = low * low - r2 * 1e-12
        let outer = (r + shift) * (r + shift) + r2 * 1e-12
        if low > 0 && inner > 0 {
            middle = (inner + outer) / 2
            halfWidth = (outer - inner) / 2
        } else {
            // The radius is within `shift` of zero: every distance up to `outer` is in doubt,
            // and with the middle at zero the test is exactly `d2 <= outer` (a squared
            // distance is not negative), with no rounding of its own.
            middle = 0
            halfWidth = outer
        }
    }

    /// Whether a squared distance to a float32 position leaves in doubt whether the distance to
    /// the clustering position it rounds is within the radius.
    @inline(__always)
    func isInDoubt(_ d2: Double) -> Bool { abs(d2 - middle) <= halfWidth }
}
