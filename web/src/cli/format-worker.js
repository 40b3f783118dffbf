// The worker thread behind WorkerSink (geojson-output.js): formats batches of records as
// GeoJSON into one file at a time. Writes are synchronous: this thread has nothing else to do
// meanwhile, and a written chunk can be reused at once. Each message is answered when done;
// a batch's answer hands its array back for reuse.

import { parentPort, workerData } from 'node:worker_threads';
import { openSync, writeSync, closeSync } from 'node:fs';

import { FeatureFormatter } from './geojson-format.js';

const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);
let fd = -1;
const formatter = new FeatureFormatter(workerData, (bytes) => {
  for (let done = 0; done < bytes.length;) done += writeSync(fd, bytes, done);
});

port.on('message', (/** @type {{type: string, path: string, records: Float64Array, count: number, stride: number}} */ message) => {
  try {
    if (message.type === 'open') {
      fd = openSync(message.path, 'w');
      formatter.begin();
      port.postMessage({});
    } else if (message.type === 'batch') {
      formatter.add(message.records, message.count, message.stride);
      port.postMessage({ records: message.records }, [message.records.buffer]);
    } else {
      formatter.end();
      closeSync(fd);
      fd = -1;
      port.postMessage({});
    }
  } catch (error) {
    port.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
});
