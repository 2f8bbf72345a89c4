import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  hashCode,
  isPreventedHash,
  pageCode,
  pageName,
  pageParams,
  pathCodes,
  uuidToWord,
  withoutRedactedPairs,
} from "../../../../runtime-modules/analytics/page-name";
import { pageRules } from "./rules";

const app = { ...pageRules, separator: ":" as const };
const UUID = "3f2504e0-4f89-11d3-9a0c-0305e82c3301";

describe("page names", () => {
  it("\"Page names are composed of site code, flow code, page code and view code, joined by '/' or ':' (app style uses ':')\"", () => {
    const input = { site: "satreg", codes: ["newreg", "datetc-choosedate", "calendar"] };
    expect(pageName(input, pageRules)).toBe("satreg/newreg/datetc-choosedate/calendar");
    expect(pageName(input, app)).toBe("satreg:newreg:datetc-choosedate:calendar");
    expect(pageName({ site: "satreg", codes: ["", "ticket", " "] }, app)).toBe("satreg:ticket");
  });
  it('"UUID-shaped identifiers become the word uuid"', () => {
    expect(uuidToWord(UUID)).toBe("uuid");
    expect(uuidToWord("item-" + UUID.toUpperCase() + "-x")).toBe("item-uuid-x");
    expect(uuidToWord("3f2504e0-4f89-11d3-9a0c")).toBe("3f2504e0-4f89-11d3-9a0c");
    expect(pageName({ site: "bigfuture", codes: pathCodes("/college/" + UUID + "/overview") }, pageRules)).toBe("bigfuture/college/uuid/overview");
    expect(pageName({ site: "x", codes: ["a"], query: "step=" + UUID }, pageRules)).toBe("x/a/step=uuid");
  });
  it("UUID-shaped identifiers never survive, whatever surrounds them", () => {
    fc.assert(
      fc.property(fc.uuid(), fc.string(), fc.string(), (id, a, b) => {
        expect(pageCode(a + "/" + id + "/" + b).toLowerCase()).not.toContain(id.toLowerCase());
      }),
    );
  });
  it('"site root page code home"', () => {
    expect(pathCodes("/")).toEqual([]);
    expect(pageName({ site: "www", codes: pathCodes("/") }, pageRules)).toBe("www/home");
    expect(pageName({ site: "www", codes: pathCodes("//") }, { ...pageRules, rootPageCode: "start" })).toBe("www/start");
  });
  it("codes are trimmed and lower case, white space as hyphens", () => {
    expect(pageCode("  Score Details ")).toBe("score-details");
    expect(pathCodes("/Scores/Details/")).toEqual(["Scores", "Details"]);
  });

  describe('"URL parameters kept in page names include aclev, action, activity, applicationId, assessmentType, category, filter, sku, step, tab, testYear and others"', () => {
    const cases: Array<[string, string[]]> = [
      ["?aclev=Basic", ["aclev=basic"]],
      ["?action=Edit&activity=Quiz", ["action=edit", "activity=quiz"]],
      ["?applicationId=110&assessmentType=SAT", ["applicationId=110", "assessmentType=sat"]],
      ["?category=Majors&filter=Open", ["category=majors", "filter=open"]],
      ["?sku=AB12&step=Two&tab=Costs&testYear=2024", ["sku=ab12", "step=two", "tab=costs", "testYear=2024"]],
    ];
    for (const [query, expected] of cases) it(query, () => expect(pageParams(query, pageRules.keepParams, [])).toEqual(expected));
  });
  it('"Values are lowercased and only allow-listed parameters are appended"', () => {
    expect(pageName({ site: "bigfuture", codes: ["search"], query: "?q=Harvard&Tab=X&tab=Costs&utm_source=mail&sku=" }, pageRules)).toBe(
      "bigfuture/search/tab=costs",
    );
  });
  it("parameters are appended in allow-list order, first value only", () => {
    expect(pageParams("?tab=b&aclev=a&tab=c", pageRules.keepParams, [])).toEqual(["aclev=a", "tab=b"]);
    expect(pageParams(new URLSearchParams("tab=x"), pageRules.keepParams, [])).toEqual(["tab=x"]);
  });
  it('"Category is dropped for the career-planning site"', () => {
    const bigfuture = { ...pageRules, dropParams: ["category"] };
    expect(pageName({ site: "bigfuture", codes: ["careers"], query: "?category=arts&tab=pay" }, bigfuture)).toBe("bigfuture/careers/tab=pay");
    expect(pageName({ site: "www", codes: ["careers"], query: "?category=arts" }, pageRules)).toBe("www/careers/category=arts");
  });
  it('"and state for sign-in sites"', () => {
    const iam = { ...pageRules, dropParams: ["state"] };
    expect(pageName({ site: "iam", codes: ["login", "enter-unpw"], query: "?state=abc&step=2" }, iam)).toBe("iam/login/enter-unpw/step=2");
  });
  it('"Redacted URL parameters: u, personId, regId, regNo, i, studentid" never appear, even when allow-listed', () => {
    const keep = ["u", "personId", "regId", "regNo", "i", "studentid", "tab"];
    expect(pageParams("?u=a&personId=1&regId=2&regNo=3&i=4&studentid=5&tab=x", keep, [])).toEqual(["tab=x"]);
  });

  describe('"Hash fragments on a prevented list are ignored: widget and header controls, set-cookies, main-content, top, tst=, javascript:"', () => {
    for (const hash of ["#widget-chat", "#header-menu", "#set-cookies", "#main-content", "#top", "#tst=123", "#javascript:void(0)", "#/Main-Content", "#TOP"])
      it(hash, () => {
        expect(hashCode(hash, pageRules.preventedHashes)).toBe("");
        expect(pageName({ site: "www", codes: ["about"], hash }, pageRules)).toBe("www/about");
      });
  });
  it("a route that only starts with a listed word is a page: a plain entry is the whole route, one ending in * = or : a prefix", () => {
    for (const [hash, code] of [
      ["#topics", "topics"],
      ["#/top-picks", "top-picks"],
      ["#widgets-overview", "widgets-overview"],
      ["#headers-and-footers", "headers-and-footers"],
      ["#main-contents", "main-contents"],
    ])
      expect(hashCode(hash, pageRules.preventedHashes)).toBe(code);
    expect(isPreventedHash("widget", ["widget-*"])).toBe(false);
    expect(isPreventedHash("widget-x", ["widget-*"])).toBe(true);
    expect(isPreventedHash("TST=9", ["tst="])).toBe(true);
    expect(isPreventedHash("javascript:;", ["javascript:"])).toBe(true);
    expect(isPreventedHash("tst", ["tst="])).toBe(false);
  });
  it("a hash route's segments are joined by the site's separator (app style ':' throughout)", () => {
    expect(pageName({ site: "scores", codes: ["app"], hash: "#/Details/Math/2024" }, app)).toBe("scores:app:details:math:2024");
    expect(pageName({ site: "scores", codes: ["app"], hash: "#/details//math/" }, pageRules)).toBe("scores/app/details/math");
  });
  it("other hash fragments are one more code (SPA views)", () => {
    expect(hashCode("#/Results", pageRules.preventedHashes)).toBe("results");
    expect(hashCode("#!results", pageRules.preventedHashes)).toBe("results");
    expect(hashCode("", pageRules.preventedHashes)).toBe("");
    expect(hashCode("#/scores?regNo=123&tab=a", pageRules.preventedHashes)).toBe("scores");
    expect(pageName({ site: "go", codes: ["sat"], hash: "#thank-you", query: "?tab=a" }, pageRules)).toBe("go/sat/thank-you/tab=a");
  });
  it('"Redacted URL parameters" are dropped from codes wherever they stand: a hash route, a path segment, a declared code', () => {
    expect(pageName({ site: "scores", codes: ["scores"], hash: "#studentid=99887766" }, pageRules)).toBe("scores/scores");
    expect(pageName({ site: "scores", codes: ["scores"], hash: "#regNo=12345678&tab=2" }, pageRules)).toBe("scores/scores/tab=2");
    expect(pageName({ site: "scores", codes: ["scores"], hash: "#/report/PersonId=77;view=a" }, pageRules)).toBe("scores/scores/report/view=a");
    expect(pageName({ site: "scores", codes: pathCodes("/scores/regNo=123/details") }, app)).toBe("scores:scores:details");
    expect(withoutRedactedPairs("tab=2&u=jdoe&i=4")).toBe("tab=2");
    expect(withoutRedactedPairs("menu=1&stui=2")).toBe("menu=1&stui=2");
    expect(withoutRedactedPairs("no pairs")).toBe("no pairs");
  });
  it("the page name never holds a redacted parameter's value, for any hash route or path", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("u", "personId", "regId", "regNo", "i", "studentid", "REGNO", "reg%4Eo"),
        fc.stringMatching(/^[A-Z]{12}$/),
        fc.constantFrom("#", "#/", "#!", "#/a/", "#tab=1&", "#x;"),
        fc.constantFrom("", "&tab=2", "/next", ";v=1"),
        fc.boolean(),
        (name, value, before, after, inPath) => {
          const pair = name + "=" + value;
          const input = inPath ? { site: "s", codes: pathCodes("/p/" + pair + after) } : { site: "s", codes: ["p"], hash: before + pair + after };
          for (const rules of [pageRules, app]) expect(pageName(input, rules).toUpperCase()).not.toContain(value);
        },
      ),
    );
  });
  it("the page name never holds a redacted parameter's value, for any query", () => {
    fc.assert(
      fc.property(fc.constantFrom("u", "personId", "regId", "regNo", "i", "studentid"), fc.stringMatching(/^[A-Z]{12}$/), (name, value) => {
        const name2 = pageName({ site: "s", codes: ["p"], query: "?" + name + "=" + value + "&tab=x" }, { ...pageRules, keepParams: [name, "tab"] });
        expect(name2.toUpperCase()).not.toContain(value);
      }),
    );
  });
});
