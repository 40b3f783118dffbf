// A scripted drag and pinch, as data, shared by the wasm test (engine/map-engine.test.js) and the
// native one (Tests/CairnTests/Map/MapControllerTests.swift): both run it and must end with
// the same camera.
//
// Each step is [method, ...arguments] with MapEngine's method names and argument order:
//   pointerDown(id, kind, x, y, button, modifiers, time), pointerMove(id, x, y, time),
//   pointerUp(id, x, y, time), frame(time).
// Input events are handled in the order listed; the engine advances only at the `frame` steps
// (MapController.advance(to:) natively).

export const MAP_SCRIPT = Object.freeze({
  map: { camera: { latitude: 40, longitude: -74, zoom: 10, bearing: 0, tilt: 0 }, width: 800, height: 600 },
  steps: Object.freeze([
    // A mouse drag to the right and down, then time for the fling to end.
    ['pointerDown', 1, 'mouse', 400, 300, 0, 0, 0],
    ['pointerMove', 1, 450, 320, 0.016],
    ['pointerMove', 1, 500, 340, 0.033],
    ['pointerUp', 1, 500, 340, 0.05],
    ['frame', 2.0],
    // Two touch pointers moving apart (and turning a little), lifted together.
    ['pointerDown', 2, 'touch', 300, 300, 0, 0, 3.0],
    ['pointerDown', 3, 'touch', 500, 300, 0, 0, 3.0],
    ['pointerMove', 2, 250, 280, 3.05],
    ['pointerMove', 3, 550, 320, 3.05],
    ['pointerMove', 2, 200, 260, 3.1],
    ['pointerMove', 3, 600, 340, 3.1],
    ['pointerUp', 2, 200, 260, 3.15],
    ['pointerUp', 3, 600, 340, 3.15],
    ['frame', 5.0],
  ]),
});
