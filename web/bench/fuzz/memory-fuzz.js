// Memory across create/destroy cycles: a seed draws one cycle (indexes built and queried, maps
// with cluster managers, items, markers and buildings drawn at a few zooms, buffers, then all
// of it destroyed) and the cycle runs again and again, the same each time. Once the first few
// have warmed the allocator up, the module's memory must not grow: every cycle frees what it
// made. Through the ABI (in an instance of its own) the allocator must also hand out the same
// address to a probe allocation after every cycle (or every other), which shows a leak smaller
// than a page.

import { execFile } from 'node:child_process';

import { init, ClusterIndex, MapEngine } from '../../src/index.js';
import { readLayout } from '../../src/engine/read-frame.js';
import { MARKER_FIELDS } from '../../src/engine/marker-records.js';
import { mulberry32 } from '../generate.js';
import { Fuzz, MAX_ITEMS, sizeFlag, timed } from './fuzz-random.js';
import { freshInstance } from './abi-fuzz.js';

/** Cycles that warm the allocator up before memory must stay put. */
export const WARM_UP = 3;

/**
 * Records a cycle's memory size and probe address; after the warm-up, the size must be as it
 * was after it, and the probe must land where it did one or two cycles before. The allocator
 * may settle into two layouts that take turns (its last split remainder moves between two
 * places from one cycle to the next) with nothing left allocated; a leak moves the probe to
 * where it has not been.
 * @param {Fuzz} fuzz
 * @param {number} cycle
 * @param {number[]} bytes  sizes so far
 * @param {number} size  this cycle's
 * @param {number[]} probes  addresses so far
 * @param {number} probe  this cycle's
 */
function settled(fuzz, cycle, bytes, size, probes, probe) {
  bytes.push(size);
  probes.push(probe);
  if (cycle < WARM_UP) return;
  const warmBytes = bytes[WARM_UP - 1];
  if (size > warmBytes) {
    throw fuzz.fail(`the module's memory grew from ${warmBytes} to ${size} bytes over ${cycle - WARM_UP + 1} cycles that free all they make`);
  }
  const [before, twoBefore] = [probes[cycle - 1], probes[cycle - 2]];
  if (probe !== before && probe !== twoBefore) {
    throw fuzz.fail(`a probe allocation after cycle ${cycle} is at ${probe}, after cycle ${cycle - 1} it was at ${before} and after cycle ${cycle - 2} at ${twoBefore}: the cycle leaves something allocated`);
  }
}

/**
 * One cycle's plan, drawn from the seed: what to make, how much of it, and where to look.
 * @param {Fuzz} f
 * @param {number} maxItems
 */
function plan(f, maxItems) {
  return {
    indexes: Array.from({ length: 1 + f.int(3) }, () => ({
      points: 1 + f.int(5 * maxItems), radius: f.pick([20, 40, 80]), maxZoom: 8 + f.int(10), aggregate: f.chance(0.4),
      zoom: f.int(12), seed: f.int(2 ** 31),
    })),
    maps: Array.from({ length: 1 + f.int(2) }, () => ({
      zoom: f.int(10), width: 400 + f.int(800), height: 300 + f.int(600), markers: f.int(maxItems / 4), buildings: f.int(3),
      seed: f.int(2 ** 31), removeManagers: f.chance(0.5),
      managers: Array.from({ length: 1 + f.int(3) }, () => ({
        algorithm: f.int(4), items: 1 + f.int(maxItems), spread: f.pick([0, 0.001, 1, 60]), animates: f.chance(0.5),
        aggregates: f.chance(0.3), zooms: Array.from({ length: 3 }, () => f.int(20)),
      })),
    })),
  };
}

/**
 * Positions for a plan's part: lng, lat pairs around one place.
 * @param {number} n
 * @param {number} seed
 * @param {number} spread  degrees
 */
function positions(n, seed, spread = 30) {
  const random = mulberry32(seed);
  const [lng, lat] = [random() * 360 - 180, random() * 120 - 60];
  const out = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) {
    out[2 * i] = lng + (random() - 0.5) * 2 * spread;
    out[2 * i + 1] = Math.max(-85, Math.min(85, lat + (random() - 0.5) * spread));
  }
  return out;
}

/**
 * Runs one seed's cycle `cycles` times through the ABI of a fresh instance.
 * @param {{seed: number, cycles?: number, maxItems?: number, leak?: number}} run  `leak`: bytes
 *   each cycle leaves allocated, to show that the check sees them
 * @returns {Promise<{bytes: number[], probes: number[]}>}  memory size and probe address after each cycle
 * @throws {import('./fuzz-random.js').FuzzFailure} when memory grows after the warm-up, or a call fails
 */
export async function abiMemoryCycles({ seed, cycles = 12, maxItems = MAX_ITEMS, leak = 0 }) {
  const x = await freshInstance();
  const fuzz = new Fuzz('abi-memory', seed, sizeFlag(maxItems));
  const p = plan(fuzz, maxItems);
  const layout = readLayout((which) => x.cairn_map_layout(which));
  /** A call that must succeed. */
  const ok = (name, ...args) => {
    fuzz.note(`${name}(${args.join(', ')})`);
    const result = timed(fuzz, name, () => x[name](...args));
    if (result < 0) throw fuzz.fail(`${name} failed with status ${result} (detail ${x.cairn_last_error_detail()})`);
    return result;
  };
  const alloc = (bytes) => {
    const ptr = x.cairn_alloc(Math.max(8, bytes)) >>> 0;
    if (ptr === 0) throw fuzz.fail(`cairn_alloc(${bytes}) failed`);
    return ptr;
  };
  const put = (ptr, values) => new Float64Array(x.memory.buffer, ptr, values.length).set(values);
  const bytes = [];
  const probes = [];
  for (let cycle = 0; cycle < cycles; cycle++) {
    fuzz.step = cycle;
    const out = alloc(65_536);
    for (const ix of p.indexes) {
      const h = ok('cairn_index_create', ix.radius, 512, 0, ix.maxZoom, 2);
      const lngLat = alloc(16 * ix.points);
      put(lngLat, positions(ix.points, ix.seed));
      ok('cairn_index_add', h, lngLat, ix.points);
      ok('cairn_free', lngLat);
      while (ok('cairn_index_build_step', h) > 0) { /* a zoom a call */ }
      if (ix.aggregate) {
        const values = alloc(8 * ix.points);
        put(values, Float64Array.from({ length: ix.points }, (_, i) => i % 13));
        ok('cairn_index_aggregate_add', h, 0, values, ix.points);
        ok('cairn_free', values);
      }
      const total = ok('cairn_index_clusters', h, -180, -90, 180, 90, ix.zoom, out, 2048);
      const records = new Float64Array(x.memory.buffer, out, 4 * Math.min(total, 2048));
      for (let k = 0; k < records.length; k += 4) {
        if (records[k + 1] < 2) continue;
        ok('cairn_index_children', h, records[k], out + 32_768, 1024);
        ok('cairn_index_leaves', h, records[k], 10, 0, out + 32_768, 1024);
        break;
      }
      ok('cairn_index_tile', h, 1, 0, 0, out, 2048);
      ok('cairn_index_destroy', h);
    }
    for (const m of p.maps) {
      const map = ok('cairn_map_create', 20, 10, m.zoom, 0, 0, m.width, m.height);
      const numbers = [];
      m.managers.forEach((g, i) => {
        const number = ok('cairn_map_add_cluster_manager', map, g.algorithm, 4, 20, 40);
        numbers.push(number);
        ok('cairn_map_set_cluster_animation', map, number, g.animates ? 1 : 0);
        const lngLat = alloc(16 * g.items);
        put(lngLat, positions(g.items, m.seed + i, g.spread));
        ok('cairn_map_add_cluster_coordinates', map, number, lngLat, g.items, -1);
        ok('cairn_free', lngLat);
        ok('cairn_map_cluster', map, number);
      });
      if (m.markers > 0) {
        const records = alloc(8 * layout.markerStride * m.markers);
        const ids = alloc(8 * m.markers);
        const where = positions(m.markers, m.seed);
        const v = new Float64Array(x.memory.buffer, records, layout.markerStride * m.markers).fill(0);
        for (let i = 0; i < m.markers; i++) {
          const r = i * layout.markerStride;
          // The position given, every other option the engine's default.
          v[r + MARKER_FIELDS.indexOf('latitude')] = where[2 * i + 1];
          v[r + MARKER_FIELDS.indexOf('longitude')] = where[2 * i];
          v[r + MARKER_FIELDS.indexOf('given')] = (1 << MARKER_FIELDS.indexOf('latitude')) | (1 << MARKER_FIELDS.indexOf('longitude'));
        }
        ok('cairn_map_add_markers', map, records, m.markers, ids);
        ok('cairn_free', records);
        ok('cairn_free', ids);
      }
      for (let b = 0; b < m.buildings; b++) {
        const corners = alloc(64);
        put(corners, [10, 20, 10.001, 20, 10.001, 20.001, 10, 20.001]);
        ok('cairn_map_add_indoor_building', map, corners, 4, 3, 0);
        ok('cairn_free', corners);
      }
      let time = 0;
      for (const z of m.managers.flatMap((g) => g.zooms)) {
        ok('cairn_map_move_camera', map, NaN, NaN, z, NaN, NaN);
        for (let k = 0; k < 3; k++) ok('cairn_map_frame', map, (time += 0.4), out, 65_536 / 8);
      }
      if (m.removeManagers) for (const number of numbers) ok('cairn_map_remove_cluster_manager', map, number);
      ok('cairn_map_destroy', map);
    }
    ok('cairn_free', out);
    if (leak > 0) alloc(leak);
    const probe = alloc(16);
    ok('cairn_free', probe);
    settled(fuzz, cycle, bytes, x.memory.buffer.byteLength, probes, probe);
  }
  return { bytes, probes };
}

/**
 * Runs one seed's cycle `cycles` times through the JS API, in the module `init()` loads. Run it
 * in a process whose module nothing else has used: what other runs left behind (grown tables,
 * free memory in other pieces) moves the probe allocation without a leak.
 * @param {{seed: number, cycles?: number, maxItems?: number}} run
 * @returns {Promise<{bytes: number[], probes: number[]}>}
 * @throws {import('./fuzz-random.js').FuzzFailure}
 */
export async function apiMemoryCycles({ seed, cycles = 12, maxItems = MAX_ITEMS }) {
  const mod = await init();
  const fuzz = new Fuzz('api-memory', seed, sizeFlag(maxItems));
  const p = plan(fuzz, maxItems);
  const algorithms = ['hierarchical', 'distance', 'grid', 'none'];
  const bytes = [];
  const probes = [];
  for (let cycle = 0; cycle < cycles; cycle++) {
    fuzz.step = cycle;
    for (const ix of p.indexes) {
      fuzz.note(`ClusterIndex of ${ix.points} points`);
      const index = new ClusterIndex({ radius: ix.radius, maxZoom: ix.maxZoom, ...(ix.aggregate ? { aggregates: { total: ['sum', 'v'] } } : {}) });
      const lngLat = positions(ix.points, ix.seed);
      if (ix.aggregate) {
        index.load(Array.from({ length: ix.points }, (_, i) => ({ type: 'Feature', properties: { v: i % 13 },
          geometry: { type: 'Point', coordinates: [lngLat[2 * i], lngLat[2 * i + 1]] } })));
      } else {
        index.loadCoordinates(lngLat);
      }
      const found = index.getClusters([-180, -90, 180, 90], ix.zoom);
      const cluster = found.find((c) => c.properties.cluster);
      if (cluster) {
        index.getChildren(/** @type {number} */ (cluster.id));
        index.getLeaves(/** @type {number} */ (cluster.id), 10);
      }
      index.getTile(1, 0, 0);
      index.destroy();
    }
    for (const m of p.maps) {
      fuzz.note(`MapEngine with ${m.managers.length} managers and ${m.markers} markers`);
      const map = new MapEngine({ camera: { latitude: 20, longitude: 10, zoom: m.zoom }, width: m.width, height: m.height });
      const managers = m.managers.map((g, i) => {
        const manager = map.addClusterManager({ algorithm: algorithms[g.algorithm], animatesClusters: g.animates,
          ...(g.aggregates ? { aggregates: { total: ['sum', 'v'] } } : {}) });
        if (g.aggregates) {
          const where = positions(g.items, m.seed + i, g.spread);
          manager.addItems(Array.from({ length: g.items }, (_, k) => ({ position: { latitude: where[2 * k + 1], longitude: where[2 * k] }, userData: { v: k % 5 } })));
        } else {
          manager.addCoordinates(positions(g.items, m.seed + i, g.spread));
        }
        manager.cluster();
        return manager;
      });
      if (m.markers > 0) {
        const where = positions(m.markers, m.seed);
        map.addMarkers(Array.from({ length: m.markers }, (_, i) => ({ position: { latitude: where[2 * i + 1], longitude: where[2 * i] }, title: `m${i}` })));
      }
      for (let b = 0; b < m.buildings; b++) {
        map.addIndoorBuilding({ footprint: [{ latitude: 20, longitude: 10 }, { latitude: 20, longitude: 10.001 }, { latitude: 20.001, longitude: 10.001 }], levels: 3 });
      }
      let time = 0;
      for (const z of m.managers.flatMap((g) => g.zooms)) {
        map.moveCamera({ zoom: z });
        for (let k = 0; k < 3; k++) timed(fuzz, 'frame', () => map.frame((time += 0.4)));
      }
      if (m.removeManagers) for (const manager of managers) manager.destroy();
      map.destroy();
    }
    const probe = mod.fn.cairn_alloc(16) >>> 0;
    mod.fn.cairn_free(probe);
    settled(fuzz, cycle, bytes, mod.memory.buffer.byteLength, probes, probe);
  }
  return { bytes, probes };
}

/**
 * `apiMemoryCycles` in a fresh Node process, whose module nothing else has used.
 * @param {{seed: number, cycles?: number, maxItems?: number}} run
 * @returns {Promise<{bytes: number[], probes: number[]}>}
 * @throws {import('./fuzz-random.js').FuzzFailure | Error} its failure (as an Error of that name
 *   and message), or an Error when the process gave no answer
 */
export function apiMemoryCyclesApart(run) {
  const script = `import(${JSON.stringify(import.meta.url)})
    .then((m) => m.apiMemoryCycles(${JSON.stringify(run)}))
    .then((r) => process.stdout.write(JSON.stringify({ ok: r })), (e) => process.stdout.write(JSON.stringify({ failure: e.message ?? String(e) })));`;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--input-type=module', '-e', script], { maxBuffer: 1 << 24 }, (error, stdout, stderr) => {
      let answer;
      try {
        answer = JSON.parse(stdout);
      } catch {
        reject(new Error(`the memory cycles ended without an answer: ${error?.message ?? ''} ${stderr}`));
        return;
      }
      if (answer.failure) reject(Object.assign(new Error(answer.failure), { name: 'FuzzFailure' }));
      else resolve(answer.ok);
    });
  });
}
