// The explorer's session list by tool and project (static/session-filter.js)
// and the folder report joined with its ZIP files' (static/open-folder.js):
// the pure parts, in Node.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { filterByOrigin, formatCount, originOptions, projectLabel, toolLabel } from '../static/session-filter.js';
import { folderReport, joinReports } from '../static/open-folder.js';
import { byActivity, dateOptions, inRange, updatedText } from '../static/session-dates.js';

const sessions = [
  { sessionId: 'a', tool: 'codex', project: '/home/me/api', nodeCount: 3400 },
  { sessionId: 'b', tool: 'codex', project: '/home/me/web', nodeCount: 2 },
  { sessionId: 'c', tool: 'claude-code', project: '/home/me/web', nodeCount: 120 },
  { sessionId: 'd', nodeCount: 1 },
  { sessionId: 'e', tool: 'aider' },
];

test('session-filter: every tool and project is offered with its sessions and their nodes, most sessions first', () => {
  const all = originOptions(sessions, { tool: null, project: null });
  assert.deepEqual(all.tools.map((o) => o.text), ['All tools (5 · 3,523 nodes)', 'Codex (2 · 3,402 nodes)', 'Aider (1 · 0 nodes)', 'Claude Code (1 · 120 nodes)', 'Made here (1 · 1 node)'],
    'a session without a nodeCount weighs nothing');
  assert.deepEqual(all.projects.map((o) => `${o.value}=${o.text}`), ['*=All projects (5 · 3,523 nodes)', '/home/me/web=\u2068/home/me/web\u2069 (2 · 122 nodes)', '=No project (2 · 1 node)', '/home/me/api=\u2068/home/me/api\u2069 (1 · 3,400 nodes)']);
  const codex = originOptions(sessions, { tool: 'codex', project: null });
  assert.deepEqual(codex.projects.map((o) => o.text), ['All projects (2 · 3,402 nodes)', '\u2068/home/me/api\u2069 (1 · 3,400 nodes)', '\u2068/home/me/web\u2069 (1 · 2 nodes)'], 'the projects are the tool chosen');
  assert.deepEqual(originOptions([], { tool: null, project: null }).tools.map((o) => o.text), ['All tools (0 · 0 nodes)']);
});

test('session-filter: large counts stay short: grouped below 10,000, compact above', () => {
  assert.deepEqual([0, 1, 999, 1000, 9999, 10000, 34567, 999999, 1234567, 2500000000].map(formatCount),
    ['0', '1', '999', '1,000', '9,999', '10K', '34.6K', '1M', '1.2M', '2.5B']);
  const many = Array.from({ length: 12345 }, (_, i) => ({ sessionId: `s${i}`, tool: 'codex', nodeCount: 100 }));
  assert.deepEqual(originOptions(many, { tool: null, project: null }).tools.map((o) => o.text), ['All tools (12.3K · 1.2M nodes)', 'Codex (12.3K · 1.2M nodes)']);
});

test('session-filter: a tool, a project, both, or none choose the sessions', () => {
  const ids = (choice) => filterByOrigin(sessions, choice).map((s) => s.sessionId).join('');
  assert.equal(ids({ tool: null, project: null }), 'abcde');
  assert.equal(ids({ tool: 'codex', project: null }), 'ab');
  assert.equal(ids({ tool: null, project: '/home/me/web' }), 'bc');
  assert.equal(ids({ tool: 'codex', project: '/home/me/web' }), 'b');
  assert.equal(ids({ tool: '', project: null }), 'd', 'a session made here has the tool ""');
});

test('session-dates: ranges nest (today within 7 days within 30 within a year), older is the rest, an unknown time only "any time"', () => {
  const now = new Date(2026, 11, 2, 15, 0).getTime(); // local time, as the page's clock
  const at = (days, hours = 0) => ({ updatedAt: new Date(now - days * 86400000 - hours * 3600000).toISOString() });
  const morning = { updatedAt: new Date(2026, 11, 2, 0, 30).toISOString() };
  const yesterday = { updatedAt: new Date(2026, 11, 1, 23, 30).toISOString() };
  const cases = [
    [morning, ['today', '7d', '30d', '365d']],
    [yesterday, ['7d', '30d', '365d']],
    [at(10), ['30d', '365d']],
    [at(200), ['365d']],
    [at(400), ['older']],
    [{ updatedAt: 'not a time' }, []],
    [{}, []],
  ];
  for (const [s, want] of cases) {
    assert.deepEqual(['today', '7d', '30d', '365d', 'older'].filter((r) => inRange(s, r, now)), want, s.updatedAt);
    assert.equal(inRange(s, null, now), true, 'any time holds every session');
  }
});

test('session-dates: the options are the ranges that tell sessions apart, with counts; none that chooses the same sessions as another', () => {
  const now = new Date(2026, 11, 2, 15, 0).getTime();
  const ago = (days) => ({ updatedAt: new Date(now - days * 86400000).toISOString() });
  const texts = (sessions) => dateOptions(sessions, now).map((o) => `${o.value}=${o.text}`);
  assert.deepEqual(texts([ago(0), ago(3), ago(3), ago(40), ago(500)]), ['*=Any time (5)', 'today=Today (1)', '7d=Past 7 days (3)', '365d=Past year (4)', 'older=Older than a year (1)'],
    'past 30 days holds what past 7 days holds: left out');
  assert.deepEqual(texts([ago(0), ago(0)]), ['*=Any time (2)'], 'every session today: nothing to choose');
  assert.deepEqual(texts([ago(400), ago(800)]), ['*=Any time (2)'], 'every session older than a year: nothing to choose');
  assert.deepEqual(texts([]), ['*=Any time (0)']);
});

test('session-filter: names shown for tools and projects', () => {
  assert.equal(toolLabel('gemini'), 'Gemini CLI');
  assert.equal(toolLabel('some-new-tool'), 'some-new-tool');
  assert.equal(projectLabel('/home/me/web'), '/home/me/web');
  assert.equal(projectLabel('/Users/someone/Documents/clients/acme/website'), '…/acme/website');
  assert.equal(projectLabel(''), 'No project');
});

test('open-folder: a folder report and its ZIP files\' join; the folder\'s "nothing imported" goes when the ZIPs gave sessions', () => {
  const empty = { sessions: [], warnings: [], errors: ['nothing imported: a.txt: not a session file'], skipped: [], files: [{ name: 'a.txt', text: 'skipped', kind: 'skipped' }] };
  const zips = { sessions: [{ sessionId: 'z' }], warnings: [{ message: 'w' }], errors: [], skipped: [], files: [{ name: 'x.zip › conversations.json', text: '1 session', kind: 'imported' }] };
  const joined = joinReports(empty, zips);
  assert.deepEqual(joined.sessions.map((s) => s.sessionId), ['z']);
  assert.deepEqual(joined.errors, []);
  assert.deepEqual(joined.files.map((f) => f.name), ['a.txt', 'x.zip › conversations.json']);
  const failed = joinReports(empty, { ...zips, sessions: [], errors: ['x.zip: damaged'] });
  assert.deepEqual(failed.errors, ['nothing imported: a.txt: not a session file', 'x.zip: damaged']);
});

test('open-folder: a folder where no file gave a session lists each file with its reason (core\'s error.files), said once', () => {
  const env = { ok: false, error: { code: 'INVALID_ARGUMENT', message: 'nothing imported: j/a.md: not a session file; j/b.json: not valid JSON', files: [{ path: 'j/a.md', sessions: 0, skipped: 'not a session file' }, { path: 'j/b.json', sessions: 0, skipped: 'not valid JSON' }] } };
  const r = folderReport(env, false);
  assert.deepEqual(r.files, [{ name: 'j/a.md', text: 'skipped: not a session file', kind: 'skipped' }, { name: 'j/b.json', text: 'skipped: not valid JSON', kind: 'skipped' }]);
  assert.deepEqual([r.sessions, r.errors, r.warnings], [[], [], []]);
  // Without the list (an older store, a failure of another kind): the message, once.
  assert.deepEqual(folderReport({ ok: false, error: { code: 'STORAGE_ERROR', message: 'quota' } }, false).errors, ['quota']);
  assert.deepEqual(folderReport(env, true), { sessions: [], warnings: [], errors: ['import cancelled; nothing was imported'], skipped: [], files: [] });
});

test('session-dates: an undated session (updatedAt "", an export without dates) reads "undated" and sorts below every dated one', () => {
  const now = Date.parse('2026-12-02T15:00:00Z');
  assert.equal(updatedText('', now), 'undated');
  assert.equal(updatedText(undefined, now), 'undated');
  assert.equal(updatedText('2026-12-02T14:59:50Z', now), 'just now');
  assert.equal(updatedText('2024-05-01T17:37:40.879Z', now), '2024-05-01');
  const list = [
    { sessionId: 'u2', updatedAt: '' },
    { sessionId: 'old', updatedAt: '2024-05-01T17:37:40.879Z' },
    { sessionId: 'u1', updatedAt: '' },
    { sessionId: 'new', updatedAt: '2026-12-02T14:00:00.000Z' },
    { sessionId: 'none' },
  ];
  assert.deepEqual(list.sort(byActivity).map((s) => s.sessionId), ['new', 'old', 'none', 'u1', 'u2']);
});
