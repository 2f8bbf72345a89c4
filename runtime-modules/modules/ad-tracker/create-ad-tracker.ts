import type { TagFamilyModuleConfig } from "../../../generator/config/bundle-config.js";
import type { ModuleInstance, ModuleServices } from "../../core/types";
import { installQueue } from "../../core/tag-loader";
import { errorText } from "../../core/log";
import { COMMAND_FAILED } from "../../core/messages";
import { forwardCall } from "./forward";

/** The command counting the calls forwarded, per tag; also the module's marker (module.ts). */
const COMMAND = "adTrackerForwarded";
/** Pushes kept per tracker while it waits for consent or its lifecycle point. */
const MAX_WAITING = 50;

type TrackerFn = (...args: unknown[]) => void;

/**
 * Advertising trackers, search ads and social pixels (family `adTracker`
 * of the declared tags, docs/tags.md): once the gate allows a tracker's tag,
 * its queue stub (a function, or an array for `call: array`) is installed
 * and called with the init command and pixel id, then with its page view
 * when it has one, then its script loads; the data-layer events it takes are
 * forwarded as (track command, pixel id, event name, data), those pushed
 * before then too (at most 50), none while its consent is withdrawn. A call
 * is the tracker function's arguments, or one array pushed. Command:
 * `adTrackerForwarded()`: tag code → events forwarded.
 */
export function createAdTracker(services: ModuleServices<TagFamilyModuleConfig>): ModuleInstance {
  const { win, consent, dataLayer, log, bundle } = services;
  const counts: Record<string, number> = {};
  const ready: Record<string, boolean> = {};
  const waiting: Record<string, unknown[][]> = {};
  const trackers = ((bundle.modules.tags && bundle.modules.tags.tags) || []).filter((t) => t.adTracker);
  const call = (tag: (typeof trackers)[number], args: unknown[]) => {
    try {
      const tracker = (win as unknown as Record<string, TrackerFn & { push(a: unknown[]): void }>)[tag.adTracker!.tracker];
      if (tag.adTracker!.call === "array") tracker.push(args);
      else tracker(...args);
    } catch (e) {
      log.error(COMMAND_FAILED, { tag: tag.code, error: errorText(e) });
    }
  };
  for (const tag of trackers) {
    counts[tag.code] = 0;
    waiting[tag.code] = [];
  }
  dataLayer.on((push, event) => {
    for (const tag of trackers) {
      const args = forwardCall(tag.adTracker!, push, event);
      if (!args) continue;
      if (!ready[tag.code]) {
        if (waiting[tag.code].length < MAX_WAITING) waiting[tag.code].push(args);
      } else if (consent.allows(tag.category)) {
        counts[tag.code]++;
        call(tag, args);
      }
    }
  });
  services.tagFamilies.adTracker = {
    prepare(tag) {
      const settings = tag.adTracker!;
      installQueue(win, { global: settings.tracker, kind: settings.call });
      ready[tag.code] = true;
      call(tag, [settings.initCommand, settings.pixelId]);
      if (settings.pageView) {
        counts[tag.code]++;
        call(tag, [settings.trackCommand, settings.pixelId, settings.pageView, { path: win.location.pathname }]);
      }
      for (const args of waiting[tag.code].splice(0)) {
        counts[tag.code]++;
        call(tag, args);
      }
      return true;
    },
  };
  const commands: Record<string, () => unknown> = {};
  commands[COMMAND] = () => ({ ...counts });
  return { commands };
}
