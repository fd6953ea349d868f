// Type declarations for js/sessiontree.js (hand-written; keep in step with
// the module and with SPEC.md).

/** The six error codes of every envelope. */
export type ErrorCode =
  | "INVALID_ARGUMENT"
  | "SESSION_NOT_FOUND"
  | "SESSION_ALREADY_EXISTS"
  | "NODE_NOT_FOUND"
  | "INVALID_SNAPSHOT"
  | "NOT_FOUND";

/** What every call resolves to. */
export type Envelope<T = any> =
  | { ok: true; value: T }
  | { ok: false; error: { code: ErrorCode; message: string } };

/** A standard LLM chat message, stored and returned losslessly. */
export interface Message {
  role: string;
  content: string | Array<Record<string, unknown>> | null;
  [field: string]: unknown;
}

/** A node in snapshot form. Timestamps are RFC 3339 UTC with milliseconds. */
export interface Node {
  id: string;
  parentId: string | null;
  branch: string;
  kind: "message" | "summary" | string;
  timestamp: string;
  message?: Message;
  summary?: string;
  /** The original record of an imported message, kept whole. */
  source?: unknown;
}

/** The value of create, jump, branch, fork, clone, snapshot.load and session. */
export interface SessionStatus {
  sessionId: string;
  title: string;
  cursor: string | null;
  activeBranch: string;
  nodeCount: number;
  branchCount: number;
  leafCount: number;
  /** Nodes on the root→cursor path (0 with no cursor). */
  depth: number;
  createdAt: string;
  updatedAt: string;
}

/** One node of the value of list (no message, a short preview instead). */
export interface ListItem {
  id: string;
  parentId: string | null;
  branch: string;
  kind: string;
  role: string;
  timestamp: string;
  depth: number;
  /** Up to 80 characters, white space collapsed, cut between whole characters. */
  preview: string;
}

/** One entry of the value of branches. */
export interface BranchInfo {
  name: string;
  tip: string | null;
  base: string | null;
  nodeCount: number;
  active: boolean;
}

/** One row of the value of tree, in display (preorder) order. */
export interface TreeRow {
  id: string;
  parentId: string | null;
  branch: string;
  kind: string;
  role: string;
  preview: string;
  depth: number;
  /** Drawing level: grows only below a node with more than one child. */
  indent: number;
  childCount: number;
  onPath: boolean;
  cursor: boolean;
  tipOf?: string;
}

export interface Tree {
  sessionId: string;
  cursor: string | null;
  activeBranch: string;
  roots: string[];
  rows: TreeRow[];
  /** ASCII rendering, one line per node, cursor marked "← cursor". */
  text: string;
}

export interface Context {
  cursor: string | null;
  messages: Message[];
}

export interface Snapshot {
  version: 1;
  sessionId: string;
  title?: string;
  cursor: string | null;
  activeBranch: string;
  nodes: Node[];
}

export interface ImportResult {
  sessions: { sessionId: string; title: string; nodeCount: number; cursor: string | null }[];
  warnings: { sessionId?: string; message: string }[];
}

export interface SessionSummary {
  sessionId: string;
  title: string;
  nodeCount: number;
  cursor: string | null;
  activeBranch: string;
  updatedAt: string;
}

/** A request of the tool API: `{operation, ...fields}` (see SPEC.md). */
export type Request = { operation: string; [field: string]: unknown };

export interface InitOptions {
  /** Where the wasm is; default: sessiontree.wasm next to the module. */
  wasmURL?: string | URL;
  /** IndexedDB database name; default "sessiontree". */
  dbName?: string;
  /** false: a pure in-memory tree (nothing read or written). Default true. */
  persist?: boolean;
}

export interface ChangeEvent {
  /** The operation that made the change ("append", "jump", "import", …). */
  type: string;
  sessionId: string;
  /** The session's cursor after the change. */
  nodeId?: string;
}

export interface SnapshotInfo {
  name: string;
  /** ISO 8601 time the restore point was saved. */
  createdAt: string;
  nodeCount: number;
}

export interface SessionTree {
  /** True when changes are written to IndexedDB. */
  readonly persistent: boolean;
  /** Answer one request; never rejects for a domain error. */
  call<T = any>(request: Request | string): Promise<Envelope<T>>;
  /** Like call, but resolves to the envelope's exact JSON text (numbers keep every digit). */
  callText(request: Request | string): Promise<string>;
  /** Import an export file's text (format "auto" detects it). */
  importText(text: string, format?: string): Promise<Envelope<ImportResult>>;
  /** Run a text command such as "/tree list". */
  command(line: string, options: { sessionId: string }): Promise<Envelope<{ text: string; [k: string]: unknown }>>;
  /** Fuzzy search over node text. */
  search(query: string, options?: { sessionId?: string; limit?: number; roles?: string[]; branch?: string }): Promise<Envelope>;
  /** The panel service. */
  readonly remote: {
    list(sessionId: string): Promise<Envelope<ListItem[]>>;
    jump(sessionId: string, nodeId: string): Promise<Envelope<SessionStatus>>;
    fork(sessionId: string, nodeId: string, branch?: string): Promise<Envelope<SessionStatus>>;
    session(sessionId: string): Promise<Envelope<SessionStatus>>;
  };
  /** Called after each change; returns the unsubscribe function. */
  subscribe(fn: (event: ChangeEvent) => void): () => void;
  /** Keep the current snapshot as a named restore point. */
  saveSnapshot(sessionId: string, name?: string): Promise<Envelope<SnapshotInfo>>;
  listSnapshots(sessionId: string): Promise<Envelope<SnapshotInfo[]>>;
  restoreSnapshot(sessionId: string, name: string): Promise<Envelope<SessionStatus>>;
  /** Resolves when every write started so far is committed. */
  flush(): Promise<void>;
  /** Close the IndexedDB connection. */
  close(): void;
}

/** Start sessiontree; see InitOptions. Rejects if IndexedDB cannot be read. */
export function init(options?: InitOptions): Promise<SessionTree>;
