/**
 * One time axis for the session: beacons, rule firings, tag decisions,
 * consent changes and data-layer pushes, each on its lane, with the page
 * loads marked (a navigation in the frame starts page 2, 3…).
 */
import { beaconTitle, type BeaconGroup } from "./beacons";
import type { Entry } from "./protocol";
import type { RuleFiring } from "./rules";

export type Lane = "beacons" | "rules" | "tags" | "consent" | "data layer";
export const LANES: Lane[] = ["beacons", "rules", "tags", "consent", "data layer"];

export interface TimelineItem {
  lane: Lane;
  at: number;
  page: number;
  label: string;
  /** ok, bad, warn or "" (the marker's colour). */
  tone: string;
}

export interface Timeline {
  start: number;
  end: number;
  pages: Array<{ page: number; at: number; href: string }>;
  items: TimelineItem[];
}

export function buildTimeline(entries: readonly Entry[], beacons: readonly BeaconGroup[], firings: readonly RuleFiring[], start?: number): Timeline {
  const items: TimelineItem[] = [];
  for (const g of beacons)
    items.push({
      lane: "beacons",
      at: g.at,
      page: g.page,
      label: `${beaconTitle(g.decoded)} · ${g.status}${g.unload ? " · unload" : ""}`,
      tone: g.status === "ok" ? "ok" : g.status === "failed" ? "bad" : "",
    });
  for (const f of firings)
    items.push({
      lane: "rules",
      at: f.at,
      page: f.page,
      label: `${f.rule} on ${f.event}: ${f.state}`,
      tone: f.state === "fired" ? "ok" : f.state === "skipped" ? "" : f.state === "triggered" ? "warn" : "bad",
    });
  for (const e of entries) {
    if (e.kind === "monitor" && e.event.type === "tag") {
      const state = String(e.event.state ?? "?");
      items.push({
        lane: "tags",
        at: e.at,
        page: e.page,
        label: `${String(e.event.tag)}: ${state}${e.event.reason ? ` (${String(e.event.reason)})` : ""}`,
        tone: state === "loaded" ? "ok" : state === "failed" ? "bad" : state === "waiting" || state === "skipped" ? "warn" : "",
      });
    } else if (e.kind === "consent")
      items.push({ lane: "consent", at: e.at, page: e.page, label: `${e.groups ?? "no groups (pre-opt-in)"} · ${e.via}`, tone: "" });
    else if (e.kind === "monitor" && e.event.type === "dataLayer")
      items.push({ lane: "data layer", at: e.at, page: e.page, label: typeof e.event.event === "string" ? e.event.event : "(data only)", tone: "" });
  }
  items.sort((a, b) => a.at - b.at);
  const pages = entries.flatMap((e) => (e.kind === "page" ? [{ page: e.page, at: e.at, href: e.href }] : []));
  const times = [...items.map((i) => i.at), ...pages.map((p) => p.at)];
  const first = start ?? (times.length ? Math.min(...times) : 0);
  const end = times.length ? Math.max(first + 1, ...times) : first + 1;
  return { start: first, end, pages, items };
}

/** Where a time sits on the axis, 0-100 (%). */
export function position(t: Timeline, at: number): number {
  return Math.max(0, Math.min(100, ((at - t.start) / (t.end - t.start)) * 100));
}
