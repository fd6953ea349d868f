// The order of calls held back while a paged-out session loads
// (js/local-paging.js retryPaged, held, noteFault), on a simulated tree:
// core answers PAGED_OUT until the session is loaded, and a write's
// answer comes only once its batch committed, later than the call ran.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HELD_ANSWER, held, noteFault, retryPaged } from '../js/local-paging.js';
import { PAGED_OUT } from '../js/protocol.js';

/** A tree whose session "s" is paged out until loaded; ran lists the appends core ran, in order. */
function simulatedTree() {
  const state = { paged: true, ran: [] };
  const tree = {
    _pageHold: null,
    _handle: { callInternal: () => '{"ok":true,"value":["s"]}' },
    _pager: { load: async () => void (state.paged = false), unpin() {}, touch() {}, batches: () => 1 },
  };
  // The writer's queue: one job at a time, in the order queued; a job's
  // answer is given when its batch commits, commitMs after it ran.
  let chain = Promise.resolve();
  const mutate = (fn, commitMs) => {
    const ran = chain.then(fn);
    chain = ran;
    return ran.then((answer) => new Promise((resolve) => setTimeout(() => resolve(answer), commitMs(answer))));
  };
  const append = (name) => retryPaged(tree, (fault) => mutate(() => {
    if (held(tree, fault)) return HELD_ANSWER;
    if (state.paged) {
      const answer = JSON.stringify({ ok: false, error: { code: PAGED_OUT, message: 'session "s" is paged out' } });
      noteFault(tree, answer, fault);
      return answer;
    }
    state.ran.push(name);
    return '{"ok":true,"value":null}';
  }, (answer) => (answer === HELD_ANSWER ? 60 : 10)), (env) => env);
  return { state, append };
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

test('a call made while an earlier one is held back, after the load that held it, runs after that earlier one', async () => {
  const { state, append } = simulatedTree();
  const calls = [append('A1'), append('A2')];
  // A1 faulted, loaded and ran again; A2's held answer has not yet come
  // (its batch commits later), so A2 has not queued its next try.
  await sleep(35);
  assert.deepEqual(state.ran, ['A1']);
  calls.push(append('A3'));
  await Promise.all(calls);
  assert.deepEqual(state.ran, ['A1', 'A2', 'A3']);
});

test('calls held back run in the order made, whichever faulted first', async () => {
  const { state, append } = simulatedTree();
  const calls = [];
  for (let k = 0; k < 12; k++) {
    calls.push(append('A' + k));
    if (k % 4 === 3) await sleep(7);
  }
  await Promise.all(calls);
  assert.deepEqual(state.ran, Array.from({ length: 12 }, (_, k) => 'A' + k));
});

/**
 * A tree for one search across every session: each try faults on the
 * sessions of faults[try] (made by calls that ran since, which a search does
 * not hold back), then answers ok; loaded lists the Pager's loads.
 */
function searchTree(faults) {
  let next = [];
  const loaded = [];
  const tree = {
    _pageHold: null,
    _handle: { callInternal: () => JSON.stringify({ ok: true, value: next }) },
    _pager: { load: async (ids) => void loaded.push(...ids), unpin() {}, touch() {}, batches: () => 1 },
  };
  let tryNo = 0;
  const search = () => retryPaged(tree, async (fault) => {
    fault.op = 'search';
    const ids = faults[tryNo++];
    if (!ids) return '{"ok":true,"value":{"hits":[],"total":0}}';
    next = ids;
    const answer = JSON.stringify({ ok: false, error: { code: PAGED_OUT, message: 'paged out' } });
    noteFault(tree, answer, fault);
    return answer;
  }, (env) => JSON.stringify(env));
  return { search, loaded };
}

test('a search that each try needs sessions made since its last (by later calls) answers once it has them all, however many tries that takes', async () => {
  const faults = Array.from({ length: 7 }, (_, k) => ['c' + k]);
  const { search, loaded } = searchTree(faults);
  const answer = JSON.parse(await search());
  assert.equal(answer.ok, true, JSON.stringify(answer));
  assert.deepEqual(loaded, faults.flat());
});

test('a search that needs again the sessions it loaded (they could not be kept in memory) answers STORAGE_ERROR after a few tries', async () => {
  const { search } = searchTree(Array.from({ length: 20 }, () => ['a']));
  const answer = JSON.parse(await search());
  assert.equal(answer.ok, false);
  assert.match(answer.error.message, /the sessions \["a"\] could not be kept in memory for the call/);
});
