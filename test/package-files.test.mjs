// Every file the package's entry points load (package.json "exports") is
// in the packed package (package.json "files"): a module left out breaks
// every bundler's build of an app using the package ("Could not resolve
// './map-family.js'"), which only the fixture apps' page tests would
// otherwise find, minutes later.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { moduleGraph } from './module-graph.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));

/** The entry files of "exports" (the default condition, or the plain string). */
function entries() {
  return Object.values(pkg.exports)
    .map((e) => (typeof e === 'string' ? e : e.default))
    .filter((e) => /\.m?js$/.test(e))
    .map((e) => path.join(root, e));
}

/**
 * Whether a repository path matches one of "files"' patterns as npm reads
 * the ones used here: a path, a folder ending in "/", or "*" within one
 * path segment.
 */
function packed(rel) {
  return pkg.files.some((pattern) => {
    if (pattern.endsWith('/')) return rel.startsWith(pattern);
    const re = new RegExp(`^${pattern.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^/]*')}$`);
    return re.test(rel);
  });
}

test('the packed package holds every module its exports load, statically or by a literal import or new URL', () => {
  const graph = moduleGraph(entries());
  assert.ok(graph.length > 30, `the graph was walked (${graph.length} files)`);
  const missing = graph.map((f) => path.relative(root, f)).filter((rel) => !packed(rel)).sort();
  assert.deepEqual(missing, [], 'files the package loads but package.json "files" leaves out');
});

/**
 * Where a resolver that reads no "exports" finds `sessiontree/sub` (sub ""
 * for the package itself), as Parcel 2 does by default (its
 * packageExports is opt-in) and Node did before exports: "main" for the
 * package; for a subpath the file, the file plus ".js", or the folder's
 * package.json "main" or index.js. @returns {string|null} a repository path
 */
function legacyResolve(sub) {
  const file = (rel) => fs.existsSync(path.join(root, rel)) && fs.statSync(path.join(root, rel)).isFile();
  if (sub === '') return path.normalize(pkg.main);
  for (const rel of [sub, `${sub}.js`]) if (file(rel)) return rel;
  if (file(`${sub}/package.json`)) {
    const main = JSON.parse(fs.readFileSync(path.join(root, sub, 'package.json'), 'utf8')).main;
    if (main) return path.normalize(path.join(sub, main));
  }
  return file(`${sub}/index.js`) ? `${sub}/index.js` : null;
}

test('a resolver without package exports (Parcel 2 by default) finds the module each JS export names, from packed files', () => {
  for (const [entry, target] of Object.entries(pkg.exports)) {
    const want = typeof target === 'string' ? target : target.default;
    if (!/\.m?js$/.test(want) || /^\.\/[^/]+\.js$/.test(entry)) continue; // ./worker.js and the like are files the package reaches by URL
    const sub = entry.slice(2);
    const got = legacyResolve(sub);
    assert.equal(got, path.normalize(want), `sessiontree${sub && '/'}${sub} resolves to ${want} without exports`);
    const stub = path.join(sub, 'package.json');
    if (sub && fs.existsSync(path.join(root, stub))) assert.ok(packed(stub), `${stub} is in "files"`);
  }
});
