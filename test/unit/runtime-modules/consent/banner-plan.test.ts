import { describe, expect, it } from "vitest";
import { bannerPlan, bannerPlanEvent } from "../../../../runtime-modules/consent/banner-plan";
import { consent, extras } from "./fixtures";

const banner = { ...consent.banner, scriptSrc: "https://cdn.consentbanner.example/otSDKStub.js", domainScript: "abc-123" };
const base = { internal: false, host: "www.kiwi.example", query: "", banner, privacyHostPattern: extras.privacyHostPattern };

describe("bannerPlan", () => {
  it("skip parameter default kiwi-ccb; privacy host pattern privacy(-suffix).{host}", () => {
    expect(consent.banner.skipParam).toBe("kiwi-ccb");
    expect(extras.privacyHostPattern).toBe("^privacy(-[a-z0-9]+)?\\.");
  });
  it('"skipped on hosts of the form privacy(-suffix).{host} when a skip parameter (kiwi-ccb) is present"', () => {
    for (const host of ["privacy.kiwi.example", "privacy-qa.kiwi.example", "PRIVACY-dev.kiwi.example"])
      expect(bannerPlan({ ...base, host, query: "?kiwi-ccb" })).toEqual({ action: "skip", reason: "privacy-host" });
    expect(bannerPlan({ ...base, host: "privacy.kiwi.example", query: "?a=1&kiwi-ccb=true" }).action).toBe("skip");
  });
  it("needs both: a privacy host without the parameter, or the parameter elsewhere, loads the banner", () => {
    expect(bannerPlan({ ...base, host: "privacy.kiwi.example" }).action).toBe("load");
    expect(bannerPlan({ ...base, query: "?kiwi-ccb" }).action).toBe("load");
    expect(bannerPlan({ ...base, host: "myprivacy.kiwi.example", query: "?kiwi-ccb" }).action).toBe("load");
  });
  it('"and on internal sites"', () => {
    expect(bannerPlan({ ...base, internal: true })).toEqual({ action: "skip", reason: "internal-site" });
  });
  it('"Consent banner needs script source and domain attribute, else failed config check"', () => {
    expect(bannerPlan({ ...base, banner: { ...banner, scriptSrc: undefined } })).toEqual({ action: "fail", reason: "config", missing: ["scriptSrc"] });
    expect(bannerPlan({ ...base, banner: { ...banner, scriptSrc: undefined, domainScript: undefined } })).toEqual({
      action: "fail",
      reason: "config",
      missing: ["scriptSrc", "domainScript"],
    });
  });
  it("loads with data-domain-script; the partner curriculum site's consent domain is passed on", () => {
    expect(bannerPlan(base)).toEqual({ action: "load", src: banner.scriptSrc, attributes: { "data-domain-script": "abc-123" } });
    const partner = bannerPlan({ ...base, banner: { ...banner, consentDomain: "partner.example" } });
    expect(partner).toMatchObject({ action: "load", consentDomain: "partner.example" });
  });
  it("the consent event each plan starts with", () => {
    expect(bannerPlanEvent({ action: "skip", reason: "internal-site" })).toEqual({ type: "internal-site" });
    expect(bannerPlanEvent({ action: "skip", reason: "privacy-host" })).toEqual({ type: "banner-failed", reason: "skipped" });
    expect(bannerPlanEvent({ action: "fail", reason: "config", missing: ["scriptSrc"] })).toEqual({ type: "banner-failed", reason: "config" });
    expect(bannerPlanEvent(bannerPlan(base))).toBeUndefined();
  });
});
