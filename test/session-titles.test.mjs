// The explorer's own titles (static/session-titles.js) in Node, over a Storage stand-in.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SessionTitles, TITLES_KEY } from '../static/session-titles.js';

/** A Storage of one Map. */
function storage() {
  const m = new Map();
  return { getItem: (k) => m.get(k) ?? null, setItem: (k, v) => m.set(k, String(v)), map: m };
}

test('copyTitle: "(copy)" or "(fork)" after the source\'s title, numbered when taken, never stacked, within core\'s 1,000 characters', () => {
  const titles = new SessionTitles(storage());
  const trip = { sessionId: 's', title: 'Trip' };
  assert.equal(titles.copyTitle(trip, 's', 'copy'), 'Trip (copy)');
  assert.equal(titles.copyTitle(trip, 's', 'fork'), 'Trip (fork)');
  assert.equal(titles.copyTitle(undefined, 'gone', 'copy'), 'gone (copy)');
  const sessions = [trip, { sessionId: 'c1', title: 'Trip (copy)' }, { sessionId: 'c2', title: 'Trip (copy 2)' }, { sessionId: 'f1', title: 'Trip (fork)' }];
  assert.equal(titles.copyTitle(trip, 's', 'copy', sessions), 'Trip (copy 3)', 'the first number not taken');
  assert.equal(titles.copyTitle(sessions[1], 'c1', 'copy', sessions), 'Trip (copy 3)', 'a copy of a copy is numbered, not "(copy) (copy)"');
  assert.equal(titles.copyTitle(sessions[3], 'f1', 'fork', sessions), 'Trip (fork 2)');
  assert.equal(titles.copyTitle(sessions[3], 'f1', 'copy', sessions), 'Trip (fork) (copy)', 'a copy of a fork says both');
  assert.equal(titles.copyTitle({ sessionId: 'x', title: ' (copy)' }, 'x', 'copy'), ' (copy) (copy)', 'a title of the suffix alone keeps it');
  const long = titles.copyTitle({ sessionId: 's', title: 'T'.repeat(1000) }, 's', 'copy');
  assert.equal(long.length, 1000);
  assert.equal(long, `${'T'.repeat(992)}… (copy)`);
  const taken = [{ sessionId: 'l', title: long }];
  assert.equal(titles.copyTitle({ sessionId: 's', title: 'T'.repeat(1000) }, 's', 'copy', taken), `${'T'.repeat(990)}… (copy 2)`);
  // An override the source's title leaves open is closed before the suffix, which reads as written.
  const rlo = { sessionId: 'r', title: '\u202Eabc def' };
  assert.equal(titles.copyTitle(rlo, 'r', 'fork'), '\u202Eabc def\u202C (fork)');
  assert.equal(titles.copyTitle({ sessionId: 'rf', title: '\u202Eabc def\u202C (fork)' }, 'rf', 'fork', [{ sessionId: 'rf', title: '\u202Eabc def\u202C (fork)' }]), '\u202Eabc def\u202C (fork 2)', 'closed once, never again');
  const longRLO = titles.copyTitle({ sessionId: 'l2', title: '\u202E' + 'T'.repeat(999) }, 'l2', 'copy');
  assert.equal(longRLO.length, 1000);
  assert.equal(longRLO, `\u202E${'T'.repeat(990)}\u202C… (copy)`);
});

test('forget drops the page\'s title, kept in storage, so the session\'s own shows', () => {
  const store = storage();
  const titles = new SessionTitles(store);
  titles.set('s', 'Page title');
  assert.equal(titles.titleOf({ sessionId: 's', title: 'Core title' }), 'Page title');
  titles.forget('s');
  assert.equal(titles.titleOf({ sessionId: 's', title: 'Core title' }), 'Core title');
  assert.deepEqual(JSON.parse(store.map.get(TITLES_KEY)), {});
  assert.equal(new SessionTitles(store).has('s'), false, 'a new page reads it forgotten');
});
