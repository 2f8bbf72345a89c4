import { describe, expect, it } from "vitest";
import { composePageName, declaredPage, pathPageCodes, routeKey, sitePageFacts, type Where } from "../../../../runtime-modules/tracking/page-naming";
import { pageRules } from "../analytics/rules";
import { createSigninPages } from "../../../../runtime-modules/modules/signin-pages/create-signin-pages";
import { createTestdayPages } from "../../../../runtime-modules/modules/testday-pages/create-testday-pages";

/** The page maps as the wiring takes them from the modules' commands. */
const SIGNIN = createSigninPages().commands as never;
const TESTDAY = createTestdayPages().commands as never;

const UUID = "3f2504e0-4f89-11d3-9a0c-0305e82c3301";
const at = (url: string): Where => {
  const u = new URL(url, "https://x.kiwi.example");
  return { path: u.pathname, search: u.search, hash: u.hash };
};
const app = { ...pageRules, separator: ":" as const };

describe("composePageName", () => {
  it("the path: site code and segments; the root is home; UUIDs become uuid", () => {
    expect(composePageName("bigfuture", pageRules, at("/"))).toBe("bigfuture/home");
    expect(composePageName("bigfuture", pageRules, at("/College-Search/"))).toBe("bigfuture/college-search");
    expect(composePageName("bigfuture", pageRules, at(`/college/${UUID}/overview`))).toBe("bigfuture/college/uuid/overview");
    expect(composePageName("scores", app, at("/scores/details"))).toBe("scores:scores:details");
  });
  it("allow-listed parameters appended lowercased, in allow-list order; others, dropped and redacted ones never", () => {
    expect(composePageName("bigfuture", pageRules, at("/search?q=Harvard&tab=Costs&aclev=Basic&regNo=123"))).toBe("bigfuture/search/aclev=basic/tab=costs");
    expect(composePageName("bigfuture", { ...pageRules, dropParams: ["category"] }, at("/careers?category=Arts&tab=X"))).toBe("bigfuture/careers/tab=x");
    expect(composePageName("iam", { ...pageRules, dropParams: ["state"] }, at("/login?state=abc123"))).toBe("iam/login");
    expect(composePageName("scholarships", pageRules, at("/search?state=NY"))).toBe("scholarships/search/state=ny");
  });
  it("a hash route is one more code unless it is on the prevented list", () => {
    expect(composePageName("go", pageRules, at("/#/thank-you"))).toBe("go/home/thank-you");
    expect(composePageName("go", pageRules, at("/apply#main-content"))).toBe("go/apply");
    expect(composePageName("go", pageRules, at("/apply#tst=1"))).toBe("go/apply");
  });
  it("declared codes (flow, page, view) replace the path; parameters still follow, the hash does not", () => {
    expect(composePageName("signup", pageRules, at("/x/y#step2?tab=a"), { flowCode: "Reg", pageCode: "enter data" })).toBe("signup/reg/enter-data");
    expect(composePageName("satreg", app, at("/r?step=Two"), { flowCode: "newreg", pageCode: "datetc-choosedate", viewCode: "calendar" })).toBe(
      "satreg:newreg:datetc-choosedate:calendar:step=two",
    );
    expect(composePageName("satreg", app, at("/r"), { pageCode: UUID })).toBe("satreg:uuid");
  });
  it("a declared full page name is used as is (UUIDs as uuid)", () => {
    expect(composePageName("bigfuture", pageRules, at("/a?tab=x"), { pageName: `Custom/${UUID}`, pageCode: "ignored" })).toBe("Custom/uuid");
  });
  it("error pages by code, case-insensitively, with the site's separator; other codes give site, page, code", () => {
    expect(composePageName("bigfuture", pageRules, at("/missing?tab=x"), { errorCode: "404" })).toBe("bigfuture/404errorpage");
    expect(composePageName("satreg", app, at("/"), { errorCode: "HighVolume" })).toBe("satreg:highvolumepage");
    expect(composePageName("satreg", app, at("/"), { errorCode: "DOWN" })).toBe("satreg:downpage");
    expect(composePageName("scores", app, at("/"), { errorCode: "403" })).toBe("scores:403forbidden");
    expect(composePageName("scores", app, at("/"), { errorCode: "422" })).toBe("scores:422uierrorpage");
    expect(composePageName("scores", app, at("/"), { errorCode: "500" })).toBe("scores:500errorpage");
    expect(composePageName("scores", app, at("/details"), { errorCode: "418" })).toBe("scores:details:418");
    expect(composePageName("scores", app, at("/"), { errorCode: "418" })).toBe("scores:home:418");
    expect(composePageName("scores", app, at("/"), { flowCode: "score", pageCode: "report", errorCode: "E1" })).toBe("scores:score:report:e1");
  });
  it("sign-in pages (signinPages module): a page code without flow code that is a sign-in key takes the sign-in map; flow=idp-discovery: migrate", () => {
    expect(composePageName("iam", pageRules, at("/login"), { pageCode: "enter-username-password" }, SIGNIN)).toBe("iam/login/enter-unpw");
    expect(composePageName("iam", pageRules, at("/login?flow=idp-discovery"), { pageCode: "enter-username-password" }, SIGNIN)).toBe(
      "iam/migrate/enter-username-password",
    );
    expect(composePageName("iam", pageRules, at("/login"), { pageCode: "Failed-Username" }, SIGNIN)).toBe("iam/login/fail/username");
    expect(composePageName("iam", pageRules, at("/pw"), { pageCode: "forgot-password-reset-success" }, SIGNIN)).toBe("iam/forgotpw/reset-pw-success");
    expect(composePageName("signup", pageRules, at("/reg"), { pageCode: "registration-select-type" }, SIGNIN)).toBe("signup/reg/select-type");
    // With a flow code, the codes are taken as given; a site without the map takes every code as given.
    expect(composePageName("iam", pageRules, at("/"), { flowCode: "x", pageCode: "failed-username" }, SIGNIN)).toBe("iam/x/failed-username");
    expect(composePageName("bigfuture", pageRules, at("/login"), { pageCode: "enter-username-password" })).toBe("bigfuture/enter-username-password");
  });
  it("test-day tool pages by their map (testdayPages module; ids after get/ never reach the name); a site without the map names the path", () => {
    const td = { ...pageRules, separator: ":" as const };
    expect(composePageName("testday", td, at("/rooms"), undefined, TESTDAY)).toBe("testday:rooms");
    expect(composePageName("testday", td, at("/rooms/get/12345"), undefined, TESTDAY)).toBe("testday:rooms:detail");
    expect(composePageName("testday", td, at("/irregularities/get/9"), undefined, TESTDAY)).toBe("testday:irregularities:edit");
    expect(composePageName("testday", td, at("/groups/get/" + UUID), undefined, TESTDAY)).toBe("testday:groups:detail");
    expect(composePageName("testday", td, at("/other/place"), undefined, TESTDAY)).toBe("testday:other:place");
    expect(composePageName("clep", td, at("/rooms/get/12345"))).toBe("clep:rooms:get:12345");
  });
  it("the hub: the embed environment segment is not a page code", () => {
    expect(pathPageCodes("kiwihub", "/embed-prod/pages/sat-score")).toEqual(["pages", "sat-score"]);
    expect(composePageName("kiwihub", pageRules, at("/embed-stg/pages/psat"))).toBe("kiwihub/pages/psat");
    expect(composePageName("kiwihub", pageRules, at("/embed-dev"))).toBe("kiwihub/home");
    expect(pathPageCodes("bigfuture", "/embed-prod/x")).toEqual(["embed-prod", "x"]);
  });
});

describe("declaredPage", () => {
  it("picks the page fields of a page-view push, trimmed; numbers as text; nothing usable: undefined", () => {
    expect(declaredPage({ event: "page-view", flowCode: " reg ", pageCode: "enter-data", other: 1 })).toEqual({ flowCode: "reg", pageCode: "enter-data" });
    expect(declaredPage({ errorCode: 404 })).toEqual({ errorCode: "404" });
    expect(declaredPage({ event: "page-view", pageCode: " ", viewCode: { x: 1 } })).toBeUndefined();
  });
});

describe("routeKey", () => {
  it("path, query and hash route; a prevented hash is no route", () => {
    const prevented = pageRules.preventedHashes;
    expect(routeKey(at("/a?x=1#/b"), prevented)).toBe("/a?x=1#b");
    expect(routeKey(at("/a#main-content"), prevented)).toBe(routeKey(at("/a"), prevented));
    expect(routeKey(at("/a#/c"), prevented)).not.toBe(routeKey(at("/a#/b"), prevented));
  });
});

describe("sitePageFacts", () => {
  it("conversion pages and the hub environment", () => {
    expect(sitePageFacts("signup", at("/iamweb/secure/thankYou"))).toEqual({ conversion: "registration" });
    expect(sitePageFacts("go", at("/x#thank-you"))).toEqual({ conversion: "conversion" });
    expect(sitePageFacts("kiwihub", at("/"))).toEqual({ conversion: "conversion", hubEnv: "dev" });
    expect(sitePageFacts("kiwihub", at("/embed-prod/pages"))).toEqual({ hubEnv: "prod" });
    expect(sitePageFacts("bigfuture", at("/"))).toEqual({});
  });
});
