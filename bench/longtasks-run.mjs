// The long tasks of the page's main thread while sessiontree does heavy
// work (issue 15): PerformanceObserver "longtask", attributed with
// "long-animation-frame" script entries where Chromium has them, while a
// page loads a 100,000-node snapshot (persisted), searches at once,
// imports a 20 MB ChatGPT export (bench/gen-exports.mjs) through
// importFile, restores the 100,000 nodes after a reload, and the explorer
// opens them; then the same load and search with the store in the page's
// own thread (init({worker: false})) as the control. Shared by the page
// test (e2e/longtasks.test.mjs: the work runs in the Worker, nothing blocks
// for seconds) and the benchmark (bench/longtasks.mjs: the longest task of
// each step beside the 100 ms budget and the control).
import fs from 'node:fs';
import { artifactPath } from '../e2e/helpers.mjs';
import { buildSnapshot } from './perf-data.mjs';
import { genChatGPT } from './gen-exports.mjs';

/** Nodes of the snapshot loaded. */
export const N = 100000;

/** Installed before every page's scripts: records long tasks and long animation frames. */
function observe() {
  window.__long = [];
  window.__frames = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      window.__long.push({ start: e.startTime, duration: e.duration, attribution: (e.attribution ?? []).map((a) => [a.name, a.containerType, a.containerSrc].filter(Boolean).join(' ')) });
    }
  }).observe({ type: 'longtask', buffered: true });
  if (PerformanceObserver.supportedEntryTypes.includes('long-animation-frame')) {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        const end = e.startTime + e.duration;
        window.__frames.push({ start: e.startTime, duration: e.duration, render: e.renderStart ? end - e.renderStart : 0, layout: e.styleAndLayoutStart ? end - e.styleAndLayoutStart : 0, scripts: e.scripts.map((s) => ({ url: s.sourceURL, fn: s.sourceFunctionName, invoker: s.invoker, start: s.startTime, duration: s.duration })) });
      }
    }).observe({ type: 'long-animation-frame', buffered: true });
  }
}

/**
 * The long tasks recorded in page so far (and forgets them), each with the
 * scripts of long animation frames that ran during it.
 */
async function takeTasks(page) {
  return page.evaluate(() => {
    const tasks = window.__long.splice(0).map((t) => {
      const scripts = [];
      let render = 0;
      let layout = 0;
      for (const f of window.__frames) {
        if (f.start < t.start + t.duration && f.start + f.duration > t.start) {
          render = Math.max(render, f.render);
          layout = Math.max(layout, f.layout);
        }
        for (const s of f.scripts) if (s.start < t.start + t.duration && s.start + s.duration > t.start) scripts.push(s);
      }
      return { ...t, scripts, render, layout };
    });
    window.__frames.length = 0;
    return tasks;
  });
}

/**
 * Whether a task may be sessiontree's: it ran a script of sessiontree (the
 * shim and its worker client, the explorer and the panel), or no script is
 * attributed to it at all (rendering sessiontree's DOM, garbage of its
 * answers, or its code run synchronously from the test's own tiny steps,
 * which long animation frames attribute to the caller). Only a task whose
 * scripts are all someone else's is not.
 */
export function ours(task, baseURL) {
  return task.scripts.length === 0 || task.scripts.some((s) => s.url.startsWith(baseURL + 'js/') || s.url.startsWith(baseURL + 'static/'));
}

export function describe(task) {
  const by = task.scripts.map((s) => `${s.invoker || '?'} ${s.url.replace(/^https?:\/\/[^/]+\//, '')}${s.fn ? ' ' + s.fn : ''} ${Math.round(s.duration)} ms`);
  const frame = task.render ? `, in its frame: rendering ${Math.round(task.render)} ms, style and layout ${Math.round(task.layout)} ms` : '';
  return `${Math.round(task.duration)} ms${by.length ? ' (' + by.join('; ') + ')' : ' (no script attributed' + (task.attribution.length ? ': ' + task.attribution.join('; ') : '') + ')'}${frame}`;
}

/**
 * The control: the same load and search with the store in the page's own
 * thread (shim.html?worker=0), whose long tasks show what the Worker saves.
 * Returns that page's long tasks (takeTasks); throws when the work fails.
 * @param {object} env e2e/helpers.mjs setup()
 */
async function controlRun(env) {
  const control = await env.browser.newContext();
  try {
    const p = await control.newPage();
    await p.addInitScript(observe);
    await p.goto(env.baseURL + 'e2e/fixtures/shim.html?worker=0');
    await p.waitForFunction(() => window.sessiontree);
    const inPage = await p.evaluate(async () => {
      const tree = await window.sessiontree.init();
      const bytes = await (await fetch('../artifacts/longtasks-load.json')).arrayBuffer();
      const load = await tree.call(bytes);
      const search = await tree.search('the');
      await tree.flush();
      return load.ok && search.ok;
    });
    if (!inPage) throw new Error('the control load and search failed');
    return await takeTasks(p);
  } finally {
    await control.close();
  }
}

/**
 * Run the steps in env (e2e/helpers.mjs setup()) and return each step's
 * long tasks: {steps: [{step, tasks, extra}], control: tasks, workers:
 * the page's worker URLs while the store ran}. A task is {start,
 * duration (ms), scripts, render, layout, attribution}. Throws when a
 * step's work fails.
 * @param {object} env
 */
export async function longTaskSteps(env) {
  // The request is built here and served as a file: the page fetches its
  // bytes (off the main thread), so the test's own work is no long task.
  const { snapshot } = buildSnapshot({ messages: N, sessionId: 'big' });
  const file = artifactPath('longtasks-load.json');
  fs.writeFileSync(file, JSON.stringify({ operation: 'snapshot.load', sessionId: 'big', snapshot }));
  const exportFile = artifactPath('longtasks-chatgpt.json');
  fs.writeFileSync(exportFile, genChatGPT({ mb: 20 }).join(''));
  const steps = [];
  const take = async (step, page, extra = {}) => steps.push({ step, tasks: await takeTasks(page), extra });
  try {
    const page = env.page;
    await page.addInitScript(observe);
    await page.goto(env.baseURL + 'e2e/fixtures/shim.html');
    await page.waitForFunction(() => window.sessiontree);
    const loaded = await page.evaluate(async () => {
      window.tree = await window.sessiontree.init();
      const bytes = await (await fetch('../artifacts/longtasks-load.json')).arrayBuffer();
      const t0 = performance.now();
      const load = await window.tree.call(bytes);
      const t1 = performance.now();
      const search = await window.tree.search('the');
      const t2 = performance.now();
      await window.tree.flush();
      return { load: load.ok && load.value.nodeCount, loadMs: Math.round(t1 - t0), hits: search.ok && search.value.hits.length, searchMs: Math.round(t2 - t1) };
    });
    if (loaded.load !== N || !(loaded.hits > 0)) throw new Error(`load and search: ${JSON.stringify(loaded)}`);
    const workers = page.workers().map((w) => w.url());
    await take('snapshot.load (persisted) then search at once', page, { load: `${loaded.loadMs} ms`, search: `${loaded.searchMs} ms` });

    const imported = await page.evaluate(async () => {
      const blob = await (await fetch('../artifacts/longtasks-chatgpt.json')).blob();
      const t0 = performance.now();
      const r = await window.tree.importFile(blob, { onProgress: () => {} });
      await window.tree.flush();
      return { ok: r.ok, sessions: r.ok ? r.value.sessions.length : JSON.stringify(r.error), mb: (blob.size / 1e6).toFixed(1), ms: Math.round(performance.now() - t0) };
    });
    if (!imported.ok || !(imported.sessions > 400)) throw new Error(`import: ${JSON.stringify(imported)}`);
    await take(`importFile of a ${imported.mb} MB ChatGPT export (${imported.sessions} conversations)`, page, { import: `${imported.ms} ms` });

    await page.reload();
    await page.waitForFunction(() => window.sessiontree);
    const restored = await page.evaluate(async () => {
      const t0 = performance.now();
      const tree = await window.sessiontree.init();
      const ctx = await tree.call({ operation: 'context', sessionId: 'big' });
      return { messages: ctx.ok && ctx.value.messages.length, ms: Math.round(performance.now() - t0) };
    });
    if (restored.messages !== N) throw new Error(`restore: ${JSON.stringify(restored)}`);
    await take('reload, init() restoring 100,000 nodes, first context', page, { 'until the context': `${restored.ms} ms` });

    const t0 = Date.now();
    await page.goto(env.baseURL + 'static/#big');
    await page.waitForFunction(() => {
      const panel = document.getElementById('panel');
      return window.explorer && panel?.shadowRoot?.querySelector('.row.cursor');
    });
    await take('the explorer opening the 100,000-node session', page, { 'until its cursor row shows': `${Date.now() - t0} ms` });

    const controlTasks = await controlRun(env);
    return { steps, control: controlTasks, workers };
  } finally {
    fs.rmSync(file, { force: true });
    fs.rmSync(exportFile, { force: true });
  }
}
