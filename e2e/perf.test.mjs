// The performance benchmark's short form: proves bench/perf.mjs still runs
// end to end (every page, every figure, the table) on small sizes. No time
// is asserted: timing belongs to `make bench`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

test('node bench/perf.mjs --short prints the table with every figure of issue 8', () => {
  const run = fileURLToPath(new URL('../bench/perf.mjs', import.meta.url));
  const out = spawnSync(process.execPath, [run, '--short'], { encoding: 'utf8', timeout: 600000 });
  assert.equal(out.status, 0, `exit ${out.status}\n${out.stdout}\n${out.stderr}`);
  const lines = out.stdout.split('\n');
  assert.ok(lines.some((l) => l.startsWith('machine: ')), out.stdout);
  const header = lines.find((l) => l.startsWith('figure '));
  assert.ok(header, out.stdout);
  for (const col of ['measured', 'floor / peer', 'ratio', 'target']) assert.ok(header.includes(col), `column ${col} in ${header}`);
  const figures = [
    'snapshot.load, 1,000 msgs',
    'snapshot.save, 1,000 msgs, call',
    'context, 1,000-deep path',
    'importFile(Blob) of a',
    'init() restoring 1,000 persisted nodes',
    '  its last 20 messages as stored (storedContext',
    'durable appends awaited in turn, at 100 nodes',
    'durable appends issued together, at 1,000 nodes',
    'explorer start-up, empty, wasm in HTTP cache',
    'wasm size, gzip -9',
    'wasm size, brotli',
    'wasm as served',
    '5,000-node tab: snapshot.load',
    '5,000-node tab: search',
    '5,000-node tab: context, 1,000-deep path',
    '5,000-node tab: tree panel first paint',
    '5,000-node tab: heap',
    'import ChatGPT, 1 MB',
    'import Claude Code JSONL, 1 MB',
    'import Pi JSONL, 1 MB',
    '  the same size again in that worker',
    '  wasm memory after the ChatGPT import',
  ];
  for (const f of figures) {
    const row = lines.find((l) => l.startsWith(f));
    assert.ok(row, `row ${f}\n${out.stdout}`);
    assert.ok(/\d/.test(row.slice(f.length)), `row ${f} has a figure: ${row}`);
  }
  assert.match(out.stdout, /byte-identical to the loaded text/);
  assert.match(lines.find((l) => l.startsWith('wasm as served')), / br /, 'make serve sends the wasm brotli-compressed');
});
