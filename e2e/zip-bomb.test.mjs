// ZIP bombs on the store's ZIP path (js/zip-read.js readZip, which
// tree.importZip runs in the store's worker): an entry whose header
// declares 3 GB is refused before it is inflated, and one whose header lies
// (says 100 bytes, inflates to 300 MB) is stopped at the memory budget
// (ZIP_ENTRY_BUDGET, here a smaller one) and its rest passed over without
// inflating; both reports name the entry, its declared and actual size and
// the budget, and the ZIP's other entries are still read. Generated here (a
// 300 MB run of spaces deflates to ~300 KB), never a real 3 GB file. The
// reader runs in Node, like e2e/zip-fuzz.test.mjs (needs js/vendor/fflate.js:
// make build).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import { readZip, ZIP_ENTRY_BUDGET } from '../js/zip-read.js';

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
