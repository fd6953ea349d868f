// The explorer's own titles (static/session-titles.js) in Node, over a Storage stand-in.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SessionTitles, TITLES_KEY } from '../static/session-titles.js';

/** A Storage of one Map. */
function storage() {
  const m = new Map();
  return { getItem: (k) => m.get(k) ?? null, setItem: (k, v) => m.set(k, String(v)), map: m };
}

test('copyTitle: "(copy)" or "(fork at id)" after the source\'s title, the whole within core\'s 1,000 characters', () => {
  const titles = new SessionTitles(storage());
  assert.equal(titles.copyTitle({ sessionId: 's', title: 'Trip' }, 's', null), 'Trip (copy)');
  assert.equal(titles.copyTitle({ sessionId: 's', title: 'Trip' }, 's', 'ab12cd34'), 'Trip (fork at ab12cd34)');
  assert.equal(titles.copyTitle(undefined, 'gone', null), 'gone (copy)');
  const long = titles.copyTitle({ sessionId: 's', title: 'T'.repeat(1000) }, 's', null);
  assert.equal(long.length, 1000);
  assert.equal(long, `${'T'.repeat(992)}… (copy)`);
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
