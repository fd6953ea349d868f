// The chat demo's data side (no DOM): which node each message of `context`
// is, its siblings for the "‹ 2 / 3 ›" arrows, the newest path below a
// sibling, and the endpoint settings kept in localStorage.

/** Node kinds whose node gives a message of `context` (core's contextNodes). */
const MODEL_VISIBLE = new Set(["message", "summary", "custom_message"]);

/** The localStorage key of the demo's endpoint settings. */
export const SETTINGS_KEY = "sessiontree-chat-demo-endpoint";

/** The system prompt a new conversation with a model starts with, unless the settings say otherwise. */
export const DEFAULT_SYSTEM = "You are a helpful assistant.";

/**
 * parent id (null for roots) → visible child ids in append order (hidden
 * subtrees left out, as the panel draws them).
 * @param {{id: string, parentId: string|null, hidden?: boolean}[]} list the value of list
 * @returns {Map<string|null, string[]>}
 */
export function childrenOf(list) {
  const kids = new Map();
  for (const n of list) {
    if (n.hidden) continue;
    const p = n.parentId ?? null;
    let ids = kids.get(p);
    if (!ids) kids.set(p, (ids = []));
    ids.push(n.id);
  }
  return kids;
}

/**
 * The chat's history: each message of `context` with its node and its
 * siblings. The path is walked up from the cursor through parentId (a
 * loop, however deep). When the path holds a compaction (context then
 * starts later) or the model-visible nodes do not match the messages one
 * to one, the messages come without nodes (no arrows, no actions).
 * @param {{id: string, parentId: string|null, kind: string, hidden?: boolean, preferred?: boolean}[]} list the value of list
 * @param {string|null} cursor
 * @param {object[]} messages the context's messages
 * @returns {{message: object, id: string|null, parentId: string|null, siblings: {index: number, count: number, ids: string[]}|null}[]}
 */
export function historyItems(list, cursor, messages) {
  const byId = new Map(list.map((n) => [n.id, n]));
  const path = [];
  for (let at = cursor === null ? undefined : byId.get(cursor); at; at = at.parentId === null ? undefined : byId.get(at.parentId)) path.push(at);
  path.reverse();
  const visible = path.filter((n) => MODEL_VISIBLE.has(n.kind));
  const aligned = visible.length === messages.length && !path.some((n) => n.kind === "compaction");
  const kids = childrenOf(list);
  return messages.map((message, i) => {
    if (!aligned) return { message, id: null, parentId: null, siblings: null };
    const node = visible[i];
    const ids = kids.get(node.parentId ?? null) ?? [node.id];
    const index = ids.indexOf(node.id);
    return { message, id: node.id, parentId: node.parentId ?? null, siblings: index < 0 ? null : { index, count: ids.length, ids } };
  });
}

/**
 * The end of a node's newest path: from the node down, the preferred child
 * where one is preferred, else the last appended (as the panel's sibling
 * arrows pick it).
 * @param {{id: string, parentId: string|null, hidden?: boolean, preferred?: boolean}[]} list
 * @param {string} id
 * @returns {string} the leaf's id (id itself when it has no visible children)
 */
export function newestLeaf(list, id) {
  const kids = childrenOf(list);
  const preferred = new Set(list.filter((n) => n.preferred).map((n) => n.id));
  let at = id;
  for (let ids = kids.get(at); ids && ids.length > 0; ids = kids.get(at)) at = ids.find((k) => preferred.has(k)) ?? ids[ids.length - 1];
  return at;
}

/**
 * The endpoint settings kept in storage, or null for the echo bot (none
 * kept, unreadable, or no base URL).
 * @param {Storage|undefined} storage localStorage
 * @returns {{baseURL: string, model: string, apiKey: string, system: string}|null}
 */
export function loadSettings(storage) {
  let v;
  try {
    v = JSON.parse(storage?.getItem(SETTINGS_KEY) ?? "null");
  } catch {
    return null;
  }
  if (v === null || typeof v !== "object" || typeof v.baseURL !== "string" || v.baseURL.trim() === "") return null;
  const str = (x, dflt = "") => (typeof x === "string" ? x : dflt);
  return { baseURL: v.baseURL.trim(), model: str(v.model).trim(), apiKey: str(v.apiKey), system: str(v.system, DEFAULT_SYSTEM) };
}

/**
 * Keep settings in storage; null (or an empty base URL) forgets them.
 * @param {Storage|undefined} storage
 * @param {{baseURL: string, model: string, apiKey?: string, system?: string}|null} settings
 * @returns {boolean} false when the storage refused (private mode, quota)
 */
export function saveSettings(storage, settings) {
  try {
    if (!settings || settings.baseURL.trim() === "") storage?.removeItem(SETTINGS_KEY);
    else storage?.setItem(SETTINGS_KEY, JSON.stringify(settings));
    return true;
  } catch {
    return false;
  }
}
