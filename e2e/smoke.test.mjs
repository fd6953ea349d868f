// Smoke test of the e2e harness itself: server + headless Chromium + screenshot.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { setup, artifactPath } from './helpers.mjs';

test('smoke: page loads, click updates text, screenshot saved, .wasm MIME', async () => {
  const env = await setup();
  try {
    const { page, baseURL, errors } = env;

    const resp = await page.goto(baseURL + 'e2e/fixtures/smoke.html');
    assert.equal(resp.status(), 200);
    assert.match(resp.headers()['content-type'], /^text\/html/);
    assert.equal(await page.locator('#out').textContent(), 'waiting');

    await page.locator('#go').click();
    await page.locator('#out', { hasText: 'clicked' }).waitFor();
    assert.equal(await page.locator('#out').textContent(), 'clicked');

    const shot = artifactPath('smoke.png');
    fs.rmSync(shot, { force: true });
    await page.screenshot({ path: shot, fullPage: true });
    const png = fs.readFileSync(shot);
    assert.ok(png.length > 100, 'screenshot is not empty');
    assert.deepEqual([...png.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47], 'screenshot is a PNG');

    // From the page itself, as the explorer will fetch its module.
    const wasm = await page.evaluate(async () => {
      const r = await fetch('empty.wasm');
      const type = r.headers.get('content-type');
      const { module } = await WebAssembly.instantiateStreaming(fetch('empty.wasm'));
      return { status: r.status, type, bytes: (await r.arrayBuffer()).byteLength, ok: module instanceof WebAssembly.Module };
    });
    assert.deepEqual(wasm, { status: 200, type: 'application/wasm', bytes: 8, ok: true });

    // And with a plain HTTP client.
    const r = await fetch(baseURL + 'e2e/fixtures/empty.wasm');
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('content-type'), 'application/wasm');
    assert.deepEqual([...new Uint8Array(await r.arrayBuffer())], [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);

    // The harness records errors: a dialog must show up in env.errors.
    const dialogSeen = new Promise((resolve) => page.once('dialog', resolve));
    await page.evaluate(() => setTimeout(() => alert('boom'), 0));
    await dialogSeen; // the helper's own listener was registered first and has run
    assert.deepEqual(errors.splice(0), ['dialog (alert): boom']);

    assert.deepEqual(errors, [], 'no console errors, page errors or dialogs');
  } finally {
    await env.close();
  }
});
