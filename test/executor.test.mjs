// js/store/executor.js in Node against fake-indexeddb (a dev dependency):
// a plan is written in one transaction, all of it or nothing; a failed
// request, a throwing body and a caller's signal each leave nothing.
import 'fake-indexeddb/auto';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openDatabase, STORES } from '../js/store/schema.js';
import { requestPromise } from '../js/store/records.js';
import { ABORTED, Transaction, applyPlan, executePlan } from '../js/store/executor.js';

let dbs = 0;
/** A new, empty database of the store's schema. */
const freshDB = () => openDatabase(`executor${++dbs}`);

/** Every record of a store as [key, value] pairs, in key order. */
async function records(db, store) {
  const tx = db.transaction(store, 'readonly');
  const s = tx.objectStore(store);
  const [keys, values] = await Promise.all([requestPromise(s.getAllKeys()), requestPromise(s.getAll())]);
  return keys.map((k, i) => [k, values[i]]);
}

const meta = (sessionId, gen) => ({ sessionId, gen, nodeCount: 1, annotationCount: 0, createdAt: '2026-01-01T00:00:00Z' });
const plan = {
  put: [
    ['sessions', 'a', meta('a', 1)],
    ['nodes', ['a', 0], '{"id":"n0"}'],
    ['sessions', 'b', meta('b', 1)],
  ],
};

test('a plan is written whole in one transaction, and its requests are counted', async () => {
  const db = await freshDB();
  const { written, failure } = await executePlan(db, plan);
  assert.equal(failure, null);
  assert.equal(written, 3);
  assert.deepEqual((await records(db, 'sessions')).map(([k, v]) => [k, v.gen]), [['a', 1], ['b', 1]]);
  assert.deepEqual(await records(db, 'nodes'), [[['a', 0], '{"id":"n0"}']]);
  db.close();
});

test('a plan deletes before it puts, so a replaced range holds only the new records', async () => {
  const db = await freshDB();
  await executePlan(db, { put: [['nodes', ['a', 0], 'old0'], ['nodes', ['a', 1], 'old1']] });
  const { failure } = await executePlan(db, {
    delete: [['nodes', IDBKeyRange.bound(['a', 0], ['a', Infinity])]],
    put: [['nodes', ['a', 0], 'new0']],
  });
  assert.equal(failure, null);
  assert.deepEqual(await records(db, 'nodes'), [[['a', 0], 'new0']]);
  db.close();
});

test('an empty plan writes nothing and takes no transaction', async () => {
  const db = await freshDB();
  assert.deepEqual(await executePlan(db, {}), { written: 0, failure: null });
  db.close();
});

test('a failure inside the transaction leaves nothing of it written', async (t) => {
  const cases = [
    {
      name: 'a request the backend refuses (a key that is not a key) aborts the whole plan',
      run: (db) => executePlan(db, { put: [...plan.put, ['nodes', { not: 'a key' }, 'x']] }),
      want: (failure) => assert.equal(failure.name, 'DataError'),
    },
    {
      name: 'a body that throws after its puts aborts them, and its error is the failure',
      run: (db) => new Transaction(db, { stores: STORES, writes: true }).run((tx) => {
        applyPlan(tx, plan);
        throw new Error('internal: the change does not continue the stored nodes');
      }),
      want: (failure) => assert.equal(failure.message, 'internal: the change does not continue the stored nodes'),
    },
    {
      name: 'a body that rejects after awaiting a request aborts the puts before it',
      run: (db) => new Transaction(db, { stores: STORES, writes: true }).run(async (tx) => {
        applyPlan(tx, plan);
        await requestPromise(tx.objectStore('sessions').count());
        throw new Error('stored session "a" changed under its records');
      }),
      want: (failure) => assert.match(failure.message, /changed under its records/),
    },
    {
      name: 'a request that fails by itself (add over an existing key) aborts the transaction with its error',
      run: (db) => new Transaction(db, { stores: STORES, writes: true }).run((tx) => {
        applyPlan(tx, plan);
        tx.objectStore('sessions').add(meta('a', 2), 'a');
      }),
      want: (failure) => assert.equal(failure.name, 'ConstraintError'),
    },
  ];
  for (const c of cases) {
    await t.test(c.name, async () => {
      const db = await freshDB();
      const result = await c.run(db);
      const failure = result?.failure !== undefined ? result.failure : result;
      assert.ok(failure, 'the transaction failed');
      c.want(failure);
      if (result?.written !== undefined) assert.equal(result.written, 0);
      assert.deepEqual(await records(db, 'sessions'), []);
      assert.deepEqual(await records(db, 'nodes'), []);
      db.close();
    });
  }
});

test('a transaction that cannot be opened fails with that error and never runs its body', async () => {
  const db = await freshDB();
  db.close();
  let ran = false;
  const failure = await new Transaction(db, { stores: STORES, writes: true }).run(() => {
    ran = true;
  });
  assert.equal(failure.name, 'InvalidStateError');
  assert.equal(ran, false);
});

test('a caller\'s signal aborts the transaction between its pieces: nothing is written', async () => {
  const db = await freshDB();
  const ac = new AbortController();
  const t = new Transaction(db, { stores: STORES, writes: true, signals: [ac.signal] });
  const seen = [];
  const failure = await t.run(async (tx) => {
    for (let piece = 0; piece < 3; piece++) {
      applyPlan(tx, { put: [['nodes', ['a', piece], `n${piece}`]] });
      await requestPromise(tx.objectStore('sessions').count()).catch(() => {});
      if (piece === 0) ac.abort(); // while the body waits between pieces, as a message would come
      seen.push(t.aborted);
      if (t.aborted) throw ABORTED;
    }
  });
  assert.equal(failure, ABORTED);
  assert.deepEqual(seen, [true], 'the body heard the abort before its next piece');
  assert.deepEqual(await records(db, 'nodes'), []);
  db.close();
});

test('a signal aborted once the transaction committed changes nothing', async () => {
  const db = await freshDB();
  const ac = new AbortController();
  const { failure } = await executePlan(db, plan, { signal: ac.signal });
  ac.abort();
  assert.equal(failure, null);
  assert.equal((await records(db, 'sessions')).length, 2);
  db.close();
});

test('a readonly transaction runs its reads and commits', async () => {
  const db = await freshDB();
  await executePlan(db, plan);
  let count = -1;
  const failure = await new Transaction(db, { stores: ['sessions'], writes: false }).run(async (tx) => {
    count = await requestPromise(tx.objectStore('sessions').count());
  });
  assert.equal(failure, null);
  assert.equal(count, 2);
  db.close();
});
