// Citation markup in imported answers, as pure functions (no DOM): which
// sources an answer cites and where, and its text with every marker taken
// out, so Markdown sees the text as the author wrote it.
//
// ChatGPT answers written with web search hold markers made of private-use
// characters: U+E200 opens one, U+E202 separates its fields, U+E201 closes
// it. The first field names it: "cite" (then source references such as
// "turn0search3"), "entity" (then a JSON array whose second item is the name
// shown), "image_group", "navlist", "product", … (drawn by ChatGPT itself;
// nothing to show here). U+E203/U+E204 bracket a cited span. The message's
// metadata says what a marker points to: `content_references` (each with
// `matched_text`, the marker, and `items` of {title, url, attribution}) and
// `search_result_groups` (entries with `ref_id` {turn_index, ref_type,
// ref_index}). Older answers cite as "【3†source】" with `metadata.citations`
// ({start_ix, end_ix, metadata: {title, url}}), in the order they appear.
// The shapes were read from exports described in public issues of
// pionxzh/chatgpt-exporter (#259, #276) and daugaard47/
// ChatGPT_Conversations_To_Markdown (#8), and LibreChat's test fixture
// chatgpt-citations.json; core/internal/cite does the same in Go.

/** Opens a citation placeholder left in the text by citeText (U+2063 INVISIBLE SEPARATOR). */
export const CITE_MARK = "\u2063";

/** A placeholder: CITE_MARK, "c", source numbers joined by ".", CITE_MARK. */
const PLACEHOLDER = /\u2063c([\d.]+)\u2063/g;

/** One ChatGPT marker, its name and its fields. */
const MARKER = /\ue200([^\ue200-\ue202]*)((?:\ue202[^\ue200\ue201]*)*)\ue201/g;

/** Older ChatGPT citations: 【3†source】, 【3:1†source】, 【12†Title†host】. */
const OLD_CITE = /【\d+(?::\d+)?†[^】\n]{0,300}】/g;

/** Every private-use character of the Basic Multilingual Plane. */
const PRIVATE_USE = /[\ue000-\uf8ff]/g;

/**
 * The host of a URL without "www.", or "" when it does not parse.
 * @param {string} url
 * @returns {string}
 */
export function hostOf(url) {
  try {
    return new URL(url).hostname.replace(/^www\./, "");
  } catch {
    return "";
  }
}

/** A cited page as {title, url}, or null when its URL is not http(s). */
function pageSource(x) {
  const url = typeof x?.url === "string" ? x.url : "";
  if (!/^https?:\/\//i.test(url)) return null;
  const title = typeof x.title === "string" && x.title.trim() !== "" ? x.title.trim() : typeof x.attribution === "string" ? x.attribution : "";
  return { title, url };
}

/**
 * The sources of a message's metadata by marker and by reference:
 * `byMarker` maps a marker's text (`matched_text`) to its sources;
 * `byRef` maps "turn0search3" to one source; `old` lists the sources of
 * older citations in text order.
 * @param {object|null|undefined} metadata a ChatGPT message's `metadata`
 * @returns {{byMarker: Map<string, {title: string, url: string}[]>, byRef: Map<string, {title: string, url: string}>, old: {title: string, url: string}[]}}
 */
export function citationIndex(metadata) {
  const byMarker = new Map();
  const byRef = new Map();
  const old = [];
  const source = pageSource;
  const refKey = (r) => (r && typeof r === "object" ? `turn${r.turn_index}${r.ref_type}${r.ref_index}` : "");
  for (const ref of Array.isArray(metadata?.content_references) ? metadata.content_references : []) {
    if (typeof ref?.matched_text !== "string" || ref.matched_text.trim() === "") continue;
    const list = [];
    for (const item of Array.isArray(ref.items) ? ref.items : []) {
      const s = source(item);
      if (s) list.push(s);
      for (const r of Array.isArray(item?.refs) ? item.refs : []) if (s) byRef.set(refKey(r), s);
    }
    if (list.length === 0) for (const url of Array.isArray(ref.safe_urls) ? ref.safe_urls : []) {
      const s = source({ url });
      if (s) list.push(s);
    }
    byMarker.set(ref.matched_text, list);
  }
  for (const group of Array.isArray(metadata?.search_result_groups) ? metadata.search_result_groups : []) {
    for (const entry of Array.isArray(group?.entries) ? group.entries : []) {
      const s = source(entry);
      const key = refKey(entry?.ref_id);
      if (s && key !== "" && !byRef.has(key)) byRef.set(key, s);
    }
  }
  const cites = Array.isArray(metadata?.citations) ? [...metadata.citations] : [];
  cites.sort((a, b) => (a?.start_ix ?? 0) - (b?.start_ix ?? 0));
  for (const c of cites) old.push(source(c?.metadata) ?? { title: "", url: "" });
  return { byMarker, byRef, old };
}

/**
 * A message's text with its citation markers resolved: every cite marker
 * whose sources are known becomes a placeholder (CITE_MARK "c1.2" CITE_MARK,
 * numbering sources from 1 in order of first citation, one number per
 * URL); an entity marker becomes its name; every other marker and every
 * other private-use character is removed. Text without markers comes back
 * unchanged (the same string).
 * @param {string} text
 * @param {object|null|undefined} metadata the message's metadata (see citationIndex)
 * @returns {{text: string, sources: {n: number, title: string, url: string, host: string}[]}}
 */
export function citeText(text, metadata) {
  const citer = makeCiter(metadata);
  return { text: citer.text(text), sources: citer.sources };
}

/**
 * A message with citeText applied to its string content or to the text of
 * each text part, the sources numbered across the whole message; a text
 * part's own `citations` (Claude.ai) are cited at its end. The
 * message is not changed: a copy comes back when any text changed.
 * @param {object|null|undefined} message {role, content, …}
 * @param {object|null|undefined} metadata (see citationIndex)
 * @returns {{message: object|null|undefined, sources: {n: number, title: string, url: string, host: string}[]}}
 */
export function citeMessage(message, metadata) {
  const citer = makeCiter(metadata);
  const content = message?.content;
  if (typeof content === "string") {
    const text = citer.text(content);
    return { message: text === content ? message : { ...message, content: text }, sources: citer.sources };
  }
  if (!Array.isArray(content)) return { message, sources: [] };
  let changed = false;
  const parts = content.map((p) => {
    if (typeof p === "string" || typeof p?.text !== "string") return p;
    // Claude.ai: a text block cites its sources in `citations` ({url,
    // title} or {details: {url, title}}): numbered at the block's end.
    const cited = Array.isArray(p.citations) ? p.citations.map((c) => pageSource({ url: c?.url ?? c?.details?.url, title: c?.title ?? c?.details?.title })).filter(Boolean) : [];
    const text = citer.text(p.text).replace(/\s*$/, (end) => citer.place(cited) + end);
    if (text === p.text) return p;
    changed = true;
    return { ...p, text };
  });
  return { message: changed ? { ...message, content: parts } : message, sources: citer.sources };
}

/** A resolver of one message's markers: text(t) resolves t, sources grows as they are cited. */
function makeCiter(metadata) {
  let index = null;
  const sources = [];
  const numberOf = new Map();
  const number = (s) => {
    if (!numberOf.has(s.url)) {
      numberOf.set(s.url, sources.length + 1);
      sources.push({ n: sources.length + 1, title: s.title || hostOf(s.url), url: s.url, host: hostOf(s.url) });
    }
    return numberOf.get(s.url);
  };
  const place = (list) => {
    const nums = [...new Set(list.map(number))];
    return nums.length === 0 ? "" : `${CITE_MARK}c${nums.join(".")}${CITE_MARK}`;
  };
  const text = (t) => {
    if (typeof t !== "string") return "";
    if (!/[\ue000-\uf8ff【]/.test(t)) return t;
    index ??= citationIndex(metadata);
    let out = t.replace(MARKER, (whole, name, rest) => {
      const fields = rest === "" ? [] : rest.slice(1).split("\ue202");
      if (name === "cite" || name === "filecite") return place(index.byMarker.get(whole) ?? fields.map((f) => index.byRef.get(f.trim())).filter(Boolean));
      if (name === "entity") return entityName(fields[0]);
      return "";
    });
    if (index.old.length > 0) {
      let k = 0;
      out = out.replace(OLD_CITE, () => {
        const s = index.old[k++];
        return s && s.url !== "" ? place([s]) : "";
      });
    }
    return lineEnds(out.replace(PRIVATE_USE, ""));
  };
  return { text, sources, place };
}

/**
 * Move each placeholder that starts a line (after its spaces and tabs) to
 * the end of the line before, so that a fence, list item or table row
 * after it still starts its line; one at the start of the text is dropped
 * (its source stays listed); the same placeholder twice in a row is kept
 * once. As core/internal/cite's lineEnds.
 */
function lineEnds(text) {
  if (!text.includes(CITE_MARK)) return text;
  let out = text;
  for (let before = ""; before !== out; ) {
    before = out;
    out = out.replace(/\n([ \t]*)(\u2063c[\d.]+\u2063)/g, "$2\n$1").replace(/^([ \t]*)\u2063c[\d.]+\u2063/, "$1");
  }
  return out.replace(/(\u2063c[\d.]+\u2063)\1+/g, "$1"); // one moved next to the same: once
}

/** The name an entity marker shows: the second item of its JSON array, else "". */
function entityName(field) {
  try {
    const v = JSON.parse(field ?? "");
    if (Array.isArray(v) && typeof v[1] === "string") return v[1];
  } catch {
    // not JSON: nothing to show
  }
  return "";
}

/**
 * Split text holding citeText's placeholders into pieces: plain text and
 * citations (the source numbers of one marker).
 * @param {string} text
 * @returns {({text: string} | {cite: number[]})[]} in order; [] for ""
 */
export function citePieces(text) {
  const out = [];
  let at = 0;
  for (const m of text.matchAll(PLACEHOLDER)) {
    if (m.index > at) out.push({ text: text.slice(at, m.index) });
    out.push({ cite: m[1].split(".").map(Number) });
    at = m.index + m[0].length;
  }
  if (at < text.length) out.push({ text: text.slice(at) });
  return out;
}

/**
 * Text with every marker taken out and nothing in their place (an entity
 * marker keeps its name): for search and plain previews. As core's
 * cite.Strip.
 * @param {string} text
 * @returns {string}
 */
export function stripCites(text) {
  return writeCites(citeText(text, null).text, () => "");
}

/**
 * Text with citeText's placeholders written by `write` (given the source
 * numbers of one marker), e.g. " [1] [2]" for a Markdown footnote.
 * @param {string} text
 * @param {(numbers: number[]) => string} write
 * @returns {string}
 */
export function writeCites(text, write) {
  return text.replace(PLACEHOLDER, (_, nums) => write(nums.split(".").map(Number)));
}
