// Writes the demo's binary points format (read by points-file.js, described there and in
// data/README.md). Used by make-synthetic.js and by the tests; prepare-data.py writes the same
// layout from Python.

const MAGIC = 'CAIRNPT1';
const HEADER_BYTES = 16;
const FLAG_POPULATION = 1;
const FLAG_NAMES = 2;

/**
 * Encodes points as one `CAIRNPT1` file.
 * @param {{
 *   lngLat: ArrayLike<number>,
 *   population?: ArrayLike<number> | null,
 *   names?: readonly string[] | null,
 * }} points `lngLat` interleaved [lng0, lat0, lng1, lat1, …] (stored as Float32);
 *   `population` one unsigned 32-bit integer per point; `names` one string per point, without
 *   line breaks (they separate the names in the file).
 * @returns {Uint8Array}
 */
export function encodePoints({ lngLat, population = null, names = null }) {
  if (lngLat.length % 2 !== 0) throw new Error(`encodePoints: lngLat has an odd length (${lngLat.length})`);
  const count = lngLat.length / 2;
  if (count > 0xffffffff) throw new Error(`encodePoints: ${count} points do not fit a 32-bit count`);
  if (population && population.length !== count) {
    throw new Error(`encodePoints: ${population.length} populations for ${count} points`);
  }
  if (names && names.length !== count) throw new Error(`encodePoints: ${names.length} names for ${count} points`);

  let nameBytes = new Uint8Array(0);
  if (names) {
    for (let i = 0; i < count; i++) {
      if (/[\n\r]/.test(names[i])) throw new Error(`encodePoints: name ${i} contains a line break`);
    }
    // Every name ends with '\n', so the block holds exactly `count` of them.
    nameBytes = new TextEncoder().encode(count ? names.join('\n') + '\n' : '');
  }

  // The header is 16 bytes and each array holds 4-byte items, so every array starts 4-byte
  // aligned with no padding; the names come last and need none.
  const coordBytes = 8 * count;
  const populationBytes = population ? 4 * count : 0;
  const bytes = new Uint8Array(HEADER_BYTES + coordBytes + populationBytes + nameBytes.length);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < MAGIC.length; i++) bytes[i] = MAGIC.charCodeAt(i);
  view.setUint32(8, count, true);
  view.setUint32(12, (population ? FLAG_POPULATION : 0) | (names ? FLAG_NAMES : 0), true);

  let offset = HEADER_BYTES;
  for (let i = 0; i < 2 * count; i++, offset += 4) view.setFloat32(offset, lngLat[i], true);
  if (population) {
    for (let i = 0; i < count; i++, offset += 4) {
      const value = population[i];
      if (!Number.isInteger(value) || value < 0 || value > 0xffffffff) {
        throw new Error(`encodePoints: population ${i} (${value}) is not an unsigned 32-bit integer`);
      }
      view.setUint32(offset, value, true);
    }
  }
  bytes.set(nameBytes, offset);
  return bytes;
}
