// The explorer's session list by origin (issue 26): the tool a session was
// imported from and the project (working folder) it belongs to, as core's
// "sessions" answers them (tool, project), offered as two selects beside
// the text filter, each option with its count of sessions and their size
// in nodes: "All tools (12 · 4,180 nodes)", "Codex (5 · 3,402 nodes)", …;
// the projects are those of the tool chosen. The size is the sum of the
// sessions' nodeCount, which `sessions` answers from the stored meta
// records without reading a node (js/store/listing.js sessionsFromMetas);
// no byte size is stored per session. A third select chooses by last
// activity (static/session-dates.js). Shown only when there is something
// to choose between.

import { dateOptions, formatCount, inRange } from "./session-dates.js";
import { isolate } from "./node-text.js";

export { formatCount };

const $ = (id) => document.getElementById(id);

/** The name shown for each tool (an import format's name). */
export const TOOL_LABELS = {
  "claude-code": "Claude Code",
  codex: "Codex",
  gemini: "Gemini CLI",
  pi: "Pi",
  cline: "Cline / Roo Code",
  opencode: "OpenCode",
  aider: "Aider",
  lobechat: "LobeChat",
  chatgpt: "ChatGPT",
  claudeai: "Claude.ai",
  openwebui: "Open WebUI",
  librechat: "LibreChat",
  chatbotui: "Chatbot UI",
  sillytavern: "SillyTavern",
  openai: "OpenAI messages",
};

/** The key of sessions with no tool (made here, or from a snapshot) or no project. */
export const NONE = "";

/** The name shown for a tool key. */
export const toolLabel = (tool) => (tool === NONE ? "Made here" : (TOOL_LABELS[tool] ?? tool));

/**
 * A project as an option shows it: the path when short, else its last two
 * folders after "…/" (a select has no room for a long path). Pure.
 * @param {string} project
 */
export function projectLabel(project) {
  if (project === NONE) return "No project";
  if (project.length <= 32) return project;
  const parts = project.split("/").filter((p) => p !== "");
  return parts.length > 2 ? `…/${parts.slice(-2).join("/")}` : project;
}

/** The nodes of a session as `sessions` answers it (0 when it has no count). */
const nodesOf = (s) => (Number.isFinite(s.nodeCount) && s.nodeCount > 0 ? s.nodeCount : 0);

/**
 * Count sessions by key(session), and sum their nodes: one entry per key,
 * most sessions first, then by label. Pure.
 * @param {{nodeCount?: number}[]} sessions
 * @param {(s: object) => string} key
 * @param {(k: string) => string} label
 * @returns {{key: string, label: string, count: number, nodes: number}[]}
 */
export function countBy(sessions, key, label) {
  const groups = new Map();
  for (const s of sessions) {
    const k = key(s);
    let g = groups.get(k);
    if (g === undefined) groups.set(k, (g = { count: 0, nodes: 0 }));
    g.count++;
    g.nodes += nodesOf(s);
  }
  return [...groups].map(([k, { count, nodes }]) => ({ key: k, label: label(k), count, nodes })).sort((a, b) => b.count - a.count || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
}

/**
 * An option's text: its label, then its sessions and their nodes,
 * "Codex (12 · 3,402 nodes)". Pure.
 * @param {string} label
 * @param {number} count sessions
 * @param {number} nodes their nodes, summed
 */
export function optionText(label, count, nodes) {
  return `${label} (${formatCount(count)} · ${formatCount(nodes)} ${nodes === 1 ? "node" : "nodes"})`;
}

const toolOf = (s) => s.tool ?? NONE;
const projectOf = (s) => s.project ?? NONE;

/**
 * The sessions of a tool and project (null: any): sessions itself when
 * both are null, else a new list. Pure.
 * @param {{tool?: string, project?: string}[]} sessions
 * @param {{tool: string|null, project: string|null}} choice
 */
export function filterByOrigin(sessions, { tool, project }) {
  if (tool === null && project === null) return sessions; // not a copy: a list of 60,000 sessions is read again and again
  return sessions.filter((s) => (tool === null || toolOf(s) === tool) && (project === null || projectOf(s) === project));
}

/**
 * The options of the two selects for sessions and a choice: every tool
 * with its sessions and their nodes (optionText), and the projects of the
 * chosen tool (all of them for any tool) with theirs; the first option of
 * each is "All …" (value "*"), the sum of the others. Pure.
 * @param {{tool?: string, project?: string, nodeCount?: number}[]} sessions
 * @param {{tool: string|null, project: string|null}} choice
 * @returns {{tools: {value: string, text: string}[], projects: {value: string, text: string}[]}}
 */
export function originOptions(sessions, { tool }) {
  const tools = countBy(sessions, toolOf, toolLabel);
  const projects = countBy(filterByOrigin(sessions, { tool, project: null }), projectOf, projectLabel)
    .map((g) => (g.key === NONE ? g : { ...g, label: isolate(g.label) })); // a file's path: set apart from the counts
  const option = ({ key, label, count, nodes }) => ({ value: key, text: optionText(label, count, nodes) });
  const all = (label, groups) => ({ value: "*", text: optionText(label, groups.reduce((n, g) => n + g.count, 0), groups.reduce((n, g) => n + g.nodes, 0)) });
  return {
    tools: [all("All tools", tools), ...tools.map(option)],
    projects: [all("All projects", projects), ...projects.map(option)],
  };
}

/**
 * The three selects (#tool-filter, #project-filter, #date-filter in
 * #session-origin): update(sessions) fills them, apply(sessions) keeps the
 * sessions chosen, and onChange runs when the user picks another option.
 */
export class SessionFilter {
  /**
   * @param {() => void} onChange called after the choice changed
   * @param {() => number} [clock] now, in ms since the epoch
   */
  constructor(onChange, clock = Date.now) {
    /** @type {{tool: string|null, project: string|null, date: string|null}} */
    this.choice = { tool: null, project: null, date: null };
    /** The sessions of the last update. */
    this.sessions = [];
    this.clock = clock;
    for (const [id, field] of [["tool-filter", "tool"], ["project-filter", "project"], ["date-filter", "date"]]) {
      $(id).addEventListener("change", (e) => {
        this.choice[field] = e.target.value === "*" ? null : e.target.value;
        if (field === "tool") this.choice.project = null;
        if (field !== "date") this.update(this.sessions); // the projects offered are the tool's, the dates the project's
        onChange();
      });
    }
  }

  /**
   * Fill the selects for sessions (a choice no session has any more goes
   * back to "All"); the row shows only when there are two tools, two
   * projects or two date ranges to choose between.
   * @param {{tool?: string, project?: string, updatedAt?: string}[]} sessions
   */
  update(sessions) {
    this.sessions = sessions;
    if (this.choice.tool !== null && !sessions.some((s) => toolOf(s) === this.choice.tool)) this.choice.tool = null;
    if (this.choice.project !== null && filterByOrigin(sessions, this.choice).length === 0) this.choice.project = null;
    const { tools, projects } = originOptions(sessions, this.choice);
    const dates = dateOptions(filterByOrigin(sessions, this.choice), this.clock());
    if (!dates.some((o) => o.value === this.choice.date)) this.choice.date = null;
    fill($("tool-filter"), tools, this.choice.tool);
    fill($("project-filter"), projects, this.choice.project);
    fill($("date-filter"), dates, this.choice.date);
    $("date-filter").hidden = dates.length <= 1;
    $("session-origin").hidden = tools.length <= 2 && projects.length <= 2 && dates.length <= 1;
  }

  /** Choose every tool, project and date again ("All"). */
  clear() {
    this.choice = { tool: null, project: null, date: null };
    this.update(this.sessions);
  }

  /** The sessions of the choice. */
  apply(sessions) {
    const now = this.clock();
    const kept = filterByOrigin(sessions, this.choice);
    return this.choice.date === null ? kept : kept.filter((s) => inRange(s, this.choice.date, now));
  }
}

/** Replace a select's options, selecting value (null: the first, "*"). */
function fill(select, options, value) {
  select.replaceChildren(
    ...options.map((o) => {
      const opt = document.createElement("option");
      opt.value = o.value;
      opt.textContent = o.text;
      return opt;
    }),
  );
  select.value = value ?? "*";
}
