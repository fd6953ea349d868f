// Restore points in the explorer (issue 17, item 5): the dialog lists the
// session's restore points (name, time, node count), saves one, restores
// one after a confirmation that keeps the current state first (nothing is
// lost), all by keyboard with focus given back; a snapshot file of a
// session that already exists is offered as "replace" or "import as a copy".
// Screenshots: e2e/artifacts/restore-*.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup, openExplorer, explorerCall, artifactPath, waitUntil } from './helpers.mjs';

const call = explorerCall;

/** The restore points the dialog lists: [name, meta text]. */
/** The listed restore points, once the list shows n of them (it is drawn after the message). */
async function listed(page, n) {
  await page.waitForFunction((n) => document.querySelectorAll('#restore-list .restore-point').length >= n, n);
  return page.locator('#restore-list .restore-point').evaluateAll((ls) => ls.map((l) => [l.querySelector('.restore-point-name').textContent, l.querySelector('.restore-point-meta').textContent]));
}

test('restore points: save, append, restore by keyboard — the context is the saved one and the state before is kept', async () => {
  for (const [width, height, scheme] of [[1366, 850, 'light'], [1366, 850, 'dark'], [390, 844, 'light'], [390, 844, 'dark']]) {
    const env = await setup({ contextOptions: { viewport: { width, height }, colorScheme: scheme } });
    try {
      const { page, baseURL, errors } = env;
      const panel = await openExplorer(page, baseURL);
      const saved = await call(page, { operation: 'context', sessionId: 'demo' });
      const opener = page.locator('#restore-button');
      await opener.focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: 'Restore points — \u2068Demo: a long weekend in Lisbon\u2069' });
      await dialog.waitFor();
      // The list is read after the dialog opens: its empty state and the
      // focus on the name field come with it.
      await page.locator('#restore-empty').waitFor({ state: 'visible' });
      // The name field has focus: type a name, Enter saves.
      await page.waitForFunction(() => document.activeElement?.id === 'restore-name');
      await page.keyboard.type('Before Porto');
      await page.keyboard.press('Enter');
      await page.locator('#restore-message', { hasText: 'Saved “\u2068Before Porto\u2069” (13 nodes).' }).waitFor();
      const points = await listed(page, 1);
      assert.equal(points.length, 1);
      assert.equal(points[0][0], 'Before Porto');
      assert.match(points[0][1], /^\d\d:\d\d · 13 nodes$/);
      await page.screenshot({ path: artifactPath(`restore-dialog-${width}x${height}-${scheme}.png`) });
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      assert.equal(await page.evaluate(() => document.activeElement.id), 'restore-button');

      // Append: the session moves on.
      await call(page, { operation: 'append', sessionId: 'demo', message: { role: 'user', content: 'And a day in Porto?' } });
      await panel.locator('.head .stats', { hasText: '14 nodes' }).waitFor({ state: 'attached' });
      assert.notDeepEqual(await call(page, { operation: 'context', sessionId: 'demo' }), saved);

      // Restore by keyboard: the confirmation offers to keep the current state (checked).
      await opener.focus();
      await page.keyboard.press('Enter');
      await dialog.waitFor();
      // The dialog reads its list, then focuses the name field: wait for
      // both, or the button focused here is drawn again or loses focus.
      await listed(page, 1);
      await page.waitForFunction(() => document.activeElement?.id === 'restore-name');
      await page.locator('#restore-list button', { hasText: 'Restore…' }).focus();
      await page.keyboard.press('Enter');
      const confirm = page.getByRole('alertdialog', { name: 'Restore this point?' });
      await confirm.waitFor();
      assert.equal(await page.locator('#restore-confirm-text').textContent(), 'Bring back “\u2068Before Porto\u2069” (13 nodes)? The session (now 14 nodes) becomes what it was then.');
      assert.equal(await page.locator('#restore-keep').isChecked(), true);
      assert.equal(await page.evaluate(() => document.activeElement.value), 'restore');
      await page.screenshot({ path: artifactPath(`restore-confirm-${width}x${height}-${scheme}.png`) });
      await page.keyboard.press('Enter');
      await confirm.waitFor({ state: 'hidden' });
      await page.locator('#restore-message', { hasText: /^Restored “\u2068Before Porto\u2069”\. The state before is kept as “\u2068Before restoring / }).waitFor();
      // The list is drawn anew with the point kept: focus, on the button that went, goes to the restored point's (it fell to <body>).
      await listed(page, 2);
      assert.deepEqual(await page.evaluate(() => [document.activeElement.closest('#restore-dialog') !== null, document.activeElement.closest('.restore-point')?.dataset.name]), [true, 'Before Porto']);
      assert.deepEqual(await call(page, { operation: 'context', sessionId: 'demo' }), saved);
      await panel.locator('.head .stats', { hasText: '13 nodes' }).waitFor({ state: 'attached' });
      // Nothing lost: the state before the restore is a restore point of 14 nodes.
      const after = await listed(page, 2);
      assert.equal(after.length, 2);
      assert.match(after[0][0], /^Before restoring \d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      assert.match(after[0][1], / · 14 nodes$/);
      assert.equal(after[1][0], 'Before Porto');
      const stored = await page.evaluate(() => window.explorer.tree.listSnapshots('demo'));
      assert.deepEqual(stored.value.map((p) => p.nodeCount), [13, 14]);
      // Saved with no name typed: named by the local time, as the field's placeholder says.
      await page.locator('#restore-name').fill('');
      await page.locator('#restore-save button[type="submit"]').click();
      await page.locator('#restore-message', { hasText: /^Saved “\u2068\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\u2069” \(13 nodes\)\.$/ }).waitFor();
      assert.match((await listed(page, 3))[0][0], /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      // Close with the × button: focus goes back to the opener.
      await page.locator('#restore-dialog .icon-button').click();
      await dialog.waitFor({ state: 'hidden' });
      assert.equal(await page.evaluate(() => document.activeElement.id), 'restore-button');
      assert.deepEqual(errors, []);
    } finally {
      await env.close();
    }
  }
});

test('importing a snapshot of an existing session offers replace or a copy; cancel imports nothing', async () => {
  const env = await setup({ contextOptions: { viewport: { width: 390, height: 844 } } });
  try {
    const { page, baseURL, errors } = env;
    const panel = await openExplorer(page, baseURL);
    const text = (await page.evaluate(() => window.explorer.tree.callText({ operation: 'snapshot.save', sessionId: 'demo' }))).replace(/^\{"ok":true,"value":/, '').slice(0, -1);
    const savedContext = await call(page, { operation: 'context', sessionId: 'demo' });
    await call(page, { operation: 'append', sessionId: 'demo', message: { role: 'user', content: 'Something new' } });
    const file = { name: 'demo.snapshot.json', mimeType: 'application/json', buffer: Buffer.from(text) };
    const choice = page.getByRole('dialog', { name: 'This session is already here' });

    // Replace: the session becomes the file's, the state before is a restore point.
    await page.locator('#import-file').setInputFiles(file);
    await choice.waitFor();
    assert.equal(await page.locator('#snapshot-choice-text').textContent(), 'This snapshot is of “\u2068Demo: a long weekend in Lisbon\u2069” (demo), already a session here (14 nodes; 13 in the file).');
    await page.screenshot({ path: artifactPath('restore-import-choice-390x844-light.png') });
    await choice.getByRole('button', { name: 'Replace it' }).click();
    await page.locator('#report-title', { hasText: 'Replaced 1 session' }).waitFor();
    assert.match(await page.locator('#report-sessions .report-session-size').textContent(), /^13 nodes · \d+ branches · replaced$/);
    assert.match(await page.locator('#report-sessions .report-session-note').textContent(), /^The state before is kept as restore point “\u2068Before import [^”\u2069]+\u2069”\.$/);
    assert.equal(await page.locator('#report-warnings-title').isHidden(), true, 'a replace asked for is no warning');
    assert.equal(await page.locator('#report-demo').isHidden(), true, 'nothing new was made: no offer to move the demo away');
    assert.deepEqual(await call(page, { operation: 'context', sessionId: 'demo' }), savedContext);
    const kept = await page.evaluate(() => window.explorer.tree.listSnapshots('demo'));
    assert.deepEqual(kept.value.map((p) => p.nodeCount), [14]);
    assert.match(kept.value[0].name, /^Before import /);

    // A copy: a new session beside it, titled as a copy.
    await page.locator('#report-close').click();
    await page.locator('#import-file').setInputFiles(file);
    await choice.waitFor();
    assert.equal(await page.evaluate(() => document.activeElement.value), 'copy');
    await page.keyboard.press('Enter'); // "Import as a copy" has focus
    await page.locator('#report-title', { hasText: 'Imported 1 session' }).waitFor();
    assert.equal(await page.locator('#report-sessions .report-session-title').textContent(), 'Demo: a long weekend in Lisbon (copy)', 'the report names the copy');
    const sessions = await call(page, { operation: 'sessions' });
    assert.deepEqual(sessions.map((s) => [s.sessionId, s.nodeCount]).sort(), [['demo', 13], ['demo-copy', 13]]);
    await page.locator('#tab-sessions').click();
    const copy = page.locator('#session-list .session[data-session-id="demo-copy"]');
    assert.equal(await copy.locator('.session-title').textContent(), 'Demo: a long weekend in Lisbon (copy)');
    assert.equal(await copy.locator('.session-id').textContent(), 'demo-copy');
    assert.equal(sessions.find((s) => s.sessionId === 'demo-copy').title, 'Demo: a long weekend in Lisbon (copy)', 'the copy\'s title is core\'s');
    await page.locator('#tab-tree').click();
    await panel.locator('.row.cursor').waitFor();

    // Cancel: nothing imported, the reason said.
    await page.locator('#report-close').click();
    await page.locator('#import-file').setInputFiles(file);
    await choice.waitFor();
    await page.keyboard.press('Escape');
    await page.locator('#report-title', { hasText: 'Nothing imported' }).waitFor();
    assert.match(await page.locator('#report-skipped').textContent(), /already a session here; you chose to import nothing/);
    assert.equal((await call(page, { operation: 'sessions' })).length, 2);
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('restore points: saving under a name that exists asks first, naming the older point; Cancel keeps it, Replace it replaces it', async () => {
  for (const [width, height, scheme] of [[1366, 800, 'light'], [390, 844, 'dark']]) {
    const env = await setup({ contextOptions: { viewport: { width, height }, colorScheme: scheme } });
    try {
      const { page, baseURL, errors } = env;
      const panel = await openExplorer(page, baseURL);
      const save = async () => {
        await page.locator('#restore-name').fill('before edit');
        await page.locator('#restore-name').press('Enter');
      };
      await page.locator('#restore-button').click();
      await page.locator('#restore-dialog[open]').waitFor();
      await save();
      await page.locator('#restore-message', { hasText: 'Saved “\u2068before edit\u2069” (13 nodes).' }).waitFor();
      await call(page, { operation: 'append', sessionId: 'demo', message: { role: 'user', content: 'And a day in Porto?' } });
      await panel.locator('.head .stats', { hasText: '14 nodes' }).waitFor({ state: 'attached' });

      // The same name again: asked, the older point named with its node count and time.
      await save();
      const ask = page.getByRole('alertdialog', { name: 'Replace this restore point?' });
      await ask.waitFor();
      assert.match(await page.locator('#replace-point-text').textContent(), /^A restore point named “\u2068before edit\u2069” already exists \(13 nodes, saved \d\d:\d\d\)\. Replace it with the session as it is now \(14 nodes\)\? The older one is then gone\.$/);
      assert.equal(await page.evaluate(() => document.activeElement.value), 'cancel', 'Cancel, which keeps the point, has focus');
      await page.screenshot({ path: artifactPath(`restore-replace-${width}x${height}-${scheme}.png`) });
      await page.keyboard.press('Enter'); // Cancel
      await ask.waitFor({ state: 'hidden' });
      await page.locator('#restore-message', { hasText: 'Not saved: “\u2068before edit\u2069” is kept as it was. Type another name to keep both.' }).waitFor();
      assert.equal(await page.evaluate(() => document.activeElement.id), 'restore-name');
      let points = await listed(page, 1);
      assert.deepEqual(points.map(([name, meta]) => [name, meta.replace(/^\S+ · /, '')]), [['before edit', '13 nodes']], 'the older point is kept');

      // Again, Replace it: one point of that name, the session as it is now.
      await save();
      await ask.waitFor();
      await ask.getByRole('button', { name: 'Replace it' }).click();
      await page.locator('#restore-message', { hasText: 'Saved “\u2068before edit\u2069” (14 nodes).' }).waitFor();
      await page.waitForFunction(() => document.querySelector('#restore-list .restore-point-meta')?.textContent.endsWith('14 nodes'));
      points = await listed(page, 1);
      assert.deepEqual(points.map(([name, meta]) => [name, meta.replace(/^\S+ · /, '')]), [['before edit', '14 nodes']]);

      // A name the API refuses (a pasted tab; past the box's maxlength, set by a script) is said in the page's words, nothing saved.
      assert.equal(await page.locator('#restore-name').getAttribute('maxlength'), '1000');
      for (const bad of ['a\tb', 'x'.repeat(1001)]) {
        await page.locator('#restore-name').evaluate((input, v) => (input.value = v), bad);
        await page.locator('#restore-name').press('Enter');
        await page.locator('#restore-message', { hasText: 'Not saved: a name is at most 1,000 characters, with no control characters. Change it to save.' }).waitFor();
        assert.doesNotMatch(await page.locator('#restore-message').textContent(), /saveSnapshot|argument/);
        await page.locator('#restore-message').evaluate((m) => (m.textContent = ''));
      }
      points = await listed(page, 1);
      assert.deepEqual(points.map(([name]) => name), ['before edit'], 'nothing saved');
      assert.deepEqual(errors, []);
    } finally {
      await env.close();
    }
  }
});

test('restore points the page names (the state kept before a restore) never replace one of the same name: two within one second get " (2)"', async () => {
  const env = await setup();
  try {
    const { page, baseURL, errors } = env;
    const panel = await openExplorer(page, baseURL);
    // Points named as the page would name the state kept before a restore,
    // at each second of the next 20, all of the session as it is (13 nodes).
    const taken = await page.evaluate(async () => {
      const tree = window.explorer.tree;
      await tree.saveSnapshot('demo', 'base');
      const pad = (n) => String(n).padStart(2, '0');
      const names = [];
      for (let s = 0; s < 20; s++) {
        const d = new Date(Date.now() + s * 1000);
        names.push(`Before restoring ${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`);
      }
      for (const name of names) await tree.saveSnapshot('demo', name);
      return names;
    });
    await call(page, { operation: 'append', sessionId: 'demo', message: { role: 'user', content: 'And a day in Porto?' } });
    await panel.locator('.head .stats', { hasText: '14 nodes' }).waitFor({ state: 'attached' });
    await page.locator('#restore-button').click();
    await page.locator('#restore-dialog[open]').waitFor();
    await listed(page, 21);
    await page.locator('#restore-list .restore-point', { has: page.locator('.restore-point-name', { hasText: /^base$/ }) }).locator('button', { hasText: 'Restore…' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Restore this point?' });
    await confirm.waitFor();
    assert.equal(await page.locator('#restore-keep').isChecked(), true);
    await confirm.locator('button[value=restore]').click();
    const message = page.locator('#restore-message', { hasText: /^Restored “\u2068base\u2069”\. The state before is kept as “\u2068Before restoring .* \(2\)\u2069”\.$/ });
    await message.waitFor();
    const points = (await page.evaluate(() => window.explorer.tree.listSnapshots('demo'))).value;
    const byName = new Map(points.map((p) => [p.name, p.nodeCount]));
    for (const name of taken) assert.equal(byName.get(name), 13, `${name} is still the 13-node state`);
    const kept = points.filter((p) => / \(2\)$/.test(p.name));
    assert.equal(kept.length, 1);
    assert.equal(kept[0].nodeCount, 14, 'the state before the restore, under a free name');
    assert.ok(taken.includes(kept[0].name.slice(0, -4)), `${kept[0].name} is one of the taken names with " (2)"`);
    assert.equal(points.length, 22);
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('restore points: Enter pressed twice, or Save clicked twice, saves one point; the field typed in again saves again', async () => {
  const env = await setup({ contextOptions: { viewport: { width: 1280, height: 800 } } });
  try {
    const { page, baseURL, errors } = env;
    await openExplorer(page, baseURL);
    await page.locator('#restore-button').click();
    await page.locator('#restore-dialog[open]').waitFor();
    await page.waitForFunction(() => document.activeElement?.id === 'restore-name');
    const names = async () => (await page.evaluate(() => window.explorer.tree.listSnapshots('demo'))).value.map((p) => p.name);
    // The second Enter comes after the first save ended (a save takes ~10 ms): the field it emptied is not saved under the time.
    await page.keyboard.type('Twice');
    await page.keyboard.press('Enter');
    await page.locator('#restore-message', { hasText: 'Saved “\u2068Twice\u2069”' }).waitFor();
    await page.keyboard.press('Enter');
    await page.waitForTimeout(300);
    assert.deepEqual(await names(), ['Twice']);
    // A name typed at once is meant: Enter saves it.
    await page.keyboard.type('Then');
    await page.keyboard.press('Enter');
    await page.locator('#restore-message', { hasText: 'Saved “\u2068Then\u2069”' }).waitFor();
    // A double click on Save: one point.
    await page.keyboard.type('Clicked');
    await page.locator('#restore-save button[type="submit"]').dblclick();
    await page.locator('#restore-message', { hasText: 'Saved “\u2068Clicked\u2069”' }).waitFor();
    await page.waitForTimeout(300);
    assert.deepEqual(await names(), ['Twice', 'Then', 'Clicked']);
    // Later, Save with the field empty saves a point named by the time, as before.
    await page.waitForTimeout(600);
    await page.locator('#restore-save button[type="submit"]').click();
    await page.locator('#restore-message', { hasText: /^Saved “\u2068\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\u2069”/ }).waitFor();
    assert.equal((await names()).length, 4);
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('restore points: two restores confirmed in one turn keep the states before under two names', async () => {
  const env = await setup({ contextOptions: { viewport: { width: 1280, height: 800 } } });
  try {
    const { page, baseURL, errors } = env;
    const panel = await openExplorer(page, baseURL);
    await page.evaluate(() => window.explorer.tree.saveSnapshot('demo', 'base'));
    await call(page, { operation: 'append', sessionId: 'demo', message: { role: 'user', content: 'And a day in Porto?' } });
    await panel.locator('.head .stats', { hasText: '14 nodes' }).waitFor({ state: 'attached' });
    await page.locator('#restore-button').click();
    await page.locator('#restore-dialog[open]').waitFor();
    await listed(page, 1);
    // Restore… pressed twice before its confirmation opened: one confirmation answers both.
    await page.evaluate(() => {
      const b = document.querySelector('#restore-list button[data-name="base"]');
      b.click();
      b.click();
    });
    const confirm = page.getByRole('alertdialog', { name: 'Restore this point?' });
    await confirm.waitFor();
    await confirm.locator('button[value=restore]').click();
    await waitUntil(page, async () => (await window.explorer.tree.listSnapshots('demo')).value.length >= 3, undefined, { timeout: 10_000 });
    const points = (await page.evaluate(() => window.explorer.tree.listSnapshots('demo'))).value;
    const kept = points.filter((p) => p.name.startsWith('Before restoring '));
    assert.equal(kept.length, 2, points.map((p) => p.name).join(', '));
    assert.notEqual(kept[0].name, kept[1].name);
    assert.equal(kept[0].nodeCount, 14, 'the state before the first restore');
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});

test('restore points: a restore clears the composer\'s line about a message the restored session no longer holds', async () => {
  for (const [width, height] of [[1280, 800], [390, 844]]) {
    const env = await setup({ contextOptions: { viewport: { width, height } } });
    try {
      const { page, baseURL, errors } = env;
      const panel = await openExplorer(page, baseURL);
      if (width < 700) await page.locator('#tab-context').click();
      await page.evaluate(() => window.explorer.tree.saveSnapshot('demo', 'base'));
      await panel.locator('.composer-text').fill('And a day in Porto?');
      await panel.locator('.composer-send').click();
      const result = panel.locator('.composer-result');
      await result.filter({ hasText: /^User message \w+ sent to branch main\.$/ }).waitFor();
      await page.locator('#restore-button').click();
      await page.locator('#restore-dialog[open]').waitFor();
      await listed(page, 1);
      await page.locator('#restore-list button[data-name="base"]').click();
      await page.getByRole('alertdialog', { name: 'Restore this point?' }).locator('button[value=restore]').click();
      await page.locator('#restore-message', { hasText: 'Restored' }).waitFor();
      await page.locator('#restore-dialog .icon-button').click();
      await panel.locator('.head .stats', { hasText: '13 nodes' }).waitFor({ state: 'attached' });
      await page.waitForFunction(() => document.querySelector('#panel').shadowRoot.querySelector('.composer-result').textContent === '', undefined, { timeout: 10_000 });
      await page.screenshot({ path: artifactPath(`restore-composer-${width}x${height}.png`) });
      // The next message sent is said again.
      await panel.locator('.composer-text').fill('And a day in Coimbra?');
      await panel.locator('.composer-send').click();
      await result.filter({ hasText: /^User message \w+ sent to branch main\.$/ }).waitFor();
      assert.deepEqual(errors, []);
    } finally {
      await env.close();
    }
  }
});
