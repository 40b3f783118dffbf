// The frame a MapEngine returns once per animation frame, as a plain object: the camera, the
// controls, the tiles and items to draw, the open info window, the events. The engine (its
// `readFrame`) makes it and the renderer draws it; these are its types, which both share.

/**
 * @typedef {object} DrawItem  a marker or cluster icon to draw, its ground anchor at (x, y)
 * @property {string} kind  'marker', 'cluster' or 'clusterItem'
 * @property {number} id    the marker's id, or the cluster's or item's within its manager
 * @property {number} manager  the cluster manager, -1 for markers
 * @property {{x: number, y: number} | null} leg  where a spread-out cluster item's leg starts
 * @property {number} x
 * @property {number} y
 * @property {number} rotation  degrees clockwise on screen, about the anchor
 * @property {number} scaleX    pop animation and a flat marker's foreshortening (along the icon's axes)
 * @property {number} scaleY    likewise
 * @property {number} opacity
 * @property {number} icon      a registered icon, or -1 for the default pin; a cluster's bucket (-1 below the first)
 * @property {number} count     points in a cluster (1 for a marker)
 * @property {number} zIndex
 * @property {number} progress  how far its animation has come, 0…1 (appearing, flying out of or into a cluster); 1 when still
 * @property {number} shear     a flat marker's: a point (u, v) of the icon from its anchor is drawn at
 *   (scaleX·u, shear·u + scaleY·v), turned by the rotation; 0 for the others
 * @property {number} anchorX   the point of the image placed on (x, y), in 0…1 of the whole image (insets
 *   included): a marker's ground anchor, an item's icon anchor, a cluster's centre
 * @property {number} anchorY
 * @property {{text: string, color: string, diameter: number} | null} clusterIcon  a cluster's icon, the
 *   engine's (Google's icon generator): its label, colour '#rrggbb' and circle diameter in CSS pixels
 *   (the one it hit-tests); null for markers and items
 */

/**
 * @typedef {{marker: number} | {manager: number, item: number}} WindowOwner  whose info window it
 *   is: a marker's, or that of an item a cluster manager draws on its own (C7)
 */

/**
 * @typedef {object} FloorPicker  the floor picker's buttons (G4): a column of `count` square
 *   buttons of `size`, centred on x, from `top` down, for the building's levels `first`,
 *   `first` + 1, … (counted from the top); `activeLevel` is the one shown
 * @property {number} building
 * @property {number} activeLevel
 * @property {number} first
 * @property {number} count
 * @property {number} x
 * @property {number} top
 * @property {number} size
 */

/**
 * @typedef {WindowOwner & {x: number, y: number, width: number, height: number, left: number, top: number}} InfoWindowPlacement
 *   the open info window: its tail at (x, y), its box's top-left corner at (left, top)
 */

/**
 * @typedef {object} PopoverPlacement  an open popover (feature V2): its box's top-left corner at
 *   (x, y), centred above its marker's info-window anchor as drawn; not shown while the marker is not drawn
 * @property {number} popover
 * @property {number} marker
 * @property {boolean} shown
 * @property {number} x
 * @property {number} y
 * @property {number} width   as the host measured it
 * @property {number} height
 */

/**
 * @typedef {object} CameraPosition
 * @property {number} latitude
 * @property {number} longitude
 * @property {number} zoom
 * @property {number} bearing  degrees clockwise from north
 * @property {number} tilt     degrees away from straight down
 */

/** @typedef {{latitude: number, longitude: number}} LatLng */
/** @typedef {{x: number, y: number}} Point */

/**
 * @typedef {object} Tile  a raster tile covering the view
 * @property {number} z
 * @property {number} x         column, not wrapped (-1 is the last column of the world to the west)
 * @property {number} y
 * @property {number} wrappedX  the column to fetch
 * @property {number[]} corners  screen x, y of top-left, top-right, bottom-right, bottom-left
 */

/**
 * @typedef {{type: 'cameraWillMove', cause: string}
 *   | {type: 'tap' | 'longPress', x: number, y: number, latitude: number, longitude: number}
 *   | {type: 'markerTapped', marker: number}
 *   | {type: 'infoWindowTapped' | 'infoWindowLongPressed' | 'infoWindowOpened' | 'infoWindowClosed'
 *       | 'infoWindowContentChanged'} & WindowOwner
 *   | {type: 'clusterTapped', manager: number, cluster: number, count: number}
 *   | {type: 'clusterItemTapped', manager: number, item: number}
 *   | {type: 'indoorBuildingFocused', building: number | null}
 *   | {type: 'indoorLevelActivated', building: number, level: number}
 *   | {type: 'popoverClosed' | 'popoverRemoved', popover: number, marker: number}
 *   | {type: string}} MapEvent
 *   cameraWillMove's cause is 'gesture', 'apiAnimation' or 'developer'; the other types are
 *   cameraChanged, cameraIdle, compassTapped, myLocationButtonTapped, locationRequested
 */

/**
 * @typedef {object} Frame  everything the host needs to draw one frame and run its callbacks
 * @property {number} time
 * @property {CameraPosition} camera
 * @property {Point} target  the camera target in world coordinates (the unit square)
 * @property {boolean} moving     a gesture, animation or fling moves the camera
 * @property {boolean} animating  an animation runs
 * @property {{opacity: number, rotation: number, x: number, y: number, size: number}} compass
 * @property {{visible: boolean, x: number, y: number, size: number}} myLocationButton
 * @property {FloorPicker | null} floorPicker  shown while a building with floors is prominent (G4)
 * @property {{x: number, y: number, radius: number} | null} locationDot
 * @property {{nearLeft: LatLng, nearRight: LatLng, farRight: LatLng, farLeft: LatLng}} visibleRegion
 * @property {{west: number, south: number, east: number, north: number}} bounds
 * @property {number} tileZoom
 * @property {Tile[]} tiles  nearest first
 * @property {DrawItem[]} items  markers and cluster icons to draw, bottom to top
 * @property {number} hiddenCount  items collisions hid this frame
 * @property {InfoWindowPlacement | null} infoWindow  the open info window, when on screen
 * @property {number | null} selectedMarker  the marker whose info window is open (shown or not)
 * @property {{manager: number, item: number} | null} selectedItem  or the cluster item whose is
 * @property {MapEvent[]} events  oldest first
 * @property {number} droppedEvents  events lost because frames were not read
 * @property {number} horizonY  screen y of the horizon (far above the view when there is none)
 * @property {number} farClipY  screen y above which the map is not drawn
 * @property {{width: number, height: number}} viewport
 * @property {PopoverPlacement[]} popovers  the open popovers, in the order they were added
 * @property {number} nextFrameIn  seconds until the engine wants the next frame: 0 as soon as
 *   possible (something animates), a positive time for a timer it waits for (a tap's wait for a
 *   second one, a long press, a re-clustering), Infinity for none until input or a call
 */

export {};
