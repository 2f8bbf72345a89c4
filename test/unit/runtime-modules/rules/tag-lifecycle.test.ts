import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ConsentCategory } from "../../../../generator/config/bundle-config.js";
import type { ConsentEvent, ConsentState } from "../../../../runtime-modules/consent/state";
import { CATEGORIES } from "../../../../runtime-modules/consent/categories";
import { LIFECYCLES, type Lifecycle } from "../../../../runtime-modules/core/lifecycle";
import { categoryAllowed, consentReducer, initialConsentState } from "../../../../runtime-modules/consent/state";
import { duePairs } from "../../../../runtime-modules/rules/tag-lifecycle";
import { ids, run, withGroups } from "../consent/fixtures";

/** Every (category, lifecycle) pair a tagsLoad rule can listen for. */
const EVERY: Array<[ConsentCategory, Lifecycle]> = LIFECYCLES.flatMap((l) => CATEGORIES.map((c): [ConsentCategory, Lifecycle] => [c, l]));
const allowedBy = (state: ConsentState) => (c: ConsentCategory) => categoryAllowed(state, c);

describe('"each category and lifecycle pair once per page"', () => {
  const pairs: Array<[any, any]> = [
    ["performance", "pageTop"],
    ["marketing", "domReady"],
    ["functional", "windowLoaded"],
    ["marketing", "domReady"],
  ];
  it("a pair is due once its lifecycle point has passed and its category is granted; never twice", () => {
    const all = () => true;
    expect(duePairs(pairs, "pageTop", all, [])).toEqual(["performance:pageTop"]);
    expect(duePairs(pairs, "domReady", all, ["performance:pageTop"])).toEqual(["marketing:domReady"]);
    expect(duePairs(pairs, "windowLoaded", all, ["performance:pageTop", "marketing:domReady"])).toEqual(["functional:windowLoaded"]);
    expect(duePairs(pairs, "windowLoaded", (c) => c !== "marketing", ["performance:pageTop"])).toEqual(["functional:windowLoaded"]);
  });
  it("everything consented: each milestone brings its own pairs, and a repeated check gives nothing", () => {
    const allows = allowedBy(withGroups(",C0001,C0002,C0003,C0004,"));
    const done: string[] = [];
    const at = (reached: Lifecycle) => {
      const due = duePairs(EVERY, reached, allows, done);
      done.push(...due);
      return due;
    };
    expect(at("pageTop")).toEqual(["performance:pageTop", "functional:pageTop", "marketing:pageTop"]);
    expect(at("pageTop")).toEqual([]);
    expect(at("domReady")).toEqual(["performance:domReady", "functional:domReady", "marketing:domReady"]);
    expect(at("windowLoaded")).toEqual(["performance:windowLoaded", "functional:windowLoaded", "marketing:windowLoaded"]);
    expect(at("windowLoaded")).toEqual([]);
  });
  it('"Tags load after the consent banner closes": pre-opt-in nothing is due; consent given late makes every reached pair of its categories due then, once', () => {
    const done: string[] = [];
    expect(duePairs(EVERY, "domReady", allowedBy(run()), done)).toEqual([]);
    const late = duePairs(EVERY, "domReady", allowedBy(withGroups(",C0001,C0002,C0004,")), done);
    expect(late).toEqual(["performance:pageTop", "marketing:pageTop", "performance:domReady", "marketing:domReady"]);
    done.push(...late);
    expect(duePairs(EVERY, "domReady", allowedBy(withGroups(",C0001,C0002,C0004,")), done)).toEqual([]);
    expect(duePairs(EVERY, "windowLoaded", allowedBy(withGroups(",C0001,C0002,C0004,")), done)).toEqual(["performance:windowLoaded", "marketing:windowLoaded"]);
  });
  it('"internal sites skip waiting": every category is due at its milestone', () => {
    expect(duePairs(EVERY, "pageTop", allowedBy(run({ type: "internal-site" })), [])).toEqual(CATEGORIES.map((c) => `${c}:pageTop`));
  });
  it("a later milestone implies the earlier ones (a bundle loaded after DOM ready)", () => {
    expect(duePairs(EVERY, "windowLoaded", allowedBy(withGroups(",C0001,C0002,")), [])).toEqual([
      "performance:pageTop",
      "performance:domReady",
      "performance:windowLoaded",
    ]);
  });
});

describe('"each category and lifecycle pair once per page": properties of the page\'s sequence of checks', () => {
  type Op = { kind: "milestone"; lifecycle: Lifecycle } | { kind: "consent"; event: ConsentEvent } | { kind: "request"; pair: [ConsentCategory, Lifecycle] };
  const GROUPS = ["C0001", "C0002", "C0003", "C0004", "C0005", "C0006", "X1"];
  const op: fc.Arbitrary<Op> = fc.oneof(
    fc.constantFrom(...LIFECYCLES).map((lifecycle) => ({ kind: "milestone" as const, lifecycle })),
    fc.subarray(GROUPS).map((g) => ({ kind: "consent" as const, event: { type: "groups-updated" as const, groups: "," + g.join(",") + "," } })),
    fc
      .constantFrom<ConsentEvent>({ type: "banner-closed" }, { type: "banner-loaded" }, { type: "banner-failed", reason: "timeout" }, { type: "internal-site" })
      .map((event) => ({ kind: "consent" as const, event })),
    fc.constantFrom(...EVERY).map((pair) => ({ kind: "request" as const, pair })),
  );

  it("never a pair twice, never a category without consent, never before its milestone; after every check nothing due is left behind (1000 runs)", () => {
    fc.assert(
      fc.property(fc.subarray(EVERY), fc.array(op, { maxLength: 25 }), (rules, ops) => {
        let consent: ConsentState = initialConsentState(ids);
        let reached: Lifecycle = "pageTop";
        const pairs = [...rules];
        const done: string[] = [];
        for (const o of ops) {
          // As connectTagLifecycle: milestones only move forward; a load-tags push adds its pair.
          if (o.kind === "milestone") reached = LIFECYCLES[Math.max(LIFECYCLES.indexOf(reached), LIFECYCLES.indexOf(o.lifecycle))];
          else if (o.kind === "consent") consent = consentReducer(consent, o.event);
          else pairs.push(o.pair);
          const due = duePairs(pairs, reached, allowedBy(consent), done);
          for (const key of due) {
            const [category, lifecycle] = key.split(":") as [ConsentCategory, Lifecycle];
            expect(done).not.toContain(key);
            expect(categoryAllowed(consent, category)).toBe(true);
            expect(LIFECYCLES.indexOf(lifecycle)).toBeLessThanOrEqual(LIFECYCLES.indexOf(reached));
            done.push(key);
          }
          for (const [category, lifecycle] of pairs)
            if (categoryAllowed(consent, category) && LIFECYCLES.indexOf(lifecycle) <= LIFECYCLES.indexOf(reached))
              expect(done).toContain(`${category}:${lifecycle}`);
        }
        expect(new Set(done).size).toBe(done.length);
      }),
      { numRuns: 1000 },
    );
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
