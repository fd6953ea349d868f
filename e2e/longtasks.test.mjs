// The page never freezes on sessiontree's account (issue 15): long tasks
// on the main thread (PerformanceObserver "longtask", attributed with
// "long-animation-frame" script entries where Chromium has them) while a
// page loads a 100,000-node snapshot (persisted), searches at once,
// restores the 100,000 nodes after a reload, and the explorer opens them.
// No task over 100 ms may come from sessiontree's scripts (js/, static/);
// the longest task of each step is printed. A 20 MB ChatGPT export
// (bench/gen-exports.mjs) is imported through importFile between the load
// and the reload.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { setup, artifactPath } from './helpers.mjs';
import { buildSnapshot } from '../bench/perf-data.mjs';
import { genChatGPT } from '../bench/gen-exports.mjs';

const N = 100000;
/** The budget of one main-thread task from sessiontree's code, in ms. */
const LIMIT_MS = 100;

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
function ours(task, baseURL) {
  return task.scripts.length === 0 || task.scripts.some((s) => s.url.startsWith(baseURL + 'js/') || s.url.startsWith(baseURL + 'static/'));
}

function describe(task) {
  const by = task.scripts.map((s) => `${s.invoker || '?'} ${s.url.replace(/^https?:\/\/[^/]+\//, '')}${s.fn ? ' ' + s.fn : ''} ${Math.round(s.duration)} ms`);
  const frame = task.render ? `, in its frame: rendering ${Math.round(task.render)} ms, style and layout ${Math.round(task.layout)} ms` : '';
  return `${Math.round(task.duration)} ms${by.length ? ' (' + by.join('; ') + ')' : ' (no script attributed' + (task.attribution.length ? ': ' + task.attribution.join('; ') : '') + ')'}${frame}`;
}

test(`no main-thread task over ${LIMIT_MS} ms from sessiontree while 100,000 nodes are loaded and searched, a 20 MB export imported, and the nodes restored and opened in the explorer`, async (t) => {
  // The request is built here and served as a file: the page fetches its
  // bytes (off the main thread), so the test's own work is no long task.
  const { snapshot } = buildSnapshot({ messages: N, sessionId: 'big' });
  const request = JSON.stringify({ operation: 'snapshot.load', sessionId: 'big', snapshot });
  const file = artifactPath('longtasks-load.json');
  fs.writeFileSync(file, request);
  const exportFile = artifactPath('longtasks-chatgpt.json');
  fs.writeFileSync(exportFile, genChatGPT({ mb: 20 }).join(''));
  const env = await setup();
  const report = [];
  const offenders = [];
  // check records a step's long tasks; with keep false it only returns
  // the offenders (a step that is measured again).
  const check = async (step, page, extra = {}, keep = true) => {
    const tasks = await takeTasks(page);
    const longest = tasks.reduce((a, b) => (b.duration > (a?.duration ?? 0) ? b : a), null);
    report.push(`${step}: ${tasks.length} long tasks, longest ${longest ? describe(longest) : 'none'}${Object.entries(extra).map(([k, v]) => `, ${k} ${v}`).join('')}`);
    const found = tasks.filter((task) => task.duration > LIMIT_MS && ours(task, env.baseURL)).map((task) => `${step}: ${describe(task)}`);
    if (keep) offenders.push(...found);
    return found;
  };
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
    assert.equal(loaded.load, N);
    assert.ok(loaded.hits > 0);
    await check('snapshot.load (persisted) then search at once', page, { load: `${loaded.loadMs} ms`, search: `${loaded.searchMs} ms` });

    const imported = await page.evaluate(async () => {
      const blob = await (await fetch('../artifacts/longtasks-chatgpt.json')).blob();
      const t0 = performance.now();
      const r = await window.tree.importFile(blob, { onProgress: () => {} });
      await window.tree.flush();
      return { ok: r.ok, sessions: r.ok ? r.value.sessions.length : JSON.stringify(r.error), mb: (blob.size / 1e6).toFixed(1), ms: Math.round(performance.now() - t0) };
    });
    assert.equal(imported.ok, true, String(imported.sessions));
    assert.ok(imported.sessions > 400, `sessions imported: ${imported.sessions}`);
    await check(`importFile of a ${imported.mb} MB ChatGPT export (${imported.sessions} conversations)`, page, { import: `${imported.ms} ms` });

    await page.reload();
    await page.waitForFunction(() => window.sessiontree);
    const restored = await page.evaluate(async () => {
      const t0 = performance.now();
      const tree = await window.sessiontree.init();
      const ctx = await tree.call({ operation: 'context', sessionId: 'big' });
      return { messages: ctx.ok && ctx.value.messages.length, ms: Math.round(performance.now() - t0) };
    });
    assert.equal(restored.messages, N);
    await check('reload, init() restoring 100,000 nodes, first context', page, { 'until the context': `${restored.ms} ms` });

    // Opening a page also runs the browser's own work (parsing, compiling
    // the modules) that the observer cannot attribute, and on a machine
    // shared with other jobs one opening can pass 100 ms for that alone:
    // the explorer is opened up to three times, and fails only when every
    // opening has such a task (a task of sessiontree's own shows in each).
    let opening = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      const t0 = Date.now();
      await page.goto(env.baseURL + 'static/#big');
      await page.waitForFunction(() => {
        const panel = document.getElementById('panel');
        return window.explorer && panel?.shadowRoot?.querySelector('.row.cursor');
      }, null, { timeout: 30000 });
      opening = await check(`the explorer opening the 100,000-node session (opening ${attempt})`, page, { 'until its cursor row shows': `${Date.now() - t0} ms` }, false);
      if (opening.length === 0) break;
    }
    offenders.push(...opening);

    // The control: the same load and search with the store in the page's
    // own thread (init({worker: false}), a context of its own) must show
    // long tasks from sessiontree's scripts, or the observer sees nothing.
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
      assert.equal(inPage, true);
      const tasks = await takeTasks(p);
      const flagged = tasks.filter((task) => task.duration > LIMIT_MS && ours(task, env.baseURL));
      const longest = tasks.reduce((a, b) => (b.duration > (a?.duration ?? 0) ? b : a), null);
      report.push(`control, the same load and search with worker: false: ${tasks.length} long tasks, ${flagged.length} over ${LIMIT_MS} ms from sessiontree, longest ${longest ? describe(longest) : 'none'}`);
      assert.ok(flagged.length > 0, 'the observer sees the long tasks of the store in the page thread');
    } finally {
      await control.close();
    }

    t.diagnostic(report.join('\n'));
    console.log(report.join('\n'));
    assert.deepEqual(offenders, [], `main-thread tasks over ${LIMIT_MS} ms from sessiontree`);
    assert.deepEqual(env.errors, []);
  } finally {
    await env.close();
    fs.rmSync(file, { force: true });
    fs.rmSync(exportFile, { force: true });
  }
});
