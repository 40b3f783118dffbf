// The demo's offline basemap for the host maps: Cairn's own offline tiles (sea, land outlines
// when the demo's data has them, a graticule), painted on request for Leaflet or MapLibre.

import { OfflineTileSource } from '../src/render/basemap/tile-source.js';

const landRequest = fetch(new URL('data/land.json', import.meta.url)).then((r) => (r.ok ? r.json() : undefined)).catch(() => undefined);

/** The tile painter, once the land outlines have arrived (or failed to). */
export async function offlineTiles() {
  return new OfflineTileSource({ land: await landRequest });
}

/**
 * A Leaflet grid layer of the offline tiles.
 * @param {any} L
 */
export async function leafletBasemap(L) {
  const tiles = await offlineTiles();
  const Layer = L.GridLayer.extend({
    createTile(/** @type {{x: number, y: number, z: number}} */ c) {
      return tiles.paint(c.z, c.x, c.y);
    },
  });
  return new Layer({ attribution: tiles.attribution, maxZoom: 20 });
}

/**
 * A MapLibre style with the offline tiles as a raster source (painted on request through a
 * `cairn-offline://` protocol), no network needed.
 * @param {any} maplibregl
 */
export async function maplibreStyle(maplibregl) {
  const tiles = await offlineTiles();
  maplibregl.addProtocol('cairn-offline', async (/** @type {{url: string}} */ params) => {
    const [z, x, y] = params.url.replace('cairn-offline://', '').split('/').map(Number);
    const canvas = tiles.paint(z, x, y);
    const blob = await new Promise((done) => canvas.toBlob(done, 'image/png'));
    return { data: await /** @type {Blob} */ (blob).arrayBuffer() };
  });
  return {
    version: 8,
    sources: { offline: { type: 'raster', tiles: ['cairn-offline://{z}/{x}/{y}'], tileSize: 256, maxzoom: 20, attribution: tiles.attribution } },
    layers: [{ id: 'offline', type: 'raster', source: 'offline' }],
  };
}
