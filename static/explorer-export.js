// The explorer's export choices beyond the snapshot: the core's `export`
// formats (Markdown of the path to the cursor or of the whole tree, OpenAI
// messages, a Pi session) and the share file (a self-contained HTML file
// of the whole tree, share-export.js). explorer.js draws them in its
// Export menu and downloads what exportChoice gives.

import { buildShareFile } from "./share-export.js";
import { envelopeValueText } from "../js/envelope.js";
import { snapshotFileName } from "./node-text.js";
import { buildMapModel } from "./map-model.js";
import { mapPNG, mapSVGText } from "./map-svg.js";
import { hangForks, holdForks, loadForks } from "./map-forks.js";
import { resolveColours, TOKENS } from "./map-colours.js";

/**
 * The export menu's choices after "Snapshot": `key` (the menu item's
 * data-format), the core `format` and `scope` it asks for (none for the
 * share file, which the page builds), the menu `label`, the file ending
 * shown beside it, the MIME `type` when the core names none, a `hint`
 * (the item's tooltip), and `needs` (the core operation it needs).
 */
export const EXPORT_CHOICES = Object.freeze([
  { key: "markdown", format: "markdown", scope: "path", label: "Markdown · this path", ext: ".md", type: "text/markdown", hint: "The path from the root to the session's cursor, as Markdown", needs: "export" },
  { key: "markdown-tree", format: "markdown", scope: "tree", label: "Markdown · whole tree", ext: ".tree.md", type: "text/markdown", hint: "Every node of the session, depth first, as Markdown", needs: "export" },
  { key: "html", label: "Share file · whole tree", ext: ".html", type: "text/html", hint: "One HTML file that opens offline in any browser: the whole tree, the context of any node, search", needs: "snapshot.save" },
  { key: "html-shown", label: "Share file · hidden left out", ext: ".shown.html", type: "text/html", hint: "The share file without the nodes hidden from the default view (Hide)", needs: "snapshot.save" },
  { key: "openai", format: "openai", scope: "path", label: "OpenAI messages", ext: ".openai.json", type: "application/json", hint: "The messages the model sees at the cursor", needs: "export" },
  { key: "pi", format: "pi", scope: "tree", label: "Pi session", ext: ".jsonl", type: "application/x-ndjson", hint: "The whole tree as a Pi session file", needs: "export" },
  { key: "map-svg", label: "Map · SVG", ext: ".map.svg", type: "image/svg+xml", hint: "The map of the whole session as an SVG image", needs: "map" },
  { key: "map-png", label: "Map · PNG", ext: ".map.png", type: "image/png", hint: "The map of the whole session as a PNG image", needs: "map" },
]);

/** The export choices people read (named by the session's title): the others are files for tools, named by its id. */
const READ_BY_PEOPLE = new Set(["markdown", "markdown-tree", "html", "html-shown", "map-svg", "map-png"]);

/** Characters of a title a file name keeps at most (see readableFileName). */
const NAME_TITLE_CHARS = 60;

/**
 * A file name for an export people read: the session's title and its id
 * (whole up to 12 characters, else its first 8) in parentheses, then ext,
 * `Plan a trip to Lisbon (d5dc5307).md`; the id alone when there is no
 * title or it is the id. Characters file systems refuse (\ / : * ? " < >
 * |, control characters) become spaces, runs of white space one space;
 * the title keeps at most NAME_TITLE_CHARS characters, never ending in a
 * dot or a space (Windows drops them).
 * @param {string} sessionId
 * @param {string|undefined} title
 * @param {string} ext the ending, with its dot
 * @returns {string}
 */
export function readableFileName(sessionId, title, ext) {
  const clean = (s) => String(s ?? "").replace(/[\\/:*?"<>|\u0000-\u001f\u007f]/g, " ").replace(/\s+/g, " ").trim();
  const id = String(sessionId).replace(/[\\/:*?"<>|\u0000-\u001f\u007f]/g, "_");
  let name = clean(title);
  if (name === "" || name === clean(sessionId)) return `${id}${ext}`;
  const chars = [...name];
  if (chars.length > NAME_TITLE_CHARS) name = chars.slice(0, NAME_TITLE_CHARS).join("");
  name = name.replace(/[. ]+$/, "");
  return `${name} (${id.length <= 12 ? id : id.slice(0, 8)})${ext}`;
}

/**
 * The choices the page's tree can make (those whose `needs` it has).
 * @param {{hasOperation: (name: string) => boolean}} tree
 * @returns {typeof EXPORT_CHOICES}
 */
export function availableChoices(tree) {
  return EXPORT_CHOICES.filter((c) => tree.hasOperation(c.needs));
}

/**
 * Make the file of one export choice.
 * @param {{call: (request: object) => Promise<object>}} tree the page's shared tree
 * @param {string} sessionId
 * @param {string} key an EXPORT_CHOICES key
 * @param {{title?: string, onProgress?: (p: {done: number, total: number}) => void}} [options]
 *   the title the page shows for the session; for the share file, progress
 *   in nodes rendered (buildShareFile)
 * @returns {Promise<{text: string|Blob, name: string, type: string, scope: string}>}
 *   the file's text (a Blob for the map's PNG), name and MIME type, and its scope ("path", "tree",
 *   or "shown": the tree without its hidden nodes)
 * @throws {Error} for an unknown key or a failed call (its message says why)
 */
export async function exportChoice(tree, sessionId, key, options = {}) {
  const choice = EXPORT_CHOICES.find((c) => c.key === key);
  if (!choice) throw new Error(`unknown export ${JSON.stringify(key)}`);
  const file = await makeChoice(tree, sessionId, choice, options);
  if (READ_BY_PEOPLE.has(choice.key)) file.name = readableFileName(sessionId, options.title, choice.ext);
  return file;
}

/** exportChoice's file, named as the core or share-export.js names it. */
async function makeChoice(tree, sessionId, choice, options) {
  if (choice.key === "html" || choice.key === "html-shown") {
    const file = await buildShareFile(tree, sessionId, { title: options.title, hidden: choice.key === "html", onProgress: options.onProgress });
    return { text: file.text, name: file.filename, type: choice.type, scope: choice.key === "html" ? "tree" : "shown" };
  }
  if (choice.key === "map-svg" || choice.key === "map-png") return mapFile(tree, sessionId, choice);
  const env = await tree.call({ operation: "export", sessionId, format: choice.format, scope: choice.scope });
  if (!env.ok) throw new Error(env.error.message);
  const v = env.value;
  let name = typeof v?.filename === "string" && v.filename !== "" ? v.filename : snapshotFileName(sessionId).replace(/\.snapshot\.json$/, choice.ext);
  if (choice.key === "markdown-tree") name = name.replace(/\.md$/, ".tree.md");
  const type = typeof v?.mimeType === "string" ? v.mimeType : choice.type;
  return { text: typeof v?.text === "string" ? v.text : JSON.stringify(v, null, 2), name, type, scope: typeof v?.scope === "string" ? v.scope : choice.scope };
}

/**
 * The map of a session as an SVG (text) or PNG (a Blob) file, in the
 * page's theme colours (map-svg.js), the sessions made from it hung beside it.
 */
async function mapFile(tree, sessionId, choice) {
  const env = await tree.call({ operation: "map", sessionId });
  if (!env.ok) throw new Error(env.error.message);
  // The forks hang beside it, as on the page's map.
  const got = await loadForks(tree, sessionId, env.value);
  const model = buildMapModel(got.map);
  const hung = got.forks.length > 0 ? hangForks(model, got.forks) : null;
  if (hung) holdForks(model, hung);
  const probe = document.createElement("span");
  document.body.append(probe);
  const colours = resolveColours(probe, TOKENS);
  probe.remove();
  const colour = (t) => colours[t];
  const name = snapshotFileName(sessionId).replace(/\.snapshot\.json$/, choice.ext);
  const text = choice.key === "map-svg" ? mapSVGText(model, colour, hung) : await mapPNG(model, colour, hung);
  return { text, name, type: choice.type, scope: "tree" };
}

/**
 * Save text (or a Blob) as a file named name (MIME type type) through a temporary
 * object URL and a clicked <a download>; the URL is revoked 10 s later.
 * @param {string} text @param {string} name @param {string} type
 */
export function download(text, name, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * The exact JSON text of the session's snapshot. `call` parses envelopes
 * with JSON.parse, which would rewrite numbers inside messages
 * (1756000001.0 → 1756000001, digits beyond 2^53 lost); `callText` gives
 * the envelope's own bytes, from which the value is cut. Rejects naming
 * the envelope when snapshot.save fails.
 * @param {object} tree a SessionTree @param {string} sessionId
 * @returns {Promise<string>}
 */
export async function snapshotText(tree, sessionId) {
  const raw = await tree.callText({ operation: "snapshot.save", sessionId });
  const value = envelopeValueText(raw);
  if (value !== null) return value;
  throw new Error(`snapshot.save failed: ${raw}`);
}
