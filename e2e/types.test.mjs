// The typed API (js/sessiontree.d.ts) checked by the pinned TypeScript
// compiler: e2e/types/ok.ts, a program using call with several
// operations, the thin methods, importFile, importZip and loadSnapshot, compiles
// under --strict; each e2e/types/bad-*.ts, one mistake each, does not, and
// fails with the expected error code at the expected place.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from './helpers.mjs';

const TSC = path.join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

/**
 * Run tsc --noEmit --strict (or without --strict) on one file of e2e/types.
 * @param {string} name the file's name, e.g. "ok.ts"
 * @param {boolean} [strict]
 * @returns {Promise<{code: number, out: string}>} tsc's exit code and its report
 */
async function compile(name, strict = true) {
  const args = [TSC, '--noEmit', ...(strict ? ['--strict'] : []), '--target', 'es2022', '--module', 'nodenext', '--lib', 'es2022,dom', '--pretty', 'false', path.join('e2e', 'types', name)];
  try {
    const { stdout } = await promisify(execFile)(process.execPath, args, { cwd: REPO_ROOT });
    return { code: 0, out: stdout };
  } catch (err) {
    if (typeof err.code !== 'number') throw err; // tsc did not run
    return { code: err.code, out: err.stdout };
  }
}

/** The "file(line,col): error TSnnnn" lines of a report. */
const errors = (out) => out.split('\n').filter((l) => / error TS\d+:/.test(l));

test('the pinned TypeScript is the one package.json names', async () => {
  const { default: pkg } = await import('../package.json', { with: { type: 'json' } });
  const { default: ts } = await import('../node_modules/typescript/package.json', { with: { type: 'json' } });
  assert.match(pkg.devDependencies.typescript, /^\d+\.\d+\.\d+$/, 'an exact version');
  assert.equal(ts.version, pkg.devDependencies.typescript);
});

test('a correct typed program (call, the thin methods, importFile, loadSnapshot) compiles under --strict', async () => {
  const r = await compile('ok.ts');
  assert.deepEqual(errors(r.out), []);
  assert.equal(r.code, 0, r.out);
});

test('the same program compiles without --strict (an envelope\'s members read without strictNullChecks\' narrowing)', async () => {
  const r = await compile('ok.ts', false);
  assert.deepEqual(errors(r.out), []);
  assert.equal(r.code, 0, r.out);
});

const bad = [
  // [file, where, code, what the message says]
  ['bad-field.ts', '(6,61)', 'TS2769', /'titel' does not exist in type 'RequestOf<"create">'. Did you mean to write 'title'\?/],
  ['bad-value.ts', '(8,9)', 'TS2322', /Type 'string' is not assignable to type 'number'/],
  ['bad-missing.ts', '(6,19)', 'TS2769', /Property 'nodeId' is missing in type '\{ operation: "jump"; sessionId: string; \}'/],
  ['bad-operation.ts', '(6,21)', 'TS2769', /Type '"apend"' is not assignable to type 'keyof Operations'/],
  ['bad-narrowing.ts', '(8,48)', 'TS2339', /Property 'erased' does not exist on type 'OtherChangeEvent'/],
  ['bad-unknown.ts', '(8,19)', 'TS18046', /'env.value' is of type 'unknown'/],
];

for (const [file, where, code, message] of bad) {
  test(`${file} does not compile: ${code} at ${where}`, async () => {
    const r = await compile(file);
    assert.notEqual(r.code, 0, `tsc must fail: ${r.out}`);
    const lines = errors(r.out);
    assert.equal(lines.length, 1, r.out);
    assert.equal(lines[0].split(': ')[0], `e2e/types/${file}${where}`);
    assert.match(lines[0], new RegExp(` error ${code}:`));
    assert.match(r.out, message);
  });
}

// The package by name, as an app imports it (e2e/types/react/: a React
// page, the panel's JSX typing and its events, the hooks), under each
// moduleResolution an app may have: "node" (node10, through
// typesVersions; TypeScript 7 removed it, so TypeScript 5 checks it),
// "node16" and "bundler" (through exports). node_modules/sessiontree in
// that folder links the repository; react's types come from the
// repository's node_modules.
const REACT_DIR = path.join(REPO_ROOT, 'e2e', 'types', 'react');
const TSC5 = path.join(REPO_ROOT, 'node_modules', 'typescript-5', 'bin', 'tsc');

before(() => {
  const link = path.join(REACT_DIR, 'node_modules', 'sessiontree');
  fs.mkdirSync(path.dirname(link), { recursive: true });
  if (!fs.existsSync(link)) fs.symlinkSync(path.relative(path.dirname(link), REPO_ROOT), link, 'dir');
});

/**
 * tsc --noEmit --strict --jsx react-jsx on one file of e2e/types/react.
 * @param {string} tsc the compiler @param {string} resolution @param {string} name
 * @returns {Promise<{code: number, out: string}>}
 */
async function compileReact(tsc, resolution, name) {
  const module = resolution === 'node16' ? 'node16' : 'esnext';
  const args = [tsc, '--noEmit', '--strict', '--target', 'es2022', '--module', module, '--moduleResolution', resolution, '--jsx', 'react-jsx', '--lib', 'es2022,dom', '--pretty', 'false', name];
  try {
    const { stdout } = await promisify(execFile)(process.execPath, args, { cwd: REACT_DIR });
    return { code: 0, out: stdout };
  } catch (err) {
    if (typeof err.code !== 'number') throw err;
    return { code: err.code, out: err.stdout };
  }
}

const RESOLUTIONS = [
  ['TypeScript 5', TSC5, 'node'],
  ['the pinned TypeScript', TSC, 'node16'],
  ['the pinned TypeScript', TSC, 'bundler'],
];

for (const [who, tsc, resolution] of RESOLUTIONS) {
  test(`${who} with moduleResolution ${resolution}: a React page using sessiontree, sessiontree/panel, sessiontree/openai and sessiontree/react by name compiles`, async () => {
    const r = await compileReact(tsc, resolution, 'ok.tsx');
    assert.deepEqual(errors(r.out), []);
    assert.equal(r.code, 0, r.out);
  });
}

const badReact = [
  ['bad-panel.tsx', '(5,29)', 'TS2322', /Type '"open"' is not assignable to type '"jump" \| "preview" \| undefined'/],
  ['bad-event.tsx', '(4,99)', 'TS2551', /Property 'nodeID' does not exist on type 'PanelJumpDetail'. Did you mean 'nodeId'\?/],
];

for (const [file, where, code, message] of badReact) {
  test(`react/${file} does not compile: ${code} at ${where}`, async () => {
    const r = await compileReact(TSC, 'bundler', file);
    assert.notEqual(r.code, 0, `tsc must fail: ${r.out}`);
    const lines = errors(r.out);
    assert.equal(lines.length, 1, r.out);
    assert.equal(lines[0].split(': ')[0], `${file}${where}`);
    assert.match(lines[0], new RegExp(` error ${code}:`));
    assert.match(r.out, message);
  });
}
