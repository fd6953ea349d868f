// The restore points of a LocalTree (js/local.js): snapshots kept by name
// beside the session, in IndexedDB (store.js) or, with persist: false, in
// the tree's memory. The LocalTree methods of the same names document the
// envelopes; these never reject either.

import { getSnapshot, listSnapshots, putSnapshot, storageErrorEnvelope } from "./store.js";
import { spliceJSON } from "./request-text.js";
import { checkName, checkString, closedEnvelope, errorEnvelope } from "./tree-api.js";
import { ERROR } from "./protocol.js";
import { envelopeValueText } from "./envelope.js";

/**
 * LocalTree.saveSnapshot: store session sessionId's snapshot as restore point name.
 * @param {import("./local.js").LocalTree} tree @param {string} sessionId @param {string} [name]
 * @returns {Promise<object>} envelope; value {name, createdAt, nodeCount}
 */
export async function saveSnapshot(tree, sessionId, name) {
  const bad = checkString("saveSnapshot", "sessionId", sessionId) ?? (name === undefined ? null : checkName("saveSnapshot", "name", name));
  if (bad) return bad;
  if (tree._writer?.refusing) return closedEnvelope(tree._writer.refusing, "the snapshot was not saved");
  // The snapshot is kept as the exact text core wrote (callText), so
  // numbers beyond 2^53 keep their digits; it is parsed only to count.
  const text = await tree.callText({ operation: "snapshot.save", sessionId });
  const snapshot = envelopeValueText(text);
  if (snapshot === null) return JSON.parse(text);
  const createdAt = new Date().toISOString();
  if (name === undefined) name = createdAt;
  const record = { sessionId, name, createdAt, nodeCount: JSON.parse(snapshot).nodes.length, snapshot };
  if (tree._db) {
    try {
      await putSnapshot(tree._db, record);
    } catch (err) {
      return storageErrorEnvelope(err, "the snapshot was not saved");
    }
  } else {
    tree._memorySnapshots.set(JSON.stringify([sessionId, name]), record);
  }
  return { ok: true, value: { name, createdAt, nodeCount: record.nodeCount } };
}

/**
 * LocalTree.listSnapshots: a session's restore points, oldest first.
 * @param {import("./local.js").LocalTree} tree @param {string} sessionId
 * @returns {Promise<object>} envelope; value [{name, createdAt, nodeCount}]
 */
export async function listRestorePoints(tree, sessionId) {
  const bad = checkString("listSnapshots", "sessionId", sessionId);
  if (bad) return bad;
  if (tree._writer?.refusing) return closedEnvelope(tree._writer.refusing, "the restore points could not be read");
  let records;
  try {
    records = tree._db ? await listSnapshots(tree._db, sessionId) : [...tree._memorySnapshots.values()].filter((r) => r.sessionId === sessionId);
  } catch (err) {
    return storageErrorEnvelope(err, "the restore points could not be read");
  }
  records.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
  return { ok: true, value: records.map(({ name, createdAt, nodeCount }) => ({ name, createdAt, nodeCount })) };
}

/**
 * LocalTree.restoreSnapshot: bring a restore point back through snapshot.load.
 * @param {import("./local.js").LocalTree} tree @param {string} sessionId @param {string} name
 * @returns {Promise<object>} envelope of snapshot.load; NOT_FOUND for an unknown name
 */
export async function restoreSnapshot(tree, sessionId, name) {
  const bad = checkString("restoreSnapshot", "sessionId", sessionId) ?? checkString("restoreSnapshot", "name", name);
  if (bad) return bad;
  if (tree._writer?.refusing) return closedEnvelope(tree._writer.refusing, "nothing was restored");
  let record;
  try {
    record = tree._db ? await getSnapshot(tree._db, sessionId, name) : tree._memorySnapshots.get(JSON.stringify([sessionId, name]));
  } catch (err) {
    return storageErrorEnvelope(err, "nothing was restored");
  }
  if (!record) return errorEnvelope(ERROR.NOT_FOUND, `no snapshot named ${JSON.stringify(name)} for session ${JSON.stringify(sessionId)}`);
  // Made now: this runs inside tree._prepared, which the calls made meanwhile wait for.
  return tree._requestNow(spliceJSON({ operation: "snapshot.load", sessionId }, [["snapshot", record.snapshot]]), false);
}
