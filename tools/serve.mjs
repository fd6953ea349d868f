#!/usr/bin/env node
// Dependency-free static file server for the sessiontree explorer and the e2e
// tests (Node 20+: node:http, node:fs, node:zlib only).
//
//   node tools/serve.mjs [--root DIR] [--port N]     (--port 0 picks a free port)
//
// Prints exactly one line once listening:
//   sessiontree explorer: http://127.0.0.1:PORT/static/
//
// As a module: `const {url, port, close} = await startServer({root, port: 0})`.
//
// - binds 127.0.0.1 only; GET and HEAD only;
// - correct MIME types (.wasm is application/wasm, needed by
//   WebAssembly.instantiateStreaming);
// - paths outside the root and dot files/folders (.git, .cache) are refused
//   with 403; a directory serves its
//   index.html (a directory URL without a trailing slash is redirected);
// - security headers on every response (see securityHeaders): the app's
//   Content-Security-Policy as a header for pages under static/ and for
//   scripts (which a worker runs under), a baseline one (frame-ancestors,
//   base-uri, object-src) for other pages such as test fixtures, which set
//   their script policy in a <meta> tag; X-Content-Type-Options: nosniff;
//   Referrer-Policy: no-referrer;
// - Cache-Control: no-cache plus an ETag (size-mtime), 304 on If-None-Match;
// - br/gzip for compressible files: a precompressed sibling (file.br, file.gz)
//   newer than the file is served as is, else the file is compressed once and
//   the bytes are kept in memory keyed by path + mtime + size.

import http from 'node:http';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import zlib from 'node:zlib';
import { promisify } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

const DEFAULT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const HOST = '127.0.0.1';

const MIME = {
  '.wasm': 'application/wasm',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/plain; charset=utf-8',
  '.ts': 'text/plain; charset=utf-8', // covers .d.ts
};

/**
 * The Content-Security-Policy of the app's pages (static/), sent as a
 * header: what their <meta> tags say (scripts and styles from the origin,
 * WebAssembly compiled from it, images from it and data: URLs), plus what
 * only a header can say or the meta leaves unset: workers (the store's
 * module worker, the offline service worker) from the origin, no plugins,
 * no <base>, forms only to the origin, and framing only by the origin.
 * Keep it in step with the <meta> tags of static/*.html and docs/EMBED.md.
 */
export const APP_CSP = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'self'",
].join('; ');

/**
 * The policy of the chat demo (static/chat-demo.html): APP_CSP, except that
 * it may connect to the model endpoint its user sets at run time — any
 * HTTPS host, and plain HTTP only on this machine (a local Ollama,
 * llama.cpp server or LM Studio). Keep it in step with the demo's <meta>.
 */
export const DEMO_CSP = APP_CSP.replace("connect-src 'self'", "connect-src 'self' https: http://localhost:* http://127.0.0.1:*");

/** The page served with DEMO_CSP. */
const DEMO_PAGE = '/static/chat-demo.html';

/** The policy of every other page: only what a <meta> tag cannot set. */
export const BASELINE_CSP = ["object-src 'none'", "base-uri 'none'", "frame-ancestors 'self'"].join('; ');

/**
 * The security headers of a response for a file at urlPath (the decoded
 * path, "/static/index.html") served as ext: nosniff and no referrer on
 * every response; DEMO_CSP for the chat demo; APP_CSP for other HTML under
 * /static/ and for JavaScript anywhere (a worker's policy is the one its
 * script is served with); BASELINE_CSP for any other response.
 * @param {string} urlPath
 * @param {string} ext lower-case extension with the dot ('.html'), '' for none
 * @returns {Record<string, string>}
 */
export function securityHeaders(urlPath, ext) {
  const html = ext === '.html' || ext === '.htm';
  const script = ext === '.js' || ext === '.mjs';
  const app = script || (html && urlPath.startsWith('/static/'));
  return {
    'Content-Security-Policy': urlPath === DEMO_PAGE ? DEMO_CSP : app ? APP_CSP : BASELINE_CSP,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
  };
}

const COMPRESSIBLE = new Set(['.wasm', '.js', '.mjs', '.html', '.htm', '.css', '.json', '.map', '.svg', '.txt']);

// Bytes past which a file is compressed at a faster level (brotli 5, gzip 6):
// brotli 9 of the 6.5 MB wasm took 6 s on a loaded machine before the first
// page could start; brotli 5 takes ~0.3 s for 3 % more bytes. Smaller files
// get brotli 6 (gzip 9): brotli 9 of the 135 files under static/ and js/
// took 4.6 s for 0.5 % fewer bytes than brotli 6's 0.23 s.
const BIG_FILE = 1 << 20;

// Limit the in-memory cache of compressed bodies (bytes of compressed data).
const CACHE_LIMIT = 64 * 1024 * 1024;

function mimeFor(file) {
  return MIME[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

// Parses Accept-Encoding and returns 'br', 'gzip' or null (q=0 means refused).
function pickEncoding(header) {
  if (!header) return null;
  const accepted = new Map();
  for (const part of String(header).split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    let q = 1;
    for (const p of params) {
      const m = /^\s*q=([0-9.]+)\s*$/.exec(p);
      if (m) q = Number(m[1]);
    }
    accepted.set(name, q);
  }
  const ok = (enc) => (accepted.get(enc) ?? accepted.get('*') ?? 0) > 0;
  if (ok('br')) return 'br';
  if (ok('gzip')) return 'gzip';
  return null;
}

function etagFor(st, enc) {
  // Weak-free, quoted; one per representation so caches never mix encodings.
  const base = `${st.size.toString(16)}-${Math.floor(st.mtimeMs).toString(16)}`;
  return `"${base}${enc ? '-' + enc : ''}"`;
}

function etagMatches(ifNoneMatch, etag) {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

async function statOrNull(p) {
  try {
    return await fsp.stat(p);
  } catch {
    return null;
  }
}

function isInside(root, p) {
  const rel = path.relative(root, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * Compress (brotli, what browsers ask for) every compressible file under
 * static/ and js/ of rootDir ahead of its first request, one at a time:
 * on a fresh `make serve` the first visit waited ~5 s on 2 cores while
 * some fifty modules and the wasm were compressed at once. Symlinks and
 * dot folders are passed over, as requests for them are refused.
 * @param {string} rootDir @param {(file: string, st: fs.Stats) => Promise<Buffer>} compress
 * @param {() => boolean} stopped true once the server closed
 * @returns {Promise<number>} how many files were compressed (or found compressed)
 */
async function warmFiles(rootDir, compress, stopped) {
  let n = 0;
  for (const dir of ['static', 'js']) {
    const entries = await fsp.readdir(path.join(rootDir, dir), { recursive: true, withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      const file = path.join(e.parentPath ?? e.path, e.name);
      if (stopped()) return n;
      if (!e.isFile() || !COMPRESSIBLE.has(path.extname(e.name).toLowerCase()) || path.relative(rootDir, file).split(path.sep).some((p) => p.startsWith('.'))) continue;
      const st = await statOrNull(file);
      if (st && (await compress(file, st).then(() => true, () => false))) n++;
    }
  }
  return n;
}

/**
 * Starts the server.
 * @param {{root?: string, port?: number, warm?: boolean}} [opts] warm: compress the files under
 *   static/ and js/ at once, one at a time, before they are asked for (the CLI does)
 * @returns {Promise<{server: http.Server, url: string, baseURL: string, port: number, warmed: Promise<number>, close: () => Promise<void>}>}
 *   url is the explorer page (…/static/), baseURL the server root (…/).
 */
export async function startServer({ root = DEFAULT_ROOT, port = 8080, warm = false } = {}) {
  const rootDir = await fsp.realpath(path.resolve(root));
  const cache = new Map(); // key -> Buffer (insertion order = age)
  const pending = new Map(); // key -> Promise<Buffer>
  let cacheBytes = 0;

  function cachePut(key, buf) {
    cache.set(key, buf);
    cacheBytes += buf.length;
    while (cacheBytes > CACHE_LIMIT && cache.size > 1) {
      const [oldKey, oldBuf] = cache.entries().next().value;
      cache.delete(oldKey);
      cacheBytes -= oldBuf.length;
    }
  }

  async function compressed(file, st, enc) {
    // 1. A precompressed sibling newer than the file.
    const sibling = file + (enc === 'br' ? '.br' : '.gz');
    const sst = await statOrNull(sibling);
    if (sst && sst.isFile() && sst.mtimeMs >= st.mtimeMs) return fsp.readFile(sibling);
    // 2. On the fly, cached by path + mtime + size.
    const key = `${enc}\0${file}\0${st.mtimeMs}\0${st.size}`;
    const hit = cache.get(key);
    if (hit) return hit;
    let job = pending.get(key); // concurrent requests share one compression
    if (!job) {
      job = (async () => {
        const raw = await fsp.readFile(file);
        const buf = enc === 'br'
          ? await brotli(raw, {
              params: {
                [zlib.constants.BROTLI_PARAM_QUALITY]: raw.length > BIG_FILE ? 5 : 6,
                [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
              },
            })
          : await gzip(raw, { level: raw.length > BIG_FILE ? 6 : 9 });
        cachePut(key, buf);
        return buf;
      })().finally(() => pending.delete(key));
      pending.set(key, job);
    }
    return job;
  }

  async function handle(req, res) {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8', ...securityHeaders('', '') });
      res.end('method not allowed\n');
      return;
    }

    // Refuse anything that climbs out of the root or names a dot file/folder
    // (.git, .cache, ...): check the raw path (the URL parser would quietly
    // resolve "/../"), the decoded one, and the real path after symlinks.
    let pathname;
    let rawPath;
    try {
      rawPath = decodeURIComponent(String(req.url).split('?')[0]);
      pathname = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
    } catch {
      return sendText(res, 400, 'bad request');
    }
    if (pathname.includes('\0') || rawPath.includes('\0')) return sendText(res, 400, 'bad request');
    const segments = [...rawPath.split(/[\\/]+/), ...pathname.split(/[\\/]+/)];
    if (segments.some((seg) => seg.startsWith('.'))) return sendText(res, 403, 'forbidden');
    let file = path.join(rootDir, pathname);
    if (!isInside(rootDir, file)) return sendText(res, 403, 'forbidden');

    let st = await statOrNull(file);
    if (!st) return sendText(res, 404, 'not found');
    let real;
    try {
      real = await fsp.realpath(file);
    } catch {
      return sendText(res, 404, 'not found');
    }
    if (!isInside(rootDir, real)) return sendText(res, 403, 'forbidden');

    if (st.isDirectory()) {
      if (!pathname.endsWith('/')) {
        const u = new URL(req.url, 'http://localhost');
        res.writeHead(301, { Location: u.pathname + '/' + u.search, ...securityHeaders('', '') });
        res.end();
        return;
      }
      file = path.join(real, 'index.html');
      st = await statOrNull(file);
      if (!st || !st.isFile()) return sendText(res, 404, 'not found');
    } else if (!st.isFile()) {
      return sendText(res, 404, 'not found');
    } else {
      file = real;
    }

    const ext = path.extname(file).toLowerCase();
    const enc = COMPRESSIBLE.has(ext) ? pickEncoding(req.headers['accept-encoding']) : null;
    const etag = etagFor(st, enc);
    const headers = {
      'Content-Type': mimeFor(file),
      'Cache-Control': 'no-cache',
      ETag: etag,
      'Last-Modified': st.mtime.toUTCString(),
      ...securityHeaders(pathname.endsWith('/') ? pathname + 'index.html' : pathname, ext),
    };
    if (COMPRESSIBLE.has(ext)) headers.Vary = 'Accept-Encoding';

    if (etagMatches(req.headers['if-none-match'], etag)) {
      res.writeHead(304, headers);
      res.end();
      return;
    }

    if (enc) {
      const body = await compressed(file, st, enc);
      headers['Content-Encoding'] = enc;
      headers['Content-Length'] = body.length;
      res.writeHead(200, headers);
      res.end(req.method === 'HEAD' ? undefined : body);
      return;
    }

    headers['Content-Length'] = st.size;
    res.writeHead(200, headers);
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    const stream = fs.createReadStream(file);
    stream.on('error', () => res.destroy());
    stream.pipe(res);
  }

  function sendText(res, status, msg) {
    res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-cache', ...securityHeaders('', '') });
    res.end(msg + '\n');
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err) => {
      if (!res.headersSent) {
        sendText(res, 500, 'internal error');
      } else {
        res.destroy(err);
      }
      console.error(`serve: ${req.method} ${req.url}: ${err?.stack ?? err}`);
    });
  });
  server.keepAliveTimeout = 1000;

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });

  const actualPort = server.address().port;
  const baseURL = `http://${HOST}:${actualPort}/`;
  return {
    server,
    warmed: warm ? warmFiles(rootDir, (file, st) => compressed(file, st, 'br'), () => !server.listening) : Promise.resolve(0),
    port: actualPort,
    baseURL,
    url: `${baseURL}static/`,
    close: () =>
      new Promise((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections?.();
      }),
  };
}

function parseArgs(argv) {
  const opts = { root: DEFAULT_ROOT, port: 8080 };
  for (let i = 0; i < argv.length; i++) {
    let [flag, value] = argv[i].split(/=(.*)/s, 2);
    const next = () => {
      if (value !== undefined) return value;
      if (i + 1 >= argv.length) throw new Error(`${flag} needs a value`);
      return argv[++i];
    };
    switch (flag) {
      case '--root':
        opts.root = next();
        break;
      case '--port': {
        const v = next();
        const p = Number(v);
        if (!Number.isInteger(p) || p < 0 || p > 65535) throw new Error(`bad --port ${v}`);
        opts.port = p;
        break;
      }
      case '-h':
      case '--help':
        console.log('usage: node tools/serve.mjs [--root DIR] [--port N]   (--port 0 picks a free port)');
        process.exit(0);
        break;
      default:
        throw new Error(`unknown argument ${argv[i]}`);
    }
  }
  return opts;
}

function isMainModule() {
  if (!process.argv[1]) return false;
  try {
    return import.meta.url === pathToFileURL(fs.realpathSync(process.argv[1])).href;
  } catch {
    return false;
  }
}

const isMain = isMainModule();
if (isMain) {
  let opts;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (err) {
    console.error(`serve: ${err.message}`);
    process.exit(2);
  }
  try {
    const { url, close } = await startServer({ ...opts, warm: true });
    console.log(`sessiontree explorer: ${url}`);
    const stop = () => close().finally(() => process.exit(0));
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  } catch (err) {
    console.error(`serve: ${err.message}`);
    process.exit(1);
  }
}
