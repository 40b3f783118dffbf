// Frame times of a map, for a frame-time readout and the browser benchmark: the last few
// hundred frames' engine and drawing milliseconds, and their percentiles.

/** Frames remembered. */
const SIZE = 600;

export class FrameStats {
  #engine = new Float64Array(SIZE);
  #total = new Float64Array(SIZE);
  #count = 0;

  /**
   * Records one frame.
   * @param {number} engineMs  the engine's part (input, frame, reading it)
   * @param {number} drawMs    the drawing
   */
  add(engineMs, drawMs) {
    const i = this.#count % SIZE;
    this.#engine[i] = engineMs;
    this.#total[i] = engineMs + drawMs;
    this.#count++;
  }

  /** Frames recorded since the last reset. */
  get count() { return this.#count; }

  /** Forgets every frame. */
  reset() { this.#count = 0; }

  /**
   * Percentiles over the remembered frames, in milliseconds.
   * @returns {{frames: number, engine: {median: number, p95: number}, total: {median: number, p95: number}}}
   */
  summary() {
    const n = Math.min(this.#count, SIZE);
    return {
      frames: n,
      engine: percentiles(this.#engine.subarray(0, n)),
      total: percentiles(this.#total.subarray(0, n)),
    };
  }
}

/**
 * @param {Float64Array} values
 * @returns {{median: number, p95: number}}
 */
export function percentiles(values) {
  if (values.length === 0) return { median: NaN, p95: NaN };
  const sorted = Float64Array.from(values).sort();
  /** @param {number} q */
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { median: at(0.5), p95: at(0.95) };
}
