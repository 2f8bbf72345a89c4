/** Timers as the scheduler uses them (window's, or a test's). */
export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface ViewScheduler {
  /** A route changed (or, forced, a page-view push announced a new view): a page view is due after the delay. */
  schedule(forced: boolean): void;
  /** A page view went out (from anyone): the route is counted; a view still pending is dropped unless it is this scheduler's own. */
  counted(): void;
}

/**
 * One page view per SPA route: after a route change, waits `delay` ms
 * (timing.spaPage, so the application can name the view by a page-view
 * push), then sends a page view if the route (routeKey) differs from the one
 * last counted. Further changes within the delay restart it. A page view
 * anyone else sends meanwhile (a rule, a module) counts for the route, and
 * the pending one is dropped. A forced view (a page-view push) is sent even
 * on the same route.
 */
export function createViewScheduler(delay: number, key: () => string, send: () => void, timers: Timers): ViewScheduler {
  let last = key();
  let timer: unknown;
  let pending = false;
  let forcedView = false;
  let own = false;
  const clear = () => {
    if (pending) timers.clearTimeout(timer);
    pending = false;
    forcedView = false;
  };
  return {
    schedule(forced) {
      const keepForced = forcedView || forced;
      clear();
      forcedView = keepForced;
      pending = true;
      timer = timers.setTimeout(() => {
        const due = forcedView || key() !== last;
        pending = false;
        forcedView = false;
        if (!due) return;
        own = true;
        try {
          send();
        } finally {
          own = false;
        }
      }, delay);
    },
    counted() {
      last = key();
      if (!own) clear();
    },
  };
}

/**
 * Calls onChange after every history.pushState / replaceState (wrapped, the
 * original still runs first) and on popstate and hashchange.
 */
export function watchRoutes(win: Window, onChange: () => void): void {
  const history = win.history;
  for (const method of ["pushState", "replaceState"] as const) {
    const original = history[method];
    if (typeof original !== "function") continue;
    history[method] = function (this: History, ...args: Parameters<History["pushState"]>) {
      const result = original.apply(this, args);
      onChange();
      return result;
    };
  }
  win.addEventListener("popstate", onChange);
  win.addEventListener("hashchange", onChange);
}
