/// The glide after a drag is released with speed: the velocity decays exponentially, so the
/// total distance is velocity × `timeConstant`, and the glide ends when it is slower than
/// `stopSpeed`.
struct Fling {
    var velocityX: Double
    var velocityY: Double
    var start: Double
    /// Time up to which the displacement has been applied.
    var applied: Double

    static let timeConstant = 0.325
    /// Releases slower than this (pixels per second) do not fling.
    static let minimumSpeed = 150.0
    static let maximumSpeed = 6000.0
    static let stopSpeed = 15.0

    /// A fling for a release velocity, or nil when it is too slow; faster ones are capped.
    init?(velocityX: Double, velocityY: Double, at time: Double) {
        let speed = (velocityX * velocityX + velocityY * velocityY).squareRoot()
        guard speed >= Fling.minimumSpeed else { return nil }
        let k = speed > Fling.maximumSpeed ? Fling.maximumSpeed / speed : 1
        self.velocityX = velocityX * k
        self.velocityY = velocityY * k
        start = time
        applied = time
    }

    /// The screen displacement between the last step and `time`, and whether the glide is over.
    mutating func step(to time: Double) -> (dx: Double, dy: Double, finished: Bool) {
        guard time > applied else { return (0, 0, false) }
        let tau = Fling.timeConstant
        let f = _exp(-(applied - start) / tau) - _exp(-(time - start) / tau)
        applied = time
        let remaining = _exp(-(time - start) / tau)
        let speed = (velocityX * velocityX + velocityY * velocityY).squareRoot() * remaining
        return (velocityX * tau * f, velocityY * tau * f, speed < Fling.stopSpeed)
    }
}

/// Estimates a pointer's velocity from its recent positions: the average over the samples of
/// the last `window` seconds, so a finger that stops before lifting does not fling.
struct _VelocityTracker {
    private var samples: [(x: Double, y: Double, t: Double)] = []
    static let window = 0.1

    mutating func reset() { samples.removeAll(keepingCapacity: true) }

    mutating func add(x: Double, y: Double, t: Double) {
        samples.append((x, y, t))
        var drop = 0
        while drop < samples.count - 2 && samples[drop].t < t - _VelocityTracker.window { drop += 1 }
        if drop > 0 { samples.removeFirst(drop) }
    }

    /// Pixels per second at `time` (zero when the samples are too old or too few).
    func velocity(at time: Double) -> (x: Double, y: Double) {
        guard let last = samples.last, let first = samples.first,
              time - last.t <= _VelocityTracker.window, last.t - first.t > 0.005 else { return (0, 0) }
        let dt = last.t - first.t
        return ((last.x - first.x) / dt, (last.y - first.y) / dt)
    }
}
