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
    assert.match(text, /^Stored in this browser: \d+(\.\d)? [KMG]?B of \d+(\.\d)? [KMGT]?B · (kept by the browser|may be cleared under storage pressure)$/);
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
