// A short, seeded fuzz run of the store's ZIP path (js/zip-read.js readZip,
// which tree.importZip runs to unzip with fflate): valid export ZIPs are damaged by
// byte flips, cuts, inserted and deleted runs, and whole random bytes, and
// every damaged copy must be read without an exception, as pieces of the
// documented kinds, and never as a text the ZIP did not hold. Runs in Node
// (File and Blob streams are the browser's API there too); needs
// js/vendor/fflate.js, which make build copies (make test-e2e builds first).
//
// The fuzzing is our own: a fixed number of mutations from a seeded PRNG
// (bench/corpus.mjs's mulberry32), so a failure names its seed and repeats.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { zipSync, strToU8 } from 'fflate';
import { readZip } from '../js/zip-read.js';
import { prng } from '../bench/corpus.mjs';

/** The mutations per base ZIP; SESSIONTREE_ZIP_FUZZ raises it for a longer run. */
const ROUNDS = Number(process.env.SESSIONTREE_ZIP_FUZZ ?? 1000);

const conversations = JSON.stringify([
  { id: 'c1', title: 'Plan', current_node: 'b', mapping: {
    r: { id: 'r', parent: null, children: ['a'], message: null },
    a: { id: 'a', parent: 'r', children: ['b'], message: { id: 'a', author: { role: 'user' }, content: { content_type: 'text', parts: ['see photo.png — ünïcode ✓'] } } },
    b: { id: 'b', parent: 'a', children: [], message: { id: 'b', author: { role: 'assistant' }, content: { content_type: 'text', parts: ['ok '.repeat(400)] } } },
  } },
]);
const transcript = [
  JSON.stringify({ type: 'user', uuid: 'u1', parentUuid: null, sessionId: 's', message: { role: 'user', content: 'hi' } }),
  JSON.stringify({ type: 'assistant', uuid: 'u2', parentUuid: 'u1', sessionId: 's', message: { role: 'assistant', content: [{ type: 'text', text: 'hello '.repeat(200) }] } }),
].join('\n');

/** Base ZIPs: deflated entries, a stored one, an attachment and skipped files. */
const BASES = [
  { name: 'chatgpt.zip', entries: { 'conversations.json': conversations, 'user.json': '{"id":"x"}', 'photo.png': 'PNG'.repeat(50), 'chat.html': '<html></html>' }, level: 6 },
  { name: 'stored.zip', entries: { 'logs/a.jsonl': transcript, 'logs/b.json': conversations }, level: 0 },
];

function zipOf(base) {
  const files = {};
  for (const [name, text] of Object.entries(base.entries)) files[name] = [strToU8(text), { level: base.level }];
  return zipSync(files);
}

/** One damaged copy of bytes, and what was done (for the failure message). */
function mutate(bytes, rand) {
  const at = () => Math.floor(rand() * bytes.length);
  const kind = Math.floor(rand() * 5);
  const out = Array.from(bytes);
  switch (kind) {
    case 0: { // flip 1–8 bytes
      const n = 1 + Math.floor(rand() * 8);
      for (let i = 0; i < n; i++) out[at()] ^= 1 + Math.floor(rand() * 255);
      return { bytes: Uint8Array.from(out), what: `flip ${n}`, cut: false };
    }
    case 1: { // cut off
      const n = at();
      return { bytes: bytes.slice(0, n), what: `cut at ${n}`, cut: true };
    }
    case 2: { // insert a random run
      const i = at();
      const run = Array.from({ length: 1 + Math.floor(rand() * 64) }, () => Math.floor(rand() * 256));
      out.splice(i, 0, ...run);
      return { bytes: Uint8Array.from(out), what: `insert ${run.length} at ${i}`, cut: false };
    }
    case 3: { // delete a run
      const i = at();
      const n = 1 + Math.floor(rand() * 64);
      out.splice(i, n);
      return { bytes: Uint8Array.from(out), what: `delete ${n} at ${i}`, cut: false };
    }
    default: { // random bytes behind a ZIP signature
      const n = Math.floor(rand() * 512);
      const r = Uint8Array.from({ length: n + 4 }, () => Math.floor(rand() * 256));
      r.set([0x50, 0x4b, 3, 4]);
      return { bytes: r, what: `random ${n + 4}`, cut: false };
    }
  }
}

const utf8 = new TextDecoder();

/** readZip's pieces of a ZIP, each text's bytes decoded (text). */
async function piecesOf(bytes, name) {
  const pieces = await readZip(new File([bytes], name));
  return pieces.map((p) => (p.kind === 'text' ? { ...p, text: utf8.decode(p.bytes) } : p));
}

function checkShape(pieces, label) {
  for (const p of pieces) {
    assert.ok(['text', 'error', 'skip'].includes(p.kind), `${label}: piece kind ${p.kind}`);
    assert.equal(typeof p.name, 'string', `${label}: piece name`);
    if (p.kind === 'text') {
      assert.ok(p.bytes instanceof Uint8Array && p.bytes.length === p.size, `${label}: bytes`);
      assert.ok(Array.isArray(p.refs), `${label}: refs`);
    }
    if (p.kind === 'error') assert.ok(typeof p.message === 'string' && p.message.length > 0, `${label}: error message`);
    if (p.kind === 'skip') assert.ok(typeof p.reason === 'string' && p.reason.length > 0, `${label}: skip reason`);
  }
}

test(`zip fuzz: ${ROUNDS} damaged copies of each export ZIP are read without an exception, and a cut ZIP never yields a text it did not hold`, async () => {
  let texts = 0;
  let errors = 0;
  for (const [b, base] of BASES.entries()) {
    const bytes = zipOf(base);
    // The undamaged ZIP gives back exactly its conversation files.
    const whole = await piecesOf(bytes, base.name);
    checkShape(whole, `${base.name} whole`);
    const wanted = Object.entries(base.entries).filter(([n]) => /\.jsonl?$/.test(n) && n !== 'user.json');
    assert.deepEqual(
      whole.filter((p) => p.kind === 'text').map((p) => [p.name, p.text]),
      wanted.map(([n, t]) => [`${base.name} › ${n}`, t]),
    );
    assert.equal(whole.filter((p) => p.kind === 'error').length, 0);
    const rand = prng(0x5eed + b);
    for (let i = 0; i < ROUNDS; i++) {
      const m = mutate(bytes, rand);
      const label = `${base.name} round ${i} (${m.what})`;
      let pieces;
      try {
        pieces = await piecesOf(m.bytes, base.name);
      } catch (err) {
        assert.fail(`${label}: readZip threw ${err?.stack ?? err}`);
      }
      checkShape(pieces, label);
      assert.ok(pieces.length > 0, `${label}: says nothing`);
      for (const p of pieces) {
        if (p.kind === 'text') {
          texts++;
          // A cut cannot change bytes: every text read from a cut ZIP is one it holds, whole.
          if (m.cut) assert.equal(p.text, base.entries[p.name.slice(base.name.length + 3)], `${label}: ${p.name} differs`);
        }
        if (p.kind === 'error') errors++;
      }
    }
  }
  // The mutations reach both outcomes (a run that only ever errored would test little).
  assert.ok(texts > ROUNDS / 4, `texts read from damaged ZIPs: ${texts}`);
  assert.ok(errors > ROUNDS / 4, `errors reported: ${errors}`);
});

test('zip cuts: a ZIP cut at any byte says it is damaged or cut off, also when the cut falls inside an entry\'s local header (where the streamed read stops quietly)', async () => {
  for (const base of BASES) {
    const bytes = zipOf(base);
    const quiet = [];
    for (let n = 1; n < bytes.length; n++) {
      const pieces = await piecesOf(bytes.subarray(0, n), base.name);
      if (!pieces.some((p) => p.kind === 'error')) quiet.push(n);
    }
    assert.deepEqual(quiet, [], `${base.name} (${bytes.length} bytes): cuts read as whole ZIPs`);
    // The one cut that keeps every byte is the whole ZIP: no error.
    assert.equal((await piecesOf(bytes, base.name)).filter((p) => p.kind === 'error').length, 0);
  }
});
