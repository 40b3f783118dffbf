// Which tiles a source should fetch or render next. The renderer asks for the missing tiles of
// each frame in one burst, nearest first; a burst replaces the last one, so tiles that scrolled
// out of view before their turn are never fetched, and the nearest of the current view always
// go first. A burst ends when the code that made it returns (a microtask), so the sources need
// no call from the renderer to mark the end of a frame.

/**
 * @template T
 */
export class TileQueue {
  /** @type {Map<number, T>} */
  #collecting = new Map();
  /** @type {T[]} */
  #ready = [];
  #next = 0;
  #open = false;
  #onReady;
  #schedule;

  /**
   * @param {() => void} onReady  told when a burst has ended and its tiles can be taken
   * @param {(task: () => void) => void} [schedule=queueMicrotask]  runs the end of a burst later (tests pass their own)
   */
  constructor(onReady, schedule) {
    this.#onReady = onReady;
    // Wrapped: the browser's queueMicrotask refuses to be called as a method of another object.
    this.#schedule = schedule ?? ((task) => queueMicrotask(task));
  }

  /**
   * Adds a tile to the burst being collected (once, however often it is asked for).
   * @param {number} key
   * @param {T} tile
   */
  want(key, tile) {
    if (!this.#open) {
      this.#open = true;
      this.#collecting = new Map();
      this.#schedule(() => this.#close());
    }
    if (!this.#collecting.has(key)) this.#collecting.set(key, tile);
  }

  /**
   * The next tile of the last complete burst, in the order asked for.
   * @returns {T | undefined}
   */
  take() {
    return this.#next < this.#ready.length ? this.#ready[this.#next++] : undefined;
  }

  /** Tiles of the last burst not taken yet. */
  get pending() { return this.#ready.length - this.#next; }

  #close() {
    this.#open = false;
    this.#ready = [...this.#collecting.values()];
    this.#next = 0;
    this.#onReady();
  }
}
