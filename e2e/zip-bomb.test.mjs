// ZIP bombs on the store's ZIP path (js/zip-read.js readZip, which
// tree.importZip runs in the store's worker): an entry whose header
// declares 3 GB is refused before it is inflated, and one whose header lies
// (says 100 bytes, inflates to 300 MB) is stopped at the memory budget
// (ZIP_ENTRY_BUDGET, here a smaller one) and its rest passed over without
// inflating; both reports name the entry, its declared and actual size and
// the budget, and the ZIP's other entries are still read. Generated here (a
// 300 MB run of spaces deflates to ~300 KB), never a real 3 GB file. The
// reader runs in Node, like e2e/zip-fuzz.test.mjs (needs js/vendor/fflate.js:
// make build); the last test drops such bombs on the explorer: refused within
// seconds, the page's thread never holding an entry's text, and responsive.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import { readZip, ZIP_ENTRY_BUDGET } from '../js/zip-read.js';
import { setup, openExplorer, explorerCall } from './helpers.mjs';

/**
 * A deflate stream of n MiB of spaces, built without compressing n MiB:
 * one MiB deflated up to a full flush (byte-aligned, no reference to what
 * came before) repeated n times, then an empty final block.
 */
function spaces(n) {
  const block = zlib.deflateRawSync(Buffer.alloc(1 << 20, 0x20), { finishFlush: zlib.constants.Z_FULL_FLUSH });
  return Buffer.concat([...Array(n).fill(block), Buffer.from([0x03, 0x00])]);
}

/** A ZIP of deflated entries [{name, data: Buffer, packed?, declared?}], each header stating `declared` (default: the true size). */
function zipOf(entries) {
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const packed = e.packed ?? zlib.deflateRawSync(e.data);
    const crc = e.packed ? 0 : zlib.crc32(e.data);
    const size = e.declared ?? e.data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, packed);
    centrals.push(central, name);
    offset += local.length + name.length + packed.length;
  }
  const dir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return new File([Buffer.concat([...locals, dir, end])], 'bomb.zip');
}

const piecesOf = (file, options) => readZip(file, options);

const good = { name: 'claude/s.jsonl', data: Buffer.from('{"type":"user","uuid":"u","parentUuid":null,"sessionId":"s","message":{"role":"user","content":"hi"}}\n') };

test('zip bomb: an entry declaring 3 GB is refused before it is inflated, naming its sizes and the budget', async () => {
  const t0 = performance.now();
  const pieces = await piecesOf(zipOf([{ name: 'conversations.json', data: Buffer.from('[]'), declared: 3_000_000_000 }, good]));
  assert.ok(performance.now() - t0 < 10_000);
  const bomb = pieces.find((p) => p.name === 'bomb.zip › conversations.json');
  assert.equal(bomb.kind, 'error');
  assert.match(bomb.message, /^refused: the entry declares 3000\.0 MB \(3,000,000,000 bytes\); it was not inflated: over the memory budget of 268\.4 MB for the ZIP's texts; nothing of it was imported$/);
  assert.equal(ZIP_ENTRY_BUDGET, 268_435_456);
  assert.deepEqual(pieces.filter((p) => p.kind === 'text').map((p) => p.name), ['bomb.zip › claude/s.jsonl'], 'the other entries are still read');
});

test('zip bomb: an entry whose header lies is stopped at the budget, naming what it inflated to', async () => {
  const t0 = performance.now();
  // 3 GB against the default budget is the same code path as 300 MB against a 16 MiB one, which
  // keeps the test short on a busy machine.
  const file = zipOf([{ name: 'conversations.json', packed: spaces(300), declared: 100 }, good]);
  assert.ok(file.size < 1 << 20, `the bomb is small: ${file.size} bytes`);
  const pieces = await piecesOf(file, { budget: 16 << 20 });
  const bomb = pieces.find((p) => p.name === 'bomb.zip › conversations.json');
  assert.equal(bomb.kind, 'error');
  assert.match(bomb.message, /^refused: the entry declares 100 B \(100 bytes\); it inflated past \d+\.\d MB \([\d,]+ bytes\) and was stopped: over the memory budget of 16\.8 MB for the ZIP's texts; nothing of it was imported$/);
  assert.deepEqual(pieces.filter((p) => p.kind === 'text').map((p) => p.name), ['bomb.zip › claude/s.jsonl'], 'the entry after the bomb is still read');
  console.log(`a 300 MB bomb refused in ${Math.round(performance.now() - t0)} ms (includes building it)`);
});

test('zip bomb: on the explorer, a ZIP with a 3 GB-declared entry and a lying one is refused within seconds, read in the store\'s worker (no entry text on the page), the page responsive', async () => {
  // The default budget (256 MiB): the lying entry inflates that far in the worker before it is stopped.
  const bytes = Buffer.from(await zipOf([
    { name: 'conversations.json', data: Buffer.from('[]'), declared: 3_000_000_000 },
    { name: 'more/conversations.json', packed: spaces(300), declared: 100 },
    good,
  ]).arrayBuffer());
  const env = await setup();
  try {
    const { page, baseURL, errors } = env;
    await openExplorer(page, baseURL);
    await page.evaluate(() => {
      // What the page's thread does with the ZIP: every import call counted,
      // and a heartbeat whose longest gap says whether the page kept running.
      const tree = window.explorer.tree;
      window.calls = [];
      for (const m of ['importText', 'importFile', 'importZip']) {
        const real = tree[m].bind(tree);
        tree[m] = (...args) => (window.calls.push(m), real(...args));
      }
      window.beats = { n: 0, maxGap: 0, last: performance.now() };
      window.beatTimer = setInterval(() => {
        const now = performance.now();
        window.beats.maxGap = Math.max(window.beats.maxGap, now - window.beats.last);
        window.beats.last = now;
        window.beats.n++;
      }, 10);
      window.heapBefore = performance.memory?.usedJSHeapSize ?? null;
    });
    const t0 = Date.now();
    await page.setInputFiles('#import-file', { name: 'bomb.zip', mimeType: 'application/zip', buffer: bytes });
    await page.locator('#report-title', { hasText: 'Imported 1 session' }).waitFor({ timeout: 30_000 });
    const ms = Date.now() - t0;
    const seen = await page.evaluate(() => {
      clearInterval(window.beatTimer);
      return {
        calls: window.calls,
        beats: window.beats,
        heapGrowth: window.heapBefore === null ? null : performance.memory.usedJSHeapSize - window.heapBefore,
        fflate: performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname).filter((p) => p.includes('fflate') || p.includes('zip-read')),
      };
    });
    // Each refusal is said once, on its entry's line of the file list (not again under warnings).
    assert.deepEqual(await page.locator('#report-warnings li.error').allTextContents(), []);
    const failures = await page.locator('#report-files li.error').evaluateAll((ls) => ls.map((l) => `${l.querySelector('.report-file-name').textContent}: ${l.querySelector('.report-file-text').textContent}`));
    assert.equal(failures.length, 2, failures.join('\n'));
    assert.equal(failures[0], 'bomb.zip › conversations.json: refused: the entry declares 3000.0 MB (3,000,000,000 bytes); it was not inflated: over the memory budget of 268.4 MB for the ZIP\'s texts; nothing of it was imported');
    assert.match(failures[1], /^bomb\.zip › more\/conversations\.json: refused: the entry declares 100 B \(100 bytes\); it inflated past 268\.\d MB \([\d,]+ bytes\) and was stopped: over the memory budget of 268\.4 MB for the ZIP's texts; nothing of it was imported$/);
    assert.ok(ms < 20_000, `refused and reported in ${ms} ms`);
    // The ZIP went to the store whole: the page never unzipped it, nor imported an entry's text.
    assert.deepEqual(seen.calls, ['importZip']);
    assert.deepEqual(seen.fflate, [], 'the page never loads the unzip library');
    if (seen.heapGrowth !== null) assert.ok(seen.heapGrowth < 64 << 20, `the page's heap grew by ${seen.heapGrowth} bytes`);
    assert.ok(seen.beats.n > 20 && seen.beats.maxGap < 1000, `heartbeats ${seen.beats.n}, longest gap ${seen.beats.maxGap.toFixed(0)} ms`);
    // The entry beside the bombs was imported, and the page goes on working.
    const list = await explorerCall(page, { operation: 'sessions' });
    assert.ok(list.some((s) => s.sessionId === 's'), JSON.stringify(list.map((s) => s.sessionId)));
    await page.locator('#session-list li[data-session-id="s"]').click();
    await page.locator('#panel .row.cursor[data-node-id="u"]').waitFor();
    console.log(`# bombs refused on the explorer in ${ms} ms; ${seen.beats.n} heartbeats, longest gap ${seen.beats.maxGap.toFixed(0)} ms; page heap +${seen.heapGrowth === null ? '?' : (seen.heapGrowth / 1e6).toFixed(1)} MB`);
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});
