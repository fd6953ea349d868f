// The service worker's PRECACHE list (static/sw.js) holds every module the
// explorer, its Worker, the share export and the chat demo load: a module
// left out makes the offline explorer stop at start-up (a failed import),
// which only a page test with the network off would otherwise find.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { moduleGraph } from './module-graph.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const staticDir = path.join(root, 'static');

/** Entry points the pages load (index.html, chat-demo.html and the Worker). */
const ENTRIES = ['static/boot.js', 'static/explorer.js', 'static/store-worker.js', 'static/chat-demo.js', 'static/share-export.js'];

/** PRECACHE's entries, as the worker resolves them (relative to static/). */
async function precache() {
  const source = fs.readFileSync(path.join(staticDir, 'sw.js'), 'utf8');
  const list = /const PRECACHE = (\[[^]*?\n\]);/.exec(source);
  assert.ok(list, 'sw.js declares const PRECACHE = [ … ];');
  // The list is plain data plus one map over the grammar names: evaluate it alone.
  const entries = new Function(`return ${list[1]};`)();
  return new Set(entries.map((p) => path.resolve(staticDir, p)));
}

test('the service worker precaches every module the explorer, its Worker, the share export and the chat demo load', async () => {
  const kept = await precache();
  const graph = moduleGraph(ENTRIES.map((e) => path.join(root, e)));
  assert.ok(graph.length > 40, `the graph was walked (${graph.length} files)`);
  const missing = graph.filter((f) => !kept.has(f)).map((f) => path.relative(root, f)).sort();
  assert.deepEqual(missing, [], 'files loaded by the pages but not in PRECACHE');
  const absent = [...kept].filter((f) => !fs.existsSync(f) && !f.endsWith('.wasm') && !f.endsWith(path.sep + 'static')).map((f) => path.relative(root, f)).sort();
  assert.deepEqual(absent, [], 'PRECACHE names files that do not exist (after make build)');
});
