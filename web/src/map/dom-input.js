// Browser input for a map: the DOM's pointer, wheel and keyboard events, forwarded to the
// engine as they come (it batches them until the next frame). Nothing is decided here: what a
// drag, a pinch or a key does, and which keys are the map's, is the engine's; this file only
// translates DOM names and coordinates, and keeps the browser from acting on the events the map
// takes (scrolling the page, zooming it, opening the context menu that a right-drag would).

import { MapEngine } from '../engine/map-engine.js';

/**
 * Forwards `element`'s input to `engine`; returns the function that stops it.
 * @param {HTMLElement} element  the map's container: coordinates are relative to its box
 * @param {MapEngine} engine
 * @param {() => void} onInput  called after each forwarded event (the map schedules a frame)
 * @returns {() => void}
 */
export function forwardInput(element, engine, onInput) {
  // Seconds on the clock the frames use: DOM event time stamps share performance.now()'s origin.
  /** @param {Event} e */
  const time = (e) => e.timeStamp / 1000;
  /** @param {MouseEvent} e */
  const local = (e) => {
    const r = element.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  };
  /** @param {string} t  @returns {'mouse' | 'touch' | 'pen'} */
  const kind = (t) => (t === 'touch' || t === 'pen' ? t : 'mouse');

  /** @param {PointerEvent} e */
  const down = (e) => {
    if (isOverlay(e.target, element)) return;
    const p = local(e);
    element.setPointerCapture?.(e.pointerId);
    element.focus({ preventScroll: true });
    engine.pointerDown(e.pointerId, kind(e.pointerType), p.x, p.y, e.button, MapEngine.modifiers(e), time(e));
    e.preventDefault();
    onInput();
  };
  /** @param {PointerEvent} e */
  const move = (e) => {
    // Hovering mice move too; the engine ignores pointers it has not seen go down, but there is
    // no need to wake a frame for them.
    if (e.pointerType === 'mouse' && e.buttons === 0) return;
    const p = local(e);
    engine.pointerMove(e.pointerId, p.x, p.y, time(e));
    onInput();
  };
  /** @param {PointerEvent} e */
  const up = (e) => {
    const p = local(e);
    engine.pointerUp(e.pointerId, p.x, p.y, time(e));
    onInput();
  };
  /** @param {PointerEvent} e */
  const cancel = (e) => {
    engine.pointerCancel(e.pointerId, time(e));
    onInput();
  };
  /** @param {WheelEvent} e */
  const wheel = (e) => {
    if (isOverlay(e.target, element)) return;
    const p = local(e);
    engine.wheel(p.x, p.y, e.deltaX, e.deltaY, e.deltaMode, MapEngine.modifiers(e), time(e));
    e.preventDefault();    // the page must not scroll or zoom (ctrl-wheel is a pinch)
    onInput();
  };
  /** @param {KeyboardEvent} e */
  const key = (e) => {
    const command = MapEngine.keyCommand(e.key);
    if (!command || isOverlay(e.target, element)) return;
    // A key the engine does not take (with ctrl, alt or cmd) stays the browser's.
    if (!engine.key(command, MapEngine.modifiers(e), time(e))) return;
    e.preventDefault();
    onInput();
  };
  /** @param {Event} e */
  const noMenu = (e) => e.preventDefault();   // a right-drag tilts and rotates

  const listeners = /** @type {[string, (e: any) => void, AddEventListenerOptions][]} */ ([
    ['pointerdown', down, {}], ['pointermove', move, {}], ['pointerup', up, {}], ['pointercancel', cancel, {}],
    ['wheel', wheel, { passive: false }], ['keydown', key, {}], ['contextmenu', noMenu, {}],
  ]);
  for (const [type, fn, options] of listeners) element.addEventListener(type, fn, options);
  if (element.tabIndex < 0) element.tabIndex = 0;   // keys reach a focused map only
  element.style.touchAction = 'none';               // the browser must not pan or zoom the page
  return () => {
    for (const [type, fn, options] of listeners) element.removeEventListener(type, fn, options);
  };
}

/**
 * Whether an event started on one of the map's DOM overlays (a custom info window, a popover),
 * which handle their own input like any page content.
 * @param {EventTarget | null} target
 * @param {HTMLElement} element
 * @returns {boolean}
 */
function isOverlay(target, element) {
  for (let n = /** @type {Node | null} */ (target); n && n !== element; n = n.parentNode) {
    if (n instanceof HTMLElement && n.dataset.cairnOverlay !== undefined) return true;
  }
  return false;
}
