// Every dialog of the explorer by keyboard: the restore points, the restore
// confirmation, the replace-or-copy choice of a snapshot import and the
// panel's prompts (Branch…, Branch + summary…, Label…). Each is a modal
// <dialog> (role dialog or alertdialog, aria-modal, :modal), named by its
// heading; opening it moves the focus inside, Tab keeps it inside, Escape
// closes it and the focus goes back to what opened it; cancelling changes
// nothing. The same for the prompt inside the embedding demo's overlay
// drawer (itself a dialog): Escape closes the prompt, then the drawer.
// A refused branch name keeps the prompt open with the reason in it.
// Ctrl+Enter (Cmd+Enter) in the summary box submits Branch + summary….
// Screenshots: e2e/artifacts/dialog-branch-390x844.png, dialog-branch-refused-390x844.png,
// dialog-summary-*.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup, artifactPath, explorerCall, openExplorer } from './helpers.mjs';

const call = explorerCall;

/**
 * What a dialog says about itself, found by selector in the page or in the
 * panel's shadow root: runs in the page.
 */
function describe({ selector, inPanel }) {
  const root = inPanel ? document.querySelector(typeof inPanel === 'string' ? inPanel : '#panel').shadowRoot : document;
  const d = root.querySelector(selector);
  const labelled = d.getAttribute('aria-labelledby');
  const label = labelled ? root.getElementById?.(labelled) ?? root.querySelector(`#${CSS.escape(labelled)}`) : null;
  const active = root.activeElement;
  return {
    tag: d.localName,
    role: d.getAttribute('role') ?? 'dialog', // a <dialog> is role dialog
    open: d.open,
    modal: d.matches(':modal'),
    ariaModal: d.getAttribute('aria-modal'),
    name: (label?.textContent ?? d.getAttribute('aria-label') ?? '').trim(),
    focusInside: active !== null && d.contains(active),
  };
}

/** The focused element's id or class (inside the panel's shadow root when the panel has the focus). */
function focused() {
  const a = document.activeElement;
  const inner = a?.shadowRoot?.activeElement;
  const e = inner ?? a;
  return e?.id || e?.getAttribute('data-action') || e?.className || e?.localName || '';
}

/**
 * Assert a dialog is open, modal, named and holds the focus, and that Tab
 * never reaches the page behind it: the focus stays inside, or passes
 * through the browser's own UI (document.body is then the active element,
 * as a native modal <dialog> does) and comes back in.
 */
async function assertOpen(page, where, { role = 'dialog', name }) {
  const d = await page.evaluate(describe, where);
  assert.deepEqual(d, { tag: 'dialog', role, open: true, modal: true, ariaModal: 'true', name: d.name, focusInside: true }, `${where.selector}: ${JSON.stringify(d)}`);
  assert.match(d.name, name, `${where.selector}: its name`);
  let inside = 0;
  const seen = new Set();
  for (let k = 0; k < 6; k++) {
    await page.keyboard.press('Tab');
    const now = await page.evaluate(describe, where);
    const onBody = await page.evaluate(() => document.activeElement === document.body || document.activeElement === null);
    assert.ok(now.focusInside || onBody, `${where.selector}: Tab ${k + 1} reached ${await page.evaluate(focused)} behind the dialog`);
    if (now.focusInside) inside++;
    seen.add(await page.evaluate(focused));
  }
  assert.ok(inside >= 3, `${where.selector}: Tab came back into the dialog only ${inside} times of 6`);
  assert.ok(seen.size >= 2, `${where.selector}: Tab does not move the focus (${[...seen]})`);
}

/** Press Escape: the dialog closes and the focus is back on `back`. */
async function escapeTo(page, where, back) {
  await page.keyboard.press('Escape');
  await page.waitForFunction(({ selector, inPanel }) => !(inPanel ? document.querySelector(typeof inPanel === 'string' ? inPanel : '#panel').shadowRoot : document).querySelector(selector).open, where);
  assert.equal(await page.evaluate(focused), back, `${where.selector}: the focus after Escape`);
}

test('dialogs: modal, named, focus in and back, Escape closes (restore points, confirmation, snapshot choice, the panel prompts)', async () => {
  const env = await setup({ contextOptions: { viewport: { width: 1366, height: 850 } } });
  try {
    const { page, baseURL, errors } = env;
    const panel = await openExplorer(page, baseURL);

    // Restore points, opened by keyboard.
    const points = { selector: '#restore-dialog' };
    await page.locator('#restore-button').focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.id === 'restore-name');
    await assertOpen(page, points, { name: /^Restore points — \u2068Demo: a long weekend in Lisbon\u2069$/ });
    // Save one by keyboard, then its Restore… opens the confirmation.
    await page.locator('#restore-name').focus();
    await page.keyboard.type('first');
    await page.keyboard.press('Enter');
    const restore = page.locator('#restore-list button[data-name="first"]');
    await restore.waitFor();
    await restore.focus();
    await page.keyboard.press('Enter');
    const confirm = { selector: '#restore-confirm' };
    await page.locator('#restore-confirm[open]').waitFor();
    await assertOpen(page, confirm, { role: 'alertdialog', name: /^Restore this point\?$/ });
    await page.locator('#restore-confirm button[value=cancel]').focus();
    await escapeTo(page, confirm, 'button');
    assert.equal(await page.evaluate(() => document.activeElement.dataset.name), 'first');
    assert.equal(await page.evaluate(() => document.querySelector('#restore-dialog').open), true);
    await escapeTo(page, points, 'restore-button');
    assert.equal((await call(page, { operation: 'session', sessionId: 'demo' })).nodeCount, 13);

    // The replace-or-copy choice of a snapshot of an existing session.
    const text = (await page.evaluate(() => window.explorer.tree.callText({ operation: 'snapshot.save', sessionId: 'demo' }))).replace(/^\{"ok":true,"value":/, '').slice(0, -1);
    await page.locator('#hint-import').focus();
    await page.locator('#import-file').setInputFiles({ name: 'demo.snapshot.json', mimeType: 'application/json', buffer: Buffer.from(text) });
    const choice = { selector: '#snapshot-choice' };
    await page.locator('#snapshot-choice[open]').waitFor();
    await page.waitForFunction(() => document.activeElement?.value === 'copy');
    await assertOpen(page, choice, { name: /^This session is already here$/ });
    await escapeTo(page, choice, 'hint-import');
    await page.locator('#report-title', { hasText: 'Nothing imported' }).waitFor();
    assert.equal((await call(page, { operation: 'sessions' })).length, 1);
    // The import report: Escape inside it closes it, focus goes to Import… (not to <body>).
    await page.locator('#report-close').focus();
    await page.keyboard.press('Escape');
    await page.locator('#import-report').waitFor({ state: 'hidden' });
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'import-button');

    // The panel's prompts, each opened by keyboard from its toolbar button.
    const { rows } = await call(page, { operation: 'tree', sessionId: 'demo' });
    const plan = rows.find((r) => r.preview.startsWith('Three days is')).id;
    // A dialog names the node by its role and the start of its text (not its id).
    const named = 'assistant “\u2068Three days is a good length\\. Friday: Alfama and…\u2069”';
    const before = await call(page, { operation: 'branches', sessionId: 'demo' });
    const prompt = { selector: '.prompt-dialog', inPanel: true };
    for (const [action, name] of [
      ['branch', new RegExp(`^New branch at ${named}$`)],
      ['summary', new RegExp(`^Branch \\+ summary at ${named}$`)],
      ['label', new RegExp(`^Label ${named}$`)],
    ]) {
      await panel.evaluate((p, id) => p.focusNode(id), plan);
      await panel.locator(`.act-${action}`).focus();
      await page.keyboard.press('Enter');
      await panel.locator('.prompt-dialog[open]').waitFor();
      assert.equal(await page.evaluate(focused), 'prompt-input');
      await assertOpen(page, prompt, { name });
      await escapeTo(page, prompt, action);
    }
    assert.deepEqual(await call(page, { operation: 'branches', sessionId: 'demo' }), before);
    assert.equal((await call(page, { operation: 'tree', sessionId: 'demo' })).rows.find((r) => r.id === plan).label ?? '', '');
    // Cancel by its button: the same.
    await panel.locator('.act-branch').focus();
    await page.keyboard.press('Enter');
    await panel.locator('.prompt-dialog[open]').waitFor();
    await panel.locator('.prompt-dialog button', { hasText: 'Cancel' }).click();
    await panel.locator('.prompt-dialog[open]').waitFor({ state: 'detached' });
    assert.equal(await page.evaluate(focused), 'branch');
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('dialogs on a phone: the branch prompt shows over the tree pane and is operable by keyboard', async () => {
  const env = await setup({ contextOptions: { viewport: { width: 390, height: 844 } } });
  try {
    const { page, baseURL, errors } = env;
    const panel = await openExplorer(page, baseURL);
    const { rows } = await call(page, { operation: 'tree', sessionId: 'demo' });
    const plan = rows.find((r) => r.preview.startsWith('Three days is')).id;
    await panel.evaluate((p, id) => p.focusNode(id), plan);
    await panel.locator('.act-branch').focus();
    await page.keyboard.press('Enter');
    await panel.locator('.prompt-dialog[open]').waitFor();
    const box = await panel.locator('.prompt-dialog').boundingBox();
    assert.ok(box.x >= 0 && box.x + box.width <= 390 && box.y >= 0 && box.y + box.height <= 844, `the prompt is on screen: ${JSON.stringify(box)}`);
    await page.screenshot({ path: artifactPath('dialog-branch-390x844.png') });
    // A refused name (the branch exists) keeps the dialog open, the text as
    // typed and the reason under it, the focus on the field; nothing changes.
    const before = await call(page, { operation: 'session', sessionId: 'demo' });
    await page.keyboard.press('Control+A');
    await page.keyboard.type('main');
    await page.keyboard.press('Enter');
    await panel.locator('.prompt-error:not([hidden])').waitFor();
    const refused = await panel.locator('.prompt-dialog').evaluate((d) => ({
      open: d.open,
      value: d.querySelector('.prompt-input').value,
      invalid: d.querySelector('.prompt-input').getAttribute('aria-invalid'),
      focused: d.getRootNode().activeElement === d.querySelector('.prompt-input'),
      error: d.querySelector('.prompt-error').textContent,
      role: d.querySelector('.prompt-error').getAttribute('role'),
    }));
    assert.deepEqual({ ...refused, error: undefined }, { open: true, value: 'main', invalid: 'true', focused: true, error: undefined, role: 'alert' });
    assert.equal(refused.error, 'branch "main" already exists; choose another name or jump to its tip', 'the session is the one shown: not named by its id');
    const errorBox = await panel.locator('.prompt-error').boundingBox();
    assert.ok(errorBox.x >= 0 && errorBox.x + errorBox.width <= 390, `the reason fits the phone: ${JSON.stringify(errorBox)}`);
    await page.screenshot({ path: artifactPath('dialog-branch-refused-390x844.png') });
    assert.deepEqual(await call(page, { operation: 'session', sessionId: 'demo' }), before);
    await page.keyboard.press('Control+A');
    await page.keyboard.type('phone-idea');
    await page.keyboard.press('Enter');
    await panel.locator('.head .stats', { hasText: 'on phone-idea' }).waitFor();
    assert.equal(await panel.locator('.prompt-dialog').evaluate((d) => d.open), false);
    const st = await call(page, { operation: 'session', sessionId: 'demo' });
    assert.deepEqual([st.cursor, st.activeBranch], [plan, 'phone-idea']);
    // The status names the node as the dialog did (its role and first words), not by its id.
    await panel.locator('.status', { hasText: 'Branch phone-idea created at assistant “\u2068Three days is a good length' }).waitFor();
    assert.equal((await panel.locator('.status').textContent()).includes(plan), false);
    // The composer in the context pane says where the next message goes.
    await page.locator('#tab-context').click();
    assert.equal(await panel.locator('.composer-target').textContent(), `Replying at ${plan}, on the new branch phone-idea (no message yet: this one is its first).`);
    // Branch + summary at the first node: the new summary node, the cursor, is scrolled into the tree's view.
    await page.locator('#tab-tree').click();
    const first = rows[0].id;
    await panel.evaluate((p, id) => p.focusNode(id), first);
    await panel.locator('.act-more').click(); // a phone keeps the less-used actions behind More
    await panel.locator('.act-summary').click();
    await panel.locator('.prompt-dialog[open]').waitFor();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('from-the-start');
    await panel.locator('.prompt-dialog button.primary').click();
    await panel.locator('.head .stats', { hasText: 'on from-the-start' }).waitFor();
    const cursor = (await call(page, { operation: 'session', sessionId: 'demo' })).cursor;
    const row = panel.locator(`.row.cursor[data-node-id="${cursor}"]`);
    await row.waitFor();
    // In view once the panel has settled (its reload and the status line come after the click).
    await page.waitForFunction((id) => {
      const p = document.querySelector('#panel');
      const row = p.shadowRoot.querySelector(`.row[data-node-id="${id}"]`);
      if (!row) return false;
      const r = row.getBoundingClientRect();
      const s = p.shadowRoot.querySelector('.scroller').getBoundingClientRect();
      return r.top >= s.top - 1 && r.bottom <= s.bottom + 1;
    }, cursor);
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('dialogs in the overlay drawer: the prompt is modal over the drawer; Escape closes it, then the drawer, focus back each time', async () => {
  const env = await setup({ contextOptions: { viewport: { width: 1366, height: 850 } } });
  try {
    const { page, baseURL, errors } = env;
    await page.goto(baseURL + 'static/chat-demo.html');
    await page.waitForSelector('body[data-ready="true"]');
    const env2 = await page.evaluate(() => window.chatDemo.tree.call({ operation: 'append', sessionId: 'chat-demo', message: { role: 'user', content: 'Hello there' } }));
    assert.equal(env2.ok, true);
    const drawer = page.locator('#drawer');
    await drawer.locator('.toggle').focus();
    await page.keyboard.press('Enter');
    await drawer.locator('.frame').waitFor();
    await drawer.locator(`.row[data-node-id="${env2.value.id}"]`).waitFor();
    const frame = await drawer.evaluate((p) => {
      const f = p.shadowRoot.querySelector('.frame');
      return [f.getAttribute('role'), f.getAttribute('aria-modal'), f.getAttribute('aria-label')];
    });
    assert.deepEqual(frame, ['dialog', 'true', 'Session tree']);
    await drawer.evaluate((p, id) => p.focusNode(id), env2.value.id);
    await drawer.locator('.act-branch').focus();
    await page.keyboard.press('Enter');
    const prompt = { selector: '.prompt-dialog', inPanel: '#drawer' };
    await drawer.locator('.prompt-dialog[open]').waitFor();
    await assertOpen(page, prompt, { name: /^New branch at user “\u2068Hello there\u2069”$/ });
    await escapeTo(page, prompt, 'branch');
    assert.equal(await drawer.evaluate((p) => p.isOpen), true);
    await page.keyboard.press('Escape');
    await drawer.locator('.frame').waitFor({ state: 'hidden' });
    assert.equal(await page.evaluate(focused), 'toggle');
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('the Branch + summary prompt: Enter in the summary is a new line, Ctrl+Enter and Cmd+Enter there create the branch as its button does', async () => {
  for (const [width, height] of [[1280, 800], [390, 844]]) {
    const env = await setup({ contextOptions: { viewport: { width, height } } });
    try {
      const { page, baseURL, errors } = env;
      const panel = await openExplorer(page, baseURL);
      const { rows } = await call(page, { operation: 'tree', sessionId: 'demo' });
      const plan = rows.find((r) => r.preview.startsWith('Three days is')).id;
      for (const [keys, branch] of [['Control+Enter', 'by-ctrl'], ['Meta+Enter', 'by-cmd']]) {
        await panel.evaluate((p, id) => p.focusNode(id), plan);
        if (!(await panel.locator('.act-summary').isVisible())) await panel.locator('.act-more').click();
        await panel.locator('.act-summary').click();
        await panel.locator('.prompt-dialog[open]').waitFor();
        await page.keyboard.press('Control+A');
        await page.keyboard.type(branch);
        await page.keyboard.press('Tab');
        const summary = panel.locator('.prompt-dialog textarea');
        assert.equal(await summary.evaluate((t) => t.getRootNode().activeElement === t), true, 'Tab goes to the summary');
        assert.equal(await summary.getAttribute('aria-keyshortcuts'), 'Control+Enter Meta+Enter');
        await page.keyboard.press('Control+A');
        await page.keyboard.type('Line one');
        await page.keyboard.press('Enter');
        await page.keyboard.type('line two');
        assert.equal(await summary.inputValue(), 'Line one\nline two', 'Enter is a new line');
        if (branch === 'by-ctrl') await page.screenshot({ path: artifactPath(`dialog-summary-${width}x${height}.png`) });
        await page.keyboard.press(keys);
        await panel.locator('.head .stats', { hasText: `on ${branch}` }).waitFor({ timeout: 10_000 });
        assert.equal(await panel.locator('.prompt-dialog').evaluate((d) => d.open), false);
        const st = await call(page, { operation: 'session', sessionId: 'demo' });
        const node = await call(page, { operation: 'node', sessionId: 'demo', nodeId: st.cursor });
        assert.deepEqual([node.kind, node.summary, node.parentId, st.activeBranch], ['summary', 'Line one\nline two', plan, branch]);
      }
      assert.deepEqual(errors, []);
    } finally {
      await env.close();
    }
  }
});
