// Engine memory a JS object owns: its handle and its one buffer. Kept apart from the object
// so that a finalization registry can free it without holding the object alive: wasm memory is
// invisible to the garbage collector, so without this every object dropped without destroy()
// would leak for the page's lifetime.

/**
 * @typedef {object} Resources
 * @property {Record<string, Function>} fn  the module's bound exports
 * @property {number} handle    engine handle, 0 when none
 * @property {number} ptr       buffer address (unsigned), 0 when none
 * @property {number} capacity  buffer size, in the owner's unit (records, doubles)
 */

/**
 * How to free the resources of one kind of engine object, now (`release`, from destroy()) or
 * when the object is collected (`registry`, null where FinalizationRegistry is missing).
 * @param {string} destroy  the export that frees a handle of this kind
 * @returns {{release: (res: Resources) => void, registry: FinalizationRegistry<Resources> | null}}
 */
export function engineMemory(destroy) {
  /** @param {Resources} res */
  const release = (res) => {
    if (res.handle) res.fn[destroy](res.handle);
    if (res.ptr) res.fn.cairn_free(res.ptr);
    res.handle = 0;
    res.ptr = 0;
    res.capacity = 0;
  };
  const registry = typeof FinalizationRegistry === 'function' ? new FinalizationRegistry(release) : null;
  return { release, registry };
}

/**
 * Where a `ClusterIndex` gives its engine handle to another layer of the library (a cluster
 * manager showing its clustering), which may not import the index's module: a symbol, so it
 * is no part of the index's own API.
 */
export const ENGINE_HANDLE = Symbol('cairn.engineHandle');
