// The worker thread behind PMTilesArchive: gzips batches of tiles while the main thread encodes
// the next batch. Most tiles are a few hundred bytes, for which zlib's per-call setup costs
// more than the compression: done here, that setup runs on the other core.
// A message is a batch: { bytes: ArrayBuffer, lengths: Uint32Array } (tiles one after another);
// the answer is the same shape with each tile gzipped, in the same order.

import { parentPort, workerData } from 'node:worker_threads';
import { gzipSync } from 'node:zlib';

const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);
const options = workerData;

port.on('message', (/** @type {{bytes: ArrayBuffer, lengths: Uint32Array}} */ batch) => {
  try {
    const input = new Uint8Array(batch.bytes);
    /** @type {Buffer[]} */
    const stored = [];
    let total = 0;
    for (let i = 0, at = 0; i < batch.lengths.length; at += batch.lengths[i], i++) {
      const one = gzipSync(input.subarray(at, at + batch.lengths[i]), options);
      stored.push(one);
      total += one.length;
    }
    const bytes = new Uint8Array(total);
    const lengths = new Uint32Array(stored.length);
    for (let i = 0, at = 0; i < stored.length; at += stored[i].length, i++) {
      bytes.set(stored[i], at);
      lengths[i] = stored[i].length;
    }
    port.postMessage({ bytes: bytes.buffer, lengths }, [bytes.buffer, lengths.buffer]);
  } catch (error) {
    port.postMessage({ error: String(/** @type {Error} */ (error).message ?? error) });
  }
});
