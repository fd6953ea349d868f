// The longest main-thread task of each step of bench/longtasks-run.mjs
// (load and search 100,000 nodes, import a 20 MB export, restore, open in
// the explorer, the store in its Worker) beside the budget of 100 ms a task
// and the peer: the same load and search with the store in the page's own
// thread (init({worker: false})), measured in the same run.
//
//   node bench/longtasks.mjs       (after make build; make bench runs it)
import { setup } from '../e2e/helpers.mjs';
import { longTaskSteps, ours, describe } from './longtasks-run.mjs';

/** The budget of one main-thread task from sessiontree's code, in ms. */
const BUDGET_MS = 100;

const env = await setup();
try {
  const { steps, control } = await longTaskSteps(env);
  const longestOf = (tasks) => tasks.filter((t) => ours(t, env.baseURL)).reduce((a, b) => (b.duration > (a?.duration ?? 0) ? b : a), null);
  const peer = longestOf(control);
  console.log(`long tasks from sessiontree (budget ${BUDGET_MS} ms a task; peer: the store in the page's thread, longest ${peer ? describe(peer) : 'none'})`);
  for (const { step, tasks, extra } of steps) {
    const longest = longestOf(tasks);
    const over = tasks.filter((t) => t.duration > BUDGET_MS && ours(t, env.baseURL)).length;
    const ratio = longest && peer ? ` = ${(longest.duration / peer.duration).toFixed(2)}x of the peer's` : '';
    console.log(`  ${step}: longest ${longest ? describe(longest) : 'none'}${ratio}; ${over} over ${BUDGET_MS} ms${Object.entries(extra).map(([k, v]) => `, ${k} ${v}`).join('')}`);
  }
} finally {
  await env.close();
}
