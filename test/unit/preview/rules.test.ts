import { describe, expect, it } from "vitest";
import type { RuleSpec } from "../../../preview/src/lib/bundle-config";
import type { Entry, MonitorEvent } from "../../../preview/src/lib/protocol";
import { actionSummary, conditionSummary, firingCounts, groupRuleFirings } from "../../../preview/src/lib/rules";

const RULES: RuleSpec[] = [
  {
    id: "payment-confirmation",
    name: "SAT registration payment confirmation",
    events: [{ type: "libraryLoaded" }],
    conditions: [{ type: "path", equals: "/register/paymentConfirmation" }],
    actions: [
      { type: "setVariables", variables: { events: "purchase" } },
      { type: "pixel", src: "https://pixel.adpartner.example/conv?order=%orderId%", kind: "image", consent: "marketing" },
    ],
  },
  {
    id: "internal-search",
    events: [{ type: "dataLayerPush", event: "search" }],
    conditions: [
      { type: "dataElement", name: "searchTerm", exists: true },
      { type: "env", in: ["prod"] },
      { type: "not", condition: { type: "cookie", name: "x", equals: "1" } },
    ],
    actions: [{ type: "sendEvent", name: "internal search", eventType: "kiwi.internalSearch" }],
  },
  {
    id: "chain",
    events: [{ type: "click", selector: "a" }],
    conditions: [],
    actions: [
      { type: "loadScript", src: "https://x.example/a.js", consent: "functional", waitBeforeNext: true },
      { type: "sendEvent", name: "after", eventType: "kiwi.after" },
    ],
  },
];

let clock = 0;
function rule(page: number, detail: Record<string, unknown>): Entry {
  clock += 10;
  const event: MonitorEvent = { type: "rule", t: clock, ...detail };
  return { kind: "monitor", page, at: 1000 + clock, event };
}

describe("groupRuleFirings", () => {
  it("a fired rule: conditions passed, each action's outcome, pending ones still pending", () => {
    const firings = groupRuleFirings(
      [
        rule(1, { rule: "payment-confirmation", event: "libraryLoaded", state: "triggered" }),
        rule(1, { rule: "payment-confirmation", event: "libraryLoaded", state: "fired" }),
        rule(1, { rule: "payment-confirmation", event: "libraryLoaded", action: 0, actionType: "setVariables", outcome: "done" }),
      ],
      RULES,
    );
    expect(firings).toHaveLength(1);
    const f = firings[0];
    expect(f).toMatchObject({ rule: "payment-confirmation", name: "SAT registration payment confirmation", event: "libraryLoaded", state: "fired", page: 1 });
    expect(f.conditions.map((c) => [c.summary, c.result])).toEqual([['path equals "/register/paymentConfirmation"', "passed"]]);
    expect(f.actions.map((a) => [a.type, a.outcome, a.consent])).toEqual([
      ["setVariables", "done", undefined],
      ["pixel", "pending", "marketing"],
    ]);
  });

  it("a skipped rule: conditions before the failing one passed, later ones not evaluated, no action ran", () => {
    const [f] = groupRuleFirings(
      [
        rule(1, { rule: "internal-search", event: "dataLayerPush", state: "triggered" }),
        rule(1, { rule: "internal-search", event: "dataLayerPush", state: "skipped", condition: 1 }),
      ],
      RULES,
    );
    expect(f.state).toBe("skipped");
    expect(f.conditions.map((c) => c.result)).toEqual(["passed", "failed", "not evaluated"]);
    expect(f.conditions[2].summary).toBe('not (cookie x equals "1")');
    expect(f.actions.map((a) => a.outcome)).toEqual(["not run"]);
  });

  it("matches interleaved outcomes of two firings of one rule to the right firing, in order", () => {
    const firings = groupRuleFirings(
      [
        rule(1, { rule: "chain", event: "click", state: "triggered" }),
        rule(1, { rule: "chain", event: "click", state: "fired" }),
        rule(1, { rule: "chain", event: "click", state: "triggered" }),
        rule(1, { rule: "chain", event: "click", state: "fired" }),
        rule(1, { rule: "chain", event: "click", action: 0, actionType: "loadScript", outcome: "done" }),
        rule(1, { rule: "chain", event: "click", action: 0, actionType: "loadScript", outcome: "timed out" }),
        rule(1, { rule: "chain", event: "click", action: 1, actionType: "sendEvent", outcome: "done" }),
      ],
      RULES,
    );
    expect(firings.map((f) => f.actions.map((a) => a.outcome))).toEqual([
      ["done", "done"],
      // A wait-before-next action that timed out stops the rest of its firing.
      ["timed out", "not run"],
    ]);
    expect(firingCounts(firings)).toMatchObject({ fired: 2 });
  });

  it("copes with events of rules the config does not have, and with a monitor attached late", () => {
    const [f] = groupRuleFirings([rule(2, { rule: "mystery", event: "timer", action: 2, actionType: "command", outcome: "failed" })]);
    expect(f).toMatchObject({ rule: "mystery", state: "fired", page: 2 });
    expect(f.actions.map((a) => [a.index, a.type, a.outcome])).toEqual([
      [0, "?", "pending"],
      [1, "?", "pending"],
      [2, "command", "failed"],
    ]);
  });

  it("keeps firings of different pages apart", () => {
    const firings = groupRuleFirings(
      [rule(1, { rule: "chain", event: "click", state: "triggered" }), rule(2, { rule: "chain", event: "click", state: "fired" })],
      RULES,
    );
    expect(firings.map((f) => [f.page, f.state])).toEqual([
      [1, "triggered"],
      [2, "fired"],
    ]);
  });
});

describe("summaries", () => {
  it("describe every documented condition and action, and fall back to JSON", () => {
    expect(
      conditionSummary({
        type: "anyOf",
        conditions: [
          { type: "consent", category: "marketing" },
          { type: "sampling", percent: 5 },
          { type: "loggedIn", value: false },
        ],
      }),
    ).toBe("any of (consent marketing given; sampling 5%; not logged in)");
    expect(conditionSummary({ type: "dataElement", name: "listSize", gt: 5 })).toBe("dataElement listSize > 5");
    expect(conditionSummary({ type: "brandNew", x: 1 })).toBe('{"type":"brandNew","x":1}');
    expect(actionSummary({ type: "command", module: "chat", name: "open" })).toBe("command chat.open");
    expect(actionSummary({ type: "pixel", src: "https://p.example/x", consent: "marketing" })).toBe("image pixel https://p.example/x (consent marketing)");
  });
});
