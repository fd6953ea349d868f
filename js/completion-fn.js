// The app's own completion function in the chat adapter (js/openai.js):
// reply, regenerate and edit take, in place of the settings of an
// OpenAI-compatible endpoint, a function
//
//   complete(messages, {signal}) → Promise<string | message> | AsyncIterable<piece>
//
// so an app keeps its own client (an SDK, a proxy, a local model). A
// piece is a string (text), a delta object {content?, reasoning_content?,
// reasoning?, tool_calls?}, or a whole Chat Completions chunk ({choices:
// […]}, what the OpenAI SDKs' streams yield); a message is
// {content, tool_calls?, reasoning_content?, model?}. What it gives is
// gathered as an endpoint's stream is (the adapter's Reply), so the
// appended node and the value are the same either way. No retries: the
// app's function owns them.


import { ERROR } from "./protocol.js";

/**
 * The chunk object of one piece (see the file's comment), or null when it
 * is none of the forms.
 * @param {unknown} piece
 * @returns {object|null}
 */
function chunkOf(piece) {
  if (typeof piece === "string") return { choices: [{ delta: { content: piece } }] };
  if (piece === null || typeof piece !== "object" || Array.isArray(piece)) return null;
  if (Array.isArray(piece.choices)) return piece;
  return { choices: [{ delta: piece }] };
}

/**
 * Run the app's completion function and gather its answer.
 * @param {(messages: object[], options: {signal?: AbortSignal}) => any} complete
 * @param {object[]} messages Chat Completions messages (toChatMessages)
 * @param {{signal?: AbortSignal, onDelta?: (d: object) => void}} opts onDelta must throw an Error with sessiontreeCallback for a throwing callback (js/openai.js stream)
 * @param {(onDelta?: (d: object) => void) => {take: (chunk: object) => void, text: string, value: (attempts: number) => object}} newReply the adapter's Reply
 * @returns {Promise<object>} `{ok: true, value: {text, reasoning, toolCalls, finishReason, model, usage, attempts: 1}}`, or an error
 *   envelope: ABORTED (the signal), COMPLETION_ERROR (the function threw or its promise or iterator rejected; the message names
 *   the error), BAD_RESPONSE (it gave something that is not a string, a message or an iterable of pieces; or a piece that is
 *   none), INVALID_ARGUMENT (onDelta threw); `partial` is the text gathered before the failure. Never rejects.
 */
export async function runCompletion(complete, messages, opts, newReply) {
  const { signal } = opts;
  const aborted = (partial) => ({ ok: false, error: { code: "ABORTED", message: "the reply was aborted; nothing was appended", partial, attempts: 1 } });
  if (signal?.aborted) return aborted("");
  const reply = newReply(opts.onDelta);
  try {
    const out = complete(messages, { signal });
    if (out !== null && typeof out === "object" && typeof out[Symbol.asyncIterator] === "function") {
      for await (const piece of out) {
        if (signal?.aborted) return aborted(reply.text);
        const chunk = chunkOf(piece);
        if (chunk === null) return { ok: false, error: { code: "BAD_RESPONSE", message: "the completion function yielded a piece that is not a string, a delta object or a chunk; nothing was appended", partial: reply.text, attempts: 1 } };
        reply.take(chunk);
      }
    } else {
      const got = await out;
      if (typeof got === "string") reply.take({ choices: [{ message: { content: got } }] });
      else if (got !== null && typeof got === "object" && !Array.isArray(got)) reply.take({ model: got.model, choices: [{ message: got }] });
      else return { ok: false, error: { code: "BAD_RESPONSE", message: "the completion function must resolve to a string or a message {content, …}; nothing was appended", partial: "", attempts: 1 } };
    }
  } catch (err) {
    if (err?.sessiontreeCallback) return { ok: false, error: { code: ERROR.INVALID_ARGUMENT, message: `options.onDelta threw: ${err.cause?.message ?? err.cause}; nothing was appended`, partial: reply.text, attempts: 1 } };
    if (signal?.aborted) return aborted(reply.text);
    return { ok: false, error: { code: "COMPLETION_ERROR", message: `the completion function failed (${err?.name ?? "Error"}: ${err?.message ?? err}); nothing was appended`, partial: reply.text, attempts: 1 } };
  }
  if (signal?.aborted) return aborted(reply.text);
  return { ok: true, value: reply.value(1) };
}
