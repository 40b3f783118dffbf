// The npm package, as a user gets it: `npm pack` (whose prepack script builds the module when
// it is not current, and the TypeScript declarations), then `npm install` of the tarball into
// an empty folder with no registry, then the library imported by its name, the `cairn` command
// of node_modules/.bin, and a TypeScript consumer checked with `tsc --strict`. Skipped when npm
// or tsc is missing (./build.sh test installs both).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const web = fileURLToPath(new URL('..', import.meta.url));
const { version } = JSON.parse(readFileSync(join(web, 'package.json'), 'utf8'));
const found = (command) => !spawnSync(command, ['--version'], { encoding: 'utf8' }).error;
const missing = !found('npm') ? 'npm not found (install npm to pack the package)'
  : !found('tsc') ? 'tsc not found (install node-typescript to build the declarations)' : false;

// Node's own folder first, so that the bin's `#!/usr/bin/env node` and npm find this Node.
const env = { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH}` };

/**
 * Runs a command to its end; throws with its output unless it exits with 0 (or `status`).
 * @param {string} command
 * @param {string[]} args
 * @param {string} cwd
 * @param {{status?: number}} [expect]
 */
function run(command, args, cwd, { status = 0 } = {}) {
  const result = spawnSync(command, args, { cwd, env, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (result.error) throw result.error;
  assert.equal(result.status, status, `${command} ${args.join(' ')} in ${cwd} exited with ${result.status}:\n` +
    `${result.stdout}\n${result.stderr}`);
  return result;
}

// Three points around Paris and one in Tokyo: one cluster and one point at zoom 0.
const PLACES = [
  ['Louvre', 2.3376, 48.8606, 10],
  ['Notre-Dame', 2.3499, 48.8530, 20],
  ['Eiffel Tower', 2.2945, 48.8584, 30],
  ['Tokyo Tower', 139.7454, 35.6586, 40],
];
const WORLD = [-180, -85, 180, 85];

const CONSUMER_JS = `
import { init, ClusterIndex, CairnError } from 'cairn';

await init();
const places = ${JSON.stringify(PLACES)};
const index = new ClusterIndex({ aggregates: { visitors: ['sum', 'visitors'] } }).load(places.map(([name, lng, lat, visitors]) =>
  ({ type: 'Feature', properties: { name, visitors }, geometry: { type: 'Point', coordinates: [lng, lat] } })));
const describe = (f) => f.properties.cluster
  ? { cluster: f.properties.point_count, visitors: f.properties.visitors, leaves: index.getLeaves(f.properties.cluster_id, Infinity).map((l) => l.properties.name).sort() }
  : { point: f.properties.name };
let refused = null;
try { index.getChildren(123456789); } catch (error) { refused = error instanceof CairnError ? error.code : String(error); }
// The same clustering on a worker thread, started from the installed package's own file.
const { WorkerClusterIndex } = await import('cairn/worker');
const remote = new WorkerClusterIndex({ aggregates: { visitors: ['sum', 'visitors'] } });
await remote.loadCoordinates(new Float64Array(places.flatMap(([, lng, lat]) => [lng, lat])), { values: { visitors: places.map((p) => p[3]) } });
const workerZoom0 = (await remote.getClusters(${JSON.stringify(WORLD)}, 0)).map((f) => f.properties.cluster ? { cluster: f.properties.point_count, visitors: f.properties.visitors } : { point: f.properties.index });
await remote.destroy();
console.log(JSON.stringify({
  worker: import.meta.resolve('cairn/worker'),
  workerZoom0,
  resolved: import.meta.resolve('cairn'),
  module: import.meta.resolve('cairn/cairn.wasm'),
  zoom0: index.getClusters(${JSON.stringify(WORLD)}, 0).map(describe),
  zoom16: index.getClusters(${JSON.stringify(WORLD)}, 16).map(describe),
  refused,
}));
`;

const CONSUMER_TS = `
import { init, ClusterIndex, MapEngine, CairnError, WorkerClusterIndex } from 'cairn';
import type { CameraPosition, ClusterFeature, ClusterOptions, Frame, PointFeature, Progress } from 'cairn';

function isCluster(feature: ClusterFeature | PointFeature): feature is ClusterFeature {
  return feature.properties?.cluster === true;
}

export async function run(points: PointFeature[]): Promise<string[]> {
  await init();
  const options: ClusterOptions = { radius: 60, maxZoom: 14, aggregates: { visitors: ['sum', 'visitors'] } };
  const index = new ClusterIndex(options).load(points);
  const lines: string[] = [];
  for (const feature of index.getClusters([-180, -85, 180, 85], 0)) {
    if (isCluster(feature)) {
      const count: number = feature.properties.point_count;
      const at: [number, number] = feature.geometry.coordinates;
      const zoom: number = index.getClusterExpansionZoom(feature.properties.cluster_id);
      const leaves: PointFeature[] = index.getLeaves(feature.id, Infinity);
      lines.push(\`\${count} at \${at.join(',')} splits at \${zoom}: \${leaves.length}\`);
    }
  }
  const phases: Array<Progress['phase']> = [];
  new ClusterIndex().loadCoordinates(new Float64Array([2.35, 48.85, 2.36, 48.86]), { onProgress: (p: Progress) => phases.push(p.phase) });
  const tile = index.getTile(0, 0, 0);
  if (tile) lines.push(\`\${tile.features.length} features in tile 0/0/0\`);

  const engine = new MapEngine({ camera: { latitude: 48.85, longitude: 2.35, zoom: 10 }, width: 800, height: 600 });
  engine.animateCamera({ zoom: 12 }, { duration: 1, easing: 'easeOut' });
  const frame: Frame = engine.frame(0);
  const camera: CameraPosition = engine.camera;
  lines.push(\`camera at \${camera.zoom}, \${frame.events.length} events\`);
  try {
    index.getChildren(-1);
  } catch (error) {
    if (error instanceof CairnError) {
      const code: string = error.code;
      const status: number = error.status;
      lines.push(\`\${code} \${status}\`);
    }
  }
  engine.destroy();
  index.destroy();

  const remote = new WorkerClusterIndex({ radius: 60 });
  await remote.load(points);
  const remoteFeatures: Array<ClusterFeature | PointFeature> = await remote.getClusters([-180, -85, 180, 85], 0);
  const remoteZoom: number = await remote.getClusterExpansionZoom(-1).catch(() => -1);
  lines.push(\`\${remoteFeatures.length} from the worker, \${remoteZoom}\`);
  await remote.destroy();
  // @ts-expect-error the worker's queries are promises
  const notYet: Array<ClusterFeature | PointFeature> = remote.getClusters([-180, -85, 180, 85], 0);

  // @ts-expect-error the radius is a number
  new ClusterIndex({ radius: 'wide' });
  // @ts-expect-error a bounding box has four numbers
  index.getClusters([0, 0, 1], 0);
  // @ts-expect-error a map needs its first camera
  new MapEngine({ width: 800, height: 600 });
  // @ts-expect-error a tile's coordinates are numbers
  const text = index.getTile('0', 0, 0);
  // @ts-expect-error a CairnError's code is a string
  const wrong: number = new CairnError('x', { code: 'INVALID_STATE', status: -1 }).code;
  return [...lines, ...phases, String(text), String(wrong), String(notYet)];
}
`;

// One line TypeScript must refuse, checked on its own: a check that reports no error at all
// would pass the consumer too.
const BAD_TS = `
import { ClusterIndex } from 'cairn';
new ClusterIndex({ radius: 'wide' });
`;

describe('the npm package', { skip: missing }, () => {
  let temp = '';
  let consumer = '';
  /** @type {string[]} */
  let packed = [];

  before(() => {
    temp = realpathSync(mkdtempSync(join(tmpdir(), 'cairn-package-')));
    const cache = join(temp, 'npm-cache');
    const npmFlags = ['--cache', cache, '--no-update-notifier', '--no-audit', '--no-fund'];
    run('npm', ['pack', '--pack-destination', temp, ...npmFlags], web);
    const tarball = join(temp, `cairn-${version}.tgz`);
    assert.ok(existsSync(tarball), `npm pack wrote no ${tarball}: ${readdirSync(temp).join(', ')}`);
    packed = run('tar', ['-tzf', tarball], temp).stdout.trim().split('\n').map((f) => f.replace(/^package\//, ''));

    consumer = join(temp, 'consumer');
    mkdirSync(consumer);
    writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    run('npm', ['install', '--offline', ...npmFlags, tarball], consumer);
  });

  after(() => { if (temp) rmSync(temp, { recursive: true, force: true }); });

  test('ships the sources, the CLI, the module and the declarations, and nothing else', () => {
    for (const file of ['package.json', 'README.md', 'src/index.js', 'src/core/wasm.js', 'src/cli/main.js', 'bin/cairn.js',
      'dist/cairn.wasm', 'dist/types/index.d.ts', 'dist/types/index/cluster-index.d.ts', 'dist/types/engine/map-engine.d.ts']) {
      assert.ok(packed.includes(file), `${file} is not in the package`);
    }
    const strays = packed.filter((f) => !/^(src\/.*\.js|bin\/cairn\.js|dist\/cairn\.wasm|dist\/types\/.*\.d\.ts|package\.json|README\.md)$/.test(f));
    assert.deepEqual(strays, []);
    // The module next to the sources as init() looks for it: ../../dist/cairn.wasm from src/core.
    const installed = join(consumer, 'node_modules', 'cairn');
    assert.deepEqual(readFileSync(join(installed, 'dist', 'cairn.wasm')), readFileSync(join(web, 'dist', 'cairn.wasm')));
  });

  test('imports by name, loads its module and clusters', () => {
    writeFileSync(join(consumer, 'consumer.js'), CONSUMER_JS);
    const out = JSON.parse(run(process.execPath, ['consumer.js'], consumer).stdout);
    assert.equal(fileURLToPath(out.resolved), join(consumer, 'node_modules', 'cairn', 'src', 'index.js'));
    assert.equal(fileURLToPath(out.module), join(consumer, 'node_modules', 'cairn', 'dist', 'cairn.wasm'));
    const clustersFirst = (a, b) => ('point' in a ? 1 : 0) - ('point' in b ? 1 : 0);
    assert.deepEqual(out.zoom0.sort(clustersFirst), [
      { cluster: 3, visitors: 60, leaves: ['Eiffel Tower', 'Louvre', 'Notre-Dame'] },
      { point: 'Tokyo Tower' },
    ]);
    assert.deepEqual(out.zoom16.map((f) => f.point).sort(), PLACES.map(([name]) => name).sort());
    assert.equal(out.refused, 'UNKNOWN_CLUSTER');
    assert.equal(fileURLToPath(out.worker), join(consumer, 'node_modules', 'cairn', 'src', 'index', 'worker-cluster-index.js'));
    assert.deepEqual(out.workerZoom0.sort(clustersFirst), [{ cluster: 3, visitors: 60 }, { point: 3 }]);
  });

  test('runs the installed cairn command', () => {
    const bin = join(consumer, 'node_modules', '.bin', 'cairn');
    assert.equal(run(bin, ['--version'], consumer).stdout, `${version}\n`);
    writeFileSync(join(consumer, 'places.csv'), ['name,lng,lat', ...PLACES.map(([name, lng, lat]) => `${name},${lng},${lat}`)].join('\n') + '\n');
    const { stdout } = run(bin, ['cluster', 'places.csv', '--zoom', '0', '--properties', 'name', '--quiet'], consumer);
    const collection = JSON.parse(stdout);
    assert.equal(collection.type, 'FeatureCollection');
    const clusters = collection.features.filter((f) => f.properties.cluster);
    const points = collection.features.filter((f) => !f.properties.cluster);
    assert.deepEqual(clusters.map((f) => f.properties.point_count), [3]);
    assert.deepEqual(points.map((f) => f.properties.name), ['Tokyo Tower']);
    const refused = run(bin, ['cluster', 'missing.csv', '--zoom', '0'], consumer, { status: 2 });
    assert.equal(refused.stdout, '');
    assert.match(refused.stderr, /^cairn: cannot read missing\.csv: no such file/);
  });

  test('type-checks a TypeScript consumer with tsc --strict, and refuses a wrong option', () => {
    writeFileSync(join(consumer, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, target: 'es2022', module: 'node16', moduleResolution: 'node16', lib: ['es2022', 'dom'], types: [] },
      files: ['consumer.ts'],
    }));
    writeFileSync(join(consumer, 'consumer.ts'), CONSUMER_TS);
    run('tsc', ['-p', 'tsconfig.json'], consumer);

    writeFileSync(join(consumer, 'tsconfig.bad.json'), JSON.stringify({ extends: './tsconfig.json', files: ['bad.ts'] }));
    writeFileSync(join(consumer, 'bad.ts'), BAD_TS);
    const { stdout } = run('tsc', ['-p', 'tsconfig.bad.json'], consumer, { status: 2 });
    const errors = stdout.split('\n').filter((line) => /error TS\d+/.test(line));
    assert.equal(errors.length, 1, stdout);
    assert.match(errors[0], /^bad\.ts\(3,\d+\): error TS2322: Type 'string' is not assignable to type 'number/);
  });
});
