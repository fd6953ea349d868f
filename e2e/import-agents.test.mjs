// The coding agents' histories in the page (issue 26): the Codex rollout,
// Gemini CLI session and Aider history samples of core/testdata/imports
// through the shim's tree.importText (and importFile, the bytes path for
// the Aider Markdown), each checked by its sessions, titles and the
// context at the cursor; a second import adds nothing. Then the Codex
// items as the reader draws them (static/render-message.js): calls as tool
// calls, outputs as tool results, reasoning as a Thinking section.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { setup, REPO_ROOT } from './helpers.mjs';

const sample = (name) => fs.readFileSync(path.join(REPO_ROOT, 'core/testdata/imports', name), 'utf8');

test('import: a Codex rollout, a Gemini CLI session and an Aider history give the context the model saw; Codex items draw as tool calls, results and Thinking', async () => {
  const codex = sample('codex/rollout-2025-10-06T09-15-00-0199a213-81c0-7800-8aa1-bbab2a035a53.jsonl');
  const gemini = sample('gemini/session-2026-03-02T10-00-7c1b2f0e.jsonl');
  const aider = sample('aider/.aider.chat.history.md');
  const env = await setup();
  try {
    await env.page.goto(env.baseURL + 'e2e/fixtures/shim.html');
    await env.page.locator('#status', { hasText: 'ready' }).waitFor({ timeout: 10000 });
    const out = await env.page.evaluate(async ({ codex, gemini, aider }) => {
      const tree = await window.sessiontree.init({ dbName: 'import-agents-test' });
      const texts = async (sessionId) => (await tree.call({ operation: 'context', sessionId })).value.messages.map((m) => m.role);
      const c = await tree.importText(codex);
      const g = await tree.importText(gemini);
      const a = await tree.importFile(new File([aider], '.aider.chat.history.md', { type: 'text/markdown' }));
      const again = await tree.importText(codex);
      return {
        formats: [c.value.format, g.value.format, a.value.format],
        sessions: [c, g, a].map((r) => r.value.sessions.map((s) => [s.title, s.nodeCount, s.cursor])),
        skipped: a.value.skipped.map((s) => s.reason),
        roles: [await texts(c.value.sessions[0].sessionId), await texts(g.value.sessions[0].sessionId), await texts(a.value.sessions[0].sessionId)],
        again: again.value.sessions.map((s) => [s.existing, s.added]),
      };
    }, { codex, gemini, aider });
    assert.deepEqual(out.formats, ['codex', 'gemini', 'aider']);
    assert.deepEqual(out.sessions, [
      [['Add a test for the price parser', 29, 'L28']],
      [['Debug the failing npm test', 14, 'w1']],
      [['Make add() handle strings like "1" + "2"', 15, 'L37'], ['Add a test', 5, 'L52']],
    ]);
    assert.deepEqual(out.skipped, ['the run at line 39 has no prompt or reply (Aider opened and closed); skipped']);
    assert.deepEqual(out.roles, [
      ['system', 'developer', 'user', 'user', 'assistant', 'user', 'assistant'],
      ['user', 'assistant', 'user', 'assistant', 'user', 'assistant'],
      ['user', 'assistant', 'user', 'assistant'],
    ]);
    assert.deepEqual(out.again, [[true, 0]]);
    const drawn = await env.page.evaluate(async () => {
      const { renderMessage } = await import('/static/render-message.js');
      const draw = (message) => {
        const body = document.createElement('div');
        renderMessage(body, message);
        return {
          thinking: [...body.querySelectorAll('details.thinking .thinking-body')].map((e) => e.textContent),
          calls: [...body.querySelectorAll('.tool-call .tool-name')].map((e) => e.textContent),
          results: [...body.querySelectorAll('details.tool-result pre')].map((e) => e.textContent),
        };
      };
      return [
        draw({ role: 'assistant', content: [{ type: 'reasoning', summary: [{ type: 'summary_text', text: '**Looking**' }], encrypted_content: 'x' }] }),
        draw({ role: 'assistant', content: [{ type: 'custom_tool_call', call_id: 'c', name: 'apply_patch', input: '*** Begin Patch' }] }),
        draw({ role: 'assistant', content: [{ type: 'local_shell_call', call_id: 'c', action: { type: 'exec', command: ['ls'] } }] }),
        draw({ role: 'assistant', content: [{ type: 'web_search_call', action: { type: 'search', query: 'q' } }] }),
        draw({ role: 'tool', content: [{ type: 'custom_tool_call_output', call_id: 'c', output: 'Success.' }] }),
      ];
    });
    assert.deepEqual(drawn, [
      { thinking: ['Looking'], calls: [], results: [] },
      { thinking: [], calls: ['apply_patch'], results: [] },
      { thinking: [], calls: ['shell'], results: [] },
      { thinking: [], calls: ['web search'], results: [] },
      { thinking: [], calls: [], results: ['Success.'] },
    ]);
    // An edit draws as a diff, its lines coloured: Codex's patch and Claude Code's Edit.
    const diffs = await env.page.evaluate(async () => {
      const { renderMessage, highlightCode } = await import('/static/render-message.js');
      const patch = '*** Begin Patch\n*** Update File: src/price.js\n@@\n-export const fmt = (n) => String(n);\n+export const fmt = (n) => n.toFixed(2);\n*** End Patch';
      const out = [];
      for (const content of [
        [{ type: 'custom_tool_call', call_id: 'c', name: 'apply_patch', input: patch }],
        [{ type: 'tool_use', id: 't', name: 'Edit', input: { file_path: '/p/a.js', old_string: 'let a = 1;', new_string: 'const a = 1;' } }],
      ]) {
        const body = document.createElement('div');
        document.body.append(body);
        renderMessage(body, { role: 'assistant', content });
        await highlightCode(body);
        out.push({
          deleted: [...body.querySelectorAll('.tool-diff .hljs-deletion')].map((e) => e.textContent.trim()),
          added: [...body.querySelectorAll('.tool-diff .hljs-addition')].map((e) => e.textContent.trim()),
        });
        body.remove();
      }
      return out;
    });
    assert.deepEqual(diffs, [
      { deleted: ['-export const fmt = (n) => String(n);'], added: ['+export const fmt = (n) => n.toFixed(2);'] },
      { deleted: ['-let a = 1;'], added: ['+const a = 1;'] },
    ]);
    assert.deepEqual(env.errors, []);
  } finally {
    await env.close();
  }
});
