// Pure data helpers for the explorer and the tree panel: no DOM, no I/O.
//
// They take the values the core returns (the rows of `tree`, the messages of
// `context`, the entries of `sessions`) and turn them into what a view
// draws: branch-line guides, filtered row lists, visible row windows,
// message parts and short labels. Every walk is a loop (a 100,000-deep
// chain must not overflow the stack).

/** Widest drawn nesting of branch lines; deeper forks draw at this level. */
export const MAX_GUIDE_LEVEL = 24;

/**
 * Compute the branch-line guides of the rows of `tree`: for every row a
 * string of box-drawing characters drawn before it, like the ASCII tree of
 * the core ("│  ├─ "). A node with one child continues at the same level;
 * below a fork each child gets a connector ("├─ " or, for the last child,
 * "└─ ") and the lines of the siblings still to come run past it ("│  ").
 * Levels beyond MAX_GUIDE_LEVEL are not drawn.
 *
 * The rows must be in the core's display order (a preorder walk, children in
 * append order), each `{id, parentId, childCount}`.
 *
 * @param {{id: string, parentId: string|null, childCount: number}[]} rows
 * @returns {string[]} one guide string per row (3 characters per level)
 */
export function branchGuides(rows) {
  const guides = new Array(rows.length);
  const below = new Map(); // node id → prefix its children continue from
  const seen = new Map(); // parent id → children drawn so far
  const kids = new Map(); // node id → childCount
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    kids.set(row.id, row.childCount);
    const parent = row.parentId;
    let prefix = "";
    let connector = "";
    if (parent !== null && below.has(parent)) {
      prefix = below.get(parent);
      const siblings = kids.get(parent) ?? 1;
      if (siblings > 1) {
        const k = (seen.get(parent) ?? 0) + 1;
        seen.set(parent, k);
        connector = k === siblings ? "└─ " : "├─ ";
      }
    }
    guides[i] = prefix + connector;
    let next = prefix;
    if (prefix.length < MAX_GUIDE_LEVEL * 3) {
      if (connector === "├─ ") next += "│  ";
      else if (connector === "└─ ") next += "   ";
    }
    if (row.childCount > 0) below.set(row.id, next);
  }
  return guides;
}

/**
 * The rows a scrolled list of fixed-height rows shows: the index of the
 * first and one past the last row, with `overscan` extra rows each side.
 * @param {number} count number of rows
 * @param {number} scrollTop pixels scrolled
 * @param {number} viewport height of the visible area in pixels
 * @param {number} rowHeight pixels per row (> 0)
 * @param {number} [overscan] extra rows above and below (default 8)
 * @returns {{start: number, end: number}}
 */
export function visibleWindow(count, scrollTop, viewport, rowHeight, overscan = 8) {
  const first = Math.floor(Math.max(0, scrollTop) / rowHeight);
  const last = Math.ceil((Math.max(0, scrollTop) + Math.max(0, viewport)) / rowHeight);
  return { start: Math.max(0, Math.min(count, first - overscan)), end: Math.max(0, Math.min(count, last + overscan)) };
}

/**
 * The first node of each branch: rows whose branch differs from their
 * parent's (or roots). Used to label where a branch begins.
 * @param {{id: string, parentId: string|null, branch: string}[]} rows
 * @returns {Set<string>} ids of the rows that start a branch
 */
export function branchStarts(rows) {
  const branchOf = new Map();
  const starts = new Set();
  for (const row of rows) {
    branchOf.set(row.id, row.branch);
    if (row.parentId === null || branchOf.get(row.parentId) !== row.branch) starts.add(row.id);
  }
  return starts;
}

/**
 * Count the distinct branch names among the rows.
 * @param {{branch: string}[]} rows
 * @returns {number}
 */
export function branchCount(rows) {
  const names = new Set();
  for (const row of rows) names.add(row.branch);
  return names.size;
}

/**
 * Split a message's `content` into parts a view renders:
 * `{type: "text", text}` for a string or a text part,
 * `{type: "image", label}` for an image part (never fetched: the label
 * names it), `{type: "other", label, json}` for anything else.
 * `null`/absent content gives no parts.
 * @param {unknown} content the message's content as stored
 * @returns {({type: "text", text: string} | {type: "image", label: string} | {type: "other", label: string, json: string})[]}
 */
export function contentParts(content) {
  if (content === null || content === undefined) return [];
  if (typeof content === "string") return [{ type: "text", text: content }];
  const list = Array.isArray(content) ? content : [content];
  const parts = [];
  for (const part of list) {
    if (typeof part === "string") {
      parts.push({ type: "text", text: part });
      continue;
    }
    if (part === null || typeof part !== "object") {
      parts.push({ type: "other", label: typeof part, json: JSON.stringify(part) });
      continue;
    }
    const type = typeof part.type === "string" ? part.type : typeof part.content_type === "string" ? part.content_type : "";
    if ((type === "text" || type === "input_text" || type === "output_text") && typeof part.text === "string") {
      parts.push({ type: "text", text: part.text });
    } else if (/image/i.test(type) || "image_url" in part || "asset_pointer" in part) {
      parts.push({ type: "image", label: imageLabel(part) });
    } else {
      parts.push({ type: "other", label: type || "object", json: JSON.stringify(part) });
    }
  }
  return parts;
}

function imageLabel(part) {
  const bits = ["image"];
  const ref = typeof part.asset_pointer === "string" ? part.asset_pointer : typeof part.image_url === "string" ? part.image_url : typeof part.image_url?.url === "string" ? part.image_url.url : "";
  if (ref !== "") bits.push(ref.startsWith("data:") ? "(inline data)" : ref.length > 60 ? ref.slice(0, 57) + "…" : ref);
  if (Number.isFinite(part.width) && Number.isFinite(part.height)) bits.push(`${part.width}×${part.height}`);
  return bits.join(" ");
}

/**
 * The plain text of a message's content (text parts joined by blank lines).
 * @param {unknown} content
 * @returns {string}
 */
export function contentText(content) {
  return contentParts(content)
    .filter((p) => p.type === "text")
    .map((p) => p.text)
    .join("\n\n");
}

/**
 * A short human label for a time relative to `now`: "just now", "5 min ago",
 * "3 h ago", "yesterday", else the date (YYYY-MM-DD). Invalid input gives "".
 * @param {string} iso an RFC 3339 time
 * @param {number} [now] ms since the epoch
 * @returns {string}
 */
export function relativeTime(iso, now = Date.now()) {
  const t = Date.parse(iso);
  if (!Number.isFinite(t)) return "";
  const s = Math.round((now - t) / 1000);
  if (s < 45) return "just now";
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86400) return `${Math.round(s / 3600)} h ago`;
  if (s < 2 * 86400) return "yesterday";
  return new Date(t).toISOString().slice(0, 10);
}

/**
 * Filter sessions by a text typed into a filter box: every word must occur
 * (case-insensitive) in the title or the id.
 * @template {{sessionId: string, title?: string}} S
 * @param {S[]} sessions
 * @param {string} query
 * @returns {S[]}
 */
export function filterSessions(sessions, query) {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return sessions;
  return sessions.filter((s) => {
    const hay = `${s.title ?? ""} ${s.sessionId}`.toLowerCase();
    return words.every((w) => hay.includes(w));
  });
}

/**
 * A file name for a session's snapshot download: `<sessionId>.snapshot.json`
 * with characters that file systems refuse replaced by "_".
 * @param {string} sessionId
 * @returns {string}
 */
export function snapshotFileName(sessionId) {
  return `${sessionId.replace(/[\\/:*?"<>|\u0000-\u001f]/g, "_")}.snapshot.json`;
}
