import { describe, expect, it } from "vitest";
import { IdentitySchema } from "../../../../generator/config/schemas/consent-identity.js";
import type { WebEventInput } from "../../../../runtime-modules/identity/web-event";
import { cbWebEvent, flowKind } from "../../../../runtime-modules/identity/web-event";

const identity = IdentitySchema.parse({});
const base: WebEventInput = {
  appId: "8",
  justLoggedIn: false,
  path: "/login",
  legacy: false,
  thankYouPath: identity.thankYouPath,
  securityCheckPage: identity.securityCheckPage,
};
const ev = (over: Partial<WebEventInput>) => cbWebEvent({ ...base, ...over });
const flags = (over: Partial<WebEventInput>) => {
  const e = ev(over);
  return [e.type, e.isLogin, e.isReg, e.isMigration, e.isRegMatch];
};

describe("cbWebEvent", () => {
  it('"A login is counted unless the previous page name was a security check"', () => {
    expect(flags({ justLoggedIn: true, previousPageName: "iam:login enter-unpw" })).toEqual(["login", true, false, false, false]);
    expect(flags({ justLoggedIn: true, previousPageName: "iam:login security-check" })).toEqual(["none", false, false, false, false]);
    expect(flags({ justLoggedIn: true, previousPageName: "iam/Login Security Check" })).toEqual(["none", false, false, false, false]);
    expect(flags({ justLoggedIn: true })).toEqual(["login", true, false, false, false]);
    expect(flags({ justLoggedIn: false })).toEqual(["none", false, false, false, false]);
  });
  it('"A registration counts when a register or migrate flow reaches success or the thank-you path; then login is true"', () => {
    expect(flags({ flow: "reg", step: "success" })).toEqual(["registration", true, true, false, false]);
    expect(flags({ path: "/iamweb/secure/thankYou/" })).toEqual(["registration", true, true, false, false]);
    expect(flags({ flow: "reg", step: "confirm-data" })).toEqual(["none", false, false, false, false]);
    expect(flags({ flow: "login", step: "success" })).toEqual(["none", false, false, false, false]);
  });
  it('"Legacy or migrate flows turn registration into migration or a registration match"', () => {
    expect(flags({ flow: "reg", step: "success", legacy: true })).toEqual(["migration", true, false, true, false]);
    expect(flags({ flow: "migrate", step: "success" })).toEqual(["registration-match", true, false, false, true]);
    expect(flags({ flow: "migrate", step: "success", legacy: true })).toEqual(["migration", true, false, true, false]);
  });
  it("flow kinds", () => {
    expect([flowKind("reg"), flowKind("profreg"), flowKind("migrate"), flowKind("login"), flowKind(undefined)]).toEqual([
      "register",
      "register",
      "migrate",
      "other",
      "other",
    ]);
  });
  it("carries the application id", () => {
    expect(ev({}).appId).toBe("8");
  });
});
