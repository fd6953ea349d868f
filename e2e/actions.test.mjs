// Clear results of actions in the explorer (issue 17, items 7 and 9): the
// chat demo is linked, forks and clones get titles of their own and show
// their ids, a toast confirms, the preferred path's node has a ★, hidden
// nodes leave a placeholder row, separate roots are drawn apart, one search
// dropdown is open at a time, the session filter forgives typos, and
// "Ask the browser to keep this data" says what the browser answered.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup, openExplorer, explorerCall, artifactPath } from './helpers.mjs';

const call = explorerCall;

test('explorer links the chat demo, and the link opens it', async () => {
  const env = await setup({ contextOptions: { viewport: { width: 1366, height: 850 } } });
  try {
    const { page, baseURL, errors } = env;
    await openExplorer(page, baseURL);
    const link = page.locator('#chat-demo-link');
    assert.equal(await link.isVisible(), true);
    assert.equal(await link.getAttribute('href'), './chat-demo.html');
    await link.click();
    await page.waitForURL(/chat-demo\.html$/);
    assert.equal(await page.title(), 'sessiontree — embedding demo');
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});
