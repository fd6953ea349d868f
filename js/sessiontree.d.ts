// Type declarations for js/sessiontree.js (hand-written, but for the
// blocks between BEGIN/END GENERATED markers, which `go generate ./...`
// writes from core's operation table; keep the rest in step with the module
// and with SPEC.md).

// BEGIN GENERATED ERROR CODES (go generate ./...: core/protocolgen; do not edit by hand)
/** The error codes of every envelope: core's six, then the JS shim's own. */
export type ErrorCode =
  | "INVALID_ARGUMENT"
  | "SESSION_NOT_FOUND"
  | "SESSION_ALREADY_EXISTS"
  | "NODE_NOT_FOUND"
  | "INVALID_SNAPSHOT"
  | "NOT_FOUND"
  /**
   * Only from the JS shim, never from core: a change could not be written
   * to IndexedDB (quota exceeded, connection closed by a newer tab). The
   * change was undone in memory too. The message starts "storage full:"
   * for a QuotaExceededError, "storage error:" otherwise.
   */
  | "STORAGE_ERROR";
// END GENERATED ERROR CODES

/** The error codes by name (`ERROR.INVALID_ARGUMENT` is `"INVALID_ARGUMENT"`): js/protocol.js, generated from core. */
export const ERROR: Readonly<{ [K in ErrorCode]: K }>;

/**
 * What every call resolves to (T unknown when the call does not say: narrow
 * it before use). A failure's `reason`, when present, is its cause finer than
 * its code (`REASON`, js/protocol.js): act on it, never on the message's wording.
 * An importFiles where no file gave a session fails with `files`: each file
 * with why nothing was read from it (the message joins the same).
 * Each kind names the other's member as undefined, so an envelope
 * destructures under strict TypeScript: `const { ok, value, error } = env`,
 * then `if (!ok)` narrows value and error as `env.ok` does.
 */
export type Envelope<T = unknown> =
  | { ok: true; value: T; error?: undefined }
  | { ok: false; value?: undefined; error: { code: ErrorCode; message: string; reason?: string; files?: FilesResult["files"]; entries?: ZipResult<ZipEntry | ZipHeldSnapshot>["entries"] } };

/**
 * A message's role: the ones chat APIs share, offered by editors, or any
 * other string (a tool's own role is stored as is; `string & {}` keeps the
 * known ones suggested while every string is accepted).
 */
export type Role = "system" | "developer" | "user" | "assistant" | "tool" | (string & {});

/** A standard LLM chat message, stored and returned losslessly. */
export interface Message {
  role: Role;
  content: string | Array<Record<string, unknown>> | null;
  [field: string]: unknown;
}

/** The entry kinds (after the Pi coding agent's session entries). */
export type EntryKind =
  | "model_change"
  | "thinking_level_change"
  | "active_tools_change"
  | "compaction"
  | "custom"
  | "custom_message"
  | "session_info";

/** The kind-specific fields of an entry node, by kind (the node's `entry` field). */
export interface EntryFields {
  model_change: { provider: string; model: string };
  thinking_level_change: { level: string };
  active_tools_change: { tools: string[] };
  compaction: { summary: string; firstKeptNodeId: string; tokensBefore?: number };
  /** Never model-visible. */
  custom: { customType: string; data?: unknown };
  custom_message: { customType: string; content: string | Array<Record<string, unknown>>; display?: boolean; details?: unknown };
  /** "" clears the name. */
  session_info: { name: string };
}

/**
 * The `entry` of an append request, `{kind, ...fields}`: discriminated by
 * `kind`, so a switch on it reaches the kind's fields.
 */
export type Entry = { [K in EntryKind]: { kind: K } & EntryFields[K] }[EntryKind];

/** What every node has, whatever its kind. Timestamps are RFC 3339 UTC with milliseconds. */
export interface NodeBase {
  id: string;
  parentId: string | null;
  branch: string;
  timestamp: string;
  /** The original record of an imported message, kept whole. */
  source?: unknown;
}

/** A chat message node. */
export interface MessageNode extends NodeBase {
  kind: "message";
  message: Message;
}

/** A summary node (branch.summary); context gives it as a user message. */
export interface SummaryNode extends NodeBase {
  kind: "summary";
  summary: string;
}

/** An entry node: `entry` holds the fields of its kind (without `kind`). */
export type EntryNode = { [K in EntryKind]: NodeBase & { kind: K; entry: EntryFields[K] } }[EntryKind];

/** A node in snapshot form, discriminated by `kind`. */
export type Node = MessageNode | SummaryNode | EntryNode;

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
  /** RFC 3339 UTC, milliseconds; "" for a session imported from data that holds no time (undated). */
  createdAt: string;
  /** As createdAt: "" for an undated import until something is appended. */
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
  /** The node's label annotation, when it has one. */
  label?: string;
  /** The node or an ancestor is hidden (a hide annotation). */
  hidden: boolean;
  /** The node is on the preferred path (a prefer annotation). */
  preferred: boolean;
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
  label?: string;
  /** The node or an ancestor is hidden. */
  hidden: boolean;
  /** The hide annotation is on this very node. */
  hiddenRoot?: boolean;
  /** On the preferred path. */
  preferred: boolean;
}

export interface Tree {
  sessionId: string;
  cursor: string | null;
  activeBranch: string;
  roots: string[];
  rows: TreeRow[];
  /**
   * Text rendering in Pi's manner: one line per node, long linear runs
   * compacted to "··· N nodes (first … last)", hidden subtrees as one line,
   * marks "[branch*]", "[label: …]", "★ preferred", "← cursor".
   */
  text: string;
}

/** A node's place on the map: its segment and its offset in it (0 = the segment's first node). */
export interface MapMark {
  segment: number;
  offset: number;
  nodeId: string;
}

/**
 * The value of operation "family" {sessionId}: the sessions linked by
 * source records (fork, clone, import), the root ancestor first, then
 * breadth first (at most 1000; truncated says more were cut). A member
 * that is missing was named by a link but is not in the store.
 */
export interface Family {
  sessionId: string;
  root: string;
  members: { sessionId: string; title: string; nodeCount: number; missing: boolean }[];
  /** One per member but the root: child sessionId made from parentSessionId at nodeId (a node of the parent; null when unknown). */
  edges: { sessionId: string; parentSessionId: string; nodeId: string | null; kind: "fork" | "clone" | "import" }[];
  truncated: boolean;
}

/**
 * The value of operation "map" {sessionId}: the session cut into segments
 * (runs of nodes without a fork, on one branch) laid out as a tidy tree
 * (Buchheim, Jünger & Leipert 2002) in the Worker. Columns have one entry
 * per drawn segment, parents first; x is in layout units (0 … width), y the
 * depth in segments (0 … height). A hidden subtree is one collapsed segment.
 */
export interface SessionMap {
  sessionId: string;
  nodeCount: number;
  /** Give it back as `revision` in the next map request to get only what grew (a SessionMapDelta) while the layout stands. */
  revision: string;
  count: number;
  width: number;
  height: number;
  branches: string[];
  parent: number[];
  x: number[];
  y: number[];
  length: number[];
  first: string[];
  last: string[];
  branch: number[];
  /** Bits: 1 on the cursor's path, 2 on the preferred path, 4 a hidden subtree drawn collapsed. */
  flags: number[];
  /** [segment, nodes in the hidden subtree] */
  hidden: [number, number][];
  cursor: MapMark | null;
  preferred: MapMark | null;
  /** [segment, offset, label] */
  labels: [number, number, string][];
  /** [segment, offset, index into branches]: where each branch's tip is */
  tips: [number, number, number][];
  /** [segment, offset, sessionId, kind]: the sessions made from this one (fork, clone, import), at the node each was made at (at most 100). */
  forks: [number, number, string, "fork" | "clone" | "import"][];
  /** Where this session left the one it was made from, placed on this map; null when it has no source or shares no node with it. */
  source: MapSource | null;
}

/** SessionMap.source: the session this one was made from and the node, on this session's own map. */
export interface MapSource {
  sessionId: string;
  nodeId: string;
  segment: number;
  offset: number;
  kind: "fork" | "clone" | "import";
}

/**
 * The value of operation "map" {sessionId, revision} when `revision` (of an
 * earlier answer) names the layout that still stands — the nodes appended
 * since only extended runs: the segments that grew ([segment, length, last
 * node id]) and the fields that may change without a new layout; parent, x,
 * y, first, branch and hidden stay those of the earlier answer. A revision
 * that is not current gets the whole SessionMap. static/map-model.js
 * `applyMapDelta(earlier, delta)` makes the whole value.
 */
export type SessionMapDelta = Pick<SessionMap, "sessionId" | "nodeCount" | "revision" | "count" | "branches" | "flags" | "cursor" | "preferred" | "labels" | "tips" | "forks" | "source"> & {
  delta: true;
  /** [segment, length, last node id] of each segment that grew */
  changed: [number, number, string][];
};

/**
 * The value of operation "tree.rows" {sessionId, offset?, limit?, around?}:
 * the rows of `tree` in columns (each array has one entry per row sent), in
 * the same display order. Without a window field every row is sent. A
 * window sends the rows [offset, offset + limit) — or `limit` rows centred
 * on the row of node `around` (with `limit`, not with `offset`), kept
 * inside 0 … count — and adds `offset`. Row indexes (parent, tipOf, label)
 * are always whole-session rows. Bad window values: INVALID_ARGUMENT naming
 * the field (an offset past `count` included); an unknown `around` node:
 * NODE_NOT_FOUND. static/tree-model.js `rowsFromColumns` turns it into rows.
 */
export interface TreeRows {
  sessionId: string;
  cursor: string | null;
  activeBranch: string;
  /** Rows of the whole session. */
  count: number;
  /** Windows only: the whole-session row of the first row sent. */
  offset?: number;
  /** Name tables the branch, kind and role columns index into (a window's: only the names it uses). */
  branches: string[];
  kinds: string[];
  roles: string[];
  id: string[];
  /** Whole-session row of each row's parent, -1 for a root. */
  parent: number[];
  branch: number[];
  kind: number[];
  role: number[];
  preview: string[];
  depth: number[];
  childCount: number[];
  /** Bit sets: 1 onPath, 2 cursor, 4 hidden, 8 hiddenRoot, 16 preferred. */
  flags: number[];
  /** [row, index into branches] of each branch tip sent. */
  tipOf: [number, number][];
  /** [row, label] of each labeled row sent. */
  label: [number, string][];
}

/** The configuration in force at a node (newest entry on the path, or null). */
export interface State {
  model: { provider: string; model: string } | null;
  thinkingLevel: string | null;
  activeTools: string[] | null;
  sessionName: string | null;
}

export interface Context {
  cursor: string | null;
  /**
   * The root→cursor path as an LLM messages array (a new array each call).
   * Plain `{role, content}` messages are frozen and may be the very objects
   * of the previous context of the session (a chat turn builds only the new
   * ones): copy one before changing it.
   */
  messages: Message[];
  state: State;
}

/** An annotation record (snapshot `annotations`; append-only, newest wins). */
export type Annotation =
  | { kind: "label"; nodeId: string; label: string; timestamp: string }
  | { kind: "hide"; nodeId: string; hidden: boolean; timestamp: string }
  | { kind: "prefer"; nodeId: string | null; timestamp: string }
  /** A rename (the newest is the session's title). */
  | { kind: "title"; nodeId: null; title: string; timestamp: string }
  /** Where the session came from (fork, clone, or an import's link); sourceNodeId is a node of the source. */
  | { kind: "source"; nodeId: null; sourceSessionId: string; sourceNodeId: string | null; via: "fork" | "clone" | "import"; timestamp: string }
  /** Where the file's own cursor was when an import of the session read it; the newest tells the next import whether the user moved the cursor since. */
  | { kind: "import"; nodeId: string; timestamp: string };

/** The value of label, hide and prefer. */
export interface Marks {
  sessionId: string;
  nodeId: string | null;
  label: string | null;
  hidden: boolean;
  preferred: boolean;
  preferredNode: string | null;
}

/** The value of diff {sessionId, from, to} (node ids or branch names). */
export interface Diff {
  sessionId: string;
  from: { ref: string; nodeId: string; branch?: string };
  to: { ref: string; nodeId: string; branch?: string };
  /** The deepest common node; null for different roots of a forest. */
  ancestor: string | null;
  common: number;
  fromOnly: { id: string; branch: string; kind: string; role: string; text: string }[];
  toOnly: { id: string; branch: string; kind: string; role: string; text: string }[];
}

/** The value of a command: text for display, data = the operation's value. */
export interface CommandResult {
  command: string;
  text: string;
  data: unknown;
  /** /fork only: the user message's text, to edit and send again. */
  draft?: string;
}

/** The value of every tree.remote call: what a panel draws, in one reply. */
export interface PanelView {
  session: SessionStatus;
  tree: Tree;
}

export interface Snapshot {
  version: 1;
  sessionId: string;
  title?: string;
  cursor: string | null;
  activeBranch: string;
  nodes: Node[];
  annotations?: Annotation[];
}

/** The report of an import (operation "import", tree.importText). */
export interface ImportResult {
  /** The format read: "chatgpt", "claudeai", "openwebui", "librechat", "chatbotui", "claude-code", "pi", "sillytavern", "codex", "gemini", "aider", "openai" or "snapshot". */
  format: string;
  /**
   * One per session made or brought up to date. branchCount, rootCount and warnings (how many
   * warnings name it) describe it. existing: the session was there before (an earlier import of
   * the same conversation); added: the nodes this import added to it (0 when the file holds
   * nothing new; nodeCount for a new session).
   */
  sessions: { sessionId: string; title: string; nodeCount: number; cursor: string | null; branchCount: number; rootCount: number; warnings: number; existing: boolean; added: number; project?: string }[];
  /** Conversations not imported, with the reason (also listed in warnings). */
  skipped: { sessionId?: string; title?: string; reason: string }[];
  /** Everything skipped or guessed, each naming the conversation and record. */
  warnings: { sessionId?: string; message: string }[];
}

export interface ImportOptions {
  /** Called after each slice of a sliced import; read and total count work in bytes (total: twice the text's UTF-8 size, reading then storing). */
  onProgress?: (progress: { read: number; total: number }) => void;
  /** Aborting before the import is stored (while the text is read, or while it waits for another tab's write) stops it; nothing is stored. */
  signal?: AbortSignal;
  /** The largest slice in bytes (default 1 MiB); slices are sized to take about 50 ms. */
  sliceBytes?: number;
}

/** The value of operation "export" {sessionId, format: "pi" | "markdown" | "openai" | "snapshot", scope?}. */
export interface ExportFile {
  format: string;
  /** What the file holds: the root→cursor path or every node (see ExportScope). */
  scope: ExportScope;
  /** Derived from the session id: "demo.pi.jsonl", "demo.md", "demo.openai.json", "demo.sessiontree.json". */
  filename: string;
  mimeType: string;
  text: string;
}

/**
 * One search hit. `snippet` is a short excerpt of the node's text (white
 * space collapsed, "…" where cut, never inside a character); `ranges` are
 * `[start, end)` offsets in UTF-16 code units of `snippet` (plain
 * `snippet.slice(start, end)` in JavaScript) covering the matched
 * characters, in order, not overlapping. `score` is in (0, 1]; 1 means every
 * query word matched exactly and adjacently.
 */
export interface SearchHit {
  sessionId: string;
  nodeId: string;
  branch: string;
  /** The message role; "summary" for a summary node, the kind for an entry node. */
  role: string;
  score: number;
  snippet: string;
  ranges: Array<[number, number]>;
}

/**
 * The value of search: the best hits first (at most `limit`), and how many
 * nodes matched in all. A search across every session lists in `skipped`
 * the stored sessions it could not read (their IndexedDB records damaged
 * outside sessiontree), each with a message naming it and what is wrong;
 * absent when there are none. Any other call on such a session answers
 * STORAGE_ERROR with that message.
 */
export interface SearchResult {
  hits: SearchHit[];
  total: number;
  skipped?: Array<{ sessionId: string; message: string }>;
}

/** The value of storedContext: the session's stored summary and the last nodes of its path. */
export interface StoredContext extends Omit<SessionSummary, "tool" | "project"> {
  /** The last `limit` nodes of the path from the root to the cursor, in path order (the cursor's last). */
  nodes: Node[];
  /** Whether nodes starts at the root (the whole path is there). */
  complete: boolean;
}

export interface SessionSummary {
  sessionId: string;
  title: string;
  nodeCount: number;
  cursor: string | null;
  activeBranch: string;
  /** RFC 3339 UTC, milliseconds; "" for an undated import (its data holds no time). */
  updatedAt: string;
  /** The format of the import that made the session ("codex", "claude-code", …); absent when unknown. */
  tool?: string;
  /** The folder the session's conversation worked in (a coding agent's cwd); absent when unknown. */
  project?: string;
}

/**
 * Where a page of `sessions` with order "updated" starts after: the
 * updatedAt and sessionId of the last summary of the page before.
 */
export interface SessionPageKey {
  updatedAt: string;
  sessionId: string;
}

/** The import formats ("auto" detects which one a file is). */
export type ImportFormat = "auto" | "snapshot" | "chatgpt" | "claudeai" | "openwebui" | "librechat" | "chatbotui" | "claude-code" | "pi" | "sillytavern" | "codex" | "gemini" | "aider" | "openai";

/** The export formats of operation "export". */
export type ExportFormat = "pi" | "markdown" | "openai" | "snapshot";

/**
 * What an export holds: "path" (root → cursor) or "tree" (every node).
 * Without `scope` each format writes its own: markdown and openai the path,
 * pi and snapshot the tree; markdown writes either; any other pair is
 * INVALID_ARGUMENT.
 */
export type ExportScope = "path" | "tree";

/**
 * append's request: a chat message or an entry (exactly one of them).
 * `root: true` appends it as a new root (a sibling of the session's first
 * message, on a new branch "main-2"; in an empty session, the first node);
 * it excludes `branch`.
 */
export type AppendRequest = { sessionId: string; branch?: string; root?: boolean } & (
  | { message: Message; entry?: never }
  | { entry: Entry; message?: never }
);

// BEGIN GENERATED OPERATIONS (go generate ./...: core/protocolgen; do not edit by hand)
/**
 * Every public operation of call(), by name: its request fields (besides
 * `operation`) and the value of its ok envelope (SPEC.md's table). A field
 * core does not know for the operation is INVALID_ARGUMENT at run time, and
 * a compile error here.
 */
export interface Operations {
  append: { request: AppendRequest; value: Node };
  /** A chain of messages in one call, all or nothing; create: true makes the session first. */
  "append.many": { request: { sessionId: string; messages: Message[]; branch?: string; create?: boolean; title?: string }; value: AppendManyResult };
  branch: { request: { sessionId: string; nodeId: string; branch: string }; value: SessionStatus };
  /** The value is the new summary node. */
  "branch.summary": { request: { sessionId: string; nodeId: string; branch: string; summary: string }; value: SummaryNode };
  branches: { request: { sessionId: string }; value: BranchInfo[] };
  /** The value is the status of the NEW session. */
  clone: { request: { sessionId: string; newSessionId?: string }; value: SessionStatus };
  command: { request: { line: string; sessionId?: string }; value: CommandResult };
  /** ids: true adds each message's node id and that node's siblings (ContextWithIds). */
  context: { request: { sessionId: string; ids?: boolean }; value: Context | ContextWithIds };
  create: { request: { sessionId: string; title?: string }; value: SessionStatus };
  /** To the trash; permanent: true erases at once (value Erased). */
  delete: { request: { sessionId: string; permanent?: boolean }; value: TrashItem | Erased };
  /** from and to: node ids or branch names. */
  diff: { request: { sessionId: string; from: string; to: string }; value: Diff };
  export: { request: { sessionId: string; format: ExportFormat; scope?: ExportScope }; value: ExportFile };
  /** Read-only: the sessions linked to this one by fork, clone and import, as a graph. */
  family: { request: { sessionId: string }; value: Family };
  /** The value is the status of the NEW session. */
  fork: { request: { sessionId: string; nodeId: string; newSessionId?: string; branch?: string }; value: SessionStatus };
  /** hidden defaults to true. */
  hide: { request: { sessionId: string; nodeId: string; hidden?: boolean }; value: Marks };
  /** data: the export's text, or its JSON value (an object or an array). */
  import: { request: { data: string | object; format?: ImportFormat }; value: ImportResult };
  jump: { request: { sessionId: string; nodeId: string }; value: SessionStatus };
  /** label "" clears the label. */
  label: { request: { sessionId: string; nodeId: string; label: string }; value: Marks };
  /** Read-only: the newest leaf under nodeId (of the whole session without it). */
  leaf: { request: { sessionId: string; nodeId?: string }; value: Leaf };
  list: { request: { sessionId: string }; value: ListItem[] };
  /** The session cut into runs without a fork (segments), laid out as a tidy tree; given the revision of an earlier answer whose layout still stands, only what grew (a SessionMapDelta, applied by static/map-model.js applyMapDelta). */
  map: { request: { sessionId: string; revision?: string }; value: SessionMap | SessionMapDelta };
  node: { request: { sessionId: string; nodeId: string }; value: Node };
  /** nodeId null clears the preferred path. */
  prefer: { request: { sessionId: string; nodeId: string | null }; value: Marks };
  "remote.fork": { request: { sessionId: string; nodeId: string; branch?: string }; value: PanelView };
  "remote.jump": { request: { sessionId: string; nodeId: string }; value: PanelView };
  "remote.list": { request: { sessionId: string }; value: PanelView };
  "remote.session": { request: { sessionId: string }; value: PanelView };
  /** An appended title record; "" clears the title. The session's updatedAt stays (a title is not activity). */
  rename: { request: { sessionId: string; title: string }; value: SessionStatus };
  /** limit 1–1000 (default 20); roles keep these roles ("summary" for summary nodes); branch keeps nodes of that branch. */
  search: { request: { query: string; sessionId?: string; limit?: number; roles?: string[]; branch?: string }; value: SearchResult };
  session: { request: { sessionId: string }; value: SessionStatus };
  /** order "updated": newest first (updatedAt, then sessionId, descending, as UTF-16 code units); limit (1–2³¹−1) and before (the updatedAt and sessionId of the last summary of the page before) page it. */
  sessions: { request: { order?: "created" | "updated"; limit?: number; before?: SessionPageKey }; value: SessionSummary[] };
  "snapshot.load": { request: { sessionId: string; snapshot: Snapshot }; value: SessionStatus };
  "snapshot.save": { request: { sessionId: string }; value: Snapshot };
  /** Exactly one of nodeId (go to the newest leaf under it) and branch (go to its tip). */
  switch: { request: { sessionId: string; nodeId?: string; branch?: string }; value: SessionStatus };
  /** Without sessionId: every session in the trash. */
  "trash.empty": { request: { sessionId?: string }; value: Erased };
  "trash.list": { request: {}; value: TrashItem[] };
  "trash.restore": { request: { sessionId: string }; value: SessionStatus };
  /** showHidden: draw hidden subtrees too (default false). */
  tree: { request: { sessionId: string; showHidden?: boolean }; value: Tree };
  "tree.rows": { request: { sessionId: string; offset?: number; limit?: number; around?: string }; value: TreeRows };
}

/** The operations that may change the store (public or internal): what a ChangeEvent's type names, besides "sync". */
export type ChangeOperationName =
  | "append"
  | "append.many"
  | "branch"
  | "branch.summary"
  | "clone"
  | "command"
  | "create"
  | "delete"
  | "fork"
  | "hide"
  | "import"
  | "jump"
  | "label"
  | "page.damaged"
  | "page.faults"
  | "page.out"
  | "page.stub"
  | "prefer"
  | "remote.fork"
  | "remote.jump"
  | "rename"
  | "restore"
  | "snapshot.load"
  | "switch"
  | "sync.forget"
  | "sync.merge"
  | "sync.trash"
  | "trash.empty"
  | "trash.restore";
// END GENERATED OPERATIONS

/** The value of context with ids: true. */
export interface ContextWithIds extends Context {
  /** nodeIds[i]: the node messages[i] came from. */
  nodeIds: string[];
  /**
   * siblings[i]: every node with the same parent as nodeIds[i] (the roots,
   * for a root), itself included, in append order (length 1: an only
   * child); nodeIds[i]'s index in it is the message's version.
   */
  siblings: string[][];
}

/** The value of leaf. */
export interface Leaf {
  sessionId: string;
  /** The node asked about (null: the whole session). */
  nodeId: string | null;
  /** Its newest leaf (the node itself without children; null for an empty session). */
  leaf: string | null;
}

/** A session in the trash: the value of delete, an entry of trash.list. */
export interface TrashItem {
  sessionId: string;
  title: string;
  nodeCount: number;
  /** RFC 3339 UTC, milliseconds. */
  deletedAt: string;
  updatedAt: string;
}

/** The value of trash.empty and of delete with permanent: the sessions erased for good. */
export interface Erased {
  erased: string[];
}

/** The value of append.many. */
export interface AppendManyResult {
  /** The new nodes' ids, in order. */
  nodeIds: string[];
  session: SessionStatus;
}

/** The name of a public operation. */
export type OperationName = keyof Operations;

/** The request of operation K: `{operation: K, ...fields}`. */
export type RequestOf<K extends OperationName> = { operation: K } & Operations[K]["request"];

/** The value of operation K's ok envelope. */
export type ValueOf<K extends OperationName> = Operations[K]["value"];

/** A request of the tool API, any operation: `{operation, ...fields}` (see Operations, SPEC.md). */
export type Request = { [K in OperationName]: RequestOf<K> }[OperationName];

/** What importFile takes: a file the page has, in any of its forms. */
export type FileInput = Blob | ArrayBuffer | Uint8Array;

/** What importFiles takes: a FileList from `<input webkitdirectory>`, Files (webkitRelativePath is the path), `{path, data}` entries, or a directory handle. */
export type FolderInput = FileList | ReadonlyArray<File | { path: string; data: Blob | ArrayBuffer | Uint8Array | string }> | FileSystemDirectoryHandle;

export interface ImportFilesOptions {
  /** Called as the files are read (the first half of total) and once stored; bytes of work, total twice the files' size. */
  onProgress?: (progress: { read: number; total: number }) => void;
  /** Aborting before the import is stored stops it; nothing is stored. */
  signal?: AbortSignal;
}

/** The report of importFiles. */
export interface FilesResult {
  /** One per session made or brought up to date, as in ImportResult, with the tool that wrote it ("claude-code", "cline", "opencode", …), its project (the tool's working folder, when known) and the file or folder it came from. */
  sessions: (ImportResult["sessions"][number] & { tool: string; project?: string; path: string })[];
  /** Conversations not imported, with the reason. */
  skipped: ImportResult["skipped"];
  /** Everything skipped or guessed; each message starts with the file or folder it is about. */
  warnings: ImportResult["warnings"];
  /** One line per file: the tool that read it and the sessions it gave (counted on a layout's first file), or why it was skipped. */
  files: { path: string; tool?: string; sessions: number; skipped?: string }[];
}

export interface ImportFileOptions {
  /** The file's format; default "auto" (detected). */
  format?: ImportFormat;
  /**
   * Called after each slice of the import; read and total count work in
   * bytes (total: twice the file's size, reading then storing; the last
   * call has read === total).
   */
  onProgress?: (progress: { read: number; total: number }) => void;
  /** Aborting before the import is stored (while the file is read, or while it waits for another tab's write) stops it; nothing is stored. */
  signal?: AbortSignal;
  /** The largest slice in bytes (default 1 MiB); slices are sized to take about 50 ms. */
  sliceBytes?: number;
}

export interface ImportZipOptions {
  /** The ZIP's name in the entries' names ("name › path/inside.json"); default the File's name, else "archive.zip". */
  name?: string;
  /**
   * Bytes all the ZIP's JSON and JSON lines entries together may inflate
   * to (default 256 MiB). An entry that declares more is refused before it
   * is inflated; one that inflates past it (a ZIP bomb whose header lies)
   * is stopped there. Either is an "error" entry naming its declared and
   * actual size and this budget.
   */
  budget?: number;
  /**
   * What an entry that is a sessiontree snapshot of a session the store
   * already has becomes: "merge" (default) imports it as importFile does
   * (merged into the session); "hold" imports nothing of it and reports it
   * as a "snapshot" entry with its bytes, for the caller to ask (replace
   * the session, add a copy) and load it (loadSnapshot) as chosen.
   */
  existingSnapshots?: "merge" | "hold";
  /**
   * Called while the ZIP is read (phase "read": bytes of the ZIP, name the
   * ZIP's) and while each entry is imported (phase "import": the entry's
   * work as importFile counts it, name the entry's).
   */
  onProgress?: (progress: { phase: "read" | "import"; name: string; read: number; total: number }) => void;
  /** Aborting while the ZIP is read imports nothing; later it stops the entry being imported and the ones after it (the ones before stay). */
  signal?: AbortSignal;
}

/** One entry of importZip's report (names are "archive.zip › path/inside.json"; a note about the whole ZIP has its name). */
export type ZipEntry =
  | {
      /** A JSON or JSON lines entry, imported as importFile imports a file (format "auto"). */
      kind: "text";
      name: string;
      /** Its bytes, inflated. */
      size: number;
      /** The ZIP's attachments (not stored) its conversations name, each on the message naming it (null: found by the conversation's folder). */
      refs: { conversationId: string; title: string; files: { file: { name: string; type: string; size: number | null }; messageId: string | null }[] }[];
      /** Its import's envelope, as importFile's. */
      envelope: Envelope<ImportResult>;
    }
  /** Left out on purpose: account data, the HTML view, a ZIP inside the ZIP, the attachments no conversation names. */
  | { kind: "skip"; name: string; reason: string }
  /** The ZIP damaged or cut off, an entry damaged, or refused (a ZIP bomb: the message starts "refused:"). */
  | { kind: "error"; name: string; message: string };

/** An entry of importZip's report with existingSnapshots "hold": a sessiontree snapshot of a session the store has, not imported. */
export interface ZipHeldSnapshot {
  kind: "snapshot";
  name: string;
  /** Its bytes, inflated. */
  size: number;
  /** The session it is a snapshot of. */
  sessionId: string;
  /** Its bytes (the snapshot's JSON), to load as the caller chooses (loadSnapshot, importFile). */
  data: Blob;
}

/** The report of importZip (Entry: ZipEntry, or with existingSnapshots "hold" also ZipHeldSnapshot). */
export interface ZipResult<Entry = ZipEntry> {
  /** In the ZIP's order: the damage first, then the imported entries, then what was left out. */
  entries: Entry[];
}

/** What loadSnapshot takes: the snapshot as a file, its JSON text or UTF-8 bytes, or the object. */
export type SnapshotInput = Blob | ArrayBuffer | Uint8Array | string | Snapshot;


export interface InitOptions {
  /**
   * Where the wasm is; default: the package's sessiontree.wasm (next to the
   * module, or where a bundler emitted it). Resolved against the page's
   * URL. It must come from the same Go build as the package's
   * wasm_exec.js, which is always the package's own (bundled with it).
   */
  wasmURL?: string | URL;
  /**
   * Where the store's module Worker is; default: worker.bundle.js next to
   * the module (worker.js and its modules in one file, made by make build).
   * A worker of your own imports worker.js. Resolved against the page's URL.
   */
  workerURL?: string | URL;
  /**
   * false: run the store (Go runtime, wasm, IndexedDB writer) in the page's
   * own thread instead of a module Worker; every call then blocks the page
   * while the wasm works. Also what happens where `Worker` is undefined.
   * Default true.
   */
  worker?: boolean;
  /** IndexedDB database name; default "sessiontree". */
  dbName?: string;
  /** false: a pure in-memory tree (nothing read or written). Default true. */
  persist?: boolean;
  /**
   * The memory budget in bytes: a call that may change the store
   * (snapshot.load, loadSnapshot, restoreSnapshot, import, importText,
   * importFile, append, clone, …) whose estimated memory (its request bytes
   * × 3, an import's × 8, on top of what the Go runtime holds) would pass
   * it answers INVALID_ARGUMENT naming its size and the limit, and changes
   * nothing. Read-only calls (context, list, search, snapshot.save, …) are
   * always answered, so a full store still reads. The memory counted is
   * the whole Go runtime's, shared by every tree of the page's worker. A positive
   * integer up to 2^32 (init rejects anything else); default 2147483648
   * (2 GiB: half of wasm32's 4 GiB, the rest is the collector's room).
   */
  memoryBudget?: number;
  /**
   * Bytes of stored sessions (their records' size) kept in memory: a
   * session is read from IndexedDB when a call first needs it, and past
   * this budget the least recently used are dropped from memory again
   * (read back on their next call, answering exactly as before). A
   * non-negative integer; default memoryBudget / 8. Ignored with persist: false.
   */
  pageBudget?: number;
}

/** What every change event may carry (ChangeEvent): the session's state after the change. */
export interface ChangeFields {
  /** The same as type (the operation that made the change, "sync" when another tab's record does not say). */
  operation?: string;
  /** True for a change another tab stored (taken in from IndexedDB). */
  remote?: boolean;
  sessionId: string;
  /** The session's cursor after the change (remote: the one the other tab stored, see cursor). */
  nodeId?: string;
  /**
   * The session's cursor after the change (null: none, or the session was
   * erased). With remote: true, the cursor the other tab stored: a tab that
   * moved the session's cursor itself keeps its own (its next append goes
   * under it), so read this tab's with context(); a tab that did not
   * follows the stored one.
   */
  cursor?: string | null;
  activeBranch?: string;
  /** The session's title after the change (the newest rename). */
  title?: string;
  /** The session's node count after the change. */
  nodeCount?: number;
  /** This tab's changes: the first new node's append index and how many were added. */
  from?: number;
  count?: number;
  /** This tab's changes: the new nodes' ids in order (absent past 1,000 nodes, or for a change drained in pieces). */
  nodeIds?: string[];
  /** The session's stored nodes were replaced (snapshot.load, fork or clone target, import). */
  reset?: boolean;
}

/** A session went to the trash (delete), or was erased at once (delete with permanent: true). */
export interface DeleteEvent extends ChangeFields {
  type: "delete";
  /** When it went to the trash (this tab's delete; absent with permanent: true). */
  deletedAt?: string;
  /** Set when it was erased for good (delete with permanent: true). */
  erased?: true;
}

/** A session in the trash was erased for good (trash.empty). */
export interface TrashEmptyEvent extends ChangeFields {
  type: "trash.empty";
  erased: true;
}

/** Any other change: nodes added (append, append.many, import, …), a jump, a rename, a restore from the trash, another tab's write ("sync"). */
export interface OtherChangeEvent extends ChangeFields {
  type: Exclude<ChangeOperationName, "delete" | "trash.empty"> | "sync";
}

/**
 * What a subscriber hears of a change, by `type` (the operation that made
 * it): narrowing on type gives each kind's own fields (deletedAt and
 * erased only on DeleteEvent and TrashEmptyEvent), and tells a change from
 * a StorageEvent ("storage") or a RestartedEvent ("restarted").
 */
export type ChangeEvent = DeleteEvent | TrashEmptyEvent | OtherChangeEvent;

/**
 * Sent to subscribers when this tab can no longer save: another tab opened
 * the database at a newer schema version ("versionchange"), the browser
 * closed the connection ("closed"), or memory could not be brought back
 * after a failed write ("rollback"). Show `message`; the page must reload.
 * Later mutating calls resolve to STORAGE_ERROR; reads keep working.
 */
export interface StorageEvent {
  type: "storage";
  state: "closed";
  /**
   * "exited": the Go runtime ended (fatal error: out of memory) with the
   * store in the page's thread (init({worker: false})); every later call
   * answers STORAGE_ERROR, and init() again starts a new one. (With the
   * store in its worker a RestartedEvent comes instead.)
   * "failed": init() answered from what IndexedDB holds while the wasm
   * started (the default: worker, persisted), and the wasm then could not
   * be fetched (the message names the HTTP status), did not compile or
   * start, or a stored session could not be listed in it;
   * every call, reads included, answers STORAGE_ERROR with `message`, and
   * init() again tries anew.
   */
  reason: "versionchange" | "closed" | "rollback" | "exited" | "failed";
  message: string;
}

/**
 * Sent to subscribers when the store's worker was started again because
 * its Go runtime ended (fatal error: out of memory):
 * the calls in flight answered STORAGE_ERROR "the store restarted; nothing
 * acknowledged was lost", and every session stored in IndexedDB is back
 * (a tree with persist: false comes back empty). Later calls work as usual.
 */
export interface RestartedEvent {
  type: "restarted";
  /** Why, e.g. "the Go runtime exited (code 2: fatal error: out of memory)". */
  reason: string;
  /** Milliseconds from the exit seen to every tree restored. */
  ms: number;
}

/** The value of tree.storage(), for the explorer's storage line. */
export interface StorageInfo {
  /** True when this tree writes to IndexedDB (init without persist: false). */
  persistent: boolean;
  /** "open" while saving, "closed" after a StorageEvent, "memory" for persist: false. */
  state: "open" | "closed" | "memory";
  /** Why it is closed, else null. */
  reason: string | null;
  /** navigator.storage.estimate().usage in bytes (whole site, a service worker's cache of the app included), null when unknown. */
  usage: number | null;
  /** The part of usage IndexedDB holds, the sessions (estimate().usageDetails.indexedDB, bytes; Chromium only), else null. */
  databaseUsage: number | null;
  /** navigator.storage.estimate().quota in bytes, null when unknown. */
  quota: number | null;
  /** navigator.storage.persisted(): exempt from eviction; null when unknown. */
  persisted: boolean | null;
  /**
   * With {requestPersist: true}: the browser has not answered within 3,000 ms
   * (Firefox asks the user in a prompt); its answer shows in a later storage().
   */
  persistPending: boolean;
}

export interface SnapshotInfo {
  name: string;
  /** ISO 8601 time the restore point was saved. */
  createdAt: string;
  nodeCount: number;
}

/** What the wasm reports of one operation (see SessionTree.operations). */
export interface OperationFlags {
  /** The operation never changes anything: answered from memory, with no IndexedDB transaction. */
  readonly readOnly: boolean;
  /** A change the operation makes never moves a cursor (label, hide, prefer). */
  readonly keepsCursor: boolean;
}

export interface SessionTree {
  /** True when changes are written to IndexedDB. */
  readonly persistent: boolean;
  /**
   * The operations call() answers, read from the wasm at init: a frozen
   * object with no prototype, one member per public operation name. The
   * shim's own operations (restore, sync.merge, sync.forget) are not in it,
   * and call() answers them INVALID_ARGUMENT "unknown operation".
   */
  readonly operations: Readonly<Record<string, OperationFlags>>;
  /** Whether call() answers an operation of this name (feature detection; makes no call). */
  hasOperation(name: string): boolean;
  /**
   * Answer one request (an object, its JSON text, or that text's UTF-8
   * bytes — bytes cross to the wasm with one copy and no transcoding).
   * Never rejects: a request that is not one (undefined, a number, "",
   * {}) is INVALID_ARGUMENT; a change that cannot be stored (quota, a
   * closed tree, a failed store worker) is STORAGE_ERROR with the reason.
   * An object request is checked against Operations: its operation name,
   * its fields and their types; the envelope's value has the operation's
   * value type (a text or bytes request's value is any).
   */
  call(request: string | Uint8Array | ArrayBuffer): Promise<Envelope<unknown>>;
  call<K extends OperationName>(request: RequestOf<K>): Promise<Envelope<ValueOf<K>>>;
  /** Like call, but resolves to the envelope's exact JSON text (numbers keep every digit); never rejects. */
  callText(request: Request | string | Uint8Array | ArrayBuffer): Promise<string>;
  /** create: a new empty session. SESSION_ALREADY_EXISTS for a taken id; INVALID_ARGUMENT for a bad id or title. */
  create(sessionId: string, options?: { title?: string }): Promise<Envelope<SessionStatus>>;
  /**
   * append: a chat message under the cursor (or on `branch`'s tip; with
   * `root: true`, a new root beside the session's first message, on a new
   * branch). The value is the new node. SESSION_NOT_FOUND, NOT_FOUND
   * (unknown branch), INVALID_ARGUMENT (a message without a role, root
   * with branch…).
   */
  append(sessionId: string, message: Message, options?: { branch?: string; root?: boolean }): Promise<Envelope<Node>>;
  /** context: the root→cursor path as an LLM messages array, and the state at the cursor. SESSION_NOT_FOUND. */
  context(sessionId: string): Promise<Envelope<Context>>;
  /** context with each message's node id and that node's siblings (what an edit or regenerate UI needs). */
  context(sessionId: string, options: { ids: true }): Promise<Envelope<ContextWithIds>>;
  context(sessionId: string, options?: { ids?: boolean }): Promise<Envelope<Context | ContextWithIds>>;
  /** leaf: the newest leaf under a node (of the whole session without nodeId). Read-only. */
  leaf(sessionId: string, nodeId?: string): Promise<Envelope<Leaf>>;
  /** switch: the cursor to the newest leaf under nodeId, or to a branch's tip, in one call. */
  switchTo(sessionId: string, target: { nodeId: string } | { branch: string }): Promise<Envelope<SessionStatus>>;
  /** rename: the session's title, as an appended record (no node changes); "" clears it. A title that is not a string is INVALID_ARGUMENT. */
  rename(sessionId: string, title: string): Promise<Envelope<SessionStatus>>;
  /** delete: to the trash (gone from lists, search and other tabs; records kept until the trash is emptied). */
  delete(sessionId: string): Promise<Envelope<TrashItem>>;
  /** delete with permanent: erased at once, from memory, IndexedDB (restore points too) and every tab. */
  delete(sessionId: string, options: { permanent: true }): Promise<Envelope<Erased>>;
  delete(sessionId: string, options?: { permanent?: boolean }): Promise<Envelope<TrashItem | Erased>>;
  /** trash.list: the sessions in the trash, the most recently deleted first. */
  trash(): Promise<Envelope<TrashItem[]>>;
  /** trash.restore: a session back from the trash, as it was. SESSION_NOT_FOUND when not in the trash. */
  restoreSession(sessionId: string): Promise<Envelope<SessionStatus>>;
  /**
   * trash.empty: erase for good the session named, or every session in the trash (sessionId
   * left out). A sessionId given that is not a non-empty string (NaN, null, a function) is
   * INVALID_ARGUMENT and erases nothing; so is `"sessionId": null` in a call().
   */
  emptyTrash(sessionId?: string): Promise<Envelope<Erased>>;
  /**
   * The end of a stored session's context, read from its IndexedDB records in this thread without
   * waiting for the store (a paged-out session of 100,000 nodes takes a second or more to load):
   * for showing a session while it opens. What is stored now, annotations not applied. value null
   * when the tree is not persisted, the session is not stored or is in the trash, its records
   * are damaged, or its cursor is older than its newest 20,000 nodes (fewer than `limit` nodes, complete
   * false, when its path goes back past them). limit: 1 to 200, default 20.
   * INVALID_ARGUMENT for a sessionId that is not a non-empty string, or a bad limit (an id core refuses,
   * with a lone surrogate or over 256 characters, is never stored: value null); never rejects.
   */
  storedContext(sessionId: string, options?: { limit?: number }): Promise<Envelope<StoredContext | null>>;
  /** append.many: messages as a chain in one call and one transaction, all or nothing; create: true makes the session first. */
  appendMany(sessionId: string, messages: Message[], options?: { branch?: string; create?: boolean; title?: string }): Promise<Envelope<AppendManyResult>>;
  /** jump: move the cursor to a node (activeBranch = its branch). SESSION_NOT_FOUND, NODE_NOT_FOUND. */
  jump(sessionId: string, nodeId: string): Promise<Envelope<SessionStatus>>;
  /**
   * branch: move the cursor to a node and make `name` the active branch
   * (its first append goes under the node). INVALID_ARGUMENT for a name
   * already taken; SESSION_NOT_FOUND, NODE_NOT_FOUND.
   */
  branch(sessionId: string, nodeId: string, name: string): Promise<Envelope<SessionStatus>>;
  /** fork: a NEW session of the root→node path (ids kept); the value is its status. SESSION_ALREADY_EXISTS for a taken newSessionId. */
  fork(sessionId: string, nodeId: string, options?: { newSessionId?: string; branch?: string }): Promise<Envelope<SessionStatus>>;
  /** clone: a NEW session copying the whole tree; the value is its status. SESSION_ALREADY_EXISTS for a taken newSessionId. */
  clone(sessionId: string, options?: { newSessionId?: string }): Promise<Envelope<SessionStatus>>;
  /** tree: rows to draw and an ASCII rendering (`text`). SESSION_NOT_FOUND. */
  tree(sessionId: string, options?: { showHidden?: boolean }): Promise<Envelope<Tree>>;
  /**
   * snapshot.save: the session as a version 1 snapshot object (for its
   * exact text, callText({operation: "snapshot.save", sessionId})). Not
   * saveSnapshot, which keeps a named restore point in IndexedDB.
   */
  snapshotSave(sessionId: string): Promise<Envelope<Snapshot>>;
  /**
   * snapshot.load from what a page has: a File or Blob, the JSON's UTF-8
   * bytes, its text, or the snapshot object. Bytes are spliced into the
   * request as they are (never parsed or re-encoded in JS) and cross to
   * the store's worker as a transferred buffer. The session (created if
   * absent) is replaced. INVALID_SNAPSHOT naming the first fault;
   * INVALID_ARGUMENT for a bad sessionId or snapshot argument, a file
   * that cannot be read, or a signal aborted before the load started
   * (nothing changes).
   */
  loadSnapshot(sessionId: string, snapshot: SnapshotInput, options?: { signal?: AbortSignal }): Promise<Envelope<SessionStatus>>;
  /**
   * Import an export file (format "auto" detects it) from a File, Blob,
   * ArrayBuffer or Uint8Array, without decoding it to a string: the bytes
   * reach the wasm in slices (a Blob is read there, in the store's worker)
   * with a yield between them. Nothing is stored before the whole file is
   * read and checked, so a failed or aborted import changes nothing.
   * A sessiontree snapshot of a session the store does not have loads
   * through snapshot.load (the same value; subscribers see a
   * "snapshot.load" change). INVALID_ARGUMENT for a bad argument or
   * option, an unreadable file, or "import aborted; nothing was imported".
   */
  importFile(file: FileInput, options?: ImportFileOptions): Promise<Envelope<ImportResult>>;
  /**
   * Import a whole folder, or any set of files, at once, as the tools keep
   * them on disk (Claude Code projects/<slug>/, Pi sessions/--<cwd>--/,
   * Cline and Roo Code tasks/<id>/, OpenCode's storage tree, Codex and
   * Gemini CLI folders, exports): each file or layout is recognised by path
   * and content. Every session comes with its tool, project and title; the
   * same folder again adds only what is new or grown. Bytes cross to the
   * store's worker transferred (a directory handle is walked there); an
   * abort before the import is stored leaves nothing behind.
   * INVALID_ARGUMENT for bad entries or options, a folder none of whose
   * files gives a session, or "import aborted; nothing was imported".
   */
  importFiles(entries: FolderInput, options?: ImportFilesOptions): Promise<Envelope<FilesResult>>;
  /**
   * Import an export ZIP (ChatGPT's, Claude.ai's, or any ZIP of exports and
   * transcripts) where the store runs, as bytes: the ZIP crosses to the
   * store's worker as the Blob it is and is streamed there; its JSON and
   * JSON lines entries are inflated within `budget` (a ZIP bomb is refused
   * with an entry naming its sizes and the budget) and imported one after
   * another as importFile imports a file, each stored on its own; no entry
   * becomes a string in the page's thread. Account files and the HTML view
   * are skipped; other entries are attachments, not stored, listed on the
   * conversations naming them. The answer is a report of the entries, in
   * the ZIP's order; a file that is no ZIP, an empty or damaged ZIP, and
   * each entry that failed are `error` entries (or a text entry whose
   * envelope is the error), so a damaged export still lists what it held.
   * When no entry gave a session, the answer is INVALID_ARGUMENT with
   * reason NOTHING_TO_IMPORT, its message naming why for the first
   * entries and `error.entries` the whole report (as importFiles's
   * `error.files`). INVALID_ARGUMENT also for a file argument that is not
   * a Blob, ArrayBuffer or bytes, a bad option, or "import aborted;
   * nothing was imported" (aborted while reading); STORAGE_ERROR when the
   * store fails (its worker stopped). Never rejects.
   * With existingSnapshots "hold", a snapshot of a session the store has
   * is reported with its bytes (ZipHeldSnapshot) instead of merged.
   */
  importZip(file: FileInput, options: ImportZipOptions & { existingSnapshots: "hold" }): Promise<Envelope<ZipResult<ZipEntry | ZipHeldSnapshot>>>;
  importZip(file: FileInput, options?: ImportZipOptions): Promise<Envelope<ZipResult>>;
  /**
   * Import an export file's text (format "auto" detects it). Large texts,
   * or any call with onProgress or signal, are read in slices with a yield
   * to the page between them; nothing is stored before the last slice.
   * Never rejects: a text or format that is not a non-empty string,
   * options that are not an object, or a bad option is INVALID_ARGUMENT
   * naming it; after close() it is STORAGE_ERROR.
   */
  importText(text: string, format?: string, options?: ImportOptions): Promise<Envelope<ImportResult>>;
  /**
   * Run a text command such as "/tree list" ("/tree help" lists them).
   * Never rejects: a line that is not a string, or options that are not an
   * object, is INVALID_ARGUMENT; after close() it is STORAGE_ERROR.
   */
  command(line: string, options?: { sessionId?: string }): Promise<Envelope<CommandResult>>;
  /**
   * Fuzzy search over node text (messages, summaries, entries, labels):
   * every query word must match exactly, as a prefix, or within 1 typo (4–7
   * letters) or 2 typos (8+); case and accents are ignored; CJK, Thai and
   * emoji match as substrings. `limit` is 1–1000 (default 20). Never
   * rejects: a bad query, options or option is INVALID_ARGUMENT naming it;
   * after close() it keeps answering from memory (STORAGE_ERROR when it
   * would need a session paged out of memory).
   */
  search(query: string, options?: { sessionId?: string; limit?: number; roles?: string[]; branch?: string }): Promise<Envelope<SearchResult>>;
  /**
   * The panel service. Never rejects: an argument that is not an id is
   * INVALID_ARGUMENT naming its field; after close() jump and fork are
   * STORAGE_ERROR, list and session keep answering from memory.
   */
  readonly remote: {
    list(sessionId: string): Promise<Envelope<PanelView>>;
    jump(sessionId: string, nodeId: string): Promise<Envelope<PanelView>>;
    /** The view of the NEW session. */
    fork(sessionId: string, nodeId: string, branch?: string): Promise<Envelope<PanelView>>;
    session(sessionId: string): Promise<Envelope<PanelView>>;
  };
  /**
   * Called after each change (local or from another tab), on
   * StorageEvents and on RestartedEvents; returns the unsubscribe function. Never throws: a fn
   * that is not a function subscribes nothing (console.error says so) and
   * its unsubscribe does nothing; a subscriber that throws is logged.
   */
  subscribe(fn: (event: ChangeEvent | StorageEvent | RestartedEvent) => void): () => void;
  /**
   * Usage, quota and persistence of the site's storage. With
   * {requestPersist: true} it first asks navigator.storage.persist(),
   * waiting at most 3,000 ms for the answer (Firefox answers only once the
   * user has answered its permission prompt; persisted is then what the
   * browser holds now).
   * Never rejects: options that are not an object are taken as {}; a store
   * whose worker failed answers state "closed" with the error as reason.
   */
  storage(options?: { requestPersist?: boolean }): Promise<StorageInfo>;
  /** Take in now what other tabs stored (it also happens by itself on their BroadcastChannel message); never rejects. */
  refresh(): Promise<void>;
  /**
   * Keep the current snapshot as a named restore point; the name defaults
   * to the current time (ISO 8601). One point per name: a restore point of
   * the same name is replaced, without asking (listSnapshots first to ask,
   * as the explorer does). Never rejects: a
   * sessionId that is not a non-empty string, or a name that is not one
   * of at most 1000 characters without control characters or lone
   * surrogates (a title's rule), is INVALID_ARGUMENT
   * naming it; after close(), or when IndexedDB fails (quota), it is
   * STORAGE_ERROR with the browser's reason (`name: message`).
   */
  saveSnapshot(sessionId: string, name?: string): Promise<Envelope<SnapshotInfo>>;
  /**
   * A session's restore points, oldest first. Never rejects: a sessionId
   * that is not a non-empty string is INVALID_ARGUMENT; after close(), or
   * when IndexedDB fails, STORAGE_ERROR with the browser's reason.
   */
  listSnapshots(sessionId: string): Promise<Envelope<SnapshotInfo[]>>;
  /**
   * Bring a restore point back (NOT_FOUND for an unknown name). Never
   * rejects: bad arguments are INVALID_ARGUMENT naming them; after
   * close(), or when IndexedDB fails, STORAGE_ERROR with the reason.
   */
  restoreSnapshot(sessionId: string, name: string): Promise<Envelope<SessionStatus>>;
  /** Resolves when every write started so far is committed; never rejects. */
  flush(): Promise<void>;
  /**
   * Let go of the hold of one init() that resolved to this tree (init() of
   * the same dbName resolves to the same shared tree, and each call holds
   * it); with the last hold, close the IndexedDB connection once the
   * calls made before close() are stored (they answer as if it had not
   * been called; an import, or a snapshot file being read, too: the tree
   * closes once it is stored, and in the worker an init() of the same
   * dbName made meanwhile waits for that, as long as the import takes):
   * later mutating calls, and the restore point helpers,
   * resolve to STORAGE_ERROR "the tree was closed"; reads keep answering
   * from memory (a session paged out of it, not read since the page loaded
   * or left under pageBudget, answers STORAGE_ERROR: nothing is read from
   * IndexedDB after close).
   * So a component may close what it opened (React's StrictMode runs an
   * effect and its cleanup twice) without closing the tree under another.
   * With persist: false there is nothing to close and every call keeps
   * answering. Never throws; call it once per init().
   */
  close(): void;
}

/**
 * The class of every tree init() resolves to (in either thread), for
 * `instanceof`; obtain trees from init(), never with `new`.
 */
export const SessionTree: abstract new (...args: never[]) => SessionTree;

/**
 * Start sessiontree; see InitOptions. With the store in its worker and
 * persisted (the default) it resolves once the stored sessions' records
 * are read (by the page itself while the worker starts, or by the worker),
 * before the wasm is fetched, compiled and started:
 * `call({operation: "sessions"})` answers at once from those records,
 * every other call waits for the wasm and answers in the order made (a
 * start that then fails, a missing wasm included, closes the tree:
 * StorageEvent reason "failed", the message naming the cause; the
 * package's own worker failing to load runs the store in the page's
 * thread instead). Rejects if IndexedDB cannot be read, or if the worker
 * cannot start or the wasm cannot be fetched (the message names the HTTP
 * status) before it answers, as with no session stored yet (a first visit). A second init() with the same dbName resolves
 * to the same tree, and holds it until its own close() (SessionTree.close).
 */
export function init(options?: InitOptions): Promise<SessionTree>;

/** The code of the envelope a call resolves to when its change could not be stored. */
export const STORAGE_ERROR: "STORAGE_ERROR";
