// The explorer's search over every session finds sessions by title
// (static/title-search.js), and the session filter box folds accents as
// it does (static/node-text.js filterSessions): the pure parts, in Node.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { foldMap, matchTitles } from '../static/title-search.js';
import { filterSessions, fold } from '../static/node-text.js';

const sessions = [
  { sessionId: 'a1', title: 'Weekend in Lisbon' },
  { sessionId: 'b2', title: 'Café crème recipes' },
  { sessionId: 'c3', title: 'Deploying the staging cluster' },
  { sessionId: '88a8d761-7b9a-4bf1-a8ca-c1febe6bf358', title: 'Fix the login bug' },
  { sessionId: 'd4', title: 'Lisbon' },
  { sessionId: 'e5e5e5e5-0000-4000-8000-000000000005', title: 'e5e5e5e5-0000-4000-8000-000000000005' }, // no title: shown by its id
  { sessionId: 'f6', title: '東京旅行の計画' },
  { sessionId: 'g7', title: 'ΟΔΟΣ notes' },
];

/** The ids matchTitles gives, best first, each with the text it marks. */
const found = (query, options) =>
  matchTitles(sessions, query, options).matches.map((m) => `${m.session.sessionId}${m.byId ? ' (id)' : ''}: ${m.ranges.map(([a, b]) => m.session.title.slice(a, b)).join('+')}`);

test('title search: case, accents, word starts, typos and scripts without spaces', () => {
  const cases = [
    ['lisbon', ['d4: Lisbon', 'a1: Lisbon'], 'the title that is the query ranks first, then the list order'],
    ['LISB', ['a1: Lisb', 'd4: Lisb'], 'a word\'s start, any case'],
    ['cafe creme', ['b2: Café+crème'], 'accents folded; the marks fall on the original characters'],
    ['lisbn', ['a1: Lisbon', 'd4: Lisbon'], 'one typo in a word of 5 (a prefix within one edit)'],
    ['stagnig clustr', ['c3: staging+cluster'], 'two words, each within a typo'],
    ['isbo', ['a1: isbo', 'd4: isbo'], 'inside a word from 3 characters'],
    ['is', [], 'two letters only at a word\'s start'],
    ['in lisbon', ['a1: in+Lisbon'], 'every word must match'],
    ['旅行', ['f6: 旅行'], 'CJK as substrings, as the core\'s search'],
    ['οδος', ['g7: ΟΔΟΣ'], 'a final sigma is any sigma'],
    ['“login”,', ['88a8d761-7b9a-4bf1-a8ca-c1febe6bf358: login'], 'punctuation around a word is left out'],
    ['88a8d7', ['88a8d761-7b9a-4bf1-a8ca-c1febe6bf358 (id): '], 'the start of an id'],
    ['e5e5', ['e5e5e5e5-0000-4000-8000-000000000005 (id): '], 'a session without a title, by its id'],
    ['0000', [], 'nor inside an id'],
    ['88a', [], 'an id\'s start from 4 characters'],
    ['', [], 'an empty query finds nothing'],
    ['   ', [], 'nor blanks'],
  ];
  for (const [query, want, why] of cases) assert.deepEqual(found(query), want, `${query}: ${why}`);
});

test('title search: the total counts every match; limit cuts the list', () => {
  const many = Array.from({ length: 12 }, (_, i) => ({ sessionId: `s${i}`, title: `Trip ${i}` }));
  const r = matchTitles(many, 'trip');
  assert.equal(r.total, 12);
  assert.deepEqual(r.matches.map((m) => m.session.sessionId), ['s0', 's1', 's2', 's3', 's4']);
  assert.equal(matchTitles(many, 'trip', { limit: 2 }).matches.length, 2);
  assert.deepEqual(matchTitles(many, 'trip 7').matches.map((m) => m.session.sessionId), ['s7']);
});

test('title search: foldMap maps the folded text back to the original, character by character', () => {
  const m = foldMap('Ａé😀ﬁ');
  assert.equal(m.folded, 'ae😀fi');
  assert.deepEqual(m.start, [0, 1, 2, 2, 4, 4]);
  assert.deepEqual(m.end, [1, 2, 4, 4, 5, 5]);
  assert.equal(fold('Ἀθῆναι ΟΔΟΣ İstanbul'), 'αθηναι οδοσ istanbul');
  for (const s of [...sessions.map((x) => x.title), 'Ἀθῆναι ΟΔΟΣ İstanbul', 'Ａé😀ﬁ ß'])
    assert.equal(foldMap(s).folded, fold(s), `${s}: folded by character as whole (matching folds whole, marks map by character)`);
});

test('session filter box: accents and case folded, as the search over every session', () => {
  const ids = (q) => filterSessions(sessions, q).map((s) => s.sessionId);
  assert.deepEqual(ids('creme'), ['b2']);
  assert.deepEqual(ids('CRÈME'), ['b2']);
  assert.deepEqual(ids('lisbn'), ['a1', 'd4']);
});

test('session filter box: sessions holding every word as typed come before those a typo reaches, each group in the list\'s order', () => {
  const list = ['00013', '00030', '00003', '00004', '00300'].map((n) => ({ sessionId: `c${n}`, title: `Conversation ${n}` }));
  const ids = (q) => filterSessions(list, q).map((s) => s.sessionId);
  assert.deepEqual(ids('conversation 00003'), ['c00003', 'c00013', 'c00030', 'c00004']);
  assert.deepEqual(ids('conversaton 00003'), ['c00003', 'c00013', 'c00030', 'c00004'], 'a typo in one word: the other word as typed still ranks');
  assert.deepEqual(ids('conversation'), ['c00013', 'c00030', 'c00003', 'c00004', 'c00300'], 'every one as typed: the order given');
});

test('session filter box: among those holding every word, whole words rank before a word\'s start, and that before a word\'s middle', () => {
  const list = [299, 297, 287, 70, 7, 17].map((n) => ({ sessionId: `s${n}`, title: `Big conv ${n}` }));
  const ids = (q) => filterSessions(list, q).map((s) => s.sessionId);
  assert.deepEqual(ids('Big conv 7'), ['s7', 's70', 's297', 's287', 's17'], 'the exact title first, then "7" starting a word, then inside one, each in the order given');
  assert.deepEqual(ids('big'), ['s299', 's297', 's287', 's70', 's7', 's17'], 'all alike: the order given');
  const marked = [['a', 'using gpt-4o'], ['b', 'gpt-4 notes'], ['c', 'about c++ templates'], ['d', 'c++']].map(([sessionId, title]) => ({ sessionId, title }));
  assert.deepEqual(filterSessions(marked, 'gpt-4').map((s) => s.sessionId), ['b', 'a'], 'a word holding punctuation counts whole too');
  assert.deepEqual(filterSessions(marked, 'c++').map((s) => s.sessionId), ['c', 'd'], 'both hold "c++" whole: the order given');
});
