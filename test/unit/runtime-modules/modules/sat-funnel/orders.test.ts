import { describe, expect, it } from "vitest";
import {
  completedOrder,
  isTerminalStep,
  NEWREG_FEATURE_TYPES,
  newregFeatures,
  orderType,
  PURCHASE_ID_PREFIXES,
} from "../../../../../runtime-modules/modules/sat-funnel/orders";

describe("order types", () => {
  it.each([
    ["newreg", "SAT Registration"],
    ["satregconc", "SAT Registration"],
    ["changereg", "SAT Registration Change"],
    ["cancelreg", "SAT Registration Cancel"],
    ["answersvc", "Answer Services"],
    ["satreg-ticket", null],
    ["hasOwnProperty", null],
  ])('"Order types: SAT Registration, SAT Registration Change, SAT Registration Cancel, Answer Services": %s → %s', (flow, type) => {
    expect(orderType(flow)).toBe(type);
  });

  it('"completing an order is the terminal step"', () => {
    expect(isTerminalStep("order-complete")).toBe(true);
    expect(isTerminalStep("order-accept")).toBe(false);
    expect(isTerminalStep("photo-complete")).toBe(false);
  });

  it.each([
    ["newreg", { type: "SAT Registration", id: "R123", purchaseIdPrefix: "sr" }],
    ["satregconc", { type: "SAT Registration", id: "R123", purchaseIdPrefix: "sr" }],
    ["changereg", { type: "SAT Registration Change", id: "R123", purchaseIdPrefix: "sc" }],
    ["cancelreg", { type: "SAT Registration Cancel", id: "R123", purchaseIdPrefix: "sx" }],
    ["answersvc", { type: "Answer Services", id: "R123", purchaseIdPrefix: "sa" }],
    ["satreg-ticket", null],
  ])("the completed order of %s", (flow, transaction) => {
    expect(completedOrder(flow, "order-complete", " R123 ")).toEqual(transaction);
  });

  it("no transaction before the terminal step or without an id", () => {
    expect(completedOrder("newreg", "order-review", "R1")).toBeNull();
    expect(completedOrder("newreg", "order-complete", "")).toBeNull();
    expect(completedOrder("newreg", "order-complete", null)).toBeNull();
  });
});

describe("purchase id prefixes and feature types (section 9)", () => {
  it('"answer services sa, AP score sending as, event app be, search licensing hsl, plans hsp, CLEP cp, online meeting ev, online store so, SAT registration sr, cancel sx, change sc, score sends ss"', () => {
    expect(PURCHASE_ID_PREFIXES).toEqual({
      answerServices: "sa",
      apScoreSending: "as",
      eventApp: "be",
      searchLicensing: "hsl",
      plans: "hsp",
      clep: "cp",
      onlineMeeting: "ev",
      onlineStore: "so",
      satRegistration: "sr",
      satRegistrationCancel: "sx",
      satRegistrationChange: "sc",
      scoreSends: "ss",
    });
  });

  it('"SAT reg feature types newreg-complete: core, fw, late, intl, digital, xsell, waitlist, xas"', () => {
    expect(NEWREG_FEATURE_TYPES).toEqual(["core", "fw", "late", "intl", "digital", "xsell", "waitlist", "xas"]);
    expect(newregFeatures({})).toEqual(["core"]);
    expect(newregFeatures({ xas: true, fw: 1, late: false, digital: "y" })).toEqual(["core", "fw", "digital", "xas"]);
    expect(newregFeatures({ core: false, fw: true, late: true, intl: true, digital: true, xsell: true, waitlist: true, xas: true })).toEqual([
      ...NEWREG_FEATURE_TYPES,
    ]);
  });
});
