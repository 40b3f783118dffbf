// The worker thread behind WorkerSink (geojson-output.js): formats batches of records as
// GeoJSON into one file at a time. Each message is answered when done; a batch's answer hands
// its array back for reuse.
//
// Full chunks are written by libuv's thread pool (positioned writes, so their order does not
// matter) while this thread formats the next: the copy into the page cache then runs on
// whichever core is idle. A few chunks are in flight at most; beyond that a chunk is written
// at once, which keeps memory bounded when the disk is slower than the formatting.

import { parentPort, workerData } from 'node:worker_threads';
import { openSync, write, writeSync, closeSync } from 'node:fs';

import { FeatureFormatter } from './feature-formatter.js';

/** Chunks being written at once, at most. */
const IN_FLIGHT = 4;

const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);
let fd = -1;
/** Where the next chunk goes in the file. */
let offset = 0;
let writing = 0;
/** @type {Buffer[]} written chunks, free for reuse */
const free = [];
/** @type {Error | null} */
let failure = null;
/** @type {(() => void) | null} called when the last write in flight is done */
let whenWritten = null;

/**
 * Writes bytes at a file position, however many calls it takes.
 * @param {Buffer} bytes
 * @param {number} start
 * @param {number} end
 * @param {number} position
 */
function writeAll(bytes, start, end, position) {
  while (start < end) {
    const n = writeSync(fd, bytes, start, end - start, position);
    start += n;
    position += n;
  }
}

const formatter = new FeatureFormatter(workerData, (chunk, length) => {
  if (failure) throw failure;
  const position = offset;
  offset += length;
  if (writing >= IN_FLIGHT) {
    writeAll(chunk, 0, length, position);
    return chunk;
  }
  writing++;
  write(fd, chunk, 0, length, position, (error, written) => {
    try {
      if (error) throw error;
      if (written < length) writeAll(chunk, written, length, position + written);
    } catch (e) {
      failure ??= /** @type {Error} */ (e);
    }
    free.push(chunk);
    if (--writing === 0 && whenWritten) whenWritten();
  });
  return free.pop() ?? Buffer.allocUnsafe(chunk.length);
});

/** Resolves when every write in flight is done. */
function written() {
  return writing === 0 ? Promise.resolve() : new Promise((resolve) => { whenWritten = () => { whenWritten = null; resolve(undefined); }; });
}

/**
 * @param {{type: string, path: string, records: Float64Array, count: number, stride: number}} message
 */
async function handle(message) {
  if (message.type === 'open') {
    fd = openSync(message.path, 'w');
    offset = 0;
    formatter.begin();
    port.postMessage({});
  } else if (message.type === 'batch') {
    formatter.add(message.records, message.count, message.stride);
    port.postMessage({ records: message.records }, [message.records.buffer]);
  } else {
    formatter.end();
    await written();
    if (failure) throw failure;
    closeSync(fd);
    fd = -1;
    port.postMessage({});
  }
}

/** Messages are handled strictly in order, each after the one before has finished. */
let queue = Promise.resolve();
port.on('message', (message) => {
  queue = queue.then(() => handle(message)).catch((error) => {
    port.postMessage({ error: error instanceof Error ? error.message : String(error) });
  });
});
