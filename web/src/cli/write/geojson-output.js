// Per-zoom GeoJSON files and standard output. Formatting gigabytes of GeoJSON is as much work
// as querying the engine for it, so files are formatted and written by a worker thread while
// the main thread asks the engine for the next batch: on two cores the two overlap.

import { Worker } from 'node:worker_threads';

import { FeatureFormatter } from './feature-formatter.js';
import { StreamWriter } from './stream-writer.js';

/** Batches handed to the worker and not yet written: enough to keep both threads busy. */
const MAX_IN_FLIGHT = 3;

/**
 * Where the batches of one zoom go: `open`, `add` for each batch, `close`.
 * @typedef {object} ZoomSink
 * @property {(path: string) => Promise<void>} open
 * @property {(batch: import('./world-scanner.js').Batch) => Promise<void>} add  takes the batch's
 *   array over: the caller must not use it afterwards
 * @property {() => Promise<void>} close
 * @property {(length: number) => Float64Array} allocate  an array for a batch (the sink may
 *   recycle arrays it was given)
 * @property {() => Promise<void>} stop  frees the sink (also after a failure)
 */

/**
 * GeoJSON for standard output (or any stream), formatted on the main thread: one zoom only,
 * so there is nothing to overlap with.
 * @implements {ZoomSink}
 */
export class StreamSink {
  #formatter;
  #writer;
  /** @type {Buffer[]} text formatted and not yet written */
  #pending = [];

  /**
   * @param {NodeJS.WritableStream} stream
   * @param {import('./feature-formatter.js').FormatOptions} options
   */
  constructor(stream, options) {
    // A stream writes later: it keeps the chunk, and the formatter gets a new one.
    this.#formatter = new FeatureFormatter(options, (bytes, length) => {
      this.#pending.push(bytes.subarray(0, length));
      return Buffer.allocUnsafe(bytes.length);
    });
    this.#writer = new StreamWriter(stream);
  }

  async open() {
    this.#formatter.begin();
  }

  /** @param {import('./world-scanner.js').Batch} batch */
  async add(batch) {
    this.#formatter.add(batch.records, batch.count, batch.stride);
    await this.#write();
  }

  async close() {
    this.#formatter.end();
    await this.#write();
    await this.#writer.flush();
  }

  /** @param {number} length */
  allocate(length) {
    return new Float64Array(length);
  }

  async stop() {}

  async #write() {
    for (const chunk of this.#pending.splice(0)) await this.#writer.write(chunk);
  }
}

/**
 * @typedef {object} Reply  a promise for one answer of the worker, which answers in order
 * @property {(value?: any) => void} resolve
 * @property {(error: Error) => void} reject
 * @property {Promise<void>} promise
 */

/**
 * GeoJSON files written by a worker thread (format-worker.js).
 * @implements {ZoomSink}
 */
export class WorkerSink {
  #worker;
  /** @type {Reply[]} answers still to come, in the order the worker gives them */
  #replies = [];
  /** @type {Error | null} */
  #failure = null;
  /** @type {ArrayBuffer[]} batch arrays the worker gave back, for reuse (fresh memory is slow) */
  #free = [];

  /**
   * @param {import('./feature-formatter.js').FormatOptions} options  its arrays are moved to
   *   the worker (not copied): the caller must not use them afterwards
   */
  constructor(options) {
    const transfer = [options.carried?.bytes.buffer, options.carried?.ends.buffer, options.inputIndex?.buffer]
      .filter((b) => b !== undefined);
    this.#worker = new Worker(new URL('./format-worker.js', import.meta.url), {
      workerData: options,
      transferList: /** @type {ArrayBuffer[]} */ (transfer),
    });
    this.#worker.on('message', (/** @type {{error?: string, records?: Float64Array}} */ message) => {
      if (message.error !== undefined) {
        this.#fail(new Error(message.error));
        return;
      }
      if (message.records) this.#free.push(message.records.buffer);
      this.#replies.shift()?.resolve();
    });
    this.#worker.on('error', (error) => this.#fail(error));
    this.#worker.on('exit', () => this.#fail(new Error('the GeoJSON writer thread stopped')));
  }

  /** @param {string} path */
  async open(path) {
    await this.#send({ type: 'open', path });
  }

  /** @param {import('./world-scanner.js').Batch} batch */
  async add({ records, count, stride }) {
    if (this.#failure) throw this.#failure;
    this.#send({ type: 'batch', records, count, stride }, [records.buffer]).catch(() => {
      // Reported by the next call that waits.
    });
    // Keep a few batches queued so the worker never waits, but no more: each is memory.
    if (this.#replies.length > MAX_IN_FLIGHT) await this.#replies[0].promise;
  }

  async close() {
    await this.#send({ type: 'close' });
  }

  /** @param {number} length */
  allocate(length) {
    const i = this.#free.findIndex((buffer) => buffer.byteLength >= 8 * length);
    return i < 0 ? new Float64Array(length) : new Float64Array(this.#free.splice(i, 1)[0], 0, length);
  }

  async stop() {
    this.#worker.removeAllListeners('exit');
    await this.#worker.terminate();
  }

  /**
   * Posts a message and returns the promise of its answer.
   * @param {object} message
   * @param {ArrayBuffer[]} [transfer]
   */
  #send(message, transfer = []) {
    if (this.#failure) return Promise.reject(this.#failure);
    /** @type {Reply} */
    const reply = /** @type {any} */ ({});
    reply.promise = new Promise((resolve, reject) => {
      reply.resolve = resolve;
      reply.reject = reject;
    });
    this.#replies.push(reply);
    this.#worker.postMessage(message, transfer);
    return reply.promise;
  }

  /** @param {Error} error */
  #fail(error) {
    this.#failure ??= error;
    for (const reply of this.#replies.splice(0)) reply.reject(this.#failure);
  }
}
