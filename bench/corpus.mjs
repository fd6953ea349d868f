// Deterministic chat-like corpus with planted search targets, shared by
// every library in the benchmark (bench/page.mjs runs it in the browser;
// Node can import it too). No dependencies, no randomness beyond a seeded
// PRNG: the same options give the same messages and queries everywhere.
//
//   import { makeCorpus } from "./corpus.mjs";
//   const { messages, queries } = makeCorpus({ messages: 100000 });
//   // messages: [{id, role, text}], queries: [{cls, query, truth: [message index]}]
//
// Query classes (each query's truth is the messages holding its target):
//   exact         a planted word as written
//   typo1-sub, typo1-del, typo1-ins, typo1-trans
//                 one substitution / deletion / insertion / transposition
//                 in a planted word of 6–9 letters
//   typo2         two typos (two of the above) in a planted word of 10–13 letters
//   two-words     two planted words that share messages; the second has one typo
//   accent        accented word queried plain, or plain word queried accented
//   cjk           one or two characters of a planted Chinese run
//   prefix-typo   a word being typed: the first 6 or 7 letters of a planted word of
//                 10–13 letters with one typo after the second letter ("compct" for
//                 "compaction"; the store takes a word's start within one edit when its
//                 first two letters are right, core/internal/search/distance.go prefixTypo)

/** mulberry32: a small seeded PRNG returning floats in [0, 1). */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const COMMON = `the a to and of in is it you that for on with this be are was have not can do we will
but what if so just your my me at or from by about how like please thanks yes no maybe here there
deploy deployment pipeline failed build test release branch merge commit review server client
database query index search fuzzy memory cache latency request response error warning config
configuration authentication authorization middleware kubernetes cluster container docker image
python javascript golang webassembly browser chromium session snapshot message assistant user
summary context window token model prompt answer question explain example function variable
yesterday tomorrow morning evening weekend meeting schedule calendar project roadmap milestone
performance benchmark allocation throughput concurrency goroutine channel mutex table column
should could would might must need want think know see look make take give find tell ask work
time day week month year people thing way problem issue idea plan step point part place case
good bad new old first last long short small large great little right wrong sure clear simple
file folder path line code text data value type list item name number string object array key
run start stop open close read write send get set add remove update change check try use call`.split(/\s+/).filter(Boolean);

const ACCENTED = ["café", "naïve", "Lumière", "São", "Tomé", "résumé", "Zürich", "façade", "jalapeño", "crème", "brûlée", "Ærø", "Straße", "İstanbul"];
const EMOJI = ["👍", "👍🏽", "🎉", "🚀", "👨‍👩‍👧", "🇫🇷", "✅", "🔥"];

// Syllables for generated words. Base words and planted targets use
// disjoint consonant sets, so a target never occurs by chance.
const BASE_ONSETS = ["b", "d", "f", "g", "l", "m", "n", "p", "r", "s", "t", "br", "st", "tr", "pl", "gr"];
const TARGET_ONSETS = ["k", "v", "z", "x", "j", "q", "kv", "zr", "vl", "xj"];
const VOWELS = ["a", "e", "i", "o", "u", "ai", "ou", "ea"];

function word(rand, onsets, minLen, maxLen) {
  for (;;) {
    let w = "";
    while (w.length < minLen) w += onsets[Math.floor(rand() * onsets.length)] + VOWELS[Math.floor(rand() * VOWELS.length)];
    if (w.length <= maxLen) return w;
  }
}

// Chinese characters: a common pool for background text and a rare pool
// (never used in background text) for planted runs.
const CJK_COMMON = Array.from({ length: 400 }, (_, i) => String.fromCodePoint(0x4e00 + i * 7));
const CJK_RARE = Array.from({ length: 400 }, (_, i) => String.fromCodePoint(0x7000 + i * 11));

/** Apply one typo of kind ("sub", "del", "ins", "trans") to w, keeping its first and last letter. */
export function typo(rand, w, kind) {
  const chars = [...w];
  const letters = "abcdefghilmnoprstuy";
  const pick = () => letters[Math.floor(rand() * letters.length)];
  const pos = 1 + Math.floor(rand() * (chars.length - 2)); // keep first and last letter
  switch (kind) {
    case "sub": {
      let c = pick();
      while (c === chars[pos]) c = pick();
      chars[pos] = c;
      break;
    }
    case "del":
      chars.splice(pos, 1);
      break;
    case "ins":
      chars.splice(pos, 0, pick());
      break;
    case "trans": {
      let p = pos;
      while (p + 1 < chars.length && chars[p] === chars[p + 1]) p++;
      if (p + 1 >= chars.length) p = 0;
      [chars[p], chars[p + 1]] = [chars[p + 1], chars[p]];
      break;
    }
  }
  return chars.join("");
}

/** w with two of its vowels accented (each taken with odds 0.7, in order). */
function accentTwo(rand, w) {
  const chars = [...w];
  const accents = { a: "á", e: "è", i: "ï", o: "ô", u: "ü" };
  let done = 0;
  for (let k = 0; k < chars.length && done < 2; k++) {
    if (accents[chars[k]] && rand() < 0.7) {
      chars[k] = accents[chars[k]];
      done++;
    }
  }
  return chars.join("");
}

/**
 * A word being typed with a typo: w's first 6 or 7 letters with one typo
 * (any kind) after the second letter.
 */
function typingTypo(rand, w) {
  const kinds = ["sub", "del", "ins", "trans"];
  const typed = w.slice(0, 6 + Math.floor(rand() * 2));
  let query;
  do query = typed[0] + typo(rand, typed.slice(1), kinds[Math.floor(rand() * 4)]);
  while (osa(typed, query) !== 1 || query.slice(0, 2) !== typed.slice(0, 2));
  return query;
}

/** Optimal string alignment distance (typos with adjacent transpositions). */
export function osa(a, b) {
  a = [...a];
  b = [...b];
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array(b.length).fill(0)]);
  for (let j = 0; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

function stripAccents(s) {
  return s.normalize("NFKD").replace(/\p{Mn}/gu, "");
}

/**
 * Build the corpus.
 * @param {{messages?: number, seed?: number, perClass?: number, plantCount?: number}} [options]
 *   messages: corpus size (default 100,000); perClass: queries per class
 *   (default 20); plantCount: messages each target is planted in (default 3).
 * @returns {{messages: {id: string, role: string, text: string}[], queries: {cls: string, query: string, truth: number[]}[], textBytes: number}}
 */
export function makeCorpus({ messages: count = 100000, seed = 20261129, perClass = 20, plantCount = 3 } = {}) {
  const rand = prng(seed);
  const int = (n) => Math.floor(rand() * n);
  const vocab = [...COMMON];
  for (let i = 0; i < 2000; i++) vocab.push(word(rand, BASE_ONSETS, 3, 11));
  // Zipf-like choice: low indexes far more often.
  const pickWord = () => vocab[Math.floor(Math.pow(rand(), 2.2) * vocab.length)];

  const texts = new Array(count);
  for (let i = 0; i < count; i++) {
    const n = 6 + int(30);
    const parts = [];
    for (let w = 0; w < n; w++) parts.push(pickWord());
    const r = rand();
    if (r < 0.04) parts.splice(int(parts.length), 0, ACCENTED[int(ACCENTED.length)]);
    else if (r < 0.07) parts.splice(int(parts.length), 0, EMOJI[int(EMOJI.length)]);
    else if (r < 0.10) {
      let run = "";
      for (let k = 0, m = 4 + int(12); k < m; k++) run += CJK_COMMON[int(CJK_COMMON.length)];
      parts.splice(int(parts.length), 0, run);
    }
    let text = parts.join(" ");
    text = text[0].toUpperCase() + text.slice(1) + (rand() < 0.3 ? "?" : ".");
    texts[i] = text;
  }

  const used = new Set();
  const target = (minLen, maxLen) => {
    for (;;) {
      const w = word(rand, TARGET_ONSETS, minLen, maxLen);
      if (!used.has(w)) {
        used.add(w);
        return w;
      }
    }
  };
  // plant inserts w into k distinct messages and returns their indexes.
  const plant = (w, k = plantCount, at = null) => {
    const where = at ?? [];
    while (at === null && where.length < k) {
      const i = int(count);
      if (!where.includes(i)) where.push(i);
    }
    for (const i of where) {
      const parts = texts[i].split(" ");
      parts.splice(1 + int(parts.length - 1), 0, w);
      texts[i] = parts.join(" ");
    }
    return where.slice().sort((a, b) => a - b);
  };

  const queries = [];
  for (let q = 0; q < perClass; q++) {
    const w = target(6, 9);
    queries.push({ cls: "exact", query: w, truth: plant(w) });
  }
  for (const kind of ["sub", "del", "ins", "trans"]) {
    for (let q = 0; q < perClass; q++) {
      const w = target(6, 9);
      queries.push({ cls: `typo1-${kind}`, query: typo(rand, w, kind), truth: plant(w) });
    }
  }
  const kinds = ["sub", "del", "ins", "trans"];
  for (let q = 0; q < perClass; q++) {
    const w = target(10, 13);
    let typoed;
    do typoed = typo(rand, typo(rand, w, kinds[int(4)]), kinds[int(4)]);
    while (osa(w, typoed) !== 2);
    queries.push({ cls: "typo2", query: typoed, truth: plant(w) });
  }
  for (let q = 0; q < perClass; q++) {
    const a = target(6, 9);
    const b = target(7, 9);
    const both = plant(a);
    plant(b, plantCount, both);
    plant(a); // a and b also appear alone elsewhere
    plant(b);
    queries.push({ cls: "two-words", query: `${a} ${typo(rand, b, kinds[int(4)])}`, truth: both });
  }
  for (let q = 0; q < perClass; q++) {
    const w = target(6, 9);
    const accented = accentTwo(rand, w);
    if (q % 2 === 0) {
      queries.push({ cls: "accent", query: stripAccents(accented), truth: plant(accented[0].toUpperCase() + accented.slice(1)) });
    } else {
      queries.push({ cls: "accent", query: accented.toUpperCase(), truth: plant(w) });
    }
  }
  for (let q = 0; q < perClass; q++) {
    let run = "";
    for (let k = 0; k < 4; k++) run += CJK_RARE[int(CJK_RARE.length)];
    const where = plant(run);
    const cp = [...run];
    const query = q % 2 === 0 ? cp[1] + cp[2] : cp[int(4)];
    queries.push({ cls: "cjk", query, truth: where });
  }
  for (let q = 0; q < perClass; q++) {
    const w = target(10, 13);
    queries.push({ cls: "prefix-typo", query: typingTypo(rand, w), truth: plant(w) });
  }
  // CJK truth: every message holding the query as a substring (rare
  // characters may repeat across planted runs).
  for (const q of queries) {
    if (q.cls !== "cjk") continue;
    const truth = [];
    for (let i = 0; i < count; i++) if (texts[i].includes(q.query)) truth.push(i);
    q.truth = truth;
  }

  let textBytes = 0;
  const encoder = new TextEncoder();
  const messages = texts.map((text, i) => {
    textBytes += encoder.encode(text).length;
    return { id: `m${i}`, role: i % 2 === 0 ? "user" : "assistant", text };
  });
  return { messages, queries, textBytes };
}
