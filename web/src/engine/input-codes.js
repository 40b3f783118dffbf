// The engine's numbers for what a MapEngine is given: pointer kinds, wheel modes, keyboard
// commands (and the DOM keys that stand for them), modifier keys and camera animation easings.
// Encodings only: what an event does to the map is decided in the engine.

/** Pointer Events' `pointerType`, as the engine numbers them. */
export const POINTER_KINDS = Object.freeze({ mouse: 0, touch: 1, pen: 2 });

/** `WheelEvent.deltaMode` by name (the numbers are the DOM's and the engine's). */
export const WHEEL_MODES = Object.freeze({ pixel: 0, line: 1, page: 2 });

/** Keyboard commands the engine understands. */
export const KEY_COMMANDS = Object.freeze({ panLeft: 1, panUp: 2, panRight: 3, panDown: 4, zoomIn: 5, zoomOut: 6 });

/** DOM `KeyboardEvent.key` values and the commands they stand for. */
export const DOM_KEYS = Object.freeze({
  ArrowLeft: 'panLeft', ArrowUp: 'panUp', ArrowRight: 'panRight', ArrowDown: 'panDown',
  '+': 'zoomIn', '=': 'zoomIn', '-': 'zoomOut', _: 'zoomOut',
});

/** Modifier keys as the engine's bits, by the DOM event property that reports them. */
export const MODIFIER_BITS = Object.freeze({ shiftKey: 1, ctrlKey: 2, altKey: 4, metaKey: 8 });

/** Programmatic animation easings, as the engine numbers them. */
export const EASINGS = Object.freeze({ linear: 0, easeInOut: 1, easeOut: 2 });
