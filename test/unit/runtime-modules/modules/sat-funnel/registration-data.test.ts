import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { daysBetween, toYyyymmdd } from "../../../../../runtime-modules/modules/sat-funnel/dates";
import { funnelStep, registrationDeduper, satRegistrationData } from "../../../../../runtime-modules/modules/sat-funnel/registration-data";

describe("dates", () => {
  it.each([
    ["2024/03/09", "20240309"],
    ["2024/3/9", "20240309"],
    ["2024-03-09", "20240309"],
    ["2024-03-09T08:00:00Z", "20240309"],
    ["20240309", "20240309"],
    ["03/09/2024", "20240309"],
    [" 2024/12/31 ", "20241231"],
    ["2024/13/01", ""],
    ["2024/00/10", ""],
    ["2024/02/32", ""],
    ["202403091", ""],
    ["March 9, 2024", ""],
    ["", ""],
    [null, ""],
  ])('"adminDate (slashes removed, yyyymmdd)": %s → %s', (input, out) => {
    expect(toYyyymmdd(input)).toBe(out);
  });

  it("yyyy/mm/dd with slashes removed is yyyymmdd for every date (property)", () => {
    fc.assert(
      fc.property(fc.date({ min: new Date("1990-01-01"), max: new Date("2099-12-31"), noInvalidDate: true }), (d) => {
        const iso = d.toISOString().slice(0, 10);
        expect(toYyyymmdd(iso.replace(/-/g, "/"))).toBe(iso.replace(/-/g, ""));
        expect(toYyyymmdd(iso)).toBe(iso.replace(/-/g, ""));
      }),
    );
  });

  it("daysBetween", () => {
    expect(daysBetween("20240301", "20240309")).toBe(8);
    expect(daysBetween("20240228", "20240301")).toBe(2);
    expect(daysBetween("20240310", "20240309")).toBe(-1);
    expect(daysBetween("20240309", "20240309")).toBe(0);
    expect(daysBetween("x", "20240309")).toBeUndefined();
  });
});

describe("SAT registration data", () => {
  const input = {
    satRegNo: " 123456789 ",
    adminType: "SAT",
    adminFormat: "digital",
    adminCode: "SAT0324",
    adminDate: "2024/03/09",
    registrantType: "Repeat",
    feeWaiver: ["offered-benefit", "claimed-benefit"],
    deviceChoice: "Bring own device",
    today: "20240220",
    steps: [{ page: "satreg:newreg:start", action: "continue", pageReach: 1 as const }],
    source: "dashboard",
    pathingHit: true,
    dedupers: ["newreg-123456789-SAT0324", "", null],
  };

  it("satRegNo, adminType, adminFormat, adminCode, adminDate, registrantType, fwType, deviceChoice, tdMinusNDays, steps, source, pathingHit, dedupers", () => {
    expect(satRegistrationData(input)).toEqual({
      satRegNo: "123456789",
      adminType: "SAT",
      adminFormat: "digital",
      adminCode: "SAT0324",
      adminDate: "20240309",
      registrantType: "repeat",
      fwType: "benefit",
      deviceChoice: "Bring own device",
      tdMinusNDays: 18,
      steps: [{ page: "satreg:newreg:start", action: "continue", pageReach: 1 }],
      source: "dashboard",
      pathingHit: true,
      dedupers: ["newreg-123456789-SAT0324"],
    });
  });

  it.each([
    ["repeat", "repeat"],
    ["REPEATER", "repeat"],
    [true, "repeat"],
    ["first-time", "other"],
    ["", "other"],
    [undefined, "other"],
    [false, "other"],
  ])('"registrantType (repeat or other)": %s → %s', (raw, type) => {
    expect(satRegistrationData({ registrantType: raw }).registrantType).toBe(type);
  });

  it.each([
    [["claimed-code"], "code"],
    [["offered-benefit", "claimed-benefit"], "benefit"],
    [["offered-benefit"], "none"],
    [undefined, "none"],
  ])('"fwType (code, benefit, none)": %o → %s', (states, type) => {
    expect(satRegistrationData({ feeWaiver: states }).fwType).toBe(type);
  });

  it.each([
    ["N/A", ""],
    ["n/a", ""],
    [" N/A ", ""],
    ["Tablet", "Tablet"],
    [undefined, ""],
  ])('"deviceChoice (N/A blanks it)": %s → %s', (raw, out) => {
    expect(satRegistrationData({ deviceChoice: raw }).deviceChoice).toBe(out);
  });

  it("tdMinusNDays: days from today to the test day; absent without both dates", () => {
    expect(satRegistrationData({ adminDate: "2024/03/09", today: "20240309" }).tdMinusNDays).toBe(0);
    expect(satRegistrationData({ adminDate: "2024/03/09", today: "20240310" }).tdMinusNDays).toBe(-1);
    expect("tdMinusNDays" in satRegistrationData({ adminDate: "2024/03/09" })).toBe(false);
    expect("tdMinusNDays" in satRegistrationData({ adminDate: "soon", today: "20240310" })).toBe(false);
  });

  it("pathingHit only for true-ish values", () => {
    for (const v of [true, "true", "1", 1, "Y"]) expect(satRegistrationData({ pathingHit: v }).pathingHit, String(v)).toBe(true);
    for (const v of [false, "false", 0, "", undefined, "no"]) expect(satRegistrationData({ pathingHit: v }).pathingHit, String(v)).toBe(false);
  });

  it("empty input gives blank strings, no steps, no dedupers", () => {
    expect(satRegistrationData({})).toEqual({
      satRegNo: "",
      adminType: "",
      adminFormat: "",
      adminCode: "",
      adminDate: "",
      registrantType: "other",
      fwType: "none",
      deviceChoice: "",
      steps: [],
      source: "",
      pathingHit: false,
      dedupers: [],
    });
  });

  it('"steps (page, action, pageReach)": pageReach 1 the first time a page is reached', () => {
    expect(funnelStep("satreg:newreg:terms", "continue", [])).toEqual({ page: "satreg:newreg:terms", action: "continue", pageReach: 1 });
    expect(funnelStep("satreg:newreg:terms", "back", ["satreg:newreg:terms"])).toEqual({ page: "satreg:newreg:terms", action: "back", pageReach: 0 });
  });

  it("registration deduper", () => {
    expect(registrationDeduper("newreg", " 123 ", "SAT0324")).toBe("newreg-123-SAT0324");
  });
});
