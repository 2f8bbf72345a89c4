/**
 * One story for Rules and Tags. The runtime reports each action's outcome
 * as the action saw it ("done" once sendPageView handed its event to the
 * Edge client, "timed out" when a pixel's load event did not come in
 * time), but QA asks what happened on the wire. So each action of a fired
 * rule is settled against the facts the other tabs read:
 *  - sendPageView / sendEvent: the beacon the runtime reported for it (same
 *    page, at or after the action, of its event type); none: "not sent";
 *  - pixel / loadScript: the tag row of that rule (computeTags, the same
 *    request the Tags tab shows): answered 2xx/3xx is "loaded", an error
 *    "failed", the consent gate's wait "waiting";
 *  - every %token% in a summary resolved: from the request the pixel
 *    really made, else from the data elements at the firing (the data
 *    layer's computed state, the triggering push, the page's address).
 * The runtime's own outcome stays in `reported`.
 */
import type { BeaconGroup } from "./beacons";
import type { PreviewConfig } from "./bundle-config";
import { at, isObject, str, type Obj } from "./json";
import { computedState, pushesOf } from "./data-layer";
import type { Entry } from "./protocol";
import { actionSummary, type FiringAction, type RuleFiring } from "./rules";
import type { TagRow } from "./tags";

export type Verdict = FiringAction["outcome"] | "loaded" | "not sent" | "sent" | "waiting";

export interface SettledAction extends Omit<FiringAction, "outcome"> {
  outcome: Verdict;
  /** The runtime's own outcome, when the verdict differs from it. */
  reported?: FiringAction["outcome"];
  /** What the verdict rests on ("beacon page view · 200", "GET https://… 200"). */
  evidence?: string;
}

export interface SettledFiring extends Omit<RuleFiring, "actions"> {
  actions: SettledAction[];
}

const PAGE_VIEW = "web.webpagedetails.pageViews";
const TOKEN = /%([A-Za-z0-9_.-]+)%/g;

/** The address of page load `page` (its latest page entry), or undefined when it has none or it does not parse. */
export function pageUrl(entries: readonly Entry[], page: Entry["page"]): URL | undefined {
  const entry = [...entries].reverse().find((e): e is Extract<Entry, { kind: "page" }> => e.kind === "page" && e.page === page);
  try {
    return entry ? new URL(entry.href) : undefined;
  } catch {
    return undefined;
  }
}

/** Values of data elements at a firing: the computed state before it, the push that triggered it, the page's address. */
export function dataElementValues(
  entries: readonly Entry[],
  firing: Pick<RuleFiring, "page" | "at" | "event">,
  config: PreviewConfig | undefined,
): (name: string) => string | undefined {
  const pushes = pushesOf(entries, firing.page).filter((p) => p.at <= firing.at);
  const state = computedState(pushes);
  const trigger = [...pushes].reverse().find((p) => p.event !== undefined);
  const url = pageUrl(entries, firing.page);
  return (name) => {
    const spec = config?.dataElements[name];
    if (!isObject(spec)) return undefined;
    let value: unknown;
    if (typeof spec.dataLayer === "string") value = at(state, spec.dataLayer);
    else if (typeof spec.push === "string") value = isObject(trigger?.push) ? at(trigger.push, spec.push) : undefined;
    else if (typeof spec.query === "string") value = url?.searchParams.get(spec.query) ?? undefined;
    else if (spec.page === "path") value = url?.pathname;
    else if (spec.page === "host") value = url?.hostname;
    else if (spec.provided === "site") value = config?.site.code;
    else if (spec.provided === "env") value = config?.env;
    if ((value === undefined || value === "") && spec.default !== undefined) value = spec.default;
    if (value === undefined || value === null || isObject(value)) return undefined;
    const text = String(value);
    return spec.lowercase === true ? text.toLowerCase() : text;
  };
}

/** A text with its %tokens% replaced; a token without a value reads ‹name: no value›. */
export function resolveTokens(text: string, value: (name: string) => string | undefined): string {
  return text.replace(TOKEN, (_, name: string) => value(name) ?? `‹${name}: no value›`);
}

function resolveSpec(spec: Obj | undefined, value: (name: string) => string | undefined): Obj {
  const walk = (v: unknown): unknown =>
    typeof v === "string"
      ? resolveTokens(v, value)
      : Array.isArray(v)
        ? v.map(walk)
        : isObject(v)
          ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]))
          : v;
  return (walk(spec ?? {}) as Obj) ?? {};
}

const okStatus = (s: number | undefined) => s !== undefined && s >= 200 && s < 400;

/** Settles every action of every firing against the beacons and tag rows (see above). */
export function settleFirings(
  firings: readonly RuleFiring[],
  entries: readonly Entry[],
  beacons: readonly BeaconGroup[],
  tags: readonly TagRow[],
  config: PreviewConfig | undefined,
): SettledFiring[] {
  const used = new Set<string>();
  return firings.map((f) => {
    const value = dataElementValues(entries, f, config);
    const actions = f.actions.map((a): SettledAction => {
      const resolved = resolveSpec(a.spec, value);
      const out: SettledAction = { ...a, summary: a.spec ? actionSummary(resolved) : a.summary };
      const settle = (verdict: Verdict, evidence?: string) => {
        if (verdict !== a.outcome) out.reported = a.outcome;
        out.outcome = verdict;
        out.evidence = evidence;
      };
      if (f.state !== "fired" || a.outcome === "not run") return out;
      if (a.type === "sendPageView" || a.type === "sendEvent") {
        const type = a.type === "sendPageView" ? PAGE_VIEW : str(a.spec?.eventType);
        const since = a.at ?? f.at;
        const beacon = beacons.find(
          (b) =>
            b.page === f.page && !used.has(b.key) && b.seenBy.monitor && b.at >= f.at - 5 && b.at <= since + 60_000 && (!type || b.decoded.eventType === type),
        );
        if (beacon) {
          used.add(beacon.key);
          const name = beacon.decoded.interaction?.name ?? beacon.decoded.pageName;
          if (a.type === "sendEvent" && name)
            out.summary = actionSummary({
              ...resolved,
              name,
              variables: Object.keys(beacon.decoded.variables).length ? beacon.decoded.variables : resolved.variables,
            });
          settle(
            beacon.status === "ok" ? "done" : beacon.status === "failed" ? "failed" : "sent",
            `beacon ${beacon.requestId ?? beacon.key}: ${beacon.status}`,
          );
        } else if (a.outcome === "done") settle("not sent", "no beacon reached the Edge client for it (analytics wait for performance consent)");
        return out;
      }
      if (a.type === "pixel" || a.type === "loadScript") {
        const row =
          tags.find((t) => t.page === f.page && t.rule === f.rule && t.requests.length > 0) ?? tags.find((t) => t.page === f.page && t.rule === f.rule);
        const request = row?.requests.find((r) => r.status !== undefined) ?? row?.requests[0];
        if (request) {
          out.summary = actionSummary({ ...resolved, src: request.url });
          if (request.status === undefined) settle("pending", `requested ${request.url}`);
          else settle(okStatus(request.status) ? "loaded" : "failed", `${request.url} answered ${request.status}`);
        } else if (row && (row.state === "waiting" || row.blocked)) settle(row.state === "waiting" ? "waiting" : a.outcome, row.reasonText);
      }
      return out;
    });
    return { ...f, actions };
  });
}
