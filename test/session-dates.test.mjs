// static/session-dates.js: the list's order and the date select's counts,
// held to the rules they replace (a comparator sort, inRange per range).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OLDER, UNDATED, dateOptions, inRange, newestFirst } from '../static/session-dates.js';
import { newestFirst as pageOrder } from '../js/early-list.js';

const NOW = Date.parse('2026-12-03T12:00:00.000Z');
const DAY = 24 * 60 * 60 * 1000;

/** Sessions at times over two years, many sharing one, some written with an offset or unreadable. */
function sessions(n) {
  const out = [];
  let seed = 7;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  for (let i = 0; i < n; i++) {
    const t = NOW - Math.floor(rand() * 40) * 20 * DAY - Math.floor(rand() * 3) * 1000;
    let updatedAt = new Date(t).toISOString();
    if (i % 17 === 0) updatedAt = updatedAt.replace('Z', '+00:00');
    if (i % 53 === 0) updatedAt = 'not a time';
    out.push({ sessionId: `s${(i * 7919) % n}`, updatedAt });
  }
  return out;
}

test('newestFirst orders as core pages newest first: updatedAt descending, then id descending (the comparator of js/early-list.js)', () => {
  const list = sessions(3000);
  const want = [...list].sort(pageOrder);
  assert.deepEqual(newestFirst(list).map((s) => s.sessionId), want.map((s) => s.sessionId));
  assert.deepEqual(newestFirst([]), []);
});

test('dateOptions counts each range as inRange does, canonical times compared as text', () => {
  const list = sessions(3000);
  const count = (range) => list.filter((s) => inRange(s, range, NOW)).length;
  const options = dateOptions(list, NOW);
  assert.equal(options[0].text, `Any time (${list.length.toLocaleString('en')})`);
  assert.equal(options[0].text, 'Any time (3,000)', 'a count has thousands separators, as the tool and project options do');
  for (const o of options.slice(1)) assert.match(o.text, new RegExp(`\\(${count(o.value).toLocaleString('en')}\\)$`), `${o.value}: ${o.text}`);
  assert.ok(options.some((o) => o.value === OLDER), 'some sessions are older than a year');
  assert.equal(options.at(-1).text, `Undated (${list.filter((s) => Number.isNaN(Date.parse(s.updatedAt))).length.toLocaleString('en')})`, 'the unreadable times have their own choice');
  assert.equal(options.at(-1).value, UNDATED);
  // Every session is in exactly one of the widest range, "older" and "undated".
  const widest = options.filter((o) => o.value !== '*' && o.value !== OLDER && o.value !== UNDATED).at(-1).value;
  assert.equal(count(widest) + count(OLDER) + count(UNDATED), list.length);
});
