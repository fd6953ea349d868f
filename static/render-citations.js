// The DOM side of citations (static/citations.js finds them): each
// placeholder citeText left in rendered Markdown becomes numbered
// superscript links to its sources, and a "Sources" list goes under the
// answer. Built with createElement and textContent only; links open in a
// new tab with rel="noopener noreferrer".

import { CITE_MARK, citePieces } from "./citations.js";
import { el } from "./dom.js";

/**
 * Replace citeText's placeholders in the text under root with superscript
 * links ("¹" style numbers, the source's title and host as the tooltip
 * and accessible name). A number with no source shows as plain text.
 * @param {ParentNode} root rendered Markdown
 * @param {{n: number, title: string, url: string, host: string}[]} sources
 * @returns {number} how many citations were drawn
 */
export function drawCitations(root, sources) {
  const doc = root.ownerDocument ?? document;
  const walker = doc.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const found = [];
  for (let n = walker.nextNode(); n !== null; n = walker.nextNode()) if (n.data.includes(CITE_MARK)) found.push(n);
  let drawn = 0;
  for (const node of found) {
    const parts = [];
    for (const piece of citePieces(node.data)) {
      if ("text" in piece) {
        parts.push(doc.createTextNode(piece.text));
        continue;
      }
      const sup = el("sup", "cite");
      for (const n of piece.cite) sup.append(citeLink(sources[n - 1], n));
      parts.push(sup);
      drawn++;
    }
    node.replaceWith(...parts);
  }
  return drawn;
}

/** One numbered link, or the bare number when its source is unknown. */
function citeLink(source, n) {
  if (!source) return el("span", "cite-n", `[${n}]`);
  const a = el("a", "cite-n", `[${n}]`);
  a.href = source.url;
  a.target = "_blank";
  a.rel = "noopener noreferrer";
  const name = source.host && source.host !== source.title ? `${source.title} — ${source.host}` : source.title;
  a.title = name;
  a.setAttribute("aria-label", `Source ${n}: ${name}`);
  return a;
}

/**
 * The "Sources" list under a cited answer: a numbered list of links (title,
 * then host), each opening in a new tab.
 * @param {{n: number, title: string, url: string, host: string}[]} sources
 * @returns {HTMLElement} a <section class="sources">
 */
export function sourcesList(sources) {
  const section = el("section", "sources");
  section.setAttribute("aria-label", "Sources");
  section.append(el("h4", "sources-head", "Sources"));
  const ol = el("ol", "sources-list");
  for (const s of sources) {
    const li = el("li", "source");
    li.value = s.n;
    const a = el("a", "source-title", s.title || s.host || s.url);
    a.href = s.url;
    a.target = "_blank";
    a.rel = "noopener noreferrer";
    li.append(a);
    if (s.host) li.append(" ", el("span", "source-host", s.host));
    ol.append(li);
  }
  section.append(ol);
  return section;
}
