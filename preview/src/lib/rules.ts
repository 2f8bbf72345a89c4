/**
 * Rule firings from the runtime's `rule` monitor events (docs/runtime.md):
 * per firing, `state: "triggered"`, then either `skipped` / `failed` /
 * `timed out` with the `condition` index that stopped it, or `fired`; then,
 * per action, `action` (index), `actionType` and `outcome` (done, failed,
 * timed out). Events carry no firing id, so they are matched to firings:
 * a condition verdict to the latest open firing of that rule and event, an
 * action outcome to the earliest fired firing still missing that action.
 *
 * With the rule's definition (read from the bundle's config) each condition
 * gets its result: those before the stopping one passed, the stopping one
 * failed, those after were not evaluated.
 */
import { actionConsent, type RuleSpec } from "./bundle-config";
import { brief, type Obj } from "./json";
import type { Entry, MonitorEvent } from "./protocol";

export type ConditionResult = "passed" | "failed" | "error" | "timed out" | "not evaluated" | "pending";
export type ActionOutcome = "done" | "failed" | "timed out" | "pending" | "not run";

export interface FiringCondition {
  index: number;
  summary: string;
  spec?: Obj;
  result: ConditionResult;
}

export interface FiringAction {
  index: number;
  type: string;
  summary: string;
  spec?: Obj;
  outcome: ActionOutcome;
  /** Date.now() when the outcome came. */
  at?: number;
  /** The consent category the action waits for (loadScript, pixel; performance for analytics). */
  consent?: string;
}

export interface RuleFiring {
  /** Unique within the session. */
  id: string;
  rule: string;
  name?: string;
  /** The event type that triggered it (libraryLoaded, click, dataLayerPush, …). */
  event: string;
  page: number;
  at: number;
  state: "triggered" | "fired" | "skipped" | "failed" | "timed out";
  /** The condition that stopped it. */
  stoppedAt?: number;
  conditions: FiringCondition[];
  actions: FiringAction[];
  /** Monitor events matched to this firing, in order (the raw facts). */
  events: MonitorEvent[];
}

const STOP_STATES = new Set(["skipped", "failed", "timed out"]);

export function groupRuleFirings(entries: readonly Entry[], rules: readonly RuleSpec[] = []): RuleFiring[] {
  const specs = new Map(rules.map((r) => [r.id, r]));
  const firings: RuleFiring[] = [];
  const open = new Map<string, RuleFiring[]>();
  let counter = 0;

  function start(page: number, atMs: number, e: MonitorEvent): RuleFiring {
    const rule = String(e.rule ?? "?");
    const spec = specs.get(rule);
    const firing: RuleFiring = {
      id: `${rule}#${++counter}`,
      rule,
      name: typeof e.name === "string" ? e.name : spec?.name,
      event: String(e.event ?? "?"),
      page,
      at: atMs,
      state: "triggered",
      conditions: (spec?.conditions ?? []).map((c, index) => ({ index, summary: conditionSummary(c), spec: c, result: "pending" })),
      actions: (spec?.actions ?? []).map((a, index) => ({
        index,
        type: String(a.type ?? "?"),
        summary: actionSummary(a),
        spec: a,
        outcome: "pending",
        consent: actionConsent(a),
      })),
      events: [],
    };
    firings.push(firing);
    const key = keyOf(page, firing.rule, firing.event);
    open.set(key, [...(open.get(key) ?? []), firing]);
    return firing;
  }

  for (const entry of entries) {
    if (entry.kind !== "monitor" || entry.event.type !== "rule") continue;
    const e = entry.event;
    const key = keyOf(entry.page, String(e.rule ?? "?"), String(e.event ?? "?"));
    const list = open.get(key) ?? [];
    if (e.state === "triggered") {
      start(entry.page, entry.at, e).events.push(e);
    } else if (typeof e.state === "string") {
      const firing = [...list].reverse().find((f) => f.state === "triggered") ?? start(entry.page, entry.at, e);
      firing.events.push(e);
      const index = typeof e.condition === "number" ? e.condition : undefined;
      if (e.state === "fired") firing.state = "fired";
      else if (STOP_STATES.has(e.state)) {
        firing.state = e.state as RuleFiring["state"];
        firing.stoppedAt = index;
      }
    } else if (typeof e.action === "number") {
      const i = e.action;
      const firing =
        list.find((f) => f.state === "fired" && (!f.actions[i] || f.actions[i].outcome === "pending")) ??
        [...list].reverse().find((f) => f.state === "fired") ??
        start(entry.page, entry.at, { ...e, state: "fired" });
      if (firing.state === "triggered") firing.state = "fired";
      firing.events.push(e);
      while (firing.actions.length <= i)
        firing.actions.push({ index: firing.actions.length, type: "?", summary: "(not in the bundle's config)", outcome: "pending" });
      const action = firing.actions[i];
      if (typeof e.actionType === "string" && action.type === "?") action.type = e.actionType;
      action.outcome = (["done", "failed", "timed out"].includes(String(e.outcome)) ? e.outcome : "failed") as ActionOutcome;
      action.at = entry.at;
    }
  }

  for (const f of firings) finish(f);
  return firings;
}

function keyOf(page: number, rule: string, event: string): string {
  return `${page}\u0000${rule}\u0000${event}`;
}

/** Condition results and "not run" actions from the firing's state. */
function finish(f: RuleFiring): void {
  if (f.state === "fired") for (const c of f.conditions) c.result = "passed";
  else if (f.state !== "triggered") {
    const stop = f.stoppedAt ?? -1;
    for (const c of f.conditions)
      c.result =
        c.index < stop ? "passed" : c.index > stop ? "not evaluated" : f.state === "skipped" ? "failed" : f.state === "timed out" ? "timed out" : "error";
    for (const a of f.actions) a.outcome = "not run";
  }
  // A wait-before-next action that did not finish well stops the rest of its rule.
  let stopped = false;
  for (const a of f.actions) {
    if (stopped && a.outcome === "pending") a.outcome = "not run";
    if (a.spec?.waitBeforeNext === true && (a.outcome === "failed" || a.outcome === "timed out")) stopped = true;
  }
}

/** One line for a condition of docs/rules.md (unknown types as JSON). */
export function conditionSummary(c: Obj): string {
  const op = (x: Obj) =>
    x.exists !== undefined
      ? x.exists
        ? "exists"
        : "does not exist"
      : x.equals !== undefined
        ? `equals ${JSON.stringify(x.equals)}`
        : x.matches !== undefined
          ? `matches /${String(x.matches)}/`
          : x.startsWith !== undefined
            ? `starts with ${JSON.stringify(x.startsWith)}`
            : x.gt !== undefined
              ? `> ${String(x.gt)}`
              : x.lt !== undefined
                ? `< ${String(x.lt)}`
                : "";
  switch (c.type) {
    case "host":
    case "path":
      return `${c.type} ${op(c)}`;
    case "query":
    case "cookie":
    case "dataElement":
      return `${c.type} ${String(c.name)} ${op(c)}`.trim();
    case "consent":
      return `consent ${String(c.category)} given`;
    case "sampling":
      return `sampling ${String(c.percent)}%`;
    case "loggedIn":
      return c.value === false ? "not logged in" : "logged in";
    case "env":
      return `env in ${Array.isArray(c.in) ? c.in.join(", ") : String(c.in)}`;
    case "not":
      return `not (${conditionSummary((c.condition as Obj) ?? {})})`;
    case "allOf":
    case "anyOf":
      return `${c.type === "allOf" ? "all of" : "any of"} (${(Array.isArray(c.conditions) ? (c.conditions as Obj[]) : []).map(conditionSummary).join("; ")})`;
    default:
      return brief(c);
  }
}

/** One line for an action of docs/rules.md (unknown types as JSON). */
export function actionSummary(a: Obj): string {
  const vars = (v: unknown) => (v && typeof v === "object" ? ` ${brief(v, 80)}` : "");
  switch (a.type) {
    case "sendPageView":
      return `page view${a.name ? ` "${String(a.name)}"` : ""}${vars(a.variables)}`;
    case "sendEvent":
      return `event "${String(a.name)}" (${String(a.eventType)})${vars(a.variables)}`;
    case "setVariables":
      return `set${vars(a.variables)}`;
    case "loadScript":
      return `script ${String(a.src)} (consent ${String(a.consent)})`;
    case "pixel":
      return `${String(a.kind ?? "image")} pixel ${String(a.src)} (consent ${String(a.consent)})`;
    case "pushDataLayer":
      return `push ${brief(a.data, 80)}`;
    case "command":
      return `command ${String(a.module)}.${String(a.name)}`;
    default:
      return brief(a);
  }
}

/** Counts for the panel header. */
export function firingCounts(firings: ReadonlyArray<Pick<RuleFiring, "state">>): Record<RuleFiring["state"], number> {
  const out = { triggered: 0, fired: 0, skipped: 0, failed: 0, "timed out": 0 };
  for (const f of firings) out[f.state]++;
  return out;
}
