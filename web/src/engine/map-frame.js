// Reading the frame buffer the engine writes once per frame: a header of named fields, then
// tile records, draw records (markers and cluster icons, bottom to top), then event records. The header length and the record strides come from the
// module (`cairn_map_layout`); the field names below mirror the engine's `_FrameField` in
// order, and a mismatch in length is refused when the layout is read.

import { bindingError } from '../core/errors.js';

/**
 * The header fields, in the engine's order (`_FrameField` in the module's source).
 * @type {readonly string[]}
 */
export const FRAME_FIELDS = Object.freeze([
  'time', 'latitude', 'longitude', 'zoom', 'bearing', 'tilt', 'targetX', 'targetY',
  'moving', 'animating',
  'compassOpacity', 'compassRotation', 'compassX', 'compassY',
  'myLocationButton', 'myLocationX', 'myLocationY',
  'dotVisible', 'dotX', 'dotY', 'dotRadius',
  'nearLeftLng', 'nearLeftLat', 'nearRightLng', 'nearRightLat', 'farRightLng', 'farRightLat', 'farLeftLng', 'farLeftLat',
  'west', 'south', 'east', 'north',
  'tileZoom', 'tileCount', 'eventCount', 'droppedEvents', 'controlSize', 'horizonY', 'farClipY',
  'viewportWidth', 'viewportHeight',
  'drawCount', 'hiddenCount',
  'infoWindowOpen', 'infoWindowMarker', 'infoWindowX', 'infoWindowY', 'infoWindowWidth', 'infoWindowHeight',
  'selectedMarker', 'infoWindowManager', 'selectedManager',
  'pickerVisible', 'pickerBuilding', 'pickerActiveLevel', 'pickerFirst', 'pickerCount', 'pickerX', 'pickerTop',
]);

/** Header position by field name. */
const F = /** @type {Readonly<Record<string, number>>} */ (Object.freeze(Object.fromEntries(FRAME_FIELDS.map((name, i) => [name, i]))));

/** Event types by the engine's kind number (index). */
export const EVENT_TYPES = Object.freeze([
  'unknown', 'cameraWillMove', 'cameraChanged', 'cameraIdle', 'tap', 'longPress', 'compassTapped',
  'myLocationButtonTapped', 'locationRequested',
  'markerTapped', 'infoWindowTapped', 'infoWindowLongPressed', 'infoWindowOpened', 'infoWindowClosed',
  'clusterTapped', 'clusterItemTapped', 'infoWindowContentChanged', 'indoorBuildingFocused', 'indoorLevelActivated',
]);

/** Event types of an info window: a marker's or a cluster item's (its id, then its manager or -1). */
const INFO_WINDOW_EVENTS = new Set(['infoWindowTapped', 'infoWindowLongPressed', 'infoWindowOpened', 'infoWindowClosed',
  'infoWindowContentChanged']);

/** Kinds of drawn items by the engine's number (index). */
export const ITEM_KINDS = Object.freeze(['unknown', 'marker', 'cluster', 'clusterItem']);

/** Why the camera started to move, by the engine's number (index). */
export const MOVE_CAUSES = Object.freeze(['unknown', 'gesture', 'apiAnimation', 'developer']);

/**
 * @typedef {object} FrameLayout  doubles per part of the frame, as the module says
 * @property {number} header
 * @property {number} tileStride
 * @property {number} eventStride
 * @property {number} inputStride
 * @property {number} drawStride
 * @property {number} markerStride
 */

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
 * @typedef {WindowOwner & {x: number, y: number, width: number, height: number}} InfoWindowPlacement
 *   the open info window: its tail at (x, y), centred above
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
 */

/**
 * Reads the layout from the module and checks it against what this file knows.
 * @param {(which: number) => number} layout  `cairn_map_layout`
 * @returns {FrameLayout}
 */
export function readLayout(layout) {
  const l = {
    header: layout(0), tileStride: layout(1), eventStride: layout(2), inputStride: layout(3),
    drawStride: layout(4), markerStride: layout(5),
  };
  if (l.header !== FRAME_FIELDS.length) {
    throw bindingError('MODULE_MISMATCH', `cairn: the module's frame header has ${l.header} fields but map-frame.js names ` +
      `${FRAME_FIELDS.length}; update FRAME_FIELDS to match the engine`);
  }
  if (!(l.tileStride >= 12 && l.eventStride >= 5 && l.drawStride >= 16)) {
    throw bindingError('MODULE_MISMATCH', `cairn: tile records of ${l.tileStride}, event records of ${l.eventStride} and draw records of ` +
      `${l.drawStride} doubles are shorter than these bindings read (12, 5 and 16)`);
  }
  return Object.freeze(l);
}

/**
 * @param {Float64Array} h
 * @returns {CameraPosition}
 */
function frameCamera(h) {
  return { latitude: h[F.latitude], longitude: h[F.longitude], zoom: h[F.zoom], bearing: h[F.bearing], tilt: h[F.tilt] };
}

/**
 * @param {Float64Array} h
 * @param {string} lng  field name of the longitude; the latitude follows it
 * @returns {LatLng}
 */
function corner(h, lng) {
  return { latitude: h[F[lng] + 1], longitude: h[F[lng]] };
}

/**
 * The frame in a buffer as a plain object.
 * @param {Float64Array} v  the frame, header first
 * @param {FrameLayout} layout
 * @returns {Frame}
 */
export function readFrame(v, layout) {
  const selected = v[F.selectedMarker] < 0 ? null : windowOwner(v[F.selectedMarker], v[F.selectedManager]);
  const size = v[F.controlSize];
  return {
    time: v[F.time],
    camera: frameCamera(v),
    target: { x: v[F.targetX], y: v[F.targetY] },
    moving: v[F.moving] !== 0,
    animating: v[F.animating] !== 0,
    compass: { opacity: v[F.compassOpacity], rotation: v[F.compassRotation], x: v[F.compassX], y: v[F.compassY], size },
    myLocationButton: { visible: v[F.myLocationButton] !== 0, x: v[F.myLocationX], y: v[F.myLocationY], size },
    floorPicker: v[F.pickerVisible] !== 0 ? {
      building: v[F.pickerBuilding], activeLevel: v[F.pickerActiveLevel], first: v[F.pickerFirst],
      count: v[F.pickerCount], x: v[F.pickerX], top: v[F.pickerTop], size,
    } : null,
    locationDot: v[F.dotVisible] !== 0 ? { x: v[F.dotX], y: v[F.dotY], radius: v[F.dotRadius] } : null,
    visibleRegion: {
      nearLeft: corner(v, 'nearLeftLng'), nearRight: corner(v, 'nearRightLng'),
      farRight: corner(v, 'farRightLng'), farLeft: corner(v, 'farLeftLng'),
    },
    bounds: { west: v[F.west], south: v[F.south], east: v[F.east], north: v[F.north] },
    tileZoom: v[F.tileZoom],
    tiles: readTiles(v, layout),
    items: readItems(v, layout),
    hiddenCount: v[F.hiddenCount],
    infoWindow: v[F.infoWindowOpen] !== 0 ? {
      ...windowOwner(v[F.infoWindowMarker], v[F.infoWindowManager]), x: v[F.infoWindowX], y: v[F.infoWindowY],
      width: v[F.infoWindowWidth], height: v[F.infoWindowHeight],
    } : null,
    selectedMarker: selected && 'marker' in selected ? selected.marker : null,
    selectedItem: selected && 'item' in selected ? selected : null,
    events: readEvents(v, layout),
    droppedEvents: v[F.droppedEvents],
    horizonY: v[F.horizonY],
    farClipY: v[F.farClipY],
    viewport: { width: v[F.viewportWidth], height: v[F.viewportHeight] },
  };
}

/**
 * @param {Float64Array} v
 * @param {FrameLayout} layout
 * @returns {Tile[]}
 */
function readTiles(v, layout) {
  const n = v[F.tileCount];
  const stride = layout.tileStride;
  /** @type {Tile[]} */
  const tiles = new Array(n);
  for (let i = 0, k = layout.header; i < n; i++, k += stride) {
    const corners = [v[k + 4], v[k + 5], v[k + 6], v[k + 7], v[k + 8], v[k + 9], v[k + 10], v[k + 11]];
    tiles[i] = { z: v[k], x: v[k + 1], y: v[k + 2], wrappedX: v[k + 3], corners };
  }
  return tiles;
}

/**
 * @param {Float64Array} v
 * @param {FrameLayout} layout
 * @returns {DrawItem[]}
 */
function readItems(v, layout) {
  const n = v[F.drawCount];
  const stride = layout.drawStride;
  /** @type {DrawItem[]} */
  const items = new Array(n);
  for (let i = 0, k = layout.header + v[F.tileCount] * layout.tileStride; i < n; i++, k += stride) {
    items[i] = {
      kind: ITEM_KINDS[v[k]] ?? 'unknown', id: v[k + 1], x: v[k + 2], y: v[k + 3], rotation: v[k + 4],
      scaleX: v[k + 5], scaleY: v[k + 6], opacity: v[k + 7], icon: v[k + 8], count: v[k + 9], zIndex: v[k + 10],
      manager: v[k + 11], leg: Number.isNaN(v[k + 12]) ? null : { x: v[k + 12], y: v[k + 13] }, progress: v[k + 14],
      shear: v[k + 15],
    };
  }
  return items;
}

/**
 * @param {Float64Array} v
 * @param {FrameLayout} layout
 * @returns {MapEvent[]}
 */
function readEvents(v, layout) {
  const n = v[F.eventCount];
  const stride = layout.eventStride;
  /** @type {MapEvent[]} */
  const events = new Array(n);
  const start = layout.header + v[F.tileCount] * layout.tileStride + v[F.drawCount] * layout.drawStride;
  for (let i = 0, k = start; i < n; i++, k += stride) {
    const type = EVENT_TYPES[v[k]] ?? 'unknown';
    if (type === 'cameraWillMove') {
      events[i] = { type, cause: MOVE_CAUSES[v[k + 1]] ?? 'unknown' };
    } else if (type === 'tap' || type === 'longPress') {
      events[i] = { type, x: v[k + 1], y: v[k + 2], latitude: v[k + 3], longitude: v[k + 4] };
    } else if (type === 'clusterTapped') {
      events[i] = /** @type {MapEvent} */ ({ type, manager: v[k + 1], cluster: v[k + 2], count: v[k + 3] });
    } else if (type === 'clusterItemTapped') {
      events[i] = /** @type {MapEvent} */ ({ type, manager: v[k + 1], item: v[k + 2] });
    } else if (type === 'indoorBuildingFocused') {
      events[i] = /** @type {MapEvent} */ ({ type, building: v[k + 1] < 0 ? null : v[k + 1] });
    } else if (type === 'indoorLevelActivated') {
      events[i] = /** @type {MapEvent} */ ({ type, building: v[k + 1], level: v[k + 2] });
    } else if (type === 'markerTapped') {
      events[i] = /** @type {MapEvent} */ ({ type, marker: v[k + 1] });
    } else if (INFO_WINDOW_EVENTS.has(type)) {
      events[i] = /** @type {MapEvent} */ ({ type, ...windowOwner(v[k + 1], v[k + 2]) });
    } else {
      events[i] = { type };
    }
  }
  return events;
}

/**
 * An info window's owner from the engine's pair: an id, and the item's manager or -1 for a marker.
 * @param {number} id
 * @param {number} manager
 * @returns {WindowOwner}
 */
function windowOwner(id, manager) {
  return manager < 0 ? { marker: id } : { manager, item: id };
}
