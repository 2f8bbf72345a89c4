/**
 * Beacons: what the bundle sent to the edge, decoded (shared/edge-protocol.md
 * "Request body") and grouped per event. Two sources meet here: the
 * runtime's `beacon` monitor events (what it meant to send, with the
 * requestId) and the mock edge's records (what arrived, when, how often,
 * and the answer). A retry repeats the URL, body and requestId, so the
 * requestId groups an event's attempts.
 */
import { at, isObject, parseJson, str, type Obj } from "./json";
import type { Entry, NetworkRecord } from "./protocol";

export interface DecodedBeacon {
  /** interact, collect, privacy/set-consent, identity/acquire… */
  action?: string;
  configId?: string;
  requestId?: string;
  eventType?: string;
  pageName?: string;
  pageUrl?: string;
  referrer?: string;
  interaction?: { name?: string; type?: string; url?: string };
  /** Adobe Analytics variables (data.__adobe.analytics): eVarN, propN, events… */
  variables: Record<string, string>;
  xdm?: Obj;
  data?: Obj;
  identityMap?: unknown;
  reportSuites: string[];
  /** The consent objects of a privacy/set-consent request. */
  consent?: unknown[];
  /** meta.state.domain */
  domain?: string;
  eventCount: number;
  /** What did not decode. */
  problems: string[];
}

const ACTION = /\/v1\/([a-z/-]+?)\/?$/;

/** Decodes one edge request: its URL (action, configId, requestId) and body (the first event's XDM and variables). */
export function decodeBeacon(url: string, body: unknown): DecodedBeacon {
  const out: DecodedBeacon = { variables: {}, reportSuites: [], eventCount: 0, problems: [] };
  try {
    const u = new URL(url);
    out.action = ACTION.exec(u.pathname)?.[1];
    out.configId = u.searchParams.get("configId") ?? undefined;
    out.requestId = u.searchParams.get("requestId") ?? undefined;
  } catch {
    out.problems.push(`not a URL: ${url}`);
  }
  const parsed = typeof body === "string" ? parseJson(body) : body;
  if (!isObject(parsed)) {
    if (body !== undefined && body !== "") out.problems.push("the body is not JSON");
    return out;
  }
  const events = Array.isArray(parsed.events) ? parsed.events : [];
  out.eventCount = events.length;
  const event = events.find(isObject);
  if (event) {
    const xdm = isObject(event.xdm) ? event.xdm : undefined;
    const data = isObject(event.data) ? event.data : undefined;
    out.xdm = xdm;
    out.data = data;
    out.eventType = str(at(xdm, "eventType"));
    out.pageName = str(at(xdm, "web.webPageDetails.name"));
    out.pageUrl = str(at(xdm, "web.webPageDetails.URL"));
    out.referrer = str(at(xdm, "web.webReferrer.URL"));
    const interaction = at(xdm, "web.webInteraction");
    if (isObject(interaction)) out.interaction = { name: str(interaction.name), type: str(interaction.type), url: str(interaction.URL) };
    out.identityMap = at(xdm, "identityMap");
    const vars = at(data, "__adobe.analytics");
    if (isObject(vars)) for (const [k, v] of Object.entries(vars)) out.variables[k] = typeof v === "string" ? v : JSON.stringify(v);
    if (!out.eventType) out.problems.push("the event has no xdm.eventType");
  } else if (Array.isArray(parsed.events)) out.problems.push("no event in the body");
  if (Array.isArray(parsed.consent)) out.consent = parsed.consent;
  const suites = at(parsed, "meta.configOverrides.com_adobe_analytics.reportSuites");
  if (Array.isArray(suites)) out.reportSuites = suites.filter((s): s is string => typeof s === "string");
  out.domain = str(at(parsed, "meta.state.domain"));
  return out;
}

/** A short human name for an event type (or, for requests without an event, the edge action: privacy/set-consent…). */
export function eventTypeLabel(eventType: string | undefined, action?: string): string {
  if (!eventType) return action && action !== "interact" && action !== "collect" ? action : "(no event type)";
  if (eventType === "web.webpagedetails.pageViews") return "page view";
  if (eventType === "web.webinteraction.linkClicks") return "link click";
  return eventType;
}

export interface BeaconAttempt {
  /** Date.now() on arrival at the edge. */
  at: number;
  status?: number;
  durationMs?: number;
  method: string;
  action?: string;
  transport: "fetch" | "sendBeacon" | "unknown";
  edgeMode?: string;
}

export type BeaconStatus = "ok" | "failed" | "waiting" | "not received";

export interface BeaconGroup {
  /** The requestId, or a stand-in when there is none. */
  key: string;
  requestId?: string;
  page: number;
  /** Date.now() when the runtime reported it (else when the edge first got it). */
  at: number;
  /** The runtime's own timestamp (ms since the page's navigation start), when it reported it. */
  t?: number;
  decoded: DecodedBeacon;
  attempts: BeaconAttempt[];
  /** Attempts after the first. */
  retries: number;
  status: BeaconStatus;
  seenBy: { monitor: boolean; edge: boolean };
  /** From the runtime's report to the edge's first receipt. */
  latencyMs?: number;
  /** Sent while its page unloaded (after the page's pagehide, or hidden and then gone). */
  unload: boolean;
  /** The request as sent: URL, body, the page's origin (for copying it as cURL or JSON). */
  url?: string;
  body?: string;
  origin?: string;
}

function transportOf(r: NetworkRecord): BeaconAttempt["transport"] {
  if (r.mode === "no-cors") return "sendBeacon";
  if (r.mode === "cors" || r.mode === "same-origin") return "fetch";
  return "unknown";
}

function isBeaconRequest(r: NetworkRecord): boolean {
  return r.kind === "edge" && r.method !== "OPTIONS";
}

/**
 * Beacon events of the session, in the order the runtime reported them
 * (edge-only arrivals, e.g. from an earlier document, by arrival).
 */
export function groupBeacons(entries: readonly Entry[]): BeaconGroup[] {
  const groups: BeaconGroup[] = [];
  const byKey = new Map<string, BeaconGroup>();
  // Per page: unloaded, or hidden (its beacons are unload beacons if the page then goes away without showing again).
  const unloaded = new Set<number>();
  const hidden = new Map<number, BeaconGroup[]>();
  for (const entry of entries) {
    if (entry.kind === "lifecycle") {
      if (entry.state === "visible") hidden.delete(entry.page);
      else if (entry.state === "hidden") hidden.set(entry.page, hidden.get(entry.page) ?? []);
      else {
        unloaded.add(entry.page);
        for (const g of hidden.get(entry.page) ?? []) g.unload = true;
        hidden.delete(entry.page);
      }
    } else if (entry.kind === "monitor" && entry.event.type === "beacon") {
      const e = entry.event;
      const url = str(e.url) ?? "";
      const decoded = decodeBeacon(url, e.body);
      const requestId = str(e.requestId) ?? decoded.requestId;
      if (!decoded.eventType && typeof e.eventType === "string") decoded.eventType = e.eventType;
      const key = requestId ?? `monitor:${groups.length}`;
      const existing = byKey.get(key);
      if (existing) {
        // The edge answered before the runtime's report arrived: keep the edge's attempts.
        existing.seenBy.monitor = true;
        existing.t = e.t;
        existing.at = Math.min(existing.at, entry.at);
        existing.page = entry.page;
        existing.unload = unloaded.has(entry.page);
        if (!existing.unload) hidden.get(entry.page)?.push(existing);
        continue;
      }
      const body = typeof e.body === "string" ? e.body : e.body === undefined ? undefined : JSON.stringify(e.body);
      const group: BeaconGroup = {
        key,
        requestId,
        page: entry.page,
        at: entry.at,
        t: e.t,
        decoded,
        attempts: [],
        retries: 0,
        status: "waiting",
        seenBy: { monitor: true, edge: false },
        unload: unloaded.has(entry.page),
        url,
        body,
      };
      groups.push(group);
      byKey.set(key, group);
      if (!group.unload) hidden.get(entry.page)?.push(group);
    } else if (entry.kind === "network" && isBeaconRequest(entry.request)) {
      const r = entry.request;
      const requestId = r.query.requestId;
      const key = requestId ?? `edge:${r.seq}`;
      let group = byKey.get(key);
      if (!group) {
        group = {
          key,
          requestId,
          page: entry.page,
          at: r.time,
          decoded: decodeBeacon(r.url, r.body),
          attempts: [],
          retries: 0,
          status: "waiting",
          seenBy: { monitor: false, edge: true },
          unload: false,
          url: r.url,
          body: r.body,
        };
        groups.push(group);
        byKey.set(key, group);
      }
      group.seenBy.edge = true;
      group.origin = group.origin ?? r.origin;
      // Sent while its page unloaded (the bridge's unload cookie named that page's load): the runtime's report never came.
      if (r.unloadOf && !group.seenBy.monitor) group.unload = true;
      group.attempts.push({
        at: r.time,
        status: r.status,
        durationMs: r.durationMs,
        method: r.method,
        action: /\/v1\/([a-z/-]+)/.exec(r.path)?.[1],
        transport: transportOf(r),
        edgeMode: r.edgeMode,
      });
    }
  }
  for (const g of groups) {
    g.attempts.sort((a, b) => a.at - b.at);
    g.retries = Math.max(0, g.attempts.length - 1);
    const last = g.attempts[g.attempts.length - 1];
    g.status = !last
      ? g.seenBy.monitor
        ? "not received"
        : "waiting"
      : last.status === undefined
        ? "waiting"
        : last.status >= 200 && last.status < 300
          ? "ok"
          : "failed";
    if (g.seenBy.monitor && g.attempts.length) g.latencyMs = Math.max(0, g.attempts[0].at - g.at);
  }
  return groups;
}

/** A group is "not received" only once the edge had time to see it; before that it is waiting. */
export function settleStatus(group: BeaconGroup, now: number, graceMs = 3000): BeaconStatus {
  if (group.status === "not received" && now - group.at < graceMs) return "waiting";
  return group.status;
}

/** Counts per event type, in order of first appearance (the summary line of the beacon panel). */
export function beaconCounts(groups: readonly BeaconGroup[]): Array<{ eventType: string; count: number; failed: number }> {
  const out = new Map<string, { eventType: string; count: number; failed: number }>();
  for (const g of groups) {
    const k = eventTypeLabel(g.decoded.eventType, g.decoded.action);
    const row = out.get(k) ?? { eventType: k, count: 0, failed: 0 };
    row.count++;
    if (g.status === "failed") row.failed++;
    out.set(k, row);
  }
  return [...out.values()];
}

/** The one-line title of a beacon: its event type and page or interaction name. */
export function beaconTitle(d: DecodedBeacon): string {
  const what = eventTypeLabel(d.eventType, d.action);
  const name = d.interaction?.name ?? d.pageName;
  return name ? `${what} · ${name}` : what;
}
