// Matching the attachments of an export ZIP (images, audio, files) to the
// conversations that name them, by asset pointer id, file name or the
// conversation's folder, scanning the export's JSON bytes element by
// element with pauses; and the small helpers zip-read.js shares with the
// explorer (extension, describeAttachment). The matching runs
// where the store runs (tree.importZip, js/zip-import.js). No DOM.

/**
 * A file of a ZIP that is not read as text (an image, audio, another file).
 * @typedef {object} Attachment
 * @property {string} name  path inside the ZIP
 * @property {string} type  MIME type guessed from the extension, "" when unknown
 * @property {number | null} size  uncompressed size in bytes, null when the ZIP's entry header does not say
 */

/**
 * The attachments one conversation names.
 * @typedef {object} ConversationFiles
 * @property {string} conversationId  the conversation's id in the export (its session id)
 * @property {string} title
 * @property {{file: Attachment, messageId: string | null}[]} files  messageId: the message naming it (null: found by the conversation's folder)
 */

/** Bytes of JSON scanned between two looks at the clock. */
const SCAN_CHECK = 64 << 10;

/** Time in ms reading a ZIP or matching its attachments may run before it lets other tasks run (an abort message, or the page in the page's thread). */
export const MATCH_SLICE_MS = 30;

/** Let other tasks run (in the page's thread: input, painting). */
export const pause = () => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * The extension of a path, lower case, without the dot ("" when none).
 * @param {string} path "a/b.JSON" → "json"
 * @returns {string}
 */
export function extension(path) {
  const base = path.slice(path.lastIndexOf("/") + 1);
  const dot = base.lastIndexOf(".");
  return dot <= 0 ? "" : base.slice(dot + 1).toLowerCase();
}

/**
 * The last part of a path ("a/b.json" → "b.json").
 * @param {string} path
 * @returns {string}
 */
export function basename(path) {
  return path.slice(path.lastIndexOf("/") + 1);
}

/** The file id inside an asset pointer ("file-service://file-abc" → "file-abc", "sediment://file_00ab" → "file_00ab"). */
function pointerId(pointer) {
  const i = pointer.indexOf("://");
  return i < 0 ? pointer : pointer.slice(i + 3);
}

/**
 * The bytes of each object element of a top-level JSON array, in order (a
 * top-level object: the whole text), found by a scan that only tracks
 * strings and nesting (the bytes it looks for are ASCII, which never occur
 * inside a UTF-8 sequence), pausing every MATCH_SLICE_MS. Stops quietly
 * at bytes that are not JSON of that shape.
 * @param {Uint8Array} bytes UTF-8, a byte order mark allowed
 * @returns {AsyncGenerator<Uint8Array>} views of bytes
 */
async function* jsonElements(bytes) {
  const n = bytes.length;
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (i < n && bytes[i] <= 32) i++;
  if (bytes[i] === 123) {
    yield bytes.subarray(i);
    return;
  }
  if (bytes[i] !== 91) return;
  let depth = 0;
  let start = -1;
  let nextCheck = i + SCAN_CHECK;
  let since = performance.now();
  for (; i < n; i++) {
    const c = bytes[i];
    if (c === 34) {
      // Jump to the closing quote: the next one not escaped by an odd run of backslashes.
      let j = i;
      for (;;) {
        j = bytes.indexOf(34, j + 1);
        if (j < 0) return;
        let k = j - 1;
        while (bytes[k] === 92) k--;
        if ((j - 1 - k) % 2 === 0) break;
      }
      i = j;
    } else if (c === 123 || c === 91) {
      if (depth === 1 && c === 123) start = i;
      depth++;
    } else if (c === 125 || c === 93) {
      depth--;
      if (depth === 1 && start >= 0) {
        yield bytes.subarray(start, i + 1);
        start = -1;
      } else if (depth <= 0) return;
    }
    if (i >= nextCheck) {
      nextCheck = i + SCAN_CHECK;
      if (performance.now() - since > MATCH_SLICE_MS) {
        await pause();
        since = performance.now();
      }
    }
  }
}

/**
 * The UTF-16 byte order a text's byte order mark names ("utf-16le" for
 * FF FE, "utf-16be" for FE FF), or null for any other start (UTF-8, with
 * or without its own mark).
 * @param {Uint8Array} bytes the text's first bytes (2 or more)
 * @returns {"utf-16le"|"utf-16be"|null}
 */
function utf16Order(bytes) {
  if (bytes.length < 2) return null;
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  return null;
}

/**
 * Which attachments each conversation of an export names. ChatGPT: the
 * `asset_pointer`s anywhere in a message (images, audio) and the
 * `metadata.attachments` (by id, else name); the export stores a file as
 * `<id>.<ext>` or `<id>-<name>`, at any depth, and a conversation's audio
 * under a folder named by its id. Claude.ai: `attachments[]` and `files[]`
 * by `file_uuid` or `file_name`. Data that is not such an export (or not
 * JSON: JSON lines are not looked into) gives [].
 *
 * Loops only (no recursion). The bytes are cut into their conversations by
 * a scan and each is decoded and parsed on its own (JSON.parse), pausing
 * every MATCH_SLICE_MS, so a large export is neither held parsed whole nor
 * held as one string. It runs only for a ZIP that holds attachments. An
 * export saved as UTF-16 (its byte order mark first) is converted first.
 * @param {Uint8Array} bytes  the export's bytes (UTF-8, or UTF-16 with its byte order mark)
 * @param {Attachment[]} attachments  the ZIP's files that are not text
 * @returns {Promise<ConversationFiles[]>}  conversations naming at least one, in the export's order; never rejects
 */
export async function matchAttachments(bytes, attachments) {
  const order = utf16Order(bytes);
  if (order !== null) bytes = new TextEncoder().encode(new TextDecoder(order).decode(bytes));
  const index = attachmentIndex(attachments);
  const decoder = new TextDecoder();
  const out = [];
  let since = performance.now();
  for await (const piece of jsonElements(bytes)) {
    let found = null;
    try {
      found = conversationFiles(JSON.parse(decoder.decode(piece)), index);
    } catch {
      // Not JSON after all, or a shape no export has: nothing to match.
    }
    if (found) out.push(found);
    if (performance.now() - since > MATCH_SLICE_MS) {
      await pause();
      since = performance.now();
    }
  }
  return out;
}

/** The attachments by the id their name starts with (and their name without extension) and by their name. */
function attachmentIndex(attachments) {
  // Index the files by the id they start with and by the name they end with.
  const byId = new Map();
  const byName = new Map();
  const byFolder = new Map(); // first folder of the path → files under it
  const add = (map, key, a) => {
    if (!map.has(key)) map.set(key, []);
    map.get(key).push(a);
  };
  for (const a of attachments) {
    const base = basename(a.name);
    const m = /^(file[-_][A-Za-z0-9]+)(?:[-.]|$)/.exec(base);
    if (m) add(byId, m[1], a);
    const stem = base.lastIndexOf(".") > 0 ? base.slice(0, base.lastIndexOf(".")) : base;
    add(byId, stem, a);
    add(byName, base, a);
    if (a.name.includes("/")) add(byFolder, a.name.slice(0, a.name.indexOf("/")), a);
    if (m && base.length > m[1].length + 1 && base[m[1].length] === "-") add(byName, base.slice(m[1].length + 1), a);
  }
  return { byId, byName, byFolder };
}

/**
 * The attachments one parsed conversation names, or null when none.
 * @returns {ConversationFiles | null}
 */
function conversationFiles(conv, { byId, byName, byFolder }) {
  if (!conv || typeof conv !== "object") return null;
  const conversationId = String(conv.conversation_id ?? conv.id ?? conv.uuid ?? "");
  const found = new Map(); // Attachment → messageId
  const take = (list, messageId) => {
    for (const a of list ?? []) if (!found.has(a)) found.set(a, messageId);
  };
  const messages = [];
  if (conv.mapping && typeof conv.mapping === "object") {
    for (const [key, node] of Object.entries(conv.mapping)) if (node?.message) messages.push({ id: String(node.message.id ?? key), message: node.message });
  }
  if (Array.isArray(conv.chat_messages)) for (const m of conv.chat_messages) if (m && typeof m === "object") messages.push({ id: String(m.uuid ?? ""), message: m });
  for (const { id, message } of messages) {
    // Every asset_pointer in the message, at any depth.
    const stack = [message];
    while (stack.length > 0) {
      const v = stack.pop();
      if (Array.isArray(v)) for (const x of v) stack.push(x);
      else if (v && typeof v === "object") {
        for (const [k, x] of Object.entries(v)) {
          if (k === "asset_pointer" && typeof x === "string") take(byId.get(pointerId(x)), id);
          else if (x && typeof x === "object") stack.push(x);
        }
      }
    }
    const named = [...(Array.isArray(message.metadata?.attachments) ? message.metadata.attachments : []), ...(Array.isArray(message.attachments) ? message.attachments : []), ...(Array.isArray(message.files) ? message.files : [])];
    for (const n of named) {
      if (!n || typeof n !== "object") continue;
      const ids = [n.id, n.file_uuid, n.file_id].filter((x) => typeof x === "string" && x !== "");
      const hits = ids.flatMap((x) => byId.get(x) ?? []);
      if (hits.length > 0) take(hits, id);
      else for (const name of [n.name, n.file_name]) if (typeof name === "string") take(byName.get(name), id);
    }
  }
  // A conversation's own folder (ChatGPT keeps voice audio under <conversation id>/).
  if (conversationId !== "") take(byFolder.get(conversationId), null);
  if (found.size === 0) return null;
  const title = typeof conv.title === "string" ? conv.title : typeof conv.name === "string" ? conv.name : "";
  return { conversationId, title, files: [...found].map(([file, messageId]) => ({ file, messageId })) };
}

/**
 * An attachment as "photo.png (image/png, 12.3 kB)".
 * @param {Attachment} a
 * @returns {string}
 */
export function describeAttachment(a) {
  const facts = [a.type || "unknown type", a.size === null ? "size unknown" : formatSize(a.size)];
  return `${basename(a.name)} (${facts.join(", ")})`;
}

/**
 * Bytes as "820 B", "12.3 kB", "4.1 MB" (decimal units).
 * @param {number} n bytes
 * @returns {string}
 */
export function formatSize(n) {
  if (n < 1000) return `${n} B`;
  if (n < 1e6) return `${(n / 1e3).toFixed(1)} kB`;
  return `${(n / 1e6).toFixed(1)} MB`;
}
