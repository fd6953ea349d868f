// The browser killed with SIGKILL while a page appends (durability across a
// crash, with the store in its Worker): every append the page saw resolve
// with ok is on disk after the browser starts again on the same profile,
// once, and the session goes on taking appends. Three kills at different
// moments of one run; the figures are printed as a diagnostic.
//
// Acknowledgements reach the test as console messages, so the test knows a
// subset of what the page saw acknowledged (a message in flight at the kill
// is lost with the page); the check is "every acknowledged id is stored",
// never the reverse, as resolved means durable and a write the kill cut
// before its commit may or may not be there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launchPersistent, REPO_ROOT } from './helpers.mjs';
import { startServer } from '../tools/serve.mjs';

const KILLS = 3;
const SESSION = 'killed';

/** SIGKILL every process of the browser running on profile dir (the browser and its children), found in /proc. */
function killBrowser(dir) {
  let killed = 0;
  const flag = `--user-data-dir=${dir}`;
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    let cmdline;
    try {
      cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'latin1');
    } catch {
      continue; // gone meanwhile
    }
    if (!cmdline.split('\0').includes(flag)) continue;
    try {
      process.kill(Number(pid), 'SIGKILL');
      killed++;
    } catch {
      // gone meanwhile
    }
  }
  return killed;
}

/**
 * Remove the profile dir once no process of its browser is left. A killed
 * browser's last processes may still write into the profile for a moment, so
 * this kills and waits (up to 15 s) before removing, then retries the removal.
 * The profile is a temporary directory and not what the test checks: if it
 * still cannot be removed, the test says so as a diagnostic instead of failing.
 */
async function removeProfile(t, dir) {
  for (let i = 0; i < 60 && killBrowser(dir) > 0; i++) await new Promise((resolve) => setTimeout(resolve, 250));
  try {
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 20, retryDelay: 250 });
  } catch (err) {
    t.diagnostic(`the profile ${dir} was left behind: ${err.message}`);
  }
}

/** Open the shim page on the profile and return the page and its stored nodes' contents. */
async function open(dir, baseURL) {
  const context = await launchPersistent(dir);
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(baseURL + 'e2e/fixtures/shim.html');
  await page.waitForFunction(() => window.sessiontree);
  const stored = await page.evaluate(async (id) => {
    window.tree = await window.sessiontree.init({ dbName: 'kill' });
    const list = await window.tree.call({ operation: 'sessions' });
    if (!list.value.some((s) => s.sessionId === id)) {
      const made = await window.tree.call({ operation: 'create', sessionId: id });
      if (!made.ok) throw new Error(JSON.stringify(made.error));
    }
    const snap = await window.tree.call({ operation: 'snapshot.save', sessionId: id });
    if (!snap.ok) throw new Error(JSON.stringify(snap.error));
    return snap.value.nodes.map((n) => n.message.content);
  }, SESSION);
  return { context, page, stored };
}

test(`the browser killed ${KILLS} times during appends (two loops, awaited) loses no acknowledged append and duplicates none`, async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sessiontree-kill-'));
  const server = await startServer({ root: REPO_ROOT, port: 0 });
  const acked = new Set();
  const figures = [];
  try {
    for (let round = 0; round <= KILLS; round++) {
      const { context, page, stored } = await open(dir, server.baseURL);
      const counts = new Map();
      for (const c of stored) counts.set(c, (counts.get(c) ?? 0) + 1);
      const missing = [...acked].filter((c) => !counts.has(c));
      const doubled = [...counts].filter(([, n]) => n > 1).map(([c]) => c);
      assert.deepEqual(missing, [], `round ${round}: acknowledged appends missing after the restart`);
      assert.deepEqual(doubled, [], `round ${round}: appends stored twice`);
      figures.push(`${round === 0 ? 'at the start' : `after kill ${round}`}: ${stored.length} stored, ${acked.size} acknowledged, 0 lost`);
      if (round === KILLS) {
        // The session still takes appends after the last restart.
        const after = await page.evaluate(async (id) => (await window.tree.call({ operation: 'append', sessionId: id, message: { role: 'user', content: 'after' } })).ok, SESSION);
        assert.equal(after, true);
        await context.close();
        break;
      }
      page.on('console', (msg) => {
        const m = /^ACK (.+)$/.exec(msg.text());
        if (m) acked.add(m[1]);
      });
      const before = acked.size;
      // Two loops appending in turn, each append awaited; they stop only with the browser.
      await page.evaluate(({ id, round }) => {
        for (const loop of ['a', 'b']) {
          (async () => {
            for (let k = 0; ; k++) {
              const content = `r${round}-${loop}${k}`;
              const env = await window.tree.call({ operation: 'append', sessionId: id, message: { role: 'user', content } });
              if (env.ok) console.log('ACK ' + content);
            }
          })();
        }
      }, { id: SESSION, round });
      // Kill once some appends were acknowledged, at a different moment each round.
      const wanted = before + 40 + 90 * round;
      while (acked.size < wanted) await new Promise((resolve) => setTimeout(resolve, 10));
      assert.ok(killBrowser(dir) > 0, `round ${round}: no browser process to kill`);
      await context.close().catch(() => {});
    }
  } finally {
    await server.close();
    await removeProfile(t, dir);
  }
  t.diagnostic(figures.join('; '));
  assert.ok(acked.size >= 40 + 130 + 220, `acknowledged appends: ${acked.size}`);
});
