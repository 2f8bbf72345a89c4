import { describe, expect, it } from "vitest";
import { IdentitySchema } from "../../../../generator/config/schemas/consent-identity.js";
import { cookieAllowed, cookieRules, cookieWriteOptions, destinationCookieRule } from "../../../../runtime-modules/identity/cookie-rules";

const cookies = IdentitySchema.parse({}).cookies;
const rules = cookieRules(cookies, "ABC123@AdobeOrg");
const DAY = 86400;

describe("cookie rules", () => {
  it('"lifetime cookie (only with performance consent, 60 days)"', () => {
    expect(rules.lifetime).toMatchObject({ name: cookies.lifetime, maxAgeSeconds: 60 * DAY, requires: "performance" });
    expect(cookieAllowed(rules.lifetime, (c) => c === "performance")).toBe(true);
    expect(cookieAllowed(rules.lifetime, () => false)).toBe(false);
  });
  it('"Legacy-id cookie 390 days; destination cookies default 10 days"', () => {
    expect(rules.legacyId).toMatchObject({ name: "AMCV_ABC123%40AdobeOrg", maxAgeSeconds: 390 * DAY });
    expect(rules.destination("dst_a").maxAgeSeconds).toBe(10 * DAY);
    expect(rules.destination("dst_b", 30).maxAgeSeconds).toBe(30 * DAY);
    expect(cookieAllowed(rules.legacyId, () => false)).toBe(true);
  });
  it("a destination's own ttlDays (number or digit string) wins when positive; zero, negative, missing or junk give the default", () => {
    expect(destinationCookieRule("d", "7", cookies).maxAgeSeconds).toBe(7 * DAY);
    expect(destinationCookieRule("d", 0.5, cookies).maxAgeSeconds).toBe(DAY / 2);
    for (const junk of [0, -3, undefined, null, "", "soon", {}, Number.NaN]) expect(destinationCookieRule("d", junk, cookies).maxAgeSeconds).toBe(10 * DAY);
    expect(destinationCookieRule("d", undefined, { destinationDays: 2 }).maxAgeSeconds).toBe(2 * DAY);
  });
  it('"confirmation-step cookie": a session cookie, only with performance consent', () => {
    expect(rules.confirmationStep).toMatchObject({ name: cookies.confirmationStep, requires: "performance" });
    expect(rules.confirmationStep.maxAgeSeconds).toBeUndefined();
    expect(cookieWriteOptions(rules.confirmationStep)).toEqual({ sameSite: "Lax" });
    expect(cookieAllowed(rules.confirmationStep, (c) => c === "performance")).toBe(true);
    expect(cookieAllowed(rules.confirmationStep, () => false)).toBe(false);
  });
  it('"Scoped to parent domain, secure, lax same-site"', () => {
    for (const rule of [rules.lifetime, rules.legacyId, rules.confirmationStep, rules.destination("x")])
      expect(rule).toMatchObject({ path: "/", domain: "parent", secure: true, sameSite: "Lax" });
    expect(cookieWriteOptions(rules.lifetime)).toEqual({ maxAgeSeconds: 60 * DAY, sameSite: "Lax" });
  });
});
