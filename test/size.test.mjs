// The size rules of the house for JS (STYLE.md; core/codesize_test.go holds
// Go to the same): no non-test JS file (js/, static/ but its vendored
// libraries, tools/, bench/; js/wasm_exec.js is Go's, the worker bundles
// are built) over 600 lines and no
// function over 80, except those in SIZE_EXCEPTIONS.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { functions } from './js-size.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MAX_FILE_LINES = 600;
const MAX_FUNCTION_LINES = 80;
const FOLDERS = ['js', 'static', 'tools', 'bench'];
const SKIP_DIRS = new Set(['node_modules', 'vendor', 'artifacts', 'testdata']);
const SKIP_FILES = new Set(['js/wasm_exec.js', 'js/worker.bundle.js', 'static/store-worker.bundle.js']); // Go's; built by make (esbuild)

/**
 * The files and functions over the limits when the JS rule was added
 * (issue 23), each at its size then. This list may only shrink: an
 * entry's lines may go down or the entry go away (the test fails when one
 * is no longer needed), never up, and nothing is added (split the function
 * along its concepts instead). `fn` is the function's name, "arrow
 * function" for an unnamed one; "" for the file itself.
 */
const SIZE_EXCEPTIONS = [
  { file: 'bench/corpus.mjs', fn: 'makeCorpus', lines: 123 },
  { file: 'bench/gen-exports.mjs', fn: 'genChatGPT', lines: 81 },
  { file: 'bench/page.mjs', fn: 'runBench', lines: 81 },
  { file: 'bench/prose.mjs', fn: 'makeProseCorpus', lines: 104 },
  { file: 'bench/turn.mjs', fn: 'arrow function', lines: 85 },
  { file: 'static/panel-rows-view.js', fn: '_rowElement', lines: 83 },
  { file: 'static/share-viewer.js', fn: 'shareViewer', lines: 400 },
  { file: 'static/tree-model.js', fn: 'layoutRows', lines: 153 },
  { file: 'tools/serve.mjs', fn: 'handle', lines: 87 },
  { file: 'tools/serve.mjs', fn: 'startServer', lines: 174 },
];

/** Every JS source the rule covers, relative to the root with slashes. */
function sources() {
  const out = [];
  const walk = (dir) => {
    for (const e of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = `${dir}/${e.name}`;
      if (e.isDirectory()) {
        if (!SKIP_DIRS.has(e.name) && !e.name.startsWith('.')) walk(rel);
      } else if (/\.m?js$/.test(e.name) && !/\.test\.m?js$/.test(e.name) && !SKIP_FILES.has(rel)) out.push(rel);
    }
  };
  for (const f of FOLDERS) walk(f);
  return out.sort();
}

/** The lines of a text, a last line without a newline counted. */
const lineCount = (src) => src.split('\n').length - (src.endsWith('\n') ? 1 : 0);

/**
 * The files and functions of `files` ({file, src}) over the limits.
 * @returns {{file: string, fn: string, lines: number}[]}
 */
export function oversized(files) {
  const out = [];
  for (const { file, src } of files) {
    const n = lineCount(src);
    if (n > MAX_FILE_LINES) out.push({ file, fn: '', lines: n });
    for (const f of functions(src)) if (f.lines > MAX_FUNCTION_LINES) out.push({ file, fn: f.name, lines: f.lines });
  }
  return out;
}

/** What is wrong with findings given exceptions: a finding not listed or grown, an exception not needed. */
export function violations(findings, exceptions) {
  const out = [];
  const used = new Set();
  const what = (x) => (x.fn ? `${x.file}: ${x.fn}` : x.file);
  for (const f of findings) {
    const k = exceptions.findIndex((e) => e.file === f.file && e.fn === f.fn && !used.has(e));
    const limit = f.fn ? MAX_FUNCTION_LINES : MAX_FILE_LINES;
    if (k < 0) out.push(`${what(f)} has ${f.lines} lines (limit ${limit}): split it along its concepts`);
    else {
      used.add(exceptions[k]);
      if (f.lines > exceptions[k].lines) out.push(`${what(f)} has ${f.lines} lines: it grew past its exception's ${exceptions[k].lines}`);
    }
  }
  for (const e of exceptions) if (!used.has(e)) out.push(`${what(e)} is within the limits now (or gone): remove its entry from SIZE_EXCEPTIONS`);
  return out;
}

test('no JS source is over 600 lines and no function over 80, but the listed ones', () => {
  const files = sources().map((file) => ({ file, src: fs.readFileSync(path.join(ROOT, file), 'utf8') }));
  assert.ok(files.length > 40, 'the walk found the sources');
  assert.deepEqual(violations(oversized(files), SIZE_EXCEPTIONS), []);
});

test('the size rules catch a long file or function', async (t) => {
  const fn = (decl, n) => `${decl} {\n${'  x++;\n'.repeat(n - 2)}}\n`;
  const cases = [
    { name: 'a function of 80 lines passes', src: fn('function f()', 80), exceptions: [], want: [] },
    { name: 'a function of 81 lines fails', src: fn('function f()', 81), exceptions: [], want: ['p.js: f has 81 lines (limit 80)'] },
    { name: 'a method is named by its name', src: `class C {\n${fn('m(a)', 90)}}\n`, exceptions: [], want: ['p.js: m has 90 lines'] },
    { name: 'an arrow function bound to a name is named by it', src: fn('const g = async (a, b) =>', 85), exceptions: [], want: ['p.js: g has 85 lines'] },
    { name: 'a block of an if is not a function', src: `function f() {\n${fn('if (x)', 90)}}\n`, exceptions: [], want: ['p.js: f has 92 lines'] },
    { name: 'braces in strings, templates, comments and regular expressions are not counted', src: fn('function f()', 10).replace('x++;', "'}'; `}${'{'}`; /* } */ /}/;") + fn('function h()', 81), exceptions: [], want: ['p.js: h has 81 lines'] },
    { name: 'a file of 601 lines fails', src: '// line\n'.repeat(601), exceptions: [], want: ['p.js has 601 lines (limit 600)'] },
    { name: 'a listed function passes', src: fn('function f()', 90), exceptions: [{ file: 'p.js', fn: 'f', lines: 90 }], want: [] },
    { name: 'a listed function that grew fails', src: fn('function f()', 91), exceptions: [{ file: 'p.js', fn: 'f', lines: 90 }], want: ['grew past its exception\'s 90'] },
    { name: 'an exception no longer needed fails', src: fn('function f()', 20), exceptions: [{ file: 'p.js', fn: 'f', lines: 90 }], want: ['p.js: f is within the limits now'] },
  ];
  for (const c of cases) {
    await t.test(c.name, () => {
      const got = violations(oversized([{ file: 'p.js', src: c.src }]), c.exceptions);
      assert.equal(got.length, c.want.length, JSON.stringify(got));
      c.want.forEach((w, i) => assert.ok(got[i].includes(w), `${got[i]} includes ${w}`));
    });
  }
});
