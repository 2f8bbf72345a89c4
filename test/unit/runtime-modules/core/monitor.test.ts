import { describe, expect, it, vi } from "vitest";
import { createMonitor } from "../../../../runtime-modules/core/monitor";
import type { MonitorEvent } from "../../../../runtime-modules/core/types";

describe("createMonitor", () => {
  it("calls every function in window.__sitetagsMonitors with { type, t, ...detail }", () => {
    const seen: MonitorEvent[] = [];
    const win = { __sitetagsMonitors: [(e: MonitorEvent) => void seen.push(e), (e: MonitorEvent) => void seen.push(e)] };
    createMonitor(win).emit("tag", { tag: "chat", state: "loaded" });
    expect(seen).toHaveLength(2);
    expect(seen[0]).toMatchObject({ type: "tag", tag: "chat", state: "loaded" });
    expect(typeof seen[0].t).toBe("number");
  });
  it("reads the array on each emit, so listeners added after the bundle loaded count too", () => {
    const win: { __sitetagsMonitors?: Array<(e: MonitorEvent) => void> } = {};
    const monitor = createMonitor(win);
    monitor.emit("early");
    const fn = vi.fn();
    win.__sitetagsMonitors = [fn];
    monitor.emit("late");
    expect(fn).toHaveBeenCalledTimes(1);
    expect(fn.mock.calls[0][0].type).toBe("late");
  });
  it("a throwing listener does not stop the others or reach the bundle", () => {
    const after = vi.fn();
    const win = {
      __sitetagsMonitors: [
        () => {
          throw new Error("listener");
        },
        after,
      ],
    };
    expect(() => createMonitor(win).emit("x")).not.toThrow();
    expect(after).toHaveBeenCalled();
  });
  it("makes the list an own property of the window, its value unchanged (a missing name went through the window's named-element lookup on every emit; issue #21)", () => {
    const win: { __sitetagsMonitors?: Array<(e: MonitorEvent) => void> } = {};
    createMonitor(win);
    expect(Object.prototype.hasOwnProperty.call(win, "__sitetagsMonitors")).toBe(true);
    expect(win.__sitetagsMonitors).toBeUndefined();
    const listeners = [vi.fn()];
    const set = { __sitetagsMonitors: listeners };
    createMonitor(set);
    expect(set.__sitetagsMonitors).toBe(listeners);
  });
  it("with no listeners it builds nothing", () => {
    expect(() => createMonitor({}).emit("x", { a: 1 })).not.toThrow();
    expect(() => createMonitor({ __sitetagsMonitors: [] }).emit("x")).not.toThrow();
  });
});
