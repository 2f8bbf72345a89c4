import { describe, expect, it } from "vitest";
import { schoolCode, TEST_ADMINS, testAdminCode, testAdminSummary } from "../../../../../runtime-modules/modules/test-orders/admins";
import { ADMIN_NAME_NOT_RECOGNIZED, DATE_REQUIRED } from "../../../../../runtime-modules/modules/test-orders/messages";

describe("administration names", () => {
  it.each([
    ["SAT School Day", "sat"],
    ["PSAT/NMSQT", "pn"],
    ["PSAT 10", "p10"],
    ["PSAT 8/9", "p89"],
    [" psat  8/9 ", "p89"],
    ["SAT", null],
    ["PSAT", null],
    ["PSAT 8", null],
    ["SAT School Day Makeup", null],
    ["", null],
    [null, null],
    ["constructor", null],
  ])('"administration name must be SAT School Day, PSAT/NMSQT, PSAT 10 or PSAT 8/9": %s → %s', (name, code) => {
    expect(testAdminCode(name)).toBe(code);
  });

  it('"admins list (type sat, pn, p10, p89)"', () => {
    expect(Object.values(TEST_ADMINS)).toEqual(["sat", "pn", "p10", "p89"]);
  });
});

describe("school code", () => {
  it.each([
    ["Lincoln High School (123456)", "123456"],
    ["Lincoln High (Springfield) (123456)", "123456"],
    ["Lincoln High [654321]", "654321"],
    ["Lincoln High (Springfield) [654321] ", "654321"],
    ["Lincoln High ( 123456 )", "123456"],
    ["Lincoln High (123456) - District", "123456"],
    ["Lincoln High", null],
    ["Lincoln High ()", null],
    ["", null],
    [undefined, null],
  ])('"School code is the text in the last brackets of the school label": %s → %s', (label, code) => {
    expect(schoolCode(label)).toBe(code);
  });
});

describe("test administration summary", () => {
  it('"aiCode, admins list (type sat, pn, p10, p89), date yyyymmdd, inContract"', () => {
    expect(
      testAdminSummary({ admins: ["SAT School Day", "PSAT 10", "SAT School Day"], schoolLabel: "Lincoln High (123456)", date: "03/05/2025", inContract: true }),
    ).toEqual({
      summary: { aiCode: "123456", admins: ["sat", "p10"], date: "20250305", inContract: true },
      errors: [],
    });
  });

  it("a label without brackets gives an empty aiCode (not an error)", () => {
    expect(testAdminSummary({ admins: ["PSAT 8/9"], schoolLabel: "Lincoln High", date: "2025-10-14" }).summary).toEqual({
      aiCode: "",
      admins: ["p89"],
      date: "20251014",
      inContract: false,
    });
  });

  it('"else error": an unknown administration name, or none', () => {
    expect(testAdminSummary({ admins: ["SAT School Day", "ACT"], date: "2025-03-05" })).toEqual({ summary: null, errors: [ADMIN_NAME_NOT_RECOGNIZED] });
    expect(testAdminSummary({ admins: [], date: "2025-03-05" })).toEqual({ summary: null, errors: [ADMIN_NAME_NOT_RECOGNIZED] });
  });

  it('"A date is required": missing, blank or not a date', () => {
    for (const date of [undefined, "", "  ", "TBD", "2025/13/01"])
      expect(testAdminSummary({ admins: ["PSAT 10"], date })).toEqual({ summary: null, errors: [DATE_REQUIRED] });
  });

  it("both errors at once", () => {
    expect(testAdminSummary({ admins: ["X"] }).errors).toEqual([ADMIN_NAME_NOT_RECOGNIZED, DATE_REQUIRED]);
  });

  it("messages are the spec's section 5 wording", () => {
    expect(ADMIN_NAME_NOT_RECOGNIZED).toBe("administration name must be SAT School Day, PSAT/NMSQT, PSAT 10 or PSAT 8/9");
    expect(DATE_REQUIRED).toBe("A date is required");
  });
});
