// The npm package as an embedder gets it: `npm pack` at the root (its
// prepack script runs make build), the tarball's file list (the API, the
// panel, the wasm and its loader, the vendored UI libraries; no tests,
// benches, fixtures or Go sources), `npm install <tgz>` into a fresh app in
// a temporary folder outside the repository (the package has no runtime
// dependencies, so the install needs no network), and that app run in
// headless Chromium twice: bundled with esbuild (the repository's pinned dev
// dependency) and unbundled through an import map. Each build creates a
// session, appends, reads the context, mounts <session-tree-panel> and the
// test clicks a node in it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { startServer } from '../tools/serve.mjs';
import { REPO_ROOT, launch, watchPage } from './helpers.mjs';

const NPM = process.env.NPM || 'npm';
const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));

/** The app's module: what an embedder writes (bare specifiers only). */
const MAIN = `import { init } from "sessiontree";
import "sessiontree/panel";

const tree = await init();
await tree.create("demo", { title: "Package demo" });
const user = await tree.append("demo", { role: "user", content: "What is a session tree?" });
const answer = await tree.append("demo", { role: "assistant", content: "A **tree** of messages." });
const context = await tree.context("demo");
const panel = document.createElement("session-tree-panel");
panel.tree = tree;
panel.sessionId = "demo";
const events = [];
for (const type of ["select", "preview"]) panel.addEventListener(type, (e) => events.push([type, e.detail.nodeId]));
document.querySelector("#panel-slot").append(panel);
window.app = { user: user.value, answer: answer.value, context, events };
`;

/** A typed program of the app (tsc resolves the package's "types" conditions); BAD misspells a field. */
const TYPED = `import { init, type SessionTree } from "sessiontree";
import type { SessionTreePanel } from "sessiontree/panel";
import { chatCompletionsURL } from "sessiontree/openai";
const url: string | null = chatCompletionsURL("http://127.0.0.1:11434/v1");
const tree: SessionTree = await init();
const env = await tree.append("demo", { role: "user", content: "hi" });
if (env.ok) console.log(env.value.id.toUpperCase());
const panel: SessionTreePanel = document.createElement("session-tree-panel");
panel.sessionId = "demo";
panel.addEventListener("jump", (e) => console.log(e.detail.nodeId));
panel.addEventListener("copy", (e) => console.log(e.detail.text)); // a CustomEvent here, not the DOM's ClipboardEvent
`;
const BAD = TYPED.replace('content: "hi"', 'contnet: "hi"');

/** The policy of both pages (docs/EMBED.md), plus the hash of an inline import map when there is one. */
const csp = (extra = '') => `default-src 'self'; script-src 'self' 'wasm-unsafe-eval'${extra}; style-src 'self'; img-src 'self' data:; connect-src 'self'; worker-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'`;

const page = (title, head, script) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${head.csp}">
<title>${title}</title>
${head.importMap ? `<script type="importmap">${head.importMap}</script>` : ''}
<script type="module" src="${script}"></script>
</head>
<body><div id="panel-slot"></div></body>
</html>
`;

let dir;
let packed;
let server;
let browser;
before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sessiontree-package-'));
  // --json: the tarball's name and file list, printed after what the
  // prepack script (make build) printed: the array starts on a line of its own.
  const out = execFileSync(NPM, ['pack', '--json', '--pack-destination', dir], { cwd: REPO_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  packed = JSON.parse(out.slice(out.search(/^\[\s*$/m)))[0];
  const app = path.join(dir, 'app');
  fs.mkdirSync(path.join(app, 'src'), { recursive: true });
  fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'embedder-app', private: true, type: 'module' }));
  execFileSync(NPM, ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', path.join(dir, packed.filename)], { cwd: app, stdio: ['ignore', 'pipe', 'pipe'] });
  fs.writeFileSync(path.join(app, 'src', 'main.js'), MAIN);

  // Unbundled: the import map names the package's two entries; every other
  // module is a relative import inside the package.
  const importMap = JSON.stringify({ imports: { sessiontree: '/node_modules/sessiontree/js/sessiontree.js', 'sessiontree/panel': '/node_modules/sessiontree/static/session-tree-panel.js' } });
  const hash = createHash('sha256').update(importMap).digest('base64');
  fs.writeFileSync(path.join(app, 'unbundled.html'), page('unbundled', { csp: csp(` 'sha256-${hash}'`), importMap }, '/src/main.js'));

  // Bundled: esbuild bundles the app and, as a second entry named as the
  // shim's default worker (worker.bundle.js), the store's worker (Go's
  // loader and the panel's stylesheets are bundled: literal imports); the
  // wasm and the panel's icon are copied beside them (the
  // shim and the panel find them next to their
  // module: new URL(…, import.meta.url)).
  const dist = path.join(app, 'dist');
  const resolve = createRequire(path.join(app, 'package.json')).resolve;
  await esbuild.build({
    absWorkingDir: app,
    entryPoints: { app: 'src/main.js', 'worker.bundle': 'sessiontree/worker.js' },
    bundle: true,
    format: 'esm',
    target: 'es2022',
    outdir: dist,
    logLevel: 'warning',
  });
  for (const asset of ['sessiontree.wasm', 'icon.svg']) {
    const from = resolve(`sessiontree/${asset}`);
    fs.copyFileSync(from, path.join(dist, path.basename(from)));
  }
  fs.writeFileSync(path.join(dist, 'index.html'), page('bundled', { csp: csp() }, './app.js'));

  server = await startServer({ root: app, port: 0 });
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

test('npm pack makes sessiontree-<version>.tgz with the API, the panel and the wasm, and no tests, benches, fixtures or Go', async () => {
  assert.equal(packed.filename, `sessiontree-${pkg.version}.tgz`);
  assert.match(pkg.version, /^\d+\.\d+\.\d+$/);
  const files = packed.files.map((f) => f.path);
  console.log(`# ${packed.filename}: ${packed.size} bytes packed, ${packed.unpackedSize} unpacked, ${files.length} files`);
  for (const want of ['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md', 'docs/EMBED.md', 'docs/IMPORTERS.md', 'docs/DECISIONS.md', 'docs/ARCHITECTURE.md', 'js/sessiontree.js', 'js/sessiontree.d.ts', 'js/worker.js', 'js/worker.bundle.js', 'js/local.js', 'js/store/writer.js', 'js/sessiontree.wasm', 'js/wasm_exec.js', 'js/openai.js', 'js/openai-wire.js', 'js/openai.d.ts', 'vite/index.js', 'vite/index.d.ts', 'static/session-tree-panel.js', 'static/session-tree-panel.d.ts', 'static/session-tree-panel.css', 'static/theme.css', 'static/icon.svg', 'static/render-message.js', 'static/node-text.js', 'static/vendor/markdown-it.js', 'static/vendor/purify.js', 'static/vendor/highlight/core.js', 'third_party/go/LICENSE']) {
    assert.ok(files.includes(want), `${want} is in the tarball`);
  }
  const unwanted = files.filter((f) => /^(e2e|bench|core|wasm|tools|scripts|fixtures)\/|\.go$|(^|\/)go\.(mod|sum)$|_test\.|\.test\.|(^|\/)testdata\/|\.(gz|br|tgz)$|\.copied$/.test(f));
  assert.deepEqual(unwanted, []);
  // Every module the entries import (their graph, as esbuild walks it in
  // the repository) is shipped: a module split off later cannot be missed.
  const graph = await esbuild.build({ absWorkingDir: REPO_ROOT, entryPoints: ['js/sessiontree.js', 'js/worker.js', 'js/openai.js', 'static/session-tree-panel.js'], bundle: true, format: 'esm', splitting: true, outdir: path.join(dir, 'graph'), write: false, metafile: true, logLevel: 'silent' });
  const missing = Object.keys(graph.metafile.inputs).filter((f) => !files.includes(f));
  assert.deepEqual(missing, [], 'modules the entries import are in the tarball');
  // Every file the exports map names is shipped.
  for (const [entry, target] of Object.entries(pkg.exports)) {
    for (const file of typeof target === 'string' ? [target] : Object.values(target)) assert.ok(files.includes(file.slice(2)), `${entry} → ${file} is in the tarball`);
  }
  assert.equal(pkg.private, undefined);
  assert.deepEqual(Object.keys(pkg.dependencies ?? {}), [], 'no runtime dependencies: the UI libraries ship as vendored files');
});

test('TypeScript finds the installed package\'s types: a correct program compiles, a misspelled field does not', async () => {
  const app = path.join(dir, 'app');
  fs.writeFileSync(path.join(app, 'src', 'typed.ts'), TYPED);
  fs.writeFileSync(path.join(app, 'src', 'bad.ts'), BAD);
  const tsc = async (file) => {
    const args = [path.join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '--noEmit', '--strict', '--target', 'es2022', '--module', 'nodenext', '--lib', 'es2022,dom', '--pretty', 'false', file];
    try {
      await promisify(execFile)(process.execPath, args, { cwd: app });
      return { code: 0, out: '' };
    } catch (err) {
      if (typeof err.code !== 'number') throw err;
      return { code: err.code, out: err.stdout };
    }
  };
  const ok = await tsc('src/typed.ts');
  assert.equal(ok.code, 0, ok.out);
  const bad = await tsc('src/bad.ts');
  assert.notEqual(bad.code, 0);
  assert.match(bad.out, /bad\.ts\(6,\d+\): error TS\d+:.*contnet/);
});

for (const [name, url] of [['bundled with esbuild', 'dist/index.html'], ['unbundled through an import map', 'unbundled.html']]) {
  test(`the installed package ${name}: create, append, context, mount the panel, click a node`, async () => {
    const errors = [];
    const context = await browser.newContext();
    try {
      const p = watchPage(await context.newPage(), errors);
      // A store that fell back to the page's thread says so with console.warn.
      p.on('console', (msg) => msg.type() === 'warning' && errors.push(`console.warn: ${msg.text()}`));
      await p.goto(server.baseURL + url);
      await p.waitForFunction(() => window.app);
      const app = await p.evaluate(() => window.app);
      assert.deepEqual(app.context.ok, true);
      assert.deepEqual(app.context.value.messages, [
        { role: 'user', content: 'What is a session tree?' },
        { role: 'assistant', content: 'A **tree** of messages.' },
      ]);
      const panel = p.locator('session-tree-panel');
      // The panel draws the session's two rows (its stylesheet loaded: rows have their height).
      await p.waitForFunction(() => document.querySelector('session-tree-panel')?.shadowRoot?.querySelectorAll('.row[data-node-id]').length === 2);
      // Its three stylesheets (theme, panel, map) are constructed from the bundled module (panel-styles.js), not fetched.
      const sheets = await p.evaluate(() => document.querySelector('session-tree-panel').shadowRoot.adoptedStyleSheets.map((s) => s.cssRules.length > 0));
      assert.deepEqual(sheets, [true, true, true]);
      await panel.locator(`.row[data-node-id="${app.user.id}"]`).click();
      await p.waitForFunction((id) => window.app.events.some(([type, nodeId]) => type === 'preview' && nodeId === id), app.user.id);
      const events = await p.evaluate(() => window.app.events);
      assert.ok(events.some(([type, nodeId]) => type === 'select' && nodeId === app.user.id), JSON.stringify(events));
      // The context pane shows the clicked node's path: the user's message alone.
      await p.waitForFunction(() => document.querySelector('session-tree-panel').shadowRoot.textContent.includes('What is a session tree?'));
      // The store runs in the package's module worker (bundled by the app: dist/worker.bundle.js; else the package's).
      assert.deepEqual(p.workers().map((w) => new URL(w.url()).pathname), [url.startsWith('dist/') ? '/dist/worker.bundle.js' : '/node_modules/sessiontree/js/worker.bundle.js']);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
}
