import type { AnalyticsRules } from "../../generator/config/schemas/analytics.js";
import { CHANNELS, DIRECT, OTHER_CAMPAIGNS, REFERRING_DOMAINS, channelOf } from "./channels";
import { findDomain, hostOf, onDomain, own } from "./lookup";
import { safeUrl } from "./redact";
import { cut, squash } from "./web-text";

export type TrafficRules = Pick<AnalyticsRules, "trackingParams" | "emailParams" | "partnerDomains" | "searchEngines" | "internalDomains">;

/** Where the visitor came from: this page's address and the document's referrer. */
export interface TrafficInput {
  url: string;
  referrer: string;
  apexDomain: string;
}

/** One marketing touch: the traffic-source fields of this page view. */
export interface Touch {
  channel: string;
  campaign?: string;
  referrer?: string;
  referringDomain?: string;
  partner?: string;
  keywords?: string;
  emailMessage?: string;
  recipientId?: string;
  segmentId?: string;
}

/** The stored history (session cookie JSON): channels, campaigns, first and latest channel, time of the latest recorded touch. */
export interface TrafficHistory {
  channels: string[];
  campaigns: string[];
  first?: string;
  latest?: string;
  /** ms since the epoch; the history expires historyDays after it. */
  t: number;
}

/** Section 9: "traffic path delimiter ^, lists truncated to 100 characters"; "Not Avail". */
export const PATH_DELIMITER = "^";
export const PATH_LIMIT = 100;
export const NOT_AVAIL = "Not Avail";
/** Channel cookie, "channel cookie 1800 s", and the value-once cookie of the campaign. */
export const TBM_COOKIE = "s_tbm";
export const TBM_SECONDS = 1800;
export const GVO_COOKIE = "s_gvo_cm";
export const DAY_MS = 86400000;
/** Channel of a tracking code whose prefix is not in the channel table, by parameter (else Other Campaigns). Placeholder to confirm. */
export const TRACKING_FALLBACK: Readonly<Record<string, string>> = { sfmc_cid: "Email", s_kwcid: "Paid Search" };

/** A list entry: no delimiter inside, at most 100 characters. */
function entry(s: string): string {
  return cut(squash(s.split(PATH_DELIMITER).join("")), PATH_LIMIT);
}

/** The first tracking code in the address, by parameter priority: [parameter, code], or undefined. */
export function trackingCode(url: string, params: readonly string[]): [string, string] | undefined {
  // No query before the fragment: no parameter, and no URL to parse on a page load (issue #21).
  const query = url.indexOf("?");
  const hash = url.indexOf("#");
  if (query < 0 || (hash >= 0 && hash < query)) return undefined;
  let q: URLSearchParams;
  try {
    q = new URL(url).searchParams;
  } catch (e) {
    return undefined;
  }
  for (const p of params) {
    const v = entry(q.get(p) || "");
    if (v) return [p, v];
  }
  return undefined;
}

/**
 * This page view's touch, or undefined when it starts none (an internal
 * referrer and no tracking code). A tracking code (excmpid, sfmc_cid,
 * s_kwcid) gives the campaign and its channel (channelOf, else the
 * parameter's fallback, else Other Campaigns). Without one: no referrer is
 * Direct; a partner domain Partner Sites; a search engine Organic Search
 * with its keywords (Not Avail when absent); any other referrer Referring
 * Domains. The referrer is sent redacted (safeUrl); one that may not be
 * sent at all (an at-sign left in its path) is still classified by its host.
 */
export function readTouch(input: TrafficInput, rules: TrafficRules): Touch | undefined {
  const code = trackingCode(input.url, rules.trackingParams);
  const ref = safeUrl(input.referrer.trim());
  // Classified by its host even when the address itself may not be sent (an at-sign in its path): a host holds none.
  const host = hostOf(input.referrer.trim());
  const internal = !!host && (host === hostOf(input.url) || onDomain(host, input.apexDomain) || !!findDomain(host, rules.internalDomains));
  if (!code && internal) return undefined;
  const t: Touch = { channel: DIRECT };
  if (host && !internal) {
    if (ref) t.referrer = ref;
    t.referringDomain = host.replace(/^www\./, "");
    const partner = findDomain(host, rules.partnerDomains);
    // The engine's own host (or www. + it), not every host below it: classroom.google.com and mail.yahoo.com are no search.
    const engine = rules.searchEngines.filter((e) => host === e.domain || host === "www." + e.domain)[0];
    if (partner) {
      t.partner = partner;
      t.channel = CHANNELS.pt;
    } else if (engine) {
      t.channel = CHANNELS.og;
      let k = "";
      try {
        k = new URL(ref).searchParams.get(engine.keywordParam) || "";
      } catch (e) {
        // No keywords then.
      }
      t.keywords = cut(squash(k).toLowerCase(), PATH_LIMIT) || NOT_AVAIL;
    } else t.channel = REFERRING_DOMAINS;
  }
  if (code) {
    t.campaign = code[1];
    t.channel = channelOf(code[1]) || own(TRACKING_FALLBACK, code[0]) || OTHER_CAMPAIGNS;
    const q = new URL(input.url).searchParams;
    const e = rules.emailParams;
    const set = (field: "emailMessage" | "recipientId" | "segmentId", param: string) => {
      const v = entry(q.get(param) || "");
      if (v) t[field] = v;
    };
    set("emailMessage", e.message);
    set("recipientId", e.recipient);
    set("segmentId", e.segment);
  }
  return t;
}

export function emptyHistory(): TrafficHistory {
  return { channels: [], campaigns: [], t: 0 };
}

/** Drops the oldest entries until the list joined with ^ is at most 100 characters. */
function fit(list: string[]): string[] {
  const l = list.slice();
  while (l.length > 1 && l.join(PATH_DELIMITER).length > PATH_LIMIT) l.shift();
  return l;
}

/**
 * The history after this page view (a pure reducer). "History expires
 * after 60 days" (historyDays after its latest recorded touch: then it
 * starts empty). No touch: unchanged. "A visit with a new campaign
 * different from the previous is recorded" (the previous campaign of the
 * list); a touch without campaign is recorded when its channel differs
 * from the latest; "direct visits do not overwrite an earlier non-direct
 * one" (Direct is recorded only into an empty history). Recording appends
 * the campaign, appends the channel unless it repeats the last one, sets
 * latest (and first when there was none) and the time; lists keep their
 * newest entries within 100 characters. Unchanged input is returned as is.
 */
export function recordTouch(history: TrafficHistory, touch: Touch | undefined, now: number, historyDays: number): TrafficHistory {
  const h = history.latest && now - history.t <= historyDays * DAY_MS ? history : emptyHistory();
  if (!touch) return h;
  const c = touch.campaign;
  const isNew = c ? c !== h.campaigns[h.campaigns.length - 1] : touch.channel === DIRECT ? !h.latest : touch.channel !== h.latest;
  if (!isNew) return h;
  const ch = entry(touch.channel);
  return {
    channels: fit(h.channels[h.channels.length - 1] === ch ? h.channels : h.channels.concat(ch)),
    campaigns: fit(c ? h.campaigns.concat(entry(c)) : h.campaigns),
    first: h.first || ch,
    latest: ch,
    t: now,
  };
}

/** The session cookie's JSON: these keys in this order, nothing else (a replacer list leaves the string lists whole). */
export function encodeHistory(h: TrafficHistory): string {
  return JSON.stringify(h, ["channels", "campaigns", "first", "latest", "t"]);
}

/** The history from the session cookie; anything malformed reads as empty. Entries are cleaned as on writing. */
export function decodeHistory(json: string | undefined): TrafficHistory {
  try {
    // No cookie (a first visit) reads as {}: JSON.parse("") would throw, and a thrown error costs main-thread time.
    const o = json ? JSON.parse(json) : {};
    const list = (a: unknown) => (Array.isArray(a) ? fit(a.filter((x) => typeof x === "string" && !!entry(x)).map(entry)) : []);
    const text = (s: unknown) => (typeof s === "string" && entry(s)) || undefined;
    const h: TrafficHistory = { channels: list(o.channels), campaigns: list(o.campaigns), t: typeof o.t === "number" && isFinite(o.t) ? o.t : 0 };
    const first = text(o.first);
    const latest = text(o.latest);
    if (first) h.first = first;
    if (latest) h.latest = latest;
    return h;
  } catch (e) {
    return emptyHistory();
  }
}

/** Whether the session cookie must be written (the reducer changed something, expiry included). */
export function historyChanged(prev: TrafficHistory, next: TrafficHistory): boolean {
  return encodeHistory(prev) !== encodeHistory(next);
}

/**
 * Whether this page view may start a touch: no s_tbm cookie (no page view
 * in the last 30 minutes: a new visit), or a tracking code in the address.
 */
export function shouldReadTouch(tbm: string | undefined, url: string, trackingParams: readonly string[]): boolean {
  return !tbm || !!trackingCode(url, trackingParams);
}

/** The s_tbm value: the visit's channel. Written on every tracked page view for 1800 s (a sliding 30 minutes). */
export function tbmValue(h: TrafficHistory): string {
  return h.latest || DIRECT;
}

/**
 * s_gvo_cm, value once: the campaign is sent only when it differs from the
 * stored one (else ""), and the cookie is written then (session cookie;
 * placeholder to confirm).
 */
export function valueOnce(value: string | undefined, stored: string | undefined): { value: string; write: boolean } {
  const fresh = !!value && value !== stored;
  return { value: fresh ? value! : "", write: fresh };
}

/** "Traffic source: campaign, channel, referrer, referring domain, partner, keywords, campaign path, email message, recipient and segment ids, first and latest channel." */
export interface TrafficFields extends Partial<Touch> {
  campaignPath: string;
  firstChannel?: string;
  latestChannel?: string;
}

/** The record's traffic-source fields from this page view's touch and the history after it. */
export function trafficFields(touch: Touch | undefined, h: TrafficHistory): TrafficFields {
  const f: TrafficFields = { ...touch, campaignPath: h.campaigns.join(PATH_DELIMITER) };
  if (h.first) f.firstChannel = h.first;
  if (h.latest) f.latestChannel = h.latest;
  return f;
}
