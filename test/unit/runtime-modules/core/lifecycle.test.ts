import { describe, expect, it } from "vitest";
import { CATEGORIES } from "../../../../runtime-modules/consent/categories";
import { atEarliestLifecycle, earliestLifecycle } from "../../../../runtime-modules/core/lifecycle";

describe("tag lifecycles", () => {
  it('"Performance tags ... at page top; functional and program tags ... and marketing tags ... at DOM ready"', () => {
    expect(CATEGORIES.map((c) => [c, earliestLifecycle(c)])).toEqual([
      ["performance", "pageTop"],
      ["functional", "domReady"],
      ["marketing", "domReady"],
      ["programFunctional", "domReady"],
      ["programMarketing", "domReady"],
    ]);
  });
});

describe("atEarliestLifecycle", () => {
  const page = (readyState: DocumentReadyState) => {
    const listeners: Array<() => void> = [];
    const addEventListener = (type: string, fn: () => void) => void (type === "DOMContentLoaded" && listeners.push(fn));
    return { readyState, addEventListener: addEventListener as Document["addEventListener"], ready: () => listeners.forEach((fn) => fn()) };
  };
  it("a performance tag loads at once, even while the page is still loading", () => {
    const doc = page("loading");
    const loaded: string[] = [];
    atEarliestLifecycle(doc, "performance", () => loaded.push("performance"));
    expect(loaded).toEqual(["performance"]);
  });
  it("every other category waits for DOM ready, and loads at once once the DOM is ready", () => {
    const doc = page("loading");
    const loaded: string[] = [];
    for (const c of CATEGORIES.filter((c) => c !== "performance")) atEarliestLifecycle(doc, c, () => loaded.push(c));
    expect(loaded).toEqual([]);
    doc.ready();
    expect(loaded).toEqual(["functional", "marketing", "programFunctional", "programMarketing"]);
    for (const state of ["interactive", "complete"] as const) {
      const now: string[] = [];
      atEarliestLifecycle(page(state), "marketing", () => now.push(state));
      expect(now).toEqual([state]);
    }
  });
});
