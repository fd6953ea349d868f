// The explorer shows where its data lives (usage and quota from
// navigator.storage.estimate()) and tells the user when this tab can no
// longer save because another tab opened a newer schema; the line follows
// what the sessions hold after a change (a fork, a clone).
// Screenshot: e2e/artifacts/storage-fork.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup, openExplorer, artifactPath } from './helpers.mjs';

test('explorer: storage usage is shown, and a closed database is reported', async () => {
  const env = await setup();
  try {
    const { page, baseURL } = env;
    await page.goto(baseURL + 'static/');
    await page.waitForSelector('body[data-ready="true"]');
    const text = await page.locator('#storage-text').textContent();
    assert.match(text, /^Stored in this browser: \d+(\.\d)? [KMG]?B of \d+(\.\d)? [KMGT]?B( \(\d+(\.\d)? [KMG]?B with the offline app\))? · (kept by the browser|may be cleared under storage pressure)$/);
    // The sessions' part (IndexedDB) is what the line leads with, where Chromium says it.
    const info = await page.evaluate(async () => ({ ...(await window.explorer.tree.storage()), details: (await navigator.storage.estimate()).usageDetails }));
    assert.equal(info.databaseUsage, info.details.indexedDB);
    assert.ok(text.startsWith(`Stored in this browser: ${await page.evaluate((n) => import('/static/explorer-storage.js').then((m) => m.formatBytes(n)), info.databaseUsage)}`), text);
    // Another tab opens the database at a newer version: this tab closes its
    // connection and says so.
    await page.evaluate(() => new Promise((resolve, reject) => {
      const req = indexedDB.open('sessiontree', 99);
      req.onupgradeneeded = () => {};
      req.onsuccess = () => { req.result.close(); resolve(); };
      req.onerror = () => reject(req.error);
    }));
    await page.locator('#status.error').waitFor();
    assert.match(await page.locator('#status').textContent(), /This tab can no longer save: .*Reload the page\./);
    assert.match(await page.locator('#storage-text').textContent(), /^Saving stopped: /);
    assert.deepEqual(env.errors, []);
  } finally {
    await env.close();
  }
});

test('explorer: the storage line is refreshed after a fork and after a clone', async () => {
  const env = await setup({ contextOptions: { viewport: { width: 1280, height: 800 } } });
  try {
    const { page, baseURL, errors } = env;
    const panel = await openExplorer(page, baseURL);
    const line = page.locator('#storage-text');
    await page.waitForFunction(() => document.getElementById('storage-text').textContent.startsWith('Stored in this browser: '));
    // A new session's few records may fit in the pages IndexedDB had (its usage moves by 4 KB
    // blocks): the tree answers a size of its own, so that the line shows whether it asked again.
    for (const [action, bytes, shown] of [['fork', 4_200_000, '4.2 MB'], ['clone', 5_100_000, '5.1 MB']]) {
      await page.evaluate((b) => {
        const tree = window.explorer.tree;
        const storage = tree.storage;
        tree.storage = async (options) => ({ ...(await storage.call(tree, options)), databaseUsage: b });
      }, bytes);
      assert.doesNotMatch(await line.textContent(), new RegExp(shown));
      const sessions = await page.locator('#session-list .session').count();
      await panel.locator(`.act-${action}`).click();
      await page.waitForFunction((n) => document.querySelectorAll('#session-list .session').length === n + 1, sessions);
      await page.waitForFunction((s) => document.getElementById('storage-text').textContent.startsWith(`Stored in this browser: ${s} `), shown, { timeout: 10_000 });
    }
    await page.screenshot({ path: artifactPath('storage-fork.png') });
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});
