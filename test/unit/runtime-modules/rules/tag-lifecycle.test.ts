import { describe, expect, it } from "vitest";
import { duePairs } from "../../../../runtime-modules/rules/tag-lifecycle";

describe('"each category and lifecycle pair once per page"', () => {
  const pairs: Array<[any, any]> = [["performance", "pageTop"], ["marketing", "domReady"], ["functional", "windowLoaded"], ["marketing", "domReady"]];
  it("a pair is due once its lifecycle point has passed and its category is granted; never twice", () => {
    const all = () => true;
    expect(duePairs(pairs, "pageTop", all, [])).toEqual(["performance:pageTop"]);
    expect(duePairs(pairs, "domReady", all, ["performance:pageTop"])).toEqual(["marketing:domReady"]);
    expect(duePairs(pairs, "windowLoaded", all, ["performance:pageTop", "marketing:domReady"])).toEqual(["functional:windowLoaded"]);
    expect(duePairs(pairs, "windowLoaded", (c) => c !== "marketing", ["performance:pageTop"])).toEqual(["functional:windowLoaded"]);
  });
});

describe('"Load-tags needs consent type and lifecycle event": the documented push', () => {
  it("lifecycleEvent as docs/events.md writes it (consent, page-top, dom-ready, window-loaded) or as the rule config does, any case", async () => {
    const { pushedLifecycle } = await import("../../../../runtime-modules/rules/tag-lifecycle");
    expect(["consent", "page-top", "dom-ready", "window-loaded", "domReady", "WINDOW_LOADED", "pageTop"].map(pushedLifecycle)).toEqual([
      "pageTop",
      "pageTop",
      "domReady",
      "windowLoaded",
      "domReady",
      "windowLoaded",
      "pageTop",
    ]);
    expect(pushedLifecycle("later")).toBeUndefined();
    expect(pushedLifecycle(undefined)).toBeUndefined();
  });
  it("the documented example's consentType in any case reaches a rule listening for that pair", async () => {
    const { connectTagLifecycle } = await import("../../../../runtime-modules/rules/tag-lifecycle");
    const fired: unknown[] = [];
    const warnings: unknown[] = [];
    let onPush: ((push: Record<string, unknown>, event: string | undefined) => void) | undefined;
    connectTagLifecycle({ listens: () => [], fire: (_type: string, detail: unknown) => void fired.push(detail) } as never, {
      dataLayer: { on: (fn: typeof onPush) => void (onPush = fn) } as never,
      consent: { allows: () => true, onChange() {} } as never,
      log: { warn: (m: string) => void warnings.push(m) } as never,
      doc: { readyState: "complete", addEventListener() {} } as never,
      win: { setTimeout: () => 0, addEventListener() {} } as never,
    });
    onPush!({ event: "load-tags", consentType: "Program-Marketing", lifecycleEvent: "page-top" }, "load-tags");
    onPush!({ event: "load-tags", consentType: "performance" }, "load-tags");
    expect(fired).toEqual([{ key: "programMarketing:pageTop" }]);
    expect(warnings).toEqual(["missing consentType or lifecycleEvent"]);
  });
});
