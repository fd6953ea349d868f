// Types for static/session-tree-panel.js — the <session-tree-panel> element.

import type { SessionTree } from "../js/sessiontree.js";

/**
 * Any of the panel's event details (SessionTreePanelEvents gives each
 * event's own): every member but sessionId optional.
 */
export interface PanelEventDetail {
  sessionId: string | null;
  /** The node acted on (null for a clone). */
  nodeId?: string | null;
  /** `branch`: the new branch's name; `append`: the branch the message went on. */
  branch?: string;
  /** `append`: the role chosen in the composer ("note": a custom entry, never in context). */
  role?: "user" | "assistant" | "note";
  /** `branch` with a summary: the id of the summary node. */
  summaryNodeId?: string;
  /** `fork`: the new session (fork or clone). */
  newSessionId?: string;
  /** `fork`: true when the whole session was cloned. */
  clone?: boolean;
  /** `copy`: the text put on the clipboard. */
  text?: string;
  /** `compare`: the two nodes compared. */
  from?: string;
  to?: string;
  /** `preview`: true when the context pane is back on the cursor's path (nodeId is then the cursor). */
  cursor?: boolean;
  /** `view`: the view the List / Map switch chose. */
  view?: "list" | "map";
  /** `family`: the member of the family chosen in the map's family strip (nodeId: where to open it, or null). */
  openSessionId?: string;
  /** `dropdown`: always true (the search dropdown opened). */
  open?: true;
}

/** What every event's detail holds: the session the panel shows (null: none). */
export interface PanelDetailBase {
  sessionId: string | null;
}

/** `jump`: the cursor moved to nodeId. */
export interface PanelJumpDetail extends PanelDetailBase { nodeId: string }
/** `preview`: the context pane shows the path to nodeId (null: an empty session); cursor: it is the cursor's path again. */
export interface PanelPreviewDetail extends PanelDetailBase { nodeId: string | null; cursor: boolean }
/** `select`: the highlighted row's node. */
export interface PanelSelectDetail extends PanelDetailBase { nodeId: string }
/** `branch`: the branch made at nodeId; summaryNodeId when made with a summary. */
export interface PanelBranchDetail extends PanelDetailBase { sessionId: string; nodeId: string; branch: string; summaryNodeId?: string }
/** `fork`: the new session; a fork of nodeId, or a clone (nodeId null, clone true). */
export interface PanelForkDetail extends PanelDetailBase { nodeId: string | null; newSessionId: string; clone?: true }
/** `compare`: the two nodes compared (nodeId is to). */
export interface PanelCompareDetail extends PanelDetailBase { nodeId: string; from: string; to: string }
/** `append`: the node the composer appended, its branch and the role chosen ("note": a custom entry, never in context). */
export interface PanelAppendDetail extends PanelDetailBase { sessionId: string; nodeId: string; branch: string; role: "user" | "assistant" | "note" }
/** `copy`: the copied message's node and the text put on the clipboard. */
export interface PanelCopyDetail extends PanelDetailBase { nodeId: string; text: string }
/** `view`: the view the List / Map switch chose. */
export interface PanelViewDetail extends PanelDetailBase { view: "list" | "map" }
/** `family`: the member of the family chosen in the map's family strip, and where to open it (null: its cursor). */
export interface PanelFamilyDetail extends PanelDetailBase { openSessionId: string; nodeId: string | null }
/** `dropdown`: the search dropdown opened. */
export interface PanelDropdownDetail extends PanelDetailBase { open: true }

/**
 * The panel's own events, each with its detail. "copy", "select" and
 * "close" share their names with DOM events of other types
 * (ClipboardEvent, Event), so the map below takes HTMLElementEventMap
 * without them. Every detail is also a PanelEventDetail.
 */
export interface SessionTreePanelEvents {
  /** After the cursor moved to detail.nodeId ("Continue from here", Shift+Enter). */
  jump: CustomEvent<PanelJumpDetail>;
  /**
   * When the context pane shows another path (a click or Enter on a row,
   * a sibling arrow, Escape): the path to detail.nodeId; the session's cursor does not move.
   */
  preview: CustomEvent<PanelPreviewDetail>;
  /** When the highlighted row changes (no store change). */
  select: CustomEvent<PanelSelectDetail>;
  /** After a branch was made (detail.branch). */
  branch: CustomEvent<PanelBranchDetail>;
  /** After a fork or clone (detail.newSessionId). */
  fork: CustomEvent<PanelForkDetail>;
  /** When a comparison of detail.from and detail.to shows in the context column. */
  compare: CustomEvent<PanelCompareDetail>;
  /** After the composer appended a message (detail.nodeId, detail.branch, detail.role). */
  append: CustomEvent<PanelAppendDetail>;
  /** After a message was copied. */
  copy: CustomEvent<PanelCopyDetail>;
  /** When the List / Map switch chose detail.view (a page may remember it). */
  view: CustomEvent<PanelViewDetail>;
  /** When a session of the family strip was chosen: the page opens detail.openSessionId at detail.nodeId (null: its cursor). */
  family: CustomEvent<PanelFamilyDetail>;
  /** When the search dropdown opens (a page closes its own dropdowns: one open at a time). */
  dropdown: CustomEvent<PanelDropdownDetail>;
  /** Overlay drawer opened / closed (also closed when the element leaves the page or its mode changes). */
  open: CustomEvent<PanelDetailBase>;
  close: CustomEvent<PanelDetailBase>;
}

/** Every event of the element: the DOM's and the panel's own. */
export interface SessionTreePanelEventMap extends Omit<HTMLElementEventMap, keyof SessionTreePanelEvents>, SessionTreePanelEvents {}

/** Height of one tree row in pixels where the stylesheet gives no other (40 on small screens). */
export declare const ROW_HEIGHT: number;

export declare class SessionTreePanel extends HTMLElement {
  /**
   * The store (the panel uses its call, subscribe and hasOperation); when
   * not set before connecting, the tree of the page's latest init() while
   * it is open (not closed, not failed), else the default one. Set before
   * the element is defined, it is taken when the element upgrades.
   */
  tree: SessionTree | null;
  /** Attribute session-id. */
  sessionId: string | null;
  /** Attribute mode: "panel" (fills its box) or "overlay" (toggle + drawer). */
  mode: "panel" | "overlay";
  /** Attribute theme: "light", "dark", or "" to follow prefers-color-scheme. */
  theme: "" | "light" | "dark";
  /**
   * Attribute pane: "tree" or "context" shows that column alone (a page's
   * one-pane-at-a-time layout on a small screen); "" shows both.
   */
  pane: "" | "tree" | "context";
  /**
   * Attribute view: "list" (the default) or "map" — the tree column shows the
   * session as a tidy tree on a canvas (clicks preview, Enter jumps: the same events).
   */
  view: "list" | "map";
  /** Attribute composer: a composer under the context appends messages at the cursor. */
  composer: boolean;
  /** Attribute row-click: what a click or Enter on a row does; "preview" (default) or "jump" (moves the cursor). */
  rowClick: "preview" | "jump";
  /** Show the cursor's path again and drop the "viewing" marker of a previewed row. */
  clearPreview(): void;
  /**
   * The highlighted node, or null. While it is the cursor's and no other
   * path is previewed, it follows the cursor when the app or another tab
   * moves it (no `select` event); a row the user highlighted stays.
   */
  readonly selectedNodeId: string | null;
  /** Whether the drawer is open (always true in panel mode). */
  readonly isOpen: boolean;
  /** Open the overlay drawer and focus the tree. */
  open(): void;
  /** Close the overlay drawer and give focus back. */
  close(): void;
  /** Highlight a node (unfolding what hides it) and scroll to it; false if unknown. */
  focusNode(id: string): boolean;
  /** Show the path to a node in the context pane without moving the cursor (null: the cursor's path); event `preview`. */
  previewNode(id: string | null): void;
  /** A title the head shows instead of the session's own; null shows the session's. */
  displayTitle: string | null;
  /** Show a short confirmation in the toast (in the head, never over a control; aria-live polite). */
  notify(text: string): void;
  /** Focus the search box over this session and select its text (what "/" does inside the panel). */
  focusSearch(): void;
  /** Close the search dropdown (the query and hits stay). */
  closeDropdowns(): void;
  /** Reload the session and redraw. */
  refresh(): Promise<void>;
  /** Resolves once a reload in progress is done (starts none). */
  readonly updateComplete: Promise<void>;
  /** Where the last full load spent its time, in ms. */
  readonly lastTimings?: { startedAt: number; tree: number; layout: number; context?: number };
  addEventListener<K extends keyof SessionTreePanelEventMap>(type: K, listener: (this: SessionTreePanel, ev: SessionTreePanelEventMap[K]) => unknown, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
  removeEventListener<K extends keyof SessionTreePanelEventMap>(type: K, listener: (this: SessionTreePanel, ev: SessionTreePanelEventMap[K]) => unknown, options?: boolean | EventListenerOptions): void;
  removeEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | EventListenerOptions): void;
}

/** One-line text of a Pi entry. */
export declare function describeEntry(entry: { kind: string; [field: string]: unknown }): string;
/** "14:05" today, else "YYYY-MM-DD 14:05" (local time). */
export declare function formatTime(iso: string): string;

declare global {
  interface HTMLElementTagNameMap {
    "session-tree-panel": SessionTreePanel;
  }
}
