// <session-tree-panel> following the session's cursor when the app (not
// the panel) moves it: an append, append.many, a jump or a branch made
// through the API, another tab's write, or a session still being seeded
// as the panel mounts. The highlighted row (selectedNodeId, the toolbar's
// actions) was on the cursor: it moves to the new cursor, scrolled into
// view when the old cursor's row was in view (or the list at its end and
// the new row is its last). A row the user highlighted or previews stays,
// and a list scrolled away from the cursor stays where it is.
// Screenshots: e2e/artifacts/panel-follow-{desktop,phone}.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup, artifactPath, waitUntil } from './helpers.mjs';

/**
 * Open the shim page with a tree (persist: in IndexedDB, shared with the
 * context's other pages) and a panel 960 × 420 px on `sessionId`, made
 * with `count` messages first; window.t is the tree, window.p the panel.
 */
async function openPanel(page, baseURL, { sessionId, count, persist = false, width = 960, height = 420 }) {
  await page.goto(baseURL + 'e2e/fixtures/shim.html');
  await page.waitForFunction(() => window.sessiontree !== undefined);
  await page.evaluate(
    async ({ sessionId, count, persist, width, height }) => {
      await import('/static/session-tree-panel.js');
      const t = await window.sessiontree.init({ persist });
      window.t = t;
      if (count > 0) {
        const messages = Array.from({ length: count }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `seed ${i + 1}` }));
        const env = await t.appendMany(sessionId, messages, { create: true });
        if (!env.ok) throw new Error(env.error.message);
      }
      const p = document.createElement('session-tree-panel');
      p.style.cssText = `display:block;width:${width}px;height:${height}px`;
      p.tree = t;
      p.sessionId = sessionId;
      document.body.append(p);
      window.p = p;
    },
    { sessionId, count, persist, width, height },
  );
  await settled(page, null);
}

/**
 * Wait until the panel shows `cursor` as the session's cursor (null: any
 * rows) and no reload is in progress.
 */
async function settled(page, cursor) {
  await waitUntil(page, (c) => window.p._value !== null && (c === null || window.p._value.cursor === c), cursor);
  await page.evaluate(() => window.p.updateComplete);
}

/** The session's cursor, as the store says. */
function storeCursor(page, sessionId) {
  return page.evaluate(async (sid) => (await window.t.call({ operation: 'session', sessionId: sid })).value.cursor, sessionId);
}

/**
 * What the panel shows of its highlight: selectedNodeId, the drawn active
 * row, whether that row lies inside the scroller's box, whether "Continue
 * from here" is disabled, and the scroller's scrollTop.
 */
function highlight(page) {
  return page.evaluate(() => {
    const root = window.p.shadowRoot;
    const scroller = root.querySelector('.scroller');
    const row = root.querySelector('.row.active');
    const box = scroller.getBoundingClientRect();
    const r = row?.getBoundingClientRect();
    return {
      selected: window.p.selectedNodeId,
      row: row?.dataset.nodeId ?? null,
      inView: r !== undefined && r.top >= box.top - 1 && r.bottom <= box.bottom + 1,
      jumpDisabled: root.querySelector('.act-jump').disabled,
      scrollTop: scroller.scrollTop,
    };
  });
}

/**
 * Assert that the highlight followed the cursor to id: selectedNodeId, the
 * active row drawn inside the scroller's box, "Continue from here"
 * disabled (the row is the cursor's). Returns what highlight() read.
 */
async function assertFollowed(page, id) {
  const h = await highlight(page);
  assert.deepEqual({ selected: h.selected, row: h.row, inView: h.inView, jumpDisabled: h.jumpDisabled }, { selected: id, row: id, inView: true, jumpDisabled: true });
  return h;
}

test('an append, append.many, jump and branch made by the app move a highlight that was on the cursor, its row scrolled into view', async () => {
  const env = await setup({ contextOptions: { viewport: { width: 1280, height: 800 } } });
  try {
    const { page, baseURL, errors } = env;
    await openPanel(page, baseURL, { sessionId: 'f', count: 4 });
    const first = await storeCursor(page, 'f');
    assert.equal((await highlight(page)).selected, first, 'the panel opens on the cursor');

    // tree.append, then tree.call({operation: "append"}): each new node is the highlight.
    const appended = await page.evaluate(async () => (await window.t.append('f', { role: 'user', content: 'from the app' })).value.id);
    await settled(page, appended);
    await assertFollowed(page, appended);
    const called = await page.evaluate(async () => (await window.t.call({ operation: 'append', sessionId: 'f', message: { role: 'assistant', content: 'an answer' } })).value.id);
    await settled(page, called);
    await assertFollowed(page, called);

    // append.many: 20 rows more, past the bottom of the list; it scrolls to the new cursor.
    const before = (await highlight(page)).scrollTop;
    await page.evaluate(async () => {
      const messages = Array.from({ length: 20 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `batch ${i + 1}` }));
      const env = await window.t.appendMany('f', messages);
      if (!env.ok) throw new Error(env.error.message);
    });
    const tip = await storeCursor(page, 'f');
    await settled(page, tip);
    const afterMany = await assertFollowed(page, tip);
    assert.ok(afterMany.scrollTop > before, `the list scrolled to the new cursor (${before} → ${afterMany.scrollTop})`);

    // The app jumps back to the first cursor, then makes a branch there: the highlight follows.
    await page.evaluate((id) => window.t.jump('f', id), first);
    await settled(page, first);
    await assertFollowed(page, first);
    await page.evaluate(() => window.t.call({ operation: 'append', sessionId: 'f', message: { role: 'user', content: 'a second path' } }));
    const second = await storeCursor(page, 'f');
    await settled(page, second);
    const branched = await page.evaluate(async (at) => (await window.t.call({ operation: 'branch.summary', sessionId: 'f', nodeId: at, branch: 'side', summary: 'so far' })).value.id, first);
    await settled(page, branched);
    await assertFollowed(page, branched);
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('a row the user previews or highlights stays highlighted when the app appends; a list scrolled away from the cursor is not moved', async () => {
  const env = await setup({ contextOptions: { viewport: { width: 1280, height: 800 } } });
  try {
    const { page, baseURL, errors } = env;
    await openPanel(page, baseURL, { sessionId: 'k', count: 6 });
    const rows = await page.evaluate(() => window.p._value.rows.map((r) => r.id));
    const row = (id) => page.locator('session-tree-panel').locator(`.row[data-node-id="${id}"]`);

    // A click previews row 2: it stays the highlight and the preview stays.
    await row(rows[1]).click();
    await page.locator('session-tree-panel').locator('.preview-bar').waitFor();
    const one = await page.evaluate(async () => (await window.t.append('k', { role: 'user', content: 'while previewing' })).value.id);
    await settled(page, one);
    const previewing = await highlight(page);
    assert.deepEqual([previewing.selected, previewing.row, previewing.jumpDisabled], [rows[1], rows[1], false]);
    assert.equal(await page.evaluate(() => window.p._model.viewNode), rows[1]);

    // Back to the cursor, then the arrow keys highlight row 3 (no preview): it stays too.
    await page.evaluate(() => window.p.clearPreview());
    await page.evaluate((id) => window.p.focusNode(id), rows[2]);
    const two = await page.evaluate(async () => (await window.t.append('k', { role: 'assistant', content: 'while highlighting' })).value.id);
    await settled(page, two);
    assert.equal((await highlight(page)).selected, rows[2]);

    // The cursor's row highlighted again, 30 rows more, the list scrolled to its top:
    // the next append moves the highlight, but not the list.
    await row(two).click();
    await page.evaluate(async () => {
      const messages = Array.from({ length: 30 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `more ${i + 1}` }));
      await window.t.appendMany('k', messages);
    });
    const tip = await storeCursor(page, 'k');
    await settled(page, tip);
    assert.equal((await highlight(page)).selected, tip);
    await page.evaluate(() => {
      window.p.shadowRoot.querySelector('.scroller').scrollTop = 0;
    });
    const three = await page.evaluate(async () => (await window.t.append('k', { role: 'user', content: 'read elsewhere' })).value.id);
    await settled(page, three);
    const away = await highlight(page);
    assert.deepEqual([away.selected, away.jumpDisabled, away.scrollTop, away.inView], [three, true, 0, false]);
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('a session opened shows its cursor row, scrolled into view, and so does another one opened after it', async () => {
  const env = await setup({ contextOptions: { viewport: { width: 1280, height: 800 } } });
  try {
    const { page, baseURL, errors } = env;
    // 60 rows in a 420 px panel: the cursor, the last row, is far below the first screen.
    await openPanel(page, baseURL, { sessionId: 'long', count: 60 });
    const cursor = await storeCursor(page, 'long');
    const opened = await assertFollowed(page, cursor);
    assert.ok(opened.scrollTop > 0, `the list was scrolled down to the cursor (scrollTop ${opened.scrollTop})`);
    await page.evaluate(async () => {
      const messages = Array.from({ length: 60 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `other ${i + 1}` }));
      const env = await window.t.appendMany('other', messages, { create: true });
      if (!env.ok) throw new Error(env.error.message);
      window.p.shadowRoot.querySelector('.scroller').scrollTop = 0; // the user scrolled this one to its root
      window.p.sessionId = 'other';
    });
    const other = await storeCursor(page, 'other');
    await settled(page, other);
    await assertFollowed(page, other);
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('a panel mounted while the app is still seeding its session ends on the last cursor', async () => {
  const env = await setup({ contextOptions: { viewport: { width: 1280, height: 800 } } });
  try {
    const { page, baseURL, errors } = env;
    await openPanel(page, baseURL, { sessionId: 'seed', count: 1 });
    // The panel has drawn the first message; the app goes on appending, one call at a time.
    await page.evaluate(async () => {
      for (let i = 2; i <= 30; i++) await window.t.append('seed', { role: i % 2 ? 'user' : 'assistant', content: `seed ${i}` });
    });
    const tip = await storeCursor(page, 'seed');
    await settled(page, tip);
    await assertFollowed(page, tip);
    await page.screenshot({ path: artifactPath('panel-follow-desktop.png') });
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test("another tab's append moves the highlight of a panel on that session, when this tab follows the stored cursor (phone width)", async () => {
  const env = await setup({ contextOptions: { viewport: { width: 390, height: 760 }, deviceScaleFactor: 2, hasTouch: true } });
  try {
    const { page, baseURL, errors } = env;
    const sessionId = `tabs-${Date.now()}`;
    // The other tab writes the session; this one only shows it, so its cursor is the stored one.
    const other = await env.newPage();
    await other.goto(baseURL + 'e2e/fixtures/shim.html');
    await other.waitForFunction(() => window.sessiontree !== undefined);
    const append = (texts, create = false) =>
      other.evaluate(
        async ({ sid, texts, create }) => {
          window.t ??= await window.sessiontree.init();
          const env = await window.t.appendMany(sid, texts.map((content, i) => ({ role: i % 2 ? 'assistant' : 'user', content })), { create });
          return env.value.nodeIds.at(-1);
        },
        { sid: sessionId, texts, create },
      );
    await append(Array.from({ length: 14 }, (_, i) => `message ${i + 1} of the other tab`), true);
    await openPanel(page, baseURL, { sessionId, count: 0, persist: true, width: 370, height: 740 });
    // The list is as tall as 40 px touch rows allow: the cursor's row is in view at its end.
    assert.equal(await page.evaluate((id) => window.p.focusNode(id), await storeCursor(page, sessionId)), true);
    const id = await append(['from the other tab']);
    await settled(page, id);
    await assertFollowed(page, id);
    await page.locator('session-tree-panel').screenshot({ path: artifactPath('panel-follow-phone.png') });
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('a session past INCREMENTAL_ROWS takes the app\'s append as one row, and the highlight on its cursor follows it into view', async () => {
  const env = await setup({ contextOptions: { viewport: { width: 1280, height: 800 } } });
  try {
    const { page, baseURL, errors } = env;
    await openPanel(page, baseURL, { sessionId: 'big', count: 2500 }); // above the panel's INCREMENTAL_ROWS (2,000)
    const tip = await storeCursor(page, 'big');
    // The list opens at its top; the user goes to the cursor's row (the highlight stays on it).
    assert.equal(await page.evaluate((id) => window.p.focusNode(id), tip), true);
    await page.evaluate(() => {
      window.calls = [];
      const call = window.t.call.bind(window.t);
      window.t.call = (r) => (window.calls.push(r.operation), call(r));
    });
    const id = await page.evaluate(async () => (await window.t.append('big', { role: 'user', content: 'one more' })).value.id);
    await settled(page, id);
    await assertFollowed(page, id);
    assert.deepEqual(await page.evaluate(() => window.calls.filter((op) => op === 'tree.rows' || op === 'tree')), [], 'no whole reload');
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});
