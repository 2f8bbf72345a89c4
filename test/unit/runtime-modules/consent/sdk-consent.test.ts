import { describe, expect, it } from "vitest";
import { privacyConsentChanges } from "../../../../runtime-modules/consent/privacy-change";
import { consentCookieValue, consentObjects, sdkConsent } from "../../../../runtime-modules/consent/sdk-consent";
import { run, withGroups } from "./fixtures";

describe("sdkConsent", () => {
  it('"Default SDK consent pending"', () => {
    expect(sdkConsent(run())).toBe("pending");
    expect(sdkConsent(run({ type: "banner-loaded" }))).toBe("pending");
    expect(sdkConsent(run({ type: "banner-failed", reason: "timeout" }))).toBe("pending");
    expect(sdkConsent(run({ type: "banner-closed" }))).toBe("pending");
  });
  it("performance consent ⇒ in; internal sites ⇒ in", () => {
    expect(sdkConsent(withGroups(",C0001,C0002,"))).toBe("in");
    expect(sdkConsent(run({ type: "internal-site" }))).toBe("in");
  });
  it("groups without performance but no explicit choice yet ⇒ pending", () => {
    expect(sdkConsent(withGroups(",C0001,C0004,"))).toBe("pending");
  });
  it("explicit opt-out (banner closed without performance) ⇒ out; opting in again ⇒ in", () => {
    const out = run({ type: "groups-updated", groups: ",C0001,C0004," }, { type: "banner-closed" });
    expect(sdkConsent(out)).toBe("out");
    expect(sdkConsent(run({ type: "groups-updated", groups: ",C0001," }, { type: "banner-closed" }, { type: "groups-updated", groups: ",C0001,C0002," }))).toBe(
      "in",
    );
  });
  it("consent objects of the wire format: {standard: Adobe, version: 1.0, value: {general}}", () => {
    expect(consentObjects("in")).toEqual([{ standard: "Adobe", version: "1.0", value: { general: "in" } }]);
    expect(consentObjects("out")).toEqual([{ standard: "Adobe", version: "1.0", value: { general: "out" } }]);
    expect(consentObjects("pending")).toEqual([]);
  });
  it("cookie value general=in / general=out, none while pending", () => {
    expect(consentCookieValue("in")).toBe("general=in");
    expect(consentCookieValue("out")).toBe("general=out");
    expect(consentCookieValue("pending")).toBeUndefined();
  });
});

describe("privacyConsentChanges", () => {
  it('"Privacy consent change: status, region, type, action source", one record per changed category', () => {
    const before = withGroups(",C0001,C0002,C0004,");
    const after = withGroups(",C0001,C0002,C0003,");
    expect(privacyConsentChanges(before, after, { region: "US-CA", actionSource: "banner" })).toEqual([
      { status: "in", region: "US-CA", type: "functional", actionSource: "banner" },
      { status: "out", region: "US-CA", type: "marketing", actionSource: "banner" },
    ]);
  });
  it("nothing changed, no record; unknown region is No Data", () => {
    expect(privacyConsentChanges(withGroups(",C0001,"), withGroups(",C0001,"), { actionSource: "banner" })).toEqual([]);
    const changes = privacyConsentChanges(run(), run({ type: "internal-site" }), { actionSource: "internal-site" });
    expect(changes).toHaveLength(5);
    expect(changes.every((c) => c.status === "in" && c.region === "No Data")).toBe(true);
  });
});
