// A PMTiles v3 archive written as the tiles come: tiles gzipped in batches by a worker thread
// (gzip-worker.js, a batch or two in flight so memory stays bounded) and handed in tile id order
// to the engine's directory (cairn_pmtiles_add), which says whether their bytes are new; new
// bytes go to a temporary data file at once, so memory holds only the directory. At the end the engine
// serialises the directories and the header, and the archive is put together in a second
// temporary file (header, root directory, metadata, leaf directories, tile data) and renamed
// into place.

import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { Worker } from 'node:worker_threads';

import { getModule } from '../../core/wasm.js';
import { errorFromStatus, memoryError } from '../../core/errors.js';

/** How every PMTiles archive begins ("PMTiles" and version 3). */
export const PMTILES_MAGIC = new Uint8Array([0x50, 0x4d, 0x54, 0x69, 0x6c, 0x65, 0x73, 3]);
/** The header and root directory must fit in the first read of a client: 16 KiB. */
const FIRST_READ = 16384;
const HEADER_BYTES = 127;
/** Entries per leaf directory to start from; doubled until the root fits. */
const FIRST_LEAF_SIZE = 4096;
/** Bytes gathered before a write to the data file. */
const CHUNK_BYTES = 4 << 20;
/**
 * gzip settings for tiles: most tiles are a few hundred bytes, for which a 4 KiB window and a
 * small hash table compress as well as the defaults while costing less to set up per tile.
 */
const TILE_GZIP = { windowBits: 12, memLevel: 4 };
/** The directories and metadata are written once: compressed as tightly as gzip can. */
const DIRECTORY_GZIP = { level: 9 };
/** Tiles (or bytes) per batch sent to the gzip thread, and batches in flight at most. */
const BATCH_TILES = 1024;
const BATCH_BYTES = 1 << 20;
const IN_FLIGHT = 2;

export class PMTilesArchive {
  #fn;
  #mod;
  #handle;
  /** A buffer in the engine's memory for one tile's stored bytes. */
  #tile = { ptr: 0, bytes: 0 };
  /** One for what the engine answers with (directories, the header). */
  #answer = { ptr: 0, bytes: 0 };
  #chunk = new Uint8Array(CHUNK_BYTES);
  #chunkLength = 0;
  #dataFd;
  #dataPath;
  /** The gzip thread, the batch being gathered, and the batches sent, oldest first. */
  #worker;
  /** @type {{tiles: Uint8Array[], bytes: number, keys: number[]}} */
  #batch = { tiles: [], bytes: 0, keys: [] };
  /** @type {{keys: number[], done: Promise<{bytes: ArrayBuffer, lengths: Uint32Array}>}[]} */
  #sent = [];
  /** @type {((answer: any) => void)[]} */
  #replies = [];
  /** @type {Error | null} */
  #failure = null;

  /**
   * @param {import('./atomic-file.js').AtomicFile} file  the output
   */
  constructor(file) {
    this.#mod = getModule();
    this.#fn = this.#mod.fn;
    this.file = file;
    this.#dataPath = file.temporary('data');
    this.#dataFd = openSync(this.#dataPath, 'w');
    this.#handle = this.#check(this.#fn.cairn_pmtiles_create(), 'cairn_pmtiles_create');
    this.#ensure(this.#answer, 65536);
    this.#worker = new Worker(new URL('./gzip-worker.js', import.meta.url), { workerData: TILE_GZIP });
    this.#worker.on('message', (answer) => this.#replies.shift()?.(answer));
    this.#worker.on('error', (error) => this.#fail(error));
    this.#worker.on('exit', () => this.#fail(new Error('the gzip thread stopped')));
  }

  /** @param {Error} error */
  #fail(error) {
    this.#failure ??= error;
    for (const reply of this.#replies.splice(0)) reply({ error: error.message });
  }

  /**
   * @param {number} status
   * @param {string} call
   */
  #check(status, call) {
    if (status < 0) throw errorFromStatus(status, this.#fn.cairn_last_error_detail(), { call });
    return status;
  }

  /**
   * Makes an engine buffer at least `size` bytes long.
   * @param {{ptr: number, bytes: number}} buffer
   * @param {number} size
   */
  #ensure(buffer, size) {
    if (buffer.bytes >= size) return;
    if (buffer.ptr) this.#fn.cairn_free(buffer.ptr);
    const bytes = Math.max(65536, 2 ** Math.ceil(Math.log2(size)));
    buffer.ptr = this.#fn.cairn_alloc(bytes) >>> 0;
    buffer.bytes = buffer.ptr ? bytes : 0;
    if (!buffer.ptr) throw memoryError('cairn', `out of WebAssembly memory for ${size} bytes of the archive`);
  }

  /**
   * Copies bytes into the engine's tile buffer.
   * @param {Uint8Array} bytes
   */
  #toEngine(bytes) {
    this.#ensure(this.#tile, bytes.length);
    new Uint8Array(this.#mod.memory.buffer, this.#tile.ptr, bytes.length).set(bytes);
    return this.#tile.ptr;
  }

  /**
   * Adds a tile (tiles in tile id order). The tile is gzipped in a batch; when enough batches
   * are in flight the answer is a promise to wait for before adding more.
   * @param {number} z
   * @param {number} x
   * @param {number} y
   * @param {Uint8Array} tile  the encoded vector tile
   * @returns {Promise<void> | undefined}
   */
  add(z, x, y, tile) {
    const b = this.#batch;
    b.tiles.push(tile);
    b.bytes += tile.length;
    b.keys.push(z, x, y);
    if (b.tiles.length < BATCH_TILES && b.bytes < BATCH_BYTES) return undefined;
    this.#send();
    return this.#sent.length >= IN_FLIGHT ? this.#store() : undefined;
  }

  /** Sends the gathered batch to the gzip thread. */
  #send() {
    const { tiles, bytes, keys } = this.#batch;
    if (tiles.length === 0) return;
    this.#batch = { tiles: [], bytes: 0, keys: [] };
    const all = new Uint8Array(bytes);
    const lengths = new Uint32Array(tiles.length);
    for (let i = 0, at = 0; i < tiles.length; at += tiles[i].length, i++) {
      all.set(tiles[i], at);
      lengths[i] = tiles[i].length;
    }
    if (this.#failure) throw this.#failure;
    const done = new Promise((resolve, reject) => {
      this.#replies.push((answer) => (answer.error !== undefined ? reject(new Error(`gzip thread: ${answer.error}`)) : resolve(answer)));
    });
    done.catch(() => {}); // a batch left when the run stops is not waited for
    this.#worker.postMessage({ bytes: all.buffer, lengths }, [all.buffer, lengths.buffer]);
    this.#sent.push({ keys, done: /** @type {Promise<any>} */ (done) });
  }

  /** Adds the oldest batch sent, once gzipped, to the directory and the data file. */
  async #store() {
    const batch = /** @type {{keys: number[], done: Promise<{bytes: ArrayBuffer, lengths: Uint32Array}>}} */ (this.#sent.shift());
    const { bytes, lengths } = await batch.done;
    const all = new Uint8Array(bytes);
    for (let i = 0, at = 0; i < lengths.length; at += lengths[i], i++) {
      const stored = all.subarray(at, at + lengths[i]);
      const [z, x, y] = batch.keys.slice(3 * i, 3 * i + 3);
      const isNew = this.#check(this.#fn.cairn_pmtiles_add(this.#handle, z, x, y, this.#toEngine(stored), stored.length), 'cairn_pmtiles_add');
      if (isNew === 1) this.#append(stored);
    }
  }

  /** @param {Uint8Array} bytes */
  #append(bytes) {
    if (this.#chunkLength + bytes.length > this.#chunk.length) this.#flush();
    if (bytes.length > this.#chunk.length) {
      writeAll(this.#dataFd, bytes);
      return;
    }
    this.#chunk.set(bytes, this.#chunkLength);
    this.#chunkLength += bytes.length;
  }

  #flush() {
    writeAll(this.#dataFd, this.#chunk.subarray(0, this.#chunkLength));
    this.#chunkLength = 0;
  }

  /**
   * Writes the archive and puts it in place.
   * @param {Record<string, any>} metadata  the TileJSON-style description (see tileMetadata)
   */
  async finish(metadata) {
    this.#send();
    while (this.#sent.length > 0) await this.#store();
    this.#flush();
    closeSync(this.#dataFd);
    this.#dataFd = -1;
    const metadataBytes = gzipSync(JSON.stringify(metadata), DIRECTORY_GZIP);
    const { root, leaves } = this.#directories();
    const header = this.#bytes((out, capacity) => {
      const fields = new Float64Array([root.length, metadataBytes.length, leaves.reduce((n, l) => n + l.length, 0),
        metadata.minzoom, metadata.maxzoom, ...metadata.bounds, metadata.center[2], metadata.center[0], metadata.center[1]]);
      const ptr = this.#fn.cairn_alloc(fields.byteLength) >>> 0;
      if (!ptr) throw memoryError('cairn', 'out of WebAssembly memory for the archive header');
      try {
        new Float64Array(this.#mod.memory.buffer, ptr, fields.length).set(fields);
        return this.#fn.cairn_pmtiles_header(this.#handle, ptr, out, capacity);
      } finally {
        this.#fn.cairn_free(ptr);
      }
    }, 'cairn_pmtiles_header');
    const path = this.file.temporary('pmtiles');
    const fd = openSync(path, 'w');
    try {
      for (const part of [header, root, metadataBytes, ...leaves]) writeAll(fd, part);
      const data = openSync(this.#dataPath, 'r');
      try {
        for (let n; (n = readSync(data, this.#chunk, 0, this.#chunk.length, null)) > 0;) writeAll(fd, this.#chunk.subarray(0, n));
      } finally {
        closeSync(data);
      }
    } finally {
      closeSync(fd);
    }
    this.close();
    this.file.commit(path);
  }

  /**
   * The stored root directory, and the leaf directories when every entry does not fit in the
   * root: leaves of FIRST_LEAF_SIZE entries, more per leaf until the root fits.
   * @returns {{root: Uint8Array, leaves: Uint8Array[]}}
   */
  #directories() {
    const whole = gzipSync(this.#bytes((out, capacity) => this.#fn.cairn_pmtiles_root(this.#handle, 0, 0, 0, out, capacity), 'cairn_pmtiles_root'), DIRECTORY_GZIP);
    if (HEADER_BYTES + whole.length <= FIRST_READ) return { root: whole, leaves: [] };
    const entries = this.#check(this.#fn.cairn_pmtiles_entry_count(this.#handle), 'cairn_pmtiles_entry_count');
    for (let leafSize = FIRST_LEAF_SIZE; ; leafSize *= 2) {
      const count = Math.ceil(entries / leafSize);
      /** @type {Uint8Array[]} */
      const leaves = [];
      for (let l = 0; l < count; l++) {
        leaves.push(gzipSync(this.#bytes((out, capacity) => this.#fn.cairn_pmtiles_leaf(this.#handle, leafSize, l, out, capacity), 'cairn_pmtiles_leaf'), DIRECTORY_GZIP));
      }
      const lengths = new Float64Array(leaves.map((l) => l.length));
      const ptr = this.#fn.cairn_alloc(lengths.byteLength) >>> 0;
      if (!ptr) throw memoryError('cairn', 'out of WebAssembly memory for the root directory');
      let root;
      try {
        new Float64Array(this.#mod.memory.buffer, ptr, lengths.length).set(lengths);
        root = gzipSync(this.#bytes((out, capacity) => this.#fn.cairn_pmtiles_root(this.#handle, leafSize, ptr, count, out, capacity), 'cairn_pmtiles_root'), DIRECTORY_GZIP);
      } finally {
        this.#fn.cairn_free(ptr);
      }
      if (HEADER_BYTES + root.length <= FIRST_READ) return { root, leaves };
    }
  }

  /**
   * The bytes an export answers with, asking again with more room when they do not fit.
   * @param {(out: number, capacity: number) => number} run
   * @param {string} call
   * @returns {Uint8Array}
   */
  #bytes(run, call) {
    for (;;) {
      const total = this.#check(run(this.#answer.ptr, this.#answer.bytes), call);
      if (total <= this.#answer.bytes) return new Uint8Array(this.#mod.memory.buffer, this.#answer.ptr, total).slice();
      this.#ensure(this.#answer, total);
    }
  }

  /** Frees the engine's side (the output's temporaries are the AtomicFile's to remove). */
  close() {
    this.#worker.removeAllListeners('exit');
    this.#worker.terminate();
    this.#sent = [];
    if (this.#dataFd >= 0) closeSync(this.#dataFd);
    this.#dataFd = -1;
    if (this.#handle > 0) this.#fn.cairn_pmtiles_destroy(this.#handle);
    this.#handle = 0;
    for (const buffer of [this.#tile, this.#answer]) {
      if (buffer.ptr) this.#fn.cairn_free(buffer.ptr);
      buffer.ptr = 0;
      buffer.bytes = 0;
    }
  }
}

/**
 * @param {number} fd
 * @param {Uint8Array} bytes
 */
function writeAll(fd, bytes) {
  for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at, bytes.length - at);
}
