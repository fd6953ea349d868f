// A real-prose search corpus: the comments of the Go distribution's own
// source ($(go env GOROOT)/src, *.go outside testdata) and its documents
// ($(go env GOROOT)/doc, HTML and Markdown), cut into chat-sized messages,
// with queries planted from the corpus's own words. Go is installed on
// every machine that builds sessiontree, so the same Go version gives the
// same corpus everywhere (the result records the version and file count).
// Node only (it reads files); bench/run.mjs --prose passes the result to
// the benchmark page.
//
//   import { makeProseCorpus } from "./prose.mjs";
//   const { messages, queries, source } = makeProseCorpus({ goroot });
//
// Query classes, as in bench/corpus.mjs, except that every truth is every
// message that holds the target word (a whole word, case and accents
// folded; the words a query is built from occur in 1 to MAX_DF messages):
//   exact        a word of 6–9 letters as written
//   typo1-*      one substitution / deletion / insertion / transposition
//                in a word of 6–9 letters
//   typo2        two typos in a word of 9–13 letters (two deletions from 9
//                letters give the 7-letter queries of issue 15)
//   two-words    two words of one message, the second (7–9 letters) with
//                one typo; truth: the messages holding both
// A typo'd query is never itself a word of the corpus, nor the prefix of
// one (then it would not be a typo but another word, which ranks first by
// rights). The accent and cjk classes exist only in the generated corpus
// (Go's prose is English).

import fs from "node:fs";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { prng, typo, osa } from "./corpus.mjs";

/** The most messages a target word may occur in (a search for it fits in a top 50). */
export const MAX_DF = 25;

/** Longest message, in characters; longer paragraphs are cut at sentence ends. */
const MAX_CHARS = 400;

/** The Go root of the go on PATH. */
export function goroot() {
  return execFileSync("go", ["env", "GOROOT"], { encoding: "utf8" }).trim();
}

/** Files under dir, sorted by path, that pass keep (iterative walk). */
function walk(dir, keep) {
  const out = [];
  const stack = [dir];
  while (stack.length) {
    const d = stack.pop();
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) {
        if (e.name !== "testdata") stack.push(p);
      } else if (keep(p)) out.push(p);
    }
  }
  return out.sort();
}

const BOILERPLATE = /^(Copyright \d|Use of this source code is governed|Code generated|DO NOT EDIT|\+build|go:build)/;

/** The prose paragraphs of a Go file's // comments (indented code, directives and licence lines left out). */
function goParagraphs(src) {
  const out = [];
  let para = [];
  const flush = () => {
    if (para.length) out.push(para.join(" "));
    para = [];
  };
  for (const raw of src.split("\n")) {
    const line = raw.trim();
    if (!line.startsWith("//")) {
      flush();
      continue;
    }
    const body = line.slice(2);
    if (body.startsWith("go:") || body.startsWith("line ") || body.startsWith("\t") || body.startsWith("  ")) {
      flush(); // a directive or an indented code example
      continue;
    }
    const text = body.trim();
    if (text === "" || BOILERPLATE.test(text)) {
      flush();
      continue;
    }
    para.push(text);
  }
  flush();
  return out;
}

const ENTITIES = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " ", mdash: "—", ndash: "–", hellip: "…", rsquo: "’", lsquo: "‘", ldquo: "“", rdquo: "”" };

/** The paragraphs of an HTML or Markdown document (pre/code blocks left out). */
function docParagraphs(src, html) {
  let text = src;
  if (html) {
    text = text.replace(/<pre[\s\S]*?<\/pre>/g, "\n\n").replace(/<(p|h[1-6]|li|dt|dd|tr|div|table|ul|ol)\b[^>]*>/gi, "\n\n").replace(/<[^>]*>/g, "");
    text = text.replace(/&(#\d+|[a-z]+);/gi, (m, e) => (e[0] === "#" ? String.fromCodePoint(Number(e.slice(1))) : ENTITIES[e.toLowerCase()] ?? m));
  } else {
    text = text.replace(/```[\s\S]*?```/g, "\n\n").replace(/^( {4}|\t).*$/gm, "");
  }
  return text.split(/\n\s*\n/).map((p) => p.replace(/\s+/g, " ").trim());
}

/** Cut a paragraph into messages of at most MAX_CHARS, at sentence ends. */
function cut(para, out) {
  if (para.length <= MAX_CHARS) {
    out.push(para);
    return;
  }
  let cur = "";
  for (const s of para.split(/(?<=[.!?]) +/)) {
    if (cur && cur.length + 1 + s.length > MAX_CHARS) {
      out.push(cur);
      cur = "";
    }
    cur = cur ? `${cur} ${s}` : s.slice(0, MAX_CHARS);
  }
  if (cur) out.push(cur);
}

/** The words of a text as search folds them: lower case, accents off, split at anything but letters, marks and digits. */
export function words(text) {
  return text.normalize("NFKD").replace(/\p{Mn}/gu, "").toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

/**
 * Build the corpus.
 * @param {{goroot?: string, messages?: number, perClass?: number, seed?: number}} [options]
 *   goroot: the Go root to read (default: `go env GOROOT`); messages: how
 *   many (default 100,000; fewer if the prose runs out); perClass: queries
 *   per class (default 20).
 * @returns {{messages: {id: string, role: string, text: string}[], queries: {cls: string, query: string, truth: number[]}[], textBytes: number,
 *   source: {goVersion: string, goFiles: number, docFiles: number, paragraphs: number}}}
 */
export function makeProseCorpus({ goroot: root = goroot(), messages: count = 100000, perClass = 20, seed = 20261201 } = {}) {
  const goFiles = walk(path.join(root, "src"), (p) => p.endsWith(".go"));
  const docFiles = walk(path.join(root, "doc"), (p) => /\.(html|md)$/.test(p));
  const paras = [];
  for (const f of goFiles) for (const p of goParagraphs(fs.readFileSync(f, "utf8"))) cut(p, paras);
  for (const f of docFiles) for (const p of docParagraphs(fs.readFileSync(f, "utf8"), f.endsWith(".html"))) cut(p, paras);
  // Chat-like: at least five words; each distinct paragraph once.
  const seen = new Set();
  const pool = paras.filter((p) => p.split(" ").length >= 5 && !seen.has(p) && seen.add(p));
  const rand = prng(seed);
  const int = (n) => Math.floor(rand() * n);
  for (let i = pool.length - 1; i > 0; i--) {
    const j = int(i + 1);
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  const texts = pool.slice(0, count);

  // Postings of every word, and the sorted vocabulary (for the prefix rule).
  const postings = new Map();
  texts.forEach((t, i) => {
    for (const w of new Set(words(t))) {
      let p = postings.get(w);
      if (!p) postings.set(w, (p = []));
      p.push(i);
    }
  });
  const vocab = [...postings.keys()].sort();
  const isPrefix = (q) => {
    let lo = 0;
    let hi = vocab.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (vocab[mid] < q) lo = mid + 1;
      else hi = mid;
    }
    return lo < vocab.length && vocab[lo].startsWith(q);
  };
  const targets = (min, max) => vocab.filter((w) => /^[a-z]+$/.test(w) && w.length >= min && w.length <= max && postings.get(w).length <= MAX_DF);
  const short = targets(6, 9);
  const long = targets(9, 13);
  const used = new Set();
  const pick = (list) => {
    for (;;) {
      const w = list[int(list.length)];
      if (!used.has(w)) {
        used.add(w);
        return w;
      }
    }
  };
  // A typo of w at distance d that is no word of the corpus nor a prefix of one.
  const typoOf = (w, kinds, d) => {
    for (let tries = 0; tries < 50; tries++) {
      let q = w;
      for (const k of kinds) q = typo(rand, q, k);
      if (osa(w, q) === d && !isPrefix(q)) return q;
    }
    return null;
  };
  const kinds = ["sub", "del", "ins", "trans"];
  const queries = [];
  for (let q = 0; q < perClass; q++) {
    const w = pick(short);
    queries.push({ cls: "exact", query: w, truth: postings.get(w) });
  }
  for (const kind of kinds) {
    for (let q = 0; q < perClass; ) {
      const w = pick(short);
      const t = typoOf(w, [kind], 1);
      if (t) {
        queries.push({ cls: `typo1-${kind}`, query: t, truth: postings.get(w) });
        q++;
      }
    }
  }
  for (let q = 0; q < perClass; ) {
    const w = pick(long);
    const t = typoOf(w, [kinds[int(4)], kinds[int(4)]], 2);
    if (t) {
      queries.push({ cls: "typo2", query: t, truth: postings.get(w) });
      q++;
    }
  }
  for (let q = 0; q < perClass; ) {
    const b = pick(targets(7, 9));
    const i = postings.get(b)[0];
    const others = [...new Set(words(texts[i]))].filter((w) => w !== b && /^[a-z]+$/.test(w) && w.length >= 6 && w.length <= 9 && postings.get(w).length <= 2000).sort();
    const t = typoOf(b, [kinds[int(4)]], 1);
    if (!others.length || !t) continue;
    const a = others[int(others.length)];
    const inA = new Set(postings.get(a));
    queries.push({ cls: "two-words", query: `${a} ${t}`, truth: postings.get(b).filter((k) => inA.has(k)) });
    q++;
  }

  let textBytes = 0;
  const encoder = new TextEncoder();
  const messages = texts.map((text, i) => {
    textBytes += encoder.encode(text).length;
    return { id: `m${i}`, role: i % 2 === 0 ? "user" : "assistant", text };
  });
  const goVersion = fs.readFileSync(path.join(root, "VERSION"), "utf8").split("\n")[0];
  return { messages, queries, textBytes, source: { goVersion, goFiles: goFiles.length, docFiles: docFiles.length, paragraphs: pool.length } };
}
