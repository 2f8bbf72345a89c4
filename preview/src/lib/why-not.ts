/**
 * Every rule of the bundle, not only those that fired: for each, one of
 *  - fired (how often);
 *  - a condition failed: which one, and the value it saw, as far as the
 *    preview can tell (data elements from the data layer and the triggering
 *    push, the page's address, the cookie jar, the consent groups);
 *  - waiting (triggered, its conditions not settled yet);
 *  - not listening to what happened: its events, and that none of them
 *    happened on the page;
 *  - off in this environment: the site's other environments' bundles have
 *    it, this one does not (disabledRules; the compiler drops the rule).
 * Computed from the bundle's inlined config and the runtime's monitor
 * events: no runtime byte is added to any bundle for it.
 */
import type { PreviewConfig, RuleSpec } from "./bundle-config";
import { parseJar } from "./cookies";
import { isObject, str, type Obj } from "./json";
import type { Entry } from "./protocol";
import { conditionSummary, type RuleFiring } from "./rules";
import { dataElementValues, pageUrl } from "./verdicts";

export type RuleVerdictState = "fired" | "condition failed" | "waiting" | "not listening" | "off in this environment";

export interface RuleVerdict {
  rule: string;
  name?: string;
  state: RuleVerdictState;
  /** One line: why. */
  detail: string;
  /** The failed condition, with the value it saw. */
  condition?: { index: number; summary: string; value?: string };
  /** What the rule listens to, in words. */
  listensTo: string[];
  firings: number;
}

/** A rule event in words: "data-layer push modal", "library loaded", "click on a[data-share]". */
export function eventWords(e: Obj): string {
  switch (e.type) {
    case "libraryLoaded":
      return "library loaded";
    case "dataLayerPush":
      return e.event ? `data-layer push "${String(e.event)}"` : "any data-layer push";
    case "click":
      return `click on ${String(e.selector ?? "?")}`;
    case "directCall":
      return `sitetags.track("${String(e.name ?? "?")}")`;
    default:
      return String(e.type ?? "?") + (e.event ? ` ${String(e.event)}` : "");
  }
}

/** The value a condition looked at, as far as the preview can read it; undefined when it cannot. */
export function conditionValue(
  c: Obj,
  firing: Pick<RuleFiring, "page" | "at" | "event">,
  entries: readonly Entry[],
  config: PreviewConfig | undefined,
): string | undefined {
  const url = pageUrl(entries, firing.page);
  const show = (v: string | null | undefined) => (v === undefined || v === null ? "(none)" : JSON.stringify(v));
  switch (c.type) {
    case "dataElement":
      return `${String(c.name)} = ${show(dataElementValues(entries, firing, config)(String(c.name)))}`;
    case "path":
      return `path = ${show(url?.pathname)}`;
    case "host":
      return `host = ${show(url?.hostname)}`;
    case "query":
      return `${String(c.name)} = ${show(url?.searchParams.get(String(c.name)))}`;
    case "cookie": {
      const snap = [...entries].reverse().find((e): e is Extract<Entry, { kind: "snapshot" }> => e.kind === "snapshot" && e.page === firing.page);
      return snap ? `${String(c.name)} = ${show(parseJar(snap.snapshot.cookies)[String(c.name)])}` : undefined;
    }
    case "env":
      return `env = ${show(config?.env)}`;
    case "consent": {
      const groups = [...entries]
        .reverse()
        .find((e): e is Extract<Entry, { kind: "consent" }> => e.kind === "consent" && e.page === firing.page && e.at <= firing.at + 5);
      return `active groups = ${show(groups?.groups ?? null)}`;
    }
    case "sampling":
      return `this visitor is outside the ${String(c.percent)}% sample`;
    default:
      return undefined;
  }
}

/** Every rule's verdict (see above). `offRules`: rules of the site's other environments that this bundle does not carry. */
export function ruleVerdicts(
  config: PreviewConfig | undefined,
  firings: readonly RuleFiring[],
  entries: readonly Entry[],
  offRules: readonly RuleSpec[] = [],
): RuleVerdict[] {
  const out: RuleVerdict[] = [];
  const happened = new Set<string>();
  for (const e of entries) if (e.kind === "monitor" && e.event.type === "dataLayer" && typeof e.event.event === "string") happened.add(e.event.event);
  for (const rule of config?.rules ?? []) {
    const mine = firings.filter((f) => f.rule === rule.id);
    const listensTo = rule.events.map(eventWords);
    const base = { rule: rule.id, name: rule.name, listensTo, firings: mine.length };
    const fired = mine.filter((f) => f.state === "fired");
    if (fired.length) {
      out.push({ ...base, state: "fired", detail: `fired ${fired.length}× (on ${[...new Set(fired.map((f) => f.event))].join(", ")})` });
      continue;
    }
    const stopped = [...mine].reverse().find((f) => f.state === "skipped" || f.state === "failed" || f.state === "timed out");
    if (stopped) {
      const index = stopped.stoppedAt ?? 0;
      const spec = rule.conditions[index];
      const summary = spec ? conditionSummary(spec) : `condition ${index}`;
      const value = spec ? conditionValue(spec, stopped, entries, config) : undefined;
      const how = stopped.state === "skipped" ? "failed" : stopped.state === "timed out" ? "timed out" : "threw";
      out.push({
        ...base,
        state: "condition failed",
        condition: { index, summary, value },
        detail: `on ${stopped.event}: condition ${index + 1} ${how}: ${summary}${value ? ` (${value})` : ""}`,
      });
      continue;
    }
    if (mine.length) {
      out.push({ ...base, state: "waiting", detail: `triggered on ${mine[0].event}; its conditions have not answered yet` });
      continue;
    }
    const pushes = rule.events
      .filter((e) => e.type === "dataLayerPush")
      .map((e) => str(e.event))
      .filter((x): x is string => !!x);
    const seen = [...happened].slice(0, 6).join(", ");
    out.push({
      ...base,
      state: "not listening",
      detail: `listens to ${listensTo.join(" or ") || "no event"}; ${pushes.length && !pushes.some((p) => happened.has(p)) ? `no such push on this page${seen ? ` (pushed: ${seen})` : ""}` : "that did not happen on this page"}`,
    });
  }
  const present = new Set((config?.rules ?? []).map((r) => r.id));
  const off = new Map<string, RuleSpec>();
  for (const r of offRules) if (!present.has(r.id) && !off.has(r.id)) off.set(r.id, r);
  for (const r of off.values())
    out.push({
      rule: r.id,
      name: r.name,
      state: "off in this environment",
      detail: `in the site's other environments' bundles, not in this one (disabledRules)`,
      listensTo: r.events.filter(isObject).map(eventWords),
      firings: 0,
    });
  return out;
}
