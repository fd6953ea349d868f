// The demo session the explorer opens with on a fresh machine: a short,
// realistic chat with several branches, built only through tree.call so it
// exercises the same API a chat frontend uses (append, jump, branch,
// branch.summary), in a memory-only tree, then stored with one
// snapshot.load.

import { init } from "../js/sessiontree.js";
import { envelopeValueText } from "../js/envelope.js";

/** Id of the demo session. */
export const DEMO_SESSION_ID = "demo";

/** The localStorage key set once the explorer made its demo session: made once a browser, not again after a person erased every session. */
export const DEMO_MADE_KEY = "sessiontree.explorer.demo";

/**
 * Whether the explorer made its demo session in this browser before (its
 * localStorage says so). False when localStorage cannot be read (a private
 * window, a policy): the demo is then made whenever the store is empty.
 * @returns {boolean}
 */
export function demoMadeBefore() {
  try {
    return localStorage.getItem(DEMO_MADE_KEY) !== null;
  } catch {
    return false;
  }
}

/** Remember that the explorer made its demo session (see demoMadeBefore); a refused write is left. */
export function rememberDemoMade() {
  try {
    localStorage.setItem(DEMO_MADE_KEY, new Date().toISOString());
  } catch {
    // Not remembered: the demo comes back whenever the store is empty.
  }
}

/**
 * Create the demo session `demo` unless it exists. The result is a chat
 * about planning a weekend in Lisbon with four branches:
 * `main` (the itinerary, cursor at its tip), `budget` (a branch made with
 * `branch` at the first answer, with an image part), `rainy-day` (made
 * with `branch.summary`) and an automatically named branch where the
 * assistant's second answer was regenerated (an append after a `jump` into
 * the middle of `main`).
 *
 * @param {{call: (request: object) => Promise<any>}} tree the shared tree
 * @param {string} [sessionId] the session to create (default `demo`)
 * @returns {Promise<boolean>} true when it created the session, false when it
 *   already existed
 * @throws {Error} when an operation fails for any other reason
 */
export async function createDemoSession(tree, sessionId = DEMO_SESSION_ID) {
  const exists = await tree.call({ operation: "session", sessionId });
  if (exists.ok) return false;
  // Built in a memory-only tree, then stored with one snapshot.load: one
  // IndexedDB transaction instead of one per call (start-up of an empty
  // explorer waited for 17 commits).
  const scratch = await init({ persist: false });
  try {
    await buildDemo(scratch, sessionId);
    const saved = await scratch.callText({ operation: "snapshot.save", sessionId });
    const snapshot = envelopeValueText(saved);
    if (snapshot === null) throw new Error(`demo session: snapshot.save failed: ${saved}`);
    const env = await tree.call(`{"operation":"snapshot.load","sessionId":${JSON.stringify(sessionId)},"snapshot":${snapshot}}`);
    if (!env.ok) throw new Error(`demo session: snapshot.load failed: ${env.error.code}: ${env.error.message}`);
  } finally {
    scratch.close();
  }
  return true;
}

/**
 * Make the demo session in `tree` through the same calls a chat frontend
 * makes.
 * @param {{call: (request: object) => Promise<any>}} tree
 * @param {string} sessionId
 * @returns {Promise<void>}
 */
async function buildDemo(tree, sessionId) {
  const call = async (request) => {
    const env = await tree.call({ sessionId, ...request });
    if (!env.ok) throw new Error(`demo session: ${request.operation} failed: ${env.error.code}: ${env.error.message}`);
    return env.value;
  };
  await call({ operation: "create", title: "Demo: a long weekend in Lisbon" });
  const say = (role, content, extra = {}) => call({ operation: "append", message: { role, content, ...extra } });

  await say("system", "You are a friendly travel planner. Keep answers short and practical.");
  await say("user", "I have a long weekend in Lisbon in May (Friday to Monday). What should I not miss?");
  const plan = await say(
    "assistant",
    "Three days is a good length. Friday: Alfama and the castle, then fado in the evening. " +
      "Saturday: Belém — the monastery, the tower and a pastel de nata at the old bakery. " +
      "Sunday: a day trip to Sintra (Pena Palace and Quinta da Regaleira). Monday morning: LX Factory before you fly.",
  );
  const ask = await say("user", "Sintra sounds rushed. Can you make Sunday more relaxed?");
  await say(
    "assistant",
    "Take the 9:10 train from Rossio, see only Quinta da Regaleira and the Moorish Castle walls, " +
      "and have a long lunch in the old town. Skip the Pena interiors; the gardens are the best part anyway.",
  );
  await say("user", "Perfect. Which neighbourhood should I stay in?");
  const tip = await say("assistant", "Stay in Baixa or Chiado: flat streets, the metro at the door and everything on foot.", { model: "demo-model-1" });

  // A branch at the first answer: a different follow-up question.
  await call({ operation: "branch", nodeId: plan.id, branch: "budget" });
  await say("user", [
    { type: "text", text: "What would this cost on a tight budget? This is the hostel I found:" },
    { type: "image_url", image_url: { url: "https://example.com/photos/hostel-room.jpg" } },
  ]);
  await say("assistant", "About €70 a day: €25 for a hostel bed, €20 for food, €10 for transport (a Viva Viagem card) and €15 for sights. That room looks like a fair deal for May.");

  // A branch with a summary of what came before it.
  await call({
    operation: "branch.summary",
    nodeId: plan.id,
    branch: "rainy-day",
    summary: "The user plans a Friday-to-Monday weekend in Lisbon; the assistant proposed Alfama, Belém and a Sintra day trip. Now planning for bad weather.",
  });
  await say("user", "The forecast says rain all weekend. What changes?");
  await say("assistant", "Swap Sintra for the Gulbenkian Museum and the Oceanário, keep Belém (the monastery is indoors) and book the fado dinner — it is better in the rain anyway.");

  // Regenerate the answer to the Sintra question: appending after a jump
  // into the middle of main opens an automatically named branch.
  await call({ operation: "jump", nodeId: ask.id });
  await say("assistant", "Go on Saturday instead and split it: Sintra in the morning, Cascais by the sea in the afternoon, back by train along the coast.");

  // Leave the cursor at the tip of main.
  await call({ operation: "jump", nodeId: tip.id });
}
