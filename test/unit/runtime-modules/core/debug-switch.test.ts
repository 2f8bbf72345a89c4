import { describe, expect, it } from "vitest";
import { DEBUG_COOKIE, DEBUG_COOKIE_SECONDS, debugSwitch, readDebugMode } from "../../../../runtime-modules/core/debug-switch";

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
  it('it is on when the debug cookie is "1"', () => {
    expect(debugSwitch("", "1")).toEqual({ on: true });
    expect(debugSwitch("", "true")).toEqual({ on: false });
    // An empty query ("?") holds no parameter either.
    expect(debugSwitch("?", "1")).toEqual({ on: true });
    expect(debugSwitch("?", null)).toEqual({ on: false });
  });
  it("other parameter values leave the stored switch alone", () => {
    expect(debugSwitch("?sitetags-debug=yes", "1")).toEqual({ on: true });
  });
});

/** A document.cookie stand-in that keeps what is written, as a browser would, and counts the writes. */
function cookieDoc(initial: string) {
  const jar: Record<string, string> = {};
  for (const part of initial.split("; ").filter(Boolean)) jar[part.split("=")[0]] = part.split("=")[1];
  const writes: string[] = [];
  return {
    writes,
    get cookie() {
      return Object.keys(jar)
        .map((k) => k + "=" + jar[k])
        .join("; ");
    },
    set cookie(text: string) {
      writes.push(text);
      const [pair] = text.split(";");
      const [name, value] = pair.split("=");
      if (/max-age=0\b/.test(text)) delete jar[name];
      else jar[name] = value;
    },
  };
}

describe("readDebugMode", () => {
  it("?sitetags-debug=1 keeps it on in a host-only cookie (a year); the next page reads the cookie, not localStorage", () => {
    const doc = cookieDoc("a=1");
    expect(readDebugMode("?sitetags-debug=1", doc)).toBe(true);
    expect(doc.writes).toEqual([`${DEBUG_COOKIE}=1; max-age=${DEBUG_COOKIE_SECONDS}; path=/`]);
    expect(readDebugMode("", doc)).toBe(true);
    expect(doc.writes).toHaveLength(1);
  });
  it("?sitetags-debug=0 turns it off and deletes the cookie; with no cookie nothing is written", () => {
    const doc = cookieDoc(`${DEBUG_COOKIE}=1`);
    expect(readDebugMode("?sitetags-debug=0", doc)).toBe(false);
    expect(doc.writes).toEqual([`${DEBUG_COOKIE}=; max-age=0; path=/`]);
    expect(readDebugMode("", doc)).toBe(false);
    expect(readDebugMode("?sitetags-debug=0", doc)).toBe(false);
    expect(doc.writes).toHaveLength(1);
  });
  it("a first visit without the parameter reads one cookie snapshot and writes nothing", () => {
    const doc = cookieDoc("");
    expect(readDebugMode("?q=1", doc)).toBe(false);
    expect(doc.writes).toEqual([]);
  });
  it("a cookie that cannot be read or written counts as absent; the parameter still works for the page", () => {
    const blocked = {
      get cookie(): string {
        throw new Error("SecurityError");
      },
      set cookie(_: string) {
        throw new Error("SecurityError");
      },
    };
    expect(readDebugMode("?sitetags-debug=1", blocked)).toBe(true);
    expect(readDebugMode("", blocked)).toBe(false);
  });
});
