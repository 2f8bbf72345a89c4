/**
 * Search, filter and copy for the Beacons tab: a text search over what a
 * beacon says (event type, names, URLs, variables, the XDM), a type filter
 * (the summary pills), a variable filter (`eVar30` has it, `eVar30=SAT`
 * has it with that text), and a beacon as cURL (replays the request) or as
 * JSON (what the preview decoded).
 */
import { eventTypeLabel, type BeaconGroup } from "./beacons";

export interface BeaconFilter {
  text: string;
  /** An event type label (eventTypeLabel), "" for all. */
  type: string;
  /** `name` or `name=text`. */
  variable: string;
}

export const NO_FILTER: BeaconFilter = { text: "", type: "", variable: "" };

export function matchesBeacon(g: BeaconGroup, f: BeaconFilter): boolean {
  if (f.type && eventTypeLabel(g.decoded.eventType, g.decoded.action) !== f.type) return false;
  const variable = f.variable.trim();
  if (variable) {
    const i = variable.indexOf("=");
    const name = (i < 0 ? variable : variable.slice(0, i)).trim().toLowerCase();
    const want =
      i < 0
        ? undefined
        : variable
            .slice(i + 1)
            .trim()
            .toLowerCase();
    const hit = Object.entries(g.decoded.variables).some(([k, v]) => k.toLowerCase() === name && (want === undefined || v.toLowerCase().includes(want)));
    if (!hit) return false;
  }
  const text = f.text.trim().toLowerCase();
  if (!text) return true;
  const d = g.decoded;
  const hay = [
    eventTypeLabel(d.eventType, d.action),
    d.eventType,
    d.pageName,
    d.pageUrl,
    d.interaction?.name,
    d.interaction?.type,
    d.interaction?.url,
    g.requestId,
    ...Object.entries(d.variables).map(([k, v]) => `${k}=${v}`),
    d.xdm ? JSON.stringify(d.xdm) : undefined,
  ];
  return hay.some((h) => typeof h === "string" && h.toLowerCase().includes(text));
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The beacon as a cURL command that sends the same request to the edge. */
export function beaconCurl(g: BeaconGroup): string {
  const parts = [`curl ${quote(g.url ?? "")}`, "-X POST", `-H ${quote("content-type: text/plain;charset=UTF-8")}`];
  if (g.origin) parts.push(`-H ${quote(`origin: ${g.origin}`)}`);
  if (g.body !== undefined) parts.push(`--data-raw ${quote(g.body)}`);
  return parts.join(" \\\n  ");
}

/** The beacon as JSON: what it is, its status and attempts, what the preview decoded, the body as sent. */
export function beaconJson(g: BeaconGroup): string {
  let body: unknown = g.body;
  try {
    body = g.body === undefined ? undefined : JSON.parse(g.body);
  } catch {
    // Not JSON: kept as text.
  }
  const d = g.decoded;
  const out = {
    requestId: g.requestId,
    url: g.url,
    page: g.page,
    unload: g.unload,
    status: g.status,
    attempts: g.attempts,
    eventType: d.eventType,
    pageName: d.pageName,
    interaction: d.interaction,
    variables: d.variables,
    reportSuites: d.reportSuites,
    body,
  };
  return `${JSON.stringify(out, null, 2)}\n`;
}
