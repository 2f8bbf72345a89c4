/**
 * The generic event list: every monitor event, whatever its type, with a
 * one-line summary for the types the preview knows (boot, module, tag, log,
 * dataLayer, rule, beacon) and JSON for any other, so a new runtime event
 * type shows up without a change here.
 */
import { eventTypeLabel } from "./beacons";
import { brief, type Obj } from "./json";
import type { MonitorEvent } from "./protocol";

export const KNOWN_TYPES = ["boot", "module", "tag", "log", "dataLayer", "rule", "beacon"] as const;

/** The event's fields beyond type and t. */
export function detailOf(event: MonitorEvent): Obj {
  const { type: _type, t: _t, ...rest } = event;
  return rest;
}

export function eventSummary(event: MonitorEvent): string {
  const e = event;
  switch (e.type) {
    case "boot":
      return `version ${String(e.version)} · site ${String(e.site)} · env ${String(e.env)} (built for ${String(e.bundleEnv)})`;
    case "module":
      return `module ${String(e.module)} started`;
    case "tag":
      return `${String(e.tag)}: ${String(e.state)}${e.reason ? ` (${String(e.reason)})` : e.consent ? ` (consent ${String(e.consent)})` : ""}`;
    case "log":
      return `${String(e.level)}: ${String(e.message)}${e.code ? ` [${String(e.code)}]` : ""}${e.data !== undefined ? ` ${brief(e.data, 80)}` : ""}`;
    case "dataLayer":
      return `${e.event ? `event ${String(e.event)}` : "data-only push"} ${brief(e.push, 100)}`;
    case "rule":
      return typeof e.action === "number"
        ? `${String(e.rule)} on ${String(e.event)}: action ${e.action} ${String(e.actionType)} ${String(e.outcome)}`
        : `${String(e.rule)} on ${String(e.event)}: ${String(e.state)}${typeof e.condition === "number" ? ` at condition ${e.condition}` : ""}`;
    case "beacon":
      // A request without an event (privacy/set-consent, identity) is named by its edge action.
      return `${eventTypeLabel(typeof e.eventType === "string" ? e.eventType : undefined, /\/v1\/([a-z/-]+?)\/?(\?|$)/.exec(String(e.url))?.[1])} → ${String(e.url).replace(/\?.*/, "")}`;
    default:
      return brief(detailOf(e), 160);
  }
}
