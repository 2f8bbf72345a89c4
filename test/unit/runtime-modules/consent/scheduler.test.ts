import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ConsentEvent, ConsentState } from "../../../../runtime-modules/consent/state";
import type { LifecycleEvent, SchedulerState, TagSlot } from "../../../../runtime-modules/consent/scheduler";
import { CATEGORIES } from "../../../../runtime-modules/consent/categories";
import { dueTags, earliestLifecycle, initialSchedulerState, slotKey, tagSlot } from "../../../../runtime-modules/consent/scheduler";
import { categoryAllowed, consentReducer, initialConsentState } from "../../../../runtime-modules/consent/state";
import { ids, run, withGroups } from "./fixtures";

const keys = (slots: TagSlot[]) => slots.map(slotKey);
const ORDER = ["pageTop", "domReady", "windowLoaded"];

describe("tag lifecycles", () => {
  it('"Performance tags ... at page top; functional and program tags ... and marketing tags ... at DOM ready"', () => {
    expect(CATEGORIES.map((c) => [c, earliestLifecycle(c)])).toEqual([
      ["performance", "pageTop"],
      ["functional", "domReady"],
      ["marketing", "domReady"],
      ["programFunctional", "domReady"],
      ["programMarketing", "domReady"],
    ]);
    expect(tagSlot("marketing", "pageTop")).toEqual({ category: "marketing", lifecycle: "domReady" });
    expect(tagSlot("marketing", "windowLoaded")).toEqual({ category: "marketing", lifecycle: "windowLoaded" });
    expect(tagSlot("performance")).toEqual({ category: "performance", lifecycle: "pageTop" });
  });
});

describe("dueTags", () => {
  it("page top, DOM ready, window loaded with everything consented", () => {
    let s = initialSchedulerState(withGroups(",C0001,C0002,C0003,C0004,"));
    let r = dueTags(s, "page-top");
    expect(keys(r.due)).toEqual(["performance@pageTop"]);
    r = dueTags((s = r.next), "dom-ready");
    expect(keys(r.due)).toEqual(["performance@domReady", "functional@domReady", "marketing@domReady"]);
    r = dueTags((s = r.next), "window-loaded");
    expect(keys(r.due)).toEqual(["performance@windowLoaded", "functional@windowLoaded", "marketing@windowLoaded"]);
    expect(dueTags(r.next, "window-loaded").due).toEqual([]);
    expect(dueTags(r.next, "consent").due).toEqual([]);
  });
  it('"each category and lifecycle pair once per page": a repeated event gives nothing', () => {
    const s = dueTags(initialSchedulerState(withGroups(",C0001,C0002,")), "page-top").next;
    expect(dueTags(s, "page-top").due).toEqual([]);
  });
  it("pre-opt-in: nothing at any milestone; consent granted late loads every reached slot then, once", () => {
    let s: SchedulerState = initialSchedulerState(run());
    for (const e of ["page-top", "dom-ready"] as const) {
      const r = dueTags(s, e);
      expect(r.due).toEqual([]);
      s = r.next;
    }
    s = { ...s, consent: withGroups(",C0001,C0002,C0004,") };
    const late = dueTags(s, "consent");
    expect(keys(late.due)).toEqual(["performance@pageTop", "performance@domReady", "marketing@domReady"]);
    expect(dueTags(late.next, "consent").due).toEqual([]);
    expect(keys(dueTags(late.next, "window-loaded").due)).toEqual(["performance@windowLoaded", "marketing@windowLoaded"]);
  });
  it("internal sites skip waiting: everything at its milestone", () => {
    const r = dueTags(initialSchedulerState(run({ type: "internal-site" })), "dom-ready");
    expect(keys(r.due)).toEqual([
      "performance@pageTop",
      "performance@domReady",
      "functional@domReady",
      "marketing@domReady",
      "programFunctional@domReady",
      "programMarketing@domReady",
    ]);
  });
  it("a later milestone implies the earlier ones (a bundle loaded after DOM ready)", () => {
    const r = dueTags(initialSchedulerState(withGroups(",C0001,C0002,")), "window-loaded");
    expect(r.next.reached).toEqual(["pageTop", "domReady", "windowLoaded"]);
    expect(keys(r.due)).toEqual(["performance@pageTop", "performance@domReady", "performance@windowLoaded"]);
  });
  it('unknown events change nothing ("Load-tags needs consent type and lifecycle event")', () => {
    const s = initialSchedulerState(withGroups(",C0001,C0002,"));
    expect(dueTags(s, "loaded")).toEqual({ due: [], next: s });
    expect(dueTags(s, undefined)).toEqual({ due: [], next: s });
  });
});

describe("dueTags properties", () => {
  type Op = { kind: "page"; event: LifecycleEvent } | { kind: "consent"; event: ConsentEvent };
  const GROUPS = ["C0001", "C0002", "C0003", "C0004", "C0005", "C0006", "X1"];
  const op: fc.Arbitrary<Op> = fc.oneof(
    fc.constantFrom<LifecycleEvent>("page-top", "dom-ready", "window-loaded", "consent").map((event) => ({ kind: "page" as const, event })),
    fc.subarray(GROUPS).map((g) => ({ kind: "consent" as const, event: { type: "groups-updated" as const, groups: "," + g.join(",") + "," } })),
    fc.constantFrom<ConsentEvent>({ type: "banner-closed" }, { type: "banner-loaded" }, { type: "banner-failed", reason: "timeout" }, { type: "internal-site" }).map(
      (event) => ({ kind: "consent" as const, event }),
    ),
  );

  it("never returns a pair twice, never a category without consent, never before its milestone; nothing due is left behind (1000 runs)", () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 25 }), (ops) => {
        let consent: ConsentState = initialConsentState(ids);
        let s = initialSchedulerState(consent);
        const returned = new Set<string>();
        for (const o of ops) {
          let event: LifecycleEvent = "consent";
          if (o.kind === "consent") consent = consentReducer(consent, o.event);
          else event = o.event;
          const r = dueTags({ ...s, consent }, event);
          for (const slot of r.due) {
            expect(returned.has(slotKey(slot))).toBe(false);
            returned.add(slotKey(slot));
            expect(categoryAllowed(consent, slot.category)).toBe(true);
            expect(r.next.reached).toContain(slot.lifecycle);
            expect(ORDER.indexOf(slot.lifecycle)).toBeGreaterThanOrEqual(ORDER.indexOf(earliestLifecycle(slot.category)));
          }
          s = r.next;
          for (const lifecycle of s.reached)
            for (const category of CATEGORIES)
              if (categoryAllowed(consent, category) && ORDER.indexOf(lifecycle) >= ORDER.indexOf(earliestLifecycle(category)))
                expect(s.ran).toContain(category + "@" + lifecycle);
        }
        expect([...returned].sort()).toEqual([...s.ran].sort());
      }),
      { numRuns: 1000 },
    );
  });
});
