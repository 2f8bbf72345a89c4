import { describe, expect, it } from "vitest";
import { normalizeConfig } from "../../../preview/src/lib/bundle-config";
import { parseJar } from "../../../preview/src/lib/cookies";
import { DEFAULT_STATE } from "../../../preview/src/lib/state";
import { fakeJwt, identityCookieValue, identityView, jwtPayload, pageSetup, RETURNING_ECID } from "../../../preview/src/lib/visitor";

const config = normalizeConfig({
  site: { code: "satreg" },
  env: "prod",
  apexDomain: "kiwi.example",
  dataLayerName: "kiwiDataLayer",
  analytics: { orgId: "5E1A@AdobeOrg" },
  identity: { cookies: { signInSession: "kiwi_session", signInToken: "kiwi_token", lifetime: "kiwi_lifetime" }, loginRecordKey: "sitetags:login" },
});
const options = { frame: "f1", parentOrigin: "https://preview.kiwi.example", dataLayer: [{ order: { id: "1" } }], now: Date.UTC(2026, 0, 10) };

/** What the bridge would leave in the jar: each assignment's name=value. */
function jar(cookies: string[]): Record<string, string> {
  return parseJar(cookies.map((c) => c.split(";")[0]).join("; "));
}

describe("pageSetup", () => {
  it("an anonymous first visit before the banner: nothing but a clean slate", () => {
    const setup = pageSetup({ ...DEFAULT_STATE, consent: "pre" }, config, options);
    expect(setup).toMatchObject({
      v: 1,
      frame: "f1",
      fresh: true,
      cookies: [],
      localStorage: {},
      consentGroups: null,
      gpc: false,
      dataLayerName: "kiwiDataLayer",
      dataLayer: [{ order: { id: "1" } }],
    });
  });

  it("a returning student who accepted everything, with GPC on", () => {
    const setup = pageSetup({ ...DEFAULT_STATE, visitor: "student", visit: "returning", consent: "all", gpc: true }, config, options);
    expect(setup.fresh).toBe(false);
    expect(setup.gpc).toBe(true);
    expect(setup.consentGroups).toBe(",C0001,C0002,C0003,C0004,C0005,C0006,");
    for (const c of setup.cookies) expect(c).toMatch(/; path=\/; domain=kiwi\.example; max-age=\d+; secure; samesite=lax$/);
    const cookies = jar(setup.cookies);
    expect(Object.keys(cookies)).toEqual([
      "kiwi_session",
      "kiwi_token",
      "kndctr_5E1A_AdobeOrg_identity",
      "AMCV_5E1A%40AdobeOrg",
      "kiwi_lifetime",
      "sitetags_login",
      "OptanonAlertBoxClosed",
      "OptanonConsent",
    ]);
    expect(JSON.parse(decodeURIComponent(cookies.kiwi_session))).toMatchObject({ profileType: "ECL", namespace: "st" });
    expect(JSON.parse(setup.localStorage["sitetags:login"])).toEqual({ firstLogin: options.now - 7 * 86400000, loggedIn: true });
    // The login record's cookie: without it the bundle would not read the record.
    expect(cookies.sitetags_login).toBe("1");

    const view = identityView(cookies, config);
    expect(view).toMatchObject({ signedIn: true, accountType: "ECL", ecid: RETURNING_ECID });
    expect(view.token).toMatchObject({ accountId: "100012345", sub: "100012345" });
  });

  it("per-category consent; a professional; a customer-service representative", () => {
    expect(pageSetup({ ...DEFAULT_STATE, consent: "custom", categories: ["marketing"] }, config, options).consentGroups).toBe(",C0001,C0004,");
    expect(pageSetup({ ...DEFAULT_STATE, consent: "none" }, config, options).consentGroups).toBe(",C0001,");
    const pro = identityView(jar(pageSetup({ ...DEFAULT_STATE, visitor: "professional" }, config, options).cookies), config);
    expect(pro).toMatchObject({ signedIn: true, accountType: "EPL" });
    const csr = identityView(jar(pageSetup({ ...DEFAULT_STATE, visitor: "csr" }, config, options).cookies), config);
    expect(csr.session).toMatchObject({ csr: "Y", profileType: "EPL" });
    expect(identityView({}, config)).toMatchObject({ signedIn: false, ecid: undefined });
  });
});

describe("tokens and the identity cookie", () => {
  it("round-trip", () => {
    expect(jwtPayload(fakeJwt({ a: "ü", n: 1 }))).toEqual({ a: "ü", n: 1 });
    expect(jwtPayload("garbage")).toBeUndefined();
    const value = identityCookieValue(RETURNING_ECID);
    expect(value).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(identityView({ kndctr_5E1A_AdobeOrg_identity: value }, config).ecid).toBe(RETURNING_ECID);
  });
});
