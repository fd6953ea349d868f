// A tool call that edits files shown as a diff (static/tool-diff.js): each
// agent's shape of an edit, and calls that are not edits left alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { patchText } from '../static/tool-diff.js';

const CODEX_PATCH = '*** Begin Patch\n*** Update File: src/price.js\n@@\n-export const fmt = (n) => String(n);\n+export const fmt = (n) => n.toFixed(2);\n*** End Patch';

test('tool-diff: every agent\'s edit becomes unified-diff text', () => {
  const cases = [
    ['Codex apply_patch, the input as is', CODEX_PATCH, CODEX_PATCH],
    ['a function call whose arguments are JSON text holding the patch', JSON.stringify({ input: CODEX_PATCH }), CODEX_PATCH],
    ['a git diff', 'diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b', 'diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b'],
    ['Claude Code Edit', { file_path: '/p/a.js', old_string: 'let a = 1;\nlet b;', new_string: 'const a = 1;' }, '--- /p/a.js\n+++ /p/a.js\n@@\n-let a = 1;\n-let b;\n+const a = 1;'],
    ['Claude Code MultiEdit', { file_path: 'a.md', edits: [{ old_string: 'x', new_string: 'y' }, { old_string: '', new_string: 'z' }] }, '--- a.md\n+++ a.md\n@@\n-x\n+y\n@@\n+z'],
    ['Gemini CLI replace, JSON text', JSON.stringify({ file_path: 'b.ts', old_string: 'old', new_string: 'new', expected_replacements: 1 }), '--- b.ts\n+++ b.ts\n@@\n-old\n+new'],
    ['Cline replace_in_file', { path: 'src/app.ts', diff: '<<<<<<< SEARCH\nconst a = 1;\n=======\nconst a = 2;\n>>>>>>> REPLACE' }, '--- src/app.ts\n+++ src/app.ts\n-const a = 1;\n+const a = 2;\n@@'],
  ];
  for (const [name, args, want] of cases) assert.equal(patchText(args), want, name);
});

test('tool-diff: calls that are not edits, and bad input, give null', () => {
  for (const args of [{ command: ['ls', '-la'] }, 'ls -la', '{"query":"price formats"}', '{not json', null, undefined, 42, [], { old_string: 'a' }, { edits: [] }, { diff: 'no markers here' }]) {
    assert.equal(patchText(args), null, JSON.stringify(args));
  }
});
