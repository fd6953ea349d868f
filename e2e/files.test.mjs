// Page tests of the file APIs (TreeAPI.importFile and loadSnapshot) in
// headless Chromium, each run with the store in its worker and in the
// page's thread: importFile of a real export (shared fixture) given as a
// File, a Blob, an ArrayBuffer and a Uint8Array, progress and abort,
// envelopes for every bad argument, loadSnapshot round trips byte for
// byte, and loadSnapshot of a ~25 MB snapshot timed against the raw-bytes
// call (printed, not asserted); importZip of an export ZIP, each entry's
// envelope the one importText gives its text.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { zipSync, strToU8 } from 'fflate';
import { setup, openShimPage, watchPage, FIXTURES_DIR } from './helpers.mjs';

/** A ChatGPT export (one conversation of 13 records with branches, 14 KB) from the shared fixtures. */
const FIXTURE = FIXTURES_DIR + '/librechat/chatgpt-tree.json';
const fixtureText = fs.readFileSync(FIXTURE, 'utf8');

let env;
let pageThread;
before(async () => {
  env = await setup();
  pageThread = await env.browser.newContext();
});
after(async () => {
  await pageThread?.close();
  await env?.close();
});

/** Where the test running now has the store: undefined (the worker) or false (init({worker: false})). */
let worker;

const shimPage = async () => {
  if (worker !== false) return openShimPage(env);
  const page = watchPage(await pageThread.newPage(), env.errors);
  await page.goto(env.baseURL + 'e2e/fixtures/shim.html?worker=0');
  await page.waitForFunction(() => window.sessiontree);
  return page;
};

/** A test run with the store in its worker, then in the page's thread (as in shim.test.mjs). */
function both(name, fn) {
  test(name, async () => {
    worker = undefined;
    await fn();
    assert.deepEqual(env.errors, []);
  });
  test(name + ' (store in the page thread)', async () => {
    worker = false;
    try {
      await fn();
    } finally {
      worker = undefined;
    }
    assert.deepEqual(env.errors, []);
  });
}

both('importFile takes a File, a Blob, an ArrayBuffer and a Uint8Array and imports what importText does', async () => {
  const page = await shimPage();
  const r = await page.evaluate(async (text) => {
    const bytes = new TextEncoder().encode(text);
    const save = async (tree, env) => env.ok ? Promise.all(env.value.sessions.map((s) => tree.callText({ operation: 'snapshot.save', sessionId: s.sessionId }))) : env;
    const want = await window.sessiontree.init({ persist: false });
    const wanted = await want.importText(text);
    const inputs = {
      file: new File([text], 'conversations.json', { type: 'application/json' }),
      blob: new Blob([bytes]),
      arrayBuffer: bytes.slice().buffer,
      uint8Array: bytes.slice(),
    };
    const out = { want: { env: wanted, snapshots: await save(want, wanted) } };
    for (const [kind, input] of Object.entries(inputs)) {
      const tree = await window.sessiontree.init({ persist: false });
      const got = await tree.importFile(input);
      out[kind] = { env: got, snapshots: await save(tree, got), size: input.byteLength ?? input.size };
    }
    return out;
  }, fixtureText);
  assert.equal(r.want.env.ok, true, JSON.stringify(r.want.env));
  assert.equal(r.want.env.value.format, 'chatgpt');
  assert.equal(r.want.env.value.sessions.length, 1);
  assert.ok(r.want.env.value.sessions[0].nodeCount > 5);
  const size = Buffer.byteLength(fixtureText);
  for (const kind of ['file', 'blob', 'arrayBuffer', 'uint8Array']) {
    assert.deepEqual(r[kind].env, r.want.env, kind);
    assert.equal(r[kind].snapshots.length, 1, kind);
    // Timestamps of import come from the export, so the sessions are equal but for createdAt/updatedAt (not in snapshots).
    assert.equal(r[kind].snapshots[0], r.want.snapshots[0], kind);
    assert.equal(r[kind].size, size, `${kind}: the caller's input is still whole (copied, not transferred)`);
  }
  await page.close();
});

both('importFile reports progress in bytes of work, and aborted while reading imports nothing', async () => {
  const page = await shimPage();
  const r = await page.evaluate(async (text) => {
    // 80 copies of the fixture's conversation under other ids (about 1.1 MB).
    const id = JSON.parse(text)[0].id;
    const copies = Array.from({ length: 80 }, (_, i) => text.trim().slice(1, -1).replaceAll(id, `${id}-${i}`));
    const file = new Blob(['[' + copies.join(',') + ']']);
    const tree = await window.sessiontree.init({ persist: false });
    const controller = new AbortController();
    const seen = [];
    const aborted = await tree.importFile(file, {
      sliceBytes: 16 << 10,
      signal: controller.signal,
      onProgress: (p) => {
        seen.push(p);
        if (seen.length === 2) controller.abort();
      },
    });
    const after = (await tree.call({ operation: 'sessions' })).value.length;
    const progress = [];
    const done = await tree.importFile(file, { format: 'chatgpt', sliceBytes: 64 << 10, onProgress: (p) => progress.push(p) });
    const early = new AbortController();
    early.abort();
    const before = await tree.importFile(new Blob(['[]']), { signal: early.signal });
    return { size: file.size, aborted, seen, after, done: done.ok ? done.value.sessions.length : done, progress, before, total: (await tree.call({ operation: 'sessions' })).value.length };
  }, fixtureText);
  assert.deepEqual(r.aborted, { ok: false, error: { code: 'INVALID_ARGUMENT', message: 'import aborted; nothing was imported' } });
  assert.ok(r.seen.length >= 2);
  assert.equal(r.after, 0, 'nothing of the aborted import stays');
  assert.equal(r.done, 80);
  assert.ok(r.progress.length > 3, `progress events: ${r.progress.length}`);
  for (let i = 1; i < r.progress.length; i++) assert.ok(r.progress[i].read > r.progress[i - 1].read, 'read grows');
  assert.equal(r.progress.at(-1).read, r.progress.at(-1).total);
  assert.equal(r.progress.at(-1).total, 2 * r.size, 'total: twice the file size (reading, then storing)');
  assert.deepEqual(r.before, { ok: false, error: { code: 'INVALID_ARGUMENT', message: 'import aborted; nothing was imported' } });
  assert.equal(r.total, 80);
  await page.close();
});

both('every bad argument of importFile and loadSnapshot is an envelope, never a throw, and changes nothing', async () => {
  const page = await shimPage();
  const r = await page.evaluate(async () => {
    const tree = await window.sessiontree.init({ persist: false });
    await tree.create('s');
    const blob = new Blob(['[]']);
    const aborted = new AbortController();
    aborted.abort();
    const cases = {
      'importFile()': () => tree.importFile(),
      'importFile(null)': () => tree.importFile(null),
      'importFile(text)': () => tree.importFile('[]'),
      'importFile(blob, "auto")': () => tree.importFile(blob, 'auto'),
      'importFile(blob, {format: 3})': () => tree.importFile(blob, { format: 3 }),
      'importFile(blob, {format: "nope"})': () => tree.importFile(blob, { format: 'nope' }),
      'importFile(blob, {onProgress: 1})': () => tree.importFile(blob, { onProgress: 1 }),
      'importFile(blob, {signal: {}})': () => tree.importFile(blob, { signal: {} }),
      'importFile(blob, {sliceBytes: -1})': () => tree.importFile(blob, { sliceBytes: -1 }),
      'importFile(not an export)': () => tree.importFile(new Blob(['hello'])),
      'importFile(empty)': () => tree.importFile(new Uint8Array(0)),
      'loadSnapshot(1, blob)': () => tree.loadSnapshot(1, blob),
      'loadSnapshot("", blob)': () => tree.loadSnapshot('', blob),
      'loadSnapshot("s")': () => tree.loadSnapshot('s'),
      'loadSnapshot("s", null)': () => tree.loadSnapshot('s', null),
      'loadSnapshot("s", 42)': () => tree.loadSnapshot('s', 42),
      'loadSnapshot("s", empty blob)': () => tree.loadSnapshot('s', new Blob([])),
      'loadSnapshot("s", not JSON)': () => tree.loadSnapshot('s', new TextEncoder().encode('{"version":1,')),
      'loadSnapshot("s", other session)': () => tree.loadSnapshot('s', { version: 1, sessionId: 't', cursor: null, activeBranch: 'main', nodes: [] }),
      'loadSnapshot("s", cyclic)': () => { const o = {}; o.o = o; return tree.loadSnapshot('s', o); },
      'loadSnapshot("s", blob, aborted)': () => tree.loadSnapshot('s', new Blob(['{"version":1,"sessionId":"s","cursor":null,"activeBranch":"main","nodes":[]}']), { signal: aborted.signal }),
      'loadSnapshot("s", blob, {signal: 1})': () => tree.loadSnapshot('s', blob, { signal: 1 }),
    };
    const before = await tree.callText({ operation: 'snapshot.save', sessionId: 's' });
    const out = {};
    for (const [name, fn] of Object.entries(cases)) {
      try {
        const env = await fn();
        out[name] = env.ok ? 'OK' : env.error.code;
      } catch (err) {
        out[name] = 'THREW ' + err.message;
      }
    }
    const unchanged = before === (await tree.callText({ operation: 'snapshot.save', sessionId: 's' }));
    // A closed tree stores nothing: both answer STORAGE_ERROR.
    const closed = await window.sessiontree.init({ dbName: 'files-closed' });
    closed.close();
    const snap = '{"version":1,"sessionId":"c","cursor":null,"activeBranch":"main","nodes":[]}';
    const afterClose = [await closed.importFile(new Blob([snap])), await closed.loadSnapshot('c', new Blob([snap]))].map((e) => (e.ok ? 'OK' : e.error.code));
    return { out, unchanged, afterClose, sessions: (await tree.call({ operation: 'sessions' })).value.map((s) => s.sessionId) };
  });
  assert.deepEqual(r.afterClose, ['STORAGE_ERROR', 'STORAGE_ERROR']);
  assert.deepEqual(r.out, {
    'importFile()': 'INVALID_ARGUMENT',
    'importFile(null)': 'INVALID_ARGUMENT',
    'importFile(text)': 'INVALID_ARGUMENT',
    'importFile(blob, "auto")': 'INVALID_ARGUMENT',
    'importFile(blob, {format: 3})': 'INVALID_ARGUMENT',
    'importFile(blob, {format: "nope"})': 'INVALID_ARGUMENT',
    'importFile(blob, {onProgress: 1})': 'INVALID_ARGUMENT',
    'importFile(blob, {signal: {}})': 'INVALID_ARGUMENT',
    'importFile(blob, {sliceBytes: -1})': 'INVALID_ARGUMENT',
    'importFile(not an export)': 'INVALID_ARGUMENT',
    'importFile(empty)': 'INVALID_ARGUMENT',
    'loadSnapshot(1, blob)': 'INVALID_ARGUMENT',
    'loadSnapshot("", blob)': 'INVALID_ARGUMENT',
    'loadSnapshot("s")': 'INVALID_ARGUMENT',
    'loadSnapshot("s", null)': 'INVALID_ARGUMENT',
    'loadSnapshot("s", 42)': 'INVALID_ARGUMENT',
    'loadSnapshot("s", empty blob)': 'INVALID_SNAPSHOT',
    'loadSnapshot("s", not JSON)': 'INVALID_SNAPSHOT', // core: the spliced request is not valid JSON, for the snapshot's text
    'loadSnapshot("s", other session)': 'INVALID_SNAPSHOT',
    'loadSnapshot("s", cyclic)': 'INVALID_ARGUMENT',
    'loadSnapshot("s", blob, aborted)': 'INVALID_ARGUMENT',
    'loadSnapshot("s", blob, {signal: 1})': 'INVALID_ARGUMENT',
  });
  assert.equal(r.unchanged, true);
  assert.deepEqual(r.sessions, ['s']);
  await page.close();
});

both('loadSnapshot: text after the snapshot\'s object cannot stand for the request\'s fields; a byte order mark is skipped, UTF-16 decoded; faults are about the snapshot', async () => {
  const page = await shimPage();
  const r = await page.evaluate(async () => {
    const tree = await window.sessiontree.init({ persist: false });
    await tree.create('victim');
    await tree.append('victim', { role: 'user', content: 'precious' });
    await tree.create('s');
    const before = await tree.callText({ operation: 'snapshot.save', sessionId: 'victim' });
    const utf8 = (t) => new TextEncoder().encode(t);
    const attack = '{"version":1,"sessionId":"victim","cursor":null,"activeBranch":"main","nodes":[]},"sessionId":"victim"';
    const answer = (env) => (env.ok ? `OK ${env.value.sessionId} ${env.value.nodeCount}` : `${env.error.code}: ${env.error.message}`);
    const out = {};
    for (const [name, given] of Object.entries({ text: attack, bytes: utf8(attack), blob: new Blob([attack]) })) out['attack as ' + name] = answer(await tree.loadSnapshot('s', given));
    out['not JSON'] = answer(await tree.loadSnapshot('s', utf8('{"version":1,')));
    out['not JSON, a file'] = answer(await tree.loadSnapshot('s', new Blob(['{"version":1,'])));
    out['not UTF-8'] = answer(await tree.loadSnapshot('s', new Uint8Array([0x7b, 0xff, 0x7d])));
    const snap = '{"version":1,"sessionId":"s","cursor":"a","activeBranch":"main","nodes":[{"id":"a","parentId":null,"branch":"main","kind":"message","timestamp":"2026-11-29T12:00:00.000Z","message":{"role":"user","content":"héllo"}}]}';
    const bom = new Uint8Array([0xef, 0xbb, 0xbf]);
    const utf16 = (t, le) => {
      const out = new Uint8Array(2 + 2 * t.length);
      out.set(le ? [0xff, 0xfe] : [0xfe, 0xff]);
      for (let i = 0; i < t.length; i++) out.set(le ? [t.charCodeAt(i) & 255, t.charCodeAt(i) >> 8] : [t.charCodeAt(i) >> 8, t.charCodeAt(i) & 255], 2 + 2 * i);
      return out;
    };
    const marked = {
      'text with a BOM': '\uFEFF' + snap,
      'bytes with a UTF-8 BOM': new Uint8Array([...bom, ...utf8(snap)]),
      'a file with a UTF-8 BOM': new Blob([bom, snap]),
      'a UTF-16LE file': new Blob([utf16(snap, true)]),
      'UTF-16BE bytes': utf16(snap, false),
    };
    for (const [name, given] of Object.entries(marked)) out[name] = answer(await tree.loadSnapshot('s', given));
    const loaded = (await tree.context('s')).value.messages;
    return { out, unchanged: before === (await tree.callText({ operation: 'snapshot.save', sessionId: 'victim' })), loaded };
  });
  const following = 'INVALID_SNAPSHOT: snapshot is not one JSON object: text follows its closing brace';
  assert.deepEqual(r.out, {
    'attack as text': following,
    'attack as bytes': following,
    'attack as blob': following,
    'not JSON': 'INVALID_SNAPSHOT: snapshot is not valid JSON: unexpected end of JSON input at line 1, column 14',
    'not JSON, a file': 'INVALID_SNAPSHOT: snapshot is not valid JSON: unexpected end of JSON input at line 1, column 14',
    'not UTF-8': 'INVALID_SNAPSHOT: snapshot is not valid UTF-8 (nor UTF-16 with a byte order mark)',
    'text with a BOM': 'OK s 1',
    'bytes with a UTF-8 BOM': 'OK s 1',
    'a file with a UTF-8 BOM': 'OK s 1',
    'a UTF-16LE file': 'OK s 1',
    'UTF-16BE bytes': 'OK s 1',
  });
  assert.equal(r.unchanged, true, 'the victim session is unchanged');
  assert.deepEqual(r.loaded, [{ role: 'user', content: 'héllo' }]);
  await page.close();
});

both('importFile loads a snapshot of a new session through snapshot.load, with the value the importer gives; an existing session or another member order goes through the importer', async () => {
  const page = await shimPage();
  const r = await page.evaluate(async () => {
    const init = () => window.sessiontree.init({ persist: false });
    const [fast, general, maker] = await Promise.all([init(), init(), init()]);
    await maker.create('src', { title: 'Routed' });
    const a = await maker.append('src', { role: 'user', content: 'first' });
    await maker.append('src', { role: 'assistant', content: 'answer', parentId: null }); // a message member named parentId
    await maker.branch('src', a.value.id, 'other');
    await maker.append('src', { role: 'assistant', content: 'another answer' }, { branch: 'other' });
    const saved = await maker.callText({ operation: 'snapshot.save', sessionId: 'src' });
    const snap = saved.slice('{"ok":true,"value":'.length, -1);
    const events = [];
    fast.subscribe((e) => events.push(e.type));
    const routed = await fast.importFile(new Blob([snap]));
    const viaImporter = await general.importText(snap);
    const same = (await fast.callText({ operation: 'snapshot.save', sessionId: 'src' })) === (await general.callText({ operation: 'snapshot.save', sessionId: 'src' }));
    const afterFirst = [...events];
    // The session exists now: the importer merges (adds nothing), nothing is replaced.
    const again = await fast.importFile(new Blob([snap]));
    // Bytes are routed too; members in another order are not recognised.
    const bytes = await fast.importFile(new TextEncoder().encode(snap.replace('"sessionId":"src"', '"sessionId":"src-bytes"')));
    const { version, sessionId, ...rest } = JSON.parse(snap);
    const reordered = await fast.importFile(new Blob([JSON.stringify({ sessionId: 'src-order', version, ...rest })]));
    // An invalid snapshot gets the importer's own error.
    const broken = snap.replace('"nodes":[', '"nodes":[{"id":1},');
    const bad = await fast.importFile(new Blob([broken]));
    const badImporter = await general.importText(broken);
    return { routed, viaImporter, same, afterFirst, again, bytes, reordered, bad, badImporter, events };
  });
  assert.equal(r.routed.ok, true, JSON.stringify(r.routed));
  assert.deepEqual(r.routed.value, r.viaImporter.value);
  assert.deepEqual(r.routed.value.sessions.map((s) => [s.sessionId, s.title, s.existing, s.added, s.nodeCount, s.branchCount, s.rootCount]), [['src', 'Routed', false, 3, 3, 2, 1]]);
  assert.equal(r.same, true, 'the routed session saves as the imported one');
  assert.deepEqual(r.afterFirst, ['snapshot.load']);
  assert.deepEqual(r.again.value.sessions.map((s) => [s.existing, s.added, s.nodeCount]), [[true, 0, 3]]);
  assert.deepEqual(r.bytes.value.sessions.map((s) => s.sessionId), ['src-bytes']);
  assert.deepEqual(r.reordered.value.sessions.map((s) => [s.sessionId, s.nodeCount]), [['src-order', 3]]);
  assert.deepEqual(r.events, ['snapshot.load', 'snapshot.load', 'import']);
  assert.deepEqual(r.bad, r.badImporter);
  assert.equal(r.bad.ok, false);
  await page.close();
});

both('loadSnapshot from a Blob and from bytes round-trips byte for byte through snapshot.save\'s callText', async () => {
  const page = await shimPage();
  const r = await page.evaluate(async () => {
    const tree = await window.sessiontree.init({ persist: false });
    await tree.create('rt', { title: 'Round trip' });
    // Digits past 2^53 and non-ASCII text: JSON.parse and re-stringify would change them.
    await tree.call('{"operation":"append","sessionId":"rt","message":{"role":"user","content":"héllo 🙂 中文","n":123456789012345678901234567890,"x":1.0e+2}}');
    const a = await tree.append('rt', { role: 'assistant', content: 'answer' });
    await tree.branch('rt', a.value.id, 'side');
    await tree.append('rt', { role: 'user', content: 'on the side' });
    const head = '{"ok":true,"value":';
    const saved = await tree.callText({ operation: 'snapshot.save', sessionId: 'rt' });
    const snapshot = saved.slice(head.length, -1);
    const out = { digits: snapshot.includes('123456789012345678901234567890') && snapshot.includes('1.0e+2') };
    const again = async () => (await tree.callText({ operation: 'snapshot.save', sessionId: 'rt' })) === saved;
    const bytes = new TextEncoder().encode(snapshot);
    for (const [kind, input] of [['blob', new Blob([snapshot], { type: 'application/json' })], ['bytes', bytes], ['arrayBuffer', bytes.slice().buffer], ['text', snapshot]]) {
      await tree.append('rt', { role: 'user', content: 'changed before ' + kind }); // so the load has something to undo
      const changed = !(await again());
      const env = await tree.loadSnapshot('rt', input);
      out[kind] = { changed, ok: env.ok, nodeCount: env.value?.nodeCount, same: await again() };
    }
    out.bytesIntact = bytes.length === new TextEncoder().encode(snapshot).length;
    // Into a new session: the snapshot names it.
    const other = snapshot.replace('"sessionId":"rt"', '"sessionId":"copy"');
    const made = await tree.loadSnapshot('copy', new Blob([other]));
    out.copy = made.ok && made.value.sessionId === 'copy' && (await tree.callText({ operation: 'snapshot.save', sessionId: 'copy' })) === head + other + '}';
    return out;
  });
  assert.equal(r.digits, true);
  for (const kind of ['blob', 'bytes', 'arrayBuffer', 'text']) {
    assert.deepEqual(r[kind], { changed: true, ok: true, nodeCount: 3, same: true }, kind);
  }
  assert.equal(r.bytesIntact, true, 'the caller\'s bytes are not transferred away');
  assert.equal(r.copy, true);
  await page.close();
});

/** Timed rounds of the 25 MB comparison (FILES_ROUNDS=7 for a steadier median on a busy machine). */
const ROUNDS = Number(process.env.FILES_ROUNDS) || 3;

both('loadSnapshot of a ~25 MB snapshot against the raw-bytes call (median of 3; printed, not asserted)', async () => {
  const page = await shimPage();
  const r = await page.evaluate(async (rounds) => {
    const tree = await window.sessiontree.init({ persist: false });
    // A chain of 48,000 messages of ~400 bytes: about 25 MB of JSON.
    const parts = [];
    const text = 'lorem ipsum dolor sit amet, consectetur adipiscing elit; é 🙂 '.repeat(6);
    for (let i = 0; i < 48000; i++) {
      parts.push(`{"id":"n${i}","parentId":${i ? `"n${i - 1}"` : 'null'},"branch":"main","kind":"message","timestamp":"2026-11-29T12:00:00.000Z","message":{"role":"${i % 2 ? 'assistant' : 'user'}","content":"${i} ${text}"}}`);
    }
    const snapshot = `{"version":1,"sessionId":"big","cursor":"n47999","activeBranch":"main","nodes":[${parts.join(',')}]}`;
    const enc = new TextEncoder();
    const bytes = enc.encode(snapshot);
    // The raw-bytes path: the request built by hand around the bytes, then call(bytes).
    const head = enc.encode('{"operation":"snapshot.load","sessionId":"big","snapshot":');
    const raw = new Uint8Array(head.length + bytes.length + 1);
    raw.set(head);
    raw.set(bytes, head.length);
    raw[raw.length - 1] = 0x7d; // }
    const blob = new Blob([bytes]);
    // The README's by-hand path from a file: read it, build the request around its bytes, call.
    const byHand = async () => {
      const b = new Uint8Array(await blob.arrayBuffer());
      const req = new Uint8Array(head.length + b.length + 1);
      req.set(head);
      req.set(b, head.length);
      req[req.length - 1] = 0x7d;
      return tree.call(req);
    };
    const runs = { raw: [], bytes: [], byHand: [], blob: [], importFile: [] };
    const load = { raw: () => tree.call(raw), bytes: () => tree.loadSnapshot('big', bytes), byHand, blob: () => tree.loadSnapshot('big', blob) };
    // importFile of the snapshot as a file: a new session each run (a
    // second import of the same one would add nothing), named in the file.
    const files = Array.from({ length: rounds }, (_, i) => new Blob([snapshot.replace('"sessionId":"big"', `"sessionId":"big${i}"`)]));
    let ok = true;
    const order = ['raw', 'bytes', 'byHand', 'blob'];
    for (const kind of order) await load[kind](); // warm up (not timed)
    for (let round = 0; round < rounds; round++) {
      // Each round starts with another of the three, so none is always first.
      for (const kind of [...order.slice(round % 4), ...order.slice(0, round % 4)]) {
        const t0 = performance.now();
        const env = await load[kind]();
        runs[kind].push(performance.now() - t0);
        ok = ok && env.ok && env.value.nodeCount === 48000;
      }
      const t0 = performance.now();
      const env = await tree.importFile(files[round]);
      runs.importFile.push(performance.now() - t0);
      ok = ok && env.ok && env.value.format === 'snapshot' && env.value.sessions[0].nodeCount === 48000;
    }
    const median = (a) => [...a].sort((x, y) => x - y)[(a.length - 1) >> 1];
    return { ok, megabytes: bytes.length / 1e6, raw: median(runs.raw), bytes: median(runs.bytes), byHand: median(runs.byHand), blob: median(runs.blob), importFile: median(runs.importFile), runs };
  }, ROUNDS);
  assert.equal(r.ok, true);
  assert.ok(r.megabytes > 24 && r.megabytes < 30, `snapshot of ${r.megabytes} MB`);
  const mode = worker === false ? 'page thread' : 'worker';
  console.log(`# loadSnapshot ${r.megabytes.toFixed(1)} MB (${mode}), median of ${ROUNDS}: raw call(bytes) ${r.raw.toFixed(0)} ms; loadSnapshot(bytes) ${r.bytes.toFixed(0)} ms = ${(r.bytes / r.raw).toFixed(2)}x; by hand from the Blob (README) ${r.byHand.toFixed(0)} ms; loadSnapshot(Blob) ${r.blob.toFixed(0)} ms = ${(r.blob / r.raw).toFixed(2)}x of raw, ${(r.blob / r.byHand).toFixed(2)}x of by hand; importFile(Blob, a new session) ${r.importFile.toFixed(0)} ms = ${(r.importFile / r.raw).toFixed(2)}x; runs ${JSON.stringify(r.runs, (k, v) => (typeof v === 'number' ? Math.round(v) : v))}`);
  await page.close();
});

both('importZip imports each text entry of a ZIP as importText imports its text, lists the rest, and answers bad arguments with envelopes', async () => {
  const page = await shimPage();
  const zip = zipSync({
    'export/conversations.json': strToU8(fixtureText),
    'export/user.json': strToU8('{"id":"u"}'),
    'export/notes.json': strToU8('{"not": "an export"}'),
    'export/photo.png': new Uint8Array(300).fill(7),
  });
  const r = await page.evaluate(async ({ text, zip }) => {
    const want = await (await window.sessiontree.init({ persist: false })).importText(text);
    const tree = await window.sessiontree.init({ persist: false });
    const bytes = new Uint8Array(zip);
    const fromFile = await tree.importZip(new File([bytes], 'export.zip'));
    const other = await window.sessiontree.init({ persist: false });
    const phases = new Set();
    const fromBytes = await other.importZip(bytes, { name: 'given.zip', onProgress: (p) => phases.add(p.phase) });
    const early = new AbortController();
    early.abort();
    const bad = {
      file: await tree.importZip('PK'),
      budget: await tree.importZip(bytes, { budget: 0 }),
      name: await tree.importZip(bytes, { name: '' }),
      options: await tree.importZip(bytes, 3),
      aborted: await tree.importZip(bytes, { signal: early.signal }),
      notZip: await tree.importZip(new Blob(['hello']), { name: 'hello.zip' }),
    };
    return { want, fromFile, fromBytes, phases: [...phases].sort(), bytesLeft: bytes.length, bad };
  }, { text: fixtureText, zip: [...zip] });
  assert.equal(r.fromFile.ok, true, JSON.stringify(r.fromFile));
  const entries = r.fromFile.value.entries;
  assert.deepEqual(entries.map((e) => [e.kind, e.name]), [
    ['text', 'export.zip › export/conversations.json'],
    ['text', 'export.zip › export/notes.json'],
    ['skip', 'export.zip › export/user.json'],
    ['skip', 'export.zip'],
  ]);
  assert.deepEqual(entries[0].envelope, r.want, 'the same envelope as importText of the text');
  assert.equal(entries[0].size, Buffer.byteLength(fixtureText));
  assert.deepEqual(entries[0].refs, []);
  assert.equal(entries[1].envelope.ok, false);
  assert.equal(entries[1].envelope.error.reason, 'NOTHING_TO_IMPORT');
  assert.equal(entries[2].reason, 'account data, not conversations');
  assert.equal(entries[3].reason, '1 file not stored, named by no conversation read: photo.png (image/png, 300 B)');
  assert.equal(r.fromBytes.value.entries[0].name, 'given.zip › export/conversations.json');
  assert.deepEqual(r.fromBytes.value.entries[0].envelope, r.want);
  assert.deepEqual(r.phases, ['import', 'read']);
  assert.equal(r.bytesLeft, zip.length, "the caller's bytes are still whole (copied, not transferred)");
  assert.match(r.bad.file.error.message, /^importZip: argument "file" must be a File, Blob, ArrayBuffer or Uint8Array; got "PK"$/);
  assert.match(r.bad.budget.error.message, /^importZip: argument "options.budget" must be a positive integer of bytes; got 0$/);
  assert.match(r.bad.name.error.message, /^importZip: argument "options.name" must be a non-empty string/);
  assert.match(r.bad.options.error.message, /^importZip: argument "options" must be an object/);
  assert.deepEqual(r.bad.aborted, { ok: false, error: { code: 'INVALID_ARGUMENT', message: 'import aborted; nothing was imported' } });
  // Nothing imported is an error (as importFiles's), carrying the entries' report.
  assert.deepEqual(r.bad.notZip, { ok: false, error: {
    code: 'INVALID_ARGUMENT', reason: 'NOTHING_TO_IMPORT', message: 'nothing imported from hello.zip: hello.zip: not a ZIP file, or a damaged one: no entry found in it',
    entries: [{ kind: 'error', name: 'hello.zip', message: 'not a ZIP file, or a damaged one: no entry found in it' }],
  } });
  await page.close();
});

test('importZip imports an Aider history in the ZIP (.aider.chat.history.md) as importFiles does, not as an attachment', async () => {
  worker = undefined;
  const page = await shimPage();
  const aider = fs.readFileSync(new URL('../core/testdata/imports/aider/.aider.chat.history.md', import.meta.url), 'utf8');
  const zip = zipSync({ 'repo/.aider.chat.history.md': strToU8(aider), 'repo/notes.md': strToU8('# notes') });
  const r = await page.evaluate(async (zip) => {
    const tree = await window.sessiontree.init({ persist: false });
    const env = await tree.importZip(new Uint8Array(zip), { name: 'repo.zip' });
    return env.value.entries.map((e) => [e.kind, e.name, e.envelope?.value?.format ?? e.reason ?? null]);
  }, [...zip]);
  assert.deepEqual(r, [
    ['text', 'repo.zip › repo/.aider.chat.history.md', 'aider'],
    ['skip', 'repo.zip', '1 file not stored, named by no conversation read: notes.md (text/markdown, 7 B)'],
  ]);
  assert.deepEqual(env.errors, []);
  await page.close();
});

both('importZip aborted while an entry is imported stores neither it nor the entries after it; the ones before stay', async () => {
  const page = await shimPage();
  // Three entries of the fixture's conversation, 240 copies each under other ids (about 3.3 MB each:
  // several slices, so the abort the page sends on the second entry's first progress arrives before it is stored).
  const id = JSON.parse(fixtureText)[0].id;
  const entry = (n) => strToU8('[' + Array.from({ length: 240 }, (_, i) => fixtureText.trim().slice(1, -1).replaceAll(id, `${id}-${n}-${i}`)).join(',') + ']');
  const zip = zipSync({ 'a.json': entry('a'), 'b.json': entry('b'), 'c.json': entry('c') });
  const r = await page.evaluate(async (zip) => {
    const tree = await window.sessiontree.init({ persist: false });
    const controller = new AbortController();
    const env = await tree.importZip(new Blob([new Uint8Array(zip)]), {
      signal: controller.signal,
      onProgress: (p) => {
        if (p.phase === 'import' && p.name.endsWith('b.json')) controller.abort();
      },
    });
    const sessions = (await tree.call({ operation: 'sessions' })).value.map((s) => s.sessionId);
    return { entries: env.value.entries.map((e) => [e.name, e.envelope.ok ? e.envelope.value.sessions.length : e.envelope.error.message]), sessions };
  }, [...zip]);
  assert.deepEqual(r.entries, [
    ['archive.zip › a.json', 240],
    ['archive.zip › b.json', 'import aborted; nothing was imported'],
    ['archive.zip › c.json', 'import aborted; nothing was imported'],
  ]);
  assert.equal(r.sessions.length, 240);
  assert.ok(r.sessions.every((s) => s.includes('-a-')), r.sessions.slice(0, 5).join(' '));
  await page.close();
});

test('importZip from which nothing imported: an abort during its first entry is the abort, and sessions all in the trash are SESSION_ALREADY_EXISTS, each with the entries', async () => {
  worker = undefined;
  const page = await shimPage();
  // One entry of the fixture's conversation, 240 copies under other ids (about 3.3 MB: several
  // slices, so the abort sent at its first progress arrives before it is stored).
  const id = JSON.parse(fixtureText)[0].id;
  const big = strToU8('[' + Array.from({ length: 240 }, (_, i) => fixtureText.trim().slice(1, -1).replaceAll(id, `${id}-${i}`)).join(',') + ']');
  // As a real ChatGPT export: account files and the HTML view beside the conversations (left out as no export).
  const zip = zipSync({ 'export/conversations.json': strToU8(fixtureText), 'export/user.json': strToU8('{"id":"user-1","email":"a@b.c"}'), 'export/chat.html': strToU8('<html></html>') });
  const r = await page.evaluate(async ({ zip, big, withInner }) => {
    const tree = await window.sessiontree.init({ persist: false });
    const abort = new AbortController();
    const aborted = await tree.importZip(new Uint8Array(big), { name: 'a.zip', signal: abort.signal, onProgress: (p) => p.phase === 'import' && abort.abort() });
    const first = await tree.importZip(new Uint8Array(zip), { name: 'a.zip' });
    for (const s of first.value.entries[0].envelope.value.sessions) await tree.delete(s.sessionId);
    const trashed = await tree.importZip(new Uint8Array(zip), { name: 'a.zip' });
    const nested = await tree.importZip(new Uint8Array(withInner), { name: 'b.zip' });
    const codes = (env) => [env.ok, env.error?.code, env.error?.reason, env.error?.entries?.map((e) => (e.kind === 'text' ? e.envelope.error.code : e.kind))];
    return { aborted, trashed: codes(trashed), nested: codes(nested) };
  }, { zip: [...zip], big: [...zipSync({ 'big.json': big })], withInner: [...zipSync({ 'export/conversations.json': strToU8(fixtureText), 'older.zip': zipSync({ 'conversations.json': strToU8(fixtureText) }) })] });
  assert.deepEqual(r.aborted, { ok: false, error: { code: 'INVALID_ARGUMENT', message: 'import aborted; nothing was imported' } });
  assert.deepEqual(r.trashed, [false, 'SESSION_ALREADY_EXISTS', 'NOTHING_TO_IMPORT', ['SESSION_ALREADY_EXISTS', 'skip', 'skip']]);
  assert.deepEqual(r.nested, [false, 'INVALID_ARGUMENT', 'NOTHING_TO_IMPORT', ['SESSION_ALREADY_EXISTS', 'skip']], 'a ZIP inside, unread, may hold what is not here yet: not "already exists"');
  await page.close();
});
