// The worker thread behind WorkerSink (geojson-output.js): formats batches of records as
// GeoJSON and writes them to one file at a time, answering each message once done with it.

import { parentPort, workerData } from 'node:worker_threads';
import { createWriteStream } from 'node:fs';

import { FeatureFormatter } from './geojson-format.js';
import { StreamWriter } from './stream-writer.js';

const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);
const formatter = new FeatureFormatter(workerData);
/** @type {StreamWriter | null} */
let file = null;
/** Messages are handled strictly in order, each after the one before has finished. */
let queue = Promise.resolve();

/**
 * @param {{type: 'open', path: string} | {type: 'batch', records: Float64Array, count: number, stride: number} | {type: 'close'}} message
 */
async function handle(message) {
  if (message.type === 'open') {
    file = new StreamWriter(createWriteStream(message.path));
    await file.write(formatter.header());
  } else if (message.type === 'batch') {
    await /** @type {StreamWriter} */ (file).write(formatter.format(message.records, message.count, message.stride));
  } else {
    await /** @type {StreamWriter} */ (file).write(formatter.footer());
    await /** @type {StreamWriter} */ (file).end();
    file = null;
  }
}

port.on('message', (message) => {
  queue = queue.then(() => handle(message)).then(
    () => port.postMessage({}),
    (error) => port.postMessage({ error: error instanceof Error ? error.message : String(error) }),
  );
});
