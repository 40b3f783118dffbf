/// What a drawn thing is.
public enum SceneItemKind: Int32 {
    case marker = 1
    case cluster = 2
    /// An item of a cluster manager drawn on its own.
    case clusterItem = 3
}

/// One thing the host draws this frame: a marker or a cluster icon, placed and turned on
/// screen, with the box that counts for collisions and taps.
public struct SceneItem: Equatable {
    public var kind: SceneItemKind
    /// The marker's id, or the cluster's or item's id within its manager.
    public var id: Int64
    /// The cluster manager it belongs to, -1 for markers.
    public var owner: Int32
    /// Screen position of the ground anchor.
    public var x: Double, y: Double
    /// Degrees clockwise on screen.
    public var rotation: Double
    /// Scale of the icon along its own axes: the pop animation, and a flat icon's
    /// foreshortening (see `shear`).
    public var scaleX: Double, scaleY: Double
    public var opacity: Double
    /// Icon number (`MarkerProperties.defaultPin` for the pin; clusters use their bucket).
    public var icon: Int32
    public var zIndex: Double
    /// The icon's content (without alignment insets) on screen.
    public var box: OrientedBox
    public var collision: CollisionBehavior
    public var collisionPriority: Double
    /// Points in a cluster (1 for a marker).
    public var count: Int32
    /// For an item of a spread-out cluster (C10), the screen point its leg starts from.
    public var hasLeg = false
    public var legX = 0.0, legY = 0.0
    /// How far the item's animation has come, 0…1: a marker's appear animation (M9), a cluster
    /// item flying out of or into its cluster (C5). 1 when nothing animates it.
    public var progress = 1.0
    /// A flat marker's or flat cluster item's shear: a point (u, v) of the icon, from its anchor,
    /// is drawn at (scaleX · u, shear · u + scaleY · v), turned by `rotation`. 0 for everything else.
    public var shear = 0.0
    /// A copy of what was drawn before a zoom out, flying into its cluster while fading (C5):
    /// drawn, but neither tapped nor bearing an info window.
    public var isGhost = false
    /// The point of the host's image placed on (x, y), in 0…1 of the whole image (alignment
    /// insets included): a marker's ground anchor, a cluster item's icon anchor, a cluster's
    /// centre.
    public var anchorX = 0.5, anchorY = 0.5

    /// An offset from the anchor in the icon's own axes (points, y down), on screen as drawn.
    func screenOffset(dx: Double, dy: Double) -> (x: Double, y: Double) {
        _iconOffset(dx: dx, dy: dy, scaleX: scaleX, scaleY: scaleY, shear: shear, cos: box.cos, sin: box.sin)
    }
}

/// An offset in an icon's own axes, scaled and sheared along them, then turned (cos, sin of the
/// rotation, clockwise on screen).
func _iconOffset(dx: Double, dy: Double, scaleX: Double, scaleY: Double, shear: Double,
                 cos c: Double, sin s: Double) -> (x: Double, y: Double) {
    let u = dx * scaleX, v = dx * shear + dy * scaleY
    return (u * c - v * s, u * s + v * c)
}

/// The size of the pin Cairn draws itself (feature M2), anchored at its tip.
public enum DefaultPin {
    public static let width = 27.0
    public static let height = 43.0
}

/// How a flat marker's icon lies on screen: turned with the map (its rotation is from north)
/// and foreshortened by the tilt along the screen's vertical, which is the icon's own vertical
/// only when it points up or down the screen. The ground's turn then squeeze is drawn as a turn
/// (φ) after a scale and shear along the icon's axes: its vertical axis keeps its direction and
/// is scaled, its horizontal one is scaled across the vertical and leans along it (the shear),
/// so the icon is drawn as the ground's parallelogram, not a rectangle.
func _flatOnScreen(rotation: Double, projection p: CameraProjection)
    -> (rotation: Double, scaleX: Double, scaleY: Double, shear: Double) {
    let theta = (rotation - p.bearing) * Double.pi / 180
    let s = _sin(theta), c = _cos(theta), squeeze = p.cosTilt
    // Screen y points down, angles turn clockwise. The icon's up axis (0, -1) turned by θ, then
    // squeezed: (sin θ, -squeeze · cos θ), whose angle from the screen's up is φ.
    let scaleY = (s * s + squeeze * squeeze * c * c).squareRoot()
    let phi = _atan2(s, squeeze * c)
    // Its right axis, (cos θ, squeeze · sin θ), measured across the up one and along it.
    let cp = _cos(phi), sp = _sin(phi)
    let scaleX = c * cp + squeeze * s * sp
    let shear = squeeze * s * cp - c * sp
    return (phi * 180 / Double.pi, scaleX, scaleY, shear)
}

/// How an icon is drawn: turned (degrees, clockwise on screen), scaled along its own axes and
/// sheared (see `_flatOnScreen`); facing the screen it is `_uprightIcon`.
typealias _IconLie = (rotation: Double, scaleX: Double, scaleY: Double, shear: Double)

/// An icon facing the screen, unturned and unscaled.
let _uprightIcon: _IconLie = (0, 1, 1, 0)

/// The box for taps and collisions of an icon's content (`cw` × `ch`, anchored at a fraction of
/// it) drawn at a screen point as `lie` says: the content's centre placed relative to the anchor
/// as drawn; a sheared (flat) icon's box is the rectangle around its parallelogram, along the turn.
func _iconBox(at s: (x: Double, y: Double), width cw: Double, height ch: Double, anchorX: Double, anchorY: Double,
              lie: _IconLie) -> OrientedBox {
    let r = lie.rotation * Double.pi / 180
    let c = lie.rotation == 0 ? 1 : _cos(r), sn = lie.rotation == 0 ? 0 : _sin(r)
    let o = _iconOffset(dx: (0.5 - anchorX) * cw, dy: (0.5 - anchorY) * ch, scaleX: lie.scaleX,
                        scaleY: lie.scaleY, shear: lie.shear, cos: c, sin: sn)
    return OrientedBox(centerX: s.x + o.x, centerY: s.y + o.y, halfWidth: cw * lie.scaleX / 2,
                       halfHeight: (ch * lie.scaleY + cw * abs(lie.shear)) / 2, cos: c, sin: sn)
}

/// Where a marker goes on screen for a camera.
enum _MarkerPlacement {
    /// Appear animations last this long (seconds).
    static let appearDuration = 0.3

    /// The marker as drawn on the `copy`th copy of the world from the one nearest the target.
    static func item(id: Int64, _ m: MarkerProperties, worldX: Double, worldY: Double, addedAt: Double,
                     projection p: CameraProjection, icons: IconRegistry, time: Double, copy: Int = 0) -> SceneItem? {
        let meters = m.altitudeMode == .clampToGround || !(m.altitude > 0) ? 0 : m.altitude
        // The metre scale costs an exp, an atan and a cos: only for markers that stand above ground.
        let altitude = meters > 0 ? meters * p.pixelsPerMeter(worldY: worldY) : 0
        guard let s = p.screenPoint(worldX: worldX, worldY: worldY, altitude: altitude, copy: copy) else { return nil }
        let icon = icons.iconOrPin(m.icon)
        let content = icon.contentBox
        let cw = content.maxX - content.minX, ch = content.maxY - content.minY
        // A normal marker faces the screen; a flat one lies on the ground (see `_flatOnScreen`).
        var (rotation, scaleX, scaleY, shear) = m.flat ? _flatOnScreen(rotation: m.rotation, projection: p)
                                                       : (m.rotation, 1.0, 1.0, 0.0)
        var opacity = m.opacity
        var progress = 1.0
        let age = time - addedAt
        if age < appearDuration, m.appearAnimation != .none {
            progress = age <= 0 ? 0 : age / appearDuration
        }
        if age < appearDuration {
            let f = age <= 0 ? 0 : Easing.easeOut.apply(age / appearDuration)
            switch m.appearAnimation {
            case .pop: scaleX *= f; scaleY *= f; shear *= f
            case .fadeIn: opacity *= f
            case .none: break
            }
        }
        let box = _iconBox(at: s, width: cw, height: ch, anchorX: m.groundAnchorX, anchorY: m.groundAnchorY,
                           lie: (rotation, scaleX, scaleY, shear))
        let anchor = icon.imageFraction(x: m.groundAnchorX, y: m.groundAnchorY)
        return SceneItem(kind: .marker, id: id, owner: -1, x: s.x, y: s.y, rotation: rotation, scaleX: scaleX, scaleY: scaleY,
                         opacity: opacity, icon: m.icon, zIndex: m.zIndex, box: box, collision: m.collision,
                         collisionPriority: m.collisionPriority, count: 1, progress: progress, shear: shear,
                         anchorX: anchor.x, anchorY: anchor.y)
    }
}
