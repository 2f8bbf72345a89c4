import type { ResolvedTag } from "../../../generator/config/bundle-config.js";

export type AdTrackerSettings = NonNullable<ResolvedTag["adTracker"]>;

/**
 * "Events pushed to a data layer and forwarded to advertising trackers
 * (tracker, pixel id, event name, data)": the tracker call for one push, as
 * arguments of the tracker's function (its track command, the pixel id, the
 * tracker's event name, the push's data without `event`), or undefined for
 * an event the tracker does not take. Pure.
 */
export function forwardCall(settings: AdTrackerSettings, push: Record<string, unknown>, event: string | undefined): unknown[] | undefined {
  if (!event || !Object.prototype.hasOwnProperty.call(settings.events, event)) return undefined;
  const data: Record<string, unknown> = {};
  for (const key of Object.keys(push)) if (key !== "event") data[key] = push[key];
  return [settings.trackCommand, settings.pixelId, settings.events[event], data];
}
