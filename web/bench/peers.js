// The peers' folder: supercluster's and kdbush's sources in DIR/node_modules/{supercluster,kdbush}
// (--peers DIR, or the CAIRN_PEERS environment variable), fetched for a benchmark, never kept
// in the project.

import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The peer's folder, if it holds supercluster and kdbush; and their versions. */
export function findPeers(dir) {
  if (!dir) return { dir: null, reason: 'no peers folder given (CAIRN_PEERS or --peers)' };
  const root = resolve(dir);
  const version = (name) => {
    const file = join(root, 'node_modules', name, 'package.json');
    return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')).version : null;
  };
  const supercluster = existsSync(join(root, 'node_modules', 'supercluster', 'index.js')) ? version('supercluster') : null;
  const kdbush = version('kdbush');
  if (!supercluster || !kdbush) return { dir: null, reason: `${root} holds no node_modules/supercluster and node_modules/kdbush` };
  return { dir: root, supercluster, kdbush };
}
