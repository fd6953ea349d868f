// The search benchmark's short form: proves bench/run.mjs works end to end
// (corpus, every library, the report) on a small corpus. No timing is
// asserted; sessiontree must find every planted target.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

test('node bench/run.mjs --short prints the table with every library', () => {
  const run = fileURLToPath(new URL('../bench/run.mjs', import.meta.url));
  const out = spawnSync(process.execPath, [run, '--short'], { encoding: 'utf8', timeout: 300000 });
  assert.equal(out.status, 0, `exit ${out.status}\n${out.stdout}\n${out.stderr}`);
  const lines = out.stdout.split('\n');
  const header = lines.find((l) => l.startsWith('library '));
  assert.ok(header, out.stdout);
  for (const col of ['build ms', 'p50 ms', 'p95 ms', 'heap MB', 'recall typo1-trans', 'recall typo2', 'recall cjk', 'recall prefix-typo', 'st speed (p50)']) {
    assert.ok(header.includes(col), `column ${col} in ${header}`);
  }
  for (const lib of ['sessiontree', 'ufuzzy', 'minisearch', 'fuse']) {
    assert.ok(lines.some((l) => l.startsWith(lib + ' ')), `row for ${lib}`);
  }
  const st = lines.find((l) => l.startsWith('sessiontree '));
  const recalls = st.match(/\d+%/g);
  assert.equal(recalls.length, 10, st);
  assert.deepEqual([...new Set(recalls)], ['100%'], `sessiontree finds every planted target: ${st}`);
});

test('node bench/run.mjs --short --prose runs the real-prose corpus of the Go distribution', () => {
  const run = fileURLToPath(new URL('../bench/run.mjs', import.meta.url));
  const out = spawnSync(process.execPath, [run, '--short', '--prose', '--libs', 'sessiontree,ufuzzy'], { encoding: 'utf8', timeout: 300000 });
  assert.equal(out.status, 0, `exit ${out.status}\n${out.stdout}\n${out.stderr}`);
  const lines = out.stdout.split('\n');
  assert.match(lines.find((l) => l.startsWith('real prose: ')) ?? '', /^real prose: the comments and docs of go\d[\d.]* \([\d,]+ \.go files/, out.stdout);
  const header = lines.find((l) => l.startsWith('library '));
  assert.ok(header.includes('recall typo2') && !header.includes('recall cjk'), `the prose corpus has no cjk class: ${header}`);
  const st = lines.find((l) => l.startsWith('sessiontree '));
  const recalls = st.match(/\d+%/g);
  assert.equal(recalls.length, 7, st);
  assert.deepEqual([...new Set(recalls)], ['100%'], `sessiontree finds every message holding the word meant: ${st}`);
});

test('node bench/paging.mjs --quick prints init → the first page newest first beside the paged floor, init → sessions and the first context beside the lazy floor (in the page and in a worker), another session opened once the store runs and the wasm start floor at 100 and 1,000 sessions, and at 100 in a returning user\'s profile', () => {
  const run = fileURLToPath(new URL('../bench/paging.mjs', import.meta.url));
  const out = spawnSync(process.execPath, [run, '--quick'], { encoding: 'utf8', timeout: 900000 });
  assert.equal(out.status, 0, `exit ${out.status}\n${out.stdout}\n${out.stderr}`);
  const rows = out.stdout.split('\n').filter((l) => /^\d+ \| /.test(l)).map((l) => l.split(' | '));
  assert.deepEqual(rows.map((r) => [r[0], r[1]]), [['100', '13000'], ['1000', '103000']], out.stdout);
  for (const r of rows) {
    assert.equal(r.length, 22, r.join(' | '));
    assert.ok(Number(r[20]) > 0 && Number(r[20]) <= Number(r[17]), `the tab (the renderer running the store's worker) is found and is one of the renderers: ${r.join(' | ')}`);
    for (const i of [2, 3, 5, 7, 8, 10, 12, 14, 15, 17, 18]) assert.ok(Number(r[i]) > 0, `column ${i} is a measured figure: ${r.join(' | ')}`);
    assert.match(r[4], /^\d+\.\dx$/, 'the ratio to the floor');
    assert.match(r[6], /^\d+\.\dx$/, 'the ratio to the worker floor');
    assert.match(r[16], /^\d+\.\dx$/, 'the ratio to the wasm start floor');
    assert.match(r[13], /^\d+\.\dx$/, 'the ratio of an open a second later to the floor');
    assert.ok(Number(r[14]) >= Number(r[7]), 'init → first context includes the first context');
    assert.ok(Number(r[19]) < 64, `wasm memory stays bounded by the budget, not the history: ${r[19]} MB`);
  }
  // The same columns in a returning user's browser (a persistent profile), at the first size.
  const again = out.stdout.split('\n').filter((l) => l.startsWith('returning ') && l.includes(' | ')).map((l) => l.slice('returning '.length).split(' | '));
  assert.deepEqual(again.map((r) => [r[0], r[1]]), [['100', '13000']], out.stdout);
  for (const r of again) {
    assert.equal(r.length, 22, r.join(' | '));
    assert.ok(Number(r[20]) > 0 && Number(r[20]) <= Number(r[17]), `the tab is found in the profile's renderers: ${r.join(' | ')}`);
    for (const i of [2, 3, 5, 7, 8, 10, 12, 14, 15, 17, 18]) assert.ok(Number(r[i]) > 0, `column ${i} is a measured figure: ${r.join(' | ')}`);
    assert.match(r[16], /^\d+\.\dx$/, 'the ratio to the wasm start floor');
    assert.match(r[13], /^\d+\.\dx$/, 'the ratio of an open a second later to the floor');
    assert.ok(Number(r[14]) >= Number(r[7]), 'init → first context includes the first context');
  }
  // Where init() → first context goes, from the worker's marks: each figure measured; the context
  // comes after the wasm started, before the stubs were made or after (js/first-context.js).
  const where = out.stdout.split('\n').filter((l) => (l.startsWith('at ') || l.startsWith('returning, at ')) && l.includes('ms after init()'));
  assert.equal(where.length, 3, out.stdout);
  for (const line of where) {
    const [read, runtime, restored, answered] = [...line.matchAll(/ (\d+)(?:,|$)/g)].map((m) => Number(m[1]));
    assert.ok(read > 0 && runtime > 0 && restored >= runtime && answered >= runtime, line);
    const [, early, runs] = / in (\d+) of (\d+) runs$/.exec(line) ?? [];
    assert.ok(Number(early) <= Number(runs) && Number(runs) === 2, line);
  }
  // The first page of the list newest first, beside the paged floor, at each size.
  const pages = out.stdout.split('\n').filter((l) => l.startsWith('page | ') && /^page \| \d/.test(l)).map((l) => l.split(' | '));
  assert.deepEqual(pages.map((r) => r[1]), ['100', '1000'], out.stdout);
  for (const r of pages) {
    assert.equal(r.length, 6, r.join(' | '));
    assert.ok(Number(r[2]) > 0 && Number(r[3]) > 0, `measured figures: ${r.join(' | ')}`);
    assert.match(r[4], /^\d+\.\dx$/, 'the ratio to the paged floor');
    assert.match(r[5], /^\d+\.\dx$/, 'the ratio to the smallest size');
  }
});
