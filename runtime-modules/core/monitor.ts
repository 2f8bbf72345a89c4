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
  // An own property of the window (undefined until the page sets it): reading a name the window lacks goes through
  // its named-element lookup, which cost a busy data layer more than a rule (issue #21).
  // eslint-disable-next-line no-self-assign -- the assignment is the point: it creates the own property.
  win.__sitetagsMonitors = win.__sitetagsMonitors;
  const on = () => {
    const listeners = win.__sitetagsMonitors;
    return !!listeners && listeners.length > 0;
  };
  return {
    on,
    emit(type, detail) {
      if (!on()) return;
      const event = { type, t: now(), ...detail };
      for (const listener of win.__sitetagsMonitors!.slice()) {
        try {
          listener(event);
        } catch (e) {
          // A listener's failure is the listener's business.
        }
      }
    },
  };
}
