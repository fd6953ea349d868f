// The explorer's session list by last activity (issue 26): a session's
// "updatedAt" (the time of its newest message for an import, of its last
// write for a session made here) falls in nested ranges — today, the past
// 7 days, the past 30 days, the past year — or is older than a year. The
// date select offers the ranges that tell sessions apart, each with its
// count. Pure: `now` is passed in.

import { relativeTime } from "./node-text.js";

const DAY = 24 * 60 * 60 * 1000;

/**
 * The ranges, narrowest first: value, label, and the earliest time (ms
 * since the epoch) a session's updatedAt may have to be in it, given now
 * (ms). "older" is the complement of the widest.
 */
const RANGES = [
  { value: "today", label: "Today", since: (now) => new Date(now).setHours(0, 0, 0, 0) },
  { value: "7d", label: "Past 7 days", since: (now) => now - 7 * DAY },
  { value: "30d", label: "Past 30 days", since: (now) => now - 30 * DAY },
  { value: "365d", label: "Past year", since: (now) => now - 365 * DAY },
];

/**
 * How a session's row says when it was last active: relativeTime's words,
 * or "undated" when its updatedAt is unknown ("" for a conversation whose
 * export holds no date, which the list sorts below the dated ones).
 * @param {string | undefined} updatedAt
 * @param {number} now ms since the epoch
 */
export function updatedText(updatedAt, now) {
  return relativeTime(updatedAt ?? "", now) || "undated";
}

/**
 * The list's order: the newest activity first, undated sessions (updatedAt
 * "") after every dated one, ties by id. For Array.prototype.sort.
 * @param {{sessionId: string, updatedAt?: string}} a
 * @param {{sessionId: string, updatedAt?: string}} b
 */
export function byActivity(a, b) {
  const ta = a.updatedAt ?? "";
  const tb = b.updatedAt ?? "";
  if (ta !== tb) return ta < tb ? 1 : -1; // "" is less than any date: last
  return a.sessionId < b.sessionId ? -1 : a.sessionId > b.sessionId ? 1 : 0;
}

/** The value of the range "older than a year". */
export const OLDER = "older";

/** The value of the sessions with no readable time (an export that holds no date: "undated" in the list). */
export const UNDATED = "undated";

/** A session's last activity in ms since the epoch (NaN when unknown). */
const timeOf = (s) => Date.parse(s.updatedAt ?? "");

/**
 * Whether t is a time as core writes it, "2026-12-03T04:14:41.502Z": such
 * strings compare as their times do (dateOptions compares them without
 * Date.parse, 60,000 of which were most of a list's refresh).
 * @param {unknown} t
 */
const canonical = (t) => typeof t === "string" && t.length === 24 && t[10] === "T" && t[23] === "Z" && t[19] === ".";

/**
 * Sessions newest first — updatedAt descending, then sessionId descending,
 * as core's `sessions` with order "updated" lists them (js/early-list.js
 * newestFirst) — in a new array: grouped by updatedAt, so only the distinct times are
 * sorted (an import's 60,000 sessions share a few thousand; compared one
 * by one they took 100 ms), then each group by id. Pure.
 * @template {{sessionId: string, updatedAt?: string}} T
 * @param {T[]} sessions
 * @returns {T[]}
 */
export function newestFirst(sessions) {
  const groups = new Map();
  for (const s of sessions) {
    const k = String(s.updatedAt ?? "");
    const g = groups.get(k);
    if (g === undefined) groups.set(k, [s]);
    else g.push(s);
  }
  const out = [];
  for (const k of [...groups.keys()].sort().reverse()) {
    const g = groups.get(k);
    if (g.length > 1) g.sort((a, b) => (a.sessionId < b.sessionId ? 1 : a.sessionId > b.sessionId ? -1 : 0));
    for (const s of g) out.push(s);
  }
  return out;
}

/**
 * Whether a session is in a date range (null: any time). A session with
 * no readable updatedAt is in "any time" and UNDATED only.
 * @param {{updatedAt?: string}} session
 * @param {string|null} range a value of dateOptions
 * @param {number} now ms since the epoch
 */
export function inRange(session, range, now) {
  if (range === null) return true;
  const t = timeOf(session);
  if (Number.isNaN(t)) return range === UNDATED;
  const widest = RANGES.at(-1).since(now);
  if (range === OLDER) return t < widest;
  const r = RANGES.find((x) => x.value === range);
  return r !== undefined && t >= r.since(now);
}

const compact = new Intl.NumberFormat("en", { notation: "compact", maximumFractionDigits: 1 });

/**
 * A count as an option shows it: with thousands separators below 10,000
 * ("3,402"), compact above ("34.6K", "1.2M"), so an option stays short.
 * Pure.
 * @param {number} n a count, 0 or more
 * @returns {string}
 */
export function formatCount(n) {
  return n < 10000 ? n.toLocaleString("en") : compact.format(n);
}

/**
 * The date select's options for sessions: "Any time (n)" first (value
 * "*"), then each range that holds more sessions than the narrower one
 * before it and fewer than all (so no two options choose the same
 * sessions), then "Older than a year" and "Undated" (no readable time),
 * each when some are and not all.
 * @param {{updatedAt?: string}[]} sessions
 * @param {number} now ms since the epoch
 * @returns {{value: string, text: string}[]}
 */
export function dateOptions(sessions, now) {
  const total = sessions.length;
  const out = [{ value: "*", text: `Any time (${formatCount(total)})` }];
  // One pass, each time read once (inRange per range read 60,000 sessions' times five times over).
  const since = RANGES.map((r) => r.since(now));
  const sinceText = since.map((t) => new Date(t).toISOString());
  const counts = RANGES.map(() => 0);
  let older = 0;
  let undated = 0;
  for (const s of sessions) {
    const u = s.updatedAt;
    if (canonical(u)) {
      for (let i = 0; i < since.length; i++) if (u >= sinceText[i]) counts[i]++;
      if (u < sinceText.at(-1)) older++;
      continue;
    }
    const t = timeOf(s);
    if (Number.isNaN(t)) {
      undated++;
      continue;
    }
    for (let i = 0; i < since.length; i++) if (t >= since[i]) counts[i]++;
    if (t < since.at(-1)) older++;
  }
  let narrower = 0;
  RANGES.forEach((r, i) => {
    const count = counts[i];
    if (count > narrower && count < total) out.push({ value: r.value, text: `${r.label} (${formatCount(count)})` });
    narrower = count;
  });
  if (older > 0 && older < total) out.push({ value: OLDER, text: `Older than a year (${formatCount(older)})` });
  if (undated > 0 && undated < total) out.push({ value: UNDATED, text: `Undated (${formatCount(undated)})` });
  return out;
}
