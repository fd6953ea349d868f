// The explorer shows where its data lives (usage and quota from
// navigator.storage.estimate()) and tells the user when this tab can no
// longer save because another tab opened a newer schema.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from './helpers.mjs';

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
