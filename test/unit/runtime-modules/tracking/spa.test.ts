import { describe, expect, it, vi } from "vitest";
import { createViewScheduler, watchRoutes } from "../../../../runtime-modules/tracking/spa";

function fakeTimers() {
  let now = 0;
  let next = 1;
  const timers = new Map<number, { at: number; fn: () => void }>();
  return {
    timers: {
      setTimeout: (fn: () => void, ms: number) => (timers.set(next, { at: now + ms, fn }), next++),
      clearTimeout: (h: unknown) => void timers.delete(h as number),
    },
    advance(ms: number) {
      now += ms;
      for (const [h, t] of [...timers].sort((a, b) => a[1].at - b[1].at))
        if (t.at <= now) {
          timers.delete(h);
          t.fn();
        }
    },
    pending: () => timers.size,
  };
}

describe("createViewScheduler", () => {
  it("one page view per route, timing.spaPage after the last change", () => {
    const t = fakeTimers();
    let route = "/a";
    const send = vi.fn();
    const s = createViewScheduler(1500, () => route, send, t.timers);
    route = "/b";
    s.schedule(false);
    t.advance(1000);
    route = "/c";
    s.schedule(false);
    t.advance(1000);
    expect(send).not.toHaveBeenCalled();
    t.advance(500);
    expect(send).toHaveBeenCalledTimes(1);
  });
  it("no view when the route is back to the one counted; a forced view (page-view push) goes out on the same route", () => {
    const t = fakeTimers();
    const send = vi.fn();
    const s = createViewScheduler(500, () => "/a", send, t.timers);
    s.schedule(false);
    t.advance(500);
    expect(send).not.toHaveBeenCalled();
    s.schedule(true);
    s.schedule(false);
    t.advance(500);
    expect(send).toHaveBeenCalledTimes(1);
  });
  it("a page view someone else sends counts for the route and drops the pending one; its own send does not cancel itself", () => {
    const t = fakeTimers();
    let route = "/a";
    let s: ReturnType<typeof createViewScheduler>;
    const send = vi.fn(() => s.counted());
    s = createViewScheduler(500, () => route, send, t.timers);
    route = "/b";
    s.schedule(false);
    s.counted();
    expect(t.pending()).toBe(0);
    t.advance(500);
    expect(send).not.toHaveBeenCalled();
    route = "/c";
    s.schedule(false);
    t.advance(500);
    expect(send).toHaveBeenCalledTimes(1);
    s.schedule(false);
    t.advance(500);
    expect(send).toHaveBeenCalledTimes(1);
  });
});

describe("watchRoutes", () => {
  it("pushState and replaceState (the original first), popstate and hashchange", () => {
    const calls: string[] = [];
    const listeners: Record<string, () => void> = {};
    const history = { pushState: vi.fn(() => calls.push("push")), replaceState: vi.fn(() => calls.push("replace")) };
    const win = { history, addEventListener: (type: string, fn: () => void) => (listeners[type] = fn) } as unknown as Window;
    watchRoutes(win, () => calls.push("changed"));
    win.history.pushState({}, "", "/x");
    win.history.replaceState({}, "", "/y");
    listeners.popstate();
    listeners.hashchange();
    expect(calls).toEqual(["push", "changed", "replace", "changed", "changed", "changed"]);
  });
});
