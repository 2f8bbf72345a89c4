import type { ConsentCategory, RuleAction } from "../../generator/config/bundle-config.js";
import type { Analytics, ConsentGate, Cookies, LoadScript, Logger } from "../core/types";
import type { Commands } from "../core/globals";
import type { DataElements } from "./data-elements";
import { atEarliestLifecycle } from "../core/lifecycle";
import { firePixel } from "../core/fire-pixel";
import { readTagStatus } from "../consent/tag-status";
import { STATUS_COOKIE, STATUS_PREFIX } from "../consent/create-consent";
import { decodeHistory, encodeHistory, recordTouch } from "../analytics/traffic-source";
import { HISTORY_COOKIE, keepLifetime, LIFETIME_COOKIE } from "../tracking/traffic";

export interface ActionContext {
  analytics: Analytics;
  consent: ConsentGate;
  loadScript: LoadScript;
  dataElements: DataElements;
  pushDataLayer(data: Record<string, unknown>): void;
  commands: Record<string, Commands>;
  doc: Document;
  /** The element of a click or element-exists event, when there is one. */
  element?: Element;
  /** The id of the rule running the action: the tag code of the tags it loads (cb-disable-{rule id}). */
  rule?: string;
  /** The action types the bundle carries (the generated entry's table; see ActionTable). */
  table: ActionTable;
  /** The bundle's cookies (on the apex domain): the trafficTouch action. */
  cookies?: Cookies;
  /** The runtime's logger (the log action). */
  log?: Logger;
}

/** A step still waiting for consent: its promise says so (`waitsForConsent()`), so that passing its limit is no timeout error. */
export type ConsentStep = Promise<unknown> & { waitsForConsent?: () => boolean };

/** Resolves once the tag has loaded, or at once when the gate blocks it for good; while it waits for consent, the step's timeout decides. */
function afterConsent(consent: ConsentGate, doc: Document, tag: string, category: ConsentCategory, run: () => Promise<unknown>): ConsentStep {
  let waiting = true;
  const step: ConsentStep = new Promise((resolve, reject) =>
    consent.whenTagAllowed(
      tag,
      category,
      // "Performance tags … load at extensions or page top; functional and program tags … and marketing tags … at DOM ready."
      () => ((waiting = false), atEarliestLifecycle(doc, category, () => void run().then(resolve, reject))),
      // Blocked for good (logged by the gate as a skipped tag): the action is done, not a timeout.
      () => resolve(undefined),
    ),
  );
  step.waitsForConsent = () => waiting;
  return step;
}

/**
 * A beacon is queued by the analytics client (for consent, for the visitor's
 * identity, for a retry): the step only waits for its delivery when the rule
 * asks it to (waitBeforeNext); else the step is done once it is handed over,
 * and a beacon waiting for consent is no "timeout error".
 */
function beacon(action: RuleAction, sent: Promise<unknown>): unknown {
  return action.waitBeforeNext ? sent : undefined;
}

/** An action's xdm: a value that is exactly one %token% keeps the data element's own value (an identity map, a number); other text is resolved. */
function xdmValues(value: unknown, de: DataElements): unknown {
  if (typeof value === "string") {
    const one = /^%([A-Za-z][A-Za-z0-9_.-]*)%$/.exec(value);
    return one ? de.get(one[1]) : de.resolve(value);
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) out[key] = xdmValues((value as Record<string, unknown>)[key], de);
  return out;
}

/** An action's analytics variables (text only, by the schema): each value resolved, without walking a nested value (issue #21). */
function variables(vars: Record<string, string>, de: DataElements): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key in vars) out[key] = de.resolve(vars[key]);
  return out;
}

/** An action of one type. */
export type ActionOf<K extends RuleAction["type"]> = RuleAction & { type: K };

/**
 * The action types a bundle carries, by type: the generated core entry
 * imports from this file only the functions its rules use (each exported under
 * its type's name), so an action no rule of the bundle uses is not in the
 * bundle (generator/bundle/features.ts). allRuleFeatures() (features.ts) has them all.
 */
export type ActionTable = { [K in RuleAction["type"]]?: (action: ActionOf<K>, ctx: ActionContext) => unknown };

/** Runs one action. Returns what the action is waiting for, if anything. A type the bundle does not carry throws (the engine logs it as the action's failure). */
export function runAction(action: RuleAction, ctx: ActionContext): unknown {
  const run = ctx.table[action.type] as ((a: RuleAction, x: ActionContext) => unknown) | undefined;
  if (!run) throw new Error("no action " + action.type);
  return run(action, ctx);
}

export function sendPageView(action: ActionOf<"sendPageView">, ctx: ActionContext): unknown {
  return beacon(
    action,
    ctx.analytics.pageView({
      name: action.name === undefined ? undefined : ctx.dataElements.resolve(action.name),
      variables: action.variables && variables(action.variables, ctx.dataElements),
    }),
  );
}
export function sendEvent(action: ActionOf<"sendEvent">, ctx: ActionContext): unknown {
  return beacon(
    action,
    ctx.analytics.event({
      name: ctx.dataElements.resolve(action.name),
      eventType: action.eventType,
      linkType: action.linkType,
      url: ctx.element && ctx.element.getAttribute("href") ? (ctx.element as HTMLAnchorElement).href : undefined,
      variables: action.variables && variables(action.variables, ctx.dataElements),
    }),
  );
}
export function setVariables(action: ActionOf<"setVariables">, ctx: ActionContext): unknown {
  return ctx.analytics.setVariables(variables(action.variables, ctx.dataElements), action.xdm && xdmValues(action.xdm, ctx.dataElements));
}
export function loadScript(action: ActionOf<"loadScript">, ctx: ActionContext): unknown {
  const de = ctx.dataElements;
  return afterConsent(ctx.consent, ctx.doc, ctx.rule ?? "rule", action.consent, () =>
    ctx.loadScript(de.resolve(action.src), { id: action.id && de.resolve(action.id), attributes: action.attributes && de.resolveDeep(action.attributes) }),
  );
}
export function pixel(action: ActionOf<"pixel">, ctx: ActionContext): unknown {
  return afterConsent(ctx.consent, ctx.doc, ctx.rule ?? "rule", action.consent, () => firePixel(ctx.doc, ctx.dataElements.resolve(action.src), action.kind));
}
export function pushDataLayer(action: ActionOf<"pushDataLayer">, ctx: ActionContext): unknown {
  return ctx.pushDataLayer(ctx.dataElements.resolveDeep(action.data));
}
export function command(action: ActionOf<"command">, ctx: ActionContext): unknown {
  const run = ctx.commands[action.module] && ctx.commands[action.module][action.name];
  if (!run) throw new Error("no command " + action.module + "." + action.name);
  return run(...ctx.dataElements.resolveDeep(action.args));
}
/**
 * A timer in session storage, across the pages of a visit (issue 18, career
 * quiz: "start records start time; completion records stop time and duration,
 * then resets both"; "timeToComplete in seconds (0 if not a number)"). Keys
 * sitetags:timer:NAME:start, :stop, :seconds, for sessionStorage data elements.
 * Storage that throws (blocked) is the engine's caught action failure.
 */
export function sessionTimer(action: ActionOf<"sessionTimer">, ctx: ActionContext): unknown {
  const store = ctx.doc.defaultView!.sessionStorage;
  const key = "sitetags:timer:" + action.name + ":";
  const now = Date.now();
  if (action.do === "stop") {
    const seconds = Math.round((now - Number(store.getItem(key + "start") || NaN)) / 1000);
    store.setItem(key + "stop", String(now));
    store.setItem(key + "seconds", String(seconds >= 0 ? seconds : 0));
    return;
  }
  for (const k of ["start", "stop", "seconds"]) store.removeItem(key + k);
  if (action.do === "start") store.setItem(key + "start", String(now));
  return;
}
/**
 * The tag-settings push (spec: "Tag status on a page: enabled or disabled";
 * "A stored status is reused unless a fresh evaluation is forced"; "status
 * defaults to enabled"): keeps the status where the consent gate's decide()
 * reads it (sessionStorage sitetags:tag:KEY, and the session cookie that says
 * one is kept), so the tag's later checks reuse it until ?cb-refresh. A
 * disabled status has the reason configuration. The rule's conditions check
 * the tag key and settings (its log action: 'required data missing').
 */
export function tagStatus(action: ActionOf<"tagStatus">, ctx: ActionContext): unknown {
  const tag = ctx.dataElements.resolve(action.tag);
  const status = readTagStatus({ status: ctx.dataElements.resolve(action.status) || undefined });
  if (!tag || !status) return;
  ctx.doc.defaultView!.sessionStorage.setItem(STATUS_PREFIX + tag, JSON.stringify(status));
  ctx.doc.cookie = STATUS_COOKIE + "=1; path=/";
  return;
}
/**
 * The traffic-source push (spec: "a visit with a new campaign different from
 * the previous is recorded; direct visits do not overwrite an earlier
 * non-direct one; history expires after 60 days"): the pushed touch recorded
 * into the history cookie the page views read (analytics/traffic-source.ts,
 * recordTouch), and into the lifetime cookie once performance consent allows
 * it, its 60 days counted from this touch (a later page view records no touch,
 * so it would not write it: the touch would be lost with the session cookie).
 */
export function trafficTouch(action: ActionOf<"trafficTouch">, ctx: ActionContext): unknown {
  const de = ctx.dataElements;
  const channel = de.resolve(action.channel);
  if (!channel || !ctx.cookies) return;
  const prev = decodeHistory(ctx.cookies.get(HISTORY_COOKIE) || ctx.cookies.get(LIFETIME_COOKIE));
  const now = Date.now();
  const next = recordTouch(prev, { channel, campaign: (action.campaign && de.resolve(action.campaign)) || undefined }, now, action.historyDays);
  if (next === prev) return;
  ctx.cookies.set(HISTORY_COOKIE, encodeHistory(next));
  if (next.latest) keepLifetime(ctx.cookies, ctx.consent, next, action.historyDays, now);
  return;
}
export function log(action: ActionOf<"log">, ctx: ActionContext): unknown {
  return ctx.log && ctx.log[action.level](action.message, { rule: ctx.rule });
}
