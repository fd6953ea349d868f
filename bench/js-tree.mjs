// The peer of the chat-turn benchmark (bench/turn.mjs): the seed design's
// session tree (../shared/seeds/000_*, "SessionTree": a Map of entries
// {id, parentId, message}, an active leaf, append at the leaf, currentPath
// walked from the leaf to the root) written as plain JavaScript in memory,
// with no persistence, no validation and no copies: the floor a chat
// frontend would get from the simplest tree of its own.

/** A session tree of plain objects in a Map (the seed's design). */
export class PlainTree {
  constructor() {
    /** @type {Map<string, {id: string, parentId: string|null, message: {role: string, content: string}}>} */
    this.entries = new Map();
    this.leaf = null;
    this.counter = 0;
  }

  /** Load snapshot nodes ({id, parentId, message}) and put the leaf at cursor. */
  load(nodes, cursor) {
    this.entries.clear();
    for (const n of nodes) this.entries.set(n.id, { id: n.id, parentId: n.parentId, message: n.message });
    this.leaf = cursor;
  }

  /** Append message at the leaf; the new entry becomes the leaf. */
  append(message) {
    const entry = { id: `e${++this.counter}`, parentId: this.leaf, message };
    this.entries.set(entry.id, entry);
    this.leaf = entry.id;
    return entry;
  }

  /** Move the leaf to an existing entry (a fork point). */
  moveTo(id) {
    if (!this.entries.has(id)) throw new Error(`no entry ${id}`);
    this.leaf = id;
  }

  /** The messages from the root to the leaf, in order. */
  currentPath() {
    const path = [];
    for (let id = this.leaf; id !== null; id = this.entries.get(id).parentId) path.push(this.entries.get(id).message);
    return path.reverse();
  }
}
