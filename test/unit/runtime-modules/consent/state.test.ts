import { describe, expect, it } from "vitest";
import { groupsGrant, hasRequiredGroup, parseActiveGroups } from "../../../../runtime-modules/consent/active-groups";
import { CATEGORIES } from "../../../../runtime-modules/consent/categories";
import { categoryAllowed, consentMode, consentReducer, initialConsentState, isWaitingForBanner } from "../../../../runtime-modules/consent/state";
import { ids, run, withGroups } from "./fixtures";

const allowed = (s: ReturnType<typeof run>) => CATEGORIES.filter((c) => categoryAllowed(s, c));

describe("active groups", () => {
  it('parses the OneTrust string ",C0001,C0002," into whole entries', () => {
    expect(parseActiveGroups(",C0001,C0002,")).toEqual(["C0001", "C0002"]);
    expect(parseActiveGroups(" C0001 , C0004")).toEqual(["C0001", "C0004"]);
    expect(parseActiveGroups(undefined)).toEqual([]);
    expect(parseActiveGroups(42)).toEqual([]);
  });
  it("\"Consent group 'C' needed\"", () => {
    expect(hasRequiredGroup(["C0001"], ids)).toBe(true);
    expect(hasRequiredGroup(["X1"], ids)).toBe(false);
    expect(groupsGrant(["C0002"], ids, "performance")).toBe(true);
    expect(groupsGrant(["P2", "C0002x"], { ...ids, performance: "P2" }, "performance")).toBe(true);
    expect(groupsGrant(["P2"], { ...ids, performance: "P2" }, "performance")).toBe(false);
  });
  it("matches whole ids, not prefixes", () => {
    expect(groupsGrant(["C00021"], ids, "performance")).toBe(false);
  });
});

describe("consentReducer", () => {
  it('"pre-opt-in (performance, functional, marketing all off)" at the start', () => {
    const s = initialConsentState(ids);
    expect(consentMode(s)).toBe("pre-opt-in");
    expect(allowed(s)).toEqual([]);
    expect(isWaitingForBanner(s)).toBe(true);
  });
  it("banner loaded without groups: still pre-opt-in, still waiting", () => {
    const s = run({ type: "banner-loaded" });
    expect(s.banner).toBe("loaded");
    expect(consentMode(s)).toBe("pre-opt-in");
    expect(isWaitingForBanner(s)).toBe(true);
  });
  it('"opt-in from the banner", per category: performance C0002, functional C0003, marketing C0004, program C0005/C0006', () => {
    expect(allowed(withGroups(",C0001,C0002,"))).toEqual(["performance"]);
    expect(allowed(withGroups(",C0001,C0003,C0004,"))).toEqual(["functional", "marketing"]);
    expect(allowed(withGroups(",C0001,C0005,C0006,"))).toEqual(["programFunctional", "programMarketing"]);
    expect(consentMode(withGroups(",C0001,"))).toBe("opted-in");
    expect(isWaitingForBanner(withGroups(",C0001,"))).toBe(false);
  });
  it("groups without a 'C' group grant nothing (pre-opt-in)", () => {
    const s = run({ type: "groups-updated", groups: ",X0002," });
    expect(consentMode(s)).toBe("pre-opt-in");
    expect(allowed(run({ type: "groups-updated", groups: "" }))).toEqual([]);
  });
  it("a later groups report replaces the earlier one (consent withdrawn)", () => {
    const s = run({ type: "groups-updated", groups: ",C0001,C0002,C0004," }, { type: "groups-updated", groups: ",C0001,C0002," });
    expect(allowed(s)).toEqual(["performance"]);
  });
  it('"full consent on internal sites"; internal is absorbing', () => {
    const s = run({ type: "internal-site" }, { type: "groups-updated", groups: ",C0001," }, { type: "banner-failed", reason: "timeout" });
    expect(consentMode(s)).toBe("full");
    expect(allowed(s)).toEqual([...CATEGORIES]);
    expect(isWaitingForBanner(s)).toBe(false);
  });
  it("banner failure or timeout never grants, but ends the wait", () => {
    for (const reason of ["error", "timeout", "config", "skipped"] as const) {
      const s = run({ type: "banner-failed", reason });
      expect(allowed(s)).toEqual([]);
      expect(s.failure).toBe(reason);
      expect(isWaitingForBanner(s)).toBe(false);
    }
  });
  it("a failure after groups keeps the groups; a late banner report after a timeout is taken", () => {
    expect(allowed(run({ type: "groups-updated", groups: ",C0001,C0002," }, { type: "banner-failed", reason: "error" }))).toEqual(["performance"]);
    const late = run({ type: "banner-failed", reason: "timeout" }, { type: "groups-updated", groups: ",C0001,C0003," });
    expect(allowed(late)).toEqual(["functional"]);
    expect(late.banner).toBe("loaded");
  });
  it("banner closed marks an explicit choice; a failure after closing is ignored", () => {
    const s = run({ type: "groups-updated", groups: ",C0001," }, { type: "banner-closed" });
    expect(s.decided).toBe(true);
    expect(consentReducer(s, { type: "banner-failed", reason: "timeout" })).toBe(s);
    expect(consentReducer(s, { type: "groups-updated", groups: ",C0001,C0002," }).banner).toBe("closed");
  });
  it("does not mutate the state it is given", () => {
    const s = initialConsentState(ids);
    const copy = JSON.parse(JSON.stringify(s));
    consentReducer(s, { type: "groups-updated", groups: ",C0001,C0002," });
    consentReducer(s, { type: "internal-site" });
    expect(s).toEqual(copy);
  });
  it("ignores unknown events", () => {
    const s = initialConsentState(ids);
    expect(consentReducer(s, { type: "nope" } as never)).toBe(s);
  });
});
