// The long lists of a worker's answer, posted to the page in parts
// (js/worker.js postAnswer, js/sessiontree.js puts them back): an import
// of 60,000 conversations answers 60,000 sessions, and the explorer's
// `sessions` list of such a store as many; read from one message, each
// held the page's thread 100–300 ms. In parts of PART_ITEMS, each message
// is a task of a few ms. Pure, no DOM and no worker.

/** The most items of a list one message carries. */
export const PART_ITEMS = 5000;

/** A `call` answer this long (UTF-16 code units) or more may be read in the worker (readLongList). */
export const PART_CHARS = 1 << 20;

/**
 * Where an answer's long lists may be, as [outer, inner] keys: a `call`
 * answer read by readLongList ({envelope}), an import's envelope.
 */
export const LIST_PATHS = Object.freeze([
  ["envelope", "value"],
  ["value", "sessions"],
  ["value", "warnings"],
  ["value", "skipped"],
]);

/**
 * A `call` answer (core's envelope text), as {envelope} when it is at
 * least PART_CHARS long and its value a list of more than PART_ITEMS
 * (then splitAnswer cuts it), else as it is.
 * @param {unknown} answer
 * @returns {unknown}
 */
export function readLongList(answer) {
  if (typeof answer !== "string" || answer.length < PART_CHARS) return answer;
  const envelope = JSON.parse(answer);
  return envelope.ok && Array.isArray(envelope.value) && envelope.value.length > PART_ITEMS ? { envelope } : answer;
}

/**
 * Cut the lists of more than PART_ITEMS out of value (at LIST_PATHS):
 * null when it has none, else the parts, [at, items] in order (at: the
 * index of the path in LIST_PATHS), the value with those lists empty (a
 * copy; value is not changed) and the indexes cut.
 * @param {unknown} value
 * @returns {{parts: [number, unknown[]][], value: object, split: number[]} | null}
 */
export function splitAnswer(value) {
  const parts = [];
  const split = [];
  for (let at = 0; at < LIST_PATHS.length; at++) {
    const [outer, inner] = LIST_PATHS[at];
    const holder = value !== null && typeof value === "object" ? value[outer] : undefined;
    const list = holder !== null && typeof holder === "object" ? holder[inner] : undefined;
    if (!Array.isArray(list) || list.length <= PART_ITEMS) continue;
    for (let i = 0; i < list.length; i += PART_ITEMS) parts.push([at, list.slice(i, i + PART_ITEMS)]);
    value = { ...value, [outer]: { ...holder, [inner]: [] } };
    split.push(at);
  }
  return split.length === 0 ? null : { parts, value, split };
}

/**
 * Put the parts back into value (splitAnswer's, as the page received
 * them): for each index of split, the lists of parts[at] joined into
 * value's list at LIST_PATHS[at]. A call's {envelope} becomes the
 * envelope. Changes value; returns it.
 * @param {object} value
 * @param {number[]} split
 * @param {unknown[][][]} parts by path index, the parts in order
 * @returns {unknown}
 */
export function joinParts(value, split, parts) {
  for (const at of split) {
    const [outer, inner] = LIST_PATHS[at];
    const list = value[outer][inner];
    for (const part of parts[at] ?? []) for (const item of part) list.push(item);
  }
  return value;
}
