// js/folder-import.js joinSessions: a session two batches of one folder
// import report is one entry, as core's FileSession.joined makes it within
// one call (core/internal/importer/import_files.go).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { joinSessions } from '../js/folder-import.js';

test('a session reported by two batches is one entry: first file, tool and project, nodes and warnings summed', () => {
  const sessions = [];
  const reported = new Map();
  joinSessions(sessions, [{ sessionId: 'a', title: 'Cart', tool: 'aider', path: 'code/shop/.aider.chat.history.md', project: 'code/shop', existing: false, added: 3, warnings: 1, nodeCount: 3 }], reported);
  joinSessions(sessions, [
    { sessionId: 'a', title: 'Cart', tool: 'aider', path: 'code/blog/.aider.chat.history.md', project: 'code/blog', existing: true, added: 0, warnings: 2, nodeCount: 3 },
    { sessionId: 'b', title: 'Other', tool: 'codex', path: 'x.jsonl', project: '/w', existing: false, added: 5, warnings: 0, nodeCount: 5 },
  ], reported);
  assert.deepEqual(sessions, [
    { sessionId: 'a', title: 'Cart', tool: 'aider', path: 'code/shop/.aider.chat.history.md', project: 'code/shop', existing: false, added: 3, warnings: 3, nodeCount: 3 },
    { sessionId: 'b', title: 'Other', tool: 'codex', path: 'x.jsonl', project: '/w', existing: false, added: 5, warnings: 0, nodeCount: 5 },
  ]);
  // A first report without a project takes the later one's.
  const s2 = [];
  const r2 = new Map();
  joinSessions(s2, [{ sessionId: 'c', tool: 'claude-code', path: 'p.jsonl', existing: false, added: 1, warnings: 0 }], r2);
  joinSessions(s2, [{ sessionId: 'c', tool: 'claude-code', path: 'q.jsonl', project: '/home/me', existing: true, added: 2, warnings: 0 }], r2);
  assert.equal(s2[0].project, '/home/me');
  assert.equal(s2[0].added, 3);
});
