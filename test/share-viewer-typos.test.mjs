// The share file's search (static/share-viewer.js) reaches a word by a typo
// as the store's search does (core/internal/search/distance.go): counted in
// characters, not UTF-16 units, so a word of a script outside the Basic
// Multilingual Plane (two units a character) gets the allowance of its
// length. The viewer's pure parts are read from the script in a VM context;
// its viewer function, which needs a page, stops at the first document use.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import vm from 'node:vm';

const context = vm.createContext({});
try {
  vm.runInContext(fs.readFileSync(new URL('../static/share-viewer.js', import.meta.url), 'utf8'), context);
} catch (err) {
  assert.match(String(err), /document is not defined/, 'only the viewer, which reads the page, stops');
}
const inContext = vm.runInContext('(texts, w) => new Vocabulary(texts).typos(w)', context);
/** The words of texts a query word reaches by a typo (Vocabulary.typos), as an array of this realm. */
const typos = (texts, w) => [...inContext(texts, w)];

// CJK Unified Ideographs Extension B: letters of two UTF-16 units each.
const [a, b, c, d, e, f, g] = ['\u{20000}', '\u{20001}', '\u{20002}', '\u{20003}', '\u{20004}', '\u{20005}', '\u{20006}'];

test('a typo and a word\'s start typed with one are found as the store finds them (letters of one unit)', () => {
  assert.deepEqual(typos(['the compaction ran'], 'compct'), ['compaction']);
  assert.deepEqual(typos(['the monastery'], 'monsatery'), ['monastery']);
  assert.deepEqual(typos(['a cat'], 'cart'), ['cat']);
  assert.deepEqual(typos(['the compaction ran'], 'cpmpact'), [], 'a word\'s start needs its first two letters');
});

test('letters of two UTF-16 units count one character each: a 3-letter query reaches no typo, a 4-letter one a single edit', () => {
  // 3 characters (6 units): no typo and no word's start, whatever its units.
  assert.deepEqual(typos([a + b + c + e + f + g], a + b + d), []);
  // 4 characters (8 units): one edit allowed (two were, counting units).
  assert.deepEqual(typos([a + b + e + f], a + b + c + d), []);
  assert.deepEqual(typos([a + b + c + e], a + b + c + d), [a + b + c + e]);
  // 5 characters: a word's start within one edit, as in one-unit scripts.
  assert.deepEqual(typos([a + b + c + d + f + g + e + e], a + b + c + d + e), [a + b + c + d + f + g + e + e]);
});
