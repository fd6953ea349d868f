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
  for (const col of ['build ms', 'p50 ms', 'p95 ms', 'heap MB', 'recall typo1-trans', 'recall typo2', 'recall cjk', 'st speed (p50)']) {
    assert.ok(header.includes(col), `column ${col} in ${header}`);
  }
  for (const lib of ['sessiontree', 'ufuzzy', 'minisearch', 'fuse']) {
    assert.ok(lines.some((l) => l.startsWith(lib + ' ')), `row for ${lib}`);
  }
  const st = lines.find((l) => l.startsWith('sessiontree '));
  const recalls = st.match(/\d+%/g);
  assert.equal(recalls.length, 9, st);
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
