import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { pageName } from "../../../../../runtime-modules/analytics/page-name";
import { IdentitySchema } from "../../../../../generator/config/schemas/consent-identity.js";
import { MIGRATE_PAGE, SIGNIN_PAGES, signinPageCodes } from "../../../../../runtime-modules/modules/signin-pages/create-signin-pages";
import { pageRules } from "../../analytics/rules";

const name = (key: string, query?: string) => {
  const codes = signinPageCodes(key, query);
  return codes && pageName({ site: "iam", codes }, pageRules);
};

describe("sign-in pages", () => {
  describe('"Page-name map examples: login enter-unpw, login fail username, forgotpw reset-pw-success, reg select-type, reg enter-data, reg confirm-data, reg success"', () => {
    const cases: Array<[string, string]> = [
      ["enter-username-password", "iam/login/enter-unpw"],
      ["failed-username", "iam/login/fail/username"],
      ["forgot-password-reset-success", "iam/forgotpw/reset-pw-success"],
      ["registration-select-type", "iam/reg/select-type"],
      ["registration-enter-data", "iam/reg/enter-data"],
      ["registration-confirm-data", "iam/reg/confirm-data"],
      ["registration-success", "iam/reg/success"],
    ];
    for (const [key, expected] of cases) it(key, () => expect(name(key)).toBe(expected));
  });
  describe('"Sign-in pages: enter username and password, failed username, failed password, security check, forgot username (enter email, invalid email, check email), forgot password (enter username, answer security question, invalid answer, reset password, reset success, check email, temporary reset), account locked, registration (select account type, enter data, confirm data, edit data, success), and the same for professional registration"', () => {
    const cases: Array<[string, string]> = [
      ["enter-username-password", "login/enter-unpw"],
      ["failed-username", "login/fail/username"],
      ["failed-password", "login/fail/password"],
      ["security-check", "login/security-check"],
      ["forgot-username-enter-email", "forgotun/enter-email"],
      ["forgot-username-invalid-email", "forgotun/invalid-email"],
      ["forgot-username-check-email", "forgotun/check-email"],
      ["forgot-password-enter-username", "forgotpw/enter-username"],
      ["forgot-password-security-question", "forgotpw/answer-security-question"],
      ["forgot-password-invalid-answer", "forgotpw/invalid-answer"],
      ["forgot-password-reset", "forgotpw/reset-pw"],
      ["forgot-password-reset-success", "forgotpw/reset-pw-success"],
      ["forgot-password-check-email", "forgotpw/check-email"],
      ["forgot-password-temporary-reset", "forgotpw/temp-reset-pw"],
      ["account-locked", "login/account-locked"],
      ["registration-select-type", "reg/select-type"],
      ["registration-enter-data", "reg/enter-data"],
      ["registration-confirm-data", "reg/confirm-data"],
      ["registration-edit-data", "reg/edit-data"],
      ["registration-success", "reg/success"],
      ["professional-registration-select-type", "profreg/select-type"],
      ["professional-registration-enter-data", "profreg/enter-data"],
      ["professional-registration-confirm-data", "profreg/confirm-data"],
      ["professional-registration-edit-data", "profreg/edit-data"],
      ["professional-registration-success", "profreg/success"],
    ];
    for (const [key, codes] of cases) it(key, () => expect(signinPageCodes(key)!.join("/")).toBe(codes));
    it("the map has exactly these pages, each with a distinct name", () => {
      expect(Object.keys(SIGNIN_PAGES).sort()).toEqual(cases.map((c) => c[0]).sort());
      const names = Object.values(SIGNIN_PAGES).map((c) => c.join("/"));
      expect(new Set(names).size).toBe(names.length);
    });
  });
  it('"A parameter flow=idp-discovery maps to migrate enter-username-password"', () => {
    expect(signinPageCodes("enter-username-password", "?flow=idp-discovery")).toBe(MIGRATE_PAGE);
    expect(name("enter-username-password", "?flow=idp-discovery")).toBe("iam/migrate/enter-username-password");
    expect(signinPageCodes("enter-username-password", new URLSearchParams("flow=idp-discovery"))).toEqual(["migrate", "enter-username-password"]);
  });
  it("other flows, and other pages with the flow parameter, keep their names", () => {
    expect(name("enter-username-password", "?flow=other")).toBe("iam/login/enter-unpw");
    expect(name("registration-success", "?flow=idp-discovery")).toBe("iam/reg/success");
  });
  it("a key not in the map has no codes (also Object.prototype names)", () => {
    expect(signinPageCodes("nope")).toBeUndefined();
    expect(signinPageCodes("constructor")).toBeUndefined();
    fc.assert(
      fc.property(fc.string(), (key) => {
        const codes = signinPageCodes(key);
        expect(codes === undefined || Array.isArray(codes)).toBe(true);
      }),
    );
  });
  it('"A login is counted unless the previous page name was a security check": the map\'s security-check page is what identity.securityCheckPage (default) recognises, and only it', () => {
    const securityCheck = new RegExp(IdentitySchema.parse({}).securityCheckPage);
    for (const key of Object.keys(SIGNIN_PAGES)) expect(securityCheck.test(name(key)!)).toBe(key === "security-check");
  });
});
