// README.md, docs/ARCHITECTURE.md (the map) and docs/DECISIONS.md name files and folders
// of the repository; every one must exist. A backticked word that looks like a repository path (starts
// with a top-level folder such as `js/`, `core/`, `static/`, or ends in a
// source extension such as `.go`, `.js`, `.css`) is checked. A relative name
// in the layer table is resolved against the folder of its row (`core/
// internal/jsonx` for `jsonscan.go`, `js/` for `store/schema.js`); elsewhere
// it must exist somewhere in the repository's source folders or at its root. Fails naming every path that is missing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Top-level folders whose paths a doc may name. */
const TOP = ['core', 'wasm', 'js', 'static', 'test', 'tools', 'bench', 'e2e', 'scripts', 'docs'];

/** Extensions that make a bare word a file name. */
const EXT = /\.(go|js|mjs|ts|css|html|json|md|txt|svg)$/;

/** Folders searched for a bare file name named outside the layer table. */
const SEARCH_DIRS = ['core', 'wasm', 'js', 'static', 'test', 'tools', 'bench', 'e2e', 'scripts', 'docs'];

/** Generated or build outputs the docs may name though a clean checkout lacks them. */
const BUILT = new Set([
  'js/sessiontree.wasm', 'js/wasm_exec.js', 'sessiontree.wasm', 'wasm_exec.js', 'static/vendor', 'static/vendor/',
  'js/worker.bundle.js', 'worker.bundle.js', 'static/store-worker.bundle.js', 'store-worker.bundle.js',
  'static/panel-styles.js', 'panel-styles.js',
]);

/**
 * Every file name under dir (a loop over a stack, no recursion), skipping
 * node_modules and vendored libraries.
 * @param {string} dir absolute path
 * @returns {Set<string>} base names
 */
function baseNames(dir) {
  const names = new Set();
  const stack = [dir];
  while (stack.length > 0) {
    const d = stack.pop();
    if (!fs.existsSync(d)) continue;
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (e.name === 'node_modules' || e.name === 'vendor') continue;
      if (e.isDirectory()) stack.push(path.join(d, e.name));
      else names.add(e.name);
    }
  }
  return names;
}

/**
 * The path a backticked word names, or null when it names none: trailing
 * punctuation and a `:line`/`#anchor` tail are dropped; `…` or spaces mean
 * prose, not a path.
 * @param {string} word
 * @returns {string|null}
 */
export function pathOf(word) {
  let w = word.trim().replace(/[#:].*$/, '').replace(/[),.;]+$/, '');
  if (w === '' || /[\s…*<>{}()"'=|]/.test(w)) return null;
  if (w.startsWith('./')) w = w.slice(2);
  if (TOP.includes(w.split('/')[0]) && (w.includes('/') || EXT.test(w))) return w;
  if (EXT.test(w) && !w.startsWith('.') && !w.startsWith('/')) return w;
  return null;
}

/**
 * The paths named in markdown text, each with where it was found: a table
 * row of the layer table (first cell a backticked folder) resolves its bare
 * names against that folder.
 * @param {string} text the markdown
 * @returns {{path: string, base: string|null, line: number}[]}
 */
export function namedPaths(text) {
  const out = [];
  text.split('\n').forEach((line, i) => {
    const row = line.match(/^\|\s*`([^`]+)`(?:,\s*`[^`]+`)*\s*\|/);
    const rowDir = row && TOP.includes(row[1].split('/')[0]) ? row[1].replace(/\/$/, '') : null;
    for (const m of line.matchAll(/`([^`\n]+)`/g)) {
      const p = pathOf(m[1]);
      if (p === null) continue;
      const rooted = TOP.includes(p.split('/')[0]);
      out.push({ path: p, base: rooted ? null : rowDir, line: i + 1 });
    }
  });
  return out;
}

/**
 * Whether a named path exists: a path starting with a top-level folder from
 * the repository's root; a relative one (`jsonscan.go`, `store/schema.js`)
 * against its table row's folder; outside the table a relative path under
 * one of the source folders, a bare name anywhere in them or at the root.
 * @param {{path: string, base: string|null}} named
 * @param {Set<string>} anywhere base names of every source file
 * @returns {boolean}
 */
function exists(named, anywhere) {
  if (BUILT.has(named.path)) return true;
  if (TOP.includes(named.path.split('/')[0])) return fs.existsSync(path.join(ROOT, named.path));
  if (named.base !== null) return fs.existsSync(path.join(ROOT, named.base, named.path));
  if (named.path.includes('/')) return SEARCH_DIRS.some((d) => fs.existsSync(path.join(ROOT, d, named.path)));
  return anywhere.has(named.path) || fs.existsSync(path.join(ROOT, named.path));
}

/** The docs checked, each with the least number of paths it must yield (a guard on the extraction). */
const DOCS = [['docs/ARCHITECTURE.md', 100], ['docs/DECISIONS.md', 20], ['README.md', 20]];

for (const [doc, least] of DOCS) {
  test(`every path ${doc} names exists`, () => {
    const text = fs.readFileSync(path.join(ROOT, doc), 'utf8');
    const anywhere = new Set();
    for (const d of SEARCH_DIRS) for (const n of baseNames(path.join(ROOT, d))) anywhere.add(n);
    const named = namedPaths(text);
    assert.ok(named.length >= least, `found only ${named.length} paths: the extraction broke`);
    const missing = named.filter((n) => !exists(n, anywhere))
      .map((n) => `line ${n.line}: ${n.base ? n.base + '/' : ''}${n.path}`);
    assert.deepEqual(missing, [], `paths named in ${doc} that do not exist`);
  });
}

test('bare file names in a layer table row resolve against that row', () => {
  const rows = namedPaths('| `core/internal/jsonx` | reader | `jsonscan.go`, `store/x.js` |\n| `js/` | page | `store/schema.js` |\nsee `js/local.js`.');
  assert.deepEqual(rows.map((r) => [r.path, r.base]), [
    ['core/internal/jsonx', null], ['jsonscan.go', 'core/internal/jsonx'],
    ['store/x.js', 'core/internal/jsonx'],
    ['js/', null], ['store/schema.js', 'js'], ['js/local.js', null],
  ]);
});
