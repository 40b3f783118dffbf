/// Mouse wheel and keyboard (features G6, G8). Wheel zooms at once about the cursor (so the point
/// under it stays put) or about the centre when scrolling is off; ctrl+wheel, which browsers
/// send for a trackpad pinch, zooms faster. Keys animate: arrows pan, +/- zoom one level,
/// shift+arrows rotate and tilt. A key with ctrl, alt or meta is not the map's: it stays the
/// browser's or the system's (ctrl+plus zooms the page, alt+left goes back).
extension GestureRecognizer {
    /// Wheel pixels per zoom level, and with ctrl (trackpad pinch).
    static let wheelPixelsPerZoom = 300.0
    static let pinchWheelPixelsPerZoom = 100.0
    static let wheelLinePixels = 40.0
    static let keyPanPixels = 100.0
    static let keyRotateDegrees = 15.0
    static let keyTiltDegrees = 10.0
    static let keyPanDuration = 0.2

    mutating func wheel(x: Double, y: Double, deltaY: Double, mode wheelMode: WheelMode, modifiers: Int32,
                        time: Double, map: MapController) {
        guard map.settings.zoomGestures, deltaY != 0 else { return }
        stopMotion(map: map)
        var pixels = deltaY
        switch wheelMode {
        case .pixel: break
        case .line: pixels *= GestureRecognizer.wheelLinePixels
        case .page: pixels *= map.camera.viewport.height
        }
        let rate = modifiers & Modifier.control != 0 ? GestureRecognizer.pinchWheelPixelsPerZoom
                                                      : GestureRecognizer.wheelPixelsPerZoom
        var dz = -pixels / rate
        dz = dz > 1 ? 1 : (dz < -1 ? -1 : dz)
        let pivot = map.settings.scrollGestures ? (x: x, y: y) : map.camera.center
        lastWheel = time
        map.camera.set(map.camera.transformed(zoomBy: dz, pivot: pivot), cause: .gesture, events: &map.events)
    }

    /// Whether the map takes a key pressed with these modifiers (see `MapController.takesKey`).
    static func takesKey(_ command: KeyCommand, modifiers: Int32) -> Bool {
        modifiers & (Modifier.control | Modifier.alt | Modifier.meta) == 0
    }

    mutating func key(_ command: KeyCommand, modifiers: Int32, time: Double, map: MapController) {
        guard GestureRecognizer.takesKey(command, modifiers: modifiers) else { return }
        let s = map.settings
        let shift = modifiers & Modifier.shift != 0
        var target: _WorldCamera?
        let base = map.camera.destination
        let c = base.center
        let step = GestureRecognizer.keyPanPixels
        switch command {
        case .zoomIn, .zoomOut:
            if s.zoomGestures { map.zoomStep(by: command == .zoomIn ? 1 : -1, about: nil, cause: .gesture) }
            return
        case .panLeft, .panRight:
            if shift && s.rotateGestures {
                let turn = command == .panLeft ? -GestureRecognizer.keyRotateDegrees : GestureRecognizer.keyRotateDegrees
                target = base.transformed(rotateBy: turn, pivot: c)
            } else if !shift && s.scrollGestures {
                let dx = command == .panLeft ? step : -step
                target = base.panned(from: c, to: (c.x + dx, c.y))
            }
        case .panUp, .panDown:
            if shift && s.tiltGestures {
                let tilt = command == .panUp ? GestureRecognizer.keyTiltDegrees : -GestureRecognizer.keyTiltDegrees
                target = base.transformed(tiltBy: tilt, pivot: c)
            } else if !shift && s.scrollGestures {
                let dy = command == .panUp ? step : -step
                target = base.panned(from: c, to: (c.x, c.y + dy))
            }
        }
        guard let to = target else { return }
        stopMotion(map: map)
        map.camera.animate(to: to, duration: GestureRecognizer.keyPanDuration, easing: .easeOut, cause: .gesture,
                           at: time, events: &map.events)
    }
}
