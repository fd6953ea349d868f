// sessiontree/react — React hooks over sessiontree's public API.
//
// The hooks read through `call` and stay current through `subscribe`: a
// change by this page, the panel, an agent or another tab re-reads what the
// hook shows. No JSX and no React internals: createElement and the stable
// hooks only (React 18 and 19). The page's tree is the one init() shares
// (one per dbName), so every hook of a page, and the panel, use the same
// store; a <SessionTreeProvider tree={…}> above them gives another.
//
//   import { useSessionTree, useSessions, useMessages } from "sessiontree/react";
//   function Chat({ id }) {
//     const { messages } = useMessages(id);
//     return messages.map((m, i) => <p key={i}>{m.role}: {String(m.content)}</p>);
//   }
//
// Types: react/index.d.ts (also the JSX typing of <session-tree-panel>).

import { createContext, createElement, useContext, useEffect, useRef, useState } from "react";
import { init } from "../js/sessiontree.js";

/** The tree a SessionTreeProvider gives its children: {tree, error}, or null without a provider. */
const TreeContext = createContext(null);

/**
 * Give the hooks below a tree: `tree` as is, else the one init(options)
 * resolves to (options read once, on mount).
 * @param {{tree?: object, options?: object, children?: any}} props
 */
export function SessionTreeProvider({ tree, options, children }) {
  const started = useInit(tree ? null : (options ?? {}));
  const value = tree ? { tree, error: null } : started;
  return createElement(TreeContext.Provider, { value }, children);
}

/**
 * The state of init(options) while it starts: {tree: null, error: null},
 * then {tree, error: null} or {tree: null, error}. options === null starts
 * nothing. init() shares one tree per dbName, so every caller of a page
 * gets the same tree.
 * @param {object|null} options
 */
function useInit(options) {
  const [state, setState] = useState({ tree: null, error: null });
  const first = useRef(options);
  useEffect(() => {
    if (first.current === null) return undefined;
    let live = true;
    init(first.current).then(
      (tree) => live && setState({ tree, error: null }),
      (error) => live && setState({ tree: null, error }),
    );
    return () => {
      live = false;
    };
  }, []);
  return state;
}

/**
 * The page's tree: the nearest SessionTreeProvider's, else init(options)'s
 * (options read once, on mount; the tree is shared, see init). Returns
 * {tree: null, error: null} while it starts, then {tree, error: null}, or
 * {tree: null, error} when init rejected (IndexedDB or the wasm could not
 * be loaded).
 * @param {object} [options] init's options
 * @returns {{tree: object|null, error: Error|null}}
 */
export function useSessionTree(options) {
  const provided = useContext(TreeContext);
  const own = useInit(provided ? null : (options ?? {}));
  return provided ?? own;
}

/**
 * Read something through the tree and read it again after each change the
 * tree reports that `wants(event)` accepts. read(tree) resolves to an
 * envelope; the state is {value, error, loading}; the answer of an older
 * read never replaces a newer one, and an answer read for other deps (the
 * session before) is never returned: until the new read answers, the state
 * is {value: empty, error: null, loading: true}.
 * @param {object|null} tree @param {(tree: object) => Promise<any>} read
 * @param {(event: object) => boolean} wants @param {any} empty the value before the first answer
 * @param {any[]} deps what the read depends on besides the tree
 */
function useRead(tree, read, wants, empty, deps) {
  const key = [tree, ...deps];
  const [state, setState] = useState({ key: null, value: empty, error: null, loading: true });
  useEffect(() => {
    if (!tree) return undefined;
    let live = true;
    let seq = 0;
    const load = async () => {
      const mine = ++seq;
      const env = await read(tree);
      if (!live || mine !== seq) return;
      setState(env.ok ? { key, value: env.value, error: null, loading: false } : { key, value: empty, error: env.error, loading: false });
    };
    load();
    const off = tree.subscribe((event) => wants(event) && load());
    return () => {
      live = false;
      off();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, key);
  return sameKey(state.key, key) ? state : { value: empty, error: null, loading: true };
}

/** Whether two dependency lists hold the same values (Object.is), as React compares them. */
function sameKey(a, b) {
  return a !== null && a.length === b.length && a.every((v, i) => Object.is(v, b[i]));
}

/**
 * Every session of the tree (the `sessions` operation's summaries), read
 * again after each change. {sessions: [], loading: true} until the first
 * answer; error is the envelope's error when that failed. query: the
 * request's order and limit, e.g. {order: "updated", limit: 50} for the
 * newest 50, newest first (a first screen: before the store's wasm has
 * started it is answered from the newest sessions read first); omitted,
 * every session in creation order.
 * @param {object} [tree] default: useSessionTree()'s
 * @param {{order?: "created"|"updated", limit?: number}} [query]
 * @returns {{sessions: object[], error: {code: string, message: string}|null, loading: boolean}}
 */
export function useSessions(tree, query) {
  const t = useTree(tree);
  const order = query?.order;
  const limit = query?.limit;
  const request = { operation: "sessions", ...(order !== undefined && { order }), ...(limit !== undefined && { limit }) };
  const s = useRead(t, (x) => x.call(request), () => true, [], [order, limit]);
  return { sessions: s.value, error: s.error, loading: s.loading };
}

/**
 * The messages the model sees for a session (its `context`: root → cursor)
 * and its cursor, read again after each change of that session (an
 * append, a jump, the panel's branch switch, another tab's write). With
 * sessionId null: no read, {messages: [], cursor: null, loading: false}.
 * A session that does not exist answers error {code: "SESSION_NOT_FOUND"}.
 * @param {string|null} sessionId
 * @param {object} [tree] default: useSessionTree()'s
 * @returns {{messages: object[], cursor: string|null, error: {code: string, message: string}|null, loading: boolean}}
 */
export function useMessages(sessionId, tree) {
  const t = useTree(tree);
  const s = useRead(
    sessionId === null || sessionId === undefined ? null : t,
    (x) => x.call({ operation: "context", sessionId }),
    (e) => e.sessionId === sessionId || e.sessionId === undefined,
    null,
    [sessionId],
  );
  if (sessionId === null || sessionId === undefined) return { messages: [], cursor: null, error: null, loading: false };
  return { messages: s.value?.messages ?? [], cursor: s.value?.cursor ?? null, error: s.error, loading: s.loading };
}

/**
 * tree when given (null: the app's own tree is not ready yet, nothing is
 * read), else the page's (useSessionTree's). A given tree starts no store:
 * the page's init() runs only for a hook given none.
 */
function useTree(tree) {
  const provided = useContext(TreeContext);
  const own = useInit(provided || tree !== undefined ? null : {});
  return tree !== undefined ? tree : (provided ?? own).tree;
}

/**
 * Listen to one of a <session-tree-panel>'s events through a ref (React
 * 18, which sets no event listeners on custom elements; React 19 can use
 * the element's `onjump`-style props instead). The handler may change
 * between renders without re-adding the listener; a panel rendered later
 * than the hook (after a loading state), or replaced, is listened to once it
 * is in the ref.
 * @param {{current: HTMLElement|null}} ref the panel
 * @param {string} type "jump", "preview", "select", "branch", "fork", …
 * @param {(event: CustomEvent) => void} handler
 */
export function usePanelEvent(ref, type, handler) {
  const latest = useRef(handler);
  latest.current = handler;
  const [element, setElement] = useState(null);
  // The panel may mount after this hook's first effect (behind a loading
  // state, or in a branch of the JSX): look at the ref after every render.
  useEffect(() => {
    if (ref.current !== element) setElement(ref.current);
  });
  useEffect(() => {
    if (!element) return undefined;
    const fn = (e) => latest.current(e);
    element.addEventListener(type, fn);
    return () => element.removeEventListener(type, fn);
  }, [element, type]);
}
