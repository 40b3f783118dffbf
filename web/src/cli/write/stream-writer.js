// Writing large chunks to a stream (standard output) with backpressure: wait for 'drain' when
// the stream's buffer is full, so that gigabytes of output never pile up in memory.

/** A writable stream, seen through what this file uses. */
export class StreamWriter {
  /** @type {NodeJS.WritableStream} */
  #stream;
  /** @type {Error | null} */
  #error = null;

  /** @param {NodeJS.WritableStream} stream */
  constructor(stream) {
    this.#stream = stream;
    // Kept rather than thrown from the event: the next write or flush reports it.
    stream.on('error', (error) => { this.#error = error; });
  }

  /**
   * Writes a chunk; resolves when the stream can take more.
   * @param {Uint8Array} chunk  not reused by the caller afterwards
   */
  async write(chunk) {
    if (this.#error) throw this.#error;
    if (!this.#stream.write(chunk)) await this.#event('drain');
  }

  /** Resolves when everything written so far is flushed, without ending the stream (stdout). */
  async flush() {
    if (this.#error) throw this.#error;
    await new Promise((resolve, reject) => {
      this.#stream.write('', (/** @type {Error | null | undefined} */ error) => (error ? reject(error) : resolve(undefined)));
    });
  }

  /**
   * @param {string} name
   * @returns {Promise<void>} settles on the event, or rejects on an error first
   */
  #event(name) {
    return new Promise((resolve, reject) => {
      const done = () => {
        this.#stream.removeListener(name, done);
        this.#stream.removeListener('error', failed);
        resolve();
      };
      const failed = (/** @type {Error} */ error) => {
        this.#stream.removeListener(name, done);
        this.#stream.removeListener('error', failed);
        reject(error);
      };
      this.#stream.on(name, done);
      this.#stream.on('error', failed);
    });
  }
}
