#!/usr/bin/env node
// A small static file server for the demo (`./build.sh demo`). Browsers refuse to compile a
// module served with the wrong MIME type (WebAssembly.instantiateStreaming wants
// application/wasm) and ES modules do not load from file:// URLs, so the page needs a server.
// It is rooted at the repository, so the page can import ../src/index.js and fetch
// ../dist/cairn.wasm as they are, with nothing copied.
//
//   node web/demo/serve.js [--port N] [--host ADDRESS] [--root DIR]
//
// --port, else PORT, else 8080; 0 picks a free port. --host defaults to 127.0.0.1 (this
// machine only). Prints `Cairn demo: http://localhost:PORT/web/demo/` once listening.

import { createServer } from 'node:http';
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DEMO_PATH = '/web/demo/';

/** @type {Record<string, string>} */
export const MIME_TYPES = {
  '.wasm': 'application/wasm',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.geojson': 'application/geo+json; charset=utf-8',
  '.bin': 'application/octet-stream',
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.md': 'text/markdown; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
  '.ico': 'image/x-icon',
};

/**
 * Maps a request path to a file under `root`, or null when it must not be served: a path that
 * leaves the root (`..`, also percent-encoded), names a hidden file or folder (.git, .build),
 * or holds a NUL or a backslash.
 * @param {string} root absolute, real path of the served folder
 * @param {string} pathname the URL's path, still percent-encoded
 * @returns {string | null}
 */
export function resolveRequestPath(root, pathname) {
  let decoded;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  if (!decoded.startsWith('/') || decoded.includes('\0') || decoded.includes('\\')) return null;
  const segments = decoded.split('/');
  if (segments.some((s) => s === '..' || (s.startsWith('.') && s !== '.'))) return null;
  const file = resolve(root, '.' + decoded);
  return file === root || file.startsWith(root + sep) ? file : null;
}

/**
 * @param {import('node:http').ServerResponse} res
 * @param {number} status
 * @param {string} text
 * @param {Record<string, string>} [headers]
 */
function reply(res, status, text, headers = {}) {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/**
 * The real path of `file` when it lies inside the root, else null: a symbolic link (to a file,
 * a folder or a folder's index.html) must not lead outside it.
 * @param {string} root absolute, real path
 * @param {string} file
 * @returns {Promise<string | null>}  throws when the file does not exist
 */
async function insideRoot(root, file) {
  const real = await realpath(file);
  return real === root || real.startsWith(root + sep) ? real : null;
}

/**
 * @param {string} root absolute, real path
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 */
async function handle(root, req, res) {
  if (req.method !== 'GET' && req.method !== 'HEAD') return reply(res, 405, 'method not allowed\n', { allow: 'GET, HEAD' });
  // A request's path is a path even when it starts with `//`, which a URL would read as a host.
  const target = req.url ?? '/';
  const url = target.startsWith('/') ? new URL(`http://localhost${target}`) : new URL(target, 'http://localhost');
  if (url.pathname === '/') return reply(res, 302, `see ${DEMO_PATH}\n`, { location: DEMO_PATH });

  let file = resolveRequestPath(root, url.pathname);
  if (file === null) return reply(res, 403, 'forbidden\n');
  let info;
  try {
    file = await insideRoot(root, file);
    if (file === null) return reply(res, 403, 'forbidden\n');
    info = await stat(file);
    if (info.isDirectory()) {
      // A folder is its index.html; without the slash its relative links would miss.
      // One leading slash: a browser reads `//web/demo/` as the address of the host "web".
      if (!url.pathname.endsWith('/')) return reply(res, 301, 'moved\n', { location: `${url.pathname.replace(/^\/+/, '/')}/${url.search}` });
      file = await insideRoot(root, resolve(file, 'index.html'));
      if (file === null) return reply(res, 403, 'forbidden\n');
      info = await stat(file);
    }
  } catch {
    return reply(res, 404, 'not found\n');
  }
  if (!info.isFile()) return reply(res, 404, 'not found\n');

  res.writeHead(200, {
    'content-type': MIME_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
    'content-length': info.size,
    // A development server: every reload sees the files as they are now.
    'cache-control': 'no-cache',
  });
  if (req.method === 'HEAD') return res.end();
  const stream = createReadStream(file);
  stream.on('error', () => res.destroy());
  stream.pipe(res);
}

/**
 * Starts the server.
 * @param {{ root?: string, port?: number, host?: string }} [options] `root` defaults to the
 *   repository, `port` to 8080 (0 picks a free one), `host` to 127.0.0.1
 * @returns {Promise<{ server: import('node:http').Server, port: number, url: string, close: () => Promise<void> }>}
 *   `url` is the demo page's address
 */
export async function startServer(options = {}) {
  const { root = REPO_ROOT, port = 8080, host = '127.0.0.1' } = options;
  const realRoot = await realpath(resolve(root));
  const server = createServer((req, res) => {
    handle(realRoot, req, res).catch(() => {
      if (!res.headersSent) reply(res, 500, 'internal error\n');
      else res.destroy();
    });
  });
  await new Promise((done, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => {
      server.off('error', fail);
      done(undefined);
    });
  });
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  const close = () => new Promise((done) => {
    server.close(() => done(undefined));
    server.closeAllConnections();
  });
  return { server, port: actualPort, url: `http://localhost:${actualPort}${DEMO_PATH}`, close };
}

/** @param {string[]} argv */
function parseArgs(argv) {
  let portText = process.env.PORT || '8080';
  /** @type {{ port: number, host: string, root: string }} */
  const options = { port: 8080, host: '127.0.0.1', root: REPO_ROOT };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [name, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined) usage(`${name} needs a value`);
      return /** @type {string} */ (v);
    };
    if (name === '--port') portText = value();
    else if (name === '--host') options.host = value();
    else if (name === '--root') options.root = value();
    else if (name === '--help' || name === '-h') {
      console.log('usage: node web/demo/serve.js [--port N] [--host ADDRESS] [--root DIR]');
      process.exit(0);
    } else usage(`unknown argument ${arg}`);
  }
  options.port = /^\d{1,5}$/.test(portText) ? Number(portText) : NaN;
  if (!(options.port <= 65535)) usage(`the port must be an integer from 0 to 65535, not "${portText}"`);
  return options;
}

/**
 * @param {string} message
 * @returns {never}
 */
function usage(message) {
  console.error(`serve: ${message}\nusage: node web/demo/serve.js [--port N] [--host ADDRESS] [--root DIR]`);
  process.exit(2);
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  let running;
  try {
    running = await startServer(options);
  } catch (error) {
    const e = /** @type {NodeJS.ErrnoException} */ (error);
    const why = e.code === 'EADDRINUSE' ? `port ${options.port} is in use (try --port 0 for a free one)` : e.message;
    console.error(`serve: ${why}`);
    process.exit(1);
  }
  console.log(`Cairn demo: ${running.url}`);
  const stop = () => running.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) main();
