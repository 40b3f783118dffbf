// Reads the demo's binary points files (data/cities.bin, data/synthetic-1m.bin): a million
// points are 8 MB here, read into typed arrays in one pass, where GeoJSON would be ~100 MB of
// objects and would stall the page while parsed.
//
// Layout, little-endian (points-writer.js and prepare-data.py write it):
//
//   offset 0   8 bytes   magic, the ASCII text "CAIRNPT1"
//   offset 8   u32       count, the number of points
//   offset 12  u32       flags: bit 0 a population per point follows the coordinates,
//                               bit 1 names follow; other bits are reserved (must be 0)
//   offset 16  f32 × 2 × count   [lng, lat] per point, degrees
//   then       u32 × count       population (if bit 0)
//   then       UTF-8 text        names (if bit 1), each followed by '\n', in point order,
//                                to the end of the file
//
// The header is 16 bytes and every array item is 4 bytes, so each array starts 4-byte aligned
// (typed-array views need that) with no padding bytes between them.

const MAGIC = 'CAIRNPT1';
const HEADER_BYTES = 16;
const FLAG_POPULATION = 1;
const FLAG_NAMES = 2;
const KNOWN_FLAGS = FLAG_POPULATION | FLAG_NAMES;
const littleEndianHost = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * The content of a points file.
 * @typedef {{
 *   count: number,
 *   lngLat: Float64Array,
 *   population: Uint32Array | null,
 *   names: string[] | null,
 * }} Points
 * `lngLat` holds 2 × count numbers, [lng, lat] interleaved, widened from the file's Float32
 * (what `ClusterIndex.loadCoordinates` takes); `population` and `names` are null when the file
 * has none.
 */

/**
 * Progress of a download: bytes received so far and the expected total, or null when the
 * server did not say (no Content-Length, or a compressed body whose length differs).
 * @typedef {{ loaded: number, total: number | null }} Progress
 */

/**
 * Decodes a points file.
 * @param {ArrayBuffer | ArrayBufferView} data the whole file
 * @returns {Points}
 * @throws {Error} for a file that is not a points file, is cut short, has unknown flags or
 *   bytes past its end
 */
export function parsePoints(data) {
  let bytes = ArrayBuffer.isView(data)
    ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
    : new Uint8Array(data);
  if (bytes.byteOffset % 4 !== 0) bytes = bytes.slice(); // typed-array views need alignment

  if (bytes.length === 0) throw new Error('points file: the file is empty');
  const head = bytes.subarray(0, MAGIC.length);
  if (String.fromCharCode(...head) !== MAGIC.slice(0, head.length)) {
    const start = Array.from(bytes.subarray(0, MAGIC.length), (b) => b.toString(16).padStart(2, '0')).join(' ');
    throw new Error(`points file: not a Cairn points file (starts with bytes [${start}], expected "${MAGIC}")`);
  }
  if (bytes.length < HEADER_BYTES) {
    throw new Error(`points file: truncated: the header needs ${HEADER_BYTES} bytes, the file has ${bytes.length}`);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = view.getUint32(8, true);
  const flags = view.getUint32(12, true);
  if (flags & ~KNOWN_FLAGS) {
    throw new Error(`points file: unknown flags 0x${flags.toString(16)} (this reader knows 0x${KNOWN_FLAGS.toString(16)})`);
  }
  const hasPopulation = (flags & FLAG_POPULATION) !== 0;
  const hasNames = (flags & FLAG_NAMES) !== 0;

  const coordEnd = HEADER_BYTES + 8 * count;
  const populationEnd = coordEnd + (hasPopulation ? 4 * count : 0);
  if (bytes.length < populationEnd) {
    const what = hasPopulation ? 'coordinates and populations' : 'coordinates';
    throw new Error(`points file: truncated: ${count} points need ${populationEnd} bytes for the header, ` +
      `${what}, the file has ${bytes.length}`);
  }
  if (!hasNames && bytes.length > populationEnd) {
    throw new Error(`points file: ${bytes.length - populationEnd} unexpected bytes after the last array ` +
      `(${count} points, flags 0x${flags.toString(16)})`);
  }

  const lngLat = widen(bytes, HEADER_BYTES, count);

  let population = null;
  if (hasPopulation) {
    population = new Uint32Array(count); // a copy, so the points do not keep the file alive
    if (littleEndianHost) {
      population.set(new Uint32Array(bytes.buffer, bytes.byteOffset + coordEnd, count));
    } else {
      for (let i = 0; i < count; i++) population[i] = view.getUint32(coordEnd + 4 * i, true);
    }
  }

  let names = null;
  if (hasNames) {
    let text;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(populationEnd));
    } catch {
      throw new Error('points file: the names are not valid UTF-8 (truncated or damaged file)');
    }
    names = text.split('\n');
    const last = names.pop(); // after the final '\n': empty in a whole file
    if (names.length < count) {
      throw new Error(`points file: truncated: ${names.length} complete names of ${count}`);
    }
    if (names.length > count || last !== '') {
      throw new Error(`points file: more names than points (${count} points)`);
    }
  }

  return { count, lngLat, population, names };
}

/**
 * Downloads and decodes a points file, reading the response as a stream so that the page can
 * show progress (and stays responsive: each chunk arrives in its own task).
 * @param {string | URL} url
 * @param {(progress: Progress) => void} [onProgress] called after each chunk received
 * @param {{ signal?: AbortSignal, onCoordinates?: (lngLat: Float64Array) => void }} [options]
 *   `signal` cancels the download; `onCoordinates` receives the coordinates while they arrive,
 *   in order, a chunk at a time ([lng, lat] pairs, 2 × count numbers in all), so a caller can
 *   start using them before the whole file is in (the whole file is still parsed and returned)
 * @returns {Promise<Points>}
 * @throws {Error} for an HTTP error status, and what `parsePoints` throws
 */
export async function fetchPoints(url, onProgress, options = {}) {
  const response = await fetch(url, { signal: options.signal });
  if (!response.ok) throw new Error(`fetchPoints: ${url}: HTTP ${response.status} ${response.statusText}`);
  const declared = Number(response.headers.get('content-length'));
  const encoded = (response.headers.get('content-encoding') ?? 'identity') !== 'identity';
  const total = declared > 0 && !encoded ? declared : null;
  if (!response.body) {
    const buffer = await response.arrayBuffer();
    onProgress?.({ loaded: buffer.byteLength, total: buffer.byteLength });
    return parsePoints(buffer);
  }

  /** @type {Uint8Array[]} */
  const chunks = [];
  let loaded = 0;
  const reader = response.body.getReader();
  const stream = options.onCoordinates ? coordinateStream(options.onCoordinates) : null;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    stream?.(value);
    chunks.push(value);
    loaded += value.length;
    onProgress?.({ loaded, total });
  }
  const bytes = new Uint8Array(loaded);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return parsePoints(bytes);
}

/**
 * `pairs` little-endian Float32 [lng, lat] pairs at `offset` of 4-byte-aligned bytes, widened
 * to a new Float64Array.
 * @param {Uint8Array} bytes
 * @param {number} offset
 * @param {number} pairs
 * @returns {Float64Array}
 */
function widen(bytes, offset, pairs) {
  const out = new Float64Array(2 * pairs);
  if (littleEndianHost) {
    out.set(new Float32Array(bytes.buffer, bytes.byteOffset + offset, 2 * pairs));
  } else {
    const view = new DataView(bytes.buffer, bytes.byteOffset);
    for (let i = 0; i < 2 * pairs; i++) out[i] = view.getFloat32(offset + 4 * i, true);
  }
  return out;
}

/**
 * Hands out a points file's coordinates as its bytes arrive: whole [lng, lat] pairs of each
 * chunk (bytes of a pair split between chunks wait for the next), until `count` pairs. A file
 * that is not a points file gives nothing here; the whole-file parse reports it.
 * @param {(lngLat: Float64Array) => void} onCoordinates
 * @returns {(chunk: Uint8Array) => void}
 */
function coordinateStream(onCoordinates) {
  let carry = new Uint8Array(0);
  let remaining = -1;   // pairs still to come; -1 before the header
  return (chunk) => {
    if (remaining === 0) return;
    let bytes = chunk;
    if (carry.length > 0) {
      bytes = new Uint8Array(carry.length + chunk.length);
      bytes.set(carry);
      bytes.set(chunk, carry.length);
    }
    let at = 0;
    if (remaining < 0) {
      if (bytes.length < HEADER_BYTES) {
        carry = bytes.slice();
        return;
      }
      if (String.fromCharCode(...bytes.subarray(0, MAGIC.length)) !== MAGIC) {
        remaining = 0;
        return;
      }
      remaining = new DataView(bytes.buffer, bytes.byteOffset, HEADER_BYTES).getUint32(8, true);
      at = HEADER_BYTES;
    }
    const pairs = Math.min(remaining, Math.floor((bytes.length - at) / 8));
    if (pairs > 0) {
      // Copied out aligned first: a chunk may start anywhere.
      const out = widen(bytes.slice(at, at + 8 * pairs), 0, pairs);
      remaining -= pairs;
      at += 8 * pairs;
      onCoordinates(out);
    }
    carry = remaining > 0 ? bytes.slice(at) : new Uint8Array(0);
  };
}
