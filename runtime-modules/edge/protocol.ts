/**
 * The Edge Network wire format as pure functions (shared/edge-protocol.md):
 * URLs, default XDM, retry delays, response checks, cookies, consent hashes.
 * Everything here is byte-for-byte what @adobe/alloy 2.33.1 does, so that
 * datastreams, report suites and visitor identities carry on unchanged.
 */
import type { PageInfo } from "../core/types";
import { isObject } from "../core/is-object";
import { unsafeKey } from "../core/merge";

// Wire bodies are open-ended JSON: `any` keeps the protocol's builders readable; the page-facing entry points check shapes.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Obj = Record<string, any>;

/** Statuses retried with the same URL, body and requestId. */
export const RETRY_STATUSES = [429, 502, 503, 504];
/** Retries after the first attempt. */
export const MAX_RETRIES = 3;
/** meta.queueTimeMillis is clamped to 0–300000. */
export const MAX_QUEUE_MS = 300000;
/** The third-party identity host, used only when the config allows third-party cookies. */
export const DEMDEX = "adobedc.demdex.net";
export const BODY_TYPE = "text/plain; charset=UTF-8";

/** https://{host}/{basePath}[/{locationHint}]/v1/{action}?configId=…&requestId=… (query values not encoded). */
export function edgeUrl(host: string, basePath: string, locationHint: string | undefined, action: string, configId: string, requestId: string): string {
  return "https://" + host + "/" + basePath + (locationHint ? "/" + locationHint : "") + "/v1/" + action + "?configId=" + configId + "&requestId=" + requestId;
}

/** A copy without null, undefined, empty strings, empty arrays, empty objects and `enabled: true`; undefined when nothing is left. */
export function cleanOverrides(source: Obj | undefined): Obj | undefined {
  let out: Obj | undefined;
  for (const k of source ? Object.keys(source) : []) {
    if (unsafeKey(k)) continue;
    let v = source![k];
    if (isObject(v)) v = cleanOverrides(v);
    else if (v == null || v === "" || (Array.isArray(v) && !v.length) || (k === "enabled" && v === true) || typeof v === "function") v = undefined;
    if (v !== undefined) (out || (out = {}))[k] = v;
  }
  return out;
}

export function clampQueueTime(ms: number): number {
  return Math.min(Math.max(ms, 0), MAX_QUEUE_MS);
}

/**
 * Milliseconds before retry number retries + 1: the Retry-After header
 * (seconds, or an HTTP date minus now) when present, else
 * 1000 + 1000·retries with ±30 % uniform jitter.
 */
export function retryDelay(retryAfter: string | null | undefined, retries: number, random: () => number, now: number): number {
  if (retryAfter) {
    const seconds = parseInt(retryAfter, 10);
    return seconds === seconds ? seconds * 1000 : Math.max(0, new Date(retryAfter).getTime() - now) || 0;
  }
  return Math.round((1000 + 1000 * retries) * (0.7 + 0.6 * random()));
}

/** Undefined for a success (a 2xx whose JSON has a handle array, or a 204 without body), else the message to log. */
export function responseFailure(status: number, text: string, parsed: unknown): string | undefined {
  if (status > 199 && status < 300 && (parsed ? Array.isArray((parsed as Obj).handle) : status === 204)) return undefined;
  // core/messages.ts serverResponded's words, or alloy's for no body.
  return "The server responded with a status code " + status + (text ? " and response body: " + text : " and no response body.");
}

function pad(n: number): string {
  return ("0" + n).slice(-2);
}

/**
 * Local time with its offset, e.g. 2026-03-01T09:05:03.007+01:00 (alloy's
 * toISOStringLocal): the ISO text of the instant moved by the offset, so that
 * its UTC fields are the local ones.
 */
export function localTime(d: Date): string {
  const offset = d.getTimezoneOffset();
  const abs = Math.abs(offset);
  return new Date(d.getTime() - offset * 60000).toISOString().slice(0, -1) + (offset > 0 ? "-" : "+") + pad((abs / 60) | 0) + ":" + pad(abs % 60);
}

/** localStorage key of the cached IANA time zone. */
export const TIMEZONE_KEY = "sitetags:tz";

/** The part of the Temporal API ianaTimezone uses (no TypeScript lib declares it yet). */
export interface TemporalNow {
  Now?: { timeZoneId?: () => string };
}

/**
 * The IANA time zone. Temporal.Now.timeZoneId() where the browser has it
 * (Chromium does): the same answer without Intl. The first Intl call of a page
 * costs 20 to 60 ms of main thread (ICU start-up), so elsewhere Intl's answer
 * is kept in storage, valid while the offset and zone name that Date shows
 * ("GMT+0100 (Central European Standard Time)") stay the same.
 */
export function ianaTimezone(
  date: Date,
  storage: Storage | undefined | (() => Storage | undefined),
  temporal: TemporalNow | undefined = (globalThis as { Temporal?: TemporalNow }).Temporal,
): string {
  try {
    const zone = temporal?.Now?.timeZoneId?.();
    if (zone) return zone;
  } catch (e) {
    // A partial or broken Temporal: Intl below.
  }
  const key = date.toTimeString().slice(9) + "|";
  let cached: string | null = null;
  // Storage is asked for only now (a function): where Temporal answers, a first visit touches none (issue #21).
  if (typeof storage === "function") storage = storage();
  try {
    cached = storage ? storage.getItem(TIMEZONE_KEY) : null;
  } catch (e) {
    // Storage unreadable: cached stays null.
  }
  if (cached && !cached.indexOf(key)) return cached.slice(key.length);
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  try {
    if (storage) storage.setItem(TIMEZONE_KEY, key + zone);
  } catch (e) {
    // Storage full or blocked: Intl again next time.
  }
  return zone;
}

/** The XDM every event starts from (alloy's Context component: web, device, environment, placeContext, timestamp, implementationDetails). */
export function contextXdm(
  win: Window,
  page: Pick<PageInfo, "href" | "referrer">,
  date: Date,
  version: string,
  storage?: Storage | (() => Storage | undefined),
): Obj {
  const screen = win.screen;
  // The viewport without scrollbars, as alloy reports it (documentElement.clientWidth), but from
  // visualViewport where there is one: it answers from the last layout, whereas clientWidth makes the
  // browser lay the page out there and then (a forced layout, when the bundle runs in the head). The
  // two agree unless the page is pinch-zoomed.
  const vv = win.visualViewport;
  const root = win.document.documentElement;
  let orientation = (screen.orientation?.type || "").split("-")[0];
  if (orientation !== "portrait" && orientation !== "landscape") orientation = win.matchMedia?.("(orientation: portrait)").matches ? "portrait" : "landscape";
  return {
    web: { webPageDetails: { URL: page.href }, webReferrer: { URL: page.referrer } },
    device: { screenHeight: screen.height, screenWidth: screen.width, screenOrientation: orientation },
    environment: {
      type: "browser",
      browserDetails: vv
        ? { viewportWidth: Math.round(vv.width), viewportHeight: Math.round(vv.height) }
        : { viewportWidth: root.clientWidth, viewportHeight: root.clientHeight },
    },
    placeContext: { localTimezoneOffset: date.getTimezoneOffset(), localTime: localTime(date), ianaTimezone: ianaTimezone(date, storage) },
    timestamp: date.toISOString(),
    implementationDetails: { name: "sitetags", version, environment: "browser" },
  };
}

/**
 * The document.cookie text that writes one cookie the way alloy (js-cookie)
 * does: the same name and value encoding, path /, the given domain, expiry
 * now + maxAge seconds, SameSite when given and Secure with SameSite None.
 */
export function cookieText(name: string, value: string, domain: string, maxAgeSeconds: number | undefined, sameSite: string | undefined, now: number): string {
  let text = encodeURIComponent(name) + "=" + encodeURIComponent(value).replace(/%(2[346BF]|3[AC-F]|40|5[BDE]|60|7[BCD])/g, decodeURIComponent) + "; path=/";
  if (domain) text += "; domain=" + domain;
  if (maxAgeSeconds !== undefined) text += "; expires=" + new Date(now + maxAgeSeconds * 1000).toUTCString();
  if (sameSite) text += "; samesite=" + sameSite + (/^none$/i.test(sameSite) ? "; secure" : "");
  return text;
}

/** The ECID of a legacy AMCV_/s_ecid cookie value (…|MCMID|{ecid}|…). */
export function legacyEcid(value: string | undefined): string | undefined {
  const m = value && /(^|\|)MCMID\|(\d+)($|\|)/.exec(value);
  return m ? m[2] : undefined;
}

/** "identity query parameter valid 300 s": how long an adobe_mc link carries the visitor's ECID. */
export const LINK_TTL_SECONDS = 300;

/**
 * The ECID an adobe_mc link parameter carries (alloy's appendIdentityToUrl,
 * Visitor.js links: TS=<seconds>|MCMID=<ecid>|MCORGID=<orgId>), from the query
 * or else the hash's own query (the last one when repeated, decoded until it
 * no longer changes, values stripped to [a-zA-Z0-9@.]), when its TS is at
 * most 300 s old and MCORGID is ours; undefined otherwise.
 */
export function linkEcid(search: string, hash: string, orgId: string, nowMs: number): string | undefined {
  // URLSearchParams takes any string (lone surrogates become U+FFFD): nothing to catch.
  const all = (q: string) => new URLSearchParams(q).getAll("adobe_mc");
  const q = hash.indexOf("?");
  let values = all(search);
  if (!values.length && q >= 0) values = all(hash.slice(q));
  if (!values.length) return undefined;
  const decode = (v: string) => {
    try {
      return decodeURIComponent(v);
    } catch (e) {
      return v;
    }
  };
  let v = values[values.length - 1];
  for (let prev = ""; prev !== v;) v = decode((prev = v));
  const props: Record<string, string> = {};
  for (const pair of v.split("|")) {
    const i = pair.indexOf("=");
    if (i > 0) props[pair.slice(0, i)] = decode(pair.slice(i + 1)).replace(/[^a-zA-Z0-9@.]/g, "");
  }
  const ts = parseInt(props.TS, 10);
  return nowMs / 1000 <= ts + LINK_TTL_SECONDS && props.MCORGID === orgId && props.MCMID ? props.MCMID : undefined;
}

/**
 * The UTF-8 length of a text, as a request body is sent (the keepalive budget counts bytes): the browser's own encoder,
 * as fetch encodes the body (a lone surrogate becomes U+FFFD, 3 bytes). A script loop over the body's characters was a
 * first visit's 4 ms of self time (edge-profile, issue #21).
 */
export function utf8Length(text: string): number {
  return utf8(text).length;
}

function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

/** 32-bit FNV-1a of the UTF-8 bytes, 8 hex digits (alloy's consent hash). */
export function fnv1a32Hex(text: string): string {
  let hash = 0x811c9dc5;
  const bytes = utf8(text);
  for (let i = 0; i < bytes.length; i++) hash = Math.imul(hash ^ bytes[i], 0x01000193);
  return ("0000000" + (hash >>> 0).toString(16)).slice(-8);
}

/** Whether the browser is one where alloy assumes third-party cookies work (not Firefox, not Safari). */
export function thirdPartyBrowser(userAgent: string): boolean {
  return !/Firefox|FxiOS/.test(userAgent) && !(/Safari/.test(userAgent) && !/Chrom|CriOS|Edg/.test(userAgent));
}
