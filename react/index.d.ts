// Types for sessiontree/react (react/index.js): the hooks, and the JSX
// typing of <session-tree-panel> for React 18 and 19.

import type * as React from "react";
import type { Context, ErrorCode, InitOptions, Message, SessionSummary, SessionTree } from "../js/sessiontree.js";
import type { SessionTreePanel, SessionTreePanelEvents } from "../static/session-tree-panel.js";

/** An envelope's error, as the hooks hand it on. */
export interface HookError {
  code: ErrorCode;
  message: string;
}

/** useSessionTree's answer: null tree while init() runs; error when it rejected. */
export interface TreeState {
  tree: SessionTree | null;
  error: Error | null;
}

/** Give the hooks below a tree: `tree` as is, else init(options)'s (read once, on mount). */
export declare function SessionTreeProvider(props: { tree?: SessionTree; options?: InitOptions; children?: React.ReactNode }): React.ReactElement;

/** The page's tree: the nearest SessionTreeProvider's, else init(options)'s (shared per dbName). */
export declare function useSessionTree(options?: InitOptions): TreeState;

/**
 * Every session's summary, read again after each change. tree: the app's
 * own (null while it starts: nothing is read); omitted, the page's
 * (useSessionTree's). A hook given a tree, or null, starts no store.
 * query: the request's order and limit ({order: "updated", limit: 50}: the
 * newest 50, newest first); omitted, every session in creation order.
 */
export declare function useSessions(
  tree?: SessionTree | null,
  query?: { order?: "created" | "updated"; limit?: number },
): { sessions: SessionSummary[]; error: HookError | null; loading: boolean };

/**
 * The messages the model sees for a session (root → cursor) and its cursor,
 * read again after each change of that session. sessionId null: nothing read.
 * tree as for useSessions (given, or null, no store is started).
 */
export declare function useMessages(
  sessionId: string | null | undefined,
  tree?: SessionTree | null,
): { messages: Message[]; cursor: Context["cursor"]; error: HookError | null; loading: boolean };

/** Listen to a panel event through a ref (React 18; React 19 may use the `on<event>` props). */
export declare function usePanelEvent<K extends keyof SessionTreePanelEvents>(
  ref: React.RefObject<SessionTreePanel | null>,
  type: K,
  handler: (event: SessionTreePanelEvents[K]) => void,
): void;

/**
 * React 19 sets a custom element's known properties (`tree`) as properties
 * and listens to `on<event>` props by the event's exact name: `onjump`
 * listens to "jump". React 18 sets every prop as an attribute and ignores
 * these handlers: use usePanelEvent there.
 */
export type SessionTreePanelEventProps = {
  [K in keyof SessionTreePanelEvents as `on${K}`]?: (event: SessionTreePanelEvents[K]) => void;
};

/** The attributes of <session-tree-panel> (see docs/EMBED.md). */
export interface SessionTreePanelAttributes extends SessionTreePanelEventProps {
  "session-id"?: string | null;
  mode?: "panel" | "overlay";
  theme?: "" | "light" | "dark";
  pane?: "" | "tree" | "context";
  /** "list" (default) or "map": the tree column shows the session's rows or its map. */
  view?: "list" | "map";
  /** Present (true or "") to show the composer. */
  composer?: boolean | "";
  /** What a click on a row does: "preview" (default) or "jump" (moves the cursor: a branch switch). */
  "row-click"?: "preview" | "jump";
  /** The store (React 19 sets it as a property; in React 18 set it through a ref). */
  tree?: SessionTree | null;
}

/** Every prop <session-tree-panel> takes in JSX. */
export type SessionTreePanelProps = React.DetailedHTMLProps<React.HTMLAttributes<SessionTreePanel>, SessionTreePanel> & SessionTreePanelAttributes;

declare module "react" {
  namespace JSX {
    interface IntrinsicElements {
      "session-tree-panel": SessionTreePanelProps;
    }
  }
}

declare global {
  namespace JSX {
    interface IntrinsicElements {
      "session-tree-panel": SessionTreePanelProps;
    }
  }
}
