import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hashCode, pageCode, pageName, pageParams, pathCodes, uuidToWord } from "../../../../runtime-modules/analytics/page-name";
import { pageRules } from "./rules";

const app = { ...pageRules, separator: ":" as const };
const UUID = "3f2504e0-4f89-11d3-9a0c-0305e82c3301";

describe("page names", () => {
  it('"Page names are composed of site code, flow code, page code and view code, joined by \'/\' or \':\' (app style uses \':\')"', () => {
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
  it("other hash fragments are one more code (SPA views)", () => {
    expect(hashCode("#/Results", pageRules.preventedHashes)).toBe("results");
    expect(hashCode("#!results", pageRules.preventedHashes)).toBe("results");
    expect(hashCode("", pageRules.preventedHashes)).toBe("");
    expect(hashCode("#/scores?regNo=123&tab=a", pageRules.preventedHashes)).toBe("scores");
    expect(pageName({ site: "go", codes: ["sat"], hash: "#thank-you", query: "?tab=a" }, pageRules)).toBe("go/sat/thank-you/tab=a");
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
