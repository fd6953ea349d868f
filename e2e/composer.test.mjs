// Write in the explorer (issue 17, item 4): the composer under the context
// pane appends a user, assistant or note message at the session's cursor
// (Send, Ctrl+Enter); after Branch… the message goes on the named branch,
// after Fork into the fork, from a preview it continues from the previewed
// node; the UI names the branch each message went to; empty text gives a
// visible, non-blocking message; every control is reachable by Tab and
// labelled. Screenshots: e2e/artifacts/composer-*.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup, artifactPath, explorerCall, openExplorer } from './helpers.mjs';

const call = explorerCall;

/** The demo's rows, and the id of the first row whose preview starts with a text. */
async function demoRows(page, sessionId = 'demo') {
  const { rows } = await call(page, { operation: 'tree', sessionId });
  return { rows, byText: (t) => rows.find((r) => r.preview.startsWith(t)).id };
}

/** The composer's result line once it says something matching re. */
async function result(panel, re) {
  const line = panel.locator('.composer-result', { hasText: re });
  await line.waitFor();
  return line.textContent();
}

test('composer: a user then an assistant message at the cursor, kept after a reload', async () => {
  const env = await setup({ contextOptions: { viewport: { width: 1366, height: 850 } } });
  try {
    const { page, baseURL, errors } = env;
    let panel = await openExplorer(page, baseURL);
    const { byText } = await demoRows(page);
    const stay = byText('Stay in Baixa');
    const before = await call(page, { operation: 'context', sessionId: 'demo' });
    assert.equal(before.cursor, stay);
    assert.equal(await panel.locator('.composer-target').textContent(), `Replying at ${stay}, on branch main.`);

    // A user message by the Send button.
    await panel.locator('.composer-text').fill('Which **museum** first?');
    await panel.locator('.composer-send').click();
    const sent = await result(panel, /^User message \S+ sent to branch main\.$/);
    const userId = sent.split(' ')[2];
    await panel.locator(`.row.cursor[data-node-id="${userId}"]`).waitFor();
    assert.equal(await panel.locator('.composer-text').inputValue(), '');
    await panel.locator(`.messages .message[data-node-id="${userId}"]`).waitFor(); // drawn after the row
    assert.equal(await panel.locator('.messages .message').last().getAttribute('data-node-id'), userId);
    assert.equal(await panel.locator('.messages .message').last().locator('.message-body strong').textContent(), 'museum');

    // An assistant message by Ctrl+Enter, the role picked by keyboard.
    await panel.locator('.composer-role').focus();
    await page.keyboard.press('ArrowDown'); // user → assistant
    assert.equal(await panel.locator('.composer-role').inputValue(), 'assistant');
    await panel.locator('.composer-text').focus();
    await page.keyboard.type('The Gulbenkian.');
    await page.keyboard.press('Control+Enter');
    const sent2 = await result(panel, /^Assistant message \S+ sent to branch main\.$/);
    const asstId = sent2.split(' ')[2];
    await panel.locator(`.row.cursor[data-node-id="${asstId}"]`).waitFor();
    assert.equal(await panel.locator('.composer-target').textContent(), `Replying at ${asstId}, on branch main.`);

    // A note: in the tree and the context pane, never in the model's context.
    await panel.locator('.composer-role').selectOption('note');
    await panel.locator('.composer-text').fill('check opening hours');
    await page.keyboard.press('Control+Enter');
    const sent3 = await result(panel, /^Note \S+ sent to branch main\.$/);
    const noteId = sent3.split(' ')[1];
    await panel.locator(`.row.cursor[data-node-id="${noteId}"]`).waitFor();
    // The context pane is drawn after the row: wait for the note there, then read the last message.
    await panel.locator(`.messages .message[data-node-id="${noteId}"]`).waitFor();
    const last = panel.locator('.messages .message').last();
    assert.deepEqual([await last.getAttribute('data-node-id'), await last.locator('.role').textContent(), await last.locator('.message-body').textContent()], [noteId, 'note', 'check opening hours']);
    const ctx = await call(page, { operation: 'context', sessionId: 'demo' });
    assert.equal(ctx.cursor, noteId);
    assert.deepEqual(ctx.messages.slice(before.messages.length), [
      { role: 'user', content: 'Which **museum** first?' },
      { role: 'assistant', content: 'The Gulbenkian.' },
    ]);
    await page.screenshot({ path: artifactPath('composer-1366x850.png') });

    // After a reload the rows and the context are still there.
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    panel = page.locator('#panel');
    await panel.locator(`.row.cursor[data-node-id="${noteId}"]`).waitFor();
    for (const id of [userId, asstId]) await panel.locator(`.row[data-node-id="${id}"]`).waitFor();
    assert.deepEqual(await call(page, { operation: 'context', sessionId: 'demo' }), ctx);
    const nodes = await call(page, { operation: 'list', sessionId: 'demo' });
    assert.deepEqual(
      nodes.slice(-3).map((n) => [n.id, n.parentId, n.branch, n.kind]),
      [
        [userId, stay, 'main', 'message'],
        [asstId, userId, 'main', 'message'],
        [noteId, asstId, 'main', 'custom'],
      ],
    );
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('composer: after Branch… the message goes on the named branch, which shows before it has a node', async () => {
  const env = await setup({ contextOptions: { viewport: { width: 1366, height: 850 } } });
  try {
    const { page, baseURL, errors } = env;
    const panel = await openExplorer(page, baseURL);
    const { byText } = await demoRows(page);
    const plan = byText('Three days is'); // an earlier node on main, not its tip
    await panel.locator(`.row[data-node-id="${plan}"]`).click();
    await panel.locator('.act-branch').click();
    await panel.locator('.prompt-dialog[open] input').fill('idea-2');
    await page.keyboard.press('Enter');
    await panel.locator('.head .stats', { hasText: 'on idea-2' }).waitFor();
    // The empty branch shows at the cursor and in the composer's line.
    await panel.locator(`.row.cursor[data-node-id="${plan}"] .branch.pending`, { hasText: 'idea-2 (empty)' }).waitFor();
    assert.equal(await panel.locator('.composer-target').textContent(), `Replying at ${plan}, on the new branch idea-2 (no message yet: this one is its first).`);
    await page.screenshot({ path: artifactPath('composer-branch.png') });
    // It is kept: after a reload it is still the active branch, still shown.
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    await panel.locator(`.row.cursor[data-node-id="${plan}"] .branch.pending`, { hasText: 'idea-2 (empty)' }).waitFor();
    assert.equal((await call(page, { operation: 'session', sessionId: 'demo' })).activeBranch, 'idea-2');

    await panel.locator('.composer-text').fill('What about Belém instead?');
    await page.keyboard.press('Control+Enter');
    const sent = await result(panel, /^User message \S+ sent to branch idea-2 \(its first message\)\.$/);
    const id = sent.split(' ')[2];
    await panel.locator(`.row.cursor[data-node-id="${id}"] .branch`, { hasText: 'idea-2' }).waitFor();
    assert.equal(await panel.locator('.branch.pending').count(), 0);
    const branches = await call(page, { operation: 'branches', sessionId: 'demo' });
    const b = branches.find((x) => x.name === 'idea-2');
    assert.deepEqual([b.tip, b.base, b.nodeCount, b.active], [id, plan, 1, true]);
    const { rows } = await call(page, { operation: 'tree', sessionId: 'demo' });
    const row = rows.find((r) => r.id === id);
    assert.deepEqual([row.parentId, row.branch, row.cursor, row.tipOf], [plan, 'idea-2', true, 'idea-2']);

    // Another empty branch left by Continue from here is said, not dropped in silence.
    await panel.locator(`.row[data-node-id="${plan}"]`).click();
    await panel.locator('.act-branch').click();
    await panel.locator('.prompt-dialog[open] input').fill('idea-3');
    await page.keyboard.press('Enter');
    await panel.locator('.head .stats', { hasText: 'on idea-3' }).waitFor();
    await panel.locator(`.row[data-node-id="${id}"]`).click();
    assert.match(await panel.locator('.composer-target').textContent(), /The empty branch idea-3 is left \(it has no message\)\.$/);
    await panel.locator('.preview-continue').click();
    await panel.locator('.composer-result', { hasText: 'The empty branch idea-3 was left: it had no message yet.' }).waitFor();
    assert.equal((await call(page, { operation: 'session', sessionId: 'demo' })).activeBranch, 'idea-2');

    // Branch + summary: the message follows the summary node, on its branch.
    await panel.locator(`.row[data-node-id="${plan}"]`).click();
    await panel.locator('.act-summary').click();
    await panel.locator('.prompt-dialog[open] input').fill('recap');
    await panel.locator('.prompt-dialog[open] button[type="submit"]').click();
    await panel.locator('.head .stats', { hasText: 'on recap' }).waitFor();
    const summary = (await call(page, { operation: 'session', sessionId: 'demo' })).cursor;
    assert.equal(await panel.locator('.composer-target').textContent(), `Replying at ${summary}, on branch recap.`);
    await panel.locator('.composer-text').fill('Go on from the recap.');
    await page.keyboard.press('Control+Enter');
    const sent2 = await result(panel, /^User message \S+ sent to branch recap\.$/);
    const after = (await call(page, { operation: 'list', sessionId: 'demo' })).find((n) => n.id === sent2.split(' ')[2]);
    assert.deepEqual([after.parentId, after.branch], [summary, 'recap']);
    assert.equal((await call(page, { operation: 'list', sessionId: 'demo' })).find((n) => n.id === summary).parentId, plan);
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('composer: from a preview, Send continues from the previewed node; Fork then compose writes in the fork', async () => {
  const env = await setup({ contextOptions: { viewport: { width: 1366, height: 850 } } });
  try {
    const { page, baseURL, errors } = env;
    const panel = await openExplorer(page, baseURL);
    const { rows, byText } = await demoRows(page);
    const budgetTip = rows.find((r) => r.tipOf === 'budget').id;
    await panel.locator(`.row[data-node-id="${budgetTip}"]`).click();
    await panel.locator('.preview-bar').waitFor();
    assert.equal(await panel.locator('.composer-target').textContent(), `Previewing: Send continues from ${budgetTip} (the session's cursor moves there), on branch budget.`);
    await panel.locator('.composer-text').fill('And in June?');
    await panel.locator('.composer-send').click();
    const sent = await result(panel, /^User message \S+ sent to branch budget\.$/);
    const id = sent.split(' ')[2];
    await panel.locator(`.row.cursor[data-node-id="${id}"]`).waitFor();
    assert.equal(await panel.locator('.preview-bar').isHidden(), true);
    const st = await call(page, { operation: 'session', sessionId: 'demo' });
    assert.deepEqual([st.cursor, st.activeBranch], [id, 'budget']);

    // Previewing a node that is not a branch's tip: a new branch opens from it.
    const plan = byText('Three days is');
    await panel.locator(`.row[data-node-id="${plan}"]`).click();
    assert.equal(await panel.locator('.composer-target').textContent(), `Previewing: Send continues from ${plan} (the session's cursor moves there), on a new branch from main (not its newest node).`);

    // Fork at the plan, then write in the fork.
    const demoCount = (await call(page, { operation: 'session', sessionId: 'demo' })).nodeCount;
    await panel.locator('.act-fork').click();
    await page.waitForFunction(() => document.querySelector('#panel').sessionId !== 'demo' && document.querySelector('#panel')._value?.sessionId === document.querySelector('#panel').sessionId);
    const forkId = await panel.evaluate((p) => p.sessionId);
    await panel.locator('.composer-target', { hasText: `Replying at ${plan}, on branch main.` }).waitFor();
    await panel.locator('.composer-text').fill('Only one day in Alfama, please.');
    await page.keyboard.press('Control+Enter');
    const sent2 = await result(panel, /^User message \S+ sent to branch main\.$/);
    const forkNode = sent2.split(' ')[2];
    await panel.locator(`.row.cursor[data-node-id="${forkNode}"]`).waitFor();
    const forkList = await call(page, { operation: 'list', sessionId: forkId });
    assert.deepEqual([forkList.at(-1).id, forkList.at(-1).parentId], [forkNode, plan]);
    assert.equal((await call(page, { operation: 'session', sessionId: 'demo' })).nodeCount, demoCount);
    assert.equal((await call(page, { operation: 'list', sessionId: 'demo' })).some((n) => n.id === forkNode), false);
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('composer: empty text gives a visible message and appends nothing; every control by keyboard, labelled', async () => {
  const env = await setup({ contextOptions: { viewport: { width: 1366, height: 850 } } });
  try {
    const { page, baseURL, errors } = env;
    const panel = await openExplorer(page, baseURL);
    const count = (await call(page, { operation: 'session', sessionId: 'demo' })).nodeCount;
    await panel.locator('.composer-text').fill('   \n ');
    await panel.locator('.composer-send').click();
    const line = panel.locator('.composer-result.error');
    await line.waitFor();
    assert.equal(await line.textContent(), 'Nothing to send: write a message first.');
    assert.equal(await line.getAttribute('role'), 'status');
    assert.equal(await panel.evaluate((p) => p.shadowRoot.activeElement?.className), 'composer-text');
    assert.equal((await call(page, { operation: 'session', sessionId: 'demo' })).nodeCount, count);
    // Typing clears the message.
    await page.keyboard.type('x');
    await line.waitFor({ state: 'detached' });
    assert.equal(await panel.locator('.composer-result').textContent(), '');
    await page.screenshot({ path: artifactPath('composer-empty.png') });

    // Labels and ARIA.
    const attrs = await panel.evaluate((p) => {
      const sr = p.shadowRoot;
      const get = (sel) => sr.querySelector(sel);
      const target = get('.composer-target');
      return {
        form: get('.composer').getAttribute('aria-label'),
        text: [get('.composer-text').getAttribute('aria-label'), get('.composer-text').getAttribute('aria-describedby') === target.id, get('.composer-text').getAttribute('aria-keyshortcuts')],
        role: get('.composer-role').getAttribute('aria-label'),
        send: [get('.composer-send').textContent, get('.composer-send').type],
        options: [...get('.composer-role').options].map((o) => o.value),
      };
    });
    assert.deepEqual(attrs, {
      form: 'Write a message',
      text: ['Message', true, 'Control+Enter Meta+Enter'],
      role: 'Role of the message',
      send: ['Send', 'submit'],
      options: ['user', 'assistant', 'note'],
    });

    // Tab reaches the text area, the role and Send, in that order, from the page's start.
    await page.locator('#global-search').focus();
    const seen = [];
    for (let k = 0; k < 80 && !seen.includes('composer-send'); k++) {
      await page.keyboard.press('Tab');
      seen.push(await page.evaluate(() => document.activeElement?.shadowRoot?.activeElement?.className ?? document.activeElement?.id ?? ''));
    }
    const at = (c) => seen.indexOf(c);
    assert.ok(at('composer-text') >= 0 && at('composer-text') < at('composer-role') && at('composer-role') < at('composer-send'), `Tab order: ${seen.join(', ')}`);
    // Enter on Send (focused by Tab) sends.
    await panel.locator('.composer-text').fill('sent by keyboard');
    await panel.locator('.composer-send').focus();
    await page.keyboard.press('Enter');
    await result(panel, /^User message \S+ sent to branch main\.$/);
    assert.equal((await call(page, { operation: 'session', sessionId: 'demo' })).nodeCount, count + 1);
    assert.equal(await panel.locator('.composer-text').getAttribute('placeholder'), 'Message… (Ctrl+Enter sends)');
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('composer: on a touch phone the placeholder offers no Ctrl+Enter', async () => {
  const env = await setup({ contextOptions: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } });
  try {
    const { page, baseURL, errors } = env;
    const panel = await openExplorer(page, baseURL);
    assert.equal(await panel.locator('.composer-text').getAttribute('placeholder'), 'Message…');
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('composer: what is typed while a message is sent is the next draft; a message not sent comes back before it', async () => {
  const env = await setup({ contextOptions: { viewport: { width: 1366, height: 850 } } });
  try {
    const { page, baseURL, errors } = env;
    const panel = await openExplorer(page, baseURL);
    const text = panel.locator('.composer-text');
    const count = (await call(page, { operation: 'session', sessionId: 'demo' })).nodeCount;
    // Appends wait until the test lets them go: answered by the store, or with `fail`'s envelope.
    await page.evaluate(() => {
      const tree = window.explorer.tree;
      const call = tree.call.bind(tree);
      tree.call = (request) => {
        if (request?.operation !== 'append') return call(request);
        return new Promise((resolve) => {
          window.__release = (fail) => resolve(fail ? { ok: false, error: fail } : call(request));
        });
      };
    });
    const held = () => page.waitForFunction(() => typeof window.__release === 'function');
    // Send is off until the message before is sent and the panel shows it (a busy machine: a
    // Ctrl+Enter pressed at the result line, before that, did nothing and the next held() timed out).
    const ready = () => panel.locator('.composer-send:not([disabled])').waitFor();
    const release = (fail = null) => page.evaluate((fail) => {
      const go = window.__release;
      window.__release = null;
      go(fail);
    }, fail);

    // Send off (busy) is drawn flat and muted, not in the accent: at half opacity the accent still read as live in the dark theme.
    const look = () => panel.locator('.composer-send').evaluate((b) => [b.disabled, getComputedStyle(b).backgroundColor]);
    const [offBefore, accent] = await look();
    await text.fill('first message');
    await page.keyboard.press('Control+Enter');
    await held();
    assert.equal(await text.inputValue(), '', 'the text area empties as the message goes');
    const [off, offFill] = await look();
    assert.deepEqual([offBefore, off], [false, true]);
    assert.notEqual(offFill, accent, 'Send off keeps no accent fill');
    await page.keyboard.type('second draft, typed while sending');
    await release();
    await result(panel, /^User message \S+ sent to branch main\.$/);
    assert.equal(await text.inputValue(), 'second draft, typed while sending');
    const first = await call(page, { operation: 'context', sessionId: 'demo' });
    assert.equal(first.messages.at(-1).content, 'first message');

    // Not sent: the message comes back, before what was typed meanwhile.
    await ready();
    await text.fill('this one fails');
    await page.keyboard.press('Control+Enter');
    await held();
    await page.keyboard.type('typed meanwhile');
    await release({ code: 'STORAGE_ERROR', message: 'the disk is full (test)' });
    assert.equal(await result(panel, /^Not sent:/), 'Not sent: the disk is full (test)');
    assert.equal(await text.inputValue(), 'this one fails\ntyped meanwhile');
    // Not sent with nothing typed meanwhile: the message alone comes back.
    await ready();
    await text.fill('fails alone');
    await page.keyboard.press('Control+Enter');
    await held();
    await release({ code: 'STORAGE_ERROR', message: 'again (test)' });
    await result(panel, /^Not sent: again \(test\)$/);
    assert.equal(await text.inputValue(), 'fails alone');
    assert.equal((await call(page, { operation: 'session', sessionId: 'demo' })).nodeCount, count + 1, 'only the first message was appended');

    // Another session opened while a message is sent: it goes to the session it was written in,
    // and neither the address nor the other session's rows take its node.
    await call(page, { operation: 'create', sessionId: 'other', title: 'Other' });
    await page.evaluate(() => window.explorer.refresh());
    await ready();
    await text.fill('for the demo');
    await page.keyboard.press('Control+Enter');
    await held();
    await page.locator('#session-list li[data-session-id="other"] .session-button').click();
    await page.waitForFunction(() => document.getElementById('panel').sessionId === 'other' && decodeURIComponent(location.hash) === '#session=other');
    await release();
    await result(panel, /^User message \S+ sent to branch main\.$/);
    assert.equal((await call(page, { operation: 'context', sessionId: 'demo' })).messages.at(-1).content, 'for the demo');
    assert.equal(await page.evaluate(() => decodeURIComponent(location.hash)), '#session=other');
    assert.equal(await page.evaluate(() => document.getElementById('panel').sessionId), 'other');
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});
