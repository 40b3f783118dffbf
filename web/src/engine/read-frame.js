// Reading the frame buffer the engine writes once per frame: a header of named fields, then
// tile records, draw records (markers and cluster icons, bottom to top), event records, then
// popover records, into the plain object core/frame.js describes. The header length and the record strides come
// from the module (`cairn_map_layout`); the field names below mirror the engine's `_FrameField`
// in order, and a mismatch in length is refused when the layout is read.

import { bindingError } from '../core/errors.js';
import { hexColor } from './cluster-buckets.js';

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
  'popoverCount', 'nextFrameIn', 'infoWindowLeft', 'infoWindowTop',
]);

/** Header position by field name. */
const F = /** @type {Readonly<Record<string, number>>} */ (Object.freeze(Object.fromEntries(FRAME_FIELDS.map((name, i) => [name, i]))));

/** Event types by the engine's kind number (index). */
export const EVENT_TYPES = Object.freeze([
  'unknown', 'cameraWillMove', 'cameraChanged', 'cameraIdle', 'tap', 'longPress', 'compassTapped',
  'myLocationButtonTapped', 'locationRequested',
  'markerTapped', 'infoWindowTapped', 'infoWindowLongPressed', 'infoWindowOpened', 'infoWindowClosed',
  'clusterTapped', 'clusterItemTapped', 'infoWindowContentChanged', 'indoorBuildingFocused', 'indoorLevelActivated',
  'popoverClosed', 'popoverRemoved',
]);

/** Event types of an info window: a marker's or a cluster item's (its id, then its manager or -1). */
const INFO_WINDOW_EVENTS = new Set(['infoWindowTapped', 'infoWindowLongPressed', 'infoWindowOpened', 'infoWindowClosed',
  'infoWindowContentChanged']);

/** Kinds of drawn items by the engine's number (index). */
export const ITEM_KINDS = Object.freeze(['unknown', 'marker', 'cluster', 'clusterItem']);
const CLUSTER_KIND = ITEM_KINDS.indexOf('cluster');

/** The fields of a draw record, in order (`_FrameWriter.drawStride`), as `readItems` reads them. */
const DRAW_FIELDS = Object.freeze(['kind', 'id', 'x', 'y', 'rotation', 'scaleX', 'scaleY', 'opacity', 'icon', 'count', 'zIndex',
  'manager', 'legX', 'legY', 'progress', 'shear', 'anchorX', 'anchorY', 'labelNumber', 'labelPlus', 'color', 'diameter']);

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
 * @property {number} settingCount  UI settings (bits of the settings), see ui-settings.js
 * @property {number} popoverStride
 */

/** @typedef {import('../core/frame.js').CameraPosition} CameraPosition */
/** @typedef {import('../core/frame.js').DrawItem} DrawItem */
/** @typedef {import('../core/frame.js').Frame} Frame */
/** @typedef {import('../core/frame.js').LatLng} LatLng */
/** @typedef {import('../core/frame.js').MapEvent} MapEvent */
/** @typedef {import('../core/frame.js').Tile} Tile */
/** @typedef {import('../core/frame.js').PopoverPlacement} PopoverPlacement */
/** @typedef {import('../core/frame.js').WindowOwner} WindowOwner */

/**
 * Reads the layout from the module and checks it against what this file knows.
 * @param {(which: number) => number} layout  `cairn_map_layout`
 * @returns {FrameLayout}
 */
export function readLayout(layout) {
  const l = {
    header: layout(0), tileStride: layout(1), eventStride: layout(2), inputStride: layout(3),
    drawStride: layout(4), markerStride: layout(5), settingCount: layout(6), popoverStride: layout(7),
  };
  if (l.header !== FRAME_FIELDS.length) {
    throw bindingError('MODULE_MISMATCH', `cairn: the module's frame header has ${l.header} fields but read-frame.js names ` +
      `${FRAME_FIELDS.length}; update FRAME_FIELDS to match the engine`);
  }
  const draw = DRAW_FIELDS.length;
  if (!(l.tileStride >= 12 && l.eventStride >= 5 && l.drawStride >= draw && l.popoverStride >= 7)) {
    throw bindingError('MODULE_MISMATCH', `cairn: tile records of ${l.tileStride}, event records of ${l.eventStride}, draw records of ` +
      `${l.drawStride} and popover records of ${l.popoverStride} doubles are shorter than these bindings read (12, 5, ${draw} and 7)`);
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
  // The draw records are copied now (the buffer is the next frame's) and made into objects
  // when first read: a frame of a hundred thousand items that only its events are read of
  // costs a copy, not a hundred thousand objects.
  const drawStart = layout.header + v[F.tileCount] * layout.tileStride;
  const records = v.slice(drawStart, drawStart + v[F.drawCount] * layout.drawStride);
  /** @type {DrawItem[] | null} */
  let items = null;
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
    get items() {
      return (items ??= readItems(records, layout.drawStride));
    },
    hiddenCount: v[F.hiddenCount],
    infoWindow: v[F.infoWindowOpen] !== 0 ? {
      ...windowOwner(v[F.infoWindowMarker], v[F.infoWindowManager]), x: v[F.infoWindowX], y: v[F.infoWindowY],
      width: v[F.infoWindowWidth], height: v[F.infoWindowHeight], left: v[F.infoWindowLeft], top: v[F.infoWindowTop],
    } : null,
    selectedMarker: selected && 'marker' in selected ? selected.marker : null,
    selectedItem: selected && 'item' in selected ? selected : null,
    events: readEvents(v, layout),
    droppedEvents: v[F.droppedEvents],
    horizonY: v[F.horizonY],
    farClipY: v[F.farClipY],
    viewport: { width: v[F.viewportWidth], height: v[F.viewportHeight] },
    popovers: readPopovers(v, layout),
    nextFrameIn: v[F.nextFrameIn],
  };
}

/**
 * @param {Float64Array} v
 * @param {FrameLayout} layout
 * @returns {PopoverPlacement[]}
 */
function readPopovers(v, layout) {
  const n = v[F.popoverCount];
  const stride = layout.popoverStride;
  /** @type {PopoverPlacement[]} */
  const popovers = new Array(n);
  const start = layout.header + v[F.tileCount] * layout.tileStride + v[F.drawCount] * layout.drawStride +
    v[F.eventCount] * layout.eventStride;
  for (let i = 0, k = start; i < n; i++, k += stride) {
    popovers[i] = { popover: v[k], marker: v[k + 1], shown: v[k + 2] !== 0, x: v[k + 3], y: v[k + 4], width: v[k + 5],
      height: v[k + 6] };
  }
  return popovers;
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
 * @param {Float64Array} v  the draw records alone
 * @param {number} stride
 * @returns {DrawItem[]}
 */
function readItems(v, stride) {
  const n = v.length / stride;
  /** @type {DrawItem[]} */
  const items = new Array(n);
  for (let i = 0, k = 0; i < n; i++, k += stride) {
    items[i] = {
      kind: ITEM_KINDS[v[k]] ?? 'unknown', id: v[k + 1], x: v[k + 2], y: v[k + 3], rotation: v[k + 4],
      scaleX: v[k + 5], scaleY: v[k + 6], opacity: v[k + 7], icon: v[k + 8], count: v[k + 9], zIndex: v[k + 10],
      manager: v[k + 11], leg: Number.isNaN(v[k + 12]) ? null : { x: v[k + 12], y: v[k + 13] }, progress: v[k + 14],
      shear: v[k + 15], anchorX: v[k + 16], anchorY: v[k + 17],
      // A cluster's icon, the engine's: label number (and "+"), colour 0xRRGGBB, diameter.
      clusterIcon: v[k] === CLUSTER_KIND
        ? { text: v[k + 19] === 1 ? `${v[k + 18]}+` : String(v[k + 18]), color: hexColor(v[k + 20]), diameter: v[k + 21] }
        : null,
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
    } else if (type === 'popoverClosed' || type === 'popoverRemoved') {
      events[i] = /** @type {MapEvent} */ ({ type, popover: v[k + 1], marker: v[k + 2] });
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
