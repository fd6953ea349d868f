// The start of a store in the thread that runs it (js/local.js): the Go
// runtime loaded while IndexedDB is opened and its meta records read,
// every stored session handed to core as a stub, and the LocalTree made.
// A context asked for meanwhile is answered first (js/first-context.js).

import { openStore, DB_DEFAULT_NAME } from "./store.js";
import { keepListLater } from "./store/list-keep.js";
import { packStubs } from "./store/pager.js";
import { listenFromStart } from "./store/coordinator.js";
import { restoreRequest } from "./store/records.js";
import { guardHandle, loadRuntime, mark, onRuntimeExit } from "./runtime.js";
import { FirstContext } from "./first-context.js";

/**
 * The start of initLocal's tree (see initLocal in js/local.js): the Go
 * runtime loaded while IndexedDB is opened and its meta records read, a
 * context asked for meanwhile answered (onFirst), every stored session a
 * stub, and the tree made by makeTree. Rejects as initLocal does.
 * @param {URL} wasmURL @param {string|null} dbName null: persist: false
 * @param {number|undefined} memoryBudget bytes @param {number} pageBudget bytes
 * @param {{onListed?: Function|null, given?: Promise<object[]|null>|null, onFirst?: Function|null,
 *   makeTree: (handle: object, db: IDBDatabase|null, dbName: string|null, stored: object, memory: WebAssembly.Memory, pageBudget: number, channel?: BroadcastChannel) => import("./local.js").LocalTree}} how
 *   onListed, given, onFirst: initLocal's; makeTree: the LocalTree constructor's arguments
 * @returns {Promise<import("./local.js").LocalTree>}
 */
export async function startStore(wasmURL, dbName, memoryBudget, pageBudget, { onListed = null, given = null, onFirst = null, makeTree }) {
  let tree = null;
  const early = [];
  // Heard from before IndexedDB is read: the tree pulls at start only when
  // another tab committed since (a pull is a transaction calls wait behind).
  const listening = dbName === null ? null : listenFromStart(dbName);
  // The wasm starts while IndexedDB is opened and read: neither waits for
  // the other (at 100,000 stored nodes the read is ~0.2 s, the start ~0.3 s).
  let opened;
  const storage = dbName === null
    ? Promise.resolve({ db: null, stored: { gen: 0, metas: [], trashed: [] } })
    : openStore(dbName, {
      given,
      onOpen: (db) => opened?.(db),
      onClose: (reason, message) => (tree ? tree._storageClosed(reason, message) : early.push([reason, message])),
    });
  // With onListed the stubs wait a task for the list's answer; Go too, unless the page read it (given).
  let runtime, db, stored, listed = null;
  const posted = onListed ? new Promise((resolve) => (listed = () => setTimeout(resolve, 0))) : undefined;
  const loading = loadRuntime(wasmURL, given ? undefined : posted);
  const started = loading.then((runtime) => (mark("sessiontree:runtime"), runtime));
  const read = storage.then((s) => (mark("sessiontree:read"), s));
  // A context asked for meanwhile is answered before the stubs are made (js/first-context.js).
  const dbOpen = Promise.race([new Promise((resolve) => (opened = resolve)), storage.then((s) => s.db)]);
  dbOpen.catch(() => {}); // the start's own failure reports it
  const first = onFirst && dbName !== null ? new FirstContext(started, dbOpen, memoryBudget) : null;
  onFirst?.(first);
  if (onListed) {
    Promise.all([read, loading.fetched]).then(([s]) => onListed(s.stored.metas.filter((m) => !m.deletedAt), s.taken === true), () => {}).finally(listed);
  }
  try {
    [runtime, { db, stored }] = await Promise.all([started, read, posted]);
    await first?.finish();
  } catch (err) {
    storage.then(({ db }) => db?.close(), () => {}); // the runtime failed: let go of the database too
    listening?.channel?.close();
    throw err;
  }
  const handle = guardHandle(runtime.api.newStore(runtime.memory), runtime.state);
  if (memoryBudget !== undefined) handle.setMemoryBudget(memoryBudget);
  // Every stored session becomes a stub (its summary): its nodes are read
  // when a call first needs them (store/pager.js).
  const live = stored.metas.filter((m) => !m.deletedAt);
  let env = live.length > 0 ? JSON.parse(handle.pageStub(packStubs(live), true)) : { ok: true };
  for (const { meta, snapshot } of stored.trashed) if (env.ok) env = JSON.parse(handle.callInternal(restoreRequest(meta, snapshot)));
  if (!env.ok) {
    handle.free();
    db?.close();
    listening?.channel?.close();
    throw new Error(`sessiontree: the stored sessions in IndexedDB database ${JSON.stringify(dbName)} could not be listed (${env.error.code}: ${env.error.message}); nothing was changed`);
  }
  handle.drain(false); // restoring records no change, but be sure
  mark("sessiontree:restored");
  if (runtime.state.exited !== null) {
    db?.close();
    listening?.channel?.close();
    throw new Error(`sessiontree: ${runtime.state.exited} while the stored sessions were restored; nothing was changed`);
  }
  tree = makeTree(handle, db, dbName, stored, runtime.memory, pageBudget, listening?.channel);
  tree._firstContexts = first?.answered ?? 0;
  if (stored.keep) keepListLater(db, stored);
  if (listening?.heard || stored.missed?.length > 0) tree._writer?.pull(); // the missed events go with a transaction
  for (const [reason, message] of early) tree._storageClosed(reason, message);
  const t = tree;
  const stop = onRuntimeExit(() => (stop(), t._exited(runtime.state.exited)));
  return tree;
}
