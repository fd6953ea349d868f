// A randomized differential page test of paging (js/store/pager.js,
// js/local-paging.js): a call on a session paged out of wasm answers
// exactly as if it had stayed. One seeded random sequence of operations
// runs on two trees in headless Chromium:
//
//   A  a persisted tree in the store's Worker whose pageBudget holds at most
//      a session or two, so nearly every call loads its session from
//      IndexedDB and the others are evicted again (its pager's _debug()
//      stats must show loads and evictions, or the test fails); closed and
//      init()ed again from IndexedDB twice mid-sequence (once in the same
//      page, once in a new page with a new worker);
//   B  a plain in-memory tree (persist: false: no Writer, no Pager), the
//      reference.
//
// Every answer of A must equal B's, envelope for envelope, after these
// normalizations and nothing else:
//   - ids: node ids and generated session ids are random per tree; each
//     tree's ids are learnt from its own answers (an unknown id-shaped
//     string at the same place in both answers of a change) and written as
//     tokens ⟨nK⟩ / ⟨sK⟩; an unknown id left over fails the comparison;
//   - times: each timestamp (createdAt, updatedAt, deletedAt, a node's or
//     annotation's, inside exported text too) becomes the index of the call
//     whose wall-clock window (Date.now() around it, calls one millisecond
//     apart) contains it, so a time must come from the same call in both
//     trees; a time in no window is left as is and fails;
//   - a map's layout number ("<layout>.<n>" of its revision) is a counter of
//     the layouts a wasm made (core/internal/treeview Map.Revision), not
//     data: only that number is dropped, the node count after it is kept;
//   - a search's hits of equal score are compared as a set (equalScores):
//     their order is rarity's, which counts dead documents until a rebuild.
// Operations: create, append (messages, content parts, entries, onto a named
// branch), append.many, branch, branch.summary, jump, switch, fork, clone
// (explicit and generated ids), label, hide, prefer, rename, delete with
// trash.restore, permanent delete, snapshot.load over a new or existing
// session; reads: context (with ids), session, sessions (both orders),
// list, branches, tree, tree.rows, node, leaf, search (every session and
// one), snapshot.save, export, family, diff, map, remote.list, commands,
// trash.list; bad input (unknown node, missing session, ill-typed fields,
// existing names) must answer the same error. At the end snapshot.save of
// every session, `sessions` and `trash.list` are compared, and a search for
// every word of the texts. Calls are made one at a time (calls racing one
// another and other tabs are e2e/paging.test.mjs's).
//
// Replay: SESSIONTREE_PAGING_SEED=<seed> SESSIONTREE_PAGING_OPS=<n>
//   node --test e2e/paging-differential.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup, openShimPage } from './helpers.mjs';
import { prng } from '../bench/corpus.mjs';

const SEED = Number(process.env.SESSIONTREE_PAGING_SEED ?? 20261207) >>> 0;
const OPS = Number(process.env.SESSIONTREE_PAGING_OPS ?? 480);
const DB = 'paging-differential';
/** A's pageBudget in each phase (bytes of stored sessions kept loaded): 1 evicts all but the pinned. */
const BUDGETS = [1, 6000, 1];
const FIRST_SESSIONS = 8;
const MAX_SESSIONS = 15;


const WORDS = ['compaction', 'branch', 'Lumière', 'garden', 'river', 'planet', 'yellow', 'journey', 'tomato', 'window',
  'música', 'océan', 'silver', 'mountain', '東京', 'coffee', 'thunder', 'pencil', 'harbor', 'quantum', 'violet', 'summer',
  'lantern', 'meadow', 'puzzle', 'rocket', 'shadow', 'breeze', 'crystal', 'falcon', 'ginger', 'horizon'];

class Rand {
  constructor(seed) {
    this.next = prng(seed);
  }
  int(n) {
    return Math.floor(this.next() * n);
  }
  chance(p) {
    return this.next() < p;
  }
  pick(list) {
    return list[this.int(list.length)];
  }
  text(min = 2, max = 8) {
    return Array.from({ length: min + this.int(max - min + 1) }, () => this.pick(WORDS)).join(' ');
  }
  /** A query: a word, sometimes with a typo (one inner letter dropped), sometimes two words. */
  query() {
    let q = this.pick(WORDS);
    if (q.length >= 6 && this.chance(0.3)) {
      const k = 1 + this.int(q.length - 2);
      q = q.slice(0, k) + q.slice(k + 1);
    }
    return this.chance(0.2) ? `${q} ${this.pick(WORDS)}` : q;
  }
}

const TIME = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g;
const ID_SHAPE = /^[0-9a-f]{8,32}$/;
const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** One tree under test: the page holding it (window[global]), its ids as tokens, its calls' time windows. */
class Side {
  constructor(name, page, global) {
    Object.assign(this, { name, page, global, toToken: new Map(), toRaw: new Map(), windows: [], re: null });
  }

  /** call(request) in the page, its window [t0, t1] kept for op. */
  async call(request, op) {
    const r = await this.page.evaluate(async ({ g, request }) => {
      const t0 = Date.now();
      const env = await window[g].call(request);
      return { env, t0, t1: Date.now() };
    }, { g: this.global, request });
    this.windows.push([r.t0, r.t1, op]);
    return r.env;
  }

  /** call(request)'s value, outside the sequence (no window: for reads that make no time). */
  async peek(request) {
    const env = await this.page.evaluate(({ g, request }) => window[g].call(request), { g: this.global, request });
    assert.equal(env.ok, true, `${this.name}: ${JSON.stringify(request)}: ${JSON.stringify(env.error)}`);
    return env.value;
  }

  learn(raw, token) {
    const had = this.toToken.get(raw);
    assert.ok(had === undefined || had === token, `${this.name}: id ${raw} is ${had} and ${token}`);
    this.toToken.set(raw, token);
    this.toRaw.set(token, raw);
    this.re = null;
  }

  /** value with its tokens written as this tree's ids (a request). */
  raw(value) {
    return mapStrings(value, (s) => this.toRaw.get(s) ?? s);
  }

  /** value with this tree's ids as tokens and its times as the calls that made them (an answer). */
  normal(value) {
    if (!this.re && this.toToken.size > 0) {
      const ids = [...this.toToken.keys()].sort((x, y) => y.length - x.length).map(escapeRe);
      this.re = new RegExp(`(?<![0-9A-Za-z])(?:${ids.join('|')})(?![0-9A-Za-z])`, 'g');
    }
    return mapStrings(value, (s) => {
      if (this.toToken.has(s)) return this.toToken.get(s);
      s = s.replace(TIME, (t) => this.timeToken(t));
      return this.re ? s.replace(this.re, (id) => this.toToken.get(id)) : s;
    });
  }

  /** ⟨tK⟩: K the call whose window holds time t; t itself when none does. */
  timeToken(t) {
    const ms = Date.parse(t);
    for (let i = this.windows.length - 1; i >= 0; i--) {
      const [t0, t1, op] = this.windows[i];
      if (ms >= t0 && ms <= t1) return `⟨t${op}⟩`;
      if (t1 < ms) break;
    }
    return t;
  }
}

/** value with every string (object keys too) replaced by f(string). */
function mapStrings(value, f) {
  if (typeof value === 'string') return f(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, f));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [f(k), mapStrings(v, f)]));
  return value;
}

/** The first place a and b differ, as "path: a ≠ b" (null when equal). */
function firstDiff(a, b, path = '$') {
  if (typeof a !== typeof b || Array.isArray(a) !== Array.isArray(b) || (a === null) !== (b === null)) return `${path}: ${JSON.stringify(a)?.slice(0, 300)} ≠ ${JSON.stringify(b)?.slice(0, 300)}`;
  if (a && typeof a === 'object') {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
    if (Array.isArray(a) && a.length !== b.length) return `${path}.length: ${a.length} ≠ ${b.length}`;
    if (!Array.isArray(a) && JSON.stringify(Object.keys(a)) !== JSON.stringify(Object.keys(b))) return `${path} keys: ${Object.keys(a)} ≠ ${Object.keys(b)}`;
    for (const k of keys) {
      const d = firstDiff(a[k], b[k], `${path}.${k}`);
      if (d) return d;
    }
    return null;
  }
  return a === b ? null : `${path}: ${JSON.stringify(a)?.slice(0, 300)} ≠ ${JSON.stringify(b)?.slice(0, 300)}`;
}

/** [a's, b's, the key holding them] of unknown id-shaped strings at the same place in a and b (ids a change minted). */
function newIds(a, b, sideA, sideB, out = [], key = '') {
  if (typeof a === 'string' && typeof b === 'string') {
    if (ID_SHAPE.test(a) && ID_SHAPE.test(b) && !sideA.toToken.has(a) && !sideB.toToken.has(b)) out.push([a, b, key]);
  } else if (a && b && typeof a === 'object' && typeof b === 'object') {
    for (const k of Object.keys(a)) if (k in b) newIds(a[k], b[k], sideA, sideB, out, Array.isArray(a) ? key : k);
  }
  return out;
}

/** The two trees, the sequence's state (sessions, their node tokens and branches) and its log. */
class Twin {
  constructor(a, b, rand) {
    Object.assign(this, { a, b, rand, op: 0, last: 0, tokens: 0, log: [], counts: {}, sessions: new Map(), trash: new Map(), names: 0 });
  }

  /**
   * Run request (tokens for ids) on A then B, each in its own
   * millisecond; learn the ids a change minted; assert the normalized
   * envelopes are equal. Resolves to A's normalized envelope. snapshots:
   * each tree's own request.snapshot (a snapshot.load of its own save).
   */
  async check(request, snapshots = null) {
    while (Date.now() <= this.last) await new Promise((r) => setTimeout(r, 1));
    const op = ++this.op;
    this.log.push(request);
    this.counts[request.operation] = (this.counts[request.operation] ?? 0) + 1;
    const own = (side, i) => ({ ...side.raw(request), ...(snapshots ? { snapshot: snapshots[i] } : {}) });
    const ea = await this.a.call(own(this.a, 0), op);
    const eb = await this.b.call(own(this.b, 1), op);
    this.last = Date.now();
    if (ea.ok && eb.ok && !OPERATIONS_READ.has(request.operation)) {
      for (const [ra, rb, key] of newIds(ea.value, eb.value, this.a, this.b)) {
        if (this.a.toToken.has(ra) && this.b.toToken.get(rb) === this.a.toToken.get(ra)) continue; // named twice in one answer
        const token = `⟨${key === 'sessionId' ? 's' : 'n'}${++this.tokens}⟩`;
        this.a.learn(ra, token);
        this.b.learn(rb, token);
      }
    }
    const [na, nb] = [legit(request, this.a.normal(ea)), legit(request, this.b.normal(eb))];
    const diff = firstDiff(na, nb);
    if (diff) {
      const where = `seed ${SEED}, call ${op} (replay: SESSIONTREE_PAGING_SEED=${SEED} SESSIONTREE_PAGING_OPS=${OPS}): ${JSON.stringify(request).slice(0, 400)}`;
      const before = this.log.slice(-6, -1).map((r) => JSON.stringify(r).slice(0, 200)).join('\n    ');
      assert.fail(`paged tree A and reference B differ at ${where}\n  first difference: ${diff}\n  A: ${JSON.stringify(na).slice(0, 1500)}\n  B: ${JSON.stringify(nb).slice(0, 1500)}\n  the calls before:\n    ${before}`);
    }
    return na;
  }

  /** A random live session's id (null when none). */
  session() {
    const ids = [...this.sessions.keys()];
    return ids.length ? this.rand.pick(ids) : null;
  }

  /** A random node token of session sid (null when it has none). */
  node(sid) {
    const nodes = this.sessions.get(sid)?.nodes ?? [];
    return nodes.length ? this.rand.pick(nodes) : null;
  }

  /** A new session's model, copied from another's (a clone, a load) or empty. */
  add(sid, from = null) {
    this.sessions.set(sid, { nodes: [...(from?.nodes ?? [])], branches: new Set(from?.branches ?? ['main']) });
  }

  /** A fork's (or generated) session's model, from its own list. */
  async learnList(sid) {
    const env = await this.check({ operation: 'list', sessionId: sid });
    if (!env.ok) return;
    this.sessions.set(sid, { nodes: env.value.map((n) => n.id), branches: new Set(['main', ...env.value.map((n) => n.branch)]) });
  }
}

/** Operations that change nothing: their answers mint no ids. */
const OPERATIONS_READ = new Set(['context', 'session', 'sessions', 'list', 'branches', 'tree', 'tree.rows', 'node', 'leaf', 'search', 'snapshot.save', 'export', 'family', 'diff', 'map', 'remote.list', 'trash.list']);

/** Drop what legitimately differs besides ids and times: a map's layout number (see the header). */
function legit(request, env) {
  if (request.operation === 'map' && env.ok && typeof env.value.revision === 'string') {
    env.value.revision = env.value.revision.replace(/^\d+\./, '⟨layout⟩.');
  }
  if (request.operation === 'search' && env.ok && Array.isArray(env.value.hits)) env.value.hits = equalScores(env.value.hits, env.value.total);
  return env;
}

/**
 * A search's hits with each run of equal scores in one canonical order:
 * among equal scores, core ranks the rarer term first, and rarity counts
 * every document the index ever held, dead ones too, until a rebuild
 * (core/internal/search/rank.go weight; docs/DECISIONS.md, Search). A paged
 * tree builds its index at other moments than B (after loads, afresh after
 * a restart), so only that order may differ. The scores' order is kept as
 * answered, and so is a list not in score order (it then fails). When the
 * limit cut a run, only its scores are compared (which of its hits made the
 * cut is the same rarity's choice).
 */
function equalScores(hits, total) {
  if (!hits.every((h, i) => i === 0 || hits[i - 1].score >= h.score)) return hits;
  const runs = [];
  for (const h of hits) {
    if (runs.length === 0 || runs.at(-1)[0].score !== h.score) runs.push([]);
    runs.at(-1).push(h);
  }
  const key = (h) => JSON.stringify(h);
  return runs.flatMap((run, i) => (i === runs.length - 1 && hits.length < total ? run.map((h) => ({ score: h.score })) : run.sort((x, y) => (key(x) < key(y) ? -1 : key(x) > key(y) ? 1 : 0))));
}

/** A message: text, sometimes content parts or extra fields (kept losslessly). */
function message(rand) {
  const role = rand.chance(0.5) ? 'user' : 'assistant';
  if (rand.chance(0.1)) return { role, content: [{ type: 'text', text: rand.text() }, { type: 'text', text: rand.text(1, 3) }] };
  if (rand.chance(0.1)) return { role, content: rand.text(), name: rand.pick(WORDS), vendor: { score: rand.int(100), tags: [rand.pick(WORDS)] } };
  return { role, content: rand.text() };
}

/** Changes: each picks its session and nodes from the twin's model. */
const CHANGES = {
  async append(t) {
    const sid = t.session();
    const s = t.sessions.get(sid);
    const req = { operation: 'append', sessionId: sid, message: message(t.rand) };
    if (t.rand.chance(0.15)) req.branch = t.rand.pick([...s.branches]);
    if (t.rand.chance(0.05)) [req.entry, req.message] = [{ kind: 'model_change', provider: 'openai', model: t.rand.pick(['gpt-5', 'o3']) }, undefined];
    const env = await t.check(req);
    if (env.ok) s.nodes.push(env.value.id), s.branches.add(env.value.branch);
  },
  async appendMany(t) {
    const sid = t.session();
    const env = await t.check({ operation: 'append.many', sessionId: sid, messages: [message(t.rand), message(t.rand)] });
    if (env.ok) t.sessions.get(sid).nodes.push(...env.value.nodeIds);
  },
  async branch(t) {
    const sid = t.session();
    const s = t.sessions.get(sid);
    const name = t.rand.chance(0.15) ? t.rand.pick([...s.branches]) : `b${++t.names}`;
    const node = t.node(sid);
    if (!node) return;
    if (t.rand.chance(0.2)) {
      const env = await t.check({ operation: 'branch.summary', sessionId: sid, nodeId: node, branch: name, summary: t.rand.text() });
      if (env.ok) s.nodes.push(env.value.id), s.branches.add(name);
      return;
    }
    const env = await t.check({ operation: 'branch', sessionId: sid, nodeId: node, branch: name });
    if (env.ok) s.branches.add(name);
  },
  async jump(t) {
    const sid = t.session();
    const node = t.node(sid);
    if (node) await t.check({ operation: 'jump', sessionId: sid, nodeId: node });
  },
  async switch(t) {
    const sid = t.session();
    const node = t.node(sid);
    if (t.rand.chance(0.5) && node) await t.check({ operation: 'switch', sessionId: sid, nodeId: node });
    else await t.check({ operation: 'switch', sessionId: sid, branch: t.rand.pick([...t.sessions.get(sid).branches]) });
  },
  async fork(t) {
    const sid = t.session();
    const node = t.node(sid);
    if (!node || t.sessions.size >= MAX_SESSIONS) return CHANGES.erase(t);
    const id = `f${++t.names}`;
    const req = { operation: 'fork', sessionId: sid, nodeId: node, newSessionId: id };
    if (t.rand.chance(0.3)) req.branch = `fb${t.names}`;
    const env = await t.check(req);
    if (env.ok) await t.learnList(id);
  },
  async clone(t) {
    const sid = t.session();
    if (t.sessions.size >= MAX_SESSIONS) return CHANGES.erase(t);
    const id = `c${++t.names}`;
    const env = await t.check({ operation: 'clone', sessionId: sid, newSessionId: id });
    if (env.ok) t.add(id, t.sessions.get(sid));
  },
  /**
   * A fork or clone with a generated id, used a little, then erased: search
   * breaks ties between equal hits by sessionId, which differs between the
   * trees for generated ids, so no search runs while such a session lives.
   */
  async generated(t) {
    const sid = t.session();
    const node = t.node(sid);
    const req = node && t.rand.chance(0.5) ? { operation: 'fork', sessionId: sid, nodeId: node } : { operation: 'clone', sessionId: sid };
    const env = await t.check(req);
    if (!env.ok) return;
    const id = env.value.sessionId;
    assert.match(id, /^⟨s\d+⟩$/, 'the generated session id was learnt');
    await t.learnList(id);
    await t.check({ operation: 'append', sessionId: id, message: message(t.rand) });
    await t.check({ operation: 'context', sessionId: id, ids: true });
    await t.check({ operation: 'snapshot.save', sessionId: id });
    await t.check({ operation: 'delete', sessionId: id, permanent: true });
    t.sessions.delete(id);
  },
  async create(t) {
    if (t.sessions.size >= MAX_SESSIONS) return CHANGES.erase(t);
    const id = `s${++t.names}`;
    const env = await t.check({ operation: 'create', sessionId: id, ...(t.rand.chance(0.5) ? { title: t.rand.text(1, 3) } : {}) });
    if (env.ok) t.add(id);
  },
  async mark(t) {
    const sid = t.session();
    const node = t.node(sid);
    if (!node) return;
    const kind = t.rand.int(4);
    if (kind === 0) await t.check({ operation: 'label', sessionId: sid, nodeId: node, label: t.rand.chance(0.2) ? '' : t.rand.pick(WORDS) });
    else if (kind === 1) await t.check({ operation: 'hide', sessionId: sid, nodeId: node, hidden: t.rand.chance(0.7) });
    else if (kind === 2) await t.check({ operation: 'prefer', sessionId: sid, nodeId: t.rand.chance(0.2) ? null : node });
    else await t.check({ operation: 'rename', sessionId: sid, title: t.rand.chance(0.1) ? '' : t.rand.text(1, 4) });
  },
  /** To the trash and back, or restore one trashed earlier. */
  async trash(t) {
    if (t.trash.size > 0 && t.rand.chance(0.6)) {
      const sid = t.rand.pick([...t.trash.keys()]);
      const env = await t.check({ operation: 'trash.restore', sessionId: sid });
      if (env.ok) t.sessions.set(sid, t.trash.get(sid)), t.trash.delete(sid);
      return;
    }
    if (t.sessions.size <= FIRST_SESSIONS / 2) return;
    const sid = t.session();
    const env = await t.check({ operation: 'delete', sessionId: sid });
    if (env.ok) t.trash.set(sid, t.sessions.get(sid)), t.sessions.delete(sid);
  },
  async erase(t) {
    if (t.sessions.size <= FIRST_SESSIONS) return;
    const sid = t.session();
    const env = await t.check({ operation: 'delete', sessionId: sid, permanent: true });
    if (env.ok) t.sessions.delete(sid);
  },
  /** snapshot.load of a session's own snapshot (each tree its own) as a new session or over another. */
  async load(t) {
    const from = t.session();
    const to = t.sessions.size >= MAX_SESSIONS || t.rand.chance(0.3) ? t.session() : `l${++t.names}`;
    const saved = await Promise.all([t.a, t.b].map((side) => side.peek(side.raw({ operation: 'snapshot.save', sessionId: from }))));
    const env = await t.check({ operation: 'snapshot.load', sessionId: to, snapshot: `⟨snapshot of ${from}⟩` }, saved.map((snap, i) => ({ ...snap, sessionId: [t.a, t.b][i].raw(to) })));
    if (env.ok) t.add(to, t.sessions.get(from));
  },
};

/** Reads: each answer compared. */
const READS = {
  context: (t) => t.check({ operation: 'context', sessionId: t.session(), ...(t.rand.chance(0.5) ? { ids: true } : {}) }),
  session: (t) => t.check({ operation: 'session', sessionId: t.session() }),
  sessions: (t) => t.check(t.rand.chance(0.5) ? { operation: 'sessions' } : { operation: 'sessions', order: 'updated', limit: 1 + t.rand.int(10) }),
  list: (t) => t.check({ operation: 'list', sessionId: t.session() }),
  branches: (t) => t.check({ operation: 'branches', sessionId: t.session() }),
  tree: (t) => t.check({ operation: 'tree', sessionId: t.session(), ...(t.rand.chance(0.3) ? { showHidden: true } : {}) }),
  rows(t) {
    const sid = t.session();
    const node = t.node(sid);
    return t.check({ operation: 'tree.rows', sessionId: sid, ...(node && t.rand.chance(0.5) ? { around: node, limit: 5 } : { offset: t.rand.int(3), limit: 1 + t.rand.int(20) }) });
  },
  node(t) {
    const sid = t.session();
    return t.check({ operation: t.rand.chance(0.7) ? 'node' : 'leaf', sessionId: sid, nodeId: t.node(sid) ?? 'deadbeef' });
  },
  search: (t) => t.check({ operation: 'search', query: t.rand.query(), ...(t.rand.chance(0.3) ? { limit: 1 + t.rand.int(30) } : {}), ...(t.rand.chance(0.1) ? { roles: ['user'] } : {}) }),
  searchOne: (t) => t.check({ operation: 'search', query: t.rand.query(), sessionId: t.session() }),
  save: (t) => t.check({ operation: 'snapshot.save', sessionId: t.session() }),
  export: (t) => t.check({ operation: 'export', sessionId: t.session(), format: t.rand.pick(['markdown', 'pi', 'openai', 'snapshot']) }),
  family: (t) => t.check({ operation: 'family', sessionId: t.session() }),
  diff(t) {
    const sid = t.session();
    const [x, y] = [t.node(sid), t.node(sid)];
    return x && t.check({ operation: 'diff', sessionId: sid, from: x, to: t.rand.chance(0.3) ? 'main' : y });
  },
  map: (t) => t.check({ operation: 'map', sessionId: t.session() }),
  remote: (t) => t.check({ operation: t.rand.pick(['remote.list', 'remote.session']), sessionId: t.session() }),
  command: (t) => t.check({ operation: 'command', sessionId: t.session(), line: t.rand.pick(['/tree tree', '/tree list', '/tree branches', '/tree context', '/session']) }),
  trashList: (t) => t.check({ operation: 'trash.list' }),
};

/** Bad input: each must answer the same error in both trees (the whole envelope is compared). */
function badRequest(t) {
  const sid = t.session();
  const s = t.sessions.get(sid);
  const node = t.node(sid) ?? 'deadbeef';
  const trashed = t.trash.size > 0 ? t.rand.pick([...t.trash.keys()]) : 'nope';
  const named = [...s.branches].find((b) => b !== 'main');
  return t.rand.pick([
    { operation: 'jump', sessionId: sid, nodeId: 'deadbeef' },
    { operation: 'fork', sessionId: sid, nodeId: '0badc0de', newSessionId: 'never' },
    { operation: 'label', sessionId: sid, nodeId: 'feedface', label: 'x' },
    { operation: 'context', sessionId: 'nope' },
    { operation: 'append', sessionId: 'nope', message: { role: 'user', content: 'x' } },
    { operation: 'context', sessionId: trashed },
    { operation: 'append', sessionId: trashed, message: { role: 'user', content: 'x' } },
    { operation: 'jump', sessionId: sid, nodeId: 5 },
    { operation: 'append', sessionId: sid, message: 'not a message' },
    { operation: 'append', sessionId: sid, message: { content: 'no role' } },
    { operation: 'rename', sessionId: sid, title: 7 },
    { operation: 'hide', sessionId: sid, nodeId: node, hidden: 'yes' },
    { operation: 'session', sessionId: 12 },
    { operation: 'search', query: 'x', limit: 'many' },
    { operation: 'tree.rows', sessionId: sid, limit: -1 },
    { operation: 'context', sessionId: sid, unknown: true },
    { operation: 'create', sessionId: sid },
    { operation: 'clone', sessionId: sid, newSessionId: sid },
    { operation: 'append', sessionId: sid, branch: 'no-such-branch', message: { role: 'user', content: 'x' } },
    { operation: 'branch', sessionId: sid, nodeId: node, branch: named ?? 'main' },
    { operation: 'snapshot.load', sessionId: sid, snapshot: { version: 1, sessionId: 'other', cursor: null, activeBranch: 'main', nodes: [] } },
    { operation: 'diff', sessionId: sid, from: node, to: 'no-such-branch' },
  ]);
}

/** The mix: [weight, step]. */
const STEPS = [
  [22, CHANGES.append], [3, CHANGES.appendMany], [6, CHANGES.branch], [7, CHANGES.jump], [3, CHANGES.switch],
  [3, CHANGES.fork], [2, CHANGES.clone], [1, CHANGES.generated], [3, CHANGES.create], [10, CHANGES.mark],
  [2, CHANGES.trash], [1, CHANGES.erase], [2, CHANGES.load],
  [8, READS.context], [3, READS.session], [3, READS.sessions], [3, READS.list], [2, READS.branches], [3, READS.tree],
  [3, READS.rows], [3, READS.node], [6, READS.search], [4, READS.searchOne], [4, READS.save], [2, READS.export],
  [1, READS.family], [2, READS.diff], [2, READS.map], [1, READS.remote], [2, READS.command], [1, READS.trashList],
  [8, async (t) => {
    const request = badRequest(t);
    t.counts.badInput = (t.counts.badInput ?? 0) + 1;
    const env = await t.check(request);
    // A branch named after an existing one is a plain jump when the node is that branch's tip.
    if (request.operation !== 'branch') assert.equal(env.ok, false, `bad input answered ok: ${JSON.stringify(env).slice(0, 300)}`);
  }],
];
const TOTAL_WEIGHT = STEPS.reduce((n, [w]) => n + w, 0);

function pickStep(rand) {
  let k = rand.int(TOTAL_WEIGHT);
  for (const [w, step] of STEPS) if ((k -= w) < 0) return step;
  throw new Error('unreachable');
}

/** init() A, persisted in database DB with pageBudget budget, as window.treeA of page. */
async function openA(page, budget) {
  await page.evaluate(async ({ db, budget }) => {
    window.treeA = await window.sessiontree.init({ dbName: db, pageBudget: budget });
  }, { db: DB, budget });
}

/**
 * A's pager counters (js/local.js _debug): loads, evictions, sessions
 * paged out. _debug() also builds the search index (its indexComplete is
 * handle.warm(0)), so B's is asked at the same point: the two indexes are
 * then made at the same call, not one by the test alone.
 */
async function pagerStats(t) {
  const d = await t.a.page.evaluate(() => window.treeA._debug());
  await t.b.page.evaluate(() => window.treeB._debug());
  assert.ok(d.pager, 'tree A has a Pager (a persisted tree)');
  return d.pager;
}

/**
 * End phase `phase`: A must have loaded and evicted sessions in it; then
 * close A and init() it again from IndexedDB, in the same page or in a new
 * one (a new store worker), with the next phase's budget; its first
 * answers, from the stored summaries alone, are compared at once.
 */
async function reopen(t, env, phase, newPage) {
  const stats = await pagerStats(t);
  assert.ok(stats.loads > 0 && stats.evictions > 0, `phase ${phase}: A never paged a session in and out: ${JSON.stringify(stats)}`);
  await t.a.page.evaluate(() => window.treeA.close());
  const page = newPage ? await openShimPage(env) : t.a.page;
  await openA(page, BUDGETS[phase + 1]);
  t.a.page = page;
  t.log.push({ reopened: newPage ? 'A closed, init() in a new page' : 'A closed, init() again in its page', pageBudget: BUDGETS[phase + 1] });
  assert.equal((await pagerStats(t)).paged, t.sessions.size, 'after init() every live session is paged out');
  await t.check({ operation: 'sessions' });
  await t.check({ operation: 'trash.list' });
  return stats;
}

/** The end: the lists, snapshot.save of every session (those in the trash restored first) and searches, compared. */
async function compareAll(t) {
  const list = await t.check({ operation: 'sessions' });
  assert.deepEqual(list.value.map((s) => s.sessionId).sort(), [...t.sessions.keys()].sort(), 'the sequence kept track of every session');
  await t.check({ operation: 'sessions', order: 'updated' });
  const trash = await t.check({ operation: 'trash.list' });
  assert.deepEqual(trash.value.map((s) => s.sessionId).sort(), [...t.trash.keys()].sort());
  for (const sid of t.trash.keys()) await t.check({ operation: 'trash.restore', sessionId: sid });
  for (const sid of [...t.sessions.keys(), ...t.trash.keys()]) {
    const saved = await t.check({ operation: 'snapshot.save', sessionId: sid });
    assert.equal(saved.ok, true);
  }
  // Every word of the texts, with a typo from 6 letters on (ties between typo matches of several words go to the rarer word).
  for (const word of WORDS) await t.check({ operation: 'search', query: word.length >= 6 ? word.slice(0, 2) + word.slice(3) : word, limit: 50 });
}

test(`paging differential, seed ${SEED}, ${OPS} calls: a tree paging its sessions in and out answers as an in-memory one`, { timeout: 300_000 }, async () => {
  const env = await setup();
  try {
    const page = await openShimPage(env);
    await openA(page, BUDGETS[0]);
    await page.evaluate(async () => {
      window.treeB = await window.sessiontree.init({ persist: false });
    });
    const t = new Twin(new Side('A', page, 'treeA'), new Side('B', page, 'treeB'), new Rand(SEED));
    const started = Date.now();
    for (let i = 0; i < FIRST_SESSIONS; i++) await CHANGES.create(t);
    const phases = [];
    while (t.op < OPS) {
      if (phases.length < BUDGETS.length - 1 && t.op >= (OPS * (phases.length + 1)) / BUDGETS.length) {
        phases.push(await reopen(t, env, phases.length, phases.length === 1));
      }
      await pickStep(t.rand)(t);
    }
    await compareAll(t);
    const last = await pagerStats(t);
    assert.ok(last.loads > 0 && last.evictions > 0, `last phase: A never paged a session in and out: ${JSON.stringify(last)}`);
    phases.push(last);
    const counts = phases.map((p) => `${p.loads} loads/${p.evictions} evictions`).join(', ');
    console.log(`paging differential: seed ${SEED}, ${t.op} calls in ${((Date.now() - started) / 1000).toFixed(1)} s, ${t.sessions.size} sessions live, ${t.trash.size} in the trash; A per phase (budgets ${BUDGETS}): ${counts}`);
    console.log(`paging differential: calls by operation: ${JSON.stringify(t.counts)}`);
    assert.deepEqual(env.errors, []);
  } finally {
    await env.close();
  }
});
