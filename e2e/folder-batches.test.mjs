// tree.importFiles of a folder larger than one batch (js/folder-import.js
// BATCH_BYTES, 64 MiB; core's import.batches plans them): ~70 MB of Codex
// rollouts and Claude Code transcripts as Blobs, imported in two batches,
// each stored before the next is read — every session whole, the report one
// entry per file in the folder's order, a file no format reads left out
// with its reason — and a second folder aborted once its first batch is
// stored: the envelope says how many files were stored, and exactly their
// sessions are listed, each whole.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from './helpers.mjs';

test('a folder larger than a batch is imported in batches; aborted after one, the stored batch stays whole and the envelope says so', async () => {
  const env = await setup();
  try {
    const { page, baseURL, errors } = env;
    await page.goto(baseURL + 'e2e/fixtures/shim.html');
    await page.waitForFunction(() => window.sessiontree !== undefined);
    const r = await page.evaluate(async () => {
      const { genCodex, genClaudeCode } = await import('/bench/gen-exports.mjs');
      const enc = new TextEncoder();
      const folder = (prefix, n, seed) => {
        const files = [];
        for (let i = 0; i < n; i++) {
          const codex = i % 2 === 0;
          const lines = codex ? genCodex({ mb: 0.5, seed: seed + i }) : genClaudeCode({ mb: 0.5, seed: seed + i });
          const path = codex ? `${prefix}/.codex/sessions/2026/10/01/rollout-2026-10-01T09-00-00-${String(i).padStart(4, '0')}.jsonl` : `${prefix}/.claude/projects/-w/${String(i).padStart(4, '0')}.jsonl`;
          files.push({ path, data: new Blob([enc.encode(lines.join(''))]) });
        }
        return files;
      };
      const tree = await window.sessiontree.init({ dbName: 'folder-batches' });
      const one = folder('a', 140, 100);
      one.splice(3, 0, { path: 'a/pics/cat.png', data: new Blob([new Uint8Array(1000)]) });
      const bytes = one.reduce((n, f) => n + f.data.size, 0);
      let events = 0;
      const first = await tree.importFiles(one, { onProgress: () => events++ });
      if (!first.ok) throw new Error(`${first.error.code}: ${first.error.message}`);
      const listed = (await tree.call({ operation: 'sessions' })).value;
      const counts = await Promise.all(first.value.sessions.slice(0, 3).map(async (s) => [(await tree.call({ operation: 'session', sessionId: s.sessionId })).value.nodeCount, s.added]));

      // The second folder, aborted as its second batch is read: once progress jumped by a whole
      // batch (the first one stored), at the next file.
      const two = folder('b', 140, 900);
      const controller = new AbortController();
      let last = 0;
      let stored = false;
      const second = await tree.importFiles(two, {
        signal: controller.signal,
        onProgress: (p) => {
          if (p.read - last > 10e6) stored = true;
          else if (stored && !controller.signal.aborted) controller.abort();
          last = p.read;
        },
      });
      const after = (await tree.call({ operation: 'sessions' })).value;
      const fromTwo = after.filter((s) => !listed.some((x) => x.sessionId === s.sessionId));
      const whole = await Promise.all(fromTwo.map(async (s) => (await tree.call({ operation: 'context', sessionId: s.sessionId })).ok));

      // A Claude Code session whose sub-agent's file falls in a later batch than its own (a
      // rollout larger than a batch, 64 MiB, between them): one session, reported once.
      const id = '5d1e0000-0000-4000-8000-0000000000aa';
      const cc = (uuid, parentUuid, role, text, side) => JSON.stringify({ type: role, uuid, parentUuid, sessionId: id, ...(side ? { isSidechain: true, agentId: 'a1' } : {}), cwd: '/w', timestamp: '2026-03-01T10:00:00.000Z', message: { role, content: text } }) + '\n';
      const three = [
        { path: `c/.claude/projects/-w/${id}.jsonl`, data: new Blob([cc('m1', null, 'user', 'Fix the cart') + cc('m2', 'm1', 'assistant', 'Looking at it')]) },
        { path: 'c/.codex/sessions/2026/10/02/rollout-2026-10-02T09-00-00-0001.jsonl', data: new Blob([enc.encode(genCodex({ mb: 70, seed: 7 }).join(''))]) },
        { path: `c/.claude/projects/-w/${id}/subagents/agent-a1.jsonl`, data: new Blob([cc('a1', null, 'user', 'Find the cart code', true)]) },
      ];
      const third = await tree.importFiles(three);
      if (!third.ok) throw new Error(`${third.error.code}: ${third.error.message}`);
      const joined = third.value.sessions.filter((s) => s.sessionId.startsWith(id)).map((s) => [s.sessionId, s.existing, s.added, s.nodeCount, s.title, s.tool, s.path]);
      return {
        joined,
        mb: bytes / 1e6, events, sessions: first.value.sessions.length, listed: listed.length,
        files: first.value.files.map((f) => [f.path, f.sessions, f.skipped ?? '']), counts,
        second: second.ok ? 'ok' : `${second.error.code}: ${second.error.message}`, added: fromTwo.length, whole,
      };
    });
    assert.ok(r.mb > 64, `the folder is larger than one batch (${r.mb} MB)`);
    assert.equal(r.sessions, 140);
    assert.equal(r.listed, 140);
    assert.equal(r.files.length, 141);
    assert.deepEqual(r.files[3].slice(0, 2), ['a/pics/cat.png', 0]);
    assert.match(r.files[3][2], /not a session file/);
    assert.ok(r.files.filter((f, i) => i !== 3).every(([, n, why]) => n === 1 && why === ''), 'every session file gave one session');
    assert.ok(r.events >= 141, `progress moved file by file (${r.events})`);
    for (const [count, added] of r.counts) assert.equal(count, added, 'each session is stored whole');
    const m = /^INVALID_ARGUMENT: import aborted; the first (\d+) of 140 files were imported and stored \((\d+) sessions\), the rest was not$/.exec(r.second);
    assert.ok(m, r.second);
    assert.equal(Number(m[2]), r.added, 'the sessions it says were stored are listed');
    assert.ok(r.added > 0 && r.added < 140, `some of the second folder was stored (${r.added})`);
    assert.ok(r.whole.every(Boolean));
    const id = '5d1e0000-0000-4000-8000-0000000000aa';
    assert.deepEqual(r.joined, [[id, false, 3, 3, 'Fix the cart', 'claude-code', `c/.claude/projects/-w/${id}.jsonl`]], 'the parent and its sub-agent, imported in two batches, are one session reported once');
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});
