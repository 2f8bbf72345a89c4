import { describe, expect, it } from "vitest";
import { DEBUG_KEY, debugSwitch, readDebugMode } from "../../../../runtime-modules/core/debug-switch";
import { fakePage } from "../helpers/fake-page";

describe("debugSwitch", () => {
  it("debug mode is off by default", () => {
    expect(debugSwitch("", null)).toEqual({ on: false });
    expect(debugSwitch("?a=1", null)).toEqual({ on: false });
  });
  it("?sitetags-debug=1 turns it on and keeps it on in this browser", () => {
    expect(debugSwitch("?sitetags-debug=1", null)).toEqual({ on: true, store: "1" });
  });
  it("?sitetags-debug=0 turns it off and forgets it", () => {
    expect(debugSwitch("?x=y&sitetags-debug=0", "1")).toEqual({ on: false, store: null });
  });
  it('it is on when localStorage["sitetags:debug"] is "1"', () => {
    expect(debugSwitch("", "1")).toEqual({ on: true });
    expect(debugSwitch("", "true")).toEqual({ on: false });
  });
  it("other parameter values leave the stored switch alone", () => {
    expect(debugSwitch("?sitetags-debug=yes", "1")).toEqual({ on: true });
  });
});

describe("readDebugMode", () => {
  it("persists the switch in localStorage", () => {
    const on = fakePage({ url: "https://a.kiwi.example/?sitetags-debug=1" });
    expect(readDebugMode(on.window as never)).toBe(true);
    expect(on.store[DEBUG_KEY]).toBe("1");

    const later = fakePage({ url: "https://a.kiwi.example/", storage: { [DEBUG_KEY]: "1" } });
    expect(readDebugMode(later.window as never)).toBe(true);

    const off = fakePage({ url: "https://a.kiwi.example/?sitetags-debug=0", storage: { [DEBUG_KEY]: "1" } });
    expect(readDebugMode(off.window as never)).toBe(false);
    expect(DEBUG_KEY in off.store).toBe(false);
  });
  it("storage that throws counts as empty; the parameter still works for the page", () => {
    expect(readDebugMode(fakePage({ url: "https://a.kiwi.example/?sitetags-debug=1", storageThrows: true }).window as never)).toBe(true);
    expect(readDebugMode(fakePage({ storageThrows: true }).window as never)).toBe(false);
  });
});
