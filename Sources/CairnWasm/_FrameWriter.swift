import Cairn

/// Writes one map frame for the host, in doubles: a header of `_FrameField.count` fields, then
/// `tileCount` tile records of `tileStride`, `drawCount` draw records of `drawStride` (bottom
/// to top), `eventCount` event records of `eventStride`, then `popoverCount` popover records of
/// `popoverStride`.
/// The host reads the strides and the header length from `cairn_map_layout`.
enum _FrameField: Int {
    case time, latitude, longitude, zoom, bearing, tilt, targetX, targetY
    /// 1 while a gesture, animation or fling moves the camera; 1 while an animation runs.
    case moving, animating
    case compassOpacity, compassRotation, compassX, compassY
    case myLocationButton, myLocationX, myLocationY
    /// 1 when the location dot is on screen, its position and accuracy radius in pixels.
    case dotVisible, dotX, dotY, dotRadius
    /// The visible region's corners, longitude then latitude (longitudes not wrapped).
    case nearLeftLng, nearLeftLat, nearRightLng, nearRightLat, farRightLng, farRightLat, farLeftLng, farLeftLat
    /// Its bounding box as `getClusters` takes it.
    case west, south, east, north
    case tileZoom, tileCount, eventCount, droppedEvents, controlSize, horizonY, farClipY
    case viewportWidth, viewportHeight
    /// Markers and cluster icons drawn, and those collisions hid.
    case drawCount, hiddenCount
    /// The open info window: 1 when open and on screen, its marker (or item), anchor and
    /// measured size.
    case infoWindowOpen, infoWindowMarker, infoWindowX, infoWindowY, infoWindowWidth, infoWindowHeight
    /// The selected marker or item, or -1.
    case selectedMarker
    /// The cluster manager of the window's item and of the selected item; -1 for a marker.
    case infoWindowManager, selectedManager
    /// The floor picker (G4): 1 when shown, its building, the shown level, the first level of
    /// its buttons and how many, its column's centre x and top.
    case pickerVisible, pickerBuilding, pickerActiveLevel, pickerFirst, pickerCount, pickerX, pickerTop
    /// The open popovers (V2), one record each.
    case popoverCount
    /// Seconds until the engine wants the next frame: 0 as soon as possible (something
    /// animates), a positive time for a timer it waits for, infinity for none until input or a
    /// call (`MapController.nextFrameIn`).
    case nextFrameIn
    /// The open info window's box: its top-left corner (the window is centred above its anchor).
    case infoWindowLeft, infoWindowTop

    static let count = _FrameField.infoWindowTop.rawValue + 1
}

enum _FrameWriter {
    /// [z, x, y, wrapped x, then the four corners' screen x and y].
    static let tileStride = 12
    /// [kind, a, b, c, d]: will-move a = cause; indoor events a = building (-1 none), b = level;
    /// tap and long press a, b = screen x, y and
    /// c, d = latitude, longitude; marker taps a = marker id; info window events a = marker or
    /// item id, b = the item's manager (-1 for a marker); cluster and cluster item taps a =
    /// manager, b = cluster or item id, c = a cluster's count; popover events a = popover, b =
    /// its marker.
    static let eventStride = 5
    /// [kind (1 marker, 2 cluster, 3 cluster item), id, x, y, rotation, scaleX, scaleY, opacity,
    /// icon (a cluster's bucket, -1 below the first), count, zIndex, cluster manager (-1 for
    /// markers), leg x, leg y (where a spread-out cluster item's leg starts; NaN otherwise),
    /// animation progress (0…1; 1 when not animating), shear (a flat marker's; 0 otherwise),
    /// anchor x, anchor y (the point of the image at (x, y), in 0…1 of the whole image)]:
    /// the icon's ground anchor (a cluster's centre) at (x, y); a point (u, v) of the icon from
    /// the anchor is drawn at (scaleX · u, shear · u + scaleY · v), turned by the rotation;
    /// then a cluster's icon (`ClusterIcon`, 0 for anything else): label number, 1 when "+"
    /// follows it, colour 0xRRGGBB, diameter in points.
    static let drawStride = 22
    /// [popover id, marker id, 1 shown (its marker is drawn) or 0, left, top, width, height]:
    /// where an open popover's box stands on screen.
    static let popoverStride = 7

    /// The doubles the frame needs.
    static func size(tiles: Int, draws: Int, events: Int, popovers: Int) -> Int {
        _FrameField.count + tiles * tileStride + draws * drawStride + events * eventStride + popovers * popoverStride
    }

    static func write(_ map: MapController, tiles: [CoveringTile], events: [MapEvent],
                      to out: UnsafeMutableBufferPointer<Double>) {
        let p = map.projection
        let position = p.position
        func put(_ field: _FrameField, _ value: Double) { out[field.rawValue] = value }
        func flag(_ on: Bool) -> Double { on ? 1 : 0 }
        put(.time, map.time)
        put(.latitude, position.latitude)
        put(.longitude, position.longitude)
        put(.zoom, position.zoom)
        put(.bearing, position.bearing)
        put(.tilt, position.tilt)
        put(.targetX, p.targetX)
        put(.targetY, p.targetY)
        put(.moving, flag(map.isCameraMoving))
        put(.animating, flag(map.camera.isAnimating))
        let compass = map.compassCenter
        put(.compassOpacity, map.compass.opacity)
        put(.compassRotation, map.compass.rotation)
        put(.compassX, compass.x)
        put(.compassY, compass.y)
        let button = map.myLocationButtonCenter
        put(.myLocationButton, flag(map.settings.myLocationButton))
        put(.myLocationX, button.x)
        put(.myLocationY, button.y)
        let dot = map.locationDot
        put(.dotVisible, flag(dot != nil))
        put(.dotX, dot?.x ?? 0)
        put(.dotY, dot?.y ?? 0)
        put(.dotRadius, dot?.radius ?? 0)
        let region = p.visibleRegion
        var field = _FrameField.nearLeftLng.rawValue
        for c in region.corners {
            out[field] = WebMercator.longitude(x: c.x)
            out[field + 1] = WebMercator.latitude(y: c.y < 0 ? 0 : (c.y > 1 ? 1 : c.y))
            field += 2
        }
        let bounds = region.bounds
        put(.west, bounds.west)
        put(.south, bounds.south)
        put(.east, bounds.east)
        put(.north, bounds.north)
        put(.tileZoom, Double(p.tileZoom(maxTileZoom: map.maxTileZoom)))
        put(.tileCount, Double(tiles.count))
        put(.eventCount, Double(events.count))
        put(.droppedEvents, Double(map.droppedEvents))
        put(.controlSize, ControlLayout.size)
        put(.horizonY, p.horizonY.isFinite ? p.horizonY : -1e9)
        put(.farClipY, p.farClipY)
        put(.viewportWidth, p.viewport.width)
        put(.viewportHeight, p.viewport.height)
        let scene = map.scene
        put(.drawCount, Double(scene.drawnCount))
        put(.hiddenCount, Double(scene.hiddenCount))
        let window = scene.infoWindow
        put(.infoWindowOpen, flag(window != nil))
        put(.infoWindowMarker, Double(window?.owner.id ?? -1))
        put(.infoWindowManager, Double(window?.owner.manager ?? -1))
        put(.infoWindowX, window?.anchorX ?? 0)
        put(.infoWindowY, window?.anchorY ?? 0)
        put(.infoWindowWidth, window?.width ?? 0)
        put(.infoWindowHeight, window?.height ?? 0)
        put(.infoWindowLeft, window?.minX ?? 0)
        put(.infoWindowTop, window?.minY ?? 0)
        let picker = map.floorPicker
        put(.pickerVisible, flag(picker != nil))
        put(.pickerBuilding, Double(picker?.building ?? -1))
        put(.pickerActiveLevel, Double(picker?.activeLevel ?? 0))
        put(.pickerFirst, Double(picker?.first ?? 0))
        put(.pickerCount, Double(picker?.count ?? 0))
        put(.pickerX, picker?.centerX ?? 0)
        put(.pickerTop, picker?.top ?? 0)
        let selected = map.selectedInfoWindowOwner
        put(.selectedMarker, Double(selected?.id ?? -1))
        put(.selectedManager, Double(selected?.manager ?? -1))
        let placements = map.popovers.placements
        put(.popoverCount, Double(placements.count))
        put(.nextFrameIn, map.nextFrameIn)
        var at = _FrameField.count
        for t in tiles {
            out[at] = Double(t.z)
            out[at + 1] = Double(t.x)
            out[at + 2] = Double(t.y)
            out[at + 3] = Double(t.wrappedX)
            for k in 0..<8 { out[at + 4 + k] = t.corners[k] }
            at += tileStride
        }
        let first = at
        scene.withPlacedItems { items, positions in
            for i in 0..<items.count where positions[i] >= 0 {
                let at = first + Int(positions[i]) * drawStride
                out[at] = Double(items[i].kind.rawValue)
                out[at + 1] = Double(items[i].id)
                out[at + 2] = items[i].x
                out[at + 3] = items[i].y
                out[at + 4] = items[i].rotation
                out[at + 5] = items[i].scaleX
                out[at + 6] = items[i].scaleY
                out[at + 7] = items[i].opacity
                out[at + 8] = Double(items[i].icon)
                out[at + 9] = Double(items[i].count)
                out[at + 10] = items[i].zIndex
                out[at + 11] = Double(items[i].owner)
                out[at + 12] = items[i].hasLeg ? items[i].legX : .nan
                out[at + 13] = items[i].hasLeg ? items[i].legY : .nan
                out[at + 14] = items[i].progress
                out[at + 15] = items[i].shear
                out[at + 16] = items[i].anchorX
                out[at + 17] = items[i].anchorY
                let icon = items[i].kind == .cluster ? (try? map.clusterManager(items[i].owner))?.rendering.icon(for: Int(items[i].count)) : nil
                out[at + 18] = Double(icon?.number ?? 0)
                out[at + 19] = icon?.plus == true ? 1 : 0
                out[at + 20] = Double(icon?.color ?? 0)
                out[at + 21] = icon?.diameter ?? 0
            }
        }
        at += scene.drawnCount * drawStride
        for e in events {
            var a = 0.0, b = 0.0, c = 0.0, d = 0.0
            switch e {
            case .cameraWillMove(let cause): a = Double(cause.rawValue)
            case let .tap(x, y, lat, lng), let .longPress(x, y, lat, lng): (a, b, c, d) = (x, y, lat, lng)
            case let .markerTapped(id): a = Double(id)
            case let .infoWindowTapped(owner), let .infoWindowLongPressed(owner), let .infoWindowOpened(owner),
                 let .infoWindowClosed(owner), let .infoWindowContentChanged(owner):
                (a, b) = (Double(owner.id), Double(owner.manager ?? -1))
            case let .clusterTapped(manager, cluster, count): (a, b, c) = (Double(manager), Double(cluster), Double(count))
            case let .clusterItemTapped(manager, item): (a, b) = (Double(manager), Double(item))
            case let .indoorBuildingFocused(building): a = Double(building)
            case let .indoorLevelActivated(building, level): (a, b) = (Double(building), Double(level))
            case let .popoverClosed(popover, marker), let .popoverRemoved(popover, marker): (a, b) = (Double(popover), Double(marker))
            default: break
            }
            out[at] = Double(e.kind)
            out[at + 1] = a
            out[at + 2] = b
            out[at + 3] = c
            out[at + 4] = d
            at += eventStride
        }
        for p in placements {
            out[at] = Double(p.popover)
            out[at + 1] = Double(p.marker)
            out[at + 2] = p.isShown ? 1 : 0
            out[at + 3] = p.minX
            out[at + 4] = p.minY
            out[at + 5] = p.width
            out[at + 6] = p.height
            at += popoverStride
        }
    }
}
