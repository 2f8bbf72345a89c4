import { describe, expect, it } from "vitest";
import { activeGroupsAllow } from "../../../../runtime-modules/core/consent-rule";
import { bundleConfig } from "../helpers/config";

const groups = bundleConfig().consent.groups;

describe("activeGroupsAllow", () => {
  it("the default groups: performance C0002, functional C0003, marketing C0004, program C0005/C0006, required C", () => {
    expect(groups).toEqual({
      performance: "C0002",
      functional: "C0003",
      marketing: "C0004",
      programFunctional: "C0005",
      programMarketing: "C0006",
      required: "C",
    });
  });
  it('"a tag runs only if consent for its category is given"', () => {
    const active = ",C0001,C0002,";
    expect(activeGroupsAllow("performance", active, groups, false)).toBe(true);
    expect(activeGroupsAllow("functional", active, groups, false)).toBe(false);
    expect(activeGroupsAllow("marketing", active, groups, false)).toBe(false);
  });
  it('"program categories use a program consent check": their program group ids', () => {
    expect(activeGroupsAllow("programFunctional", ",C0001,C0005,", groups, false)).toBe(true);
    expect(activeGroupsAllow("programMarketing", ",C0001,C0005,", groups, false)).toBe(false);
    expect(activeGroupsAllow("programMarketing", ",C0001,C0006,", groups, false)).toBe(true);
    expect(activeGroupsAllow("functional", ",C0001,C0005,", groups, false)).toBe(false);
  });
  it('"Internal sites always allow"', () => {
    expect(activeGroupsAllow("marketing", undefined, groups, true)).toBe(true);
    expect(activeGroupsAllow("performance", "", groups, true)).toBe(true);
  });
  it('"pre-opt-in (performance, functional, marketing all off)": no groups string yet', () => {
    for (const category of ["performance", "functional", "marketing"] as const) {
      expect(activeGroupsAllow(category, undefined, groups, false)).toBe(false);
      expect(activeGroupsAllow(category, "", groups, false)).toBe(false);
    }
  });
  it("group ids match whole entries, not substrings", () => {
    expect(activeGroupsAllow("performance", ",C00021,", groups, false)).toBe(false);
    expect(activeGroupsAllow("performance", "C0001, C0002", groups, false)).toBe(true);
  });
  it('"Consent group \'C\' needed": no group starting with the required id, nothing runs', () => {
    const custom = { ...groups, performance: "P2", required: "C" };
    expect(activeGroupsAllow("performance", ",P2,", custom, false)).toBe(false);
    expect(activeGroupsAllow("performance", ",C0001,P2,", custom, false)).toBe(true);
    expect(activeGroupsAllow("performance", ",P2,", { ...custom, required: "" }, false)).toBe(true);
  });
});
