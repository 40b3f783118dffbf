// A GeoJSON FeatureCollection read as a stream: the bytes are walked once, tracking only
// nesting depth and strings, and each element of the top-level `features` array is cut out and
// given to JSON.parse on its own. The whole document is never one string or one object, so a
// file of gigabytes is read in the memory of one feature.
//
// Members other than `features` are skipped (after checking that `type` says
// FeatureCollection). The walk is resumable: any state may end with a chunk and carry on with
// the next.

import { FeatureAdder } from './points.js';
import { InputError, jsonReason, quoted, quotedJson } from '../errors.js';
import { isJsonSpace, BACKSLASH, CLOSE_BRACE, CLOSE_BRACKET, COLON, COMMA, LF, OPEN_BRACE, OPEN_BRACKET, QUOTE } from '../ascii.js';

/** One feature longer than this is refused rather than buffered without bound. */
const MAX_VALUE_BYTES = 256 * 2 ** 20;

/** Where the walk is in the document. */
const State = Object.freeze({
  START: 0, // before the opening brace
  KEY: 1, // expecting a member name or the closing brace
  NAME: 2, // inside a member name
  COLON: 3,
  VALUE_START: 4, // expecting a member's value
  VALUE: 5, // inside a member's value
  AFTER_VALUE: 6, // expecting a comma or the closing brace
  OPEN_FEATURES: 7, // expecting the '[' of the features array
  FEATURES: 8, // expecting a feature (or, in an empty array, the closing bracket)
  FEATURE: 9, // inside a feature
  AFTER_FEATURE: 10, // expecting a comma or the closing bracket
  END: 11, // after the closing brace: only whitespace may follow
});

/** The states in which a value is being cut out. */
const CUTTING = new Set([State.NAME, State.VALUE, State.FEATURE]);

/**
 * Reads the features of a FeatureCollection into a store.
 * @param {AsyncIterable<Buffer>} chunks
 * @param {import('./point-store.js').PointStore} store
 * @param {import('./points.js').PropertySpec} spec
 */
export async function readFeatureCollection(chunks, store, spec) {
  const walker = new CollectionWalker(store, new FeatureAdder(store, spec));
  for await (const chunk of chunks) walker.push(chunk);
  walker.end();
}

/** The resumable walk; push chunks in order, then call end(). */
class CollectionWalker {
  state = State.START;
  /** Lines seen so far (for messages). */
  line = 1;
  /** Bytes seen so far. */
  bytes = 0;
  /** Features seen so far: the index of the next one. */
  feature = 0;
  sawFeatures = false;
  /** @type {string | null} the member whose value comes next */
  key = null;
  // The value being cut out: the pieces of it from earlier chunks, and how deep it is nested.
  /** @type {Buffer[]} */
  pieces = [];
  pieceBytes = 0;
  depth = 0;
  inString = false;
  escaped = false;
  /** Whether the value is a bare number, true, false or null (ends at a delimiter). */
  bare = false;
  /** Whether the value's first byte is still to come. */
  fresh = false;
  /** The line the current value starts on. */
  valueLine = 1;

  /**
   * @param {import('./point-store.js').PointStore} store
   * @param {FeatureAdder} adder
   */
  constructor(store, adder) {
    this.store = store;
    this.adder = adder;
  }

  /** @param {Buffer} data */
  push(data) {
    this.bytes += data.length;
    let p = 0;
    const len = data.length;
    while (p < len) {
      const state = this.state;
      if (CUTTING.has(state)) {
        p = this.#value(data, p);
        continue;
      }
      const c = data[p];
      if (isJsonSpace(c)) {
        if (c === LF) this.line++;
        p++;
        continue;
      }
      switch (state) {
        case State.START:
          if (c !== OPEN_BRACE) this.#fail(`expected a GeoJSON FeatureCollection, found ${describe(c)}`);
          this.state = State.KEY;
          break;
        case State.KEY:
          if (c === CLOSE_BRACE) {
            this.state = State.END;
            break;
          }
          if (c !== QUOTE) this.#fail(`expected a member name or '}', found ${describe(c)}`);
          this.#cut(State.NAME);
          continue;
        case State.COLON:
          if (c !== COLON) this.#fail(`expected ':' after ${quoted(String(this.key))}, found ${describe(c)}`);
          // The features array is not cut out whole: its elements are, one by one.
          this.state = this.key === 'features' ? State.OPEN_FEATURES : State.VALUE_START;
          break;
        case State.VALUE_START:
          this.#cut(State.VALUE);
          continue;
        case State.AFTER_VALUE:
          if (c === COMMA) this.state = State.KEY;
          else if (c === CLOSE_BRACE) this.state = State.END;
          else this.#fail(`expected ',' or '}' after the value of ${quoted(String(this.key))}, found ${describe(c)}`);
          break;
        case State.OPEN_FEATURES:
          if (c !== OPEN_BRACKET) this.#fail(`"features" must be an array, found ${describe(c)}`);
          if (this.sawFeatures) this.#fail('the FeatureCollection has two "features" members');
          this.sawFeatures = true;
          this.state = State.FEATURES;
          break;
        case State.FEATURES:
          if (c === CLOSE_BRACKET) {
            if (this.feature > 0) this.#fail(`expected feature ${this.feature} after ',', found ']'`);
            this.state = State.AFTER_VALUE;
            break;
          }
          this.#cut(State.FEATURE);
          continue;
        case State.AFTER_FEATURE:
          if (c === COMMA) this.state = State.FEATURES;
          else if (c === CLOSE_BRACKET) this.state = State.AFTER_VALUE;
          else this.#fail(`expected ',' or ']' after feature ${this.feature - 1}, found ${describe(c)}`);
          break;
        default:
          this.#fail(`unexpected ${describe(c)} after the end of the FeatureCollection`);
      }
      p++;
    }
  }

  /** Checks that the document is complete. */
  end() {
    if (this.state === State.END) {
      if (!this.sawFeatures) this.#fail('the FeatureCollection has no "features" array');
      return;
    }
    if (this.state === State.START) this.#fail(this.bytes === 0 ? 'the input is empty' : 'the input is white space only');
    // `feature` counts the features read: the one begun, or the next.
    const where = this.state === State.FEATURE ? `inside feature ${this.feature}`
      : this.state === State.FEATURES || this.state === State.AFTER_FEATURE
        ? (this.feature > 0 ? `after feature ${this.feature - 1}` : 'at the start of the "features" array')
        : 'inside the FeatureCollection';
    this.#fail(`the input ends ${where} (is the file cut short?)`);
  }

  /**
   * Starts cutting out a value (a member name, a member's value, a feature) at the current byte.
   * @param {number} state  NAME, VALUE or FEATURE
   */
  #cut(state) {
    this.state = state;
    this.pieces = [];
    this.pieceBytes = 0;
    this.depth = 0;
    this.inString = false;
    this.escaped = false;
    this.bare = false;
    this.fresh = true;
    this.valueLine = this.line;
  }

  /**
   * Walks the current value (a key, a member's value or a feature) from `p`; when it ends,
   * handles it and moves to the next state.
   * @param {Buffer} data
   * @param {number} start
   * @returns {number} where the walk stopped
   */
  #value(data, start) {
    const len = data.length;
    let p = start;
    let depth = this.depth;
    let inString = this.inString;
    let escaped = this.escaped;
    let done = false;
    if (this.fresh) {
      // The first byte says what kind of value this is.
      this.fresh = false;
      const c = data[p];
      if (c === OPEN_BRACE || c === OPEN_BRACKET) depth = 1;
      else if (c === QUOTE) inString = true;
      else this.bare = true;
      if (!this.bare) p++;
    }
    if (this.bare) {
      while (p < len) {
        const c = data[p];
        if (c === COMMA || c === CLOSE_BRACE || c === CLOSE_BRACKET || c <= 0x20) {
          done = true;
          break;
        }
        p++;
      }
    } else {
      for (; p < len; p++) {
        const c = data[p];
        if (inString) {
          if (escaped) escaped = false;
          else if (c === BACKSLASH) escaped = true;
          else if (c === QUOTE) {
            inString = false;
            if (depth === 0) {
              p++;
              done = true;
              break;
            }
          } else if (c === LF) this.line++;
        } else if (c === QUOTE) {
          inString = true;
        } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
          depth++;
        } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
          if (--depth === 0) {
            p++;
            done = true;
            break;
          }
        } else if (c === LF) {
          this.line++;
        }
      }
    }
    this.depth = depth;
    this.inString = inString;
    this.escaped = escaped;
    if (!done) {
      this.pieces.push(data.subarray(start, p));
      this.pieceBytes += p - start;
      if (this.pieceBytes > MAX_VALUE_BYTES) {
        this.#fail(`a value longer than ${MAX_VALUE_BYTES / 2 ** 20} MiB at line ${this.valueLine}`);
      }
      return p;
    }
    const text = this.pieces.length === 0 ? data.toString('utf8', start, p)
      : Buffer.concat([...this.pieces, data.subarray(start, p)]).toString('utf8');
    this.pieces = [];
    this.pieceBytes = 0;
    this.#handle(text);
    return p;
  }

  /**
   * A complete key, member value or feature.
   * @param {string} text
   */
  #handle(text) {
    switch (this.state) {
      case State.NAME:
        this.key = this.#parse(text, 'a member name');
        this.state = State.COLON;
        return;
      case State.VALUE: {
        // Other members are skipped, but must still be JSON.
        const value = this.#parse(text, `the value of ${quoted(String(this.key))}`);
        if (this.key === 'type' && value !== 'FeatureCollection') {
          const hint = value === 'Feature' ? ' (for one feature per line use --format ndjson; put a single feature in a FeatureCollection)' : '';
          this.#fail(`the input is a GeoJSON ${quotedJson(value)}, not a FeatureCollection${hint}`);
        }
        this.state = State.AFTER_VALUE;
        return;
      }
      default: {
        const where = `feature ${this.feature} (line ${this.valueLine})`;
        this.feature++;
        this.state = State.AFTER_FEATURE;
        let feature;
        try {
          feature = JSON.parse(text);
        } catch (error) {
          this.store.invalid(where, `malformed JSON (${jsonReason(error)})`);
          return;
        }
        this.adder.add(feature, where);
      }
    }
  }

  /**
   * JSON.parse for the document's own structure, where malformed JSON cannot be skipped.
   * @param {string} text
   * @param {string} what
   */
  #parse(text, what) {
    try {
      return JSON.parse(text);
    } catch (error) {
      return this.#fail(`malformed JSON in ${what} (${jsonReason(error)})`);
    }
  }

  /**
   * @param {string} problem
   * @returns {never}
   */
  #fail(problem) {
    throw new InputError(`${this.store.options.source}: line ${this.line}: ${problem}`);
  }
}

/**
 * A byte for messages: the character when printable, else its code.
 * @param {number} c
 */
function describe(c) {
  return c >= 0x21 && c < 0x7f ? `'${String.fromCharCode(c)}'` : `byte 0x${c.toString(16).padStart(2, '0')}`;
}
