// <session-tree-panel> opening another session that takes long to answer
// (a session paged out of the store is read from IndexedDB first: a
// 100,000-node one takes a second or more): past OPENING_MS the session
// shown before goes, so its rows, context, actions and composer are never
// taken for the new one's, and the head names the new one as opening.
// The store's answers for one session are held by the test (a Proxy of a
// real tree), so the wait is as long as the test says.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from './helpers.mjs';
import { OPENING_MS } from '../static/panel-loader.js';

/**
 * Open "slow" in a panel showing "shown", the store holding its answers:
 * persist false, the panel has nothing but the id to show meanwhile;
 * persisted, it shows what tree.storedContext read from the session's
 * records (its title, node count and last messages).
 */
async function slowOpening(persist) {
  const env = await setup({ contextOptions: { viewport: { width: 1200, height: 800 } } });
  try {
    const { page, errors } = env;
    await page.goto(env.baseURL + 'e2e/fixtures/shim.html');
    await page.waitForFunction(() => window.sessiontree !== undefined);
    await page.evaluate(async (persist) => {
      const tree = await window.sessiontree.init(persist ? { dbName: 'panel-opening' } : { persist: false });
      await tree.create('shown', { title: 'Shown first' });
      await tree.append('shown', { role: 'user', content: 'a message of the session shown first' });
      await tree.create('slow', { title: 'Slow to open' });
      await tree.append('slow', { role: 'user', content: 'the slow session' });
      await tree.append('slow', { role: 'assistant', content: 'its answer' });
      // Calls naming "slow" wait until window.release() while window.held is set.
      let release;
      window.held = new Promise((resolve) => (release = resolve));
      window.release = () => (window.held = null, release());
      const held = new Proxy(tree, {
        get(target, key) {
          const value = target[key];
          // Not persisted: a tree whose storedContext rejects (a tree of the page's own) is a preview lost, never an error.
          if (key === 'storedContext' && !persist) return () => Promise.reject(new Error('storedContext failed'));
          if (key === 'call') {
            return async (request) => {
              if (request?.sessionId === 'slow' && window.held) await window.held;
              return target.call(request);
            };
          }
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
      await import('/static/session-tree-panel.js');
      const p = document.createElement('session-tree-panel');
      p.id = 'panel';
      p.tree = held;
      p.sessionId = 'shown';
      document.body.append(p);
    }, persist);
    const panel = page.locator('#panel');
    await panel.locator('.row .preview', { hasText: 'a message of the session shown first' }).waitFor();
    await panel.locator('.messages .message-body').first().waitFor();
    /** What the panel shows: the head, rows, context messages and whether Send and Branch… can be used. */
    const shown = () => page.evaluate(() => {
      const root = document.querySelector('#panel').shadowRoot;
      return {
        title: root.querySelector('.head .title').textContent,
        stats: root.querySelector('.head .stats').textContent,
        rows: [...root.querySelectorAll('.row .preview')].map((r) => r.textContent),
        context: [...root.querySelectorAll('.messages .message-body')].map((m) => m.textContent),
        send: root.querySelector('.composer-send')?.disabled ?? null,
        target: root.querySelector('[id$="-compose-target"]')?.textContent ?? null,
        branch: root.querySelector('.act-branch')?.disabled ?? null,
      };
    });
    const before = await shown();
    assert.deepEqual({ ...before, stats: undefined, target: undefined }, { title: 'Shown first', stats: undefined, target: undefined, rows: ['a message of the session shown first'], context: ['a message of the session shown first'], send: false, branch: false });
    assert.match(before.target, /^Replying at \S+, on branch main\.$/);
    const t0 = Date.now();
    await page.evaluate(() => (document.querySelector('#panel').sessionId = 'slow'));
    await panel.locator('.head .stats', { hasText: 'opening…' }).waitFor({ timeout: 10_000 });
    const waited = Date.now() - t0;
    assert.ok(waited >= OPENING_MS - 20, `emptied after ${waited} ms, not before OPENING_MS (${OPENING_MS})`);
    if (persist) {
      // The stored records read meanwhile: title, node count and the path's messages, read-only.
      await panel.locator('.messages .message-body', { hasText: 'its answer' }).waitFor();
      assert.deepEqual(await shown(), { title: 'Slow to open', stats: '2 nodes · opening…', rows: [], context: ['the slow session', 'its answer'], send: true, branch: true, target: 'Opening the session…' });
    } else {
      assert.deepEqual(await shown(), { title: 'slow', stats: 'opening…', rows: [], context: [], send: true, branch: true, target: 'Opening the session…' });
    }
    /** The rows pane's note (null when hidden) and its stored rows (role and preview) shown. */
    const note = () => page.evaluate(() => {
      const root = document.querySelector('#panel').shadowRoot;
      const n = root.querySelector('.empty-tree');
      const list = root.querySelector('.stored-rows');
      return { note: n.hidden ? null : n.textContent, stored: list.hidden ? [] : [...list.querySelectorAll('.stored-row')].map((r) => `${r.querySelector('.role').textContent}: ${r.querySelector('.preview').textContent}${r.classList.contains('cursor') ? ' ●' : ''}`) };
    });
    assert.deepEqual(await note(), persist
      ? { note: 'Reading its 2 nodes… Its last 2 nodes to the cursor, as stored:', stored: ['user: the slow session', 'assistant: its answer ●'] }
      : { note: 'Opening the session…', stored: [] });
    await page.evaluate(() => window.release());
    await panel.locator('.row .preview', { hasText: 'its answer' }).waitFor();
    await panel.locator('.messages .message-body', { hasText: 'its answer' }).waitFor();
    const after = await shown();
    assert.deepEqual({ ...after, stats: undefined, target: undefined }, { title: 'Slow to open', stats: undefined, target: undefined, rows: ['the slow session', 'its answer'], context: ['the slow session', 'its answer'], send: false, branch: false });
    assert.match(after.target, /^Replying at \S+, on branch main\.$/);
    assert.match(after.stats, /^2 nodes · 1 branch · on main$/);
    assert.deepEqual(await note(), { note: null, stored: [] });
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
}

test('a session slow to open empties the panel after OPENING_MS and names it "opening…"; once it answers its rows and context show', () => slowOpening(false));

test('persisted, a session slow to open shows its title, node count and last nodes as stored, as rows and messages, until it answers', () => slowOpening(true));
