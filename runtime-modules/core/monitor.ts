import type { MonitorListener } from "./globals";
import type { Monitor } from "./types";
import { now } from "./now";

/**
 * Runtime events for whoever listens: a page (the preview, a test) may set
 * `window.__sitetagsMonitors = [fn, ...]` before or after the bundle loads.
 * Each listener gets `{ type, t, ...detail }`; a throwing listener is ignored.
 * Costs one property read when nobody listens.
 */
export function createMonitor(win: { __sitetagsMonitors?: MonitorListener[] }): Monitor {
  return {
    emit(type, detail) {
      const listeners = win.__sitetagsMonitors;
      if (!listeners || !listeners.length) return;
      const event = { type, t: now(), ...detail };
      for (const listener of listeners.slice()) {
        try {
          listener(event);
        } catch (e) {
          // A listener's failure is the listener's business.
        }
      }
    },
  };
}
