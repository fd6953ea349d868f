// static/explorer-route.js: the explorer's address (#session=…&node=…),
// parsed and written, and the Router against a stand-in window: pushes
// and replaces history entries, follows hashchange/popstate once per
// change. Pure, run in Node.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseRoute, routeHash, Router } from '../static/explorer-route.js';

test('parseRoute reads the session and the node, and refuses what does not name a session', () => {
  assert.deepEqual(parseRoute('#session=a%20b&node=n%2F1'), { session: 'a b', node: 'n/1' });
  assert.deepEqual(parseRoute('#node=n1&session=s'), { session: 's', node: 'n1' });
  assert.deepEqual(parseRoute('#session=s'), { session: 's', node: null });
  for (const hash of ['', '#', '#big', '#node=n1', '#session=', '#session=%E0%A4%A']) assert.equal(parseRoute(hash), null, hash);
});

test('routeHash writes what parseRoute reads', () => {
  for (const r of [{ session: 'a b&c', node: 'x=y' }, { session: 'é/?#', node: null }]) assert.deepEqual(parseRoute(routeHash(r)), r);
  assert.equal(routeHash({ session: 's', node: 'n' }), '#session=s&node=n');
});

/** A window with a history of hashes (pushState/replaceState), back() and the two events. */
function fakeWindow(hash = '') {
  const listeners = { hashchange: [], popstate: [] };
  const w = {
    entries: [hash],
    at: 0,
    location: { get hash() { return w.entries[w.at].replace(/^[^#]*/, ''); }, pathname: '/static/', search: '' },
    history: {
      pushState: (_, __, h) => { w.entries.splice(w.at + 1, Infinity, h); w.at++; },
      replaceState: (_, __, h) => { w.entries[w.at] = h; },
    },
    addEventListener: (type, fn) => listeners[type].push(fn),
    removeEventListener: (type, fn) => listeners[type].splice(listeners[type].indexOf(fn), 1),
    go(step) {
      w.at += step;
      for (const fn of [...listeners.popstate, ...listeners.hashchange]) fn(); // a browser sends both for a hash change
    },
  };
  return w;
}

test('Router: opening sessions and jumping push entries, a looked-at path replaces, Back and Forward open each once', async () => {
  const w = fakeWindow('#session=a');
  const opened = [];
  const router = new Router({ open: (r) => opened.push(r), window: w });
  assert.deepEqual(router.current(), { session: 'a', node: null });
  router.replace({ session: 'a' });
  router.start();
  router.push({ session: 'b' });
  router.replace({ session: 'b', node: 'b2' });
  router.push({ session: 'b', node: 'b7' });
  router.push({ session: 'b', node: 'b7' }); // already there: no entry
  assert.deepEqual(w.entries, ['#session=a', '#session=b&node=b2', '#session=b&node=b7']);
  w.go(-1);
  w.go(-1);
  w.go(1);
  await Promise.resolve();
  assert.deepEqual(opened, [{ session: 'b', node: 'b2' }, { session: 'a', node: null }, { session: 'b', node: 'b2' }]);
  router.stop();
  w.go(1);
  assert.equal(opened.length, 3, 'stopped: no more opens');
});

test('Router: an open that fails is reported, not thrown', async () => {
  const w = fakeWindow('#session=a');
  const errors = [];
  const router = new Router({ open: async () => { throw new Error('gone'); }, onError: (e) => errors.push(e.message), window: w });
  router.start();
  w.entries.push('#session=z');
  w.go(1);
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(errors, ['gone']);
});

test('Router: clear stops naming the session in the current entry; the entries before it stay', async () => {
  const w = fakeWindow('#session=a');
  const opened = [];
  const router = new Router({ open: (r) => opened.push(r), window: w });
  router.start();
  router.push({ session: 'b', node: 'b2' });
  router.clear();
  assert.deepEqual(w.entries, ['#session=a', '/static/']);
  assert.equal(router.current(), null);
  router.clear(); // nothing named: no change
  assert.deepEqual(w.entries, ['#session=a', '/static/']);
  w.go(-1);
  await Promise.resolve();
  assert.deepEqual(opened, [{ session: 'a', node: null }], 'Back opens the entry before');
  router.stop();
});
