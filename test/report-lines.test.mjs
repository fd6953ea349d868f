// The explorer's import report in words (static/report-lines.js, and
// static/open-folder.js's folderReport, which uses it): a skipped file
// says "skipped" once, and a warning names its session by title. Pure, in
// Node.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { changedFirst, reportTitle, reportTitles, shownName, skippedLine, warningView } from '../static/report-lines.js';
import { folderReport, groupLines, megabytes, saidOnce } from '../static/open-folder.js';

test('report: a skipped file says "skipped" once, whether or not core\'s reason ends with it', () => {
  const cases = [
    ['not a session file (JSON, JSON lines or an Aider history); skipped', 'skipped: not a session file (JSON, JSON lines or an Aider history)'],
    ['the task folder has no api_conversation_history.json (what the model saw); skipped', 'skipped: the task folder has no api_conversation_history.json (what the model saw)'],
    ['conversation "c1" (Trip): none of its 3 records could be used;  skipped ', 'skipped: conversation "c1" (Trip): none of its 3 records could be used'],
    ['not a conversation export', 'skipped: not a conversation export'],
    ['2 user line(s) carry no message; skipped (lines 1, 4)', 'skipped: 2 user line(s) carry no message; skipped (lines 1, 4)'], // "skipped" there is about lines, not the file
    ['a file named skipped', 'skipped: a file named skipped'],
  ];
  for (const [reason, want] of cases) assert.equal(skippedLine(reason), want, reason);
});

test('report: a folder\'s file lines, as folderReport makes them from importFiles', () => {
  const env = {
    ok: true,
    value: {
      sessions: [{ sessionId: 's1', title: 'Plan the trip', tool: 'pi', project: '/p' }],
      warnings: [],
      skipped: [],
      files: [
        { path: 'pi/a.jsonl', tool: 'pi', sessions: 1 },
        { path: 'agents/README.txt', sessions: 0, skipped: 'not a session file (JSON, JSON lines or an Aider history); skipped' },
      ],
    },
  };
  assert.deepEqual(folderReport(env, false).files.map((f) => `${f.name}: ${f.text} (${f.kind})`), [
    'Pi · /p: 1 session (imported)',
    'pi/a.jsonl: Pi · 1 session (imported)',
    'agents/README.txt: skipped: not a session file (JSON, JSON lines or an Aider history) (skipped)',
  ]);
  const failed = folderReport({ ok: false, error: { message: 'nothing imported', files: env.value.files.slice(1) } }, false);
  assert.deepEqual(failed.files.map((f) => f.text), ['skipped: not a session file (JSON, JSON lines or an Aider history)']);
});

test('report: a warning names its session by title, the id kept; core\'s "session "<id>": " left to the label', () => {
  const titleOf = reportTitles({
    sessions: [
      { sessionId: '88a8d761-7b9a-4bf1-a8ca-c1febe6bf358', title: 'Research data-border-color usage' },
      { sessionId: 'untitled' },
    ],
    skipped: [{ sessionId: 'gone', title: 'Corrupted entry', reason: 'no mapping; skipped' }],
  });
  const cases = [
    [{ sessionId: '88a8d761-7b9a-4bf1-a8ca-c1febe6bf358', message: 'session "88a8d761-7b9a-4bf1-a8ca-c1febe6bf358": 1 user line(s) carry no message; skipped (lines 3)' },
      { session: { id: '88a8d761-7b9a-4bf1-a8ca-c1febe6bf358', name: 'Research data-border-color usage' }, text: '1 user line(s) carry no message; skipped (lines 3)' }],
    [{ sessionId: '88a8d761-7b9a-4bf1-a8ca-c1febe6bf358', message: 'message "c" names parent "a", which is not in the conversation; it becomes a root' },
      { session: { id: '88a8d761-7b9a-4bf1-a8ca-c1febe6bf358', name: 'Research data-border-color usage' }, text: 'message "c" names parent "a", which is not in the conversation; it becomes a root' }],
    [{ sessionId: 'gone', message: 'session "other": x' }, { session: { id: 'gone', name: 'Corrupted entry' }, text: 'session "other": x' }],
    [{ sessionId: 'untitled', message: 'y' }, { session: { id: 'untitled', name: 'untitled' }, text: 'y' }],
    [{ sessionId: 'elsewhere', message: 'z' }, { session: { id: 'elsewhere', name: 'elsewhere' }, text: 'z' }],
    [{ message: 'the file is UTF-16 (little-endian); it was read as such', file: 'a.json' }, { session: null, text: 'the file is UTF-16 (little-endian); it was read as such' }],
  ];
  for (const [w, want] of cases) assert.deepEqual(warningView(w, titleOf, false), want, w.message);
  assert.deepEqual(warningView({ message: 'm', file: 'a.json' }, titleOf, true), { session: null, text: 'a.json: m' }, 'of several files, the file first');
});

test('report: a warning loses the words naming its own session, by id or title, after a folder\'s file too', () => {
  const titleOf = reportTitles({ sessions: [{ sessionId: 'd652', title: 'Citation Convo' }, { sessionId: '0199', title: 'Add a test' }] });
  const cases = [
    ['d652', 'conversation "Citation Convo": message "4b3a" lists child "aaa2", which is not in the mapping; ignored', 'message "4b3a" lists child "aaa2", which is not in the mapping; ignored'],
    ['d652', 'exports/c.json: conversation "Citation Convo": message "4b3a" lists child "aaa2"', 'exports/c.json: message "4b3a" lists child "aaa2"'],
    ['d652', 'chat "d652": message 2 has no role; skipped', 'message 2 has no role; skipped'],
    ['d652', 'conversation "Citation Convo" has no messages; it is an empty session', 'has no messages; it is an empty session'],
    ['0199', '.codex/sessions/r.jsonl: session "0199": 1 event_msg token_count line(s): the model does not see them; skipped (lines 16)', '.codex/sessions/r.jsonl: 1 event_msg token_count line(s): the model does not see them; skipped (lines 16)'],
    ['0199', 'conversation "0199": no messages', 'no messages'],
    ['0199', 'a.jsonl: a note about session "0199": kept', 'a.jsonl: a note about session "0199": kept'], // not where a name begins
    ['d652', 'conversation "Other title": x', 'conversation "Other title": x'], // a title that is not its own is left
    ['d652', 'conversation "d652"s', 'conversation "d652"s'], // not followed by ": " or a space
  ];
  for (const [sessionId, message, want] of cases) assert.equal(warningView({ sessionId, message }, titleOf, true).text, want, message);
});

test('report: a skipped conversation\'s reason, after its label, does not name it again', () => {
  const reason = 'conversation "Corrupted entry" has no messages (its "mapping" is missing); skipped';
  assert.deepEqual(warningView({ sessionId: '6b0f', message: reason }, () => 'Corrupted entry', false),
    { session: { id: '6b0f', name: 'Corrupted entry' }, text: 'has no messages (its "mapping" is missing); skipped' });
});

test('report: a file of a folder whose format was not detected says so in its first words, without the list of every format tried', () => {
  const reason = 'could not detect the format of the import data: it is a JSON object with the keys "a"; tried: snapshot (a JSON object with "version", "sessionId" and "nodes"); chatgpt (objects with "mapping"); openai (an array of messages with "role")';
  assert.equal(skippedLine(reason), 'skipped: could not detect the format of the import data: it is a JSON object with the keys "a"');
});

test('report: a name\'s control and bidi override characters are shown as escapes; right-to-left marks and text are kept', () => {
  assert.equal(shownName('invoice\u202Egpj.exe'), 'invoice\\u{202e}gpj.exe');
  assert.equal(shownName('a\nb\tc\u0000d\u007f\u0085\u2066e\u2069'), 'a\\u{000a}b\\u{0009}c\\u{0000}d\\u{007f}\\u{0085}\\u{2066}e\\u{2069}');
  assert.equal(shownName('שלום\u200F.json › مرحبا\u061C/é😀.jsonl'), 'שלום\u200F.json › مرحبا\u061C/é😀.jsonl');
});

test('report: a folder\'s warnings leave out what its file and skipped lines say already', () => {
  const undetected = 'could not detect the format of the import data: it is a JSON object with the keys "name"; tried: …';
  const v = {
    files: [{ path: 'repo/package.json', skipped: undetected }, { path: 'a/empty.jsonl', tool: 'claude-code', sessions: 0 }, { path: 'b.jsonl', tool: 'pi', sessions: 1 }],
    skipped: [{ sessionId: 'e1', reason: 'conversation "e1" has no message; skipped' }],
    warnings: [
      { message: `repo/package.json: ${undetected}` },
      { sessionId: 'e1', message: 'a/empty.jsonl: conversation "e1" has no message; skipped' },
      { sessionId: 's1', message: 'b.jsonl: line 3 is not valid JSON; it is skipped' },
      { message: 'repo/other.json: the file is UTF-16 (little-endian); it was read as such' },
    ],
  };
  assert.deepEqual(saidOnce(v).map((w) => w.message), ['b.jsonl: line 3 is not valid JSON; it is skipped', 'repo/other.json: the file is UTF-16 (little-endian); it was read as such']);
});

test('report: the title says what was imported, updated (a file that grew, by how many nodes) and already here', () => {
  const made = { existing: false, added: 3 };
  const same = { existing: true, added: 0 };
  const grew = (added) => ({ existing: true, added });
  assert.equal(reportTitle([]), 'Nothing imported');
  assert.equal(reportTitle([made, made]), 'Imported 2 sessions');
  assert.equal(reportTitle([same, same]), 'Already here: 2 sessions, nothing new');
  assert.equal(reportTitle([grew(2), ...Array(15).fill(same)]), 'Updated 1 session (+2 nodes) · 15 already here');
  assert.equal(reportTitle([made, grew(1), grew(1200), same]), 'Imported 1 session · updated 2 sessions (+1,201 nodes) · 1 already here');
  assert.equal(reportTitle([grew(1)]), 'Updated 1 session (+1 node)');
  const replaced = { existing: true, replaced: 'Before import 2026-12-06 10:10:25' };
  assert.equal(reportTitle([replaced]), 'Replaced 1 session', 'a snapshot loaded over its session, as asked');
  assert.equal(reportTitle([made, replaced, same]), 'Imported 1 session · replaced 1 session · 1 already here');
});

test('report: a folder\'s size on the progress bar', () => {
  assert.deepEqual([megabytes(0), megabytes(420_000), megabytes(9_960_000), megabytes(120_400_000)], ['0.0 MB', '0.4 MB', '10.0 MB', '120 MB']);
});

test('report: a tool\'s folder read as one is one line with its files and sessions counted; its skipped files keep theirs', () => {
  const files = [
    { path: 'home/opencode/storage/session/p/ses_1.json', tool: 'opencode', sessions: 2 },
    { path: 'home/opencode/storage/message/ses_1/msg_1.json', tool: 'opencode', sessions: 0 },
    { path: 'home/opencode/storage/part/msg_1/prt_1.json', tool: 'opencode', sessions: 0 },
    { path: 'home/cline/tasks/42/api_conversation_history.json', tool: 'cline', sessions: 1 },
    { path: 'home/cline/tasks/42/settings.json', sessions: 0, skipped: 'not a conversation file of the task folder; skipped' },
    { path: 'home/pi/s.jsonl', tool: 'pi', sessions: 1 },
    { path: 'home/opencode/storage-old/x.json', tool: 'opencode', sessions: 0 },
    { path: 'home/cline/tasks/42/conversations.json', tool: 'chatgpt', sessions: 3 },
  ];
  const sessions = [
    { path: 'home/opencode/storage', tool: 'opencode' }, { path: 'home/opencode/storage', tool: 'opencode' },
    { path: 'home/cline/tasks/42', tool: 'cline' }, { path: 'home/pi/s.jsonl', tool: 'pi' },
    { path: 'home/cline/tasks/42/conversations.json', tool: 'chatgpt' },
  ];
  const line = (f) => ({ name: f.path, text: f.skipped ? 'skipped' : f.tool, kind: f.skipped ? 'skipped' : 'imported' });
  assert.deepEqual(groupLines(files, sessions, line).map((l) => `${l.name}: ${l.text}`), [
    'home/opencode/storage: OpenCode · 3 files · 2 sessions',
    'home/cline/tasks/42: Cline / Roo Code · 1 file · 1 session',
    'home/cline/tasks/42/settings.json: skipped',
    'home/pi/s.jsonl: pi',
    'home/opencode/storage-old/x.json: opencode',
    'home/cline/tasks/42/conversations.json: chatgpt',
  ], 'an export inside a task folder keeps its own line, its sessions not the task\'s');
});

test('report: the sessions an import made come first, then those it updated or replaced, then those already here, each in order', () => {
  const list = [
    { sessionId: 'same1', existing: true, added: 0 },
    { sessionId: 'grew', existing: true, added: 4 },
    { sessionId: 'same2', existing: true, added: 0 },
    { sessionId: 'new1' },
    { sessionId: 'replaced', existing: true, replaced: 'Before import 2026-12-06 10:10:25' },
    { sessionId: 'new2', existing: false },
  ];
  assert.deepEqual(changedFirst(list).map((s) => s.sessionId), ['new1', 'new2', 'grew', 'replaced', 'same1', 'same2']);
  assert.deepEqual(list.map((s) => s.sessionId), ['same1', 'grew', 'same2', 'new1', 'replaced', 'new2'], 'the import\'s own list is left as it is');
  const fresh = [{ sessionId: 'b' }, { sessionId: 'a' }];
  assert.deepEqual(changedFirst(fresh).map((s) => s.sessionId), ['b', 'a'], 'nothing here before: the import\'s order');
});
