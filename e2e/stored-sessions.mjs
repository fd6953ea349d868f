// Sessions written straight into a store's IndexedDB database, as a
// Writer would have written them: for page tests of a large history
// (e2e/paging.test.mjs, e2e/session-list.test.mjs).

/**
 * Store `count` sessions of `nodes` messages each straight into IndexedDB
 * database `db` (the schema of this build, made by an init before): the
 * records a Writer would have written, in one transaction. Session i is
 * "s" + i (4 digits), its messages "session i message k", written at
 * `start` (Unix milliseconds, default 2026-01-01) plus i minutes.
 */
export function writeSessions(page, { db, count, nodes, start = Date.UTC(2026, 0, 1) }) {
  return page.evaluate(async ({ db, count, nodes, start }) => {
    const req = (r) => new Promise((resolve, reject) => ((r.onsuccess = () => resolve(r.result)), (r.onerror = () => reject(r.error))));
    const idb = await req(indexedDB.open(db));
    const tx = idb.transaction(['sessions', 'nodes'], 'readwrite');
    const done = new Promise((resolve, reject) => ((tx.oncomplete = resolve), (tx.onabort = () => reject(tx.error))));
    const pad = (n) => String(n).padStart(4, '0');
    for (let i = 0; i < count; i++) {
      const id = 's' + pad(i);
      const at = new Date(start + i * 60000).toISOString();
      let parent = null;
      for (let k = 0; k < nodes; k++) {
        const node = { id: `${id}n${k}`, parentId: parent, branch: 'main', kind: 'message', timestamp: at, message: { role: k % 2 ? 'assistant' : 'user', content: `session ${i} message ${k}` } };
        tx.objectStore('nodes').put(JSON.stringify(node), [id, k]);
        parent = node.id;
      }
      tx.objectStore('sessions').put({ sessionId: id, title: `title ${i}`, cursor: parent, activeBranch: 'main', createdAt: at, updatedAt: at, nodeCount: nodes, annotationCount: 0, folded: 0, epoch: 0, gen: 1, op: 'import' }, id);
    }
    await done;
    idb.close();
  }, { db, count, nodes, start });
}
