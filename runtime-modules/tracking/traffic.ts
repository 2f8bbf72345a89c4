import type { ConsentGate, Cookies } from "../core/types";
import {
  DAY_MS,
  decodeHistory,
  encodeHistory,
  GVO_COOKIE,
  historyChanged,
  readTouch,
  recordTouch,
  shouldReadTouch,
  TBM_COOKIE,
  TBM_SECONDS,
  tbmValue,
  trafficFields,
  valueOnce,
  type TrafficHistory,
  type TrafficRules,
} from "../analytics/traffic-source";
import type { AnalyticsVariables } from "../../generator/config/schemas/variables.js";

/**
 * The traffic-source history cookies (names: placeholders to confirm): the
 * session cookie (no expiry) and the lifetime cookie (historyDays, written
 * only with performance consent). Both hold the same JSON (encodeHistory).
 */
export const HISTORY_COOKIE = "kiwi_ts";
export const LIFETIME_COOKIE = "kiwi_ts_lt";

export interface TrafficDeps {
  cookies: Cookies;
  consent: Pick<ConsentGate, "whenAllowed">;
  rules: TrafficRules & { historyDays: number };
  apexDomain: string;
  /** The variable numbers (analyticsVariables.traffic in sites/_org.yaml). */
  names: AnalyticsVariables["traffic"];
}

/**
 * The lifetime cookie ("lifetime cookie (only with performance consent, 60
 * days)"), once performance consent allows it: the history's JSON, expiring
 * historyDays after its latest recorded touch, as the history does ("history
 * expires after 60 days"). Written whenever a touch is recorded: by a page
 * view and by the trafficTouch action (rules/actions.ts).
 */
export function keepLifetime(cookies: Cookies, consent: Pick<ConsentGate, "whenAllowed">, h: TrafficHistory, historyDays: number, now: number): void {
  const json = encodeHistory(h);
  consent.whenAllowed("performance", () =>
    cookies.set(LIFETIME_COOKIE, json, { maxAgeSeconds: Math.max(1, Math.round((h.t + historyDays * DAY_MS - now) / 1000)) }),
  );
}

/**
 * The traffic source of a page view (spec sections 3, 4, 7, 9): reads the
 * tracking-code parameters, the referrer and the cookies, reduces the history
 * (analytics/traffic-source.ts), writes the session cookie, s_tbm (1800 s,
 * sliding), s_gvo_cm (when the campaign is new) and, once performance consent
 * allows it, the lifetime cookie; returns the fields as analytics variables
 * (the catalogue's numbers, deps.names). The campaign variable is value-once (s_gvo_cm).
 */
export function trafficVariables(url: string, referrer: string, now: number, deps: TrafficDeps): Record<string, string> {
  const { cookies, rules } = deps;
  // Every read before the first write: a write drops the cookie jar's snapshot,
  // and each read after it would be another round trip to the browser.
  const stored = cookies.get(HISTORY_COOKIE);
  const lifetime = cookies.get(LIFETIME_COOKIE);
  const tbm = cookies.get(TBM_COOKIE);
  const gvo = cookies.get(GVO_COOKIE);
  const prev = decodeHistory(stored || lifetime);
  const touch = shouldReadTouch(tbm, url, rules.trackingParams) ? readTouch({ url, referrer, apexDomain: deps.apexDomain }, rules) : undefined;
  const next = recordTouch(prev, touch, now, rules.historyDays);
  const json = encodeHistory(next);
  const changed = !stored || historyChanged(prev, next);
  if (changed) cookies.set(HISTORY_COOKIE, json);
  if (next.latest && (changed || !lifetime)) keepLifetime(cookies, deps.consent, next, rules.historyDays, now);
  cookies.set(TBM_COOKIE, tbmValue(next), { maxAgeSeconds: TBM_SECONDS });
  const once = valueOnce(touch && touch.campaign, gvo);
  if (once.write) cookies.set(GVO_COOKIE, once.value);

  const fields = trafficFields(touch, next);
  const vars: Record<string, string> = {};
  const names = deps.names as Record<string, string>;
  for (const key of Object.keys(names)) {
    const value = key === "campaign" ? once.value : (fields as unknown as Record<string, unknown>)[key];
    if (typeof value === "string" && value) vars[names[key]] = value;
  }
  return vars;
}
