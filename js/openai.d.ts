// Type declarations for js/openai.js (sessiontree/openai), hand-written;
// keep in step with the module (and js/openai-wire.js).

import type { Envelope, ErrorCode, Message, Node } from "./sessiontree.js";

/** Default number of retries of a request that failed before any delta arrived (2). */
export const DEFAULT_RETRIES: number;
/** Default first backoff before a retry, ms (500; doubled each retry). */
export const DEFAULT_RETRY_DELAY: number;
/** Longest wait before a retry, ms (8000), Retry-After included. */
export const MAX_RETRY_DELAY: number;
/** HTTP statuses that are retried: 408, 409, 425, 429, 500, 502, 503, 504. */
export const RETRY_STATUSES: readonly number[];

/** Where and how to ask: any OpenAI-compatible Chat Completions endpoint. */
export interface ChatSettings {
  /** As the OpenAI SDKs take it, e.g. "http://localhost:11434/v1" (…/chat/completions is added unless there). */
  baseURL: string;
  model: string;
  /** Sent as "Authorization: Bearer …" when set. */
  apiKey?: string;
  /** More request headers. */
  headers?: Record<string, string>;
  /** A fetch to use instead of globalThis.fetch (called unbound). */
  fetch?: typeof fetch;
  /** More request fields (temperature, max_tokens, …); never replace model, messages or stream. */
  body?: Record<string, unknown>;
}

/** One piece of a streamed reply, and everything so far. */
export interface ChatDelta {
  /** This piece's text ("" when it carried only reasoning or a tool call). */
  content: string;
  /** This piece's reasoning (reasoning_content or reasoning of the delta). */
  reasoning: string;
  /** All text so far. */
  text: string;
  /** All reasoning so far. */
  reasoningText: string;
  /** The tool calls so far, their arguments as streamed up to now. */
  toolCalls: ToolCall[];
}

export interface ToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

export interface ChatOptions {
  /** Aborts the request or the stream; nothing is appended after an abort. */
  signal?: AbortSignal;
  /** Each piece as it arrives. A throw fails the reply (INVALID_ARGUMENT), nothing appended. */
  onDelta?: (delta: ChatDelta) => void;
  /** Before each retry: the attempt that failed (1-based), the wait in ms and its error. */
  onRetry?: (retry: { attempt: number; delay: number; error: ChatError }) => void;
  /** 0–10, default DEFAULT_RETRIES; only before any delta was handed to onDelta. */
  retries?: number;
  /** ms ≥ 0, default DEFAULT_RETRY_DELAY; the k-th retry waits retryDelay·2^(k−1), at most MAX_RETRY_DELAY. */
  retryDelay?: number;
}

/**
 * The adapter's codes beside the tree's: ABORTED (the signal), HTTP_ERROR
 * (a non-2xx status, or an error object in the stream), NETWORK_ERROR
 * (unreachable; the stream broke or ended before [DONE]), BAD_RESPONSE (an
 * event whose data is not a JSON object, a JSON answer with no choices).
 */
export type ChatErrorCode = ErrorCode | "ABORTED" | "HTTP_ERROR" | "NETWORK_ERROR" | "BAD_RESPONSE" | "COMPLETION_ERROR";

/**
 * One piece an app's completion function yields: text, a delta
 * {content?, reasoning_content?, reasoning?, tool_calls?}, or a whole Chat
 * Completions chunk ({choices: […]}, as the OpenAI SDKs' streams yield).
 */
export type CompletionPiece = string | { content?: string | null; reasoning_content?: string; reasoning?: string; tool_calls?: unknown[] } | { choices: unknown[]; model?: string; usage?: Record<string, unknown> };

/**
 * The app's own completion function, in place of ChatSettings: it gets the
 * Chat Completions messages and the signal, and resolves to the reply
 * (text or a message {content, tool_calls?, reasoning_content?, model?})
 * or yields it in pieces (onDelta gets each). It throws or rejects to fail
 * (COMPLETION_ERROR; nothing appended); the adapter does not retry it.
 */
export type CompletionFunction = (
  messages: Record<string, unknown>[],
  options: { signal?: AbortSignal },
) => Promise<string | { content: string | null; tool_calls?: unknown[]; reasoning_content?: string; model?: string }> | AsyncIterable<CompletionPiece>;

export interface ChatError {
  code: ChatErrorCode;
  message: string;
  /** The HTTP status, for HTTP_ERROR. */
  status?: number;
  /** The text received before the failure (never stored). */
  partial?: string;
  /** Requests made. */
  attempts?: number;
}

/** What the adapter's calls resolve to; each kind names the other's member undefined, so it destructures under strict TypeScript (as Envelope). */
export type ChatEnvelope<T> = { ok: true; value: T; error?: undefined } | { ok: false; value?: undefined; error: ChatError };

/** A finished reply, before it is appended. */
export interface Completion {
  text: string;
  reasoning: string;
  toolCalls: ToolCall[];
  /** The last finish_reason the server sent ("stop", "length", "tool_calls", …), null when none. */
  finishReason: string | null;
  /** The model the server named, null when it named none. */
  model: string | null;
  /** The server's usage object, when it sent one. */
  usage: Record<string, unknown> | null;
  attempts: number;
}

/** A reply appended to the tree. */
export interface Reply extends Completion {
  /** The appended assistant node. */
  node: Node;
  /** Its message: {role: "assistant", content, tool_calls?, reasoning_content?, model}. */
  message: Message;
  /** What toChatMessages left out of the request. */
  warnings: string[];
}

/** What the adapter needs of a SessionTree. */
export interface TreeLike {
  call(request: object): Promise<Envelope>;
}

/** Our context messages as Chat Completions messages (the mapping: js/openai-wire.js's header). */
export function toChatMessages(messages: unknown[]): { messages: Record<string, unknown>[]; warnings: string[] };

/** The Chat Completions URL of a base URL; null when it is not an http(s) URL. */
export function chatCompletionsURL(baseURL: string): string | null;

/** An incremental text/event-stream parser (WHATWG rules). */
export class SSEParser {
  /** Comment lines seen. */
  comments: number;
  /** The events the next piece of text completes. */
  push(text: string): { event: string; data: string }[];
  /** The end of the stream: the last event, even without its blank line. */
  end(): { event: string; data: string }[];
}

/** Send messages with stream: true and read the reply; no tree involved. Never rejects. */
export function streamChatCompletion(settings: ChatSettings, messages: Record<string, unknown>[], options?: ChatOptions): Promise<ChatEnvelope<Completion>>;

/** Answer the session's context; append the finished reply under the node that was the cursor. Never rejects. */
export function reply(tree: TreeLike, sessionId: string, settings: ChatSettings | CompletionFunction, options?: ChatOptions): Promise<ChatEnvelope<Reply>>;

/** A new reply beside an old one (nodeId: the assistant reply, or the node to answer). Never rejects. */
export function regenerate(tree: TreeLike, sessionId: string, nodeId: string, settings: ChatSettings | CompletionFunction, options?: ChatOptions): Promise<ChatEnvelope<Reply>>;

/** A new message beside an old one (the edited message; a root's edit is a new root); no reply is asked for. Never rejects. */
export function edit(tree: TreeLike, sessionId: string, nodeId: string, content: string | Record<string, unknown>[]): Promise<ChatEnvelope<Node>>;
/** The edit, then its answer at once (as reply()); the value is reply()'s with `edited`, the new message's node. */
export function edit(tree: TreeLike, sessionId: string, nodeId: string, content: string | Record<string, unknown>[], settings: ChatSettings | CompletionFunction, options?: ChatOptions): Promise<ChatEnvelope<Reply & { edited: Node }>>;
