// Review of "context in columns" (call({operation: "context"}) builds the
// messages array from the wasm's text buffers, js/sessiontree.js _context):
// the value must be exactly JSON.parse of callText's answer, keys in the
// same order, for every message — checked here against the messages as
// appended (JSON.parse of each request's text), in memory and persisted,
// after fork, clone, snapshot.load, jump, summaries, compactions and custom
// messages, for every node of every fixture import, across two tabs and a
// reload.
import fs from 'node:fs';
import path from 'node:path';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, REPO_ROOT, openShimPage } from './helpers.mjs';

let env;
before(async () => {
  env = await setup();
});
after(async () => {
  await env?.close();
});

/** Opens the shim test page in a fresh page of the shared context. */
const shimPage = () => openShimPage(env);

/**
 * In the page: compares call's context of each session with JSON.parse of
 * callText's (JSON.stringify, so key order counts) at every node of the
 * sessions, the cursor jumping there; returns the number of contexts
 * compared and the first differences.
 */
function compareEveryNode(page, dbName) {
  return page.evaluate(async (dbName) => {
    const tree = await window.sessiontree.init({ dbName });
    const diffs = [];
    let compared = 0;
    for (const s of (await tree.call({ operation: 'sessions' })).value) {
      const list = (await tree.call({ operation: 'list', sessionId: s.sessionId })).value;
      const nodes = list.nodes ?? list;
      // Forwards, then backwards: the cache is filled in both orders.
      for (const node of [...nodes, ...nodes.slice().reverse()]) {
        await tree.call({ operation: 'jump', sessionId: s.sessionId, nodeId: node.id });
        const parsed = JSON.stringify(await tree.call({ operation: 'context', sessionId: s.sessionId }));
        const text = JSON.stringify(JSON.parse(await tree.callText({ operation: 'context', sessionId: s.sessionId })));
        compared++;
        if (parsed !== text && diffs.length < 3) diffs.push({ session: s.sessionId, node: node.id, parsed: parsed.slice(0, 300), text: text.slice(0, 300) });
      }
    }
    return { compared, diffs };
  }, dbName);
}

test('call gives exactly the appended messages for escapes, BOMs, surrogates, unicode roles and huge texts, after fork, clone, load, jump, summaries, compactions and custom messages', async () => {
  const page = await shimPage();
  const r = await page.evaluate(async () => {
    const big = 'x'.repeat(2 << 20);
    const bigWide = 'é'.repeat(1 << 20);
    // Message texts as sent (JSON), each appended through callText as it
    // is; JSON.parse of each is what context must give.
    const messages = [
      '{"role":"user","content":"\\u0000\\u0001\\u001f\\u007f\\u0080\\u07ff\\u0800\\uffff\\ufffe"}',
      '{"role":"user","content":"\u2028\u2029 raw and escaped \\u2028\\u2029"}',
      '{"role":"user","content":"\ufeff"}',
      '{"role":"user","content":"\\ufeff escaped BOM first"}',
      '{"role":"user","content":"mid \ufeff BOM"}',
      '{"role":"user","content":"😀 raw pair"}',
      '{"role":"user","content":"\\ud83d\\ude00 escaped pair"}',
      '{"role":"user","content":"\\uD83D\\uDE00 upper-case escaped pair"}',
      '{"role":"user","content":"\\udc00 lone low"}',
      '{"role":"user","content":"\\ud800"}',
      '{"role":"user","content":""}',
      '{"role":"ユーザー","content":"unicode role"}',
      '{"role":"🤖","content":"emoji role 😀"}',
      '{"role":"user","content":"a","content":"b"}',
      '{"content":"a","role":"user","content":"b"}',
      '{"role":"user","content":"x","role":"assistant"}',
      '{"role":"assistant","content":null}',
      '{"role":"user","content":"n","n":12345678901234567890123}',
      '{"role":"user","content":"x","extra":1}',
      '{"__proto__":{"x":1},"role":"user","content":"proto"}',
      '{"role":"user", "content":"space after a comma"}',
      '{ "role" : "user" , "content" : "spaces everywhere" }',
      '{"role":"user","content":"\\/\\b\\f\\n\\r\\t\\"\\\\"}',
      '{"content":"é first","role":"assistant"}',
      '{"content":"","role":"assistant"}',
      '{"role":"user","content":"' + big + '"}',
      '{"role":"user","content":"' + bigWide + '"}',
      '{"role":"user","content":"after the big ones"}',
      '{"role":"user","content":"\\u00e9"}',
      '{"role":"user","content":"tail \\u0041\\u0042"}',
    ];
    const expected = messages.map((m) => JSON.parse(m));
    const out = {};
    for (const persist of [false, true]) {
      const tree = await window.sessiontree.init(persist ? { dbName: 'columns-review-' + Math.random() } : { persist: false });
      const steps = [];
      // Count the answers in columns, so the test knows it checked them
      // (the store's own counter: it may run in the page's worker).
      const columnsBefore = (await tree._debug()).columnAnswers;
      const ok = async (request) => {
        const t = await tree.callText(request);
        if (!t.startsWith('{"ok":true')) steps.push(t.slice(0, 200));
        return JSON.parse(t).value;
      };
      const context = async (id) => {
        // A context is answered in columns while the store writes nothing: the metas of the
        // appends before are written now, not by the flush timer during the call (which made
        // one answer in nine come as JSON on a loaded machine).
        await tree.flush();
        const parsed = await tree.call({ operation: 'context', sessionId: id });
        const text = JSON.parse(await tree.callText({ operation: 'context', sessionId: id }));
        if (JSON.stringify(parsed) !== JSON.stringify(text)) steps.push(`${id}: call and callText differ`);
        return parsed.value.messages;
      };
      const same = (got, want) => JSON.stringify(got) === JSON.stringify(want);
      await ok('{"operation":"create","sessionId":"s"}');
      const ids = [];
      for (const m of messages) ids.push((await ok(`{"operation":"append","sessionId":"s","message":${m}}`)).id);
      const r = {};
      r.main = same(await context('s'), expected);
      r.again = same(await context('s'), expected); // from the cache
      const first = await context('s');
      r.values = {
        nul: first[0].content.charCodeAt(0),
        ls: first[1].content.charCodeAt(0),
        bom: first[2].content,
        pair: first[5].content.codePointAt(0),
        lone: first[9].content.charCodeAt(0),
        roles: [first[11].role, first[12].role],
        keys: [Object.keys(first[13]).join(), Object.keys(first[14]).join(), Object.keys(first[23]).join()],
        duplicates: [first[13].content, first[14].content, first[15].role],
        big: [first[25].content.length, first[26].content.length, first[26].content.charCodeAt(5)],
      };
      // A summary branch, custom messages and a compaction.
      await ok(JSON.stringify({ operation: 'branch.summary', sessionId: 's', nodeId: ids[5], branch: 'sum', summary: 'a «summary» \u2028 😀 \ufeff' }));
      await ok(JSON.stringify({ operation: 'append', sessionId: 's', entry: { kind: 'custom_message', customType: 't', content: 'custom \ufeff text é' } }));
      await ok(JSON.stringify({ operation: 'append', sessionId: 's', entry: { kind: 'custom_message', customType: 't', content: [{ type: 'text', text: 'parts' }] } }));
      const summary = await context('s');
      r.summary = [summary.length, summary[6].role, summary[6].content.includes('a «summary» \u2028 😀 \ufeff'), summary[7].content, summary[8].content];
      await ok(JSON.stringify({ operation: 'append', sessionId: 's', entry: { kind: 'compaction', summary: 'compact é', firstKeptNodeId: ids[3] } }));
      await ok(JSON.stringify({ operation: 'append', sessionId: 's', message: { role: 'user', content: 'after the compaction' } }));
      const compacted = await context('s');
      r.compaction = [compacted.length, compacted[0].content.includes('compact é'), same(compacted.slice(1, 4), expected.slice(3, 6)), compacted.at(-1).content];
      // A fork and a clone, each with its own next message.
      await ok(JSON.stringify({ operation: 'fork', sessionId: 's', nodeId: ids[10], newSessionId: 'f' }));
      await ok(JSON.stringify({ operation: 'clone', sessionId: 's', newSessionId: 'c' }));
      for (const id of ['f', 'c', 's']) await ok(JSON.stringify({ operation: 'append', sessionId: id, message: { content: 'after ' + id + ' é', role: 'assistant' } }));
      const fork = await context('f');
      r.fork = [same(fork.slice(0, 11), expected.slice(0, 11)), same(fork[11], { content: 'after f é', role: 'assistant' })];
      r.clone = [(await context('c')).at(-1).content, (await context('s')).at(-1).content];
      // The clone's snapshot loaded over s; then a jump back into it.
      const snap = await ok(JSON.stringify({ operation: 'snapshot.save', sessionId: 'c' }));
      await ok(JSON.stringify({ operation: 'snapshot.load', sessionId: 's', snapshot: { ...snap, sessionId: 's' } }));
      r.loaded = (await context('s')).at(-1).content;
      await ok(JSON.stringify({ operation: 'jump', sessionId: 's', nodeId: ids[2] }));
      r.jump = same(await context('s'), expected.slice(0, 3));
      r.steps = steps;
      r.columns = (await tree._debug()).columnAnswers - columnsBefore;
      out[persist ? 'persisted' : 'memory'] = r;
    }
    return out;
  });
  for (const key of ['memory', 'persisted']) {
    assert.deepEqual(r[key], {
      main: true,
      again: true,
      values: {
        nul: 0,
        ls: 0x2028,
        bom: '\ufeff',
        pair: 0x1f600,
        lone: 0xd800,
        roles: ['ユーザー', '🤖'],
        keys: ['role,content', 'content,role', 'content,role'],
        duplicates: ['b', 'b', 'assistant'],
        big: [2 << 20, 1 << 20, 0xe9],
      },
      summary: [9, 'user', true, 'custom \ufeff text é', [{ type: 'text', text: 'parts' }]],
      compaction: [8, true, true, 'after the compaction'],
      fork: [true, true],
      clone: ['after c é', 'after s é'],
      loaded: 'after c é',
      jump: true,
      steps: [],
      columns: 10, // every context() above
    }, key);
  }
  await page.close();
});

test('call and callText give the same context at every node of every fixture import, after another tab appends, and after a reload', async (t) => {
  const dir = path.resolve(REPO_ROOT, '..', 'shared', 'fixtures');
  if (!fs.existsSync(dir)) return t.skip('fixtures are not on this machine');
  const files = [];
  for (const sub of fs.readdirSync(dir).sort()) {
    const p = path.join(dir, sub);
    if (!fs.statSync(p).isDirectory()) continue;
    for (const f of fs.readdirSync(p).sort()) files.push([sub + '/' + f, fs.readFileSync(path.join(p, f), 'utf8')]);
  }
  const dbName = 'columns-imports-' + Math.random();
  const page = await shimPage();
  const imported = await page.evaluate(async ({ files, dbName }) => {
    const tree = await window.sessiontree.init({ dbName });
    let sessions = 0;
    for (const [, text] of files) {
      const env = await tree.importText(text, 'auto');
      if (env.ok) sessions += env.value.sessions.length;
    }
    return sessions;
  }, { files, dbName });
  assert.ok(imported >= 10, `imported ${imported} sessions`);
  let r = await compareEveryNode(page, dbName);
  assert.deepEqual(r.diffs, []);
  assert.ok(r.compared >= 100, `compared ${r.compared}`);
  const compared = r.compared;

  // Another tab appends to every session; this one takes the nodes in.
  const page2 = await shimPage();
  const appended = await page2.evaluate(async (dbName) => {
    const tree = await window.sessiontree.init({ dbName });
    let n = 0;
    for (const s of (await tree.call({ operation: 'sessions' })).value) {
      await tree.call({ operation: 'append', sessionId: s.sessionId, message: { role: 'user', content: 'from tab 2 é \ufeff 😀' } });
      await tree.callText(`{"operation":"append","sessionId":${JSON.stringify(s.sessionId)},"message":{"content":"tab 2 \\ud83d\\ude00 \\u0000","role":"assistant"}}`);
      n += 2;
    }
    return n;
  }, dbName);
  const last = await page.evaluate(async (dbName) => {
    const tree = await window.sessiontree.init({ dbName });
    await tree.refresh();
    const id = (await tree.call({ operation: 'sessions' })).value[0].sessionId;
    const list = (await tree.call({ operation: 'list', sessionId: id })).value;
    await tree.call({ operation: 'jump', sessionId: id, nodeId: (list.nodes ?? list).at(-1).id }); // this tab's cursor stayed where it was
    return (await tree.call({ operation: 'context', sessionId: id })).value.messages.slice(-2);
  }, dbName);
  assert.deepEqual(last, [{ role: 'user', content: 'from tab 2 é \ufeff 😀' }, { content: 'tab 2 😀 \u0000', role: 'assistant' }]);
  r = await compareEveryNode(page, dbName);
  assert.deepEqual(r.diffs, []);
  assert.equal(r.compared, compared + 2 * appended);

  await page.reload();
  await page.waitForFunction(() => window.sessiontree);
  r = await compareEveryNode(page, dbName);
  assert.deepEqual(r.diffs, []);
  assert.equal(r.compared, compared + 2 * appended);
  await page.close();
  await page2.close();
});

test('the page keeps decoded text caches: contexts after appends, a reload of the session, and more sessions than it keeps stay right', async () => {
  const page = await shimPage();
  const r = await page.evaluate(async () => {
    const tree = await window.sessiontree.init({ persist: false });
    const same = async (id) => {
      const parsed = await tree.call({ operation: 'context', sessionId: id });
      const text = await tree.callText({ operation: 'context', sessionId: id });
      return JSON.stringify(parsed) === JSON.stringify(JSON.parse(text)) ? parsed.value.messages.length : `differs at ${id}`;
    };
    const out = [];
    const ids = ['a', 'b', 'c', 'd', 'e', 'f'];
    for (const id of ids) {
      await tree.call({ operation: 'create', sessionId: id });
      for (let i = 0; i < 20; i++) await tree.call({ operation: 'append', sessionId: id, message: { role: i % 2 ? 'assistant' : 'user', content: `${id} turn ${i}${i % 3 ? '' : ' — café 🙂'}` } });
    }
    // Contexts with appends between them: the cache grows, its old part
    // stays decoded, the new part is decoded and appended.
    for (let i = 0; i < 5; i++) {
      await tree.call({ operation: 'append', sessionId: 'a', message: { role: 'user', content: i % 2 ? `plain ${i}` : `wide ${i} ü` } });
      out.push(await same('a'));
    }
    const cached = tree._texts.size;
    // The same session id loaded anew: a new cache, decoded from scratch.
    const snap = (await tree.call({ operation: 'snapshot.save', sessionId: 'a' })).value;
    snap.nodes[3].message.content = 'changed by the load';
    await tree.call({ operation: 'snapshot.load', sessionId: 'a', snapshot: snap });
    out.push(await same('a'));
    const fourth = (await tree.call({ operation: 'context', sessionId: 'a' })).value.messages[3].content;
    // More sessions than the page keeps caches for, round and round.
    for (let round = 0; round < 2; round++) for (const id of ids) out.push(await same(id));
    return { out, cached, kept: tree._texts.size, fourth };
  });
  assert.deepEqual(r.out, [21, 22, 23, 24, 25, 25, 25, 20, 20, 20, 20, 20, 25, 20, 20, 20, 20, 20]);
  assert.equal(r.cached, 1);
  assert.equal(r.kept, 4, 'the page keeps the texts of the last four sessions');
  assert.equal(r.fourth, 'changed by the load');
  await page.close();
});

test('a chat turn reuses the last answer\'s message objects (frozen), and a jump, a branch or a reloaded session gives the right messages again', async () => {
  const page = await shimPage();
  const r = await page.evaluate(async () => {
    const out = {};
    for (const worker of [true, false]) {
      const tree = await window.sessiontree.init({ persist: false, worker });
      const id = 'reuse-' + worker;
      await tree.call({ operation: 'create', sessionId: id });
      const ids = [];
      for (let k = 0; k < 6; k++) ids.push((await tree.call({ operation: 'append', sessionId: id, message: { role: k % 2 ? 'assistant' : 'user', content: `m${k} é` + (k === 3 ? ' wide ✓' : '') } })).value.id);
      const a = (await tree.call({ operation: 'context', sessionId: id })).value.messages;
      await tree.call({ operation: 'append', sessionId: id, message: { role: 'user', content: 'm6' } });
      const b = (await tree.call({ operation: 'context', sessionId: id })).value.messages;
      const sameObjects = a.every((m, i) => b[i] === m);
      let threw = false;
      try {
        (() => {
          'use strict';
          b[0].content = 'changed';
        })();
      } catch (err) {
        threw = err instanceof TypeError;
      }
      // A sibling of m5: the messages before it are the same objects, the rest new and right
      // (the path holds most of the text cache, so the answer is over the cache itself).
      await tree.call({ operation: 'jump', sessionId: id, nodeId: ids[4] });
      await tree.call({ operation: 'append', sessionId: id, message: { role: 'assistant', content: 'other m5' } });
      const c = (await tree.call({ operation: 'context', sessionId: id })).value.messages;
      const text = JSON.parse(await tree.callText({ operation: 'context', sessionId: id })).value.messages;
      // The session loaded anew (a new text cache): nothing is reused across it.
      const snap = (await tree.call({ operation: 'snapshot.save', sessionId: id })).value;
      await tree.call({ operation: 'snapshot.load', sessionId: id, snapshot: { ...snap, cursor: ids[1] } });
      const d = (await tree.call({ operation: 'context', sessionId: id })).value.messages;
      out[worker ? 'worker' : 'local'] = {
        sameObjects,
        frozen: Object.isFrozen(b[0]) && b[0].content === 'm0 é',
        threw,
        newArray: a !== b,
        lengths: [a.length, b.length, c.length, d.length],
        prefixShared: c.slice(0, 5).every((m, i) => m === b[i]) && c[5] !== b[5],
        c: JSON.stringify(c) === JSON.stringify(text),
        cLast: c[5].content,
        d: d.map((m) => m.content),
        dFresh: d[0] !== b[0],
      };
      tree.close();
    }
    return out;
  });
  for (const mode of ['worker', 'local']) {
    assert.deepEqual(r[mode], {
      sameObjects: true, frozen: true, threw: true, newArray: true, lengths: [6, 7, 6, 2],
      prefixShared: true, c: true, cLast: 'other m5', d: ['m0 é', 'm1 é'], dFresh: true,
    }, mode);
  }
});

test('chat turns answered with only what follows the last answer (a prefix) stay exact across long texts, tool messages, jumps and six sessions in turn', async () => {
  const page = await shimPage();
  const r = await page.evaluate(async () => {
    const out = {};
    for (const worker of [true, false]) {
      const tree = await window.sessiontree.init({ persist: false, worker });
      // Count the answers that came with a prefix, on the side that builds them.
      const prefixes = [];
      if (worker) {
        const build = tree._buildContext.bind(tree);
        tree._buildContext = (a) => (prefixes.push(JSON.parse(a.head).columns.prefix), build(a));
      } else {
        const context = tree._handle.context.bind(tree._handle);
        tree._handle.context = (req, held) => {
          const head = context(req, held);
          if (head.startsWith('{"ok":true,"columns":')) prefixes.push(JSON.parse(head).columns.prefix);
          return head;
        };
      }
      const ids = ['a', 'b', 'c', 'd', 'e', 'f'];
      for (const id of ids) await tree.call({ operation: 'create', sessionId: id });
      let compared = 0;
      const diffs = [];
      const long = 'long ✓ '.repeat(3000) + 'x'.repeat(30000); // past the page's 65,536-unit text tail
      for (let k = 0; k < 120; k++) {
        const id = ids[k < 60 ? 0 : k % ids.length];
        let message = { role: k % 2 ? 'assistant' : 'user', content: `turn ${k}` + (k % 7 === 0 ? ' é' : '') };
        if (k % 11 === 5) message = { role: 'tool', content: `tool ${k}`, toolCallId: `call-${k}` };
        if (k % 13 === 6) message = { role: 'user', content: long + k };
        if (k === 40) {
          // A jump back and a branch: the next answer starts again, the ones after continue it.
          const list = (await tree.call({ operation: 'list', sessionId: id })).value;
          await tree.call({ operation: 'jump', sessionId: id, nodeId: (list.nodes ?? list)[20].id });
        }
        await tree.call({ operation: 'append', sessionId: id, message });
        const got = JSON.stringify(await tree.call({ operation: 'context', sessionId: id }));
        const want = JSON.stringify(JSON.parse(await tree.callText({ operation: 'context', sessionId: id })));
        compared++;
        if (got !== want && diffs.length < 3) diffs.push({ k, got: got.slice(-300), want: want.slice(-300) });
      }
      out[worker ? 'worker' : 'local'] = { compared, diffs, withPrefix: prefixes.filter((p) => p > 0).length, answers: prefixes.length };
      tree.close();
    }
    return out;
  });
  for (const mode of ['worker', 'local']) {
    const m = r[mode];
    assert.deepEqual(m.diffs, [], mode);
    assert.equal(m.compared, 120, mode);
    assert.equal(m.answers, 120, mode);
    // Session a's 60 turns continue their last answer but for the first and the one after
    // the jump; with six sessions in turn (more than the four caches kept) some start again.
    assert.ok(m.withPrefix >= 58 && m.withPrefix < 120, `${mode}: ${m.withPrefix} of ${m.answers} answers had a prefix`);
  }
});

test('a message nested 100,000 levels deep is stored and answered by context, after a reload, with the store in its worker and in the page thread', async () => {
  const page = await shimPage();
  const got = await page.evaluate(async () => {
    const out = {};
    for (const worker of [true, false]) {
      for (const depth of [2000, 100000]) {
        const dbName = `deep-${worker}-${depth}`;
        // Sent as text: Firefox's JSON.stringify stops at a few thousand
        // levels (call answers INVALID_ARGUMENT, "too much recursion").
        const nested = '['.repeat(depth) + '"x"' + ']'.repeat(depth);
        let tree = await window.sessiontree.init({ dbName, worker });
        await tree.call({ operation: 'create', sessionId: 's' });
        const appended = await tree.call(`{"operation":"append","sessionId":"s","message":{"role":"user","content":"hi","extra":${nested}}}`);
        // The header crosses from the worker as text: its parsed messages
        // failed to clone at ~2,000 levels ("Maximum call stack size exceeded").
        const before = await tree.call({ operation: 'context', sessionId: 's' });
        await tree.close();
        tree = await window.sessiontree.init({ dbName, worker });
        const after = await tree.call({ operation: 'context', sessionId: 's' });
        const text = await tree.callText({ operation: 'context', sessionId: 's' });
        /** How deep value's first elements go, and what is at the bottom. */
        const depthOf = (v) => {
          let n = 0;
          while (Array.isArray(v)) (v = v[0]), n++;
          return `${n}:${v}`;
        };
        const extra = (env) => (env.ok ? depthOf(env.value.messages[0]?.extra) : env.error.code + ' ' + env.error.message);
        out[`${worker ? 'worker' : 'page'} ${depth}`] = {
          appended: appended.ok,
          before: extra(before),
          after: extra(after),
          text: text.includes(`"extra":${nested}`),
        };
        await tree.close();
      }
    }
    return out;
  });
  for (const [name, r] of Object.entries(got)) {
    const depth = name.split(' ')[1];
    assert.deepEqual(r, { appended: true, before: `${depth}:x`, after: `${depth}:x`, text: true }, name);
  }
});
