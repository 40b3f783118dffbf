// The batch of input records a MapEngine collects between frames, encoded for the module: the
// record types and fields the engine reads. Encodings only: what an event does to the map is
// decided in the engine.

import { bindingError } from '../core/errors.js';

/** Input record types, and the positions of the fields in a record. */
const RECORD = Object.freeze({ pointerDown: 1, pointerMove: 2, pointerUp: 3, pointerCancel: 4, wheel: 5, key: 6 });
/** [type, time, id, x, y, a, b, c, modifiers] */
const RECORD_FIELDS = 9;

/**
 * The input records collected between two pushes, in a growing Float64Array, with the name of
 * the method that added each (for the message when the engine refuses one).
 */
export class InputBatch {
  /** @type {Float64Array} */
  #records;
  /** @type {string[]} */
  #calls = [];
  #stride;
  #count = 0;

  /** @param {number} stride  doubles per record, as the module says */
  constructor(stride) {
    if (!(stride >= RECORD_FIELDS)) {
      throw bindingError('MODULE_MISMATCH', `cairn: input records have ${stride} doubles but these bindings write ${RECORD_FIELDS}`);
    }
    this.#stride = stride;
    this.#records = new Float64Array(16 * stride);
  }

  /** Records waiting. */
  get count() { return this.#count; }

  /** The waiting records, `count × stride` doubles (a view, valid until the next add). */
  get records() { return this.#records.subarray(0, this.#count * this.#stride); }

  /**
   * The method that added record `i`.
   * @param {number} i
   */
  callAt(i) { return this.#calls[i]; }

  clear() {
    this.#count = 0;
    this.#calls.length = 0;
  }

  /**
   * @param {keyof RECORD} call  the method, which names the record type
   * @param {number} time
   * @param {number} id  pointer id or key command
   * @param {number} x
   * @param {number} y
   * @param {number} a  pointer kind, or wheel deltaX
   * @param {number} b  button, or wheel deltaY
   * @param {number} c  wheel delta mode
   * @param {number} modifiers
   */
  add(call, time, id, x, y, a, b, c, modifiers) {
    const stride = this.#stride;
    if ((this.#count + 1) * stride > this.#records.length) {
      const grown = new Float64Array(this.#records.length * 2);
      grown.set(this.#records);
      this.#records = grown;
    }
    const r = this.#records;
    const k = this.#count * stride;
    r[k] = RECORD[call];
    r[k + 1] = time;
    r[k + 2] = id;
    r[k + 3] = x;
    r[k + 4] = y;
    r[k + 5] = a;
    r[k + 6] = b;
    r[k + 7] = c;
    r[k + 8] = modifiers;
    this.#calls[this.#count] = call;
    this.#count++;
  }
}
